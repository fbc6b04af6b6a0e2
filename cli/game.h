/*
 * game.h - the pieces the actions of "loopy game" share: the parsed
 * command line, solving the game it names, and printing values.  Each
 * action lives in its own file (game.c: the options, list and solve;
 * game_probe.c: probe; game_stats.c: stats; game_play*.c: play;
 * game_check.c: check).
 */
#ifndef LOOPY_CLI_GAME_H
#define LOOPY_CLI_GAME_H

#include "cli.h"

/* --solver: graph, retro (the solver that stores no moves), tier (tier
 * by tier), tablebase (the game's own), or not given. */
typedef enum game_solver {
    GAME_SOLVER_DEFAULT = 0,
    GAME_SOLVER_GRAPH,
    GAME_SOLVER_RETRO,
    GAME_SOLVER_TIER,
    GAME_SOLVER_TABLEBASE
} game_solver;

typedef struct game_args {
    /* The command messages name ("loopy serve: ..."); NULL: "game".  See
     * game_cmd(). */
    const char *cmd;
    const char *action;
    const char *spec;
    const char **positions;
    size_t position_count;
    loopy_game_solve_options solve;
    bool json;
    bool quiet;
    game_solver solver; /* --solver */
    bool solver_given;  /* --solver: refused with a database */
    bool threads_given; /* -t, even -t 0: refused by list */
    const char *output; /* -o: the database solve writes */
    const char *db_game; /* --game: the game of a database, when not built in */
    bool second;        /* play --second: loopy moves first */
    loopy_game_check_options check; /* check: --positions, --limit, --seed */
    bool dot;           /* probe -f dot: the graph of the positions */
    uint64_t dot_limit; /* probe -f dot: --limit, positions at most */
    const char *tables; /* --tables DIR, else $LOOPY_TABLES */
    bool resume;        /* --resume: continue a tier solve's work file */
    bool verbose;       /* -v: a line per tier solved */
    uint64_t memory;    /* --memory: bytes of records a tier solve may hold */
    /* Set by game_resolve before an action runs: the game to open (spec,
     * or spec:PARAMS read from the first position, as "chess" and a FEN
     * give chess:KRK), and the database that answers instead of a solve
     * (spec itself, or the game's in the tables folder, table_path; NULL:
     * solve). */
    char open_spec[320];
    const char *db_path;
    char table_path[4096];
    /* Set by game_resolve when it read standard input to find the first
     * position ("chess -", the FENs on standard input): what it read
     * (stdin_text), which probe reads again through stdin_copy in place
     * of standard input.  NULL: not read (stdin_copy NULL too when there
     * was nothing). */
    char *stdin_text;
    FILE *stdin_copy;
} game_args;

/* The command a's messages name: "game" unless a->cmd says otherwise
 * ("serve" opens and solves its games through game_open and
 * game_solve_open). */
static inline const char *game_cmd(const game_args *a)
{
    return a->cmd != NULL ? a->cmd : "game";
}

/* The solver a solve uses, once the game is known (a default resolved:
 * the game's own when it has one, else the graph). */
game_solver game_solver_of(const game_args *a, const loopy_game *game);

/* The letter of each value: D, W, L, T. */
extern const char game_value_letter[4];

/* Writes s as a JSON string. */
void game_out_json_string(cli_out *out, const char *s);

/* "T 9", "D". */
void game_out_value(cli_out *out, loopy_outcome outcome, uint32_t remoteness);

/* The work file of a tier solve writing the database output
 * (output.tiers), followed by suffix ("-journal", "-parked" for its
 * journal and park file; "" for itself), malloc'd; NULL when memory runs
 * out. */
char *game_work_path(const char *output, const char *suffix);
/* Removes the three, the journal first (the database is saved). */
void game_remove_work(const char *output);

/* A line of positions on standard input, got bytes read by getline: the
 * blanks around it (and its end of line) dropped, in place; NULL for a
 * blank line, one starting with '#' (after blanks), or one with a NUL
 * byte (*nul then set; else cleared). */
char *game_position_line(char *line, size_t got, bool *nul);

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

/* The room for a position's name in a probe's answer (game_probe_name). */
#define GAME_NAME_CAPACITY 256

/* The name a probe's answer gives the position pos, read from text (NULL:
 * the start, or none): text as written when the game names its moves
 * (chess keeps the board as given), else pos in the game's notation; cut
 * to capacity (GAME_NAME_CAPACITY). */
void game_probe_name(const loopy_game *game, const char *text,
                     loopy_position pos, char *name, size_t capacity);

/* Writes one position's answer as the JSON object that 'loopy game probe
 * -f json' prints in its array and 'loopy serve' answers (the one
 * definition of both): the position (name, game_probe_name's), misere
 * (the play solved; no game's words then), its value, remoteness (null for
 * a Draw) and note, and "moves": moves[0..count) best first as
 * loopy_game_solution_moves gives them, each as the position it leads to,
 * with its name for a game that names moves, and its value for the mover.
 * O(count) of the game's move names. */
void game_probe_json(cli_out *out, const loopy_game *game, const char *name,
                     bool misere, loopy_outcome outcome, uint32_t remoteness,
                     const loopy_game_move *moves, size_t count);

/* The help of one action (game_help.c), or NULL for no action. */
const char *game_action_help(const char *action);

/* probe -f dot (game_dot.c): the Graphviz graph of the positions
 * reachable from pos (written text, NULL: none), each coloured by its
 * value, best moves bold, to out; refused, after a message, past
 * a->dot_limit positions. */
int game_dot(cli_out *out, const game_args *a, const loopy_game *game,
             const loopy_game_solution *s, const loopy_db *db,
             loopy_position pos, const char *text);

/* The actions, each in its own file: game_solve.c, game_probe.c,
 * game_stats.c, game_play.c, game_check.c. */
int game_solve(const game_args *a);
int game_probe(const game_args *a);
int game_stats(const game_args *a);
int game_play(const game_args *a);
/* game_check.c: the game's rules checked on its positions; and the
 * --positions word (auto, every, reachable, sample, walks) read into
 * *scope (false after a message). */
int game_check(const game_args *a);
bool game_check_scope(const char *text, loopy_game_check_scope *scope);

#endif
