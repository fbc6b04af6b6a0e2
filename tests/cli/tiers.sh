#!/bin/sh
# The tier solver with its work file on disk (loopy game solve --solver
# tier -o FILE: FILE.tiers, its journal and its park file of tiers
# compressed, FILE.tiers-parked): the database is byte for
# byte the retro solver's, and the work file is gone after; a solve killed
# with SIGKILL at random moments (twice a round: the first run and the
# first resume, until 20 kills (6 in a quick run or under a sanitizer),
# across the reach pass and the tiers)
# and resumed with --resume ends with the same bytes; a finished tier
# damaged in the work file or in the park file, a journal's last entry
# cut short, another game's or
# options' journal, a work file there without --resume and none with it;
# --memory refusals; the options' misuse; chess, whose tiers (its
# materials) have moves inside them, against the tablebase solver, and
# killed and resumed.
#   LOOPY=build/loopy sh tests/cli/tiers.sh
# Prints "tiers: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

cd "$work" || exit 1
game=connect4:5x4
want_kills=20
# Under a sanitizer or in a quick run, a smaller game (the kills are timed
# from one uninterrupted solve, whatever its length), and fewer kills.
if $quick; then
    game=connect4:4x4
    want_kills=6
fi

"$LOOPY" game solve -q --solver retro "$game" -o retro.ldb >/dev/null || fail "retro $game"
start=$(date +%s%N)
"$LOOPY" game solve -q --solver tier "$game" -o tier.ldb >tier.out 2>tier.err
same "tier: status" "$?" 0
ns=$(( $(date +%s%N) - start ))
cmp -s tier.ldb retro.ldb && pass || fail "$game: --solver tier -o and --solver retro -o differ"
[ -e tier.ldb.tiers ] || [ -e tier.ldb.tiers-journal ] ||
    [ -e tier.ldb.tiers-parked ] &&
    fail "the work file is left after the database is saved"
# Without -q: the working set is said before the solve.
"$LOOPY" game solve --solver tier connect4:4x4 -o said.ldb >/dev/null 2>said.err
grep -q "MB of records in memory at once (the largest tier and the tiers its moves reach; work file said.ldb.tiers)" said.err ||
    fail "no working set said: $(cat said.err)"

# -v: a line per tier, in the order solved, whose indices add up to the
# index space; standard error not a terminal: no progress line.
"$LOOPY" game solve -v --solver tier connect4:4x4 -o verbose.ldb >/dev/null 2>verbose.err
same "-v: status" "$?" 0
tiers=$(grep -c '^loopy game: tier [0-9]*/17: [0-9]* ind[a-z]* in [0-9.]* s' verbose.err)
same "-v: lines of tiers" "$tiers" 17
same "-v: the last tier" "$(grep '^loopy game: tier ' verbose.err | tail -n 1 | cut -d: -f2)" " tier 17/17"
sum=$(sed -n 's/^loopy game: tier [0-9]*\/17: \([0-9]*\) ind.*/\1/p' verbose.err | awk '{ s += $1 } END { print s }')
"$LOOPY" game stats retro.ldb >verbose.stats
same "-v: the tiers' indices" "$sum" "$("$LOOPY" game stats verbose.ldb | sed -n 's/^  index space *//p')"
grep -q "$(printf '\r')" verbose.err && fail "-v: a progress line on a file"
grep -q '^loopy game: [0-9]* positions solved in [0-9.]* s ([0-9.]* M/s); the working set, [0-9.]* MB, is [0-9.]* bytes per position solved$' verbose.err &&
    pass || fail "-v: no working set per position: $(tail -n 2 verbose.err)"
"$LOOPY" game solve -q -v --solver tier connect4:4x4 -o verbose2.ldb >/dev/null 2>verbose2.err
same "-q -v: lines of tiers" "$(grep -c '^loopy game: tier ' verbose2.err)" 17
cmp -s verbose.ldb verbose2.ldb && pass || fail "-v changed the database"

# entries KIND: the journal's entries of that kind (48 bytes each after
# 384 of header; the kind is the first 4 bytes: 1 reached, 2 done, 3
# parked).
entries() {
    od -An -tu4 -v -j384 -w48 k.ldb.tiers-journal 2>/dev/null |
        awk -v k="$1" '$1 == k { n++ } END { print n + 0 }'
}
# ---- Killed at random moments, resumed ----
# kill_at NS TOP: runs the solve (with --resume when any of its work files
# is there: a journal, or what a solve killed after its database was
# written leaves)
# and kills it with SIGKILL after a random part (below TOP) of NS
# nanoseconds.
kill_at() {
    resume=
    [ -n "$(ls k.ldb.tiers* 2>/dev/null)" ] && resume=--resume
    "$LOOPY" game solve -q $resume --solver tier "$game" -o k.ldb >/dev/null 2>&1 &
    p=$!
    frac=$(awk -v s="$seed" -v top="$2" 'BEGIN { srand(s); printf "%.3f", rand() * top }')
    seed=$((seed + 1))
    sleep "$(awk -v n="$1" -v f="$frac" 'BEGIN { printf "%.3f", n * f / 1e9 }')"
    kill -9 "$p" 2>/dev/null && kills=$((kills + 1))
    wait "$p" 2>/dev/null
}
seed=${SEED:-$$}
echo "tiers: kill seed $seed, an uninterrupted solve of $game takes $((ns / 1000000)) ms"
kills=0
mid=0
early=0
round=0
while [ "$kills" -lt "$want_kills" ] && [ "$round" -lt 40 ]; do
    round=$((round + 1))
    rm -f k.ldb*
    kill_at "$ns" 0.9
    kill_at "$ns" 0.6
    # A journal past its header and its "reached" entry: killed between
    # finished tiers.
    if [ "$(entries 2)" -gt 0 ]; then
        mid=$((mid + 1))
    fi
    if [ -n "$(ls k.ldb.tiers* 2>/dev/null)" ]; then
        "$LOOPY" game solve -q --resume --solver tier "$game" -o k.ldb >/dev/null 2>k.err
        same "round $round: resumed: status" "$?" 0
    elif [ ! -e k.ldb ]; then
        # Both kills came before the journal was made (a slow start under
        # a sanitizer): nothing to resume, a new solve.
        early=$((early + 1))
        "$LOOPY" game solve -q --solver tier "$game" -o k.ldb >/dev/null 2>k.err
        same "round $round: solved again: status" "$?" 0
    fi
    cmp -s k.ldb retro.ldb && pass || fail "round $round: the resumed solve's database differs"
done
echo "tiers: $kills kills in $round rounds, $mid with finished tiers in the journal, $early with both kills before the journal"
[ "$kills" -ge "$want_kills" ] && pass || fail "only $kills solves of $((2 * round)) were killed before they ended"

# ---- Tiers whose moves stay inside them: chess ----
# A tier per material, each solved by retrograde analysis within it: the
# database of every legal position is the tablebase solver's, byte for
# byte; killed inside the material's tier (after its reach, before its
# end) and resumed, the same again.
chess=chess:KQK
$quick || chess=chess:KRK
"$LOOPY" game solve -q "$chess" -o table.ldb >/dev/null || fail "tablebase $chess"
start=$(date +%s%N)
"$LOOPY" game solve -q --solver tier --all-legal "$chess" -o ctier.ldb >/dev/null 2>ctier.err
same "$chess tier: status" "$?" 0
cns=$(( $(date +%s%N) - start ))
cmp -s ctier.ldb table.ldb && pass || fail "$chess: --solver tier and the tablebase differ"
ckills=0
for frac in 0.3 0.5 0.7 0.9; do
    rm -f c.ldb*
    "$LOOPY" game solve -q --solver tier --all-legal "$chess" -o c.ldb >/dev/null 2>&1 &
    p=$!
    sleep "$(awk -v n="$cns" -v f="$frac" 'BEGIN { printf "%.3f", n * f / 1e9 }')"
    kill -9 "$p" 2>/dev/null && ckills=$((ckills + 1))
    wait "$p" 2>/dev/null
    if [ -e c.ldb.tiers-journal ]; then
        "$LOOPY" game solve -q --resume --solver tier --all-legal "$chess" -o c.ldb >/dev/null 2>c.err
        same "$chess killed at $frac, resumed: status" "$?" 0
    elif [ ! -e c.ldb ]; then
        "$LOOPY" game solve -q --solver tier --all-legal "$chess" -o c.ldb >/dev/null 2>c.err
    fi
    cmp -s c.ldb table.ldb && pass || fail "$chess killed at $frac: the resumed database differs"
done
echo "tiers: $chess: $ckills kills of 4 before the end"

# ---- Damage ----
# kill_after_journal BYTES [keep]: a new solve, killed once its journal
# has BYTES, or with "done N" N tiers done; with keep, left running (its
# pid in p).
kill_after_journal() {
    rm -f k.ldb*
    "$LOOPY" game solve -q --solver tier "$game" -o k.ldb >/dev/null &
    p=$!
    n=0
    if [ "$1" = done ]; then
        while [ "$n" -lt 600 ] && [ "$(entries 2)" -lt "$2" ]; do
            sleep 0.01
            n=$((n + 1))
        done
        shift
    else
        while [ "$n" -lt 600 ] && { [ ! -e k.ldb.tiers-journal ] ||
            [ "$(wc -c <k.ldb.tiers-journal)" -lt "$1" ]; }; do
            sleep 0.01
            n=$((n + 1))
        done
    fi
    [ "${2:-}" = keep ] && return
    kill -9 "$p" 2>/dev/null
    wait "$p" 2>/dev/null
}
# A journal cut in its last entry (a crash while writing it): dropped,
# that tier solved again.
kill_after_journal 528
# Connect Four's remoteness is below its cells: 1 byte an index.
if [ -e k.ldb.tiers ]; then
    same "the work file: a byte an index" "$(wc -c <k.ldb.tiers)" \
        "$(sed -n 's/^  index space *//p' verbose.stats)"
fi
if [ -e k.ldb.tiers-journal ]; then
    size=$(wc -c <k.ldb.tiers-journal)
    truncate -s $((size - 5)) k.ldb.tiers-journal
    "$LOOPY" game solve -q --resume --solver tier "$game" -o k.ldb >/dev/null 2>k.err
    same "a journal cut short: status" "$?" 0
    cmp -s k.ldb retro.ldb && pass || fail "a journal cut short: the database differs"
else
    echo "tiers: the solve ended before the journal's cut could be tried"
fi
# (A crash while the entry of a park is written leaves the tier's records
# in the work file, since their blocks are given back only after it: that
# case is test_tiers' park_case.)
# A finished tier changed on disk: refused, naming it.  The tier solved
# last is in the work file (its parent is not solved); the others are
# parked.
# (Connect Four WxH has W*H + 1 tiers, by the stones on the board: killed
# before the last is done, one done is in the work file and one not done
# is parked.)
ntiers=$(echo "$game" | awk -F'[:x]' '{ print $2 * $3 + 1 }')
kill_after_journal done 2
if [ -e k.ldb.tiers ] && [ ! -e k.ldb ] && [ "$(entries 2)" -lt "$ntiers" ]; then
    # Every byte of the work file changed: the finished tier that is
    # there among them (the parked ones come back from the park file).
    size=$(wc -c <k.ldb.tiers)
    head -c "$size" /dev/zero | tr '\0' 'U' >k.bad && mv k.bad k.ldb.tiers
    refused "a damaged tier" 1 "k.ldb.tiers: tier [0-9]+ of the work file is damaged" \
        game solve -q --resume --solver tier "$game" -o k.ldb
    [ -e k.ldb ] && fail "a damaged tier: a database was written"
    refused "another game's journal" 2 "the journal of another solve \(another game\)" \
        game solve -q --resume --solver tier connect4:4x3 -o k.ldb
    refused "other options' journal" 2 "the journal of another solve \(misere" \
        game solve -q --resume --misere --solver tier "$game" -o k.ldb
    refused "a work file there, without --resume" 2 "k.ldb.tiers: the work file of an earlier solve is there: continue it \(--resume\)" \
        game solve -q --solver tier "$game" -o k.ldb
else
    echo "tiers: the solve ended before the damage could be tried"
fi
# A park file damaged: the next tier to solve comes back from it (its
# records as its parents reached it), and is refused, naming the file.
kill_after_journal done 2
if [ -e k.ldb.tiers-parked ] && [ ! -e k.ldb ] && [ "$(entries 2)" -lt "$ntiers" ]; then
    size=$(wc -c <k.ldb.tiers-parked)
    head -c "$size" /dev/zero | tr '\0' 'U' >k.bad && mv k.bad k.ldb.tiers-parked
    refused "a damaged park file" 1 "k.ldb.tiers-parked: tier [0-9]+'s records are damaged \(" \
        game solve -q --resume --solver tier "$game" -o k.ldb
    [ -e k.ldb ] && fail "a damaged park file: a database was written"
    # Cut short: refused before anything is solved.
    truncate -s 10 k.ldb.tiers-parked
    refused "a park file cut short" 1 "k.ldb.tiers-parked: 10 bytes, where the journal records [0-9]+" \
        game solve -q --resume --solver tier "$game" -o k.ldb
else
    echo "tiers: the solve ended before the park file's damage could be tried"
fi
# A solve killed as it removed its files, its journal first: the work
# and park files left are no solve's; a new solve replaces them (a
# symbolic link itself, not the file it names).
rm -f k.ldb*
printf 'old' >k.ldb.tiers
printf 'keep' >victim
ln -s victim k.ldb.tiers-parked
"$LOOPY" game solve -q --solver tier "$game" -o k.ldb >/dev/null 2>k.err
same "work files without their journal: status" "$?" 0
cmp -s k.ldb retro.ldb && pass || fail "work files without their journal: the database differs"
same "work files without their journal: the link's file" "$(cat victim)" keep
[ -e k.ldb.tiers ] || [ -e k.ldb.tiers-parked ] || [ -L k.ldb.tiers-parked ] &&
    fail "work files without their journal: left after the solve"
# A journal spliced (a park of the reach taken out, the chain of parks
# still whole): refused, naming the journal, not the game.
rm -f k.ldb*
"$LOOPY" game solve -q --solver tier "$game" -o k.ldb >/dev/null &
p=$!
n=0
while [ "$n" -lt 600 ] && [ "$(entries 1)" -lt 1 ]; do
    sleep 0.01
    n=$((n + 1))
done
kill -9 "$p" 2>/dev/null
wait "$p" 2>/dev/null
if [ ! -e k.ldb ] && [ "$(entries 1)" -eq 1 ]; then
    # The journal up to the last park before the "reached" entry, then
    # that entry (what came after it dropped, as if killed just then: a
    # tier done since would otherwise stand for the park taken out).
    python3 - <<'PY'
j = open("k.ldb.tiers-journal", "rb").read()
e = [j[i:i + 48] for i in range(384, len(j), 48)]
kinds = [int.from_bytes(x[:4], "little") for x in e]
r = kinds.index(1)
open("k.ldb.tiers-journal", "wb").write(j[:384] + b"".join(e[:r - 1] + [e[r]]))
PY
    refused "a journal spliced" 1 "k.ldb.tiers-journal: damaged: tier [0-9]+ is neither parked nor done after the reach" \
        game solve -q --resume --solver tier "$game" -o k.ldb
else
    echo "tiers: the solve ended before the journal's splice could be tried"
fi
# Two solves of one work file: the second is refused while the first
# solves (5x4 whatever the run, for a first solve long enough; it holds
# the lock until its last tier is done).
saved_game=$game
game=connect4:5x4
kill_after_journal 432 keep
"$LOOPY" game solve -q --resume --solver tier "$game" -o k.ldb >k.out 2>k.err
second=$?
journal=$(wc -c <k.ldb.tiers-journal 2>/dev/null || echo 0)
if kill -0 "$p" 2>/dev/null && [ "$journal" -ge 432 ] && [ "$(entries 2)" -lt 21 ]; then
    same "a work file in use: status" "$second" 2
    grep -q "k.ldb.tiers: another solve is using this work file" k.err ||
        fail "a work file in use: $(cat k.err)"
else
    echo "tiers: the first solve ended its tiers before a second one could be tried"
fi
kill -9 "$p" 2>/dev/null
wait "$p" 2>/dev/null
game=$saved_game
# Crashes before anything was recorded: a journal cut in its header, a
# work file not made yet or of another size; --resume begins again.
for case in "cut header" "no work file" "work file sized wrong"; do
    rm -f k.ldb*
    case $case in
    "cut header") printf '\211LTJ\r\n' >k.ldb.tiers-journal; : >k.ldb.tiers ;;
    "no work file") printf '\211LTJ' >k.ldb.tiers-journal ;;
    *) : >k.ldb.tiers-journal; printf 'xy' >k.ldb.tiers ;;
    esac
    "$LOOPY" game solve -q --resume --solver tier "$game" -o k.ldb >/dev/null 2>k.err
    same "a crash before anything was recorded ($case): status" "$?" 0
    cmp -s k.ldb retro.ldb && pass || fail "$case: the database differs"
done
rm -f k.ldb*
refused "--resume without a work file" 2 "k.ldb.tiers: no work file to resume" \
    game solve -q --resume --solver tier "$game" -o k.ldb
: >k.ldb.tiers
refused "--resume with a work file but no journal" 2 \
    "k.ldb.tiers: no work to resume: its journal k.ldb.tiers-journal is missing, which a solve removes first once its database is written" \
    game solve -q --resume --solver tier "$game" -o k.ldb
rm -f k.ldb.tiers
# A solve killed after its database was written, as it removed its work
# files (the journal first, then the work file, then the park file):
# --resume has nothing to do; it says so, gives the summary the solve
# gave (read from the database) and removes what is left.  A database
# that is not the same solve's (another game, misere) is not taken for
# it.
"$LOOPY" game solve --solver tier "$game" -o done.ldb >done.out 2>/dev/null
for left in tiers tiers-parked "tiers tiers-parked"; do
    rm -f k.ldb*
    cp done.ldb k.ldb
    for f in $left; do : >"k.ldb.$f"; done
    "$LOOPY" game solve --resume --solver tier "$game" -o k.ldb >k.out 2>k.err
    same "finished, $left left: status" "$?" 0
    cmp -s k.out done.out && pass || fail "finished, $left left: the summary: $(cat k.out)"
    grep -q "^loopy game: k.ldb: nothing to resume: the solve had finished" k.err &&
        pass || fail "finished, $left left: $(cat k.err)"
    grep -q "solved in" k.err && fail "finished, $left left: a solve's time"
    cmp -s k.ldb done.ldb && pass || fail "finished, $left left: the database changed"
    ls k.ldb?* 2>/dev/null | grep -q . && fail "finished, $left left: $(ls k.ldb?*)"
    "$LOOPY" game solve -q --resume --solver tier "$game" -o k.ldb >/dev/null 2>k.err
    same "finished, nothing left: status" "$?" 2
done
rm -f k.ldb*
"$LOOPY" game solve -q --solver tier connect4:4x3 -o k.ldb >/dev/null
: >k.ldb.tiers
refused "finished, another game's database" 2 "journal k.ldb.tiers-journal is missing" \
    game solve -q --resume --solver tier "$game" -o k.ldb
[ -e k.ldb.tiers ] && pass || fail "another game's database: the work file was removed"
"$LOOPY" game solve -q --misere --solver tier "$game" -o k.ldb >/dev/null
: >k.ldb.tiers
refused "finished, a misere database" 2 "journal k.ldb.tiers-journal is missing" \
    game solve -q --resume --solver tier "$game" -o k.ldb
rm -f k.ldb*
refused "--memory too small" 4 "the tiers need [0-9]+ bytes of records in memory at once .* more than the 1024 allowed" \
    game solve -q --memory 1K --solver tier "$game" -o k.ldb
[ -e k.ldb.tiers ] && fail "--memory too small: a work file was made"
"$LOOPY" game solve -q --memory 1G --solver tier connect4:3x3 -o m.ldb >/dev/null
same "--memory enough: status" "$?" 0
refused "--memory: a bad size" 2 "--memory: expected a size in bytes" \
    game solve --memory 12X --solver tier "$game" -o k.ldb
refused "--resume without -o" 2 "--resume: only 'solve --solver tier -o FILE'" \
    game solve --resume --solver tier "$game"
refused "--memory with retro" 2 "--memory: only 'solve --solver tier -o FILE'" \
    game solve --memory 1G --solver retro "$game" -o k.ldb

# An output that is not a regular file: the work stays in memory (no work
# file beside /dev/null).
"$LOOPY" game solve -q --solver tier connect4:4x4 -o /dev/null >/dev/null 2>null.err
same "--solver tier -o /dev/null: status" "$?" 0
[ -e /dev/null.tiers ] && fail "--solver tier -o /dev/null made /dev/null.tiers"

# ---- A game of your own with tiers: examples/heaps.c ----
# Two heaps, a move takes 1 to K stones from one: the position (a, b) is
# lost exactly when a mod (K + 1) = b mod (K + 1) (the heaps'
# Sprague-Grundy values are equal), which every position's probe is
# checked against; the tier solver's database is the retro solver's, and
# loopy game check finds the tiers sound.
if cc -shared -fPIC -I"$root/include" "$root/examples/heaps.c" -o heaps.so 2>cc.err; then
    "$LOOPY" game check -q ./heaps.so:9,2 >check.out 2>&1
    same "heaps: check" "$?" 0
    "$LOOPY" game solve -q --solver tier --all-legal ./heaps.so:9,2 -o htier.ldb >/dev/null
    "$LOOPY" game solve -q --solver retro --all-legal ./heaps.so:9,2 -o hretro.ldb >/dev/null
    cmp -s htier.ldb hretro.ldb && pass || fail "heaps: --solver tier and retro differ"
    positions=$(awk 'BEGIN { for (a = 0; a <= 9; a++) for (b = 0; b <= 9; b++) printf "%d,%d ", a, b }')
    # shellcheck disable=SC2086
    "$LOOPY" game probe -q --game ./heaps.so htier.ldb $positions >probe.out 2>probe.err
    same "heaps: probe" "$?" 0
    # The positions' lines (their moves' lines are indented).
    grep -v '^ ' probe.out >values.out
    bad=$(awk -F'[,: ]+' '{ want = ($1 % 3 == $2 % 3) ? "L" : "W"
                             if ($3 != want) print }' values.out)
    same "heaps: every position against the Sprague-Grundy rule" "$bad" ""
    same "heaps: positions probed" "$(wc -l <values.out | tr -d ' ')" 100
else
    fail "examples/heaps.c does not build: $(cat cc.err)"
fi

finish tiers
