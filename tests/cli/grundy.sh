#!/bin/sh
# Golden tests of 'loopy grundy', 'loopy sum' and 'loopy octal': exact
# standard output, exit status and standard error for good and bad input.
#   LOOPY=build/loopy sh tests/cli/grundy.sh
# The last line is "grundy: P passed, F failed".
LOOPY=${LOOPY:-build/loopy}
passed=0
failed=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM # (runs the EXIT trap)

# check NAME STATUS EXPECTED_STDOUT EXPECTED_STDERR -- command...
# Compares the command's status, stdout and stderr with the expectations
# (stderr: exact text, or '*' to accept anything non-empty).
check() {
    name=$1 status=$2 want_out=$3 want_err=$4
    shift 5
    "$@" >"$dir/out" 2>"$dir/err"
    rc=$?
    got_out=$(cat "$dir/out")
    got_err=$(cat "$dir/err")
    ok=1
    [ "$rc" -eq "$status" ] || ok=0
    [ "$got_out" = "$want_out" ] || ok=0
    if [ "$want_err" = '*' ]; then
        [ -n "$got_err" ] || ok=0
    else
        [ "$got_err" = "$want_err" ] || ok=0
    fi
    if [ $ok -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $name: status $rc (want $status)"
        echo "  stdout: $got_out"
        echo "  want:   $want_out"
        echo "  stderr: $got_err"
        echo "  want:   $want_err"
    fi
}

# A path 1 -> 2 -> 3 with a loop on 1.
printf '3 3\n1 2\n2 3\n1 1\n' >"$dir/path.txt"
# Worked examples (see tests/test_grundy.c): 1 loops and moves to 2
# (terminal) and 3, 3 -> 2, 3 -> 4, 4 -> 2: 1 is inf{0,2}; plus a
# 2-cycle 5 <-> 6 and a lone self-loop 7.
cat >"$dir/loopy.txt" <<'EOF'
7 9
# vertex 1: a self-loop, and exits to values 0 and 2
1 1
1 2
1 3
3 2
3 4
4 2
5 6
6 5
7 7
EOF
# The same as an adjacency list, 0-based.
cat >"$dir/loopy_adj.txt" <<'EOF'
7 9
3 0 1 2
0
2 1 3
1 1
1 5
1 4
1 6
EOF

check "grundy path" 0 "1 inf{1} D
2 1 W
3 0 L" "" -- "$LOOPY" grundy -q "$dir/path.txt"

check "grundy summary line" 0 "1 inf{1} D
2 1 W
3 0 L" '*' -- "$LOOPY" grundy "$dir/path.txt"

check "grundy stdin" 0 "1 inf{1} D
2 1 W
3 0 L" "" -- sh -c "\"$LOOPY\" grundy -q < \"$dir/path.txt\""

check "grundy worked examples" 0 "1 inf{0,2} W
2 0 L
3 2 W
4 1 W
5 inf{} D
6 inf{} D
7 inf{} D" "" -- "$LOOPY" grundy -q "$dir/loopy.txt"

check "grundy adj base 0" 0 "0 inf{0,2} W
1 0 L
2 2 W
3 1 W
4 inf{} D
5 inf{} D
6 inf{} D" "" -- "$LOOPY" grundy -q --input adj --base 0 "$dir/loopy_adj.txt"

# Outcomes agree with loopy solve on the same file.
"$LOOPY" grundy -q "$dir/loopy.txt" | awk '{print $1, $3}' >"$dir/g_out"
"$LOOPY" solve -q "$dir/loopy.txt" | awk '{print $1, $2}' >"$dir/s_out"
check "grundy outcomes = solve outcomes" 0 "" "" -- cmp -s "$dir/g_out" "$dir/s_out"

# Acyclic graph with a large value: a transitive tournament on 6 vertices.
awk 'BEGIN { print 6, 15; for (i = 2; i <= 6; i++) for (j = 1; j < i; j++) print i, j }' \
    >"$dir/tour.txt"
check "grundy no cap" 0 "1 0 L
2 1 W
3 2 W
4 3 W
5 4 W
6 5 W" "" -- "$LOOPY" grundy -q "$dir/tour.txt"

"$LOOPY" grundy -q -o "$dir/written.txt" "$dir/path.txt"
check "grundy -o" 0 "1 inf{1} D
2 1 W
3 0 L" "" -- cat "$dir/written.txt"

check "grundy empty graph" 0 "" "" -- sh -c "printf '0 0\n' | \"$LOOPY\" grundy -q"

# Bad input and bad command lines: message on stderr, nothing on stdout.
check "grundy malformed" 1 "" "loopy grundy: <stdin>:2:3: expected the edge's second vertex (a vertex from 1 to 3), found '9'" \
    -- sh -c "printf '3 1\n1 9\n' | \"$LOOPY\" grundy -q"
check "grundy truncated" 1 "" '*' -- sh -c "printf '3 2\n1 2\n' | \"$LOOPY\" grundy -q"
check "grundy missing file" 3 "" '*' -- "$LOOPY" grundy "$dir/none.txt"
check "grundy bad --input" 2 "" "loopy grundy: --input: expected 'edges', 'adj' or 'pairs', found 'csv'" \
    -- "$LOOPY" grundy --input csv "$dir/path.txt"
check "grundy bad --base" 2 "" "loopy grundy: --base: expected a whole number from 0 to 1, found '2'" \
    -- "$LOOPY" grundy --base 2 "$dir/path.txt"
check "grundy two files" 2 "" "loopy grundy: one input file at most, found 'b' after 'a'" \
    -- "$LOOPY" grundy a b
check "grundy unknown option" 2 "" "loopy grundy: unknown option '--misere' (see --help)" \
    -- "$LOOPY" grundy --misere "$dir/path.txt"

# ---- sum ----
printf '2 2\n2 3\n1 2\n1 1\n' >"$dir/q.txt"
check "sum help example" 0 "L 0
W 1
W inf{0}
D inf{}" "" -- "$LOOPY" sum "$dir/path.txt" "$dir/q.txt"

# Vertex 1 is inf{0,2}: with a token of value 2 (vertex 3) the set becomes
# {2,0} -> a win; with one of value 1 (vertex 4): {1,3}, a draw.
cat >"$dir/q2.txt" <<'EOF'
# comment lines and blank lines are skipped

1 3
1 4
1 2 2
3 4 4 3
3	4

1 5
EOF
check "sum shifted sets" 0 "W inf{0,2}
D inf{1,3}
W inf{0,2}
L 0
W 3
D inf{}" "" -- "$LOOPY" sum "$dir/loopy.txt" "$dir/q2.txt"

check "sum stdin queries" 0 "W inf{0,2}" "" \
    -- sh -c "printf '1 3\n' | \"$LOOPY\" sum \"$dir/loopy.txt\""
check "sum graph on stdin" 0 "L 0
W 1
W inf{0}
D inf{}" "" -- sh -c "\"$LOOPY\" sum - \"$dir/q.txt\" < \"$dir/path.txt\""
check "sum base 0" 0 "W inf{0,2}" "" \
    -- sh -c "printf '0 2\n' | \"$LOOPY\" sum --input adj --base 0 \"$dir/loopy_adj.txt\""
check "sum no queries" 0 "" "" -- sh -c "printf '' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum comments after queries" 0 "W inf{0,2}
W inf{0,2}" "" \
    -- sh -c "printf '1 3 # two tokens\n# a whole line\n1 3#glued\n' | \"$LOOPY\" sum \"$dir/loopy.txt\""

check "sum vertex out of range" 1 "" "loopy sum: $dir/q3.txt:2:3: expected a vertex from 1 to 3, found '4'" \
    -- sh -c "printf '1 2\n2 4\n' > \"$dir/q3.txt\"; \"$LOOPY\" sum \"$dir/path.txt\" \"$dir/q3.txt\""
check "sum vertex 0 with base 1" 1 "" "loopy sum: <stdin>:1:1: expected a vertex from 1 to 3, found '0'" \
    -- sh -c "printf '0\n' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum not a number" 1 "" "loopy sum: <stdin>:1:5: expected a vertex number, found '2x'" \
    -- sh -c "printf '  1 2x 3\n' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum huge number" 1 "" "loopy sum: <stdin>:1:1: number too large: expected a vertex number, found '99999999999999999999...'" \
    -- sh -c "printf '99999999999999999999999\n' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum control bytes and NULs are shown as '?'" 1 "" "loopy sum: <stdin>:1:3: expected a vertex number, found '2?x?'" \
    -- sh -c "printf '1 2\\000x\\033\\n' | \"$LOOPY\" sum \"$dir/path.txt\""
# Lines ended by '\r' alone would merge queries, or hide them in a comment:
# refused.  CRLF, and carriage returns that end a line, are line ends.
check "sum CR line ends" 1 "" "loopy sum: <stdin>:1:5: expected a newline after the carriage return, found '2' (lines end with \\n or \\r\\n)" \
    -- sh -c "printf '2 2\\r2 3\\r1 1\\r' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum CR line ends behind a comment" 1 "" "loopy sum: <stdin>:2:8: expected a newline after the carriage return, found '1' (lines end with \\n or \\r\\n)" \
    -- sh -c "printf '2 2\\n# note\\r1 1\\r' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum CR then a blank" 1 "" "loopy sum: <stdin>:1:3: expected a newline after the carriage return, found ' ' (lines end with \\n or \\r\\n)" \
    -- sh -c "printf '2\\r 2\\n' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum CRLF and CR CR LF" 0 "L 0
W 1
D inf{}" "" -- sh -c "printf '2 2\\r\\n2 3\\r\\r\\n1 1 # x\\r\\n\\r\\n' | \"$LOOPY\" sum \"$dir/path.txt\""
# A UTF-8 byte-order mark at the start is skipped, as the graph readers skip
# it (columns of line 1 count from after it); anywhere else it is a word.
printf '\357\273\2772 2\n2 3\n1 2\n1 1\n' >"$dir/q_bom.txt"
check "sum byte-order mark" 0 "L 0
W 1
W inf{0}
D inf{}" "" -- "$LOOPY" sum "$dir/path.txt" "$dir/q_bom.txt"
{ printf '\357\273\277'; cat "$dir/path.txt"; } >"$dir/path_bom.txt"
check "sum byte-order marks in the graph and the queries on standard input" \
    0 "W inf{0}" "" \
    -- sh -c "printf '\\357\\273\\2771 2\\n' | \"$LOOPY\" sum \"$dir/path_bom.txt\""
check "sum byte-order mark then a bad word" 1 "" "loopy sum: <stdin>:1:1: expected a vertex number, found 'x'" \
    -- sh -c "printf '\\357\\273\\277x\\n' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum byte-order mark on line 2" 1 "" "loopy sum: <stdin>:2:1: expected a vertex number, found '???1'" \
    -- sh -c "printf '1\\n\\357\\273\\2771\\n' | \"$LOOPY\" sum \"$dir/path.txt\""
check "sum no graph" 2 "" "loopy sum: expected a GRAPH file (see --help)" -- "$LOOPY" sum
check "sum both stdin" 2 "" "loopy sum: GRAPH and QUERIES cannot both be standard input" \
    -- "$LOOPY" sum -
check "sum three files" 2 "" "loopy sum: expected GRAPH and at most one QUERIES file, found 'c' after them" \
    -- "$LOOPY" sum a b c
check "sum bad graph" 1 "" "loopy sum: $dir/bad.txt:1:3: expected the edge count m after n, found 'x'" \
    -- sh -c "printf '3 x\n' > \"$dir/bad.txt\"; \"$LOOPY\" sum \"$dir/bad.txt\" \"$dir/q.txt\""
check "sum missing queries file" 3 "" '*' -- "$LOOPY" sum "$dir/path.txt" "$dir/none.txt"

# ---- octal ----
check "octal Kayles" 0 "0 0
1 1
2 2
3 3
4 1
5 4
6 3
7 2
8 1
9 4
10 2
11 6" "" -- "$LOOPY" octal 0.77 11
check "octal Dawson's Kayles" 0 "0 0
1 0
2 1
3 1
4 2
5 0
6 3
7 1
8 1
9 0" "" -- "$LOOPY" octal 0.07 9
check "octal Dawson's Chess" 0 "0 0
1 1
2 1
3 2
4 0
5 3" "" -- "$LOOPY" octal .137 5
check "octal N = 0" 0 "0 0" "" -- "$LOOPY" octal 0.77 0
"$LOOPY" octal -o "$dir/k.txt" 0.77 100000
check "octal 1e5 Kayles tail (period 12)" 0 "99999 8
100000 1" "" -- tail -n 2 "$dir/k.txt"
check "octal bad digit" 2 "" "loopy octal: code '0.78', column 4: expected an octal digit (0-7), found '8'" \
    -- "$LOOPY" octal 0.78 5
check "octal bad prefix" 2 "" "loopy octal: code '1.7', column 1: expected an octal code such as 0.77, found '1'" \
    -- "$LOOPY" octal 1.7 5
check "octal no digits" 2 "" "loopy octal: code '0.', column 3: expected an octal digit (0-7), found the end of the code" \
    -- "$LOOPY" octal 0. 5
check "octal bad N" 2 "" "loopy octal: N: expected a whole number from 0 to 100000000, found '1e5'" \
    -- "$LOOPY" octal 0.77 1e5
check "octal N too big" 2 "" "loopy octal: N: expected a whole number from 0 to 100000000, found '100000001'" \
    -- "$LOOPY" octal 0.77 100000001
check "octal missing N" 2 "" "loopy octal: expected CODE and N (see --help)" -- "$LOOPY" octal 0.77
check "octal extra operand" 2 "" "loopy octal: expected CODE and N, found '3' after them" \
    -- "$LOOPY" octal 0.77 2 3

# Every --help is true to its example.
check "grundy --help exit" 0 "1" "" -- sh -c "\"$LOOPY\" grundy --help | grep -c 'Usage: loopy grundy'"
check "main help lists the commands" 0 "3" "" \
    -- sh -c "\"$LOOPY\" --help | grep -c -E '^  (grundy|sum|octal) '"

echo "grundy: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
