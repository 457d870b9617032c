#!/usr/bin/env python3
"""Fits the move prior of src/prior.rs: how often a search chose a legal point, by its pattern.

Usage: cargo run --release --example eval_data -- GAMES NODES > data.csv
       python3 scripts/fit-prior.py data.csv > table.rs     (needs numpy: pip install numpy)

Consecutive rows of one game give the move the search chose (the stone that appears). For every
point the side to move could play, the pattern is: whether the opponent may play it too, and
how many of its neighbours are opponent stones, own stones and empty (the rest are off the
board). The prior of a pattern is ln of its smoothed choice rate, chosen / available, in units
of 1/64; the table is printed as Rust, indexed ((contested * 5 + opponent) * 5 + own) * 5 + empty.
"""
import math
import sys

import numpy as np

# Pseudo-observations at the mean rate, so rare patterns stay near the mean.
SMOOTHING = 50


def main():
    boards, moves = [], []
    with open(sys.argv[1]) as f:
        next(f)
        for line in f:
            board, m, _won, _value = line.strip().split(",")
            boards.append(np.frombuffer(board.encode(), dtype=np.uint8))
            moves.append(int(m))
    boards, moves = np.array(boards), np.array(moves)
    # Rows are from the view of the side that just moved (M); the next row of the same game
    # holds the reply as its own M stone.
    follows = np.zeros(len(boards), bool)
    follows[:-1] = moves[1:] == moves[:-1] + 1
    # eval_data plays the first four moves at random.
    follows &= moves >= 4
    rows = np.nonzero(follows)[0]
    before, after = boards[rows], boards[rows + 1]
    chosen = np.argmax((before >= ord("a")) & (after == ord("M")), axis=1)
    n = len(before)
    padded = np.full((n, 11, 11), ord("#"), np.uint8)
    padded[:, 1:10, 1:10] = before.reshape(n, 9, 9)
    beside = [padded[:, 0:9, 1:10], padded[:, 2:11, 1:10], padded[:, 1:10, 0:9], padded[:, 1:10, 2:11]]
    count = lambda test: sum(test(b).astype(np.int64) for b in beside).reshape(n, 81)
    opponent, own, empty = count(lambda b: b == ord("M")), count(lambda b: b == ord("T")), count(lambda b: b >= ord("a"))
    contested = (before == ord("c")).astype(np.int64)
    code = ((contested * 5 + opponent) * 5 + own) * 5 + empty
    legal = (before == ord("c")) | (before == ord("t"))
    available = np.bincount(code[legal], minlength=250)
    picked = np.bincount(code[np.arange(n), chosen], minlength=250)
    mean = picked.sum() / available.sum()
    rate = (picked + SMOOTHING * mean) / (available + SMOOTHING)
    table = [round(64 * math.log(r)) for r in rate]
    print(f"// scripts/fit-prior.py on {n} positions, mean rate {mean:.4f}")
    print("const PRIOR: [i16; 250] = [")
    for i in range(0, 250, 25):
        print("    " + ", ".join(str(v) for v in table[i:i + 25]) + ",")
    print("];")


if __name__ == "__main__":
    main()
