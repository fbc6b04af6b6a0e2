/* solve.c - "loopy solve": classify every position of a game graph. */
#include "solve_common.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char solve_usage[] =
    "Usage: loopy solve [OPTIONS] [FILE]\n"
    "\n"
    "Classify every position of a game played on a directed graph as a Win,\n"
    "Lose, Tie or Draw for the player to move, with its remoteness (moves to\n"
    "the end under best play: the winner hurries, the loser delays) and a best\n"
    "move.  Reads FILE, or standard input when FILE is absent or '-': text, or\n"
    "loopy's binary format (see 'loopy convert'), recognised by its first bytes;\n"
    "either may be compressed with gzip or zstd (also recognised by its first\n"
    "bytes; messages give places in the decompressed text).\n"
    "\n"
    "Options:\n"
    "  -i, --input FORMAT   edges (default): a line 'n m', then m lines 'u v',\n"
    "                       one move u -> v each;\n"
    "                       adj: a line 'n m', then one line per vertex: its\n"
    "                       number of moves k and its k successors;\n"
    "                       pairs: lines 'u v' without the line 'n m', as\n"
    "                       SNAP and KONECT ship them ('%' starts a comment\n"
    "                       too); n is the largest vertex number (+1 with\n"
    "                       --base 0)\n"
    "      --base B         number of the first vertex: 1 or 0 (default: 1;\n"
    "                       for a binary file, that of its text)\n"
    "      --misere         a player who cannot move wins (default: loses)\n"
    "      --lose-at LIST   comma-separated vertices where the game is over and\n"
    "                       the player to move has lost (e.g. 'whoever moves\n"
    "                       the token onto v wins'); may be repeated\n"
    "      --win-at LIST    likewise, where the player to move has won\n"
    "      --tie-at LIST    likewise, where the game is a tie: nobody wins\n"
    "  -f, --format FMT     text (default): 'VERTEX OUTCOME REMOTENESS MOVE'\n"
    "                       per line, '-' where none applies;\n"
    "                       json: the same as a JSON document, with the\n"
    "                       base, play and target lists;\n"
    "                       dot: a Graphviz graph coloured by outcome (W\n"
    "                       green, L red, D yellow, T blue);\n"
    "                       ldb: a database of every position's value and\n"
    "                       remoteness, for the library's loopy_db_probe\n"
    "                       (binary: not to a terminal; the default for\n"
    "                       -o FILE.ldb)\n"
    "  -o, --output FILE    write to FILE (atomically: a temporary file is\n"
    "                       renamed when complete) instead of standard output\n"
    "  -t, --threads N      threads to use (default 0: all cores; more than the\n"
    "                       processors counts as that many); the output does\n"
    "                       not depend on it\n"
    "  -q, --quiet          no summary line on standard error (a progress line\n"
    "                       shows there during long runs when it is a terminal)\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Outcomes: W the player to move wins, L loses, T neither can win but best\n"
    "play ends in a tie (a --tie-at vertex), D neither can force an end.\n"
    "Blank lines and lines starting with '#' are ignored in the input.\n"
    "\n"
    "Example: a path 1 -> 2 -> 3 with a loop 1 -> 1\n"
    "  $ printf '3 3\\n1 2\\n2 3\\n1 1\\n' | loopy solve -q\n"
    "  1 D - 1\n"
    "  2 W 1 3\n"
    "  3 L 0 -\n"
    "\n"
    "Exit status: 0 success, 1 input rejected (the message names file, line\n"
    "and column), 2 bad command line, 3 file not readable or not writable,\n"
    "4 too large for memory or for 32-bit vertex ids.\n";

enum {
    OPT_INPUT,
    OPT_BASE,
    OPT_MISERE,
    OPT_LOSE_AT,
    OPT_WIN_AT,
    OPT_TIE_AT,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_THREADS,
    OPT_QUIET
};

static const cli_option solve_options[] = {
    {"input", 'i', true, OPT_INPUT},     {"base", 0, true, OPT_BASE},
    {"misere", 0, false, OPT_MISERE},    {"lose-at", 0, true, OPT_LOSE_AT},
    {"win-at", 0, true, OPT_WIN_AT},     {"format", 'f', true, OPT_FORMAT},
    {"output", 'o', true, OPT_OUTPUT},   {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},    {"tie-at", 0, true, OPT_TIE_AT},
    {NULL, 0, false, 0}};

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_DOT, FORMAT_LDB } output_format;

typedef struct solve_args {
    loopy_read_options read;
    loopy_solve_options solve;
    output_format format;
    bool format_given; /* -f: else -o *.ldb writes a database */
    const char *input;
    const char *output;
    bool quiet;
    cli_target_args targets; /* as given, in the input's numbering */
} solve_args;

static const char outcome_letter[] = {'D', 'W', 'L', 'T'};

/* Vertices per thread per round of the parallel writer. */
#define TEXT_CHUNK 32768u

/* The lines of a large graph are a good part of a whole run, so threads
 * format chunks of lines side by side into buffers of their own, which are
 * then written in order; small solutions go straight into the output
 * buffer.  The bytes do not depend on the thread count. */
static void write_text(cli_out *out, const loopy_solution *sol, uint32_t base,
                       int threads)
{
    loopy_vertex n = loopy_solution_vertex_count(sol);
    const uint8_t *outcome = loopy_solution_outcomes(sol);
    const uint32_t *remoteness = loopy_solution_remoteness(sol);
    const loopy_vertex *move = loopy_solution_best_moves(sol);
    char *chunks = NULL;
    size_t used[CLI_MAX_THREADS];

    threads = cli_threads(threads, n / TEXT_CHUNK);
    if (threads > 1)
        chunks = malloc((size_t)threads * TEXT_CHUNK * CLI_SOLVE_LINE_MAX);
    if (chunks == NULL) {
        for (loopy_vertex v = 0; v < n; v++) {
            char *start = cli_out_reserve(out, CLI_SOLVE_LINE_MAX);
            char *end = cli_solve_line(start, v, outcome[v], remoteness[v],
                                    move[v], base);
            cli_out_commit(out, (size_t)(end - start));
        }
        return;
    }
    for (uint64_t first = 0; first < n;
         first += (uint64_t)threads * TEXT_CHUNK) {
#pragma omp parallel for num_threads(threads) schedule(static, 1)
        for (int t = 0; t < threads; t++) {
            uint64_t lo = first + (uint64_t)t * TEXT_CHUNK;
            uint64_t hi = lo + TEXT_CHUNK < n ? lo + TEXT_CHUNK : n;
            char *start = chunks + (size_t)t * TEXT_CHUNK * CLI_SOLVE_LINE_MAX;
            char *p = start;
            for (uint64_t v = lo; v < hi; v++)
                p = cli_solve_line(p, (loopy_vertex)v, outcome[v], remoteness[v],
                                move[v], base);
            used[t] = (size_t)(p - start);
        }
        for (int t = 0; t < threads; t++)
            cli_out_bytes(out, chunks + (size_t)t * TEXT_CHUNK * CLI_SOLVE_LINE_MAX,
                          used[t]);
    }
    free(chunks);
}

static void write_json(cli_out *out, const loopy_graph *g,
                       const loopy_solution *sol, const solve_args *args)
{
    loopy_vertex n = loopy_solution_vertex_count(sol);
    const uint8_t *outcome = loopy_solution_outcomes(sol);
    const uint32_t *remoteness = loopy_solution_remoteness(sol);
    const loopy_vertex *move = loopy_solution_best_moves(sol);
    uint64_t count[4];

    for (int k = 0; k < 4; k++)
        count[k] = loopy_solution_count(sol, (loopy_outcome)k);
    cli_solve_json_head(out, n, loopy_graph_edge_count(g), args->read.base,
                        &args->solve, count);
    for (loopy_vertex v = 0; v < n; v++) {
        char *start = cli_out_reserve(out, CLI_SOLVE_JSON_MAX);
        char *end = cli_solve_json_position(start, v, outcome[v], remoteness[v],
                                            move[v], args->read.base);
        cli_out_commit(out, (size_t)(end - start));
    }
    cli_solve_json_tail(out, n);
}

/* Graphviz: vertices coloured by outcome, the targets of --lose-at,
 * --win-at and --tie-at (sorted lists) drawn with a double ring, best moves
 * bold.  The legend names Ties only when there can be some. */
static void write_dot(cli_out *out, const loopy_graph *g,
                      const loopy_solution *sol, const solve_args *args)
{
    static const char *const fill[] = {"#f2d16b", "#8fd18f", "#ef8f8f",
                                       "#8fb8ef"};
    loopy_vertex n = loopy_solution_vertex_count(sol);
    const uint8_t *outcome = loopy_solution_outcomes(sol);
    const uint32_t *remoteness = loopy_solution_remoteness(sol);
    const loopy_vertex *move = loopy_solution_best_moves(sol);
    const loopy_solve_options *t = &args->solve;
    uint32_t base = args->read.base;
    size_t next_lose = 0, next_win = 0, next_tie = 0;

    cli_out_str(out,
                "digraph loopy {\n"
                "  label=\"W: player to move wins (green), L: loses (red), "
                "D: draw (yellow)");
    if (t->tie_at_count > 0)
        cli_out_str(out, ", T: tie (blue)");
    cli_out_str(out, "; number: remoteness; bold: best move");
    if (t->lose_at_count + t->win_at_count + t->tie_at_count > 0)
        cli_out_str(out, "; double ring: game over there (--lose-at, "
                         "--win-at, --tie-at)");
    cli_out_str(out, "\";\n"
                "  node [shape=circle, style=filled, fontname=\"Helvetica\"];\n");
    for (loopy_vertex v = 0; v < n; v++) {
        bool target = false;

        while (next_lose < t->lose_at_count && t->lose_at[next_lose] <= v)
            target |= t->lose_at[next_lose++] == v;
        while (next_win < t->win_at_count && t->win_at[next_win] <= v)
            target |= t->win_at[next_win++] == v;
        while (next_tie < t->tie_at_count && t->tie_at[next_tie] <= v)
            target |= t->tie_at[next_tie++] == v;
        cli_out_str(out, "  ");
        cli_out_u64(out, (uint64_t)v + base);
        cli_out_str(out, " [label=\"");
        cli_out_u64(out, (uint64_t)v + base);
        cli_out_str(out, "\\n");
        cli_out_char(out, outcome_letter[outcome[v]]);
        if (remoteness[v] != LOOPY_NONE) {
            cli_out_char(out, ' ');
            cli_out_u64(out, remoteness[v]);
        }
        cli_out_str(out, "\", fillcolor=\"");
        cli_out_str(out, fill[outcome[v]]);
        cli_out_str(out, target ? "\", peripheries=2];\n" : "\"];\n");
    }
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge count;
        const loopy_vertex *succ = loopy_graph_successors(g, v, &count);
        bool bold_done = false;

        for (loopy_edge e = 0; e < count; e++) {
            cli_out_str(out, "  ");
            cli_out_u64(out, (uint64_t)v + base);
            cli_out_str(out, " -> ");
            cli_out_u64(out, (uint64_t)succ[e] + base);
            /* Only the first of parallel edges to the best move is bold. */
            if (!bold_done && succ[e] == move[v]) {
                cli_out_str(out, " [style=bold, penwidth=2.5]");
                bold_done = true;
            } else {
                cli_out_str(out, " [color=\"#888888\"]");
            }
            cli_out_str(out, ";\n");
        }
    }
    cli_out_str(out, "}\n");
}

/* Parses the command line into args; returns EXIT_OK, or another status to
 * exit with (-1 for a successful --help). */
static int parse_args(int argc, char **argv, solve_args *args)
{
    cli_parser p;
    int id;

    cli_parser_init(&p, "solve", solve_usage, argc, argv);
    while ((id = cli_next(&p, solve_options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
        case CLI_EXIT:
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            if (args->input != NULL) {
                cli_error("solve", "one input file at most, found '%s' after"
                          " '%s'", p.value, args->input);
                return EXIT_USAGE;
            }
            args->input = p.value;
            break;
        case OPT_INPUT:
        case OPT_BASE:
            if (!cli_graph_option("solve", id == OPT_INPUT ? CLI_GRAPH_INPUT
                                                           : CLI_GRAPH_BASE,
                                  p.value, &args->read))
                return EXIT_USAGE;
            break;
        case OPT_MISERE:
            args->solve.misere = 1;
            break;
        case OPT_LOSE_AT:
            if (!cli_parse_list("solve", "--lose-at", p.value, &args->targets.lose_at,
                                &args->targets.lose_at_count))
                return EXIT_USAGE;
            break;
        case OPT_WIN_AT:
            if (!cli_parse_list("solve", "--win-at", p.value, &args->targets.win_at,
                                &args->targets.win_at_count))
                return EXIT_USAGE;
            break;
        case OPT_TIE_AT:
            if (!cli_parse_list("solve", "--tie-at", p.value, &args->targets.tie_at,
                                &args->targets.tie_at_count))
                return EXIT_USAGE;
            break;
        case OPT_FORMAT:
            args->format_given = true;
            if (strcmp(p.value, "ldb") == 0) {
                args->format = FORMAT_LDB;
            } else if (strcmp(p.value, "text") == 0) {
                args->format = FORMAT_TEXT;
            } else if (strcmp(p.value, "json") == 0) {
                args->format = FORMAT_JSON;
            } else if (strcmp(p.value, "dot") == 0) {
                args->format = FORMAT_DOT;
            } else {
                cli_error("solve", "--format: expected 'text', 'json', 'dot' "
                          "or 'ldb', found '%s'", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_OUTPUT:
            args->output = p.value;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("solve", p.value, &args->solve.threads))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            args->quiet = true;
            break;
        default:
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

int cmd_solve(int argc, char **argv)
{
    static const loopy_read_options read_defaults = LOOPY_READ_OPTIONS_INIT;
    static const loopy_solve_options solve_defaults = LOOPY_SOLVE_OPTIONS_INIT;
    solve_args args;
    cli_progress progress;
    loopy_graph *graph = NULL;
    loopy_solution *sol = NULL;
    cli_targets targets = {{NULL, NULL, NULL}};
    loopy_status status;
    struct timespec start;
    const char *name;
    cli_out out;
    bool out_open = false;
    int rc;

    memset(&args, 0, sizeof args);
    memset(&progress, 0, sizeof progress);
    args.read = read_defaults;
    args.read.base = CLI_BASE_UNSET;
    args.solve = solve_defaults;
    clock_gettime(CLOCK_MONOTONIC, &start);
    rc = parse_args(argc, argv, &args);
    if (rc != EXIT_OK) {
        rc = rc < 0 ? EXIT_OK : rc;
        goto done;
    }
    name = cli_input_name(args.input);
    if (!args.format_given && cli_names_database(args.output))
        args.format = FORMAT_LDB;
    if (args.format == FORMAT_LDB && !cli_binary_output_ok("solve", args.output)) {
        rc = EXIT_USAGE;
        goto done;
    }
    if (!cli_output_distinct("solve", args.output, args.input)) {
        rc = EXIT_USAGE;
        goto done;
    }
    /* The output is opened first, so that a bad -o fails before a long
     * read and solve rather than after. */
    if (!cli_out_open(&out, "solve", args.output)) {
        rc = EXIT_IO;
        goto done;
    }
    /* -o /dev/tty: a file name that is a terminal. */
    if (args.format == FORMAT_LDB && !cli_out_not_terminal(&out, "solve")) {
        rc = EXIT_USAGE;
        goto done;
    }
    out_open = true;

    /* Only the dot output draws the moves themselves. */
    args.read.skip_successors = args.format != FORMAT_DOT;
    args.read.threads = args.solve.threads;
    cli_progress_attach(&progress, "solve", &args.read.progress,
                        &args.read.progress_ctx);
    cli_progress_attach(&progress, "solve", &args.solve.progress,
                        &args.solve.progress_ctx);
    rc = cli_load_graph("solve", args.input, &args.read, &graph);
    if (rc != EXIT_OK)
        goto done;
    rc = cli_solve_targets("solve", &args.targets, args.read.base,
                           loopy_graph_vertex_count(graph), &targets,
                           &args.solve);
    if (rc != EXIT_OK)
        goto done;

    status = loopy_solve(graph, &args.solve, &sol);
    cli_progress_end(&progress);
    if (status != LOOPY_OK) {
        cli_error("solve", "%s: %s", name, loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    if (args.format == FORMAT_TEXT)
        write_text(&out, sol, args.read.base, args.solve.threads);
    else if (args.format == FORMAT_JSON)
        write_json(&out, graph, sol, &args);
    else if (args.format == FORMAT_DOT)
        write_dot(&out, graph, sol, &args);
    else if ((status = loopy_db_write_graph(sol, args.read.base, args.solve.misere,
                                            cli_write_bytes, &out)) != LOOPY_OK) {
        cli_error("solve", "%s: %s", args.output ? args.output : "standard output",
                  status == LOOPY_EIO ? "write failed" : loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    out_open = false;
    if (!cli_out_close(&out, "solve")) {
        rc = EXIT_IO;
        goto done;
    }
    if (!args.quiet) {
        char ties[32] = ""; /* Ties are counted when there can be some */
        if (args.solve.tie_at_count > 0)
            snprintf(ties, sizeof ties, ", %" PRIu32 " T",
                     loopy_solution_count(sol, LOOPY_TIE));
        fprintf(stderr,
                "loopy solve: %s: %" PRIu32 " position%s, %" PRIu64 " move%s: %"
                PRIu32 " W, %" PRIu32 " L, %" PRIu32 " D%s (%.3f s)\n",
                name, loopy_graph_vertex_count(graph),
                loopy_graph_vertex_count(graph) == 1 ? "" : "s",
                loopy_graph_edge_count(graph),
                loopy_graph_edge_count(graph) == 1 ? "" : "s",
                loopy_solution_count(sol, LOOPY_WIN),
                loopy_solution_count(sol, LOOPY_LOSE),
                loopy_solution_count(sol, LOOPY_DRAW), ties,
                cli_seconds_since(&start));
    }
    rc = EXIT_OK;

done:
    if (out_open)
        cli_out_abort(&out); /* nothing is left under the output's name */
    cli_progress_end(&progress);
    loopy_solution_free(sol);
    loopy_graph_free(graph);
    cli_solve_targets_free(&targets);
    free(args.targets.lose_at);
    free(args.targets.win_at);
    free(args.targets.tie_at);
    return rc;
}
