/*
 * test_oracle.c - loopy_solve against a brute-force oracle written from the
 * specification in loopy.h, on thousands of random graphs of many shapes
 * (tests/gen.h), in normal and misere play, with and without lose_at /
 * win_at targets and tie_at sets (alone and with targets); plus
 * hand-written cases with known answers and the error contract.
 *
 * This file is the driver: which graphs, modes and cases run.  The oracle
 * and the checks are in tests/lib/oracle.c (tests/oracle.h), the graph
 * generator in tests/lib/gen.c (tests/gen.h).
 *
 * Every solution of the library is checked three ways (check_solution):
 *   1. equal to the oracle (outcome, remoteness, best move, counts);
 *   2. locally consistent with the specification (spec_verify; this check
 *      alone determines the solution uniquely, see its comment);
 *   3. its best moves are legal moves.
 * Best moves follow loopy.h: the least-numbered successor with the required
 * value.
 * The oracle's own output also goes through spec_verify, so a bug in the
 * oracle cannot silently agree with a bug in the library.
 *
 * Usage: test_oracle [GRAPHS [BASE_SEED]]     (default 10000 graphs)
 *        test_oracle one SEED SHAPE           (rerun one reported graph)
 */
#include "loopy.h"

#include "check.h"
#include "gen.h"
#include "oracle.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE LOOPY_NONE

/* ==== One random graph in all modes ===================================== */

static unsigned long solves_done;

static void run_graph(uint64_t seed, int shape)
{
    gen_edges g = GEN_EDGES_INIT;
    gen_targets ta = GEN_TARGETS_INIT, tb = GEN_TARGETS_INIT;
    gen_targets td = GEN_TARGETS_INIT, te = GEN_TARGETS_INIT;
    if (gen_graph(seed, shape, &g) != 0 ||
        gen_make_targets(gen_mix_seed(seed, 0xA), g.n, &ta) != 0 ||
        gen_make_targets(gen_mix_seed(seed, 0xB), g.n, &tb) != 0 ||
        gen_add_ties(gen_mix_seed(seed, 0xD), g.n, &td) != 0 ||
        gen_make_targets(gen_mix_seed(seed, 0xE), g.n, &te) != 0 ||
        gen_add_ties(gen_mix_seed(seed, 0xF), g.n, &te) != 0) {
        fprintf(stderr, "test_oracle: out of memory in the generator\n");
        exit(EXIT_FAILURE);
    }
    gen_rng r;
    gen_rng_seed(&r, gen_mix_seed(seed, 0xC));
    static const int thread_choices[] = {1, 1, 1, 1, 2, 2, 3, 0};
    int threads = thread_choices[gen_below32(&r, 8)];
    int b_misere = gen_chance(&r, 1, 2);
    int e_misere = gen_chance(&r, 1, 2);
    int null_opts = gen_chance(&r, 1, 2);

    test_ctx c = {"random", seed, shape, "build", "loopy_graph_from_edges",
                  threads,  &g,   NULL,  0};
    csr gr;
    csr_build(&g, &gr);

    loopy_graph *lg = NULL;
    loopy_status st = loopy_graph_from_edges(g.n, g.m, g.tail, g.head, &lg);
    if (st != LOOPY_OK || !lg) {
        fail(&c, "loopy_graph_from_edges: %d (%s)", (int)st,
             loopy_strerror(st));
        check_case_end();
        csr_free(&gr);
        gen_edges_free(&g);
        gen_targets_free(&ta);
        gen_targets_free(&tb);
        gen_targets_free(&td);
        gen_targets_free(&te);
        return;
    }
    check_graph(&c, &gr, lg);
    loopy_solver *solver = NULL;
    st = loopy_solver_create(lg, &solver);
    if (st != LOOPY_OK || !solver) {
        fail(&c, "loopy_solver_create: %d", (int)st);
        solver = NULL;
    }
    check_case_end();

    struct {
        const char *name;
        int misere;
        const gen_targets *t;
    } modes[] = {
        {"normal", 0, NULL},
        {"misere", 1, NULL},
        {"targetsA", 0, &ta},
        {"targetsA+misere", 1, &ta},
        {"targetsB", b_misere, &tb},
        {"ties", 0, &td},
        {"ties+misere", 1, &td},
        {"targetsE+ties", e_misere, &te},
        {"normal-again", 0, NULL}, /* the solver must not keep old targets */
    };
    for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++) {
        c.mode = modes[mi].name;
        c.misere = modes[mi].misere;
        c.t = modes[mi].t;
        uint8_t *kind = target_kinds(g.n, c.t);
        oracle_sol o;
        oracle_solve(&g, c.misere, c.t, &o);
        {
            /* The oracle must satisfy the spec itself. */
            char why[256];
            c.via = "oracle";
            if (spec_verify(&gr, kind, c.misere, o.outcome, o.rem, o.best, why,
                            sizeof why) != NONE)
                fail(&c, "ORACLE BUG: %s", why);
        }
        loopy_solve_options opts = make_options(c.misere, c.t, threads);
        int use_null = mi == 0 && null_opts; /* NULL options = normal play */

        c.via = use_null ? "loopy_solve(NULL options)" : "loopy_solve";
        loopy_solution *s = NULL;
        st = loopy_solve(lg, use_null ? NULL : &opts, &s);
        solves_done++;
        if (st != LOOPY_OK)
            fail(&c, "loopy_solve returned %d (%s)", (int)st,
                 loopy_strerror(st));
        else
            check_solution(&c, &gr, kind, &o, s);
        loopy_solution_free(s);

        if (solver) {
            c.via = "loopy_solver_run";
            s = NULL;
            st = loopy_solver_run(solver, &opts, &s);
            solves_done++;
            if (st != LOOPY_OK)
                fail(&c, "loopy_solver_run returned %d (%s)", (int)st,
                     loopy_strerror(st));
            else
                check_solution(&c, &gr, kind, &o, s);
            loopy_solution_free(s);
        }
        oracle_free(&o);
        free(kind);
        check_case_end();
    }

    loopy_solver_free(solver);
    loopy_graph_free(lg);
    csr_free(&gr);
    gen_edges_free(&g);
    gen_targets_free(&ta);
    gen_targets_free(&tb);
    gen_targets_free(&td);
    gen_targets_free(&te);
}

/* ==== Hand-written cases ================================================= */

typedef struct expect_v {
    char o; /* 'W', 'L', 'D', 'T' */
    uint32_t r;
    uint32_t b;
} expect_v;

/*
 * Solves the graph given as a list of (tail, head) pairs and compares the
 * oracle AND the library (fresh solve and solver run) with the expected
 * values.  lose/win/tie lists end with NONE.
 */
static void hand_case(const char *name, uint32_t n, const uint32_t *pairs,
                      size_t m, int misere, const uint32_t *lose,
                      const uint32_t *win, const uint32_t *tie,
                      const expect_v *want)
{
    gen_edges g = GEN_EDGES_INIT;
    gen_targets t = GEN_TARGETS_INIT;
    g.n = n;
    for (size_t i = 0; i < m; i++)
        gen_push(&g, pairs[2 * i], pairs[2 * i + 1]);
    size_t nl = 0, nw = 0, nt = 0;
    while (lose && lose[nl] != NONE)
        nl++;
    while (win && win[nw] != NONE)
        nw++;
    while (tie && tie[nt] != NONE)
        nt++;
    if (g.oom_) {
        fprintf(stderr, "test_oracle: out of memory\n");
        exit(EXIT_FAILURE);
    }
    t.lose_at = nl ? (uint32_t *)xmalloc(nl * sizeof(uint32_t)) : NULL;
    t.win_at = nw ? (uint32_t *)xmalloc(nw * sizeof(uint32_t)) : NULL;
    if (nl)
        memcpy(t.lose_at, lose, nl * sizeof(uint32_t));
    if (nw)
        memcpy(t.win_at, win, nw * sizeof(uint32_t));
    t.tie_at = nt ? (uint32_t *)xmalloc(nt * sizeof(uint32_t)) : NULL;
    if (nt)
        memcpy(t.tie_at, tie, nt * sizeof(uint32_t));
    t.lose_count = nl;
    t.win_count = nw;
    t.tie_count = nt;

    test_ctx c = {name, 0, -1, "hand", "oracle", 1, &g, &t, misere};
    csr gr;
    csr_build(&g, &gr);
    uint8_t *kind = target_kinds(n, &t);
    oracle_sol o;
    oracle_solve(&g, misere, &t, &o);

    /* The expected values, as arrays. */
    uint8_t *wo = (uint8_t *)xmalloc(n);
    uint32_t *wr = (uint32_t *)xmalloc((size_t)n * sizeof *wr);
    uint32_t *wb = (uint32_t *)xmalloc((size_t)n * sizeof *wb);
    oracle_sol w = {n, wo, wr, wb, {0, 0, 0, 0}};
    for (uint32_t v = 0; v < n; v++) {
        wo[v] = (uint8_t)(want[v].o == 'W'   ? LOOPY_WIN
                          : want[v].o == 'L' ? LOOPY_LOSE
                          : want[v].o == 'T' ? LOOPY_TIE
                                             : LOOPY_DRAW);
        wr[v] = want[v].r;
        wb[v] = want[v].b;
        w.count[wo[v]]++;
    }
    char why[256];
    if (spec_verify(&gr, kind, misere, wo, wr, wb, why, sizeof why) != NONE)
        fail(&c, "the hand-written expectation itself violates the spec: %s",
             why);
    for (uint32_t v = 0; v < n; v++)
        if (o.outcome[v] != wo[v] || o.rem[v] != wr[v] || o.best[v] != wb[v]) {
            fail(&c,
                 "ORACLE BUG at vertex %" PRIu32 ": %s rem %" PRIu32
                 " best %" PRIu32 ", expected %s rem %" PRIu32 " best %" PRIu32,
                 v, oname(o.outcome[v]), o.rem[v], o.best[v], oname(wo[v]),
                 wr[v], wb[v]);
            break;
        }

    loopy_graph *lg = NULL;
    loopy_status st = loopy_graph_from_edges(n, g.m, g.tail, g.head, &lg);
    if (st != LOOPY_OK || !lg) {
        fail(&c, "loopy_graph_from_edges: %d", (int)st);
    } else {
        loopy_solve_options opts = make_options(misere, &t, 1);
        loopy_solution *s = NULL;
        c.via = "loopy_solve";
        st = loopy_solve(lg, &opts, &s);
        if (st != LOOPY_OK)
            fail(&c, "loopy_solve: %d", (int)st);
        else
            check_solution(&c, &gr, kind, &w, s);
        loopy_solution_free(s);

        loopy_solver *solver = NULL;
        c.via = "loopy_solver_run";
        if (loopy_solver_create(lg, &solver) != LOOPY_OK || !solver) {
            fail(&c, "loopy_solver_create failed");
        } else {
            s = NULL;
            st = loopy_solver_run(solver, &opts, &s);
            if (st != LOOPY_OK)
                fail(&c, "loopy_solver_run: %d", (int)st);
            else
                check_solution(&c, &gr, kind, &w, s);
            loopy_solution_free(s);
        }
        loopy_solver_free(solver);
    }
    loopy_graph_free(lg);
    free(wo);
    free(wr);
    free(wb);
    oracle_free(&o);
    free(kind);
    csr_free(&gr);
    gen_edges_free(&g);
    gen_targets_free(&t);
    check_case_end();
}

#define ARR(...) ((const uint32_t[]){__VA_ARGS__})
#define LEN2(a) (sizeof(a) / sizeof((a)[0]) / 2)
#define HAND_TIES(name, n, edges, misere, lose, win, tie, ...)                 \
    do {                                                                       \
        static const uint32_t e_[] = edges;                                    \
        static const expect_v w_[] = {__VA_ARGS__};                            \
        hand_case(name, n, e_, LEN2(e_), misere, lose, win, tie, w_);          \
    } while (0)
#define HAND(name, n, edges, misere, lose, win, ...)                           \
    do {                                                                       \
        static const uint32_t e_[] = edges;                                    \
        static const expect_v w_[] = {__VA_ARGS__};                            \
        hand_case(name, n, e_, LEN2(e_), misere, lose, win, NULL, w_);         \
    } while (0)
#define E(...)                                                                 \
    {                                                                          \
        __VA_ARGS__                                                            \
    }
#define NOLIST NULL

static void hand_cases(void)
{
    /* A 3-cycle: nobody can force anything. */
    HAND("3-cycle", 3, E(0, 1, 1, 2, 2, 0), 0, NOLIST, NOLIST, {'D', NONE, 1},
         {'D', NONE, 2}, {'D', NONE, 0});
    /* A path 0 -> 1 -> 2. */
    HAND("path", 3, E(0, 1, 1, 2), 0, NOLIST, NOLIST, {'L', 2, 1}, {'W', 1, 2},
         {'L', 0, NONE});
    /* The same path in misere play: the sink wins. */
    HAND("path misere", 3, E(0, 1, 1, 2), 1, NOLIST, NOLIST, {'W', 2, 1},
         {'L', 1, 2}, {'W', 0, NONE});
    /* A self-loop and an edge to a sink: take the sink. */
    HAND("selfloop+sink", 2, E(0, 0, 0, 1), 0, NOLIST, NOLIST, {'W', 1, 1},
         {'L', 0, NONE});
    /* The same in misere: the sink is a Win, so stay in the loop. */
    HAND("selfloop+sink misere", 2, E(0, 0, 0, 1), 1, NOLIST, NOLIST,
         {'D', NONE, 0}, {'W', 0, NONE});
    /* A lone self-loop is a Draw. */
    HAND("selfloop", 1, E(0, 0), 0, NOLIST, NOLIST, {'D', NONE, 0});
    /* A single vertex: Lose 0, misere Win 0. */
    HAND("single", 1, E(0), 0, NOLIST, NOLIST, {'L', 0, NONE});
    HAND("single misere", 1, E(0), 1, NOLIST, NOLIST, {'W', 0, NONE});
    /* Two isolated vertices in misere play: both Win 0. */
    HAND("two sinks misere", 2, E(0), 1, NOLIST, NOLIST, {'W', 0, NONE},
         {'W', 0, NONE});
    /* Win picks the least remoteness, not the first Lose: 0 -> 3 (L2),
     * 0 -> 5 (L0); chain 3 -> 4 -> 5; 1 -> 2 aside. */
    HAND("win least", 6, E(0, 3, 0, 5, 3, 4, 4, 5, 1, 2), 0, NOLIST, NOLIST,
         {'W', 1, 5}, {'W', 1, 2}, {'L', 0, NONE}, {'L', 2, 4}, {'W', 1, 5},
         {'L', 0, NONE});
    /* Lose delays as long as possible: 0 -> 2 (W1), 0 -> 6 (W3). */
    HAND("lose greatest", 7, E(0, 2, 0, 6, 2, 1, 3, 4, 4, 5, 6, 3), 0, NOLIST,
         NOLIST, {'L', 4, 6}, {'L', 0, NONE}, {'W', 1, 1}, {'L', 2, 4},
         {'W', 1, 5}, {'L', 0, NONE}, {'W', 3, 3});
    /* Draw beats a losing move: 0 -> 2 (Win), 0 -> 1 (Draw loop). */
    HAND("draw over win", 4, E(0, 2, 0, 1, 1, 1, 2, 3), 0, NOLIST, NOLIST,
         {'D', NONE, 1}, {'D', NONE, 1}, {'W', 1, 3}, {'L', 0, NONE});
    /* Several equally good moves, given in decreasing id order, with
     * parallel edges: the least-numbered wins, not the first in edge order. */
#define PICK(least, first_in_edge_order) least
    HAND("choice among equals", 4, E(0, 3, 0, 2, 0, 3, 0, 1, 3, 3), 0, NOLIST,
         NOLIST, {'W', 1, PICK(1, 2)}, {'L', 0, NONE}, {'L', 0, NONE},
         {'D', NONE, 3});
    /* Two Draw moves (self-loops), and two Win moves of equal remoteness. */
    HAND("draw choice", 3, E(0, 2, 0, 1, 1, 1, 2, 2), 0, NOLIST, NOLIST,
         {'D', NONE, PICK(1, 2)}, {'D', NONE, 1}, {'D', NONE, 2});
    HAND("lose choice", 5, E(0, 3, 0, 1, 1, 2, 3, 4), 0, NOLIST, NOLIST,
         {'L', 2, PICK(1, 3)}, {'W', 1, 2}, {'L', 0, NONE}, {'W', 1, 4},
         {'L', 0, NONE});
    HAND("draw choice misere", 4, E(3, 2, 3, 0, 3, 1, 2, 2, 0, 0, 1, 3), 1,
         NOLIST, NOLIST, {'D', NONE, 0}, {'D', NONE, 3}, {'D', NONE, 2},
         {'D', NONE, PICK(0, 2)});
#undef PICK
    HAND("parallel", 2, E(0, 1, 0, 1), 0, NOLIST, NOLIST, {'W', 1, 1},
         {'L', 0, NONE});
    /* A 2-cycle with an exit from one side: 0 <-> 1, 1 -> 2 (sink). */
    HAND("2-cycle exit", 3, E(0, 1, 1, 0, 1, 2), 0, NOLIST, NOLIST, {'L', 2, 1},
         {'W', 1, 2}, {'L', 0, NONE});
    /* 3-cycle with lose_at {0}: the game ends at 0 whatever its edges. */
    HAND("3-cycle lose_at", 3, E(0, 1, 1, 2, 2, 0), 0, ARR(0, 0, NONE), NOLIST,
         {'L', 0, NONE}, {'L', 2, 2}, {'W', 1, 0});
    /* win_at on a sink overrides normal play; lose_at overrides misere. */
    HAND("win_at sink", 2, E(0, 1), 0, NOLIST, ARR(1, NONE), {'L', 1, 1},
         {'W', 0, NONE});
    HAND("lose_at misere", 3, E(0, 1, 0, 2), 1, ARR(1, NONE), NOLIST,
         {'W', 1, 1}, {'L', 0, NONE}, {'W', 0, NONE});
    /* Both kinds on a self-loop vertex with edges. */
    HAND("targets both", 4, E(0, 0, 0, 1, 1, 2, 2, 3, 3, 0), 0, ARR(2, NONE),
         ARR(0, 3, 0, NONE), {'W', 0, NONE}, {'W', 1, 2}, {'L', 0, NONE},
         {'W', 0, NONE});
    /* The empty graph. */
    HAND("empty", 0, E(0), 0, NOLIST, NOLIST, {'D', 0, 0});

    /* Ties.  A tie_at vertex is a Tie at 0 whatever its edges (here a
     * self-loop, and a move to a sink); a path to it is a chain of Ties. */
    HAND_TIES("tie path", 4, E(0, 1, 1, 2, 2, 2, 2, 3), 0, NOLIST, NOLIST,
              ARR(2, NONE), {'T', 2, 1}, {'T', 1, 2}, {'T', 0, NONE},
              {'L', 0, NONE});
    /* A tie_at sink in misere play is still a Tie (listed twice); the
     * other move reaches a Win, so the position is a Tie, not a Lose. */
    HAND_TIES("tie sink misere", 3, E(0, 1, 0, 2), 1, NOLIST, NOLIST,
              ARR(1, 1, NONE), {'T', 1, 1}, {'T', 0, NONE}, {'W', 0, NONE});
    /* A move to a Lose still wins, a Tie neighbour notwithstanding; a
     * position whose only moves reach Ties and Wins is a Tie, not a Lose. */
    HAND_TIES("win over tie", 5, E(0, 1, 0, 2, 3, 2, 3, 4, 4, 1), 0, NOLIST,
              NOLIST, ARR(2, NONE), {'W', 1, 1}, {'L', 0, NONE},
              {'T', 0, NONE}, {'T', 1, 2}, {'W', 1, 1});
    /* The least remoteness of a Tie, and the least-numbered move among
     * equals: 0 -> 3 (T2), 0 -> 5 (T0 via tie_at), 0 -> 4 (T0 via tie_at
     * too); 3 -> 1 -> 5; a Draw cycle 2 <-> 2 beside. */
    HAND_TIES("tie least", 6, E(0, 3, 0, 5, 0, 4, 0, 2, 3, 1, 1, 5, 2, 2), 0,
              NOLIST, NOLIST, ARR(5, 4, NONE), {'T', 1, 4}, {'T', 1, 5},
              {'D', NONE, 2}, {'T', 2, 1}, {'T', 0, NONE}, {'T', 0, NONE});
    /* A cycle through a tie_at vertex: every position of it is a Tie; a
     * Draw cycle that the tie_at vertex's edge reaches stays a Draw. */
    HAND_TIES("tie cycle", 5, E(0, 1, 1, 2, 2, 0, 3, 4, 4, 3, 0, 3), 0, NOLIST,
              NOLIST, ARR(0, NONE), {'T', 0, NONE}, {'T', 2, 2}, {'T', 1, 0},
              {'D', NONE, 4}, {'D', NONE, 3});
    /* All three kinds of targets at once, in misere play. */
    HAND_TIES("tie with targets", 5, E(0, 1, 0, 2, 1, 3, 2, 4, 3, 3), 1,
              ARR(4, NONE), ARR(3, NONE), ARR(1, NONE), {'T', 1, 1},
              {'T', 0, NONE}, {'W', 1, 4}, {'W', 0, NONE}, {'L', 0, NONE});
}

/* ==== Error contract ===================================================== */

static max_align_t dummy_object;
#define DUMMY(type) ((type *)(void *)&dummy_object)

static void error_cases(void)
{
    gen_edges g0 = GEN_EDGES_INIT;
    test_ctx c = {"errors", 0, -1, "error", "-", 1, &g0, NULL, 0};
    static const uint32_t t3[] = {0, 1, 2}, hbad[] = {1, 3, 0},
                          tbad[] = {3, 1, 2}, h3[] = {1, 2, 0},
                          tnone[] = {0, NONE, 1};
    loopy_graph *out;
    loopy_status st;

    c.via = "loopy_graph_from_edges head >= n";
    out = DUMMY(loopy_graph);
    st = loopy_graph_from_edges(3, 3, t3, hbad, &out);
    CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
    CHECK_MSG(out == NULL, "*out not NULL %s", ctx_str(&c));
    if (st == LOOPY_OK && out != DUMMY(loopy_graph))
        loopy_graph_free(out);
    check_case_end();

    c.via = "loopy_graph_from_edges tail >= n";
    out = DUMMY(loopy_graph);
    st = loopy_graph_from_edges(3, 3, tbad, h3, &out);
    CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
    CHECK_MSG(out == NULL, "*out not NULL %s", ctx_str(&c));
    if (st == LOOPY_OK && out != DUMMY(loopy_graph))
        loopy_graph_free(out);
    check_case_end();

    c.via = "loopy_graph_from_edges tail == LOOPY_NONE";
    out = DUMMY(loopy_graph);
    st = loopy_graph_from_edges(3, 3, tnone, h3, &out);
    CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
    CHECK_MSG(out == NULL, "*out not NULL %s", ctx_str(&c));
    if (st == LOOPY_OK && out != DUMMY(loopy_graph))
        loopy_graph_free(out);
    check_case_end();

    c.via = "loopy_graph_from_edges n=0 m=1";
    out = DUMMY(loopy_graph);
    st = loopy_graph_from_edges(0, 1, t3, t3, &out);
    CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
    CHECK_MSG(out == NULL, "*out not NULL %s", ctx_str(&c));
    if (st == LOOPY_OK && out != DUMMY(loopy_graph))
        loopy_graph_free(out);
    check_case_end();

    c.via = "loopy_graph_from_edges n > LOOPY_MAX_VERTICES";
    out = DUMMY(loopy_graph);
    st = loopy_graph_from_edges(UINT32_MAX, 0, NULL, NULL, &out);
    CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
    CHECK_MSG(out == NULL, "*out not NULL %s", ctx_str(&c));
    if (st == LOOPY_OK && out != DUMMY(loopy_graph))
        loopy_graph_free(out);
    check_case_end();

    /* Bad target sets, on a valid 4-vertex graph. */
    static const uint32_t tail[] = {0, 1, 2, 3, 3}, head[] = {1, 2, 3, 0, 3};
    gen_edges g4 = GEN_EDGES_INIT;
    g4.n = 4;
    for (int i = 0; i < 5; i++)
        gen_push(&g4, tail[i], head[i]);
    if (g4.oom_) {
        fprintf(stderr, "test_oracle: out of memory\n");
        exit(EXIT_FAILURE);
    }
    c.g = &g4;
    loopy_graph *lg = NULL;
    st = loopy_graph_from_edges(4, 5, tail, head, &lg);
    CHECK_MSG(st == LOOPY_OK && lg, "valid graph refused %s", ctx_str(&c));
    if (st != LOOPY_OK || !lg) {
        check_case_end();
        gen_edges_free(&g4);
        return;
    }
    loopy_solver *solver = NULL;
    st = loopy_solver_create(lg, &solver);
    CHECK_MSG(st == LOOPY_OK && solver, "solver_create %s", ctx_str(&c));
    if (st != LOOPY_OK)
        solver = NULL;
    check_case_end();

    static const struct {
        const char *name;
        uint32_t lose[4];
        size_t nl;
        uint32_t win[4];
        size_t nw;
        int misere;
        uint32_t tie[4];
        size_t nt;
    } bad[] = {
        {"vertex in both lists", {1}, 1, {2, 1}, 2, 0, {0}, 0},
        {"vertex in both, repeats", {2, 2, 0}, 3, {3, 2}, 2, 1, {0}, 0},
        {"vertex in both, win first", {0, 3}, 2, {3}, 1, 0, {0}, 0},
        {"lose_at == n", {4}, 1, {0}, 0, 0, {0}, 0},
        {"lose_at == LOOPY_NONE", {0, NONE}, 2, {0}, 0, 0, {0}, 0},
        {"win_at == n", {0}, 0, {1, 4}, 2, 1, {0}, 0},
        {"win_at == LOOPY_MAX_VERTICES", {0}, 0, {LOOPY_MAX_VERTICES}, 1, 0,
         {0}, 0},
        {"vertex in lose_at and tie_at", {1}, 1, {0}, 0, 0, {2, 1}, 2},
        {"vertex in win_at and tie_at", {0}, 0, {3, 2}, 2, 1, {2, 2}, 2},
        {"vertex in all three lists", {3}, 1, {3}, 1, 0, {3}, 1},
        {"tie_at == n", {0}, 0, {0}, 0, 0, {1, 4}, 2},
        {"tie_at == LOOPY_NONE", {1}, 1, {2}, 1, 0, {NONE}, 1},
        {"tie_at NULL with a count", {0}, 0, {0}, 0, 0, {0}, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        loopy_solve_options o = LOOPY_SOLVE_OPTIONS_INIT;
        o.misere = bad[i].misere;
        o.threads = 1;
        o.lose_at = bad[i].nl ? bad[i].lose : NULL;
        o.lose_at_count = bad[i].nl;
        o.win_at = bad[i].nw ? bad[i].win : NULL;
        o.win_at_count = bad[i].nw;
        o.tie_at = bad[i].nt && strstr(bad[i].name, "NULL") == NULL
                       ? bad[i].tie
                       : NULL;
        o.tie_at_count = bad[i].nt;
        c.mode = bad[i].name;

        c.via = "loopy_solve";
        loopy_solution *s = DUMMY(loopy_solution);
        st = loopy_solve(lg, &o, &s);
        CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
        CHECK_MSG(s == NULL, "*out not NULL %s", ctx_str(&c));
        if (st == LOOPY_OK && s != DUMMY(loopy_solution))
            loopy_solution_free(s);

        if (solver) {
            c.via = "loopy_solver_run";
            s = DUMMY(loopy_solution);
            st = loopy_solver_run(solver, &o, &s);
            CHECK_MSG(st == LOOPY_EINVAL, "status %d %s", (int)st, ctx_str(&c));
            CHECK_MSG(s == NULL, "*out not NULL %s", ctx_str(&c));
            if (st == LOOPY_OK && s != DUMMY(loopy_solution))
                loopy_solution_free(s);
        }
        check_case_end();
    }

    /* After the refusals, the graph and the solver still work. */
    {
        static uint32_t la[] = {3, 3}, ta[] = {1};
        gen_targets t = {la, 2, NULL, 0, ta, 1};
        loopy_solve_options o = make_options(0, &t, 1);
        oracle_sol ref;
        oracle_solve(&g4, 0, &t, &ref);
        csr gr;
        csr_build(&g4, &gr);
        uint8_t *kind = target_kinds(4, &t);
        c.mode = "valid after errors";
        c.t = &t;
        loopy_solution *s = NULL;
        c.via = "loopy_solve";
        st = loopy_solve(lg, &o, &s);
        CHECK_MSG(st == LOOPY_OK, "status %d %s", (int)st, ctx_str(&c));
        if (st == LOOPY_OK)
            check_solution(&c, &gr, kind, &ref, s);
        loopy_solution_free(s);
        if (solver) {
            c.via = "loopy_solver_run";
            s = NULL;
            st = loopy_solver_run(solver, &o, &s);
            CHECK_MSG(st == LOOPY_OK, "status %d %s", (int)st, ctx_str(&c));
            if (st == LOOPY_OK)
                check_solution(&c, &gr, kind, &ref, s);
            loopy_solution_free(s);
        }
        free(kind);
        csr_free(&gr);
        oracle_free(&ref);
        check_case_end();
    }
    loopy_solver_free(solver);
    loopy_graph_free(lg);
    gen_edges_free(&g4);
}

/* ==== main =============================================================== */

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    unsigned long long x = strtoull(s, &end, 0);
    if (!*s || *end)
        return -1;
    *v = (uint64_t)x;
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t graphs = 10000, base = UINT64_C(0x6c6f6f7079);
    if (argc >= 2 && !strcmp(argv[1], "one")) {
        uint64_t seed, shape;
        if (argc != 4 || parse_u64(argv[2], &seed) ||
            parse_u64(argv[3], &shape) || shape >= GEN_SHAPE_COUNT) {
            fprintf(stderr, "usage: %s one SEED SHAPE\n", argv[0]);
            return EXIT_FAILURE;
        }
        run_graph(seed, (int)shape);
        return check_finish("oracle");
    }
    if ((argc >= 2 && parse_u64(argv[1], &graphs)) ||
        (argc >= 3 && parse_u64(argv[2], &base)) || argc > 3) {
        fprintf(stderr, "usage: %s [GRAPHS [BASE_SEED]] | one SEED SHAPE\n",
                argv[0]);
        return EXIT_FAILURE;
    }

    hand_cases();
    error_cases();

    for (uint64_t i = 0; i < graphs; i++)
        run_graph(gen_mix_seed(base, i), (int)(i % GEN_SHAPE_COUNT));

    printf("oracle: %" PRIu64 " random graphs, %lu library solves\n", graphs,
           solves_done);
    return check_finish("oracle");
}
