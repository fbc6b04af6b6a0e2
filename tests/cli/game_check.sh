#!/bin/sh
# loopy game check: the built-in games and the README's example game
# (examples/ladder.c built as a shared object) pass; games broken on
# purpose, built here as shared objects, fail with status 1, a message
# naming the first bad position on standard error and nothing on standard
# output; the options and their refusals.
#   LOOPY=build/loopy sh tests/cli/game_check.sh
# Prints "game_check: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

# ---- The example game, as the README builds it ----
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>"$work/cc.err"; then
    pass
else
    fail "examples/ladder.c does not build: $(cat "$work/cc.err")"
fi
expect "ladder" 0 'ladder:10: 11 positions checked (every legal index): moves and unmoves agree\n' \
    game check -q ./ladder.so:10
expect "ladder, from the start" 0 'ladder:25: 26 positions checked (all reachable from the start): moves and unmoves agree\n' \
    game check -q --positions reachable ./ladder.so:25
expect "ladder json" 0 '{"game": "ladder", "parameters": "7", "positions": "every", "complete": true, "checked": 8, "reachable": 0, "walked": 0, "drawn": 8, "checks": ["moves", "unmoves"]}\n' \
    game check -q -f json ./ladder.so:7

# ---- Broken on purpose: the ladder whose unmoves forget the move down ----
# (taking 2 from p + 2 reaches p, but unmoves(p) no longer says so).
sed 's/if (p + 2 < g->top)/if (p + 2 < g->top \&\& p != 3)/' \
    "$root/examples/ladder.c" >"$work/ladder_bad.c"
if cc -shared -fPIC -I"$root/include" "$work/ladder_bad.c" \
    -o "$work/ladder-bad.so" 2>"$work/cc.err" &&
    ! cmp -s "$root/examples/ladder.c" "$work/ladder_bad.c"; then
    pass
else
    fail "the broken ladder does not build: $(cat "$work/cc.err")"
fi
refused "a missing unmove" 1 \
    '^loopy game: ladder: position 5: moves\(\) reaches 3 but unmoves\(3\) does not give 5$' \
    game check ./ladder-bad.so:10
refused "a missing unmove, json" 1 'position 5: moves' \
    game check -f json ./ladder-bad.so:10

# A game of its own, with a notation that does not read back what it
# writes (position 2 is written "4"), and with moves out of range.
cat >"$work/twisted.c" <<'EOF'
#include "loopy_game.h"

#include <stdio.h>
#include <stdlib.h>

static int range_bug;

static loopy_primitive primitive(void *ctx, loopy_position p)
{
    (void)ctx;
    (void)p;
    return LOOPY_PLAYING;
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    size_t count = 0;
    (void)ctx;
    if (p > 0 && count++ < capacity)
        out[0] = p - 1;
    if (range_bug && p == 3 && count++ < capacity)
        out[count - 1] = 99;
    return count;
}

static size_t format(void *ctx, loopy_position p, char *out, size_t capacity)
{
    (void)ctx;
    return (size_t)snprintf(out, capacity, "#%d", (int)(p == 2 && !range_bug ? 4 : p));
}

static int parse(void *ctx, const char *text, loopy_position *pos, char *why,
                 size_t why_capacity)
{
    (void)ctx;
    if (text[0] != '#') {
        snprintf(why, why_capacity, "expected #N");
        return 1;
    }
    *pos = strtoull(text + 1, NULL, 10);
    return 0;
}

static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    (void)diag;
    range_bug = params != NULL && params[0] == 'r';
    *game = (loopy_game){.version = LOOPY_GAME_VERSION, .name = "twisted",
                         .size = 6, .start = 5, .primitive = primitive,
                         .moves = moves, .format = format, .parse = parse};
    return LOOPY_OK;
}

static const loopy_game_def definition = {
    .version = LOOPY_GAME_VERSION, .name = "twisted", .summary = "",
    .params_help = "", .notation_help = "#N", .create = create};

const loopy_game_def *loopy_game_definition(void);
const loopy_game_def *loopy_game_definition(void)
{
    return &definition;
}
EOF
if cc -shared -fPIC -I"$root/include" "$work/twisted.c" -o "$work/twisted.so" \
    2>"$work/cc.err"; then pass; else fail "twisted.c: $(cat "$work/cc.err")"; fi
refused "notation" 1 \
    "twisted: position 2 \(#4\): format\(\) writes '#4', which parse\(\) reads as 4 \(#4\)" \
    game check -q ./twisted.so
refused "out of range" 1 "position 3 \(#3\): moves\(\) gives 99, outside the index space 0 .. 5" \
    game check -q ./twisted.so:r

# ---- Built-in games ----
expect "tic-tac-toe" 0 'tictactoe: 5478 positions checked (every legal index): moves, unmoves, symmetry, notation and tiers agree\n' \
    game check -q tictactoe
expect "tic-tac-toe, without symmetry" 0 'tictactoe: 5478 positions checked (all reachable from the start): moves, unmoves, notation and tiers agree\n' \
    game check -q --no-symmetry --positions reachable tictactoe
# Chess's notation: each name and label read back as its move, and the
# other moves at a board into one class too (move_twin(): Qb4 beside
# Kb3 from 8/8/8/8/8/8/2KQ4/k7 w, mirror images).
expect "chess, its notation and twins" 0 'chess:KQK: 47061 positions checked (every legal index): moves, unmoves, symmetry, notation and tiers agree\n' \
    game check -q chess:KQK
expect "subtract" 0 'subtract:21,1,2,3: 22 positions checked (every legal index): moves, unmoves, notation and tiers agree\n' \
    game check -q subtract
expect "mnk, cut short" 0 'mnk:3,4,3: 2000 positions checked (1000 nearest the start, 1000 along random games): moves, unmoves, symmetry, notation and tiers agree\n' \
    game check -q --limit 1000 mnk:3,4,3
"$LOOPY" game check -q --positions sample --limit 200 --seed 5 mnk:4,4,4 >"$work/s1" &&
    "$LOOPY" game check -q --positions sample --limit 200 --seed 5 mnk:4,4,4 >"$work/s2" &&
    grep -q "random ones of" "$work/s1" && cmp -s "$work/s1" "$work/s2" && pass ||
    fail "sample: not repeatable: $(cat "$work/s1" "$work/s2")"
"$LOOPY" game check -q --positions walks --limit 300 tictactoe | grep -q "300 positions checked (along random games)" &&
    pass || fail "walks"
"$LOOPY" game check subtract:5,1 2>&1 >/dev/null | grep -q "checked in" && pass ||
    fail "the timing line"
"$LOOPY" game --help | grep -q "loopy game check \[OPTIONS\] GAME" && pass || fail "game --help lacks check"

# ---- Refusals ----
refused "bad positions" 2 "expected auto, every, reachable, sample or walks" \
    game check --positions some tictactoe
refused "bad limit" 2 "limit: expected a whole number" game check --limit 0 tictactoe
refused "check options elsewhere" 2 "only 'check' takes them" game solve --limit 5 tictactoe
refused "check without a game" 2 "expected a GAME" game check
refused "check with two games" 2 "takes one GAME" game check tictactoe subtract
refused "unknown game" 2 "unknown game 'nosuch'" game check nosuch
refused "check with --misere" 2 "check solves nothing" game check --misere tictactoe
refused "check with --solver" 2 "check solves nothing" game check --solver retro tictactoe

finish game_check
