/* climb.h - what climb.c (the solve) and climb_read.c (the input) share. */
#ifndef LOOPY_SEEDS_CLIMB_H
#define LOOPY_SEEDS_CLIMB_H

#include "../io/stream.h"

/* Solves a grid (see loopy_climb_solve): cell[c] holds height << 8 on
 * entry (its low byte becomes the solve's state); first_wins[c] becomes 1
 * where the player to move wins, else 0.  queue: rows * cols + 1 entries
 * of scratch. */
void loopy_i_climb_solve_grid(uint32_t rows, uint32_t cols, uint64_t *cell,
                              uint32_t *queue, uint8_t *first_wins);

#endif
