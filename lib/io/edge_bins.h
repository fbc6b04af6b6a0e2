/*
 * edge_bins.h - per-thread bins that sort a reader's updates by the vertex
 * they touch, for read_fast.c.
 *
 * Updating a count or a list slot per edge is a random access into arrays
 * of n or m entries, far larger than the caches.  So edges are first sorted
 * into bins by the high bits of the vertex they update (a bin covers n/512
 * vertices), and a full bin is applied at once: its updates then fall in a
 * small range of the arrays, several per cache line.
 */
#ifndef LOOPY_EDGE_BINS_H
#define LOOPY_EDGE_BINS_H

#include "../core/internal.h"

#define BINS_LOG2 9u
#define BIN_CAP 4096u
#define BIN_CAP_MIN 64u

typedef struct binner {
    unsigned shift;   /* vertex >> shift is the bin */
    unsigned bins;
    uint32_t cap;     /* entries per bin */
    uint32_t *key;    /* bins * cap: the vertex updated */
    uint32_t *value;  /* bins * cap: the other end (pass 2), or NULL */
    uint32_t *fill;   /* bins */
} binner;

/* Sizes the bins for n vertices and m edges read by `threads` threads;
 * pairs: bins also carry the other end of each edge (for filling lists). */
loopy_status loopy_i_binner_init(binner *b, loopy_vertex n, uint64_t m,
                                 int threads, bool pairs);
void loopy_i_binner_free(binner *b);

/* Counting: bin i's vertices get one more edge each in count[]. */
void loopy_i_count_bin(binner *b, unsigned i, uint32_t *count);

/* Filling: for each (v, u) of bin i, list[next[v]++] = u.  Returns false if
 * a slot is m or beyond (then nothing is written there). */
bool loopy_i_fill_bin(binner *b, unsigned i, uint32_t *next, loopy_vertex *list,
                      uint64_t m);

static inline void loopy_i_count_edge(binner *b, uint32_t v, uint32_t *count)
{
    unsigned i = v >> b->shift;

    b->key[(size_t)i * b->cap + b->fill[i]++] = v;
    if (b->fill[i] == b->cap)
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
