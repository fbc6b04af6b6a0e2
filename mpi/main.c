/*
 * main.c - loopy-mpi: "loopy solve" of a binary game graph on Open MPI,
 * with the output of the single-process solver, byte for byte.
 *
 *     mpirun -np 4 loopy-mpi solve graph.lgr -o solution.txt
 */
#include "mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
    "Usage: mpirun [-np P] loopy-mpi solve [OPTIONS] FILE\n"
    "       mpirun [-np P] loopy-mpi game solve [OPTIONS] GAME -o FILE.ldb\n"
    "       (see 'loopy-mpi game --help')\n"
    "\n"
    "Solve a game graph as 'loopy solve' does, on P processes (ranks) of an\n"
    "MPI run, on one machine or a cluster.  FILE is a binary graph (make one\n"
    "with 'loopy convert GRAPH -o FILE.lgr'), at the same path on every\n"
    "rank; each rank maps only its share of it: a range of vertices with\n"
    "their predecessor lists.  The output is that of 'loopy solve', byte\n"
    "for byte, whatever P; rank 0 writes text and JSON, and every rank its\n"
    "own blocks of a database (on a file system all ranks see).\n"
    "\n"
    "Options:\n"
    "      --base B         number of the first vertex in the output: 1 or 0\n"
    "                       (default: that of the text the file was made from)\n"
    "      --misere         a player who cannot move wins (default: loses)\n"
    "      --lose-at LIST   comma-separated vertices where the game is over and\n"
    "                       the player to move has lost; may be repeated\n"
    "      --win-at LIST    likewise, where the player to move has won\n"
    "      --tie-at LIST    likewise, where the game is a tie: nobody wins\n"
    "  -f, --format FMT     text (default): 'VERTEX OUTCOME REMOTENESS MOVE'\n"
    "                       per line, '-' where none applies; json: the same\n"
    "                       as a JSON document; ldb: a database for\n"
    "                       loopy_db_probe, to a file (each rank writes\n"
    "                       its own blocks; the default for -o FILE.ldb)\n"
    "  -o, --output FILE    write to FILE (atomically, by rank 0) instead of\n"
    "                       standard output, which passes through mpirun:\n"
    "                       slower, and a failed write there goes unreported\n"
    "  -q, --quiet          no summary line on standard error\n"
    "      --stats          print the exchanges, the bytes each rank sent and\n"
    "                       mapped, and its peak memory on standard error\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example, two ranks on this machine:\n"
    "  $ loopy convert examples/game.txt -o game.lgr\n"
    "  $ mpirun -np 2 loopy-mpi solve game.lgr\n"
    "\n"
    "A failure on any rank (a file it cannot open or map, memory it cannot\n"
    "get, a damaged file) stops every rank with one message (naming the\n"
    "first rank that failed, when there are several), and no output file.  Exit status: 0 success, 1 input rejected, 2 bad\n"
    "command line, 3 file not readable or not writable, 4 too large for\n"
    "memory or for 32-bit vertex ids.\n";

enum {
    OPT_BASE,
    OPT_MISERE,
    OPT_LOSE_AT,
    OPT_WIN_AT,
    OPT_TIE_AT,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_QUIET,
    OPT_STATS
};

static const cli_option options[] = {
    {"base", 0, true, OPT_BASE},       {"misere", 0, false, OPT_MISERE},
    {"lose-at", 0, true, OPT_LOSE_AT}, {"win-at", 0, true, OPT_WIN_AT},
    {"tie-at", 0, true, OPT_TIE_AT},   {"format", 'f', true, OPT_FORMAT},
    {"output", 'o', true, OPT_OUTPUT}, {"quiet", 'q', false, OPT_QUIET},
    {"stats", 0, false, OPT_STATS},    {NULL, 0, false, 0}};

typedef struct args {
    const char *input, *output;
    uint64_t base; /* UINT64_MAX: the file's */
    bool misere, quiet, stats, format_given;
    mpi_format format;
    cli_target_args targets;
} args;

/* Parses the command line (every rank does, the same way; only rank 0
 * prints).  Returns EXIT_OK, -1 after --help or --version, or a status. */
static int parse(int argc, char **argv, args *a)
{
    cli_parser p;
    int id;

    if (argc < 2 || strcmp(argv[1], "solve") != 0) {
        if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
                          strcmp(argv[1], "-h") == 0))
            return cli_print_text(NULL, usage) == EXIT_OK ? -1 : EXIT_IO;
        if (argc >= 2 && (strcmp(argv[1], "--version") == 0 ||
                          strcmp(argv[1], "-V") == 0))
            return cli_print_text(NULL, "loopy-mpi " LOOPY_VERSION_STRING "\n")
                           == EXIT_OK ? -1 : EXIT_IO;
        cli_error(NULL, argc < 2 ? "no command: it runs 'solve' and 'game "
                                   "solve' (see 'loopy-mpi --help')"
                                 : "unknown command '%s': it runs 'solve' and "
                                   "'game solve' (see 'loopy-mpi --help')",
                  argv[argc < 2 ? 0 : 1]);
        return EXIT_USAGE;
    }
    cli_parser_init(&p, "solve", usage, argc - 1, argv + 1);
    while ((id = cli_next(&p, options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
        case CLI_EXIT:
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            if (a->input != NULL) {
                cli_error("solve", "one input file at most, found '%s' after "
                          "'%s'", p.value, a->input);
                return EXIT_USAGE;
            }
            a->input = p.value;
            break;
        case OPT_BASE:
            if (!cli_parse_uint("solve", "--base", p.value, 0, 1, &a->base))
                return EXIT_USAGE;
            break;
        case OPT_MISERE:
            a->misere = true;
            break;
        case OPT_LOSE_AT:
        case OPT_WIN_AT:
        case OPT_TIE_AT:
            if (!cli_parse_list("solve", id == OPT_LOSE_AT  ? "--lose-at"
                                         : id == OPT_WIN_AT ? "--win-at"
                                                            : "--tie-at",
                                p.value,
                                id == OPT_LOSE_AT  ? &a->targets.lose_at
                                : id == OPT_WIN_AT ? &a->targets.win_at
                                                   : &a->targets.tie_at,
                                id == OPT_LOSE_AT  ? &a->targets.lose_at_count
                                : id == OPT_WIN_AT ? &a->targets.win_at_count
                                                   : &a->targets.tie_at_count))
                return EXIT_USAGE;
            break;
        case OPT_FORMAT:
            a->format_given = true;
            if (strcmp(p.value, "text") == 0) {
                a->format = MPI_FORMAT_TEXT;
            } else if (strcmp(p.value, "json") == 0) {
                a->format = MPI_FORMAT_JSON;
            } else if (strcmp(p.value, "ldb") == 0) {
                a->format = MPI_FORMAT_LDB;
            } else {
                cli_error("solve", "--format: expected 'text', 'json' or 'ldb',"
                          " found '%s' (loopy-mpi draws no dot: use 'loopy "
                          "solve' for it)", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_OUTPUT:
            a->output = p.value;
            break;
        case OPT_QUIET:
            a->quiet = true;
            break;
        case OPT_STATS:
            a->stats = true;
            break;
        default:
            return EXIT_USAGE;
        }
    }
    if (!a->format_given && cli_names_database(a->output))
        a->format = MPI_FORMAT_LDB;
    /* The ranks' standard output is a terminal under mpirun, wherever
     * mpirun's goes: a database can only go to a file. */
    if (a->format == MPI_FORMAT_LDB &&
        (a->output == NULL || strcmp(a->output, "-") == 0)) {
        cli_error("solve", "a database goes to a file: give -o FILE.ldb "
                  "(under mpirun the ranks' standard output is a terminal, "
                  "even when mpirun's is redirected)");
        return EXIT_USAGE;
    }
    if (a->input == NULL || strcmp(a->input, "-") == 0) {
        cli_error("solve", "a binary graph FILE is needed: each rank maps its "
                  "share of it, so standard input will not do (see "
                  "'loopy-mpi --help')");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static void print_stats(const mpi_run *run, const mpi_part *part,
                        const mpi_solution *sol, const double t[4])
{
    uint64_t mine[7] = {part->hi - part->lo,
                        part->rev_offset[part->hi - part->lo] - part->edge_lo,
                        part->mapped, sol->stats.level_bytes,
                        sol->stats.most_sent, mpi_peak_kib(),
                        sol->stats.bytes_sent - sol->stats.level_bytes};
    uint64_t *all = run->rank == 0 ? malloc((size_t)run->ranks * sizeof mine)
                                   : NULL;

    MPI_Gather(mine, 7, MPI_UINT64_T, all, 7, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (run->rank != 0 || all == NULL)
        return;
    fprintf(stderr, "loopy-mpi solve: %" PRIu64 " supersteps of the levels, %"
            PRIu64 " of the best moves\n", sol->stats.supersteps,
            sol->stats.best_exchanges);
    fprintf(stderr, "loopy-mpi solve: seconds: %.3f opening and checking the "
            "shares, %.3f solving, %.3f writing\n", t[1] - t[0], t[2] - t[1],
            t[3] - t[2]);
    for (int r = 0; r < run->ranks; r++) {
        const uint64_t *s = all + 7 * r;
        fprintf(stderr, "loopy-mpi solve: rank %d: %" PRIu64 " vertices, %"
                PRIu64 " predecessor edges, %.1f MB mapped, %.1f MB sent in "
                "the levels and %.1f MB in the best moves (at most %.1f MB in "
                "one exchange), peak %.1f MB\n", r, s[0], s[1],
                (double)s[2] / 1e6, (double)s[3] / 1e6, (double)s[6] / 1e6,
                (double)s[4] / 1e6, (double)s[5] * 1024 / 1e6);
    }
    free(all);
}

/* The run after the command line: every rank takes part in every step. */
static int run_solve(mpi_run *run, args *a)
{
    static const loopy_solve_options defaults = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_solve_options opt = defaults;
    cli_targets targets;
    struct timespec start;
    mpi_part part;
    mpi_solution sol;
    cli_out out;
    bool out_open = false;
    double t[4];
    int rc;

    clock_gettime(CLOCK_MONOTONIC, &start);
    t[0] = MPI_Wtime();
    memset(&sol, 0, sizeof sol);
    memset(&targets, 0, sizeof targets);
    /* Rank 0 opens the output first, so that a bad -o fails at once. */
    if (run->rank == 0) {
        if (!cli_output_distinct("solve", a->output, a->input))
            mpi_fail(run, EXIT_USAGE, "%s", "");
        else if (!cli_out_open(&out, "solve", a->output))
            mpi_fail(run, EXIT_IO, "%s", "");
        else if (a->format == MPI_FORMAT_LDB && !cli_out_not_terminal(&out, "solve"))
            mpi_fail(run, EXIT_USAGE, "%s", ""); /* -o /dev/tty */
        else
            out_open = true;
    }
    if (!mpi_agree(run))
        return run->status;
    /* Every rank learns the temporary file's name, for a signal. */
    mpi_share_pending(run, out_open ? out.tmp_path : NULL);
    if (!mpi_part_open(run, a->input, &part))
        goto fail;
    t[1] = MPI_Wtime();
    if (a->base != UINT64_MAX)
        part.base = (uint32_t)a->base;
    opt.misere = a->misere;
    /* Every rank checks the targets; rank 0 says what is wrong. */
    rc = cli_solve_targets(run->rank == 0 ? "solve" : NULL, &a->targets,
                           part.base, part.n, &targets, &opt);
    if (rc != EXIT_OK)
        mpi_fail(run, rc, "%s", "");
    if (!mpi_agree(run))
        goto fail_part;
    if (!mpi_solve(run, &part, &opt, &sol))
        goto fail_part;
    t[2] = MPI_Wtime();
    if (a->format == MPI_FORMAT_LDB ? !mpi_write_db(run, &part, &sol, a->misere,
                                                 a->output, &out)
                                    : !mpi_write(run, &part, &sol, a->format, &opt, &out))
        goto fail_part;
    rc = EXIT_OK;
    if (run->rank == 0) {
        out_open = false;
        if (!cli_out_close(&out, "solve"))
            rc = EXIT_IO;
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_forget_pending();
    t[3] = MPI_Wtime();
    if (rc == EXIT_OK && a->stats)
        print_stats(run, &part, &sol, t);
    if (rc == EXIT_OK && !a->quiet && run->rank == 0) {
        char ties[40] = "";
        if (opt.tie_at_count > 0)
            snprintf(ties, sizeof ties, ", %" PRIu64 " T", sol.count[LOOPY_TIE]);
        fprintf(stderr, "loopy-mpi solve: %s: %" PRIu64 " position%s, %" PRIu64
                " move%s: %" PRIu64 " W, %" PRIu64 " L, %" PRIu64 " D%s on %d "
                "rank%s (%.3f s)\n", a->input, part.n, part.n == 1 ? "" : "s",
                part.m, part.m == 1 ? "" : "s", sol.count[LOOPY_WIN],
                sol.count[LOOPY_LOSE], sol.count[LOOPY_DRAW], ties, run->ranks,
                run->ranks == 1 ? "" : "s", cli_seconds_since(&start));
    }
    mpi_solution_free(&sol);
    cli_solve_targets_free(&targets);
    mpi_part_close(&part);
    return rc;

fail_part:
    mpi_solution_free(&sol);
    cli_solve_targets_free(&targets);
    mpi_part_close(&part);
fail:
    if (out_open)
        cli_out_abort(&out);
    mpi_forget_pending();
    return run->status;
}

int main(int argc, char **argv)
{
    mpi_run run;
    args a;
    int rc;

    MPI_Init(&argc, &argv);
    mpi_run_init(&run);
    /* After MPI_Init, which may set handlers of its own: a signal removes
     * the temporary file of the output rank 0 writes. */
    mpi_catch_signals();
    cli_program = "loopy-mpi";
    memset(&a, 0, sizeof a);
    a.base = UINT64_MAX;
    /* Every rank parses the same words; only rank 0 speaks (and writes the
     * output). */
    if (run.rank != 0 && (freopen("/dev/null", "w", stderr) == NULL ||
                          freopen("/dev/null", "w", stdout) == NULL)) {
        MPI_Abort(MPI_COMM_WORLD, EXIT_IO);
        return EXIT_IO;
    }
    if (argc >= 2 && strcmp(argv[1], "game") == 0) {
        rc = mpi_cmd_game(&run, argc - 1, argv + 1);
        MPI_Finalize();
        return rc;
    }
    rc = parse(argc, argv, &a);
    /* Every rank parsed the same words, but each must know that all will
     * go on: a rank that stopped alone would leave the others waiting. */
    {
        int worst;
        MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        rc = worst;
    }
    if (rc == EXIT_OK) {
        rc = run_solve(&run, &a);
        if (rc != EXIT_OK && run.message[0] != '\0' && run.rank == 0) {
            if (run.ranks > 1)
                cli_error("solve", "rank %d: %s", run.failed_rank, run.message);
            else
                cli_error("solve", "%s", run.message);
        }
    }
    rc = rc < 0 ? EXIT_OK : rc;
    free(a.targets.lose_at);
    free(a.targets.win_at);
    free(a.targets.tie_at);
    MPI_Finalize();
    return rc;
}
