/*
 * rules_internal.h - what the solvers of games by rules share
 * (lib/rules/): checked calls into a game's callbacks and the solution.
 */
#ifndef LOOPY_RULES_INTERNAL_H
#define LOOPY_RULES_INTERNAL_H

#include "../core/internal.h"

#include <stdio.h>

/* A growing buffer of positions for moves() and unmoves(). */
typedef struct loopy_position_buffer {
    loopy_position *items;
    size_t capacity;
    bool out_of_memory; /* set when growing it failed */
} loopy_position_buffer;

/* The moves (backward: the unmoves) of pos into buf, growing it until all
 * fit; their number, or LOOPY_GAME_ERROR when the game failed or memory
 * ran out (buf->out_of_memory). */
size_t loopy_i_game_list(const loopy_game *game, loopy_position pos,
                         bool backward, loopy_position_buffer *buf);
void loopy_i_position_buffer_release(loopy_position_buffer *buf);

/* qsort's comparison of two positions. */
int loopy_i_compare_position(const void *a, const void *b);

/* qsort's comparison of two loopy_game_move, best first for the player who
 * moves: to an opponent's Lose (quickest first), to a Tie (quickest
 * first), to a Draw, to an opponent's Win (slowest first); then by
 * position. */
int loopy_i_compare_moves(const void *a, const void *b);

/* Sorts positions[0..count) and drops repeats; returns the new count. */
size_t loopy_i_sort_unique(loopy_position *positions, size_t count);

/* The value of every position solved: positions in increasing order, with
 * their outcome and remoteness at the same index. */
struct loopy_game_solution {
    uint64_t n;
    loopy_position *position;
    uint8_t *outcome;
    uint32_t *remoteness;
    uint64_t count[4]; /* indexed by loopy_outcome */
    bool symmetric;    /* positions are the game's representatives */
};

#endif
