#!/bin/sh
# CI step: run every libFuzzer harness for FUZZ_SECONDS (default 60) each,
# failing on any crash, leak, sanitizer report or timeout.  Installs clang
# from Debian's packages when it is missing (libFuzzer comes with it).
#   ci/fuzz.sh            (called by .ci/run from the repository root)
set -u
cd "$(dirname "$0")/.." || exit 1
: "${FUZZ_SECONDS:=60}"
export FUZZ_SECONDS

# Whether clang can build and run a libFuzzer program with the sanitizers.
fuzzer_works() {
    probe=$(mktemp -d) || return 1
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
        '{ (void)d; (void)n; return 0; }' >"$probe/probe.c"
    clang -fsanitize=fuzzer,address,undefined "$probe/probe.c" \
        -o "$probe/probe" >"$probe/log" 2>&1 &&
        "$probe/probe" -runs=10 >>"$probe/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || cat "$probe/log"
    rm -rf "$probe"
    return $rc
}

if ! command -v clang >/dev/null 2>&1; then
    echo "ci/fuzz.sh: installing clang"
    if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get update && $sudo apt-get install -y clang || {
        echo "ci/fuzz.sh: cannot install clang"
        exit 1
    }
fi
clang --version | head -n 1
if ! fuzzer_works; then
    echo "ci/fuzz.sh: clang cannot build libFuzzer programs" \
        "(-fsanitize=fuzzer,address,undefined)"
    exit 1
fi
echo "ci/fuzz.sh: $FUZZ_SECONDS s per fuzzer"
exec fuzz/run.sh
