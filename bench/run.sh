#!/bin/sh
# bench/run.sh - loopy against the contest-style baseline on large graphs.
#
#   bench/run.sh            n = 1e7, m = 5e7 random graph and a 1e7 chain
#   N=1000000 M=5000000 bench/run.sh     a smaller run
#
# Environment: N, M (random graph), CHAIN (chain length), RUNS (timed runs
# of loopy, default 5), BASE_RUNS (of the baseline, default 3), DIR (work
# folder, default build/bench of this tree; about 2 GB), THREADS (default:
# nproc).
# Prints medians (hyperfine), peak memory (/usr/bin/time -v) and the
# ratios the targets are about.  Outputs are compared with the baseline's.
set -eu
N=${N:-10000000}
M=${M:-50000000}
CHAIN=${CHAIN:-10000000}
RUNS=${RUNS:-5}
BASE_RUNS=${BASE_RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
root=$(dirname "$here")
DIR=${DIR:-$root/build/bench}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$DIR"

echo "== building"
make -C "$root" -s
cc -O2 -o "$DIR/gen_graph" "$here/gen_graph.c"
c++ -O2 -o "$DIR/baseline" "$here/baseline.cpp"
cc -O2 -fopenmp -I"$root/include" -o "$DIR/phases" "$here/phases.c" \
    "$root/build/libloopy.a" -lzstd -lz -lm
loopy="$root/build/loopy"

echo "== workloads (n=$N m=$M, chain $CHAIN)"
workloads
ls -l "$DIR/random.txt" "$DIR/random.lgr" "$DIR/chain.txt" | awk '{print "  " $5 " bytes  " $NF}'

echo "== same answers"
"$DIR/baseline" <"$DIR/random.txt" >"$DIR/baseline.out"
"$loopy" solve -q -t "$THREADS" "$DIR/random.txt" >"$DIR/loopy.out"
"$loopy" solve -q -t 1 "$DIR/random.lgr" >"$DIR/loopy1.out"
cmp "$DIR/baseline.out" "$DIR/loopy.out" && cmp "$DIR/loopy.out" "$DIR/loopy1.out" &&
    echo "  baseline, loopy text ($THREADS threads), loopy binary (1 thread): identical"
awk '{c[$2]++} END {printf "  outcomes: W %d, L %d, D %d\n", c["W"], c["L"], c["D"]}' \
    "$DIR/loopy.out"
rm -f "$DIR/baseline.out" "$DIR/loopy1.out"

echo "== timings (hyperfine; output to /dev/null)"
hyperfine -N --style basic --export-json "$DIR/base.json" --runs "$BASE_RUNS" \
    -n baseline "sh -c '$DIR/baseline < $DIR/random.txt > /dev/null'" >/dev/null
hyperfine -N --style basic --export-json "$DIR/loopy.json" --runs "$RUNS" --warmup 1 \
    -n text "sh -c '$loopy solve -q -t $THREADS $DIR/random.txt > /dev/null'" \
    -n text-1thread "sh -c '$loopy solve -q -t 1 $DIR/random.txt > /dev/null'" \
    -n binary "sh -c '$loopy solve -q -t $THREADS $DIR/random.lgr > /dev/null'" \
    -n chain "sh -c '$loopy solve -q -t $THREADS $DIR/chain.txt > /dev/null'" >/dev/null

echo "== peak memory (/usr/bin/time -v)"
rss() { /usr/bin/time -v sh -c "$1 > /dev/null" 2>&1 >/dev/null |
            awk '/Maximum resident/ {print $NF}'; }
rss_base=$(rss "$DIR/baseline < $DIR/random.txt")
rss_text=$(rss "$loopy solve -q -t $THREADS $DIR/random.txt")
rss_bin=$(rss "$loopy solve -q -t $THREADS $DIR/random.lgr")

echo "== phases (bench/phases, median of 3)"
phase_runs() { for i in 1 2 3; do "$DIR/phases" "$1" "$2"; done; }
phase_runs "$DIR/random.txt" 1 >"$DIR/phases1.txt"
phase_runs "$DIR/random.txt" "$THREADS" >"$DIR/phasesT.txt"
sed 's/^/  1 thread:  /' "$DIR/phases1.txt"
sed "s/^/  $THREADS threads: /" "$DIR/phasesT.txt"

python3 - "$DIR" "$N" "$M" "$CHAIN" "$THREADS" "$rss_base" "$rss_text" "$rss_bin" <<'PY'
import json, re, statistics, sys
d, n, m, chain, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rss_base, rss_text, rss_bin = (int(x) for x in sys.argv[6:9])
res = {r["command"]: r for f in ("base.json", "loopy.json")
       for r in json.load(open(f"{d}/{f}"))["results"]}
med = {k: r["median"] for k, r in res.items()}
print("== results")
for k, r in res.items():
    print(f"  {k:13s} median {r['median']:8.3f} s  (min {r['min']:.3f}, max {r['max']:.3f}, {len(r['times'])} runs)")
def phases(name):
    rows = [dict((k, float(v)) for k, v in re.findall(r"(\w+) ([0-9.]+) s", l))
            for l in open(f"{d}/{name}")]
    speed = [float(x) for l in open(f"{d}/{name}") for x in re.findall(r"\(([0-9.]+) GB/s\)", l)]
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}, statistics.median(speed)
p1, gbs1 = phases("phases1.txt")
pt, gbst = phases("phasesT.txt")
b, t, t1, bi, ch = med["baseline"], med["text"], med["text-1thread"], med["binary"], med["chain"]
print("== targets")
print(f"  end to end from text vs baseline: {b:.3f} / {t:.3f} = {b / t:.1f}x faster (target >= 12x)")
print(f"  peak memory: baseline {rss_base / 1024:.0f} MiB, loopy text {rss_text / 1024:.0f} MiB "
      f"= {100 * rss_text / rss_base:.0f}% (target <= 60%), loopy binary {rss_bin / 1024:.0f} MiB")
print(f"  binary vs text: {bi:.3f} / {t:.3f} = {100 * bi / t:.0f}% of the text run's time (target <= 25%)")
print(f"  solve phase: 1 thread {p1['solve']:.3f} s, {threads} threads {pt['solve']:.3f} s "
      f"= {p1['solve'] / pt['solve']:.2f}x (target >= 1.5x)")
rand_eps, chain_eps = m / t, (chain - 1) / ch
print(f"  edges/s end to end: random {rand_eps / 1e6:.1f} M/s, chain {chain_eps / 1e6:.1f} M/s "
      f"= {chain_eps / rand_eps:.2f} of random (target >= 0.5)")
print(f"  text parsing (pass 1: check + count, 1 thread): {gbs1:.2f} GB/s (target >= 1 GB/s); "
      f"{threads} threads: {gbst:.2f} GB/s")
print(f"  1 thread end to end: {t1:.3f} s = {b / t1:.1f}x faster than the baseline")
PY
