/* grundy.c - "loopy grundy": the generalized Sprague-Grundy value of every
 * position of a game graph, and helpers shared with "loopy sum". */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char grundy_usage[] =
    "Usage: loopy grundy [OPTIONS] [FILE]\n"
    "\n"
    "Compute the Sprague-Grundy value of every position of an impartial game\n"
    "played on a directed graph (one token, the players alternately move it\n"
    "along an edge, a player who cannot move loses, endless play is a draw).\n"
    "On graphs with cycles this is Smith's generalized Sprague-Grundy\n"
    "function: a natural number, or 'inf' with the set K of the finite values\n"
    "of the position's moves, as in inf{0,2}.  Values add up over several\n"
    "tokens (see 'loopy sum').  Reads FILE, or standard input when FILE is\n"
    "absent or '-' (text or binary, perhaps compressed with gzip or zstd, as\n"
    "for 'loopy solve').\n"
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
    "  -f, --format FMT     text (default): 'VERTEX VALUE OUTCOME' per line;\n"
    "                       json: the same as a JSON document (an infinite\n"
    "                       value is null, with its set K as \"inf\")\n"
    "  -o, --output FILE    write to FILE (atomically) instead of standard\n"
    "                       output\n"
    "  -t, --threads N      threads to read the graph with (default 0: all\n"
    "                       cores)\n"
    "  -q, --quiet          no summary line on standard error\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Output: 'VERTEX VALUE OUTCOME' per line.  Outcomes: value 0 is L (the\n"
    "player to move loses), a positive value or inf with 0 in K is W (wins),\n"
    "inf without 0 in K is D (draw); they agree with 'loopy solve'.\n"
    "\n"
    "Example: a path 1 -> 2 -> 3 with a loop 1 -> 1\n"
    "  $ printf '3 3\\n1 2\\n2 3\\n1 1\\n' | loopy grundy -q\n"
    "  1 inf{1} D\n"
    "  2 1 W\n"
    "  3 0 L\n"
    "\n"
    "Exit status: 0 success, 1 input rejected (the message names file, line\n"
    "and column), 2 bad command line, 3 file not readable or not writable,\n"
    "4 too large for memory or for 32-bit vertex ids.\n";

enum { OPT_INPUT, OPT_BASE, OPT_OUTPUT, OPT_QUIET, OPT_FORMAT, OPT_THREADS };

static const cli_option grundy_options[] = {
    {"input", 'i', true, OPT_INPUT},   {"base", 0, true, OPT_BASE},
    {"output", 'o', true, OPT_OUTPUT}, {"quiet", 'q', false, OPT_QUIET},
    {"format", 'f', true, OPT_FORMAT}, {"threads", 't', true, OPT_THREADS},
    {NULL, 0, false, 0}};

bool cli_parse_json_format(const char *cmd, const char *value, bool *json)
{
    if (strcmp(value, "json") == 0 || strcmp(value, "text") == 0) {
        *json = value[0] == 'j';
        return true;
    }
    cli_error(cmd, "--format: expected 'text' or 'json', found '%s'", value);
    return false;
}

void cli_out_json_grundy(cli_out *out, uint32_t value, const uint32_t *set,
                         size_t count)
{
    if (value != LOOPY_GRUNDY_INF) {
        cli_out_str(out, "\"value\": ");
        cli_out_u64(out, value);
        return;
    }
    cli_out_str(out, "\"value\": null, \"inf\": [");
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            cli_out_str(out, ", ");
        cli_out_u64(out, set[i]);
    }
    cli_out_char(out, ']');
}

void cli_out_grundy_value(cli_out *out, uint32_t value, const uint32_t *set,
                          size_t count)
{
    if (value != LOOPY_GRUNDY_INF) {
        cli_out_u64(out, value);
        return;
    }
    cli_out_str(out, "inf{");
    for (size_t i = 0; i < count; i++) {
        if (i > 0)
            cli_out_char(out, ',');
        cli_out_u64(out, set[i]);
    }
    cli_out_char(out, '}');
}

int cmd_grundy(int argc, char **argv)
{
    static const loopy_read_options read_defaults = LOOPY_READ_OPTIONS_INIT;
    static const char outcome_letter[] = {'D', 'W', 'L'};
    loopy_read_options read = read_defaults;
    const char *input = NULL, *output = NULL;
    bool quiet = false, json = false, out_open = false;
    loopy_graph *graph = NULL;
    loopy_grundy *grundy = NULL;
    loopy_status status;
    struct timespec start;
    uint64_t finite = 0, infinite = 0, largest = 0;
    cli_parser p;
    cli_out out;
    int id, rc = EXIT_OK;

    clock_gettime(CLOCK_MONOTONIC, &start);
    read.base = CLI_BASE_UNSET;
    cli_parser_init(&p, "grundy", grundy_usage, argc, argv);
    while ((id = cli_next(&p, grundy_options)) != CLI_END) {
        switch (id) {
        case CLI_EXIT:
            return p.status;
        case CLI_OPERAND:
            if (input != NULL) {
                cli_error("grundy", "one input file at most, found '%s' "
                          "after '%s'", p.value, input);
                return EXIT_USAGE;
            }
            input = p.value;
            break;
        case OPT_INPUT:
        case OPT_BASE:
            if (!cli_graph_option("grundy", id == OPT_INPUT ? CLI_GRAPH_INPUT
                                                            : CLI_GRAPH_BASE,
                                  p.value, &read))
                return EXIT_USAGE;
            break;
        case OPT_OUTPUT:
            output = p.value;
            break;
        case OPT_QUIET:
            quiet = true;
            break;
        case OPT_FORMAT:
            if (!cli_parse_json_format("grundy", p.value, &json))
                return EXIT_USAGE;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("grundy", p.value, &read.threads))
                return EXIT_USAGE;
            break;
        default:
            return EXIT_USAGE;
        }
    }

    if (!cli_output_distinct("grundy", output, input))
        return EXIT_USAGE;
    /* The output is opened first, so that a bad -o fails before the work. */
    if (!cli_out_open(&out, "grundy", output))
        return EXIT_IO;
    out_open = true;
    cli_use_threads(read.threads);
    rc = cli_load_graph("grundy", input, &read, &graph);
    if (rc != EXIT_OK)
        goto done;
    status = loopy_grundy_compute(graph, &grundy);
    if (status != LOOPY_OK) {
        cli_error("grundy", "%s: %s", cli_input_name(input),
                  loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    for (loopy_vertex v = 0; v < loopy_grundy_vertex_count(grundy); v++) {
        uint32_t value = loopy_grundy_values(grundy)[v];
        if (value == LOOPY_GRUNDY_INF) {
            infinite++;
        } else {
            finite++;
            largest = value > largest ? value : largest;
        }
    }
    if (json) {
        cli_out_str(&out, "{\n  \"vertices\": ");
        cli_out_u64(&out, loopy_graph_vertex_count(graph));
        cli_out_str(&out, ",\n  \"edges\": ");
        cli_out_u64(&out, loopy_graph_edge_count(graph));
        cli_out_str(&out, ",\n  \"base\": ");
        cli_out_u64(&out, read.base);
        cli_out_str(&out, ",\n  \"finite\": ");
        cli_out_u64(&out, finite);
        cli_out_str(&out, ",\n  \"infinite\": ");
        cli_out_u64(&out, infinite);
        cli_out_str(&out, ",\n  \"positions\": [");
    }
    for (loopy_vertex v = 0; v < loopy_grundy_vertex_count(grundy); v++) {
        uint32_t value = loopy_grundy_values(grundy)[v];
        size_t count;
        const uint32_t *set = loopy_grundy_inf_set(grundy, v, &count);
        char letter = outcome_letter[loopy_grundy_outcome(grundy, v)];

        if (json) {
            cli_out_str(&out, v ? ",\n    {\"vertex\": " : "\n    {\"vertex\": ");
            cli_out_u64(&out, (uint64_t)v + read.base);
            cli_out_str(&out, ", ");
            cli_out_json_grundy(&out, value, set, count);
            cli_out_str(&out, ", \"outcome\": \"");
            cli_out_char(&out, letter);
            cli_out_str(&out, "\"}");
            continue;
        }
        cli_out_u64(&out, (uint64_t)v + read.base);
        cli_out_char(&out, ' ');
        cli_out_grundy_value(&out, value, set, count);
        cli_out_char(&out, ' ');
        cli_out_char(&out, letter);
        cli_out_char(&out, '\n');
    }
    if (json)
        cli_out_str(&out, loopy_grundy_vertex_count(grundy) ? "\n  ]\n}\n"
                                                            : "]\n}\n");
    out_open = false;
    if (!cli_out_close(&out, "grundy")) {
        rc = EXIT_IO;
        goto done;
    }
    if (!quiet) {
        char most[40] = ""; /* no largest value among none */
        if (finite > 0)
            snprintf(most, sizeof most, " (largest %" PRIu64 ")", largest);
        fprintf(stderr,
                "loopy grundy: %s: %" PRIu32 " position%s, %" PRIu64
                " move%s: %" PRIu64 " finite%s, %" PRIu64 " infinite (%.3f s)\n",
                cli_input_name(input), loopy_graph_vertex_count(graph),
                loopy_graph_vertex_count(graph) == 1 ? "" : "s",
                loopy_graph_edge_count(graph),
                loopy_graph_edge_count(graph) == 1 ? "" : "s", finite, most, infinite,
                cli_seconds_since(&start));
    }

done:
    if (out_open)
        cli_out_abort(&out);
    loopy_grundy_free(grundy);
    loopy_graph_free(graph);
    return rc;
}
