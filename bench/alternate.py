#!/usr/bin/env python3
"""Times two shell commands in alternation, so that both see the same
machine (a shared machine drifts between a run of one side and the next).

    bench/alternate.py RUNS WARMUPS 'COMMAND A' 'COMMAND B'

Prints "WALL_A CPU_A WALL_B CPU_B": median wall-clock seconds and median
CPU seconds (user + system of the command and its children)."""
import os
import statistics
import subprocess
import sys
import time


def run(command):
    start = time.perf_counter()
    child = subprocess.Popen(["sh", "-c", command])
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("command failed: " + command)
    return wall, usage.ru_utime + usage.ru_stime


def main():
    runs, warmups, commands = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:5]
    times = {0: [], 1: []}
    for i in range(warmups + runs):
        # Alternate which side goes first, too.
        order = (0, 1) if i % 2 == 0 else (1, 0)
        for side in order:
            result = run(commands[side])
            if i >= warmups:
                times[side].append(result)
    out = []
    for side in (0, 1):
        out.append(statistics.median(t[0] for t in times[side]))
        out.append(statistics.median(t[1] for t in times[side]))
    print(" ".join("%.4f" % x for x in out))


main()
