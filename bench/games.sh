#!/bin/sh
# games.sh - games by rules: the solver through a graph against the solver
# that stores no moves (--solver retro), in one run, on the same games; and
# for games with tiers (Connect Four; m,n,k in LARGE), the tier solver (--solver tier)
# against retro: time and peak memory as ratios.
# For each game and solver: the median time of RUNS runs (default 3),
# positions per second, peak memory (/usr/bin/time), bytes per position
# solved and per index of the game's index space; the retro solver's time
# as a ratio of the graph solver's; and the answers of both, which must
# agree.  Published figures are printed beside Connect Four.
#   make && sh bench/games.sh
#   LARGE=1 sh bench/games.sh    # also Connect Four 6x4 and 5x5, and
#                                # m,n,k 4,5,3 and 4,5,4 (retro
#                                # and tier, LARGE_RUNS times, default
#                                # once; GRAPH_LARGE=1: the graph solver too;
#                                # TROMP=1: every position, no symmetry,
#                                # against Tromp's counts)
#   HUGE=1 sh bench/games.sh     # only Connect Four 6x5, 7x4 and 5x6
#                                # (HUGE_GAMES), once each, by the tier
#                                # solver with its work file in HUGE_DIR
#                                # (default: a folder under /tmp; 20 GB of
#                                # disk for 6x5): time, peak memory, the
#                                # database's size, the positions with their
#                                # mirror images against Tromp's counts, and
#                                # the time of a probe of random positions
# Needs python3 (to read the JSON summaries).
set -e
LOOPY=${LOOPY:-build/loopy}
if [ "${HUGE:-0}" = 1 ]; then
    exec sh "$(dirname "$0")/games_huge.sh"
fi
RUNS=${RUNS:-3}
GAMES=${GAMES:-"tictactoe mnk:3,4,3 mnk:4,4,3 connect4:4x4 connect4:4x5 connect4:5x4"}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT

# run SOLVER GAME RUNS [OPTION]: prints "SECONDS PEAK_KB" (the median of
# RUNS runs, the peak memory of the last); the JSON summary goes to
# $bench_dir/SOLVER.json, and with with_db=1 the database to
# $bench_dir/SOLVER.ldb.
run() {
    : >"$bench_dir/times"
    if [ "${with_db:-0}" = 1 ]; then
        set -- "$1" "$2" "$3" "$4 -o $bench_dir/$1.ldb"
    fi
    i=0
    while [ "$i" -lt "$3" ]; do
        /usr/bin/time -f '%e %M' -o "$bench_dir/time" \
            "$LOOPY" game solve -q -f json --solver "$1" $4 "$2" \
            >"$bench_dir/$1.json"
        cat "$bench_dir/time" >>"$bench_dir/times"
        i=$((i + 1))
    done
    sort -n "$bench_dir/times" | awk '{ t[NR] = $1; m = $2 }
        END { printf "%s %s\n", t[int((NR + 1) / 2)], m }'
}

# row SOLVER GAME SECONDS PEAK_KB: one line of the table.
row() {
    python3 - "$bench_dir/$1.json" "$1" "$2" "$3" "$4" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
solver, game, t, kb = sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
n, size = s["positions"], s["index_size"]
print("%-16s %-6s %11d %12d %8.2f %12.0f %9.1f %7.1f %7.2f" % (
    game, solver, n, size, t, n / t if t > 0 else 0, kb / 1024,
    kb * 1024 / n, kb * 1024 / size))
PY
}

# answers SOLVER: what both solvers must agree on.
answers() {
    python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
print(s["positions"], s["win"], s["lose"], s["tie"], s["draw"],
      s["start"]["value"], s["start"]["remoteness"])' "$bench_dir/$1.json"
}

header() {
    printf '%-16s %-6s %11s %12s %8s %12s %9s %7s %7s\n' game solver \
        positions "index size" seconds positions/s "peak MB" B/pos B/index
}

# compare GAME SOLVERS...: times (graph first) and answers.
bench_game() {
    game=$1 runs=$2
    shift 2
    for solver in "$@"; do
        r=$(run "$solver" "$game" "$runs")
        row "$solver" "$game" $r
        answers "$solver" >"$bench_dir/$solver.answers"
        eval "t_$solver=\$(echo \$r | cut -d' ' -f1)"
        eval "m_$solver=\$(echo \$r | cut -d' ' -f2)"
    done
    if [ -f "$bench_dir/tier.answers" ]; then
        if ! cmp -s "$bench_dir/tier.answers" "$bench_dir/retro.answers"; then
            echo "games.sh: $game: the tier and retro solvers differ:"
            cat "$bench_dir/tier.answers" "$bench_dir/retro.answers"
            exit 1
        fi
        awk -v g="$game" -v a="$t_retro" -v b="$t_tier" -v ma="$m_retro" \
            -v mb="$m_tier" 'BEGIN {
            printf "%-16s tier / retro time: %.2f, peak memory: %.2f; answers identical\n",
                   g, (a > 0 ? b / a : 0), (ma > 0 ? mb / ma : 0) }'
    fi
    if [ -f "$bench_dir/graph.answers" ] && [ -f "$bench_dir/retro.answers" ]; then
        if ! cmp -s "$bench_dir/graph.answers" "$bench_dir/retro.answers"; then
            echo "games.sh: $game: the two solvers differ:"
            cat "$bench_dir/graph.answers" "$bench_dir/retro.answers"
            exit 1
        fi
        awk -v g="$game" -v a="$t_graph" -v b="$t_retro" 'BEGIN {
            printf "%-16s retro / graph time: %.2f; answers identical\n", g,
                   (a > 0 ? b / a : 0) }'
    fi
    if [ "${with_db:-0}" = 1 ]; then
        if ! cmp -s "$bench_dir/tier.ldb" "$bench_dir/retro.ldb"; then
            echo "games.sh: $game: the tier and retro solvers wrote different databases"
            exit 1
        fi
        echo "$game: the databases of tier and retro are identical," \
            "$(wc -c <"$bench_dir/tier.ldb") bytes"
        rm -f "$bench_dir"/*.ldb
    fi
    set -- $(cat "$bench_dir/retro.answers")
    echo "$game: start $6 $7; W $2 L $3 T $4 D $5"
    rm -f "$bench_dir"/*.answers
}

header
for game in $GAMES; do
    case $game in
    connect4:*) bench_game "$game" "$RUNS" graph retro tier ;;
    *) bench_game "$game" "$RUNS" graph retro ;;
    esac
done
echo "published: Connect Four 4x4, 4x5 and 5x4 are ties ending on ply 16, 20"
echo "and 20 (John Tromp, tromp.github.io/c4/c4.html; reproduced in the tests)."

if [ "${LARGE:-0}" = 1 ]; then
    echo
    header
    for game in connect4:6x4 connect4:5x5; do
        if [ "${GRAPH_LARGE:-0}" = 1 ]; then
            bench_game "$game" "${LARGE_RUNS:-1}" graph retro tier
        else
            bench_game "$game" "${LARGE_RUNS:-1}" retro tier
        fi
        w=${game#connect4:}
        w=${w%x*}
        h=${game#*x}
        echo "$game: Tromp's index would have 2^$((w * (h + 1))) =" \
            "$(awk -v e=$((w * (h + 1))) 'BEGIN { printf "%.0f", 2 ^ e }')" \
            "codes"
        if [ "${TROMP:-0}" = 1 ]; then
            r=$(run retro "$game" 1 --no-symmetry)
            row retro "$game" $r
            echo "$game without symmetry: $(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["positions"])' "$bench_dir/retro.json")" \
                "positions"
        fi
    done
    echo "published (Tromp): 6x4 is a second-player win ending on ply 24, with"
    echo "94,910,577 positions; 5x5 a tie on ply 25, with 69,763,700.  A"
    echo "BDD-based strong solver needs about 35 s for 6x4 and 40 s for 5x5 on"
    echo "one fast desktop core (the figures quoted in issue #13)."
    # m,n,k on 4 x 5 (a tier a stone count): the tier solver against retro
    # (3 GB: 4 bytes an index) and, with GRAPH_LARGE=1, the graph solver;
    # each writes its database (-o), as a solve this large is run, so that
    # the tier solver keeps only its working set in memory.
    echo
    header
    with_db=1
    for game in mnk:4,5,3 mnk:4,5,4; do
        if [ "${GRAPH_LARGE:-0}" = 1 ]; then
            bench_game "$game" "${LARGE_RUNS:-1}" graph retro tier
        else
            bench_game "$game" "${LARGE_RUNS:-1}" retro tier
        fi
    done
    echo "for comparison: GamesmanOne's tier solver on mnk 4,5,3, measured on"
    echo "this machine with 2 threads (issue #24): 678 s and 416 MB; loopy's"
    echo "graph solver before the index by stone count: 89 s and 9.3 GB."
    echo "4,5,4 is a tie, as it must be if 5,5,4 is (Wikipedia, m,n,k-game:"
    echo "a draw stays a draw when the board shrinks)."
fi
