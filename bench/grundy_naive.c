/*
 * grundy_naive.c - reference for bench/grundy.sh: Fraenkel and Yesha's
 * labelling algorithm for the generalized Sprague-Grundy function done the
 * obvious way, by whole-graph sweeps until nothing changes at each level,
 * testing "v reverses out" by scanning v's successors every time.  Prints
 * the same 'VERTEX VALUE OUTCOME' lines as 'loopy grundy -q'.
 *   grundy_naive FILE
 */
#include "loopy.h"

#include <stdio.h>
#include <stdlib.h>

#define UNLABELLED (UINT32_MAX - 1)
#define INF LOOPY_GRUNDY_INF

static int has_label(const loopy_graph *g, const uint32_t *label,
                     loopy_vertex v, uint32_t k)
{
    loopy_edge count;
    const loopy_vertex *succ = loopy_graph_successors(g, v, &count);
    for (loopy_edge e = 0; e < count; e++)
        if (label[succ[e]] == k)
            return 1;
    return 0;
}

static int cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    loopy_buffer buf = {0};
    loopy_graph *g = NULL;
    loopy_vertex n, left;
    uint32_t *label, *set;

    if (argc != 2 || loopy_buffer_load(argv[1], &buf, NULL) != LOOPY_OK ||
        loopy_read_text(buf.data, buf.len, NULL, &g, NULL, NULL) != LOOPY_OK) {
        fprintf(stderr, "usage: grundy_naive FILE (a valid edge list)\n");
        return 2;
    }
    loopy_buffer_release(&buf);
    n = loopy_graph_vertex_count(g);
    label = malloc((n ? n : 1) * sizeof *label);
    set = malloc((loopy_graph_edge_count(g) + 1) * sizeof *set);
    for (loopy_vertex v = 0; v < n; v++)
        label[v] = UNLABELLED;
    left = n;
    for (uint32_t k = 0; left > 0; k++) {
        for (int changed = 1; changed;) {
            changed = 0;
            for (loopy_vertex u = 0; u < n; u++) {
                loopy_edge count;
                const loopy_vertex *succ;
                int ok;
                if (label[u] != UNLABELLED || has_label(g, label, u, k))
                    continue;
                succ = loopy_graph_successors(g, u, &count);
                ok = 1;
                for (loopy_edge e = 0; e < count && ok; e++)
                    if (label[succ[e]] == UNLABELLED || label[succ[e]] == INF)
                        ok = has_label(g, label, succ[e], k);
                if (ok) {
                    label[u] = k;
                    left--;
                    changed = 1;
                }
            }
        }
        for (loopy_vertex u = 0; u < n; u++)
            if (label[u] == UNLABELLED && !has_label(g, label, u, k)) {
                label[u] = INF;
                left--;
            }
    }
    for (loopy_vertex u = 0; u < n; u++) {
        if (label[u] != INF) {
            printf("%u %u %c\n", u + 1, label[u], label[u] ? 'W' : 'L');
        } else {
            loopy_edge count, k = 0;
            const loopy_vertex *succ = loopy_graph_successors(g, u, &count);
            for (loopy_edge e = 0; e < count; e++)
                if (label[succ[e]] != INF)
                    set[k++] = label[succ[e]];
            qsort(set, k, sizeof *set, cmp);
            printf("%u inf{", u + 1);
            for (loopy_edge i = 0, shown = 0; i < k; i++)
                if (i == 0 || set[i] != set[i - 1])
                    printf(shown++ ? ",%u" : "%u", set[i]);
            printf("} %c\n", k > 0 && set[0] == 0 ? 'W' : 'D');
        }
    }
    free(label);
    free(set);
    loopy_graph_free(g);
    return 0;
}
