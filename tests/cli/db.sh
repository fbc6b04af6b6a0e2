#!/bin/sh
# db.sh - databases on the command line: 'loopy game solve -o FILE.ldb'
# and 'loopy solve -f ldb' write them (atomically, the same bytes every
# time), 'loopy game probe FILE.ldb' answers from them exactly as a probe
# that solves; bad files and bad uses are refused with a message, exit
# status 1 (2 for the command line, 3 for files), nothing on standard
# output and no partial output file.
#   LOOPY=build/loopy sh tests/cli/db.sh
# Prints "db: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

# no_temporary NAME: no .loopy-* file is left in the work folder.
no_temporary() {
    if ls -a "$work" | grep -q '^\.loopy-'; then fail "$1: a temporary file is left"; else pass; fi
}

# byte FILE OFFSET: the byte at OFFSET, in decimal.
byte() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; }
# u32 FILE OFFSET: the little-endian 32-bit number at OFFSET.
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
# flip FILE OFFSET: changes one bit of the byte at OFFSET, in place.
flip() {
    v=$(byte "$1" "$2")
    printf "\\$(printf %o $((v ^ 16)))" |
        dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# ---- game solve -o: the summary as before, and the database ----
for spec in tictactoe subtract:21,1,2,3 connect4:4x4 mnk:3,3,3; do
    f=$work/$(echo "$spec" | tr ':,' '__').ldb
    "$LOOPY" game solve -q "$spec" >"$work/plain.out" 2>"$work/err"
    (cd "$work" && "$LOOPY" game solve -q "$spec" -o "$f" >"$work/db.out" 2>"$work/err")
    check "$spec: solve -o exit status" test $? -eq 0
    check "$spec: the summary is unchanged" cmp -s "$work/plain.out" "$work/db.out"
    check "$spec: the database starts with its magic" \
        test "$(od -An -c -N4 "$f" | tr -d ' ')" = '211LDB'
    no_temporary "$spec: solve -o"
    "$LOOPY" game solve -q "$spec" -o "$f.again" -t 1 >/dev/null 2>&1
    check "$spec: the same bytes on one thread" cmp -s "$f" "$f.again"
    # -o FILE writes at offsets, a window of blocks at a time; a FIFO
    # takes the bytes in order.
    rm -f "$work/in_order.fifo"
    if mkfifo "$work/in_order.fifo" 2>/dev/null; then
        cat "$work/in_order.fifo" >"$work/in_order.ldb" &
        "$LOOPY" game solve -q "$spec" -o "$work/in_order.fifo" >/dev/null 2>&1
        wait
        check "$spec: the same bytes through a FIFO" cmp -s "$f" "$work/in_order.ldb"
    fi
done

# ---- probe FILE.ldb = probe GAME ----
# probes SPEC DB POSITION...: the same output from the database as from a
# solve, in text and JSON, from arguments and standard input.
probes() {
    spec=$1 db=$2
    shift 2
    for fmt in text json; do
        "$LOOPY" game probe -q -f $fmt "$spec" "$@" >"$work/solved" 2>"$work/err1"
        s1=$?
        "$LOOPY" game probe -q -f $fmt "$db" "$@" >"$work/fromdb" 2>"$work/err2"
        s2=$?
        if [ "$s1" -ne 0 ] || [ "$s2" -ne 0 ] || ! cmp -s "$work/solved" "$work/fromdb"; then
            fail "probe $spec ($fmt) $*: status $s1 / $s2: $(cat "$work/err2")"
            diff "$work/solved" "$work/fromdb" | head -n 5
        else
            pass
        fi
    done
    printf '%s\n' "$@" | "$LOOPY" game probe -q "$spec" - >"$work/solved" 2>&1
    printf '%s\n' "$@" | "$LOOPY" game probe -q "$db" - >"$work/fromdb" 2>&1
    check "probe $spec from standard input" cmp -s "$work/solved" "$work/fromdb"
}
probes tictactoe "$work/tictactoe.ldb"
probes tictactoe "$work/tictactoe.ldb" x../.../... x../.o./... xo./.x./..o xx./oo./x.. \
    ..x/.o./x.. xox/oxo/... xox/xoo/oxx
probes subtract:21,1,2,3 "$work/subtract_21_1_2_3.ldb" 21 20 17 8 4 1 0
probes connect4:4x4 "$work/connect4_4x4.ldb"
probes connect4:4x4 "$work/connect4_4x4.ldb" ..../..../..../x... ..../..../..../xo.. \
    o.../x.../o.../x... ..../..../..../xoxo ..../..../o.../xx..
probes mnk:3,3,3 "$work/mnk_3_3_3.ldb" x../.../... xo./.../...

# Misere play and no symmetry: the database records them.
"$LOOPY" game solve -q --misere tictactoe -o "$work/misere.ldb" >/dev/null 2>&1
"$LOOPY" game probe -q --misere tictactoe x../.o./... >"$work/solved" 2>&1
"$LOOPY" game probe -q "$work/misere.ldb" x../.o./... >"$work/fromdb" 2>&1
check "a misere database answers in misere play" cmp -s "$work/solved" "$work/fromdb"
"$LOOPY" game probe -q --misere "$work/misere.ldb" x../.o./... >"$work/fromdb" 2>&1
check "--misere with a misere database" cmp -s "$work/solved" "$work/fromdb"
"$LOOPY" game solve -q --no-symmetry tictactoe -o "$work/all.ldb" >/dev/null 2>&1
"$LOOPY" game probe -q "$work/all.ldb" ..x/.o./x.. >"$work/fromdb" 2>&1
"$LOOPY" game probe -q tictactoe ..x/.o./x.. >"$work/solved" 2>&1
check "a database without symmetry" cmp -s "$work/solved" "$work/fromdb"

# A position the solve did not reach: the same message either way.
"$LOOPY" game probe -q tictactoe xxx/ooo/... >/dev/null 2>"$work/err1"
s1=$?
"$LOOPY" game probe -q "$work/tictactoe.ldb" xxx/ooo/... >"$work/out" 2>"$work/err2"
s2=$?
check "an unreachable position: status" test "$s1" -eq 1 -a "$s2" -eq 1
check "an unreachable position: message" cmp -s "$work/err1" "$work/err2"
check "an unreachable position: nothing on standard output" test ! -s "$work/out"

# ---- loopy solve -f ldb ----
cat >"$work/g.txt" <<'TXT'
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
(cd "$work" && "$LOOPY" solve -q g.txt -o g.ldb 2>"$work/err")
check "solve -o FILE.ldb" test $? -eq 0
check "solve -o FILE.ldb writes a database" \
    test "$(od -An -c -N4 "$work/g.ldb" | tr -d ' ')" = '211LDB'
"$LOOPY" solve -q -f ldb "$work/g.txt" >"$work/g2.ldb" 2>"$work/err"
check "solve -f ldb to a redirected standard output" cmp -s "$work/g.ldb" "$work/g2.ldb"
"$LOOPY" solve -q -f ldb "$work/g.txt" -o "$work/g3.bin" 2>"$work/err"
check "solve -f ldb -o any name" cmp -s "$work/g.ldb" "$work/g3.bin"
"$LOOPY" solve -q -f text "$work/g.txt" -o "$work/text.ldb" 2>"$work/err"
"$LOOPY" solve -q "$work/g.txt" >"$work/text.out" 2>"$work/err"
check "-f text wins over the name .ldb" cmp -s "$work/text.out" "$work/text.ldb"
printf '2 1\n0 1\n' >"$work/g0.txt"
"$LOOPY" solve -q -f ldb --base 0 --misere "$work/g0.txt" -o "$work/g0.ldb" 2>"$work/err"
check "base and play are recorded" test "$(byte "$work/g0.ldb" 32)$(byte "$work/g.ldb" 32)$(byte "$work/g0.ldb" 20)" = 011
no_temporary "solve -o FILE.ldb"
if command -v script >/dev/null 2>&1; then
    script -qec "'$LOOPY' solve -q -f ldb '$work/g.txt'" /dev/null >"$work/tty" 2>&1
    s=$?
    check "solve -f ldb refuses a terminal" test "$s" -eq 2
    check "solve -f ldb to a terminal: the message" grep -q "not written to a terminal" "$work/tty"
    # -o naming a terminal: refused before the solve, nothing written.
    script -qec "'$LOOPY' solve -q -f ldb -o /dev/stdout '$work/g.txt'" /dev/null >"$work/tty" 2>&1
    s=$?
    check "solve -f ldb -o /dev/stdout on a terminal" test "$s" -eq 2
    check "solve -o /dev/stdout on a terminal: the message" \
        grep -q "/dev/stdout: a database is binary: not written to a terminal" "$work/tty"
    script -qec "'$LOOPY' game solve -q tictactoe -o /dev/stdout" /dev/null >"$work/tty" 2>&1
    s=$?
    check "game solve -o /dev/stdout on a terminal" test "$s" -eq 2
    check "game solve -o /dev/stdout on a terminal: the message" \
        grep -q "/dev/stdout: a database is binary: not written to a terminal" "$work/tty"
    check "game solve -o /dev/stdout on a terminal: nothing else" test "$(wc -l <"$work/tty")" -eq 1
fi
refused "a graph's database in game probe" 1 "a database of a graph's positions" \
    game probe g.ldb 1

# ---- Bad databases ----
cp "$work/tictactoe.ldb" "$work/block.ldb"
flip "$work/block.ldb" $(($(u32 "$work/tictactoe.ldb" 16) + 5))
refused "a damaged block" 1 "block.ldb: damaged loopy database: bad checksum of block 0" \
    game probe block.ldb
cp "$work/tictactoe.ldb" "$work/index.ldb"
size=$(wc -c <"$work/tictactoe.ldb")
flip "$work/index.ldb" $((size - 20))
refused "a damaged index" 1 "index.ldb: damaged loopy database: bad checksum of the block index" \
    game probe index.ldb
cp "$work/tictactoe.ldb" "$work/header.ldb"
flip "$work/header.ldb" 44
refused "a damaged header" 1 "damaged loopy database: bad header checksum" \
    game probe header.ldb
head -c $((size - 1)) "$work/tictactoe.ldb" >"$work/short.ldb"
refused "a truncated database" 1 "damaged loopy database: bad offset of the block index \(or a truncated" \
    game probe short.ldb
head -c 100 "$work/tictactoe.ldb" >"$work/stub.ldb"
refused "a database cut in its header" 1 "stub.ldb: truncated loopy database: 100 bytes, shorter than the smallest header" \
    game probe stub.ldb
printf '3 1\n1 2\n' >"$work/text.ldb"
refused "a text named .ldb" 1 "text.ldb: not a loopy database: bad magic bytes" game probe text.ldb
: >"$work/empty.ldb"
refused "an empty file named .ldb" 1 "not a loopy database: bad magic bytes" game probe empty.ldb
"$LOOPY" convert -q "$work/g.txt" -o "$work/graph.lgr" 2>/dev/null
cp "$work/graph.lgr" "$work/graph.ldb"
refused "a binary graph named .ldb" 1 "a loopy binary graph" game probe graph.ldb
refused "a missing .ldb" 3 "missing.ldb: cannot open the database: No such file or directory" game probe missing.ldb
mkdir -p "$work/folder.ldb"
refused "a folder named .ldb" 3 "folder.ldb: cannot open the database: Is a directory" game stats folder.ldb
cp "$work/subtract_21_1_2_3.ldb" "$work/sub.ldb"
refused "--misere with a normal-play database" 2 "--misere: the database was solved in normal play" \
    game probe --misere sub.ldb
# A shared object's game: its header names it, which is not built in, so
# --game names the object; it is checked against the database.
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>/dev/null; then
    (cd "$work" && "$LOOPY" game solve -q ./ladder.so:10 -o ladder.ldb >/dev/null 2>&1)
    refused "a database of a shared object's game, without --game" 2 \
        "ladder.ldb: the database holds ladder:10, which is not a built-in game: name its shared object with --game" \
        game probe ladder.ldb
    for p in 0 3 7 9 10; do
        (cd "$work" && "$LOOPY" game probe -q ./ladder.so:10 $p >"$work/solved" 2>&1)
        (cd "$work" && "$LOOPY" game probe -q --game ./ladder.so ladder.ldb $p >"$work/fromdb" 2>&1)
        check "probe --game ./ladder.so ladder.ldb $p" cmp -s "$work/solved" "$work/fromdb"
    done
    (cd "$work" && "$LOOPY" game probe -q -f json --game ./ladder.so:10 ladder.ldb 7 >"$work/fromdb" 2>&1)
    (cd "$work" && "$LOOPY" game probe -q -f json ./ladder.so:10 7 >"$work/solved" 2>&1)
    check "probe --game with its parameters, json" cmp -s "$work/solved" "$work/fromdb"
    # stats and play read the same database through --game.
    (cd "$work" && "$LOOPY" game stats --game ./ladder.so ladder.ldb >"$work/stats" 2>&1)
    check "stats --game names the game's notation" grep -q "ladder:10" "$work/stats"
    (cd "$work" && "$LOOPY" game stats ./ladder.so:10 >"$work/stats_solved" 2>&1)
    grep '^ *[0-9]' "$work/stats" >"$work/stats.rows"
    grep '^ *[0-9]' "$work/stats_solved" >"$work/stats_solved.rows"
    check "stats --game counts as a solve does" \
        cmp -s "$work/stats.rows" "$work/stats_solved.rows"
    check "stats --game has a table" test -s "$work/stats.rows"
    printf '1\n' | (cd "$work" && "$LOOPY" game play -q --game ./ladder.so ladder.ldb >"$work/play" 2>&1)
    check "play --game from the database" grep -q "Your move" "$work/play"
    refused "--game with other parameters" 2 "ladder.ldb: --game: the database holds ladder:10, not ladder:9" \
        game probe --game ./ladder.so:9 ladder.ldb 3
    refused "--game of another game" 2 "ladder.ldb: --game: the database holds ladder:10, not tictactoe" \
        game probe --game tictactoe ladder.ldb
    refused "--game that does not load" 3 "--game: ./nosuch.so: cannot load the game" \
        game probe --game ./nosuch.so ladder.ldb
    # --game gets the hints a GAME gets.
    refused "--game naming a shared object without a '/'" 2 \
        "^loopy game: --game: unknown game 'ladder.so': .*did you mean ./ladder.so\\?" \
        game probe --game ladder.so ladder.ldb 7
    refused "--game with a built-in game's name mistyped" 2 \
        "^loopy game: --game: unknown game 'tictacto' \\(did you mean tictactoe\\?\\)" \
        game probe --game tictacto ladder.ldb
    refused "--game without a database" 2 "--game: only probe, stats and play of a FILE.ldb take it" \
        game probe --game ./ladder.so ./ladder.so:10 3
    refused "--game with solve" 2 "--game: only probe, stats and play of a FILE.ldb take it" \
        game solve --game ./ladder.so ./ladder.so:10
    # The same name and parameters with another index space: the rules
    # changed since the database was written.
    sed 's/\.size = top + 1,/.size = top + 2,/' "$root/examples/ladder.c" >"$work/ladder2.c"
    cc -shared -fPIC -I"$root/include" "$work/ladder2.c" -o "$work/ladder2.so" 2>/dev/null
    refused "--game whose index space changed" 1 "ladder.ldb: --game: ladder numbers its positions below 12, the database below 11" \
        game probe --game ./ladder2.so ladder.ldb 3
    # A name a database cannot record is refused before the solve (which
    # would take minutes for a ladder of 10^9 rungs).
    long=ladder_with_a_name_longer_than_sixty_four_characters_0123456789abcdef
    sed "s/\"ladder\"/\"$long\"/" "$root/examples/ladder.c" >"$work/long.c"
    cc -shared -fPIC -I"$root/include" "$work/long.c" -o "$work/long.so" 2>/dev/null
    refused "a name too long for a database, before the solve" 1 \
        "out.ldb: the game's name is 69 characters long: a database records a name of 1 to 64" \
        game solve -q ./long.so:1000000000 -o out.ldb
    check "no file for a name too long" test ! -e "$work/out.ldb"
    (cd "$work" && "$LOOPY" game solve -q ./long.so:5 >/dev/null 2>&1)
    check "a name too long is fine without -o" test $? -eq 0
fi

# Options that say how to solve are refused with a database (it is read,
# not solved), or must agree with how it was solved.
refused "--solver with a database" 2 "sub.ldb: --solver: a database is read, not solved" \
    game probe --solver graph sub.ldb 21
refused "--solver retro with a database" 2 "--solver: a database is read, not solved" \
    game probe --solver retro sub.ldb 21
refused "--no-symmetry with a database of representatives" 2 \
    "tictactoe.ldb: --no-symmetry: the database holds one position per class of symmetric positions" \
    game probe --no-symmetry tictactoe.ldb
"$LOOPY" game probe -q --no-symmetry "$work/all.ldb" x../.../... >"$work/fromdb" 2>&1
"$LOOPY" game probe -q --no-symmetry tictactoe x../.../... >"$work/solved" 2>&1
check "--no-symmetry with a database without symmetry" cmp -s "$work/solved" "$work/fromdb"
# A misere database says so, as a misere solve does.
"$LOOPY" game probe -q "$work/misere.ldb" x../.o./... >"$work/fromdb" 2>&1
check "probe of a misere database marks it" grep -q '^x../.o./...: [WLTD].* (misere)$' "$work/fromdb"
"$LOOPY" game probe -q -f json "$work/misere.ldb" >"$work/fromdb" 2>&1
"$LOOPY" game probe -q -f json --misere tictactoe >"$work/solved" 2>&1
check "probe json of a misere database" grep -q '"misere": true' "$work/fromdb"
check "probe json of a misere database = misere solve" cmp -s "$work/solved" "$work/fromdb"
# Standard input: a bad line is named, nothing is printed.
printf 'x../.../...\n# comment\n\nnonsense\n' >"$work/positions"
refused "probe FILE.ldb: a bad line of standard input" 1 "^loopy game: <stdin>:4: 'nonsense' is not a position of tictactoe" \
    game probe -q tictactoe.ldb - <"$work/positions"

# ---- Bad uses; nothing left under the output's name ----
refused "-o with probe" 2 "-o: only 'solve' writes a database" \
    game probe tictactoe -o x.ldb
# A database by another name is said to be one, not taken for a shared
# object ("did you mean ./tcopy.db", which then fails to load).
cp "$work/tictactoe.ldb" "$work/tcopy.db"
refused "a database not named FILE.ldb" 2 \
    "unknown game 'tcopy.db': the file is a loopy database, which probe, stats, play and serve read by a name ending in .ldb" \
    game probe tcopy.db
# A database where a game is asked for (check, solve): what reads it.
refused "check of a database" 2 \
    "unknown game 'tictactoe.ldb': the file is a loopy database, which probe, stats, play and serve read; a game is" \
    game check tictactoe.ldb
refused "-o - " 2 "a database is binary" game solve tictactoe -o -
# The file standard output goes to, by any name: the summary would land
# in the database (-o /dev/stdout > t.ldb wrote a damaged one).
refused "-o /dev/stdout" 2 "-o /dev/stdout: .*standard output takes the summary" \
    game solve tictactoe -o /dev/stdout
refused "-o .out, standard output's own file" 2 "standard output takes the summary" \
    game solve tictactoe -o .out
(cd "$work" && "$LOOPY" game solve -q tictactoe -o err.ldb >/dev/null 2>err.ldb)
same "-o err.ldb 2> err.ldb: refused" "$?" 2
check "-o err.ldb 2> err.ldb: the message, not a database" grep -q "standard error, the messages" "$work/err.ldb"
(cd "$work" && "$LOOPY" game solve -q tictactoe -o /dev/stdout 2>piped.err | cat >piped.ldb)
check "-o /dev/stdout into a pipe: refused" grep -q "takes the summary" "$work/piped.err"
check "-o /dev/stdout into a pipe: nothing written" test ! -s "$work/piped.ldb"
(cd "$work" && "$LOOPY" game solve -q tictactoe -o /dev/null >/dev/null 2>&1)
same "-o /dev/null with standard output on /dev/null: a device takes both" "$?" 0
refused "a game that does not exist" 2 "unknown game 'nosuchgame'" \
    game solve nosuchgame -o out.ldb
check "no file for a failed solve" test ! -e "$work/out.ldb"
refused "an output folder that does not exist" 3 "cannot create" \
    game solve tictactoe -o nosuchdir/out.ldb
printf '3 1\n1 x\n' >"$work/bad.txt"
refused "a bad graph" 1 "bad.txt:2:3" solve -q bad.txt -o out.ldb
check "no file for a failed graph solve" test ! -e "$work/out.ldb"
cp "$work/tictactoe.ldb" "$work/keep.ldb"
refused "a failed solve keeps the old file" 2 "unknown game" \
    game solve nosuchgame -o keep.ldb
check "the old file is untouched" cmp -s "$work/tictactoe.ldb" "$work/keep.ldb"
no_temporary "failed runs"

# A database the file size limit stops (SIGXFSZ ignored: the write
# fails with EFBIG): exit 3, the reason, no file and no temporary one.
# The database, 259 KB, is past the limit (50 or 100 KB, as the shell
# counts); LLVM's libomp needs a few KB for its own shared-memory file.
# (Not under ThreadSanitizer, whose runtime faults under a size limit.)
if [ -z "${LOOPY_TEST_TSAN:-}" ]; then
    (cd "$work" && trap '' XFSZ && ulimit -f 100 &&
        exec "$LOOPY" game solve -q subtract:200000,1,2,3 -o efbig.ldb) \
        >"$work/out" 2>"$work/err"
    check "a database past the file size limit: exit 3" test $? -eq 3
    check "a database past the file size limit: the reason" \
        grep -q 'efbig.ldb: write failed: File too large' "$work/err"
    check "a database past the file size limit: no file" test ! -e "$work/efbig.ldb"
    no_temporary "a database past the file size limit"
fi

# A FIFO named like a database is refused at once, not waited on.
if mkfifo "$work/fifo.ldb" 2>/dev/null; then
    refused "a FIFO named .ldb" 3 "not a regular file" game probe fifo.ldb 21
    rm -f "$work/fifo.ldb"
fi

# ---- Help and man page ----
"$LOOPY" game --help >"$work/help" 2>&1
check "game --help names -o" grep -q -- "-o, --output FILE" "$work/help"
check "game --help names FILE.ldb" grep -q "GAME|FILE.ldb" "$work/help"
"$LOOPY" solve --help >"$work/help" 2>&1
check "solve --help names ldb" grep -q "ldb: a database" "$work/help"
check "the man page documents databases" grep -q "FILE.ldb" "$root/docs/loopy.1.md"

finish db
