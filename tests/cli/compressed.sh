#!/bin/sh
# compressed.sh - graph datasets as they ship: gzip and zstd files read by
# their magic bytes (zstd's skippable frames and --long windows too, and
# decompression bombs of blank lines and comment in little memory), edge
# lists without the "n m" header (--input pairs), and 'loopy convert' both
# ways (binary to text, text to binary, to a pipe).
# The compressed files are made with gzip and zstd (the zstd cases are
# skipped, and said so, without the zstd program; tests/test_compressed.c
# covers zstd with the library).
# Run by tests/run.sh with LOOPY set to the binary.
. "$(dirname "$0")/harness.inc"

cd "$work" || exit 2
have_zstd=false
command -v zstd >/dev/null 2>&1 && have_zstd=true

# The README's example: wins, losses, draws and self-loops.
cp "$root/examples/game.txt" g.txt
"$LOOPY" solve -q g.txt >plain.out
"$LOOPY" solve -q -f json g.txt >plain.json
gzip -n -c g.txt >g.txt.gz
cp g.txt.gz g.dat # the name says nothing: the magic bytes decide
packed="g.txt.gz g.dat"
if $have_zstd; then
    zstd -q -c g.txt >g.txt.zst
    packed="$packed g.txt.zst"
else
    echo "compressed.sh: no zstd program: zstd files not tested here"
fi

# gzip and zstd of the same file: the same solve output, from a file, from
# standard input redirected and from a pipe, in text and JSON.
for f in $packed; do
    expect "solve $f" 0 "$(cat plain.out)\n" solve -q "$f"
    expect "solve -f json $f" 0 "$(cat plain.json)\n" solve -q -f json "$f"
    (timeout "$limit" "$LOOPY" solve -q <"$f" >stdin.out 2>&1)
    check "solve < $f" cmp -s plain.out stdin.out
    (cat "$f" | timeout "$limit" "$LOOPY" solve -q >pipe.out 2>&1)
    check "cat $f | solve" cmp -s plain.out pipe.out
done
"$LOOPY" grundy -q g.txt >grundy.want
expect "grundy g.txt.gz" 0 "$(cat grundy.want)\n" grundy -q g.txt.gz
# gzip members may be concatenated (as "cat a.gz b.gz" makes them).
head -n 7 g.txt | gzip -n -c >two.gz
tail -n +8 g.txt | gzip -n -c >>two.gz
expect "two gzip members" 0 "$(cat plain.out)\n" solve -q two.gz

# Bad text inside a compressed file: the place in the decompressed text,
# exit 1, nothing on standard output, no output file from convert.
printf '3 2\n1 2\n2 x\n' | gzip -n -c >bad.gz
refused "bad text in gzip" 1 \
    "^loopy solve: bad.gz:3:3: expected the edge's second vertex \(a vertex from 1 to 3\), found 'x'$" \
    solve bad.gz
refused "convert bad text in gzip" 1 "^loopy convert: bad.gz:3:3: " \
    convert bad.gz -o bad.lgr
check "convert bad text in gzip: no file" test ! -e bad.lgr
refused "solve -o, bad text in gzip" 1 "^loopy solve: bad.gz:3:3: " solve bad.gz -o bad.out
check "solve -o, bad text in gzip: no file" test ! -e bad.out
printf '3 1\n0 1\n' | gzip -n -c >base.gz
refused "the base hint through gzip" 1 \
    "^loopy solve: base.gz:2:1: .*found '0' \(it reads with --base 0\)$" solve base.gz
# The hint of the plain file also when the text's error comes first and a
# NUL in a '%' line (a comment of the list of pairs the hint names) 2 MiB
# later, met while the rest is checked.
{
    printf '%%x\n'
    awk 'BEGIN { for (i = 0; i < 600000; i++) print "1 2" }'
    printf '%% \000\n'
    awk 'BEGIN { for (i = 0; i < 100; i++) print "10 2" }'
} >latenul.txt
gzip -n -c latenul.txt >latenul.gz
for f in latenul.txt latenul.gz; do
    refused "a late NUL in a comment: the hint ($f)" 1 \
        "^loopy solve: $f:1:1: expected the vertex count n, found '%x' \(it reads as a list of pairs without the 'n m' line: --input pairs\)$" \
        solve "$f"
done

# Truncated and damaged files: exit 1, one line naming the file and the
# damage, nothing on standard output, no output file.
size=$(wc -c <g.txt.gz)
head -c $((size - 1)) g.txt.gz >cut.gz
refused "truncated gzip" 1 \
    "^loopy solve: cut.gz: truncated gzip file: it ends inside the compressed data$" \
    solve cut.gz
head -c 12 g.txt.gz >short.gz
refused "gzip cut in its header" 1 "^loopy solve: short.gz: truncated gzip file" \
    solve short.gz
refused "convert truncated gzip" 1 "^loopy convert: cut.gz: truncated gzip file" \
    convert cut.gz -o cut.lgr
check "convert truncated gzip: no file" test ! -e cut.lgr
refused "solve -o, truncated gzip" 1 "^loopy solve: cut.gz: truncated gzip file" \
    solve cut.gz -o cut.out
check "solve -o, truncated gzip: no file" test ! -e cut.out
# The CRC-32 in gzip's trailer: a changed byte of the text is found.
{ head -c $((size - 8)) g.txt.gz; printf '\000\000\000\000'; tail -c 4 g.txt.gz; } >crc.gz
refused "gzip with a bad checksum" 1 \
    "^loopy solve: crc.gz: damaged gzip file: incorrect data check$" solve crc.gz
{ head -c 10 g.txt.gz; printf '\377\377\377'; tail -c +14 g.txt.gz; } >junk.gz
refused "gzip with damaged data" 1 "^loopy solve: junk.gz: damaged gzip file: " \
    solve junk.gz
{ cat g.txt.gz; printf 'trailing'; } >trail.gz
refused "bytes after the gzip data" 1 \
    "^loopy solve: trail.gz: damaged gzip file: bytes that are not gzip data follow its end$" \
    solve trail.gz
(cat cut.gz | timeout "$limit" "$LOOPY" solve >pipe.out 2>pipe.err)
same "truncated gzip from a pipe: exit status" $? 1
check "truncated gzip from a pipe: message" grep -q \
    "^loopy solve: <stdin>: truncated gzip file" pipe.err
check "truncated gzip from a pipe: no output" test ! -s pipe.out
if $have_zstd; then
    size=$(wc -c <g.txt.zst)
    head -c $((size - 1)) g.txt.zst >cut.zst
    refused "truncated zstd" 1 \
        "^loopy solve: cut.zst: truncated zstd file: it ends inside the compressed data$" \
        solve cut.zst
    { head -c $((size - 4)) g.txt.zst; printf '\000\000\000\000'; } >sum.zst
    refused "zstd with a bad checksum" 1 \
        "^loopy solve: sum.zst: damaged zstd file: " solve sum.zst
    printf '3 2\n1 2\n2 x\n' | zstd -q -c >bad.zst
    refused "bad text in zstd" 1 "^loopy solve: bad.zst:3:3: expected the edge's second vertex" \
        solve bad.zst
fi

# A decompression bomb of zeros stops at its first NUL byte (bad text) with
# little memory: 256 MiB of zeros under a 256 MiB address-space limit
# (where loopy runs under one at all: not with AddressSanitizer, which
# reserves terabytes).
head -c 268435456 /dev/zero | gzip -1 -c >zeros.gz
cap=262144
if ! (ulimit -v $cap && printf '1 0\n' | "$LOOPY" solve -q) >/dev/null 2>&1; then
    echo "compressed.sh: loopy does not run under ulimit -v: zeros.gz read without it"
    cap=unlimited
fi
(ulimit -v $cap 2>/dev/null; timeout "$limit" "$LOOPY" solve -t 1 zeros.gz \
    >zeros.out 2>zeros.err)
same "gzip of zeros: exit status" $? 1
check "gzip of zeros: message" grep -q -E \
    "^loopy solve: zeros.gz:1:1: expected the vertex count n, found '\?{20}\.\.\.'$" zeros.err
check "gzip of zeros: no output" test ! -s zeros.out

# Decompression bombs of blank lines and of comment: a compressed text is
# read as it is decompressed, never held whole, so 512 MiB of newlines (32
# gzip members of 16 MiB each) and 512 MiB of comment (zstd frames) are read
# in little memory: under a 256 MiB address-space limit where loopy runs
# under one, and with a peak resident set under 64 MiB where /usr/bin/time
# measures it (not under a sanitizer, whose shadow memory counts).
head -c 16777216 /dev/zero | tr '\000' '\n' | gzip -1 -c >nl16.gz
printf '3 2\n1 2\n2 3\n' | gzip -n -c >blank-bomb.gz
i=0
while [ $i -lt 32 ]; do cat nl16.gz >>blank-bomb.gz; i=$((i + 1)); done
(ulimit -v $cap 2>/dev/null; timeout "$limit" "$LOOPY" solve -q -t 1 blank-bomb.gz \
    >bomb.out 2>bomb.err)
same "512 MiB of blank lines: exit status" $? 0
same "512 MiB of blank lines: the graph" "$(cat bomb.out)" "$(printf '1 L 2 2\n2 W 1 3\n3 L 0 -')"
if [ -x /usr/bin/time ] && ! $sanitized; then
    /usr/bin/time -f '%M' -o bomb.rss "$LOOPY" solve -q -t 1 blank-bomb.gz >/dev/null 2>&1
    rss=$(tail -n 1 bomb.rss)
    check "512 MiB of blank lines: $rss KiB resident, under 64 MiB" test "$rss" -lt 65536
fi
if $have_zstd; then
    printf '3 2\n1 2\n2 3\n#' | zstd -q -c >comment-bomb.zst
    head -c 16777216 /dev/zero | tr '\000' 'c' | zstd -q -1 -c >comment16.zst
    i=0
    while [ $i -lt 32 ]; do cat comment16.zst >>comment-bomb.zst; i=$((i + 1)); done
    printf '\n' | zstd -q -c >>comment-bomb.zst
    # The frames join into one text: the graph, then a comment line of
    # 512 MiB.
    (ulimit -v $cap 2>/dev/null; timeout "$limit" "$LOOPY" solve -q -t 1 \
        comment-bomb.zst >bomb.out 2>bomb.err)
    same "512 MiB of comment: exit status" $? 0
    same "512 MiB of comment: the graph" "$(cat bomb.out)" "$(printf '1 L 2 2\n2 W 1 3\n3 L 0 -')"
    if [ -x /usr/bin/time ] && ! $sanitized; then
        /usr/bin/time -f '%M' -o bomb.rss "$LOOPY" solve -q -t 1 comment-bomb.zst >/dev/null 2>&1
        rss=$(tail -n 1 bomb.rss)
        check "512 MiB of comment: $rss KiB resident, under 64 MiB" test "$rss" -lt 65536
    fi
fi

# zstd as its tools write it: a skippable frame first (pzstd writes one),
# and windows of zstd --long, read as zstd -d reads them.
if $have_zstd; then
    { printf '\120\052\115\030\004\000\000\000abcd'; cat g.txt.zst; } >skip.zst
    expect "a skippable frame first" 0 "$(cat plain.out)\n" solve -q skip.zst
    (cat skip.zst | timeout "$limit" "$LOOPY" solve -q >pipe.out 2>&1)
    check "a skippable frame first, from a pipe" cmp -s plain.out pipe.out
    if command -v pzstd >/dev/null 2>&1; then
        pzstd -q -p 2 -c g.txt >g.pzst 2>/dev/null
        expect "pzstd's file" 0 "$(cat plain.out)\n" solve -q g.pzst
    fi
    # Through a pipe zstd does not know the size: the frame asks for the
    # whole 1 GiB window (which the memory allows here).
    cat g.txt | zstd -q --long=30 -c >long30.zst
    expect "zstd --long=30 (a 1 GiB window)" 0 "$(cat plain.out)\n" solve -q long30.zst
    # A window larger than zstd decodes (3840 MiB, made by hand): refused,
    # named, exit 4.
    { printf '\050\265\057\375\000\257\141\000\000'; printf '3 2\n1 2\n2 3\n'; } >huge-window.zst
    refused "a 3840 MiB window" 4 \
        "^loopy solve: huge-window.zst: the zstd data needs a window of 3840 MiB, more than the 2048 MiB that zstd decodes$" \
        solve huge-window.zst
fi

# Edge lists without a header (--input pairs): SNAP's layout, 0-based, with
# '#' comments and tabs; KONECT's, with '%' comments.  n is the largest id
# (+ 1 from 0).
printf '# Directed graph: test\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t3\n3\t1\n4\t4\n5\t0\n' >snap.txt
printf '6 6\n0 1\n1 2\n2 3\n3 1\n4 4\n5 0\n' >snap-header.txt
"$LOOPY" solve -q --base 0 snap-header.txt >snap.want
expect "pairs: SNAP layout" 0 "$(cat snap.want)\n" solve -q --input pairs --base 0 snap.txt
gzip -n -c snap.txt >snap.txt.gz
expect "pairs: SNAP layout, gzip" 0 "$(cat snap.want)\n" solve -q -i pairs --base 0 snap.txt.gz
printf '%% sym unweighted\n%% 4 4 4\n1 2\n2 3 %% c\n3 1\n4 4\n' >konect.tsv
expect "pairs: KONECT layout" 0 "1 D - 2\n2 D - 3\n3 D - 1\n4 D - 4\n" \
    solve -q --input pairs konect.tsv
refused "pairs: 0 with base 1" 1 \
    "^loopy solve: snap.txt:3:1: expected the edge's first vertex \(a vertex from 1 to 4294967294\), found '0' \(it reads with --base 0\)$" \
    solve --input pairs snap.txt
printf '1 2 7\n' >w.txt
refused "pairs: a third column" 1 \
    "^loopy solve: w.txt:1:5: expected the end of the line after the edge, found '7'$" \
    solve --input pairs w.txt
# The header format is unchanged, '%' is no comment there, and a file with
# a header read as pairs reads its header as an edge: the format is never
# guessed.
printf '2 1\n1 2 %%c\n' >k.txt
refused "edges: '%' is not a comment" 1 \
    "^loopy solve: k.txt:2:5: expected the end of the line after the edge, found '%c'$" \
    solve k.txt
printf '2 1\n1 2\n' >hdr.txt
expect "a header read as an edge" 0 "1 W 1 2\n2 L 0 -\n" solve -q hdr.txt
expect "a header read as pairs" 0 "1 D - 2\n2 D - 1\n" solve -q -i pairs hdr.txt

# convert: text -> binary -> text gives the same graph (the same lines, in
# each vertex's order), 0-based keeps its numbering (a first comment says
# so), and a second round gives the same bytes.
"$LOOPY" convert -q g.txt -o g.lgr
"$LOOPY" convert -q -f edges g.lgr -o back.txt
check "binary to text: exit 0" test -s back.txt
expect "text from binary solves the same" 0 "$(cat plain.out)\n" solve -q back.txt
grep -v '^#' g.txt | tail -n +2 | sort >edges.want
tail -n +2 back.txt | sort >edges.got
check "binary to text: the same edges" cmp -s edges.want edges.got
same "binary to text: the header" "$(head -n 1 back.txt)" "8 12"
"$LOOPY" convert -q back.txt -o back.lgr
"$LOOPY" convert -q -f edges back.lgr -o back2.txt
check "text, binary, text again: the same bytes" cmp -s back.txt back2.txt
"$LOOPY" convert -q --base 0 -i pairs snap.txt -o snap.lgr
"$LOOPY" convert -q -f edges snap.lgr -o snap-back.txt
same "0-based: the first line" "$(head -n 1 snap-back.txt)" "# numbered from 0: read with --base 0"
expect "0-based text from binary, read with --base 0" 0 "$(cat snap.want)\n" \
    solve -q --base 0 snap-back.txt
"$LOOPY" convert -q -f adj g.lgr -o g.adj
expect "binary to adjacency lists" 0 "$(cat plain.out)\n" solve -q -i adj g.adj
"$LOOPY" convert -q -f pairs -i pairs --base 0 snap.txt -o snap-pairs.txt
expect "pairs to pairs" 0 "$(cat snap.want)\n" solve -q -i pairs --base 0 snap-pairs.txt
printf '3 1\n1 2\n' >isolated.txt
refused "-f pairs with a last vertex on no edge" 2 \
    "^loopy convert: isolated.txt: -f pairs cannot keep vertex 3, which is on no edge" \
    convert -f pairs isolated.txt -o isolated.pairs
check "-f pairs refused: no file" test ! -e isolated.pairs
refused "bad -f" 2 "^loopy convert: --format: expected 'binary', 'edges', 'adj' or 'pairs', found 'json'$" \
    convert -f json g.txt -o x
# A binary file without successor lists writes text too.
"$LOOPY" convert -q -f edges "$root/fuzz/corpus/read_binary/game-nosucc" -o nosucc.txt
"$LOOPY" convert -q -f edges "$root/fuzz/corpus/read_binary/game" -o full.txt
check "text from a binary file without successors" test -s nosucc.txt
"$LOOPY" solve -q nosucc.txt >nosucc.out
"$LOOPY" solve -q full.txt >full.out
check "without successors: the same solution" cmp -s nosucc.out full.out

# -o -: binary to a pipe (as zstd writes), text to standard output; a
# terminal is refused for binary only.
("$LOOPY" convert -q g.txt -o - | cat >piped.lgr)
check "binary through a pipe: the same bytes" cmp -s g.lgr piped.lgr
expect "text to standard output" 0 "$(cat back.txt)\n" convert -q -f edges g.lgr -o -
refused "convert without -o" 2 "^loopy convert: an output is required: -o FILE, or -o - for standard output$" \
    convert g.txt
if command -v script >/dev/null 2>&1; then
    script -qec "\"$LOOPY\" convert g.txt -o -; echo status \$?" /dev/null \
        </dev/null >tty.out 2>&1
    check "binary to a terminal: refused" grep -q \
        "standard output is a terminal: binary data is not written to it" tty.out
    check "binary to a terminal: exit 2" grep -q "status 2" tty.out
    check "binary to a terminal: nothing written" test "$(grep -c LGR tty.out)" -eq 0
    script -qec "\"$LOOPY\" convert -q -f edges g.lgr -o -; echo status \$?" /dev/null \
        </dev/null >tty.out 2>&1
    check "text to a terminal" grep -q "status 0" tty.out
else
    echo "compressed.sh: no script program: the terminal cases are not tested"
fi

# The examples of 'loopy convert --help'.
cp g.txt big.txt
expect "help example 1" 0 "" convert -q big.txt -o big.lgr
expect "help example 1, solve" 0 "" solve -q big.lgr -o big.out
check "help example 1: output" cmp -s big.out plain.out
cp snap.txt.gz web-Google.txt.gz
expect "help example 2" 0 "" convert -q -i pairs --base 0 web-Google.txt.gz -o web.lgr
expect "README example" 0 "" solve --input pairs --base 0 web-Google.txt.gz -o web.out
check "README example: its output" cmp -s web.out snap.want
(timeout "$limit" "$LOOPY" convert -f edges big.lgr -o - 2>/dev/null | head -n 2 >head.out)
same "help example 3" "$(cat head.out)" "$(printf '8 12\n1 2')"

finish compressed
