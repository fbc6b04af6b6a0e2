/*
 * grundy.c - Smith's generalized Sprague-Grundy function gamma of every
 * vertex of a graph (definition in loopy.h).
 *
 * Two stages.
 *
 * 1. The acyclic part.  A vertex from which no cycle can be reached has the
 *    ordinary Sprague-Grundy value (the subgraph below it is acyclic and
 *    closed under moves, and gamma restricted to it is its Sprague-Grundy
 *    function).  Kahn's algorithm on the reverse graph finds these vertices
 *    sinks first; each gets the mex of its successors' values when all of
 *    them are known.  O(n + m).
 *
 * 2. The rest, level by level: Fraenkel and Yesha's labelling algorithm
 *    ("The generalized Sprague-Grundy function and its invariance under
 *    certain mappings", 1986; also in Fraenkel's surveys).  At level k the
 *    open (unlabelled) vertices are those known to have successors of every
 *    value below k.  An open vertex u gets the label k when no successor is
 *    labelled k and every successor that is open or infinite has itself a
 *    successor labelled k (it "reverses out"); the order in which labels are
 *    given is the counter function.  When no more vertex can be labelled k,
 *    the open vertices without a successor labelled k are labelled infinite:
 *    k is missing from their successors' values for good.  The others stay
 *    open for level k + 1.
 *
 *    Eligibility for the label k, once gained, is never lost: if u is
 *    eligible, no predecessor of u can be (it would need u to reverse out),
 *    so labelling others never gives u a successor labelled k.  The labelled
 *    set of a level is therefore the same in any order, and we may pick a
 *    convenient one: first the acyclic vertices of value k (stage 1 knows
 *    them), then a retrograde pass with counters, like the W/L/D solver:
 *
 *      covered[p] = level stamp: p has a successor labelled k, so p cannot
 *                   be labelled k, and p reverses out for its predecessors;
 *      blocking[u] = the number of u's moves to open or infinite vertices
 *                   that are not covered yet.
 *
 *    A: every predecessor of an acyclic vertex of value k is covered.
 *    B: blocking[] is counted for the open, uncovered vertices; those with
 *       0 are labelled k (they cannot be adjacent: a move between two open
 *       uncovered vertices is blocking).  Acyclic successors never block: a
 *       smaller value is harmless and a larger one reverses out through its
 *       own successor of value k.
 *    C: popping a vertex labelled k covers its uncovered non-finite
 *       predecessors p; each newly covered p decrements blocking[] of its
 *       open uncovered predecessors, and a count reaching 0 labels that
 *       predecessor k.  A labelled vertex is never covered (its blocking
 *       successors were all covered, so none of them is labelled k).
 *    D: open vertices left uncovered become infinite.
 *
 *    Each labelled or covered vertex scans its predecessors once per level
 *    and each open vertex its successors once, so a level costs
 *    O(n' + m') (vertices reaching a cycle and their edges), and there are
 *    at most g + 2 levels, g the largest finite value: a level k that
 *    leaves a vertex open has covered it through a vertex of value k, so
 *    every level but the last is a value in use (and k never exceeds the
 *    largest out-degree, since an open vertex at level k has successors of
 *    k distinct values).
 *
 * Finally each infinite vertex gets its set K, the sorted distinct finite
 * values of its successors.
 */
#include "../core/internal.h"

#include <stdlib.h>

enum { STATE_OPEN = 0, STATE_FINITE = 1, STATE_INFINITE = 2 };

struct loopy_grundy {
    loopy_vertex n;
    uint32_t *value;       /* n entries; LOOPY_GRUNDY_INF when infinite */
    loopy_edge *set_start; /* n + 1: K of v is set_value[set_start[v] ..) */
    uint32_t *set_value;
};

/* Scratch shared by the stages. */
typedef struct grundy_work {
    const loopy_graph *g;
    loopy_edge *rev_offset;
    loopy_vertex *rev_source;
    uint32_t *value;
    uint8_t *state;
    uint32_t *blocking; /* stage 1: successors not yet valued */
    uint32_t *covered;  /* level + 1 when covered at that level, else older */
    loopy_vertex *queue;
    loopy_vertex *open;        /* the open vertices, open_count of them */
    loopy_vertex open_count;
    loopy_vertex *by_value;    /* acyclic vertices sorted by value */
    loopy_vertex *value_start; /* max_value + 2 entries into by_value */
    uint32_t max_value;        /* the largest acyclic value */
} grundy_work;

static loopy_vertex out_degree(const loopy_graph *g, loopy_vertex v)
{
    /* Fits: loopy_graph_from_edges refuses degrees of 2^32 - 1 or more. */
    return (loopy_vertex)(g->offset[v + 1] - g->offset[v]);
}

/* Stage 1: ordinary values of the vertices that reach no cycle.  mark[] has
 * one entry per possible mex (max degree + 1) and holds stamps v + 1, so it
 * is never cleared. */
static void value_acyclic_part(grundy_work *w, uint32_t *mark)
{
    const loopy_graph *g = w->g;
    loopy_vertex head = 0, tail = 0;

    for (loopy_vertex v = 0; v < g->n; v++) {
        w->blocking[v] = out_degree(g, v);
        w->state[v] = STATE_OPEN;
        if (w->blocking[v] == 0)
            w->queue[tail++] = v;
    }
    w->max_value = 0;
    while (head < tail) {
        loopy_vertex v = w->queue[head++];
        loopy_vertex degree = out_degree(g, v);
        uint32_t mex = 0;

        /* Values above the degree cannot be the mex: ignore them. */
        for (loopy_edge e = g->offset[v]; e < g->offset[v + 1]; e++)
            if (w->value[g->target[e]] <= degree)
                mark[w->value[g->target[e]]] = v + 1;
        while (mex < degree && mark[mex] == v + 1)
            mex++;
        w->value[v] = mex;
        w->state[v] = STATE_FINITE;
        if (mex > w->max_value)
            w->max_value = mex;
        for (loopy_edge e = w->rev_offset[v]; e < w->rev_offset[v + 1]; e++)
            if (--w->blocking[w->rev_source[e]] == 0)
                w->queue[tail++] = w->rev_source[e];
    }
    w->open_count = 0;
    for (loopy_vertex v = 0; v < g->n; v++)
        if (w->state[v] == STATE_OPEN)
            w->open[w->open_count++] = v;
}

/* Buckets the acyclic vertices by value (counting sort) for phase A. */
static loopy_status bucket_acyclic(grundy_work *w)
{
    size_t buckets = (size_t)w->max_value + 2; /* the mex fits 32 bits */
    loopy_vertex sum = 0;

    w->value_start = loopy_i_calloc(buckets, sizeof *w->value_start);
    w->by_value = loopy_i_malloc((size_t)w->g->n, sizeof *w->by_value);
    if (w->value_start == NULL || w->by_value == NULL)
        return LOOPY_ENOMEM;
    for (loopy_vertex v = 0; v < w->g->n; v++)
        if (w->state[v] == STATE_FINITE)
            w->value_start[w->value[v] + 1]++;
    for (size_t b = 1; b < buckets; b++) {
        sum += w->value_start[b];
        w->value_start[b] = sum;
    }
    /* value_start[b] is now the start of bucket b; fill with a moving
     * cursor kept in value_start[b], then shift back. */
    for (loopy_vertex v = 0; v < w->g->n; v++)
        if (w->state[v] == STATE_FINITE)
            w->by_value[w->value_start[w->value[v]]++] = v;
    for (size_t b = buckets - 1; b > 0; b--)
        w->value_start[b] = w->value_start[b - 1];
    w->value_start[0] = 0;
    return LOOPY_OK;
}

/* Covers p for the level with this stamp and releases its predecessors'
 * counts; predecessors whose count reaches 0 are labelled k and queued. */
static void cover(grundy_work *w, loopy_vertex p, uint32_t stamp, uint32_t k,
                  loopy_vertex *tail)
{
    w->covered[p] = stamp;
    for (loopy_edge e = w->rev_offset[p]; e < w->rev_offset[p + 1]; e++) {
        loopy_vertex q = w->rev_source[e];
        if (w->state[q] != STATE_OPEN || w->covered[q] == stamp)
            continue;
        if (--w->blocking[q] == 0) {
            w->state[q] = STATE_FINITE;
            w->value[q] = k;
            w->queue[(*tail)++] = q;
        }
    }
}

/* One level k of stage 2 (phases A-D in the comment at the top). */
static void run_level(grundy_work *w, uint32_t k)
{
    const loopy_graph *g = w->g;
    uint32_t stamp = k + 1;
    loopy_vertex head = 0, tail = 0, kept = 0;

    /* A: predecessors of acyclic vertices of value k. */
    if (k <= w->max_value)
        for (loopy_vertex i = w->value_start[k]; i < w->value_start[k + 1]; i++) {
            loopy_vertex a = w->by_value[i];
            for (loopy_edge e = w->rev_offset[a]; e < w->rev_offset[a + 1]; e++)
                if (w->state[w->rev_source[e]] != STATE_FINITE)
                    w->covered[w->rev_source[e]] = stamp;
        }
    /* B: count, then label the zero counts (counting first, so that a
     * vertex labelled here is never mistaken for a harmless finite one). */
    for (loopy_vertex i = 0; i < w->open_count; i++) {
        loopy_vertex u = w->open[i];
        uint32_t count = 0;
        if (w->covered[u] == stamp)
            continue;
        for (loopy_edge e = g->offset[u]; e < g->offset[u + 1]; e++) {
            loopy_vertex v = g->target[e];
            count += w->state[v] != STATE_FINITE && w->covered[v] != stamp;
        }
        w->blocking[u] = count;
        if (count == 0)
            w->queue[tail++] = u;
    }
    for (loopy_vertex i = 0; i < tail; i++) {
        w->state[w->queue[i]] = STATE_FINITE;
        w->value[w->queue[i]] = k;
    }
    /* C: retrograde propagation from the vertices labelled k. */
    while (head < tail) {
        loopy_vertex u = w->queue[head++];
        for (loopy_edge e = w->rev_offset[u]; e < w->rev_offset[u + 1]; e++) {
            loopy_vertex p = w->rev_source[e];
            if (w->state[p] != STATE_FINITE && w->covered[p] != stamp)
                cover(w, p, stamp, k, &tail);
        }
    }
    /* D: keep the covered open vertices; the uncovered ones are infinite. */
    for (loopy_vertex i = 0; i < w->open_count; i++) {
        loopy_vertex u = w->open[i];
        if (w->state[u] == STATE_FINITE)
            continue;
        if (w->covered[u] == stamp) {
            w->open[kept++] = u;
        } else {
            w->state[u] = STATE_INFINITE;
            w->value[u] = LOOPY_GRUNDY_INF;
        }
    }
    w->open_count = kept;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The sets K of the infinite vertices: copy the finite successor values,
 * sort and drop repeats, packing each set right after the previous one. */
static loopy_status build_sets(const loopy_graph *g, loopy_grundy *r)
{
    loopy_edge total = 0, at = 0;

    r->set_start = loopy_i_malloc((size_t)g->n + 1, sizeof *r->set_start);
    if (r->set_start == NULL)
        return LOOPY_ENOMEM;
    for (loopy_vertex v = 0; v < g->n; v++)
        if (r->value[v] == LOOPY_GRUNDY_INF)
            for (loopy_edge e = g->offset[v]; e < g->offset[v + 1]; e++)
                total += r->value[g->target[e]] != LOOPY_GRUNDY_INF;
    r->set_value = loopy_i_malloc((size_t)total, sizeof *r->set_value);
    if (r->set_value == NULL)
        return LOOPY_ENOMEM;
    for (loopy_vertex v = 0; v < g->n; v++) {
        loopy_edge begin = at;
        r->set_start[v] = begin;
        if (r->value[v] != LOOPY_GRUNDY_INF)
            continue;
        for (loopy_edge e = g->offset[v]; e < g->offset[v + 1]; e++)
            if (r->value[g->target[e]] != LOOPY_GRUNDY_INF)
                r->set_value[at++] = r->value[g->target[e]];
        if (at - begin > 1) {
            loopy_edge unique = begin + 1;
            qsort(r->set_value + begin, (size_t)(at - begin),
                  sizeof *r->set_value, compare_u32);
            for (loopy_edge i = begin + 1; i < at; i++)
                if (r->set_value[i] != r->set_value[unique - 1])
                    r->set_value[unique++] = r->set_value[i];
            at = unique;
        }
    }
    r->set_start[g->n] = at;
    return LOOPY_OK;
}

static void work_release(grundy_work *w)
{
    loopy_i_free(w->rev_offset);
    loopy_i_free(w->rev_source);
    loopy_i_free(w->state);
    loopy_i_free(w->blocking);
    loopy_i_free(w->covered);
    loopy_i_free(w->queue);
    loopy_i_free(w->open);
    loopy_i_free(w->by_value);
    loopy_i_free(w->value_start);
}

loopy_status loopy_grundy_compute(const loopy_graph *graph, loopy_grundy **out)
{
    grundy_work w = {0};
    loopy_grundy *r = NULL;
    uint32_t *mark = NULL;
    loopy_vertex max_degree = 0;
    loopy_status status;
    size_t n;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (graph == NULL || !loopy_graph_has_successors(graph))
        return LOOPY_EINVAL;
    n = graph->n;
    w.g = graph;
    for (loopy_vertex v = 0; v < graph->n; v++)
        if (out_degree(graph, v) > max_degree)
            max_degree = out_degree(graph, v);
    r = loopy_i_calloc(1, sizeof *r);
    CHECK_GOTO(r == NULL ? LOOPY_ENOMEM : LOOPY_OK);
    r->n = graph->n;
    r->value = loopy_i_malloc(n, sizeof *r->value);
    w.state = loopy_i_malloc(n, sizeof *w.state);
    w.blocking = loopy_i_malloc(n, sizeof *w.blocking);
    w.covered = loopy_i_calloc(n, sizeof *w.covered);
    w.queue = loopy_i_malloc(n, sizeof *w.queue);
    w.open = loopy_i_malloc(n, sizeof *w.open);
    mark = loopy_i_calloc((size_t)max_degree + 1, sizeof *mark);
    if (r->value == NULL || w.state == NULL || w.blocking == NULL ||
        w.covered == NULL || w.queue == NULL || w.open == NULL || mark == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    CHECK_GOTO(loopy_i_graph_reverse(graph, &w.rev_offset, &w.rev_source));
    w.value = r->value;

    value_acyclic_part(&w, mark);
    loopy_i_free(mark);
    mark = NULL;
    if (w.open_count > 0) {
        CHECK_GOTO(bucket_acyclic(&w));
        /* An open vertex at level k has k distinct successor values, so
         * k never exceeds max_degree and the stamp k + 1 never wraps. */
        for (uint32_t k = 0; w.open_count > 0; k++)
            run_level(&w, k);
    }
    CHECK_GOTO(build_sets(graph, r));
    work_release(&w);
    *out = r;
    return LOOPY_OK;

fail:
    loopy_i_free(mark);
    work_release(&w);
    loopy_grundy_free(r);
    return status;
}

void loopy_grundy_free(loopy_grundy *grundy)
{
    if (grundy == NULL)
        return;
    loopy_i_free(grundy->value);
    loopy_i_free(grundy->set_start);
    loopy_i_free(grundy->set_value);
    loopy_i_free(grundy);
}

loopy_vertex loopy_grundy_vertex_count(const loopy_grundy *grundy)
{
    return grundy->n;
}

const uint32_t *loopy_grundy_values(const loopy_grundy *grundy)
{
    return grundy->value;
}

const uint32_t *loopy_grundy_inf_set(const loopy_grundy *grundy,
                                     loopy_vertex v, size_t *count)
{
    loopy_edge begin = grundy->set_start[v];
    *count = (size_t)(grundy->set_start[v + 1] - begin);
    return grundy->set_value + begin;
}

/* Whether x is in the sorted set[0..count). */
static bool set_contains(const uint32_t *set, size_t count, uint32_t x)
{
    size_t lo = 0, hi = count;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (set[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < count && set[lo] == x;
}

loopy_outcome loopy_grundy_outcome(const loopy_grundy *grundy, loopy_vertex v)
{
    size_t count;
    const uint32_t *set;

    if (grundy->value[v] != LOOPY_GRUNDY_INF)
        return grundy->value[v] == 0 ? LOOPY_LOSE : LOOPY_WIN;
    set = loopy_grundy_inf_set(grundy, v, &count);
    return set_contains(set, count, 0) ? LOOPY_WIN : LOOPY_DRAW;
}

loopy_status loopy_grundy_sum_value(const loopy_grundy *grundy,
                                    const loopy_vertex *tokens, size_t count,
                                    loopy_grundy_sum *out)
{
    uint32_t xor_finite = 0;
    loopy_vertex infinite = LOOPY_NONE;
    size_t infinite_count = 0;

    if (grundy == NULL || out == NULL || (tokens == NULL && count > 0))
        return LOOPY_EINVAL;
    for (size_t i = 0; i < count; i++) {
        if (tokens[i] >= grundy->n)
            return LOOPY_EINVAL;
        if (grundy->value[tokens[i]] == LOOPY_GRUNDY_INF) {
            infinite = tokens[i];
            infinite_count++;
        } else {
            xor_finite ^= grundy->value[tokens[i]];
        }
    }
    out->infinite_count = infinite_count;
    out->shift = xor_finite;
    out->infinite_token = infinite_count == 1 ? infinite : LOOPY_NONE;
    if (infinite_count == 0) {
        out->value = xor_finite;
        out->outcome = xor_finite == 0 ? LOOPY_LOSE : LOOPY_WIN;
    } else {
        size_t set_count;
        const uint32_t *set;
        out->value = LOOPY_GRUNDY_INF;
        out->outcome = LOOPY_DRAW;
        /* 0 is in K XOR a exactly when a is in K. */
        if (infinite_count == 1) {
            set = loopy_grundy_inf_set(grundy, infinite, &set_count);
            if (set_contains(set, set_count, xor_finite))
                out->outcome = LOOPY_WIN;
        }
    }
    return LOOPY_OK;
}
