/*
 * retro.c - retrograde analysis of a game graph.
 *
 * The positions whose value is known without looking ahead (no moves, or a
 * target) seed a FIFO queue.  Popping a Lose makes every undecided
 * predecessor a Win; popping a Win decrements each undecided predecessor's
 * count of moves not yet known to reach a Win, and a count that reaches zero
 * makes that predecessor a Lose.  Positions never decided are Draws.
 *
 * Remoteness comes for free from the FIFO order: every position is pushed
 * with remoteness one more than the position being popped, so the queue holds
 * non-decreasing remotenesses.  A Win is therefore decided by its Lose
 * successor of least remoteness, and a Lose by its Win successor of greatest
 * remoteness (the last one popped), exactly as the definitions require.
 */
#include "../core/internal.h"

struct loopy_solver {
    const loopy_graph *graph;
    loopy_edge *rev_offset;   /* n + 1: predecessors of v are          */
    loopy_vertex *rev_source; /* rev_source[rev_offset[v] .. [v+1])    */
};

struct loopy_solution {
    loopy_vertex n;
    uint8_t *outcome;
    uint32_t *remoteness;
    loopy_vertex *best_move;
    loopy_vertex count[3]; /* indexed by loopy_outcome */
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
    status = loopy_i_graph_reverse(graph, &solver->rev_offset,
                                   &solver->rev_source);
    if (status != LOOPY_OK) {
        loopy_i_free(solver);
        return status;
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
    loopy_i_free(solver->rev_offset);
    loopy_i_free(solver->rev_source);
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

/* Marks the targets as decided and queues them; *tail counts the queue.
 * Fails if a target is out of range or in both lists. */
static loopy_status seed_targets(const loopy_solve_options *opt,
                                 loopy_solution *s, loopy_vertex *queue,
                                 loopy_vertex *tail)
{
    for (size_t i = 0; i < opt->lose_at_count; i++) {
        loopy_vertex v = opt->lose_at[i];
        if (v >= s->n)
            return LOOPY_EINVAL;
        if (s->outcome[v] == LOOPY_DRAW) { /* repeats are queued once */
            s->outcome[v] = LOOPY_LOSE;
            s->remoteness[v] = 0;
            queue[(*tail)++] = v;
        }
    }
    for (size_t i = 0; i < opt->win_at_count; i++) {
        loopy_vertex v = opt->win_at[i];
        if (v >= s->n || s->outcome[v] == LOOPY_LOSE)
            return LOOPY_EINVAL;
        if (s->outcome[v] == LOOPY_DRAW) {
            s->outcome[v] = LOOPY_WIN;
            s->remoteness[v] = 0;
            queue[(*tail)++] = v;
        }
    }
    return LOOPY_OK;
}

/* The propagation described at the top of the file.  undecided[v] holds the
 * number of v's moves not yet known to reach a Win. */
static void propagate(const loopy_solver *solver, loopy_solution *s,
                      loopy_vertex *queue, loopy_vertex head, loopy_vertex tail,
                      uint32_t *undecided)
{
    const loopy_edge *rev_offset = solver->rev_offset;
    const loopy_vertex *rev_source = solver->rev_source;
    uint8_t *outcome = s->outcome;
    uint32_t *remoteness = s->remoteness;

    while (head < tail) {
        loopy_vertex v = queue[head++];
        uint32_t next = remoteness[v] + 1;
        bool v_loses = outcome[v] == LOOPY_LOSE;

        for (loopy_edge e = rev_offset[v]; e < rev_offset[v + 1]; e++) {
            loopy_vertex u = rev_source[e];
            if (outcome[u] != LOOPY_DRAW)
                continue;
            if (v_loses || --undecided[u] == 0) {
                outcome[u] = v_loses ? LOOPY_WIN : LOOPY_LOSE;
                remoteness[u] = next;
                queue[tail++] = u;
            }
        }
    }
}

/* Whether the move u -> w proves u's value (see loopy_solve in loopy.h). */
static bool proves(const uint8_t *outcome, const uint32_t *remoteness,
                   loopy_vertex u, loopy_vertex w)
{
    switch (outcome[u]) {
    case LOOPY_DRAW:
        return outcome[w] == LOOPY_DRAW;
    case LOOPY_WIN:
        return outcome[w] == LOOPY_LOSE && remoteness[u] != 0 &&
               remoteness[w] == remoteness[u] - 1;
    default:
        return outcome[w] == LOOPY_WIN && remoteness[u] != 0 &&
               remoteness[w] == remoteness[u] - 1;
    }
}

/* Chooses each position's best move: its least-numbered successor that
 * proves its value.  Walking the successors w in increasing order over the
 * reverse graph, the first w to claim a predecessor u is the least one, so
 * only the reverse graph is needed. */
static void choose_best_moves(const loopy_solver *solver, loopy_solution *s)
{
    const uint8_t *outcome = s->outcome;
    const uint32_t *remoteness = s->remoteness;
    loopy_vertex *best = s->best_move;

    for (loopy_vertex v = 0; v < s->n; v++)
        best[v] = LOOPY_NONE;
    for (loopy_vertex w = 0; w < s->n; w++) {
        for (loopy_edge e = solver->rev_offset[w]; e < solver->rev_offset[w + 1];
             e++) {
            loopy_vertex u = solver->rev_source[e];
            if (best[u] == LOOPY_NONE && proves(outcome, remoteness, u, w))
                best[u] = w;
        }
    }
}

loopy_status loopy_solver_run(loopy_solver *solver,
                              const loopy_solve_options *options,
                              loopy_solution **out)
{
    static const loopy_solve_options defaults = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_status status = LOOPY_OK;
    loopy_solution *s = NULL;
    loopy_vertex *queue = NULL;
    uint32_t *undecided = NULL;
    loopy_vertex tail = 0;
    const loopy_graph *g;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (solver == NULL)
        return LOOPY_EINVAL;
    if (options == NULL)
        options = &defaults;
    if ((options->lose_at_count > 0 && options->lose_at == NULL) ||
        (options->win_at_count > 0 && options->win_at == NULL) ||
        options->threads < 0)
        return LOOPY_EINVAL;
    g = solver->graph;

    s = solution_alloc(g->n);
    queue = loopy_i_malloc(g->n, sizeof *queue);
    undecided = loopy_i_malloc(g->n, sizeof *undecided);
    if (s == NULL || queue == NULL || undecided == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    CHECK_GOTO(seed_targets(options, s, queue, &tail));
    for (loopy_vertex v = 0; v < g->n; v++) {
        /* Degrees fit: loopy_graph_from_edges refuses 2^32 - 1 or more. */
        undecided[v] = (uint32_t)(g->offset[v + 1] - g->offset[v]);
        if (s->outcome[v] == LOOPY_DRAW && undecided[v] == 0) {
            s->outcome[v] = options->misere ? LOOPY_WIN : LOOPY_LOSE;
            s->remoteness[v] = 0;
            queue[tail++] = v;
        }
    }
    propagate(solver, s, queue, 0, tail, undecided);
    for (loopy_vertex v = 0; v < g->n; v++) {
        if (s->outcome[v] == LOOPY_DRAW)
            s->remoteness[v] = LOOPY_NONE;
        s->count[s->outcome[v]]++;
    }
    choose_best_moves(solver, s);
    loopy_i_free(queue);
    loopy_i_free(undecided);
    *out = s;
    return LOOPY_OK;

fail:
    loopy_i_free(queue);
    loopy_i_free(undecided);
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
    if ((unsigned)outcome > LOOPY_LOSE)
        return 0;
    return solution->count[outcome];
}
