/* octal.c - "loopy octal": Sprague-Grundy values of an octal heap game. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char octal_usage[] =
    "Usage: loopy octal [OPTIONS] CODE N\n"
    "\n"
    "Print the Sprague-Grundy values of the heap game with octal code CODE\n"
    "for heaps of 0..N tokens, one 'HEAP VALUE' line each.  CODE is 0.d1d2...\n"
    "(1 to 64 octal digits): a move takes k tokens from one heap where digit\n"
    "dk allows it - bit 1: when they are the whole heap; bit 2: leaving one\n"
    "heap; bit 4: leaving two non-empty heaps.  For example 0.77 is Kayles,\n"
    "0.07 Dawson's Kayles and 0.137 Dawson's Chess.  A heap's value is the\n"
    "mex of its options' values, two heaps being valued by XOR.\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT     text (default): 'HEAP VALUE' per line; json: a\n"
    "                       JSON document {\"code\": CODE, \"values\": [...]}\n"
    "                       (the value of heap k at index k)\n"
    "  -o, --output FILE    write to FILE (atomically) instead of standard\n"
    "                       output\n"
    "  -q, --quiet          nothing on standard error but errors (the\n"
    "                       default: octal prints no summary)\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example: Kayles\n"
    "  $ loopy octal 0.77 5\n"
    "  0 0\n"
    "  1 1\n"
    "  2 2\n"
    "  3 3\n"
    "  4 1\n"
    "  5 4\n"
    "\n"
    "N is at most 100000000.  Time: codes without a split (no digit with\n"
    "bit 4) take about N times the digits (0.3 to 10^8: about 3 s); codes\n"
    "with one up to about N^2 (Kayles to 10^6: about 2 s, and about 4 times\n"
    "as long per doubling of N), so N = 10^8 would take many hours.\n"
    "\n"
    "Exit status: 0 success, 2 bad command line (including a malformed CODE:\n"
    "the message gives its column), 3 output not writable, 4 out of memory.\n";

enum { OPT_OUTPUT, OPT_FORMAT, OPT_QUIET };

static const cli_option octal_options[] = {
    {"output", 'o', true, OPT_OUTPUT},
    {"format", 'f', true, OPT_FORMAT},
    {"quiet", 'q', false, OPT_QUIET},
    {NULL, 0, false, 0}};

#define OCTAL_MAX_HEAPS 100000000u

int cmd_octal(int argc, char **argv)
{
    const char *code = NULL, *heaps_text = NULL, *output = NULL;
    uint64_t heaps;
    uint32_t *values = NULL;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status status;
    cli_parser p;
    cli_out out;
    bool json = false, out_open = false;
    int id, rc = EXIT_OK;

    cli_parser_init(&p, "octal", octal_usage, argc, argv);
    while ((id = cli_next(&p, octal_options)) != CLI_END) {
        switch (id) {
        case CLI_EXIT:
            return p.status;
        case CLI_OPERAND:
            if (code == NULL) {
                code = p.value;
            } else if (heaps_text == NULL) {
                heaps_text = p.value;
            } else {
                cli_error("octal", "expected CODE and N, found '%s' after "
                          "them", p.value);
                return EXIT_USAGE;
            }
            break;
        case OPT_OUTPUT:
            output = p.value;
            break;
        case OPT_FORMAT:
            if (!cli_parse_json_format("octal", p.value, &json))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            break; /* octal prints no summary */
        default:
            return EXIT_USAGE;
        }
    }
    if (heaps_text == NULL) {
        cli_error("octal", "expected CODE and N (see --help)");
        return EXIT_USAGE;
    }
    if (!cli_parse_uint("octal", "N", heaps_text, 0, OCTAL_MAX_HEAPS, &heaps))
        return EXIT_USAGE;
    /* The output is opened first, so that a bad -o fails before the work. */
    if (!cli_out_open(&out, "octal", output))
        return EXIT_IO;
    out_open = true;
    values = malloc(((size_t)heaps + 1) * sizeof *values);
    if (values == NULL) {
        cli_error("octal", "out of memory");
        rc = EXIT_RESOURCE;
        goto done;
    }
    status = loopy_octal_values(code, (uint32_t)heaps, values, &diag);
    if (status == LOOPY_EPARSE) {
        cli_error("octal", "code '%s', column %" PRIu64 ": %s", code,
                  diag.column, diag.message);
        rc = EXIT_USAGE;
        goto done;
    }
    if (status != LOOPY_OK) {
        cli_error("octal", "%s", loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    if (json) {
        /* The code as given: loopy_octal_values accepted it, so it is
         * "0." or "." and octal digits, nothing to escape. */
        cli_out_str(&out, "{\"code\": \"");
        cli_out_str(&out, code);
        cli_out_str(&out, "\", \"values\": [");
        for (uint64_t n = 0; n <= heaps; n++) {
            if (n > 0)
                cli_out_str(&out, ", ");
            cli_out_u64(&out, values[n]);
        }
        cli_out_str(&out, "]}\n");
    }
    for (uint64_t n = 0; n <= heaps && !json; n++) {
        cli_out_u64(&out, n);
        cli_out_char(&out, ' ');
        cli_out_u64(&out, values[n]);
        cli_out_char(&out, '\n');
    }
    out_open = false;
    if (!cli_out_close(&out, "octal"))
        rc = EXIT_IO;

done:
    if (out_open)
        cli_out_abort(&out);
    free(values);
    return rc;
}
