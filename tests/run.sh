#!/bin/sh
# Runs every test program in BUILD/tests, then the command-line tests
# (tests/cli/*.sh), one after the other, each under a time limit, and
# prints one line per program, "NAME: P passed, F failed" (a failing
# program's output above it; above a passing one, what it skipped and why,
# a line each: "mpi: skipped: no build/loopy-mpi"), then the total "N
# passed, N failed".  Exit status 0 iff nothing failed.
#   tests/run.sh [BUILD]
# Each program's whole output is kept in BUILD/test-logs/NAME.log.
#   LOOPY_TEST_TIMEOUT  seconds a program may take (default 1200: the
#                       slowest ones under ThreadSanitizer take minutes);
#                       one still running then is stopped (SIGTERM, then
#                       SIGKILL 30 s later, with everything it started) and
#                       counted as a failure that names it
#   LOOPY_TEST_VERBOSE  1 ("make V=1 check"): every program's whole output
# Interrupted (Ctrl-C, kill, a hangup), it stops the running program and
# removes its temporary folders.  Each program gets a TMPDIR of its own
# below run.sh's folder, so what it leaves there goes too.
build=${1:-build}
limit=${LOOPY_TEST_TIMEOUT:-1200}
verbose=${LOOPY_TEST_VERBOSE:-0}
logs=$build/test-logs
passed=0
failed=0
pid=
tmp=$(mktemp -d) || exit 2
mkdir -p "$logs" || exit 2
: >"$logs/times" || exit 2

cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
# A signal stops the running program, then exits, which runs the EXIT
# trap.  SIGTERM, whatever the signal: a program started in the background
# has SIGINT ignored, and timeout, which handles SIGTERM in any case,
# passes it on to the program's whole process group.  A signal ignored on
# entry (SIGHUP under nohup) stays ignored.
stop() { # stop STATUS
    if [ -n "$pid" ]; then
        kill -s TERM "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    exit "$1"
}
trap 'stop 129' HUP
trap 'stop 130' INT
trap 'stop 143' TERM

# timeout (coreutils) puts the program in a process group of its own and
# ends the whole group at the limit: a test's stray processes go too.
if command -v timeout >/dev/null 2>&1; then
    limited="timeout -k 30 $limit"
else
    echo "run.sh: no timeout command: the tests run without a time limit"
    limited=
fi

result='^[A-Za-z0-9_ .-]+: [0-9]+ passed, [0-9]+ failed$'

# run NAME COMMAND...: runs one program, prints its line and counts it.
run() {
    name=$1
    shift
    log=$logs/$name.log
    mkdir -p "$tmp/$name"
    start=$(date +%s)
    # In the background, so that a signal to run.sh is handled at once (a
    # shell runs traps only between foreground commands); exec, so that
    # pid is timeout's (or the program's).
    (TMPDIR=$tmp/$name && export TMPDIR && exec $limited "$@") >"$log" 2>&1 </dev/null &
    pid=$!
    wait "$pid"
    rc=$?
    pid=
    rm -rf "${tmp:?}/$name"
    echo "$(($(date +%s) - start)) $name" >>"$logs/times"
    line=$(grep -E "$result" "$log" | tail -n 1)
    p=0 f=0
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
        f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
    fi
    problem=
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        problem="$name: timed out after $limit s (LOOPY_TEST_TIMEOUT), stopped"
    elif [ -z "$line" ]; then
        problem="$name: no result line (exit status $rc: crashed?)"
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        problem="$name: exit status $rc"
    fi
    if [ "$verbose" = 1 ]; then
        grep -v -E "$result" "$log"
    elif [ -n "$problem" ] || [ "$f" -ne 0 ]; then
        grep -v -E "$result" "$log" | tail -n 60
        echo "($name: its whole output is in $log)"
    else
        # What was skipped, and why, each on its own line: a program's
        # "SKIP: WHY" and "NAME: skipped: WHY" lines, and "... skipped".
        grep -E '^SKIP: |: skipped: | skipped$' "$log" |
            awk -v name="$name" '{ sub(/^SKIP: /, name ": skipped: "); print }'
    fi
    [ -z "$line" ] || echo "$line"
    passed=$((passed + p))
    failed=$((failed + f))
    if [ -n "$problem" ]; then
        echo "$problem"
        failed=$((failed + 1))
    fi
}

for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    run "$(basename "$t")" "$t"
done

for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    run "$(basename "$s" .sh)" env LOOPY="$build/loopy" sh "$s"
done

# The slowest programs, so that a suite that grows slow is seen.
echo "slowest (seconds): $(sort -rn "$logs/times" | head -n 5 | tr '\n' ' ')"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
