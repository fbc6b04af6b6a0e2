#!/bin/sh
# chess_pawns.sh - chess endings with pawns solved from the rules (issue
# #25): for each ending (with the sub-endings its captures and promotions
# reach, which share its index space), the time of `loopy game solve`
# (the chess game's own solver, a material at a time; median of RUNS),
# the seconds of the ending's own material among them ("own": -v's line;
# about its time when the sub-endings are read from their tables,
# bench/chess_tables.sh), peak memory (/usr/bin/time), bytes of peak
# memory per index, and, for the ending's own material
# (bench/chess_longest.c), the
# positions won, drawn and lost with each side to move and the longest
# wins, beside the published figures:
#  - won/drawn/lost: the Syzygy tables' statistics (syzygy-tables.info,
#    stats/regular/regular-stats.txt; WDL without the fifty-move rule:
#    wins and cursed wins together, none of these tables has a cursed
#    win), which count each pair of mirror images once, as loopy's index
#    does, and no position with an en passant right (loopy's are counted
#    apart); KPPvK's figures count both orders of the two pawns, twice
#    loopy's;
#  - the longest mates in moves, white to move / black to move ("-": no
#    win): Scid's tcl/tb.tcl (from the Nalimov tables); KPK's loss with
#    black to move, 28 moves (56 plies; Kryukov's forum, Conrady).
# Then, when KPKP is among them, the positions with an en passant right
# whose depth to mate is published (python-chess's data/endgame-dm-4.epd,
# checked there against the Gaviota tables): the capture turns a loss in
# 15 moves into a draw.
# The Syzygy generator (syzygy1/tb) is not measured here: it generates WDL
# and DTZ, not depth to mate, and is not part of loopy.
# With KPPKP_TABLES=DIR, a folder in which
# `loopy game solve --tables DIR --build chess:KPPKP` built KPPKP (hours:
# its 126 tables, most of them five pieces), also KPPKP's longest mates
# from its table beside the longest of the Nalimov tables' 3-to-5-piece
# endings, KPP-KP's 254 plies (Helmut Conrady, CCC, 2000-06-01,
# www.stmintz.com/ccc/index.php?id=113253).
#   make && sh bench/chess_pawns.sh
#   ENDINGS="KPK KQKP" RUNS=3 sh bench/chess_pawns.sh
#   ENDINGS= KPPKP_TABLES=/tmp/kppkp sh bench/chess_pawns.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
LOOPY=${LOOPY:-$root/build/loopy}
LIB=${LIB:-$(dirname "$LOOPY")/libloopy.a}
RUNS=${RUNS:-1}
ENDINGS=${ENDINGS-"KPK KQKP KRKP KPPK KBPK KNPK KPKP"}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT

cc -O2 -fopenmp -I"$root/include" -o "$bench_dir/chess_longest" \
    "$here/chess_longest.c" "$LIB" -lzstd -lz -lm

# Syzygy's white-to-move won drawn lost, black-to-move won drawn lost;
# Scid's longest mates in moves, white to move and black to move.
published() {
    case $1 in
    KPK) echo 62480 19184 0 0 35210 48802 28 - ;;
    KPKP) echo 1606514 1242545 868985 1606514 1242545 868985 33 33 ;;
    KQKP) echo 3349631 21317 20 385976 601733 3993795 28 29 ;;
    KRKP) echo 3703102 340191 6727 816810 871949 3292745 26 43 ;;
    KPPK) echo 3555030 58312 0 0 302686 3522058 32 - ;;
    KBPK) echo 4141811 174804 0 0 859923 4264809 31 - ;;
    KNPK) echo 4405320 169405 0 0 947832 4176900 27 - ;;
    *) echo - - - - - - - - ;;
    esac
}

printf '%-6s %8s %6s %8s %7s  %-34s %-34s %s\n' ending seconds own "peak MB" \
    B/index "white to move W/D/L (Syzygy)" "black to move W/D/L (Syzygy)" \
    "longest mates, moves (Scid)"
for ending in $ENDINGS; do
    db="$bench_dir/$ending.ldb"
    : >"$bench_dir/times"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        /usr/bin/time -f '%e %M' -o "$bench_dir/time" \
            "$LOOPY" game solve -q -v -f json "chess:$ending" -o "$db" \
            >"$bench_dir/solve.json" 2>"$bench_dir/tiers"
        # The ending's own material, the last line per ending (-v).
        own=$(sed -n "s/^loopy game: tier [0-9]*\/[0-9]* $ending: .* in \([0-9.]*\) s.*/\1/p" \
            "$bench_dir/tiers")
        echo "$(cat "$bench_dir/time") $own" >>"$bench_dir/times"
        i=$((i + 1))
    done
    set -- $(sort -n "$bench_dir/times" | awk '{ t[NR] = $1; o[NR] = $3
        if ($2 > m) m = $2 } END { n = int((NR + 1) / 2); print t[n], m, o[n] }')
    seconds=$1 peak=$2 own=$3
    size=$(sed 's/.*"index_size": \([0-9]*\).*/\1/' "$bench_dir/solve.json")
    ours=$("$bench_dir/chess_longest" "$db")
    awk -v e="$ending" -v s="$seconds" -v k="$peak" -v i="$size" \
        -v o="$ours" -v p="$(published "$ending")" -v own="$own" 'BEGIN {
        split(o, a, " "); split(p, q, " ")
        w = a[2] ? (a[2] + 1) / 2 : "-"; b = a[15] ? (a[15] + 1) / 2 : "-"
        printf "%-6s %8.2f %6.2f %8.1f %7.2f  %-34s %-34s %s / %s (%s / %s)\n",
            e, s, own, k / 1024, k * 1024 / i,
            a[9] "/" a[10] "/" a[11] " (" q[1] "/" q[2] "/" q[3] ")",
            a[12] "/" a[13] "/" a[14] " (" q[4] "/" q[5] "/" q[6] ")",
            w, b, q[7], q[8] }'
    if [ "$ending" = KPKP ]; then
        echo "== KPKP: en passant (python-chess data/endgame-dm-4.epd: mated in 15, and a draw with the right)"
        "$LOOPY" game probe -q "$db" "7K/k7/8/Pp6/8/8/8/8 w - -" \
            "7K/k7/8/Pp6/8/8/8/8 w - b6" "8/8/8/8/pP6/8/K7/7k b - -" \
            "8/8/8/8/pP6/8/K7/7k b - b3" | grep -v '^ '
    fi
done
if [ -n "${KPPKP_TABLES:-}" ]; then
    echo "== KPPKP from $KPPKP_TABLES (Conrady, from the Nalimov tables: 254 plies to mate, the longest of 3 to 5 pieces)"
    "$LOOPY" game stats --tables "$KPPKP_TABLES" "$KPPKP_TABLES/KPPKP.ldb" |
        grep -E '^ *total|^ *draws|^longest'
fi
