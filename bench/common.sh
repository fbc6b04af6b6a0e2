# common.sh - helpers for the benchmark scripts (sourced).
# compare LABEL RUNS CMD_LOOPY CMD_REFERENCE: runs both with hyperfine and
# prints their medians and the ratio reference / loopy.
compare() {
    label=$1 runs=$2 cmd_a=$3 cmd_b=$4
    hyperfine -N --style none --runs "$runs" --warmup 1 \
        --export-json "$bench_dir/h.json" "$cmd_a" "$cmd_b" >/dev/null 2>&1 ||
        hyperfine --style none --runs "$runs" --warmup 1 \
            --export-json "$bench_dir/h.json" "$cmd_a" "$cmd_b" >/dev/null
    a=$(jq '.results[0].median' "$bench_dir/h.json")
    b=$(jq '.results[1].median' "$bench_dir/h.json")
    awk -v l="$label" -v a="$a" -v b="$b" 'BEGIN {
        printf "%-34s loopy %9.4f s   reference %9.4f s   ratio %7.2fx\n",
               l, a, b, b / a }'
}

# workloads: the random graph (N vertices, M moves) and the chain (CHAIN
# vertices) of bench/run.sh and bench/mpi.sh in DIR, made by gen_graph
# unless there already, and the random graph in binary (random.lgr);
# needs DIR, N, M, CHAIN, loopy and DIR/gen_graph.
workloads() {
    [ -s "$DIR/random.txt" ] && [ "$(head -n 1 "$DIR/random.txt")" = "$N $M" ] ||
        "$DIR/gen_graph" random "$N" "$M" 1 >"$DIR/random.txt"
    [ -s "$DIR/chain.txt" ] &&
        [ "$(head -n 1 "$DIR/chain.txt" | cut -d' ' -f1)" = "$CHAIN" ] ||
        "$DIR/gen_graph" chain "$CHAIN" >"$DIR/chain.txt"
    "$loopy" convert -q "$DIR/random.txt" -o "$DIR/random.lgr"
}
