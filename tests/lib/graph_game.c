/*
 * graph_game.c - a test game whose rules are a random graph (see
 * tests/graph_game.h).
 */
#include "graph_game.h"

#include "oracle.h"

#include <stdlib.h>
#include <string.h>

#define INDEX_MASK GRAPH_GAME_INDEX_MASK
#define SCRAMBLE UINT64_C(0x9e3779b97f4a7c15) /* odd: a bijection mod 2^63 */
#define OFFSET UINT64_C(0x2545f4914f6cdd1d)

loopy_position graph_game_encode(const graph_game *g, uint32_t v, unsigned a)
{
    uint64_t x = (uint64_t)v * 2 + a;

    return g->compact ? x : (x * SCRAMBLE + OFFSET) & INDEX_MASK;
}

static uint64_t decode(const graph_game *g, loopy_position p)
{
    return g->compact ? p : ((p - OFFSET) * g->inverse) & INDEX_MASK;
}

static loopy_primitive primitive(void *ctx, loopy_position p)
{
    const graph_game *g = ctx;
    uint64_t x = decode(g, p);

    return x / 2 < g->k ? (loopy_primitive)g->kind[x / 2] : LOOPY_OVER_TIE;
}

static size_t list(const graph_game *g, loopy_position p, bool back,
                   loopy_position *out, size_t capacity)
{
    uint64_t x = decode(g, p), v = x / 2;
    const uint64_t *off = back ? g->roff : g->off;
    const uint32_t *adj = back ? g->from : g->to;
    const uint8_t *bit = back ? g->rflip : g->flip;
    size_t count = 0;

    if (v >= g->k)
        return LOOPY_GAME_ERROR;
    for (uint64_t e = off[v]; e < off[v + 1]; e++) {
        /* No move is made from where the game is over: unmoves leave
         * those out, as the interface asks. */
        if (back && g->kind[adj[e]] != LOOPY_PLAYING)
            continue;
        if (count < capacity)
            out[count] =
                graph_game_encode(g, adj[e], (unsigned)(x & 1) ^ bit[e]);
        count++;
    }
    return count;
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    return list(ctx, p, false, out, capacity);
}

static size_t unmoves(void *ctx, loopy_position p, loopy_position *out,
                      size_t capacity)
{
    return list(ctx, p, true, out, capacity);
}

static loopy_position canonical(void *ctx, loopy_position p)
{
    uint64_t x = decode(ctx, p);

    return graph_game_encode(ctx, (uint32_t)(x / 2), 0);
}

/* The representatives directly: the move's base vertex with bit 0. */
static size_t given_list(void *ctx, loopy_position p, bool back,
                         loopy_position *out, size_t capacity)
{
    size_t count = list(ctx, p, back, out, capacity);

    for (size_t i = 0; count != LOOPY_GAME_ERROR && i < count && i < capacity;
         i++)
        out[i] = canonical(ctx, out[i]);
    return count;
}

static size_t canonical_moves(void *ctx, loopy_position p, loopy_position *out,
                              size_t capacity)
{
    return given_list(ctx, p, false, out, capacity);
}

static size_t canonical_unmoves(void *ctx, loopy_position p,
                                loopy_position *out, size_t capacity)
{
    return given_list(ctx, p, true, out, capacity);
}

void graph_game_give_representatives(loopy_game *game, bool on)
{
    game->canonical_moves = on ? canonical_moves : NULL;
    game->canonical_unmoves = on ? canonical_unmoves : NULL;
}

/* The base graph e (and kinds) as a game; start at base vertex s, bit 0. */
void graph_game_make(graph_game *g, const gen_edges *e, gen_rng *r,
                     const uint8_t *kind, loopy_game *game, uint32_t s)
{
    uint64_t inv = 1;

    /* Newton's iteration for the inverse of an odd number mod 2^64. */
    for (int i = 0; i < 6; i++)
        inv *= 2 - SCRAMBLE * inv;
    g->inverse = inv;
    g->k = e->n;
    g->off = xmalloc((e->n + 1) * sizeof *g->off);
    g->roff = xmalloc((e->n + 2) * sizeof *g->roff);
    g->to = xmalloc(e->m * sizeof *g->to + 1);
    g->from = xmalloc(e->m * sizeof *g->from + 1);
    g->flip = xmalloc(e->m + 1);
    g->rflip = xmalloc(e->m + 1);
    g->kind = xmalloc(e->n + 1);
    memcpy(g->kind, kind, e->n);
    memset(g->off, 0, (e->n + 1) * sizeof *g->off);
    memset(g->roff, 0, (e->n + 2) * sizeof *g->roff);
    for (uint64_t i = 0; i < e->m; i++) {
        g->off[e->tail[i] + 1]++;
        g->roff[e->head[i] + 2]++;
    }
    for (uint32_t v = 0; v < e->n; v++) {
        g->off[v + 1] += g->off[v];
        g->roff[v + 2] += g->roff[v + 1];
    }
    {
        uint64_t *fill = xmalloc((e->n + 1) * sizeof *fill);
        memcpy(fill, g->off, (e->n + 1) * sizeof *fill);
        for (uint64_t i = 0; i < e->m; i++) {
            uint64_t at = fill[e->tail[i]]++;
            uint8_t bit = (uint8_t)gen_below(r, 2);
            uint64_t rat = g->roff[e->head[i] + 1]++;
            g->to[at] = e->head[i];
            g->flip[at] = bit;
            g->from[rat] = e->tail[i];
            g->rflip[rat] = bit;
        }
        free(fill);
    }
    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "graph";
    game->params = "";
    game->ctx = g;
    game->size = g->compact ? 2 * (uint64_t)e->n : INDEX_MASK + 1;
    game->start = graph_game_encode(g, s, 0);
    game->primitive = primitive;
    game->moves = moves;
    game->unmoves = unmoves;
    game->canonical = canonical;
}

void graph_game_free(graph_game *g)
{
    free(g->off);
    free(g->roff);
    free(g->to);
    free(g->from);
    free(g->flip);
    free(g->rflip);
    free(g->kind);
}
