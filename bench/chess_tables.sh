#!/bin/sh
# chess_tables.sh - the four-piece chess endings with pawns built as a
# tablebase generator builds them: every ending of the set once, smallest
# first, each reading its sub-endings from the folder (`loopy game solve
# --tables DIR chess:KPKP -o DIR/KPKP.ldb`), beside the Syzygy generator
# (syzygy1/tb's rtbgen and rtbgenp, which read theirs from the current
# folder) building the same set, when SYZYGY names the folder of those
# two programs (built from a fetched copy: cd tb/src && make rtbgen
# rtbgenp; not part of loopy).
#
# The tools do not compute the same thing: loopy computes depth to mate
# (remoteness in plies, every position, both sides to move) and writes a
# zstd database; the generator computes WDL and DTZ (distance to the next
# capture or pawn move, with the fifty-move rule) and writes both tables
# compressed.  loopy's tables are by colour (chess:KQKP and chess:KPKQ are
# two), the generator's are not (KQvKP holds both), so loopy's set has
# more tables; the rows compare one ending each, the totals the whole set.
#
# With BUILD=1 (the default) each loopy table is built alone (`loopy game
# solve --tables DIR --build chess:KPKP`: the ending alone in its file,
# only it and its sub-endings in memory), as the generator's are; with
# BUILD=0 each is the database of its whole closure (`-o DIR/KPKP.ldb`,
# its sub-endings read from the folder and written again).
#
# FIVE adds five-piece endings after the set, each as loopy:syzygy names
# (the generator names the stronger side first), in an order where each
# one's sub-endings come before it: KRPKR after the four pawnless ones
# that its promotions reach (about 25 minutes of both tools).
#
# Printed: for each ending with pawns (and of FIVE), the seconds of each
# (median of RUNS, each tool its own set of tables), their ratio, loopy's
# peak memory; then the whole set's seconds (FIVE apart).  THREADS threads
# each (default 2).
#   make && sh bench/chess_tables.sh
#   SYZYGY=/tmp/syz/src RUNS=3 sh bench/chess_tables.sh
#   SYZYGY=/tmp/syz/src FIVE="KQRKR:KQRvKR KRRKR:KRRvKR KRBKR:KRBvKR \
#       KRNKR:KRNvKR KRPKR:KRPvKR" sh bench/chess_tables.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
LOOPY=${LOOPY:-$root/build/loopy}
RUNS=${RUNS:-1}
THREADS=${THREADS:-2}
SYZYGY=${SYZYGY:-}
BUILD=${BUILD:-1}
FIVE=${FIVE:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The set, smallest first: every ending its captures and promotions reach
# before it.  loopy names white's pieces, then black's.
three="KQK KRK KBK KNK KKQ KKR KKB KKN KPK KKP"
four="KQKQ KQKR KQKB KQKN KRKQ KRKR KRKB KRKN KBKQ KBKR KBKB KBKN KNKQ KNKR
KNKB KNKN KQQK KQRK KQBK KQNK KRRK KRBK KRNK KBBK KBNK KNNK"
pawns="KQKP KPKQ KRKP KPKR KBKP KPKB KNKP KPKN KQPK KRPK KBPK KNPK KPKP KPPK"
# The generator's names of the same set (one table for both colours).
s_three="KQvK KRvK KBvK KNvK KPvK"
s_four="KQvKQ KQvKR KQvKB KQvKN KRvKR KRvKB KRvKN KBvKB KBvKN KNvKN KQQvK
KQRvK KQBvK KQNvK KRRvK KRBvK KRNvK KBBvK KBNvK KNNvK"
s_pawns="KQvKP KRvKP KBvKP KNvKP KQPvK KRPvK KBPvK KNPvK KPvKP KPPvK"
shown="KPK KQKP KRKP KBKP KNKP KQPK KRPK KBPK KNPK KPPK KPKP"

median() {
    sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

five_loopy=$(for p in $FIVE; do printf '%s ' "${p%%:*}"; done)
five_syzygy=$(for p in $FIVE; do printf '%s ' "${p#*:}"; done)

# Each ending of a set, timed: lines "NAME SECONDS PEAK_KB" to $2.
build_loopy() {
    dir=$1
    times=$2
    rm -rf "$dir" && mkdir -p "$dir"
    for e in $three $four $pawns $five_loopy; do
        if [ "$BUILD" = 1 ]; then
            set -- --build
        else
            set -- -o "$dir/$e.ldb"
        fi
        /usr/bin/time -f "$e %e %M" -o "$dir/.t" "$LOOPY" game solve -q \
            -t "$THREADS" --tables "$dir" "chess:$e" "$@" >/dev/null
        cat "$dir/.t" >>"$times"
    done
}

build_syzygy() {
    dir=$1
    rm -rf "$dir" && mkdir -p "$dir"
    for e in $s_three $s_four $s_pawns $five_syzygy; do
        case $e in *P*) gen=$SYZYGY/rtbgenp ;; *) gen=$SYZYGY/rtbgen ;; esac
        (cd "$dir" && /usr/bin/time -f "$e %e %M" -o .t "$gen" -t "$THREADS" "$e" \
            >/dev/null 2>&1) || { echo "chess_tables: $gen $e failed" >&2; exit 1; }
        cat "$dir/.t" >>"$2"
    done
}

for run in $(seq "$RUNS"); do
    build_loopy "$work/loopy" "$work/loopy.times"
    [ -z "$SYZYGY" ] || build_syzygy "$work/syzygy" "$work/syzygy.times"
done

# The median seconds (or peak KB, field 3) of an ending in a times file.
of() {
    awk -v e="$2" -v f="${3:-2}" '$1 == e { print $f }' "$1" | median
}
# The whole set's seconds in each run, their median.
total() {
    awk -v n="$2" '{ s[int((NR - 1) / n)] += $2 } END { for (r in s) print s[r] }' "$1" |
        median
}

echo "chess endings with pawns, tables built smallest first, $THREADS threads, median of $RUNS"
echo "loopy: depth to mate, $([ "$BUILD" = 1 ] && echo "each table alone (--build)" || echo "each table its whole closure (-o)"); Syzygy generator: WDL + DTZ50, compressed and written"
printf '%-8s %10s %10s %8s %10s\n' ending "loopy s" "Syzygy s" ratio "loopy MB"
for e in $shown $FIVE; do
    case $e in
    *:*) s_name=${e#*:} e=${e%%:*} ;;
    *) s_name=$(echo "$e" | sed 's/^\(K[QRBNP]*\)\(K[QRBNP]*\)$/\1v\2/') ;;
    esac
    l=$(of "$work/loopy.times" "$e")
    mb=$(($(of "$work/loopy.times" "$e" 3) / 1024))
    if [ -n "$SYZYGY" ]; then
        s=$(of "$work/syzygy.times" "$s_name")
        printf '%-8s %10s %10s %8s %10s\n' "$e" "$l" "$s" \
            "$(awk -v a="$l" -v b="$s" 'BEGIN { printf "%.2f", a / b }')" "$mb"
    else
        printf '%-8s %10s %10s %8s %10s\n' "$e" "$l" - - "$mb"
    fi
done
# The set's totals: the lines of the first endings of each run.
if [ -n "$FIVE" ]; then
    grep -v -E "^($(echo $five_loopy | tr ' ' '|')) " "$work/loopy.times" \
        >"$work/loopy.set" || true
    mv "$work/loopy.set" "$work/loopy.times"
    if [ -n "$SYZYGY" ]; then
        grep -v -E "^($(echo $five_syzygy | tr ' ' '|')) " \
            "$work/syzygy.times" >"$work/syzygy.set" || true
        mv "$work/syzygy.set" "$work/syzygy.times"
    fi
fi
n_loopy=$(echo $three $four $pawns | wc -w)
printf '%-8s %10s' "set" "$(total "$work/loopy.times" "$n_loopy")"
if [ -n "$SYZYGY" ]; then
    n_syzygy=$(echo $s_three $s_four $s_pawns | wc -w)
    printf ' %10s' "$(total "$work/syzygy.times" "$n_syzygy")"
fi
printf '   (loopy %s tables%s)\n' "$n_loopy" \
    "$([ -z "$SYZYGY" ] || echo ", Syzygy $n_syzygy")"
