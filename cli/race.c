/* race.c - "loopy race": Luogu P6560, whoever moves the token onto y wins. */
#include "seeds.h"

#include <stdlib.h>
#include <string.h>

static const char race_usage[] =
    "Usage: loopy race [OPTIONS] [FILE]\n"
    "\n"
    "Luogu P6560: on a directed graph, A and B move a token in turn along\n"
    "an edge, A first.  In each round whoever moves the token onto the end\n"
    "vertex y wins, and whoever cannot move loses.  Prints per round 1 if A\n"
    "wins, -1 if B wins, 0 if neither can force a win.  A round that starts\n"
    "on its end (x = y) prints -1: the game is over and A, to move, lost.\n"
    "Reads FILE, or standard input when FILE is absent or '-'.\n"
    "\n"
    "Input (numbers separated by any white space):\n"
    "  n m q      vertices 1..n, m moves, q rounds\n"
    "  u v        m times: a move from u to v\n"
    "  x y        q times: a round from x whose end is y\n"
    "\n"
    "Options:\n"
    "      --strategy S   how the distinct end vertices are handled (the\n"
    "                     answers are the same):\n"
    "                     lanes: solve the game once, then re-solve only the\n"
    "                     part the ends can change, 64 ends at a time;\n"
    "                     local: likewise, one end at a time;\n"
    "                     auto (default): lanes for 4 ends or more, else\n"
    "                     local, with a full pass when the part is large;\n"
    "                     full: one full retrograde pass per end vertex\n"
    "  -f, --format FMT   text (default: the contest's format) or json:\n"
    "                     {\"rounds\": [{\"start\": X, \"end\": Y, \"result\": R},\n"
    "                     ...]}, one per round, R as in the text\n"
    SEEDS_COMMON_OPTIONS
    "\n"
    "Example: a cycle 1 -> 2 -> 3 -> 1 with an exit 3 -> 4 -> 5\n"
    "  $ printf '5 5 3\\n1 2\\n2 3\\n3 1\\n3 4\\n4 5\\n2 3\\n1 5\\n3 3\\n' "
    "| loopy race\n"
    "  1\n"
    "  0\n"
    "  -1\n"
    "\n"
    "Exit status: 0 success, 1 input rejected (the message names file, line\n"
    "and column), 2 bad command line, 3 file not readable or output not\n"
    "writable, 4 too large for memory or for 32-bit vertex ids.\n";

enum { OPT_STRATEGY = 1 };

static const cli_option race_options[] = {
    {"strategy", 0, true, OPT_STRATEGY}, SEED_OPTIONS, {NULL, 0, false, 0}};

static bool race_option(const char *cmd, int id, const char *value, void *ctx)
{
    loopy_race_strategy *strategy = ctx;

    (void)id; /* --strategy is the only one */
    if (strcmp(value, "auto") == 0)
        *strategy = LOOPY_RACE_AUTO;
    else if (strcmp(value, "local") == 0)
        *strategy = LOOPY_RACE_LOCAL;
    else if (strcmp(value, "full") == 0)
        *strategy = LOOPY_RACE_FULL;
    else if (strcmp(value, "lanes") == 0)
        *strategy = LOOPY_RACE_LANES;
    else {
        cli_error(cmd, "--strategy: expected 'auto', 'lanes', 'local' or "
                  "'full', found '%s'", value);
        return false;
    }
    return true;
}

int cmd_race(int argc, char **argv)
{
    loopy_race_strategy strategy = LOOPY_RACE_AUTO;
    loopy_race_rounds rounds = {0, NULL, NULL};
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_source *source = NULL;
    loopy_graph *graph = NULL;
    int8_t *answer = NULL;
    loopy_status status;
    seed_args args;
    cli_out out;
    bool out_open = false;
    int rc;

    rc = seed_parse_args("race", argc, argv, race_usage, &args, race_options,
                         race_option, &strategy);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    rc = seed_open("race", &args, &source, &out);
    if (rc != EXIT_OK)
        return rc;
    out_open = true;
    status = loopy_race_read(source, &graph, &rounds, &diag);
    loopy_source_free(source);
    if (status != LOOPY_OK) {
        rc = cli_report("race", args.name, status, &diag);
        goto done;
    }
    answer = malloc(rounds.count ? rounds.count : 1);
    if (answer == NULL) {
        cli_error("race", "out of memory");
        rc = EXIT_RESOURCE;
        goto done;
    }
    status = loopy_race_answer(graph, &rounds, strategy, answer);
    if (status != LOOPY_OK) {
        cli_error("race", "%s: %s", args.name, loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    if (args.json) {
        cli_out_str(&out, "{\"rounds\": [");
        for (size_t i = 0; i < rounds.count; i++) {
            cli_out_str(&out, i ? ",\n  {\"start\": " : "\n  {\"start\": ");
            cli_out_u64(&out, (uint64_t)rounds.start[i] + 1);
            cli_out_str(&out, ", \"end\": ");
            cli_out_u64(&out, (uint64_t)rounds.end[i] + 1);
            cli_out_str(&out, answer[i] > 0   ? ", \"result\": 1}"
                              : answer[i] < 0 ? ", \"result\": -1}"
                                              : ", \"result\": 0}");
        }
        cli_out_str(&out, rounds.count ? "\n]}\n" : "]}\n");
    } else {
        for (size_t i = 0; i < rounds.count; i++)
            cli_out_str(&out, answer[i] > 0   ? "1\n"
                              : answer[i] < 0 ? "-1\n"
                                              : "0\n");
    }
    out_open = false;
    rc = cli_out_close(&out, "race") ? EXIT_OK : EXIT_IO;

done:
    if (out_open)
        cli_out_abort(&out);
    free(answer);
    loopy_race_rounds_release(&rounds);
    loopy_graph_free(graph);
    return rc;
}
