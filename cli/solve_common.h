/*
 * solve_common.h - what "loopy solve" (cli/solve.c) and loopy-mpi (mpi/)
 * share, so that their outputs are the same bytes.
 */
#ifndef LOOPY_CLI_SOLVE_COMMON_H
#define LOOPY_CLI_SOLVE_COMMON_H

#include "cli.h"

/* ---- Text and JSON output ----
 * The text output is one line per vertex, "VERTEX OUTCOME REMOTENESS MOVE"
 * ('-' where none applies); the JSON output a head, one member of the
 * "positions" array per vertex, and a tail.  Vertices are 0-based here and
 * written in the input's numbering (base). */

/* Bytes of one text line, at most. */
#define CLI_SOLVE_LINE_MAX 36
/* Writes vertex v's line at p; returns its end. */
char *cli_solve_line(char *p, loopy_vertex v, uint8_t outcome,
                     uint32_t remoteness, loopy_vertex move, uint32_t base);

/* Bytes of one JSON position, at most. */
#define CLI_SOLVE_JSON_MAX 128
/* Writes vertex v's member of "positions" at p (with the separator before
 * it); returns its end. */
char *cli_solve_json_position(char *p, loopy_vertex v, uint8_t outcome,
                              uint32_t remoteness, loopy_vertex move,
                              uint32_t base);
/* The JSON document up to the "positions" array's first member: sizes,
 * base, play, the (sorted) target lists of solve and the counts, indexed
 * by loopy_outcome. */
void cli_solve_json_head(cli_out *out, uint64_t n, uint64_t m, uint32_t base,
                         const loopy_solve_options *solve,
                         const uint64_t count[4]);
/* The end of the document, for n positions. */
void cli_solve_json_tail(cli_out *out, uint64_t n);

/* ---- Targets ---- */

/* --lose-at, --win-at and --tie-at as given, in the input's numbering. */
typedef struct cli_target_args {
    uint64_t *lose_at, *win_at, *tie_at;
    size_t lose_at_count, win_at_count, tie_at_count;
} cli_target_args;

/* The converted lists, owned by the caller. */
typedef struct cli_targets {
    loopy_vertex *ids[3]; /* lose_at, win_at, tie_at */
} cli_targets;

/* Converts the lists to 0-based ids of a graph of n vertices, sorted and
 * without repeats, into *owned (free them with cli_solve_targets_free),
 * and points solve's target lists at them.  Returns EXIT_OK, or the exit
 * status after a message: a vertex not in the graph or in two lists
 * (EXIT_USAGE), out of memory (EXIT_RESOURCE). */
int cli_solve_targets(const char *cmd, const cli_target_args *given,
                      uint32_t base, uint64_t n, cli_targets *owned,
                      loopy_solve_options *solve);
void cli_solve_targets_free(cli_targets *owned);

#endif
