"""Runs `nogo bench` and reads its figures, for scripts/bench-compare and scripts/thread-scaling."""

import re
import subprocess
import sys

# Today's lines (a row's rate is its second to last column) and those of builds before 0.3.0.
MIDDLE = [re.compile(r"^middle game\s+\S+\s+\d+\s+\d+\s+\d+\s+(\d+)\s+\d+%$", re.M),
          re.compile(r"^middle game .* (\d+) it/s$", re.M)]
TOTAL = [re.compile(r"^\d+ simulations in [0-9.]+ s: (\d+) simulations/s", re.M),
         re.compile(r"^\d+ iterations (\d+) it/s$", re.M)]
SIGNATURE = re.compile(r"^signature (\w+)", re.M)


def first_match(patterns, text):
    """The first group of the first of `patterns` found in `text`, as a number, or None."""
    for pattern in patterns:
        found = pattern.search(text)
        if found:
            return int(found.group(1))
    return None


def bench(binary, args, script):
    """`binary bench ARGS`: the middle game's simulations a second, all positions', and the
    signature; exits naming `script` when the bench fails or prints something else."""
    command = [binary, "bench"] + list(args)
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        sys.exit(f"{script}: cannot run {binary}: {error.strerror}")
    out = done.stdout
    middle, total, signature = first_match(MIDDLE, out), first_match(TOTAL, out), SIGNATURE.search(out)
    if done.returncode != 0 or middle is None or total is None or not signature:
        sys.exit(f"{script}: {' '.join(command)} exited with {done.returncode}:\n{out}{done.stderr.strip()[-300:]}")
    return middle, total, signature.group(1)
