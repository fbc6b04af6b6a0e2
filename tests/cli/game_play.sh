#!/bin/sh
# loopy game play: games scripted through a pipe.  The person playing the
# best move each time gets the value the solve promises, in exactly its
# remoteness of moves (tic-tac-toe: a tie in 9; subtract: known wins and
# losses, also in misere play); a blunder is punished and named in the
# summary; the board is drawn (ASCII, or Unicode pieces under a UTF-8
# locale); moves keep their numbers from turn to turn (a column, a cell)
# and are read by number, by name (a cell, a column, SAN, UCI) or as the
# position after them; hint, best, moves and undo; out-of-range numbers
# are "no move 99"; the summary (PGN for chess); bad answers are asked
# again; the end of the input, q, a database and a solve; bad uses
# refused; a write failure is exit status 3.
#   LOOPY=build/loopy sh tests/cli/game_play.sh
# Prints "game_play: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"
# play reads standard input: only what a test gives it.
exec </dev/null
# ASCII boards unless a test asks for UTF-8.
LC_ALL=C
export LC_ALL

# play NAME INPUT ARGS...: runs 'loopy game play -q ARGS' with INPUT (printf
# format) on standard input, into $work/.out; fails on a status but 0.
play() {
    name=$1 input=$2
    shift 2
    # shellcheck disable=SC2059
    printf "$input" | (cd "$work" && timeout 60 "$LOOPY" game play -q "$@" \
        >.out 2>.err)
    status=$?
    if [ "$status" -ne 0 ]; then
        fail "$name: exit status $status: $(cat "$work/.err")"
        return 1
    fi
    if [ -s "$work/.err" ]; then
        fail "$name: standard error: $(cat "$work/.err")"
        return 1
    fi
    return 0
}

# result: how the game ended; moves: how many moves were played; has
# NAME PATTERN: the output has a line matching the basic regular
# expression PATTERN.
result() { grep -E '^(Game over at|End of input|You stop the game)' "$work/.out" | tail -n 1; }
moves() { grep -c -E '^(You play|loopy plays) ' "$work/.out"; }
has() {
    if grep -q -e "$2" "$work/.out"; then pass; else fail "$1: no line '$2' in: $(cat "$work/.out")"; fi
}

best='best\nbest\nbest\nbest\nbest\nbest\nbest\nbest\nbest\nbest\nbest\nbest\nbest\n'

# ---- Tic-tac-toe: best play on both sides is a tie in 9 moves ----
"$LOOPY" game solve -q tictactoe -o "$work/t.ldb" >/dev/null || fail "solve tictactoe"
"$LOOPY" game solve -q subtract -o "$work/subtract.ldb" >/dev/null || fail "solve subtract"
for source in tictactoe t.ldb; do
    for side in "" --second; do
        if play "tictactoe $source $side" "$best" $side "$source"; then
            same "tictactoe $source $side: result" "$(result)" \
                "Game over at xxo/oox/xox: a tie."
            same "tictactoe $source $side: moves" "$(moves)" 9
            has "tictactoe $source $side: summary" \
                '^The game, 9 moves: 1\. a3 2\. b2 3\. b3 4\. c3 5\. a1 6\. a2 7\. c2 8\. b1 9\. c1$'
            has "tictactoe $source $side: no blunders" '^The value never changed: no blunders\.$'
        fi
    done
done
# The first turn draws the board with its cells' names, gives the value
# and numbers the nine cells across the rows from the top left.
if play "tictactoe first turn" '' tictactoe; then
    same "first turn" "$(sed -n 2,9p "$work/.out")" "
3 . . .
2 . . .
1 . . .
  a b c

Position .../.../...: T 9 (a tie in 9 moves with best play)
Moves: 1 a3  2 b3  3 c3  4 a2  5 b2  6 c2  7 a1  8 b1  9 c1"
    same "end of input" "$(result)" "End of input: the game is left unfinished."
fi
# Under a UTF-8 locale, an empty cell is a middle dot.
if LC_ALL=C.UTF-8 play "tictactoe in UTF-8" '' tictactoe; then
    same "UTF-8 board" "$(sed -n 3p "$work/.out")" "3 · · ·"
fi

# ---- Stable numbers, names, positions ----
# A cell keeps its number: b2 is 5 on every turn, a taken cell is no move.
if play "cells" '5\n5\nb2\n9\nc1\nq\n' tictactoe; then
    has "cells: 5 is b2" '^You play b2$'
    has "cells: a taken cell" '^no move 5: the moves are numbered as listed\.'
    has "cells: b2 by name, taken" '^no move b2: the cell is taken\.'
    has "cells: 9 is c1" '^You play c1$'
    has "cells: the list keeps its numbers" '^Moves: 2 b3  3 c3  4 a2  6 c2  7 a1  8 b1  9 c1$'
fi
# A column keeps its number; one past the board is "no move 9".
if play "columns" '2\n9\n0\nx\n2\n2\n2\nq\n' connect4:4x4; then
    has "columns: 2" '^You play 2$'
    has "columns: no move 9" '^no move 9: the columns are 1 to 4\.'
    has "columns: no move 0" '^no move 0: the columns are 1 to 4\.'
    has "columns: a word" '^expected a column, 1 to 4\.'
    has "columns: numbers alone" '^Moves: 1 2 3 4$'
    has "columns: the board's labels" '^1 2 3 4$'
    has "columns: a full column leaves the list" '^Moves: 1 3 4$'
fi
# Out-of-range numbers are "no move", also where positions are numbers.
if play "subtract numbers" '99\n7\nfoo\n2\nq\n' subtract 10; then
    has "subtract: the tokens taken" '^Moves: 1 take 1  2 take 2  3 take 3$'
    has "subtract: no move 99" '^no move 99: the moves are numbered as listed\.'
    has "subtract: no move 7" '^no move 7: the moves are numbered as listed\.'
    has "subtract: foo" '^no move foo here\.'
    has "subtract: 2 takes 2" '^You play take 2$'
    grep -q '^You play' "$work/.out" && [ "$(grep -c '^You play' "$work/.out")" = 1 ] &&
        pass || fail "subtract numbers: one move only"
fi
# The position after a move, in the game's notation, is that move.
if play "move by notation" "x.o/.o./..x\n$best" t.ldb x../.o./..x; then
    has "notation: the move" '^You play c3$'
    same "notation: result" "$(result | sed 's/.*: //')" "you lose, loopy wins."
fi
if play "not one move away" 'xxo/.o./..x\nq\n' tictactoe x../.o./..x; then
    has "not one move away" "^'xxo/.o./..x' is not one move from here\."
fi

# ---- hint, best, moves, undo ----
if play "hint" 'hint\nmoves\nundo\nb2\nundo\nq\n' tictactoe x../.../...; then
    has "hint: the best move" '^Hint: 5 (b2), T 8: a tie in 8 moves with best play\.$'
    has "moves: best first" '^    5\. b2  T 8$'
    has "moves: a loss" '^    2\. b3  L 6$'
    has "undo: nothing yet" '^Nothing to undo: you have made no move yet\.$'
    has "undo: a pair" "^You take back b2 and loopy's "
    same "undo: back at the start" "$(grep -c '^Position x\.\./\.\.\./\.\.\.:' "$work/.out")" 2
fi

# ---- A blunder is punished, and named ----
# After x../.o./..x the person (o) may take a corner, which loses in 4.
if play "blunder" "c3\n$best" tictactoe x../.o./..x; then
    same "blunder: result" "$(result | sed 's/.*: //')" "you lose, loopy wins."
    same "blunder: moves" "$(moves)" 4
    has "blunder: where the value changed" '^Move 1, yours, c3: T 6 became L 4 for you: a blunder\.$'
    has "blunder: who" "^Blunders: yours 1, loopy's 0\.$"
fi

# ---- Subtract games: known values, in exactly their remoteness ----
# subtract:21,1,2,3: 21 is a W 11 (leave a multiple of 4); as second
# player the person loses in 11.
if play "subtract first" "$best" subtract; then
    same "subtract first: result" "$(result)" "Game over at 0: you win."
    same "subtract first: moves" "$(moves)" 11
fi
if play "subtract second" "$best" --second subtract; then
    same "subtract second: result" "$(result)" "Game over at 0: you lose, loopy wins."
    same "subtract second: moves" "$(moves)" 11
    has "subtract second: loopy's first move" '^loopy plays take 1 (W 11 for loopy)\.$'
fi
# From a given position: 8 is lost for the person (L 4: each side
# takes 2 at best), 9 won (W 5).
if play "subtract from 8" "$best" subtract 8; then
    same "subtract 8: result" "$(result)" "Game over at 0: you lose, loopy wins."
    same "subtract 8: moves" "$(moves)" 4
fi
if play "subtract from 9" "$best" subtract.ldb 9; then
    same "subtract 9: result" "$(result)" "Game over at 0: you win."
    same "subtract 9: moves" "$(moves)" 5
fi
# A heap alone takes 1, 2 or 3.
if play "subtract heap" "$best" subtract:5; then
    has "subtract:5" '^subtract:5,1,2,3: you play first'
    same "subtract:5: moves" "$(moves)" 3
fi
# Misere (taking the last token loses): the value from probe, and the
# game ends that way in that many moves.
value=$("$LOOPY" game probe -q --misere subtract 21 | awk 'NR == 1 { print $2, $3 }')
if play "subtract misere" "$best" --misere subtract; then
    want=$([ "${value% *}" = W ] && echo "you win." || echo "you lose, loopy wins.")
    same "misere: result" "$(result | sed 's/.*: //')" "$want"
    same "misere: moves" "$(moves)" "${value#* }"
fi

# ---- Chess: the board, SAN and UCI, a PGN at the end ----
"$LOOPY" game solve -q chess:KRK -o "$work/krk.ldb" >/dev/null || fail "solve chess:KRK"
if play "chess" 'b1b7\nKxb7\n' krk.ldb "k7/8/8/8/8/8/8/1R5K w"; then
    same "chess: the board" "$(sed -n 3,11p "$work/.out")" "8 k . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . . . . .
4 . . . . . . . .
3 . . . . . . . .
2 . . . . . . . .
1 . R . . . . . K
  a b c d e f g h"
    has "chess: UCI" '^You play Rb7$'
    has "chess: the moves by name" '^Moves: 1 Kg1  2 Kg2  3 Kh2  4 Ra1+  5 Rb2 '
    same "chess: PGN" "$(sed -n '/^\[Event/,$p' "$work/.out")" '[Event "loopy game play"]
[White "you"]
[Black "loopy"]
[SetUp "1"]
[FEN "k7/8/8/8/8/8/8/1R5K w - - 0 1"]
[Result "1/2-1/2"]

1. Rb7 Kxb7 1/2-1/2
Move 1, yours, Rb7: W 19 became T 2 for you: a blunder.
Blunders: yours 1, loopy'"'"'s 0.'
fi
# SAN, its check sign optional; "chess" and a FEN alone open the FEN's
# material; Unicode pieces under UTF-8.
if LC_ALL=C.UTF-8 play "chess by FEN" 'Ra1\nq\n' chess "k7/8/8/8/8/8/8/1R5K w"; then
    has "chess by FEN: the ending" '^chess:KRK: you play first'
    has "chess by FEN: SAN without +" '^You play Ra1+$'
    has "chess by FEN: Unicode" '^1 · ♖ · · · · · ♔$'
    has "chess by FEN: unfinished" '^\[Result "\*"\]$'
fi
# Two moves into one class are two moves at the board (Ka2 and Qb5 here
# reach mirror images): each listed, each played as typed, SAN or UCI,
# and the board after it the one typed.
for typed in Qb5 e2b5; do
    if play "chess: twins, $typed" "moves\\n$typed\\nq\\n" chess "8/6k1/8/8/8/8/4Q3/1K6 w"; then
        has "chess: twins, $typed: Ka2 listed" '^Moves: .* Ka2 '
        has "chess: twins, $typed: Qb5 listed" '[0-9] Qb5\( \|$\)'
        has "chess: twins, $typed: played" '^You play Qb5$'
        has "chess: twins, $typed: the board after it" '^Position [^ ]*/1Q6/8/8/8/1K6 w:'
        same "chess: twins, $typed: 'moves' lists all 28" \
            "$(grep -c -E '^ +[0-9]+\. [KQ]' "$work/.out")" 28
    fi
done
# The board after a twin, typed, is that move too.
if play "chess: twins, by the board after" '8/6k1/8/1Q6/8/8/8/1K6 b\nq\n' chess "8/6k1/8/8/8/8/4Q3/1K6 w"; then
    has "chess: twins, by the board after: played" '^You play Qb5$'
fi
if play "chess as black" "best\nq\n" --second krk.ldb "k7/8/8/8/8/8/8/1R5K w"; then
    has "chess as black: the tags" '^\[White "loopy"\]$'
fi
# Pawns: a promotion named without its piece is asked again, with the
# reason; PGN's FEN gets its six fields, and the moves the FEN's number.
if play "chess: a pawn" 'g8\ng8=Q\nq\n' chess "8/6P1/8/k7/8/8/8/K7 w - - 3 40 "; then
    has "chess: a pawn: the piece asked for" '^g8: a pawn that reaches the last rank becomes a queen, rook, bishop or knight: say which (g8=Q or g7g8q)'
    has "chess: a pawn: promoted" '^You play g8=Q$'
    has "chess: a pawn: PGN's FEN" '^\[FEN "8/6P1/8/k7/8/8/8/K7 w - - 3 40"\]$'
    has "chess: a pawn: numbered from the FEN's move" '^40\. g8=Q '
fi
# A change of value is numbered as the movetext numbers it: black's move
# 12 is "Move 12...", not the game's first ply.
if play "chess: black's blunder" 'Rb1\nq\n' chess "k7/8/8/8/8/8/1r6/K7 b - - 0 12"; then
    has "chess: black's blunder: the movetext" '^12\.\.\. Rb1+ 13\. Kxb1 1/2-1/2$'
    has "chess: black's blunder: its number" '^Move 12\.\.\., yours, Rb1+: W [0-9]* became T 2 for you: a blunder\.$'
fi

# ---- Bad answers are asked again ----
if play "bad answers" "foo\n0\n99\n\n?\n5\nq\n" subtract 10; then
    same "prompts" "$(grep -c -o 'Your move (a number or a move' "$work/.out")" 7
    has "help" '^Answer with a move.s number'
    same "quit" "$(result)" "You stop the game."
    grep -q '^You play' "$work/.out" && fail "bad answers: a move was played" || pass
fi

# ---- Draws: the example game with cycles ----
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>"$work/cc.err"; then
    if play "ladder" "$best" ./ladder.so:10; then
        has "ladder: a note on the draw" '^Neither side can force a result'
        same "ladder: one note" "$(grep -c '^Neither side' "$work/.out")" 1
        same "ladder: ends with the input" "$(result)" \
            "End of input: the game is left unfinished."
        has "ladder: the moves as positions" '^Moves: 1 0  2 3$'
    fi
else
    fail "examples/ladder.c does not build: $(cat "$work/cc.err")"
fi

# ---- Bad uses ----
refused "illegal position" 1 'both x and o' game play t.ldb xxx/ooo/...
refused "bad position" 1 'tictactoe' game play tictactoe xyz
refused "json" 2 'not available' game play -f json tictactoe
refused "dot" 2 'not available|only .probe.' game play -f dot tictactoe
refused "two positions" 2 'one POSITION' game play subtract 3 4
refused "--second elsewhere" 2 'only .play.' game probe --second subtract
refused "no game" 2 'expected a GAME' game play
printf '2 1\n1 2\n' >"$work/g.txt"
"$LOOPY" solve -q "$work/g.txt" -o "$work/g.ldb" || fail "solve g.txt"
refused "graph database" 1 'graph' game play g.ldb
if [ -w /dev/full ]; then
    printf "$best" | "$LOOPY" game play -q subtract >/dev/full 2>"$work/.err"
    status=$?
    same "write failure: status" "$status" 3
    grep -q 'write failed' "$work/.err" && pass || fail "write failure: no message"
fi

finish game_play
