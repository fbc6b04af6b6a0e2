# gen_graph.awk - game graphs in loopy's edge format for the benchmarks.
#   awk -v shape=random -v n=1000000 -v m=3000000 -v seed=1 -f bench/gen_graph.awk
# shape=random  m uniform random edges (cycles everywhere)
# shape=dag     m random edges, each from the higher to the lower id
# shape=path    1 -> 2 -> ... -> n (acyclic): values travel against the
#               vertex order, so naive sweeps need about n/2 rounds
# shape=layered each vertex gets m/n edges to random vertices up to 64 ids
#               ahead and, with probability back (default 0.01), one edge
#               back: cycles, and values up to about m/n
BEGIN {
    srand(seed);
    if (back == "") back = 0.01;
    if (shape == "path") {
        print n, n - 1;
        for (i = 1; i < n; i++) print i, i + 1;
        exit;
    }
    if (shape == "layered") {
        # Two passes with the same seed: count the edges, then print.
        d = int(m / n);
        for (pass = 0; pass < 2; pass++) {
            srand(seed); e = 0;
            if (pass == 1) print n, total;
            for (i = 1; i <= n; i++) {
                for (k = 0; k < d && i < n; k++) {
                    j = i + 1 + int(rand() * 64); if (j > n) j = n;
                    if (pass == 1) print i, j; e++;
                }
                if (i > 1 && rand() < back) {
                    j = i - 1 - int(rand() * (i - 1 < 64 ? i - 1 : 64));
                    if (pass == 1) print i, j; e++;
                }
            }
            total = e;
        }
        exit;
    }
    print n, m;
    for (i = 0; i < m; i++) {
        u = int(rand() * n) + 1;
        v = int(rand() * n) + 1;
        if (shape == "dag") {
            if (u == v) { if (u < n) u++; else v--; }
            if (u < v) { t = u; u = v; v = t; }
        }
        print u, v;
    }
}
