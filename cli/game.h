/*
 * game.h - the pieces the actions of "loopy game" share: the parsed
 * command line, solving the game it names, and printing values.  Each
 * action lives in its own file (game.c: list, solve, probe).
 */
#ifndef LOOPY_CLI_GAME_H
#define LOOPY_CLI_GAME_H

#include "cli.h"

typedef struct game_args {
    const char *action;
    const char *spec;
    const char **positions;
    size_t position_count;
    loopy_game_solve_options solve;
    bool json;
    bool quiet;
    bool retro;         /* --solver retro */
    const char *output; /* -o: the database solve writes */
} game_args;

/* The letter of each value: D, W, L, T. */
extern const char game_value_letter[4];

/* Writes s as a JSON string. */
void game_out_json_string(cli_out *out, const char *s);

/* "T 9", "D". */
void game_out_value(cli_out *out, loopy_outcome outcome, uint32_t remoteness);

/* Opens the game a->spec and solves it with a's options; prints the reason
 * and returns the exit status on failure.  *seconds: the solve's time. */
int game_open_and_solve(const game_args *a, loopy_game **game,
                        loopy_game_solution **solution, double *seconds);

#endif
