/*
 * solve_graph.c - a complete program using the loopy library: it builds the
 * worked example of README.md (examples/game.txt) from arrays of edges,
 * solves it and prints what "loopy solve -q examples/game.txt" prints.
 *
 * After "make install", with libloopy.so:
 *     cc examples/solve_graph.c $(pkg-config --cflags --libs loopy)
 * with libloopy.a (-l:libloopy.a names the archive, which -lloopy would
 * pass over for the shared library):
 *     cc examples/solve_graph.c \
 *         $(pkg-config --static --cflags --libs loopy | sed 's/-lloopy/-l:libloopy.a/')
 * In the source tree, after "make":
 *     cc -Iinclude examples/solve_graph.c build/libloopy.a -lzstd -lm -fopenmp
 */
#include <stdio.h>
#include <stdlib.h>

#include "loopy.h"

int main(void)
{
    /* Moves u -> v, vertices numbered from 1 as in examples/game.txt. */
    static const loopy_vertex moves[][2] = {
        {1, 2}, {1, 3}, {1, 8}, {2, 4}, {3, 4}, {3, 5},
        {4, 6}, {5, 5}, {5, 7}, {6, 7}, {8, 8}, {8, 6},
    };
    enum { N = 8, M = sizeof moves / sizeof moves[0] };
    loopy_vertex tail[M], head[M];
    for (size_t i = 0; i < M; i++) { /* the library numbers from 0 */
        tail[i] = moves[i][0] - 1;
        head[i] = moves[i][1] - 1;
    }

    loopy_graph *graph = NULL;
    loopy_solution *solution = NULL;
    loopy_status status = loopy_graph_from_edges(N, M, tail, head, &graph);
    if (status == LOOPY_OK)
        status = loopy_solve(graph, NULL, &solution); /* normal play */
    if (status != LOOPY_OK) {
        fprintf(stderr, "solve_graph: %s\n", loopy_strerror(status));
        loopy_graph_free(graph);
        return EXIT_FAILURE;
    }

    const uint8_t *outcome = loopy_solution_outcomes(solution);
    const uint32_t *remoteness = loopy_solution_remoteness(solution);
    const loopy_vertex *best = loopy_solution_best_moves(solution);
    for (loopy_vertex v = 0; v < N; v++) {
        printf("%" LOOPY_PRI_VERTEX " %c ", v + 1, "DWLT"[outcome[v]]);
        if (remoteness[v] == LOOPY_NONE)
            printf("- ");
        else
            printf("%" PRIu32 " ", remoteness[v]);
        if (best[v] == LOOPY_NONE)
            printf("-\n");
        else
            printf("%" LOOPY_PRI_VERTEX "\n", best[v] + 1);
    }

    loopy_solution_free(solution);
    loopy_graph_free(graph);
    return EXIT_SUCCESS;
}
