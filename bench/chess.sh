#!/bin/sh
# chess.sh - pawnless chess endings solved from the rules (issue #14):
# for each ending, the retrograde solve of every legal position with its
# sub-endings (loopy game solve --solver retro --all-legal, written to a
# database), its time, positions per second (legal indices, and classes
# of symmetric positions solved; indices/s counts every index when the
# stats do not give the legal ones), peak memory (/usr/bin/time), database
# size, and the longest mate against the published one.
#   make && sh bench/chess.sh
#   ENDINGS="KQK KRK" sh bench/chess.sh
# Published longest mates (moves; white to move): KQK 10, KRK 16, KBBK 19,
# KBNK 33 (Wikipedia, "Endgame tablebase"; Nalimov's tables), KQKR 35
# (Wikipedia, "Pawnless chess endgame", queen versus rook).  A mate in N
# moves is a win in 2N - 1 plies.  Needs python3 (to read the JSON).
set -e
LOOPY=${LOOPY:-build/loopy}
ENDINGS=${ENDINGS:-"KQK KRK KBBK KBNK KQKR"}
bench_dir=$(mktemp -d)
trap 'rm -rf "$bench_dir"' EXIT

published() {
    case $1 in
    KQK) echo 10 ;; KRK) echo 16 ;; KBBK) echo 19 ;; KBNK) echo 33 ;;
    KQKR) echo 35 ;; *) echo "?" ;;
    esac
}

printf '%-6s %9s %12s %12s %9s %9s %11s %11s\n' ending seconds \
    "indices/s" "classes/s" "peak MB" "db KB" "longest" published
for ending in $ENDINGS; do
    db="$bench_dir/$ending.ldb"
    /usr/bin/time -f '%e %M' -o "$bench_dir/time" \
        "$LOOPY" game solve -q -f json --solver retro --all-legal \
        "chess:$ending" -o "$db" >"$bench_dir/solve.json"
    "$LOOPY" game stats -q -f json "$db" >"$bench_dir/stats.json"
    python3 - "$bench_dir" "$ending" "$(published "$ending")" "$db" <<'EOF'
import json, os, sys
folder, ending, published, db = sys.argv[1:5]
seconds, peak_kb = open(os.path.join(folder, "time")).read().split()
solve = json.load(open(os.path.join(folder, "solve.json")))
stats = json.load(open(os.path.join(folder, "stats.json")))
seconds = max(float(seconds), 1e-3)
longest = max((r["remoteness"] for r in stats["remoteness"] if r["win"]),
              default=0)
# stats counts the legal indices on small index spaces only
legal = stats.get("legal") or solve["index_size"]
print("%-6s %9.2f %12.0f %12.0f %9.1f %9.0f %4d plies = %2d moves %4s moves"
      % (ending, seconds, legal / seconds,
         solve["positions"] / seconds, int(peak_kb) / 1024.0,
         os.path.getsize(db) / 1024.0, longest, (longest + 1) // 2,
         published))
EOF
done
