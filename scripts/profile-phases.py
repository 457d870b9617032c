#!/usr/bin/env python3
"""Splits a `perf` profile of `nogo bench` by phase of the search.

    perf record -F 1999 --call-graph dwarf,16384 -o perf.data BINARY bench --nodes 100000
    perf script -i perf.data --inline -F ip,sym,srcline | scripts/profile-phases.py

BINARY is a release build with line tables (`CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
cargo build --release --target-dir target/profile`). Each sample goes to the first phase, in
the order below, whose function is on its stack (inlined frames included), so the ranking's
legal-set updates count as ranking, not as rules.
"""

import sys
from collections import Counter

# (phase, functions whose presence on the stack marks it), most specific first.
PHASES = [
    # The tree's calls into the solver mark its work when the solver's own functions are inlined.
    ("endgame solver (tree proofs, table probes)",
     ("Solver::", "endgame::", "solve_small_endgame", "known_proof")),
    ("ranking and widening (children ordered, blocks grown)", ("ranked_moves", "try_next", "grow_block")),
    # Before the phases that call them: a descent copies and plays a position per level (the
    # builds of 9135af6 to 23329a1 played and took moves back on one).
    ("plays on the way down (copies and plays)", ("play_unchecked", "play_recorded", "Walk::to", "::undo")),
    ("decisive-move test at new nodes", ("find_decisive", "decisive_move")),
    ("evaluation of new nodes", ("evaluate", "eval::value", " value\n", "value_of", "legal_both")),
    ("backup (statistics, proofs, history)", ("backup", "update", "record", "all_children_lost")),
    ("selection (UCB over the children)", ("select", "best_by_ucb", "lane_bests", "best_and_runner_up")),
    ("copy of the root position", ("clone", "memmove", "memcpy")),
    ("tree reuse (between turns)", ("set_root", "compact_to", "find_below", "find_descendant")),
    ("rest of the search loop", ("iterate", "think")),
]


def phase_of(sample):
    names = [line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
             for line in sample.splitlines() if line.startswith("\t")]
    if not any("nogo" in n or n.strip() in ("think", "iterate") for n in names):
        return "outside the search (start-up, kernel)"
    for phase, marks in PHASES:
        for name in names:
            if any(mark.strip() == name.strip() or mark in name for mark in marks):
                return phase
    return "outside the search (start-up, kernel)"


def main():
    samples = sys.stdin.read().split("\n\n")
    counts = Counter(phase_of(s) for s in samples if s.strip())
    total = sum(counts.values())
    print(f"| phase | share of samples ({total}) |")
    print("| --- | --- |")
    order = [p for p, _ in PHASES] + ["outside the search (start-up, kernel)"]
    for phase in order:
        if counts[phase]:
            print(f"| {phase} | {100 * counts[phase] / total:.1f}% |")


if __name__ == "__main__":
    main()
