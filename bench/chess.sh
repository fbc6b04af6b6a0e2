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
#
# FIVE names five-piece pawnless endings to time alone beside the Syzygy
# generator (issue #28), as each tool builds a table: its sub-endings'
# tables made first and not timed, then RUNS builds of the ending alone
# (`loopy game solve --tables DIR --build chess:KRBKR`, depth to mate;
# syzygy1/tb's `rtbgen KRBvKR`, WDL + DTZ compressed and written, and with
# -g, its generation alone), at each count of THREADS_LIST (default "2").
# SYZYGY names the folder of a built rtbgen (a fetched copy of
# syzygy1/tb: cd tb/src && make rtbgen; not part of loopy, not in CI);
# without it only loopy's figures print.  Ratios are of the medians.
#   SYZYGY=/tmp/syz/src FIVE="KRBKR KQRKQ KBNKN KRNKR" ENDINGS= REFERENCE= \
#       THREADS_LIST="1 2" RUNS=3 sh bench/chess.sh
# Published longest mates, as two figures: white to move wins in M moves,
# and the longest win or loss of either side to move is P plies (a mate
# in N moves is a win in 2N - 1 plies, a loss in 2N; "-": none found).
# The plies are the maximum depths to mate of the Gaviota tables that the
# chess engine texel bounds its probes by (peterosterlund2/texel,
# lib/texellib/tbprobe.cpp, initMaxDTM: 31999 minus the plies, over both
# sides to move); the moves: KQK 10, KRK 16, KBBK 19, KBNK 33 (Wikipedia,
# "Endgame tablebase"; OEIS A225551, A225552, A225556), and the others
# from MaxKlaxxMiner/Mattjes, docs/m5-endgame-tables.md (longest wins,
# Nalimov's figures where it checked them: KBBKN 78, KBNKN 107) and texel;
# KBNKN also H. Conrady, Computer Chess Club, 1 June 2000 ("KBN-KN ... 213
# plies").  Needs python3 for the medians.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
LOOPY=${LOOPY:-$root/build/loopy}
LIB=${LIB:-$(dirname "$LOOPY")/libloopy.a}
RUNS=${RUNS:-3}
ENDINGS=${ENDINGS-"KQK KRK KBK KNK KQQK KQRK KQBK KQNK KRRK KRBK KRNK
KBBK KBNK KNNK KQKQ KQKR KQKB KQKN KRKR KRKB KRKN KBKB KBKN KNKN"}
REFERENCE=${REFERENCE-"KBNK KQKR KRKN"}
FIVE=${FIVE:-}
SYZYGY=${SYZYGY:-}
THREADS_LIST=${THREADS_LIST:-2}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT

cc -O2 -fopenmp -I"$root/include" -o "$bench_dir/chess_longest" \
    "$here/chess_longest.c" "$LIB" -lzstd -lz -lm

published() { # moves plies
    case $1 in
    KQK) echo 10 20 ;; KRK) echo 16 32 ;; KBBK) echo 19 38 ;;
    KBNK) echo 33 66 ;; KQKR) echo 35 70 ;; KRKN) echo 40 80 ;;
    KRKB) echo 29 58 ;; KQKN) echo 21 42 ;; KQKB) echo 17 34 ;;
    KRKR) echo 19 38 ;; KQKQ) echo 13 25 ;; KQQK) echo 4 20 ;;
    KQRK) echo 6 32 ;; KQBK) echo 8 20 ;; KQNK) echo 9 20 ;;
    KRRK) echo 7 32 ;; KRBK) echo 16 32 ;; KRNK) echo 16 32 ;;
    KNNK | KBKB | KBKN | KNKN) echo 1 1 ;;
    KBNKN) echo 107 213 ;; KBBKN) echo 78 156 ;; KQRKQ) echo 67 134 ;;
    KRBKR) echo 65 129 ;; KRNKR) echo - 81 ;; KRRKR) echo 31 62 ;;
    KQBKQ) echo 33 66 ;; KQNKQ) echo 41 82 ;; KQQKQ) echo 30 60 ;;
    KBBKB) echo 22 44 ;; KBNKB) echo 39 78 ;; KNNKB) echo 4 7 ;;
    KNNKN) echo 7 13 ;; KQRKR) echo 34 70 ;; KQQKR) echo 35 70 ;;
    *) echo - - ;;
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

if [ -n "$ENDINGS" ]; then
    printf '%-6s %8s %11s %8s %7s %8s %16s %9s %16s\n' ending seconds \
        "positions/s" "peak MB" "B/index" "db KB" "white wins" "longest" \
        "published"
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
            -v i="$size" -v d="$(wc -c <"$db")" -v w="$2" -v l="$4" \
            -v p="$(published "$ending")" 'BEGIN {
            split(p, q, " ")
            printf "%-6s %8.2f %11.0f %8.1f %7.2f %8.0f %4d plies = %3d %3d plies %4s, %3s plies\n",
                e, s, n / (s > 0.001 ? s : 0.001), k / 1024, k * 1024 / i,
                d / 1024, w, (w + 1) / 2, l, q[1], q[2] }'
    done
    echo "all of them: $total s (medians added)"
fi

[ -z "$REFERENCE" ] ||
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

[ -n "$FIVE" ] || exit 0

# The five-piece endings alone: each tool's sub-endings first (untimed).
# The generator's names put the stronger side first with a v: KRBvKR.
syzygy_name() {
    echo "$1" | sed 's/^\(K[QRBN]*\)\(K[QRBN]*\)$/\1v\2/'
}
# time5 NAME COMMAND...: RUNS runs of the command, "seconds peak_KB" each
# to $bench_dir/NAME.
time5() {
    name=$1
    shift
    : >"$bench_dir/$name"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        /usr/bin/time -f '%e %M' -o "$bench_dir/time" "$@" >/dev/null 2>&1 ||
            { echo "chess.sh: $* failed" >&2; exit 1; }
        cat "$bench_dir/time" >>"$bench_dir/$name"
        i=$((i + 1))
    done
}
# median5 NAME: the median seconds and the largest peak (KB) of NAME.
median5() {
    cp "$bench_dir/$1" "$bench_dir/times" && median
}
tables="$bench_dir/tables"
mkdir -p "$tables"
if [ -n "$SYZYGY" ]; then
    # The generator reads its sub-tables from the current folder.
    mkdir -p "$bench_dir/syzygy"
    for e in KQvK KRvK KBvK KNvK KQvKQ KQvKR KQvKB KQvKN KRvKR KRvKB \
        KRvKN KBvKB KBvKN KNvKN KQQvK KQRvK KQBvK KQNvK KRRvK KRBvK KRNvK \
        KBBvK KBNvK KNNvK; do
        (cd "$bench_dir/syzygy" && "$SYZYGY/rtbgen" -t 2 "$e" >/dev/null 2>&1) ||
            { echo "chess.sh: $SYZYGY/rtbgen $e failed" >&2; exit 1; }
    done
fi
echo "== five pieces alone, sub-endings' tables ready; median of $RUNS"
echo "loopy: depth to mate, every position, both sides (--build);" \
    "Syzygy: rtbgen, WDL + DTZ compressed and written; -g: its generation alone"
printf '%-6s %7s %9s %8s %9s %8s %7s %9s %7s\n' ending threads "loopy s" \
    "loopy MB" "Syzygy s" "Syz. MB" ratio "Syz. -g s" "ratio"
for ending in $FIVE; do
    s_name=$(syzygy_name "$ending")
    # The sub-endings' tables (and a first build of the ending, removed).
    "$LOOPY" game solve -q --tables "$tables" --build "chess:$ending" >/dev/null
    for threads in $THREADS_LIST; do
        rm -f "$tables/$ending.ldb"
        # shellcheck disable=SC2016 # expanded by the inner sh
        time5 "loopy.$ending.$threads" sh -c 'rm -f "$1"; exec "$2" game solve -q \
            -t "$3" --tables "$4" --build "chess:$5"' sh \
            "$tables/$ending.ldb" "$LOOPY" "$threads" "$tables" "$ending"
        # shellcheck disable=SC2046 # two words
        set -- $(median5 "loopy.$ending.$threads")
        l=$1 lk=$2
        if [ -n "$SYZYGY" ]; then
            # shellcheck disable=SC2016 # expanded by the inner sh
            time5 "syzygy.$ending.$threads" sh -c 'cd "$1" && rm -f "$3".rtb? &&
                exec "$2/rtbgen" -t "$4" "$3"' sh "$bench_dir/syzygy" \
                "$SYZYGY" "$s_name" "$threads"
            # shellcheck disable=SC2046 # two words
            set -- $(median5 "syzygy.$ending.$threads")
            s=$1 sk=$2
            # shellcheck disable=SC2016 # expanded by the inner sh
            time5 "generate.$ending.$threads" sh -c 'cd "$1" &&
                exec "$2/rtbgen" -g -t "$4" "$3"' sh "$bench_dir/syzygy" \
                "$SYZYGY" "$s_name" "$threads"
            # shellcheck disable=SC2046 # two words
            set -- $(median5 "generate.$ending.$threads")
            g=$1
            rm -f "$bench_dir/syzygy/$s_name".rtb?
            awk -v e="$ending" -v t="$threads" -v l="$l" -v lk="$lk" \
                -v s="$s" -v sk="$sk" -v g="$g" 'BEGIN {
                printf "%-6s %7d %9.2f %8.1f %9.2f %8.1f %6.2fx %9.2f %6.2fx\n",
                    e, t, l, lk / 1024, s, sk / 1024, l / s, g, l / g }'
        else
            awk -v e="$ending" -v t="$threads" -v l="$l" -v lk="$lk" 'BEGIN {
                printf "%-6s %7d %9.2f %8.1f %9s %8s %7s %9s %7s\n",
                    e, t, l, lk / 1024, "-", "-", "-", "-", "-" }'
        fi
    done
    rm -f "$tables/$ending.ldb"
done
