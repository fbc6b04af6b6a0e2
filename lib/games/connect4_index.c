/*
 * connect4_index.c - a dense index of Connect Four boards.
 *
 * A board in play has x's stones as many as o's or one more, so a board
 * of n stones is its column heights h_0 .. h_{W-1} (summing to n, each at
 * most H) and which of its n stones are x's: ceil(n / 2) of them.  The
 * index orders boards by n, then by the vector of heights (column 0 most
 * significant), then by the colouring:
 *     index = layer_start[n] + rank(heights) * C(n, ceil(n/2)) + rank(colouring)
 * where the colouring is the string of n bits of the stones column by
 * column, each from the bottom (1 for x), ranked among those with
 * ceil(n/2) ones in the combinatorial number system: ones at places
 * p_1 < .. < p_k give sum C(p_i, i).  Every index is a board, and a board
 * of play has exactly one index.
 *
 * The space is far smaller than the 2^(W*(H+1)) codes of Tromp's encoding:
 * 159,643,961 indices against 2^30 = 1,073,741,824 on 6 x 4 (94,910,577
 * boards arise in play), 171,976,899 against 2^30 on 5 x 5 (69,763,700).
 * Ranking and unranking cost O(W + n) table lookups.
 */
#include "connect4_index.h"

#include <string.h>

static uint64_t binom(const c4_index *x, uint32_t p, uint32_t k)
{
    return k > x->k_max ? 0 : x->binom[(size_t)p * (x->k_max + 1) + k];
}

loopy_status loopy_i_c4_index_init(c4_index *x, uint32_t width,
                                   uint32_t height)
{
    uint32_t cells = width * height;
    size_t row = (size_t)cells + 1, per_s = (size_t)height + 2;
    uint64_t *count = NULL; /* count[c * row + s]: vectors of columns c.. */
    uint64_t total = 0;

    memset(x, 0, sizeof *x);
    x->width = width;
    x->height = height;
    x->stride = height + 1;
    x->cells = cells;
    x->k_max = cells / 2 + 1;
    x->binom = loopy_i_calloc(row * (x->k_max + 1), sizeof *x->binom);
    x->below = loopy_i_calloc((size_t)width * row * per_s, sizeof *x->below);
    count = loopy_i_calloc(((size_t)width + 1) * row, sizeof *count);
    if (x->binom == NULL || x->below == NULL || count == NULL) {
        loopy_i_free(count);
        loopy_i_c4_index_free(x);
        return LOOPY_ENOMEM;
    }
    /* Pascal's triangle; C(62, 31) < 2^63. */
    for (uint32_t p = 0; p <= cells; p++) {
        x->binom[(size_t)p * (x->k_max + 1)] = 1;
        for (uint32_t k = 1; k <= x->k_max && k <= p; k++)
            x->binom[(size_t)p * (x->k_max + 1) + k] =
                binom(x, p - 1, k - 1) + binom(x, p - 1, k);
    }
    /* The height vectors of the last columns, from the right. */
    count[(size_t)width * row] = 1;
    for (uint32_t c = width; c-- > 0;)
        for (uint32_t s = 0; s <= cells; s++) {
            uint64_t sum = 0;
            for (uint32_t h = 0; h <= height; h++) {
                x->below[((size_t)c * row + s) * per_s + h] = sum;
                if (h <= s)
                    sum += count[(size_t)(c + 1) * row + s - h];
            }
            x->below[((size_t)c * row + s) * per_s + height + 1] = sum;
            count[(size_t)c * row + s] = sum;
        }
    /* The layers.  The total is at most the 2^(W*(H+1)) codes < 2^64. */
    for (uint32_t n = 0; n <= cells; n++) {
        x->colourings[n] = binom(x, n, (n + 1) / 2);
        x->layer_start[n] = total;
        total += count[n] * x->colourings[n];
    }
    x->layer_start[cells + 1] = total;
    x->size = total;
    loopy_i_free(count);
    return LOOPY_OK;
}

void loopy_i_c4_index_free(c4_index *x)
{
    loopy_i_free(x->binom);
    loopy_i_free(x->below);
    x->binom = NULL;
    x->below = NULL;
}

uint64_t loopy_i_c4_unrank(const c4_index *x, uint64_t index)
{
    size_t row = (size_t)x->cells + 1, per_s = (size_t)x->height + 2;
    uint32_t lo = 0, hi = x->cells, n, s, k, at = 0;
    uint64_t within, vector, colouring, stones = 0, code = 0;
    uint32_t height[C4_MAX_BITS];

    /* The layer: the last n with layer_start[n] <= index. */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (x->layer_start[mid] <= index)
            lo = mid;
        else
            hi = mid - 1;
    }
    n = lo;
    within = index - x->layer_start[n];
    vector = within / x->colourings[n];
    colouring = within % x->colourings[n];
    /* The heights, column by column: the h with below[h] <= vector <
     * below[h + 1]. */
    s = n;
    for (uint32_t c = 0; c < x->width; c++) {
        const uint64_t *b = x->below + ((size_t)c * row + s) * per_s;
        uint32_t h = 0;
        while (h < x->height && b[h + 1] <= vector)
            h++;
        vector -= b[h];
        s -= h;
        height[c] = h;
    }
    /* The colouring, highest place first. */
    k = (n + 1) / 2;
    for (uint32_t p = n; p-- > 0 && k > 0;) {
        uint64_t c = binom(x, p, k);
        if (colouring >= c) {
            colouring -= c;
            stones |= UINT64_C(1) << p;
            k--;
        }
    }
    for (uint32_t c = 0; c < x->width; c++) {
        uint64_t field = stones >> at & ((UINT64_C(1) << height[c]) - 1);
        code |= (field | UINT64_C(1) << height[c]) << (c * x->stride);
        at += height[c];
    }
    return code;
}

/* The heights of code's columns into height[], its stones column by column
 * into *stones (1 for x), their number returned. */
static uint32_t columns_of(const c4_index *x, uint64_t code, uint32_t *height,
                           uint64_t *stones)
{
    uint64_t column_bits = (UINT64_C(1) << x->stride) - 1;
    uint32_t n = 0;

    *stones = 0;
    for (uint32_t c = 0; c < x->width; c++) {
        uint64_t field = code >> (c * x->stride) & column_bits;
        uint32_t h = field == 0 ? 0 : loopy_i_highest_bit(field);
        *stones |= (field & ((UINT64_C(1) << h) - 1)) << n;
        height[c] = h;
        n += h;
    }
    return n;
}

/* The rank of a vector of heights summing to n; reversed: read from the
 * last column (the mirror image's). */
static uint64_t vector_rank(const c4_index *x, const uint32_t *height,
                            uint32_t n, bool reversed)
{
    size_t row = (size_t)x->cells + 1, per_s = (size_t)x->height + 2;
    uint64_t vector = 0;

    for (uint32_t c = 0; c < x->width; c++) {
        uint32_t h = height[reversed ? x->width - 1 - c : c];
        vector += x->below[((size_t)c * row + n) * per_s + h];
        n -= h;
    }
    return vector;
}

static uint64_t colouring_rank(const c4_index *x, uint64_t stones)
{
    uint64_t colouring = 0;
    uint32_t k = 0;

    for (; stones != 0; stones &= stones - 1)
        colouring += binom(x, loopy_i_highest_bit(stones & (~stones + 1)), ++k);
    return colouring;
}

/* The mirror image's stones: the columns in the other order. */
static uint64_t mirror_of(const c4_index *x, const uint32_t *height,
                          uint32_t n, uint64_t stones)
{
    uint64_t mirror_stones = 0;
    uint32_t at = n;

    for (uint32_t c = 0; c < x->width; c++) {
        at -= height[c];
        mirror_stones |= (stones >> (n - at - height[c]) &
                          ((UINT64_C(1) << height[c]) - 1))
                         << at;
    }
    return mirror_stones;
}

/* The index of the board of code, or of its mirror image. */
static uint64_t rank_of(const c4_index *x, uint64_t code, bool mirrored)
{
    uint32_t height[C4_MAX_BITS], n;
    uint64_t stones;

    n = columns_of(x, code, height, &stones);
    if (mirrored)
        stones = mirror_of(x, height, n, stones);
    return x->layer_start[n] +
           vector_rank(x, height, n, mirrored) * x->colourings[n] +
           colouring_rank(x, stones);
}

uint64_t loopy_i_c4_rank(const c4_index *x, uint64_t code)
{
    return rank_of(x, code, false);
}

uint64_t loopy_i_c4_rank_mirror(const c4_index *x, uint64_t code)
{
    return rank_of(x, code, true);
}

uint64_t loopy_i_c4_rank_canonical(const c4_index *x, uint64_t code)
{
    uint32_t height[C4_MAX_BITS], n;
    uint64_t stones, vector, mirrored, colouring;

    n = columns_of(x, code, height, &stones);
    vector = vector_rank(x, height, n, false);
    mirrored = vector_rank(x, height, n, true);
    colouring = vector <= mirrored ? colouring_rank(x, stones) : UINT64_MAX;
    if (vector >= mirrored) {
        uint64_t mirror_colouring =
            colouring_rank(x, mirror_of(x, height, n, stones));
        if (mirror_colouring < colouring || vector > mirrored) {
            colouring = mirror_colouring;
            vector = mirrored;
        }
    }
    return x->layer_start[n] + vector * x->colourings[n] + colouring;
}
