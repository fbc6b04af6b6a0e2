/* climb.h - what climb.c (the solve) and climb_read.c (the input) share. */
#ifndef LOOPY_SEEDS_CLIMB_H
#define LOOPY_SEEDS_CLIMB_H

#include "../io/stream.h"

/* The bit of a solved cell's word that says the player to move wins. */
#define LOOPY_I_CLIMB_WIN 16u

/* Solves a grid (see loopy_climb_solve) of the heights height[c]: cell[c]
 * becomes height << 8 | state, where the state has LOOPY_I_CLIMB_WIN set
 * if the player to move from c wins.  queue: rows * cols + 1 entries of
 * scratch; it may be height itself (which is then overwritten). */
void loopy_i_climb_solve_grid(uint32_t rows, uint32_t cols,
                              const uint32_t *height, uint64_t *cell,
                              uint32_t *queue);

#endif
