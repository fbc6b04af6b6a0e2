#!/bin/sh
# loopy game play: games scripted through a pipe.  The person playing the
# best move each time gets the value the solve promises, in exactly its
# remoteness of moves (tic-tac-toe: a tie in 9; subtract: known wins and
# losses, also in misere play); a blunder is punished; bad answers are
# asked again; the end of the input, q, a database and a solve; bad uses
# refused; a write failure is exit status 3.
#   LOOPY=build/loopy sh tests/cli/game_play.sh
# Prints "game_play: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"
# play reads standard input: only what a test gives it.
exec </dev/null

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

# result: the last line of the game; moves: how many moves were played.
result() { tail -n 1 "$work/.out"; }
moves() { grep -c -E '^(You play|loopy plays) ' "$work/.out"; }

best='1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n1\n'

# ---- Tic-tac-toe: best play on both sides is a tie in 9 moves ----
"$LOOPY" game solve -q tictactoe -o "$work/t.ldb" >/dev/null || fail "solve tictactoe"
"$LOOPY" game solve -q subtract -o "$work/subtract.ldb" >/dev/null || fail "solve subtract"
for source in tictactoe t.ldb; do
    for side in "" --second; do
        if play "tictactoe $source $side" "$best" $side "$source"; then
            same "tictactoe $source $side: result" "$(result)" \
                "Game over at xxo/oox/xox: a tie."
            same "tictactoe $source $side: moves" "$(moves)" 9
        fi
    done
done
# The first turn shows the start, its value and the nine moves, each a
# tie in 9 for the person.
if play "tictactoe first turn" '' tictactoe; then
    same "first turn" "$(sed -n 3,12p "$work/.out")" "Position .../.../...: T 9 (a tie in 9 moves with best play)
   1. x../.../...  T 9
   2. .x./.../...  T 9
   3. ..x/.../...  T 9
   4. .../x../...  T 9
   5. .../.x./...  T 9
   6. .../..x/...  T 9
   7. .../.../x..  T 9
   8. .../.../.x.  T 9
   9. .../.../..x  T 9"
    same "end of input" "$(result)" "End of input: the game is left unfinished."
fi

# ---- A blunder is punished ----
# After x../.o./..x the person (o) may take a corner, which loses in 4:
# x.o/.o./..x is the fifth move listed (the moves are sorted best first).
if play "blunder" "5\n$best" tictactoe x../.o./..x; then
    grep -q '^   5\. x\.o/\.o\./\.\.x  L 4$' "$work/.out" && pass ||
        fail "blunder: the corner is not listed as L 4"
    same "blunder: result" "$(result | sed 's/.*: //')" "you lose, loopy wins."
    same "blunder: moves" "$(moves)" 4
fi
# The same position typed in the game's notation instead of its number.
if play "move by notation" "x.o/.o./..x\n$best" t.ldb x../.o./..x; then
    grep -q '^You play x\.o/\.o\./\.\.x$' "$work/.out" && pass ||
        fail "move by notation not taken"
    same "notation: result" "$(result | sed 's/.*: //')" "you lose, loopy wins."
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
    grep -q '^loopy plays 20 (W 11 for loopy)\.$' "$work/.out" && pass ||
        fail "subtract second: loopy's first move is not 20"
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
# Misere (taking the last token loses): the value from probe, and the
# game ends that way in that many moves.
value=$("$LOOPY" game probe -q --misere subtract 21 | awk 'NR == 1 { print $2, $3 }')
if play "subtract misere" "$best" --misere subtract; then
    want=$([ "${value% *}" = W ] && echo "you win." || echo "you lose, loopy wins.")
    same "misere: result" "$(result | sed 's/.*: //')" "$want"
    same "misere: moves" "$(moves)" "${value#* }"
fi

# ---- Bad answers are asked again ----
if play "bad answers" "foo\n0\n99\n\n?\n5\nq\n" subtract 10; then
    same "prompts" "$(grep -o 'Your move (1-3' "$work/.out" | wc -l | tr -d ' ')" 7
    grep -q "'foo' is not a position of subtract" "$work/.out" && pass ||
        fail "bad answers: no message for foo"
    grep -q "^'5' is not one move from here" "$work/.out" && pass ||
        fail "bad answers: no message for a position not one move away"
    grep -q '^Answer with the number of a move' "$work/.out" && pass ||
        fail "bad answers: no help"
    same "quit" "$(result)" "You stop the game."
    grep -q '^You play' "$work/.out" && fail "bad answers: a move was played" || pass
fi

# ---- Draws: the example game with cycles ----
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>"$work/cc.err"; then
    if play "ladder" "$best" ./ladder.so:10; then
        grep -q '^Neither side can force a result' "$work/.out" && pass ||
            fail "ladder: no note on the draw"
        same "ladder: one note" "$(grep -c '^Neither side' "$work/.out")" 1
        same "ladder: ends with the input" "$(result)" \
            "End of input: the game is left unfinished."
    fi
else
    fail "examples/ladder.c does not build: $(cat "$work/cc.err")"
fi

# ---- Bad uses ----
refused "illegal position" 1 'both x and o' game play t.ldb xxx/ooo/...
refused "bad position" 1 'tictactoe' game play tictactoe xyz
refused "json" 2 'not available' game play -f json tictactoe
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
