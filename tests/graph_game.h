/*
 * graph_game.h - a test game whose rules are a random graph (tests/lib/
 * graph_game.c), shared by test_rules.c and test_check.c.
 *
 * Its positions are the pairs (v, a) of a base vertex v and a bit a,
 * stored under a scrambled 63-bit index (so the index space is huge and
 * sparse, as a real game's is), or, compact, simply as 2v + a (for the
 * solver over the index space).  Its moves are the base graph's edges
 * u -> w, each with a random bit s, taking (u, a) to (w, a XOR s).
 * Swapping the bit of every position is then a real symmetry, which
 * canonical() uses (representative (v, 0)).  Base vertices have the
 * primitive values kind[] (wins, losses, ties, or playing).
 */
#ifndef LOOPY_TEST_GRAPH_GAME_H
#define LOOPY_TEST_GRAPH_GAME_H

#include "gen.h"

#include "loopy_game.h"

#include <stdbool.h>
#include <stdint.h>

#define GRAPH_GAME_INDEX_BITS 63
#define GRAPH_GAME_INDEX_MASK ((UINT64_C(1) << GRAPH_GAME_INDEX_BITS) - 1)

typedef struct graph_game {
    uint32_t k;            /* base vertices */
    uint64_t *off, *roff;  /* k + 1: successors, predecessors */
    uint32_t *to, *from;   /* base edge heads, tails (reverse order) */
    uint8_t *flip, *rflip; /* the edges' bits */
    uint8_t *kind;         /* loopy_primitive per base vertex */
    uint64_t inverse;      /* the scramble's inverse mod 2^63 */
    bool compact;          /* index 2v + a rather than scrambled */
} graph_game;

/* The index of (v, a). */
loopy_position graph_game_encode(const graph_game *g, uint32_t v, unsigned a);

/* The base graph e (and kinds) as *game (its ctx is g, its size that of
 * g->compact, which the caller may switch, resetting size and start);
 * start at base vertex s, bit 0; the edges' bits drawn from r. */
void graph_game_make(graph_game *g, const gen_edges *e, gen_rng *r,
                     const uint8_t *kind, loopy_game *game, uint32_t s);
void graph_game_free(graph_game *g);

/* Whether the game also gives canonical_moves and canonical_unmoves. */
void graph_game_give_representatives(loopy_game *game, bool on);

#endif
