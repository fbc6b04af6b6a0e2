#!/bin/sh
# loopy serve, against a real server on a free loopback port (--port 0):
# its answers to /api/probe are those of 'loopy game probe -f json', byte
# for byte, for every position of subtract and many of tic-tac-toe,
# connect4:4x4 and chess:KRK (from a database); /api/games lists what is
# served; bad requests get a JSON error with the right status and the
# server keeps serving; hostile HTTP (tests/serve/hostile.py: garbage,
# truncated requests, a stalled client, 1000 connections at once) leaves
# it serving; SIGTERM and SIGINT stop it cleanly (status 0, everything
# freed, which ASan's leak check sees); and the command line's mistakes.
#   LOOPY=build/loopy sh tests/cli/serve.sh
# Needs curl (and python3 for the hostile clients); each part
# that cannot run says so on a SKIP line.  A loopy built without
# libmicrohttpd must say so (exit status 2), and the rest is skipped.
# Prints "serve: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

skip() { echo "SKIP: $1"; }
py=$(command -v python3 || true)
pids=
# The servers still running at the end (a failed case) are stopped.
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$work"' EXIT

cd "$work" || exit 1

# wait_url PID: the server PID was started writing its address to url.txt;
# waits (a minute at most: a solve under a sanitizer) for the address, and
# sets pid and url ("" when the server ended first).
wait_url() {
    pid=$1
    pids="$pids $pid"
    n=0
    while [ ! -s url.txt ] && kill -0 "$pid" 2>/dev/null && [ "$n" -lt 600 ]; do
        sleep 0.1
        n=$((n + 1))
    done
    url=$(head -n 1 url.txt)
}

# start ARGS...: starts "loopy serve --port 0 ARGS" in the background and
# waits (a minute at most: a solve under a sanitizer) for its address;
# sets pid and url ("" when it ended first: its status in started).
start() {
    rm -f url.txt server.err
    : >url.txt
    "$LOOPY" serve --port 0 "$@" >url.txt 2>server.err &
    wait_url $!
    started=0
    if [ -z "$url" ]; then
        wait "$pid"
        started=$?
    fi
}

# stop SIGNAL NAME: sends SIGNAL to the server, which must end with status
# 0 and say it stopped.
stop() {
    kill -s "$1" "$pid"
    wait "$pid"
    status=$?
    same "$2: status after SIG$1" "$status" 0
    grep -q "^loopy serve: stopped (SIG$1)$" server.err ||
        fail "$2: no 'stopped (SIG$1)' on standard error: $(tail -n 3 server.err)"
}

# get PATH [CURL-ARGS...]: fetches url PATH into body; sets code.
get() {
    path=$1
    shift
    code=$(curl -s -g -o body -w '%{http_code}' "$@" "$url$path") || code="curl failed ($?)"
}

# error_is NAME CODE: the last answer has status CODE and a JSON error.
error_is() {
    same "$1: status" "$code" "$2"
    grep -q '^{"error": ".*"}$' body || fail "$1: not a JSON error: $(head -c 200 body)"
}

# ---- A loopy without libmicrohttpd ----
if ! command -v curl >/dev/null 2>&1; then
    skip "no curl (apt-get install curl): the server's tests are skipped"
    finish serve
    exit
fi
"$LOOPY" game solve -q chess:KRK -o krk.ldb >/dev/null || fail "solve chess:KRK -o krk.ldb"
"$LOOPY" game solve -q subtract:5,2 -o sub52.ldb >/dev/null || fail "solve subtract:5,2"
start tictactoe subtract connect4:4x4 krk.ldb sub52.ldb
if [ -z "$url" ] && grep -q "built without libmicrohttpd" server.err; then
    same "without libmicrohttpd: status" "$started" 2
    skip "this loopy was built without libmicrohttpd: the server's tests are skipped"
    finish serve
    exit
fi
[ -n "$url" ] || { fail "loopy serve did not start (status $started): $(cat server.err)"; finish serve; exit; }
case $url in
http://127.0.0.1:[0-9]*/) pass ;;
*) fail "the address printed: '$url'" ;;
esac

# ---- /api/games ----
get api/games
same "games: status" "$code" 200
same "games: ids" "$(grep -o '"id": "[^"]*"' body | tr '\n' ' ')" \
    '"id": "tictactoe" "id": "subtract:21,1,2,3" "id": "connect4:4x4" "id": "chess:KRK" "id": "subtract:5,2" '
grep -q '"id": "chess:KRK", "game": "chess", "parameters": "KRK", "misere": false, "source": "database", "file": "krk.ldb", "positions": 50939, "start": "7k/8/8/8/8/8/8/K1R5 w", "names_moves": true' body ||
    fail "games: chess:KRK's entry: $(grep KRK body)"
# The database's path is never shown, only its name.
grep -q "$work" body && fail "games: the database's folder is shown"

# ---- The same JSON as loopy game probe -f json ----
# compare GAME ID FILE: every position of FILE (a line each) probed by the
# server and by 'loopy game probe -f json GAME -', the answers equal byte
# for byte; and the start (no position) as 'loopy game probe -f json GAME'.
compare() {
    game=$1 id=$2 list=$3
    # shellcheck disable=SC2086 # game may hold options
    "$LOOPY" game probe -q -f json $game - <"$list" >want.json ||
        { fail "$id: loopy game probe refused $list"; return; }
    # probe prints "[A,\n B,\n C]\n": one object a line.
    sed -e 's/^\[//' -e 's/^ //' -e 's/,$//' -e 's/\]$//' want.json >want.lines
    # One curl for all, each URL with its output file and status.
    rm -rf got && mkdir got
    : >curl.conf
    n=0
    while IFS= read -r position; do
        n=$((n + 1))
        {
            [ "$n" -eq 1 ] || echo "next"
            echo "url = \"${url}api/probe\""
            echo "get"
            echo "data-urlencode = \"game=$id\""
            echo "data-urlencode = \"position=$position\""
            echo "output = \"got/$n\""
            echo "write-out = \"%{http_code}\\n\""
        } >>curl.conf
    done <"$list"
    curl -s -K curl.conf >codes || fail "$id: curl failed"
    same "$id: statuses" "$(sort -u codes)" 200
    k=0
    bad=0
    while IFS= read -r object; do
        k=$((k + 1))
        printf '[%s]\n' "$object" >want.one
        cmp -s want.one "got/$k" || { bad=$((bad + 1)); [ "$bad" -gt 1 ] ||
            fail "$id: position $k ($(sed -n "${k}p" "$list")) differs: got $(head -c 300 "got/$k")"; }
    done <want.lines
    echo "$id: $n positions compared"
    same "$id: answers compared" "$k" "$n"
    same "$id: answers that differ" "$bad" 0
    # shellcheck disable=SC2086
    "$LOOPY" game probe -q -f json $game >want.start
    code=$(curl -s -o got.start -w '%{http_code}' "${url}api/probe?game=$id")
    same "$id: the start: status" "$code" 200
    cmp -s want.start got.start || fail "$id: the start differs: $(head -c 200 got.start)"
}

# The positions two moves from the start, and more: the moves' "to" of
# the probes of positions.
children() { # children GAME < POSITIONS: the positions one move away
    "$LOOPY" game probe -q -f json "$1" - | grep -o '"to": "[^"]*"' | sed -e 's/^"to": "//' -e 's/"$//'
}
seq 0 21 >subtract.txt
compare subtract "subtract:21,1,2,3" subtract.txt
# A '+' is a space, %2B a '+', as forms write them: subtract reads neither.
get 'api/probe?game=subtract%3A21%2C1%2C2%2C3&position=+5'
error_is "subtract: ' 5'" 400
echo ".../.../..." >ttt0.txt
children tictactoe <ttt0.txt >ttt1.txt
children tictactoe <ttt1.txt | sort -u >ttt2.txt
cat ttt0.txt ttt1.txt ttt2.txt >ttt.txt
compare tictactoe tictactoe ttt.txt
echo "..../..../..../...." >c40.txt
children connect4:4x4 <c40.txt >c41.txt
children connect4:4x4 <c41.txt >c42.txt
children connect4:4x4 <c42.txt | sort -u >c43.txt
cat c40.txt c41.txt c42.txt c43.txt >c4.txt
compare connect4:4x4 connect4:4x4 c4.txt
# chess: the start, its moves and theirs, positions as given (a full FEN
# too), a mate and a stalemate.
echo "7k/8/8/8/8/8/8/K1R5 w" >krk0.txt
children krk.ldb <krk0.txt >krk1.txt
children krk.ldb <krk1.txt | sort -u >krk2.txt
children krk.ldb <krk2.txt | sort -u | head -n 300 >krk3.txt
cat krk0.txt krk1.txt krk2.txt krk3.txt - >krk.txt <<'EOF'
8/8/8/4k3/8/8/8/KR6 w
8/8/8/4k3/8/8/8/KR6 w - - 0 1
k7/8/1K6/8/8/8/8/7R w
k7/2K5/8/8/8/8/8/1R6 b
R6k/8/6K1/8/8/8/8/8 b
EOF
compare krk.ldb chess:KRK krk.txt
[ "$(wc -l <krk.txt)" -gt 100 ] || fail "chess: only $(wc -l <krk.txt) positions compared"

# ---- Bad requests: a JSON error, the right status ----
get 'api/probe?game=nope'
error_is "an unknown game" 404
grep -q "unknown game 'nope'" body || fail "an unknown game: $(cat body)"
get 'api/probe?position=5'
error_is "no game" 400
get 'api/probe?game=subtract:21,1,2,3&position=abc'
error_is "a bad position" 400
# The message is probe's, without "loopy game: ".
"$LOOPY" game probe subtract abc 2>probe.err >/dev/null
same "a bad position: the message" "$(sed -e 's/^{"error": "//' -e 's/"}$//' body)" \
    "$(sed 's/^loopy game: //' probe.err)"
get 'api/probe?game=tictactoe&position=xxx/xxx/xxx'
error_is "an illegal position" 400
get 'api/probe?game=subtract:5,2&position=4'
error_is "a position the solve did not reach" 404
grep -q '"4: not reachable from the start position"' body || fail "not reached: $(cat body)"
get 'api/probe?game=subtract:21,1,2,3&position=5%00x'
error_is "a NUL byte" 400
get 'api/probe?game=subtract:21,1,2,3&position=%ff%fe'
error_is "bytes that are not UTF-8" 400
get 'api/probe?game=tictactoe' -X POST -d 'position=x'
error_is "POST" 405
curl -s -D headers -o /dev/null -X DELETE "${url}api/games"
grep -qi '^Allow: GET, HEAD' headers || fail "405 without Allow: GET, HEAD"
get 'api/games' -X GET -H 'Content-Type: text/plain' --data-binary 'a body'
error_is "a GET with a body" 413
get "api/probe?game=tictactoe&position=$(printf '%3000s' | tr ' ' x)"
error_is "a URL of 3000 bytes" 414
get 'api/nope'
error_is "an unknown call" 404
get 'nope.html'
error_is "an unknown page" 404
get '../../../../etc/passwd' --path-as-is
error_is "a path out of the pages" 404
grep -q root: body && fail "a path out of the pages reached a file"
get "..%2F..%2Fkrk.ldb"
error_is "the database by its name" 404
# A page of another site that reached this server through a name of its
# own (DNS rebinding) says that name as Host: refused.  This machine's
# names and none (HTTP/1.0) are answered.
get api/games -H 'Host: evil.example:8080'
error_is "Host evil.example" 403
grep -q 'DNS rebinding' body || fail "Host evil.example: $(cat body)"
get api/games -H 'Host: 127.0.0.1.evil.example'
error_is "Host 127.0.0.1.evil.example" 403
get api/games -H 'Host: localhost.:1'
same "Host localhost.:1: status" "$code" 200
for host in localhost LOCALHOST:80 127.0.0.1 127.1.2.3:8080 '[::1]:8080'; do
    get api/games -H "Host: $host"
    same "Host $host: status" "$code" 200
done
get api/games -0 -H 'Host:'
same "no Host (HTTP/1.0): status" "$code" 200
# HEAD: the headers alone.
code=$(curl -s -I -o headers -w '%{http_code}' "${url}api/games")
same "HEAD: status" "$code" 200
grep -qi '^Content-Type: application/json' headers || fail "HEAD: $(cat headers)"

# ---- The page's files ----
for f in / /index.html /app.js /style.css /favicon.svg; do
    get "${f#/}"
    same "page $f: status" "$code" 200
done
get ''
grep -q '<script src="/app.js" defer></script>' body || fail "the page loads no /app.js"
curl -s -D headers -o /dev/null "$url"
grep -qi "^Content-Security-Policy: default-src 'self'" headers || fail "no Content-Security-Policy"
grep -qi "^Content-Type: text/html; charset=utf-8" headers || fail "the page's type"
# Nothing of the page comes from elsewhere (the SVG namespace is a name).
for f in index.html app.js style.css; do
    grep -n -E 'https?://|(src|href)=.?//|url\(|@import' "$root/web/$f" |
        grep -v "'http://www.w3.org/2000/svg'" && fail "web/$f loads something from elsewhere"
done
cmp -s body "$root/web/index.html" || fail "/ is not web/index.html"

# ---- Hostile HTTP ----
if [ -n "$py" ]; then
    timeout 300 "$py" "$root/tests/serve/hostile.py" "$url" >hostile.out 2>&1
    cat hostile.out
    passes=$(grep -c '^PASS ' hostile.out)
    fails=$(grep -c '^FAIL ' hostile.out)
    passed=$((passed + passes))
    failed=$((failed + fails))
    [ "$passes" -gt 10 ] || fail "hostile.py ran $passes cases: $(tail -n 5 hostile.out)"
else
    skip "no python3: the hostile clients are skipped"
fi
kill -0 "$pid" 2>/dev/null || fail "the server ended under hostile HTTP"
get api/games
same "after it all: /api/games" "$code" 200

# ---- Stopping, and the command line ----
port=${url##*:}
port=${port%/}
expect "the port in use" 3 "" serve --port "$port" tictactoe
grep -q "port $port: cannot listen: Address already in use" "$work/.err" ||
    fail "the port in use: $(cat "$work/.err")"
stop TERM "the first server"
# The port is free again at once.
start --port "$port" -q subtract
same "a restart on the same port" "$url" "http://127.0.0.1:$port/"
[ -s server.err ] && fail "-q: standard error: $(cat server.err)"
if [ -n "$url" ]; then
    kill -s TERM "$pid"
    wait "$pid"
    same "-q: status after SIGTERM" "$?" 0
fi
# SIGINT, which a shell ignores in its background jobs (and loopy then
# too): started with the default disposition back, by GNU env or python.
if env --default-signal=INT true 2>/dev/null; then
    default_int="env --default-signal=INT"
elif [ -n "$py" ]; then
    default_int="$py -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])'"
else
    default_int=
fi
if [ -n "$default_int" ]; then
    rm -f url.txt server.err
    : >url.txt
    eval "$default_int" '"$LOOPY" serve --port 0 tictactoe >url.txt 2>server.err &'
    wait_url $!
    get api/games
    same "before SIGINT: /api/games" "$code" 200
    stop INT "a server stopped by SIGINT"
else
    skip "neither env --default-signal nor python3: SIGINT is not tested"
fi

# --misere: the GAMEs solved in misere play, with probe's answers; a
# database in the play it was solved in.
"$LOOPY" game solve -q --misere subtract:5,2 -o sub52m.ldb >/dev/null || fail "solve --misere subtract:5,2"
start --misere tictactoe sub52m.ldb sub52.ldb
if [ -n "$url" ]; then
    get api/games
    same "--misere: ids" "$(grep -o '"id": "[^"]*"' body | tr '\n' ' ')" \
        '"id": "tictactoe~misere" "id": "subtract:5,2~misere" "id": "subtract:5,2" '
    compare "--misere tictactoe" "tictactoe~misere" ttt1.txt
    printf '1\n3\n5\n' >sub52.txt
    compare sub52m.ldb "subtract:5,2~misere" sub52.txt
    stop TERM "--misere"
else
    fail "--misere: the server did not start: $(cat server.err)"
fi
# --game: the shared object of a database whose game is not built in.
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" -o ladder.so 2>/dev/null; then
    "$LOOPY" game solve -q ./ladder.so:10 -o ladder.ldb >/dev/null || fail "solve ./ladder.so:10"
    refused "a database of a shared object's game, without --game" 2 "^loopy serve: ladder.ldb: .*name its shared object with --game" \
        serve --port 0 ladder.ldb
    refused "--game naming a shared object without a '/'" 2 \
        "^loopy serve: --game: unknown game 'ladder.so': .*did you mean ./ladder.so\\?" \
        serve --port 0 --game ladder.so ladder.ldb
    start --game ./ladder.so ladder.ldb subtract
    if [ -n "$url" ]; then
        seq 0 10 >ladder.txt
        compare "--game ./ladder.so ladder.ldb" "ladder:10" ladder.txt
        stop TERM "--game"
    else
        fail "--game: the server did not start: $(cat server.err)"
    fi
else
    skip "no cc to build examples/ladder.c: --game is not tested"
fi

refused "no game" 2 "expected a FILE.ldb or a GAME" serve
refused "a bad port" 2 "--port" serve --port 65536 tictactoe
refused "an empty host" 2 "--host: the address is empty" serve --host '' tictactoe
refused "an unknown game" 2 "^loopy serve: unknown game 'nogame'" serve --port 0 nogame
# The messages of a game's opening and solve name serve, not game.
refused "a game's name mistyped" 2 "^loopy serve: unknown game 'tictacto' \\(did you mean tictactoe\\?\\)" \
    serve --port 0 tictacto
refused "a game's bad parameters" 2 "^loopy serve: expected ','" serve --port 0 mnk:3,3
refused "a missing database" 3 "missing.ldb: cannot open the database" serve --port 0 missing.ldb
printf 'not a database\n' >"$work/bad.ldb"
refused "a damaged database" 1 "bad.ldb" serve --port 0 bad.ldb
refused "a game served twice" 2 "both tictactoe" serve --port 0 tictactoe tictactoe
# ... said before either is solved.
grep -q "solved in" "$work/.err" && fail "a game served twice: solved first: $(cat "$work/.err")" || pass
refused "an address not this machine's" 3 "cannot listen" serve --host 192.0.2.1 --port 0 tictactoe

finish serve
