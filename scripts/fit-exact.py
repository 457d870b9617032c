#!/usr/bin/env python3
"""How well late-game features predict the exact result: logistic fits on the rows of
`cargo run --release --example exact_labels` (needs numpy).

Usage: python3 scripts/fit-exact.py exact.csv

Each model is fitted on the games whose number is not a multiple of 5 and judged on the
others: mean log-loss and accuracy against the solver's result, by range of empty points.
Weights are printed bias first; a feature's weight over the mobility's is its worth in
points of mobility.
"""
import sys

import numpy as np


def fit(x, y, iterations=30, l2=1e-3):
    """Logistic regression by Newton's method; returns the weights, bias first."""
    x = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    return w


def judge(x, y, w):
    p = 1 / (1 + np.exp(-np.clip(np.column_stack([np.ones(len(x)), x]) @ w, -30, 30)))
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(), ((p > 0.5) == (y > 0.5)).mean()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
    print(f"{len(d)} positions from {len(np.unique(d['game']))} games; the mover wins {d['won'].mean():.3f}")
    test = d["game"] % 5 == 0
    eyes = d["eyes_mover"] - d["eyes_to_move"]
    piles = d["piles_mover"] - d["piles_to_move"]
    models = {
        "mobility": [d["mobility"]],
        "mobility, eyes": [d["mobility"], eyes],
        "mobility, eyes, piles": [d["mobility"], eyes, piles],
    }
    low, high = int(d["empty"].min()), int(d["empty"].max())
    middle = (low + high) // 2
    for first, last in [(low, middle), (middle + 1, high), (low, high)]:
        rows = (d["empty"] >= first) & (d["empty"] <= last)
        print(f"-- {first} to {last} empty points: {np.sum(rows & ~test)} rows to fit, {np.sum(rows & test)} to judge")
        for name, columns in models.items():
            x = np.column_stack(columns)
            w = fit(x[rows & ~test], d["won"][rows & ~test])
            loss, accuracy = judge(x[rows & test], d["won"][rows & test], w)
            print(f"{name:24s} log-loss {loss:.4f} accuracy {accuracy:.3f} weights {np.round(w, 3)}")


if __name__ == "__main__":
    main()
