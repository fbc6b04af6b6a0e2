/*
 * graph.c - compressed sparse row storage of a directed multigraph, and its
 * reverse, both built by counting sort.  A graph may hold successor lists,
 * predecessor lists and out-degrees, each optional (see struct loopy_graph).
 */
#include "../core/internal.h"

#include <sys/mman.h>

/* Every CSR array here is built by counting sort: counts, then
 * loopy_i_starts_from_counts, then a scatter that advances offset[v] once
 * per item of v, then restore_starts. */

void loopy_i_starts_from_counts(loopy_edge *offset, loopy_vertex n)
{
    loopy_edge sum = 0;

    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge count = offset[v];
        offset[v] = sum;
        sum += count;
    }
    offset[n] = sum;
}

/* After the scatter, offset[v] is the end of v's run, which is the start of
 * v+1's: one shift restores the start offsets. */
static void restore_starts(loopy_edge *offset, loopy_vertex n)
{
    for (loopy_vertex v = n; v > 0; v--)
        offset[v] = offset[v - 1];
    offset[0] = 0;
}

loopy_graph *loopy_i_graph_shell(loopy_vertex n, loopy_edge m)
{
    loopy_graph *g = loopy_i_calloc(1, sizeof *g);

    if (g != NULL) {
        g->n = n;
        g->m = m;
        g->base = 1;
    }
    return g;
}

loopy_status loopy_i_graph_from_degrees(loopy_vertex n, loopy_edge m,
                                        loopy_edge *degree,
                                        const loopy_vertex *tail,
                                        const loopy_vertex *head,
                                        loopy_graph **out)
{
    loopy_status status = LOOPY_OK;
    loopy_graph *g = NULL;

    *out = NULL;
    if (m > SIZE_MAX / sizeof(loopy_vertex)) {
        status = LOOPY_ETOOBIG;
        goto fail;
    }
    g = loopy_i_graph_shell(n, m);
    if (g == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    g->target = loopy_i_malloc((size_t)m, sizeof *g->target);
    if (g->target == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    g->owned = GRAPH_OWNS_TARGET;
    loopy_i_starts_from_counts(degree, n);
    for (loopy_edge e = 0; e < m; e++)
        g->target[degree[tail[e]]++] = head[e];
    restore_starts(degree, n);
    g->offset = degree;
    g->owned |= GRAPH_OWNS_OFFSET;
    *out = g;
    return LOOPY_OK;

fail:
    loopy_graph_free(g);
    loopy_i_free(degree);
    return status;
}

loopy_status loopy_graph_from_edges(loopy_vertex n, loopy_edge m,
                                    const loopy_vertex *tail,
                                    const loopy_vertex *head,
                                    loopy_graph **out)
{
    loopy_edge *degree;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (n > LOOPY_MAX_VERTICES || (m > 0 && (tail == NULL || head == NULL)))
        return LOOPY_EINVAL;
    for (loopy_edge e = 0; e < m; e++)
        if (tail[e] >= n || head[e] >= n)
            return LOOPY_EINVAL;
    degree = loopy_i_calloc((size_t)n + 1, sizeof *degree);
    if (degree == NULL)
        return LOOPY_ENOMEM;
    for (loopy_edge e = 0; e < m; e++) {
        /* Out-degrees are counted in 32 bits by the solver. */
        if (++degree[tail[e]] > UINT32_MAX - 1) {
            loopy_i_free(degree);
            return LOOPY_ETOOBIG;
        }
    }
    return loopy_i_graph_from_degrees(n, m, degree, tail, head, out);
}

void loopy_graph_free(loopy_graph *graph)
{
    if (graph == NULL)
        return;
    if (graph->owned & GRAPH_OWNS_OFFSET)
        loopy_i_free(graph->offset);
    if (graph->owned & GRAPH_OWNS_TARGET)
        loopy_i_free(graph->target);
    if (graph->owned & GRAPH_OWNS_REV_OFFSET)
        loopy_i_free(graph->rev_offset);
    if (graph->owned & GRAPH_OWNS_REV_SOURCE)
        loopy_i_free(graph->rev_source);
    if (graph->owned & GRAPH_OWNS_OUT_DEGREE)
        loopy_i_free(graph->out_degree);
    if (graph->mapping != NULL) {
        if (graph->mapping_is_heap)
            loopy_i_free(graph->mapping);
        else
            munmap(graph->mapping, graph->mapping_len);
    }
    loopy_i_free(graph);
}

loopy_vertex loopy_graph_vertex_count(const loopy_graph *graph)
{
    return graph->n;
}

loopy_edge loopy_graph_edge_count(const loopy_graph *graph)
{
    return graph->m;
}

uint32_t loopy_graph_base(const loopy_graph *graph)
{
    return graph->base;
}

int loopy_graph_has_successors(const loopy_graph *graph)
{
    return graph->target != NULL && graph->offset != NULL;
}

const loopy_vertex *loopy_graph_successors(const loopy_graph *graph,
                                           loopy_vertex v, loopy_edge *count)
{
    loopy_edge begin;

    if (graph->target == NULL || graph->offset == NULL) {
        *count = 0;
        return NULL;
    }
    begin = graph->offset[v];
    *count = graph->offset[v + 1] - begin;
    return graph->target + begin;
}

const loopy_vertex *loopy_graph_predecessors(const loopy_graph *graph,
                                             loopy_vertex v, loopy_edge *count)
{
    loopy_edge begin;

    if (graph->rev_source == NULL || graph->rev_offset == NULL) {
        *count = 0;
        return NULL;
    }
    begin = graph->rev_offset[v];
    *count = graph->rev_offset[v + 1] - begin;
    return graph->rev_source + begin;
}

loopy_edge loopy_graph_out_degree(const loopy_graph *graph, loopy_vertex v)
{
    if (graph->out_degree != NULL)
        return graph->out_degree[v];
    return graph->offset[v + 1] - graph->offset[v];
}

loopy_status loopy_i_graph_reverse(const loopy_graph *g, loopy_edge **rev_offset,
                                   loopy_vertex **rev_source)
{
    loopy_edge *offset = loopy_i_calloc((size_t)g->n + 1, sizeof *offset);
    loopy_vertex *source = loopy_i_malloc((size_t)g->m, sizeof *source);

    *rev_offset = NULL;
    *rev_source = NULL;
    if (offset == NULL || source == NULL) {
        loopy_i_free(offset);
        loopy_i_free(source);
        return LOOPY_ENOMEM;
    }
    for (loopy_edge e = 0; e < g->m; e++)
        offset[g->target[e]]++;
    loopy_i_starts_from_counts(offset, g->n);
    for (loopy_vertex u = 0; u < g->n; u++)
        for (loopy_edge e = g->offset[u]; e < g->offset[u + 1]; e++)
            source[offset[g->target[e]]++] = u;
    restore_starts(offset, g->n);
    *rev_offset = offset;
    *rev_source = source;
    return LOOPY_OK;
}

loopy_status loopy_i_graph_add_reverse(loopy_graph *g, const loopy_vertex *tail,
                                       const loopy_vertex *head)
{
    loopy_edge *offset = loopy_i_calloc((size_t)g->n + 1, sizeof *offset);
    loopy_vertex *source = loopy_i_malloc((size_t)g->m, sizeof *source);

    if (offset == NULL || source == NULL) {
        loopy_i_free(offset);
        loopy_i_free(source);
        return LOOPY_ENOMEM;
    }
    for (loopy_edge e = 0; e < g->m; e++)
        offset[head[e]]++;
    loopy_i_starts_from_counts(offset, g->n);
    for (loopy_edge e = 0; e < g->m; e++)
        source[offset[head[e]]++] = tail[e];
    restore_starts(offset, g->n);
    g->rev_offset = offset;
    g->rev_source = source;
    g->owned |= GRAPH_OWNS_REV_OFFSET | GRAPH_OWNS_REV_SOURCE;
    return LOOPY_OK;
}

loopy_status loopy_graph_build_successors(loopy_graph *g)
{
    loopy_edge *offset, running;
    loopy_vertex *target;

    if (g == NULL)
        return LOOPY_EINVAL;
    if (g->offset != NULL && g->target != NULL)
        return LOOPY_OK;
    if (g->rev_offset == NULL || g->rev_source == NULL ||
        g->m > SIZE_MAX / sizeof *target)
        return LOOPY_EINVAL;
    offset = loopy_i_malloc((size_t)g->n + 1, sizeof *offset);
    target = loopy_i_malloc((size_t)g->m, sizeof *target);
    if (offset == NULL || target == NULL) {
        loopy_i_free(offset);
        loopy_i_free(target);
        return LOOPY_ENOMEM;
    }
    /* Start offsets from the out-degrees, then a scatter in increasing
     * order of the successor w (see restore_starts).  The lists may come
     * from a file, so nothing here trusts that they agree with the
     * out-degrees: a write stays below the next vertex's cursor (never
     * past offset[n], so inside target), and afterwards every cursor must
     * stand exactly at the end of its vertex's run. */
    offset[0] = 0;
    for (loopy_vertex u = 0; u < g->n; u++) {
        loopy_edge degree = loopy_graph_out_degree(g, u);
        if (degree > g->m - offset[u])
            goto disagree;
        offset[u + 1] = offset[u] + degree;
    }
    if (offset[g->n] != g->m)
        goto disagree;
    for (loopy_vertex w = 0; w < g->n; w++) {
        for (loopy_edge e = g->rev_offset[w]; e < g->rev_offset[w + 1]; e++) {
            loopy_vertex u = g->rev_source[e];
            if (u >= g->n || offset[u] >= offset[u + 1])
                goto disagree;
            target[offset[u]++] = w;
        }
    }
    running = 0;
    for (loopy_vertex u = 0; u < g->n; u++) {
        running += loopy_graph_out_degree(g, u);
        if (offset[u] != running)
            goto disagree;
    }
    restore_starts(offset, g->n);
    g->offset = offset;
    g->target = target;
    g->owned |= GRAPH_OWNS_OFFSET | GRAPH_OWNS_TARGET;
    return LOOPY_OK;

disagree:
    loopy_i_free(offset);
    loopy_i_free(target);
    return LOOPY_EFORMAT;
}

loopy_status loopy_i_graph_complete(loopy_graph *g, bool keep_successors)
{
    loopy_status status = LOOPY_OK;
    uint32_t *degree = NULL;

    if (g->rev_offset == NULL) {
        status = loopy_i_graph_reverse(g, &g->rev_offset, &g->rev_source);
        if (status != LOOPY_OK)
            return status;
        g->owned |= GRAPH_OWNS_REV_OFFSET | GRAPH_OWNS_REV_SOURCE;
    }
    if (keep_successors || g->offset == NULL)
        return LOOPY_OK;
    degree = loopy_i_malloc(g->n, sizeof *degree);
    if (degree == NULL)
        return LOOPY_ENOMEM;
    /* Degrees fit: every builder refuses 2^32 - 1 moves or more. */
    for (loopy_vertex v = 0; v < g->n; v++)
        degree[v] = (uint32_t)(g->offset[v + 1] - g->offset[v]);
    if (g->owned & GRAPH_OWNS_OFFSET)
        loopy_i_free(g->offset);
    if (g->owned & GRAPH_OWNS_TARGET)
        loopy_i_free(g->target);
    g->offset = NULL;
    g->target = NULL;
    g->out_degree = degree;
    g->owned = (g->owned & ~(unsigned)(GRAPH_OWNS_OFFSET | GRAPH_OWNS_TARGET)) |
               GRAPH_OWNS_OUT_DEGREE;
    return status;
}
