/*
 * solve_common.c - what "loopy solve" and loopy-mpi share: the target
 * lists of the command line, and the bytes of the text and JSON outputs,
 * which the two programs must write identically.
 */
#include "solve_common.h"

#include <stdlib.h>
#include <string.h>

static const char outcome_letter[] = {'D', 'W', 'L', 'T'};

char *cli_solve_line(char *p, loopy_vertex v, uint8_t outcome,
                     uint32_t remoteness, loopy_vertex move, uint32_t base)
{
    p = cli_format_u64(p, (uint64_t)v + base);
    *p++ = ' ';
    *p++ = outcome_letter[outcome & 3];
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

static char *put(char *p, const char *s)
{
    size_t len = strlen(s);

    memcpy(p, s, len);
    return p + len;
}

static char *number_or_null(char *p, uint32_t v, uint32_t base)
{
    return v == LOOPY_NONE ? put(p, "null") : cli_format_u64(p, (uint64_t)v + base);
}

char *cli_solve_json_position(char *p, loopy_vertex v, uint8_t outcome,
                              uint32_t remoteness, loopy_vertex move,
                              uint32_t base)
{
    p = put(p, v ? ",\n    {\"vertex\": " : "\n    {\"vertex\": ");
    p = cli_format_u64(p, (uint64_t)v + base);
    p = put(p, ", \"outcome\": \"");
    *p++ = outcome_letter[outcome & 3];
    p = put(p, "\", \"remoteness\": ");
    p = number_or_null(p, remoteness, 0);
    p = put(p, ", \"move\": ");
    p = number_or_null(p, move, base);
    *p++ = '}';
    return p;
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

void cli_solve_json_head(cli_out *out, uint64_t n, uint64_t m, uint32_t base,
                         const loopy_solve_options *solve,
                         const uint64_t count[4])
{
    cli_out_str(out, "{\n  \"vertices\": ");
    cli_out_u64(out, n);
    cli_out_str(out, ",\n  \"edges\": ");
    cli_out_u64(out, m);
    cli_out_str(out, ",\n  \"base\": ");
    cli_out_u64(out, base);
    cli_out_str(out, solve->misere ? ",\n  \"play\": \"misere\""
                                   : ",\n  \"play\": \"normal\"");
    json_targets(out, "lose_at", solve->lose_at, solve->lose_at_count, base);
    json_targets(out, "win_at", solve->win_at, solve->win_at_count, base);
    json_targets(out, "tie_at", solve->tie_at, solve->tie_at_count, base);
    cli_out_str(out, ",\n  \"count\": {\"W\": ");
    cli_out_u64(out, count[LOOPY_WIN]);
    cli_out_str(out, ", \"L\": ");
    cli_out_u64(out, count[LOOPY_LOSE]);
    cli_out_str(out, ", \"D\": ");
    cli_out_u64(out, count[LOOPY_DRAW]);
    cli_out_str(out, ", \"T\": ");
    cli_out_u64(out, count[LOOPY_TIE]);
    cli_out_str(out, "},\n  \"positions\": [");
}

void cli_solve_json_tail(cli_out *out, uint64_t n)
{
    cli_out_str(out, n ? "\n  ]\n}\n" : "]\n}\n");
}

/* ---- Targets ---- */

/* Converts target vertices from the input's numbering to 0-based ids,
 * checking them against n. */
static bool convert_targets(const char *cmd, const char *option,
                            const uint64_t *given, size_t count, uint32_t base,
                            uint64_t n, loopy_vertex **out)
{
    loopy_vertex *ids = malloc((count ? count : 1) * sizeof *ids);

    if (ids == NULL) {
        cli_error(cmd, "out of memory");
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        if (given[i] < base || given[i] - base >= n) {
            cli_error(cmd, "%s: vertex %" PRIu64 " is not in the graph "
                      "(its vertices are %" PRIu32 "..%" PRIu64 ")", option,
                      given[i], base, n + base - 1);
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

static const char *const target_option[3] = {"--lose-at", "--win-at", "--tie-at"};

/* Checks that no vertex is in two of the lists; on failure prints a message
 * naming the first vertex, in list order, that is in an earlier list too. */
static int targets_disjoint(const char *cmd, loopy_vertex *const ids[3],
                            const size_t count[3], uint64_t n, uint32_t base)
{
    uint8_t *in_list; /* 1 + the index of the first list with the vertex */
    int nonempty = 0;

    for (int k = 0; k < 3; k++)
        nonempty += count[k] > 0;
    if (nonempty < 2)
        return EXIT_OK;
    in_list = calloc(n, 1);
    if (in_list == NULL) {
        cli_error(cmd, "out of memory");
        return EXIT_RESOURCE;
    }
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < count[k]; i++) {
            loopy_vertex v = ids[k][i];
            if (in_list[v] != 0 && in_list[v] != k + 1) {
                cli_error(cmd, "vertex %" PRIu64 " is in both %s and %s",
                          (uint64_t)v + base, target_option[in_list[v] - 1],
                          target_option[k]);
                free(in_list);
                return EXIT_USAGE;
            }
            in_list[v] = (uint8_t)(k + 1);
        }
    }
    free(in_list);
    return EXIT_OK;
}

int cli_solve_targets(const char *cmd, const cli_target_args *given,
                      uint32_t base, uint64_t n, cli_targets *owned,
                      loopy_solve_options *solve)
{
    loopy_vertex **ids = owned->ids;
    size_t count[3] = {given->lose_at_count, given->win_at_count,
                       given->tie_at_count};
    const uint64_t *lists[3] = {given->lose_at, given->win_at, given->tie_at};
    int rc = EXIT_USAGE;

    memset(owned, 0, sizeof *owned);
    for (int k = 0; k < 3; k++)
        if (!convert_targets(cmd, target_option[k], lists[k], count[k], base,
                             n, &ids[k]))
            goto fail;
    rc = targets_disjoint(cmd, ids, count, n, base);
    if (rc != EXIT_OK)
        goto fail;
    solve->lose_at = ids[0];
    solve->lose_at_count = sort_unique(ids[0], count[0]);
    solve->win_at = ids[1];
    solve->win_at_count = sort_unique(ids[1], count[1]);
    solve->tie_at = ids[2];
    solve->tie_at_count = sort_unique(ids[2], count[2]);
    return EXIT_OK;

fail:
    cli_solve_targets_free(owned);
    return rc;
}

void cli_solve_targets_free(cli_targets *owned)
{
    for (int k = 0; k < 3; k++) {
        free(owned->ids[k]);
        owned->ids[k] = NULL;
    }
}
