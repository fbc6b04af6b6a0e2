/*
 * games.h - the built-in games, each a loopy_game_def in its own file of
 * lib/games/ that reads like a rulebook: the index, the moves, the unmoves,
 * the notation.  lib/rules/registry.c lists them.
 */
#ifndef LOOPY_GAMES_H
#define LOOPY_GAMES_H

#include "../core/internal.h"

extern const loopy_game_def loopy_i_game_subtract;
extern const loopy_game_def loopy_i_game_mnk;
extern const loopy_game_def loopy_i_game_tictactoe;
extern const loopy_game_def loopy_i_game_connect4;

#endif
