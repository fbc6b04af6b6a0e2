#!/bin/sh
# Runs every test program in BUILD/tests and the command-line tests, then
# prints the total as "N passed, N failed".  Exit status 0 iff nothing failed.
#   tests/run.sh [BUILD]
build=${1:-build}
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() { # adds the "NAME: P passed, F failed" line of a finished program
    line=$(grep -E '^[A-Za-z0-9_ -]+: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$1: no result line (crashed?)"
        failed=$((failed + 1))
        return
    fi
    p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
    f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
    passed=$((passed + p))
    failed=$((failed + f))
}

for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    if "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
    grep -v -E ': [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 60
    tail -n 1 "$log"
    count "$(basename "$t")"
    if [ "$rc" -ne 0 ] && ! grep -q -E ': [0-9]+ passed, [1-9][0-9]* failed$' "$log"; then
        echo "$(basename "$t"): exit status $rc"
        failed=$((failed + 1))
    fi
done

for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    if LOOPY="$build/loopy" sh "$s" >"$log" 2>&1; then rc=0; else rc=$?; fi
    grep -v -E ': [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 60
    tail -n 1 "$log"
    count "$(basename "$s")"
    if [ "$rc" -ne 0 ] && ! grep -q -E ': [0-9]+ passed, [1-9][0-9]* failed$' "$log"; then
        echo "$(basename "$s"): exit status $rc"
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
