/* board.c - small pieces the board games share (see games.h). */
#include "games.h"

#include <string.h>

uint32_t loopy_i_count_bits(uint64_t bits)
{
#if defined(__GNUC__) && defined(__POPCNT__)
    return (uint32_t)__builtin_popcountll(bits);
#else
    /* Sums of 2, 4, 8 bits side by side, then of all bytes at once. */
    bits -= bits >> 1 & UINT64_C(0x5555555555555555);
    bits = (bits & UINT64_C(0x3333333333333333)) +
           (bits >> 2 & UINT64_C(0x3333333333333333));
    bits = (bits + (bits >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (uint32_t)((bits * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

size_t loopy_i_distinct_out(loopy_position *list, size_t count,
                            loopy_position *out, size_t capacity)
{
    size_t distinct = 0;

    for (size_t i = 1; i < count; i++) {
        loopy_position value = list[i];
        size_t j = i;
        for (; j > 0 && list[j - 1] > value; j--)
            list[j] = list[j - 1];
        list[j] = value;
    }
    for (size_t i = 0; i < count; i++)
        if (distinct == 0 || list[distinct - 1] != list[i])
            list[distinct++] = list[i];
    if (out != NULL && distinct > 0)
        memcpy(out, list,
               (distinct < capacity ? distinct : capacity) * sizeof *out);
    return distinct;
}

int loopy_i_read_param(const char *params, size_t *at, uint32_t *value)
{
    size_t start = *at;

    *value = 0;
    while (params[*at] >= '0' && params[*at] <= '9') {
        if (*at - start == 6)
            return 2;
        *value = *value * 10 + (uint32_t)(params[(*at)++] - '0');
    }
    return *at > start ? 0 : 1;
}
