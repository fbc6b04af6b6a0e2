/*
 * edge_bins.h - per-thread bins that sort a reader's updates by the vertex
 * they touch, for read_fast.c.
 *
 * Updating a count or a list slot per edge is a random access into arrays
 * of n or m entries, far larger than the caches.  So edges are first sorted
 * into bins by the high bits of the vertex they update (at most 512 bins
 * up to 2^25 vertices), and a full bin is applied at once: its updates then
 * fall in a small range of the arrays, several per cache line.  The more
 * entries the bins hold, the more updates share a line.
 *
 * Each entry keeps only the low 16 bits of its vertex, as the bin gives
 * the rest; entries for filling lists also carry the other end.
 */
#ifndef LOOPY_EDGE_BINS_H
#define LOOPY_EDGE_BINS_H

#include "../core/internal.h"

#define BINS_LOG2 9u
#define BIN_CAP_MIN 64u

/* Bin i holds updates of vertices i << shift ... (i + 1) << shift - 1, by
 * their low shift bits (shift <= 16; a graph of more than 2^25 vertices
 * gets more than 512 bins). */
typedef struct edge_bins {
    unsigned shift;
    unsigned bins;
    uint32_t cap;    /* entries per bin */
    uint16_t *low;   /* bins * cap: the vertex updated, its low bits */
    uint32_t *value; /* bins * cap: the other end (filling), or NULL */
    uint32_t *fill;  /* bins */
} edge_bins;

/* Sizes bins for vertices below n, with about `entries` entries in all (at
 * least BIN_CAP_MIN and at most max_cap per bin); pairs: entries also carry
 * the other end of their edge, for filling lists.  On failure what was
 * allocated is left for loopy_i_bins_free. */
loopy_status loopy_i_bins_init(edge_bins *b, loopy_vertex n, uint64_t entries,
                               uint32_t max_cap, bool pairs);
void loopy_i_bins_free(edge_bins *b);

/* Counting: bin i's vertices get one more edge each in count[]. */
void loopy_i_count_bin(edge_bins *b, unsigned i, uint32_t *count);

/* Filling: for each (v, u) of bin i, list[next[v]++] = u.  Returns false if
 * a slot is m or beyond (then nothing is written there). */
bool loopy_i_fill_bin(edge_bins *b, unsigned i, uint32_t *next, loopy_vertex *list,
                      uint64_t m);

static inline void loopy_i_count_edge(edge_bins *b, uint32_t v, uint32_t *count)
{
    unsigned i = v >> b->shift;
    uint32_t at = b->fill[i]++;

    b->low[(size_t)i * b->cap + at] = (uint16_t)(v & ((1u << b->shift) - 1));
    if (at + 1 == b->cap)
        loopy_i_count_bin(b, i, count);
}

static inline bool loopy_i_fill_edge(edge_bins *b, uint32_t v, uint32_t u,
                                     uint32_t *next, loopy_vertex *list,
                                     uint64_t m)
{
    unsigned i = v >> b->shift;
    uint32_t at = b->fill[i]++;
    size_t slot = (size_t)i * b->cap + at;

    b->low[slot] = (uint16_t)(v & ((1u << b->shift) - 1));
    b->value[slot] = u;
    return at + 1 < b->cap || loopy_i_fill_bin(b, i, next, list, m);
}

#endif
