/*
 * heaps.c - a game of your own with tiers, for loopy's tier solver
 * (loopy game solve --solver tier, loopy-mpi game solve --solver tier).
 *
 * Two heaps of at most N stones each, both N at the start.  A move takes 1
 * to K stones from one heap; whoever cannot move (both heaps empty) loses.
 * Every move takes a stone or more, so the positions fall into tiers by
 * the stones left: tier s holds the positions of s stones, and its moves
 * reach tiers s - 1 .. s - K only.  The index lists the positions tier by
 * tier (tier s from the start of the tiers before it: heap a from its
 * least to its most), as the tier solver wants: each tier a range of
 * indices.  (The position (a, b) is lost exactly when a mod (K + 1) equals
 * b mod (K + 1): the heaps' Sprague-Grundy values, a mod (K + 1), are
 * equal; tests/cli/mpi.sh checks the solve against that.)
 *
 * Build and solve (from the repository's root):
 *   cc -shared -fPIC -Iinclude examples/heaps.c -o heaps.so
 *   build/loopy game solve --solver tier ./heaps.so:20,3 -o heaps.ldb
 *   build/loopy game probe --game ./heaps.so heaps.ldb 7,5
 *
 * Parameters N,K (default 10,3): heaps of 1 to 1000000 stones, takes of 1
 * to N.  Positions are written "A,B".
 */
#include "loopy_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct heaps {
    uint64_t n, k;
    uint64_t
        *start; /* 2n + 2: the first index of tier s; start[2n+1] the size */
    char params[48];
} heaps;

/* The least and most of heap a in tier s. */
static uint64_t least(const heaps *g, uint64_t s)
{
    return s > g->n ? s - g->n : 0;
}

static uint64_t most(const heaps *g, uint64_t s)
{
    return s < g->n ? s : g->n;
}

/* The index of the position (a, b). */
static loopy_position index_of(const heaps *g, uint64_t a, uint64_t b)
{
    return g->start[a + b] + a - least(g, a + b);
}

/* The heaps of position p (below the size). */
static void heaps_of(const heaps *g, loopy_position p, uint64_t *a, uint64_t *b)
{
    uint64_t lo = 0, hi = 2 * g->n + 1; /* start[lo] <= p < start[hi] */

    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (g->start[mid] <= p)
            lo = mid;
        else
            hi = mid;
    }
    *a = least(g, lo) + (p - g->start[lo]);
    *b = lo - *a;
}

static loopy_primitive primitive(void *ctx, loopy_position p)
{
    (void)ctx;
    (void)p;
    return LOOPY_PLAYING; /* both heaps empty: no move, a loss */
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    const heaps *g = ctx;
    uint64_t a, b;
    size_t count = 0;

    heaps_of(g, p, &a, &b);
    for (uint64_t t = 1; t <= g->k; t++) {
        if (a >= t && count < capacity)
            out[count] = index_of(g, a - t, b);
        count += a >= t;
        if (b >= t && count < capacity)
            out[count] = index_of(g, a, b - t);
        count += b >= t;
    }
    return count;
}

static size_t unmoves(void *ctx, loopy_position p, loopy_position *out,
                      size_t capacity)
{
    const heaps *g = ctx;
    uint64_t a, b;
    size_t count = 0;

    heaps_of(g, p, &a, &b);
    for (uint64_t t = 1; t <= g->k; t++) {
        if (a + t <= g->n && count < capacity)
            out[count] = index_of(g, a + t, b);
        count += a + t <= g->n;
        if (b + t <= g->n && count < capacity)
            out[count] = index_of(g, a, b + t);
        count += b + t <= g->n;
    }
    return count;
}

static loopy_position tier_start(void *ctx, uint64_t tier)
{
    const heaps *g = ctx;

    return g->start[tier];
}

/* Tier s's moves take 1 to K stones: tiers s - 1 .. s - K. */
static size_t tier_children(void *ctx, uint64_t tier, uint64_t *out,
                            size_t capacity)
{
    const heaps *g = ctx;
    size_t count = 0;

    for (uint64_t t = 1; t <= g->k && t <= tier; t++)
        if (count < capacity)
            out[count++] = tier - t;
    return count;
}

static size_t format(void *ctx, loopy_position p, char *out, size_t capacity)
{
    const heaps *g = ctx;
    uint64_t a, b;
    int len;

    heaps_of(g, p, &a, &b);
    len = snprintf(out, capacity, "%llu,%llu", (unsigned long long)a,
                   (unsigned long long)b);
    return len < 0 ? LOOPY_GAME_ERROR : (size_t)len;
}

/* Reads a whole number from 0 to max at *s; false when there is none. */
static int read_number(const char **s, uint64_t max, uint64_t *value)
{
    uint64_t v = 0;
    const char *p = *s;

    if (*p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > max)
            return 0;
    }
    *s = p;
    *value = v;
    return 1;
}

static int parse(void *ctx, const char *text, loopy_position *pos, char *why,
                 size_t why_capacity)
{
    const heaps *g = ctx;
    uint64_t a, b;

    if (!read_number(&text, g->n, &a) || *text++ != ',' ||
        !read_number(&text, g->n, &b) || *text != '\0') {
        snprintf(why, why_capacity,
                 "expected A,B: two heaps of 0 to %llu "
                 "stones",
                 (unsigned long long)g->n);
        return 1;
    }
    *pos = index_of(g, a, b);
    return 0;
}

static void release(void *ctx)
{
    heaps *g = ctx;

    free(g->start);
    free(g);
}

static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    uint64_t n = 10, k = 3;
    const char *p = params;
    heaps *g;

    if (p != NULL && p[0] != '\0' &&
        (!read_number(&p, 1000000, &n) || n < 1 || *p++ != ',' ||
         !read_number(&p, n, &k) || k < 1 || *p != '\0')) {
        if (diag != NULL)
            snprintf(diag->message, sizeof diag->message,
                     "heaps: expected N,K: heaps of 1 to 1000000 stones and "
                     "takes of 1 to N, found '%s'",
                     params);
        return LOOPY_EINVAL;
    }
    g = malloc(sizeof *g);
    if (g == NULL)
        return LOOPY_ENOMEM;
    g->n = n;
    g->k = k;
    g->start = malloc((2 * n + 2) * sizeof *g->start);
    if (g->start == NULL) {
        free(g);
        return LOOPY_ENOMEM;
    }
    g->start[0] = 0;
    for (uint64_t s = 0; s <= 2 * n; s++)
        g->start[s + 1] = g->start[s] + most(g, s) - least(g, s) + 1;
    snprintf(g->params, sizeof g->params, "%llu,%llu", (unsigned long long)n,
             (unsigned long long)k);
    *game = (loopy_game){
        .version = LOOPY_GAME_VERSION,
        .name = "heaps",
        .params = g->params,
        .ctx = g,
        .size = g->start[2 * n + 1],
        .start = index_of(g, n, n),
        .primitive = primitive,
        .moves = moves,
        .unmoves = unmoves,
        .format = format,
        .parse = parse,
        .release = release,
        .tier_count = 2 * n + 1,
        .tier_start = tier_start,
        .tier_children = tier_children,
        /* Every move takes a stone: at most 2N moves. */
        .remoteness_bound = (uint32_t)(2 * n),
    };
    return LOOPY_OK;
}

static const loopy_game_def definition = {
    .version = LOOPY_GAME_VERSION,
    .name = "heaps",
    .summary = "two heaps; take 1 to K stones from one; who cannot move loses",
    .params_help = "N,K (default 10,3): heaps of N stones, takes of 1 to K",
    .notation_help = "the heaps, such as 7,5",
    .create = create,
};

const loopy_game_def *loopy_game_definition(void);

const loopy_game_def *loopy_game_definition(void)
{
    return &definition;
}
