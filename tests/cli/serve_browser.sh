#!/bin/sh
# The page of 'loopy serve' in a real browser: tests/browser/page.test.mjs
# drives Debian's chromium (headless) with puppeteer-core against a real
# server on a free loopback port, serving tictactoe, subtract,
# connect4:4x4 and chess:KRK from a database; it counts a line per check.
# Screenshots of each game's page are kept beside this test's log
# (BUILD/test-logs/serve_browser-*.png).
#   LOOPY=build/loopy sh tests/cli/serve_browser.sh
# Needs node, chromium (CHROMIUM, default /usr/bin/chromium) and the npm
# packages of tests/browser (cd tests/browser && npm ci; .ci/run does).
# Without them it says what is missing and is skipped, but not under CI
# (CI set), which must run it.  It runs once, in the full suite: a quick
# run (LOOPY_TEST_QUICK), ThreadSanitizer's and a sanitizer build skip it
# (tests/cli/serve.sh tests the server there); LOOPY_TEST_BROWSER=1 runs it
# anyway.  Prints "serve_browser: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

chromium=${CHROMIUM:-/usr/bin/chromium}
browser_dir=$root/tests/browser
logs=$(dirname "$LOOPY")/test-logs
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

# missing WHAT: skipped, or a failure under CI.
missing() {
    if [ -n "${CI:-}" ]; then
        fail "$1: CI must run the browser tests"
    else
        echo "SKIP: $1: the browser tests are skipped"
    fi
    finish serve_browser
    exit
}

if [ "${LOOPY_TEST_BROWSER:-}" != 1 ]; then
    if [ -n "${LOOPY_TEST_QUICK:-}" ] && [ "${LOOPY_TEST_QUICK:-}" != 0 ] || [ -n "${LOOPY_TEST_TSAN:-}" ]; then
        echo "SKIP: a quick run: the browser tests run in the full suite"
        finish serve_browser
        exit
    fi
    if nm "$LOOPY" 2>/dev/null | grep -q -E '__(asan|tsan|ubsan)_'; then
        echo "SKIP: a sanitizer build: the browser tests run in the plain build's suite"
        finish serve_browser
        exit
    fi
fi
if "$LOOPY" serve --port 0 2>&1 | grep -q "built without libmicrohttpd"; then
    missing "this loopy was built without libmicrohttpd"
fi
command -v node >/dev/null 2>&1 || missing "no node (apt-get install nodejs)"
[ -x "$chromium" ] || missing "no $chromium (apt-get install chromium)"
[ -d "$browser_dir/node_modules/puppeteer-core" ] ||
    missing "no puppeteer-core (cd tests/browser && npm ci)"
mkdir -p "$logs" || fail "cannot make $logs"

cd "$work" || exit 1
"$LOOPY" game solve -q chess:KRK -o krk.ldb >/dev/null || fail "solve chess:KRK -o krk.ldb"
: >url.txt
"$LOOPY" serve -q --port 0 tictactoe subtract connect4:4x4 krk.ldb >url.txt 2>server.err &
pid=$!
n=0
while [ ! -s url.txt ] && kill -0 "$pid" 2>/dev/null && [ "$n" -lt 600 ]; do
    sleep 0.1
    n=$((n + 1))
done
url=$(head -n 1 url.txt)
[ -n "$url" ] || { fail "loopy serve did not start: $(cat server.err)"; finish serve_browser; exit; }

LOOPY=$LOOPY URL=$url SHOTS=$logs DATABASE=$work/krk.ldb CHROMIUM=$chromium \
    timeout 300 node "$browser_dir/page.test.mjs" >browser.out 2>&1
status=$?
cat browser.out
passed=$((passed + $(grep -c '^PASS ' browser.out)))
failed=$((failed + $(grep -c '^FAIL ' browser.out)))
[ "$status" -eq 0 ] || grep -q '^FAIL ' browser.out || fail "the browser test ended with status $status"
[ "$(grep -c '^PASS ' browser.out)" -gt 50 ] || fail "only $(grep -c '^PASS ' browser.out) checks ran"
kill -0 "$pid" 2>/dev/null || fail "the server ended during the browser test: $(cat server.err)"
kill "$pid"
wait "$pid"
same "the server's status after SIGTERM" "$?" 0
pid=
finish serve_browser
