#!/bin/sh
# Golden test of every kind of bad input: for each case, loopy's exit status,
# its message on standard error, and that nothing is printed on standard
# output.  Accepted variants (CRLF, comments, blank space) must give the
# same output as the plain text.  The table in docs/bad-input.md is this
# script's output with --markdown, and is checked against it.
#   LOOPY=build/loopy sh tests/cli/bad_input.sh [--markdown]
# Prints "bad_input: P passed, F failed" last.
LOOPY=${LOOPY:-build/loopy}
case $LOOPY in /*) ;; *) LOOPY=$(pwd)/$LOOPY ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM # (runs the EXIT trap)

# DESCRIPTION|ARGUMENTS|INPUT|STATUS|MESSAGE
# INPUT is a printf format written to in.txt, which is also standard input
# (@none: no in.txt).  The command is "loopy ARGUMENTS".  For status 0,
# MESSAGE is "same as: INPUT2": the output must equal that of INPUT2.
# Memory sizes of this machine in messages read "N GiB available".
cases() {
    cat <<'EOF'
not a number|solve -q in.txt|3 x\n1 2\n|1|loopy solve: in.txt:1:3: expected the edge count m after n, found 'x'
negative number|solve -q in.txt|3 1\n-1 2\n|1|loopy solve: in.txt:2:1: expected the edge's first vertex (a vertex from 1 to 3), found '-1'
plus sign|solve -q in.txt|3 1\n+1 2\n|1|loopy solve: in.txt:2:1: expected the edge's first vertex (a vertex from 1 to 3), found '+1'
hexadecimal number|solve -q in.txt|0x3 1\n1 2\n|1|loopy solve: in.txt:1:1: expected the vertex count n, found '0x3'
fraction|solve -q in.txt|3 1.0\n1 2\n|1|loopy solve: in.txt:1:3: expected the edge count m after n, found '1.0'
number past 2^64-1|solve -q in.txt|3 1\n1 99999999999999999999\n|1|loopy solve: in.txt:2:3: number too large: expected the edge's second vertex (a vertex from 1 to 3), found '99999999999999999999'
long word|solve -q in.txt|3 1\n1 abcdefghijklmnopqrstuvwxyz\n|1|loopy solve: in.txt:2:3: expected the edge's second vertex (a vertex from 1 to 3), found 'abcdefghijklmnopqrst...'
vertex 0 with base 1|solve -q in.txt|3 1\n0 1\n|1|loopy solve: in.txt:2:1: expected the edge's first vertex (a vertex from 1 to 3), found '0' (it reads with --base 0)
vertex n with --base 0|solve -q --base 0 in.txt|3 1\n1 3\n|1|loopy solve: in.txt:2:3: expected the edge's second vertex (a vertex from 0 to 2), found '3' (it reads without --base 0)
vertex > n|solve -q in.txt|3 1\n1 4\n|1|loopy solve: in.txt:2:3: expected the edge's second vertex (a vertex from 1 to 3), found '4'
an edge in a graph without vertices|solve -q in.txt|0 1\n1 1\n|1|loopy solve: in.txt:1:1: m = 1 move announced in a graph without vertices
header without m|solve -q in.txt|3\n1 2\n|1|loopy solve: in.txt:1:2: expected the edge count m after n, found end of line
header with 3 numbers|solve -q in.txt|3 1 1\n1 2\n|1|loopy solve: in.txt:1:5: expected the end of the line after n and m, found '1'
fewer edges than announced|solve -q in.txt|3 3\n1 2\n2 3\n|1|loopy solve: in.txt:4:1: expected an edge "u v", found end of file after 2 of the 3 edges announced on line 1
extra token on an edge line|solve -q in.txt|3 1\n1 2 3\n|1|loopy solve: in.txt:2:5: expected the end of the line after the edge, found '3'
more edges than announced|solve -q in.txt|3 1\n1 2\n2 3\n|1|loopy solve: in.txt:3:1: expected the end of the file after the m edges announced, found '2'
edge split over two lines|solve -q in.txt|3 1\n1\n2\n|1|loopy solve: in.txt:2:2: expected the edge's second vertex (a vertex from 1 to 3), found end of line
comment glued to a number|solve -q in.txt|3 1\n1 2#c\n|0|same as: 3 1\n1 2\n
empty file|solve -q in.txt||1|loopy solve: in.txt:1:1: expected the vertex count n, found end of file
only comments and blank lines|solve -q in.txt|# nothing here\n\n|1|loopy solve: in.txt:3:1: expected the vertex count n, found end of file
empty standard input|solve -q -||1|loopy solve: <stdin>:1:1: expected the vertex count n, found end of file
missing file|solve -q missing.txt|@none|3|loopy solve: missing.txt: cannot open: No such file or directory
directory|solve -q adir|@none|3|loopy solve: adir: cannot read: it is a directory
n over 2^32-2|solve -q in.txt|5000000000 0\n|4|loopy solve: in.txt:1:1: n = 5000000000 is more than loopy's limit of 4294967294 vertices
n over 2^32-2, indented|solve -q in.txt|  5000000000 0\n|4|loopy solve: in.txt:1:3: n = 5000000000 is more than loopy's limit of 4294967294 vertices
huge m in a short file|solve -q in.txt|3 2000000000\n1 2\n|1|loopy solve: in.txt:3:1: expected an edge "u v", found end of file after 1 of the 2000000000 edges announced on line 1
n and m too large for memory|solve -q in.txt|4000000000 4000000000\n|4|loopy solve: in.txt:1:1: n = 4000000000 and m = 4000000000 need about 182.5 GiB of memory, more than the N GiB available
binary garbage|solve -q in.txt|\177ELF\002\001\001\000\000\n|1|loopy solve: in.txt:1:1: expected the vertex count n, found '?ELF?????'
NUL byte in a number|solve -q in.txt|3 1\n1\0002\n|1|loopy solve: in.txt:2:1: expected the edge's first vertex (a vertex from 1 to 3), found '1?2'
non-ASCII digits|solve -q in.txt|3 1\n1 \357\274\222\n|1|loopy solve: in.txt:2:3: expected the edge's second vertex (a vertex from 1 to 3), found '???'
first comment spelling LGR|solve -q in.txt|#LGR export\n3 2\n1 2\n2 3\n|0|same as: 3 2\n1 2\n2 3\n
UTF-8 byte-order mark|solve -q in.txt|\357\273\2773 2\n1 2\n2 3\n|0|same as: 3 2\n1 2\n2 3\n
CRLF line endings|solve -q in.txt|3 2\r\n1 2\r\n2 3\r\n|0|same as: 3 2\n1 2\n2 3\n
CR line endings (old Mac)|solve -q in.txt|3 2\r1 2\r2 3\r|1|loopy solve: in.txt:1:5: expected the end of the line after n and m, found '1' (this line holds a carriage return without a newline: lines end with \n or \r\n)
comments and blank lines|solve -q in.txt|# a game\n\n3 2 # n m\n# moves:\n1 2\n\n2 3 # last\n|0|same as: 3 2\n1 2\n2 3\n
tabs, spaces, no final newline|solve -q in.txt|\t3  2 \n 1\t2\n2 3|0|same as: 3 2\n1 2\n2 3\n
header after comments, too few edges|solve -q in.txt|# c\n3 3\n1 2\n|1|loopy solve: in.txt:4:1: expected an edge "u v", found end of file after 1 of the 3 edges announced on line 2
adj: more moves than m|solve -q --input adj in.txt|2 1\n2 1 2\n0\n|1|loopy solve: in.txt:2:1: vertex 1 has 2 moves, more than the 1 left of the m = 1 announced on line 1
adj: fewer moves than k|solve -q --input adj in.txt|2 2\n2 1\n0\n|1|loopy solve: in.txt:2:4: expected move 2 of 2 of vertex 1 (a vertex from 1 to 2), found end of line
adj: missing vertex line|solve -q --input adj in.txt|3 1\n1 2\n0\n|1|loopy solve: in.txt:4:1: expected the number of moves of vertex 3, found end of file
adj: moves total below m|solve -q --input adj in.txt|2 3\n1 2\n1 1\n|1|loopy solve: in.txt:4:1: the vertex lines list 2 moves, but line 1 announced m = 3
adj: extra line|solve -q --input adj in.txt|2 1\n1 2\n0\n0\n|1|loopy solve: in.txt:4:1: expected the end of the file after the n vertex lines, found '0'
pairs: vertex 0 with base 1|solve -q --input pairs in.txt|0 1\n1 2\n|1|loopy solve: in.txt:1:1: expected the edge's first vertex (a vertex from 1 to 4294967294), found '0' (it reads with --base 0)
pairs: a third number|solve -q --input pairs in.txt|1 2\n2 3 7\n|1|loopy solve: in.txt:2:5: expected the end of the line after the edge, found '7'
pairs: '%' and '#' comments|solve -q --input pairs in.txt|%% konect\n# snap\n1 2 %% c\n2 3\n|0|same as: 1 2\n2 3\n
--lose-at out of range|solve -q --lose-at 4 in.txt|3 1\n1 2\n|2|loopy solve: --lose-at: vertex 4 is not in the graph (its vertices are 1..3)
--lose-at 0 with base 1|solve -q --lose-at 0 in.txt|3 1\n1 2\n|2|loopy solve: --lose-at: vertex 0 is not in the graph (its vertices are 1..3)
--win-at not a list of numbers|solve -q --win-at 1,x in.txt|3 1\n1 2\n|2|loopy solve: --win-at: expected comma-separated vertex numbers, found 'x' in '1,x'
vertex in --lose-at and --win-at|solve -q --lose-at 1 --win-at 2,1 in.txt|3 1\n1 2\n|2|loopy solve: vertex 1 is in both --lose-at and --win-at
--tie-at out of range|solve -q --tie-at 2,4 in.txt|3 1\n1 2\n|2|loopy solve: --tie-at: vertex 4 is not in the graph (its vertices are 1..3)
vertex in --win-at and --tie-at|solve -q --tie-at 3 --win-at 3 in.txt|3 1\n1 2\n|2|loopy solve: vertex 3 is in both --win-at and --tie-at
unknown option|solve -q --bogus in.txt|3 1\n1 2\n|2|loopy solve: unknown option '--bogus' (see --help)
bad --format value|solve -q --format xml in.txt|3 1\n1 2\n|2|loopy solve: --format: expected 'text', 'json', 'dot' or 'ldb', found 'xml'
bad --input value|solve -q --input csv in.txt|3 1\n1 2\n|2|loopy solve: --input: expected 'edges', 'adj' or 'pairs', found 'csv'
bad --base value|solve -q --base 2 in.txt|3 1\n1 2\n|2|loopy solve: --base: expected a whole number from 0 to 1, found '2'
bad --threads value|solve -q --threads -1 in.txt|3 1\n1 2\n|2|loopy solve: --threads: expected a whole number from 0 to 1024, found '-1'
option without its value|solve -q in.txt --threads|3 1\n1 2\n|2|loopy solve: option '--threads' needs a value (see --help)
flag given a value|solve -q --misere=1 in.txt|3 1\n1 2\n|2|loopy solve: option '--misere' takes no value
two input files|solve -q in.txt in.txt|3 1\n1 2\n|2|loopy solve: one input file at most, found 'in.txt' after 'in.txt'
unknown command|bogus in.txt|3 1\n1 2\n|2|loopy: unknown command 'bogus' (see 'loopy --help')
output folder missing|solve -q -o nodir/out.txt in.txt|3 1\n1 2\n|3|loopy solve: nodir/out.txt: cannot create: No such file or directory
race: fewer moves than m|race in.txt|3 2 1\n1 2\n|1|loopy race: in.txt:3:1: expected a move's first vertex (from 1 to 3), found end of file after 1 of the 2 moves announced
race: an end vertex out of range|race in.txt|3 1 1\n1 2\n1 5\n|1|loopy race: in.txt:3:3: expected a round's end y (from 1 to 3), found '5'
race: n over 2^32-2|race in.txt|4294967295 0 0\n|4|loopy race: in.txt:1:1: n = 4294967295 is more than loopy's limit of 4294967294 vertices
race: UTF-8 byte-order mark|race in.txt|\357\273\2773 1 1\n1 2\n1 2\n|1|loopy race: in.txt:1:1: expected the vertex count n (from 1 to 4294967294), found a UTF-8 byte-order mark (this command reads plain ASCII numbers)
race: CRLF line endings|race in.txt|3 1 1\r\n1 2\r\n1 2\r\n|0|same as: 3 1 1\n1 2\n1 2\n
race: a comment|race in.txt|3 1 1 # n m q\n1 2\n1 2\n|1|loopy race: in.txt:1:7: expected a move's first vertex (from 1 to 3), found '#'
sleepy: fewer moves than m|sleepy in.txt|2 2\n1 2\n0\n1\n|1|loopy sleepy: in.txt:4:1: the 2 lists hold 1 move, but m = 2 was announced
sleepy: a move out of range|sleepy in.txt|2 1\n1 3\n0\n1\n|1|loopy sleepy: in.txt:2:3: expected a move of vertex 1 (a vertex from 1 to 2), found '3'
sleepy: start out of range|sleepy in.txt|2 0\n0\n0\n3\n|1|loopy sleepy: in.txt:4:1: expected the start s (a vertex from 1 to 2), found '3'
climb: two equal heights|climb in.txt|1\n2 2\n1 2\n3 3\n0\n|1|loopy climb: in.txt:4:3: expected a height different from the others of the grid, found 3 again (row 2, column 1 has it too)
climb: a negative height|climb in.txt|1\n1 2\n5 -6\n0\n|1|loopy climb: in.txt:3:3: expected a height (a whole number from 1 to 4294967295), found '-6'
climb: a query outside the grid|climb in.txt|1\n1 1\n5\n1\n1 2\n|1|loopy climb: in.txt:5:3: expected a column from 1 to 1, found '2'
climb: a test case missing|climb in.txt|2\n1 1\n5\n0\n|1|loopy climb: in.txt:5:1: expected the row count n of test case 2 of 2, found end of file
EOF
}

# The machine's memory appears in one message; it is not part of the test.
normalize() {
    sed -E 's/more than the [0-9.]+ GiB available/more than the N GiB available/'
}

cd "$tmp" || exit 1
mkdir adir
markdown=0
[ "${1:-}" = --markdown ] && markdown=1
if [ $markdown -eq 1 ]; then
    echo "| Bad input | Input (printf notation) | Command | Exit | Message on standard error |"
    echo "|---|---|---|---|---|"
fi
cases >cases.txt
while IFS='|' read -r what args input status message; do
    rm -f in.txt
    [ "$input" = "@none" ] || printf "$input" >in.txt
    stdin=in.txt
    [ -f in.txt ] || stdin=/dev/null
    # shellcheck disable=SC2086 # the arguments are words
    "$LOOPY" $args <"$stdin" >out.txt 2>err.txt
    rc=$?
    got=$(normalize <err.txt)
    ok=1
    if [ "$rc" != "$status" ]; then
        echo "FAIL: $what: exit status $rc, expected $status"
        ok=0
    fi
    if [ "$status" = 0 ]; then
        # The plain text under the same name and options.
        printf "${message#same as: }" >in.txt
        "$LOOPY" $args <in.txt >ref.out 2>/dev/null
        if ! cmp -s out.txt ref.out || [ -s err.txt ]; then
            echo "FAIL: $what: output differs from that of the plain text"
            ok=0
        fi
    else
        if [ "$got" != "$message" ]; then
            echo "FAIL: $what:"
            echo "  expected: $message"
            echo "  got:      $got"
            ok=0
        fi
        if [ -s out.txt ]; then
            echo "FAIL: $what: something on standard output"
            ok=0
        fi
    fi
    if [ $ok -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    if [ $markdown -eq 1 ]; then
        shown=$input
        [ "$input" = "@none" ] && shown="(no such file)"
        [ "$args" = "solve -q adir" ] && shown="(a folder)"
        [ -z "$input" ] && shown="(empty)"
        case $status in
        0) text="accepted: output equals that of \`${message#same as: }\`" ;;
        *) text="\`$message\`" ;;
        esac
        # printf, not echo: the backslashes of the inputs stay as written.
        printf '| %s | `%s` | `loopy %s` | %s | %s |\n' "$what" "$shown" \
            "$args" "$status" "$text"
    fi
done <cases.txt

[ $markdown -eq 1 ] && exit 0

# docs/bad-input.md holds the --markdown table between its markers.
doc=$root/docs/bad-input.md
if [ -f "$doc" ]; then
    sed -n '/^<!-- BEGIN bad_input.sh -->$/,/^<!-- END bad_input.sh -->$/p' "$doc" |
        sed '1d;$d' >doc_table.txt
    LOOPY=$LOOPY sh "$root/tests/cli/bad_input.sh" --markdown >gen_table.txt
    if cmp -s doc_table.txt gen_table.txt; then
        passed=$((passed + 1))
    else
        echo "FAIL: the table in docs/bad-input.md differs from" \
            "'sh tests/cli/bad_input.sh --markdown':"
        diff doc_table.txt gen_table.txt | head -n 20
        failed=$((failed + 1))
    fi
else
    echo "FAIL: $doc is missing"
    failed=$((failed + 1))
fi

echo "bad_input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
