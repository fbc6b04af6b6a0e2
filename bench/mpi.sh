#!/bin/sh
# bench/mpi.sh - loopy-mpi (Open MPI) against the single-process solver on
# the same binary graph, on this machine.
#
#   bench/mpi.sh                     n = 1e7, m = 5e7 random graph, 1e7 chain
#   N=1000000 M=5000000 CHAIN=1000000 bench/mpi.sh        a smaller run
#
# Environment: N, M, CHAIN, GAME (a game by rules, default connect4:5x4),
# TGAME (a game with tiers for --solver tier, default connect4:6x4),
# RUNS (timed runs each, default 3), DIR (work
# folder, default build/bench; about 2 GB), THREADS (of the single-process
# solver, default nproc).  Prints medians (hyperfine), their ratios, the
# peak memory of the single process (/usr/bin/time -v) and of each rank
# (VmHWM, from --stats), and the bytes each rank sent per exchange.  The
# outputs go to files (-o): under mpirun, rank 0's standard output passes
# through mpirun, which costs more than the solve on large outputs.
set -eu
N=${N:-10000000}
M=${M:-50000000}
CHAIN=${CHAIN:-10000000}
GAME=${GAME:-connect4:5x4}
TGAME=${TGAME:-connect4:6x4}
RUNS=${RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
root=$(dirname "$here")
DIR=${DIR:-$root/build/bench}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$DIR"
as_root=
[ "$(id -u)" = 0 ] && as_root=--allow-run-as-root
mpi="mpirun -q $as_root --oversubscribe --bind-to none"

echo "== building"
make -C "$root" -s MPI=1
cc -O2 -o "$DIR/gen_graph" "$here/gen_graph.c"
loopy="$root/build/loopy"
loopy_mpi="$root/build/loopy-mpi"

echo "== workloads (n=$N m=$M, chain $CHAIN)"
workloads
"$loopy" convert -q "$DIR/chain.txt" -o "$DIR/chain.lgr"

echo "== same answers"
"$loopy" solve -q -t "$THREADS" "$DIR/random.lgr" >"$DIR/single.out"
for np in 1 2; do
    $mpi -np $np "$loopy_mpi" solve -q "$DIR/random.lgr" >"$DIR/mpi.out"
    cmp "$DIR/single.out" "$DIR/mpi.out"
    echo "  random graph, $np rank(s): identical to loopy solve"
done
"$loopy" solve -q -t "$THREADS" "$DIR/chain.lgr" >"$DIR/single.out"
$mpi -np 2 "$loopy_mpi" solve -q "$DIR/chain.lgr" >"$DIR/mpi.out"
cmp "$DIR/single.out" "$DIR/mpi.out"
echo "  chain, 2 ranks: identical to loopy solve"
rm -f "$DIR/single.out" "$DIR/mpi.out"
"$loopy" game solve -q --solver retro -t "$THREADS" "$GAME" -o "$DIR/single.ldb" >/dev/null
$mpi -np 2 "$loopy_mpi" game solve -q "$GAME" -o "$DIR/mpi.ldb"
cmp "$DIR/single.ldb" "$DIR/mpi.ldb"
echo "  $GAME, 2 ranks: the same database as loopy game solve"
"$loopy" game solve -q --solver tier -t "$THREADS" "$TGAME" -o "$DIR/single.ldb" >/dev/null
$mpi -np 2 "$loopy_mpi" game solve -q --solver tier "$TGAME" -o "$DIR/mpi.ldb"
cmp "$DIR/single.ldb" "$DIR/mpi.ldb"
echo "  $TGAME, --solver tier, 2 ranks: the same database as loopy game solve --solver tier"

echo "== timings (hyperfine, $RUNS runs each; outputs to files)"
hyperfine -N --style basic --export-json "$DIR/mpi.json" --runs "$RUNS" --warmup 1 \
    -n single "$loopy solve -q -t $THREADS $DIR/random.lgr -o $DIR/out.txt" \
    -n np1 "$mpi -np 1 $loopy_mpi solve -q $DIR/random.lgr -o $DIR/out.txt" \
    -n np2 "$mpi -np 2 $loopy_mpi solve -q $DIR/random.lgr -o $DIR/out.txt" \
    -n chain-single "$loopy solve -q -t $THREADS $DIR/chain.lgr -o $DIR/out.txt" \
    -n chain-np2 "$mpi -np 2 $loopy_mpi solve -q $DIR/chain.lgr -o $DIR/out.txt" \
    -n game-single "$loopy game solve -q --solver retro -t $THREADS $GAME -o $DIR/single.ldb" \
    -n game-np1 "$mpi -np 1 $loopy_mpi game solve -q $GAME -o $DIR/mpi.ldb" \
    -n game-np2 "$mpi -np 2 $loopy_mpi game solve -q $GAME -o $DIR/mpi.ldb" \
    -n tier-single "$loopy game solve -q --solver tier -t $THREADS $TGAME -o $DIR/single.ldb" \
    -n tier-np1 "$mpi -np 1 $loopy_mpi game solve -q --solver tier $TGAME -o $DIR/mpi.ldb" \
    -n tier-np2 "$mpi -np 2 $loopy_mpi game solve -q --solver tier $TGAME -o $DIR/mpi.ldb" \
    -n tier-retro-np2 "$mpi -np 2 $loopy_mpi game solve -q --solver retro $TGAME -o $DIR/mpi.ldb" \
    >/dev/null
rm -f "$DIR/out.txt"

echo "== memory and messages"
rss_single=$(/usr/bin/time -v "$loopy" solve -q -t "$THREADS" "$DIR/random.lgr" -o "$DIR/out.txt" \
    2>&1 >/dev/null | awk '/Maximum resident/ {print $NF}')
$mpi -np 2 "$loopy_mpi" solve -q --stats "$DIR/random.lgr" -o "$DIR/out.txt" 2>"$DIR/stats2.txt"
$mpi -np 2 "$loopy_mpi" solve -q --stats "$DIR/chain.lgr" -o "$DIR/out.txt" 2>"$DIR/stats_chain.txt"
rm -f "$DIR/out.txt"
rss_game=$(/usr/bin/time -v "$loopy" game solve -q --solver retro -t "$THREADS" "$GAME" \
    -o "$DIR/single.ldb" 2>&1 >/dev/null | awk '/Maximum resident/ {print $NF}')
$mpi -np 2 "$loopy_mpi" game solve -q --stats "$GAME" -o "$DIR/mpi.ldb" 2>"$DIR/stats_game.txt"
rss_tier=$(/usr/bin/time -v "$loopy" game solve -q --solver tier -t "$THREADS" "$TGAME" \
    -o "$DIR/single.ldb" 2>&1 >/dev/null | awk '/Maximum resident/ {print $NF}')
$mpi -np 2 "$loopy_mpi" game solve -q --stats --solver tier "$TGAME" -o "$DIR/mpi.ldb" \
    2>"$DIR/stats_tier.txt"
$mpi -np 2 "$loopy_mpi" game solve -q --stats --solver retro "$TGAME" -o "$DIR/mpi.ldb" \
    2>"$DIR/stats_tier_retro.txt"
sed 's/^/  random, np=2: /' "$DIR/stats2.txt"
sed 's/^/  game, np=2: /' "$DIR/stats_game.txt"
sed 's/^/  chain, np=2: /' "$DIR/stats_chain.txt"

python3 - "$DIR" "$rss_single" "$THREADS" "$rss_game" "$GAME" "$rss_tier" "$TGAME" <<'PY'
import json, re, sys
d, rss_single, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rss_game, game = int(sys.argv[4]), sys.argv[5]
rss_tier, tgame = int(sys.argv[6]), sys.argv[7]
med = {r["command"]: r["median"] for r in json.load(open(f"{d}/mpi.json"))["results"]}
print(f"== results (medians)")
print(f"  random graph: loopy solve, {threads} threads   {med['single']:8.3f} s")
print(f"  random graph: loopy-mpi, 1 rank         {med['np1']:8.3f} s   "
      f"ratio single/np1 {med['single'] / med['np1']:.2f}x")
print(f"  random graph: loopy-mpi, 2 ranks        {med['np2']:8.3f} s   "
      f"ratio single/np2 {med['single'] / med['np2']:.2f}x")
print(f"  chain: loopy solve, {threads} threads          {med['chain-single']:8.3f} s")
print(f"  chain: loopy-mpi, 2 ranks               {med['chain-np2']:8.3f} s   "
      f"ratio single/np2 {med['chain-single'] / med['chain-np2']:.2f}x")
print(f"  {game}: loopy game solve, {threads} threads {med['game-single']:8.3f} s")
print(f"  {game}: loopy-mpi, 1 rank         {med['game-np1']:8.3f} s   "
      f"ratio single/np1 {med['game-single'] / med['game-np1']:.2f}x")
print(f"  {game}: loopy-mpi, 2 ranks        {med['game-np2']:8.3f} s   "
      f"ratio single/np2 {med['game-single'] / med['game-np2']:.2f}x")
print(f"  {game}: peak memory, loopy game solve {rss_game / 1024:.1f} MB; "
      + "; ".join(f"rank {r} {float(p):.1f} MB" for r, p in re.findall(
          r"rank (\d+): .*?peak ([\d.]+) MB", open(f"{d}/stats_game.txt").read())))
print(f"  {tgame}: loopy game solve --solver tier, {threads} threads {med['tier-single']:8.3f} s")
for name, label in (("tier-np1", "--solver tier, 1 rank "), ("tier-np2", "--solver tier, 2 ranks"),
                    ("tier-retro-np2", "--solver retro, 2 ranks")):
    print(f"  {tgame}: loopy-mpi {label}  {med[name]:8.3f} s   "
          f"ratio single/mpi {med['tier-single'] / med[name]:.2f}x")
for f, label in (("stats_tier.txt", "--solver tier"), ("stats_tier_retro.txt", "--solver retro")):
    print(f"  {tgame}: peak memory, loopy-mpi {label}, 2 ranks: "
          + "; ".join(f"rank {r} {float(p):.1f} MB" for r, p in re.findall(
              r"rank (\d+): .*?peak ([\d.]+) MB", open(f"{d}/{f}").read()))
          + f" (loopy game solve --solver tier: {rss_tier / 1024:.1f} MB)")
stats = open(f"{d}/stats2.txt").read()
steps = int(re.search(r"(\d+) supersteps of the levels", stats).group(1))
print(f"  peak memory, loopy solve: {rss_single / 1024:.1f} MB")
for rank, sent, peak in re.findall(
        r"rank (\d+): .*?, ([\d.]+) MB sent in the levels.*?peak ([\d.]+) MB", stats):
    print(f"  peak memory, rank {rank} of 2: {float(peak):.1f} MB = "
          f"{100 * float(peak) * 1e6 / (rss_single * 1024):.0f}% of loopy solve's; "
          f"sent {float(sent):.1f} MB in {steps} level exchanges, "
          f"{float(sent) / max(steps, 1):.2f} MB per exchange")
PY
