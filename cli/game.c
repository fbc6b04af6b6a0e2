/* game.c - "loopy game": games given by their rules (built in, or a shared
 * object): list them, solve one, probe positions. */
#include "game.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char game_usage[] =
    "Usage: loopy game list\n"
    "       loopy game solve [OPTIONS] GAME [-o FILE.ldb]\n"
    "       loopy game probe [OPTIONS] GAME|FILE.ldb [POSITION...]\n"
    "\n"
    "Solve a game given by its rules rather than by a list of moves: every\n"
    "position reachable from the start is a Win, a Lose, a Tie (the game ends\n"
    "and nobody wins) or a Draw (play goes on forever) for the player to\n"
    "move, with its remoteness (moves to the end under perfect play: the\n"
    "winner hurries, the loser delays).\n"
    "\n"
    "GAME is a built-in game, NAME or NAME:PARAMS (see 'loopy game list'),\n"
    "or the path of a shared object written against loopy.h (any name with a\n"
    "'/', such as ./mygame.so, optionally followed by :PARAMS).\n"
    "\n"
    "  list    the built-in games, their parameters and notation\n"
    "  solve   solve GAME and print a summary: positions reached, how many of\n"
    "          each value, the start position's value and remoteness; with\n"
    "          -o, also write the value of every position to a database\n"
    "  probe   the value of each POSITION (in the game's notation; the start\n"
    "          when none is given, and one per line of standard input for\n"
    "          '-') and of every move from it, best first; a move's value is\n"
    "          the mover's: W 3 means this move wins in 3 moves.  Given a\n"
    "          database (an existing file named *.ldb) instead of GAME, it\n"
    "          opens the game the database names and reads the answers from\n"
    "          the file, without solving\n"
    "\n"
    "Options:\n"
    "      --misere         a primitive win is a loss and a loss a win, and a\n"
    "                       player who cannot move wins\n"
    "      --no-symmetry    solve every position, not one per class of\n"
    "                       symmetric positions\n"
    "      --solver NAME    graph (default): enumerate the positions reachable\n"
    "                       from the start and solve their graph (memory grows\n"
    "                       with the moves); retro: solve every legal index\n"
    "                       without storing moves, from the game's unmoves\n"
    "                       (4 bytes per index of the game's index space)\n"
    "  -o, --output FILE    solve: write the database FILE.ldb (binary: a\n"
    "                       checked header, zstd-compressed blocks, an index;\n"
    "                       written under a temporary name, then renamed)\n"
    "  -f, --format FORMAT  text (default) or json\n"
    "  -t, --threads N      threads to use (default 0: all cores; more than\n"
    "                       the processors counts as that many)\n"
    "  -q, --quiet          no timing line on standard error\n"
    "  -h, --help           show this help\n"
    "\n"
    "Values: W win, L lose, T tie, D draw, for the player to move, each with\n"
    "its remoteness (D has none).\n"
    "\n"
    "Example: in tic-tac-toe (rows top to bottom, x and o), after x in a\n"
    "corner, o in the centre and x in the opposite corner, o must take an\n"
    "edge; a corner loses in 4 moves:\n"
    "  $ loopy game probe -q tictactoe x../.o./..x\n"
    "  x../.o./..x: T 6\n"
    "    xo./.o./..x  T 6\n"
    "    x../oo./..x  T 6\n"
    "    x../.oo/..x  T 6\n"
    "    x../.o./.ox  T 6\n"
    "    x.o/.o./..x  L 4\n"
    "    x../.o./o.x  L 4\n"
    "\n"
    "Exit status: 0 success, 1 a position or the game's rules rejected, 2 bad\n"
    "command line, 3 a file not readable or not writable, 4 too large for\n"
    "memory.\n";

enum { OPT_MISERE, OPT_NO_SYMMETRY, OPT_SOLVER, OPT_FORMAT, OPT_THREADS,
       OPT_QUIET, OPT_HELP, OPT_OUTPUT };

static const cli_option game_options[] = {
    {"misere", 0, false, OPT_MISERE},
    {"no-symmetry", 0, false, OPT_NO_SYMMETRY},
    {"solver", 0, true, OPT_SOLVER},
    {"format", 'f', true, OPT_FORMAT},
    {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},
    {"help", 'h', false, OPT_HELP},
    {"output", 'o', true, OPT_OUTPUT},
    {NULL, 0, false, 0}};


const char game_value_letter[4] = {'D', 'W', 'L', 'T'};

/* The notations are printable ASCII; anything else is escaped. */
void game_out_json_string(cli_out *out, const char *s)
{
    cli_out_char(out, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            cli_out_char(out, '\\');
            cli_out_char(out, (char)c);
        } else if (c < 0x20 || c >= 0x7f) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            cli_out_str(out, esc);
        } else {
            cli_out_char(out, (char)c);
        }
    }
    cli_out_char(out, '"');
}

static int parse_args(int argc, char **argv, game_args *a)
{
    cli_parser p;
    int id;

    cli_parser_init(&p, "game", argc, argv);
    while ((id = cli_next(&p, game_options)) != CLI_END) {
        switch (id) {
        case CLI_OPERAND:
            if (a->action == NULL) {
                a->action = p.value;
            } else if (a->spec == NULL) {
                a->spec = p.value;
            } else {
                const char **grown = realloc(a->positions,
                                             (a->position_count + 1) *
                                                 sizeof *grown);
                if (grown == NULL) {
                    cli_error("game", "out of memory");
                    return EXIT_RESOURCE;
                }
                a->positions = grown;
                a->positions[a->position_count++] = p.value;
            }
            break;
        case OPT_MISERE:
            a->solve.misere = 1;
            break;
        case OPT_NO_SYMMETRY:
            a->solve.no_symmetry = 1;
            break;
        case OPT_SOLVER:
            if (strcmp(p.value, "graph") == 0 || strcmp(p.value, "retro") == 0) {
                a->retro = p.value[0] == 'r';
            } else {
                cli_error("game", "--solver: expected 'graph' or 'retro', "
                          "found '%s'", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_FORMAT:
            if (strcmp(p.value, "json") == 0) {
                a->json = true;
            } else if (strcmp(p.value, "text") == 0) {
                a->json = false;
            } else {
                cli_error("game", "--format: expected 'text' or 'json', "
                          "found '%s'", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("game", p.value, &a->solve.threads))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            a->quiet = true;
            break;
        case OPT_OUTPUT:
            if (!cli_out_name_ok("game", p.value))
                return EXIT_USAGE;
            a->output = p.value;
            break;
        case OPT_HELP:
            return cli_print_text("game", game_usage) == EXIT_OK ? -1 : EXIT_IO;
        default:
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static int game_list(const game_args *a)
{
    cli_out out;

    if (!cli_out_open(&out, "game", NULL))
        return EXIT_IO;
    for (size_t i = 0; i < loopy_game_builtin_count(); i++) {
        const loopy_game_def *d = loopy_game_builtin(i);
        if (a->json) {
            cli_out_str(&out, i == 0 ? "[" : ",\n ");
            cli_out_str(&out, "{\"name\": ");
            game_out_json_string(&out, d->name);
            cli_out_str(&out, ", \"summary\": ");
            game_out_json_string(&out, d->summary);
            cli_out_str(&out, ", \"parameters\": ");
            game_out_json_string(&out, d->params_help);
            cli_out_str(&out, ", \"notation\": ");
            game_out_json_string(&out, d->notation_help);
            cli_out_char(&out, '}');
        } else {
            cli_out_str(&out, d->name);
            cli_out_str(&out, "\n    ");
            cli_out_str(&out, d->summary);
            cli_out_str(&out, "\n    parameters: ");
            cli_out_str(&out, d->params_help);
            cli_out_str(&out, "\n    positions:  ");
            cli_out_str(&out, d->notation_help);
            cli_out_char(&out, '\n');
        }
    }
    if (a->json)
        cli_out_str(&out, loopy_game_builtin_count() ? "]\n" : "[]\n");
    return cli_out_close(&out, "game") ? EXIT_OK : EXIT_IO;
}

int game_open_and_solve(const game_args *a, loopy_game **game,
                          loopy_game_solution **solution, double *seconds)
{
    loopy_diag diag;
    loopy_status status;
    struct timespec start;

    memset(&diag, 0, sizeof diag);
    status = loopy_game_open(a->spec, game, &diag);
    if (status != LOOPY_OK) {
        cli_error("game", "%s", diag.message[0] ? diag.message
                                                : loopy_strerror(status));
        return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
    }
    /* The positions given as arguments are read before the solve, which
     * may be long: a typo is answered at once. */
    for (size_t i = 0; i < a->position_count; i++) {
        loopy_position pos;
        if (strcmp(a->positions[i], "-") == 0)
            continue;
        memset(&diag, 0, sizeof diag);
        if (loopy_game_parse(*game, a->positions[i], &pos, &diag) != LOOPY_OK) {
            cli_error("game", "%s", diag.message);
            return EXIT_INPUT;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(&diag, 0, sizeof diag);
    status = a->retro ? loopy_game_solve_retro(*game, &a->solve, solution, &diag)
                      : loopy_game_solve_graph(*game, &a->solve, solution, &diag);
    *seconds = cli_seconds_since(&start);
    if (status != LOOPY_OK) {
        cli_error("game", "%s", diag.message[0] ? diag.message
                                                : loopy_strerror(status));
        /* --solver retro for a game without unmoves: the command line's
         * fault, not the game's. */
        return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
    }
    return EXIT_OK;
}

void game_out_value(cli_out *out, loopy_outcome outcome, uint32_t remoteness)
{
    cli_out_char(out, game_value_letter[outcome]);
    if (outcome != LOOPY_DRAW) {
        cli_out_char(out, ' ');
        cli_out_u64(out, remoteness);
    }
}

static int game_solve(const game_args *a)
{
    loopy_game *game = NULL;
    loopy_game_solution *s = NULL;
    loopy_outcome outcome;
    uint32_t remoteness;
    double seconds;
    char text[256];
    cli_out out, db_out;
    bool db_open = false;
    int rc;

    /* The database is opened first, so that a bad -o fails before the
     * solve; it is complete before the summary goes out. */
    if (a->output != NULL && !(db_open = cli_out_open(&db_out, "game", a->output)))
        return EXIT_IO;
    rc = game_open_and_solve(a, &game, &s, &seconds);
    if (rc != EXIT_OK)
        goto done;
    if (db_open) {
        db_open = false;
        rc = cli_db_write_game(&db_out, a->output, s, game, a->solve.misere);
        if (rc != EXIT_OK)
            goto done;
    }
    loopy_game_solution_value(s, game, game->start, &outcome, &remoteness);
    if (!cli_out_open(&out, "game", NULL)) {
        rc = EXIT_IO;
        goto done;
    }
    loopy_game_format(game, game->start, text, sizeof text);
    if (a->json) {
        cli_out_str(&out, "{\"game\": ");
        game_out_json_string(&out, game->name);
        cli_out_str(&out, ", \"parameters\": ");
        game_out_json_string(&out, game->params);
        cli_out_str(&out, ", \"misere\": ");
        cli_out_str(&out, a->solve.misere ? "true" : "false");
        cli_out_str(&out, ", \"symmetry\": ");
        cli_out_str(&out, game->canonical && !a->solve.no_symmetry ? "true"
                                                                   : "false");
        cli_out_str(&out, ", \"positions\": ");
        cli_out_u64(&out, loopy_game_solution_size(s));
        for (int k = 1; k <= 4; k++) {
            loopy_outcome o = (loopy_outcome)(k % 4);
            static const char *const names[] = {"draw", "win", "lose", "tie"};
            cli_out_str(&out, ", \"");
            cli_out_str(&out, names[o]);
            cli_out_str(&out, "\": ");
            cli_out_u64(&out, loopy_game_solution_count(s, o));
        }
        cli_out_str(&out, ", \"start\": {\"position\": ");
        game_out_json_string(&out, text);
        cli_out_str(&out, ", \"value\": \"");
        cli_out_char(&out, game_value_letter[outcome]);
        cli_out_str(&out, "\", \"remoteness\": ");
        if (outcome == LOOPY_DRAW)
            cli_out_str(&out, "null");
        else
            cli_out_u64(&out, remoteness);
        cli_out_str(&out, "}}\n");
    } else {
        cli_out_str(&out, game->name);
        if (game->params[0]) {
            cli_out_char(&out, ':');
            cli_out_str(&out, game->params);
        }
        cli_out_str(&out, a->solve.misere ? " (misere): " : ": ");
        cli_out_u64(&out, loopy_game_solution_size(s));
        cli_out_str(&out, game->canonical && !a->solve.no_symmetry
                              ? " positions reached, up to symmetry\n"
                              : " positions reached\n");
        cli_out_str(&out, "  W ");
        cli_out_u64(&out, loopy_game_solution_count(s, LOOPY_WIN));
        cli_out_str(&out, "  L ");
        cli_out_u64(&out, loopy_game_solution_count(s, LOOPY_LOSE));
        cli_out_str(&out, "  T ");
        cli_out_u64(&out, loopy_game_solution_count(s, LOOPY_TIE));
        cli_out_str(&out, "  D ");
        cli_out_u64(&out, loopy_game_solution_count(s, LOOPY_DRAW));
        cli_out_str(&out, "\n  start ");
        cli_out_str(&out, text);
        cli_out_str(&out, ": ");
        game_out_value(&out, outcome, remoteness);
        cli_out_char(&out, '\n');
    }
    if (!cli_out_close(&out, "game"))
        rc = EXIT_IO;
    if (rc == EXIT_OK && !a->quiet)
        fprintf(stderr, "loopy game: solved in %.3f s\n", seconds);
done:
    if (db_open)
        cli_out_abort(&db_out);
    loopy_game_solution_free(s);
    loopy_game_close(game);
    return rc;
}

/* The value of one position and of its moves, from the solution s or the
 * database db. */
static int probe_one(cli_out *out, const game_args *a, const loopy_game *game,
                     const loopy_game_solution *s, const loopy_db *db,
                     const char *text, bool first)
{
    loopy_diag diag;
    loopy_position pos;
    loopy_outcome outcome;
    uint32_t remoteness;
    loopy_game_move *moves = NULL;
    size_t count = 0;
    loopy_status status;
    char name[256];

    memset(&diag, 0, sizeof diag);
    if (text == NULL) {
        pos = game->start;
    } else if (loopy_game_parse(game, text, &pos, &diag) != LOOPY_OK) {
        cli_error("game", "%s", diag.message);
        return EXIT_INPUT;
    }
    loopy_game_format(game, pos, name, sizeof name);
    if (db != NULL) {
        int rc = cli_db_lookup(db, a->spec, game, pos, name, &outcome,
                               &remoteness, &moves, &count);
        if (rc != EXIT_OK)
            return rc;
    } else if (loopy_game_solution_value(s, game, pos, &outcome, &remoteness) !=
        LOOPY_OK) {
        cli_error("game", "%s: not reachable from the start position", name);
        return EXIT_INPUT;
    }
    status = db != NULL ? LOOPY_OK
                        : loopy_game_solution_moves(s, game, pos, &moves,
                                                    &count, &diag);
    if (status != LOOPY_OK) {
        cli_error("game", "%s: %s", name, diag.message);
        return cli_exit_status(status);
    }
    if (a->json) {
        cli_out_str(out, first ? "" : ",\n ");
        cli_out_str(out, "{\"position\": ");
        game_out_json_string(out, name);
        cli_out_str(out, ", \"value\": \"");
        cli_out_char(out, game_value_letter[outcome]);
        cli_out_str(out, "\", \"remoteness\": ");
        if (outcome == LOOPY_DRAW)
            cli_out_str(out, "null");
        else
            cli_out_u64(out, remoteness);
        cli_out_str(out, ", \"moves\": [");
    } else {
        cli_out_str(out, name);
        cli_out_str(out, ": ");
        game_out_value(out, outcome, remoteness);
        cli_out_char(out, '\n');
    }
    for (size_t i = 0; i < count; i++) {
        /* The mover's value: the opposite of the opponent's, one move
         * further from the end. */
        static const loopy_outcome mover[] = {LOOPY_DRAW, LOOPY_LOSE, LOOPY_WIN,
                                              LOOPY_TIE};
        loopy_outcome o = mover[moves[i].outcome];
        uint32_t r = moves[i].remoteness + (o != LOOPY_DRAW);

        loopy_game_format(game, moves[i].to, name, sizeof name);
        if (a->json) {
            cli_out_str(out, i ? ", {\"to\": " : "{\"to\": ");
            game_out_json_string(out, name);
            cli_out_str(out, ", \"value\": \"");
            cli_out_char(out, game_value_letter[o]);
            cli_out_str(out, "\", \"remoteness\": ");
            if (o == LOOPY_DRAW)
                cli_out_str(out, "null");
            else
                cli_out_u64(out, r);
            cli_out_char(out, '}');
        } else {
            cli_out_str(out, "  ");
            cli_out_str(out, name);
            cli_out_str(out, "  ");
            game_out_value(out, o, r);
            cli_out_char(out, '\n');
        }
    }
    if (a->json)
        cli_out_str(out, "]}");
    free(moves);
    return EXIT_OK;
}

static int game_probe(const game_args *a)
{
    loopy_game *game = NULL;
    loopy_game_solution *s = NULL;
    loopy_db *db = NULL;
    double seconds = 0;
    cli_out out;
    bool opened = false, first = true;
    char *line = NULL;
    size_t line_cap = 0;
    /* A database answers instead of a solve. */
    int rc = cli_is_database(a->spec)
                 ? cli_db_open_game(a->spec, a->solve.misere, &db, &game)
                 : game_open_and_solve(a, &game, &s, &seconds);

    if (rc != EXIT_OK)
        goto done;
    if (!cli_out_open(&out, "game", NULL)) {
        rc = EXIT_IO;
        goto done;
    }
    opened = true;
    if (a->json)
        cli_out_char(&out, '[');
    if (a->position_count == 0)
        rc = probe_one(&out, a, game, s, db, NULL, true);
    for (size_t i = 0; i < a->position_count && rc == EXIT_OK; i++) {
        if (strcmp(a->positions[i], "-") != 0) {
            rc = probe_one(&out, a, game, s, db, a->positions[i], first);
            first = false;
            continue;
        }
        while (rc == EXIT_OK && getline(&line, &line_cap, stdin) > 0) {
            size_t len = strlen(line);
            while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                               line[len - 1] == ' '))
                line[--len] = '\0';
            if (len == 0)
                continue;
            rc = probe_one(&out, a, game, s, db, line, first);
            first = false;
        }
    }
    if (a->json)
        cli_out_str(&out, "]\n");
done:
    if (opened) {
        if (rc == EXIT_OK) {
            if (!cli_out_close(&out, "game"))
                rc = EXIT_IO;
        } else {
            cli_out_abort(&out);
        }
    }
    if (rc == EXIT_OK && !a->quiet && db == NULL)
        fprintf(stderr, "loopy game: solved in %.3f s\n", seconds);
    free(line);
    loopy_game_solution_free(s);
    loopy_game_close(game);
    loopy_db_close(db);
    return rc;
}

/* The actions: their name, whether they take a GAME, whether more
 * operands may follow it, and the function. */
typedef struct game_action {
    const char *name;
    bool takes_game, takes_more;
    int (*run)(const game_args *a);
} game_action;

static const game_action actions[] = {
    {"list", false, false, game_list},
    {"solve", true, false, game_solve},
    {"probe", true, true, game_probe},
    {NULL, false, false, NULL}};

static int run_action(const game_args *a)
{
    const game_action *act = actions;

    if (a->action == NULL) {
        cli_error("game", "expected an action: list, solve or probe (see "
                  "'loopy game --help')");
        return EXIT_USAGE;
    }
    while (act->name != NULL && strcmp(act->name, a->action) != 0)
        act++;
    if (act->name == NULL) {
        cli_error("game", "unknown action '%s': expected list, solve or "
                  "probe", a->action);
        return EXIT_USAGE;
    }
    if (a->output != NULL && strcmp(a->action, "solve") != 0) {
        cli_error("game", "-o: only 'solve' writes a database");
        return EXIT_USAGE;
    }
    if (a->output != NULL && strcmp(a->output, "-") == 0) {
        cli_error("game", "-o: a database is binary: give it a file name, "
                  "not standard output");
        return EXIT_USAGE;
    }
    if (!act->takes_game && a->spec != NULL) {
        cli_error("game", "%s takes no game, found '%s'", act->name, a->spec);
        return EXIT_USAGE;
    }
    if (act->takes_game && a->spec == NULL) {
        cli_error("game", "%s: expected a GAME (see 'loopy game list')",
                  act->name);
        return EXIT_USAGE;
    }
    if (!act->takes_more && a->position_count > 0) {
        cli_error("game", "%s takes one GAME, found '%s' after it", act->name,
                  a->positions[0]);
        return EXIT_USAGE;
    }
    return act->run(a);
}

int cmd_game(int argc, char **argv)
{
    static const loopy_game_solve_options solve_defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    game_args a;
    int rc;

    memset(&a, 0, sizeof a);
    a.solve = solve_defaults;
    rc = parse_args(argc, argv, &a);
    if (rc == EXIT_OK)
        rc = run_action(&a);
    else if (rc < 0)
        rc = EXIT_OK;
    free(a.positions);
    return rc;
}
