#!/bin/sh
# grundy.sh - 'loopy grundy' against references, in one run:
#  - the naive whole-graph-sweep labelling (bench/grundy_naive.c), on graphs
#    small enough for it; outputs are compared first;
#  - 'loopy solve' (W/L/D only, one O(n + m) pass) on large graphs, to show
#    what the values cost over the outcomes.
# Prints the median of RUNS runs (default 5) of each and the ratios.
#   make && sh bench/grundy.sh
set -e
LOOPY=${LOOPY:-build/loopy}
RUNS=${RUNS:-5}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT
. "$(dirname "$0")/common.sh"

cc -O2 -Iinclude bench/grundy_naive.c build/libloopy.a -fopenmp -lm \
    -o "$bench_dir/naive"
gen() { awk -v shape="$1" -v n="$2" -v m="$3" -v seed="$4" \
    -f bench/gen_graph.awk >"$bench_dir/$5"; }
gen random 20000 50000 1 random20k.txt
gen path 20000 0 2 path20k.txt
gen layered 20000 320000 3 layered20k.txt
gen random 1000000 2500000 4 random1m.txt
gen dag 1000000 3000000 5 dag1m.txt
gen layered 500000 4000000 6 layered500k.txt

small="random20k path20k layered20k"
for f in $small; do
    "$LOOPY" grundy -q "$bench_dir/$f.txt" >"$bench_dir/a.out"
    "$bench_dir/naive" "$bench_dir/$f.txt" >"$bench_dir/b.out"
    cmp -s "$bench_dir/a.out" "$bench_dir/b.out" ||
        { echo "grundy.sh: $f: loopy and the naive reference differ"; exit 1; }
done
echo "outputs identical to the naive reference on the small graphs"

echo "-- loopy grundy vs naive sweeps (reference = grundy_naive)"
for f in $small; do
    largest=$("$LOOPY" grundy "$bench_dir/$f.txt" 2>&1 >/dev/null |
        sed -E 's/.*largest ([0-9]+).*/\1/')
    compare "$f (largest value $largest)" "$RUNS" "$LOOPY grundy -q $bench_dir/$f.txt" \
        "$bench_dir/naive $bench_dir/$f.txt"
done
echo "-- loopy grundy vs loopy solve (reference = solve; ratio < 1: grundy slower)"
for f in random1m dag1m layered500k; do
    largest=$("$LOOPY" grundy "$bench_dir/$f.txt" 2>&1 >/dev/null |
        sed -E 's/.*largest ([0-9]+).*/\1/')
    compare "$f (largest value $largest)" 3 \
        "$LOOPY grundy -q $bench_dir/$f.txt" "$LOOPY solve -q $bench_dir/$f.txt"
done
