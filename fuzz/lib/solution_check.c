/*
 * solution_check.c - an independent check of a solution, position by
 * position, against the definitions in loopy.h (no propagation, no queue):
 *
 *  - a target (lose_at, win_at, tie_at), or a position without moves, has
 *    its fixed outcome, remoteness 0 and no move;
 *  - a Win of remoteness r > 0 has a Lose successor of remoteness r - 1 and
 *    none of less; its best move is the least-numbered such successor;
 *  - a Lose of remoteness r > 0 has only Win successors, the greatest
 *    remoteness among them is r - 1; its best move is the least-numbered
 *    Win successor of remoteness r - 1;
 *  - a Tie of remoteness r > 0 has no Lose successor, not only Win
 *    successors, and a Tie successor of remoteness r - 1 and none of less;
 *    its best move is the least-numbered such successor;
 *  - a Draw has no remoteness, no Lose successor, no Tie successor and a
 *    Draw successor; its best move is the least-numbered Draw successor.
 *
 * These local conditions determine the solution: the Win, Lose and Tie
 * labels are grounded (remoteness falls by one along each best move down
 * to 0), and a position wrongly labelled Tie or Draw of least true
 * remoteness would have, among correctly labelled successors, a Lose (true
 * Win) or only Wins (true Lose), which the Tie and Draw rules forbid; a
 * true Tie of least remoteness labelled Draw would have a correctly
 * labelled Tie successor, which the Draw rule forbids.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

enum { ROLE_NONE, ROLE_LOSE, ROLE_WIN, ROLE_TIE };

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
    uint32_t least_lose = LOOPY_NONE, most_win = 0, least_tie = LOOPY_NONE;
    int has_lose = 0, has_draw = 0, all_win = 1;

    FUZZ_REQUIRE(o <= LOOPY_TIE, "vertex %" PRIu32 ": outcome %u", v, o);
    if (role != ROLE_NONE || k == 0) {
        uint8_t want = role == ROLE_LOSE   ? LOOPY_LOSE
                       : role == ROLE_WIN ? LOOPY_WIN
                       : role == ROLE_TIE ? LOOPY_TIE
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
        } else if (outcome[w] == LOOPY_TIE) {
            all_win = 0;
            if (remoteness[w] < least_tie)
                least_tie = remoteness[w];
        } else if (remoteness[w] > most_win) {
            most_win = remoteness[w];
        }
    }
    for (loopy_edge e = 0; e < k; e++) {
        loopy_vertex w = succ[e];
        /* What a successor must be to prove o: */
        uint8_t needed = o == LOOPY_WIN    ? LOOPY_LOSE
                         : o == LOOPY_LOSE ? LOOPY_WIN
                                           : o; /* a Tie, a Draw */
        int proves = outcome[w] == needed &&
                     (o == LOOPY_DRAW || (uint64_t)remoteness[w] + 1 == r);
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
    case LOOPY_TIE:
        FUZZ_REQUIRE(!has_lose && !all_win && least_tie != LOOPY_NONE &&
                         r != LOOPY_NONE && (uint64_t)least_tie + 1 == r,
                     "Tie %" PRIu32 " at %" PRIu32 ": a Lose successor %d, "
                     "all successors Win %d, least Tie successor at %" PRIu32,
                     v, r, has_lose, all_win, least_tie);
        break;
    default:
        FUZZ_REQUIRE(r == LOOPY_NONE && !has_lose && least_tie == LOOPY_NONE &&
                         has_draw,
                     "Draw %" PRIu32 ": remoteness %" PRIu32 ", a Lose "
                     "successor %d, a Tie successor at %" PRIu32 ", a Draw "
                     "successor %d", v, r, has_lose, least_tie, has_draw);
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
    loopy_vertex count[4] = {0, 0, 0, 0};
    uint8_t *role = calloc(n ? n : 1, 1);

    FUZZ_REQUIRE(role != NULL, "out of memory");
    FUZZ_REQUIRE(loopy_solution_vertex_count(sol) == n, "solution of %" PRIu32
                 " positions for %" PRIu32, loopy_solution_vertex_count(sol), n);
    for (size_t i = 0; i < options->lose_at_count; i++)
        role[options->lose_at[i]] = ROLE_LOSE;
    for (size_t i = 0; i < options->win_at_count; i++)
        role[options->win_at[i]] = ROLE_WIN;
    for (size_t i = 0; i < options->tie_at_count; i++)
        role[options->tie_at[i]] = ROLE_TIE;
    for (loopy_vertex v = 0; v < n; v++) {
        require_position(graph, sol, v, role[v], options->misere);
        count[outcome[v]]++;
    }
    for (int o = LOOPY_DRAW; o <= LOOPY_TIE; o++)
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
