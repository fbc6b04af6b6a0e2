#!/bin/sh
# loopy game: the README's example game built as a shared object and
# solved, cross-checked against 'loopy solve' on the same game written out
# as a graph; list, probe and solve in both formats; bad specifications
# and positions (message, status, nothing on standard output).
#   LOOPY=build/loopy sh tests/cli/game.sh
# Prints "game: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

# ---- The example game of examples/ladder.c, as the README builds it ----
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>"$work/cc.err"; then
    pass
else
    fail "examples/ladder.c does not build: $(cat "$work/cc.err")"
fi
sed '/\.unmoves = unmoves,/d' "$root/examples/ladder.c" >"$work/ladder_nu.c"
cc -shared -fPIC -I"$root/include" -Wno-unused-function "$work/ladder_nu.c" \
    -o "$work/ladder-no-unmoves.so" 2>>"$work/cc.err" || fail "ladder without unmoves"
expect "ladder solve" 0 'ladder:10: 11 positions reached\n  W 1  L 1  T 0  D 9\n  start 0: D\n' \
    game solve -q ./ladder.so:10
# A game written for version 1 of loopy_game (before move_format and
# value_note) still loads, and is probed the same way.
sed 's/= LOOPY_GAME_VERSION,/= 1,/' "$root/examples/ladder.c" >"$work/ladder_v1.c"
cc -shared -fPIC -I"$root/include" "$work/ladder_v1.c" -o "$work/ladder-v1.so" 2>>"$work/cc.err" ||
    fail "ladder for version 1"
expect "a game of version 1" 0 '3: D\n  1  D\n  4  D\n' game probe -q ./ladder-v1.so:10 3
# A game's own solver is reached through its table (version 6's solve),
# not by the game's name: loopy game solve takes it by default.  A game of
# version 5 whose table has the same field set has none (the field is not
# its), and is solved through a graph.
{
    sed '/^static loopy_status create(/,$d' "$root/examples/ladder.c"
    cat <<'EOF'
static loopy_status own_solve(const loopy_game *game,
                              const struct loopy_game_solve_options *options,
                              struct loopy_game_solution **out,
                              loopy_diag *diag)
{
    (void)options;
    (void)out;
    snprintf(diag->message, sizeof diag->message,
             "%s: its own solver was called", game->name);
    return LOOPY_EGAME;
}

loopy_status own_value(void *ctx, loopy_position pos, const char *folder,
                       int symmetric, loopy_outcome *outcome,
                       uint32_t *remoteness, loopy_diag *diag);
loopy_status own_value(void *ctx, loopy_position pos, const char *folder,
                       int symmetric, loopy_outcome *outcome,
                       uint32_t *remoteness, loopy_diag *diag)
{
    (void)ctx, (void)pos, (void)folder, (void)symmetric, (void)outcome;
    (void)remoteness, (void)diag;
    return LOOPY_EINVAL;
}
EOF
    sed -n '/^static loopy_status create(/,$p' "$root/examples/ladder.c"
} | sed 's/        \.release = release,/        .release = release, .solve = own_solve,/' >"$work/ladder_own.c"
cc -shared -fPIC -I"$root/include" "$work/ladder_own.c" -o "$work/ladder-own.so" 2>>"$work/cc.err" ||
    fail "ladder with its own solver: $(cat "$work/cc.err")"
refused "a game's own solver, by its table" 1 "^loopy game: ladder: its own solver was called" \
    game solve -q ./ladder-own.so:10
# table_value without sub_table: a table that cannot be used.
sed 's/\.solve = own_solve,/.table_value = own_value,/' "$work/ladder_own.c" >"$work/ladder_tv.c"
cc -shared -fPIC -I"$root/include" "$work/ladder_tv.c" -o "$work/ladder-tv.so" 2>>"$work/cc.err" ||
    fail "ladder with table_value alone"
refused "table_value without sub_table" 1 \
    "ladder-tv.so: not a usable game: it has a table_value callback but no sub_table" \
    game solve -q ./ladder-tv.so:10
sed 's/= LOOPY_GAME_VERSION,/= 5,/' "$work/ladder_own.c" >"$work/ladder_own5.c"
cc -shared -fPIC -I"$root/include" "$work/ladder_own5.c" -o "$work/ladder-own5.so" 2>>"$work/cc.err" ||
    fail "ladder of version 5 with a solve field"
expect "version 5: no solver of its own" 0 'ladder:10: 11 positions reached\n  W 1  L 1  T 0  D 9\n  start 0: D\n' \
    game solve -q ./ladder-own5.so:10
# The same game as a graph: positions 0..TOP are vertices 1..TOP+1 (text
# numbering); TOP is lost for the player to move there (--lose-at).
for top in 1 2 3 7 10 25; do
    awk -v t="$top" 'BEGIN { m = 0
        for (p = 0; p < t; p++) { if (p + 1 <= t) e[m++] = (p + 1) " " (p + 2)
                                  if (p >= 2) e[m++] = (p + 1) " " (p - 1) }
        print t + 1, m; for (i = 0; i < m; i++) print e[i] }' >"$work/ladder$top.txt"
    "$LOOPY" solve -q --lose-at $((top + 1)) "$work/ladder$top.txt" |
        awk '{ printf "%d %s %s\n", $1 - 1, $2, $3 }' >"$work/want$top"
    : >"$work/got$top"
    p=0
    while [ "$p" -le "$top" ]; do
        (cd "$work" && "$LOOPY" game probe -q ./ladder.so:"$top" "$p") |
            awk -v p="$p" 'NR == 1 { sub(":", "", $2); v = $2; r = $3
                if (v == "D") r = "-"; print p, v, r }' >>"$work/got$top"
        p=$((p + 1))
    done
    if cmp -s "$work/want$top" "$work/got$top"; then pass; else
        fail "ladder:$top differs from loopy solve on its graph:"
        diff "$work/want$top" "$work/got$top" | head -n 10
    fi
done

# ---- Built-in games (the README's examples first) ----
expect "README: subtract solve" 0 'subtract:21,1,2,3: 22 positions reached\n  W 16  L 6  T 0  D 0\n  start 21: W 11\n' \
    game solve -q subtract:21,1,2,3
expect "subtract probe" 0 '21: W 11\n  20  W 11\n  18  L 10\n  19  L 10\n' \
    game probe -q subtract 21
expect "subtract probe json" 0 '[{"position": "4", "misere": false, "value": "L", "remoteness": 2, "moves": [{"to": "1", "value": "L", "remoteness": 2}, {"to": "2", "value": "L", "remoteness": 2}, {"to": "3", "value": "L", "remoteness": 2}]}]\n' \
    game probe -q -f json subtract:4,1,2,3 4
expect "subtract solve json" 0 '{"game": "subtract", "parameters": "8,1,2", "misere": false, "symmetry": false, "solver": "graph", "solved": "reached", "index_size": 9, "positions": 9, "win": 6, "lose": 3, "tie": 0, "draw": 0, "start": {"position": "8", "value": "W", "remoteness": 5}}\n' \
    game solve -q -f json subtract:8,2,1
expect "subtract misere" 0 'subtract:5,1 (misere): 6 positions reached\n  W 3  L 3  T 0  D 0\n  start 5: L 5\n' \
    game solve -q --misere subtract:5,1
printf '3\n\n2\n' >"$work/positions"
expect "probe positions from standard input" 0 '3: W 1\n  0  W 1\n  1  L 2\n  2  L 2\n2: W 1\n  0  W 1\n  1  L 2\n' \
    game probe -q subtract:3,1,2,3 - <"$work/positions"
# Standard input: blank lines and lines starting with '#' are skipped, and
# blanks around a position; a bad line is named by its number, and nothing
# is printed, however many answers came before it (they are held back).
printf '# positions\n\n  3 \n\t# the end\n2\n' >"$work/positions"
expect "probe: comments and blanks on standard input" 0 '3: W 1\n  0  W 1\n  1  L 2\n  2  L 2\n2: W 1\n  0  W 1\n  1  L 2\n' \
    game probe -q subtract:3,1,2,3 - <"$work/positions"
printf '3\n# a comment\n\nx\n2\n' >"$work/positions"
refused "probe: a bad line of standard input" 1 "^loopy game: <stdin>:4: 'x' is not a position of subtract" \
    game probe -q subtract:3,1,2,3 - <"$work/positions"
awk 'BEGIN { for (i = 0; i < 3000; i++) print 21; print 99 }' >"$work/positions"
refused "probe: a bad line after 120 KB of answers" 1 "^loopy game: <stdin>:3001: '99' is not a position" \
    game probe -q subtract:21,1,2,3 - <"$work/positions"
printf '21\n1\0002\n' >"$work/positions"
refused "probe: a NUL byte on standard input" 1 "<stdin>:2: a NUL byte" \
    game probe -q subtract:21,1,2,3 - <"$work/positions"
# Misere play is marked on each position probed (as solve marks its summary).
expect "probe misere" 0 '2: W 2 (misere)\n  1  W 2\n' \
    game probe -q --misere subtract:2,1 2
expect "probe misere json" 0 '[{"position": "2", "misere": true, "value": "W", "remoteness": 2, "moves": [{"to": "1", "value": "W", "remoteness": 2}]}]\n' \
    game probe -q --misere -f json subtract:2,1 2
# The solver without moves: "solved" says which positions it counts.
expect "solve --solver retro json" 0 '{"game": "subtract", "parameters": "8,1,2", "misere": false, "symmetry": false, "solver": "retro", "solved": "reached", "index_size": 9, "positions": 9, "win": 6, "lose": 3, "tie": 0, "draw": 0, "start": {"position": "8", "value": "W", "remoteness": 5}}\n' \
    game solve -q -f json --solver retro subtract:8,2,1
"$LOOPY" game list >"$work/list" 2>&1 && pass || fail "game list"
for name in subtract tictactoe mnk connect4; do
    grep -q "^$name\$" "$work/list" && pass || fail "game list lacks $name"
done
"$LOOPY" game list -f json | grep -q '"name": "subtract"' && pass || fail "game list -f json"
refused "an empty game's name" 2 "no game named: the name is empty" game probe ''
# A printable byte of a bad position is shown as it is, a space too.
refused "a space in a position is shown" 1 \
    "row 3, column 4: expected 'x', 'o' or '.', found ' '" game probe tictactoe 'x../.../... '
# list reads no game: a game's options are refused, not ignored.
refused "list --misere" 2 "^loopy game: list: --misere is an option of a game's actions" game list --misere
refused "list --solver" 2 "list: --solver is an option" game list --solver retro
refused "list --all-legal" 2 "list: --all-legal is an option" game list --all-legal
refused "list --no-symmetry" 2 "list: --no-symmetry is an option" game list --no-symmetry
refused "list -t 2" 2 "list: --threads is an option" game list -t 2
refused "list -t 0 (the default, given)" 2 "list: --threads is an option" game list -t 0
refused "list -v" 2 "list: --verbose is an option" game list -v
refused "list --tables" 2 "list: --tables is an option" game list --tables .
"$LOOPY" game --help | grep -q "Usage: loopy game list" && pass || fail "game --help"

# The example of 'loopy game --help', as printed there.
"$LOOPY" game --help | sed -n '/^  \$ loopy game probe/,/^$/p' | sed '1d; $d; s/^  //' \
    >"$work/help_want"
(cd "$work" && "$LOOPY" game probe -q tictactoe x../.o./..x) >"$work/help_got"
if [ -s "$work/help_want" ] && cmp -s "$work/help_want" "$work/help_got"; then pass; else
    fail "the example of game --help:"
    diff "$work/help_want" "$work/help_got" | head -n 10
fi
expect "tic-tac-toe, every position" 0 'tictactoe: 5478 positions reached\n  W 2836  L 1574  T 1068  D 0\n  start .../.../...: T 9\n' \
    game solve -q --no-symmetry tictactoe
expect "tic-tac-toe by the solver without moves" 0 'tictactoe: 765 positions reached, up to symmetry\n  W 390  L 224  T 151  D 0\n  start .../.../...: T 9\n' \
    game solve -q --solver retro tictactoe
# Every legal index: tic-tac-toe's and Connect Four's legal() are exact,
# so as many positions as are reached.
expect "tic-tac-toe, every legal index" 0 'tictactoe: 765 positions solved (every legal index), up to symmetry\n  W 390  L 224  T 151  D 0\n  start .../.../...: T 9\n' \
    game solve -q --solver retro --all-legal tictactoe
expect "connect4 4x4, every legal index" 0 'connect4:4x4: 80541 positions solved (every legal index), up to symmetry\n  W 19341  L 16121  T 45079  D 0\n  start ..../..../..../....: T 16\n' \
    game solve -q --solver retro --all-legal connect4:4x4
expect "connect4 4x4, reached" 0 'connect4:4x4: 80541 positions reached, up to symmetry\n  W 19341  L 16121  T 45079  D 0\n  start ..../..../..../....: T 16\n' \
    game solve -q connect4:4x4
refused "all-legal through a graph" 2 "only --solver retro and tier" game solve --all-legal tictactoe
refused "bad solver" 2 "expected 'graph', 'retro', 'tier' or 'tablebase'" game solve --solver fast tictactoe
# The tier solver: Connect Four tier by tier (a tier a stone count), the
# same database, byte for byte, as the solver that stores no moves.
for opts in "" "--misere" "--no-symmetry" "--all-legal"; do
    # shellcheck disable=SC2086
    "$LOOPY" game solve -q $opts --solver tier connect4:4x4 -o "$work/tier.ldb" >/dev/null &&
        "$LOOPY" game solve -q $opts --solver retro connect4:4x4 -o "$work/retro.ldb" >/dev/null &&
        cmp -s "$work/tier.ldb" "$work/retro.ldb" && pass ||
        fail "connect4:4x4 $opts: --solver tier and --solver retro write different databases"
done
# m,n,k's tiers: a stone count each, as Connect Four's.
for spec in tictactoe mnk:3,4,3 mnk:2,5,2; do
    for opts in "" "--misere" "--no-symmetry" "--all-legal"; do
        # shellcheck disable=SC2086
        "$LOOPY" game solve -q $opts --solver tier $spec -o "$work/tier.ldb" >/dev/null &&
            "$LOOPY" game solve -q $opts --solver retro $spec -o "$work/retro.ldb" >/dev/null &&
            cmp -s "$work/tier.ldb" "$work/retro.ldb" && pass ||
            fail "$spec $opts: --solver tier and --solver retro write different databases"
    done
done
# Subtract's tiers run downwards: a block of heaps each, the least take.
"$LOOPY" game solve -q --solver tier subtract:500,3,4,9 -o "$work/tier.ldb" >/dev/null &&
    "$LOOPY" game solve -q --solver retro subtract:500,3,4,9 -o "$work/retro.ldb" >/dev/null &&
    cmp -s "$work/tier.ldb" "$work/retro.ldb" && pass ||
    fail "subtract:500,3,4,9: --solver tier and --solver retro write different databases"
expect "connect4 4x4 by tiers, json" 0 '{"game": "connect4", "parameters": "4x4", "misere": false, "symmetry": true, "solver": "tier", "solved": "reached", "index_size": 201755, "positions": 80541, "win": 19341, "lose": 16121, "tie": 45079, "draw": 0, "start": {"position": "..../..../..../....", "value": "T", "remoteness": 16}}\n' \
    game solve -q -f json --solver tier connect4:4x4
refused "tiers of a game without them" 2 "ladder: the game has no tiers" game solve --solver tier ./ladder.so:10
refused "retro without unmoves" 2 "no unmoves" game solve --solver retro ./ladder-no-unmoves.so

# Long parameters are never cut: the amounts up to 119 all stand in the name.
P=$(awk 'BEGIN { s = "200"; for (i = 1; i < 120; i++) s = s "," i; print s }')
"$LOOPY" game solve -q subtract:"$P" | head -n 1 | grep -q ',118,119: 201 positions' &&
    pass || fail "subtract's long parameters are cut in its name"
# A position given as an argument is read before the solve (7x6 Connect
# Four would take hours): the error comes at once.
refused "a bad position before the solve" 1 "is not a position of connect4" \
    game probe connect4 garbage

# ---- Chess: its own solver (the default), moves in SAN, depth to mate ----
expect "chess solve: the tablebase by default" 0 '{"game": "chess", "parameters": "KRK", "misere": false, "symmetry": true, "solver": "tablebase", "solved": "legal", "index_size": 60060, "positions": 50939, "win": 21959, "lose": 25260, "tie": 3720, "draw": 0, "start": {"position": "7k/8/8/8/8/8/8/K1R5 w", "value": "W", "remoteness": 19}}\n' \
    game solve -q -f json chess:KRK
# (Four-piece endings, byte for byte too: tests/test_chess_tables.c.)
"$LOOPY" game solve -q --solver tablebase chess:KRK -o "$work/tb.ldb" >/dev/null &&
    "$LOOPY" game solve -q --solver retro --all-legal chess:KRK -o "$work/rt.ldb" >/dev/null &&
    cmp -s "$work/tb.ldb" "$work/rt.ldb" && pass ||
    fail "chess:KRK: --solver tablebase and --solver retro --all-legal write different databases"
"$LOOPY" game solve -q chess:KRK -o "$work/krk.ldb" >/dev/null || fail "chess:KRK -o"
# OEIS A225552: Ka1 Rb2 - Kc3, mate in 16; the best moves in SAN.  The
# kings and the rook stand on the diagonal: Ra2 is Rb1 mirrored, Rb3 is
# Rc2, Ka2 is Kb1, one class each, and each of the 16 moves at the board
# is listed, the mirrored one after its class's own.
expect "chess probe: SAN and the depth to mate" 0 '8/8/8/8/8/2k5/1R6/K7 w: W 31 (mate in 16)\n  Rb1  W 31 (mate in 16)\n  Ra2  W 31 (mate in 16)\n  Rg2  W 31 (mate in 16)\n  Rb7  W 31 (mate in 16)\n  Rh2  W 31 (mate in 16)\n  Rb8  W 31 (mate in 16)\n  Kb1  W 31 (mate in 16)\n  Ka2  W 31 (mate in 16)\n  Re2  W 33 (mate in 17)\n  Rb5  W 33 (mate in 17)\n  Rf2  W 33 (mate in 17)\n  Rb6  W 33 (mate in 17)\n  Rc2+  T 2 (stalemate or dead material in 2 plies)\n  Rb3+  T 2 (stalemate or dead material in 2 plies)\n  Rd2  T 2 (stalemate or dead material in 2 plies)\n  Rb4  T 2 (stalemate or dead material in 2 plies)\n' \
    game probe -q krk.ldb "8/8/8/8/8/2k5/1R6/K7 w"
"$LOOPY" game probe -q -f json "$work/krk.ldb" "8/8/8/8/8/8/1Rk5/K7 b" >"$work/krk.json" &&
    grep -q '"value": "L", "remoteness": 32, "note": "mated in 16", "moves": \[{"to": "[^"]*", "move": "K[a-h][1-8]", "value"' "$work/krk.json" &&
    pass || fail "chess probe json: $(cat "$work/krk.json")"
# play: a move is taken by its name (the "+" may be left out), and the
# board stays the way it was given: h1 is no square of the triangle
# a1-d1-d4 that the index turns the white king to.
printf 'Rb7\nq\n' | (cd "$work" && "$LOOPY" game play -q krk.ldb "k7/8/8/8/8/8/8/1R5K w") >"$work/play.out" 2>&1 &&
    grep -q "^Position k7/8/8/8/8/8/8/1R5K w: W 19, mate in 10 " "$work/play.out" &&
    grep -q "^You play Rb7$" "$work/play.out" &&
    grep -q "^loopy plays Kxb7 (T 1, stalemate or dead material in 1 ply for loopy)\.$" "$work/play.out" &&
    grep -q "^Game over at 8/1k6/8/8/8/8/8/7K w: a tie\.$" "$work/play.out" && pass ||
    fail "chess play: a move by its name: $(cat "$work/play.out")"
printf 'Rb2+\nq\n' | (cd "$work" && "$LOOPY" game play -q krk.ldb "k7/8/8/8/8/8/8/1R5K w") >"$work/play.out" 2>&1 &&
    grep -q "^You play Rb2$" "$work/play.out" && pass ||
    fail "chess play: a move with a + it does not have: $(cat "$work/play.out")"
printf 'Qb3\nq\n' | (cd "$work" && "$LOOPY" game play -q krk.ldb "k7/8/8/8/8/8/8/1R5K w") >"$work/play.out" 2>&1 &&
    grep -q "no move Qb3 here" "$work/play.out" && pass ||
    fail "chess play: no such move: $(cat "$work/play.out")"
# probe keeps the board as given too, and names the moves on it.
same "chess probe: the board as given" \
    "$(cd "$work" && "$LOOPY" game probe -q krk.ldb "k7/8/8/8/8/8/8/1R5K w" | head -n 2)" \
    "$(printf 'k7/8/8/8/8/8/8/1R5K w: W 19 (mate in 10)\n  Kg1  W 19 (mate in 10)')"
# Two moves into one class (Ka2 and Qb5: mirror images) are both listed,
# with the board after each as typed.
same "chess probe: every move, twins too" \
    "$(cd "$work" && "$LOOPY" game probe -q chess "8/6k1/8/8/8/8/4Q3/1K6 w" | tail -n +2 | wc -l | tr -d ' ')" 28
same "chess probe: both twins" \
    "$(cd "$work" && "$LOOPY" game probe -q chess "8/6k1/8/8/8/8/4Q3/1K6 w" | grep -E '^  (Ka2|Qb5) ')" \
    "$(printf '  Ka2  W 17 (mate in 9)\n  Qb5  W 17 (mate in 9)')"
(cd "$work" && "$LOOPY" game probe -q -f json chess "8/6k1/8/8/8/8/4Q3/1K6 w") >"$work/twins.json" &&
    grep -q '"to": "8/6k1/8/1Q6/8/8/8/1K6 b", "move": "Qb5"' "$work/twins.json" &&
    grep -q '"to": "8/6k1/8/8/8/8/K3Q3/8 b", "move": "Ka2"' "$work/twins.json" && pass ||
    fail "chess probe json: the twins: $(cat "$work/twins.json")"
# A full FEN's fields: '-' for castling and en passant, numbers for the
# clocks, nothing after.
same "chess: a full FEN" \
    "$(cd "$work" && "$LOOPY" game probe -q krk.ldb "k7/8/8/8/8/8/8/1R5K w - - 0 1" | head -n 1)" \
    "k7/8/8/8/8/8/8/1R5K w - - 0 1: W 19 (mate in 10)"
refused "chess: an en passant square" 1 "en passant square must be '-'" \
    game probe krk.ldb "k7/8/8/8/8/8/8/1R5K w - e3 0 1"
refused "chess: a clock that is no number" 1 "halfmove clock, a number" \
    game probe krk.ldb "k7/8/8/8/8/8/8/1R5K w - - x 1"
refused "chess: a seventh field" 1 "at most 6 fields" \
    game probe krk.ldb "k7/8/8/8/8/8/8/1R5K w - - 0 1 extra"
refused "chess: --solver tablebase for a game without one" 2 "subtract: the game has no solver of its own" \
    game solve --solver tablebase subtract:5,1
refused "chess: --all-legal with --solver graph" 2 "all-legal" \
    game solve --solver graph --all-legal chess:KQK
refused "chess: six pieces" 2 "at most 5 pieces" game solve chess:KQRBKN

# ---- Refusals ----
refused "unknown game" 2 "unknown game 'nosuch'" game solve nosuch
refused "bad parameters" 2 "subtract: expected" game solve subtract:x
refused "missing object" 3 "cannot load the game" game solve ./nosuch.so
refused "not a game object" 1 "not a loopy game" game solve /lib/x86_64-linux-gnu/libm.so.6
refused "position out of range" 1 "not below the size" game probe subtract:5,1 9
refused "position not a number" 1 "expected a number" game probe subtract:5,1 x
refused "no action" 2 "expected an action" game
refused "unknown action" 2 "unknown action 'bogus'" game bogus subtract
refused "solve without a game" 2 "expected a GAME" game solve
refused "bad format" 2 "expected 'text', 'json' or 'dot'" game solve -f xml subtract

finish game
