#!/bin/sh
# Golden tests of "loopy solve": outputs, options and every kind of bad input.
. "$(dirname "$0")/golden.inc"

cp "$(dirname "$0")/../../examples/game.txt" "$work/game.txt"

begin "the bundled example, text output and summary"
run solve game.txt
expect_status 0
expect_out <<'EOF'
1 D - 8
2 W 3 4
3 W 3 4
4 L 2 6
5 W 1 7
6 W 1 7
7 L 0 -
8 D - 8
EOF
expect_err_has "loopy solve: game.txt: 8 positions, 12 moves: 4 W, 2 L, 2 D ("
end_case

begin "misere play"
run solve -q --misere game.txt
expect_status 0
expect_out <<'EOF'
1 W 4 2
2 L 3 4
3 D - 5
4 W 2 6
5 D - 5
6 L 1 7
7 W 0 -
8 W 2 6
EOF
expect_err_empty
end_case

begin "--lose-at: moving onto 6 wins; --quiet"
run solve --quiet --lose-at 6 game.txt
expect_status 0
expect_out <<'EOF'
1 W 3 2
2 L 2 4
3 L 2 4
4 W 1 6
5 W 1 7
6 L 0 -
7 L 0 -
8 W 1 6
EOF
end_case

begin "--win-at and --lose-at lists, repeated options and repeats"
run solve -q --win-at 7 --lose-at 4,4 --lose-at=8 game.txt
expect_status 0
expect_out <<'EOF'
1 W 1 8
2 W 1 4
3 W 1 4
4 L 0 -
5 D - 5
6 L 1 7
7 W 0 -
8 L 0 -
EOF
end_case

begin "standard input, comments, blank lines, CRLF and tabs"
printf '# header comment\r\n\r\n3 3  # n m\r\n1\t2\r\n\r\n2 3\r\n  # indented comment\r\n1 1\r\n' >"$work/crlf.txt"
run solve -q - <"$work/crlf.txt"
expect_status 0
expect_out <<'EOF'
1 D - 1
2 W 1 3
3 L 0 -
EOF
end_case

begin "0-based vertices"
printf '3 2\n0 1\n1 2\n' >"$work/zero.txt"
run solve -q --base 0 zero.txt
expect_status 0
expect_out <<'EOF'
0 L 2 1
1 W 1 2
2 L 0 -
EOF
end_case

begin "adjacency lists (Codeforces 936B layout)"
printf '5 6\n2 2 3\n2 4 5\n1 4\n1 5\n0\n' >"$work/adj.txt"
run solve -q -i adj adj.txt
expect_status 0
expect_out <<'EOF'
1 W 3 3
2 W 1 5
3 L 2 4
4 W 1 5
5 L 0 -
EOF
end_case

begin "self-loops, parallel edges and an isolated vertex"
printf '4 5\n1 1\n1 2\n1 2\n2 2\n3 1\n' >"$work/multi.txt"
run solve -q multi.txt
expect_status 0
expect_out <<'EOF'
1 D - 1
2 D - 2
3 D - 1
4 L 0 -
EOF
end_case

begin "empty graph"
printf '0 0\n' >"$work/empty.txt"
run solve -q empty.txt
expect_status 0
expect_out_empty
end_case

begin "JSON output"
run solve -q -f json --lose-at 6 game.txt
expect_status 0
expect_out <<'EOF'
{
  "vertices": 8,
  "edges": 12,
  "base": 1,
  "play": "normal",
  "lose_at": [6],
  "win_at": [],
  "tie_at": [],
  "count": {"W": 4, "L": 4, "D": 0, "T": 0},
  "positions": [
    {"vertex": 1, "outcome": "W", "remoteness": 3, "move": 2},
    {"vertex": 2, "outcome": "L", "remoteness": 2, "move": 4},
    {"vertex": 3, "outcome": "L", "remoteness": 2, "move": 4},
    {"vertex": 4, "outcome": "W", "remoteness": 1, "move": 6},
    {"vertex": 5, "outcome": "W", "remoteness": 1, "move": 7},
    {"vertex": 6, "outcome": "L", "remoteness": 0, "move": null},
    {"vertex": 7, "outcome": "L", "remoteness": 0, "move": null},
    {"vertex": 8, "outcome": "W", "remoteness": 1, "move": 6}
  ]
}
EOF
end_case

begin "Graphviz output"
printf '3 4\n1 2\n1 2\n2 3\n3 3\n' >"$work/dot.txt"
run solve -q --format dot dot.txt
expect_status 0
expect_out <<'EOF'
digraph loopy {
  label="W: player to move wins (green), L: loses (red), D: draw (yellow); number: remoteness; bold: best move";
  node [shape=circle, style=filled, fontname="Helvetica"];
  1 [label="1\nD", fillcolor="#f2d16b"];
  2 [label="2\nD", fillcolor="#f2d16b"];
  3 [label="3\nD", fillcolor="#f2d16b"];
  1 -> 2 [style=bold, penwidth=2.5];
  1 -> 2 [color="#888888"];
  2 -> 3 [style=bold, penwidth=2.5];
  3 -> 3 [style=bold, penwidth=2.5];
}
EOF
end_case

begin "Graphviz output marks --lose-at and --win-at vertices"
printf '3 3\n1 2\n2 3\n3 1\n' >"$work/ring.txt"
run solve -q -f dot --lose-at 3,3 --win-at 1 ring.txt
expect_status 0
expect_out <<'EOF'
digraph loopy {
  label="W: player to move wins (green), L: loses (red), D: draw (yellow); number: remoteness; bold: best move; double ring: game over there (--lose-at, --win-at, --tie-at)";
  node [shape=circle, style=filled, fontname="Helvetica"];
  1 [label="1\nW 0", fillcolor="#8fd18f", peripheries=2];
  2 [label="2\nW 1", fillcolor="#8fd18f"];
  3 [label="3\nL 0", fillcolor="#ef8f8f", peripheries=2];
  1 -> 2 [color="#888888"];
  2 -> 3 [style=bold, penwidth=2.5];
  3 -> 1 [color="#888888"];
}
EOF
end_case

begin "JSON output lists the targets sorted, once each"
run solve -q -f json --lose-at 3,1,3 --win-at 2 ring.txt
expect_status 0
expect_out <<'EOF'
{
  "vertices": 3,
  "edges": 3,
  "base": 1,
  "play": "normal",
  "lose_at": [1, 3],
  "win_at": [2],
  "tie_at": [],
  "count": {"W": 1, "L": 2, "D": 0, "T": 0},
  "positions": [
    {"vertex": 1, "outcome": "L", "remoteness": 0, "move": null},
    {"vertex": 2, "outcome": "W", "remoteness": 0, "move": null},
    {"vertex": 3, "outcome": "L", "remoteness": 0, "move": null}
  ]
}
EOF
end_case

begin "--tie-at: a tie at the sink spreads to every position; summary counts T"
run solve --tie-at 7 game.txt
expect_status 0
expect_out <<'EOF'
1 T 3 3
2 T 3 4
3 T 2 5
4 T 2 6
5 T 1 7
6 T 1 7
7 T 0 -
8 T 2 6
EOF
expect_err_has "loopy solve: game.txt: 8 positions, 12 moves: 0 W, 0 L, 0 D, 8 T ("
end_case

begin "--tie-at with --lose-at: a Tie is neither a Win's nor a Lose's proof"
run solve -q --tie-at 7 --lose-at 6 game.txt
expect_status 0
expect_out <<'EOF'
1 W 3 2
2 L 2 4
3 T 2 5
4 W 1 6
5 T 1 7
6 L 0 -
7 T 0 -
8 W 1 6
EOF
end_case

begin "--tie-at in misere play, 0-based, repeated"
# In misere play the sink 4 is a Win, so moving there would lose: 0 is a
# Tie (a Win in normal play).
printf '5 5\n0 1\n1 2\n2 3\n3 3\n0 4\n' >"$work/tie0.txt"
run solve -q --misere --base 0 --tie-at 2 --tie-at=2,2 tie0.txt
expect_status 0
expect_out <<'EOF'
0 T 2 1
1 T 1 2
2 T 0 -
3 D - 3
4 W 0 -
EOF
end_case

begin "JSON output with --tie-at"
run solve -q -f json --misere --tie-at 7,7 --lose-at 6 game.txt
expect_status 0
expect_out <<'EOF'
{
  "vertices": 8,
  "edges": 12,
  "base": 1,
  "play": "misere",
  "lose_at": [6],
  "win_at": [],
  "tie_at": [7],
  "count": {"W": 3, "L": 2, "D": 0, "T": 3},
  "positions": [
    {"vertex": 1, "outcome": "W", "remoteness": 3, "move": 2},
    {"vertex": 2, "outcome": "L", "remoteness": 2, "move": 4},
    {"vertex": 3, "outcome": "T", "remoteness": 2, "move": 5},
    {"vertex": 4, "outcome": "W", "remoteness": 1, "move": 6},
    {"vertex": 5, "outcome": "T", "remoteness": 1, "move": 7},
    {"vertex": 6, "outcome": "L", "remoteness": 0, "move": null},
    {"vertex": 7, "outcome": "T", "remoteness": 0, "move": null},
    {"vertex": 8, "outcome": "W", "remoteness": 1, "move": 6}
  ]
}
EOF
end_case

begin "Graphviz output colours Ties blue and rings --tie-at vertices"
run solve -q -f dot --tie-at 2 dot.txt
expect_status 0
expect_out <<'EOF'
digraph loopy {
  label="W: player to move wins (green), L: loses (red), D: draw (yellow), T: tie (blue); number: remoteness; bold: best move; double ring: game over there (--lose-at, --win-at, --tie-at)";
  node [shape=circle, style=filled, fontname="Helvetica"];
  1 [label="1\nT 1", fillcolor="#8fb8ef"];
  2 [label="2\nT 0", fillcolor="#8fb8ef", peripheries=2];
  3 [label="3\nD", fillcolor="#f2d16b"];
  1 -> 2 [style=bold, penwidth=2.5];
  1 -> 2 [color="#888888"];
  2 -> 3 [color="#888888"];
  3 -> 3 [style=bold, penwidth=2.5];
}
EOF
end_case

begin "Graphviz output with all three kinds of targets"
run solve -q -f dot --tie-at 3 --win-at 1 ring.txt
expect_status 0
expect_out <<'EOF'
digraph loopy {
  label="W: player to move wins (green), L: loses (red), D: draw (yellow), T: tie (blue); number: remoteness; bold: best move; double ring: game over there (--lose-at, --win-at, --tie-at)";
  node [shape=circle, style=filled, fontname="Helvetica"];
  1 [label="1\nW 0", fillcolor="#8fd18f", peripheries=2];
  2 [label="2\nT 1", fillcolor="#8fb8ef"];
  3 [label="3\nT 0", fillcolor="#8fb8ef", peripheries=2];
  1 -> 2 [color="#888888"];
  2 -> 3 [style=bold, penwidth=2.5];
  3 -> 1 [color="#888888"];
}
EOF
end_case

if command -v dot >/dev/null 2>&1; then
    begin "Graphviz accepts the dot output"
    run solve -q -f dot game.txt
    dot -Tsvg "$work/.out" >"$work/game.svg" 2>"$work/dot.err" || fail_case "dot failed: $(cat "$work/dot.err")"
    grep -q '<svg' "$work/game.svg" || fail_case "no SVG"
    end_case
fi

begin "--output writes the file atomically and prints nothing"
run solve -q -o result.txt game.txt
expect_status 0
expect_out_empty
if ! ls "$work" | grep -q '^result.txt$'; then fail_case "result.txt missing"; fi
if ls "$work" | grep -q 'tmp'; then fail_case "temporary file left behind"; fi
[ "$(sed -n 4p "$work/result.txt")" = "4 L 2 6" ] || fail_case "result.txt content"
end_case

begin "--output into a missing directory fails cleanly"
run solve -q -o no/such/dir/out.txt game.txt
expect_status 3
expect_out_empty
expect_err_has "loopy solve: no/such/dir/out.txt: cannot create: No such file or directory"
end_case

begin "--help documents every option and exits 0"
run solve --help
expect_status 0
for opt in --input --base --misere --lose-at --win-at --tie-at --format --output --threads --quiet --help "Exit status"; do
    grep -q -e "$opt" "$work/.out" || fail_case "--help lacks $opt"
done
end_case

begin "the example in --help is true"
printf '3 3\n1 2\n2 3\n1 1\n' >"$work/help.txt"
run solve -q help.txt
sed -n '/^  \$ printf/,/^$/p' "$work/.out" >/dev/null
run solve --help
sed -n '/^  \$ printf/{n;:a;/^$/q;s/^  //;p;n;ba}' "$work/.out" >"$work/help.want"
run solve -q help.txt
cmp -s "$work/help.want" "$work/.out" || fail_case "help example differs: $(cat "$work/help.want")"
end_case

# ---- bad input: message with file, line and column; nothing on stdout ----
bad() { # bad NAME CONTENT STATUS MESSAGE [OPTIONS...]
    name=$1 content=$2 want_status=$3 message=$4
    shift 4
    begin "bad input: $name"
    printf "$content" >"$work/bad.txt"
    run solve "$@" bad.txt
    expect_status "$want_status"
    expect_out_empty
    expect_err <<EOF
$message
EOF
    end_case
}

bad "not a number" 'abc\n' 1 \
    "loopy solve: bad.txt:1:1: expected the vertex count n, found 'abc'"
bad "missing m" '3\n1 2\n' 1 \
    "loopy solve: bad.txt:1:2: expected the edge count m after n, found end of line"
bad "letter in an edge" '3 2\n1 2\n2 x\n' 1 \
    "loopy solve: bad.txt:3:3: expected the edge's second vertex (a vertex from 1 to 3), found 'x'"
bad "number glued to text" '3 1\n1 2x\n' 1 \
    "loopy solve: bad.txt:2:3: expected the edge's second vertex (a vertex from 1 to 3), found '2x'"
bad "negative vertex" '3 1\n-1 2\n' 1 \
    "loopy solve: bad.txt:2:1: expected the edge's first vertex (a vertex from 1 to 3), found '-1'"
bad "vertex above n" '3 1\n1 4\n' 1 \
    "loopy solve: bad.txt:2:3: expected the edge's second vertex (a vertex from 1 to 3), found '4'"
bad "vertex 0 with 1-based ids" '3 1\n0 1\n' 1 \
    "loopy solve: bad.txt:2:1: expected the edge's first vertex (a vertex from 1 to 3), found '0' (it reads with --base 0)"
bad "vertex n with 0-based ids" '3 1\n1 3\n' 1 \
    "loopy solve: bad.txt:2:3: expected the edge's second vertex (a vertex from 0 to 2), found '3' (it reads without --base 0)" --base 0
bad "vertices 0 and n: no hint" '3 1\n0 3\n' 1 \
    "loopy solve: bad.txt:2:3: expected the edge's second vertex (a vertex from 0 to 2), found '3'" --base 0
bad "number overflowing 64 bits" '3 1\n1 99999999999999999999999\n' 1 \
    "loopy solve: bad.txt:2:3: number too large: expected the edge's second vertex (a vertex from 1 to 3), found '99999999999999999999...'"
bad "fewer edges than announced" '3 3\n1 2\n2 3\n' 1 \
    "loopy solve: bad.txt:4:1: expected an edge \"u v\", found end of file after 2 of the 3 edges announced on line 1"
bad "extra token on an edge line" '3 1\n1 2 3\n' 1 \
    "loopy solve: bad.txt:2:5: expected the end of the line after the edge, found '3'"
bad "adjacency lists read as edges" '3 3\n2 2 3\n1 3\n0\n' 1 \
    "loopy solve: bad.txt:2:5: expected the end of the line after the edge, found '3' (it reads with --input adj)"
bad "an edge list read as adjacency lists" '3 2\n1 2\n2 3\n' 1 \
    "loopy solve: bad.txt:3:1: vertex 2 has 2 moves, more than the 1 left of the m = 2 announced on line 1 (it reads without --input adj)" -i adj
bad "extra token on the first line" '3 1 7\n1 2\n' 1 \
    "loopy solve: bad.txt:1:5: expected the end of the line after n and m, found '7'"
bad "more edges than announced" '3 1\n1 2\n2 3\n' 1 \
    "loopy solve: bad.txt:3:1: expected the end of the file after the m edges announced, found '2'"
bad "empty file" '' 1 \
    "loopy solve: bad.txt:1:1: expected the vertex count n, found end of file"
bad "only comments" '# nothing\n\n' 1 \
    "loopy solve: bad.txt:3:1: expected the vertex count n, found end of file"
bad "edges in a graph without vertices" '0 1\n1 1\n' 1 \
    "loopy solve: bad.txt:1:1: m = 1 move announced in a graph without vertices"
bad "binary garbage" '\001\002\377\n' 1 \
    "loopy solve: bad.txt:1:1: expected the vertex count n, found '???'"
bad "n beyond 32-bit ids" '5000000000 0\n' 4 \
    "loopy solve: bad.txt:1:1: n = 5000000000 is more than loopy's limit of 4294967294 vertices"
bad "extra text (not a number) on an edge line: no hint" '3 1\n1 2 x\n' 1 \
    "loopy solve: bad.txt:2:5: expected the end of the line after the edge, found 'x'"
bad "vertex n + 1 with 0-based ids: no hint" '3 1\n0 4\n' 1 \
    "loopy solve: bad.txt:2:3: expected the edge's second vertex (a vertex from 0 to 2), found '4'" --base 0
bad "adjacency: too many moves for m" '3 3\n2 1 2\n2 2 3\n0\n' 1 \
    "loopy solve: bad.txt:3:1: vertex 2 has 2 moves, more than the 1 left of the m = 3 announced on line 1" -i adj
bad "adjacency: fewer moves than m" '3 4\n2 1 2\n1 3\n0\n' 1 \
    "loopy solve: bad.txt:5:1: the vertex lines list 3 moves, but line 1 announced m = 4" -i adj
bad "adjacency: missing vertex line" '3 3\n2 1 2\n1 3' 1 \
    "loopy solve: bad.txt:3:4: expected the number of moves of vertex 3, found end of file" -i adj
bad "adjacency: successor missing" '2 1\n1\n0\n' 1 \
    "loopy solve: bad.txt:2:2: expected move 1 of 1 of vertex 1 (a vertex from 1 to 2), found end of line" -i adj

begin "n and m too large for memory"
printf '4000000000 1000000000000\n' >"$work/huge.txt"
run solve huge.txt
expect_status 4
expect_out_empty
expect_err_has "loopy solve: huge.txt:1:1: n = 4000000000 and m = 1000000000000 need about "
expect_err_has "GiB of memory, more than the "
end_case

begin "a file that does not exist"
run solve missing.txt
expect_status 3
expect_out_empty
expect_err <<'EOF'
loopy solve: missing.txt: cannot open: No such file or directory
EOF
end_case

begin "a directory"
mkdir -p "$work/dir"
run solve dir
expect_status 3
expect_out_empty
expect_err <<'EOF'
loopy solve: dir: cannot read: it is a directory
EOF
end_case

begin "an endless stream of zero bytes is refused at once"
(cd "$work" && timeout 20 "$LOOPY" solve /dev/zero >"$work/.out" 2>"$work/.err")
status=$?
expect_status 1
expect_out_empty
expect_err <<'EOF'
loopy solve: /dev/zero:1:1: expected the vertex count n, found '????????????????????...'
EOF
end_case

begin "a named FIFO is read once, even when its writer is done"
mkfifo "$work/fifo"
(printf '3 2\n1 2\n2 3\n' >"$work/fifo" &)
# Closing slowly lets the writer finish first: reopening the FIFO would wait
# for another writer forever.  (LeakSanitizer cannot run under ptrace.)
if command -v strace >/dev/null 2>&1 &&
    strace -qq -o /dev/null -e trace=close -e inject=close:delay_exit=100000 true 2>/dev/null; then
    (cd "$work" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        timeout 20 strace -qq -o /dev/null -e trace=close \
        -e inject=close:delay_exit=100000 "$LOOPY" solve -q fifo >"$work/.out" 2>"$work/.err")
else
    (cd "$work" && timeout 20 "$LOOPY" solve -q fifo >"$work/.out" 2>"$work/.err")
fi
status=$?
expect_status 0
expect_out <<'EOF'
1 L 2 2
2 W 1 3
3 L 0 -
EOF
end_case

usage() { # usage NAME STATUS MESSAGE ARGS...
    name=$1 want_status=$2 message=$3
    shift 3
    begin "command line: $name"
    run "$@"
    expect_status "$want_status"
    expect_out_empty
    expect_err <<EOF
$message
EOF
    end_case
}

usage "unknown option" 2 "loopy solve: unknown option '--frobnicate' (see --help)" \
    solve --frobnicate game.txt
usage "a flag with a glued value" 2 "loopy solve: unknown option '-1' in '-q1' (see --help)" \
    solve -q1 game.txt
usage "a glued bad value" 2 "loopy solve: --format: expected 'text', 'json', 'dot' or 'ldb', found 'xml'" \
    solve -fxml game.txt
usage "bad --format" 2 "loopy solve: --format: expected 'text', 'json', 'dot' or 'ldb', found 'xml'" \
    solve -f xml game.txt
usage "bad --input" 2 "loopy solve: --input: expected 'edges', 'adj' or 'pairs', found 'csv'" \
    solve -i csv game.txt
usage "bad --base" 2 "loopy solve: --base: expected a whole number from 0 to 1, found '2'" \
    solve --base 2 game.txt
usage "missing value" 2 "loopy solve: option '--lose-at' needs a value (see --help)" \
    solve game.txt --lose-at
usage "bad --lose-at list" 2 "loopy solve: --lose-at: expected comma-separated vertex numbers, found '' in '1,,2'" \
    solve --lose-at 1,,2 game.txt
usage "--lose-at outside the graph" 2 "loopy solve: --lose-at: vertex 9 is not in the graph (its vertices are 1..8)" \
    solve --lose-at 9 game.txt
usage "--win-at 0 with 1-based ids" 2 "loopy solve: --win-at: vertex 0 is not in the graph (its vertices are 1..8)" \
    solve --win-at 0 game.txt
usage "a vertex in both target lists" 2 "loopy solve: vertex 3 is in both --lose-at and --win-at" \
    solve --lose-at 2,3 --win-at 3 game.txt
usage "a vertex in --lose-at and --tie-at" 2 "loopy solve: vertex 2 is in both --lose-at and --tie-at" \
    solve --tie-at 5,2 --lose-at 1,2 game.txt
usage "a vertex in --win-at and --tie-at" 2 "loopy solve: vertex 4 is in both --win-at and --tie-at" \
    solve --win-at 4,4 --tie-at 1 --tie-at 4 game.txt
usage "a vertex in all three lists: the first two named" 2 "loopy solve: vertex 3 is in both --lose-at and --win-at" \
    solve --tie-at 3 --win-at 3 --lose-at 3 game.txt
usage "--tie-at outside the graph" 2 "loopy solve: --tie-at: vertex 9 is not in the graph (its vertices are 1..8)" \
    solve --tie-at 1,9 game.txt
usage "--tie-at 0 with 1-based ids" 2 "loopy solve: --tie-at: vertex 0 is not in the graph (its vertices are 1..8)" \
    solve --tie-at 0 game.txt
usage "--tie-at 5 with 0-based ids of 5 vertices" 2 "loopy solve: --tie-at: vertex 5 is not in the graph (its vertices are 0..4)" \
    solve --base 0 --tie-at 5 tie0.txt
usage "bad --tie-at list" 2 "loopy solve: --tie-at: expected comma-separated vertex numbers, found 'x' in '2,x'" \
    solve --tie-at 2,x game.txt
usage "--tie-at without its value" 2 "loopy solve: option '--tie-at' needs a value (see --help)" \
    solve game.txt --tie-at
usage "two input files" 2 "loopy solve: one input file at most, found 'b.txt' after 'game.txt'" \
    solve game.txt b.txt
usage "unknown command" 2 "loopy: unknown command 'slove' (did you mean solve?)" \
    slove game.txt

begin "a large graph: the same lines on 1, 2 and 3 threads"
# 100003 vertices, so the writer formats chunks of lines on several threads
# (the last chunk partial); each line must name its own vertex, in order.
awk 'BEGIN { n = 100003; m = 300000; x = 12345; print n, m;
             for (i = 0; i < m; i++) {
                 x = (x * 1103515245 + 12345) % 2147483648; u = x % n + 1;
                 x = (x * 1103515245 + 12345) % 2147483648; v = x % n + 1;
                 print u, v } }' >"$work/big.txt"
run solve -q -t 1 big.txt
expect_status 0
cp "$work/.out" "$work/big1.out"
for t in 2 3 1024; do
    run solve -q -t "$t" big.txt
    expect_status 0
    cmp -s "$work/.out" "$work/big1.out" || fail_case "-t $t differs from -t 1"
done
# -t counts at most the processors; OMP_NUM_THREADS, which the default -t 0
# follows, makes 3 threads on a smaller machine too.
(cd "$work" && OMP_NUM_THREADS=3 "$LOOPY" solve -q big.txt >.out 2>.err)
cmp -s "$work/.out" "$work/big1.out" || fail_case "3 OpenMP threads differ from -t 1"
# A short option's value may be glued to it.
run solve -q -t2 big.txt
expect_status 0
cmp -s "$work/.out" "$work/big1.out" || fail_case "-t2 differs from -t 1"
awk '$1 != NR { bad = 1 } END { exit bad || NR != 100003 }' "$work/big1.out" ||
    fail_case "lines do not name vertices 1..100003 in order"
end_case

begin "more threads than processors count as that many: no more memory"
# Each thread has its own buffers: on 2 processors, -t 1024 once took 230 MB
# on this graph against 10 MB at -t 2.  GNU time reports the peak.
procs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if /usr/bin/time -f %M true >/dev/null 2>&1; then
    for cmd in "solve -q" "convert -q -o big.lgr"; do
        for t in "$procs" 1024; do
            (cd "$work" && /usr/bin/time -f %M -o "rss$t" "$LOOPY" $cmd -t "$t" \
                big.txt >/dev/null 2>&1)
        done
        [ "$(cat "$work/rss1024")" -le $(($(cat "$work/rss$procs") * 3 / 2 + 4096)) ] ||
            fail_case "$cmd -t 1024: $(cat "$work/rss1024") KB, -t $procs: $(cat "$work/rss$procs") KB"
    done
else
    echo "solve: no GNU /usr/bin/time here; the memory case is skipped"
fi
end_case

begin "loopy --version and --help"
run --version
expect_status 0
grep -q '^loopy [0-9]' "$work/.out" || fail_case "no version"
run --help
expect_status 0
grep -q 'solve' "$work/.out" || fail_case "--help lacks solve"
end_case

finish solve
