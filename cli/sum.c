/* sum.c - "loopy sum": several tokens on one graph, valued by the sum rule
 * of generalized Sprague-Grundy theory. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char sum_usage[] =
    "Usage: loopy sum [OPTIONS] GRAPH [QUERIES]\n"
    "\n"
    "Positions with several tokens on one game graph: a move moves one token\n"
    "along one edge, a player who cannot move loses, endless play is a draw.\n"
    "Each line of QUERIES (standard input when absent or '-') lists the\n"
    "vertices of the tokens of one position, separated by blanks; tokens may\n"
    "share a vertex.  For each query, prints 'OUTCOME VALUE', from the\n"
    "generalized Sprague-Grundy values of the tokens (see 'loopy grundy'):\n"
    "  - all finite: the value is their XOR; 0 is L, anything else W;\n"
    "  - one infinite, inf{K}, the others XOR to a: inf{K XOR a}, which is W\n"
    "    when a is in K (move that token to a position of value a) and D\n"
    "    otherwise;\n"
    "  - two or more infinite: inf{}, a draw (D).\n"
    "Blank lines and lines starting with '#' are skipped (they get no\n"
    "output line); elsewhere '#' starts a comment to the end of the line.\n"
    "Lines end with \\n or \\r\\n; a carriage return followed by more of\n"
    "its line is refused, as a text whose lines end with \\r alone would\n"
    "otherwise read as one query.\n"
    "\n"
    "Options:\n"
    "  -i, --input FORMAT   format of GRAPH: edges (default), adj or pairs,\n"
    "                       as for 'loopy solve'\n"
    "      --base B         number of the first vertex, in GRAPH and in\n"
    "                       QUERIES: 1 or 0 (default: 1; for a binary\n"
    "                       GRAPH, that of its text)\n"
    "  -f, --format FMT     text (default): 'OUTCOME VALUE' per query;\n"
    "                       json: a JSON document, each query with its\n"
    "                       tokens (an infinite value is null, with its set\n"
    "                       as \"inf\")\n"
    "  -o, --output FILE    write to FILE (atomically) instead of standard\n"
    "                       output\n"
    "  -t, --threads N      threads to read GRAPH with (default 0: all cores)\n"
    "  -q, --quiet          nothing on standard error but errors (the\n"
    "                       default: sum prints no summary)\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example: a path 1 -> 2 -> 3 with a loop 1 -> 1\n"
    "  $ printf '3 3\\n1 2\\n2 3\\n1 1\\n' > g.txt\n"
    "  $ printf '2 2\\n2 3\\n1 2\\n1 1\\n' | loopy sum g.txt\n"
    "  L 0\n"
    "  W 1\n"
    "  W inf{0}\n"
    "  D inf{}\n"
    "\n"
    "Exit status: 0 success, 1 input rejected (the message names file, line\n"
    "and column), 2 bad command line, 3 file not readable or not writable,\n"
    "4 too large for memory or for 32-bit vertex ids.\n";

enum { OPT_INPUT, OPT_BASE, OPT_OUTPUT, OPT_FORMAT, OPT_THREADS, OPT_QUIET };

static const cli_option sum_options[] = {
    {"input", 'i', true, OPT_INPUT},   {"base", 0, true, OPT_BASE},
    {"output", 'o', true, OPT_OUTPUT}, {"format", 'f', true, OPT_FORMAT},
    {"threads", 't', true, OPT_THREADS}, {"quiet", 'q', false, OPT_QUIET},
    {NULL, 0, false, 0}};

/* All queries, parsed before anything is written: tokens of query q are
 * token[start[q] .. start[q + 1]). */
typedef struct queries {
    loopy_vertex *token;
    size_t token_count, token_capacity;
    size_t *start;
    size_t count, start_capacity;
} queries;

static bool push_token(queries *q, loopy_vertex v)
{
    if (q->token_count == q->token_capacity) {
        size_t cap = q->token_capacity ? q->token_capacity * 2 : 64;
        loopy_vertex *grown = realloc(q->token, cap * sizeof *grown);
        if (grown == NULL)
            return false;
        q->token = grown;
        q->token_capacity = cap;
    }
    q->token[q->token_count++] = v;
    return true;
}

/* Records that a query starts at the current token (or, at the end, the
 * end of the last one). */
static bool push_start(queries *q)
{
    if (q->count + 1 >= q->start_capacity) {
        size_t cap = q->start_capacity ? q->start_capacity * 2 : 64;
        size_t *grown = realloc(q->start, cap * sizeof *grown);
        if (grown == NULL)
            return false;
        q->start = grown;
        q->start_capacity = cap;
    }
    q->start[q->count] = q->token_count;
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A token for a message, as the library's readers show one: printable
 * ASCII as is, other bytes as '?', at most 20 bytes then "...". */
static const char *describe(char *buf, const char *token, size_t len)
{
    size_t shown = len > 20 ? 20 : len, k = 0;

    buf[k++] = '\'';
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)token[i];
        buf[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (len > shown) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

/* Parses the query text; on bad input prints "loopy sum: NAME:LINE:COL:
 * expected ..., found ..." and returns EXIT_INPUT. */
static int parse_queries(const char *text, size_t len, const char *name,
                         loopy_vertex n, uint32_t base, queries *q)
{
    size_t i = 0;
    uint64_t line = 0;

    /* A UTF-8 byte-order mark at the start (as some editors write one) is
     * skipped, as the graph readers skip it; columns of line 1 then count
     * from after it. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        i = 3;
    while (i < len) {
        size_t line_start = i, end = i, after;
        const char *cr;
        line++;
        while (end < len && text[end] != '\n')
            end++;
        /* A carriage return followed by more of the line (comments
         * included) ends lines in a text whose lines end with '\r' alone:
         * read as a blank, it would merge queries or hide them in a
         * comment.  Only the first one's run can be followed by more. */
        cr = memchr(text + i, '\r', end - i);
        after = cr == NULL ? end : (size_t)(cr - text);
        while (after < end && text[after] == '\r')
            after++;
        if (after < end) {
            size_t word = after + 1;
            char shown[32];
            while (word < end && !is_blank(text[after]) && !is_blank(text[word]))
                word++;
            cli_error("sum", "%s:%" PRIu64 ":%zu: expected a newline after the "
                      "carriage return, found %s (lines end with \\n or "
                      "\\r\\n)", name, line, after - line_start + 1,
                      describe(shown, text + after, word - after));
            return EXIT_INPUT;
        }
        while (i < end && is_blank(text[i]))
            i++;
        if (i < end && text[i] != '#') {
            if (!push_start(q))
                goto oom;
            /* Up to the line's end or a '#', which starts a comment. */
            while (i < end && text[i] != '#') {
                size_t word = i;
                uint64_t number = 0;
                bool digits = true, too_large = false;
                char shown[32];
                while (i < end && !is_blank(text[i]) && text[i] != '#') {
                    unsigned d = (unsigned)(text[i] - '0');
                    if (d > 9)
                        digits = false;
                    else if (number > (UINT64_MAX - d) / 10)
                        too_large = true;
                    else
                        number = number * 10 + d;
                    i++;
                }
                describe(shown, text + word, i - word);
                if (!digits || too_large) {
                    cli_error("sum", "%s:%" PRIu64 ":%zu: %sexpected a vertex "
                              "number, found %s", name, line,
                              word - line_start + 1,
                              digits ? "number too large: " : "", shown);
                    return EXIT_INPUT;
                }
                if (number < base || number - base >= n) {
                    if (n == 0)
                        cli_error("sum", "%s:%" PRIu64 ":%zu: expected no "
                                  "vertex (the graph is empty), found %s",
                                  name, line, word - line_start + 1, shown);
                    else
                        cli_error("sum", "%s:%" PRIu64 ":%zu: expected a "
                                  "vertex from %" PRIu32 " to %" PRIu64
                                  ", found %s", name, line,
                                  word - line_start + 1, base,
                                  (uint64_t)n - 1 + base, shown);
                    return EXIT_INPUT;
                }
                if (!push_token(q, (loopy_vertex)(number - base)))
                    goto oom;
                while (i < end && is_blank(text[i]))
                    i++;
            }
            q->count++;
        }
        i = end + 1;
    }
    if (!push_start(q))
        goto oom;
    return EXIT_OK;

oom:
    cli_error("sum", "out of memory");
    return EXIT_RESOURCE;
}

/* Writes "OUTCOME VALUE" for every query, or with json a document
 * {"base": B, "queries": [{"tokens": [...], "outcome": "W", "value": ...},
 * ...]}.  scratch holds the largest K. */
static void write_answers(cli_out *out, const loopy_grundy *grundy,
                          const queries *q, uint32_t *scratch, bool json,
                          uint32_t base)
{
    static const char outcome_letter[] = {'D', 'W', 'L'};

    if (json) {
        cli_out_str(out, "{\n  \"base\": ");
        cli_out_u64(out, base);
        cli_out_str(out, ",\n  \"queries\": [");
    }
    for (size_t i = 0; i < q->count; i++) {
        loopy_grundy_sum s;
        size_t count = 0;

        /* Cannot fail: the tokens were checked against the graph. */
        loopy_grundy_sum_value(grundy, q->token + q->start[i],
                               q->start[i + 1] - q->start[i], &s);
        if (s.value == LOOPY_GRUNDY_INF && s.infinite_token != LOOPY_NONE) {
            const uint32_t *set =
                loopy_grundy_inf_set(grundy, s.infinite_token, &count);
            for (size_t k = 0; k < count; k++)
                scratch[k] = set[k] ^ s.shift;
            qsort(scratch, count, sizeof *scratch, cli_compare_u32);
        }
        if (json) {
            cli_out_str(out, i ? ",\n    {\"tokens\": ["
                               : "\n    {\"tokens\": [");
            for (size_t t = q->start[i]; t < q->start[i + 1]; t++) {
                if (t > q->start[i])
                    cli_out_str(out, ", ");
                cli_out_u64(out, (uint64_t)q->token[t] + base);
            }
            cli_out_str(out, "], \"outcome\": \"");
            cli_out_char(out, outcome_letter[s.outcome]);
            cli_out_str(out, "\", ");
            cli_out_json_grundy(out, s.value, scratch, count);
            cli_out_char(out, '}');
            continue;
        }
        cli_out_char(out, outcome_letter[s.outcome]);
        cli_out_char(out, ' ');
        cli_out_grundy_value(out, s.value, scratch, count);
        cli_out_char(out, '\n');
    }
    if (json)
        cli_out_str(out, q->count ? "\n  ]\n}\n" : "]\n}\n");
}

int cmd_sum(int argc, char **argv)
{
    static const loopy_read_options read_defaults = LOOPY_READ_OPTIONS_INIT;
    loopy_read_options read = read_defaults;
    const char *graph_path = NULL, *query_path = NULL, *output = NULL;
    loopy_graph *graph = NULL;
    loopy_grundy *grundy = NULL;
    loopy_buffer buffer = {0};
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    queries q = {0};
    uint32_t *scratch = NULL;
    size_t largest_set = 1;
    loopy_status status;
    cli_parser p;
    cli_out out;
    bool json = false, out_open = false;
    int id, rc = EXIT_OK;

    read.base = CLI_BASE_UNSET;
    cli_parser_init(&p, "sum", sum_usage, argc, argv);
    while ((id = cli_next(&p, sum_options)) != CLI_END) {
        switch (id) {
        case CLI_EXIT:
            return p.status;
        case CLI_OPERAND:
            if (graph_path == NULL) {
                graph_path = p.value;
            } else if (query_path == NULL) {
                query_path = p.value;
            } else {
                cli_error("sum", "expected GRAPH and at most one QUERIES "
                          "file, found '%s' after them", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_INPUT:
        case OPT_BASE:
            if (!cli_graph_option("sum", id == OPT_INPUT ? CLI_GRAPH_INPUT
                                                         : CLI_GRAPH_BASE,
                                  p.value, &read))
                return EXIT_USAGE;
            break;
        case OPT_OUTPUT:
            output = p.value;
            break;
        case OPT_FORMAT:
            if (!cli_parse_json_format("sum", p.value, &json))
                return EXIT_USAGE;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("sum", p.value, &read.threads))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            break; /* sum prints no summary */
        default:
            return EXIT_USAGE;
        }
    }
    if (graph_path == NULL) {
        cli_error("sum", "expected a GRAPH file (see --help)");
        return EXIT_USAGE;
    }
    if (strcmp(graph_path, "-") == 0 &&
        (query_path == NULL || strcmp(query_path, "-") == 0)) {
        cli_error("sum", "GRAPH and QUERIES cannot both be standard input");
        return EXIT_USAGE;
    }

    if (!cli_output_distinct("sum", output, graph_path) ||
        !cli_output_distinct("sum", output, query_path))
        return EXIT_USAGE;
    /* The output is opened first, so that a bad -o fails before the work. */
    if (!cli_out_open(&out, "sum", output))
        return EXIT_IO;
    out_open = true;
    cli_use_threads(read.threads);
    rc = cli_load_graph("sum", graph_path, &read, &graph);
    if (rc != EXIT_OK)
        goto done;
    status = loopy_buffer_load(query_path, &buffer, &diag);
    if (status != LOOPY_OK) {
        rc = cli_report("sum", cli_input_name(query_path), status, &diag);
        goto done;
    }
    rc = parse_queries(buffer.data, buffer.len, cli_input_name(query_path),
                       loopy_graph_vertex_count(graph), read.base, &q);
    if (rc != EXIT_OK)
        goto done;
    status = loopy_grundy_compute(graph, &grundy);
    if (status != LOOPY_OK) {
        cli_error("sum", "%s: %s", cli_input_name(graph_path),
                  loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    for (loopy_vertex v = 0; v < loopy_grundy_vertex_count(grundy); v++) {
        size_t count;
        loopy_grundy_inf_set(grundy, v, &count);
        largest_set = count > largest_set ? count : largest_set;
    }
    scratch = malloc(largest_set * sizeof *scratch);
    if (scratch == NULL) {
        cli_error("sum", "out of memory");
        rc = EXIT_RESOURCE;
        goto done;
    }
    write_answers(&out, grundy, &q, scratch, json, read.base);
    out_open = false;
    if (!cli_out_close(&out, "sum"))
        rc = EXIT_IO;

done:
    if (out_open)
        cli_out_abort(&out);
    loopy_buffer_release(&buffer);
    free(scratch);
    free(q.token);
    free(q.start);
    loopy_grundy_free(grundy);
    loopy_graph_free(graph);
    return rc;
}
