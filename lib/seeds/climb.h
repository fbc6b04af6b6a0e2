/* climb.h - what climb.c (the solve) and climb_read.c (the input) share. */
#ifndef LOOPY_SEEDS_CLIMB_H
#define LOOPY_SEEDS_CLIMB_H

#include "../io/stream.h"

/* Solves a grid (see loopy_climb_solve): state[c] becomes 1 where the
 * player to move wins, else 0.  queue: rows * cols + 1 entries of scratch. */
void loopy_i_climb_solve_grid(uint32_t rows, uint32_t cols,
                              const uint32_t *height, uint8_t *state,
                              uint32_t *queue);

#endif
