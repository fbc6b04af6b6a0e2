/*
 * subtract.c - the subtraction game: a heap of tokens; a move takes one of
 * the allowed amounts from it; a player who cannot move loses.
 *
 * Parameters "HEAP,TAKE,TAKE,..." (default 21,1,2,3; a heap alone, "5",
 * takes 1, 2 or 3).  Position i is a heap
 * of i tokens, 0 <= i <= HEAP; play starts at HEAP.  With takes {1, .., k}
 * the lost heaps are the multiples of k + 1.
 */
#include "games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct subtract {
    uint64_t heap;
    size_t takes;
    uint64_t *take; /* increasing, distinct, each >= 1 */
    char *params;   /* the canonical parameter text, whole */
} subtract;

static loopy_primitive primitive(void *ctx, loopy_position pos)
{
    (void)ctx;
    (void)pos;
    return LOOPY_PLAYING; /* a heap without moves is lost by the rules */
}

static size_t moves(void *ctx, loopy_position pos, loopy_position *out,
                    size_t capacity)
{
    const subtract *g = ctx;
    size_t count = 0;

    for (size_t i = 0; i < g->takes && g->take[i] <= pos; i++, count++)
        if (count < capacity)
            out[count] = pos - g->take[i];
    return count;
}

static size_t unmoves(void *ctx, loopy_position pos, loopy_position *out,
                      size_t capacity)
{
    const subtract *g = ctx;
    size_t count = 0;

    for (size_t i = 0; i < g->takes && g->take[i] <= g->heap - pos;
         i++, count++)
        if (count < capacity)
            out[count] = pos + g->take[i];
    return count;
}

static size_t format(void *ctx, loopy_position pos, char *out, size_t capacity)
{
    int len = snprintf(out, capacity, "%" LOOPY_PRI_POSITION, pos);

    (void)ctx;
    return len < 0 ? LOOPY_GAME_ERROR : (size_t)len;
}

static int parse(void *ctx, const char *text, loopy_position *pos, char *why,
                 size_t why_capacity)
{
    const subtract *g = ctx;
    uint64_t v = 0;

    if (*text == '\0') {
        snprintf(why, why_capacity, "expected a number of tokens");
        return 1;
    }
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10) {
            snprintf(why, why_capacity, "expected a number of tokens from 0 "
                     "to %" PRIu64, g->heap);
            return 1;
        }
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *pos = v;
    return 0;
}

/* Tiers: heaps of t*m .. t*m + m - 1 tokens, m the least take, so that
 * every move leaves its tier for a lower one. */
static loopy_position tier_start(void *ctx, uint64_t tier)
{
    const subtract *g = ctx;
    return tier * g->take[0];
}

static size_t tier_children(void *ctx, uint64_t tier, uint64_t *out,
                            size_t capacity)
{
    const subtract *g = ctx;
    uint64_t m = g->take[0], lo = tier * m, hi = lo + m - 1;
    size_t count = 0;

    if (hi > g->heap)
        hi = g->heap;
    /* A take k moves lo .. hi to lo - k .. hi - k (those at least 0): the
     * tiers of both ends, and none between (the span is under m). */
    for (size_t i = 0; i < g->takes && g->take[i] <= hi; i++) {
        uint64_t k = g->take[i];
        uint64_t ends[2] = {(lo >= k ? lo - k : 0) / m, (hi - k) / m};
        for (int e = 0; e < 2; e++) {
            size_t j = 0;
            while (j < count && j < capacity && out[j] != ends[e])
                j++;
            if (j < count)
                continue;
            if (count < capacity)
                out[count] = ends[e];
            count++;
        }
    }
    return count;
}

static void release(void *ctx)
{
    subtract *g = ctx;

    loopy_i_free(g->take);
    loopy_i_free(g->params);
    loopy_i_free(g);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Reads "HEAP,TAKE,..." into g; a message with the column on failure. */
static loopy_status read_params(const char *text, subtract *g,
                                loopy_diag *diag)
{
    const char *p = text;
    size_t count = 0, capacity = 0;

    g->heap = 0;
    for (;;) {
        const char *start = p;
        uint64_t v = 0;

        while (*p >= '0' && *p <= '9') {
            if (v > (UINT64_MAX - 9) / 10 / 2)
                break;
            v = v * 10 + (uint64_t)(*p - '0');
            p++;
        }
        if (p == start || (*p != ',' && *p != '\0') ||
            (count > 0 && v == 0) || (count == 0 && v >= UINT64_MAX / 2)) {
            loopy_i_diag(diag, 1, (uint64_t)(start - text) + 1,
                         "subtract: expected %s at column %zu of '%s'",
                         count == 0 ? "the heap size HEAP"
                                    : "an amount to take, at least 1",
                         (size_t)(start - text) + 1, text);
            return LOOPY_EINVAL;
        }
        if (count == 0) {
            g->heap = v;
        } else {
            if (count > capacity) {
                size_t want = capacity ? capacity * 2 : 8;
                uint64_t *grown = loopy_i_realloc(g->take, want, sizeof *grown);
                if (grown == NULL)
                    return LOOPY_ENOMEM;
                g->take = grown;
                capacity = want;
            }
            g->take[count - 1] = v;
        }
        count++;
        if (*p == '\0')
            break;
        p++;
    }
    if (count < 2) {
        /* A heap alone takes the default amounts: subtract:5 is 5,1,2,3. */
        static const uint64_t defaults[] = {1, 2, 3};
        uint64_t *take = loopy_i_realloc(g->take, 3, sizeof *take);
        if (take == NULL)
            return LOOPY_ENOMEM;
        memcpy(take, defaults, sizeof defaults);
        g->take = take;
        count = 4;
    }
    g->takes = count - 1;
    qsort(g->take, g->takes, sizeof *g->take, compare_u64);
    {
        size_t kept = 0;
        for (size_t i = 0; i < g->takes; i++)
            if (kept == 0 || g->take[kept - 1] != g->take[i])
                g->take[kept++] = g->take[i];
        g->takes = kept;
    }
    return LOOPY_OK;
}

/* A move is named and numbered by the tokens it takes: "take 2" is move
 * 2 from every heap. */
static size_t move_label(void *ctx, const char *from, loopy_position to,
                         uint32_t *number, char *label, size_t capacity)
{
    const subtract *g = ctx;
    loopy_position heap;
    char why[8], text[32];
    int len;

    if (parse(ctx, from, &heap, why, sizeof why) != 0 || to >= heap)
        return LOOPY_GAME_ERROR;
    for (size_t i = 0; i < g->takes; i++) {
        if (g->take[i] != heap - to)
            continue;
        *number = g->take[i] <= UINT32_MAX ? (uint32_t)g->take[i] : 0;
        len = snprintf(text, sizeof text, "take %" PRIu64, g->take[i]);
        return loopy_i_text_out(text, (size_t)len, label, capacity);
    }
    return LOOPY_GAME_ERROR;
}

static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    subtract *g = loopy_i_calloc(1, sizeof *g);
    loopy_status status;
    int len;

    if (g == NULL)
        return LOOPY_ENOMEM;
    status = read_params(params != NULL && params[0] ? params : "21,1,2,3", g,
                         diag);
    if (status != LOOPY_OK) {
        release(g);
        return status;
    }
    /* At most 21 characters a number, with its comma. */
    g->params = loopy_i_malloc(g->takes + 1, 21);
    if (g->params == NULL) {
        release(g);
        return LOOPY_ENOMEM;
    }
    len = sprintf(g->params, "%" PRIu64, g->heap);
    for (size_t i = 0; i < g->takes; i++)
        len += sprintf(g->params + len, ",%" PRIu64, g->take[i]);
    game->version = LOOPY_GAME_VERSION;
    game->name = "subtract";
    game->params = g->params;
    game->ctx = g;
    game->size = g->heap + 1;
    game->start = g->heap;
    game->primitive = primitive;
    game->moves = moves;
    game->unmoves = unmoves;
    game->format = format;
    game->parse = parse;
    game->release = release;
    game->move_label = move_label;
    game->tier_count = g->heap / g->take[0] + 1;
    game->tier_start = tier_start;
    game->tier_children = tier_children;
    return LOOPY_OK;
}

const loopy_game_def loopy_i_game_subtract = {
    .version = LOOPY_GAME_VERSION,
    .name = "subtract",
    .summary = "a heap of tokens; a move takes one of the allowed amounts",
    .params_help = "HEAP,TAKE,TAKE,... (default 21,1,2,3; HEAP alone "
                   "takes 1, 2 or 3)",
    .notation_help = "the number of tokens in the heap, such as 17",
    .create = create,
};
