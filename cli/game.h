/*
 * game.h - the pieces the actions of "loopy game" share: the parsed
 * command line, solving the game it names, and printing values.  Each
 * action lives in its own file (game.c: the options, list and solve;
 * game_probe.c: probe; game_stats.c: stats; game_play.c: play;
 * game_check.c: check).
 */
#ifndef LOOPY_CLI_GAME_H
#define LOOPY_CLI_GAME_H

#include "cli.h"

/* --solver: graph, retro (the solver that stores no moves), tablebase
 * (the game's own), or not given. */
typedef enum game_solver {
    GAME_SOLVER_DEFAULT = 0,
    GAME_SOLVER_GRAPH,
    GAME_SOLVER_RETRO,
    GAME_SOLVER_TABLEBASE
} game_solver;

typedef struct game_args {
    const char *action;
    const char *spec;
    const char **positions;
    size_t position_count;
    loopy_game_solve_options solve;
    bool json;
    bool quiet;
    game_solver solver; /* --solver */
    bool solver_given;  /* --solver: refused with a database */
    const char *output; /* -o: the database solve writes */
    const char *db_game; /* --game: the game of a database, when not built in */
    bool second;        /* play --second: loopy moves first */
    loopy_game_check_options check; /* check: --positions, --limit, --seed */
} game_args;

/* The solver a solve uses, once the game is known (a default resolved:
 * the game's own when it has one, else the graph). */
game_solver game_solver_of(const game_args *a, const loopy_game *game);

/* The letter of each value: D, W, L, T. */
extern const char game_value_letter[4];

/* Writes s as a JSON string. */
void game_out_json_string(cli_out *out, const char *s);

/* "T 9", "D". */
void game_out_value(cli_out *out, loopy_outcome outcome, uint32_t remoteness);

/* Opens the game a->spec; prints the reason and returns the exit status on
 * failure. */
int game_open(const game_args *a, loopy_game **game);

/* Solves the open game with a's options, as game_open_and_solve. */
int game_solve_open(const game_args *a, const loopy_game *game,
                    loopy_game_solution **solution, double *seconds);

/* Opens the game a->spec and solves it with a's options; prints the reason
 * and returns the exit status on failure.  *seconds: the solve's time. */
int game_open_and_solve(const game_args *a, loopy_game **game,
                        loopy_game_solution **solution, double *seconds);

/* Opens the database a->spec and its game: a->db_game (--game) when given,
 * checked against the database, else the built-in game it names.  Refuses
 * (EXIT_USAGE) --solver, and --misere or --no-symmetry where the database
 * was solved otherwise.  Prints the reason and returns the exit status on
 * failure. */
int game_open_database(const game_args *a, loopy_db **db, loopy_game **game);

/* The value of pos (text name) and its moves, best first, from the
 * solution s or else the database db (the file a->spec); prints the reason
 * and returns the exit status on failure (EXIT_INPUT for a position the
 * solve did not reach).  *moves is freed by the caller with free. */
int game_lookup(const game_args *a, const loopy_game *game,
                const loopy_game_solution *s, const loopy_db *db,
                loopy_position pos, const char *name, loopy_outcome *outcome,
                uint32_t *remoteness, loopy_game_move **moves, size_t *count);

/* The value of a move for the player who makes it: the opposite of the
 * opponent's after it, one move further from the end (W 3: this move wins
 * in 3 moves). */
void game_move_value(const loopy_game_move *move, loopy_outcome *outcome,
                     uint32_t *remoteness);

/* The actions, each in its own file: game_probe.c, game_stats.c,
 * game_play.c, game_check.c. */
int game_probe(const game_args *a);
int game_stats(const game_args *a);
int game_play(const game_args *a);
/* game_check.c: the game's rules checked on its positions; and the
 * --positions word (auto, every, reachable, sample, walks) read into
 * *scope (false after a message). */
int game_check(const game_args *a);
bool game_check_scope(const char *text, loopy_game_check_scope *scope);

#endif
