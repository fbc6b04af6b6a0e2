#!/bin/sh
# games_huge.sh - Connect Four boards larger than memory would allow the
# other solvers, by the tier solver with its work file on disk (run by
# HUGE=1 sh bench/games.sh, or alone): for each of HUGE_GAMES (default
# connect4:6x5 connect4:7x4 connect4:5x6), once: the solve's time and peak
# memory (/usr/bin/time), its -v figures (positions per second, the
# working set's bytes per position), the database's size, the positions
# with their mirror images ('loopy game stats') against John Tromp's
# counts (tromp.github.io/c4/c4.html), the start's value against the
# published one, and the time of one probe: PROBES random positions
# (random play from the start) answered by one 'loopy game probe' over
# standard input, less the time of one, per position.  The disk its work
# files take (FILE.tiers, its journal and its park file of tiers
# compressed), polled every second: the peak, beside the index space's
# records (what the work file took when it held every index).
#   make && sh bench/games_huge.sh
#   HUGE_GAMES=connect4:5x6 HUGE_DIR=/big sh bench/games_huge.sh
set -e
LOOPY=${LOOPY:-build/loopy}
HUGE_GAMES=${HUGE_GAMES:-"connect4:6x5 connect4:7x4 connect4:5x6"}
PROBES=${PROBES:-2000}
root=$(pwd)
made=
if [ -z "${HUGE_DIR:-}" ]; then
    HUGE_DIR=$(mktemp -d)
    made=$HUGE_DIR
fi
trap '[ -z "$made" ] || rm -rf "$made"' EXIT

# published GAME: "positions value ply" (Tromp).
published() {
    case $1 in
    connect4:6x5) echo "2818972642 T 30" ;;
    connect4:7x4) echo "2265792710 T 28" ;;
    connect4:5x6) echo "1044334437 T 30" ;;
    *) echo "? ? ?" ;;
    esac
}

# positions GAME COUNT SEED: COUNT positions of random play from the
# empty board (each game stopped at a random length or at its end).
positions() {
    python3 - "$@" <<'PY'
import random, sys
game, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w, h = (int(x) for x in game.split(":")[1].split("x"))
rng = random.Random(seed)
def won(b, c, r, p):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            cc, rr = c + s * dc, r + s * dr
            while 0 <= cc < w and 0 <= rr < h and b[rr][cc] == p:
                n += 1
                cc, rr = cc + s * dc, rr + s * dr
        if n >= 4:
            return True
    return False
for _ in range(count):
    b = [["."] * w for _ in range(h)]   # row 0 at the bottom
    plies = rng.randint(0, w * h)
    for ply in range(plies):
        free = [c for c in range(w) if b[h - 1][c] == "."]
        if not free:
            break
        c = rng.choice(free)
        r = next(r for r in range(h) if b[r][c] == ".")
        p = "x" if ply % 2 == 0 else "o"
        b[r][c] = p
        if won(b, c, r, p):
            break
    print("/".join("".join(b[r]) for r in range(h - 1, -1, -1)))
PY
}

for game in $HUGE_GAMES; do
    db="$HUGE_DIR/${game#connect4:}.ldb"
    rm -f "$db" "$db".tiers*
    /usr/bin/time -f '%e %M' -o "$HUGE_DIR/time" \
        "$LOOPY" game solve -v --solver tier "$game" -o "$db" \
        >"$HUGE_DIR/solve.out" 2>"$HUGE_DIR/solve.err" &
    solver=$!
    disk=0
    while kill -0 "$solver" 2>/dev/null; do
        now=$(du -k -c "$db".tiers* 2>/dev/null | tail -n 1 | cut -f 1)
        [ "${now:-0}" -gt "$disk" ] && disk=$now
        sleep 1
    done
    wait "$solver"
    set -- $(cat "$HUGE_DIR/time")
    wall=$1 peak=$2
    head -n 1 "$HUGE_DIR/solve.out"
    echo "$game: $(sed -n 3p "$HUGE_DIR/solve.out" | sed 's/^ *//')"
    grep 'positions solved in' "$HUGE_DIR/solve.err" | sed "s/^loopy game/$game/"
    echo "$game: $wall s in all (with the database), peak memory $((peak / 1024)) MB;" \
        "database $(wc -c <"$db") bytes"
    "$LOOPY" game stats "$db" >"$HUGE_DIR/stats"
    echo "$game: work files on disk at most $((disk / 1024)) MB (work file," \
        "journal, tiers parked); a record for every index would take" \
        "$(( $(sed -n 's/^  index space *\([0-9]*\).*/\1/p' "$HUGE_DIR/stats") / 1000000 )) MB"
    set -- $(published "$game")
    echo "$game: with mirror images $(sed -n 's/^  with images  \([0-9]*\).*/\1/p' "$HUGE_DIR/stats")" \
        "positions; published (Tromp): $1, start $2 on ply $3"
    positions "$game" "$PROBES" 7 >"$HUGE_DIR/probes"
    head -n 1 "$HUGE_DIR/probes" >"$HUGE_DIR/probe1"
    t1=$( { /usr/bin/time -f '%e' "$LOOPY" game probe -q "$db" - \
        <"$HUGE_DIR/probe1" >/dev/null; } 2>&1 | tail -n 1)
    tn=$( { /usr/bin/time -f '%e' "$LOOPY" game probe -q "$db" - \
        <"$HUGE_DIR/probes" >/dev/null; } 2>&1 | tail -n 1)
    awk -v n="$PROBES" -v a="$t1" -v b="$tn" -v g="$game" 'BEGIN {
        printf "%s: %d random positions probed (each with its moves) in %.2f s, one in %.2f s: %.3f ms a position\n",
               g, n, b, a, (b - a) * 1000 / (n - 1) }'
    rm -f "$db"
done
