/*
 * tiered.c - random tiered games for the tier solver's tests: the games
 * and their oracle declared in tests/tiered.h (see there).
 */
#include "tiered.h"

#include <stdlib.h>
#include <string.h>

static loopy_primitive t_primitive(void *ctx, loopy_position pos)
{
    const tiered *g = ctx;
    return (loopy_primitive)g->kind[pos];
}

/* list[at[pos] .. at[pos + 1]) into out, as a game's lists are given. */
static size_t t_list(const uint64_t *at, const uint64_t *list,
                     loopy_position pos, loopy_position *out, size_t capacity)
{
    size_t count = (size_t)(at[pos + 1] - at[pos]);

    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = list[at[pos] + i];
    return count;
}

static size_t t_moves(void *ctx, loopy_position pos, loopy_position *out,
                      size_t capacity)
{
    const tiered *g = ctx;

    return t_list(g->move_at, g->move, pos, out, capacity);
}

static size_t t_unmoves(void *ctx, loopy_position pos, loopy_position *out,
                        size_t capacity)
{
    const tiered *g = ctx;

    return t_list(g->back_at, g->back, pos, out, capacity);
}

static loopy_position t_tier_start(void *ctx, uint64_t tier)
{
    const tiered *g = ctx;

    if (g->fault == FAULT_ORDER && tier == 2)
        return g->start[1] > 0 ? g->start[1] - 1 : g->size;
    return g->start[tier];
}

static size_t t_tier_children(void *ctx, uint64_t tier, uint64_t *out,
                              size_t capacity)
{
    const tiered *g = ctx;
    size_t count = (size_t)(g->child_at[tier + 1] - g->child_at[tier]), n;

    if (g->fault == FAULT_FAILS && tier == 1)
        return LOOPY_GAME_ERROR;
    if (g->fault == FAULT_UNNAMED && tier == 0)
        return 0;
    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = g->child[g->child_at[tier] + i];
    n = count;
    if (g->fault == FAULT_CYCLE && tier == g->tiers - 1 && n < capacity)
        out[n++] = 0;
    if (g->fault == FAULT_SELF && tier == 1 && n < capacity)
        out[n++] = 1;
    if (g->fault == FAULT_RANGE && tier == 0 && n < capacity)
        out[n++] = g->tiers;
    return n;
}

/* A game of size positions in tiers tiers; moves from tier t go to the
 * tiers its children name, which lie above t. */
void tiered_make(tiered *g, gen_rng *r, loopy_game *game)
{
    uint64_t edges = 0, cap;

    memset(g, 0, sizeof *g);
    g->tiers = 3 + gen_below(r, 8);
    g->size = g->tiers + gen_below(r, 120);
    g->start = calloc(g->tiers + 1, sizeof *g->start);
    g->child_at = calloc(g->tiers + 1, sizeof *g->child_at);
    g->child = calloc(g->tiers * g->tiers, sizeof *g->child);
    g->move_at = calloc(g->size + 1, sizeof *g->move_at);
    g->kind = calloc(g->size, 1);
    /* Random cuts, some tiers empty (but the first, where play starts). */
    g->start[0] = 0;
    for (uint64_t t = 1; t < g->tiers; t++)
        g->start[t] = 1 + gen_below(r, g->size - 1);
    g->start[g->tiers] = g->size;
    for (uint64_t t = 1; t < g->tiers; t++) /* insertion sort */
        for (uint64_t u = t; u > 1 && g->start[u - 1] > g->start[u]; u--) {
            uint64_t x = g->start[u];
            g->start[u] = g->start[u - 1];
            g->start[u - 1] = x;
        }
    for (uint64_t t = 0; t < g->tiers; t++) {
        g->child_at[t + 1] = g->child_at[t];
        for (uint64_t c = t + 1; c < g->tiers; c++)
            if (gen_chance(r, 1, 2) || c == t + 1)
                g->child[g->child_at[t + 1]++] = c;
    }
    cap = g->size * 4 + 1;
    g->move = calloc(cap, sizeof *g->move);
    for (uint64_t p = 0; p < g->size; p++) {
        uint64_t t = 0, kids;
        while (g->start[t + 1] <= p)
            t++;
        g->move_at[p] = edges;
        kids = g->child_at[t + 1] - g->child_at[t];
        switch (gen_below(r, 8)) {
        case 0: g->kind[p] = LOOPY_OVER_WIN; break;
        case 1: g->kind[p] = LOOPY_OVER_LOSE; break;
        case 2: g->kind[p] = LOOPY_OVER_TIE; break;
        default: g->kind[p] = LOOPY_PLAYING; break;
        }
        for (uint64_t k = gen_below(r, 5); k > 0 && kids > 0; k--) {
            uint64_t c = g->child[g->child_at[t] + gen_below(r, kids)];
            if (g->start[c + 1] > g->start[c] && edges < cap)
                g->move[edges++] = g->start[c] + gen_below(r, g->start[c + 1] -
                                                                  g->start[c]);
        }
    }
    g->move_at[g->size] = edges;
    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "tiered";
    game->params = "";
    game->ctx = g;
    game->size = g->size;
    game->start = 0;
    game->primitive = t_primitive;
    game->moves = t_moves;
    game->tier_count = g->tiers;
    game->tier_start = t_tier_start;
    game->tier_children = t_tier_children;
}

/* The same with moves inside some tiers (self: tier t names itself
 * with chance self_in_8 / 8), so cycles, Draws and Ties through them;
 * with unmoves, which the tier solver needs for such tiers. */
void tiered_make_inner(tiered *g, gen_rng *r, loopy_game *game,
                              unsigned self_in_8)
{
    uint64_t edges = 0, cap, *fill;

    tiered_make(g, r, game);
    /* Each tier's list anew: itself first when chosen. */
    {
        uint64_t *child = calloc(g->tiers * (g->tiers + 1), sizeof *child);
        uint64_t *child_at = calloc(g->tiers + 1, sizeof *child_at);
        for (uint64_t t = 0; t < g->tiers; t++) {
            child_at[t + 1] = child_at[t];
            if (gen_below(r, 8) < self_in_8)
                child[child_at[t + 1]++] = t;
            for (uint64_t i = g->child_at[t]; i < g->child_at[t + 1]; i++)
                child[child_at[t + 1]++] = g->child[i];
        }
        free(g->child);
        free(g->child_at);
        g->child = child;
        g->child_at = child_at;
    }
    /* Moves anew: to the tiers named, the tier itself among them. */
    cap = g->size * 5 + 1;
    free(g->move);
    g->move = calloc(cap, sizeof *g->move);
    for (uint64_t p = 0; p < g->size; p++) {
        uint64_t t = 0, kids;
        while (g->start[t + 1] <= p)
            t++;
        g->move_at[p] = edges;
        kids = g->child_at[t + 1] - g->child_at[t];
        for (uint64_t k = gen_below(r, 6); k > 0 && kids > 0; k--) {
            uint64_t c = g->child[g->child_at[t] + gen_below(r, kids)];
            uint64_t q;
            if (g->start[c + 1] == g->start[c] || edges == cap)
                continue;
            q = g->start[c] + gen_below(r, g->start[c + 1] - g->start[c]);
            if (q != p)
                g->move[edges++] = q;
        }
        /* Fewer positions over: more play inside the tiers. */
        if (g->kind[p] != LOOPY_PLAYING && gen_chance(r, 1, 2))
            g->kind[p] = LOOPY_PLAYING;
    }
    g->move_at[g->size] = edges;
    /* The unmoves: each move reversed (repeats kept, as moves has them). */
    g->back_at = calloc(g->size + 1, sizeof *g->back_at);
    g->back = calloc(edges + 1, sizeof *g->back);
    fill = calloc(g->size + 1, sizeof *fill);
    for (uint64_t e = 0; e < edges; e++)
        g->back_at[g->move[e] + 1]++;
    for (uint64_t p = 0; p < g->size; p++)
        g->back_at[p + 1] += g->back_at[p];
    for (uint64_t p = 0; p < g->size; p++)
        for (uint64_t e = g->move_at[p]; e < g->move_at[p + 1]; e++) {
            uint64_t q = g->move[e];
            g->back[g->back_at[q] + fill[q]++] = p;
        }
    free(fill);
    game->unmoves = t_unmoves;
}

void tiered_free(tiered *g)
{
    free(g->back_at);
    free(g->back);
    free(g->start);
    free(g->child_at);
    free(g->child);
    free(g->move_at);
    free(g->move);
    free(g->kind);
}

/* The oracle: reached[] from the start (moves go up, so one pass up), and
 * each value from the definition, one pass down. */
void tiered_oracle(const tiered *g, bool misere, bool all, bool *reached,
                   loopy_outcome *outcome, uint32_t *remoteness)
{
    for (uint64_t p = 0; p < g->size; p++)
        reached[p] = all || p == 0;
    for (uint64_t p = 0; p < g->size; p++)
        if (reached[p] && g->kind[p] == LOOPY_PLAYING)
            for (uint64_t e = g->move_at[p]; e < g->move_at[p + 1]; e++)
                reached[g->move[e]] = true;
    for (uint64_t p = g->size; p-- > 0;) {
        bool any_lose = false, any_tie = false;
        uint32_t best_lose = 0, best_tie = 0, worst_win = 0;
        if (g->kind[p] == LOOPY_OVER_TIE) {
            outcome[p] = LOOPY_TIE, remoteness[p] = 0;
            continue;
        }
        if (g->kind[p] == LOOPY_OVER_WIN || g->kind[p] == LOOPY_OVER_LOSE) {
            outcome[p] = (g->kind[p] == LOOPY_OVER_WIN) != misere ? LOOPY_WIN
                                                                 : LOOPY_LOSE;
            remoteness[p] = 0;
            continue;
        }
        if (g->move_at[p + 1] == g->move_at[p]) {
            outcome[p] = misere ? LOOPY_WIN : LOOPY_LOSE;
            remoteness[p] = 0;
            continue;
        }
        for (uint64_t e = g->move_at[p]; e < g->move_at[p + 1]; e++) {
            uint64_t q = g->move[e];
            if (outcome[q] == LOOPY_LOSE &&
                (!any_lose || remoteness[q] < best_lose))
                any_lose = true, best_lose = remoteness[q];
            if (outcome[q] == LOOPY_TIE && (!any_tie || remoteness[q] < best_tie))
                any_tie = true, best_tie = remoteness[q];
            if (outcome[q] == LOOPY_WIN && remoteness[q] > worst_win)
                worst_win = remoteness[q];
        }
        outcome[p] = any_lose ? LOOPY_WIN : any_tie ? LOOPY_TIE : LOOPY_LOSE;
        remoteness[p] = 1 + (any_lose ? best_lose : any_tie ? best_tie : worst_win);
    }
}
