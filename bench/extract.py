#!/usr/bin/env python3
"""Extracts the reference C++ program of each seed problem text into a
directory, at benchmark time (the programs are never committed).

    bench/extract.py SEEDS_DIR OUT_DIR

Writes OUT_DIR/race.cpp (000_*), sleepy.cpp (001_*) and climb.cpp (002_*).
The 002 text glues its line numbers to the code ("1#include ...2using ...");
they are stripped by finding 1, 2, 3, ... in order, each where a line may
end (not inside a number)."""
import glob
import os
import sys


def program_from(text, first_line):
    start = text.index(first_line)
    return text[start:]


def unglue(code):
    """'1a2b3c' -> 'a\\nb\\nc': remove the line numbers 1..N in order."""
    assert code.startswith("1")
    pos, k, lines = 1, 2, []
    while True:
        needle = str(k)
        i = pos
        while True:
            i = code.find(needle, i)
            if i < 0:
                break
            before = code[i - 1]
            after = code[i + len(needle)] if i + len(needle) < len(code) else ""
            if not before.isdigit() and not after.isdigit():
                break
            i += 1
        if i < 0:
            lines.append(code[pos:])
            return "\n".join(lines) + "\n"
        lines.append(code[pos:i])
        pos = i + len(needle)
        k += 1


def main():
    seeds, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    names = {"000": "race", "001": "sleepy", "002": "climb"}
    for prefix, name in names.items():
        path = glob.glob(os.path.join(seeds, prefix + "_*.txt"))[0]
        text = open(path, encoding="utf-8").read()
        if name == "climb":
            code = unglue(program_from(text, "1#include"))
        else:
            code = program_from(text, "#include <bits/stdc++.h>")
        with open(os.path.join(out, name + ".cpp"), "w") as f:
            f.write(code)


main()
