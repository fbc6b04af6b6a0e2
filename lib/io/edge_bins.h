/*
 * edge_bins.h - per-thread bins that sort a reader's updates by the vertex
 * they touch, for read_fast.c.
 *
 * Updating a count or a list slot per edge is a random access into arrays
 * of n or m entries, far larger than the caches.  So edges are first sorted
 * into bins by the high bits of the vertex they update (at most 512 bins),
 * and a full bin is applied at once: its updates then fall in a small range
 * of the arrays, several per cache line.  The more entries the bins hold,
 * the more updates share a line.
 *
 * Two kinds: count_bins for pass 1 (counting degrees) keep only the low 16
 * bits of each vertex, as the bin gives the rest; binners for pass 2
 * (filling lists) keep whole pairs.
 */
#ifndef LOOPY_EDGE_BINS_H
#define LOOPY_EDGE_BINS_H

#include "../core/internal.h"

#define BINS_LOG2 9u
#define BIN_CAP_MIN 64u

/* Pass 1: bin i holds vertices i << shift ... (i + 1) << shift, as their
 * low shift bits (shift <= 16; a graph of more than 2^25 vertices gets more
 * than 512 bins). */
typedef struct count_bins {
    unsigned shift;
    unsigned bins;
    uint32_t cap;   /* entries per bin */
    uint16_t *low;  /* bins * cap */
    uint32_t *fill; /* bins */
} count_bins;

/* Pass 2: bin i holds pairs (v, u) with v >> shift == i. */
typedef struct binner {
    unsigned shift;
    unsigned bins;
    uint32_t cap;    /* entries per bin */
    uint32_t *key;   /* bins * cap: the vertex whose list gets the entry */
    uint32_t *value; /* bins * cap: the entry */
    uint32_t *fill;  /* bins */
} binner;

/* Sizes bins for vertices below n, with about `entries` entries in all (at
 * least BIN_CAP_MIN and at most max_cap per bin).  On failure what was
 * allocated is left for the _free function. */
loopy_status loopy_i_count_bins_init(count_bins *b, loopy_vertex n,
                                     uint64_t entries, uint32_t max_cap);
loopy_status loopy_i_binner_init(binner *b, loopy_vertex n, uint64_t entries,
                                 uint32_t max_cap);
void loopy_i_count_bins_free(count_bins *b);
void loopy_i_binner_free(binner *b);

/* Counting: bin i's vertices get one more edge each in count[]. */
void loopy_i_count_bin(count_bins *b, unsigned i, uint32_t *count);

/* Filling: for each (v, u) of bin i, list[next[v]++] = u.  Returns false if
 * a slot is m or beyond (then nothing is written there). */
bool loopy_i_fill_bin(binner *b, unsigned i, uint32_t *next, loopy_vertex *list,
                      uint64_t m);

static inline void loopy_i_count_edge(count_bins *b, uint32_t v, uint32_t *count)
{
    unsigned i = v >> b->shift;
    uint32_t at = b->fill[i]++;

    b->low[(size_t)i * b->cap + at] = (uint16_t)(v & ((1u << b->shift) - 1));
    if (at + 1 == b->cap)
        loopy_i_count_bin(b, i, count);
}

static inline bool loopy_i_fill_edge(binner *b, uint32_t v, uint32_t u,
                                     uint32_t *next, loopy_vertex *list,
                                     uint64_t m)
{
    unsigned i = v >> b->shift;
    size_t at = (size_t)i * b->cap + b->fill[i]++;

    b->key[at] = v;
    b->value[at] = u;
    return b->fill[i] < b->cap || loopy_i_fill_bin(b, i, next, list, m);
}

#endif
