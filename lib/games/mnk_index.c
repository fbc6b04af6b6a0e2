/*
 * mnk_index.c - a dense index of m,n,k boards by the number of stones.
 *
 * A board in play has x's stones as many as o's or one more, so a board of
 * n stones is the set S of its n occupied cells and which of them are x's:
 * ceil(n / 2) of the n.  The index orders boards by n, then by S, then by
 * the colouring:
 *     index = tier_start[n] + rank(S) * C(n, ceil(n/2)) + rank(colouring)
 * where a set is ranked among those of its size in the combinatorial
 * number system (ones at places p_1 < .. < p_k give sum C(p_i, i)), S over
 * the cells and the colouring over the n stones in the order of their
 * cells (1 for x).  Every index is a board with the right counts, and such
 * a board has exactly one index.  The boards of n stones are one tier, and
 * a move goes from tier n to tier n + 1.
 *
 * The space is far smaller than the 3^cells of the base-3 digits: 6,046
 * indices against 19,683 on 3 x 3, 741,365,049 against 3,486,784,401 on
 * 4 x 5.  Both ranks are read a byte at a time from two tables (colex and
 * squeeze), so a rank costs about 3 lookups per byte of the board.
 */
#include "mnk_index.h"

#include <string.h>

static uint32_t bits_of_byte(uint32_t v)
{
    return loopy_i_count_bits(v);
}

loopy_status loopy_i_mnk_index_init(mnk_index *ix, uint32_t cells)
{
    size_t per_v = (size_t)cells + 1;
    uint64_t total = 0;

    memset(ix, 0, sizeof *ix);
    ix->cells = cells;
    ix->bytes = (cells + 7) / 8;
    for (uint32_t p = 0; p <= MNK_MAX_CELLS; p++) {
        ix->binom[p][0] = 1;
        for (uint32_t k = 1; k <= p; k++)
            ix->binom[p][k] = ix->binom[p - 1][k - 1] +
                              (k < p ? ix->binom[p - 1][k] : 0);
    }
    ix->colex = loopy_i_calloc((size_t)ix->bytes * 256 * per_v,
                               sizeof *ix->colex);
    ix->squeeze = loopy_i_malloc(1u << 16, 1);
    if (ix->colex == NULL || ix->squeeze == NULL) {
        loopy_i_mnk_index_free(ix);
        return LOOPY_ENOMEM;
    }
    /* A place at or past cells never holds a 1, so C(p, k) is only read
     * for p < cells <= 40, and k <= cells. */
    for (uint32_t b = 0; b < ix->bytes; b++)
        for (uint32_t v = 0; v < 256; v++)
            for (uint32_t j = 0; j <= cells; j++) {
                uint64_t share = 0;
                uint32_t k = j;
                for (uint32_t i = 0; i < 8; i++)
                    if ((v >> i & 1) && 8 * b + i < cells && k < cells) {
                        k++;
                        share += ix->binom[8 * b + i][k];
                    }
                ix->colex[((size_t)b * 256 + v) * per_v + j] = share;
            }
    for (uint32_t s = 0; s < 256; s++)
        for (uint32_t v = 0; v < 256; v++) {
            uint32_t packed = 0, at = 0;
            for (uint32_t i = 0; i < 8; i++)
                if (s >> i & 1)
                    packed |= (v >> i & 1) << at++;
            ix->squeeze[s << 8 | v] = (uint8_t)packed;
        }
    /* The tiers.  The total is at most the 3^cells boards < 2^64. */
    for (uint32_t n = 0; n <= cells; n++) {
        ix->colourings[n] = ix->binom[n][(n + 1) / 2];
        ix->tier_start[n] = total;
        total += ix->binom[cells][n] * ix->colourings[n];
    }
    ix->tier_start[cells + 1] = total;
    ix->size = total;
    return LOOPY_OK;
}

void loopy_i_mnk_index_free(mnk_index *ix)
{
    loopy_i_free(ix->colex);
    loopy_i_free(ix->squeeze);
    ix->colex = NULL;
    ix->squeeze = NULL;
}

/* The rank of set among the sets of its size (places below ix->cells). */
static uint64_t set_rank(const mnk_index *ix, uint64_t set)
{
    size_t per_v = (size_t)ix->cells + 1;
    uint64_t rank = 0;
    uint32_t below = 0;

    for (uint32_t b = 0; b < ix->bytes; b++) {
        uint32_t v = (uint32_t)(set >> (8 * b) & 255);
        rank += ix->colex[((size_t)b * 256 + v) * per_v + below];
        below += bits_of_byte(v);
    }
    return rank;
}

uint64_t loopy_i_mnk_rank(const mnk_index *ix, uint64_t x, uint64_t o)
{
    uint64_t stones = x | o, colouring = 0;
    uint32_t n = 0;

    for (uint32_t b = 0; b < ix->bytes; b++) {
        uint32_t s = (uint32_t)(stones >> (8 * b) & 255);
        uint32_t v = (uint32_t)(x >> (8 * b) & 255);
        colouring |= (uint64_t)ix->squeeze[s << 8 | v] << n;
        n += bits_of_byte(s);
    }
    return ix->tier_start[n] + set_rank(ix, stones) * ix->colourings[n] +
           set_rank(ix, colouring);
}

/* The set of k places below top whose rank is rank. */
static uint64_t set_unrank(const mnk_index *ix, uint64_t rank, uint32_t k,
                           uint32_t top)
{
    uint64_t set = 0;

    /* Without branches: which way each place goes is data, and a branch
     * on it would be mispredicted half the time. */
    for (uint32_t p = top; p-- > 0;) {
        uint64_t c = ix->binom[p][k];
        uint64_t take = (uint64_t)(rank >= c); /* never with k = 0: c = 1 > rank */
        rank -= c & (0 - take);
        set |= take << p;
        k -= (uint32_t)take;
    }
    return set;
}

void loopy_i_mnk_unrank(const mnk_index *ix, uint64_t index, uint64_t *x,
                        uint64_t *o)
{
    uint32_t lo = 0, hi = ix->cells, n;
    uint64_t within, stones, colouring, xs = 0;

    /* The tier: the last n with tier_start[n] <= index. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (ix->tier_start[mid] <= index)
            lo = mid;
        else
            hi = mid - 1;
    }
    n = lo;
    within = index - ix->tier_start[n];
    stones = set_unrank(ix, within / ix->colourings[n], n, ix->cells);
    colouring = set_unrank(ix, within % ix->colourings[n], (n + 1) / 2, n);
    for (uint64_t left = stones; left != 0; left &= left - 1, colouring >>= 1)
        if (colouring & 1)
            xs |= left & (~left + 1);
    *x = xs;
    *o = stones & ~xs;
}
