#!/usr/bin/env python3
"""Fits logistic models of the game result on features of the board, by phase of the game.

Usage: cargo run --release --example eval_data -- GAMES NODES > data.csv
       python3 scripts/fit-eval.py data.csv          (needs numpy: pip install numpy)

Each model is fitted on the first 80% of the rows (whole games, in order) and judged on the
rest: mean log-loss and accuracy against the result, so a candidate evaluation can be judged
by how much it predicts beyond the mobility before it is built and screened in play. Models:
- mobility: points only the mover may play minus points only the side to move may play;
- location x state: for each of the 15 classes of points under the board's symmetries, how
  many are mover stones, stones of the side to move, mover-only, to-move-only, dead;
- neighbour patterns: for each empty point, its legality (both, mover, to-move, neither) with
  how many of its neighbours are mover stones, to-move stones and empty; the count of each.
"""
import sys

import numpy as np

STATES = b"MTmtd"


def load(path):
    boards, moves, won = [], [], []
    with open(path) as f:
        next(f)
        for line in f:
            board, m, w, _value = line.strip().split(",")
            boards.append(np.frombuffer(board.encode(), dtype=np.uint8))
            moves.append(int(m))
            won.append(int(w))
    return np.array(boards), np.array(moves), np.array(won, float)


def fit(x, y, iterations=25, l2=1.0):
    """Logistic regression by Newton's method; returns the weights, bias first."""
    x = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x.T * (p * (1 - p) + 1e-6)) @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def judge(x, y, w):
    p = 1 / (1 + np.exp(-np.clip(np.column_stack([np.ones(len(x)), x]) @ w, -30, 30)))
    loss = -np.mean(y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9))
    return loss, np.mean((p > 0.5) == (y > 0.5))


def location_features(boards):
    classes = {}
    of_point = np.array([classes.setdefault(tuple(sorted((min(x, 8 - x), min(y, 8 - y)))), len(classes))
                         for y in range(9) for x in range(9)])
    onehot = np.stack([boards == s for s in STATES], axis=2)
    return np.concatenate([onehot[:, of_point == k, :].sum(axis=1) for k in range(len(classes))], axis=1)


def pattern_features(boards):
    n = len(boards)
    padded = np.full((n, 11, 11), ord("#"), np.uint8)
    padded[:, 1:10, 1:10] = boards.reshape(n, 9, 9)
    beside = [padded[:, 0:9, 1:10], padded[:, 2:11, 1:10], padded[:, 1:10, 0:9], padded[:, 1:10, 2:11]]
    count = lambda test: sum(test(b).astype(np.int64) for b in beside).reshape(n, 81)
    mover, to_move = count(lambda b: b == ord("M")), count(lambda b: b == ord("T"))
    empty = count(lambda b: b >= ord("a"))
    legality = np.full((n, 81), -1)
    for i, s in enumerate(b"cmtd"):
        legality[boards == s] = i
    code = ((legality * 5 + mover) * 5 + to_move) * 5 + empty
    x = np.zeros((n, 4 * 125))
    rows, cols = np.nonzero(legality >= 0)
    np.add.at(x, (rows, code[rows, cols]), 1)
    return x[:, x.sum(axis=0) > 50]


def main():
    boards, moves, won = load(sys.argv[1])
    mobility = ((boards == ord("m")).sum(1) - (boards == ord("t")).sum(1))[:, None]
    models = {
        "mobility": mobility,
        "location x state": location_features(boards),
        "neighbour patterns": pattern_features(boards),
    }
    cut = int(len(boards) * 0.8)
    for low, high in [(1, 20), (20, 35), (35, 50), (50, 81)]:
        phase = (moves >= low) & (moves < high)
        train, test = phase.copy(), phase.copy()
        train[cut:], test[:cut] = False, False
        print(f"moves {low}-{high - 1}: {train.sum()} positions to fit, {test.sum()} to judge")
        for name, x in models.items():
            w = fit(x[train].astype(float), won[train])
            loss, accuracy = judge(x[test], won[test], w)
            print(f"  {name:20s} log-loss {loss:.4f} accuracy {accuracy:.3f}")


if __name__ == "__main__":
    main()
