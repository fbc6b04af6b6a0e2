#!/bin/sh
# chess.sh - pawnless chess endings solved from the rules (issue #14).
#
# For each ending (with its sub-endings, which share its index space):
# the time of `loopy game solve --solver tablebase` (the chess game's own
# solver, 2 bytes per index; median of RUNS), legal positions solved per
# second, peak memory (/usr/bin/time), bytes of peak memory per index,
# the database's size, and the ending's longest mate with white to move
# and with black to move (bench/chess_longest.c reads them from the
# database) against the published ones.  Then the reference in the same
# run: the solver that stores no moves (--solver retro --all-legal, 4
# bytes per index) on the endings of REFERENCE, with the ratio of the
# medians and the two databases compared byte for byte.
#   make && sh bench/chess.sh                  # every 3- and 4-piece ending
#   ENDINGS="KRBKR" REFERENCE="KRBKR" RUNS=1 sh bench/chess.sh   # five pieces
# Published longest mates (moves, white to move wins; "-": no forced
# mate): KQK 10, KRK 16, KBBK 19, KBNK 33 (Wikipedia, "Endgame
# tablebase"; OEIS A225551, A225552, A225556); the others from the
# maximum depths to mate of the Gaviota tables in texel
# (peterosterlund2/texel, lib/texellib/tbprobe.cpp, initMaxDTM) and the
# tables of MaxKlaxxMiner/Mattjes (docs/m5-endgame-tables.md): KQKR 35,
# KRKN 40, KRKB 29, KQKN 21, KQKB 17, KRKR 19, KQKQ 13, KQQK 4, KQRK 6,
# KQBK 8, KQNK 9, KRRK 7, KRBK 16, KRNK 16, and 1 (a mate in one that
# cannot be forced) for KNNK, KBKB, KBKN, KNKN; five pieces KRBKR 65, KBBKN
# 78 (black to move), KQRKQ 67, KRNKR 41 (the longest win of either side:
# black to move takes the rook and wins K+R v K+N), KQNKQ 41, KQBKQ 33,
# KRRKR 31, KQQKQ 30, KBNKB 39, KBBKB 22, KBNKN 107 (H. Conrady, Computer
# Chess Club, 1 June 2000: "KBN-KN ... 213 plies").  A mate in N moves is
# a win in 2N - 1 plies, a loss in 2N.  Needs python3 for the medians.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
LOOPY=${LOOPY:-$root/build/loopy}
LIB=${LIB:-$(dirname "$LOOPY")/libloopy.a}
RUNS=${RUNS:-3}
ENDINGS=${ENDINGS:-"KQK KRK KBK KNK KQQK KQRK KQBK KQNK KRRK KRBK KRNK
KBBK KBNK KNNK KQKQ KQKR KQKB KQKN KRKR KRKB KRKN KBKB KBKN KNKN"}
REFERENCE=${REFERENCE:-"KBNK KQKR KRKN"}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT

cc -O2 -fopenmp -I"$root/include" -o "$bench_dir/chess_longest" \
    "$here/chess_longest.c" "$LIB" -lzstd -lz -lm

published() {
    case $1 in
    KQK) echo 10 ;; KRK) echo 16 ;; KBBK) echo 19 ;; KBNK) echo 33 ;;
    KQKR) echo 35 ;; KRKN) echo 40 ;; KRKB) echo 29 ;; KQKN) echo 21 ;;
    KQKB) echo 17 ;; KRKR) echo 19 ;; KQKQ) echo 13 ;; KQQK) echo 4 ;;
    KQRK) echo 6 ;; KQBK) echo 8 ;; KQNK) echo 9 ;; KRRK) echo 7 ;;
    KRBK) echo 16 ;; KRNK) echo 16 ;; KRBKR) echo 65 ;; KBBKN) echo 78 ;;
    KQRKQ) echo 67 ;; KRNKR) echo 41 ;; KQNKQ) echo 41 ;; KQBKQ) echo 33 ;;
    KRRKR) echo 31 ;; KQQKQ) echo 30 ;; KBNKB) echo 39 ;; KBBKB) echo 22 ;;
    KBNKN) echo 107 ;; KNNK | KBKB | KBKN | KNKN) echo 1 ;;
    *) echo - ;;
    esac
}

# run SOLVER ENDING OUT: RUNS solves; their times and the last peak go to
# $bench_dir/times.
run() {
    if [ "$1" = retro ]; then
        flags="--solver retro --all-legal"
    else
        flags="--solver tablebase"
    fi
    : >"$bench_dir/times"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        # shellcheck disable=SC2086 # flags are words
        /usr/bin/time -f '%e %M' -o "$bench_dir/time" \
            "$LOOPY" game solve -q -f json $flags "chess:$2" -o "$3" \
            >"$bench_dir/solve.json"
        cat "$bench_dir/time" >>"$bench_dir/times"
        i=$((i + 1))
    done
}

median() { # the median time and the largest peak (KB) of $bench_dir/times
    python3 -c '
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
t = sorted(float(r[0]) for r in rows)
print("%.3f %d" % (t[len(t) // 2], max(int(r[1]) for r in rows)))' \
        "$bench_dir/times"
}

printf '%-6s %8s %11s %8s %7s %8s %9s %9s %9s\n' ending seconds \
    "positions/s" "peak MB" "B/index" "db KB" "white wins" "black loses" \
    published
total=0
for ending in $ENDINGS; do
    db="$bench_dir/$ending.ldb"
    run tablebase "$ending" "$db"
    set -- $(median)
    seconds=$1 peak=$2
    positions=$(sed 's/.*"positions": \([0-9]*\).*/\1/' "$bench_dir/solve.json")
    size=$(sed 's/.*"index_size": \([0-9]*\).*/\1/' "$bench_dir/solve.json")
    set -- $("$bench_dir/chess_longest" "$db")
    total=$(awk -v a="$total" -v b="$seconds" 'BEGIN { print a + b }')
    awk -v e="$ending" -v s="$seconds" -v n="$positions" -v k="$peak" \
        -v i="$size" -v d="$(wc -c <"$db")" -v w="$2" -v l="$3" \
        -v p="$(published "$ending")" 'BEGIN {
        printf "%-6s %8.2f %11.0f %8.1f %7.2f %8.0f %5d = %3d %5d = %3d %9s\n",
            e, s, n / (s > 0.001 ? s : 0.001), k / 1024, k * 1024 / i,
            d / 1024, w, (w + 1) / 2, l, l / 2, p }'
done
echo "all of them: $total s (medians added)"

echo "== reference: --solver retro --all-legal (4 bytes per index)"
for ending in $REFERENCE; do
    run tablebase "$ending" "$bench_dir/a.ldb"
    set -- $(median)
    a=$1 pa=$2
    run retro "$ending" "$bench_dir/b.ldb"
    set -- $(median)
    b=$1 pb=$2
    same=differ
    cmp -s "$bench_dir/a.ldb" "$bench_dir/b.ldb" && same="the same bytes"
    awk -v e="$ending" -v a="$a" -v b="$b" -v pa="$pa" -v pb="$pb" \
        -v same="$same" 'BEGIN {
        printf "%-6s tablebase %8.2f s %7.1f MB   retro %8.2f s %7.1f MB" \
               "   ratio %5.2fx time, %4.2fx memory; databases: %s\n",
            e, a, pa / 1024, b, pb / 1024, b / a, pb / pa, same }'
done
