/* board.c - small pieces the board games share (see games.h). */
#include "games.h"

#include <stdio.h>
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

size_t loopy_i_text_out(const char *text, size_t len, char *out,
                        size_t capacity)
{
    if (capacity > 0) {
        size_t copy = len < capacity - 1 ? len : capacity - 1;
        memcpy(out, text, copy);
        out[copy] = '\0';
    }
    return len;
}

int loopy_i_read_grid(const char *text, uint32_t rows, uint32_t cols,
                      const char *row_words, char *cell, char *why,
                      size_t why_capacity)
{
    uint32_t row = 0, col = 0;

    for (size_t at = 0;; at++) {
        char c = text[at];
        if (c == '/' || c == '\0') {
            if (col != cols) {
                snprintf(why, why_capacity,
                         "row %" PRIu32 "%s has %" PRIu32
                         " cells, expected %" PRIu32,
                         row + 1, row_words, col, cols);
                return 1;
            }
            row++;
            col = 0;
            if (c == '\0')
                break;
            if (row == rows) {
                snprintf(why, why_capacity, "more than %" PRIu32 " rows",
                         rows);
                return 1;
            }
            continue;
        }
        if (c != 'x' && c != 'o' && c != '.') {
            snprintf(why, why_capacity,
                     "row %" PRIu32 "%s, column %" PRIu32
                     ": expected 'x', 'o' or '.', found '%c'",
                     row + 1, row_words, col + 1,
                     c > ' ' && c <= '~' ? c : '?');
            return 1;
        }
        if (col == cols) {
            snprintf(why, why_capacity,
                     "row %" PRIu32 "%s has more than %" PRIu32 " cells",
                     row + 1, row_words, cols);
            return 1;
        }
        cell[row * cols + col++] = c;
    }
    if (row != rows) {
        snprintf(why, why_capacity, "%" PRIu32 " rows, expected %" PRIu32, row,
                 rows);
        return 1;
    }
    return 0;
}
