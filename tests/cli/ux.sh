#!/bin/sh
# How a person meets loopy (issue #27): each action's own help; "did you
# mean" for a game's name and for a shared object named without './'; a
# subtraction game given by its heap alone; plurals; a list of pairs read
# as an edge list suggests --input pairs; the graph of a game's positions
# (probe -f dot) and its limit; chess by FEN alone, from a solve or from
# a folder of databases (--tables, LOOPY_TABLES); stats' "mate in N";
# and make check's lines on what a suite skipped (tests/run.sh).
#   LOOPY=build/loopy sh tests/cli/ux.sh
# Prints "ux: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"
exec </dev/null

# ---- Help per action ----
for action in list solve probe stats play check; do
    "$LOOPY" game "$action" --help >"$work/a.help" 2>"$work/a.err"
    same "game $action --help: status" $? 0
    same "game $action --help: its usage" "$(head -n 1 "$work/a.help" | cut -d' ' -f1-4)" \
        "Usage: loopy game $action"
    grep -q '^Example' "$work/a.help" && pass || fail "game $action --help: no example"
    # Not the whole game's help: no other action's usage line.
    same "game $action --help: one usage" "$(grep -c 'loopy game [a-z]* \[' "$work/a.help")" \
        "$(grep -c "loopy game $action \[" "$work/a.help")"
    "$LOOPY" help game "$action" >"$work/b.help" 2>&1
    cmp -s "$work/a.help" "$work/b.help" && pass ||
        fail "loopy help game $action differs from loopy game $action --help"
    # After options too.
    "$LOOPY" game "$action" -q --help >"$work/c.help" 2>&1
    cmp -s "$work/a.help" "$work/c.help" && pass ||
        fail "loopy game $action -q --help differs"
done
grep -q -- '--tables DIR' "$work/a.help" && fail "check --help names --tables" || pass
"$LOOPY" game probe --help | grep -q -- '--tables DIR' && pass || fail "probe --help: no --tables"
"$LOOPY" game play --help | grep -q 'undo' && pass || fail "play --help: no undo"
# The whole help still has every action, and says how to get one.
"$LOOPY" game --help >"$work/g.help"
for action in list solve probe stats play check; do
    grep -q "^  $action  " "$work/g.help" && pass || fail "game --help: no $action"
done
grep -q "loopy game ACTION --help" "$work/g.help" && pass || fail "game --help: no pointer"
refused "help of no action" 2 "unknown action 'slove' \(did you mean solve\?\)" help game slove

# ---- Names ----
refused "a misspelt game" 2 "unknown game 'tictacto' \(did you mean tictactoe\?\)" \
    game solve tictacto
refused "a misspelt game, check" 2 "did you mean connect4\?" game check conect4
: >"$work/ladder.so"
refused "a shared object without ./" 2 \
    "unknown game 'ladder.so': a shared object is named by a path with a '/' \(did you mean ./ladder.so:10\?\)" \
    game solve ladder.so:10
refused "nothing near" 2 "unknown game 'zzzzzzzz' \(a built-in name" game solve zzzzzzzz

# ---- A heap alone; what is missing ----
expect "subtract:5" 0 'subtract:5,1,2,3: 6 positions reached\n  W 4  L 2  T 0  D 0\n  start 5: W 3\n' \
    game solve -q subtract:5
refused "subtract:5," 2 'expected an amount to take, at least 1 at column 3' game solve subtract:5,
refused "subtract:x" 2 'expected the heap size HEAP at column 1' game solve subtract:x

# ---- Plurals ----
expect "one position" 0 'subtract:0,1: 1 position reached\n  W 0  L 1  T 0  D 0\n  start 0: L 0\n' \
    game solve -q subtract:0,1
refused "one stone" 1 'x has 1 stone and o 3' game probe tictactoe xoo/o../...
printf '1 1\n1 1\n' >"$work/one.txt"
(cd "$work" && "$LOOPY" convert one.txt -o one.lgr 2>"$work/.err")
same "convert: one position, one move" "$(cat "$work/.err")" \
    "loopy convert: one.txt: 1 position, 1 move written to one.lgr"

# ---- A list of pairs read as an edge list ----
printf '# Directed graph\n0\t1\n1\t2\n2\t0\n' >"$work/snap.txt"
refused "pairs from 0" 1 "reads as a list of pairs without the 'n m' line, numbered from 0: --input pairs --base 0\)$" \
    solve snap.txt
printf '1 2\n2 3\n3 1\n3 4\n' >"$work/pairs.txt"
refused "pairs" 1 "\(it reads as a list of pairs without the 'n m' line: --input pairs\)$" \
    solve pairs.txt
printf '%% KONECT\n1 2\n2 3\n' >"$work/konect.txt"
refused "pairs after %" 1 "found '%' \(it reads as a list of pairs" solve konect.txt
# An edge list whose header is wrong in one way is no list of pairs.
printf '3 2\n1 4\n2 3\n' >"$work/vertex.txt"
(cd "$work" && "$LOOPY" solve vertex.txt 2>"$work/.err" >/dev/null)
grep -q 'pairs' "$work/.err" && fail "a wrong vertex hints at pairs: $(cat "$work/.err")" || pass
expect "read as pairs" 0 '0 D - 1\n1 D - 2\n2 D - 0\n' solve -q --input pairs --base 0 snap.txt

# ---- The graph of a game's positions ----
(cd "$work" && "$LOOPY" game probe -q -f dot tictactoe xo./xo./... >t.dot 2>.err)
same "dot: status" $? 0
same "dot: positions" "$(grep -c '^  p[0-9]* \[label' "$work/t.dot")" 69
same "dot: moves" "$(grep -c -- ' -> ' "$work/t.dot")" 99
grep -q '^  p0 \[label="xo.\\nxo.\\n...\\nW 1", fillcolor="#8fd18f"\];$' "$work/t.dot" && pass ||
    fail "dot: the root: $(grep '^  p0 ' "$work/t.dot")"
grep -q '^  p0 -> p1 \[style=bold, penwidth=2.5, label="a1"\];$' "$work/t.dot" && pass ||
    fail "dot: the best move: $(grep '^  p0 -> ' "$work/t.dot" | head -n 1)"
grep -q 'T 0", fillcolor="#8fb8ef", peripheries=2\];$' "$work/t.dot" && pass ||
    fail "dot: a tie at the end, ringed twice"
if command -v dot >/dev/null 2>&1; then
    dot -Tsvg "$work/t.dot" >/dev/null 2>&1 && pass || fail "dot: Graphviz refuses it"
fi
refused "dot: too many" 1 'more than 1000 positions are reachable from \.\.\./\.\.\./\.\.\.' \
    game probe -q -f dot tictactoe
refused "dot: --limit" 1 'more than 20 positions' game probe -q -f dot --limit 20 tictactoe xo./xo./...
"$LOOPY" game probe -q -f dot --limit 69 tictactoe xo./xo./... | cmp -s - "$work/t.dot" &&
    pass || fail "dot: --limit 69 is enough"
(cd "$work" && "$LOOPY" game probe -q -f dot -o sub.dot subtract:4 >.out 2>.err)
same "dot: -o" "$(grep -c -- ' -> ' "$work/sub.dot") $(wc -c <"$work/.out" | tr -d ' ')" "9 0"
refused "dot: two positions" 2 'one POSITION' game probe -f dot subtract 3 4
refused "dot: solve" 2 "only 'probe' draws" game solve -f dot subtract

# ---- Chess by FEN alone ----
fen="8/8/8/8/8/2k5/1R6/K7 w"
same "chess FEN alone: the ending" \
    "$("$LOOPY" game probe -q chess "$fen" | head -n 2)" \
    "$(printf '%s: W 31 (mate in 16)\n  Rb1  W 31 (mate in 16)' "$fen")"
same "chess FEN alone: black's rook" \
    "$("$LOOPY" game probe -q chess "8/8/8/8/8/2K5/1r6/k7 b" | head -n 1)" \
    "8/8/8/8/8/2K5/1r6/k7 b: W 31 (mate in 16)"
refused "chess: another material" 1 "the material KRK is not an ending of chess:KQK .*'chess' alone opens the first FEN's" \
    game probe chess:KQK "$fen"
refused "chess: a pawn that gives check" 1 "black is in check with white to move" \
    game probe chess "8/8/8/8/8/2k5/1P6/K7 w"
# The ending from the first FEN on standard input ("chess -"): comments
# and blank lines skipped, the rest of the input probed in that ending;
# another material after it is refused naming its line; standard input
# after a FEN argument is of that FEN's ending, and a FEN argument after
# '-' of standard input's.
printf '# KRK\n\n  %s \r\n8/8/8/8/8/8/1R6/k1K5 b\n' "$fen" >"$work/fens"
same "chess - : the ending from standard input" \
    "$("$LOOPY" game probe -q chess - <"$work/fens" | grep -v '^ ')" \
    "$(printf '%s: W 31 (mate in 16)\n8/8/8/8/8/8/1R6/k1K5 b: T 0 (stalemate or dead material)' "$fen")"
printf '%s\n8/8/8/8/8/2k5/8/KQ6 w\n' "$fen" >"$work/fens2"
refused "chess - : another material later" 1 "<stdin>:2: .*the material KQK is not an ending of chess:KRK" \
    game probe chess - <"$work/fens2"
same "chess FEN - : the argument's ending" \
    "$("$LOOPY" game probe -q chess "8/8/8/8/8/2k5/8/KQ6 w" - <"$work/fens" 2>&1 | grep -c 'is not an ending of chess:KQK')" "1"
same "chess - FEN: standard input's ending" \
    "$("$LOOPY" game probe -q chess - "8/8/8/8/8/2k5/8/KQ6 w" <"$work/fens" 2>&1 | grep -c 'is not an ending of chess:KRK')" "1"
expect "chess - : nothing on standard input" 0 "" game probe -q chess - </dev/null
# A refused position is quoted with its control characters made '?' (an
# escape sequence would act on the terminal).
refused "chess: a control character in a FEN" 1 "'8/8/8/8/8/4k3/4P3/4K3 w - - 0 1\\?\\[2J' is not a position of chess" \
    game probe chess:KPK "$(printf '8/8/8/8/8/4k3/4P3/4K3 w - - 0 1\033[2J')"
if grep -q "$(printf '\033')" "$work/.err"; then fail "chess: the escape printed"; else pass; fi
# King and pawn against king by its FEN alone: the longest win of KPK,
# mate in 28 (Scid's tcl/tb.tcl, from the Nalimov tables).
same "chess FEN alone: a pawn" \
    "$("$LOOPY" game probe -q chess "8/8/8/1k6/8/8/K5P1/8 w" | head -n 2)" \
    "$(printf '%s: W 55 (mate in 28)\n  Kb3  W 55 (mate in 28)' "8/8/8/1k6/8/8/K5P1/8 w")"

# ---- A folder of databases ----
mkdir "$work/tables"
"$LOOPY" game solve -q chess:KRK -o "$work/tables/KRK.ldb" >/dev/null || fail "solve KRK"
(cd "$work" && "$LOOPY" game probe --tables tables chess "$fen" >.out 2>.err)
same "tables: the answer" "$(head -n 1 "$work/.out")" "$fen: W 31 (mate in 16)"
same "tables: nothing solved" "$(cat "$work/.err")" ""
(cd "$work" && LOOPY_TABLES=tables "$LOOPY" game probe chess "$fen" >.out 2>.err)
same "LOOPY_TABLES: the answer" "$(head -n 1 "$work/.out")" "$fen: W 31 (mate in 16)"
same "LOOPY_TABLES: nothing solved" "$(cat "$work/.err")" ""
(cd "$work" && "$LOOPY" game probe --tables tables chess "8/8/8/8/8/2k5/8/KQ6 w" >.out 2>.err)
same "tables: another ending is solved" "$(head -n 1 "$work/.err")" \
    "loopy game: no KQK.ldb in tables: solving chess:KQK (its sub-endings read from there where they are)"
same "tables: its answer" "$(head -n 1 "$work/.out")" "8/8/8/8/8/2k5/8/KQ6 w: W 11 (mate in 6)"
cp "$work/tables/KRK.ldb" "$work/tables/KQK.ldb"
refused "tables: the wrong game" 1 "tables/KQK.ldb: --tables: the database holds chess:KRK, not chess:KQK" \
    game probe -q --tables tables chess "8/8/8/8/8/2k5/8/KQ6 w"
refused "tables: no folder" 3 "--tables: nothing: No such file or directory" \
    game probe --tables nothing chess "$fen"
refused "tables: a file" 3 "--tables: one.txt: not a folder" \
    game probe --tables one.txt chess "$fen"
refused "tables: check" 2 "only solve, probe, stats and play" game check --tables tables chess:KRK
# solve reads the sub-endings from the folder: the same database, each
# read named with -v; what is not there is solved.
mkdir "$work/subs"
for e in KQK KRK KBK; do
    "$LOOPY" game solve -q chess:$e -o "$work/subs/$e.ldb" >/dev/null || fail "solve $e"
done
"$LOOPY" game solve -q chess:KPK -o "$work/kpk-all.ldb" >/dev/null || fail "solve KPK"
(cd "$work" && "$LOOPY" game solve -v --tables subs chess:KPK -o kpk-subs.ldb >.out 2>.err)
same "solve --tables: status" $? 0
cmp -s "$work/kpk-all.ldb" "$work/kpk-subs.ldb" && pass || fail "solve --tables: another database"
grep -q '^loopy game: tier 5/6 KQK, from its table: 59136 indices in' "$work/.err" && pass ||
    fail "solve --tables -v: $(cat "$work/.err")"
grep -q '^loopy game: tier 2/6 KNK: 59136 indices in' "$work/.err" && pass ||
    fail "solve --tables -v, KNK solved: $(cat "$work/.err")"
refused "solve --tables --misere" 2 "read by the game's own solver .* in normal play" \
    game solve --misere --tables subs chess:KPK
refused "solve --tables --solver retro" 2 "read by the game's own solver" \
    game solve --solver retro --tables subs chess:KPK
refused "solve --tables: no folder" 3 "--tables: nothing: No such file or directory" \
    game solve --tables nothing chess:KPK
cp "$work/subs/KRK.ldb" "$work/subs/KQK.ldb"
refused "solve --tables: another ending's table" 1 \
    "^loopy game: subs/KQK.ldb: it holds chess:KRK, not the ending KQK$" \
    game solve --tables subs chess:KPK -o kpk-bad.ldb
[ -e "$work/kpk-bad.ldb" ] && fail "solve --tables: a database written" || pass
head -c 3000 "$work/subs/KRK.ldb" >"$work/subs/KQK.ldb"
refused "solve --tables: a damaged table" 1 "^loopy game: subs/KQK.ldb: " \
    game solve --tables subs chess:KPK
# A table there that is not one: a folder, a link to nothing, misere
# play; the folder from the environment is checked as --tables is; -o
# into the folder under another table's name; a game without its own
# solver; a table of the positions reached from the start only.
rm -f "$work/subs/KQK.ldb"
mkdir "$work/subs/KQK.ldb"
refused "tables: a folder for a table" 3 "^loopy game: subs/KQK.ldb: not a regular file$" \
    game probe --tables subs chess "8/8/8/8/8/2k5/8/KQ6 w"
rmdir "$work/subs/KQK.ldb"
ln -s nothing "$work/subs/KQK.ldb"
refused "tables: a link to nothing" 3 "^loopy game: subs/KQK.ldb: a link to nothing$" \
    game probe --tables subs chess "8/8/8/8/8/2k5/8/KQ6 w"
rm "$work/subs/KQK.ldb"
"$LOOPY" game solve -q --misere chess:KQK -o "$work/subs/KQK.ldb" >/dev/null || fail "solve misere KQK"
refused "tables: misere play" 1 "subs/KQK.ldb: --tables: a database of misere play" \
    game probe --tables subs chess "8/8/8/8/8/2k5/8/KQ6 w"
refused "solve --tables: a misere table" 1 "subs/KQK.ldb: not a table of normal play" \
    game solve --tables subs chess:KPK
(cd "$work" && LOOPY_TABLES=nothing "$LOOPY" game probe chess "$fen" >.out 2>.err)
same "LOOPY_TABLES: no folder" "$? $(cat "$work/.err")" \
    "3 loopy game: LOOPY_TABLES: nothing: No such file or directory"
"$LOOPY" game solve -q chess:KQK -o "$work/subs/KQK.ldb" >/dev/null || fail "solve KQK"
mv "$work/subs/KRK.ldb" "$work/krk.ldb"
"$LOOPY" game solve -q --solver retro chess:KRK -o "$work/subs/KRK.ldb" >/dev/null || fail "solve retro KRK"
refused "solve --tables: the reached positions only" 1 \
    "subs/KRK.ldb: not every legal position of KRK is there" game solve --tables subs chess:KPK
mv "$work/krk.ldb" "$work/subs/KRK.ldb"
refused "solve --tables: -o another table's name" 2 \
    "in the tables' folder, chess:KPK's database is KPK.ldb \(another name there would be read as another ending's table, or as none\)" \
    game solve --tables subs chess:KPK -o subs/KQK.ldb
refused "solve --tables: no solver of its own" 2 "tictactoe has no solver of its own" \
    game solve --tables subs tictactoe
# probe of an ending without its table solves it, reading its sub-endings.
rm "$work/subs/KQK.ldb"
(cd "$work" && "$LOOPY" game probe --tables subs chess "8/8/8/1k6/8/8/K5P1/8 w" >.out 2>.err)
same "probe --tables: its sub-endings" "$(head -n 1 "$work/.err")" \
    "loopy game: no KPK.ldb in subs: solving chess:KPK (its sub-endings read from there where they are)"
# play and stats read them too; misere solves.
printf 'q\n' | (cd "$work" && "$LOOPY" game play --tables tables chess "$fen" >.out 2>.err)
same "tables: play" "$(head -n 1 "$work/.out") $(wc -c <"$work/.err" | tr -d ' ')" \
    "chess:KRK: you play first, loopy plays second.  ? for help. 0"
(cd "$work" && "$LOOPY" game stats --tables tables chess:KRK >.out 2>.err)
grep -q '^  database     tables/KRK.ldb, dense blocks$' "$work/.out" && pass ||
    fail "tables: stats: $(head -n 3 "$work/.out")"
(cd "$work" && "$LOOPY" game probe --misere --tables tables chess "$fen" >.out 2>.err)
grep -q 'solved in' "$work/.err" && pass || fail "tables: --misere solves"
# solve --build: each ending of the closure written alone (KPK.ldb holds
# KPK's 165,676 positions, Syzygy's KPvK counts: 62,480 + 19,184 with
# white to move, 35,210 + 48,802 with black), KPK's own values those of
# the whole solve, its moves into KQK from KQK.ldb; built
# again, nothing solved; a table lost, solved again to the same bytes.
mkdir "$work/built"
(cd "$work" && "$LOOPY" game solve -q --tables built --build chess:KPK -o kpk-alone.ldb >.out 2>.err)
same "solve --build: status" "$? $(cat "$work/.err")" "0 "
grep -q '^chess:KPK: 165676 positions solved (every legal index of its own ending), up to symmetry$' "$work/.out" &&
    pass || fail "solve --build: the summary: $(head -n 1 "$work/.out")"
same "solve --build: the tables" "$(cd "$work/built" && echo *)" \
    "KBK.ldb KK.ldb KNK.ldb KPK.ldb KQK.ldb KRK.ldb"
cmp -s "$work/kpk-alone.ldb" "$work/built/KPK.ldb" && pass || fail "solve --build: -o is KPK.ldb"
"$LOOPY" game stats -q "$work/built/KPK.ldb" | grep -q '^chess:KPK: 165676 positions stored' && pass ||
    fail "solve --build: KPK alone: $("$LOOPY" game stats -q "$work/built/KPK.ldb" | head -n 1)"
kpk="8/4P3/8/8/8/8/k7/4K3 w"
"$LOOPY" game probe -q chess:KPK "$kpk" >"$work/kpk-whole.out"
(cd "$work" && "$LOOPY" game probe --tables built chess "$kpk" >.out 2>.err)
same "probe --tables, built: its moves from the tables" "$? $(cat "$work/.err")" "0 "
cmp -s "$work/.out" "$work/kpk-whole.out" && pass || fail "probe --tables, built: $(cat "$work/.out")"
(cd "$work" && "$LOOPY" game probe --tables built built/KPK.ldb "$kpk" >.out 2>.err)
cmp -s "$work/.out" "$work/kpk-whole.out" && pass || fail "probe FILE --tables: $(cat "$work/.err")"
refused "probe FILE, built, without its folder" 1 \
    "a move into the ending KQK, which the database does not hold: a table of its ending alone is read with its folder of tables" \
    game probe built/KPK.ldb "$kpk"
(cd "$work" && LOOPY_TABLES=built "$LOOPY" game probe built/KPK.ldb "$kpk" >.out 2>.err)
cmp -s "$work/.out" "$work/kpk-whole.out" && pass || fail "probe FILE, LOOPY_TABLES: $(cat "$work/.err")"
refused "solve --build --no-symmetry" 2 "the tables hold one position per class" \
    game solve --no-symmetry --tables built --build chess:KPK
printf 'e8=Q\nq\n' | (cd "$work" && "$LOOPY" game play --tables built chess "$kpk" >.out 2>.err)
same "play --tables, built: into KQK" "$? $(grep -c '^1\. e8=Q K' "$work/.out")" "0 1"
cp "$work/built/KQK.ldb" "$work/kqk.ldb"
rm "$work/built/KQK.ldb"
refused "probe --tables, built: a table missing" 3 \
    "^loopy game: built/KPK.ldb: the table of its ending KQK, built/KQK.ldb: cannot open: No such file or directory$" \
    game probe --tables built chess "$kpk"
(cd "$work" && "$LOOPY" game solve -v --tables built --build chess:KPK >.out 2>.err)
same "solve --build again: status" $? 0
grep -q '^loopy game: tier 5/6 KQK: 59136 indices in' "$work/.err" && pass ||
    fail "solve --build again, KQK solved: $(cat "$work/.err")"
grep -q '^loopy game: tier 1/6 KK, from its table: 924 indices in' "$work/.err" && pass ||
    fail "solve --build again, KK read: $(cat "$work/.err")"
grep -q 'KRK' "$work/.err" && fail "solve --build again: KRK, which no ending solved needs" || pass
cmp -s "$work/kqk.ldb" "$work/built/KQK.ldb" && pass || fail "solve --build again: KQK's bytes"
refused "--build without --tables" 2 "only solve --tables DIR builds" game solve --build chess:KPK
refused "probe --build" 2 "only solve --tables DIR builds" game probe --tables built --build chess "$kpk"
refused "solve --build --misere" 2 "in normal play" game solve --misere --tables built --build chess:KPK

# ---- stats: mate in N beside the plies ----
grep -q '^        31    [ 0-9]*  (mate in 16)$' "$work/.out" ||
    "$LOOPY" game stats "$work/tables/KRK.ldb" >"$work/.out"
grep -q '^        31 .*  (mate in 16)$' "$work/.out" && pass || fail "stats: mate in 16"
grep -q '^        30 .*  (mated in 15)$' "$work/.out" && pass || fail "stats: mated in 15"
grep -q '^longest win  W 31 (mate in 16): ' "$work/.out" && pass || fail "stats: longest win"
"$LOOPY" game stats -q subtract:10 | grep -q 'mate' && fail "stats: notes for subtract" || pass

# ---- The README's links ----
# Every "(#anchor)" names a heading (GitHub's slug: lower case, no
# punctuation but '-', a '-' for each space), and every docs/ file exists.
sed -n 's/^##* //p' "$root/README.md" |
    tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9 -]//g' -e 's/ /-/g' >"$work/slugs"
grep -o '](#[^)]*)' "$root/README.md" | sed 's/^](#//; s/)$//' | sort -u >"$work/anchors"
same "README: anchors found" "$([ "$(wc -l <"$work/anchors")" -gt 10 ] && echo yes)" yes
while read -r anchor; do
    grep -q -x -- "$anchor" "$work/slugs" && pass || fail "README: no heading for #$anchor"
done <"$work/anchors"
for doc in $(grep -o '](docs/[^)]*)' "$root/README.md" | sed 's/^](//; s/)$//' | sort -u); do
    [ -f "$root/$doc" ] && pass || fail "README: no $doc"
done
# Games by rules come before the graphs' formats and the contest problems.
same "README: games first" "$(grep -n '^## ' "$root/README.md" | sed -n 's/^\([0-9]*\):## \(Games by rules\|Input\|Seed problems\|Grundy values and sums\)$/\2/p' | head -n 1)" \
    "Games by rules"

# ---- make check: what a suite skipped, on its own line ----
mkdir -p "$work/suite/tests/cli" "$work/suite/build/tests"
cat >"$work/suite/tests/cli/fake.sh" <<'EOF'
echo "SKIP: no frobnicator (apt-get install frob)"
echo "fake: skipped: not on Tuesdays"
echo "fake: 3 passed, 0 failed"
EOF
(cd "$work/suite" && sh "$root/tests/run.sh" build >"$work/run.out" 2>&1)
same "run.sh: status" $? 0
same "run.sh: the skip lines" "$(grep skipped "$work/run.out")" \
    "fake: skipped: no frobnicator (apt-get install frob)
fake: skipped: not on Tuesdays"
grep -q '^3 passed, 0 failed$' "$work/run.out" && pass || fail "run.sh: $(cat "$work/run.out")"

finish ux
