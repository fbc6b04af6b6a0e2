#!/bin/sh
# Builds the libFuzzer harnesses (make fuzz: clang, ASan + UBSan) and runs
# each for a bounded time, failing on any crash, leak, sanitizer report or
# timeout.  Prints the executions run per fuzzer, then the total line
# "fuzz: P passed, F failed".
#
#   fuzz/run.sh [NAME...]          (default: every fuzz/NAME.c)
#
# Environment: FUZZ_SECONDS (per fuzzer, default 60), FUZZ_TIMEOUT (seconds
# one input may take, default 10), FUZZ_MAX_LEN (input bytes, default 4096),
# FUZZ_RSS_MB (memory limit, default 2048), FUZZ_JOBS (fuzzers at a time,
# default one per core), FUZZ_NO_BUILD=1 to skip make.
#
# ci/fuzz.sh is the CI entry point (installs clang when missing).
# Inputs found are kept in fuzz/work/NAME/corpus (not committed; copy the
# interesting ones into fuzz/corpus/NAME/), crashes in fuzz/work/NAME/crashes.
cd "$(dirname "$0")/.." || exit 1
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
max_len=${FUZZ_MAX_LEN:-4096}
rss_mb=${FUZZ_RSS_MB:-2048}

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    if ! make fuzz >fuzz/build.log 2>&1; then
        tail -n 30 fuzz/build.log
        echo "fuzz: building the fuzzers failed (make fuzz)"
        exit 1
    fi
    rm -f fuzz/build.log
fi

names=$*
if [ -z "$names" ]; then
    for f in fuzz/*.c; do
        names="$names $(basename "$f" .c)"
    done
fi

# One fuzzer: its report to fuzz/work/NAME/result, its verdict (pass or
# fail) to fuzz/work/NAME/verdict.
run_one() { # run_one NAME
    name=$1
    bin=build/fuzz/bin/$name
    work=fuzz/work/$name
    mkdir -p "$work"
    if [ ! -x "$bin" ] || [ ! -d "fuzz/corpus/$name" ]; then
        echo "fuzz $name: no fuzzer $bin or no corpus fuzz/corpus/$name" >"$work/result"
        echo fail >"$work/verdict"
        return
    fi
    rm -rf "$work/crashes"
    mkdir -p "$work/corpus" "$work/crashes"
    set -- -max_total_time="$seconds" -timeout="$timeout" -max_len="$max_len" \
        -rss_limit_mb="$rss_mb" -print_final_stats=1 \
        -artifact_prefix="$work/crashes/"
    [ -f "fuzz/$name.dict" ] && set -- "$@" -dict="fuzz/$name.dict"
    # The first folder receives new inputs; the seed corpus is only read.
    "$bin" "$@" "$work/corpus" "fuzz/corpus/$name" >"$work/log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$work/log" | tail -n 1)
    crashes=$(find "$work/crashes" -type f | wc -l)
    if [ "$rc" -eq 0 ] && [ "$crashes" -eq 0 ]; then
        echo "fuzz $name: ${execs:-0} executions in $seconds s, 0 crashes," \
            "corpus $(find "$work/corpus" -type f | wc -l) inputs" >"$work/result"
        echo pass >"$work/verdict"
    else
        {
            grep -E 'ERROR|SUMMARY|broken|runtime error|Test unit written' \
                "$work/log" | head -n 20
            echo "fuzz $name: FAILED (exit status $rc) after ${execs:-0}" \
                "executions: $crashes crash, leak or timeout inputs in" \
                "$work/crashes (log: $work/log)"
        } >"$work/result"
        echo fail >"$work/verdict"
    fi
}

# FUZZ_JOBS fuzzers at a time (default: one per core), each for its whole
# FUZZ_SECONDS; their reports in the order of the names.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
passed=0
failed=0
batch=
count=0
report() {
    for done_name in $batch; do
        cat "fuzz/work/$done_name/result"
        if [ "$(cat "fuzz/work/$done_name/verdict" 2>/dev/null)" = pass ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
    batch=
    count=0
}
for name in $names; do
    rm -f "fuzz/work/$name/verdict" "fuzz/work/$name/result"
    run_one "$name" &
    batch="$batch $name"
    count=$((count + 1))
    if [ "$count" -ge "$jobs" ]; then
        wait
        report
    fi
done
wait
report
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
