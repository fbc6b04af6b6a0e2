#!/bin/sh
# games.sh - games by rules: the solver through a graph against the solver
# that stores no moves (--solver retro), in one run, on the same games.
# For each game and solver: the median time of RUNS runs (default 3),
# positions per second, peak memory (/usr/bin/time) and bytes per position
# solved; the retro solver's ratio to the graph solver; and the answers of
# both, which must agree.  Published figures for scale are printed beside
# Connect Four (the start's value and the ply the game ends on: John Tromp's
# table, reproduced in the test suite).
#   make && sh bench/games.sh
#   GAMES="connect4:6x4" RUNS=1 sh bench/games.sh     # the large board
set -e
LOOPY=${LOOPY:-build/loopy}
RUNS=${RUNS:-3}
GAMES=${GAMES:-"tictactoe mnk:3,4,3 mnk:4,4,3 connect4:4x4 connect4:4x5 connect4:5x4"}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT

# median_run SOLVER GAME: prints "SECONDS PEAK_KB" (median seconds of RUNS
# runs, the peak memory of the last); the summary goes to $bench_dir/out.
median_run() {
    : >"$bench_dir/times"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        /usr/bin/time -f '%e %M' -o "$bench_dir/time" \
            "$LOOPY" game solve -q --solver "$1" "$2" >"$bench_dir/out.$1"
        cat "$bench_dir/time" >>"$bench_dir/times"
        i=$((i + 1))
    done
    sort -n "$bench_dir/times" | awk '{ t[NR] = $1; m = $2 }
        END { printf "%s %s\n", t[int((NR + 1) / 2)], m }'
}

printf '%-16s %-6s %12s %9s %14s %10s %9s\n' game solver positions seconds \
    positions/s "peak MB" "B/pos"
for game in $GAMES; do
    for solver in graph retro; do
        set -- $(median_run "$solver" "$game")
        seconds=$1 peak_kb=$2
        positions=$(head -n 1 "$bench_dir/out.$solver" |
            sed -E 's/.*: ([0-9]+) positions.*/\1/')
        awk -v g="$game" -v s="$solver" -v n="$positions" -v t="$seconds" \
            -v kb="$peak_kb" 'BEGIN {
            printf "%-16s %-6s %12d %9.2f %14.0f %10.1f %9.1f\n", g, s, n, t,
                   (t > 0 ? n / t : 0), kb / 1024, kb * 1024 / n }'
        eval "t_$solver=$seconds"
    done
    if ! cmp -s "$bench_dir/out.graph" "$bench_dir/out.retro"; then
        echo "games.sh: $game: the two solvers differ:"
        diff "$bench_dir/out.graph" "$bench_dir/out.retro"
        exit 1
    fi
    awk -v g="$game" -v a="$t_graph" -v b="$t_retro" 'BEGIN {
        printf "%-16s retro / graph time: %.2f; answers identical: %s\n", g,
               (a > 0 ? b / a : 0), "yes" }'
    sed -n 's/^  start/  start/p' "$bench_dir/out.graph"
done
echo "published, for scale: Connect Four 4x4, 5x4, 4x5 and 5x5 are ties"
echo "ending on ply 16, 20, 20 and 25, 6x4 a second-player win on ply 24 (Tromp);"
echo "a BDD-based strong solver needs about 35 s for 6x4 and 40 s for 5x5 on one"
echo "fast desktop core (the figures quoted in issue #13)."
