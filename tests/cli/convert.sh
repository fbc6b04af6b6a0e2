#!/bin/sh
# convert.sh - 'loopy convert' and 'loopy solve' on binary files and with
# threads: the same answers as from text, damaged files refused.
# Run by tests/run.sh with LOOPY set to the binary.
LOOPY=${LOOPY:-build/loopy}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM # (runs the EXIT trap)
passed=0
failed=0

check() { # NAME CONDITION...
    name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "convert.sh: FAILED: $name"
    fi
}

# A graph with wins, losses, draws, a self-loop and parallel edges.
cat >"$dir/g.txt" <<'TXT'
# a test graph
7 10
1 2
2 3
3 4
4 2
5 6
6 7
5 5
1 5
1 5
7 3
TXT
"$LOOPY" solve -q "$dir/g.txt" >"$dir/text.out" 2>"$dir/err"
check "solve text" test -s "$dir/text.out"
"$LOOPY" convert -q "$dir/g.txt" -o "$dir/g.lgr" 2>"$dir/err"
check "convert exit status" test $? -eq 0
check "convert leaves no temporary file" test "$(ls "$dir" | grep -c tmp)" -eq 0
"$LOOPY" solve -q "$dir/g.lgr" >"$dir/bin.out" 2>"$dir/err"
check "binary solve = text solve" cmp -s "$dir/text.out" "$dir/bin.out"
"$LOOPY" solve -q -f dot "$dir/g.lgr" >"$dir/bin.dot" 2>"$dir/err"
"$LOOPY" solve -q -f dot "$dir/g.txt" >"$dir/text.dot" 2>"$dir/err"
check "binary dot = text dot" cmp -s "$dir/text.dot" "$dir/bin.dot"
"$LOOPY" solve -q -f json --misere "$dir/g.lgr" >"$dir/bin.json" 2>"$dir/err"
"$LOOPY" solve -q -f json --misere "$dir/g.txt" >"$dir/text.json" 2>"$dir/err"
check "binary json = text json" cmp -s "$dir/text.json" "$dir/bin.json"
"$LOOPY" solve -q < "$dir/g.lgr" >"$dir/stdin.out" 2>"$dir/err"
check "binary from standard input" cmp -s "$dir/text.out" "$dir/stdin.out"
cat "$dir/g.txt" | "$LOOPY" solve -q >"$dir/pipe.out" 2>"$dir/err"
check "text from a pipe" cmp -s "$dir/text.out" "$dir/pipe.out"

# Threads do not change the output: a larger random graph, every count.
awk 'BEGIN { n = 3000; m = 9000; srand(7); print n, m;
             for (i = 0; i < m; i++) { u = int(rand() * n) + 1;
                 if (u % 9 == 0) u++; print u, int(rand() * n) + 1 } }' \
    >"$dir/r.txt"
"$LOOPY" solve -q -t 1 "$dir/r.txt" >"$dir/r1.out" 2>"$dir/err"
for t in 2 3 4; do
    "$LOOPY" solve -q -t $t "$dir/r.txt" >"$dir/rt.out" 2>"$dir/err"
    check "--threads $t = --threads 1" cmp -s "$dir/r1.out" "$dir/rt.out"
done
"$LOOPY" convert -q "$dir/r.txt" -o "$dir/r.lgr" 2>"$dir/err"
"$LOOPY" solve -q -t 2 "$dir/r.lgr" >"$dir/rb.out" 2>"$dir/err"
check "binary, 2 threads = text, 1 thread" cmp -s "$dir/r1.out" "$dir/rb.out"
# More threads than processors count as that many: the same file.
"$LOOPY" convert -q -t 1 "$dir/r.txt" -o "$dir/r1.lgr" 2>"$dir/err"
"$LOOPY" convert -q -t 1024 "$dir/r.txt" -o "$dir/r1024.lgr" 2>"$dir/err"
check "convert --threads 1024 = --threads 1" cmp -s "$dir/r1.lgr" "$dir/r1024.lgr"

# Damaged files: exit status 1, a message naming the problem, no output.
size=$(wc -c <"$dir/g.lgr")
head -c $((size - 3)) "$dir/g.lgr" >"$dir/short.lgr"
"$LOOPY" solve "$dir/short.lgr" >"$dir/out" 2>"$dir/err"
check "truncated: exit 1" test $? -eq 1
check "truncated: message" grep -q "short.lgr: truncated loopy binary file" "$dir/err"
check "truncated: no output" test ! -s "$dir/out"
{ printf '\211LGX'; tail -c +5 "$dir/g.lgr"; } >"$dir/magic.lgr"
"$LOOPY" solve "$dir/magic.lgr" >"$dir/out" 2>"$dir/err"
check "bad magic: exit 1" test $? -eq 1
check "bad magic: message" grep -q "bad magic bytes" "$dir/err"
{ head -c 300 "$dir/g.lgr"; printf 'Z'; tail -c +302 "$dir/g.lgr"; } >"$dir/sum.lgr"
"$LOOPY" solve "$dir/sum.lgr" >"$dir/out" 2>"$dir/err"
check "bad checksum: exit 1" test $? -eq 1
check "bad checksum: message" grep -q "bad checksum of the" "$dir/err"

# Text errors keep their line and column through the mapped-file reader.
printf '3 2\n1 2\n2 x\n' >"$dir/bad.txt"
"$LOOPY" solve "$dir/bad.txt" >"$dir/out" 2>"$dir/err"
check "bad text: exit 1" test $? -eq 1
check "bad text: position" grep -q "bad.txt:3:3: expected the edge's second vertex" "$dir/err"
"$LOOPY" convert "$dir/bad.txt" -o "$dir/bad.lgr" 2>"$dir/err"
check "convert bad text: exit 1" test $? -eq 1
check "convert bad text: no file" test ! -e "$dir/bad.lgr"
"$LOOPY" convert "$dir/g.txt" >/dev/null 2>"$dir/err"
check "convert without -o: exit 2" test $? -eq 2
"$LOOPY" convert --help >"$dir/out" 2>&1
check "convert --help" grep -q "Usage: loopy convert" "$dir/out"

# grundy and sum read binary graphs too, with the same answers.
"$LOOPY" convert "$dir/g.txt" -o "$dir/g2.lgr" 2>/dev/null
"$LOOPY" grundy -q "$dir/g.txt" >"$dir/grundy.txt" 2>&1
"$LOOPY" grundy -q "$dir/g2.lgr" >"$dir/grundy.lgr.out" 2>&1
check "grundy on binary = on text" cmp -s "$dir/grundy.txt" "$dir/grundy.lgr.out"
printf '1 2\n2 3\n' >"$dir/q.txt"
"$LOOPY" sum "$dir/g.txt" "$dir/q.txt" >"$dir/sum.txt" 2>&1
"$LOOPY" sum "$dir/g2.lgr" "$dir/q.txt" >"$dir/sum.lgr.out" 2>&1
check "sum on binary = on text" cmp -s "$dir/sum.txt" "$dir/sum.lgr.out"

# A binary file written without successor lists: commands that need them
# (grundy, dot output) build them; the answers are those of the full file.
corpus=$(dirname "$0")/../../fuzz/corpus/read_binary
"$LOOPY" grundy -q "$corpus/game" >"$dir/full.out" 2>&1
"$LOOPY" grundy -q "$corpus/game-nosucc" >"$dir/nosucc.out" 2>&1
check "grundy without stored successors" cmp -s "$dir/full.out" "$dir/nosucc.out"
"$LOOPY" solve -q -f dot "$corpus/game" | sort >"$dir/full.dot"
"$LOOPY" solve -q -f dot "$corpus/game-nosucc" | sort >"$dir/nosucc.dot"
check "dot without stored successors: same edges" cmp -s "$dir/full.dot" "$dir/nosucc.dot"
check "dot without stored successors: has edges" grep -q -- '->' "$dir/nosucc.dot"

# Standard input that an earlier reader left part-way through a file is
# read from where it stands, as a pipe would be.
printf 'junk line\n3 2\n1 2\n2 3\n' >"$dir/offset.txt"
{ read -r _; "$LOOPY" solve -q -; } <"$dir/offset.txt" >"$dir/offset.out" 2>&1
printf '1 L 2 2\n2 W 1 3\n3 L 0 -\n' >"$dir/offset.want"
check "stdin read from its offset" cmp -s "$dir/offset.want" "$dir/offset.out"

# A binary file keeps the numbering of its text: solve, grundy and sum print
# its vertices from 0 when the text was 0-based, unless --base says
# otherwise.
printf '3 3\n0 1\n1 2\n0 0\n' >"$dir/zero.txt"
"$LOOPY" convert -q --base 0 "$dir/zero.txt" -o "$dir/zero.lgr"
"$LOOPY" solve -q --base 0 "$dir/zero.txt" >"$dir/zero.want"
"$LOOPY" solve -q "$dir/zero.lgr" >"$dir/zero.out" 2>&1
check "0-based text, binary: solve prints from 0" cmp -s "$dir/zero.want" "$dir/zero.out"
printf '1 D - 1\n2 W 1 3\n3 L 0 -\n' >"$dir/one.want"
"$LOOPY" solve -q --base 1 "$dir/zero.lgr" >"$dir/one.out" 2>&1
check "0-based text, binary: --base 1 overrides" cmp -s "$dir/one.want" "$dir/one.out"
"$LOOPY" grundy -q --base 0 "$dir/zero.txt" >"$dir/zero.want"
"$LOOPY" grundy -q "$dir/zero.lgr" >"$dir/zero.out" 2>&1
check "0-based text, binary: grundy prints from 0" cmp -s "$dir/zero.want" "$dir/zero.out"
printf '0\n2\n' >"$dir/zero.q"
"$LOOPY" sum --base 0 "$dir/zero.txt" "$dir/zero.q" >"$dir/zero.want"
"$LOOPY" sum "$dir/zero.lgr" "$dir/zero.q" >"$dir/zero.out" 2>&1
check "0-based text, binary: sum reads and prints from 0" cmp -s "$dir/zero.want" "$dir/zero.out"
"$LOOPY" solve -q --lose-at 0 "$dir/zero.lgr" >"$dir/zero.out" 2>&1
check "0-based text, binary: --lose-at counts from 0" grep -q '^0 L 0 -$' "$dir/zero.out"
"$LOOPY" convert -q "$dir/g.txt" -o "$dir/one.lgr"
"$LOOPY" solve -q "$dir/one.lgr" >"$dir/one.out" 2>&1
check "1-based text, binary: solve prints from 1" cmp -s "$dir/text.out" "$dir/one.out"

# -o naming the input is refused before anything is written; a bad -o
# fails before the input is read.
cp "$dir/g.txt" "$dir/same.txt"
"$LOOPY" solve -q "$dir/same.txt" -o "$dir/same.txt" 2>"$dir/err"
check "solve -o INPUT: exit 2" test $? -eq 2
check "solve -o INPUT: input kept" cmp -s "$dir/g.txt" "$dir/same.txt"
check "solve -o INPUT: message" grep -q "the output would overwrite the input file" "$dir/err"
"$LOOPY" convert -q "$dir/same.txt" -o "$dir/same.txt" 2>"$dir/err"
check "convert -o INPUT: exit 2" test $? -eq 2
check "convert -o INPUT: input kept" cmp -s "$dir/g.txt" "$dir/same.txt"
"$LOOPY" grundy -q "$dir/same.txt" -o "$dir/same.txt" 2>"$dir/err"
check "grundy -o INPUT: exit 2" test $? -eq 2
"$LOOPY" solve -q "$dir/missing.txt" -o "$dir/no/such/dir/out" 2>"$dir/err"
check "bad -o is reported before reading: exit 3" test $? -eq 3
check "bad -o is reported before reading: message" grep -q "cannot create" "$dir/err"

# A binary input keeps its numbering: --base that differs is refused (exit 2,
# no output), the same base is accepted, and the copy solves the same.
"$LOOPY" convert -q --base 0 "$dir/g.lgr" -o "$dir/rebased.lgr" 2>"$dir/err"
check "--base 0 on a 1-based binary file: exit 2" test $? -eq 2
check "--base on a binary file: message" grep -q \
    "g.lgr: a binary file numbered from 1: --base applies to text input" "$dir/err"
check "--base on a binary file: no output" test ! -e "$dir/rebased.lgr"
"$LOOPY" convert -q --base 1 "$dir/g.lgr" -o "$dir/copy.lgr" 2>"$dir/err"
check "--base 1 on a 1-based binary file: exit 0" test $? -eq 0
"$LOOPY" solve -q "$dir/copy.lgr" >"$dir/copy.out" 2>"$dir/err"
check "binary to binary: same solution" cmp -s "$dir/text.out" "$dir/copy.out"

echo "convert: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
