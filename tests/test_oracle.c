/*
 * test_oracle.c - loopy_solve against a brute-force oracle written from the
 * specification in loopy.h, on thousands of random graphs of many shapes
 * (tests/gen.h), in normal and misere play, with and without lose_at /
 * win_at targets; plus hand-written cases with known answers and the error
 * contract.
 *
 * Every solution of the library is checked three ways:
 *   1. equal to the oracle (outcome, remoteness, best move, counts);
 *   2. locally consistent with the specification (spec_verify below; this
 *      check alone determines the solution uniquely, see its comment);
 *   3. its best moves are legal moves.
 * Best moves follow loopy.h: the least-numbered successor with the required
 * value (see best_prefer).
 * The oracle's own output also goes through spec_verify, so a bug in the
 * oracle cannot silently agree with a bug in the library.
 *
 * Usage: test_oracle [GRAPHS [BASE_SEED]]     (default 10000 graphs)
 *        test_oracle one SEED SHAPE           (rerun one reported graph)
 */
#include "loopy.h"

#include "check.h"
#include "gen.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE LOOPY_NONE

/*
 * Which successor is "the" best move among those with the required value.
 * loopy.h says: the least-numbered one (so that it does not depend on edge
 * storage or thread count).  Returns whether candidate w should replace the
 * current choice cur.
 */
static int best_prefer(uint32_t w, uint32_t cur)
{
    return cur == LOOPY_NONE || w < cur;
}

/* ==== Context for failure messages ====================================== */

typedef struct test_ctx {
    const char *what; /* "random" or the name of a hand-written case */
    uint64_t seed;
    int shape;
    const char *mode;
    const char *via; /* "loopy_solve" or "solver_run" */
    int threads;
    const gen_edges *g;
    const gen_targets *t;
    int misere;
} test_ctx;

static int dumps_left = 4;

static const char *ctx_str(const test_ctx *c)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "[%s seed=0x%016" PRIx64 " shape=%s(%d) n=%" PRIu32 " m=%" PRIu64
             " mode=%s misere=%d lose_at=%zu win_at=%zu threads=%d via=%s;"
             " rerun: test_oracle one 0x%016" PRIx64 " %d]",
             c->what, c->seed, gen_shape_name(c->shape), c->shape, c->g->n,
             c->g->m, c->mode ? c->mode : "-", c->misere,
             c->t ? c->t->lose_count : 0, c->t ? c->t->win_count : 0,
             c->threads, c->via ? c->via : "-", c->seed, c->shape);
    return buf;
}

/* Prints a small failing graph once in a while, to ease reproduction. */
static void dump_graph(const test_ctx *c)
{
    if (dumps_left <= 0 || c->g->m > 60 || c->g->n > 60)
        return;
    dumps_left--;
    fprintf(stderr, "  graph n=%" PRIu32 " m=%" PRIu64 ":", c->g->n, c->g->m);
    for (uint64_t e = 0; e < c->g->m; e++)
        fprintf(stderr, " %" PRIu32 "->%" PRIu32, c->g->tail[e], c->g->head[e]);
    fputc('\n', stderr);
    if (c->t) {
        fprintf(stderr, "  lose_at:");
        for (size_t i = 0; i < c->t->lose_count; i++)
            fprintf(stderr, " %" PRIu32, c->t->lose_at[i]);
        fprintf(stderr, "\n  win_at:");
        for (size_t i = 0; i < c->t->win_count; i++)
            fprintf(stderr, " %" PRIu32, c->t->win_at[i]);
        fputc('\n', stderr);
    }
}

static const char *oname(unsigned o)
{
    return o == LOOPY_WIN    ? "W"
           : o == LOOPY_LOSE ? "L"
           : o == LOOPY_DRAW ? "D"
                             : "?";
}

/* A failed check with a formatted explanation and the context. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void
fail(const test_ctx *c, const char *fmt, ...);
static void fail(const test_ctx *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int first = !check_state_.case_failed;
    CHECK_MSG(0, "%s %s", msg, ctx_str(c));
    if (first)
        dump_graph(c);
}

static void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "test_oracle: out of memory (%zu bytes)\n", size);
        exit(EXIT_FAILURE);
    }
    return p;
}

/* ==== Our own adjacency (CSR, successors in input order) ================ */

typedef struct csr {
    uint32_t n;
    uint64_t *off; /* n + 1 */
    uint32_t *adj; /* m */
} csr;

static void csr_build(const gen_edges *g, csr *c)
{
    c->n = g->n;
    c->off = (uint64_t *)xmalloc(((size_t)g->n + 1) * sizeof *c->off);
    c->adj = (uint32_t *)xmalloc((size_t)g->m * sizeof *c->adj);
    memset(c->off, 0, ((size_t)g->n + 1) * sizeof *c->off);
    for (uint64_t e = 0; e < g->m; e++)
        c->off[g->tail[e] + 1]++;
    for (uint32_t v = 0; v < g->n; v++)
        c->off[v + 1] += c->off[v];
    uint64_t *pos = (uint64_t *)xmalloc(((size_t)g->n + 1) * sizeof *pos);
    memcpy(pos, c->off, ((size_t)g->n + 1) * sizeof *pos);
    for (uint64_t e = 0; e < g->m; e++) /* stable: keeps input order */
        c->adj[pos[g->tail[e]]++] = g->head[e];
    free(pos);
}

static void csr_free(csr *c)
{
    free(c->off);
    free(c->adj);
}

/* ==== The oracle ========================================================= */

typedef struct oracle_sol {
    uint32_t n;
    uint8_t *outcome;
    uint32_t *rem;
    uint32_t *best;
    uint32_t count[3]; /* indexed by loopy_outcome */
} oracle_sol;

static void oracle_free(oracle_sol *s)
{
    free(s->outcome);
    free(s->rem);
    free(s->best);
    memset(s, 0, sizeof *s);
}

/* 0: not a target, 1: lose_at, 2: win_at (caller guarantees disjointness). */
static uint8_t *target_kinds(uint32_t n, const gen_targets *t)
{
    uint8_t *kind = (uint8_t *)xmalloc(n);
    memset(kind, 0, n);
    if (t) {
        for (size_t i = 0; i < t->lose_count; i++)
            kind[t->lose_at[i]] = 1;
        for (size_t i = 0; i < t->win_count; i++)
            kind[t->win_at[i]] = 2;
    }
    return kind;
}

/*
 * Value iteration straight from the specification, working on the raw edge
 * list only (no reverse graph, no counters, no queue).
 *
 * Round 0 decides the terminal positions: lose_at -> Lose, win_at -> Win,
 * no moves -> Lose (normal) / Win (misere), all at remoteness 0.
 * Round k >= 1 looks only at the values decided in rounds 0..k-1 (the flags
 * any_lose / all_win are computed over all edges before anything of round k
 * is written) and decides each undecided position (which is a non-terminal
 * one, hence has a move):
 *   - Win at k  if some successor is a decided Lose;
 *   - Lose at k if every successor is a decided Win.
 * It stops after a round that decides nothing; the rest are Draws.
 *
 * Why the round equals the remoteness of the specification (induction on k;
 * assume every position decided before round k got remoteness = its round):
 *   - Win at round k: a Lose successor decided in round j <= k-1 exists.  If
 *     one had been decided in a round j < k-1, the position would have been
 *     decided Win in round j+1 < k, so the least remoteness of a Lose
 *     successor is exactly k-1 (Lose successors decided in later rounds have
 *     larger remoteness), i.e. r = k as the spec demands.
 *   - Lose at round k: all successors were Wins decided in rounds <= k-1.  If
 *     all had been decided by round k-2 the position would have been decided
 *     in round <= k-1; so the greatest successor remoteness is k-1 and
 *     r = 1 + (k-1) = k.
 *   - Both cannot hold at once (a position with a Lose successor does not
 *     have only Win successors).  A position that no round decides has no
 *     Lose successor with a finite remoteness and not only Win successors:
 *     a Draw.  (Any Win/Lose value of the spec is justified by successors of
 *     strictly smaller remoteness down to remoteness 0, which is exactly what
 *     the rounds build up, so nothing decidable is left undecided.)
 * Best moves: one pass over the edges; among the heads of u's edges that
 * have the required value, the least-numbered one (see best_prefer).
 *
 * Cost O(rounds * (n + m)) with rounds <= n + 1: fine for test sizes.
 */
static void oracle_solve(const gen_edges *g, int misere, const gen_targets *t,
                         oracle_sol *s)
{
    uint32_t n = g->n;
    s->n = n;
    s->outcome = (uint8_t *)xmalloc(n);
    s->rem = (uint32_t *)xmalloc((size_t)n * sizeof *s->rem);
    s->best = (uint32_t *)xmalloc((size_t)n * sizeof *s->best);
    uint8_t *decided = (uint8_t *)xmalloc(n);
    uint8_t *has_move = (uint8_t *)xmalloc(n);
    uint8_t *any_lose = (uint8_t *)xmalloc(n);
    uint8_t *all_win = (uint8_t *)xmalloc(n);
    uint8_t *kind = target_kinds(n, t);

    memset(has_move, 0, n);
    for (uint64_t e = 0; e < g->m; e++)
        has_move[g->tail[e]] = 1;

    /* Round 0. */
    for (uint32_t v = 0; v < n; v++) {
        s->outcome[v] = LOOPY_DRAW;
        s->rem[v] = NONE;
        s->best[v] = NONE;
        decided[v] = 0;
        uint8_t o = 0;
        if (kind[v] == 1)
            o = LOOPY_LOSE;
        else if (kind[v] == 2)
            o = LOOPY_WIN;
        else if (!has_move[v])
            o = misere ? LOOPY_WIN : LOOPY_LOSE;
        if (o) {
            s->outcome[v] = o;
            s->rem[v] = 0;
            decided[v] = 1;
        }
    }

    for (uint32_t k = 1;; k++) {
        memset(any_lose, 0, n);
        memset(all_win, 1, n);
        for (uint64_t e = 0; e < g->m; e++) {
            uint32_t u = g->tail[e], v = g->head[e];
            if (decided[v] && s->outcome[v] == LOOPY_LOSE)
                any_lose[u] = 1;
            if (!(decided[v] && s->outcome[v] == LOOPY_WIN))
                all_win[u] = 0;
        }
        int changed = 0;
        for (uint32_t u = 0; u < n; u++) {
            if (decided[u])
                continue;
            /* undecided => not a target and has a move */
            if (any_lose[u])
                s->outcome[u] = LOOPY_WIN;
            else if (all_win[u])
                s->outcome[u] = LOOPY_LOSE;
            else
                continue;
            s->rem[u] = k;
            decided[u] = 1;
            changed = 1;
        }
        if (!changed)
            break;
    }

    for (uint64_t e = 0; e < g->m; e++) {
        uint32_t u = g->tail[e], v = g->head[e];
        if (s->rem[u] == 0)
            continue;
        int ok;
        if (s->outcome[u] == LOOPY_WIN)
            ok = s->outcome[v] == LOOPY_LOSE && s->rem[v] == s->rem[u] - 1;
        else if (s->outcome[u] == LOOPY_LOSE)
            ok = s->outcome[v] == LOOPY_WIN && s->rem[v] == s->rem[u] - 1;
        else
            ok = s->outcome[v] == LOOPY_DRAW;
        if (ok && best_prefer(v, s->best[u]))
            s->best[u] = v;
    }

    s->count[0] = s->count[1] = s->count[2] = 0;
    for (uint32_t v = 0; v < n; v++)
        s->count[s->outcome[v]]++;

    free(decided);
    free(has_move);
    free(any_lose);
    free(all_win);
    free(kind);
}

/* ==== Local verification against the specification ====================== */

/*
 * Checks that (outcome, rem, best) satisfies, at every vertex, the equations
 * of the specification given the values of its successors:
 *   target / no moves  -> the fixed value at remoteness 0, no best move;
 *   some Lose succ     -> Win, r = 1 + least Lose remoteness, best = the
 *                         least-numbered Lose successor of that remoteness;
 *   else all Win succ  -> Lose, r = 1 + greatest Win remoteness, best = the
 *                         least-numbered Win successor of that remoteness;
 *   else               -> Draw, r = NONE, best = least-numbered Draw succ.
 * ("least-numbered" is best_prefer's rule.)
 * These local equations have exactly one solution: a Win/Lose of remoteness
 * r is justified only by successors of remoteness < r, so by induction on r
 * every Win/Lose label is the true one, and by induction on the oracle's
 * rounds every truly decided vertex gets its true label (a Draw label would
 * need no Lose successor and not only Win successors).  So passing this
 * check is by itself a proof of correctness, independent of the oracle.
 * Returns the first bad vertex, or NONE; *why says what is wrong.
 */
static uint32_t spec_verify(const csr *gr, const uint8_t *kind, int misere,
                            const uint8_t *out, const uint32_t *rem,
                            const uint32_t *best, char *why, size_t why_len)
{
    uint32_t n = gr->n;
    for (uint32_t v = 0; v < n; v++) {
        int bad = out[v] > 2 || ((out[v] == LOOPY_DRAW) != (rem[v] == NONE));
        if (bad) {
            snprintf(why, why_len,
                     "vertex %" PRIu32 ": outcome %u remoteness %" PRIu32
                     " is not a valid pair",
                     v, out[v], rem[v]);
            return v;
        }
    }
    for (uint32_t v = 0; v < n; v++) {
        uint8_t eo;
        uint32_t er, eb = NONE;
        uint64_t b = gr->off[v], e = gr->off[v + 1];
        if (kind[v] || b == e) {
            eo = kind[v] == 1   ? LOOPY_LOSE
                 : kind[v] == 2 ? LOOPY_WIN
                 : misere       ? LOOPY_WIN
                                : LOOPY_LOSE;
            er = 0;
        } else {
            uint32_t min_lose = NONE, max_win = 0;
            int all_win = 1;
            for (uint64_t i = b; i < e; i++) {
                uint32_t w = gr->adj[i];
                if (out[w] == LOOPY_LOSE && rem[w] < min_lose)
                    min_lose = rem[w];
                if (out[w] != LOOPY_WIN)
                    all_win = 0;
                else if (rem[w] > max_win)
                    max_win = rem[w];
            }
            if (min_lose != NONE) {
                eo = LOOPY_WIN;
                er = min_lose + 1;
                for (uint64_t i = b; i < e; i++)
                    if (out[gr->adj[i]] == LOOPY_LOSE &&
                        rem[gr->adj[i]] == min_lose &&
                        best_prefer(gr->adj[i], eb))
                        eb = gr->adj[i];
            } else if (all_win) {
                eo = LOOPY_LOSE;
                er = max_win + 1;
                for (uint64_t i = b; i < e; i++)
                    if (rem[gr->adj[i]] == max_win &&
                        best_prefer(gr->adj[i], eb))
                        eb = gr->adj[i];
            } else {
                eo = LOOPY_DRAW;
                er = NONE;
                for (uint64_t i = b; i < e; i++)
                    if (out[gr->adj[i]] == LOOPY_DRAW &&
                        best_prefer(gr->adj[i], eb))
                        eb = gr->adj[i];
                if (eb == NONE) { /* cannot happen in a consistent labelling */
                    snprintf(why, why_len,
                             "vertex %" PRIu32 ": Draw without a"
                             " Draw successor",
                             v);
                    return v;
                }
            }
        }
        if (out[v] != eo || rem[v] != er || best[v] != eb) {
            snprintf(why, why_len,
                     "vertex %" PRIu32 ": has %s rem %" PRIu32 " best %" PRIu32
                     ", its successors imply %s rem %" PRIu32 " best %" PRIu32,
                     v, oname(out[v]), rem[v], best[v], oname(eo), er, eb);
            return v;
        }
    }
    return NONE;
}

/* ==== Comparing a library solution ====================================== */

static void check_solution(const test_ctx *c, const csr *gr,
                           const uint8_t *kind, const oracle_sol *o,
                           const loopy_solution *s)
{
    uint32_t n = c->g->n;
    if (!s) {
        fail(c, "solution is NULL");
        return;
    }
    if (loopy_solution_vertex_count(s) != n) {
        fail(c, "vertex count %" PRIu32 ", expected %" PRIu32,
             loopy_solution_vertex_count(s), n);
        return;
    }
    static const loopy_outcome outs[3] = {LOOPY_DRAW, LOOPY_WIN, LOOPY_LOSE};
    for (int i = 0; i < 3; i++) {
        loopy_vertex cnt = loopy_solution_count(s, outs[i]);
        if (cnt != o->count[outs[i]])
            fail(c, "loopy_solution_count(%s) = %" PRIu32 ", oracle %" PRIu32,
                 oname(outs[i]), cnt, o->count[outs[i]]);
    }
    if (n == 0)
        return;
    const uint8_t *out = loopy_solution_outcomes(s);
    const uint32_t *rem = loopy_solution_remoteness(s);
    const loopy_vertex *best = loopy_solution_best_moves(s);
    if (!out || !rem || !best) {
        fail(c, "a solution array is NULL");
        return;
    }
    /* 1. Equal to the oracle (report the first differing vertex). */
    for (uint32_t v = 0; v < n; v++) {
        if (out[v] != o->outcome[v] || rem[v] != o->rem[v] ||
            best[v] != o->best[v]) {
            fail(c,
                 "vertex %" PRIu32 ": library %s rem %" PRIu32 " best %" PRIu32
                 ", oracle %s rem %" PRIu32 " best %" PRIu32,
                 v, oname(out[v]), rem[v], best[v], oname(o->outcome[v]),
                 o->rem[v], o->best[v]);
            break;
        }
    }
    /* 2. Best moves are legal, and absent exactly at remoteness 0. */
    for (uint32_t v = 0; v < n; v++) {
        if (rem[v] == 0) {
            if (best[v] != NONE) {
                fail(c,
                     "vertex %" PRIu32
                     " has remoteness 0 but best move %" PRIu32,
                     v, best[v]);
                break;
            }
            continue;
        }
        int legal = 0;
        for (uint64_t i = gr->off[v]; i < gr->off[v + 1] && !legal; i++)
            legal = gr->adj[i] == best[v];
        if (!legal) {
            fail(c, "vertex %" PRIu32 ": best move %" PRIu32 " is not a move",
                 v, best[v]);
            break;
        }
    }
    /* 3. Locally consistent with the specification. */
    char why[256];
    if (spec_verify(gr, kind, c->misere, out, rem, best, why, sizeof why) !=
        NONE)
        fail(c, "library solution violates the spec: %s", why);
}

/* Checks that the library graph has exactly our successor lists. */
static void check_graph(const test_ctx *c, const csr *gr, const loopy_graph *lg)
{
    if (loopy_graph_vertex_count(lg) != c->g->n ||
        loopy_graph_edge_count(lg) != c->g->m) {
        fail(c, "graph has n=%" PRIu32 " m=%" PRIu64,
             loopy_graph_vertex_count(lg), loopy_graph_edge_count(lg));
        return;
    }
    for (uint32_t v = 0; v < c->g->n; v++) {
        loopy_edge cnt = UINT64_MAX;
        const loopy_vertex *succ = loopy_graph_successors(lg, v, &cnt);
        uint64_t deg = gr->off[v + 1] - gr->off[v];
        if (cnt != deg || (deg && !succ) ||
            (deg &&
             memcmp(succ, gr->adj + gr->off[v], (size_t)deg * sizeof *succ))) {
            fail(c, "successors of %" PRIu32 " differ from the input order", v);
            return;
        }
    }
}

/* ==== One random graph in all modes ===================================== */

static unsigned long solves_done;

static loopy_solve_options make_options(int misere, const gen_targets *t,
                                        int threads)
{
    loopy_solve_options o = LOOPY_SOLVE_OPTIONS_INIT;
    o.misere = misere;
    o.threads = threads;
    if (t) {
        o.lose_at = t->lose_at;
        o.lose_at_count = t->lose_count;
        o.win_at = t->win_at;
        o.win_at_count = t->win_count;
    }
    return o;
}

static void run_graph(uint64_t seed, int shape)
{
    gen_edges g = GEN_EDGES_INIT;
    gen_targets ta = GEN_TARGETS_INIT, tb = GEN_TARGETS_INIT;
    if (gen_graph(seed, shape, &g) != 0 ||
        gen_make_targets(gen_mix_seed(seed, 0xA), g.n, &ta) != 0 ||
        gen_make_targets(gen_mix_seed(seed, 0xB), g.n, &tb) != 0) {
        fprintf(stderr, "test_oracle: out of memory in the generator\n");
        exit(EXIT_FAILURE);
    }
    gen_rng r;
    gen_rng_seed(&r, gen_mix_seed(seed, 0xC));
    static const int thread_choices[] = {1, 1, 1, 1, 2, 2, 3, 0};
    int threads = thread_choices[gen_below32(&r, 8)];
    int b_misere = gen_chance(&r, 1, 2);
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
}

/* ==== Hand-written cases ================================================= */

typedef struct expect_v {
    char o; /* 'W', 'L', 'D' */
    uint32_t r;
    uint32_t b;
} expect_v;

/*
 * Solves the graph given as a list of (tail, head) pairs and compares the
 * oracle AND the library (fresh solve and solver run) with the expected
 * values.  lose/win lists end with NONE.
 */
static void hand_case(const char *name, uint32_t n, const uint32_t *pairs,
                      size_t m, int misere, const uint32_t *lose,
                      const uint32_t *win, const expect_v *want)
{
    gen_edges g = GEN_EDGES_INIT;
    gen_targets t = GEN_TARGETS_INIT;
    g.n = n;
    for (size_t i = 0; i < m; i++)
        gen_push(&g, pairs[2 * i], pairs[2 * i + 1]);
    size_t nl = 0, nw = 0;
    while (lose && lose[nl] != NONE)
        nl++;
    while (win && win[nw] != NONE)
        nw++;
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
    t.lose_count = nl;
    t.win_count = nw;

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
    oracle_sol w = {n, wo, wr, wb, {0, 0, 0}};
    for (uint32_t v = 0; v < n; v++) {
        wo[v] = (uint8_t)(want[v].o == 'W'   ? LOOPY_WIN
                          : want[v].o == 'L' ? LOOPY_LOSE
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
#define HAND(name, n, edges, misere, lose, win, ...)                           \
    do {                                                                       \
        static const uint32_t e_[] = edges;                                    \
        static const expect_v w_[] = {__VA_ARGS__};                            \
        hand_case(name, n, e_, LEN2(e_), misere, lose, win, w_);               \
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
    } bad[] = {
        {"vertex in both lists", {1}, 1, {2, 1}, 2, 0},
        {"vertex in both, repeats", {2, 2, 0}, 3, {3, 2}, 2, 1},
        {"vertex in both, win first", {0, 3}, 2, {3}, 1, 0},
        {"lose_at == n", {4}, 1, {0}, 0, 0},
        {"lose_at == LOOPY_NONE", {0, NONE}, 2, {0}, 0, 0},
        {"win_at == n", {0}, 0, {1, 4}, 2, 1},
        {"win_at == LOOPY_MAX_VERTICES", {0}, 0, {LOOPY_MAX_VERTICES}, 1, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        loopy_solve_options o = LOOPY_SOLVE_OPTIONS_INIT;
        o.misere = bad[i].misere;
        o.threads = 1;
        o.lose_at = bad[i].nl ? bad[i].lose : NULL;
        o.lose_at_count = bad[i].nl;
        o.win_at = bad[i].nw ? bad[i].win : NULL;
        o.win_at_count = bad[i].nw;
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
        static uint32_t la[] = {3, 3};
        gen_targets t = {la, 2, NULL, 0};
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
