/* solve.c - "loopy solve": classify every position of a game graph. */
#include "cli.h"

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
    "loopy's binary format (see 'loopy convert'), recognised by its first bytes.\n"
    "\n"
    "Options:\n"
    "  -i, --input FORMAT   edges (default): a line 'n m', then m lines 'u v',\n"
    "                       one move u -> v each;\n"
    "                       adj: a line 'n m', then one line per vertex: its\n"
    "                       number of moves k and its k successors\n"
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
    OPT_QUIET,
    OPT_HELP
};

static const cli_option solve_options[] = {
    {"input", 'i', true, OPT_INPUT},     {"base", 0, true, OPT_BASE},
    {"misere", 0, false, OPT_MISERE},    {"lose-at", 0, true, OPT_LOSE_AT},
    {"win-at", 0, true, OPT_WIN_AT},     {"format", 'f', true, OPT_FORMAT},
    {"output", 'o', true, OPT_OUTPUT},   {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},    {"help", 'h', false, OPT_HELP},
    {"tie-at", 0, true, OPT_TIE_AT},     {NULL, 0, false, 0}};

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_DOT, FORMAT_LDB } output_format;

typedef struct solve_args {
    loopy_read_options read;
    loopy_solve_options solve;
    output_format format;
    bool format_given; /* -f: else -o *.ldb writes a database */
    const char *input;
    const char *output;
    bool quiet;
    /* As given, in the input's numbering. */
    uint64_t *lose_at, *win_at, *tie_at;
    size_t lose_at_count, win_at_count, tie_at_count;
} solve_args;

static const char outcome_letter[] = {'D', 'W', 'L', 'T'};

/* One vertex's line "v X r m\n" at p (at most LINE_MAX_BYTES); returns its
 * end. */
#define LINE_MAX_BYTES 36
static char *format_line(char *p, loopy_vertex v, uint8_t outcome,
                         uint32_t remoteness, loopy_vertex move, uint32_t base)
{
    p = cli_format_u64(p, (uint64_t)v + base);
    *p++ = ' ';
    *p++ = outcome_letter[outcome];
    *p++ = ' ';
    if (remoteness == LOOPY_NONE)
        *p++ = '-';
    else
        p = cli_format_u64(p, remoteness);
    *p++ = ' ';
    if (move == LOOPY_NONE)
        *p++ = '-';
    else
        p = cli_format_u64(p, (uint64_t)move + base);
    *p++ = '\n';
    return p;
}

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
        chunks = malloc((size_t)threads * TEXT_CHUNK * LINE_MAX_BYTES);
    if (chunks == NULL) {
        for (loopy_vertex v = 0; v < n; v++) {
            char *start = cli_out_reserve(out, LINE_MAX_BYTES);
            char *end = format_line(start, v, outcome[v], remoteness[v],
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
            char *start = chunks + (size_t)t * TEXT_CHUNK * LINE_MAX_BYTES;
            char *p = start;
            for (uint64_t v = lo; v < hi; v++)
                p = format_line(p, (loopy_vertex)v, outcome[v], remoteness[v],
                                move[v], base);
            used[t] = (size_t)(p - start);
        }
        for (int t = 0; t < threads; t++)
            cli_out_bytes(out, chunks + (size_t)t * TEXT_CHUNK * LINE_MAX_BYTES,
                          used[t]);
    }
    free(chunks);
}

static void json_number_or_null(cli_out *out, uint32_t v, uint32_t base)
{
    if (v == LOOPY_NONE)
        cli_out_str(out, "null");
    else
        cli_out_u64(out, (uint64_t)v + base);
}

/* ", NAME: [v, ...]" of a sorted target list, in the input's numbering. */
static void json_targets(cli_out *out, const char *name,
                         const loopy_vertex *ids, size_t count, uint32_t base)
{
    cli_out_str(out, ",\n  \"");
    cli_out_str(out, name);
    cli_out_str(out, "\": [");
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            cli_out_str(out, ", ");
        cli_out_u64(out, (uint64_t)ids[i] + base);
    }
    cli_out_char(out, ']');
}

static void write_json(cli_out *out, const loopy_graph *g,
                       const loopy_solution *sol, const solve_args *args)
{
    loopy_vertex n = loopy_solution_vertex_count(sol);
    const uint8_t *outcome = loopy_solution_outcomes(sol);
    const uint32_t *remoteness = loopy_solution_remoteness(sol);
    const loopy_vertex *move = loopy_solution_best_moves(sol);
    uint32_t base = args->read.base;

    cli_out_str(out, "{\n  \"vertices\": ");
    cli_out_u64(out, n);
    cli_out_str(out, ",\n  \"edges\": ");
    cli_out_u64(out, loopy_graph_edge_count(g));
    cli_out_str(out, ",\n  \"base\": ");
    cli_out_u64(out, base);
    cli_out_str(out, args->solve.misere ? ",\n  \"play\": \"misere\""
                                        : ",\n  \"play\": \"normal\"");
    json_targets(out, "lose_at", args->solve.lose_at, args->solve.lose_at_count,
                 base);
    json_targets(out, "win_at", args->solve.win_at, args->solve.win_at_count,
                 base);
    json_targets(out, "tie_at", args->solve.tie_at, args->solve.tie_at_count,
                 base);
    cli_out_str(out, ",\n  \"count\": {\"W\": ");
    cli_out_u64(out, loopy_solution_count(sol, LOOPY_WIN));
    cli_out_str(out, ", \"L\": ");
    cli_out_u64(out, loopy_solution_count(sol, LOOPY_LOSE));
    cli_out_str(out, ", \"D\": ");
    cli_out_u64(out, loopy_solution_count(sol, LOOPY_DRAW));
    cli_out_str(out, ", \"T\": ");
    cli_out_u64(out, loopy_solution_count(sol, LOOPY_TIE));
    cli_out_str(out, "},\n  \"positions\": [");
    for (loopy_vertex v = 0; v < n; v++) {
        cli_out_str(out, v ? ",\n    {\"vertex\": " : "\n    {\"vertex\": ");
        cli_out_u64(out, (uint64_t)v + base);
        cli_out_str(out, ", \"outcome\": \"");
        cli_out_char(out, outcome_letter[outcome[v]]);
        cli_out_str(out, "\", \"remoteness\": ");
        json_number_or_null(out, remoteness[v], 0);
        cli_out_str(out, ", \"move\": ");
        json_number_or_null(out, move[v], base);
        cli_out_char(out, '}');
    }
    cli_out_str(out, n ? "\n  ]\n}\n" : "]\n}\n");
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

    cli_parser_init(&p, "solve", argc, argv);
    while ((id = cli_next(&p, solve_options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
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
            if (!cli_parse_list("solve", "--lose-at", p.value, &args->lose_at,
                                &args->lose_at_count))
                return EXIT_USAGE;
            break;
        case OPT_WIN_AT:
            if (!cli_parse_list("solve", "--win-at", p.value, &args->win_at,
                                &args->win_at_count))
                return EXIT_USAGE;
            break;
        case OPT_TIE_AT:
            if (!cli_parse_list("solve", "--tie-at", p.value, &args->tie_at,
                                &args->tie_at_count))
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
            if (!cli_out_name_ok("solve", p.value))
                return EXIT_USAGE;
            args->output = p.value;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("solve", p.value, &args->solve.threads))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            args->quiet = true;
            break;
        case OPT_HELP:
            return cli_print_text("solve", solve_usage) == EXIT_OK ? -1
                                                                   : EXIT_IO;
        default:
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* Converts target vertices from the input's numbering to 0-based ids,
 * checking them against n. */
static bool convert_targets(const char *option, const uint64_t *given,
                            size_t count, uint32_t base, loopy_vertex n,
                            loopy_vertex **out)
{
    loopy_vertex *ids = malloc((count ? count : 1) * sizeof *ids);

    if (ids == NULL) {
        cli_error("solve", "out of memory");
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        if (given[i] < base || given[i] - base >= n) {
            cli_error("solve", "%s: vertex %" PRIu64 " is not in the graph "
                      "(its vertices are %" PRIu32 "..%" PRIu64 ")", option,
                      given[i], base, (uint64_t)n + base - 1);
            free(ids);
            return false;
        }
        ids[i] = (loopy_vertex)(given[i] - base);
    }
    *out = ids;
    return true;
}

/* Sorts a target list and drops repeats (the solve does not depend on
 * either; JSON and Graphviz output list them in order). */
static size_t sort_unique(loopy_vertex *ids, size_t count)
{
    size_t kept = 0;

    qsort(ids, count, sizeof *ids, cli_compare_u32); /* loopy_vertex is u32 */
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || ids[i] != ids[kept - 1])
            ids[kept++] = ids[i];
    return kept;
}

/* A target list of the command line, 0-based. */
typedef struct target_list {
    const char *option;
    const loopy_vertex *ids;
    size_t count;
} target_list;

/* Checks that no vertex is in two of the lists (given in the order of
 * --help); on failure prints a message naming the first vertex, in list
 * order, that is in an earlier list too, and sets *rc. */
static bool targets_disjoint(const target_list *lists, int list_count,
                             loopy_vertex n, uint32_t base, int *rc)
{
    uint8_t *in_list; /* 1 + the index of the first list with the vertex */
    int nonempty = 0;

    for (int k = 0; k < list_count; k++)
        nonempty += lists[k].count > 0;
    if (nonempty < 2)
        return true;
    in_list = calloc(n, 1);
    if (in_list == NULL) {
        cli_error("solve", "out of memory");
        *rc = EXIT_RESOURCE;
        return false;
    }
    for (int k = 0; k < list_count; k++) {
        for (size_t i = 0; i < lists[k].count; i++) {
            loopy_vertex v = lists[k].ids[i];
            if (in_list[v] != 0 && in_list[v] != k + 1) {
                cli_error("solve", "vertex %" PRIu64 " is in both %s and %s",
                          (uint64_t)v + base, lists[in_list[v] - 1].option,
                          lists[k].option);
                free(in_list);
                *rc = EXIT_USAGE;
                return false;
            }
            in_list[v] = (uint8_t)(k + 1);
        }
    }
    free(in_list);
    return true;
}

int cmd_solve(int argc, char **argv)
{
    static const loopy_read_options read_defaults = LOOPY_READ_OPTIONS_INIT;
    static const loopy_solve_options solve_defaults = LOOPY_SOLVE_OPTIONS_INIT;
    solve_args args;
    cli_progress progress;
    loopy_graph *graph = NULL;
    loopy_solution *sol = NULL;
    loopy_vertex *lose_at = NULL, *win_at = NULL, *tie_at = NULL;
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
    if (!convert_targets("--lose-at", args.lose_at, args.lose_at_count,
                         args.read.base, loopy_graph_vertex_count(graph),
                         &lose_at) ||
        !convert_targets("--win-at", args.win_at, args.win_at_count,
                         args.read.base, loopy_graph_vertex_count(graph),
                         &win_at) ||
        !convert_targets("--tie-at", args.tie_at, args.tie_at_count,
                         args.read.base, loopy_graph_vertex_count(graph),
                         &tie_at)) {
        rc = EXIT_USAGE;
        goto done;
    }
    {
        const target_list lists[] = {
            {"--lose-at", lose_at, args.lose_at_count},
            {"--win-at", win_at, args.win_at_count},
            {"--tie-at", tie_at, args.tie_at_count}};
        if (!targets_disjoint(lists, 3, loopy_graph_vertex_count(graph),
                              args.read.base, &rc))
            goto done;
    }
    args.solve.lose_at = lose_at;
    args.solve.lose_at_count = sort_unique(lose_at, args.lose_at_count);
    args.solve.win_at = win_at;
    args.solve.win_at_count = sort_unique(win_at, args.win_at_count);
    args.solve.tie_at = tie_at;
    args.solve.tie_at_count = sort_unique(tie_at, args.tie_at_count);

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
    free(lose_at);
    free(win_at);
    free(tie_at);
    free(args.lose_at);
    free(args.win_at);
    free(args.tie_at);
    return rc;
}
