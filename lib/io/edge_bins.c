/* edge_bins.c - see edge_bins.h. */
#include "edge_bins.h"

/* Bins get at most BIN_CAP entries each, and all of them together (per
 * thread) about m / 8 at most, so that small graphs stay small. */
loopy_status loopy_i_binner_init(binner *b, loopy_vertex n, uint64_t m,
                                int threads, bool pairs)
{
    uint64_t cap;

    b->shift = 0;
    while (((uint64_t)n >> b->shift) >= ((uint64_t)1 << BINS_LOG2))
        b->shift++;
    b->bins = (unsigned)((n >> b->shift) + 1);
    cap = m / 8 / b->bins / (uint64_t)threads;
    b->cap = (uint32_t)(cap < BIN_CAP_MIN ? BIN_CAP_MIN : cap > BIN_CAP ? BIN_CAP : cap);
    b->key = loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->key);
    b->value = pairs ? loopy_i_malloc((size_t)b->bins * b->cap, sizeof *b->value)
                     : NULL;
    b->fill = loopy_i_calloc(b->bins, sizeof *b->fill);
    if (b->key == NULL || (pairs && b->value == NULL) || b->fill == NULL)
        return LOOPY_ENOMEM;
    return LOOPY_OK;
}

void loopy_i_binner_free(binner *b)
{
    loopy_i_free(b->key);
    loopy_i_free(b->value);
    loopy_i_free(b->fill);
    b->key = b->value = b->fill = NULL;
}

void loopy_i_count_bin(binner *b, unsigned i, uint32_t *count)
{
    const uint32_t *key = b->key + (size_t)i * b->cap;
    uint32_t used = b->fill[i]; /* a local: count[] could alias fill[] */

    for (uint32_t k = 0; k < used; k++)
        count[key[k]]++;
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
