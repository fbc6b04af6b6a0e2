/*
 * test_parallel.c - the level-synchronous solver, serial and parallel, and
 * the graphs of every reader give the same answers as an independent oracle.
 *
 * For every random graph shape of gen.h, with random targets (tie_at sets
 * in half of the graphs and in the large ones) and both plays:
 * the solution of the graph built from edges on 1 thread, on 2 and 3
 * threads with every level forced onto the parallel path (small bins, many
 * exchange rounds), of the graph read back from text through the fast reader
 * and of the graph read back from the binary format must all equal the
 * oracle's.  The oracle decides positions round by round over the successor
 * lists (a Win at round r has a Lose successor of round r-1, a Lose at
 * round r has only Win successors, all from earlier rounds; then, among
 * the rest, a Tie at round r has a Tie successor of an earlier round) and
 * picks best moves from the successor lists: a different algorithm on the
 * other side of the graph.  A few graphs of about 2 * 10^5 vertices have
 * the threads of the best-move pass claim the same positions.
 */
#include "check.h"

#ifdef _OPENMP
#include <omp.h>
#endif
#include "gen.h"
#include "loopy.h"

#include <stdbool.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct answer {
    uint8_t *outcome;
    uint32_t *remoteness;
    uint32_t *best;
} answer;

static void answer_free(answer *a)
{
    free(a->outcome);
    free(a->remoteness);
    free(a->best);
}

/* The oracle: rounds of sweeps over the successor lists. */
static answer oracle(const gen_edges *g, const gen_targets *t, int misere)
{
    uint32_t n = g->n;
    answer a;
    uint64_t *start = calloc((size_t)n + 2, sizeof *start);
    uint32_t *succ = malloc((g->m ? g->m : 1) * sizeof *succ);
    uint32_t *newly = malloc((n ? n : 1) * sizeof *newly);
    uint8_t *new_outcome = malloc(n ? n : 1);
    bool changed = true;

    a.outcome = calloc(n ? n : 1, 1);
    a.remoteness = malloc((n ? n : 1) * sizeof *a.remoteness);
    a.best = malloc((n ? n : 1) * sizeof *a.best);
    if (!start || !succ || !newly || !new_outcome || !a.outcome ||
        !a.remoteness || !a.best) {
        fputs("test_parallel: out of memory\n", stderr);
        exit(1);
    }
    for (uint64_t e = 0; e < g->m; e++)
        start[g->tail[e] + 2]++;
    for (uint32_t v = 0; v < n; v++)
        start[v + 2] += start[v + 1];
    for (uint64_t e = 0; e < g->m; e++)
        succ[start[g->tail[e] + 1]++] = g->head[e];
    for (uint32_t v = 0; v < n; v++)
        a.remoteness[v] = LOOPY_NONE;
    for (size_t i = 0; i < t->lose_count; i++) {
        a.outcome[t->lose_at[i]] = LOOPY_LOSE;
        a.remoteness[t->lose_at[i]] = 0;
    }
    for (size_t i = 0; i < t->win_count; i++) {
        a.outcome[t->win_at[i]] = LOOPY_WIN;
        a.remoteness[t->win_at[i]] = 0;
    }
    for (size_t i = 0; i < t->tie_count; i++) {
        a.outcome[t->tie_at[i]] = LOOPY_TIE;
        a.remoteness[t->tie_at[i]] = 0;
    }
    for (uint32_t v = 0; v < n; v++)
        if (a.remoteness[v] == LOOPY_NONE && start[v] == start[v + 1]) {
            a.outcome[v] = misere ? LOOPY_WIN : LOOPY_LOSE;
            a.remoteness[v] = 0;
        }
    for (uint32_t r = 1; changed; r++) {
        uint32_t count = 0;
        changed = false;
        for (uint32_t u = 0; u < n; u++) {
            bool lose_seen = false, all_win = true;
            if (a.remoteness[u] != LOOPY_NONE)
                continue;
            for (uint64_t e = start[u]; e < start[u + 1]; e++) {
                uint32_t w = succ[e];
                bool old = a.remoteness[w] != LOOPY_NONE && a.remoteness[w] < r;
                lose_seen |= old && a.outcome[w] == LOOPY_LOSE;
                all_win &= old && a.outcome[w] == LOOPY_WIN;
            }
            if (lose_seen || all_win) {
                newly[count] = u;
                new_outcome[count++] = lose_seen ? LOOPY_WIN : LOOPY_LOSE;
            }
        }
        for (uint32_t i = 0; i < count; i++) {
            a.outcome[newly[i]] = new_outcome[i];
            a.remoteness[newly[i]] = r;
            changed = true;
        }
    }
    /* Ties, among the positions still undecided: rounds again. */
    changed = t->tie_count > 0;
    for (uint32_t r = 1; changed; r++) {
        uint32_t count = 0;
        changed = false;
        for (uint32_t u = 0; u < n; u++) {
            bool tie_seen = false;
            if (a.remoteness[u] != LOOPY_NONE)
                continue;
            for (uint64_t e = start[u]; e < start[u + 1]; e++) {
                uint32_t w = succ[e];
                tie_seen |= a.outcome[w] == LOOPY_TIE && a.remoteness[w] < r;
            }
            if (tie_seen)
                newly[count++] = u;
        }
        for (uint32_t i = 0; i < count; i++) {
            a.outcome[newly[i]] = LOOPY_TIE;
            a.remoteness[newly[i]] = r;
            changed = true;
        }
    }
    for (uint32_t u = 0; u < n; u++) {
        a.best[u] = LOOPY_NONE;
        if (a.remoteness[u] == 0)
            continue;
        for (uint64_t e = start[u]; e < start[u + 1]; e++) {
            uint32_t w = succ[e];
            /* A Win needs a Lose, a Lose a Win, a Tie a Tie. */
            uint8_t needed = a.outcome[u] == LOOPY_TIE ? LOOPY_TIE
                                                       : 3 - a.outcome[u];
            bool proves = a.outcome[u] == LOOPY_DRAW
                              ? a.outcome[w] == LOOPY_DRAW
                              : a.outcome[w] == needed &&
                                    a.remoteness[w] + 1 == a.remoteness[u];
            if (proves && w < a.best[u])
                a.best[u] = w;
        }
    }
    free(start);
    free(succ);
    free(newly);
    free(new_outcome);
    return a;
}

/* Compares a solution with the oracle; returns whether they agree. */
static bool same(const loopy_solution *s, const answer *want, uint32_t n,
                 const char *how, uint64_t seed, int shape)
{
    const uint8_t *o = loopy_solution_outcomes(s);
    const uint32_t *r = loopy_solution_remoteness(s);
    const uint32_t *b = loopy_solution_best_moves(s);

    CHECK(loopy_solution_vertex_count(s) == n);
    for (uint32_t v = 0; v < n; v++) {
        if (o[v] != want->outcome[v] || r[v] != want->remoteness[v] ||
            b[v] != want->best[v]) {
            CHECK_MSG(false, "%s, shape %s, seed %" PRIu64 ": vertex %" PRIu32
                      " is %d/%" PRIu32 "/%" PRIu32 ", expected %d/%" PRIu32
                      "/%" PRIu32, how, gen_shape_name(shape), seed, v, o[v],
                      r[v], b[v], want->outcome[v], want->remoteness[v],
                      want->best[v]);
            return false;
        }
    }
    return true;
}

static void solve_and_compare(const loopy_graph *g, const gen_targets *t,
                              int misere, int threads, uint32_t min_level,
                              const answer *want, const char *how,
                              uint64_t seed, int shape)
{
    loopy_solve_options opt = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_solution *s = NULL;

    opt.misere = misere;
    opt.lose_at = t->lose_at;
    opt.lose_at_count = t->lose_count;
    opt.win_at = t->win_at;
    opt.win_at_count = t->win_count;
    opt.tie_at = t->tie_at;
    opt.tie_at_count = t->tie_count;
    opt.threads = threads;
    opt.parallel_min_level = min_level;
    CHECK(loopy_solve(g, &opt, &s) == LOOPY_OK);
    if (s != NULL)
        same(s, want, loopy_graph_vertex_count(g), how, seed, shape);
    loopy_solution_free(s);
}

/* The graph as 1-based edge-list text. */
static char *to_text(const gen_edges *g, size_t *len)
{
    size_t cap = 32 + (size_t)g->m * 24;
    char *text = malloc(cap);
    size_t at;

    if (text == NULL)
        exit(1);
    at = (size_t)snprintf(text, cap, "%" PRIu32 " %" PRIu64 "\n", g->n, g->m);
    for (uint64_t e = 0; e < g->m; e++)
        at += (size_t)snprintf(text + at, cap - at, "%" PRIu32 " %" PRIu32 "\n",
                               g->tail[e] + 1, g->head[e] + 1);
    *len = at;
    return text;
}

static int collect(void *ctx, const void *bytes, size_t len)
{
    FILE *f = ctx;
    return fwrite(bytes, 1, len, f) == len ? 0 : 1;
}

/* Writes g in the binary format to a temporary file and reads it back. */
static loopy_graph *binary_round_trip(const loopy_graph *g)
{
    char path[] = "/tmp/loopy_test_parallel_XXXXXX";
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *back = NULL;
    loopy_diag diag;
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;

    CHECK(f != NULL);
    if (f == NULL)
        return NULL;
    CHECK(loopy_write_binary(g, collect, f) == LOOPY_OK);
    CHECK(fclose(f) == 0);
    ro.threads = 2;
    CHECK(loopy_read_file(path, &ro, &back, &diag) == LOOPY_OK);
    unlink(path);
    return back;
}

/* Ties for a large graph: about one in 64 of the vertices that are not
 * targets, so that Ties spread over many levels. */
static int sparse_ties(uint64_t seed, uint32_t n, gen_targets *t)
{
    uint8_t *taken = calloc(n ? n : 1, 1);
    size_t count = 0;

    t->tie_at = malloc((n ? n : 1) * sizeof *t->tie_at);
    if (taken == NULL || t->tie_at == NULL) {
        free(taken);
        return -1;
    }
    for (size_t i = 0; i < t->lose_count; i++)
        taken[t->lose_at[i]] = 1;
    for (size_t i = 0; i < t->win_count; i++)
        taken[t->win_at[i]] = 1;
    for (uint32_t v = 0; v < n; v++)
        if (!taken[v] && gen_mix_seed(seed, v) % 64 == 0)
            t->tie_at[count++] = v;
    t->tie_count = count;
    free(taken);
    return 0;
}

/* One graph, of gen_pick_n vertices when n is 0; ties: 0 none, 1 a random
 * tie set (gen_add_ties), 2 sparse_ties. */
static void run_case(uint64_t seed, int shape, uint32_t n, int ties)
{
    gen_edges e = GEN_EDGES_INIT;
    gen_targets t = GEN_TARGETS_INIT;
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *g = NULL, *from_text = NULL, *from_binary = NULL;
    int misere = (int)(seed & 1);
    loopy_diag diag;
    answer want;
    size_t len;
    char *text;

    if ((n > 0 ? gen_graph_sized(seed, shape, n, &e) : gen_graph(seed, shape, &e)) != 0 ||
        gen_make_targets(seed, e.n, &t) != 0 ||
        (ties == 1 && gen_add_ties(seed, e.n, &t) != 0) ||
        (ties == 2 && sparse_ties(seed, e.n, &t) != 0)) {
        fputs("test_parallel: out of memory\n", stderr);
        exit(1);
    }
    want = oracle(&e, &t, misere);
    CHECK(loopy_graph_from_edges(e.n, e.m, e.tail, e.head, &g) == LOOPY_OK);
    solve_and_compare(g, &t, misere, 1, 0, &want, "serial", seed, shape);
    solve_and_compare(g, &t, misere, 1, 1, &want, "1 thread, binned", seed, shape);
    solve_and_compare(g, &t, misere, 2, 1, &want, "2 threads", seed, shape);
    solve_and_compare(g, &t, misere, 3, 1, &want, "3 threads", seed, shape);
    text = to_text(&e, &len);
    ro.skip_successors = (int)(seed >> 1 & 1);
    CHECK(loopy_read_text(text, len, &ro, &from_text, NULL, &diag) == LOOPY_OK);
    if (from_text != NULL) {
        CHECK(loopy_graph_has_successors(from_text) == !ro.skip_successors);
        solve_and_compare(from_text, &t, misere, 2, 1, &want, "text", seed,
                          shape);
        from_binary = binary_round_trip(from_text);
    }
    if (from_binary != NULL)
        solve_and_compare(from_binary, &t, misere, 2, 1, &want, "binary", seed,
                          shape);
    check_case_end();
    free(text);
    loopy_graph_free(g);
    loopy_graph_free(from_text);
    loopy_graph_free(from_binary);
    answer_free(&want);
    gen_edges_free(&e);
    gen_targets_free(&t);
}

int main(void)
{
    for (int shape = 0; shape < GEN_SHAPE_COUNT; shape++)
        for (uint64_t seed = 0; seed < 40; seed++)
            run_case(gen_mix_seed(0x70a11e1, seed * GEN_SHAPE_COUNT +
                                                  (uint64_t)shape), shape, 0,
                     (int)(seed & 1));
    /* Graphs of more than three 65536-vertex chunks of the best-move pass,
     * so that threads walking different chunks claim the same positions
     * and only the least successor may win; the last two with ties. */
    {
        static const int large[] = {GEN_SPARSE, GEN_SINKS, GEN_MULTI, GEN_MIX,
                                    GEN_SPARSE, GEN_MIX};
        for (size_t i = 0; i < sizeof large / sizeof large[0]; i++)
            run_case(gen_mix_seed(0x1a29e, i), large[i], 3u * 65536u + 17u,
                     i >= 4 ? 2 : 0);
    }
    /* loopy_threads: what a threads option means. */
#ifdef _OPENMP
    CHECK(loopy_threads(3) == 3 && loopy_threads(0) == omp_get_max_threads() &&
          loopy_threads(-1) == omp_get_max_threads());
#else
    CHECK(loopy_threads(3) == 1 && loopy_threads(0) == 1);
#endif
    check_case_end();
    return check_finish("test_parallel");
}
