/*
 * mnk_index.h - a dense index of m,n,k boards by the number of stones
 * (mnk.c uses it; mnk_index.c explains it).
 */
#ifndef LOOPY_MNK_INDEX_H
#define LOOPY_MNK_INDEX_H

#include "games.h"

/* 3^40 < 2^64: every count of boards of at most 40 cells fits in 64 bits. */
#define MNK_MAX_CELLS 40
#define MNK_MAX_BYTES 5 /* bytes of a set of 40 cells */

typedef struct mnk_index {
    uint32_t cells, bytes; /* bytes = ceil(cells / 8) */
    uint64_t size;         /* indices */
    /* tier_start[n]: the first index of the boards of n stones;
     * tier_start[cells + 1] = size. */
    uint64_t tier_start[MNK_MAX_CELLS + 2];
    /* colourings[n] = C(n, ceil(n/2)): which of n stones are x's. */
    uint64_t colourings[MNK_MAX_CELLS + 1];
    /* binom[p][k] = C(p, k). */
    uint64_t binom[MNK_MAX_CELLS + 1][MNK_MAX_CELLS + 1];
    /* colex[(b * 256 + v) * (cells + 1) + j]: the share in a set's rank of
     * byte b holding v when j places below it are in the set. */
    uint64_t *colex;
    /* squeeze[s << 8 | v]: the bits of v at the 1s of s, packed from bit
     * 0, in the order of the places. */
    uint8_t *squeeze;
} mnk_index;

/* Sets up the index of boards of cells <= MNK_MAX_CELLS cells;
 * LOOPY_ENOMEM. */
loopy_status loopy_i_mnk_index_init(mnk_index *ix, uint32_t cells);
void loopy_i_mnk_index_free(mnk_index *ix);
/* The index of the board with x's stones on x and o's on o, x having as
 * many as o or one more (any other board gives a wrong index). */
uint64_t loopy_i_mnk_rank(const mnk_index *ix, uint64_t x, uint64_t o);
/* The board at index < ix->size: x's stones into *x, o's into *o. */
void loopy_i_mnk_unrank(const mnk_index *ix, uint64_t index, uint64_t *x,
                        uint64_t *o);

#endif
