/*
 * graph_input.c - what the commands that read a game graph share: the
 * --input and --base options, loading (text or binary, file or standard
 * input) with messages that name the place of bad input, and timing.
 */
#include "cli.h"

#include <string.h>
#include <time.h>

bool cli_graph_option(const char *cmd, int id, const char *value,
                      loopy_read_options *read)
{
    uint64_t number;

    if (id == CLI_GRAPH_INPUT) {
        if (strcmp(value, "edges") == 0) {
            read->format = LOOPY_TEXT_EDGES;
        } else if (strcmp(value, "adj") == 0) {
            read->format = LOOPY_TEXT_ADJ;
        } else if (strcmp(value, "pairs") == 0) {
            read->format = LOOPY_TEXT_PAIRS;
        } else {
            cli_error(cmd, "--input: expected 'edges', 'adj' or 'pairs', "
                      "found '%s'", value);
            return false;
        }
        return true;
    }
    if (!cli_parse_uint(cmd, "--base", value, 0, 1, &number))
        return false;
    read->base = (uint32_t)number;
    return true;
}

int cli_load_graph(const char *cmd, const char *path,
                   loopy_read_options *read, loopy_graph **graph)
{
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    bool base_given = read->base != CLI_BASE_UNSET;
    loopy_status status;

    if (!base_given)
        read->base = 1;
    status = loopy_read_file(path, read, graph, &diag);
    if (status == LOOPY_OK && !base_given)
        read->base = loopy_graph_base(*graph);
    /* A binary file may hold no successor lists; build them if wanted. */
    if (status == LOOPY_OK && !read->skip_successors) {
        status = loopy_graph_build_successors(*graph);
        if (status != LOOPY_OK) {
            loopy_graph_free(*graph);
            *graph = NULL;
        }
    }
    if (status != LOOPY_OK)
        return cli_report(cmd, cli_input_name(path), status, &diag);
    return EXIT_OK;
}

const char *cli_input_name(const char *path)
{
    return path != NULL && strcmp(path, "-") != 0 ? path : "<stdin>";
}

double cli_seconds_since(const struct timespec *start)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) +
           (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}
