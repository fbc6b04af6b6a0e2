/*
 * climb.c - the grid game of seed 002: a flag moves to an orthogonally
 * adjacent, strictly higher cell; a player who cannot move loses.
 *
 * Moves are never stored: they are read off the heights.  Every move
 * climbs, so the game graph is acyclic and retrograde analysis decides
 * every cell (see solve_grid).  (A memoised depth-first search was tried
 * instead: a third slower on random heights.)
 */
#include "climb.h"

#include <string.h>

/* The state byte of a cell during the solve: bits 0-2 count the higher
 * neighbours not yet known to be Wins; DECIDED and WIN say what is known. */
#define COUNT_MASK 7u
#define DECIDED 8u
#define WIN LOOPY_I_CLIMB_WIN

/* Runs BODY with d set to each orthogonal neighbour of cell c = (r, k). */
#define FOR_NEIGHBOURS(rows, cols, c, r, k, d, BODY)                           \
    do {                                                                       \
        size_t d;                                                              \
        if ((r) > 0) { d = (c) - (cols); BODY }                                \
        if ((r) + 1 < (rows)) { d = (c) + (cols); BODY }                       \
        if ((k) > 0) { d = (c) - 1; BODY }                                     \
        if ((k) + 1 < (cols)) { d = (c) + 1; BODY }                            \
    } while (0)

/* c / cols by a multiplication, corrected by one either way. */
static uint32_t row_of(size_t c, uint32_t cols, double inverse_cols)
{
    uint32_t r = (uint32_t)((double)c * inverse_cols);

    if ((size_t)r * cols > c)
        r--;
    else if ((size_t)(r + 1) * cols <= c)
        r++;
    return r;
}

/* The solve: retrograde analysis from the local maxima (Lose).  Popping a
 * Lose makes its undecided lower neighbours Wins; popping a Win counts down
 * their higher neighbours not known to be Wins, and a count reaching 0
 * makes a Lose.  A cell's height and state share a word (height << 8 |
 * state), so that looking at a neighbour costs one cache miss, not two:
 * the queue visits the grid in waves, far from where it was.  The words
 * are made in the first pass, which reads the heights of the cells after c
 * from height (the queue, written behind c, may overwrite those before). */
void loopy_i_climb_solve_grid(uint32_t rows, uint32_t cols,
                              const uint32_t *height, uint64_t *cell,
                              uint32_t *queue)
{
    double inverse_cols = 1.0 / cols;
    size_t head = 0, tail = 0;

    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t k = 0; k < cols; k++) {
            size_t c = (size_t)r * cols + k;
            uint64_t hc = height[c];
            unsigned higher = 0;
            /* Branch-free comparisons: with random heights every test
             * here is a coin toss. */
            if (r > 0)
                higher += (cell[c - cols] >> 8) > hc;
            if (r + 1 < rows)
                higher += height[c + cols] > hc;
            if (k > 0)
                higher += (cell[c - 1] >> 8) > hc;
            if (k + 1 < cols)
                higher += height[c + 1] > hc;
            /* A local maximum has no move: a Lose, queued. */
            cell[c] = hc << 8 | (higher == 0 ? DECIDED : higher);
            queue[tail] = (uint32_t)c;
            tail += higher == 0;
        }
    }
    while (head < tail) {
        size_t c = queue[head++];
        uint32_t r = row_of(c, cols, inverse_cols);
        uint32_t k = (uint32_t)(c - (size_t)r * cols);
        bool c_wins = (cell[c] & WIN) != 0;
        uint64_t hc = cell[c] >> 8;

        /* The lower neighbours are the positions that can move onto c; the
         * update is computed without branches (see above). */
        FOR_NEIGHBOURS(rows, cols, c, r, k, d, {
            uint64_t word = cell[d];
            unsigned sd = (unsigned)(word & 0xff);
            unsigned act = ((word >> 8) < hc) & !(sd & DECIDED);
            unsigned counted = sd - act;
            unsigned lost = act & ((counted & COUNT_MASK) == 0);
            unsigned next = c_wins ? (lost ? DECIDED : counted)
                                   : (act ? DECIDED | WIN : sd);
            cell[d] = (word & ~(uint64_t)0xff) | next;
            queue[tail] = (uint32_t)d;
            tail += c_wins ? lost : act;
        });
    }
}

loopy_status loopy_climb_solve(uint32_t rows, uint32_t cols,
                               const uint32_t *height, uint8_t *first_wins)
{
    size_t cells = (size_t)rows * cols;
    uint64_t *cell;
    uint32_t *queue;

    if ((rows != 0 && cells / rows != cols) || cells > UINT32_MAX ||
        (cells > 0 && (height == NULL || first_wins == NULL)))
        return LOOPY_EINVAL;
    if (cells == 0)
        return LOOPY_OK;
    cell = loopy_i_malloc(cells, sizeof *cell);
    /* One spare entry: the solve writes past the last push. */
    queue = loopy_i_malloc(cells + 1, sizeof *queue);
    if (cell == NULL || queue == NULL) {
        loopy_i_free(cell);
        loopy_i_free(queue);
        return LOOPY_ENOMEM;
    }
    loopy_i_climb_solve_grid(rows, cols, height, cell, queue);
    for (size_t c = 0; c < cells; c++)
        first_wins[c] = (cell[c] & LOOPY_I_CLIMB_WIN) != 0;
    loopy_i_free(cell);
    loopy_i_free(queue);
    return LOOPY_OK;
}
