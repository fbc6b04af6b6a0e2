/*
 * solve_internal.h - the solver's shared state, for retro.c (the API),
 * levels.c (propagation) and best_move.c.
 */
#ifndef LOOPY_SOLVE_INTERNAL_H
#define LOOPY_SOLVE_INTERNAL_H

#include "../core/internal.h"

struct loopy_solution {
    loopy_vertex n;
    uint8_t *outcome;
    uint32_t *remoteness;
    loopy_vertex *best_move;
    loopy_vertex count[4]; /* indexed by loopy_outcome */
};

/*
 * The propagation's state.  Each position has one 32-bit word, which is
 * its remoteness once it is decided and, before, folds "undecided" and the
 * count c of its moves not yet known to reach a Win into WORD_WAITING - c.
 * Decided words are below n, waiting ones at least n (the solver refuses
 * graphs where n plus the largest out-degree reaches 2^32 - 1), so testing
 * and updating an edge's target touch a single word, and deciding it writes
 * its remoteness into the same cache line.  The words live in the
 * solution's remoteness array.
 *
 * Vertices are cut into blocks of 2^block_shift; thread t owns the blocks
 * [first_block[t], first_block[t+1]) and alone writes their words and
 * outcomes.  The queue is cut the same way: the positions decided in thread
 * t's blocks go to queue[region_lo[t] .. region_lo[t+1]), which has room for
 * all of them, so no two threads ever append to the same place.  The current
 * level of region t is queue[head[t] .. tail[t]) and the next one grows from
 * tail[t] to cursor[t].
 */
#define WORD_WAITING UINT32_MAX

typedef struct level_state {
    loopy_vertex n;
    const loopy_edge *rev_offset;
    const loopy_vertex *rev_source;
    uint32_t *word; /* the solution's remoteness array, see above */
    uint8_t *outcome;
    loopy_vertex *queue;
    int threads;
    unsigned block_shift;
    uint32_t blocks;
    uint16_t *block_owner;  /* blocks */
    uint32_t *first_block;  /* threads + 1 */
    loopy_vertex *region_lo; /* threads + 1 */
    loopy_vertex *head, *tail, *cursor; /* threads each */
    /* Message bins of the parallel levels: thread t's bin of kind k
     * (0: "you win", 1: "one more move to a Win") for block b holds up to
     * bin_cap vertices at bins[t] + (2b + k) * bin_cap; fill[t][2b + k] of
     * them are used. */
    uint32_t bin_cap;
    loopy_vertex **bins;
    uint32_t **fill;
    int *done; /* per thread: its share of the level is sent */
} level_state;

/* Sets up the blocks, the regions and the bins for n vertices and
 * `threads` threads (the arrays word ... queue are the caller's). */
loopy_status loopy_i_levels_init(level_state *st, loopy_vertex n, int threads);
void loopy_i_levels_free(level_state *st);

/* The thread that owns vertex v. */
static inline int loopy_i_owner(const level_state *st, loopy_vertex v)
{
    return st->block_owner[v >> st->block_shift];
}

/* Queues v (already marked decided) into its owner's region. */
static inline void loopy_i_push(level_state *st, loopy_vertex v)
{
    st->queue[st->cursor[loopy_i_owner(st, v)]++] = v;
}

/* Runs the propagation from the queued level-0 positions; returns the
 * greatest remoteness assigned. */
uint32_t loopy_i_propagate(level_state *st, const loopy_solve_options *opt);

/* Fills best_move from the final outcomes and remotenesses.  The
 * remoteness array serves as scratch and is restored.  See loopy_solve for
 * the definition. */
void loopy_i_best_moves(const loopy_edge *rev_offset,
                        const loopy_vertex *rev_source, loopy_solution *s,
                        uint32_t max_remoteness, int threads);

#endif
