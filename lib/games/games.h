/*
 * games.h - the built-in games, each a loopy_game_def in its own file of
 * lib/games/ that reads like a rulebook: the index, the moves, the unmoves,
 * the notation.  lib/rules/registry.c lists them.
 */
#ifndef LOOPY_GAMES_H
#define LOOPY_GAMES_H

#include "../core/internal.h"
#include "loopy_game.h"

/* ---- What the board games share (lib/games/board.c) ---- */

/* The number of 1 bits of bits. */
uint32_t loopy_i_count_bits(uint64_t bits);

/* c as a message about a bad text shows it: itself when printable ASCII
 * (a space too), else '?'. */
static inline char loopy_i_shown_char(char c)
{
    return c >= ' ' && c <= '~' ? c : '?';
}

/* The place of the highest (lowest) 1 of bits, which is not 0: inline,
 * as the board games call them in their innermost loops. */
static inline uint32_t loopy_i_highest_bit(uint64_t bits)
{
#if defined(__GNUC__)
    return 63 - (uint32_t)__builtin_clzll(bits);
#else
    uint32_t place = 0;
    while (bits >>= 1)
        place++;
    return place;
#endif
}

static inline uint32_t loopy_i_lowest_bit(uint64_t bits)
{
#if defined(__GNUC__)
    return (uint32_t)__builtin_ctzll(bits);
#else
    uint32_t place = 0;
    while (!(bits & 1)) {
        bits >>= 1;
        place++;
    }
    return place;
#endif
}

/* Sorts list[0..count) (a game's moves, a few dozen at most: insertion
 * sort), drops repeats, copies what fits of them to out[0..capacity) and
 * returns how many distinct ones there are: the moves() protocol. */
size_t loopy_i_distinct_out(loopy_position *list, size_t count,
                            loopy_position *out, size_t capacity);

/* A format() callback's ending: copies what fits of text[0 .. len) to out
 * (capacity bytes, NUL-terminated) and returns len, as snprintf does. */
size_t loopy_i_text_out(const char *text, size_t len, char *out,
                        size_t capacity);

/* Reads a board written as rows separated by '/', each of cols cells 'x',
 * 'o' or '.', into cell[row * cols + col] (row 0 the first written);
 * 0, or 1 after writing why ("row 2<row_words>, column 3: expected ...",
 * row_words such as " from the top" or ""). */
int loopy_i_read_grid(const char *text, uint32_t rows, uint32_t cols,
                      const char *row_words, char *cell, char *why,
                      size_t why_capacity);

/* Reads the unsigned decimal at params[*at], advancing *at: 0, or 1 when
 * there is none, or 2 when it has more than 6 digits. */
int loopy_i_read_param(const char *params, size_t *at, uint32_t *value);

/* The name of column col (0-based) of a board, as a cell's name starts:
 * a, b, ..., z, aa, ab, ... (at most 3 letters and a NUL in out). */
void loopy_i_column_name(uint32_t col, char *out);
/* Reads a cell's name, column letters then a row number from the bottom
 * ("b2"), on a board of rows x cols, into *row (0 at the top, as the
 * notation writes rows) and *col; 0, or 1 after writing why. */
int loopy_i_read_cell(const char *text, uint32_t rows, uint32_t cols,
                      uint32_t *row, uint32_t *col, char *why,
                      size_t why_capacity);
/* Draws cell[row * cols + col] ('x', 'o', '.'; row 0 at the top) for a
 * terminal, a line a row, cells apart: with row_numbers, each row led by
 * its number from the bottom and a last line of the columns' letters (the
 * cells' names, as loopy_i_read_cell reads them); without, a last line of
 * the columns' numbers from 1 (Connect Four's moves).  unicode: empty
 * cells as U+00B7.  Written to out as a format() callback writes. */
size_t loopy_i_draw_grid(const char *cell, uint32_t rows, uint32_t cols,
                         bool row_numbers, bool unicode, char *out,
                         size_t capacity);

extern const loopy_game_def loopy_i_game_subtract;
extern const loopy_game_def loopy_i_game_mnk;
extern const loopy_game_def loopy_i_game_tictactoe;
extern const loopy_game_def loopy_i_game_connect4;
extern const loopy_game_def loopy_i_game_chess;

#endif
