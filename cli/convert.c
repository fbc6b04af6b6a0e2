/* convert.c - "loopy convert": a text graph to loopy's binary format. */
#include "cli.h"

#include <string.h>

static const char convert_usage[] =
    "Usage: loopy convert [OPTIONS] [FILE] -o OUTPUT\n"
    "\n"
    "Writes the game graph of FILE (text or binary, or standard input when\n"
    "FILE is absent or '-') in loopy's binary format, which 'loopy solve',\n"
    "'grundy' and 'sum' (not the contest commands race, sleepy and climb)\n"
    "read directly, recognising it by its first bytes; a graph that is read\n"
    "many times is then loaded without parsing.  The file holds n, m,\n"
    "out-degrees, predecessor and successor lists, every number\n"
    "little-endian, with a checksum per part: a damaged or truncated file is\n"
    "refused.  Vertex numbers are stored 0-based, with the text's base:\n"
    "commands print them as the text numbered them unless given --base.\n"
    "\n"
    "Options:\n"
    "  -i, --input FORMAT   edges (default) or adj, as for 'loopy solve'\n"
    "      --base B         number of the first vertex in a text FILE: 1\n"
    "                       (default) or 0; the binary file records it (a\n"
    "                       binary FILE keeps its own)\n"
    "  -o, --output FILE    the binary file to write (required; written\n"
    "                       under a temporary name, then renamed)\n"
    "  -t, --threads N      threads to use (default 0: all cores; more than the\n"
    "                       processors counts as that many)\n"
    "  -q, --quiet          no summary line on standard error\n"
    "  -h, --help           show this help\n"
    "\n"
    "Example:\n"
    "  $ loopy convert big.txt -o big.lgr && loopy solve big.lgr -o big.out\n"
    "\n"
    "Exit status: 0 success, 1 input rejected, 2 bad command line, 3 file\n"
    "not readable or not writable, 4 too large for memory.\n";

enum { OPT_INPUT, OPT_BASE, OPT_OUTPUT, OPT_THREADS, OPT_QUIET, OPT_HELP };

static const cli_option convert_options[] = {
    {"input", 'i', true, OPT_INPUT},     {"base", 0, true, OPT_BASE},
    {"output", 'o', true, OPT_OUTPUT},   {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},    {"help", 'h', false, OPT_HELP},
    {NULL, 0, false, 0}};

/* The library's writer callback onto a cli_out. */
static int write_out(void *ctx, const void *bytes, size_t len)
{
    cli_out *out = ctx;

    cli_out_bytes(out, bytes, len);
    return out->failed ? 1 : 0;
}

/* Parses the command line; returns EXIT_OK, another status, or -1 after
 * --help. */
static int parse_args(int argc, char **argv, loopy_read_options *read,
                      const char **input, const char **output, bool *quiet)
{
    cli_parser p;
    uint64_t value;
    int id;

    cli_parser_init(&p, "convert", argc, argv);
    while ((id = cli_next(&p, convert_options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
        case CLI_OPERAND:
            if (*input != NULL) {
                cli_error("convert", "one input file at most, found '%s' "
                          "after '%s'", p.value, *input);
                return EXIT_USAGE;
            }
            *input = p.value;
            break;
        case OPT_INPUT:
            if (strcmp(p.value, "edges") == 0) {
                read->format = LOOPY_TEXT_EDGES;
            } else if (strcmp(p.value, "adj") == 0) {
                read->format = LOOPY_TEXT_ADJ;
            } else {
                cli_error("convert", "--input: expected 'edges' or 'adj', "
                          "found '%s'", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_BASE:
            if (!cli_parse_uint("convert", "--base", p.value, 0, 1, &value))
                return EXIT_USAGE;
            read->base = (uint32_t)value;
            break;
        case OPT_OUTPUT:
            if (!cli_out_name_ok("convert", p.value))
                return EXIT_USAGE;
            *output = p.value;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("convert", p.value, &read->threads))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            *quiet = true;
            break;
        case OPT_HELP:
            return cli_print_text("convert", convert_usage) == EXIT_OK
                       ? -1 : EXIT_IO;
        default:
            return EXIT_USAGE;
        }
    }
    if (*output == NULL || strcmp(*output, "-") == 0) {
        cli_error("convert", "an output file is required: -o FILE (binary "
                  "data is not written to standard output)");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_convert(int argc, char **argv)
{
    static const loopy_read_options read_defaults = LOOPY_READ_OPTIONS_INIT;
    loopy_read_options read = read_defaults;
    const char *input = NULL, *output = NULL, *name;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_graph *graph = NULL;
    cli_progress progress = {0};
    loopy_status status;
    bool quiet = false, base_given;
    cli_out out;
    int rc;

    read.base = CLI_BASE_UNSET;
    rc = parse_args(argc, argv, &read, &input, &output, &quiet);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    base_given = read.base != CLI_BASE_UNSET;
    if (!base_given)
        read.base = 1;
    name = input && strcmp(input, "-") != 0 ? input : "<stdin>";
    if (!cli_output_distinct("convert", output, input))
        return EXIT_USAGE;
    /* The output is opened first, so that a bad -o fails before a long
     * read rather than after. */
    if (!cli_out_open(&out, "convert", output))
        return EXIT_IO;
    cli_progress_attach(&progress, "convert", &read.progress,
                        &read.progress_ctx);
    status = loopy_read_file(input, &read, &graph, &diag);
    cli_progress_end(&progress);
    if (status != LOOPY_OK) {
        cli_out_abort(&out);
        return cli_report("convert", name, status, &diag);
    }
    /* A text read under --base B has base B; a binary file keeps its own,
     * which convert does not change. */
    if (base_given && loopy_graph_base(graph) != read.base) {
        cli_out_abort(&out);
        cli_error("convert", "%s: a binary file numbered from %" PRIu32 ": "
                  "--base applies to text input ('solve', 'grundy' and 'sum' "
                  "take --base to print it otherwise)", name,
                  loopy_graph_base(graph));
        loopy_graph_free(graph);
        return EXIT_USAGE;
    }
    status = loopy_write_binary(graph, write_out, &out);
    if (status != LOOPY_OK) {
        cli_out_abort(&out);
        cli_error("convert", "%s: %s", output, status == LOOPY_EIO
                  ? "write failed" : loopy_strerror(status));
        loopy_graph_free(graph);
        return cli_exit_status(status);
    }
    if (!cli_out_close(&out, "convert")) {
        loopy_graph_free(graph);
        return EXIT_IO;
    }
    if (!quiet)
        fprintf(stderr, "loopy convert: %s: %" PRIu32 " positions, %" PRIu64
                " moves written to %s\n", name, loopy_graph_vertex_count(graph),
                loopy_graph_edge_count(graph), output);
    loopy_graph_free(graph);
    return EXIT_OK;
}
