/*
 * oracle.c - the brute-force oracle and the spec checker of tests/oracle.h:
 * loopy's specification (loopy.h) implemented the slow, obvious way, and
 * the comparison of a loopy_solution against it with the context of the
 * failing test printed on every failure.
 *
 * The oracle (value iteration, oracle_solve) and the local checker
 * (spec_verify) are independent: spec_verify alone determines a solution
 * uniquely (see its comment), so the test programs also run the oracle's
 * own output through it, and a bug in the oracle cannot silently agree with
 * a bug in the library.
 */
#include "oracle.h"

#include "check.h"
#include "gen.h"
#include "loopy.h"

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

/* ==== Context for failure messages ======================================= */

static int dumps_left = 4;

const char *ctx_str(const test_ctx *c)
{
    static char buf[512];
    snprintf(buf, sizeof buf,
             "[%s seed=0x%016" PRIx64 " shape=%s(%d) n=%" PRIu32 " m=%" PRIu64
             " mode=%s misere=%d lose_at=%zu win_at=%zu tie_at=%zu threads=%d"
             " via=%s; rerun: test_oracle one 0x%016" PRIx64 " %d]",
             c->what, c->seed, gen_shape_name(c->shape), c->shape, c->g->n,
             c->g->m, c->mode ? c->mode : "-", c->misere,
             c->t ? c->t->lose_count : 0, c->t ? c->t->win_count : 0,
             c->t ? c->t->tie_count : 0, c->threads, c->via ? c->via : "-",
             c->seed, c->shape);
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
        fprintf(stderr, "\n  tie_at:");
        for (size_t i = 0; i < c->t->tie_count; i++)
            fprintf(stderr, " %" PRIu32, c->t->tie_at[i]);
        fputc('\n', stderr);
    }
}

const char *oname(unsigned o)
{
    return o == LOOPY_WIN    ? "W"
           : o == LOOPY_LOSE ? "L"
           : o == LOOPY_DRAW ? "D"
           : o == LOOPY_TIE  ? "T"
                             : "?";
}

/* A failed check with a formatted explanation and the context. */
void fail(const test_ctx *c, const char *fmt, ...)
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

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "test_oracle: out of memory (%zu bytes)\n", size);
        exit(EXIT_FAILURE);
    }
    return p;
}

/* ==== Our own adjacency (CSR, successors in input order) ================= */

void csr_build(const gen_edges *g, csr *c)
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

void csr_free(csr *c)
{
    free(c->off);
    free(c->adj);
}

/* ==== The oracle ========================================================= */

void oracle_free(oracle_sol *s)
{
    free(s->outcome);
    free(s->rem);
    free(s->best);
    memset(s, 0, sizeof *s);
}

/* 0: not a target, 1: lose_at, 2: win_at, 3: tie_at (caller guarantees
 * disjointness). */
uint8_t *target_kinds(uint32_t n, const gen_targets *t)
{
    uint8_t *kind = (uint8_t *)xmalloc(n);
    memset(kind, 0, n);
    if (t) {
        for (size_t i = 0; i < t->lose_count; i++)
            kind[t->lose_at[i]] = 1;
        for (size_t i = 0; i < t->win_count; i++)
            kind[t->win_at[i]] = 2;
        for (size_t i = 0; i < t->tie_count; i++)
            kind[t->tie_at[i]] = 3;
    }
    return kind;
}

/*
 * Value iteration straight from the specification, working on the raw edge
 * list only (no reverse graph, no counters, no queue).
 *
 * Round 0 decides the terminal positions: lose_at -> Lose, win_at -> Win,
 * tie_at -> Tie, no moves -> Lose (normal) / Win (misere), all at
 * remoteness 0.  (A Tie is neither a Lose nor a Win to the rounds below.)
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
 * Ties: the positions that no round decides are Ties at r when r is the
 * least 1 + (remoteness of a Tie successor), that is, the length of a
 * shortest path to a tie_at vertex through undecided positions.  These are
 * found by relaxing every edge u -> v, in edge-list order and in place,
 * with tie[u] = min(tie[u], tie[v] + 1) for undecided u (tie[] is 0 at
 * tie_at vertices, infinite elsewhere) until a sweep changes nothing: the
 * Bellman-Ford fixpoint, which is exactly "least such r" (no queue, no
 * levels, unlike the library).  The rest are Draws.
 * Best moves: one pass over the edges; among the heads of u's edges that
 * have the required value, the least-numbered one (see best_prefer).
 *
 * Cost O(rounds * (n + m)) with rounds <= n + 1: fine for test sizes.
 */
void oracle_solve(const gen_edges *g, int misere, const gen_targets *t,
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
        else if (kind[v] == 3)
            o = LOOPY_TIE;
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

    /* Ties: relax to the fixpoint (rem[] of the undecided is NONE). */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint64_t e = 0; e < g->m; e++) {
            uint32_t u = g->tail[e], v = g->head[e];
            if (decided[u] || s->outcome[v] != LOOPY_TIE)
                continue;
            if (s->rem[u] == NONE || s->rem[v] + 1 < s->rem[u]) {
                s->outcome[u] = LOOPY_TIE;
                s->rem[u] = s->rem[v] + 1;
                changed = 1;
            }
        }
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
        else if (s->outcome[u] == LOOPY_TIE)
            ok = s->outcome[v] == LOOPY_TIE && s->rem[v] == s->rem[u] - 1;
        else
            ok = s->outcome[v] == LOOPY_DRAW;
        if (ok && best_prefer(v, s->best[u]))
            s->best[u] = v;
    }

    s->count[0] = s->count[1] = s->count[2] = s->count[3] = 0;
    for (uint32_t v = 0; v < n; v++)
        s->count[s->outcome[v]]++;

    free(decided);
    free(has_move);
    free(any_lose);
    free(all_win);
    free(kind);
}

/* ==== Local verification against the specification ======================= */

/*
 * Checks that (outcome, rem, best) satisfies, at every vertex, the equations
 * of the specification given the values of its successors:
 *   target / no moves  -> the fixed value at remoteness 0, no best move;
 *   some Lose succ     -> Win, r = 1 + least Lose remoteness, best = the
 *                         least-numbered Lose successor of that remoteness;
 *   else all Win succ  -> Lose, r = 1 + greatest Win remoteness, best = the
 *                         least-numbered Win successor of that remoteness;
 *   else some Tie succ -> Tie, r = 1 + least Tie remoteness, best = the
 *                         least-numbered Tie successor of that remoteness;
 *   else               -> Draw, r = NONE, best = least-numbered Draw succ.
 * ("least-numbered" is best_prefer's rule; tie_at vertices are targets.)
 * These local equations have exactly one solution: a Win/Lose of remoteness
 * r is justified only by successors of remoteness < r, so by induction on r
 * every Win/Lose label is the true one, and by induction on the oracle's
 * rounds every truly decided vertex gets its true label (a Tie or Draw
 * label would need no Lose successor and not only Win successors).  Ties
 * likewise: a Tie of remoteness r is justified by a Tie of r - 1, down to a
 * tie_at vertex, and a true Tie of least remoteness labelled Draw would
 * have a correctly labelled Tie successor, which the Draw rule forbids.
 * So passing this check is by itself a proof of correctness, independent
 * of the oracle.
 * Returns the first bad vertex, or NONE; *why says what is wrong.
 */
uint32_t spec_verify(const csr *gr, const uint8_t *kind, int misere,
                     const uint8_t *out, const uint32_t *rem,
                     const uint32_t *best, char *why, size_t why_len)
{
    uint32_t n = gr->n;
    for (uint32_t v = 0; v < n; v++) {
        int bad = out[v] > 3 || ((out[v] == LOOPY_DRAW) != (rem[v] == NONE));
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
                 : kind[v] == 3 ? LOOPY_TIE
                 : misere       ? LOOPY_WIN
                                : LOOPY_LOSE;
            er = 0;
        } else {
            uint32_t min_lose = NONE, max_win = 0, min_tie = NONE;
            int all_win = 1;
            for (uint64_t i = b; i < e; i++) {
                uint32_t w = gr->adj[i];
                if (out[w] == LOOPY_LOSE && rem[w] < min_lose)
                    min_lose = rem[w];
                if (out[w] == LOOPY_TIE && rem[w] < min_tie)
                    min_tie = rem[w];
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
            } else if (min_tie != NONE) {
                eo = LOOPY_TIE;
                er = min_tie + 1;
                for (uint64_t i = b; i < e; i++)
                    if (out[gr->adj[i]] == LOOPY_TIE &&
                        rem[gr->adj[i]] == min_tie &&
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

/* ==== Comparing a library solution ======================================= */

void check_solution(const test_ctx *c, const csr *gr, const uint8_t *kind,
                    const oracle_sol *o, const loopy_solution *s)
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
    static const loopy_outcome outs[4] = {LOOPY_DRAW, LOOPY_WIN, LOOPY_LOSE,
                                          LOOPY_TIE};
    for (int i = 0; i < 4; i++) {
        loopy_vertex cnt = loopy_solution_count(s, outs[i]);
        if (cnt != o->count[outs[i]])
            fail(c, "loopy_solution_count(%s) = %" PRIu32 ", oracle %" PRIu32,
                 oname(outs[i]), cnt, o->count[outs[i]]);
    }
    if (loopy_solution_count(s, (loopy_outcome)(LOOPY_TIE + 1)) != 0)
        fail(c, "loopy_solution_count of a value past LOOPY_TIE is not 0");
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
void check_graph(const test_ctx *c, const csr *gr, const loopy_graph *lg)
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

/* ==== Solve options ====================================================== */

loopy_solve_options make_options(int misere, const gen_targets *t, int threads)
{
    loopy_solve_options o = LOOPY_SOLVE_OPTIONS_INIT;
    o.misere = misere;
    o.threads = threads;
    if (t) {
        o.lose_at = t->lose_at;
        o.lose_at_count = t->lose_count;
        o.win_at = t->win_at;
        o.win_at_count = t->win_count;
        o.tie_at = t->tie_at;
        o.tie_at_count = t->tie_count;
    }
    return o;
}
