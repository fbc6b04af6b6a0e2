#!/bin/sh
# Games and databases that attack loopy (issue #23): a database whose
# parameters would name another object to load, output onto a file being
# read (the game's shared object, the database, --game, standard input),
# a game's text callbacks that write no NUL, claim lengths past their
# buffer or write control characters and bytes that are not UTF-8, absurd
# sizes from callbacks (named in the message), and a NUL inside a move.
# The game is tests/games/hostile.c.  Under AddressSanitizer an over-read
# of a game's text is a crash here.
#   LOOPY=build/loopy sh tests/cli/hostile.sh
# Prints "hostile: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

cc -shared -fPIC -I"$root/include" "$root/tests/games/hostile.c" \
    -o "$work/hostile.so" 2>"$work/cc.err" || {
    fail "tests/games/hostile.c does not build: $(cat "$work/cc.err")"
    finish hostile
    exit 1
}
cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>>"$work/cc.err" || fail "examples/ladder.c does not build"

# ---- 1. A database never chooses what is loaded ----
# An object whose loading leaves a mark: named so that the database's
# parameters "x:y" joined to --game ./hostile.so would read as the object
# ./hostile.so:x with the parameters y.
cat >"$work/evil.c" <<'END'
#include <stdio.h>
__attribute__((constructor)) static void mark(void)
{
    FILE *f = fopen("LOADED", "w");
    if (f != NULL)
        fclose(f);
}
END
cc -shared -fPIC "$work/evil.c" -o "$work/hostile.so:x" 2>>"$work/cc.err" ||
    fail "evil.c does not build"
(cd "$work" && "$LOOPY" game solve -q ./hostile.so:colon -o colon.ldb >/dev/null 2>&1)
check "a database with parameters x:y" test -s "$work/colon.ldb"
for action in probe stats play; do
    args=
    [ "$action" = stats ] || args=0
    refused "$action --game: the database's parameters are the game's, not a path" 1 \
        "colon.ldb: --game: the game refuses the database's parameters 'x:y'" \
        game "$action" --game ./hostile.so colon.ldb $args
    check "$action --game: nothing else was loaded" test ! -e "$work/LOADED"
done
expect "probe --game with the database's own parameters" 0 '0: D (a note)\n  +1  D (a note)\n' \
    game probe -q --game ./hostile.so:colon colon.ldb 0

# ---- 2. No output onto a file being read ----
cp "$work/ladder.so" "$work/ladder.keep"
refused "solve -o onto the game's object" 2 "the output would overwrite the input file ./ladder.so" \
    game solve ./ladder.so:10 -o ladder.so
refused "solve -o onto the game's object, by another name" 2 "would overwrite the input file" \
    game solve ./ladder.so:10 -o ./ladder.so
ln -s ladder.so "$work/link.so"
refused "solve -o onto the game's object, through a link" 2 "would overwrite the input file" \
    game solve ./ladder.so:10 -o link.so
refused "probe -o onto the game's object" 2 "would overwrite the input file" \
    game probe ./ladder.so:10 3 -o ladder.so
refused "check -o onto the game's object" 2 "would overwrite the input file" \
    game check ./ladder.so:10 -o ladder.so
refused "stats -o onto the game's object" 2 "would overwrite the input file" \
    game stats ./ladder.so:10 -o ladder.so
(cd "$work" && "$LOOPY" game solve -q ./ladder.so:10 -o ladder.ldb >/dev/null 2>&1)
refused "probe --game -o onto --game's object" 2 "would overwrite the input file" \
    game probe --game ./ladder.so:10 ladder.ldb 3 -o ladder.so
refused "stats --game -o onto --game's object" 2 "would overwrite the input file" \
    game stats --game ./ladder.so ladder.ldb -o ladder.so
check "the game's object is unchanged" cmp -s "$work/ladder.so" "$work/ladder.keep"
printf '3\n' >"$work/positions"
(cd "$work" && "$LOOPY" game probe ./ladder.so:10 - -o positions <positions >.out 2>.err)
check "probe -o onto standard input's file: refused" grep -q "would overwrite the input file (standard input)" "$work/.err"
check "probe -o onto standard input's file: kept" test "$(cat "$work/positions")" = 3

# ---- 3. A game's words are guarded ----
# Every line loopy prints of a hostile game's text: printable (no byte
# below 0x20 but the newline, no DEL), valid UTF-8, and bounded.
guarded() { # guarded NAME FILE
    if LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$2"; then
        fail "$1: a control character reaches the output"
    elif command -v iconv >/dev/null 2>&1 && ! iconv -f UTF-8 -t UTF-8 "$2" >/dev/null 2>&1; then
        fail "$1: the output is not valid UTF-8"
    elif [ "$(awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }' "$2")" -gt 2000 ]; then
        fail "$1: a line longer than the buffers it came from"
    else
        pass
    fi
}
for mode in unterminated overlong control; do
    (cd "$work" && "$LOOPY" game probe -q ./hostile.so:$mode 0 1 >.out 2>.err)
    check "probe $mode: status" test $? -eq 0
    guarded "probe $mode" "$work/.out"
    (cd "$work" && "$LOOPY" game probe -q -f json ./hostile.so:$mode 0 >.out 2>.err)
    guarded "probe -f json $mode" "$work/.out"
    if command -v python3 >/dev/null 2>&1; then
        check "probe -f json $mode: valid JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$work/.out"
    fi
    (cd "$work" && printf '1\n1\n1\n1\nq\n' | "$LOOPY" game play -q ./hostile.so:$mode >.out 2>.err)
    guarded "play $mode" "$work/.out"
    (cd "$work" && "$LOOPY" game solve -q ./hostile.so:$mode -o $mode.ldb >/dev/null 2>&1 &&
        "$LOOPY" game stats --game ./hostile.so:$mode $mode.ldb >.out 2>.err)
    guarded "stats $mode" "$work/.out"
done
(cd "$work" && "$LOOPY" game probe -q ./hostile.so:control 0 >.out 2>.err)
check "control: the game's plain words survive" grep -q "ok" "$work/.out"

# ---- 8. Absurd sizes name the callback ----
# The allocation fails, as it does without a sanitizer, rather than
# AddressSanitizer or ThreadSanitizer stopping the program at a request
# that large (TSAN_OPTIONS is a list separated by spaces).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1
TSAN_OPTIONS=${TSAN_OPTIONS:+$TSAN_OPTIONS }allocator_may_return_null=1
export ASAN_OPTIONS TSAN_OPTIONS
refused "moves() asks for 2^32 - 1 positions (solve)" 4 \
    "moves\(\) asks for room for 4294967295 positions: out of memory" \
    game solve ./hostile.so:bigmoves
refused "moves() asks for 2^32 - 1 positions (check)" 4 \
    "moves\(\) of position 0 asks for room for 4294967295 positions" \
    game check ./hostile.so:bigmoves
refused "format() says a huge length (check)" 4 \
    "format\(\) of position 0 says its text has [0-9]+ bytes" \
    game check ./hostile.so:bigformat
expect "format() says a huge length (probe: the text is cut to its buffer)" 0 \
    '0: D (a note)\n  +1  D (a note)\n' game probe -q ./hostile.so:bigformat 0
# A NUL in a move's line is not the move before it (probe refuses such
# lines too).
(cd "$work" && printf '1\0junk\nq\n' | "$LOOPY" game play ./hostile.so >.out 2>.err)
check "play: a NUL in the line is no move" grep -q "A NUL byte in the line: not a move" "$work/.out"
check "play: the move before the NUL was not made" grep -q "You stop the game" "$work/.out"
check "play: ... and no move was made" test "$(grep -c "You play" "$work/.out")" -eq 0

finish hostile
