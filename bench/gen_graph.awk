# gen_graph.awk - a random game graph in loopy's edge format.
#   awk -v n=1000000 -v m=3000000 -v seed=1 -v dag=0 -f bench/gen_graph.awk
# dag=1 keeps only edges from a higher to a lower id (acyclic).
BEGIN {
    srand(seed);
    print n, m;
    for (i = 0; i < m; i++) {
        u = int(rand() * n) + 1;
        v = int(rand() * n) + 1;
        if (dag && u <= v) {
            if (u == v) { if (u < n) u++; else v--; }
            else { t = u; u = v; v = t; }
            if (u == v) { u = 2; v = 1; }
        }
        print u, v;
    }
}
