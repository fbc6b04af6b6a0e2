/* edge_bins.c - see edge_bins.h. */
#include "edge_bins.h"

/* The shift and number of bins for vertices below n: at most 512 bins,
 * unless a bin would then span more than 2^max_shift vertices. */
static void size_bins(loopy_vertex n, unsigned max_shift, unsigned *shift,
                      unsigned *bins)
{
    *shift = 0;
    while (((uint64_t)n >> *shift) >= ((uint64_t)1 << BINS_LOG2) &&
           *shift < max_shift)
        (*shift)++;
    *bins = (unsigned)((n >> *shift) + 1);
}

static uint32_t bin_cap(uint64_t entries, unsigned bins, uint32_t max_cap)
{
    uint64_t cap = entries / bins;

    return (uint32_t)(cap > max_cap ? max_cap : cap < BIN_CAP_MIN ? BIN_CAP_MIN : cap);
}

loopy_status loopy_i_count_bins_init(count_bins *b, loopy_vertex n,
                                     uint64_t entries, uint32_t max_cap)
{
    size_bins(n, 16, &b->shift, &b->bins);
    b->cap = bin_cap(entries, b->bins, max_cap);
    b->low = loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->low);
    b->fill = loopy_i_calloc(b->bins, sizeof *b->fill);
    if (b->low == NULL || b->fill == NULL)
        return LOOPY_ENOMEM;
    return LOOPY_OK;
}

loopy_status loopy_i_binner_init(binner *b, loopy_vertex n, uint64_t entries,
                                 uint32_t max_cap)
{
    size_bins(n, 32, &b->shift, &b->bins);
    b->cap = bin_cap(entries, b->bins, max_cap);
    b->key = loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->key);
    b->value = loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->value);
    b->fill = loopy_i_calloc(b->bins, sizeof *b->fill);
    if (b->key == NULL || b->value == NULL || b->fill == NULL)
        return LOOPY_ENOMEM;
    return LOOPY_OK;
}

void loopy_i_count_bins_free(count_bins *b)
{
    loopy_i_free(b->low);
    loopy_i_free(b->fill);
    *b = (count_bins){0};
}

void loopy_i_binner_free(binner *b)
{
    loopy_i_free(b->key);
    loopy_i_free(b->value);
    loopy_i_free(b->fill);
    *b = (binner){0};
}

void loopy_i_count_bin(count_bins *b, unsigned i, uint32_t *count)
{
    const uint16_t *low = b->low + (size_t)i * b->cap;
    uint32_t *range = count + ((size_t)i << b->shift);
    uint32_t used = b->fill[i]; /* a local: count[] could alias fill[] */

    for (uint32_t k = 0; k < used; k++)
        range[low[k]]++;
    b->fill[i] = 0;
}

bool loopy_i_fill_bin(binner *b, unsigned i, uint32_t *next, loopy_vertex *list,
                     uint64_t m)
{
    const uint32_t *key = b->key + (size_t)i * b->cap;
    const uint32_t *value = b->value + (size_t)i * b->cap;
    uint32_t used = b->fill[i];
    bool ok = true;

    for (uint32_t k = 0; k < used; k++) {
        uint32_t slot;
        /* The slots ahead, fetched while these are written: each lands
         * on a line not touched since the bin's last flush. */
        if (k + 16 < used && next[key[k + 16]] < m)
            __builtin_prefetch(&list[next[key[k + 16]]], 1);
        slot = next[key[k]]++;
        if (slot < m)
            list[slot] = value[k];
        else
            ok = false;
    }
    b->fill[i] = 0;
    return ok;
}
