#!/bin/sh
# serve.sh - loopy serve under load on loopback: REQUESTS probe requests
# (default 20000) from CONNECTIONS connections (default 16) on THREADS wrk
# threads (default 2), cycling through the positions of the chess:KRK
# database three moves from the start and more (every answer read from
# the file), twice; then the hostile clients of tests/serve/hostile.py.
# Prints the requests per second, the errors (socket errors and answers
# other than 200), the latency at the 50th, 90th and 99th percentile (the
# target: under 2 ms at the 99th), and the server's resident memory before
# the load, after the first run and after the second (flat: the second
# run adds nothing).
# By default (PIN=1, with taskset and 2 cores or more) the server runs on
# core 1 with one thread and wrk on core 0 with one thread: the latency is
# then the server's, not that of a load generator taking the server's core
# (on a 2-core machine, 2 wrk threads and 2 server threads unpinned put a
# scheduler's time slice into the tail).
#   make && sh bench/serve.sh
#   REQUESTS=100000 CONNECTIONS=64 sh bench/serve.sh
#   PIN=0 THREADS=2 SERVER_THREADS=0 sh bench/serve.sh   # unpinned, shared
# Needs wrk (apt-get install wrk) and python3 (for the hostile clients).
set -e
LOOPY=${LOOPY:-build/loopy}
REQUESTS=${REQUESTS:-20000}
CONNECTIONS=${CONNECTIONS:-16}
PIN=${PIN:-1}
command -v taskset >/dev/null && [ "$(nproc --all)" -ge 2 ] || PIN=0
if [ "$PIN" = 1 ] && [ -z "$SERVE_BENCH_PINNED" ]; then
    # Everything but the server on core 0: wrk, and the shell's own
    # commands, which would otherwise take the server's core a moment.
    SERVE_BENCH_PINNED=1 exec taskset -c 0 sh "$0" "$@"
fi
if [ "$PIN" = 1 ]; then
    THREADS=${THREADS:-1}
    SERVER_THREADS=${SERVER_THREADS:-1}
    on_server="taskset -c 1"
    on_client=
    placed="the server on core 1, wrk on core 0"
else
    THREADS=${THREADS:-2}
    # The server's threads (0: one per core).
    SERVER_THREADS=${SERVER_THREADS:-0}
    on_server=
    on_client=
    placed="unpinned, on $(nproc --all) cores"
fi
command -v wrk >/dev/null || { echo "serve.sh: needs wrk (apt-get install wrk)" >&2; exit 2; }
root=$(pwd)
bench_dir=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; [ -n "$KEEP" ] || rm -rf "$bench_dir"' EXIT
cd "$bench_dir"

"$root/$LOOPY" game solve -q chess:KRK -o krk.ldb >/dev/null
# The positions: the start's moves, theirs and theirs again.
echo "7k/8/8/8/8/8/8/K1R5 w" >p0
children() {
    "$root/$LOOPY" game probe -q -f json krk.ldb - | grep -o '"to": "[^"]*"' |
        sed -e 's/^"to": "//' -e 's/"$//'
}
children <p0 >p1
children <p1 | sort -u >p2
children <p2 | sort -u >p3
cat p0 p1 p2 p3 >positions
count=$(wc -l <positions)

$on_server "$root/$LOOPY" serve -q -t "$SERVER_THREADS" --port 0 krk.ldb >url.txt 2>server.err &
pid=$!
n=0
while [ ! -s url.txt ] && kill -0 "$pid" 2>/dev/null && [ "$n" -lt 600 ]; do
    sleep 0.1
    n=$((n + 1))
done
url=$(head -n 1 url.txt)
[ -n "$url" ] || { echo "serve.sh: loopy serve did not start: $(cat server.err)" >&2; exit 1; }

# The Lua script: each wrk thread sends its share of the requests, the
# positions in turn (URL-encoded), counts the answers that are not 200,
# and when its share is answered says so in a file done.ID: wrk runs for
# its whole -d unless interrupted, so the script interrupts it (SIGINT, as
# Ctrl-C does), and wrk's time is the run's.
per_thread=$(( (REQUESTS + THREADS - 1) / THREADS ))
{
    echo "local paths = {"
    sed -e 's/ /%20/g' -e 's|/|%2F|g' -e 's|.*|  "/api/probe?game=chess%3AKRK\&position=&",|' positions
    echo "}"
    cat <<EOF
local limit = $per_thread
fifo = "done.fifo"
sent, done_count, bad = 0, 0, 0
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  sent = id * 7919
end
function request()
  sent = sent + 1
  return wrk.format("GET", paths[(sent % #paths) + 1])
end
function response(status, headers, body)
  done_count = done_count + 1
  if status ~= 200 then bad = bad + 1 end
  if done_count == limit then
    local f = io.open(fifo, "w")
    f:write("done\n")
    f:close()
    wrk.thread:stop()
  end
end
function done(summary, latency, requests)
  local f = io.open(fifo, "w")
  if f then f:write("end\n") f:close() end
  local not200 = 0
  for _, t in ipairs(threads) do not200 = not200 + t:get("bad") end
  local e = summary.errors
  io.write(string.format("RESULT %d %.6f %d %d %.3f %.3f %.3f %.3f\n",
    summary.requests, summary.duration / 1e6,
    e.connect + e.read + e.write + e.timeout, not200,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
EOF
} >load.lua

rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }

# A warm-up request, so that "before" holds what every answer needs.
wrk -t 1 -c 1 -d 1s "${url}api/probe?game=chess%3AKRK" >/dev/null 2>&1 || true
rss_before=$(rss)
echo "loopy serve: $count positions of chess:KRK (a database), $REQUESTS requests from $CONNECTIONS connections on $THREADS wrk threads, twice; $SERVER_THREADS server threads (0: one per core); $placed"
# load RUN THREADS CONNECTIONS: one bounded run, its figures printed.
load() {
    # Each wrk thread writes "done" to a FIFO when its share is answered,
    # and wrk's end writes "end"; the shell blocks on it, without polling
    # (a shell that forks a command every few milliseconds puts its own
    # time into the tail).  A guard writes "end" after 5 minutes.
    rm -f done.fifo
    mkfifo done.fifo
    exec 3<>done.fifo
    $on_client wrk -t "$2" -c "$3" -d 600s -s load.lua "$url" >wrk.out 2>&1 &
    wrk_pid=$!
    ( trap 'kill "$s" 2>/dev/null; exit 0' TERM
      sleep 300 & s=$!
      wait "$s" && echo end ) >done.fifo &
    guard=$!
    i=0
    while [ "$i" -lt "$2" ] && read -r said <&3 && [ "$said" = done ]; do
        i=$((i + 1))
    done
    kill -s INT "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" || true
    kill "$guard" 2>/dev/null || true
    wait "$guard" 2>/dev/null || true
    exec 3<&-
    rm -f done.fifo
    line=$(grep '^RESULT ' wrk.out) || { cat wrk.out; exit 1; }
    run=$1
    set -- $line
    awk -v run="$run" -v req="$2" -v sec="$3" -v sock="$4" -v bad="$5" -v p50="$6" -v p90="$7" -v p99="$8" -v max="$9" 'BEGIN {
        printf "run %s: %d requests in %.2f s: %.0f requests/s; errors: %d socket, %d not 200\n", run, req, sec, req / sec, sock, bad
        printf "run %s: latency p50 %.3f ms, p90 %.3f ms, p99 %.3f ms (target: under 2 ms), max %.3f ms\n", run, p50, p90, p99, max }'
}
load 1 "$THREADS" "$CONNECTIONS"
rss_after_1=$(rss)
load 2 "$THREADS" "$CONNECTIONS"
rss_after_2=$(rss)
# The time of one answer, without waiting behind others: one connection.
per_thread=$(( (REQUESTS / 4 + 1) ))
sed -i "s/^local limit = .*/local limit = $per_thread/" load.lua
load "1 connection" 1 1
echo "resident memory: $rss_before KiB before, $rss_after_1 KiB after run 1, $rss_after_2 KiB after run 2 ($((rss_after_2 - rss_after_1)) KiB more)"

if command -v python3 >/dev/null; then
    python3 "$root/tests/serve/hostile.py" "$url" >hostile.out 2>&1 || true
    echo "hostile HTTP (tests/serve/hostile.py): $(grep -c '^PASS ' hostile.out) cases passed, $(grep -c '^FAIL ' hostile.out) failed$(grep '^FAIL ' hostile.out | sed 's/^/; /' | tr '\n' ' ')"
    kill -0 "$pid" && echo "after it: still serving, resident memory $(rss) KiB"
fi
