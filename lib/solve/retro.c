/*
 * retro.c - retrograde analysis of a game graph: the public solver API.
 *
 * The positions whose value is known without looking ahead (no moves, or a
 * target) form level 0.  levels.c decides the positions of each next level
 * from the current one: a predecessor of a Lose is a Win, a predecessor all
 * of whose moves reach Wins is a Lose; every position of level r has
 * remoteness r, which gives the least remoteness for a Win and the greatest
 * for a Lose as the definitions require.  Positions never decided are
 * Draws, or Ties: with tie_at vertices, a second propagation (tie_pass)
 * spreads Ties from them over the positions left undecided.  best_move.c
 * then picks the best moves.
 *
 * Memory of a run: the solution only (9n bytes; its best moves serve as the
 * queue of levels, its remotenesses as the counters, see solve_internal.h),
 * plus a few MiB of message bins per thread.
 */
#include "solve_internal.h"

#include <string.h>

struct loopy_solver {
    const loopy_graph *graph;
    const loopy_edge *rev_offset;   /* the graph's, or own_... */
    const loopy_vertex *rev_source;
    loopy_edge *own_rev_offset;     /* built when the graph has none */
    loopy_vertex *own_rev_source;
};

loopy_status loopy_solver_create(const loopy_graph *graph, loopy_solver **out)
{
    loopy_solver *solver;
    loopy_status status;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (graph == NULL)
        return LOOPY_EINVAL;
    solver = loopy_i_calloc(1, sizeof *solver);
    if (solver == NULL)
        return LOOPY_ENOMEM;
    solver->graph = graph;
    if (graph->rev_offset != NULL) {
        solver->rev_offset = graph->rev_offset;
        solver->rev_source = graph->rev_source;
    } else {
        status = loopy_i_graph_reverse(graph, &solver->own_rev_offset,
                                       &solver->own_rev_source);
        if (status != LOOPY_OK) {
            loopy_i_free(solver);
            return status;
        }
        solver->rev_offset = solver->own_rev_offset;
        solver->rev_source = solver->own_rev_source;
    }
    *out = solver;
    return LOOPY_OK;
}

void loopy_i_solver_reverse(const loopy_solver *solver,
                            const loopy_edge **rev_offset,
                            const loopy_vertex **rev_source)
{
    *rev_offset = solver->rev_offset;
    *rev_source = solver->rev_source;
}

void loopy_solver_free(loopy_solver *solver)
{
    if (solver == NULL)
        return;
    loopy_i_free(solver->own_rev_offset);
    loopy_i_free(solver->own_rev_source);
    loopy_i_free(solver);
}

void loopy_solution_free(loopy_solution *solution)
{
    if (solution == NULL)
        return;
    loopy_i_free(solution->outcome);
    loopy_i_free(solution->remoteness);
    loopy_i_free(solution->best_move);
    loopy_i_free(solution);
}

static loopy_solution *solution_alloc(loopy_vertex n)
{
    loopy_solution *s = loopy_i_calloc(1, sizeof *s);

    if (s == NULL)
        return NULL;
    s->n = n;
    s->outcome = loopy_i_calloc(n, sizeof *s->outcome);
    s->remoteness = loopy_i_malloc(n, sizeof *s->remoteness);
    s->best_move = loopy_i_malloc(n, sizeof *s->best_move);
    if (s->outcome == NULL || s->remoteness == NULL || s->best_move == NULL) {
        loopy_solution_free(s);
        return NULL;
    }
    return s;
}

/* Marks the targets as decided and queues them; tie_at vertices are marked
 * decided (remoteness 0) but not queued, so the Win/Lose propagation never
 * decides them and never hears from them.  Fails if a target is out of
 * range or in two lists. */
static loopy_status seed_targets(const loopy_solve_options *opt,
                                 level_state *st)
{
    for (size_t i = 0; i < opt->lose_at_count; i++) {
        loopy_vertex v = opt->lose_at[i];
        if (v >= st->n)
            return LOOPY_EINVAL;
        if (st->outcome[v] == LOOPY_DRAW) { /* repeats are queued once */
            st->outcome[v] = LOOPY_LOSE;
            st->word[v] = 0;
            loopy_i_push(st, v);
        }
    }
    for (size_t i = 0; i < opt->win_at_count; i++) {
        loopy_vertex v = opt->win_at[i];
        if (v >= st->n || st->outcome[v] == LOOPY_LOSE)
            return LOOPY_EINVAL;
        if (st->outcome[v] == LOOPY_DRAW) {
            st->outcome[v] = LOOPY_WIN;
            st->word[v] = 0;
            loopy_i_push(st, v);
        }
    }
    for (size_t i = 0; i < opt->tie_at_count; i++) {
        loopy_vertex v = opt->tie_at[i];
        if (v >= st->n || st->outcome[v] == LOOPY_LOSE ||
            st->outcome[v] == LOOPY_WIN)
            return LOOPY_EINVAL;
        st->outcome[v] = LOOPY_TIE;
        st->word[v] = 0; /* decided: below n, so nobody hears about it */
    }
    return LOOPY_OK;
}

/*
 * Spreads Ties over the positions that the Win/Lose propagation left
 * undecided (still waiting, word >= n): one that has a move to a Tie of
 * remoteness r-1, r least, is a Tie at r, which is breadth-first search
 * backwards from the tie_at vertices through undecided positions.  It
 * reuses the level propagation unchanged: every undecided word is set to
 * "waiting for one move", so the first message a position hears, whatever
 * its kind, decides it at the level after its first Tie successor's, and
 * the levels keep their owner-computes parallelism.  The propagation labels
 * what it decides Win or Lose; every position queued here is a Tie, and is
 * relabelled from the queue afterwards.  Returns the greatest remoteness of
 * a Tie.  Time O(n + m), no memory beyond the levels' own.
 */
static uint32_t tie_pass(level_state *st, const loopy_solve_options *opt)
{
    loopy_solve_options quiet = *opt;
    loopy_vertex n = st->n;
    int threads = st->threads;
    uint32_t most;

    quiet.progress = NULL; /* the solve's progress does not start again */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < (int64_t)n; i++)
        if (st->word[i] >= n) /* still >= n: n < WORD_WAITING (ETOOBIG) */
            st->word[i] = WORD_WAITING - 1;
    /* The Win/Lose levels are done: the regions start empty again. */
    for (int t = 0; t < threads; t++)
        st->tail[t] = st->cursor[t] = st->region_lo[t];
    for (size_t i = 0; i < opt->tie_at_count; i++) {
        loopy_vertex v = opt->tie_at[i];
        if (st->outcome[v] == LOOPY_TIE) {
            /* Queued once, however often listed; relabelled below. */
            st->outcome[v] = LOOPY_DRAW;
            loopy_i_push(st, v);
        }
    }
    most = loopy_i_propagate(st, &quiet);
    /* Each region is its owner's: a thread relabels its own positions. */
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int t = 0; t < threads; t++)
        for (loopy_vertex i = st->region_lo[t]; i < st->cursor[t]; i++)
            st->outcome[st->queue[i]] = LOOPY_TIE;
    return most;
}

/* word[v] = "waiting for all of v's moves"; returns the largest
 * out-degree. */
static uint32_t init_words(const loopy_graph *g, level_state *st, int threads)
{
    loopy_vertex n = g->n;
    uint32_t most = 0;

    (void)threads; /* unused in a build without OpenMP */
#pragma omp parallel for num_threads(threads) schedule(static) \
    reduction(max : most)
    for (int64_t i = 0; i < (int64_t)n; i++) {
        loopy_vertex v = (loopy_vertex)i;
        /* Degrees fit: every builder refuses 2^32 - 1 moves or more. */
        uint32_t degree = g->out_degree != NULL
                              ? g->out_degree[v]
                              : (uint32_t)(g->offset[v + 1] - g->offset[v]);
        st->word[v] = WORD_WAITING - degree;
        most = degree > most ? degree : most;
    }
    return most;
}

static int check_options(const loopy_solve_options *options)
{
    return (options->lose_at_count > 0 && options->lose_at == NULL) ||
           (options->win_at_count > 0 && options->win_at == NULL) ||
           (options->tie_at_count > 0 && options->tie_at == NULL) ||
           options->threads < 0;
}

loopy_status loopy_solver_run(loopy_solver *solver,
                              const loopy_solve_options *options,
                              loopy_solution **out)
{
    static const loopy_solve_options defaults = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_status status = LOOPY_OK;
    loopy_solution *s = NULL;
    level_state st;
    uint32_t max_remoteness;
    const loopy_graph *g;
    int threads;

    memset(&st, 0, sizeof st);
    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (solver == NULL)
        return LOOPY_EINVAL;
    if (options == NULL)
        options = &defaults;
    if (check_options(options))
        return LOOPY_EINVAL;
    g = solver->graph;
    if (options->progress != NULL)
        options->progress(options->progress_ctx, "solve", 0, g->n);
    /* Small graphs are not worth a second thread, unless a test asks. */
    threads = loopy_i_threads(options->threads, (uint64_t)g->n + g->m,
                              options->parallel_min_level ? 1 : 1 << 16);
    if (threads > 65535)
        threads = 65535; /* block owners are 16-bit */

    s = solution_alloc(g->n);
    if (s == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    CHECK_GOTO(loopy_i_levels_init(&st, g->n, threads));
    st.rev_offset = solver->rev_offset;
    st.rev_source = solver->rev_source;
    st.outcome = s->outcome;
    st.word = s->remoteness;
    st.queue = s->best_move; /* the levels live where the best moves go */
    /* Waiting words must stay apart from remotenesses (< n). */
    if ((uint64_t)init_words(g, &st, threads) + g->n >= WORD_WAITING) {
        status = LOOPY_ETOOBIG;
        goto fail;
    }
    CHECK_GOTO(seed_targets(options, &st));
    for (loopy_vertex v = 0; v < g->n; v++) {
        if (st.word[v] == WORD_WAITING && s->outcome[v] == LOOPY_DRAW) {
            s->outcome[v] = options->misere ? LOOPY_WIN : LOOPY_LOSE;
            st.word[v] = 0;
            loopy_i_push(&st, v);
        }
    }
    max_remoteness = loopy_i_propagate(&st, options);
    if (options->tie_at_count > 0) {
        uint32_t most_tie = tie_pass(&st, options);
        max_remoteness = most_tie > max_remoteness ? most_tie : max_remoteness;
    }
    loopy_i_levels_free(&st);
    /* Positions still waiting are Draws. */
    for (loopy_vertex v = 0; v < g->n; v++) {
        if (s->remoteness[v] >= g->n)
            s->remoteness[v] = LOOPY_NONE;
        s->count[s->outcome[v]]++;
    }
    loopy_i_best_moves(solver->rev_offset, solver->rev_source, s,
                       max_remoteness, threads);
    *out = s;
    return LOOPY_OK;

fail:
    loopy_i_levels_free(&st);
    loopy_solution_free(s);
    return status;
}

loopy_status loopy_solve(const loopy_graph *graph,
                         const loopy_solve_options *options,
                         loopy_solution **out)
{
    loopy_solver *solver = NULL;
    loopy_status status;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    status = loopy_solver_create(graph, &solver);
    if (status == LOOPY_OK)
        status = loopy_solver_run(solver, options, out);
    loopy_solver_free(solver);
    return status;
}

loopy_vertex loopy_solution_vertex_count(const loopy_solution *solution)
{
    return solution->n;
}

const uint8_t *loopy_solution_outcomes(const loopy_solution *solution)
{
    return solution->outcome;
}

const uint32_t *loopy_solution_remoteness(const loopy_solution *solution)
{
    return solution->remoteness;
}

const loopy_vertex *loopy_solution_best_moves(const loopy_solution *solution)
{
    return solution->best_move;
}

loopy_vertex loopy_solution_count(const loopy_solution *solution,
                                  loopy_outcome outcome)
{
    if ((unsigned)outcome > LOOPY_TIE)
        return 0;
    return solution->count[outcome];
}
