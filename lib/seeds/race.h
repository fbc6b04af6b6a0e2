/*
 * race.h - what race.c (the per-end re-solve and the driver) and
 * race_lanes.c (64 end vertices at once) share.  See race.c for the method.
 */
#ifndef LOOPY_SEEDS_RACE_H
#define LOOPY_SEEDS_RACE_H

#include "../core/internal.h"

/* mark[v] while an end vertex (or a batch) is handled; reset to UNSEEN. */
enum {
    UNSEEN = 0,
    COUNTING = 1, /* a Win of B; count[v] = proving moves not in the region */
    REGION = 2,   /* in the region, not yet decided again */
    REGION_WIN = 3,
    REGION_LOSE = 4
};

typedef struct race_ctx {
    const loopy_graph *g;
    const loopy_edge *rev_offset;
    const loopy_vertex *rev_source;
    const uint8_t *outcome;     /* of B */
    const uint32_t *remoteness; /* of B */
    uint8_t *mark;
    uint32_t *count;
    loopy_vertex *touched; /* every vertex whose mark is not UNSEEN */
    size_t touched_len;
    loopy_vertex *region; /* the region in discovery order */
    size_t region_len;
    loopy_vertex *queue;   /* of the local re-solve */
    uint64_t work, budget; /* edges and vertices looked at; the limit */
} race_ctx;

static inline int8_t loopy_i_race_answer_of(uint8_t outcome)
{
    return outcome == LOOPY_WIN ? 1 : outcome == LOOPY_LOSE ? -1 : 0;
}

/* Puts v in the region (v must not be in it yet). */
void loopy_i_race_enter(race_ctx *c, loopy_vertex v);

/* Grows the region from the vertices entered so far by the rules in
 * race.c; false when the work passes c->budget. */
bool loopy_i_race_expand(race_ctx *c);

/* Resets every mark set since the last call. */
void loopy_i_race_forget(race_ctx *c);

/* Scratch of the lane solve, grown as regions need, reused by batches. */
typedef struct race_lanes {
    uint64_t *win, *lose;         /* per region vertex: lanes decided */
    uint64_t *new_win, *new_lose; /* lanes decided, not yet propagated */
    uint64_t *slice_start;        /* region vertex i: slices [start, next) */
    uint64_t *slice;              /* bit-sliced counters */
    uint32_t *ring;               /* FIFO of region vertices with news */
    size_t capacity, slice_capacity;
} race_lanes;

void loopy_i_race_lanes_free(race_lanes *lanes);

/*
 * Re-solves ends[0..count) (count <= 64, distinct, none a Lose of B)
 * together, lane l for ends[l], over the union of their regions, which
 * must have been entered and expanded in c.  Afterwards, lanes_outcome
 * answers for a start x and lane l.  LOOPY_ENOMEM possible.
 */
loopy_status loopy_i_race_lanes_solve(race_ctx *c, race_lanes *lanes,
                                      const loopy_vertex *ends,
                                      unsigned count);

/* The answer (1, -1, 0) of start x in lane l after loopy_i_race_lanes_solve
 * and before loopy_i_race_forget. */
int8_t loopy_i_race_lanes_answer(const race_ctx *c, const race_lanes *lanes,
                                 loopy_vertex x, unsigned lane);

#endif
