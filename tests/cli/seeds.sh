#!/bin/sh
# Golden tests of the seed-problem commands (race, sleepy, climb): the
# problems' samples, help, and bad input (message, status, empty stdout).
LOOPY=$(cd "$(dirname "$LOOPY")" && pwd)/$(basename "$LOOPY")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM # (runs the EXIT trap)
passed=0
failed=0

# check NAME STATUS INPUT WANT_OUT WANT_ERR ARGS...: runs $LOOPY ARGS with
# INPUT on standard input in $work; compares status, stdout and stderr.
check() {
    name=$1 want_status=$2 input=$3 want_out=$4 want_err=$5
    shift 5
    (cd "$work" && printf '%b' "$input" | "$LOOPY" "$@" >.out 2>.err)
    status=$?
    ok=1
    if [ "$status" -ne "$want_status" ]; then
        echo "FAIL [$name]: exit status $status, expected $want_status"
        ok=0
    fi
    printf '%b' "$want_out" >"$work/.want"
    if ! cmp -s "$work/.want" "$work/.out"; then
        echo "FAIL [$name]: standard output differs:"
        diff "$work/.want" "$work/.out" | head -n 10
        ok=0
    fi
    printf '%b' "$want_err" >"$work/.want"
    if ! cmp -s "$work/.want" "$work/.err"; then
        echo "FAIL [$name]: standard error differs:"
        diff "$work/.want" "$work/.err" | head -n 10
        ok=0
    fi
    if [ "$ok" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

# ---- race (Luogu P6560) ----
race_in='5 5 3\n1 2\n2 3\n3 1\n3 4\n4 5\n2 3\n1 5\n3 3\n'
for strategy in auto lanes local full; do
    check "race example, --strategy $strategy" 0 "$race_in" '1\n0\n-1\n' '' \
        race --strategy "$strategy"
done
printf '%b' "$race_in" >"$work/race.txt"
check "race reads a FILE operand" 0 '' '1\n0\n-1\n' '' race race.txt
check "race: tokens may be split across lines at will" 0 \
    '5 5\n3 1 2 2\n3 3 1 3 4 4 5\n2 3 1 5 3 3' '1\n0\n-1\n' '' race
check "race: no rounds, no output" 0 '1 0 0\n' '' '' race
check "race: a vertex out of range" 1 '3 1 1\n1 4\n1 1\n' '' \
    "loopy race: <stdin>:2:3: expected a move's second vertex (from 1 to 3), found '4'\n" race
printf '3 1 2\n1 2\n1 2\n' >"$work/race2.txt"
check "race: a round missing, in a file" 1 '' '' \
    "loopy race: race2.txt:4:1: expected a round's start x (from 1 to 3), found end of file after 1 of the 2 rounds announced\n" \
    race race2.txt
check "race: something after the rounds" 1 '2 0 1\n1 2\n3\n' '' \
    "loopy race: <stdin>:3:1: expected the end of the input after the q rounds, found '3'\n" race
check "race: a word for a number" 1 '2 zero 1\n' '' \
    "loopy race: <stdin>:1:3: expected the move count m, found 'zero'\n" race
check "race: unknown strategy" 2 '' '' \
    "loopy race: --strategy: expected 'auto', 'lanes', 'local' or 'full', found 'fast'\n" race --strategy fast
check "race: two files" 2 '' '' \
    "loopy race: one input file at most, found 'b' after 'a'\n" race a b
check "race: a missing file" 3 '' '' \
    "loopy race: nofile.txt: cannot open: No such file or directory\n" race nofile.txt

# ---- sleepy (Codeforces 936B) ----
check "sleepy sample 1: Win and a shortest path" 0 \
    '5 6\n2 2 3\n2 4 5\n1 4\n1 5\n0\n1\n' 'Win\n1 2 4 5\n' '' sleepy
check "sleepy sample 2: Lose" 0 '3 2\n1 3\n1 1\n0\n2\n' 'Lose\n' '' sleepy
check "sleepy sample 3: Draw" 0 '2 2\n1 2\n1 1\n1\n' 'Draw\n' '' sleepy
check "sleepy: the shortest win goes round an odd cycle" 0 \
    '4 4\n1 2\n2 3 4\n1 1\n0\n1\n' 'Win\n1 2 3 1 2 4\n' '' sleepy
check "sleepy: a start without moves loses" 0 '1 0\n0\n1\n' 'Lose\n' '' sleepy
check "sleepy: fewer moves than m" 1 '2 2\n1 2\n0\n1\n' '' \
    "loopy sleepy: <stdin>:4:1: the 2 lists hold 1 move, but m = 2 was announced\n" sleepy
check "sleepy: one list" 1 '1 1\n0\n1\n' '' \
    "loopy sleepy: <stdin>:3:1: the 1 list holds 0 moves, but m = 1 was announced\n" sleepy
check "race: n over the vertex limit: exit 4" 4 '4294967295 0 0\n' '' \
    "loopy race: <stdin>:1:1: n = 4294967295 is more than loopy's limit of 4294967294 vertices\n" race
check "sleepy: n over the vertex limit: exit 4" 4 '5000000000 0\n' '' \
    "loopy sleepy: <stdin>:1:1: n = 5000000000 is more than loopy's limit of 4294967294 vertices\n" sleepy
check "sleepy: more moves than m" 1 '2 1\n2 1 2\n0\n1\n' '' \
    "loopy sleepy: <stdin>:2:1: expected the number of moves of vertex 1 (at most the 1 left of m = 1), found '2'\n" sleepy
check "sleepy: the start out of range" 1 '2 0\n0\n0\n3\n' '' \
    "loopy sleepy: <stdin>:4:1: expected the start s (a vertex from 1 to 2), found '3'\n" sleepy
check "sleepy: the start missing" 1 '2 0\n0\n0\n' '' \
    "loopy sleepy: <stdin>:4:1: expected the start s (a vertex from 1 to 2), found end of file\n" sleepy

# A chain 1 -> 2 -> ... -> 1000000: a winning walk of a million vertices,
# which a recursive search could not follow without a huge stack.
awk 'BEGIN { n = 1000000; print n, n - 1;
             for (v = 1; v < n; v++) print 1, v + 1; print 0; print 1 }' \
    >"$work/chain.txt"
(cd "$work" && "$LOOPY" sleepy chain.txt >.out 2>.err)
status=$?
if [ "$status" -eq 0 ] && [ ! -s "$work/.err" ] &&
    [ "$(head -n 1 "$work/.out")" = Win ] &&
    [ "$(sed -n 2p "$work/.out" | wc -w)" -eq 1000000 ] &&
    [ "$(sed -n 2p "$work/.out" | cut -d' ' -f1000000)" = 1000000 ]; then
    passed=$((passed + 1))
else
    echo "FAIL [sleepy: a chain of a million vertices]: status $status"
    failed=$((failed + 1))
fi

# ---- climb (the grid game) ----
check "climb sample" 0 '1\n2 3\n1 2 3\n6 5 4\n3\n2 1\n2 3\n1 1\n' \
    'Second\nSecond\nFirst\n' '' climb
check "climb: two test cases" 0 '2\n1 1\n7\n1\n1 1\n1 2\n1 2\n2\n1 1\n1 2\n' \
    'Second\nFirst\nSecond\n' '' climb
check "climb: a repeated height" 1 '1\n2 2\n1 2\n3 1\n1\n1 1\n' '' \
    "loopy climb: <stdin>:4:3: expected a height different from the others of the grid, found 1 again (row 1, column 1 has it too)\n" climb
printf '1\n2 2\n1 2\n3 1\n1\n1 1\n' >"$work/dup.txt"
check "climb: a repeated height, in a file (read again to find it)" 1 '' '' \
    "loopy climb: dup.txt:4:3: expected a height different from the others of the grid, found 1 again (row 1, column 1 has it too)\n" climb dup.txt
check "climb: a query below the grid" 1 '1\n1 2\n5 6\n1\n2 1\n' '' \
    "loopy climb: <stdin>:5:1: expected a row from 1 to 1, found '2'\n" climb
check "climb: a query right of the grid" 1 '1\n1 2\n5 6\n1\n1 3\n' '' \
    "loopy climb: <stdin>:5:3: expected a column from 1 to 2, found '3'\n" climb
check "climb: a test case missing" 1 '2\n1 1\n5\n0\n' '' \
    "loopy climb: <stdin>:5:1: expected the row count n of test case 2 of 2, found end of file\n" climb
check "climb: a negative height" 1 '1\n1 2\n5 -6\n0\n' '' \
    "loopy climb: <stdin>:3:3: expected a height (a whole number from 1 to 4294967295), found '-6'\n" climb

# ---- help: the format and the sample, which must run as shown ----
# ---- a binary graph where the problem's text was expected ----
printf '3 2\n1 2\n2 3\n' >"$work/g.txt"
(cd "$work" && "$LOOPY" convert -q g.txt -o g.lgr)
check "race: a binary graph file" 1 '' '' \
    "loopy race: g.lgr:1:1: expected the vertex count n (from 1 to 4294967294), found a loopy binary graph (this command reads text)\n" \
    race g.lgr
check "sleepy: a binary graph file" 1 '' '' \
    "loopy sleepy: g.lgr:1:1: expected the vertex count n (from 1 to 4294967294), found a loopy binary graph (this command reads text)\n" \
    sleepy g.lgr
for cmd in race sleepy; do
    check "$cmd: a UTF-8 byte-order mark" 1 '\357\273\2773 1 1\n1 2\n1 2\n' '' \
        "loopy $cmd: <stdin>:1:1: expected the vertex count n (from 1 to 4294967294), found a UTF-8 byte-order mark (this command reads plain ASCII numbers)\n" $cmd
done
check "climb: a UTF-8 byte-order mark" 1 '\357\273\2771\n1 1\n1\n0\n' '' \
    "loopy climb: <stdin>:1:1: expected the number of test cases T, found a UTF-8 byte-order mark (this command reads plain ASCII numbers)\n" climb
check "climb: a binary graph file" 1 '' '' \
    "loopy climb: g.lgr:1:1: expected the number of test cases T, found a loopy binary graph (this command reads text)\n" \
    climb g.lgr

for cmd in race sleepy climb; do
    (cd "$work" && "$LOOPY" "$cmd" --help >.help 2>.err)
    status=$?
    example=$(grep '^  \$ ' "$work/.help" | sed 's/^  \$ //; s/| loopy /| "$LOOPY" /')
    want=$(sed -n '/^  \$ /,/^$/p' "$work/.help" | sed '1d; $d; s/^  //')
    got=$(cd "$work" && LOOPY=$LOOPY sh -c "$example")
    if [ "$status" -eq 0 ] && [ ! -s "$work/.err" ] &&
        grep -q "Input (numbers separated by any white space)" "$work/.help" &&
        [ -n "$want" ] && [ "$got" = "$want" ]; then
        passed=$((passed + 1))
    else
        echo "FAIL [$cmd --help: the example's output is not what it shows]"
        echo "got: $got"
        echo "want: $want"
        failed=$((failed + 1))
    fi
done

# ---- a directory, said as the graph commands say it ----
mkdir -p "$work/adir"
for cmd in race sleepy climb; do
    check "$cmd: a directory" 3 '' '' \
        "loopy $cmd: adir: cannot read: it is a directory\n" $cmd adir
done

# ---- a size too large for memory is reported where n stands ----
check "race: n too large, at its place" 4 '\n\n   4000000000 0 0\n' '' \
    "loopy race: <stdin>:3:4: n = 4000000000 is too large for this machine's memory\n" race
check "sleepy: n too large, at its place" 4 '\n\n   4000000000 0\n' '' \
    "loopy sleepy: <stdin>:3:4: n = 4000000000 is too large for this machine's memory\n" sleepy

# ---- a number whose leading zeros run past the readers' 1 MiB window ----
zeros=$(head -c 1100000 /dev/zero | tr '\0' 0)
{ printf '2\n2 3\n5 9 2\n7 3 4\n%s2\n1 1\n2 3\n1 1\n2\n1\n1 1\n' "$zeros"; } >"$work/zeros_climb.txt"
{ printf '2 1\n%s1 2\n0\n1\n' "$zeros"; } >"$work/zeros_sleepy.txt"
{ printf '2 %s1 1\n1 2\n1 2\n' "$zeros"; } >"$work/zeros_race.txt"
for way in file pipe; do
    for cmd in climb sleepy race; do
        case $cmd in
        climb) want='First\nSecond\nSecond\n' ;;
        sleepy) want='Win\n1 2\n' ;;
        race) want='1\n' ;;
        esac
        if [ $way = file ]; then
            check "$cmd: 1.1 MB of leading zeros, from a file" 0 '' "$want" '' \
                $cmd "zeros_$cmd.txt"
        else
            (cd "$work" && cat "zeros_$cmd.txt" | "$LOOPY" $cmd >.out 2>.err)
            printf '%b' "$want" >"$work/.want"
            if cmp -s "$work/.want" "$work/.out" && [ ! -s "$work/.err" ]; then
                passed=$((passed + 1))
            else
                echo "FAIL [$cmd: 1.1 MB of leading zeros, from a pipe]"
                failed=$((failed + 1))
            fi
        fi
    done
done

echo "seeds: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
