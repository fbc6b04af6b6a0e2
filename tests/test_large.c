/*
 * test_large.c - shapes that break naive solvers: a chain of ten million
 * positions (remoteness up to 10^7, recursion would overflow the stack),
 * a vertex with ten million moves, ten million moves into one vertex, and a
 * cycle of ten million positions.  Checked against closed-form answers.
 */
#include "check.h"
#include "loopy.h"

#include <stdint.h>
#include <stdlib.h>

#define BIG 10000000u

static loopy_vertex *tail_, *head_;

/* Builds a graph from the first m entries of tail_ and head_, solves it
 * under normal play and returns the solution (NULL after a failed CHECK). */
static loopy_solution *solve_edges(loopy_vertex n, loopy_edge m,
                                   loopy_graph **graph)
{
    loopy_solution *sol = NULL;

    CHECK(loopy_graph_from_edges(n, m, tail_, head_, graph) == LOOPY_OK);
    if (*graph == NULL)
        return NULL;
    CHECK(loopy_solve(*graph, NULL, &sol) == LOOPY_OK);
    return sol;
}

static void test_chain(void)
{
    loopy_graph *g = NULL;
    loopy_solution *sol;
    loopy_vertex bad = 0;

    /* 0 -> 1 -> ... -> BIG-1: position i is BIG-1-i moves from the end. */
    for (loopy_vertex i = 0; i + 1 < BIG; i++) {
        tail_[i] = i;
        head_[i] = i + 1;
    }
    sol = solve_edges(BIG, BIG - 1, &g);
    if (sol != NULL) {
        const uint8_t *outcome = loopy_solution_outcomes(sol);
        const uint32_t *rem = loopy_solution_remoteness(sol);
        const loopy_vertex *move = loopy_solution_best_moves(sol);
        for (loopy_vertex i = 0; i < BIG; i++) {
            uint32_t want = BIG - 1 - i;
            if (rem[i] != want ||
                outcome[i] != (want % 2 ? LOOPY_WIN : LOOPY_LOSE) ||
                move[i] != (want ? i + 1 : LOOPY_NONE))
                bad++;
        }
        CHECK_MSG(bad == 0, "%" PRIu32 " chain positions wrong", bad);
    }
    loopy_solution_free(sol);
    loopy_graph_free(g);
    check_case_end();
}

static void test_out_star(void)
{
    loopy_graph *g = NULL;
    loopy_solution *sol;

    /* Vertex 0 moves to each of 1..BIG, all without moves; 0 -> 0 too. */
    for (loopy_vertex i = 0; i < BIG; i++) {
        tail_[i] = 0;
        head_[i] = BIG - i; /* decreasing, so the least is found last */
    }
    tail_[BIG] = 0;
    head_[BIG] = 0;
    sol = solve_edges(BIG + 1, (loopy_edge)BIG + 1, &g);
    if (sol != NULL) {
        CHECK(loopy_solution_outcomes(sol)[0] == LOOPY_WIN);
        CHECK(loopy_solution_remoteness(sol)[0] == 1);
        CHECK(loopy_solution_best_moves(sol)[0] == 1);
        CHECK(loopy_solution_count(sol, LOOPY_LOSE) == BIG);
    }
    loopy_solution_free(sol);
    loopy_graph_free(g);
    check_case_end();
}

static void test_in_star(void)
{
    loopy_graph *g = NULL;
    loopy_solution *sol;

    /* Each of 1..BIG moves to 0, which has no moves. */
    for (loopy_vertex i = 0; i < BIG; i++) {
        tail_[i] = i + 1;
        head_[i] = 0;
    }
    sol = solve_edges(BIG + 1, BIG, &g);
    if (sol != NULL) {
        CHECK(loopy_solution_outcomes(sol)[0] == LOOPY_LOSE);
        CHECK(loopy_solution_count(sol, LOOPY_WIN) == BIG);
        CHECK(loopy_solution_best_moves(sol)[BIG] == 0);
        CHECK(loopy_solution_remoteness(sol)[BIG / 2] == 1);
    }
    loopy_solution_free(sol);
    loopy_graph_free(g);
    check_case_end();
}

static void test_cycle_with_exit(void)
{
    loopy_graph *g = NULL;
    loopy_solution *sol;
    loopy_vertex draws = 0;

    /* A cycle 0 -> 1 -> ... -> BIG-1 -> 0 where vertex 0 may also step to
     * the sink BIG: 0 wins at once; the cycle alternates back from it. */
    for (loopy_vertex i = 0; i < BIG; i++) {
        tail_[i] = i;
        head_[i] = (i + 1) % BIG;
    }
    tail_[BIG] = 0;
    head_[BIG] = BIG;
    sol = solve_edges(BIG + 1, (loopy_edge)BIG + 1, &g);
    if (sol != NULL) {
        const uint8_t *outcome = loopy_solution_outcomes(sol);
        const uint32_t *rem = loopy_solution_remoteness(sol);
        CHECK(outcome[0] == LOOPY_WIN && rem[0] == 1);
        /* BIG-1 moves only to 0 (a Win): it loses at remoteness 2, and so
         * on back along the cycle: vertex i has remoteness BIG + 1 - i. */
        CHECK(outcome[BIG - 1] == LOOPY_LOSE && rem[BIG - 1] == 2);
        CHECK(rem[1] == BIG && outcome[1] == LOOPY_LOSE);
        draws = loopy_solution_count(sol, LOOPY_DRAW);
        CHECK_MSG(draws == 0, "%" PRIu32 " draws", draws);
    }
    loopy_solution_free(sol);
    loopy_graph_free(g);
    check_case_end();
}

int main(void)
{
    tail_ = malloc(((size_t)BIG + 1) * sizeof *tail_);
    head_ = malloc(((size_t)BIG + 1) * sizeof *head_);
    if (tail_ == NULL || head_ == NULL) {
        fprintf(stderr, "test_large: out of memory\n");
        return EXIT_FAILURE;
    }
    test_chain();
    test_out_star();
    test_in_star();
    test_cycle_with_exit();
    free(tail_);
    free(head_);
    return check_finish("large");
}
