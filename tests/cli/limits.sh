#!/bin/sh
# Exhausted resources end well: under a sweep of address-space limits
# (ulimit -v) and a process limit, every command either answers exactly as
# without the limit, or ends with a "loopy CMD:" message that says memory
# (or processes) ran out, exit status 4, nothing on standard output and no
# output file.  Never the OpenMP runtime's "Thread creation failed" with
# exit 1 (the status for rejected input), never exit 3 for memory.
#   LOOPY=build/loopy sh tests/cli/limits.sh
# Prints "limits: P passed, F failed" last.  Sanitizer builds reserve
# terabytes of address space, so there the sweep is skipped (and said so).
LOOPY=$(cd "$(dirname "$LOOPY")" && pwd)/$(basename "$LOOPY")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM # (runs the EXIT trap)
cd "$work" || exit 1
chmod 755 "$work"
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# Inputs large enough that every command runs threads: a chain of 10^5
# moves, a random graph of 2 * 10^5 moves, the same in adjacency form, and
# the seed problems' inputs of that size.
awk 'BEGIN { n = 100000; print n, n - 1; for (i = 1; i < n; i++) print i, i + 1 }' >chain.txt
awk 'BEGIN { srand(7); n = 50000; m = 200000; print n, m;
             for (i = 0; i < m; i++) print int(rand() * n) + 1, int(rand() * n) + 1 }' >random.txt
awk 'BEGIN { n = 100000; print n, n - 1; for (i = 1; i < n; i++) print 1, i + 1; print 0; print 1 }' >sleepy.txt
awk 'BEGIN { print 1; r = 300; c = 300; print r, c;
             for (i = 0; i < r; i++) { line = ""; for (j = 0; j < c; j++) line = line " " (i * c + j + 1); print line }
             print 2; print 1, 1; print r, c }' >climb.txt
"$LOOPY" convert -q random.txt -o random.lgr || fail "convert random.txt"

# run NAME ARGS...: the command without a limit, for the expected output.
expect() {
    name=$1
    shift
    "$LOOPY" "$@" >"want.$name" 2>/dev/null || fail "$name without a limit"
}
expect solve solve -q -t 2 chain.txt
expect solve-random solve -q -t 2 random.txt
expect solve-binary solve -q -t 2 random.lgr
expect grundy grundy -q random.txt
expect sleepy sleepy sleepy.txt
expect climb climb climb.txt

# starts VMEM_KB: whether the program starts at all under ulimit -v
# VMEM_KB (a sanitizer build's libraries may not even load: that is the
# loader's failure, before any of loopy runs, and not what is tested).
starts() {
    (ulimit -v "$1" && exec "$LOOPY" --version) >/dev/null 2>&1
}

# limited NAME VMEM_KB ARGS...: under ulimit -v VMEM_KB, the command gives
# the expected output with status 0, or fails for memory with status 4.
limited() {
    name=$1 kb=$2
    shift 2
    starts "$kb" || return 0
    (ulimit -v "$kb" && exec "$LOOPY" "$@") >out.txt 2>err.txt
    rc=$?
    if [ "$rc" -eq 0 ]; then
        if cmp -s out.txt "want.$name"; then pass; else
            fail "$name at ulimit -v $kb: exit 0 with other output"
        fi
        return
    fi
    if [ "$rc" -ne 4 ]; then
        fail "$name at ulimit -v $kb: exit $rc, expected 0 or 4: $(head -c 300 err.txt)"
    elif [ -s out.txt ]; then
        fail "$name at ulimit -v $kb: exit 4 with standard output"
    elif grep -q libgomp err.txt || ! grep -q '^loopy [a-z]*: ' err.txt ||
        ! grep -q -E 'memory|processes' err.txt; then
        fail "$name at ulimit -v $kb: message: $(head -c 300 err.txt)"
    else
        pass
    fi
}

sanitized=0
if ! (ulimit -v 200000 && exec "$LOOPY" --version) >/dev/null 2>&1; then
    sanitized=1
    echo "limits: the program does not start under ulimit -v 200000" \
        "(a sanitizer build?): sweep skipped"
else
    for kb in 6000 8000 10000 12000 16000 20000 30000 45000 70000 100000; do
        limited solve "$kb" solve -q -t 2 chain.txt
        limited solve-random "$kb" solve -q -t 2 random.txt
        limited solve-binary "$kb" solve -q -t 2 random.lgr
        limited grundy "$kb" grundy -q random.txt
        limited sleepy "$kb" sleepy sleepy.txt
        limited climb "$kb" climb climb.txt
    done
    # An output file is never left half-written.
    for kb in 8000 12000 20000 30000; do
        starts "$kb" || continue
        (ulimit -v "$kb" && exec "$LOOPY" solve -q -t 2 -o out.sol random.txt) \
            >/dev/null 2>&1
        rc=$?
        if [ "$rc" -eq 0 ]; then
            if cmp -s out.sol want.solve-random; then pass; else
                fail "-o at ulimit -v $kb: other output"
            fi
        elif [ "$rc" -ne 4 ]; then
            fail "-o at ulimit -v $kb: exit $rc, expected 0 or 4"
        elif [ -e out.sol ]; then
            fail "-o at ulimit -v $kb: exit $rc left out.sol"
        else
            pass
        fi
        rm -f out.sol
        if ls -a | grep -q -E '^\.loopy-|\.tmp\.'; then
            fail "-o at ulimit -v $kb: a temporary file is left"
        else
            pass
        fi
    done
fi

# A process limit: no thread can start beside the main one.  Root is not
# bound by it, so the run is made as nobody where this runs as root.
as_user=
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
        as_user="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
    else
        as_user=none
    fi
fi
if [ "$sanitized" -eq 1 ]; then
    # LeakSanitizer needs a thread of its own at exit.
    echo "limits: a sanitizer build: the process-limit case is skipped"
elif [ "$as_user" = none ] || ! command -v prlimit >/dev/null 2>&1; then
    echo "limits: no setpriv or prlimit: the process-limit case is skipped"
else
    chmod 644 ./*.txt ./*.lgr want.*
    for cmd in "solve -q -t 2 chain.txt:solve" "grundy -q random.txt:grundy" \
        "sleepy sleepy.txt:sleepy" "climb climb.txt:climb"; do
        name=${cmd##*:}
        # shellcheck disable=SC2086
        $as_user prlimit --nproc=1:1 "$LOOPY" ${cmd%:*} >out.txt 2>err.txt
        rc=$?
        if [ "$rc" -eq 0 ] && cmp -s out.txt "want.$name" && [ ! -s err.txt ]; then
            pass
        else
            fail "$name under a process limit: exit $rc: $(head -c 300 err.txt)"
        fi
    done
fi

echo "limits: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
