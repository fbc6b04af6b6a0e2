/*
 * solution_check.c - an independent check of a solution, position by
 * position, against the definitions in loopy.h (no propagation, no queue):
 *
 *  - a target, or a position without moves, has remoteness 0 and no move;
 *  - a Win of remoteness r > 0 has a Lose successor of remoteness r - 1 and
 *    none of less; its best move is the least-numbered such successor;
 *  - a Lose of remoteness r > 0 has only Win successors, the greatest
 *    remoteness among them is r - 1; its best move is the least-numbered
 *    Win successor of remoteness r - 1;
 *  - a Draw has no remoteness, no Lose successor and a Draw successor; its
 *    best move is the least-numbered Draw successor.
 *
 * These local conditions determine the solution: the Win/Lose labels are
 * grounded (remoteness falls by one along each best move down to 0), and a
 * position wrongly labelled Draw of least true remoteness would have, among
 * correctly labelled successors, a Lose (true Win) or only Wins (true Lose),
 * either of which the Draw rule forbids.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

enum { ROLE_NONE, ROLE_LOSE, ROLE_WIN };

static void require_position(const loopy_graph *g, const loopy_solution *sol,
                             loopy_vertex v, int role, int misere)
{
    const uint8_t *outcome = loopy_solution_outcomes(sol);
    const uint32_t *remoteness = loopy_solution_remoteness(sol);
    const loopy_vertex *best = loopy_solution_best_moves(sol);
    loopy_edge k;
    const loopy_vertex *succ = loopy_graph_successors(g, v, &k);
    uint8_t o = outcome[v];
    uint32_t r = remoteness[v];
    loopy_vertex least = LOOPY_NONE; /* least successor proving the value */
    uint32_t least_lose = LOOPY_NONE, most_win = 0;
    int has_lose = 0, has_draw = 0, all_win = 1;

    FUZZ_REQUIRE(o <= LOOPY_LOSE, "vertex %" PRIu32 ": outcome %u", v, o);
    if (role != ROLE_NONE || k == 0) {
        uint8_t want = role == ROLE_LOSE   ? LOOPY_LOSE
                       : role == ROLE_WIN ? LOOPY_WIN
                       : misere           ? LOOPY_WIN
                                          : LOOPY_LOSE;
        FUZZ_REQUIRE(o == want && r == 0 && best[v] == LOOPY_NONE,
                     "end position %" PRIu32 ": outcome %u remoteness %" PRIu32
                     " move %" PRIu32, v, o, r, best[v]);
        return;
    }
    for (loopy_edge e = 0; e < k; e++) {
        loopy_vertex w = succ[e];
        if (outcome[w] == LOOPY_LOSE) {
            has_lose = 1;
            all_win = 0;
            if (remoteness[w] < least_lose)
                least_lose = remoteness[w];
        } else if (outcome[w] == LOOPY_DRAW) {
            has_draw = 1;
            all_win = 0;
        } else if (remoteness[w] > most_win) {
            most_win = remoteness[w];
        }
    }
    for (loopy_edge e = 0; e < k; e++) {
        loopy_vertex w = succ[e];
        int proves = o == LOOPY_DRAW ? outcome[w] == LOOPY_DRAW
                     : o == LOOPY_WIN
                         ? outcome[w] == LOOPY_LOSE && (uint64_t)remoteness[w] + 1 == r
                         : outcome[w] == LOOPY_WIN && (uint64_t)remoteness[w] + 1 == r;
        if (proves && w < least)
            least = w;
    }
    switch (o) {
    case LOOPY_WIN:
        FUZZ_REQUIRE(has_lose && r != LOOPY_NONE && (uint64_t)least_lose + 1 == r,
                     "Win %" PRIu32 " at %" PRIu32 ", least Lose successor at %"
                     PRIu32, v, r, least_lose);
        break;
    case LOOPY_LOSE:
        FUZZ_REQUIRE(all_win && r != LOOPY_NONE && (uint64_t)most_win + 1 == r,
                     "Lose %" PRIu32 " at %" PRIu32 ": all successors Win? %d,"
                     " greatest at %" PRIu32, v, r, all_win, most_win);
        break;
    default:
        FUZZ_REQUIRE(r == LOOPY_NONE && !has_lose && has_draw,
                     "Draw %" PRIu32 ": remoteness %" PRIu32 ", a Lose "
                     "successor %d, a Draw successor %d", v, r, has_lose,
                     has_draw);
        break;
    }
    FUZZ_REQUIRE(best[v] == least, "vertex %" PRIu32 ": best move %" PRIu32
                 ", least proving successor %" PRIu32, v, best[v], least);
}

void fuzz_require_solution(const loopy_graph *graph,
                           const loopy_solve_options *options,
                           const loopy_solution *sol)
{
    loopy_vertex n = loopy_graph_vertex_count(graph);
    const uint8_t *outcome = loopy_solution_outcomes(sol);
    loopy_vertex count[3] = {0, 0, 0};
    uint8_t *role = calloc(n ? n : 1, 1);

    FUZZ_REQUIRE(role != NULL, "out of memory");
    FUZZ_REQUIRE(loopy_solution_vertex_count(sol) == n, "solution of %" PRIu32
                 " positions for %" PRIu32, loopy_solution_vertex_count(sol), n);
    for (size_t i = 0; i < options->lose_at_count; i++)
        role[options->lose_at[i]] = ROLE_LOSE;
    for (size_t i = 0; i < options->win_at_count; i++)
        role[options->win_at[i]] = ROLE_WIN;
    for (loopy_vertex v = 0; v < n; v++) {
        require_position(graph, sol, v, role[v], options->misere);
        count[outcome[v]]++;
    }
    for (int o = LOOPY_DRAW; o <= LOOPY_LOSE; o++)
        FUZZ_REQUIRE(loopy_solution_count(sol, (loopy_outcome)o) == count[o],
                     "count of outcome %d: %" PRIu32 ", counted %" PRIu32, o,
                     loopy_solution_count(sol, (loopy_outcome)o), count[o]);
    free(role);
}

void fuzz_require_same_solution(const loopy_solution *a,
                                const loopy_solution *b)
{
    loopy_vertex n = loopy_solution_vertex_count(a);

    FUZZ_REQUIRE(loopy_solution_vertex_count(b) == n, "sizes differ");
    if (n == 0)
        return;
    FUZZ_REQUIRE(memcmp(loopy_solution_outcomes(a), loopy_solution_outcomes(b),
                        n) == 0, "outcomes differ");
    FUZZ_REQUIRE(memcmp(loopy_solution_remoteness(a),
                        loopy_solution_remoteness(b), n * sizeof(uint32_t)) == 0,
                 "remoteness differs");
    FUZZ_REQUIRE(memcmp(loopy_solution_best_moves(a),
                        loopy_solution_best_moves(b),
                        n * sizeof(loopy_vertex)) == 0, "best moves differ");
}
