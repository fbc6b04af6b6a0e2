/*
 * rings.c - a test game with tiers whose moves stay inside them, with
 * cycles, Draws and Ties, for loopy-mpi's tier solver (tests/cli/mpi.sh).
 *
 * Parameters N,T (default 48,6): T rings of N places (N a multiple of
 * 16 from 16 to 4096, T from 1 to 4096).  Position (t, x) is place x of ring
 * t, index t N + x; ring t is tier t.  From (t, x):
 *   - when x mod 16 = 15, the only move is to (t, x + 16 mod N): these places
 *     move round a cycle of their own, never to an end (Draws);
 *   - else to (t, x + 1 mod N), to (t, 3x + 1 mod N) when that is another
 *     place, and from ring t > 0 down to (t - 1, x + t mod N).
 * (t, x) with x mod 8 = 0 is over, lost by the player to move; (0, x)
 * with x mod 16 = 4 is over, a Tie.
 * unmoves() is the moves read backwards, found by trying every place of
 * the same ring and the ring above.  Positions are written "T:X".
 */
#include "loopy_game.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct rings {
    uint64_t n, t;
    char params[32];
} rings;

static loopy_primitive primitive(void *ctx, loopy_position p)
{
    const rings *g = ctx;

    return p % g->n % 8 == 0              ? LOOPY_OVER_LOSE
           : p < g->n && p % g->n % 16 == 4 ? LOOPY_OVER_TIE
                                            : LOOPY_PLAYING;
}

/* The moves of p (playing) into out[0 .. 3): their number. */
static size_t moves_of(const rings *g, loopy_position p, loopy_position *out)
{
    uint64_t t = p / g->n, x = p % g->n, n = g->n, m3 = (3 * x + 1) % n;
    size_t count = 0;

    if (x % 16 == 15) {
        out[count++] = t * n + (x + 16) % n;
        return count;
    }
    out[count++] = t * n + (x + 1) % n;
    if (m3 != x && m3 != (x + 1) % n)
        out[count++] = t * n + m3;
    if (t > 0)
        out[count++] = (t - 1) * n + (x + t) % n;
    return count;
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    loopy_position m[3];
    size_t count = primitive(ctx, p) == LOOPY_PLAYING ? moves_of(ctx, p, m) : 0;

    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = m[i];
    return count;
}

static size_t unmoves(void *ctx, loopy_position p, loopy_position *out,
                      size_t capacity)
{
    const rings *g = ctx;
    uint64_t t = p / g->n;
    loopy_position first = t * g->n;
    loopy_position last = t + 1 < g->t ? (t + 2) * g->n : (t + 1) * g->n;
    size_t count = 0;

    for (loopy_position q = first; q < last; q++) {
        loopy_position m[3];
        size_t k = primitive(ctx, q) == LOOPY_PLAYING ? moves_of(g, q, m) : 0;
        for (size_t i = 0; i < k; i++)
            if (m[i] == p) {
                if (count < capacity)
                    out[count] = q;
                count++;
                break;
            }
    }
    return count;
}

static loopy_position tier_start(void *ctx, uint64_t tier)
{
    const rings *g = ctx;

    return tier * g->n;
}

/* Ring t moves inside itself and down to ring t - 1. */
static size_t tier_children(void *ctx, uint64_t tier, uint64_t *out,
                            size_t capacity)
{
    size_t count = 0;

    (void)ctx;
    if (count < capacity)
        out[count] = tier;
    count++;
    if (tier > 0) {
        if (count < capacity)
            out[count] = tier - 1;
        count++;
    }
    return count;
}

static size_t format(void *ctx, loopy_position p, char *out, size_t capacity)
{
    const rings *g = ctx;
    int len = snprintf(out, capacity, "%llu:%llu",
                       (unsigned long long)(p / g->n),
                       (unsigned long long)(p % g->n));

    return len < 0 ? LOOPY_GAME_ERROR : (size_t)len;
}

/* A whole number below limit at *s; false when there is none. */
static int read_number(const char **s, uint64_t limit, uint64_t *value)
{
    uint64_t v = 0;
    const char *p = *s;

    if (*p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v >= limit)
            return 0;
    }
    *s = p;
    *value = v;
    return 1;
}

static int parse(void *ctx, const char *text, loopy_position *pos, char *why,
                 size_t why_capacity)
{
    const rings *g = ctx;
    uint64_t t, x;

    if (!read_number(&text, g->t, &t) || *text++ != ':' ||
        !read_number(&text, g->n, &x) || *text != '\0') {
        snprintf(why, why_capacity, "expected T:X, a ring below %llu and a "
                 "place below %llu", (unsigned long long)g->t,
                 (unsigned long long)g->n);
        return 1;
    }
    *pos = t * g->n + x;
    return 0;
}

static void release(void *ctx)
{
    free(ctx);
}

static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    uint64_t n = 48, t = 6;
    const char *p = params;
    rings *g;

    if (p != NULL && p[0] != '\0' &&
        (!read_number(&p, 4097, &n) || n < 16 || n % 16 != 0 || *p++ != ',' ||
         !read_number(&p, 4097, &t) || t < 1 || *p != '\0')) {
        if (diag != NULL)
            snprintf(diag->message, sizeof diag->message,
                     "rings: expected N,T: N a multiple of 16 from 16 to "
                     "4096, T from 1 to 4096, found '%s'", params);
        return LOOPY_EINVAL;
    }
    g = malloc(sizeof *g);
    if (g == NULL)
        return LOOPY_ENOMEM;
    g->n = n;
    g->t = t;
    snprintf(g->params, sizeof g->params, "%llu,%llu", (unsigned long long)n,
             (unsigned long long)t);
    *game = (loopy_game){
        .version = LOOPY_GAME_VERSION,
        .name = "rings",
        .params = g->params,
        .ctx = g,
        .size = n * t,
        .start = (t - 1) * n + 2,
        .primitive = primitive,
        .moves = moves,
        .unmoves = unmoves,
        .format = format,
        .parse = parse,
        .release = release,
        .tier_count = t,
        .tier_start = tier_start,
        .tier_children = tier_children,
    };
    return LOOPY_OK;
}

static const loopy_game_def definition = {
    .version = LOOPY_GAME_VERSION,
    .name = "rings",
    .summary = "rings of places, moving round and down (a test game)",
    .params_help = "N,T (default 48,6): T rings of N places",
    .notation_help = "ring and place, such as 3:5",
    .create = create,
};

const loopy_game_def *loopy_game_definition(void);

const loopy_game_def *loopy_game_definition(void)
{
    return &definition;
}
