/* game.c - "loopy game": games given by their rules (built in, or a shared
 * object): the options, the actions' table, list and solve. */
#include "game.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

static const char game_usage[] =
    "Usage: loopy game list\n"
    "       loopy game solve [OPTIONS] GAME [-o FILE.ldb]\n"
    "       loopy game probe [OPTIONS] GAME|FILE.ldb [POSITION...]\n"
    "       loopy game stats [OPTIONS] GAME|FILE.ldb\n"
    "       loopy game play [OPTIONS] GAME|FILE.ldb [POSITION]\n"
    "       loopy game check [OPTIONS] GAME\n"
    "\n"
    "Solve a game given by its rules rather than by a list of moves: every\n"
    "position reachable from the start is a Win, a Lose, a Tie (the game ends\n"
    "and nobody wins) or a Draw (play goes on forever) for the player to\n"
    "move, with its remoteness (moves to the end under perfect play: the\n"
    "winner hurries, the loser delays).\n"
    "\n"
    "GAME is a built-in game, NAME or NAME:PARAMS (see 'loopy game list'),\n"
    "or the path of a shared object written against loopy_game.h (any name\n"
    "with a '/', such as ./mygame.so, optionally followed by :PARAMS).\n"
    "\n"
    "  list    the built-in games, their parameters and notation\n"
    "  solve   solve GAME and print a summary: positions reached, how many of\n"
    "          each value, the start position's value and remoteness; with\n"
    "          -o, also write the value of every position to a database\n"
    "  probe   the value of each POSITION (in the game's notation; the start\n"
    "          when none is given, and one per line of standard input for\n"
    "          '-', where blank lines and lines starting with # are skipped)\n"
    "          and of every move from it, best first; a move's value is the\n"
    "          mover's: W 3 means this move wins in 3 moves; (misere) ends\n"
    "          the line of a position in misere play.  Every position is\n"
    "          read before the first answer, and the answers are printed\n"
    "          only when all are found: a bad one prints nothing but its\n"
    "          message (naming its line of standard input).  Given a\n"
    "          database (an existing file named *.ldb) instead of GAME, it\n"
    "          opens the game the database names (a built-in game, or the\n"
    "          one --game gives) and reads the answers from the file,\n"
    "          without solving; --solver is then refused, and --misere and\n"
    "          --no-symmetry unless the database was solved so\n"
    "  stats   what a database (or GAME, solved) holds: positions of each\n"
    "          value at each remoteness, the longest win, loss and tie with\n"
    "          an example, and the positions stored against the index space\n"
    "          (and, for a built-in game of at most 2^25 indices, its legal\n"
    "          and canonical positions)\n"
    "  play    play against loopy from POSITION (the start when none): each\n"
    "          of your turns draws the board and numbers your moves (the\n"
    "          same number every turn: a column, a cell); answer with a\n"
    "          number, the move (b2, Rh8, h2h8) or the position after it;\n"
    "          hint, best, moves, undo, ? for help, q to quit.  loopy plays\n"
    "          its best move (quickest win, slowest loss); the end sums the\n"
    "          game up (PGN for chess)\n"
    "  check   check GAME's rules before a long solve, on the positions\n"
    "          --positions names: moves and unmoves agree, counts and\n"
    "          indices in range, canonical() idempotent and true to the\n"
    "          moves of symmetric positions, parse() reads back what\n"
    "          format() writes; the first flaw is named on standard error\n"
    "          (exit status 1)\n"
    "\n"
    "'loopy game ACTION --help' (or 'loopy help game ACTION') shows one\n"
    "action's usage, options and example.\n"
    "\n"
    "Options:\n"
    "      --solver NAME    graph (the default, but for chess): enumerate the\n"
    "                       positions reachable from the start and solve their\n"
    "                       graph (memory grows with the moves); retro: the\n"
    "                       same positions solved without storing moves, from\n"
    "                       the game's unmoves (4 bytes per index of the\n"
    "                       game's index space); tier: a game with tiers\n"
    "                       whose moves leave their tier (connect4), one tier\n"
    "                       at a time, children first (2 bytes per index, no\n"
    "                       unmoves); tablebase (the default for\n"
    "                       chess): the game's own solver of every legal\n"
    "                       position (chess: 2 bytes per index, the smallest\n"
    "                       material first)\n";

/* The rest of the help: a string of its own, as ISO C promises strings of
 * 4095 bytes only. */
static const char game_usage_options[] =
    "      --misere         a primitive win is a loss and a loss a win, and a\n"
    "                       player who cannot move wins\n"
    "      --no-symmetry    solve every position, not one per class of\n"
    "                       symmetric positions\n"
    "      --all-legal      with --solver retro or tier: solve every legal\n"
    "                       index, reached from the start or not\n"
    "      --resume         solve --solver tier -o FILE: continue the solve\n"
    "                       killed before it ended, from FILE.tiers (the work\n"
    "                       file, kept on disk tier by tier), its journal and\n"
    "                       FILE.tiers-parked (the tiers not at work, compressed);\n"
    "                       a solve killed after its database was written:\n"
    "                       nothing to do, its summary read from FILE\n"
    "      --memory SIZE    solve --solver tier -o FILE: refuse at once when\n"
    "                       the tiers need more than SIZE (6G, 500M) of\n"
    "                       records in memory\n"
    "      --second         play: loopy moves first, you second\n"
    "      --positions WHICH\n"
    "                       check: auto (default: every index when there are\n"
    "                       at most the limit of them, else the positions\n"
    "                       nearest the start, breadth first, then as many\n"
    "                       along random games), every, reachable (from the\n"
    "                       start), sample (random indices) or walks (random\n"
    "                       games)\n"
    "      --limit N        check: at most N positions (default 100000; for\n"
    "                       auto, in each part; every: all indices); probe\n"
    "                       -f dot: at most N positions (default 1000)\n"
    "      --seed S         check: the seed of sample and walks (default 0)\n"
    "      --tables DIR     probe, stats, play: read GAME's database from\n"
    "                       DIR/PARAMS.ldb (chess:KRK: DIR/KRK.ldb; a game\n"
    "                       without parameters: DIR/NAME.ldb), where\n"
    "                       'solve GAME -o' put it, instead of solving\n"
    "                       (default $LOOPY_TABLES; without the file, GAME\n"
    "                       is solved, for chess reading its sub-endings\n"
    "                       from DIR where they are); solve (chess): read\n"
    "                       the sub-endings that captures and promotions\n"
    "                       reach from DIR (DIR/KQKP.ldb) instead of\n"
    "                       solving them, for the same database\n"
    "      --build          solve --tables DIR (chess): build the tables:\n"
    "                       each ending that DIR lacks, GAME's own too, is\n"
    "                       solved, smallest first, and written to\n"
    "                       DIR/NAME.ldb holding that ending alone (the\n"
    "                       database holds GAME's own ending alone); in\n"
    "                       memory: the ending being solved, those its\n"
    "                       moves reach, and those read again later while\n"
    "                       they fit in half of memory; run again, a stopped\n"
    "                       build goes on from the tables written\n"
    "      --game GAME      probe, stats, play FILE.ldb: the game of the\n"
    "                       database, when it is not built in (./mygame.so;\n"
    "                       without :PARAMS, the database's); its name,\n"
    "                       parameters and index space must be the\n"
    "                       database's\n";

/* And its end. */
static const char game_usage_end[] =
    "  -o, --output FILE    solve: write the database FILE.ldb (binary: a\n"
    "                       checked header, zstd-compressed blocks, an index;\n"
    "                       written under a temporary name, then renamed;\n"
    "                       never to a terminal).  A game whose name is not\n"
    "                       1 to 64 letters, digits, _ and -, or whose\n"
    "                       parameters pass 255 characters, is refused\n"
    "                       before the solve.  list, probe, stats, check:\n"
    "                       write what they print to FILE (atomically; a\n"
    "                       text, so not to a name ending in .ldb)\n"
    "  -f, --format FORMAT  text (default) or json; probe: also dot, the\n"
    "                       Graphviz graph of the positions reachable from\n"
    "                       POSITION (at most --limit, default 1000),\n"
    "                       coloured by value, best moves bold\n"
    "  -t, --threads N      threads to use (default 0: all cores)\n"
    "  -q, --quiet          no timing or progress line on standard error\n"
    "  -v, --verbose        solve --solver tier or tablebase: a line per\n"
    "                       tier (chess: per ending) solved on standard\n"
    "                       error (indices, seconds, M/s); tier: and the\n"
    "                       working set's bytes per position solved\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
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
       OPT_QUIET, OPT_OUTPUT, OPT_SECOND, OPT_POSITIONS, OPT_LIMIT,
       OPT_SEED, OPT_GAME, OPT_ALL_LEGAL, OPT_TABLES, OPT_RESUME,
       OPT_MEMORY, OPT_VERBOSE, OPT_BUILD };

static const cli_option game_options[] = {
    {"misere", 0, false, OPT_MISERE},
    {"no-symmetry", 0, false, OPT_NO_SYMMETRY},
    {"solver", 0, true, OPT_SOLVER},
    {"format", 'f', true, OPT_FORMAT},
    {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},
    {"verbose", 'v', false, OPT_VERBOSE},
    {"output", 'o', true, OPT_OUTPUT},
    {"second", 0, false, OPT_SECOND},
    {"positions", 0, true, OPT_POSITIONS},
    {"limit", 0, true, OPT_LIMIT},
    {"seed", 0, true, OPT_SEED},
    {"game", 0, true, OPT_GAME},
    {"all-legal", 0, false, OPT_ALL_LEGAL},
    {"resume", 0, false, OPT_RESUME},
    {"memory", 0, true, OPT_MEMORY},
    {"tables", 0, true, OPT_TABLES},
    {"build", 0, false, OPT_BUILD},
    {NULL, 0, false, 0}};


const char game_value_letter[4] = {'D', 'W', 'L', 'T'};

/* The notations are printable ASCII; anything else is escaped. */
void game_out_json_string(cli_out *out, const char *s)
{
    cli_out_char(out, '"');
    while (*s) {
        unsigned char c = (unsigned char)*s;
        size_t len = loopy_text_char(s);
        if (c == '"' || c == '\\') {
            cli_out_char(out, '\\');
            cli_out_char(out, (char)c);
        } else if (len > 0) {
            /* Valid UTF-8 without controls goes as it is. */
            cli_out_bytes(out, s, len);
            s += len;
            continue;
        } else if (c < 0x20 || c == 0x7f) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04x", c);
            cli_out_str(out, esc);
        } else {
            /* A byte of no valid character, or a C1 control's first: the
             * replacement character, so the JSON stays valid UTF-8. */
            cli_out_str(out, "\\ufffd");
        }
        s++;
    }
    cli_out_char(out, '"');
}

static int parse_args(int argc, char **argv, game_args *a)
{
    cli_parser p;
    int id;

    cli_parser_init(&p, "game", game_usage, argc, argv);
    p.usage_more = game_usage_options;
    p.usage_end = game_usage_end;
    while ((id = cli_next(&p, game_options)) != CLI_END) {
        switch (id) {
        case CLI_EXIT:
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            if (a->action == NULL) {
                a->action = p.value;
                /* --help after an action is that action's. */
                if (game_action_help(p.value) != NULL) {
                    p.usage = game_action_help(p.value);
                    p.usage_more = NULL;
                    p.usage_end = NULL;
                }
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
            a->solver_given = true;
            if (strcmp(p.value, "graph") == 0) {
                a->solver = GAME_SOLVER_GRAPH;
            } else if (strcmp(p.value, "retro") == 0) {
                a->solver = GAME_SOLVER_RETRO;
            } else if (strcmp(p.value, "tier") == 0) {
                a->solver = GAME_SOLVER_TIER;
            } else if (strcmp(p.value, "tablebase") == 0) {
                a->solver = GAME_SOLVER_TABLEBASE;
            } else {
                cli_error("game", "--solver: expected 'graph', 'retro', 'tier' "
                          "or 'tablebase', found '%s'", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_FORMAT:
            a->json = strcmp(p.value, "json") == 0;
            a->dot = strcmp(p.value, "dot") == 0;
            if (!a->json && !a->dot && strcmp(p.value, "text") != 0) {
                cli_error("game", "--format: expected 'text', 'json' or "
                          "'dot' (probe), found '%s'", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_TABLES:
            a->tables = p.value;
            break;
        case OPT_BUILD:
            a->solve.build = 1;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("game", p.value, &a->solve.threads))
                return EXIT_USAGE;
            a->threads_given = true;
            break;
        case OPT_VERBOSE:
            a->verbose = true;
            break;
        case OPT_QUIET:
            a->quiet = true;
            break;
        case OPT_OUTPUT:
            a->output = p.value;
            break;
        case OPT_SECOND:
            a->second = true;
            break;
        case OPT_GAME:
            a->db_game = p.value;
            break;
        case OPT_ALL_LEGAL:
            a->solve.all_legal = 1;
            break;
        case OPT_RESUME:
            a->resume = true;
            break;
        case OPT_MEMORY:
            if (!cli_parse_bytes("game", "--memory", p.value, &a->memory))
                return EXIT_USAGE;
            break;
        case OPT_POSITIONS:
            if (!game_check_scope(p.value, &a->check.scope))
                return EXIT_USAGE;
            break;
        case OPT_LIMIT:
            if (!cli_parse_uint("game", "--limit", p.value, 1, UINT64_MAX,
                                &a->check.limit))
                return EXIT_USAGE;
            break;
        case OPT_SEED:
            if (!cli_parse_uint("game", "--seed", p.value, 0, UINT64_MAX,
                                &a->check.seed))
                return EXIT_USAGE;
            break;
        default:
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static int game_list(const game_args *a)
{
    cli_out out;

    if (!cli_out_open(&out, "game", a->output))
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

int game_open(const game_args *a, loopy_game **game)
{
    const char *spec = a->open_spec[0] ? a->open_spec : a->spec;
    loopy_diag diag;
    loopy_status status;

    memset(&diag, 0, sizeof diag);
    status = loopy_game_open(spec, game, &diag);
    if (status != LOOPY_OK) {
        if (status != LOOPY_EINVAL || !cli_unknown_game(game_cmd(a), "", spec))
            cli_error(game_cmd(a), "%s",
                      diag.message[0] ? diag.message : loopy_strerror(status));
        return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
    }
    return EXIT_OK;
}

/* Whether path is the file standard output or error writes to (-o
 * /dev/stdout, -o t.ldb > t.ldb, 2> t.ldb): a regular file, a pipe or a
 * socket, which cli_out writes through that stream, so that the summary
 * or a message would land in the database.  A device (/dev/null) is not:
 * two writers do it no harm. */
static bool is_standard_stream(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && !S_ISCHR(st.st_mode) &&
           !S_ISBLK(st.st_mode) && cli_standard_stream_on(&st) != NULL;
}

/* The folder of databases: --tables, else $LOOPY_TABLES, else NULL. */
static const char *tables_folder(const game_args *a)
{
    const char *dir = a->tables != NULL ? a->tables : getenv("LOOPY_TABLES");

    return dir != NULL && dir[0] != '\0' ? dir : NULL;
}

int game_open_database(const game_args *a, loopy_db **db, loopy_game **game)
{
    int rc;

    /* A database is read, not solved: an option of the solve would be
     * silently ignored. */
    if (a->solver_given) {
        cli_error("game", "%s: --solver: a database is read, not solved",
                  a->db_path);
        return EXIT_USAGE;
    }
    rc = cli_db_open_with(game_cmd(a), a->db_path, a->db_game, a->solve.misere,
                          a->solve.no_symmetry, db, game);
    /* One from the tables folder must hold the game asked for, in the
     * normal play the folder holds. */
    if (rc == EXIT_OK && a->db_path == a->table_path && loopy_db_misere(*db)) {
        cli_error("game", "%s: --tables: a database of misere play, not the "
                  "normal play a folder of tables holds", a->db_path);
        rc = EXIT_INPUT;
    }
    if (rc == EXIT_OK && a->db_path == a->table_path) {
        loopy_game *wanted = NULL;
        rc = game_open(a, &wanted);
        if (rc == EXIT_OK && (strcmp(wanted->name, (*game)->name) != 0 ||
                              strcmp(wanted->params, (*game)->params) != 0)) {
            cli_error("game", "%s: --tables: the database holds %s%s%s, not "
                      "%s%s%s", a->db_path, (*game)->name,
                      (*game)->params[0] ? ":" : "", (*game)->params,
                      wanted->name, wanted->params[0] ? ":" : "",
                      wanted->params);
            rc = EXIT_INPUT;
        }
        loopy_game_close(wanted);
    }
    /* The positions it lacks (a table built alone: those of the
     * sub-endings) from the folder's tables. */
    if (rc == EXIT_OK) {
        const char *dir = tables_folder(a);
        if (dir != NULL && loopy_db_use_tables(*db, dir) != LOOPY_OK) {
            cli_error("game", "out of memory");
            rc = EXIT_RESOURCE;
        }
    }
    return rc;
}

char *game_position_line(char *line, size_t got, bool *nul)
{
    char *text = line, *end = line + got;

    while (end > text && (end[-1] == '\n' || end[-1] == '\r' ||
                          end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *end = '\0';
    *nul = strlen(line) != (size_t)(end - line);
    while (*text == ' ' || *text == '\t')
        text++;
    return *nul || *text == '\0' || *text == '#' ? NULL : text;
}

/* Reads all of standard input into a->stdin_text, for probe to read again
 * through a->stdin_copy, and points *first at its first position (as probe
 * reads lines: game_position_line; NULL when there is none, or its line
 * has a NUL byte or does not fit in line[0 .. capacity)): the position
 * the game's parameters are read from, as from the first argument.
 * EXIT_IO or EXIT_RESOURCE, said, when it cannot. */
static int read_stdin_first(game_args *a, const char **first,
                            char *line, size_t capacity)
{
    size_t length = 0, room = 65536, line_room = 0;
    char *text = malloc(room), *buffer = NULL;
    ssize_t read_length;
    bool nul = false;

    *first = NULL;
    if (text == NULL) {
        cli_error("game", "<stdin>: out of memory");
        return EXIT_RESOURCE;
    }
    for (;;) {
        size_t got = fread(text + length, 1, room - length, stdin);
        length += got;
        if (got == 0)
            break;
        if (length == room) {
            char *more = room <= SIZE_MAX / 2 ? realloc(text, room * 2) : NULL;
            if (more == NULL) {
                free(text);
                cli_error("game", "<stdin>: out of memory after %zu bytes",
                          length);
                return EXIT_RESOURCE;
            }
            text = more;
            room *= 2;
        }
    }
    if (ferror(stdin)) {
        int err = errno;
        free(text);
        cli_error("game", "<stdin>: read failed: %s", strerror(err));
        return EXIT_IO;
    }
    a->stdin_text = text;
    /* fmemopen of no bytes may fail: standard input is at its end then,
     * and probe reads that. */
    if (length > 0 && (a->stdin_copy = fmemopen(text, length, "r")) == NULL) {
        cli_error("game", "<stdin>: %s", strerror(errno));
        return EXIT_RESOURCE;
    }
    /* The first position, read as probe reads it, which then reads the
     * copy again from its start.  A line too long or with a NUL byte
     * names no parameters; probe refuses it in its turn. */
    while (a->stdin_copy != NULL && !nul &&
           (read_length = getline(&buffer, &line_room, a->stdin_copy)) > 0) {
        const char *position =
            game_position_line(buffer, (size_t)read_length, &nul);
        if (position == NULL)
            continue;
        if (strlen(position) < capacity) {
            memcpy(line, position, strlen(position) + 1);
            *first = line;
        }
        break;
    }
    free(buffer);
    if (a->stdin_copy != NULL)
        rewind(a->stdin_copy);
    return EXIT_OK;
}

/* Before an action on a game (not a database) runs: the game to open,
 * with its parameters read from the first position when GAME has none and
 * the game can ("chess" and a FEN: chess:KRK), and its database in the
 * tables folder, when there is one and the action reads databases. */
static int game_resolve(game_args *a, bool reads_database)
{
    const char *dir = tables_folder(a);
    const char *first = NULL;
    loopy_game *game = NULL;
    struct stat st;
    int rc, len;
    char line[512];

    /* The first position: an argument, or the first on standard input
     * ("chess -") when '-' comes first. */
    if (a->position_count > 0 && strcmp(a->positions[0], "-") != 0)
        first = a->positions[0];
    else if (a->position_count > 0 && strchr(a->spec, ':') == NULL &&
             strchr(a->spec, '/') == NULL && strcmp(a->action, "probe") == 0) {
        rc = read_stdin_first(a, &first, line, sizeof line);
        if (rc != EXIT_OK)
            return rc;
    }
    if (first != NULL && strchr(a->spec, ':') == NULL &&
        strchr(a->spec, '/') == NULL) {
        char params[64];
        loopy_diag diag;
        memset(&diag, 0, sizeof diag);
        /* A position that names no parameters is read, and refused, as
         * one of the game's default. */
        if (loopy_game_params_of(a->spec, first, params, sizeof params,
                                 &diag) == LOOPY_OK)
            snprintf(a->open_spec, sizeof a->open_spec, "%s:%s", a->spec,
                     params);
    }
    /* The folder, given or from the environment where it is read. */
    {
        const char *folder = a->tables != NULL ? a->tables
                             : reads_database ? dir : NULL;
        const char *what = a->tables != NULL ? "--tables" : "LOOPY_TABLES";
        if (folder != NULL && stat(folder, &st) != 0) {
            cli_error("game", "%s: %s: %s", what, folder, strerror(errno));
            return EXIT_IO;
        }
        if (folder != NULL && !S_ISDIR(st.st_mode)) {
            cli_error("game", "%s: %s: not a folder", what, folder);
            return EXIT_IO;
        }
    }
    /* The tables hold normal play, one position per class: options that
     * ask for another solve solve. */
    if (!reads_database || dir == NULL || a->solve.misere ||
        a->solve.no_symmetry || a->solver_given || a->db_game != NULL)
        return EXIT_OK;
    rc = game_open(a, &game);
    if (rc != EXIT_OK)
        return rc;
    len = snprintf(a->table_path, sizeof a->table_path, "%s/%s.ldb", dir,
                   game->params[0] ? game->params : game->name);
    if (len <= 0 || (size_t)len >= sizeof a->table_path) {
        cli_error("game", "%s: a path too long for the table of %s%s%s", dir,
                  game->name, game->params[0] ? ":" : "", game->params);
        loopy_game_close(game);
        return EXIT_USAGE;
    }
    /* Its table, when there is one; a name there that is no file (a
     * folder, a link to nothing, one that cannot be looked at) is said,
     * not taken for "no table". */
    {
        const char *why = NULL;
        if (stat(a->table_path, &st) != 0)
            why = errno != ENOENT                    ? strerror(errno)
                  : lstat(a->table_path, &st) == 0 ? "a link to nothing"
                                                   : NULL; /* no table */
        else if (S_ISREG(st.st_mode))
            a->db_path = a->table_path;
        else
            why = "not a regular file";
        if (why != NULL) {
            cli_error("game", "%s: %s", a->table_path, why);
            loopy_game_close(game);
            return EXIT_IO;
        }
    }
    if (a->db_path == NULL && !a->quiet)
        fprintf(stderr, "loopy game: no %s.ldb in %s: solving %s%s%s%s\n",
                game->params[0] ? game->params : game->name, dir, game->name,
                game->params[0] ? ":" : "", game->params,
                loopy_game_has_tablebase(game)
                    ? " (its sub-endings read from there where they are)"
                    : "");
    /* What is solved reads its sub-games from the folder. */
    if (a->db_path == NULL)
        a->solve.tables = dir;
    loopy_game_close(game);
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

int game_lookup(const game_args *a, const loopy_game *game,
                const loopy_game_solution *s, const loopy_db *db,
                loopy_position pos, const char *name, loopy_outcome *outcome,
                uint32_t *remoteness, loopy_game_move **moves, size_t *count)
{
    loopy_diag diag;
    loopy_status status;

    if (db != NULL)
        return cli_db_lookup(db, a->db_path, game, pos, name, outcome,
                             remoteness, moves, count);
    if (loopy_game_solution_value(s, game, pos, outcome, remoteness) !=
        LOOPY_OK) {
        cli_error("game", "%s: not reachable from the start position", name);
        return EXIT_INPUT;
    }
    memset(&diag, 0, sizeof diag);
    status = loopy_game_solution_moves(s, game, pos, moves, count, &diag);
    if (status != LOOPY_OK) {
        cli_error("game", "%s: %s", name, diag.message);
        return cli_exit_status(status);
    }
    return EXIT_OK;
}

void game_move_value(const loopy_game_move *move, loopy_outcome *outcome,
                     uint32_t *remoteness)
{
    /* The mover's value: the opposite of the opponent's, one move
     * further from the end. */
    static const loopy_outcome mover[] = {LOOPY_DRAW, LOOPY_LOSE, LOOPY_WIN,
                                          LOOPY_TIE};

    *outcome = mover[move->outcome];
    *remoteness = move->remoteness + (*outcome != LOOPY_DRAW);
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
    {"stats", true, false, game_stats},
    {"play", true, true, game_play},
    {"check", true, false, game_check},
    {NULL, false, false, NULL}};

/* The action called name, or NULL after "unknown action" (with the
 * nearest one). */
static const game_action *game_find_action(const char *name)
{
    const char *names[sizeof actions / sizeof actions[0]];
    size_t count = 0;
    const char *near;

    for (const game_action *act = actions; act->name != NULL; act++) {
        if (strcmp(act->name, name) == 0)
            return act;
        names[count++] = act->name;
    }
    near = cli_nearest(name, strlen(name), names, count);
    if (near != NULL)
        cli_error("game", "unknown action '%s' (did you mean %s?)", name, near);
    else
        cli_error("game", "unknown action '%s': expected list, solve, "
                  "probe, stats, play or check", name);
    return NULL;
}

int cmd_game_help(const char *action)
{
    if (action != NULL && game_find_action(action) == NULL)
        return EXIT_USAGE;
    if (action != NULL)
        return cli_print_text("game", game_action_help(action));
    if (cli_print_text("game", game_usage) != EXIT_OK ||
        cli_print_text("game", game_usage_options) != EXIT_OK)
        return EXIT_IO;
    return cli_print_text("game", game_usage_end);
}

static int run_action(game_args *a)
{
    const game_action *act;

    if (a->action == NULL) {
        cli_error("game", "expected an action: list, solve, probe, stats, "
                  "play or check (see 'loopy game --help')");
        return EXIT_USAGE;
    }
    act = game_find_action(a->action);
    if (act == NULL)
        return EXIT_USAGE;
    if (a->output != NULL && act->run == game_play) {
        cli_error("game", "-o: play is a conversation on standard input and "
                  "output; it writes no file");
        return EXIT_USAGE;
    }
    /* Only solve writes a database; the others' text is not one. */
    if (a->output != NULL && act->run != game_solve &&
        cli_names_database(a->output)) {
        cli_error("game", "-o: only 'solve' writes a database; %s writes "
                  "text (give a name that does not end in .ldb)", act->name);
        return EXIT_USAGE;
    }
    /* -o must not replace what is read: the database (probe t.ldb -o
     * t.ldb), the game's shared object (solve ./g.so:10 -o g.so), the
     * database's game (--game), or the file standard input reads positions
     * from. */
    if (a->output != NULL &&
        ((a->spec != NULL && !cli_output_not_game("game", a->output, a->spec)) ||
         (a->db_game != NULL &&
          !cli_output_not_game("game", a->output, a->db_game))))
        return EXIT_USAGE;
    for (size_t i = 0; a->output != NULL && i < a->position_count; i++)
        if (strcmp(a->positions[i], "-") == 0 &&
            !cli_output_distinct("game", a->output, NULL))
            return EXIT_USAGE;
    if (a->solve.all_legal && a->solver == GAME_SOLVER_GRAPH) {
        cli_error("game", "--all-legal: only --solver retro and tier solve "
                  "positions that are not reached from the start");
        return EXIT_USAGE;
    }
    if ((a->resume || a->memory != 0) &&
        (strcmp(a->action, "solve") != 0 || a->solver != GAME_SOLVER_TIER ||
         a->output == NULL)) {
        cli_error("game", "%s: only 'solve --solver tier -o FILE' keeps a "
                  "work file on disk", a->resume ? "--resume" : "--memory");
        return EXIT_USAGE;
    }
    if (a->second && strcmp(a->action, "play") != 0) {
        cli_error("game", "--second: only 'play' has players");
        return EXIT_USAGE;
    }
    /* --limit is also the size of probe's graph. */
    if (a->dot && act->run == game_probe) {
        a->dot_limit = a->check.limit != 0 ? a->check.limit : 1000;
        a->check.limit = 0;
    }
    if (a->dot && act->run != game_probe) {
        cli_error("game", "-f dot: only 'probe' draws the graph of positions "
                  "(loopy game probe -f dot GAME [POSITION])");
        return EXIT_USAGE;
    }
    if (a->dot && (a->position_count > 1 ||
                   (a->position_count == 1 &&
                    strcmp(a->positions[0], "-") == 0))) {
        cli_error("game", "-f dot: one POSITION, the graph's root (the start "
                  "when none)");
        return EXIT_USAGE;
    }
    if ((a->check.scope != LOOPY_CHECK_AUTO || a->check.limit != 0 ||
         a->check.seed != 0) && strcmp(a->action, "check") != 0) {
        cli_error("game", "--positions, --limit, --seed: only 'check' "
                  "takes them (and --limit, probe -f dot)");
        return EXIT_USAGE;
    }
    if (a->output != NULL && act->run == game_solve &&
        (strcmp(a->output, "-") == 0 || is_standard_stream(a->output))) {
        cli_error("game", "-o %s: a database is binary, and standard output "
                  "takes the summary (standard error, the messages): give "
                  "the database a file of its own", a->output);
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
    /* A name ending in .ldb is a database, never a game (a game's name has
     * no '.'; a shared object's path has a '/'): one that cannot be read
     * is said so, not taken for an unknown game. */
    if ((act->run == game_probe || act->run == game_stats ||
         act->run == game_play) && strchr(a->spec, '/') == NULL &&
        cli_names_database(a->spec) && !cli_is_database(a->spec)) {
        struct stat st;
        int err = stat(a->spec, &st) != 0 ? errno : EISDIR;
        cli_error("game", "%s: cannot open the database: %s", a->spec,
                  strerror(err));
        return EXIT_IO;
    }
    /* list reads no game: an option of one is a mistake, not ignored. */
    if (strcmp(a->action, "list") == 0) {
        const char *given = a->solve.misere        ? "--misere"
                            : a->solve.no_symmetry ? "--no-symmetry"
                            : a->solver_given      ? "--solver"
                            : a->solve.all_legal   ? "--all-legal"
                            : a->tables != NULL    ? "--tables"
                            : a->solve.build       ? "--build"
                            : a->threads_given     ? "--threads"
                            : a->verbose           ? "--verbose"
                                                   : NULL;
        if (given != NULL) {
            cli_error("game", "list: %s is an option of a game's actions, "
                      "not of list", given);
            return EXIT_USAGE;
        }
    }
    /* check reads the rules and solves nothing. */
    if (act->run == game_check &&
        (a->solve.misere || a->solver_given || a->solve.all_legal)) {
        cli_error("game", "check: --misere, --solver and --all-legal are "
                  "options of a solve; check solves nothing");
        return EXIT_USAGE;
    }
    /* --game names a database's game (game_open_database). */
    if (a->db_game != NULL &&
        (!(strcmp(a->action, "probe") == 0 || strcmp(a->action, "stats") == 0 ||
           strcmp(a->action, "play") == 0) || !cli_is_database(a->spec))) {
        cli_error("game", "--game: only probe, stats and play of a FILE.ldb "
                  "take it (the game of the database); a game to solve is "
                  "given as GAME");
        return EXIT_USAGE;
    }
    if (a->tables != NULL && !(act->run == game_probe || act->run == game_solve ||
                               act->run == game_stats || act->run == game_play)) {
        cli_error("game", "--tables: only solve, probe, stats and play read "
                  "databases from a folder");
        return EXIT_USAGE;
    }
    if (a->solve.build && (act->run != game_solve || a->tables == NULL)) {
        cli_error("game", "--build: only solve --tables DIR builds the "
                  "tables in DIR");
        return EXIT_USAGE;
    }
    if (a->solve.build && a->solve.no_symmetry) {
        cli_error("game", "--build --no-symmetry: the tables hold one "
                  "position per class of symmetric positions");
        return EXIT_USAGE;
    }
    /* solve --tables: the sub-endings from the folder, which holds normal
     * play and is read by the game's own solver. */
    if (a->tables != NULL && act->run == game_solve) {
        if (a->solve.misere || (a->solver_given &&
                                a->solver != GAME_SOLVER_TABLEBASE)) {
            cli_error("game", "solve --tables: the sub-endings' databases "
                      "are read by the game's own solver (--solver "
                      "tablebase, the default for chess) in normal play");
            return EXIT_USAGE;
        }
        a->solve.tables = a->tables;
    }
    {
        bool reads = act->run == game_probe || act->run == game_stats ||
                     act->run == game_play;
        int rc;
        if (reads && cli_is_database(a->spec))
            a->db_path = a->spec;
        else if (act->takes_game &&
                 (rc = game_resolve(a, reads)) != EXIT_OK)
            return rc;
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
    if (a.stdin_copy != NULL)
        fclose(a.stdin_copy);
    free(a.stdin_text);
    return rc;
}
