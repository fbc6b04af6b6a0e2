#!/bin/sh
# loopy game stats: the counts of a database checked against independent
# facts (the solve's summary with and without symmetry, the 5478 legal
# tic-tac-toe positions, probes of the longest win and loss, the
# remoteness histogram of 'loopy solve' on a graph), the same numbers
# from a GAME as from its file, the JSON form, and bad uses refused.
#   LOOPY=build/loopy sh tests/cli/game_stats.sh
# Prints "game_stats: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

# field FILE LABEL: the number after LABEL at the start of a line.
field() {
    awk -v l="$2" 'index($0, l) == 1 { s = substr($0, length(l) + 1)
        split(s, w, " "); print w[1]; exit }' "$1"
}

# table FILE: the remoteness rows, "R W L T".
table() {
    awk '/^remoteness/ { on = 1; next } /^ +total/ { on = 0 }
         on { print $1, $2, $3, $4 }' "$1"
}

cd "$work" || exit 1

# ---- tic-tac-toe, with and without symmetry ----
for sym in "" "--no-symmetry"; do
    tag=${sym:-sym}
    "$LOOPY" game solve -q $sym tictactoe -o "t$tag.ldb" >"solve$tag" ||
        fail "solve tictactoe $sym"
    "$LOOPY" game stats "t$tag.ldb" >"stats$tag" 2>"err$tag" ||
        fail "stats t$tag.ldb: $(cat "err$tag")"
    [ -s "err$tag" ] && fail "stats of a file printed on standard error"
    # The solve's summary: "tictactoe: N positions reached..." and
    # "  W a  L b  T c  D d".
    n=$(awk 'NR == 1 { print $2 }' "solve$tag")
    wltd=$(awk 'NR == 2 { print $2, $4, $6, $8 }' "solve$tag")
    same "$tag positions" "$(awk 'NR == 1 { print $2 }' "stats$tag")" "$n"
    same "$tag totals" "$(awk '/^ +total/ { print $2, $3, $4 }' "stats$tag") $(field "stats$tag" '     draws')" "$wltd"
    same "$tag rows sum to totals" \
        "$(table "stats$tag" | awk '{ w += $2; l += $3; t += $4 } END { print w, l, t }')" \
        "$(awk '/^ +total/ { print $2, $3, $4 }' "stats$tag")"
    same "$tag index space" "$(field "stats$tag" '  index space  ')" 6046
    same "$tag legal" "$(field "stats$tag" '  legal        ')" 5478
    # Every legal position is reached from the empty board, so every class
    # is stored.
    same "$tag in classes" "$(field "stats$tag" '  in classes   ')" 5478
    # The longest win and loss: a probe of the example gives that value,
    # and it is the table's last row with a W (an L).
    for k in win loss; do
        line=$(grep "^longest $k" "stats$tag")
        value=$(echo "$line" | awk '{ print $3, $4 }' | tr -d ':')
        example=$(echo "$line" | awk '{ print $5 }')
        same "$tag longest $k probe" \
            "$("$LOOPY" game probe -q "t$tag.ldb" "$example" | awk 'NR == 1 { print $2, $3 }')" \
            "$value"
        col=$([ "$k" = win ] && echo 2 || echo 3)
        same "$tag longest $k in the table" \
            "$(table "stats$tag" | awk -v c="$col" '$c > 0 { r = $1 } END { print r }')" \
            "$(echo "$value" | awk '{ print $2 }')"
    done
done
same "symmetric: canonical positions are the stored ones" \
    "$(field statssym '  canonical    ')" 765
same "without symmetry: 5478 stored" "$(awk 'NR == 1 { print $2 }' "stats--no-symmetry")" 5478
# The game's class_size: 765 classes are the 5,478 positions (Wikipedia,
# "Tic-tac-toe"); without symmetry no such line.
same "symmetric: with images" "$(field statssym '  with images  ')" 5478
grep -q '^  with images' "stats--no-symmetry" && fail "with images without symmetry"
# Connect Four 4x4 and 5x4 as John Tromp counts them (every board reached
# from the empty one, mirror images apart: tromp.github.io/c4/c4.html):
# 161,029 and 3,945,711, from 80,541 and 1,974,174 stored classes.
"$LOOPY" game solve -q connect4:4x4 -o c44.ldb >/dev/null || fail "solve connect4:4x4"
"$LOOPY" game stats c44.ldb >c44.stats || fail "stats c44.ldb"
same "connect4:4x4 with images (Tromp)" "$(field c44.stats '  with images  ')" 161029
if ! $quick; then
    "$LOOPY" game solve -q --solver tier connect4:5x4 -o c54.ldb >/dev/null || fail "solve connect4:5x4"
    "$LOOPY" game stats c54.ldb >c54.stats || fail "stats c54.ldb"
    same "connect4:5x4 stored classes" "$(awk 'NR == 1 { print $2 }' c54.stats)" 1974174
    same "connect4:5x4 with images (Tromp)" "$(field c54.stats '  with images  ')" 3945711
fi
grep -q 'one per class of symmetric positions' statssym && pass ||
    fail "symmetric database not said so"
grep -q 'sparse blocks' statssym && pass || fail "sparse database not said so"

# The longest tic-tac-toe game: the empty board, a tie in 9.
same "longest tie" "$(grep '^longest tie' statssym)" "longest tie  T 9: .../.../..."

# ---- A GAME is solved, and counted the same way ----
"$LOOPY" game stats -q tictactoe >statsgame || fail "stats tictactoe"
same "GAME and its file" "$(sed 1,2d statsgame)" "$(sed 1,2d statssym)"
grep -q '(in memory, solved now)' statsgame && pass || fail "no 'solved now'"

# ---- subtract:21,1,2,3: Lose exactly at multiples of 4, remoteness = heap ----
"$LOOPY" game solve -q subtract -o sub.ldb >/dev/null || fail "solve subtract"
cat >want_sub <<'EOF'
subtract:21,1,2,3: 22 positions stored
  database     sub.ldb, dense blocks
  index space  22
  legal        22 (no legal(): every index)
  in classes   22 (legal positions stored)
remoteness       W       L       T
         0       0       1       0
         1       3       0       0
         2       0       1       0
         3       3       0       0
         4       0       1       0
         5       3       0       0
         6       0       1       0
         7       3       0       0
         8       0       1       0
         9       3       0       0
        10       0       1       0
        11       1       0       0
     total      16       6       0
     draws       0 (D: no remoteness)
longest win  W 11: 21
longest loss L 10: 20
EOF
"$LOOPY" game stats sub.ldb >got_sub 2>&1
if cmp -s want_sub got_sub; then pass; else
    fail "subtract stats differ:"
    diff want_sub got_sub | head -n 10
fi
"$LOOPY" game stats -q --misere subtract:5,1 >mis || fail "misere stats"
same "misere header" "$(head -n 1 mis)" "subtract:5,1 (misere): 6 positions stored"
refused "--misere on a normal database" 2 'solved in normal play' \
    game stats --misere sub.ldb

# ---- JSON ----
if "$LOOPY" game stats -f json tsym.ldb >j.json && python3 -m json.tool j.json >/dev/null; then
    pass
else
    fail "json does not parse"
fi
same "json counts" "$(python3 -c '
import json, sys
d = json.load(open("j.json"))
rows = d["remoteness"]
print(d["positions"], d["win"], d["lose"], d["tie"], d["draw"], d["legal"],
      d["canonical"], d["in_stored_classes"], d["with_images"],
      sum(r["win"] for r in rows), sum(r["lose"] for r in rows),
      sum(r["tie"] for r in rows), d["longest_tie"]["position"],
      d["symmetric"], d["sparse"], d["misere"])')" \
    "765 390 224 151 0 5478 765 5478 5478 390 224 151 .../.../... True True False"

# ---- A graph's database: the histogram of 'loopy solve' ----
# A pseudo-random graph of 300 vertices, with cycles (so some Draws).
awk 'BEGIN { n = 300; m = 0; x = 12345
    for (v = 1; v <= n; v++) for (k = 0; k < 2; k++) {
        x = (x * 1103515245 + 12345) % 2147483648
        if (x % 5 == 0) continue
        u = 1 + int(x / 7) % n; if (u == v) continue
        e[m++] = v " " u }
    print n, m; for (i = 0; i < m; i++) print e[i] }' >g.txt
"$LOOPY" solve -q g.txt >g.sol || fail "solve g.txt"
"$LOOPY" solve -q g.txt -o g.ldb || fail "solve g.txt -o g.ldb"
"$LOOPY" game stats g.ldb >g.stats || fail "stats g.ldb"
same "graph histogram" "$(table g.stats)" "$(awk '$2 != "D" { c[$3 " " $2]++; if ($3 > m) m = $3 }
    END { for (r = 0; r <= m; r++) { w = c[r " W"] + 0; l = c[r " L"] + 0; t = c[r " T"] + 0
          if (w + l + t) print r, w, l, t } }' g.sol)"
same "graph draws" "$(field g.stats '     draws')" "$(awk '$2 == "D"' g.sol | wc -l | tr -d ' ')"
same "graph positions" "$(awk 'NR == 1 { print $2 }' g.stats)" 300
# The longest win's example is the smallest vertex at that remoteness,
# numbered as the graph's text.
same "graph longest win" "$(grep '^longest win' g.stats | awk '{ print $3, $4, $5 }')" \
    "$(awk '$2 == "W" && ($3 > m || !seen) { m = $3; v = $1; seen = 1 }
            END { print "W", m ":", v }' g.sol)"
grep -q '^  legal        not counted: a database of a graph' g.stats && pass ||
    fail "graph: legal not said to be not counted: $(grep legal g.stats)"
"$LOOPY" game stats -f json g.ldb | python3 -m json.tool >/dev/null && pass ||
    fail "graph json does not parse"
# A cycle: every vertex a Draw, no longest anything.
printf '3 3\n1 2\n2 3\n3 1\n' >cycle.txt
"$LOOPY" solve -q cycle.txt -o cycle.ldb || fail "solve cycle"
"$LOOPY" game stats cycle.ldb >cycle.stats || fail "stats cycle"
same "cycle draws" "$(field cycle.stats '     draws')" 3
grep -q '^longest' cycle.stats && fail "cycle: a longest line" || pass
same "cycle json" "$("$LOOPY" game stats -f json cycle.ldb | python3 -c '
import json, sys; d = json.load(sys.stdin)
print(d["remoteness"], d["longest_win"], d["legal"], d["draw"])')" "[] None None 3"

# ---- A forged database: remotenesses 2^30 - 1 and 2^27 (issue #23) ----
# Two rows, at once and in little memory (it once asked for 32 GiB): under
# a 256 MiB address-space limit where loopy runs under one at all (not
# with AddressSanitizer, which reserves terabytes).
cp "$root/fuzz/corpus/read_db/stats-huge-remoteness" huge.ldb
cap=262144
if ! (ulimit -v $cap && "$LOOPY" game stats cycle.ldb; exit $?) >/dev/null 2>&1; then
    echo "game_stats.sh: loopy does not run under ulimit -v: huge.ldb read without it"
    cap=unlimited
fi
(ulimit -v $cap 2>/dev/null; timeout 20 "$LOOPY" game stats huge.ldb >huge.stats 2>huge.err)
same "huge remoteness: exit status" $? 0
same "huge remoteness: the rows" "$(table huge.stats)" \
    "$(printf '134217728 0 1 0\n1073741823 1 0 0')"
same "huge remoteness: longest" "$(grep '^longest' huge.stats)" \
    "$(printf 'longest win  W 1073741823: 0\nlongest loss L 134217728: 1')"

# ---- Bad uses ----
refused "missing database" 3 'nothing.ldb: cannot open the database' game stats nothing.ldb
printf 'not a database' >bad.ldb
refused "not a database" 1 'bad.ldb' game stats bad.ldb
cp sub.ldb damaged.ldb
size=$(wc -c <damaged.ldb)
printf '\377\377\377\377' | dd of=damaged.ldb bs=1 seek=$((size - 60)) conv=notrunc 2>/dev/null
refused "damaged database" 1 'damaged' game stats damaged.ldb
refused "stats takes one GAME" 2 'takes one GAME' game stats sub.ldb 3
refused "--second is for play" 2 'only .play.' game stats --second sub.ldb

finish game_stats
