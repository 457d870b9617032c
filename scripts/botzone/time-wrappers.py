#!/usr/bin/env python3
"""Times what each Botzone wrapper adds to a restarted turn.

    time-wrappers.py [--runs N] [--nodes N] [--python PYTHON] [--cpp-bot EXE] [--dist DIR] [FIXTURE]

Runs the bare executable and each wrapper N times (default 50) on FIXTURE (default
fixtures/botzone/middle-game.json) with `--no-keep-running --nodes 100`, so the search itself
takes about a millisecond (`--nodes 0`: no --nodes, the bot's own clock decides), and prints
the median and 90th percentile wall time of a whole run (process start to exit) and the median
over the bare executable. The C++ wrapper runs by exec (from memory, from a cached file), inside
its own process (NOGO_WRAPPER_IN_PROCESS=only), and under no-exec.py, where its exec attempts
fail first (compare with the launcher alone, starting `true`). The C++ wrapper must be compiled
first (g++ -O2 -o EXE dist/nogo-botzone.cpp). Runs alternate between the commands, so a change
in the machine's load hits them alike.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--nodes", type=int, default=100)
    parser.add_argument("--python", default="python3")
    parser.add_argument("--cpp-bot", default=os.path.join(ROOT, "dist", "nogo-botzone-cpp"))
    parser.add_argument("--dist", default=os.path.join(ROOT, "dist"))
    parser.add_argument("fixture", nargs="?", default=os.path.join(ROOT, "fixtures/botzone/middle-game.json"))
    args = parser.parse_args()

    data = open(args.fixture, "rb").read()
    cache = tempfile.mkdtemp(prefix="nogo-time-wrappers-")
    from_file = {"NOGO_WRAPPER_NO_MEMFD": "1", "NOGO_WRAPPER_TMPDIR": cache}
    zip_path = os.path.join(args.dist, "nogo-botzone-python.zip")
    no_exec = [sys.executable, os.path.join(ROOT, "scripts/botzone/no-exec.py"), "--"]
    cases = [
        ("bare executable", [os.path.join(args.dist, "nogo")], {}),
        ("C++ wrapper, from memory", [args.cpp_bot], {}),
        ("C++ wrapper, cached file", [args.cpp_bot], from_file),
        ("C++ wrapper, in-process", [args.cpp_bot], {"NOGO_WRAPPER_IN_PROCESS": "only"}),
        ("C++ wrapper, exec forbidden", no_exec + [args.cpp_bot], {"NOGO_WRAPPER_TMPDIR": cache}),
        ("no-exec.py launcher alone", no_exec + ["true"], {}),
        ("Python wrapper, from memory", [args.python, zip_path], {}),
        ("Python wrapper, cached file", [args.python, zip_path], from_file),
        ("Python interpreter alone", [args.python, "-c", "pass"], {}),
    ]
    bot_args = ["--no-keep-running"] + (["--nodes", str(args.nodes)] if args.nodes else [])
    times = {name: [] for name, _, _ in cases}
    for _ in range(args.runs + 1):  # the first round warms caches and writes the cached file
        for name, command, env in cases:
            full = command + ([] if name.endswith("alone") else bot_args)
            start = time.perf_counter()
            done = subprocess.run(full, input=data, stdout=subprocess.PIPE, env=dict(os.environ, **env))
            elapsed = time.perf_counter() - start
            if done.returncode != 0 or (not name.endswith("alone") and b"response" not in done.stdout):
                raise SystemExit("%s failed: %r" % (name, done))
            times[name].append(elapsed * 1000)
    base = statistics.median(times["bare executable"][1:])
    print("%d runs each, %s, %s" % (args.runs, os.path.basename(args.fixture), " ".join(bot_args)))
    print("%-30s %10s %10s %10s %14s" % ("command", "median ms", "p90 ms", "max ms", "added ms"))
    for name, _, _ in cases:
        runs = sorted(times[name][1:])
        median = statistics.median(runs)
        p90 = runs[int(0.9 * (len(runs) - 1))]
        print("%-30s %10.1f %10.1f %10.1f %14.1f" % (name, median, p90, runs[-1], median - base))
    for f in os.listdir(cache):
        os.unlink(os.path.join(cache, f))
    os.rmdir(cache)


if __name__ == "__main__":
    main()
