/*
 * graph.c - compressed sparse row storage of a directed multigraph, and its
 * reverse, both built by counting sort.
 */
#include "../core/internal.h"

loopy_status loopy_i_graph_from_degrees(loopy_vertex n, loopy_edge m,
                                        loopy_edge *degree,
                                        const loopy_vertex *tail,
                                        const loopy_vertex *head,
                                        loopy_graph **out)
{
    loopy_status status = LOOPY_OK;
    loopy_graph *g = NULL;
    loopy_edge sum = 0;

    *out = NULL;
    if (m > SIZE_MAX / sizeof(loopy_vertex)) {
        status = LOOPY_ETOOBIG;
        goto fail;
    }
    g = loopy_i_calloc(1, sizeof *g);
    if (g == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    g->n = n;
    g->m = m;
    g->target = loopy_i_malloc((size_t)m, sizeof *g->target);
    if (g->target == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    /* Exclusive prefix sum turns degrees into start offsets; the scatter below
     * advances offset[v] to the end of v's run, which is the start of v+1's,
     * so one shift afterwards restores the start offsets. */
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge d = degree[v];
        degree[v] = sum;
        sum += d;
    }
    degree[n] = sum;
    for (loopy_edge e = 0; e < m; e++)
        g->target[degree[tail[e]]++] = head[e];
    for (loopy_vertex v = n; v > 0; v--)
        degree[v] = degree[v - 1];
    degree[0] = 0;
    g->offset = degree;
    *out = g;
    return LOOPY_OK;

fail:
    if (g != NULL)
        loopy_i_free(g->target);
    loopy_i_free(g);
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
    loopy_i_free(graph->offset);
    loopy_i_free(graph->target);
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

const loopy_vertex *loopy_graph_successors(const loopy_graph *graph,
                                           loopy_vertex v, loopy_edge *count)
{
    loopy_edge begin = graph->offset[v];
    *count = graph->offset[v + 1] - begin;
    return graph->target + begin;
}

loopy_status loopy_i_graph_reverse(const loopy_graph *g, loopy_edge **rev_offset,
                                   loopy_vertex **rev_source)
{
    loopy_edge *offset = loopy_i_calloc((size_t)g->n + 1, sizeof *offset);
    loopy_vertex *source = loopy_i_malloc((size_t)g->m, sizeof *source);
    loopy_edge sum = 0;

    *rev_offset = NULL;
    *rev_source = NULL;
    if (offset == NULL || source == NULL) {
        loopy_i_free(offset);
        loopy_i_free(source);
        return LOOPY_ENOMEM;
    }
    for (loopy_edge e = 0; e < g->m; e++)
        offset[g->target[e]]++;
    for (loopy_vertex v = 0; v < g->n; v++) {
        loopy_edge d = offset[v];
        offset[v] = sum;
        sum += d;
    }
    offset[g->n] = sum;
    for (loopy_vertex u = 0; u < g->n; u++)
        for (loopy_edge e = g->offset[u]; e < g->offset[u + 1]; e++)
            source[offset[g->target[e]]++] = u;
    /* Same shift as in loopy_i_graph_from_degrees. */
    for (loopy_vertex v = g->n; v > 0; v--)
        offset[v] = offset[v - 1];
    offset[0] = 0;
    *rev_offset = offset;
    *rev_source = source;
    return LOOPY_OK;
}
