/*
 * connect4_index.h - a dense index of Connect Four boards (connect4.c uses
 * it; connect4_index.c explains it).
 */
#ifndef LOOPY_CONNECT4_INDEX_H
#define LOOPY_CONNECT4_INDEX_H

#include "games.h"

/* The most bits of a board's code: W*(H+1) <= 63. */
#define C4_MAX_BITS 63
#define C4_MAX_STONES 62

typedef struct c4_index {
    uint32_t width, height, stride, cells; /* cells = W*H */
    uint64_t size;                         /* indices */
    /* layer_start[n]: the first index of the boards of n stones. */
    uint64_t layer_start[C4_MAX_STONES + 2];
    /* colourings[n]: C(n, ceil(n/2)), the colourings of n stones. */
    uint64_t colourings[C4_MAX_STONES + 1];
    /* binom[p * (k_max + 1) + k] = C(p, k), p <= cells, k <= k_max. */
    uint64_t *binom;
    uint32_t k_max;
    /* below[(c * (cells + 1) + s) * (H + 2) + h]: how many height vectors
     * of columns c .. W-1 sum to s with column c lower than h. */
    uint64_t *below;
} c4_index;

/* Sets up the index of W x H boards (W*(H+1) <= 63); LOOPY_ENOMEM. */
loopy_status loopy_i_c4_index_init(c4_index *x, uint32_t width,
                                   uint32_t height);
void loopy_i_c4_index_free(c4_index *x);
/* The code (Tromp's encoding, see connect4.c) of the board at index,
 * index < x->size. */
uint64_t loopy_i_c4_unrank(const c4_index *x, uint64_t index);
/* The index of the board of code, which has x's stones as many as o's or
 * one more (any other code gives a wrong index). */
uint64_t loopy_i_c4_rank(const c4_index *x, uint64_t code);
/* The smaller of the indices of code and of its mirror image (left and
 * right swapped): the representative of code's class. */
uint64_t loopy_i_c4_rank_canonical(const c4_index *x, uint64_t code);
/* The index of the mirror image of the board of code. */
uint64_t loopy_i_c4_rank_mirror(const c4_index *x, uint64_t code);

#endif
