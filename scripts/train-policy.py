#!/usr/bin/env python3
"""Trains the move policy of `nogo::search::policy` on self-play data (docs/policy.md).

    python scripts/train-policy.py --data runs/tree400 --out weights/policy.bin
    python scripts/train-policy.py --target value --data runs/tree400 --out weights/value.bin

With `--target value` the same network learns a correction of the search's default prior
mean of each legal move (`DATA.prior`, the mobility evaluation, which sees the whole board)
instead: the sigmoid of the prior's logit plus the move's score, fitted to the share of wins
the search found for the move's player (`DATA.means`), each move weighted by its simulations
(`DATA.visits`) as n / (n + VALUE_VISITS). The held-out figures are the weighted mean squared
error of the corrected prior (fixed point), of the default prior alone and of 0.5.

reads `DATA.planes`, `DATA.shares` and `DATA.games` (written by `cargo run --release --example
policy_data`), holds out the games whose number is a multiple of 5, fits the network to the
search's visit shares (cross-entropy over the legal moves, the eight symmetries of the board
drawn at random per batch, Adam), and writes the weights in the format `Network::from_bytes`
reads, a manifest (`--manifest`) with the held-out agreement, and the network's scores for a
few held-out inputs (`--check`) that `cargo test` compares with the Rust inference. The bot
computes in fixed point (`fixed_scores` here mirrors it exactly); the agreement is the fixed
point network's. `--weights FILE` evaluates a trained file instead of training one.
"""

import argparse
import json
import struct
import subprocess
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np

PLANES = 10
# The fixed point of `nogo::search::policy`: input planes times INPUT_FACTOR are the trained
# input times 2^INPUT_BITS; activations are at 2^ACTIVATION_BITS, saturated to int16.
INPUT_FACTOR = np.array([8, 8, 8, 8, 8, 8, 8, 8, 1, 1])
INPUT_BITS, ACTIVATION_BITS, WEIGHT_LIMIT = 3, 10, 4095.0
SCALE = (INPUT_FACTOR / 2**INPUT_BITS).astype(np.float32)
OWN_LEGAL = (3, 4)  # the planes of the side to move's legal points
VALUE_VISITS = 100.0  # a move's weight in the value's fit is n / (n + VALUE_VISITS)


def load(prefix, target):
    """The planes, the targets (N, 81, 3: share or mean, weight, prior) and the games' fields."""
    planes = np.fromfile(prefix + ".planes", dtype=np.int8).reshape(-1, PLANES, 9, 9)
    cells = lambda ext: np.fromfile(prefix + "." + ext, dtype="<f4").reshape(-1, 81)
    games = np.fromfile(prefix + ".games", dtype="<u4").reshape(-1, 2)
    if target == "value":
        visits = cells("visits")
        targets = np.stack([cells("means"), visits / (visits + VALUE_VISITS), cells("prior")], axis=2)
    else:
        shares = cells("shares")
        targets = np.stack([shares, np.ones_like(shares), np.zeros_like(shares)], axis=2)
    assert len(planes) == len(targets) == len(games), "the files disagree"
    # Self-play on several cores writes games in the order they finish: by game number (each
    # game's records keep their order), the same data trains the same weights.
    order = np.argsort(games[:, 0], kind="stable")
    return planes[order], targets[order].astype(np.float32), games[order]


def legal_mask(x):
    """The side to move's legal points, (N, 81), from NHWC input planes."""
    return (x[..., OWN_LEGAL[0]] + x[..., OWN_LEGAL[1]]).reshape(-1, 81) > 0


def features(planes):
    """NHWC float input and the mask of legal moves, from int8 planes (N, PLANES, 9, 9)."""
    x = np.transpose(planes, (0, 2, 3, 1)).astype(np.float32) * SCALE
    return x, legal_mask(x)


def init(key, width, layers):
    def conv(key, cin):
        w = jax.random.normal(key, (3, 3, cin, width)) * np.sqrt(2.0 / (9 * cin))
        return {"w": w, "b": jnp.zeros(width)}

    keys = jax.random.split(key, layers + 2)
    hidden = [conv(keys[i + 1], width) for i in range(layers)]
    for h in hidden:  # residual branches start small
        h["w"] = h["w"] * 0.1
    return {
        "input": conv(keys[0], PLANES),
        "hidden": hidden,
        "head": {"w": jax.random.normal(keys[-1], (width,)) * 0.01, "b": jnp.zeros(())},
    }


def conv3(x, p):
    y = jax.lax.conv_general_dilated(x, p["w"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y + p["b"]


def scores(params, x):
    h = jax.nn.relu(conv3(x, params["input"]))
    for layer in params["hidden"]:
        h = jax.nn.relu(conv3(h, layer) + h)
    return (h @ params["head"]["w"] + params["head"]["b"]).reshape(x.shape[0], 81)


def policy_loss(params, x, legal, target):
    """Cross-entropy of the softmax over the legal moves against the visit shares."""
    logits = jnp.where(legal, scores(params, x), -1e9)
    return -jnp.mean(jnp.sum(target[..., 0] * jax.nn.log_softmax(logits), axis=1))


def logit(p):
    return jnp.log(p) - jnp.log1p(-p)


def value_loss(params, x, legal, target):
    """Each simulated legal move's cross-entropy against its mean, weighted by its visits."""
    s = scores(params, x) + logit(target[..., 2])
    mean, weight = target[..., 0], jnp.where(legal, target[..., 1], 0.0)
    entropy = -(mean * jax.nn.log_sigmoid(s) + (1 - mean) * jax.nn.log_sigmoid(-s))
    return jnp.sum(weight * entropy) / jnp.maximum(jnp.sum(weight), 1.0)


def adam_step(loss_fn):
    return jax.jit(lambda params, state, x, legal, target, lr: adam_update(loss_fn, params, state, x, legal, target, lr))


def adam_update(loss_fn, params, state, x, legal, target, lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, legal, target)
    m, v, t = state
    t = t + 1
    m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, grads)
    v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, grads)
    corr = jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)
    params = jax.tree_util.tree_map(lambda p, m, v: p - lr * corr * m / (jnp.sqrt(v) + 1e-8), params, m, v)
    return params, (m, v, t), loss


def symmetry(x, y, k):
    """The k-th of the board's eight symmetries of NHWC planes `x` and (N, 81, C) targets `y`."""
    y = y.reshape(-1, 9, 9, y.shape[-1])
    if k & 4:
        x, y = np.swapaxes(x, 1, 2), np.swapaxes(y, 1, 2)
    if k & 2:
        x, y = x[:, ::-1], y[:, ::-1]
    if k & 1:
        x, y = x[:, :, ::-1], y[:, :, ::-1]
    return np.ascontiguousarray(x), np.ascontiguousarray(y).reshape(-1, 81, y.shape[-1])


def value_errors(params, planes, legal, targets):
    """The weighted mean squared error against the means of the fixed-point network's values,
    of the default prior's and of 0.5."""
    weight = np.where(legal, targets[..., 1], 0.0)
    errors = np.zeros(3)
    for i in range(0, len(planes), 4096):
        mean, w, prior = targets[i : i + 4096, :, 0], weight[i : i + 4096], targets[i : i + 4096, :, 2]
        values = fixed_values(params, planes[i : i + 4096], prior)
        for k, guess in enumerate([values, prior, 0.5]):
            errors[k] += float(np.sum(w * (guess - mean) ** 2))
    return errors / max(float(weight.sum()), 1e-9)


def agreement(params, planes, legal, shares):
    """Top-1 and top-3 agreement of the fixed-point network's order (board order among equal
    scores, as the bot) with the search's most visited move (the highest of `shares`, or of
    any measure that orders the moves as their visits)."""
    top1 = top3 = 0
    for i in range(0, len(planes), 4096):
        s = np.where(legal[i : i + 4096], fixed_scores(params, planes[i : i + 4096]), -(2**40))
        best = shares[i : i + 4096].argmax(axis=1)
        order = np.argsort(-s, axis=1, kind="stable")[:, :3]
        top1 += int((order[:, 0] == best).sum())
        top3 += int((order == best[:, None]).any(axis=1).sum())
    return top1 / max(len(planes), 1), top3 / max(len(planes), 1)


def fixed(value, bits):
    """value * 2^bits rounded half away from zero (Rust's `f64::round`), as int64."""
    v = np.asarray(value, dtype=np.float64) * 2.0**bits
    return (np.sign(v) * np.floor(np.abs(v) + 0.5)).astype(np.int64)


def weight_bits(w, least):
    """The largest power of two (at most 24, at least `least`) keeping |w| within WEIGHT_LIMIT."""
    largest = float(np.abs(np.asarray(w, dtype=np.float64)).max())
    for bits in range(24, least - 1, -1):
        if largest * 2.0**bits <= WEIGHT_LIMIT:
            return bits
    raise ValueError(f"a weight of {largest} is too large for fixed point")


def wrap32(v):
    """int64 values wrapped to int32, as the Rust sums wrap."""
    return ((v + 2**31) % 2**32) - 2**31


def fixed_conv(a, p, input_bits):
    """A 3x3 convolution of int64 NHWC activations at 2^input_bits, back at 2^ACTIVATION_BITS."""
    bits = weight_bits(p["w"], max(ACTIVATION_BITS + 1 - input_bits, 0))
    shift = input_bits + bits - ACTIVATION_BITS
    w = fixed(p["w"], bits)
    bias = np.clip(fixed(p["b"], input_bits + bits) + (1 << (shift - 1)), -(2**30), 2**30)
    padded = np.pad(a, ((0, 0), (1, 1), (1, 1), (0, 0)))
    sums = np.zeros(a.shape[:3] + (w.shape[3],), dtype=np.int64)
    for dy in range(3):
        for dx in range(3):
            sums += padded[:, dy : dy + 9, dx : dx + 9, :] @ w[dy, dx]
    return wrap32(sums + bias) >> shift


def fixed_scores(params, planes):
    """The bot's fixed-point scores (N, 81) of int8 planes (N, PLANES, 9, 9), exactly."""
    a = np.transpose(planes, (0, 2, 3, 1)).astype(np.int64) * INPUT_FACTOR
    h = np.clip(fixed_conv(a, params["input"], INPUT_BITS), 0, 32767)
    for layer in params["hidden"]:
        h = np.clip(fixed_conv(h, layer, ACTIVATION_BITS) + h, 0, 32767)
    bits = weight_bits(params["head"]["w"], 0)
    bias = int(np.clip(fixed(params["head"]["b"], ACTIVATION_BITS + bits), -(2**30), 2**30))
    return wrap32(h @ fixed(params["head"]["w"], bits) + bias).reshape(len(planes), 81)


def fixed_logits(scores, params):
    """Fixed-point `scores` at their real scale, as `Network::logits` gives them."""
    return scores / 2.0 ** (ACTIVATION_BITS + weight_bits(params["head"]["w"], 0))


def fixed_values(params, planes, prior):
    """The bot's corrected prior means (N, 81): the sigmoid of the prior's logit plus the
    fixed-point scores at their scale."""
    return 1 / (1 + np.exp(-(np.log(prior / (1 - prior)) + fixed_logits(fixed_scores(params, planes), params))))


def read_weights(path):
    """The parameters of a weights file written by `write_weights`."""
    data = open(path, "rb").read()
    assert data[:8] == b"NOGOPOL1", f"{path} is not a weights file"
    planes, width, layers = struct.unpack("<3I", data[8:20])
    values = np.frombuffer(data[20:], dtype="<f4")
    at = 0

    def take(*shape):
        nonlocal at
        n = int(np.prod(shape))
        at += n
        return values[at - n : at].reshape(shape)

    def conv(cin):
        return {"w": take(3, 3, cin, width), "b": take(width)}

    params = {"input": conv(planes), "hidden": [conv(width) for _ in range(layers)]}
    params["head"] = {"w": take(width), "b": take(1)[0]}
    return params, width, layers


def write_weights(path, params, width, layers):
    def conv(p):
        return [np.asarray(p["w"], dtype="<f4").ravel(), np.asarray(p["b"], dtype="<f4").ravel()]

    parts = conv(params["input"])
    for layer in params["hidden"]:
        parts += conv(layer)
    parts += [np.asarray(params["head"]["w"], dtype="<f4"), np.asarray([params["head"]["b"]], dtype="<f4")]
    with open(path, "wb") as f:
        f.write(b"NOGOPOL1" + struct.pack("<3I", PLANES, width, layers))
        for part in parts:
            f.write(part.astype("<f4").tobytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="prefix of the policy_data files")
    ap.add_argument("--target", choices=["policy", "value"], default="policy", help="what the network learns")
    ap.add_argument("--out", help="weights file to write")
    ap.add_argument("--weights", help="evaluate this weights file (and write --check) instead of training")
    ap.add_argument("--manifest", help="manifest JSON to write")
    ap.add_argument("--check", help="JSON of held-out inputs and their scores, for cargo test")
    ap.add_argument("--data-command", default="", help="the command that made the data, for the manifest")
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--epochs", type=float, default=4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not args.out and not args.weights:
        ap.error("--out (to train) or --weights (to evaluate) is needed")

    planes, targets, games = load(args.data, args.target)
    held = games[:, 0] % 5 == 0
    x_all, legal_all = features(planes)
    train = np.flatnonzero(~held)
    ph, lh, th, tree_h = planes[held], legal_all[held], targets[held], games[held, 1] == 1
    # The visit shares, or for the value a weight that grows with the visits.
    sh = th[..., 0] if args.target == "policy" else th[..., 1]
    print(f"{len(train)} training positions, {held.sum()} held out", file=sys.stderr)
    started = time.time()
    if args.weights:
        params, args.width, args.layers = read_weights(args.weights)
    else:
        params = train_network(args, x_all, targets, train)
    training_seconds = round(time.time() - started)

    roots = agreement(params, ph[~tree_h], lh[~tree_h], sh[~tree_h])
    tree = agreement(params, ph[tree_h], lh[tree_h], sh[tree_h])
    print(f"held out: roots top-1 {roots[0]:.3f} top-3 {roots[1]:.3f}; "
          f"tree nodes top-1 {tree[0]:.3f} top-3 {tree[1]:.3f}", file=sys.stderr)
    errors = {}
    if args.target == "value":
        for name, part in [("roots", ~tree_h), ("tree_nodes", tree_h)]:
            net, prior, even = value_errors(params, ph[part], lh[part], th[part])
            errors[name] = {"network": round(net, 5), "default_prior": round(prior, 5), "even": round(even, 5)}
            print(f"held out {name}: weighted squared error of the means: network {net:.5f}, "
                  f"default prior {prior:.5f}, 0.5 {even:.5f}", file=sys.stderr)
    if args.out:
        write_weights(args.out, params, args.width, args.layers)
    if args.check:
        picks = np.flatnonzero(held)[:: max(1, held.sum() // 8)][:8]
        s = fixed_scores(params, planes[picks])
        cases = [{"planes": planes[i].reshape(PLANES, 81).tolist(), "scores": s[k].tolist()} for k, i in enumerate(picks)]
        if args.target == "value":
            for case, logits in zip(cases, fixed_logits(s, params)):
                case["logits"] = logits.tolist()
        with open(args.check, "w") as f:
            json.dump(cases, f)
    if args.manifest:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        manifest = {
            "data_command": args.data_command,
            "train_command": " ".join(["python", "scripts/train-policy.py"] + sys.argv[1:]),
            "seed": args.seed,
            "commit": commit,
            "date": time.strftime("%Y-%m-%d"),
            "positions": {"training": int(len(train)), "held_out": int(held.sum())},
            "network": {"planes": PLANES, "width": args.width, "residual_layers": args.layers},
            "held_out_agreement": {
                "roots": {"top1": round(roots[0], 4), "top3": round(roots[1], 4)},
                "tree_nodes": {"top1": round(tree[0], 4), "top3": round(tree[1], 4)},
            },
            "training_seconds": training_seconds,
        }
        if errors:
            manifest["target"] = "value"
            manifest["held_out_squared_error"] = errors
        with open(args.manifest, "w") as f:
            json.dump(manifest, f, indent=2)
            f.write("\n")


def train_network(args, x_all, targets, train):
    """The parameters fitted to the positions `train`."""
    step_fn = adam_step(value_loss if args.target == "value" else policy_loss)
    rng = np.random.default_rng(args.seed)
    params = init(jax.random.PRNGKey(args.seed), args.width, args.layers)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    state = (zeros, zeros, 0)
    steps = int(args.epochs * len(train) / args.batch)
    started = time.time()
    running = None
    for step in range(steps):
        batch = rng.choice(train, args.batch, replace=False)
        x, y = symmetry(x_all[batch], targets[batch], int(rng.integers(8)))
        legal = legal_mask(x)
        lr = args.lr * 0.5 * (1 + np.cos(np.pi * step / steps))  # cosine decay
        params, state, loss = step_fn(params, state, x, legal, y, lr)
        running = float(loss) if running is None else 0.99 * running + 0.01 * float(loss)
        if step % 500 == 0 or step == steps - 1:
            eta = (time.time() - started) / (step + 1) * (steps - step - 1)
            print(f"step {step + 1}/{steps} loss {running:.4f} eta {eta:.0f}s", file=sys.stderr)
    return params


if __name__ == "__main__":
    main()
