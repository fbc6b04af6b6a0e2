/* climb.c - "loopy climb": the height-grid game of seed problem 002. */
#include "seeds.h"

#include <string.h>

static const char climb_usage[] =
    "Usage: loopy climb [OPTIONS] [FILE]\n"
    "\n"
    "Two climbers move a flag in turn, the first player first, each move to\n"
    "an orthogonally adjacent cell strictly higher than the flag's; a player\n"
    "who cannot move loses.  For each query prints 'First' if the player to\n"
    "move first wins from that cell, else 'Second'.  Reads FILE, or standard\n"
    "input when FILE is absent or '-'.\n"
    "\n"
    "Input (numbers separated by any white space):\n"
    "  T                test cases, then T times:\n"
    "  n m              rows and columns\n"
    "  h ... h          n rows of m heights, 1..4294967295, all different\n"
    "  q                queries\n"
    "  r c              q times: the flag starts on row r, column c\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT   text (default: the contest's format) or json:\n"
    "                     {\"answers\": [\"Second\", \"First\", ...]}, every\n"
    "                     query's answer in order\n"
    SEEDS_COMMON_OPTIONS
    "\n"
    "Example (the problem's sample):\n"
    "  $ printf '1\\n2 3\\n1 2 3\\n6 5 4\\n3\\n2 1\\n2 3\\n1 1\\n' "
    "| loopy climb\n"
    "  Second\n"
    "  Second\n"
    "  First\n"
    "\n"
    "Exit status: 0 success, 1 input rejected (the message names file, line\n"
    "and column: a repeated height, a query outside the grid, ...), 2 bad\n"
    "command line, 3 file not readable or output not writable, 4 too large\n"
    "for memory.\n";

int cmd_climb(int argc, char **argv)
{
    loopy_climb_answers answers = {0, NULL};
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_source *source = NULL;
    loopy_status status;
    seed_args args;
    cli_out out;
    int rc;

    rc = seed_parse_args("climb", argc, argv, climb_usage, &args, NULL, NULL,
                         NULL);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    rc = seed_open("climb", &args, &source, &out);
    if (rc != EXIT_OK)
        return rc;
    status = loopy_climb_run(source, &answers, &diag);
    loopy_source_free(source);
    if (status != LOOPY_OK) {
        cli_out_abort(&out);
        return cli_report("climb", args.name, status, &diag);
    }
    if (args.json) {
        cli_out_str(&out, "{\"answers\": [");
        for (size_t i = 0; i < answers.count; i++) {
            cli_out_str(&out, i ? ",\n  " : "\n  ");
            cli_out_str(&out, answers.first_wins[i] ? "\"First\"" : "\"Second\"");
        }
        cli_out_str(&out, answers.count ? "\n]}\n" : "]}\n");
    }
    /* Lines are gathered in a chunk and written a chunk at a time. */
    for (size_t i = 0; i < answers.count && !args.json;) {
        char chunk[8192];
        size_t len = 0;
        /* Without a branch (the answers are a coin toss): 8 bytes are
         * copied, and len moves past the 6 or 7 of the line. */
        for (; i < answers.count && len + 8 <= sizeof chunk; i++) {
            unsigned first = answers.first_wins[i] != 0;
            memcpy(chunk + len, first ? "First\n\n" : "Second\n", 8);
            len += 7 - first;
        }
        cli_out_bytes(&out, chunk, len);
    }
    rc = cli_out_close(&out, "climb") ? EXIT_OK : EXIT_IO;
    loopy_climb_answers_release(&answers);
    return rc;
}
