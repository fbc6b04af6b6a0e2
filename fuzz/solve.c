/*
 * solve.c - fuzz the solver end to end.
 *
 * The input is an edge list (1-based), read with trailing text allowed; the
 * bytes after the graph choose the solve options:
 *   byte 0       bit 0: misere play; bits 1-2: thread count 0..3; bit 3:
 *                ties (below)
 *   then pairs   (hi, lo): a target vertex ((hi & 0x7f) << 8 | lo) modulo
 *                n + 1 (so n itself, out of range, is possible); hi's top
 *                bit puts it in win_at, else in lose_at.  With ties, a
 *                pair whose hi has bit 0x40 but not the top bit names a
 *                tie_at vertex ((hi & 0x3f) << 8 | lo, modulo n + 1)
 *                instead.  At most 64 targets in all.
 * The solution is checked position by position against the definitions
 * (fuzz_require_solution); then the graph is solved again with a reusable
 * solver, twice and with another thread count, and the bytes must agree.
 * Targets out of range or in two lists must be refused with LOOPY_EINVAL.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TARGETS 64

FUZZ_TARGET(solve)
{
    /* Up to 127,000 positions: quick to solve and to check. */
    loopy_read_options read_options = {
        .format = LOOPY_TEXT_EDGES, .base = 1, .memory_limit = 4u << 20,
        .allow_trailing = 1};
    loopy_solve_options options = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_vertex lose_at[MAX_TARGETS], win_at[MAX_TARGETS];
    loopy_vertex tie_at[MAX_TARGETS];
    loopy_graph *graph = NULL;
    loopy_solution *first, *second = NULL, *third = NULL;
    loopy_solver *solver = NULL;
    loopy_status status;
    const uint8_t *tail;
    size_t end = 0, tail_len;
    uint8_t *role = NULL; /* 1 lose, 2 win, 3 tie */
    loopy_vertex n;
    int invalid = 0, ties = 0;

    if (loopy_read_text((const char *)data, size, &read_options, &graph, &end,
                        NULL) != LOOPY_OK)
        return 0; /* the reader harnesses check failures */
    n = loopy_graph_vertex_count(graph);
    tail = data + end;
    tail_len = size - end;
    if (tail_len > 0) {
        options.misere = tail[0] & 1;
        options.threads = (tail[0] >> 1) & 3;
        ties = (tail[0] >> 3) & 1;
    }
    role = calloc((size_t)n + 1, 1);
    FUZZ_REQUIRE(role != NULL, "out of memory");
    for (size_t i = 1; i + 1 < tail_len &&
                       options.lose_at_count + options.win_at_count +
                               options.tie_at_count < MAX_TARGETS;
         i += 2) {
        uint8_t kind = tail[i] & 0x80 ? 2 : ties && (tail[i] & 0x40) ? 3 : 1;
        uint32_t raw = (uint32_t)(tail[i] & (kind == 3 ? 0x3f : 0x7f)) << 8 |
                       tail[i + 1];
        loopy_vertex v = (loopy_vertex)(raw % ((uint64_t)n + 1));

        if (kind == 2)
            win_at[options.win_at_count++] = v;
        else if (kind == 3)
            tie_at[options.tie_at_count++] = v;
        else
            lose_at[options.lose_at_count++] = v;
        if (v >= n || (role[v] != 0 && role[v] != kind))
            invalid = 1;
        else
            role[v] = kind;
    }
    options.lose_at = options.lose_at_count ? lose_at : NULL;
    options.win_at = options.win_at_count ? win_at : NULL;
    options.tie_at = options.tie_at_count ? tie_at : NULL;

    first = (loopy_solution *)(uintptr_t)1; /* must be overwritten */
    status = loopy_solve(graph, &options, &first);
    if (invalid) {
        FUZZ_REQUIRE(status == LOOPY_EINVAL && first == NULL,
                     "bad targets accepted: status %d", (int)status);
        goto done;
    }
    FUZZ_REQUIRE(status == LOOPY_OK && first != NULL, "status %d", (int)status);
    fuzz_require_solution(graph, &options, first);

    FUZZ_REQUIRE(loopy_solver_create(graph, &solver) == LOOPY_OK, "solver");
    FUZZ_REQUIRE(loopy_solver_run(solver, &options, &second) == LOOPY_OK, "run");
    fuzz_require_same_solution(first, second);
    options.threads = options.threads == 1 ? 2 : 1;
    FUZZ_REQUIRE(loopy_solver_run(solver, &options, &third) == LOOPY_OK, "run");
    fuzz_require_same_solution(first, third);

done:
    loopy_solution_free(first);
    loopy_solution_free(second);
    loopy_solution_free(third);
    loopy_solver_free(solver);
    loopy_graph_free(graph);
    free(role);
    return 0;
}
