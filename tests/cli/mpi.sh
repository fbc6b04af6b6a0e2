#!/bin/sh
# loopy-mpi (make MPI=1) against the single-process "loopy solve": every
# output byte equal on random graphs of every shape the core's tests use
# (normal and misere play, targets, ties), at 1 to 4 ranks, with buffers so
# small that levels take many exchanges, on graphs whose levels spread over
# every rank, and on a chain; then the faults, each with its message, exit
# status, nothing on standard output and no output file; and signals to
# mpirun or to one rank mid-solve, which leave no file behind.  Skipped, saying
# so, when the build has no loopy-mpi or the machine no mpirun.
. "$(dirname "$0")/harness.inc"

MPI_PROGRAM=$(dirname "$LOOPY")/loopy-mpi
if [ ! -x "$MPI_PROGRAM" ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "mpi: skipped: no $MPI_PROGRAM (make MPI=1) or no mpirun"
    finish mpi
    exit
fi
# As root (CI), Open MPI wants to be told; more ranks than cores is fine.
as_root=
[ "$(id -u)" = 0 ] && as_root=--allow-run-as-root
mpi() { # mpi NP ARGS...: loopy-mpi ARGS on NP ranks, quietly, in $work
    np=$1
    shift
    (cd "$work" && timeout "$limit" mpirun -q $as_root --oversubscribe \
        -x LOOPY_MPI_FAULT -x LOOPY_MPI_BUFFER -x LOOPY_MPI_CHUNK \
        -x LOOPY_MPI_WINDOW -x TMPDIR="$spill_dir" -np "$np" \
        "$MPI_PROGRAM" "$@")
}
export LOOPY_MPI_FAULT= LOOPY_MPI_BUFFER= LOOPY_MPI_CHUNK= LOOPY_MPI_WINDOW=
# Where the ranks make their spill files when the output is not a file
# they share (TMPDIR): it must stay empty, since each is unlinked at once.
spill_dir=$work/spill
mkdir -p "$spill_dir"
# Under AddressSanitizer, Open MPI's own allocations at exit read as leaks.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# A random graph of n vertices and m moves, numbered from 1, in g.txt and
# g.lgr (awk's generator, seeded).
graph() { # graph SEED N M
    awk -v seed="$1" -v n="$2" -v m="$3" 'BEGIN {
        srand(seed); print n, m
        for (i = 0; i < m; i++) print 1 + int(rand() * n), 1 + int(rand() * n)
    }' >"$work/g.txt"
    "$LOOPY" convert -q "$work/g.txt" -o "$work/g.lgr"
}

# agree NAME NP ARGS...: loopy-mpi on NP ranks prints what loopy solve
# prints for g.txt with ARGS.
agree() {
    name=$1 np=$2
    shift 2
    "$LOOPY" solve -q "$work/g.txt" "$@" >"$work/want" 2>"$work/err1"
    mpi "$np" solve -q g.lgr "$@" >"$work/got" 2>"$work/err2"
    status=$?
    if [ "$status" -ne 0 ]; then
        fail "$name: exit status $status: $(cat "$work/err2")"
    elif ! cmp -s "$work/want" "$work/got"; then
        fail "$name: output differs from loopy solve"
        diff "$work/want" "$work/got" | head -n 5
    else
        pass
    fi
}

# Random graphs, small enough that many are tried: every rank count, every
# kind of play; the targets drawn from the graph.
# (Under a sanitizer or in a quick run, a third of them, and fewer rank
# counts below: the same code, fewer runs of mpirun.)
seeds=24
nps="2 3 4"
specs="subtract:60,2,3,7 mnk:3,3,3 connect4:4x4 chess:KRK"
if $quick; then
    seeds=8
    nps=3
    specs="subtract:60,2,3,7 connect4:4x4"
fi
seed=1
while [ "$seed" -le "$seeds" ]; do
    n=$((1 + seed * 37 % 300))
    m=$((seed * 53 % (3 * n + 1)))
    graph "$seed" "$n" "$m"
    np=$((1 + seed % 4))
    t1=$((1 + seed % n)) t2=$((1 + (seed * 7) % n)) t3=$((1 + (seed * 13) % n))
    t4=$((1 + (seed * 29) % n))
    case $((seed % 6)) in
    0) agree "random $seed normal np=$np" "$np" ;;
    1) agree "random $seed misere np=$np" "$np" --misere ;;
    2) agree "random $seed lose-at np=$np" "$np" --lose-at "$t1" ;;
    3) [ "$t1" != "$t2" ] && agree "random $seed targets np=$np" "$np" \
        --lose-at "$t1" --win-at "$t2" ;;
    4) [ "$t1" != "$t3" ] && agree "random $seed ties np=$np" "$np" \
        --tie-at "$t1" --lose-at "$t3" -f json ;;
    5) agree "random $seed misere ties json np=$np" "$np" --misere \
        --tie-at "$t4" -f json ;;
    esac
    seed=$((seed + 1))
done

# Larger graphs, whose levels each spread over every rank, at 2, 3 and 4
# ranks, with the exchange buffers at their least: every level then takes
# many exchanges, and a rank stops inside a position's moves.
graph 101 20000 50000
for np in $nps; do
    agree "20000 vertices np=$np" "$np"
    LOOPY_MPI_BUFFER=8 agree "20000 vertices, tiny buffers np=$np" "$np"
    LOOPY_MPI_BUFFER=8 agree "20000 vertices, ties, tiny buffers np=$np" "$np" \
        --tie-at 3,5,8 --lose-at 13 -f json
done
# The database, each rank writing its blocks into one file: the same bytes
# (also when a block spans ranks, as the one block of 3000 vertices on 4
# ranks does).
"$LOOPY" solve -q "$work/g.txt" -o "$work/want.ldb"
mpi 3 solve -q g.lgr -o got.ldb
check "20000 vertices, database np=3" cmp -s "$work/want.ldb" "$work/got.ldb"
"$LOOPY" solve -q "$work/g.txt" --misere --tie-at 4 -f ldb -o "$work/want.ldb"
mpi 2 solve -q g.lgr --misere --tie-at 4 -f ldb -o got.ldb
check "20000 vertices, misere ties database np=2" cmp -s "$work/want.ldb" "$work/got.ldb"
cp "$work/g.txt" "$work/g20000.txt"
cp "$work/g.lgr" "$work/g20000.lgr"
graph 102 3000 7000
"$LOOPY" solve -q "$work/g.txt" --tie-at 9 -o "$work/want.ldb"
mpi 4 solve -q g.lgr --tie-at 9 -o got.ldb
check "3000 vertices, one block over 4 ranks" cmp -s "$work/want.ldb" "$work/got.ldb"
LOOPY_MPI_FAULT=3:write mpi 4 solve -q g.lgr -o got2.ldb >"$work/.out" 2>"$work/.err"
status=$?
if [ "$status" -eq 3 ] && [ ! -s "$work/.out" ] && [ ! -e "$work/got2.ldb" ] &&
    ! ls "$work"/.loopy-* >/dev/null 2>&1 &&
    grep -q 'rank 3: got2.ldb: write failed' "$work/.err"; then
    pass
else
    fail "a rank that cannot write its blocks: status $status: $(cat "$work/.err")"
fi
cp "$work/g20000.txt" "$work/g.txt"
cp "$work/g20000.lgr" "$work/g.lgr"
LOOPY_MPI_BUFFER=8 mpi 3 solve -q --stats g.lgr >/dev/null 2>"$work/stats"
steps=$(sed -n 's/.*: \([0-9]*\) supersteps of the levels.*/\1/p' "$work/stats")
check "tiny buffers take many exchanges ($steps)" test "${steps:-0}" -gt 100

# A chain of 100000 positions: as many levels, but the ranks must not
# exchange once per level (a chain lies in ranges, so each rank runs its
# levels alone): at most a few supersteps per rank.
awk 'BEGIN { n = 100000; print n, n - 1; for (i = 1; i < n; i++) print i, i + 1 }' \
    >"$work/g.txt"
"$LOOPY" convert -q "$work/g.txt" -o "$work/g.lgr"
for np in 2 4; do
    agree "chain np=$np" "$np"
    mpi "$np" solve -q --stats g.lgr >/dev/null 2>"$work/stats"
    steps=$(sed -n 's/.*: \([0-9]*\) supersteps of the levels.*/\1/p' "$work/stats")
    check "chain np=$np in $steps supersteps, not one per level" \
        test "${steps:-999}" -le $((2 * np))
done

# An empty graph, and one without moves.
printf '0 0\n' >"$work/g.txt"
"$LOOPY" convert -q "$work/g.txt" -o "$work/g.lgr"
agree "empty graph np=3" 3
agree "empty graph json np=2" 2 -f json
printf '3 0\n' >"$work/g.txt"
"$LOOPY" convert -q "$work/g.txt" -o "$work/g.lgr"
agree "3 vertices, 4 ranks" 4

# A graph numbered from 0, and --base.
awk 'BEGIN { print 4, 4; print 0, 1; print 1, 2; print 2, 3; print 3, 1 }' >"$work/g.txt"
"$LOOPY" convert -q --base 0 "$work/g.txt" -o "$work/g.lgr"
agree "numbered from 0 np=2" 2 --base 0
"$LOOPY" solve -q --base 0 "$work/g.txt" | awk '{ $1 += 1; if ($4 != "-") $4 += 1; print }' >"$work/want"
mpi 2 solve -q --base 1 g.lgr >"$work/got"
check "--base 1 renumbers a graph numbered from 0" cmp -s "$work/want" "$work/got"

# -o: written atomically by rank 0, equal to standard output.
graph 7 50 120
mpi 2 solve -q g.lgr -o out.txt >"$work/stdout"
"$LOOPY" solve -q "$work/g.txt" >"$work/want"
check "-o writes the file" cmp -s "$work/out.txt" "$work/want"
check "-o: nothing on standard output" test ! -s "$work/stdout"

# Games by rules: the database of "loopy game solve --solver retro", byte
# for byte, for built-in games of every kind (ties, symmetry, chess), in
# every mode, and for a game from a shared object.
game_agree() { # game_agree NAME NP GAME OPTIONS...
    name=$1 np=$2 spec=$3
    shift 3
    rm -f "$work/want.ldb" "$work/got.ldb"
    (cd "$work" && "$LOOPY" game solve -q --solver retro "$@" "$spec" \
        -o want.ldb >/dev/null 2>"$work/err1")
    mpi "$np" game solve -q "$@" "$spec" -o got.ldb >"$work/stdout" 2>"$work/err2"
    status=$?
    if [ "$status" -ne 0 ] || [ -s "$work/stdout" ]; then
        fail "$name: exit status $status: $(cat "$work/err2")"
    elif ! cmp -s "$work/want.ldb" "$work/got.ldb"; then
        fail "$name: the database differs from loopy game solve's"
    else
        pass
    fi
}
np=1
for spec in $specs; do
    for mode in "" --misere --all-legal --no-symmetry; do
        np=$((np % 4 + 1))
        game_agree "$spec $mode np=$np" "$np" "$spec" $mode
    done
done
# Each rank compresses its blocks a window at a time into its spill file:
# windows of 1 and 3 blocks (LOOPY_MPI_WINDOW), dense and sparse, both
# solvers.
LOOPY_MPI_WINDOW=1 game_agree "windows of 1 block np=3" 3 connect4:4x4
LOOPY_MPI_WINDOW=3 game_agree "windows of 3 blocks --all-legal np=2" 2 \
    connect4:4x4 --all-legal
LOOPY_MPI_WINDOW=1 game_agree "windows of 1 block --solver tier np=4" 4 \
    connect4:4x4 --solver tier
LOOPY_MPI_BUFFER=8 game_agree "connect4:4x3 tiny buffers np=3" 3 connect4:4x3
# The tier solver (--solver tier): every tier cut across the ranks, the
# same bytes, for the games whose moves leave their tier, in every mode.
tier_specs="subtract:60,2,3,7 mnk:3,3,3 connect4:4x4 tictactoe"
$quick && tier_specs="subtract:60,2,3,7 connect4:4x4"
np=2
for spec in $tier_specs; do
    for mode in "" --misere --all-legal --no-symmetry; do
        np=$((np % 4 + 1))
        game_agree "--solver tier $spec $mode np=$np" "$np" "$spec" --solver tier $mode
    done
done
LOOPY_MPI_BUFFER=8 game_agree "--solver tier connect4:4x3 tiny buffers np=3" 3 \
    connect4:4x3 --solver tier
# Tiers dealt in chunks of 1 to 7 indices (LOOPY_MPI_CHUNK; 65,536 at
# least otherwise), so that a tier is many parts of every rank and a
# block of the database spans many parts.
for ch in 1 3 7; do
    LOOPY_MPI_CHUNK=$ch game_agree "--solver tier mnk:3,3,3 chunks of $ch np=3" 3 \
        mnk:3,3,3 --solver tier
done
LOOPY_MPI_CHUNK=5 game_agree "--solver tier connect4:4x4 --all-legal chunks of 5 np=4" 4 \
    connect4:4x4 --solver tier --all-legal
# Tiers whose moves stay inside them (chess: a material, and with pawns
# what the pawns make of it): retrograde analysis within each tier across
# the ranks, the same bytes as the retro solver, in every mode, with tiny
# buffers (many exchanges a level) and tiny chunks (a tier dealt in many
# parts, a position's predecessors on every rank).
inner_specs="chess:KRK chess:KPK chess:KBNK"
$quick && inner_specs="chess:KRK chess:KPK"
np=1
for spec in $inner_specs; do
    for mode in "" --all-legal --no-symmetry; do
        np=$((np % 4 + 1))
        game_agree "--solver tier $spec $mode np=$np" "$np" "$spec" --solver tier $mode
    done
done
LOOPY_MPI_BUFFER=8 game_agree "--solver tier chess:KRK tiny buffers np=3" 3 \
    chess:KRK --solver tier
LOOPY_MPI_CHUNK=7 game_agree "--solver tier chess:KPK chunks of 7 np=3" 3 \
    chess:KPK --solver tier --all-legal
# An output that is not a regular file (a FIFO, /dev/null): no file the
# ranks share, so they send rank 0 their blocks, which it writes in
# order: the same bytes.
fifo_agree() { # fifo_agree NAME NP GAME OPTIONS...
    name=$1 np=$2 spec=$3
    shift 3
    rm -f "$work/fifo" "$work/want.ldb" "$work/fifo.ldb"
    (cd "$work" && "$LOOPY" game solve -q --solver retro "$@" "$spec" \
        -o want.ldb >/dev/null 2>&1)
    mkfifo "$work/fifo"
    cat "$work/fifo" >"$work/fifo.ldb" &
    reader=$!
    mpi "$np" game solve -q "$@" "$spec" -o fifo >"$work/stdout" 2>"$work/err2"
    status=$?
    wait "$reader"
    if [ "$status" -ne 0 ] || ! cmp -s "$work/want.ldb" "$work/fifo.ldb"; then
        fail "$name: status $status: $(cat "$work/err2")"
    else
        pass
    fi
}
# A rank that cannot open rank 0's temporary file (a node without the
# shared file system; LOOPY_MPI_FAULT=R:share): all send their blocks.
LOOPY_MPI_FAULT=2:share game_agree "rank 2 cannot open the file np=3" 3 connect4:4x4
LOOPY_MPI_FAULT=1:share game_agree "--solver tier, rank 1 cannot open the file np=2" 2 \
    connect4:4x4 --solver tier
if command -v mkfifo >/dev/null 2>&1; then
    fifo_agree "to a FIFO np=3" 3 connect4:4x4
    fifo_agree "--misere --all-legal to a FIFO np=2" 2 mnk:3,3,3 --misere --all-legal
    LOOPY_MPI_WINDOW=2 fifo_agree "windows of 2 blocks to a FIFO np=3" 3 \
        connect4:4x4
fi
LOOPY_MPI_WINDOW=1 LOOPY_MPI_FAULT=1:share game_agree \
    "windows of 1 block, rank 1 cannot open the file np=2" 2 connect4:4x4
check "no spill file is left in TMPDIR" test -z "$(ls -A "$spill_dir")"
# A spill file that cannot be made (TMPDIR is not a folder): exit 3, the
# folder named, nothing on standard output.
spill_keep=$spill_dir
spill_dir=$work/no-such-folder
mpi 2 game solve -q connect4:4x4 -o /dev/null >"$work/stdout" 2>"$work/err2"
same "no spill file: status" "$?" 3
check "no spill file: the message" grep -q \
    "/dev/null: cannot make a spill file for the database's blocks in $spill_dir: No such file or directory" \
    "$work/err2"
check "no spill file: nothing on standard output" test ! -s "$work/stdout"
spill_dir=$spill_keep
mpi 2 game solve -q connect4:4x4 -o /dev/null >"$work/stdout" 2>"$work/err2"
same "-o /dev/null: status" "$?" 0
# The tier solver's work files go beside the database: not beside
# /dev/null.
mpi 2 game solve -q --solver tier connect4:4x4 -o /dev/null >"$work/stdout" 2>"$work/err2"
same "--solver tier -o /dev/null: status" "$?" 2
check "--solver tier -o /dev/null: the message" grep -q \
    "rank 0: --solver tier: /dev/null is not a regular file" "$work/err2"
check "--solver tier -o /dev/null: no work file in /dev" test ! -e /dev/null.tiers.0-of-2
# -v: rank 0 writes a line per tier reached (parents first) and per tier
# solved (children first), as loopy game solve -v does (Connect Four 4x4
# has 17 tiers, of 0 to 16 stones: the start's tier is reached first, the
# full boards' solved first).
mpi 2 game solve -v --solver tier connect4:4x4 -o v.ldb >"$work/stdout" 2>"$work/err2"
same "-v: status" "$?" 0
# The summary names the game with its parameters, as loopy game solve does.
check "the summary names connect4:4x4" grep -q \
    "^loopy-mpi game solve: connect4:4x4: [0-9]* positions: " "$work/err2"
same "-v: lines" "$(grep -c '^loopy-mpi game solve: reach tier [0-9]*/17: ' "$work/err2") $(grep -c '^loopy-mpi game solve: tier [0-9]*/17: [0-9]* ind.* in [0-9.]* s' "$work/err2")" "17 17"
same "-v: the first tiers" \
    "$(grep 'reach tier 1/17' "$work/err2" | sed 's/.*: //; s/ in .*//'), $(grep ': tier 1/17' "$work/err2" | sed 's/.*: //; s/ in .*//')" \
    "1 index, 12870 indices"
"$LOOPY" game solve -q --solver tier connect4:4x4 -o "$work/v1.ldb" >/dev/null 2>&1
check "-v: the same database" cmp -s "$work/v.ldb" "$work/v1.ldb"
mpi 1 game solve -v connect4:4x4 -o v2.ldb >"$work/stdout" 2>"$work/err2"
same "-v without --solver tier: status" "$?" 2
check "-v without --solver tier: the message" grep -q "give --solver tier" "$work/err2"
# A game of one's own with tiers (examples/heaps.c): 61 tiers of 1 to 31
# positions.
if cc -shared -fPIC -I"$root/include" "$root/examples/heaps.c" \
    -o "$work/heaps.so" 2>/dev/null; then
    game_agree "--solver tier, a shared object with tiers np=4" 4 ./heaps.so:30,4 \
        --solver tier
    game_agree "--solver tier, a shared object with tiers, every legal np=3" 3 \
        ./heaps.so:30,4 --solver tier --all-legal
else
    fail "examples/heaps.c does not build"
fi
# A game whose tiers' moves stay inside them, with cycles, Draws and Ties
# (tests/games/rings.c): every mode, tiny chunks and buffers.
if cc -shared -fPIC -I"$root/include" "$root/tests/games/rings.c" \
    -o "$work/rings.so" 2>/dev/null; then
    np=1
    for mode in "" --all-legal --misere --no-symmetry; do
        np=$((np % 4 + 1))
        LOOPY_MPI_CHUNK=5 game_agree "--solver tier rings:96,10 $mode chunks of 5 np=$np" \
            "$np" ./rings.so:96,10 --solver tier $mode
    done
    LOOPY_MPI_BUFFER=8 game_agree "--solver tier rings:96,10 tiny buffers np=3" 3 \
        ./rings.so:96,10 --solver tier --all-legal
else
    fail "tests/games/rings.c does not build"
fi
if cc -shared -fPIC -I"$root/include" "$root/examples/ladder.c" \
    -o "$work/ladder.so" 2>/dev/null; then
    game_agree "a shared object np=2" 2 ./ladder.so:30
else
    fail "examples/ladder.c does not build"
fi

# refused_mpi NAME STATUS PATTERN NP ARGS...: fails with STATUS and a
# message matching PATTERN, prints nothing, and leaves no out.txt nor a
# temporary file.
refused_mpi() {
    name=$1 want_status=$2 pattern=$3 np=$4
    shift 4
    rm -f "$work/out.txt"
    mpi "$np" "$@" >"$work/.out" 2>"$work/.err"
    status=$?
    if [ "$status" -ne "$want_status" ] || [ -s "$work/.out" ] ||
        ! grep -q -E -e "$pattern" "$work/.err" || [ -e "$work/out.txt" ] ||
        ls "$work"/.loopy-* >/dev/null 2>&1; then
        fail "$name: status $status (expected $want_status), stdout $(wc -c <"$work/.out") bytes, stderr: $(cat "$work/.err")"
    else
        pass
    fi
    [ "$(grep -c . "$work/.err")" -eq 1 ] || fail "$name: not one message: $(cat "$work/.err")"
}

# Faults of one rank (LOOPY_MPI_FAULT=RANK:WHAT simulates them): every
# rank stops, with the failing rank's message.
LOOPY_MPI_FAULT=1:open refused_mpi "rank 1 cannot open" 3 \
    'loopy-mpi solve: rank 1: g.lgr: cannot open' 2 solve g.lgr -o out.txt
LOOPY_MPI_FAULT=2:map refused_mpi "rank 2 cannot map" 4 \
    'loopy-mpi solve: rank 2: g.lgr: cannot map bytes' 3 solve g.lgr -o out.txt
LOOPY_MPI_FAULT=1:memory refused_mpi "rank 1 out of memory" 4 \
    'loopy-mpi solve: rank 1: out of memory' 2 solve g.lgr -o out.txt
LOOPY_MPI_FAULT=3:level refused_mpi "rank 3 out of memory in the levels" 4 \
    'loopy-mpi solve: rank 3: out of memory' 4 solve g.lgr -o out.txt
LOOPY_MPI_FAULT=0:open refused_mpi "rank 0 cannot open" 3 \
    'loopy-mpi solve: rank 0: g.lgr: cannot open' 2 solve g.lgr -o out.txt

# Damaged files: every byte region the ranks check.
cp "$work/g.lgr" "$work/good.lgr"
size=$(wc -c <"$work/good.lgr")
flip() { # flip OFFSET: g.lgr is good.lgr with the byte at OFFSET changed
    cp "$work/good.lgr" "$work/g.lgr"
    printf '\377' | dd of="$work/g.lgr" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
flip 16
refused_mpi "damaged header" 1 'rank 0: g.lgr: damaged loopy binary file: bad header checksum' \
    2 solve g.lgr -o out.txt
# The predecessor lists: the third section, whose offset is at byte 88.
lists=$(od -A n -t u8 -j 88 -N 8 "$work/good.lgr" | tr -d ' ')
flip $((lists + 3))
refused_mpi "damaged predecessor list" 1 \
    'g.lgr: damaged loopy binary file: bad checksum of the predecessor lists' \
    3 solve g.lgr -o out.txt
head -c $((size - 10)) "$work/good.lgr" >"$work/g.lgr"
refused_mpi "truncated file" 1 'g.lgr: truncated loopy binary file' 2 solve g.lgr -o out.txt
cp "$work/g.txt" "$work/text.txt"
refused_mpi "a text file" 1 'text.txt: not a loopy binary graph.*loopy convert' \
    2 solve text.txt -o out.txt
mkfifo "$work/fifo.lgr"
refused_mpi "a FIFO, refused rather than waited on" 3 'fifo.lgr: not a regular file' \
    2 solve fifo.lgr -o out.txt
gzip -c "$work/good.lgr" >"$work/g.lgr.gz" 2>/dev/null &&
    refused_mpi "a compressed file" 1 'g.lgr.gz: a compressed file: .*decompress it first' \
        2 solve g.lgr.gz -o out.txt
refused_mpi "a shared object that is not there" 3 'nothere.so' 2 game solve \
    ./nothere.so -o out.txt
refused_mpi "no such file" 3 'rank 0: nothing.lgr: cannot open: No such file' \
    2 solve nothing.lgr -o out.txt
# Forged files: a number changed and every checksum put right again, so
# that only the checks of the values can refuse them (tests/tools/forge_lgr.c,
# built here with the library's checksum from source, not with this build's
# library, which may be instrumented by a sanitizer).
if cc -I"$root/include" -I"$root/lib/core" "$root/tests/tools/forge_lgr.c" \
    "$root/lib/core/checksum.c" "$root/lib/core/alloc.c" -fopenmp \
    -o "$work/forge" 2>"$work/cc.err"; then
    offsets=$(od -A n -t u8 -j 64 -N 8 "$work/good.lgr" | tr -d ' ')
    forge() { # forge OFFSET VALUE
        cp "$work/good.lgr" "$work/g.lgr"
        "$work/forge" "$work/g.lgr" "$1" "$2" || fail "forge_lgr $1 $2"
    }
    forge $((lists + 4 * 7)) 4000000000
    refused_mpi "forged: a predecessor out of range" 1 \
        'damaged loopy binary file: a value out of range' 3 solve g.lgr -o out.txt
    forge $((lists + 4 * 7)) $(( $(od -A n -t u4 -j $((lists + 28)) -N 4 "$work/good.lgr") % 50 + 1 ))
    refused_mpi "forged: a predecessor moved to another vertex" 1 \
        'the predecessor lists do not match the out-degrees' 2 solve g.lgr -o out.txt
    forge $((offsets + 8 * 20)) 4000000000
    refused_mpi "forged: an offset out of range" 1 \
        'damaged loopy binary file: a value out of range' 2 solve g.lgr -o out.txt
    forge $((offsets + 8 * 20 + 4)) 7
    refused_mpi "forged: an offset's high half" 1 \
        'damaged loopy binary file: a value out of range' 4 solve g.lgr -o out.txt
    degrees=$(od -A n -t u8 -j 40 -N 8 "$work/good.lgr" | tr -d ' ')
    forge $((degrees + 4 * 3)) 4294967295
    refused_mpi "forged: a degree of 2^32 - 1" 1 'damaged loopy binary file' \
        2 solve g.lgr -o out.txt
    forge $((degrees + 4 * 30)) 0
    refused_mpi "forged: a degree made 0" 1 'damaged loopy binary file: a value out of range' \
        3 solve g.lgr -o out.txt
else
    fail "tests/tools/forge_lgr.c does not build: $(cat "$work/cc.err")"
fi
# Damaged at random places: refused with a message (or solved the same as
# loopy solve solves the same file), never a crash, a hang or a partial file.
size=$(wc -c <"$work/good.lgr")
k=1
while [ $k -le 24 ]; do
    at=$(( (k * 7919 + 13) % size ))
    flip "$at"
    rm -f "$work/out.txt"
    "$LOOPY" solve -q "$work/g.lgr" >"$work/want" 2>/dev/null
    want_status=$?
    mpi $((k % 3 + 2)) solve -q g.lgr -o out.txt >"$work/.out" 2>"$work/.err"
    status=$?
    if [ "$status" -eq 0 ] && [ "$want_status" -eq 0 ] &&
        cmp -s "$work/want" "$work/out.txt"; then
        pass
    elif [ "$status" -eq 1 ] && [ ! -e "$work/out.txt" ] && [ ! -s "$work/.out" ] &&
        grep -q 'loopy-mpi solve: rank [0-9]*: g.lgr: ' "$work/.err"; then
        pass
    else
        fail "byte $at damaged: status $status (loopy solve: $want_status): $(cat "$work/.err")"
    fi
    k=$((k + 1))
done
cp "$work/good.lgr" "$work/g.lgr"
refused_mpi "a target not in the graph" 2 \
    'loopy-mpi solve: --lose-at: vertex 51 is not in the graph' 2 solve g.lgr \
    --lose-at 51 -o out.txt
refused_mpi "a vertex in two lists" 2 'vertex 3 is in both --lose-at and --win-at' \
    2 solve g.lgr --lose-at 3 --win-at 3 -o out.txt
refused_mpi "a database to standard output" 2 'a database goes to a file: give -o' \
    2 solve g.lgr -f ldb
refused_mpi "standard input" 2 'standard input will not do' 2 solve -o out.txt
refused_mpi "a bad format" 2 "expected 'text', 'json' or 'ldb'" 2 solve g.lgr -f dot
refused_mpi "no command" 2 "no command" 2
refused_mpi "an unknown option" 2 "did you mean --misere" 2 solve g.lgr --miser
refused_mpi "an output folder that is not there" 3 'nowhere' 2 solve g.lgr \
    -o nowhere/out.txt
refused_mpi "a game without -o" 2 'a database goes to a file' 2 game solve mnk:3,3,3
refused_mpi "no such game" 2 'bogus' 2 game solve bogus -o out.txt
refused_mpi "--solver tier for a game without tiers" 2 \
    'the game has no tiers' 2 game solve --solver tier ./ladder.so:30 -o out.txt
refused_mpi "an unknown solver" 2 "expected 'retro' or 'tier', found 'graph'" 2 \
    game solve --solver graph mnk:3,3,3 -o out.txt
LOOPY_MPI_FAULT=1:memory refused_mpi "--solver tier, rank 1 out of memory" 4 \
    'loopy-mpi game solve: rank 1: out of memory' 3 game solve --solver tier \
    connect4:4x4 -o out.txt
LOOPY_MPI_FAULT=2:level refused_mpi "--solver tier, rank 2 fails mid-solve" 4 \
    'loopy-mpi game solve: rank 2: out of memory \(LOOPY_MPI_FAULT\)' 3 game solve \
    --solver tier connect4:4x4 -o out.txt
rm -f "$work"/out.txt.tiers* # what the failure in the reach left
LOOPY_MPI_FAULT=1:journal refused_mpi "--solver tier, rank 1 cannot journal" 3 \
    'rank 1: .*out.txt.tiers.1-of-2-journal: write failed \(LOOPY_MPI_FAULT\)' 2 \
    game solve --solver tier connect4:4x4 -o out.txt
rm -f "$work"/out.txt.tiers*
LOOPY_MPI_FAULT=1:memory refused_mpi "a game, rank 1 out of memory" 4 \
    'loopy-mpi game solve: rank 1: out of memory' 2 game solve mnk:3,3,3 -o out.txt
# Every rank writes its blocks of the database into rank 0's temporary
# file: one that cannot write, or cannot compress, fails them all, leaving
# no file.
LOOPY_MPI_FAULT=1:write refused_mpi "a game, rank 1 cannot write its blocks" 3 \
    'loopy-mpi game solve: rank 1: out.txt: write failed: No space left on device' \
    2 game solve connect4:4x4 -o out.txt
LOOPY_MPI_FAULT=2:compress refused_mpi "a game, rank 2 cannot compress its blocks" 4 \
    'loopy-mpi game solve: rank 2: out of memory: compressing' 3 game solve \
    connect4:4x4 -o out.txt
# A signal while the database is being made: SIGINT or SIGTERM to mpirun
# (which ends the ranks with SIGTERM, and with SIGKILL a few milliseconds
# after the first of them has died) or to one rank (rank 0 writes the
# output; ending another makes mpirun end it) leaves no temporary file
# and no output file: every rank knows the file's name, and the first to
# get the signal removes it.  The game naps a millisecond in each callback,
# so that its solve, a minute long, is surely running when the signal
# comes: the signal goes once rank 0's temporary file is there.
cat >"$work/slow.c" <<'EOF'
#define _POSIX_C_SOURCE 200809L
#include "loopy_game.h"
#include <time.h>
#define TOP 100000
static void nap(void)
{
    struct timespec t = {0, 1000000};
    nanosleep(&t, NULL);
}
static loopy_primitive primitive(void *ctx, loopy_position p)
{
    (void)ctx;
    return p == TOP ? LOOPY_OVER_LOSE : LOOPY_PLAYING;
}
static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    (void)ctx;
    nap();
    if (capacity > 0)
        out[0] = p + 1;
    return 1;
}
static size_t unmoves(void *ctx, loopy_position p, loopy_position *out,
                      size_t capacity)
{
    (void)ctx;
    nap();
    if (p > 0 && capacity > 0)
        out[0] = p - 1;
    return p > 0;
}
static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    (void)params;
    (void)diag;
    game->version = LOOPY_GAME_VERSION;
    game->name = "slow";
    game->params = "";
    game->size = TOP + 1;
    game->start = 0;
    game->primitive = primitive;
    game->moves = moves;
    game->unmoves = unmoves;
    return LOOPY_OK;
}
static const loopy_game_def slow = {LOOPY_GAME_VERSION, "slow", "", "", "",
                                    create};
const loopy_game_def *loopy_game_definition(void) { return &slow; }
EOF
# interrupted NAME SIGNAL WHOM: loopy-mpi game solve on 2 ranks, given
# SIGNAL once its temporary file is there; WHOM is mpirun, or a rank's
# number.
interrupted() {
    name=$1 sig=$2 whom=$3
    rm -f "$work"/.loopy-* "$work/out.ldb"
    (cd "$work" && exec mpirun -q $as_root --oversubscribe -np 2 \
        "$MPI_PROGRAM" game solve -q ./slow.so -o out.ldb) >"$work/.out" 2>&1 &
    runner=$!
    k=0
    until ls "$work"/.loopy-* >/dev/null 2>&1 || [ $k -ge $((limit * 10)) ] ||
        ! kill -0 "$runner" 2>/dev/null; do
        sleep 0.1
        k=$((k + 1))
    done
    # The ranks: mpirun's children, or (under a launcher daemon) the
    # processes of this program working in this test's folder.
    ranks=$(pgrep -P "$runner" | tr '\n' ' ')
    if [ -z "$ranks" ]; then
        for r in $(pgrep -f -- "$MPI_PROGRAM game solve"); do
            [ "$(readlink "/proc/$r/cwd")" = "$work" ] && ranks="$ranks $r"
        done
    fi
    victim=
    if [ "$whom" = mpirun ]; then
        victim=$runner
    else
        for r in $ranks; do
            tr '\0' '\n' <"/proc/$r/environ" 2>/dev/null |
                grep -q -x -E "(OMPI_COMM_WORLD_RANK|PMIX_RANK)=$whom" && victim=$r
        done
    fi
    started=no
    ls "$work"/.loopy-* >/dev/null 2>&1 && started=yes
    [ -n "$victim" ] && kill -s "$sig" "$victim"
    # mpirun may return before its ranks are gone: wait for them too (a
    # zombie, which init has yet to reap, is gone).
    k=0
    while [ $k -lt 300 ]; do
        alive=
        for p in $runner $ranks; do
            case $(ps -o stat= -p "$p" 2>/dev/null) in
            '' | Z*) ;;
            *) alive=$p ;;
            esac
        done
        [ -z "$alive" ] && break
        sleep 0.1
        k=$((k + 1))
    done
    if [ -n "$alive" ]; then
        kill -s KILL $runner $ranks 2>/dev/null
        fail "$name: still running 30 s after the signal"
    fi
    wait "$runner"
    status=$?
    if [ "$started" != yes ] || [ -z "$victim" ]; then
        fail "$name: no temporary file (or no rank $whom among '$ranks') to signal: $(head -c 300 "$work/.out")"
    elif ls "$work"/.loopy-* >/dev/null 2>&1; then
        fail "$name: the temporary file is left: $(ls -A "$work" | grep loopy-)"
    elif [ -e "$work/out.ldb" ] || [ "$status" -eq 0 ]; then
        fail "$name: exit status $status, out.ldb $(ls -l "$work/out.ldb" 2>&1)"
    else
        pass
    fi
}
if ! command -v pgrep >/dev/null 2>&1; then
    echo "SKIP: no pgrep: signals during a solve are not tried"
elif cc -shared -fPIC -I"$root/include" "$work/slow.c" -o "$work/slow.so" \
    2>"$work/cc.err"; then
    interrupted "SIGTERM to mpirun" TERM mpirun
    interrupted "SIGINT to mpirun" INT mpirun
    interrupted "SIGTERM to rank 1" TERM 1
    interrupted "SIGINT to rank 0" INT 0
else
    fail "a slow game does not build: $(cat "$work/cc.err")"
fi

# The tier solver's work files (FILE.tiers.R-of-P and their journals): a
# solve that fails halfway leaves them, a new solve is then refused, a
# resume on another number of ranks finds none, and --resume ends with the
# same bytes, the work files gone; a tier damaged on disk is refused on
# resume.
tgame=connect4:4x4
rm -f "$work"/t.ldb*
"$LOOPY" game solve -q --solver retro "$tgame" -o "$work/twant.ldb" >/dev/null
LOOPY_MPI_FAULT=1:tier mpi 2 game solve -q --solver tier "$tgame" -o t.ldb \
    >/dev/null 2>"$work/t.err"
same "--solver tier failing halfway: status" "$?" 4
check "--solver tier failing halfway: no database" test ! -e "$work/t.ldb"
check "--solver tier failing halfway: the work files stay" \
    test -s "$work/t.ldb.tiers.1-of-2-journal"
refused_mpi "a new solve over the work files" 2 \
    'rank 0: t.ldb.tiers.0-of-2: the work file of an earlier solve is there: continue it \(--resume\)' \
    2 game solve --solver tier "$tgame" -o t.ldb
refused_mpi "--resume on another number of ranks" 2 \
    'rank 0: t.ldb.tiers.0-of-3: no work file to resume' 3 game solve \
    --solver tier --resume "$tgame" -o t.ldb
refused_mpi "--resume without --solver tier" 2 '--resume continues a solve of --solver tier' \
    2 game solve --resume "$tgame" -o t.ldb
cp "$work/t.ldb.tiers.0-of-2" "$work/t.saved"
# The work file's last byte is a record of the last tier, the fullest
# boards: solved first (children first), so journaled before the failure
# halfway.
size=$(wc -c <"$work/t.ldb.tiers.0-of-2")
printf '\377' | dd of="$work/t.ldb.tiers.0-of-2" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
refused_mpi "a damaged tier on resume" 1 'rank 0: .*t.ldb.tiers.0-of-2: tier [0-9]* of the work file is damaged' \
    2 game solve --solver tier --resume "$tgame" -o t.ldb
cp "$work/t.saved" "$work/t.ldb.tiers.0-of-2"
mpi 2 game solve -v --solver tier --resume "$tgame" -o t.ldb >/dev/null 2>"$work/t.err"
same "--resume: status" "$?" 0
# -v: the tiers journaled before the failure (the first 9 of the 17
# solved: it came after the tier in the middle) are said to be solved
# before; the other 8 are solved.
same "--resume -v: the tiers solved before, and now" \
    "$(grep -c ': tier [0-9]*/17: .*, solved before (--resume)$' "$work/t.err") $(grep -c ': tier [0-9]*/17: .* in [0-9.]* s' "$work/t.err")" \
    "9 8"
check "--resume: the same bytes" cmp -s "$work/t.ldb" "$work/twant.ldb"
check "--resume: the work files are gone" test ! -e "$work/t.ldb.tiers.0-of-2" -a \
    ! -e "$work/t.ldb.tiers.1-of-2-journal"
# Killed as the ranks made their journals (rank 0's first) or as a resume
# began the reach again (each journal cut to its header in turn): rank 1
# without a journal, or with one that records no reach, beside rank 0's
# journal of finished tiers: --resume reaches again on every rank and
# ends with the same bytes.
for cut in "rank 1's journal gone" "rank 1's journal cut to its header"; do
    rm -f "$work"/t.ldb*
    LOOPY_MPI_FAULT=1:tier mpi 2 game solve -q --solver tier "$tgame" -o t.ldb \
        >/dev/null 2>&1
    case $cut in
    *gone) rm -f "$work/t.ldb.tiers.1-of-2-journal" ;;
    *) truncate -s 384 "$work/t.ldb.tiers.1-of-2-journal" ;;
    esac
    mpi 2 game solve -v --solver tier --resume "$tgame" -o t.ldb >/dev/null 2>"$work/t.err"
    same "$cut: --resume: status" "$?" 0
    same "$cut: --resume: no tier solved before" \
        "$(grep -c 'solved before (--resume)$' "$work/t.err")" 0
    check "$cut: --resume: the same bytes" cmp -s "$work/t.ldb" "$work/twant.ldb"
done
# Rank 1's journal of another solve (a misere one, failed halfway) left
# without rank 0's, as a kill in that solve's removal of its files leaves
# it; a new solve killed once rank 0 has made its journal: rank 1's old
# journal went before, so --resume reaches again and ends with the same
# bytes.
rm -f "$work"/t.ldb*
LOOPY_MPI_FAULT=1:tier mpi 2 game solve -q --misere --solver tier "$tgame" -o t.ldb \
    >/dev/null 2>&1
rm -f "$work/t.ldb.tiers.0-of-2-journal"
LOOPY_MPI_FAULT=0:killed mpi 2 game solve -q --solver tier "$tgame" -o t.ldb \
    >/dev/null 2>&1
check "killed with rank 0's journal made: rank 1's old one is gone" \
    test -e "$work/t.ldb.tiers.0-of-2-journal" -a ! -e "$work/t.ldb.tiers.1-of-2-journal"
mpi 2 game solve -q --solver tier --resume "$tgame" -o t.ldb >/dev/null 2>"$work/t.err"
same "killed with rank 0's journal made: --resume: status" "$?" 0
check "killed with rank 0's journal made: --resume: the same bytes" \
    cmp -s "$work/t.ldb" "$work/twant.ldb"
# Killed after the database was written, as the ranks removed their work
# files (rank 0's journal first, then the others' files): --resume has
# nothing to do, says so with the database's summary and removes what is
# left; a new solve removes it too (without rank 0's journal the others'
# files are no solve's).
mpi 2 game solve --solver tier "$tgame" -o t.ldb >/dev/null 2>"$work/t.err"
want_line=$(grep "^loopy-mpi game solve: $tgame: " "$work/t.err" | sed 's/ ([0-9.]* s)//')
for run in --resume new; do
    for f in 0-of-2 1-of-2 1-of-2-journal; do : >"$work/t.ldb.tiers.$f"; done
    [ "$run" = new ] && run=
    mpi 2 game solve $run --solver tier "$tgame" -o t.ldb >/dev/null 2>"$work/t.err"
    same "finished, killed as its files were removed, ${run:-a new solve}: status" "$?" 0
    same "finished, ${run:-a new solve}: the summary" \
        "$(grep "^loopy-mpi game solve: $tgame: " "$work/t.err" | sed 's/ ([0-9.]* s)//')" "$want_line"
    if [ -n "$run" ]; then
        check "finished, --resume: said" grep -q \
            "^loopy-mpi game solve: t.ldb: nothing to resume: the solve had finished" "$work/t.err"
    fi
    check "finished, ${run:-a new solve}: the same bytes" cmp -s "$work/t.ldb" "$work/twant.ldb"
    check "finished, ${run:-a new solve}: nothing left" test -z "$(ls "$work"/t.ldb?* 2>/dev/null)"
done
: >"$work/t.ldb.tiers.0-of-2-journal"
: >"$work/t.ldb.tiers.1-of-2-journal"
refused_mpi "a new solve over rank 0's journal" 2 \
    'rank 0: t.ldb.tiers.0-of-2: the work file of an earlier solve is there: continue it \(--resume\)' \
    2 game solve --solver tier "$tgame" -o t.ldb
check "a new solve over rank 0's journal: rank 1's is kept" test -e "$work/t.ldb.tiers.1-of-2-journal"
rm -f "$work"/t.ldb.tiers*
# A tier whose moves stay inside it, failing on rank 1 after its Win/Lose
# pass (its Wins and Loses decided, the tier not journaled), and at the
# middle tier: --resume puts the tier back to undecided and ends with the
# retro solver's bytes.
cgame=chess:KPK
rm -f "$work"/c.ldb*
"$LOOPY" game solve -q --solver retro "$cgame" -o "$work/cwant.ldb" >/dev/null
for at in inner tier; do
    LOOPY_MPI_FAULT=1:$at mpi 3 game solve -q --solver tier "$cgame" -o c.ldb \
        >/dev/null 2>"$work/c.err"
    same "chess --solver tier failing ($at): status" "$?" 4
    check "chess --solver tier failing ($at): the message" grep -q \
        "rank 1: out of memory (LOOPY_MPI_FAULT)" "$work/c.err"
    check "chess --solver tier failing ($at): no database" test ! -e "$work/c.ldb"
    mpi 3 game solve -q --solver tier --resume "$cgame" -o c.ldb >/dev/null 2>"$work/c.err"
    same "chess --resume after failing ($at): status" "$?" 0
    check "chess --resume after failing ($at): the same bytes" cmp -s "$work/c.ldb" "$work/cwant.ldb"
    rm -f "$work"/c.ldb*
done

# Killed: SIGKILL to one rank at random moments of the solve (mpirun then
# ends the others), resumed with --resume until it ends: the same bytes.
# Rounds of two kills (the first run, then the first resume), until 8
# kills (3 in a quick run).
ranks_of() { # ranks_of RUNNER: the pids of loopy-mpi's ranks in $work
    rs=$(pgrep -P "$1" | tr '\n' ' ')
    if [ -z "$rs" ]; then
        for r in $(pgrep -f -- "$MPI_PROGRAM game solve"); do
            [ "$(readlink "/proc/$r/cwd")" = "$work" ] && rs="$rs $r"
        done
    fi
    echo "$rs"
}
kill_rank_at() { # kill_rank_at NS FRACTION: a run killed after NS x FRACTION ns
    resume=
    [ -e "$work/k.ldb.tiers.0-of-2-journal" ] && resume=--resume
    (cd "$work" && exec mpirun -q $as_root --oversubscribe -np 2 "$MPI_PROGRAM" \
        game solve -q $resume --solver tier "$kgame" -o k.ldb) >/dev/null 2>&1 &
    runner=$!
    sleep "$(awk -v n="$1" -v f="$2" 'BEGIN { printf "%.3f", n * f / 1e9 }')"
    victim=$(ranks_of "$runner" | awk -v s="$kseed" '{ srand(s); print $(1 + int(rand() * NF)) }')
    kseed=$((kseed + 1))
    [ -n "$victim" ] && kill -9 "$victim" 2>/dev/null && kills=$((kills + 1))
    # mpirun has been seen to hang (once, a rank killed as Open MPI
    # started it: "PMIX ERROR: UNREACHABLE"): ended after $limit seconds.
    (trap 'kill "$nap" 2>/dev/null; exit 0' TERM
     sleep "$limit" & nap=$!
     wait "$nap" && kill -9 "$runner") >/dev/null 2>&1 &
    watchdog=$!
    wait "$runner" 2>/dev/null
    kill "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
}
if command -v pgrep >/dev/null 2>&1; then
    kgame=connect4:5x4
    want_kills=8
    $quick && kgame=connect4:4x4 && want_kills=3
    "$LOOPY" game solve -q --solver retro "$kgame" -o "$work/kwant.ldb" >/dev/null
    start=$(date +%s%N)
    mpi 2 game solve -q --solver tier "$kgame" -o k.ldb
    kns=$(( $(date +%s%N) - start ))
    kseed=${SEED:-$$}
    kills=0
    round=0
    while [ "$kills" -lt "$want_kills" ] && [ "$round" -lt 20 ]; do
        round=$((round + 1))
        rm -f "$work"/k.ldb*
        kill_rank_at "$kns" "$(awk -v s="$kseed" 'BEGIN { srand(s); printf "%.3f", 0.3 + rand() * 0.6 }')"
        kill_rank_at "$kns" "$(awk -v s="$kseed" 'BEGIN { srand(s); printf "%.3f", 0.2 + rand() * 0.5 }')"
        # Rank 0's journal: work to resume; other files with the database:
        # a solve killed as it removed them, which --resume clears.
        resume=
        [ -e "$work/k.ldb.tiers.0-of-2-journal" ] && resume=--resume
        [ -e "$work/k.ldb" ] && [ -n "$(ls "$work"/k.ldb.tiers* 2>/dev/null)" ] &&
            resume=--resume
        [ -e "$work/k.ldb" ] && [ -z "$resume" ] ||
            mpi 2 game solve -q $resume --solver tier "$kgame" -o k.ldb >/dev/null 2>"$work/k.err"
        if cmp -s "$work/k.ldb" "$work/kwant.ldb"; then
            pass
        else
            fail "round $round: killed and resumed, the database differs: $(cat "$work/k.err")"
        fi
    done
    echo "mpi: $kills ranks killed in $round rounds (seed $kseed; a solve takes $((kns / 1000000)) ms)"
    [ "$kills" -ge "$want_kills" ] && pass || fail "only $kills of $((2 * round)) runs killed before they ended"
    ls "$work"/k.ldb.tiers* >/dev/null 2>&1 && fail "work files left after the kills' last resume"
fi

mpi 2 --help >"$work/help" 2>&1
check "--help" grep -q 'mpirun \[-np P\] loopy-mpi solve' "$work/help"
same "--version" "$(mpi 2 --version)" "loopy-mpi $("$LOOPY" --version | sed 's/.* //')"

finish mpi
