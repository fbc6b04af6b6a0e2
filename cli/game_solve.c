/* game_solve.c - "loopy game solve", and the solve that probe, stats,
 * play and check begin with when they read no database: the solver
 * chosen, the tier solver's work file, the progress shown. */
#include "game.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

game_solver game_solver_of(const game_args *a, const loopy_game *game)
{
    if (a->solver != GAME_SOLVER_DEFAULT)
        return a->solver;
    return loopy_game_has_tablebase(game) ? GAME_SOLVER_TABLEBASE
                                          : GAME_SOLVER_GRAPH;
}

void game_remove_work(const char *output)
{
    /* The journal first: without it, the others are a finished solve's
     * (a solve killed here leaves files that a resume or the next solve
     * removes).  A name memory runs out for stops the removal there. */
    static const char *const parts[] = {"-journal", "", "-parked"};

    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        char *path = game_work_path(output, parts[i]);
        if (path == NULL)
            return;
        unlink(path);
        free(path);
    }
}

char *game_work_path(const char *output, const char *suffix)
{
    size_t len = strlen(output), more = strlen(suffix);
    char *path = malloc(len + sizeof ".tiers" + more);

    if (path != NULL) {
        memcpy(path, output, len);
        memcpy(path + len, ".tiers", sizeof ".tiers" - 1);
        memcpy(path + len + sizeof ".tiers" - 1, suffix, more + 1);
    }
    return path;
}

/* The tier solver with its work file next to the database (-o FILE:
 * FILE.tiers, with its journal and park file), its working set said
 * first, the database written from the park file through out. */
static loopy_status solve_saved(const game_args *a, const loopy_game *game,
                                const loopy_game_solve_options *options,
                                cli_out *out, loopy_game_solve_summary *sum,
                                loopy_diag *diag)
{
    loopy_game_tier_store store;
    loopy_status status;
    uint64_t bytes = 0;
    char *path = game_work_path(a->output, "");

    if (path == NULL)
        return LOOPY_ENOMEM;
    status = loopy_game_tier_working_set(game, &bytes, diag);
    if (status == LOOPY_OK && !a->quiet)
        fprintf(stderr, "loopy game: %s: tiers solved one at a time, %.1f MB "
                "of records in memory at once (the largest tier and the tiers "
                "its moves reach; work file %s)\n", game->name,
                (double)bytes / 1e6, path);
    memset(&store, 0, sizeof store);
    store.path = path;
    store.resume = a->resume;
    store.memory_limit = a->memory;
    if (status == LOOPY_OK)
        status = loopy_game_solve_tiers_saved(game, options, &store,
                                              cli_out_write_at, out, sum,
                                              diag);
    free(path);
    return status;
}

/* -v, after a tier solve: the working set per position solved, and the
 * positions solved per second. */
static void say_working_set(const loopy_game *game, uint64_t n,
                            double seconds)
{
    uint64_t bytes = 0;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    if (loopy_game_tier_working_set(game, &bytes, &diag) != LOOPY_OK || n == 0)
        return;
    fprintf(stderr, "loopy game: %" PRIu64 " positions solved in %.3f s "
            "(%.2f M/s); the working set, %.1f MB, is %.3f bytes per position "
            "solved\n", n, seconds,
            seconds > 0 ? (double)n / seconds / 1e6 : 0, (double)bytes / 1e6,
            (double)bytes / (double)n);
}

/* solve --tables DIR: the game reads its sub-games' tables (its own
 * solver: chess), and -o does not put its database in DIR under another
 * table's name (chess:KPK -o DIR/KQK.ldb would replace the table of KQK
 * that the next solve reads). */
static int check_tables_output(const game_args *a, const loopy_game *game,
                               game_solver solver)
{
    char folder[4096];
    const char *slash, *base, *name;
    struct stat tables, out;
    size_t len;

    if (solver != GAME_SOLVER_TABLEBASE) {
        cli_error("game", "solve --tables: %s has no solver of its own that "
                  "reads its sub-games' tables (chess has)", game->name);
        return EXIT_USAGE;
    }
    if (a->output == NULL)
        return EXIT_OK;
    /* The folder -o writes into: what comes before its last '/'. */
    slash = strrchr(a->output, '/');
    base = slash != NULL ? slash + 1 : a->output;
    len = slash == NULL ? 0 : slash == a->output ? 1 : (size_t)(slash - a->output);
    if (len >= sizeof folder)
        return EXIT_OK;
    memcpy(folder, slash == NULL ? "." : a->output, slash == NULL ? 1 : len);
    folder[slash == NULL ? 1 : len] = '\0';
    name = game->params[0] != '\0' ? game->params : game->name;
    /* The same folder: the same file system and inode. */
    if (stat(a->tables, &tables) != 0 || stat(folder, &out) != 0 ||
        tables.st_dev != out.st_dev || tables.st_ino != out.st_ino ||
        (strncmp(base, name, strlen(name)) == 0 &&
         strcmp(base + strlen(name), ".ldb") == 0))
        return EXIT_OK;
    cli_error("game", "solve --tables %s -o %s: in the tables' folder, "
              "%s%s%s's database is %s.ldb (another name there would be "
              "read as another ending's table, or as none)",
              a->tables, a->output, game->name, game->params[0] ? ":" : "",
              game->params, name);
    return EXIT_USAGE;
}

/* A progress line on a terminal (not with -q); with -v, a line per tier
 * solved, wherever standard error goes. */
static void start_progress(const game_args *a, cli_progress *progress,
                           loopy_game_solve_options *options)
{
    memset(progress, 0, sizeof *progress);
    if (!a->quiet || a->verbose) {
        cli_progress_attach(progress, game_cmd(a), &options->progress,
                            &options->progress_ctx);
        progress->enabled = progress->enabled && !a->quiet;
        progress->log_tiers = a->verbose;
    }
}

/* solve --resume, its work file or park file there and its journal not:
 * the solve that left them had finished.  It removes its journal first,
 * once its database is written (game_remove_work), so a kill then leaves
 * the rest; nothing else leaves a work file without its journal.  When
 * the database is there and is this game's, in the same play and
 * symmetry, *sum is read from it and true is returned; false otherwise
 * (the resume then says the journal is missing). */
static bool finished_before(const game_args *a, const loopy_game *game,
                            loopy_game_solve_summary *sum)
{
    char *work = game_work_path(a->output, "");
    char *journal = game_work_path(a->output, "-journal");
    char *parked = game_work_path(a->output, "-parked");
    bool done = work != NULL && journal != NULL && parked != NULL &&
                !cli_exists(journal) &&
                (cli_exists(work) || cli_exists(parked)) &&
                cli_db_summary(a->output, game, &a->solve, sum);

    free(parked);
    free(journal);
    free(work);
    return done;
}

/* solve --solver tier -o FILE (a file of its own): solved with its work
 * on disk, the database written to out from the park file and closed
 * (aborted on failure); the counts and the start's value in *sum.  With
 * --resume, a solve that had finished: out aborted, the leftovers
 * removed, *sum read from the database, *seconds -1 (none ran). */
static int game_solve_saved(const game_args *a, const loopy_game *game,
                            cli_out *out, loopy_game_solve_summary *sum,
                            double *seconds)
{
    loopy_game_solve_options options = a->solve;
    cli_progress progress;
    struct timespec start;
    loopy_status status;
    loopy_diag diag;
    int error;

    if (a->tables != NULL) {
        int rc = check_tables_output(a, game, GAME_SOLVER_TIER);
        if (rc != EXIT_OK) {
            cli_out_abort(out);
            return rc;
        }
    }
    if (a->resume && finished_before(a, game, sum)) {
        cli_out_abort(out);
        game_remove_work(a->output);
        if (!a->quiet)
            fprintf(stderr,
                    "loopy game: %s: nothing to resume: the solve "
                    "had finished (its database is there; it was stopped as "
                    "it removed its work files, which are removed now)\n",
                    a->output);
        *seconds = -1;
        return EXIT_OK;
    }
    start_progress(a, &progress, &options);
    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(&diag, 0, sizeof diag);
    status = solve_saved(a, game, &options, out, sum, &diag);
    *seconds = cli_seconds_since(&start);
    cli_progress_end(&progress);
    /* The reason a write failed, before the abort's calls change errno. */
    error = out->error;
    if (status != LOOPY_OK) {
        cli_out_abort(out);
        if (status == LOOPY_EIO && error != 0)
            cli_error("game", "%s: write failed: %s", a->output,
                      strerror(error));
        else
            cli_error("game", "%s", diag.message[0] ? diag.message
                                                    : loopy_strerror(status));
        return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
    }
    if (!cli_out_close(out, "game"))
        return EXIT_IO;
    /* Saved: the work file has served. */
    game_remove_work(a->output);
    if (a->verbose)
        say_working_set(game, sum->positions, *seconds);
    return EXIT_OK;
}

int game_solve_open(const game_args *a, const loopy_game *game,
                    loopy_game_solution **solution, double *seconds)
{
    loopy_diag diag;
    loopy_status status;
    struct timespec start;
    game_solver solver = game_solver_of(a, game);
    loopy_game_solve_options options = a->solve;
    cli_progress progress;

    if (a->tables != NULL && strcmp(a->action, "solve") == 0) {
        int rc = check_tables_output(a, game, solver);
        if (rc != EXIT_OK)
            return rc;
    }
    if (a->solve.all_legal && solver == GAME_SOLVER_GRAPH) {
        cli_error(game_cmd(a),
                  "--all-legal: only --solver retro and tier solve "
                  "positions that are not reached from the start");
        return EXIT_USAGE;
    }
    start_progress(a, &progress, &options);
    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(&diag, 0, sizeof diag);
    switch (solver) {
    case GAME_SOLVER_RETRO:
        status = loopy_game_solve_retro(game, &options, solution, &diag);
        break;
    case GAME_SOLVER_TIER:
        /* (solve -o FILE keeps its work on disk: game_solve_saved.) */
        status = loopy_game_solve_tiers(game, &options, solution, &diag);
        break;
    case GAME_SOLVER_TABLEBASE:
        status = loopy_game_solve_tablebase(game, &options, solution, &diag);
        break;
    default:
        status = loopy_game_solve_graph(game, &options, solution, &diag);
        break;
    }
    *seconds = cli_seconds_since(&start);
    cli_progress_end(&progress);
    if (status != LOOPY_OK) {
        cli_error(game_cmd(a), "%s",
                  diag.message[0] ? diag.message : loopy_strerror(status));
        /* --solver retro for a game without unmoves, --solver tablebase
         * for a game without its own: the command line's fault, not the
         * game's. */
        return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
    }
    if (a->verbose && solver == GAME_SOLVER_TIER)
        say_working_set(game, loopy_game_solution_size(*solution), *seconds);
    return EXIT_OK;
}

int game_open_and_solve(const game_args *a, loopy_game **game,
                          loopy_game_solution **solution, double *seconds)
{
    loopy_diag diag;
    int rc = game_open(a, game);

    if (rc != EXIT_OK)
        return rc;
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
    return game_solve_open(a, *game, solution, seconds);
}

int game_solve(const game_args *a)
{
    loopy_game *game = NULL;
    loopy_game_solution *s = NULL;
    loopy_game_solve_summary sum;
    loopy_outcome outcome;
    uint32_t remoteness;
    double seconds;
    char text[256];
    cli_out out, db_out;
    bool db_open = false, all_legal;
    game_solver solver;
    int rc;

    /* The database is opened first, so that a bad -o fails before the
     * solve; it is complete before the summary goes out. */
    if (a->output != NULL && !(db_open = cli_out_open(&db_out, "game", a->output)))
        return EXIT_IO;
    /* A binary file is never written to a terminal (-o /dev/tty). */
    if (db_open && !cli_out_not_terminal(&db_out, "game"))
        return EXIT_USAGE;
    rc = game_open(a, &game);
    if (rc != EXIT_OK)
        goto done;
    /* A name the database cannot record (a shared object may give any)
     * is refused now, not after the solve. */
    if (db_open) {
        loopy_diag diag;
        memset(&diag, 0, sizeof diag);
        if (loopy_db_check_writable(game, &diag) != LOOPY_OK) {
            cli_error("game", "%s: %s", a->output, diag.message);
            rc = EXIT_INPUT;
            goto done;
        }
    }
    if (db_open && game_solver_of(a, game) == GAME_SOLVER_TIER &&
        cli_out_positional(&db_out)) {
        /* The tier solver with its work on disk beside the database; for
         * an output that is not a file of its own (/dev/null, a FIFO),
         * the work stays in memory. */
        db_open = false;
        rc = game_solve_saved(a, game, &db_out, &sum, &seconds);
        if (rc != EXIT_OK)
            goto done;
    } else {
        rc = game_solve_open(a, game, &s, &seconds);
        if (rc != EXIT_OK)
            goto done;
        if (db_open) {
            db_open = false;
            rc = cli_db_write_game(&db_out, a->output, s, game,
                                   a->solve.misere);
            if (rc != EXIT_OK)
                goto done;
        }
        sum.positions = loopy_game_solution_size(s);
        for (int k = 0; k < 4; k++)
            sum.count[k] = loopy_game_solution_count(s, (loopy_outcome)k);
        sum.start_outcome = LOOPY_DRAW;
        sum.start_remoteness = LOOPY_NONE;
        loopy_game_solution_value(s, game, game->start, &sum.start_outcome,
                                  &sum.start_remoteness);
    }
    outcome = sum.start_outcome;
    remoteness = sum.start_remoteness;
    /* The solver without moves may solve every legal index, reached or
     * not, and the game's own always does: the summary says which it
     * counts. */
    solver = game_solver_of(a, game);
    all_legal = solver == GAME_SOLVER_TABLEBASE ||
                ((solver == GAME_SOLVER_RETRO || solver == GAME_SOLVER_TIER) &&
                 a->solve.all_legal);
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
        /* Which positions "positions" counts: those reached from the
         * start, or every legal index. */
        cli_out_str(&out, solver == GAME_SOLVER_RETRO
                              ? ", \"solver\": \"retro\""
                          : solver == GAME_SOLVER_TIER
                              ? ", \"solver\": \"tier\""
                          : solver == GAME_SOLVER_TABLEBASE
                              ? ", \"solver\": \"tablebase\""
                              : ", \"solver\": \"graph\"");
        /* A build's solution: the game's own ending alone. */
        cli_out_str(&out, a->solve.build ? ", \"solved\": \"ending\""
                          : all_legal    ? ", \"solved\": \"legal\""
                                         : ", \"solved\": \"reached\"");
        cli_out_str(&out, ", \"index_size\": ");
        cli_out_u64(&out, game->size);
        cli_out_str(&out, ", \"positions\": ");
        cli_out_u64(&out, sum.positions);
        for (int k = 1; k <= 4; k++) {
            loopy_outcome o = (loopy_outcome)(k % 4);
            static const char *const names[] = {"draw", "win", "lose", "tie"};
            cli_out_str(&out, ", \"");
            cli_out_str(&out, names[o]);
            cli_out_str(&out, "\": ");
            cli_out_u64(&out, sum.count[o]);
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
        cli_out_u64(&out, sum.positions);
        cli_out_str(&out, sum.positions == 1 ? " position" : " positions");
        cli_out_str(&out, a->solve.build ? " solved (every legal index of "
                                           "its own ending)"
                          : all_legal      ? " solved (every legal index)"
                                           : " reached");
        cli_out_str(&out, game->canonical && !a->solve.no_symmetry
                              ? ", up to symmetry\n" : "\n");
        cli_out_str(&out, "  W ");
        cli_out_u64(&out, sum.count[LOOPY_WIN]);
        cli_out_str(&out, "  L ");
        cli_out_u64(&out, sum.count[LOOPY_LOSE]);
        cli_out_str(&out, "  T ");
        cli_out_u64(&out, sum.count[LOOPY_TIE]);
        cli_out_str(&out, "  D ");
        cli_out_u64(&out, sum.count[LOOPY_DRAW]);
        cli_out_str(&out, "\n  start ");
        cli_out_str(&out, text);
        cli_out_str(&out, ": ");
        game_out_value(&out, outcome, remoteness);
        cli_out_char(&out, '\n');
    }
    if (!cli_out_close(&out, "game"))
        rc = EXIT_IO;
    if (rc == EXIT_OK && !a->quiet && seconds >= 0)
        fprintf(stderr, "loopy game: solved in %.3f s\n", seconds);
done:
    if (db_open)
        cli_out_abort(&db_out);
    loopy_game_solution_free(s);
    loopy_game_close(game);
    return rc;
}
