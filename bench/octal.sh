#!/bin/sh
# octal.sh - 'loopy octal' against the textbook O(N^2) recursion
# (bench/octal_naive.c), same run; outputs are compared first.  Prints the
# median of RUNS runs (default 5) and the ratio, then loopy alone at N=1e5.
#   make && sh bench/octal.sh
set -e
LOOPY=${LOOPY:-build/loopy}
RUNS=${RUNS:-5}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT
. "$(dirname "$0")/common.sh"

cc -O2 bench/octal_naive.c -o "$bench_dir/naive"
for code in 0.77 0.07 0.137; do
    "$LOOPY" octal "$code" 20000 >"$bench_dir/a.out"
    "$bench_dir/naive" "$code" 20000 >"$bench_dir/b.out"
    cmp -s "$bench_dir/a.out" "$bench_dir/b.out" ||
        { echo "octal.sh: $code: loopy and the naive recursion differ"; exit 1; }
done
echo "outputs identical to the naive recursion for N = 20000"
for code in 0.77 0.07 0.137; do
    compare "octal $code N=20000" "$RUNS" "$LOOPY octal -o $bench_dir/o.txt $code 20000" \
        "$bench_dir/naive $code 20000"
done
for code in 0.77 0.07 0.137; do
    compare "octal $code N=100000" 3 "$LOOPY octal -o $bench_dir/o.txt $code 100000" \
        "$bench_dir/naive $code 100000"
done
