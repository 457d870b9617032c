#!/usr/bin/env python3
"""Writes 100 random NoGo openings: four moves each (Black, White, Black, White) by default.

Stones are placed off the first line and never next to each other, so every opening is legal
without a rules engine (no group can be short of liberties); openings equal under the board's
eight symmetries are kept once. Deterministic: rerunning writes the same file.
Usage: scripts/gen-openings.py > fixtures/openings/standard.txt
       scripts/gen-openings.py --moves 2 > fixtures/openings/two-move.txt
"""
import argparse
import random

COLUMNS = "ABCDEFGHJ"
COUNT = 100
WORDS = {2: "two", 4: "four"}


def symmetries(points):
    def images(x, y):
        for (a, b) in ((x, y), (y, x)):
            for (c, d) in ((a, b), (8 - a, b), (a, 8 - b), (8 - a, 8 - b)):
                yield (c, d)
    per_point = [list(images(x, y)) for (x, y) in points]
    return {tuple(p[k] for p in per_point) for k in range(8)}


def main():
    parser = argparse.ArgumentParser(description="Writes 100 random NoGo openings to stdout.")
    parser.add_argument("--moves", type=int, choices=sorted(WORDS), default=4,
                        help="moves in each opening, alternately Black and White (default 4)")
    moves = parser.parse_args().moves
    rng = random.Random(20261122)
    seen, lines = set(), []
    while len(lines) < COUNT:
        points = []
        while len(points) < moves:
            p = (rng.randrange(1, 8), rng.randrange(1, 8))
            if all(abs(p[0] - q[0]) + abs(p[1] - q[1]) > 1 for q in points):
                points.append(p)
        key = min(str((sorted(s[0::2]), sorted(s[1::2]))) for s in symmetries(points))
        if key in seen:
            continue
        seen.add(key)
        lines.append(" ".join(f"{COLUMNS[x]}{9 - y}" for (x, y) in points))
    title = "Standard NoGo openings" if moves == 4 else "NoGo openings"
    turns = ", ".join(["Black", "White"] * (moves // 2))
    print(f"# {title}: {WORDS[moves]} moves each ({turns}), Black to move.")
    print("# Made by scripts/gen-openings.py; format in src/tools/arena/openings.rs.")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
