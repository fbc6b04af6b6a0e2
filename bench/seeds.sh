#!/bin/sh
# bench/seeds.sh - loopy's seed-problem commands against the problems'
# reference programs, on the same inputs in the same run.
#
#   bench/seeds.sh [RUNS]       (default 5 runs per side; needs g++,
#                                python3, GNU time)
#
# The reference C++ programs are extracted from ../shared/seeds/*.txt at run
# time (bench/extract.py) and built with g++ -O2 in bench/work/, which git
# ignores: their code is never committed.  Beyond its original limits the
# sleepy reference gets its array bounds raised (3n and 3m entries) and runs
# with an unlimited stack, since it recurses once per vertex of its walk.
# Both sides run through "sh -c" with the input file on standard input,
# in alternation (bench/alternate.py: a shared machine's speed drifts, and
# running all of one side first would let the drift pick the winner).  Each
# pair of outputs is checked (identical for race and climb; for sleepy the
# same verdict, and both paths checked legal, odd and ending at a sink,
# loopy's no longer than the reference's).  Prints the median wall time of
# each side and their ratio, the median CPU time (user + system) and its
# ratio, and each side's max RSS.  The sleepy "win" input is the reference's
# best case: its searches stop early, so its time is mostly reading the
# input; "draw" makes both sides read and search everything.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
seeds=${SEEDS:-../shared/seeds}
[ -d "$seeds" ] || seeds=/work/shared/seeds
work=bench/work
mkdir -p "$work"

make -s build/loopy
loopy=$(pwd)/build/loopy
python3 bench/extract.py "$seeds" "$work"
sed -e 's/const int maxn=6e5+10;/const int maxn=3000010;/' \
    -e 's/const int maxm=1e6+10;/const int maxm=6000010;/' \
    "$work/sleepy.cpp" >"$work/sleepy_big.cpp"
grep -q 'maxn=3000010' "$work/sleepy_big.cpp"
for p in race sleepy_big climb; do
    g++ -O2 -o "$work/ref_$p" "$work/$p.cpp"
done
cc -O2 -o "$work/seedgen" bench/seedgen.c

echo "generating inputs ..."
"$work/seedgen" race 100000 500000 500 1 >"$work/race.in"
"$work/seedgen" sleepy 1000000 2000000 7 win >"$work/sleepy_win.in"
"$work/seedgen" sleepy 1000000 2000000 8 draw >"$work/sleepy_draw.in"
"$work/seedgen" climb 1000 1000 1000000 3 >"$work/climb.in"

cd "$work"
# timing REF_CMD LOOPY_CMD: medians of wall and CPU time (user + system)
# of each side, in seconds, the sides run in alternation (bench/alternate.py)
# so that both meet the same load on a shared machine.
timing() {
    python3 ../alternate.py "$runs" 1 "$1" "$2"
}
# rss COMMAND: max resident set size in KiB.
rss() {
    /usr/bin/time -f '%M' -o rss.txt sh -c "$1" >/dev/null 2>&1
    cat rss.txt
}
ratio() { python3 -c "print('%.1fx' % ($1 / $2))"; }

printf '%-12s %9s %9s %7s %9s %9s %7s %11s %11s\n' "input" "ref wall" \
    "loopy" "ratio" "ref cpu" "loopy" "ratio" "ref RSS KiB" "loopy"
bench() { # NAME REF_CMD LOOPY_CMD
    sh -c "$2" >"$1.ref"
    sh -c "$3" >"$1.out"
    case $1 in
    sleepy*)
        ref=$(./seedgen check-sleepy "$1.in" "$1.ref")
        got=$(./seedgen check-sleepy "$1.in" "$1.out")
        ok=no
        case "$ref/$got" in
        "Win "*"/Win "*) [ "${got#Win }" -le "${ref#Win }" ] && ok=yes ;;
        Draw/Draw | Lose/Lose) ok=yes ;;
        esac
        if [ "$ok" != yes ]; then echo "$1: outputs disagree: $ref / $got"; exit 1; fi
        ;;
    *)
        if ! cmp -s "$1.ref" "$1.out"; then echo "$1: outputs differ"; exit 1; fi
        ;;
    esac
    set -- "$1" "$2" "$3" $(timing "$2 >/dev/null" "$3 >/dev/null")
    printf '%-12s %9s %9s %7s %9s %9s %7s %11s %11s\n' "$1" "$4" "$6" \
        "$(ratio "$4" "$6")" "$5" "$7" "$(ratio "$5" "$7")" "$(rss "$2")" \
        "$(rss "$3")"
}
bench race "./ref_race < race.in" "$loopy race < race.in"
bench sleepy_win "ulimit -s unlimited; ./ref_sleepy_big < sleepy_win.in" \
    "$loopy sleepy < sleepy_win.in"
bench sleepy_draw "ulimit -s unlimited; ./ref_sleepy_big < sleepy_draw.in" \
    "$loopy sleepy < sleepy_draw.in"
bench climb "./ref_climb < climb.in" "$loopy climb < climb.in"
echo "sleepy win path (vertices): reference $(./seedgen check-sleepy sleepy_win.in sleepy_win.ref | cut -d' ' -f2), loopy $(./seedgen check-sleepy sleepy_win.in sleepy_win.out | cut -d' ' -f2)"
