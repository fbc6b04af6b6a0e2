/* sleepy.c - "loopy sleepy": Codeforces 936B, one player moves for both. */
#include "seeds.h"

static const char sleepy_usage[] =
    "Usage: loopy sleepy [OPTIONS] [FILE]\n"
    "\n"
    "Codeforces 936B (Sleepy Game): Petya moves the token for both players,\n"
    "starting at s; a player who cannot move loses, and a game of 10^6 moves\n"
    "is a draw.  Prints 'Win' and a shortest winning walk (the vertices from\n"
    "s to a vertex without moves, an odd number of moves, fewer than 10^6),\n"
    "else 'Draw' if play can last 10^6 moves (a cycle, or a path that long,\n"
    "is reachable from s), else 'Lose'.  Reads FILE, or standard input when\n"
    "FILE is absent or '-'.\n"
    "\n"
    "Input (numbers separated by any white space):\n"
    "  n m              vertices 1..n, m moves in all\n"
    "  c a1 .. ac       n times, for vertex i = 1..n: its c successors\n"
    "  s                the start\n"
    "\n"
    "Options:\n"
    "  -f, --format FMT   text (default: the contest's format) or json:\n"
    "                     {\"outcome\": \"Win\", \"path\": [1, 2, ...]} (the\n"
    "                     path is null without a win)\n"
    SEEDS_COMMON_OPTIONS
    "\n"
    "Example (the problem's first sample):\n"
    "  $ printf '5 6\\n2 2 3\\n2 4 5\\n1 4\\n1 5\\n0\\n1\\n' | loopy sleepy\n"
    "  Win\n"
    "  1 2 4 5\n"
    "\n"
    "Exit status: 0 success, 1 input rejected (the message names file, line\n"
    "and column), 2 bad command line, 3 file not readable or output not\n"
    "writable, 4 too large for memory or for 32-bit vertex ids.\n";

int cmd_sleepy(int argc, char **argv)
{
    loopy_sleepy_result result = {LOOPY_LOSE, NULL, 0};
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_source *source = NULL;
    loopy_graph *graph = NULL;
    loopy_vertex start = 0;
    loopy_status status;
    seed_args args;
    cli_out out;
    bool out_open = false;
    int rc;

    rc = seed_parse_args("sleepy", argc, argv, sleepy_usage, &args, NULL, NULL,
                         NULL);
    if (rc != EXIT_OK)
        return rc < 0 ? EXIT_OK : rc;
    rc = seed_open("sleepy", &args, &source, &out);
    if (rc != EXIT_OK)
        return rc;
    out_open = true;
    status = loopy_sleepy_read(source, &graph, &start, &diag);
    loopy_source_free(source);
    if (status != LOOPY_OK) {
        rc = cli_report("sleepy", args.name, status, &diag);
        goto done;
    }
    status = loopy_sleepy_solve(graph, start, &result);
    if (status != LOOPY_OK) {
        cli_error("sleepy", "%s: %s", args.name, loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    if (args.json) {
        cli_out_str(&out, result.outcome == LOOPY_WIN    ? "{\"outcome\": \"Win\""
                          : result.outcome == LOOPY_DRAW ? "{\"outcome\": \"Draw\""
                                                         : "{\"outcome\": \"Lose\"");
        cli_out_str(&out, ", \"path\": ");
        if (result.outcome != LOOPY_WIN)
            cli_out_str(&out, "null");
        for (size_t i = 0; i < result.path_len; i++) {
            cli_out_str(&out, i ? ", " : "[");
            cli_out_u64(&out, (uint64_t)result.path[i] + 1);
        }
        cli_out_str(&out, result.outcome == LOOPY_WIN ? "]}\n" : "}\n");
    } else if (result.outcome == LOOPY_WIN) {
        cli_out_str(&out, "Win\n");
        for (size_t i = 0; i < result.path_len; i++) {
            if (i > 0)
                cli_out_char(&out, ' ');
            cli_out_u64(&out, (uint64_t)result.path[i] + 1);
        }
        cli_out_char(&out, '\n');
    } else {
        cli_out_str(&out, result.outcome == LOOPY_DRAW ? "Draw\n" : "Lose\n");
    }
    out_open = false;
    rc = cli_out_close(&out, "sleepy") ? EXIT_OK : EXIT_IO;

done:
    if (out_open)
        cli_out_abort(&out);
    loopy_sleepy_result_release(&result);
    loopy_graph_free(graph);
    return rc;
}
