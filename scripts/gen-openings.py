#!/usr/bin/env python3
"""Writes fixtures/openings/standard.txt: 100 four-move openings (Black, White, Black, White).

Stones are placed off the first line and never next to each other, so every opening is legal
without a rules engine (no group can be short of liberties); openings equal under the board's
eight symmetries are kept once. Deterministic: rerunning writes the same file.
Usage: scripts/gen-openings.py > fixtures/openings/standard.txt
"""
import random

COLUMNS = "ABCDEFGHJ"
COUNT, MOVES = 100, 4


def symmetries(points):
    def images(x, y):
        for (a, b) in ((x, y), (y, x)):
            for (c, d) in ((a, b), (8 - a, b), (a, 8 - b), (8 - a, 8 - b)):
                yield (c, d)
    per_point = [list(images(x, y)) for (x, y) in points]
    return {tuple(p[k] for p in per_point) for k in range(8)}


def main():
    rng = random.Random(20261122)
    seen, lines = set(), []
    while len(lines) < COUNT:
        points = []
        while len(points) < MOVES:
            p = (rng.randrange(1, 8), rng.randrange(1, 8))
            if all(abs(p[0] - q[0]) + abs(p[1] - q[1]) > 1 for q in points):
                points.append(p)
        key = min(str((sorted(s[0::2]), sorted(s[1::2]))) for s in symmetries(points))
        if key in seen:
            continue
        seen.add(key)
        lines.append(" ".join(f"{COLUMNS[x]}{9 - y}" for (x, y) in points))
    print("# Standard NoGo openings: four moves each (Black, White, Black, White), Black to move.")
    print("# Made by scripts/gen-openings.py; format in src/arena/openings.rs.")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
