/* convert.c - "loopy convert": a graph to loopy's binary format, or to
 * text. */
#include "cli.h"

#include <string.h>
#include <unistd.h>

static const char convert_usage[] =
    "Usage: loopy convert [OPTIONS] [FILE] -o OUTPUT\n"
    "\n"
    "Writes the game graph of FILE (text or binary, either of them perhaps\n"
    "compressed with gzip or zstd; standard input when FILE is absent or\n"
    "'-') in loopy's binary format, which 'loopy solve',\n"
    "'grundy' and 'sum' (not the contest commands race, sleepy and climb)\n"
    "read directly, recognising it by its first bytes; a graph that is read\n"
    "many times is then loaded without parsing.  The file holds n, m,\n"
    "out-degrees, predecessor and successor lists, every number\n"
    "little-endian, with a checksum per part: a damaged or truncated file is\n"
    "refused.  Vertex numbers are stored 0-based, with the text's base:\n"
    "commands print them as the text numbered them unless given --base.\n"
    "With -f edges, adj or pairs, it writes text instead, numbered as the\n"
    "input is (a binary file as its text was): text, then binary, then text\n"
    "again gives the same graph.\n"
    "\n"
    "Options:\n"
    "  -i, --input FORMAT   edges (default), adj or pairs, as for 'loopy solve'\n"
    "      --base B         number of the first vertex in a text FILE: 1\n"
    "                       (default) or 0; the binary file records it (a\n"
    "                       binary FILE keeps its own)\n"
    "  -f, --format FMT     what to write: binary (default), or text: edges\n"
    "                       ('n m', then a line 'u v' per move), adj\n"
    "                       (adjacency lists) or pairs ('u v' lines without\n"
    "                       a header; refused when the last vertex has no\n"
    "                       edge); 0-based text starts with a comment saying\n"
    "                       so\n"
    "  -o, --output FILE    the file to write (required; written under a\n"
    "                       temporary name, then renamed); '-' is standard\n"
    "                       output, which binary data may not go to when it\n"
    "                       is a terminal\n"
    "  -t, --threads N      threads to use (default 0: all cores; more than the\n"
    "                       processors counts as that many)\n"
    "  -q, --quiet          no summary line on standard error\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example:\n"
    "  $ loopy convert big.txt -o big.lgr && loopy solve big.lgr -o big.out\n"
    "  $ loopy convert -i pairs --base 0 web-Google.txt.gz -o web.lgr\n"
    "  $ loopy convert -f edges big.lgr -o - | head\n"
    "\n"
    "Exit status: 0 success, 1 input rejected, 2 bad command line, 3 file\n"
    "not readable or not writable, 4 too large for memory.\n";

enum { OPT_INPUT, OPT_BASE, OPT_OUTPUT, OPT_THREADS, OPT_QUIET, OPT_HELP,
       OPT_FORMAT };

static const cli_option convert_options[] = {
    {"input", 'i', true, OPT_INPUT},     {"base", 0, true, OPT_BASE},
    {"output", 'o', true, OPT_OUTPUT},   {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},    {"help", 'h', false, OPT_HELP},
    {"format", 'f', true, OPT_FORMAT},   {NULL, 0, false, 0}};

/* What -f asks for: the binary format, or a text format. */
#define FORMAT_BINARY (-1)

static bool parse_format(const char *value, int *format)
{
    static const struct {
        const char *name;
        int format;
    } formats[] = {{"binary", FORMAT_BINARY},
                   {"edges", LOOPY_TEXT_EDGES},
                   {"adj", LOOPY_TEXT_ADJ},
                   {"pairs", LOOPY_TEXT_PAIRS}};

    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(value, formats[i].name) == 0) {
            *format = formats[i].format;
            return true;
        }
    cli_error("convert", "--format: expected 'binary', 'edges', 'adj' or "
              "'pairs', found '%s'", value);
    return false;
}

/* The library's writer callback onto a cli_out. */
static int write_out(void *ctx, const void *bytes, size_t len)
{
    cli_out *out = ctx;

    cli_out_bytes(out, bytes, len);
    return out->failed ? 1 : 0;
}

/* Writes graph to out in format; a text format needs the successor lists
 * (a binary file may lack them) and gets a first comment line when it is
 * numbered from 0, since it reads back only with --base 0. */
static loopy_status write_graph(loopy_graph *graph, int format, cli_out *out)
{
    static const char zero_note[] = "# numbered from 0: read with --base 0\n";
    uint32_t base = loopy_graph_base(graph);
    loopy_status status;

    if (format == FORMAT_BINARY)
        return loopy_write_binary(graph, write_out, out);
    status = loopy_graph_build_successors(graph);
    if (status != LOOPY_OK)
        return status == LOOPY_EINVAL ? LOOPY_EFORMAT : status;
    if (base == 0)
        cli_out_str(out, zero_note);
    return loopy_write_text(graph, (loopy_text_format)format, base, write_out,
                            out);
}

/* Parses the command line; returns EXIT_OK, another status, or -1 after
 * --help. */
static int parse_args(int argc, char **argv, loopy_read_options *read,
                      const char **input, const char **output, bool *quiet,
                      int *format)
{
    cli_parser p;
    uint64_t value;
    int id;

    cli_parser_init(&p, "convert", convert_usage, argc, argv);
    while ((id = cli_next(&p, convert_options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
        case CLI_EXIT: /* --version */
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            if (*input != NULL) {
                cli_error("convert", "one input file at most, found '%s' "
                          "after '%s'", p.value, *input);
                return EXIT_USAGE;
            }
            *input = p.value;
            break;
        case OPT_INPUT:
            if (!cli_graph_option("convert", CLI_GRAPH_INPUT, p.value, read))
                return EXIT_USAGE;
            break;
        case OPT_FORMAT:
            if (!parse_format(p.value, format))
                return EXIT_USAGE;
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
    if (*output == NULL) {
        cli_error("convert", "an output is required: -o FILE, or -o - for "
                  "standard output");
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
    int format = FORMAT_BINARY;
    cli_out out;
    int rc;

    read.base = CLI_BASE_UNSET;
    rc = parse_args(argc, argv, &read, &input, &output, &quiet, &format);
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
    /* Binary data goes to a pipe or a file, never to a terminal (as zstd
     * refuses): -o - or a name such as /dev/tty. */
    if (format == FORMAT_BINARY && isatty(fileno(out.file))) {
        cli_out_abort(&out);
        cli_error("convert", "%s is a terminal: binary data is not written "
                  "to it (redirect standard output, or give -o FILE)",
                  strcmp(output, "-") == 0 ? "standard output" : output);
        return EXIT_USAGE;
    }
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
    status = write_graph(graph, format, &out);
    if (status == LOOPY_EINVAL) {
        /* Only pairs refuses a graph (see write_graph). */
        cli_out_abort(&out);
        cli_error("convert", "%s: -f pairs cannot keep vertex %" PRIu64
                  ", which is on no edge (-f edges keeps every vertex)", name,
                  (uint64_t)loopy_graph_vertex_count(graph) - 1 +
                      loopy_graph_base(graph));
        loopy_graph_free(graph);
        return EXIT_USAGE;
    }
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
        fprintf(stderr, "loopy convert: %s: %" PRIu32 " position%s, %" PRIu64
                " move%s written to %s\n", name,
                loopy_graph_vertex_count(graph),
                loopy_graph_vertex_count(graph) == 1 ? "" : "s",
                loopy_graph_edge_count(graph),
                loopy_graph_edge_count(graph) == 1 ? "" : "s",
                strcmp(output, "-") == 0 ? "standard output" : output);
    loopy_graph_free(graph);
    return EXIT_OK;
}
