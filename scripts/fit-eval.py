#!/usr/bin/env python3
"""Fits logistic models of the game result on evaluation features, by phase of the game.

Usage: cargo run --release --example eval_data -- GAMES NODES > data.csv
       python3 scripts/fit-eval.py data.csv          (needs numpy: pip install numpy)

For each phase (moves played) it prints the mean log-loss, the accuracy and the weights of
models built on the mobility alone and with extra features, so a candidate evaluation term
can be judged by how much it predicts beyond the mobility before it is screened in play.
"""
import sys

import numpy as np


def fit(x, y, iterations=30, l2=1e-3):
    """Logistic regression by Newton's method; returns weights (bias first), log-loss, accuracy."""
    x = np.column_stack([np.ones(len(x)), x])
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-x @ w))
        gradient = x.T @ (p - y) + l2 * w
        hessian = (x.T * (p * (1 - p))) @ x + l2 * np.eye(len(w))
        w -= np.linalg.solve(hessian, gradient)
    p = 1 / (1 + np.exp(-x @ w))
    loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
    return w, loss, np.mean((p > 0.5) == y)


def main():
    d = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
    y = d["won"]
    mobility = d["mover_only"] - d["to_move_only"]
    models = {
        "mobility": lambda m: mobility[m, None],
        "mobility, contested": lambda m: np.column_stack([mobility[m], d["contested"][m]]),
        "mobility, eye difference": lambda m: np.column_stack(
            [mobility[m], (d["eyes_mover"] - d["eyes_to_move"])[m]]),
        "mobility, open difference": lambda m: np.column_stack(
            [mobility[m], (d["open_mover"] - d["open_to_move"])[m]]),
        "all features": lambda m: np.column_stack([d[k][m] for k in d.dtype.names[:8]]),
    }
    for low, high in [(0, 20), (20, 35), (35, 50), (50, 81)]:
        m = (d["moves"] >= low) & (d["moves"] < high)
        print(f"moves {low}-{high - 1}: {m.sum()} positions")
        for name, features in models.items():
            w, loss, accuracy = fit(features(m).astype(float), y[m])
            print(f"  {name:26s} log-loss {loss:.4f} accuracy {accuracy:.3f} weights {np.round(w, 3)}")


if __name__ == "__main__":
    main()
