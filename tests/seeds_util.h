/*
 * seeds_util.h - oracles and helpers shared by the seed-problem tests
 * (test_seeds.c, test_seed_input.c).  Header-only: include from one .c file
 * per program.
 */
#ifndef LOOPY_TEST_SEEDS_UTIL_H
#define LOOPY_TEST_SEEDS_UTIL_H

#include "check.h"
#include "gen.h"
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ==== Oracles ============================================================ */

/* Race: value iteration from "all undecided" until nothing changes (the
 * least fixed point).  1 Win, -1 Lose, 0 Draw, with y lost on arrival. */
static inline void race_oracle(const gen_edges *g, uint32_t y, int8_t *value)
{
    /* Successor lists by counting sort, for sweeps of O(n + m). */
    uint64_t *first = calloc((size_t)g->n + 1, sizeof *first);
    uint32_t *succ = malloc((g->m + 1) * sizeof *succ);
    uint64_t *fill = malloc(((size_t)g->n + 1) * sizeof *fill);
    bool changed = true;

    for (uint64_t e = 0; e < g->m; e++)
        first[g->tail[e] + 1]++;
    for (uint32_t v = 0; v < g->n; v++)
        first[v + 1] += first[v];
    memcpy(fill, first, ((size_t)g->n + 1) * sizeof *fill);
    for (uint64_t e = 0; e < g->m; e++)
        succ[fill[g->tail[e]]++] = g->head[e];
    memset(value, 0, g->n);
    while (changed) {
        changed = false;
        for (uint32_t v = 0; v < g->n; v++) {
            bool any_lose = false, all_win = true;
            int8_t want;
            if (value[v] != 0)
                continue;
            for (uint64_t e = first[v]; e < first[v + 1]; e++) {
                any_lose |= value[succ[e]] == -1;
                all_win &= value[succ[e]] == 1;
            }
            want = v == y ? -1 : any_lose ? 1 : all_win ? -1 : 0;
            if (want != 0) {
                value[v] = want;
                changed = true;
            }
        }
    }
    free(first);
    free(succ);
    free(fill);
}

/* Sleepy: the sets of vertices reachable after exactly k moves, k = 1, 2,
 * ...  The shortest odd k at which a sink is reachable (0 if none within 2n
 * + 1 moves, which would be enough); *cycle: a walk of n moves exists. */
static inline uint64_t sleepy_oracle(const gen_edges *g, uint32_t s,
                                     bool *cycle)
{
    uint8_t *now = calloc(g->n + 1, 1), *next = calloc(g->n + 1, 1);
    uint8_t *has_move = calloc(g->n + 1, 1);
    uint64_t found = 0;

    for (uint64_t e = 0; e < g->m; e++)
        has_move[g->tail[e]] = 1;
    now[s] = 1;
    *cycle = false;
    for (uint64_t k = 1; k <= 2 * (uint64_t)g->n + 1; k++) {
        bool any = false;
        memset(next, 0, g->n);
        for (uint64_t e = 0; e < g->m; e++)
            if (now[g->tail[e]])
                next[g->head[e]] = 1;
        for (uint32_t v = 0; v < g->n; v++) {
            any |= next[v] != 0;
            if (found == 0 && (k & 1) && next[v] && !has_move[v])
                found = k;
        }
        if (k == g->n && any)
            *cycle = true;
        memcpy(now, next, g->n);
    }
    free(now);
    free(next);
    free(has_move);
    return found;
}

/* Climb: win(c) by plain recursion over the (short, climbing) walks. */
static inline bool climb_wins(uint32_t rows, uint32_t cols, const uint32_t *h,
                       uint32_t c)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    for (int i = 0; i < 4; i++) {
        int r = (int)(c / cols) + dr[i], k = (int)(c % cols) + dc[i];
        uint32_t d;
        if (r < 0 || k < 0 || r >= (int)rows || k >= (int)cols)
            continue;
        d = (uint32_t)r * cols + (uint32_t)k;
        if (h[d] > h[c] && !climb_wins(rows, cols, h, d))
            return true;
    }
    return false;
}

/* ==== Helpers ============================================================ */

static inline loopy_graph *graph_of(const gen_edges *g)
{
    loopy_graph *graph = NULL;
    CHECK(loopy_graph_from_edges(g->n, g->m, g->tail, g->head, &graph) ==
          LOOPY_OK);
    return graph;
}

/* A growing text for generated inputs; separators vary with the rng. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static inline void put(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void put(text *t, const char *fmt, ...)
{
    va_list ap;
    int need;

    va_start(ap, fmt);
    need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)need + 1 > t->cap) {
        t->cap = 2 * (t->len + (size_t)need + 1);
        t->s = realloc(t->s, t->cap);
        if (t->s == NULL)
            abort();
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)need;
}

static inline const char *separator(gen_rng *r)
{
    static const char *const seps[] = {" ", " ", "\n", "  ", "\t", "\r\n",
                                       "\n\n "};
    return seps[gen_below32(r, 7)];
}

/* Runs a reader over text through a memory source. */
typedef loopy_status (*run_fn)(loopy_source *src, void *out, loopy_diag *d);

static inline loopy_status run_race_read(loopy_source *src, void *out,
                                        loopy_diag *d)
{
    void **o = out;
    return loopy_race_read(src, (loopy_graph **)o[0],
                           (loopy_race_rounds *)o[1], d);
}

static inline loopy_status run_sleepy_read(loopy_source *src, void *out,
                                    loopy_diag *d)
{
    void **o = out;
    return loopy_sleepy_read(src, (loopy_graph **)o[0], (loopy_vertex *)o[1],
                             d);
}

static inline loopy_status run_climb(loopy_source *src, void *out,
                                    loopy_diag *d)
{
    return loopy_climb_run(src, (loopy_climb_answers *)out, d);
}

static inline loopy_status read_memory(run_fn fn, const char *s, size_t len,
                                void *out, loopy_diag *diag)
{
    loopy_source *src = NULL;
    loopy_status status = loopy_source_from_memory(s, len, &src);
    if (status != LOOPY_OK)
        return status;
    status = fn(src, out, diag);
    loopy_source_free(src);
    return status;
}


#endif
