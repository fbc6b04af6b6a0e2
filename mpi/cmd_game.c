/*
 * cmd_game.c - "loopy-mpi game solve": a game by rules solved across the
 * ranks (game.c), its database written in parts by every rank
 * (db_parts.c).
 */
#include "mpi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "Usage: mpirun [-np P] loopy-mpi game solve [OPTIONS] GAME -o FILE.ldb\n"
    "\n"
    "Solve a game by rules as 'loopy game solve --solver retro' does, on P\n"
    "processes (ranks): the index space is cut into P ranges, each rank\n"
    "holding the words of its own (4 bytes an index); what a position tells\n"
    "a position of another rank is batched and exchanged.  Each rank then\n"
    "compresses the database's blocks of its range and writes them into\n"
    "the one output file (rank 0 writes the header and the block index):\n"
    "the same bytes as loopy's whatever P (through rank 0 where the ranks\n"
    "do not share FILE's file system).  GAME is a built-in game ('loopy\n"
    "game list') or a shared object (./FILE.so[:PARAMS]), the same on every\n"
    "rank.\n"
    "\n"
    "Options:\n"
    "  -o, --output FILE    the database to write (required)\n"
    "      --misere         a player who cannot move wins\n"
    "      --no-symmetry    solve every position, not one of each class of\n"
    "                       symmetric positions\n"
    "      --all-legal      solve every legal index, reachable or not\n"
    "      --solver NAME    retro (the default): as above; tier: tier by\n"
    "                       tier, for a game with tiers: every tier dealt\n"
    "                       to the ranks in chunks, its moves' values asked\n"
    "                       of their ranks (no unmoves() needed when the\n"
    "                       moves leave their tier, as in connect4 and mnk;\n"
    "                       levels within a tier whose moves stay inside\n"
    "                       it, as in chess); each rank keeps its\n"
    "                       chunks in a work file, FILE.tiers.R-of-P,\n"
    "                       mapped, which a failed or killed solve leaves\n"
    "      --resume         with --solver tier: continue a solve that was\n"
    "                       killed or failed, from its work files (the same\n"
    "                       P); one killed after its database was written:\n"
    "                       nothing to do, its summary read from FILE\n"
    "  -q, --quiet          no summary line on standard error\n"
    "  -v, --verbose        with --solver tier: a line per tier reached and\n"
    "                       per tier solved on standard error (indices,\n"
    "                       seconds, M/s), from rank 0\n"
    "      --stats          print the exchanges and bytes sent per rank\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example:\n"
    "  $ mpirun -np 2 loopy-mpi game solve mnk:3,3,3 -o ttt.ldb\n";

enum {
    OPT_OUTPUT,
    OPT_MISERE,
    OPT_NO_SYMMETRY,
    OPT_ALL_LEGAL,
    OPT_QUIET,
    OPT_STATS,
    OPT_SOLVER,
    OPT_RESUME,
    OPT_VERBOSE
};

static const cli_option options[] = {
    {"output", 'o', true, OPT_OUTPUT},       {"misere", 0, false, OPT_MISERE},
    {"no-symmetry", 0, false, OPT_NO_SYMMETRY},
    {"all-legal", 0, false, OPT_ALL_LEGAL},  {"quiet", 'q', false, OPT_QUIET},
    {"stats", 0, false, OPT_STATS},          {"solver", 0, true, OPT_SOLVER},
    {"resume", 0, false, OPT_RESUME},        {"verbose", 'v', false, OPT_VERBOSE},
    {NULL, 0, false, 0}};

typedef struct game_args {
    const char *spec, *output;
    loopy_game_solve_options solve;
    bool quiet, stats;
    bool tier;   /* --solver tier */
    bool resume; /* --resume */
    bool verbose; /* -v: a line per tier */
} game_args;

/* Parses "solve [OPTIONS] GAME" (argv[0] is "game"); EXIT_OK, -1 after
 * --help or --version, or an exit status after a message. */
static int parse(int argc, char **argv, game_args *a)
{
    cli_parser p;
    int id;

    if (argc < 2 || strcmp(argv[1], "solve") != 0) {
        if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
                          strcmp(argv[1], "-h") == 0))
            return cli_print_text("game", usage) == EXIT_OK ? -1 : EXIT_IO;
        if (argc < 2)
            cli_error("game", "which action? loopy-mpi runs 'game solve'");
        else
            cli_error("game", "unknown action '%s': loopy-mpi runs 'game "
                      "solve'", argv[1]);
        return EXIT_USAGE;
    }
    cli_parser_init(&p, "game solve", usage, argc - 1, argv + 1);
    while ((id = cli_next(&p, options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
        case CLI_EXIT:
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            if (a->spec != NULL) {
                cli_error("game solve", "one game at most, found '%s' after "
                          "'%s'", p.value, a->spec);
                return EXIT_USAGE;
            }
            a->spec = p.value;
            break;
        case OPT_OUTPUT:
            a->output = p.value;
            break;
        case OPT_MISERE:
            a->solve.misere = 1;
            break;
        case OPT_NO_SYMMETRY:
            a->solve.no_symmetry = 1;
            break;
        case OPT_ALL_LEGAL:
            a->solve.all_legal = 1;
            break;
        case OPT_SOLVER:
            if (strcmp(p.value, "tier") != 0 && strcmp(p.value, "retro") != 0) {
                cli_error("game solve", "--solver: expected 'retro' or 'tier', "
                          "found '%s'", p.value);
                return EXIT_USAGE;
            }
            a->tier = strcmp(p.value, "tier") == 0;
            break;
        case OPT_RESUME:
            a->resume = true;
            break;
        case OPT_QUIET:
            a->quiet = true;
            break;
        case OPT_STATS:
            a->stats = true;
            break;
        case OPT_VERBOSE:
            a->verbose = true;
            break;
        default:
            return EXIT_USAGE;
        }
    }
    if (a->spec == NULL) {
        cli_error("game solve", "which game? (see 'loopy game list')");
        return EXIT_USAGE;
    }
    if (a->output == NULL || strcmp(a->output, "-") == 0) {
        cli_error("game solve", "a database goes to a file: give -o FILE.ldb "
                  "(under mpirun the ranks' standard output is a terminal)");
        return EXIT_USAGE;
    }
    if (a->verbose && !a->tier) {
        cli_error("game solve", "-v writes a line per tier of --solver tier: "
                  "give --solver tier");
        return EXIT_USAGE;
    }
    if (a->resume && !a->tier) {
        cli_error("game solve", "--resume continues a solve of --solver tier "
                  "(its work files): give --solver tier");
        return EXIT_USAGE;
    }
    /* The game's shared object is read: -o must not replace it. */
    if (!cli_output_not_game("game solve", a->output, a->spec))
        return EXIT_USAGE;
    return EXIT_OK;
}

/* Rank 0's summary: the game, its counts, the ranks, the time and the
 * start's value. */
static void say_solved(const mpi_run *run, const loopy_game *game, uint64_t n,
                       const uint64_t count[4], double seconds,
                       loopy_outcome outcome, uint32_t remoteness)
{
    char text[128];

    fprintf(stderr,
            "loopy-mpi game solve: %s%s%s: %" PRIu64 " positions: %" PRIu64
            " W, %" PRIu64 " L, %" PRIu64 " D, %" PRIu64 " T on %d "
            "rank%s (%.3f s); the start, %s, is %c",
            game->name, game->params[0] ? ":" : "", game->params, n,
            count[LOOPY_WIN], count[LOOPY_LOSE], count[LOOPY_DRAW],
            count[LOOPY_TIE], run->ranks, run->ranks == 1 ? "" : "s", seconds,
            loopy_game_format(game, game->start, text, sizeof text),
            "DWLT"[outcome & 3]);
    if (outcome != LOOPY_DRAW)
        fprintf(stderr, " %" PRIu32, remoteness);
    fputc('\n', stderr);
}

/* Collective, --solver tier --resume: whether the solve had finished.  A
 * solve removes rank 0's journal first once the database is written
 * (mpi_game_words_remove_work), so a kill then leaves the ranks' other
 * files: when rank 0's journal is gone, some rank's file is there and
 * the database is this game's, in the same play and symmetry, every rank
 * removes what is left and rank 0 says so, with the database's summary.
 * false otherwise (the resume then says what is missing). */
static bool finished_before(mpi_run *run, const game_args *a,
                            const loopy_game *game)
{
    size_t len = strlen(a->output) + 64;
    char *work = malloc(len), *journal = malloc(len);
    int mine = 0, any = 0, least = 0, done = 0;
    loopy_game_solve_summary sum;

    if (work != NULL && journal != NULL) {
        snprintf(work, len, "%s.tiers.%d-of-%d", a->output, run->rank,
                 run->ranks);
        snprintf(journal, len, "%s-journal", work);
        mine = cli_exists(work) || cli_exists(journal);
    }
    /* A rank without memory for the names: -1, and the solve is not
     * taken for finished (the resume goes on, and says what fails). */
    if (work == NULL || journal == NULL)
        mine = -1;
    MPI_Allreduce(&mine, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    any = any > 0 && least >= 0;
    if (run->rank == 0 && any && !cli_exists(journal) &&
        cli_db_summary(a->output, game, &a->solve, &sum))
        done = 1;
    MPI_Bcast(&done, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (done && work != NULL && journal != NULL) {
        unlink(journal);
        unlink(work);
    }
    if (done && run->rank == 0 && !a->quiet) {
        fprintf(stderr,
                "loopy-mpi game solve: %s: nothing to resume: the "
                "solve had finished (its database is there; it was stopped "
                "as its ranks removed their work files, which are removed "
                "now)\n",
                a->output);
        say_solved(run, game, sum.positions, sum.count, 0, sum.start_outcome,
                   sum.start_remoteness);
    }
    free(journal);
    free(work);
    return done != 0;
}

static int run_game(mpi_run *run, const game_args *a)
{
    loopy_game *game = NULL;
    mpi_game_words words;
    mpi_stats stats;
    struct timespec start;
    cli_out out;
    bool out_open = false;
    loopy_i_db_source meta;
    db_shape shape;
    loopy_diag diag;
    loopy_status status;
    char *tmp_path = NULL;
    loopy_outcome outcome = LOOPY_DRAW;
    uint32_t remoteness = LOOPY_NONE;

    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(&diag, 0, sizeof diag);
    memset(&stats, 0, sizeof stats);
    memset(&words, 0, sizeof words);
    status = loopy_game_open(a->spec, &game, &diag);
    if (status != LOOPY_OK) /* the statuses of loopy game (cli/game.c) */
        mpi_fail(run, status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status),
                 "%s", diag.message[0] ? diag.message : loopy_strerror(status));
    else if (run->rank == 0 && loopy_db_check_writable(game, &diag) != LOOPY_OK)
        mpi_fail(run, EXIT_INPUT, "%s: %s", a->output, diag.message);
    else if (run->rank == 0) {
        if (!cli_out_open(&out, "game solve", a->output))
            mpi_fail(run, EXIT_IO, "%s", "");
        else if (!cli_out_not_terminal(&out, "game solve"))
            mpi_fail(run, EXIT_USAGE, "%s", "");
        else
            out_open = true;
    }
    if (!mpi_agree(run))
        goto done;
    /* Every rank learns the temporary file's name, for a signal, and to
     * write its blocks there. */
    mpi_share_pending(run, out_open ? out.tmp_path : NULL);
    /* (NULL: no file the ranks share; they send rank 0 their blocks.) */
    tmp_path = mpi_pending_path();
    if (!mpi_agree(run))
        goto done;
    if (a->tier) {
        const char *why;
        int regular = out_open && out.tmp_path != NULL;
        MPI_Bcast(&regular, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!mpi_tier_applies(game, &why))
            mpi_fail(run, EXIT_USAGE, "--solver tier: %s: %s", game->name, why);
        else if (!regular)
            mpi_fail(run, EXIT_USAGE, "--solver tier: %s is not a regular "
                     "file: the ranks' work files go beside the database, "
                     "FILE.tiers.R-of-P", a->output);
        if (mpi_agree(run) && a->resume && finished_before(run, a, game))
            goto done;
        if (!mpi_agree(run) ||
            !mpi_tier_solve(run, game, &a->solve, a->output, a->resume,
                            a->verbose, &words, &stats))
            goto done;
    } else if (!mpi_game_solve(run, game, &a->solve, &words, &stats)) {
        goto done;
    }
    memset(&meta, 0, sizeof meta);
    meta.name = game->name;
    meta.params = game->params != NULL ? game->params : "";
    meta.index_size = game->size;
    meta.misere = a->solve.misere != 0;
    meta.symmetric = words.symmetric;
    if (!mpi_write_words_db(run, &meta, words.part, words.parts, a->output,
                            out_open ? &out : NULL, tmp_path, &shape))
        goto done;
    mpi_game_value(run, game, &words, game->start, &outcome, &remoteness);
    if (run->rank == 0) {
        out_open = false;
        if (!cli_out_close(&out, "game solve"))
            run->status = EXIT_IO; /* said */
    }
    MPI_Bcast(&run->status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (run->status != EXIT_OK)
        goto done;
    /* Saved: the tier solver's work files have served. */
    mpi_game_words_remove_work(&words, run->rank);
    if (a->stats) {
        uint64_t mine[3] = {stats.supersteps, stats.bytes_sent, mpi_peak_kib()};
        uint64_t *all = NULL;
        if (run->rank == 0)
            all = malloc((size_t)run->ranks * sizeof mine);
        MPI_Gather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        for (int r = 0; all != NULL && r < run->ranks; r++)
            fprintf(stderr, "loopy-mpi game solve: rank %d: %" PRIu64
                    " exchanges, %.1f MB sent, peak %.1f MB\n", r, all[3 * r],
                    (double)all[3 * r + 1] / 1e6,
                    (double)all[3 * r + 2] * 1024 / 1e6);
        free(all);
    }
    if (run->rank == 0 && !a->quiet)
        say_solved(run, game, shape.n, shape.count, cli_seconds_since(&start),
                   outcome, remoteness);
done:
    if (out_open)
        cli_out_abort(&out);
    mpi_forget_pending();
    free(tmp_path);
    mpi_game_words_free(&words);
    loopy_game_close(game);
    return run->status;
}

int mpi_cmd_game(mpi_run *run, int argc, char **argv)
{
    static const loopy_game_solve_options defaults = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    game_args a;
    int rc, worst;

    memset(&a, 0, sizeof a);
    a.solve = defaults;
    rc = parse(argc, argv, &a);
    /* Every rank must know that all go on (see main.c). */
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst != EXIT_OK)
        return worst < 0 ? EXIT_OK : worst;
    rc = run_game(run, &a);
    if (rc != EXIT_OK && run->message[0] != '\0' && run->rank == 0) {
        if (run->ranks > 1)
            cli_error("game solve", "rank %d: %s", run->failed_rank, run->message);
        else
            cli_error("game solve", "%s", run->message);
    }
    return rc;
}
