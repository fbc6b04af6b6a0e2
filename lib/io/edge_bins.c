/* edge_bins.c - see edge_bins.h. */
#include "edge_bins.h"

loopy_status loopy_i_bins_init(edge_bins *b, loopy_vertex n, uint64_t entries,
                               uint32_t max_cap, bool pairs)
{
    uint64_t cap;

    b->shift = 0;
    while (((uint64_t)n >> b->shift) >= ((uint64_t)1 << BINS_LOG2) && b->shift < 16)
        b->shift++;
    b->bins = (unsigned)((n >> b->shift) + 1);
    cap = entries / b->bins;
    b->cap = (uint32_t)(cap > max_cap ? max_cap : cap < BIN_CAP_MIN ? BIN_CAP_MIN : cap);
    b->low = loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->low);
    b->value = pairs ? loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->value)
                     : NULL;
    b->fill = loopy_i_calloc(b->bins, sizeof *b->fill);
    if (b->low == NULL || (pairs && b->value == NULL) || b->fill == NULL)
        return LOOPY_ENOMEM;
    return LOOPY_OK;
}

void loopy_i_bins_free(edge_bins *b)
{
    loopy_i_free(b->low);
    loopy_i_free(b->value);
    loopy_i_free(b->fill);
    *b = (edge_bins){0};
}

void loopy_i_count_bin(edge_bins *b, unsigned i, uint32_t *count)
{
    const uint16_t *low = b->low + (size_t)i * b->cap;
    uint32_t *range = count + ((size_t)i << b->shift);
    uint32_t used = b->fill[i]; /* a local: count[] could alias fill[] */

    for (uint32_t k = 0; k < used; k++)
        range[low[k]]++;
    b->fill[i] = 0;
}

bool loopy_i_fill_bin(edge_bins *b, unsigned i, uint32_t *next, loopy_vertex *list,
                     uint64_t m)
{
    const uint16_t *low = b->low + (size_t)i * b->cap;
    const uint32_t *value = b->value + (size_t)i * b->cap;
    uint32_t *range = next + ((size_t)i << b->shift);
    uint32_t used = b->fill[i];
    bool ok = true;

    for (uint32_t k = 0; k < used; k++) {
        uint32_t slot;
        /* The slots ahead, fetched while these are written: each lands
         * on a line not touched since the bin's last flush. */
        if (k + 16 < used && range[low[k + 16]] < m)
            __builtin_prefetch(&list[range[low[k + 16]]], 1);
        slot = range[low[k]]++;
        if (slot < m)
            list[slot] = value[k];
        else
            ok = false;
    }
    b->fill[i] = 0;
    return ok;
}
