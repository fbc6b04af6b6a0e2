/*
 * race_read.c - the input of Luogu P6560: "n m q", m moves "u v", q rounds
 * "x y", vertices numbered from 1, read token by token from a source.
 */
#include "../io/stream.h"

#include <stdio.h>
#include <string.h>

void loopy_race_rounds_release(loopy_race_rounds *rounds)
{
    if (rounds == NULL)
        return;
    loopy_i_free(rounds->start);
    loopy_i_free(rounds->end);
    rounds->start = NULL;
    rounds->end = NULL;
    rounds->count = 0;
}

/* Makes room for one more pair in a and b, doubling up to limit (the count
 * announced), so an announced count that is not there costs nothing. */
static loopy_status grow_pairs(loopy_vertex **a, loopy_vertex **b,
                               uint64_t *capacity, uint64_t used,
                               uint64_t limit)
{
    uint64_t want;
    loopy_vertex *ga, *gb;

    if (used < *capacity)
        return LOOPY_OK;
    want = *capacity ? 2 * *capacity : 1024;
    want = want < limit ? want : limit;
    if (want > SIZE_MAX / sizeof **a)
        return LOOPY_ENOMEM;
    ga = loopy_i_realloc(*a, (size_t)want, sizeof **a);
    if (ga == NULL)
        return LOOPY_ENOMEM;
    *a = ga;
    gb = loopy_i_realloc(*b, (size_t)want, sizeof **b);
    if (gb == NULL)
        return LOOPY_ENOMEM;
    *b = gb;
    *capacity = want;
    return LOOPY_OK;
}

/* A text that ends too early: says how far it got, as loopy_read_text
 * does ("found end of file after 1 of the 2 moves announced"). */
static loopy_status ended_after(loopy_status status, loopy_diag *diag,
                                uint64_t done, uint64_t total, const char *thing)
{
    static const char eof[] = "found end of file";
    size_t len;

    if (status != LOOPY_EPARSE || diag == NULL)
        return status;
    len = strlen(diag->message);
    if (len >= sizeof eof - 1 &&
        strcmp(diag->message + len - (sizeof eof - 1), eof) == 0)
        snprintf(diag->message + len, sizeof diag->message - len,
                 " after %" PRIu64 " of the %" PRIu64 " %s%s announced", done,
                 total, thing, total == 1 ? "" : "s");
    return status;
}

/* Reads a pair of vertices, each from 1 to n, into 0-based *u and *v. */
static loopy_status read_pair(loopy_source *src, uint64_t n, const char *first,
                              const char *second, loopy_vertex *u,
                              loopy_vertex *v, loopy_diag *diag)
{
    uint64_t a, b;
    loopy_status status;

    status = LOOPY_I_READ_UINT(src, 1, n, &a, first, diag);
    if (status == LOOPY_OK)
        status = LOOPY_I_READ_UINT(src, 1, n, &b, second, diag);
    if (status == LOOPY_OK) {
        *u = (loopy_vertex)(a - 1);
        *v = (loopy_vertex)(b - 1);
    }
    return status;
}

loopy_status loopy_race_read(loopy_source *src, loopy_graph **graph,
                             loopy_race_rounds *rounds, loopy_diag *diag)
{
    loopy_status status;
    loopy_edge *degree = NULL;
    loopy_vertex *tail = NULL, *head = NULL;
    uint64_t n, m, q, capacity = 0, count, n_line, n_column;
    char first[96], second[96];

    if (graph == NULL || rounds == NULL)
        return LOOPY_EINVAL;
    *graph = NULL;
    memset(rounds, 0, sizeof *rounds);
    if (src == NULL)
        return LOOPY_EINVAL;
    CHECK_GOTO(LOOPY_I_READ_UINT(src, 1, UINT64_MAX, &n,
                                   "the vertex count n (from 1 to 4294967294)", diag));
    loopy_i_source_where(src, &n_line, &n_column);
    if (n > LOOPY_MAX_VERTICES) {
        status = loopy_i_vertex_limit(diag, n_line, n_column, n);
        goto fail;
    }
    CHECK_GOTO(LOOPY_I_READ_UINT(src, 0, UINT64_MAX, &m,
                                   "the move count m", diag));
    CHECK_GOTO(LOOPY_I_READ_UINT(src, 0, UINT64_MAX, &q,
                                   "the round count q", diag));
    /* Graph offsets, reverse offsets, solution and scratch: ~50 bytes. */
    if (n > loopy_i_physical_memory() / 50) {
        loopy_i_diag(diag, n_line, n_column, "n = %" PRIu64 " is too large "
                     "for this machine's memory", n);
        status = LOOPY_ETOOBIG;
        goto fail;
    }
    degree = loopy_i_calloc((size_t)n + 1, sizeof *degree);
    if (degree == NULL) {
        status = LOOPY_ENOMEM;
        goto out_of_memory;
    }
    snprintf(first, sizeof first, "a move's first vertex (from 1 to %" PRIu64
             ")", n);
    snprintf(second, sizeof second, "a move's second vertex (from 1 to %"
             PRIu64 ")", n);
    for (count = 0; count < m; count++) {
        loopy_vertex u, v;
        if ((status = grow_pairs(&tail, &head, &capacity, count, m)) != 0)
            goto out_of_memory;
        CHECK_GOTO(ended_after(read_pair(src, n, first, second, &u, &v, diag),
                               diag, count, m, "move"));
        /* Out-degrees are counted in 32 bits by the solver. */
        if (++degree[u] > UINT32_MAX - 1) {
            loopy_i_diag(diag, 0, 0, "vertex %" PRIu32 " has more than %"
                         PRIu32 " moves", u + 1, UINT32_MAX - 1);
            status = LOOPY_ETOOBIG;
            goto fail;
        }
        tail[count] = u;
        head[count] = v;
    }
    snprintf(first, sizeof first, "a round's start x (from 1 to %" PRIu64
             ")", n);
    snprintf(second, sizeof second, "a round's end y (from 1 to %" PRIu64
             ")", n);
    capacity = 0;
    for (count = 0; count < q; count++) {
        if ((status = grow_pairs(&rounds->start, &rounds->end, &capacity,
                                 count, q)) != 0)
            goto out_of_memory;
        CHECK_GOTO(ended_after(read_pair(src, n, first, second,
                                         &rounds->start[count],
                                         &rounds->end[count], diag),
                               diag, count, q, "round"));
        rounds->count = (size_t)count + 1;
    }
    CHECK_GOTO(loopy_i_source_end(src, "the end of the input after the q "
                                  "rounds", diag));
    status = loopy_i_graph_from_degrees((loopy_vertex)n, m, degree, tail,
                                        head, graph);
    degree = NULL; /* taken over, even on failure */
    if (status != LOOPY_OK)
        goto out_of_memory;
    loopy_i_free(tail);
    loopy_i_free(head);
    return LOOPY_OK;

out_of_memory:
    loopy_i_diag(diag, 0, 0, "%s for n = %" PRIu64 ", m = %" PRIu64,
                 loopy_strerror(status), n, m);
fail:
    loopy_i_free(degree);
    loopy_i_free(tail);
    loopy_i_free(head);
    loopy_race_rounds_release(rounds);
    return status;
}
