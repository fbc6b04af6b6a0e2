#!/bin/sh
# The test run itself: it finishes whatever signal dispositions it
# inherits, cleans up when interrupted, and stops a program that hangs.
#  - tests/cli/atomic_output.sh (whose signal cases once waited for ever
#    under "nohup make check") finishes, without a failure, under nohup
#    and with SIGHUP, SIGINT and SIGTERM all ignored;
#  - a command-line test interrupted by SIGTERM, SIGINT or SIGHUP removes
#    its temporary folder (harness.inc's traps);
#  - tests/run.sh prints one line per program, counts a program that
#    overruns LOOPY_TEST_TIMEOUT as a failure naming it, and, interrupted,
#    stops the running program (and what it started) and removes its
#    temporary folders.
# Prints "hygiene: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

# Seconds each run of atomic_output.sh may take (it takes seconds; minutes
# under sanitizers): a third of this test's own limit (tests/run.sh).
atomic_limit=$(( ${LOOPY_TEST_TIMEOUT:-1200} / 3 ))

# Starting a process with a signal's default disposition needs GNU env's
# --default-signal (a shell cannot undo an inherited "ignore").
if env --default-signal=HUP true 2>/dev/null; then
    have_env_signals=yes
else
    have_env_signals=no
fi

# wait_for PID SECONDS: waits for the background process PID at most
# SECONDS, then kills it (SIGKILL); rc is its status, hung yes or no.
wait_for() {
    rm -f "$work/.hung"
    (
        sleep "$2"
        kill -0 "$1" 2>/dev/null && : >"$work/.hung" && kill -9 "$1"
    ) >/dev/null 2>&1 &
    dog=$!
    wait "$1"
    rc=$?
    kill -9 "$dog" 2>/dev/null
    wait "$dog" 2>/dev/null
    hung=no
    [ -e "$work/.hung" ] && hung=yes
    return 0
}

# atomic_under NAME COMMAND...: atomic_output.sh run by COMMAND (which
# sets the dispositions) finishes in time and passes.
atomic_under() {
    what=$1
    shift
    (cd "$work" && exec "$@" env LOOPY="$LOOPY" sh "$root/tests/cli/atomic_output.sh") \
        >"$work/atomic.log" 2>&1 </dev/null &
    wait_for $! "$atomic_limit"
    if [ $hung = yes ]; then
        fail "atomic_output.sh $what: still running after $atomic_limit s: $(tail -n 3 "$work/atomic.log")"
    elif [ $rc -ne 0 ] || ! tail -n 1 "$work/atomic.log" | grep -q '^atomic_output: [0-9]* passed, 0 failed$'; then
        fail "atomic_output.sh $what: status $rc: $(grep -v '^atomic_output: [0-9]* passed' "$work/atomic.log" | tail -n 5) $(tail -n 1 "$work/atomic.log")"
    else
        pass
    fi
}

if command -v nohup >/dev/null 2>&1; then
    atomic_under "under nohup" nohup
else
    echo "SKIP: no nohup"
fi
if [ $have_env_signals = yes ]; then
    atomic_under "with SIGHUP, SIGINT and SIGTERM ignored" env --ignore-signal=HUP,INT,TERM
else
    echo "SKIP: no env --ignore-signal: the run with every stop signal ignored is not tried"
fi

# A harness test interrupted while it works removes its folder, and dies
# with the status of the signal.
cat >"$work/slow.sh" <<'EOF'
. "$1/tests/cli/harness.inc"
echo "$work" >"$2"
while :; do sleep 0.05; done
EOF
if [ $have_env_signals = yes ]; then
    for sig in TERM INT HUP; do
        rm -f "$work/folder"
        (cd "$root" && exec env --default-signal=$sig sh "$work/slow.sh" "$root" "$work/folder") \
            >/dev/null 2>&1 &
        pid=$!
        tries=0
        while [ $tries -lt 500 ] && [ ! -s "$work/folder" ]; do
            tries=$((tries + 1))
            sleep 0.02
        done
        folder=$(cat "$work/folder" 2>/dev/null)
        kill -s $sig $pid
        wait_for $pid 30
        if [ -z "$folder" ]; then
            fail "SIG$sig: the test did not start"
        elif [ $hung = yes ]; then
            fail "SIG$sig: the test did not stop"
        elif [ -e "$folder" ]; then
            fail "SIG$sig: its folder $folder is left"
            rm -rf "$folder"
        else
            pass
        fi
    done
else
    echo "SKIP: no env --default-signal: interrupted tests are not tried"
fi

# tests/run.sh on a build folder of made-up test programs, run from a
# folder without tests/cli: one passes, one fails, one crashes without a
# result line, one overruns the limit.
fake=$work/fake
mkdir -p "$fake/build/tests" "$fake/tmp"
cat >"$fake/build/tests/test_a_ok" <<'EOF'
#!/bin/sh
echo "some detail"
echo "test_a_ok: 2 passed, 0 failed"
EOF
cat >"$fake/build/tests/test_b_fails" <<'EOF'
#!/bin/sh
echo "FAIL: what went wrong"
echo "test_b_fails: 3 passed, 1 failed"
exit 1
EOF
cat >"$fake/build/tests/test_c_crash" <<'EOF'
#!/bin/sh
exit 3
EOF
cat >"$fake/build/tests/test_d_hangs" <<'EOF'
#!/bin/sh
echo $$ >"$MARK"
sleep 1000
EOF
chmod +x "$fake/build/tests/"*

(cd "$fake" && MARK=$fake/pid TMPDIR=$fake/tmp LOOPY_TEST_TIMEOUT=2 LOOPY_TEST_VERBOSE=0 \
    sh "$root/tests/run.sh" build >"$work/run.out" 2>&1 </dev/null) &
wait_for $! 120
cat >"$work/run.want" <<'EOF'
test_a_ok: 2 passed, 0 failed
FAIL: what went wrong
(test_b_fails: its whole output is in build/test-logs/test_b_fails.log)
test_b_fails: 3 passed, 1 failed
(test_c_crash: its whole output is in build/test-logs/test_c_crash.log)
test_c_crash: no result line (exit status 3: crashed?)
(test_d_hangs: its whole output is in build/test-logs/test_d_hangs.log)
test_d_hangs: timed out after 2 s (LOOPY_TEST_TIMEOUT), stopped
5 passed, 3 failed
EOF
if [ $hung = yes ]; then
    fail "run.sh with a hanging program did not finish"
elif [ $rc -ne 1 ] || ! grep -v '^slowest ' "$work/run.out" | cmp -s "$work/run.want" -; then
    fail "run.sh: status $rc (expected 1), its output differs:"
    grep -v '^slowest ' "$work/run.out" | diff "$work/run.want" - | head -n 20
else
    pass
fi
# The slowest programs, slowest first: the one stopped at 2 s leads.
check "run.sh names the slowest programs" grep -q -E '^slowest \(seconds\): [0-9]+ test_d_hangs ' "$work/run.out"
check "run.sh kept each program's output" grep -q '^some detail$' "$fake/build/test-logs/test_a_ok.log"
check "run.sh stopped the program that overran" sh -c '! kill -0 "$(cat "$1")" 2>/dev/null' sh "$fake/pid"
check "run.sh removed its temporary folder" [ -z "$(ls -A "$fake/tmp")" ]

# Interrupted while a program runs, run.sh stops it and cleans up.
if [ $have_env_signals = yes ]; then
    rm -f "$fake/build/tests/test_a_ok" "$fake/build/tests/test_b_fails" \
        "$fake/build/tests/test_c_crash" "$fake/pid"
    for sig in INT TERM HUP; do
        rm -f "$fake/pid"
        (cd "$fake" && MARK=$fake/pid TMPDIR=$fake/tmp LOOPY_TEST_TIMEOUT=600 exec env --default-signal=$sig \
            sh "$root/tests/run.sh" build >"$work/run.out" 2>&1 </dev/null) &
        pid=$!
        tries=0
        while [ $tries -lt 500 ] && [ ! -s "$fake/pid" ]; do
            tries=$((tries + 1))
            sleep 0.02
        done
        kill -s $sig $pid
        wait_for $pid 60
        if [ ! -s "$fake/pid" ]; then
            fail "SIG$sig to run.sh: its program did not start: $(cat "$work/run.out")"
        elif [ $hung = yes ]; then
            fail "SIG$sig to run.sh: it did not stop"
        elif kill -0 "$(cat "$fake/pid")" 2>/dev/null; then
            fail "SIG$sig to run.sh: its program still runs"
            kill -9 "$(cat "$fake/pid")"
        elif [ -n "$(ls -A "$fake/tmp")" ]; then
            fail "SIG$sig to run.sh: left $(ls -A "$fake/tmp")"
        elif grep -q 'passed, .* failed' "$work/run.out"; then
            fail "SIG$sig to run.sh: it went on: $(cat "$work/run.out")"
        else
            pass
        fi
    done
fi

finish hygiene
