/*
 * race.c - answers the rounds of Luogu P6560 ("whoever moves the token onto
 * y wins") for many end vertices y of one graph.
 *
 * Round (x, y) is the outcome of x when y is a lost position (loopy_solve
 * with lose_at = {y}).  The graph is solved once without targets (the base,
 * B).  Making y lost changes only the positions whose value B proved through
 * y, and the draws that reach them:
 *  - a Lose of B with a successor in the region (it may now reach a Lose);
 *  - a Draw of B with a successor in the region (it may now be decided);
 *  - a Win of B all of whose proving moves (to a Lose of remoteness one
 *    less) lead into the region.
 * Every other Win or Lose keeps a proof that avoids y, and every other draw
 * has only successors whose values stay, so all of them keep their B value.
 * The region is found by a reverse search from y and re-solved by
 * retrograde analysis against the fixed values around it.  If y is a Lose
 * of B, nothing changes at all.  A region that grows past a budget is
 * abandoned for one full retrograde pass (AUTO strategy).
 */
#include "race.h"

#include <stdlib.h>
#include <string.h>

static bool proving_move(const race_ctx *c, loopy_vertex u, loopy_vertex w)
{
    return c->outcome[w] == LOOPY_LOSE &&
           c->remoteness[w] + 1 == c->remoteness[u];
}

/* touched, region and queue have n entries each: a vertex enters each at
 * most once per end vertex (or batch of them). */
void loopy_i_race_enter(race_ctx *c, loopy_vertex v)
{
    if (c->mark[v] == UNSEEN)
        c->touched[c->touched_len++] = v;
    c->mark[v] = REGION;
    c->region[c->region_len++] = v;
}

bool loopy_i_race_expand(race_ctx *c)
{
    for (size_t i = 0; i < c->region_len; i++) {
        loopy_vertex w = c->region[i];
        loopy_edge begin = c->rev_offset[w], end = c->rev_offset[w + 1];

        c->work += end - begin + 1;
        if (c->work > c->budget)
            return false;
        for (loopy_edge e = begin; e < end; e++) {
            loopy_vertex u = c->rev_source[e];
            if (c->mark[u] >= REGION)
                continue;
            if (c->outcome[u] != LOOPY_WIN) {
                loopy_i_race_enter(c, u);
                continue;
            }
            if (!proving_move(c, u, w))
                continue;
            if (c->mark[u] == UNSEEN) {
                uint32_t proofs = 0;
                for (loopy_edge f = c->g->offset[u]; f < c->g->offset[u + 1];
                     f++)
                    proofs += proving_move(c, u, c->g->target[f]);
                c->work += c->g->offset[u + 1] - c->g->offset[u];
                c->count[u] = proofs;
                c->mark[u] = COUNTING;
                c->touched[c->touched_len++] = u;
            }
            /* Counts moves, not successors: parallel moves each count. */
            if (--c->count[u] == 0)
                loopy_i_race_enter(c, u);
        }
    }
    return true;
}

/* Retrograde analysis inside the region, y lost, the rest fixed at B. */
static void solve_region(race_ctx *c, loopy_vertex y)
{
    size_t head = 0, tail = 0;

    for (size_t i = 0; i < c->region_len; i++) {
        loopy_vertex u = c->region[i];
        uint32_t undecided = 0;
        bool wins = false;

        if (u == y) {
            c->mark[u] = REGION_LOSE;
            c->queue[tail++] = u;
            continue;
        }
        for (loopy_edge e = c->g->offset[u]; e < c->g->offset[u + 1]; e++) {
            loopy_vertex w = c->g->target[e];
            if (c->mark[w] >= REGION)
                undecided++; /* B's value of w no longer holds */
            else if (c->outcome[w] == LOOPY_LOSE)
                wins = true;
            else if (c->outcome[w] == LOOPY_DRAW)
                undecided++; /* stays a draw: never a Win */
        }
        c->count[u] = undecided;
        if (wins || undecided == 0) {
            c->mark[u] = wins ? REGION_WIN : REGION_LOSE;
            c->queue[tail++] = u;
        }
    }
    while (head < tail) {
        loopy_vertex v = c->queue[head++];
        bool v_loses = c->mark[v] == REGION_LOSE;

        for (loopy_edge e = c->rev_offset[v]; e < c->rev_offset[v + 1]; e++) {
            loopy_vertex u = c->rev_source[e];
            if (c->mark[u] != REGION)
                continue; /* outside (fixed) or decided */
            if (v_loses || --c->count[u] == 0) {
                c->mark[u] = v_loses ? REGION_WIN : REGION_LOSE;
                c->queue[tail++] = u;
            }
        }
    }
}

static int8_t local_answer(const race_ctx *c, loopy_vertex x)
{
    switch (c->mark[x]) {
    case REGION:
        return 0;
    case REGION_WIN:
        return 1;
    case REGION_LOSE:
        return -1;
    default:
        return loopy_i_race_answer_of(c->outcome[x]);
    }
}

void loopy_i_race_forget(race_ctx *c)
{
    for (size_t i = 0; i < c->touched_len; i++)
        c->mark[c->touched[i]] = UNSEEN;
    c->touched_len = 0;
    c->region_len = 0;
}

/* Round indices sorted by end vertex, so each end is handled once. */
typedef struct round_ref {
    loopy_vertex end;
    size_t index;
} round_ref;

static int by_end(const void *a, const void *b)
{
    const round_ref *x = a, *y = b;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* One full pass with y lost, answering rounds [first, last) of refs. */
static loopy_status full_pass(loopy_solver *solver, loopy_vertex y,
                              const loopy_race_rounds *rounds,
                              const round_ref *refs, size_t first, size_t last,
                              int8_t *answer)
{
    loopy_solve_options opt = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_solution *sol = NULL;
    loopy_status status;

    opt.lose_at = &y;
    opt.lose_at_count = 1;
    opt.threads = 1;
    status = loopy_solver_run(solver, &opt, &sol);
    if (status != LOOPY_OK)
        return status;
    for (size_t i = first; i < last; i++)
        answer[refs[i].index] = loopy_i_race_answer_of(
            loopy_solution_outcomes(sol)[rounds->start[refs[i].index]]);
    loopy_solution_free(sol);
    return LOOPY_OK;
}

/* One end vertex alone: its region re-solved, or a full pass when the
 * region passes the budget (AUTO). */
static loopy_status one_end(race_ctx *c, loopy_solver *solver,
                            loopy_race_strategy strategy,
                            const loopy_race_rounds *rounds,
                            const round_ref *refs, size_t first, size_t last,
                            int8_t *answer)
{
    loopy_vertex y = refs[first].end;
    bool local;

    /* A full pass looks at every vertex and edge about twice. */
    c->work = 0;
    c->budget = strategy == LOOPY_RACE_LOCAL
                    ? UINT64_MAX
                    : (c->g->n + c->g->m) / 4 + 1024;
    loopy_i_race_enter(c, y);
    local = loopy_i_race_expand(c);
    if (local) {
        solve_region(c, y);
        for (size_t i = first; i < last; i++)
            answer[refs[i].index] =
                local_answer(c, rounds->start[refs[i].index]);
    }
    loopy_i_race_forget(c);
    if (!local)
        return full_pass(solver, y, rounds, refs, first, last, answer);
    return LOOPY_OK;
}

/* Ends waiting to be solved together, with their rounds [first, last). */
typedef struct end_batch {
    unsigned count;
    loopy_vertex end[64];
    size_t first[64], last[64];
} end_batch;

/* Fewer ends than this are not worth lanes (AUTO). */
#define LANES_MIN 4

static loopy_status flush(race_ctx *c, race_lanes *lanes, loopy_solver *solver,
                          loopy_race_strategy strategy,
                          const loopy_race_rounds *rounds,
                          const round_ref *refs, end_batch *batch,
                          int8_t *answer)
{
    loopy_status status = LOOPY_OK;

    if (strategy == LOOPY_RACE_AUTO && batch->count < LANES_MIN) {
        for (unsigned l = 0; l < batch->count && status == LOOPY_OK; l++)
            status = one_end(c, solver, strategy, rounds, refs,
                             batch->first[l], batch->last[l], answer);
        batch->count = 0;
        return status;
    }
    c->work = 0;
    c->budget = UINT64_MAX; /* the union is never given up */
    for (unsigned l = 0; l < batch->count; l++)
        loopy_i_race_enter(c, batch->end[l]);
    (void)loopy_i_race_expand(c);
    status = loopy_i_race_lanes_solve(c, lanes, batch->end, batch->count);
    for (unsigned l = 0; l < batch->count && status == LOOPY_OK; l++)
        for (size_t i = batch->first[l]; i < batch->last[l]; i++)
            answer[refs[i].index] = loopy_i_race_lanes_answer(
                c, lanes, rounds->start[refs[i].index], l);
    loopy_i_race_forget(c);
    batch->count = 0;
    return status;
}

loopy_status loopy_race_answer(const loopy_graph *graph,
                               const loopy_race_rounds *rounds,
                               loopy_race_strategy strategy, int8_t *answer)
{
    loopy_status status = LOOPY_OK;
    loopy_solver *solver = NULL;
    loopy_solution *base = NULL;
    round_ref *refs = NULL;
    race_lanes lanes;
    end_batch batch;
    race_ctx c;
    size_t n;

    memset(&c, 0, sizeof c);
    memset(&lanes, 0, sizeof lanes);
    batch.count = 0;
    if (graph == NULL || rounds == NULL ||
        (unsigned)strategy > LOOPY_RACE_LANES ||
        (rounds->count > 0 &&
         (rounds->start == NULL || rounds->end == NULL || answer == NULL)))
        return LOOPY_EINVAL;
    for (size_t i = 0; i < rounds->count; i++)
        if (rounds->start[i] >= graph->n || rounds->end[i] >= graph->n)
            return LOOPY_EINVAL;
    if (rounds->count == 0)
        return LOOPY_OK;
    n = graph->n;
    refs = loopy_i_malloc(rounds->count, sizeof *refs);
    if (refs == NULL)
        return LOOPY_ENOMEM;
    for (size_t i = 0; i < rounds->count; i++) {
        refs[i].end = rounds->end[i];
        refs[i].index = i;
    }
    qsort(refs, rounds->count, sizeof *refs, by_end);

    CHECK_GOTO(loopy_solver_create(graph, &solver));
    if (strategy != LOOPY_RACE_FULL) {
        loopy_solve_options opt = LOOPY_SOLVE_OPTIONS_INIT;
        opt.threads = 1;
        CHECK_GOTO(loopy_solver_run(solver, &opt, &base));
        c.g = graph;
        loopy_i_solver_reverse(solver, &c.rev_offset, &c.rev_source);
        c.outcome = loopy_solution_outcomes(base);
        c.remoteness = loopy_solution_remoteness(base);
        c.mark = loopy_i_calloc(n, sizeof *c.mark);
        c.count = loopy_i_malloc(n, sizeof *c.count);
        c.touched = loopy_i_malloc(n, sizeof *c.touched);
        c.region = loopy_i_malloc(n, sizeof *c.region);
        c.queue = loopy_i_malloc(n, sizeof *c.queue);
        if (c.mark == NULL || c.count == NULL || c.touched == NULL ||
            c.region == NULL || c.queue == NULL) {
            status = LOOPY_ENOMEM;
            goto fail;
        }
    }
    for (size_t first = 0, last; first < rounds->count; first = last) {
        loopy_vertex y = refs[first].end;

        for (last = first + 1; last < rounds->count && refs[last].end == y;)
            last++;
        if (strategy == LOOPY_RACE_FULL) {
            CHECK_GOTO(full_pass(solver, y, rounds, refs, first, last, answer));
        } else if (c.outcome[y] == LOOPY_LOSE) {
            /* y lost already: nothing changes. */
            for (size_t i = first; i < last; i++)
                answer[refs[i].index] = loopy_i_race_answer_of(
                    c.outcome[rounds->start[refs[i].index]]);
        } else if (strategy == LOOPY_RACE_LOCAL) {
            CHECK_GOTO(one_end(&c, solver, strategy, rounds, refs, first, last,
                               answer));
        } else {
            batch.first[batch.count] = first;
            batch.last[batch.count] = last;
            batch.end[batch.count++] = y;
            if (batch.count == 64) {
                CHECK_GOTO(flush(&c, &lanes, solver, strategy, rounds, refs,
                                 &batch, answer));
            }
        }
    }
    if (batch.count > 0)
        CHECK_GOTO(flush(&c, &lanes, solver, strategy, rounds, refs, &batch,
                         answer));

fail:
    loopy_i_race_lanes_free(&lanes);
    loopy_i_free(c.mark);
    loopy_i_free(c.count);
    loopy_i_free(c.touched);
    loopy_i_free(c.region);
    loopy_i_free(c.queue);
    loopy_solution_free(base);
    loopy_solver_free(solver);
    loopy_i_free(refs);
    return status;
}
