#!/usr/bin/env python3
"""Where a player loses: reads the SGF records of an arena match and reports how its losses
fall on the openings and, optionally, on the moves of the games.

Usage: nogo arena ... --sgf-dir DIR
       python3 scripts/lost-games.py DIR PLAYER [NODES BOT]

- Per opening: how many of its games PLAYER lost, as a count of openings for each number of
  losses, beside what losses independent of the opening (at the same overall rate) would give.
- With NODES and BOT (a Botzone bot, e.g. target/release/nogo): for each lost game, BOT
  searches NODES iterations on the position before each of PLAYER's moves after the opening
  and reports its win estimate (`win=` of its debug line). One line per game: the move before
  which the estimate fell most, then `move:estimate` pairs; then a summary over the games.
"""
import json
import os
import re
import statistics
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from math import comb


def parse(path):
    text = open(path).read()
    field = lambda key: re.search(key + r"\[([^\]]*)\]", text).group(1)
    opening = re.search(r"opening (\S+) \(([^)]*)\)", text)
    moves = [(m.group(1), ord(m.group(2)[0]) - 97, ord(m.group(2)[1]) - 97)
             for m in re.finditer(r";([BW])\[([a-i]{2})\]", text)]
    return {"black": field("PB"), "winner": field("RE")[0], "opening": opening.group(1),
            "opening_moves": len(opening.group(2).split()), "moves": moves}


def win_estimate(bot, nodes, moves, colour):
    """BOT's win estimate for `colour` to move after `moves`, via Botzone's JSON protocol."""
    requests = [{"x": -1, "y": -1}] if colour == "B" else []
    responses = []
    for c, x, y in moves:
        (responses if c == colour else requests).append({"x": x, "y": y})
    out = subprocess.run([bot, "--no-keep-running", "--nodes", str(nodes)], capture_output=True,
                         text=True, input=json.dumps({"requests": requests, "responses": responses}))
    found = re.search(r"win=([0-9.]+)", out.stdout)
    return float(found.group(1)) if found else float("nan")


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    sgf_dir, player = sys.argv[1], sys.argv[2]
    games = [parse(os.path.join(sgf_dir, name)) for name in sorted(os.listdir(sgf_dir))
             if name.endswith(".sgf")]
    for game in games:
        game["colour"] = "B" if game["black"] == player else "W"
        game["lost"] = game["winner"] != game["colour"]
    lost = [game for game in games if game["lost"]]

    per_opening = Counter()
    for game in games:
        per_opening[game["opening"]] += game["lost"]
    plays = Counter(game["opening"] for game in games)
    n = max(plays.values())
    rate = len(lost) / len(games)
    observed = Counter(per_opening.values())
    print(f"{player} lost {len(lost)} of {len(games)} games ({100 * rate:.1f}%)")
    print(f"openings by games lost of their {n} (observed, expected if independent of the opening):")
    for k in range(n + 1):
        expected = len(plays) * comb(n, k) * rate ** k * (1 - rate) ** (n - k)
        print(f"  {k}: {observed[k]}, {expected:.1f}")

    if len(sys.argv) == 5:
        nodes, bot = int(sys.argv[3]), sys.argv[4]
        turns = [(game, k) for game in lost for k, (c, _, _) in enumerate(game["moves"])
                 if c == game["colour"] and k >= game["opening_moves"]]
        with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            wins = list(pool.map(lambda t: win_estimate(bot, nodes, t[0]["moves"][:t[1]], t[0]["colour"]), turns))
        series = {}
        for (game, k), win in zip(turns, wins):
            series.setdefault(id(game), (game, []))[1].append((k + 1, win))
        drops, first_under, at_fifty = [], [], []
        for game, seq in series.values():
            worst = max(range(1, len(seq)), key=lambda i: seq[i - 1][1] - seq[i][1], default=0)
            drops.append(seq[worst][0])
            first_under.append(next((m for m, w in seq if w < 0.4), seq[-1][0]))
            at_fifty += [w for m, w in seq if m in (49, 50)]
            print(f"{game['opening']} {game['colour']} largest drop before move {seq[worst][0]}: "
                  + " ".join(f"{m}:{w:.2f}" for m, w in seq))
        summary = lambda xs: f"median {statistics.median(xs)}, range {min(xs)} to {max(xs)}"
        print(f"largest drop before move: {summary(drops)}")
        print(f"estimate first under 0.4 at move: {summary(first_under)}")
        if at_fifty:
            print(f"estimate at move 49 or 50: {summary(at_fifty)}; at least 0.5 in "
                  f"{sum(w >= 0.5 for w in at_fifty)} of {len(at_fifty)} games")


if __name__ == "__main__":
    main()
