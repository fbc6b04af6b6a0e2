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
                     row + 1, row_words, col + 1, loopy_i_shown_char(c));
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

void loopy_i_column_name(uint32_t col, char *out)
{
    char reversed[4];
    size_t len = 0;

    /* Bijective base 26: a..z, then aa..zz, then aaa.. (40 at most). */
    col++;
    while (col > 0 && len < 3) {
        col--;
        reversed[len++] = (char)('a' + col % 26);
        col /= 26;
    }
    for (size_t i = 0; i < len; i++)
        out[i] = reversed[len - 1 - i];
    out[len] = '\0';
}

int loopy_i_read_cell(const char *text, uint32_t rows, uint32_t cols,
                      uint32_t *row, uint32_t *col, char *why,
                      size_t why_capacity)
{
    uint64_t c = 0, r = 0;
    size_t at = 0, digits = 0;
    char last[4];

    loopy_i_column_name(cols - 1, last);
    while ((text[at] >= 'a' && text[at] <= 'z') && at < 3)
        c = c * 26 + (uint64_t)(text[at++] - 'a' + 1);
    while (text[at + digits] >= '0' && text[at + digits] <= '9' && digits < 6)
        r = r * 10 + (uint64_t)(text[at + digits++] - '0');
    if (at == 0 || digits == 0 || text[at + digits] != '\0') {
        snprintf(why, why_capacity,
                 "expected a cell: a column a to %s and a row 1 to %" PRIu32
                 " from the bottom, such as b2",
                 last, rows);
        return 1;
    }
    if (c > cols || r < 1 || r > rows) {
        snprintf(why, why_capacity,
                 "no cell %s: columns a to %s, rows 1 to %" PRIu32, text, last,
                 rows);
        return 1;
    }
    *col = (uint32_t)c - 1;
    *row = rows - (uint32_t)r;
    return 0;
}

size_t loopy_i_draw_grid(const char *cell, uint32_t rows, uint32_t cols,
                         bool row_numbers, bool unicode, char *out,
                         size_t capacity)
{
    /* At most 40 cells (mnk) or 31 columns (Connect Four), each at most
     * 4 columns of text and 2 bytes, with its labels. */
    char text[4096];
    size_t len = 0;
    int width = 1, lead = 0;
    char name[16];

    /* Room for the widest label: a row number, a column's name or its
     * number. */
    for (uint32_t n = row_numbers ? rows : cols; n >= 10; n /= 10)
        lead++;
    if (row_numbers) {
        loopy_i_column_name(cols - 1, name);
        width = (int)strlen(name);
    } else {
        width = lead + 1;
    }
    for (uint32_t r = 0; r < rows; r++) {
        if (row_numbers)
            len += (size_t)snprintf(text + len, sizeof text - len, "%*" PRIu32,
                                    lead + 1, rows - r);
        for (uint32_t c = 0; c < cols; c++) {
            char stone = cell[r * cols + c];
            /* Cells a space apart, under the labels' last characters; a
             * row without a number starts with its first cell. */
            if (row_numbers || c > 0)
                len += (size_t)snprintf(text + len, sizeof text - len, " ");
            len += (size_t)snprintf(text + len, sizeof text - len, "%*s",
                                    width - 1, "");
            len += (size_t)snprintf(text + len, sizeof text - len, "%s",
                                    stone == 'x'   ? "x"
                                    : stone == 'o' ? "o"
                                    : unicode      ? "\xc2\xb7"
                                                   : ".");
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "\n");
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "%*s",
                            row_numbers ? lead + 1 : 0, "");
    for (uint32_t c = 0; c < cols; c++) {
        if (row_numbers)
            loopy_i_column_name(c, name);
        else
            snprintf(name, sizeof name, "%" PRIu32, c + 1);
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%*s",
                                row_numbers || c > 0 ? " " : "", width, name);
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "\n");
    if (len >= sizeof text)
        len = sizeof text - 1;
    return loopy_i_text_out(text, len, out, capacity);
}
