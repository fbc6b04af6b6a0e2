/*
 * sleepy.c - Codeforces 936B: one player moves for both sides from s.  A win
 * is a walk from s that ends, after an odd number of moves (fewer than
 * 10^6), at a vertex without moves; a draw is a walk of 10^6 moves (a cycle
 * reachable from s, or a path that long).
 *
 * A walk of odd length to a sink is a path in the product graph of (vertex,
 * parity of moves made), so breadth-first search from (s, even) finds a
 * shortest one; without one, a depth-first search looks for a cycle and, in
 * a graph without one, measures the longest path.  All states at BFS
 * distance d have parity d mod 2, so the queue holds bare vertex ids and the
 * parity comes from the level.
 */
#include "../io/stream.h"
#include "../io/tokens.h"

#include <stdio.h>
#include <string.h>

void loopy_sleepy_result_release(loopy_sleepy_result *result)
{
    if (result == NULL)
        return;
    loopy_i_free(result->path);
    result->path = NULL;
    result->path_len = 0;
}

/* Follows parent links (1 + vertex) from (goal, odd) at distance dist back
 * to the start. */
static loopy_status build_path(const loopy_vertex *parent, loopy_vertex goal,
                               uint64_t dist, loopy_sleepy_result *result)
{
    loopy_vertex *path = loopy_i_malloc((size_t)dist + 1, sizeof *path);
    loopy_vertex v = goal;

    if (path == NULL)
        return LOOPY_ENOMEM;
    for (uint64_t i = dist + 1; i-- > 0;) {
        path[i] = v;
        /* State (v, parity of i); its parent has the other parity. */
        if (i > 0)
            v = parent[2 * (size_t)v + (i & 1)] - 1;
    }
    result->outcome = LOOPY_WIN;
    result->path = path;
    result->path_len = (size_t)dist + 1;
    return LOOPY_OK;
}

/* Depth-first search from start with an explicit stack: true at the first
 * move back onto the current path (a cycle is reachable), or when the
 * longest path from start has LOOPY_SLEEPY_MOVES moves or more.  color: n
 * bytes, zeroed (0 unseen, 1 on the path, 2 done); cursor[v]: the next move
 * of v to try, for v on the path; longest[v]: moves of the longest path
 * from a done v (at most n - 1); stack: n entries.  It stops at the first
 * cycle, so on a graph full of cycles it looks at a small part of it. */
static bool long_walk(const loopy_graph *g, loopy_vertex start,
                      uint8_t *color, uint32_t *cursor, uint32_t *longest,
                      loopy_vertex *stack)
{
    size_t top = 0;

    color[start] = 1;
    cursor[start] = 0;
    stack[top++] = start;
    while (top > 0) {
        loopy_vertex v = stack[top - 1];
        if (g->offset[v] + cursor[v] < g->offset[v + 1]) {
            loopy_vertex w = g->target[g->offset[v] + cursor[v]++];
            if (color[w] == 1)
                return true;
            if (color[w] == 0) {
                color[w] = 1;
                cursor[w] = 0;
                stack[top++] = w;
            }
        } else {
            /* Every move of v leads to a done vertex now. */
            uint32_t most = 0;
            for (loopy_edge e = g->offset[v]; e < g->offset[v + 1]; e++)
                if (longest[g->target[e]] + 1 > most)
                    most = longest[g->target[e]] + 1;
            longest[v] = most;
            color[v] = 2;
            top--;
        }
    }
    return longest[start] >= LOOPY_SLEEPY_MOVES;
}

loopy_status loopy_sleepy_solve(const loopy_graph *g, loopy_vertex start,
                                loopy_sleepy_result *result)
{
    loopy_status status = LOOPY_OK;
    loopy_vertex *parent = NULL, *queue = NULL;
    size_t head = 0, tail = 0, level_end;
    uint64_t dist = 0;

    if (result == NULL)
        return LOOPY_EINVAL;
    memset(result, 0, sizeof *result);
    if (g == NULL || !loopy_graph_has_successors(g))
        return LOOPY_EINVAL;
    result->outcome = LOOPY_LOSE;
    if (g == NULL || start >= g->n)
        return LOOPY_EINVAL;
    /* parent[2v + p]: 1 + the vertex before v on a shortest walk reaching
     * v after a number of moves of parity p; 0: not reached.  Zero for
     * "not reached" lets calloc's untouched pages stay unmapped when a win
     * is found early. */
    parent = loopy_i_calloc(2 * (size_t)g->n, sizeof *parent);
    queue = loopy_i_malloc(2 * (size_t)g->n, sizeof *queue);
    if (parent == NULL || queue == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    /* Huge pages: the search touches parent at random, and each 4 KiB
     * page would cost a fault (two, reading the zero page first). */
    loopy_i_advise_huge(parent, 2 * (size_t)g->n * sizeof *parent);
    loopy_i_advise_huge(queue, 2 * (size_t)g->n * sizeof *queue);
    parent[2 * (size_t)start] = start + 1;
    queue[tail++] = start;
    level_end = tail;
    /* Walks of LOOPY_SLEEPY_MOVES moves or more are draws, not wins. */
    while (head < tail && dist + 1 < LOOPY_SLEEPY_MOVES) {
        loopy_vertex u = queue[head++];
        size_t next_parity = (dist + 1) & 1;

        for (loopy_edge e = g->offset[u]; e < g->offset[u + 1]; e++) {
            loopy_vertex w = g->target[e];
            size_t state = 2 * (size_t)w + next_parity;
            if (parent[state] != 0)
                continue;
            parent[state] = u + 1;
            /* States are pushed level by level, so the first odd arrival
             * at a sink ends a shortest winning walk. */
            if (next_parity == 1 && g->offset[w] == g->offset[w + 1]) {
                status = build_path(parent, w, dist + 1, result);
                goto fail;
            }
            queue[tail++] = w;
        }
        if (head == level_end) {
            dist++;
            level_end = tail;
        }
    }
    {
        /* No win: look for a long walk.  The search's arrays are free now:
         * parent serves as the cursors and the longest paths, queue as the
         * stack. */
        uint8_t *color = loopy_i_calloc(g->n, 1);
        if (color == NULL) {
            status = LOOPY_ENOMEM;
            goto fail;
        }
        result->outcome = long_walk(g, start, color, parent, parent + g->n,
                                    queue)
                              ? LOOPY_DRAW
                              : LOOPY_LOSE;
        loopy_i_free(color);
    }

fail: /* also the way out of a win */
    loopy_i_free(parent);
    loopy_i_free(queue);
    return status;
}

/* Builds the graph straight from the lists, which come in vertex order:
 * token by token, the careful way. */
static loopy_status read_lists(loopy_source *src, uint64_t n, uint64_t m,
                               loopy_graph *g, loopy_diag *diag)
{
    loopy_status status = LOOPY_OK;
    loopy_edge capacity = 0;
    char what[128];

    for (uint64_t u = 0; u < n; u++) {
        uint64_t k, v, left = m - g->m;

        if (!loopy_i_source_try_uint(src, 0, left, &k)) {
            snprintf(what, sizeof what, "the number of moves of vertex %"
                     PRIu64 " (at most the %" PRIu64 " left of m = %" PRIu64
                     ")", u + 1, left, m);
            CHECK_GOTO(loopy_i_source_uint(src, 0, left, &k, what, diag));
        }
        if (k > UINT32_MAX - 1) { /* the solver counts degrees in 32 bits */
            uint64_t line, column;
            loopy_i_source_where(src, &line, &column);
            loopy_i_diag(diag, line, column, "vertex %" PRIu64 " has more "
                         "than %" PRIu32 " moves", u + 1, UINT32_MAX - 1);
            return LOOPY_ETOOBIG;
        }
        for (uint64_t i = 0; i < k; i++) {
            if (g->m == capacity) {
                /* Grow by doubling as moves arrive, never past m: an m or
                 * a k announced but not present costs nothing. */
                loopy_edge want = capacity ? 2 * capacity : 1024;
                loopy_vertex *grown;
                want = want < m ? want : m;
                /* A new block, not realloc: huge pages are asked for
                 * before the moves are copied in (realloc would copy into
                 * small pages, as the advice splits a mapping that mremap
                 * then refuses). */
                grown = loopy_i_malloc((size_t)want, sizeof *grown);
                if (grown == NULL) {
                    loopy_i_diag(diag, 0, 0, "out of memory for %" PRIu64
                                 " moves", want);
                    return LOOPY_ENOMEM;
                }
                loopy_i_advise_huge(grown, (size_t)want * sizeof *grown);
                if (g->m > 0)
                    memcpy(grown, g->target, (size_t)g->m * sizeof *grown);
                loopy_i_free(g->target);
                g->target = grown;
                capacity = want;
            }
            if (!loopy_i_source_try_uint(src, 1, n, &v)) {
                snprintf(what, sizeof what, "a move of vertex %" PRIu64
                         " (a vertex from 1 to %" PRIu64 ")", u + 1, n);
                CHECK_GOTO(loopy_i_source_uint(src, 1, n, &v, what, diag));
            }
            g->target[g->m++] = (loopy_vertex)(v - 1);
        }
        g->offset[u + 1] = g->m;
    }
fail:
    return status;
}

/* The fast way, for an input in memory that can be read again (a file or
 * a memory text): the numbers come from a feed read on all threads
 * (tokens.h) and are checked as read_lists would.  Sets *taken if they are
 * exactly the n lists of m moves and s; otherwise nothing is kept, and the
 * caller reads the careful way from where this began.  LOOPY_ENOMEM if
 * memory runs out. */
static loopy_status read_all_fast(loopy_source *src, uint64_t n, uint64_t m,
                                  loopy_graph *g, uint64_t *s, bool *taken,
                                  loopy_diag *diag)
{
    const char *text;
    size_t len;
    loopy_i_feed f;
    loopy_status status;
    uint64_t u;
    uint32_t value = 0;
    bool ok = true;

    *taken = false;
    if (!loopy_i_source_rest(src, &text, &len))
        return LOOPY_OK;
    status = loopy_i_feed_open(&f, src, 0, 0);
    if (status != LOOPY_OK) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return status;
    }
    /* Moves take 2 bytes at least: the text bounds the room needed.  An m
     * far beyond the text can make that more than memory allows; then the
     * careful way, which grows the lists as moves arrive, reads it (and
     * says what is wrong with m). */
    g->target = loopy_i_malloc(m < len / 2 + 1 ? (size_t)m + 1 : len / 2 + 1,
                               sizeof *g->target);
    if (g->target == NULL) {
        loopy_i_feed_close(&f);
        return LOOPY_OK;
    }
    loopy_i_advise_huge(g->target, (m < len / 2 ? m : len / 2) * sizeof *g->target);
    for (u = 0; u < n && ok; u++) {
        uint32_t k;
        /* Whole lists inside the chunk, in a tight loop. */
        while (u < n && f.at < f.count) {
            const uint32_t *list = f.value + f.at + 1;
            uint32_t bad = 0;
            k = f.value[f.at];
            if (k > m - g->m || k >= f.count - f.at)
                break; /* too many, or running past the chunk */
            for (uint32_t j = 0; j < k; j++) {
                uint32_t v = list[j];
                bad |= (uint32_t)(v - 1 >= n);
                g->target[g->m + j] = v - 1;
            }
            if (bad)
                break;
            f.at += (size_t)k + 1;
            g->m += k;
            g->offset[++u] = g->m;
        }
        if (u == n)
            break;
        if (!loopy_i_feed_next(&f, &k) || k > m - g->m || k > UINT32_MAX - 1)
            break;
        /* The moves straight from the feed's buffer, a chunk at a time. */
        while (k > 0) {
            size_t take = f.count - f.at < k ? f.count - f.at : k;
            const uint32_t *from = f.value + f.at;
            uint32_t bad = 0;
            if (take == 0) {
                if (!loopy_i_feed_refill(&f))
                    break;
                continue;
            }
            for (size_t j = 0; j < take; j++) {
                uint32_t v = from[j];
                bad |= (uint32_t)(v - 1 >= n);
                g->target[g->m + j] = v - 1;
            }
            if (bad) {
                ok = false;
                break;
            }
            f.at += take;
            g->m += take;
            k -= (uint32_t)take;
        }
        if (k > 0)
            break;
        g->offset[u + 1] = g->m;
    }
    ok = ok && u == n && g->m == m && loopy_i_feed_next(&f, &value) &&
         value >= 1 && value <= n && loopy_i_feed_done(&f);
    loopy_i_feed_close(&f);
    if (!ok) {
        loopy_i_free(g->target);
        g->target = NULL;
        g->m = 0;
        return LOOPY_OK;
    }
    *s = value;
    *taken = true;
    return LOOPY_OK;
}

loopy_status loopy_sleepy_read(loopy_source *src, loopy_graph **graph,
                               loopy_vertex *start, loopy_diag *diag)
{
    loopy_status status;
    loopy_graph *g = NULL;
    uint64_t n, m, s, line, column, n_line, n_column;
    char what[96];
    bool taken;

    if (graph == NULL || start == NULL)
        return LOOPY_EINVAL;
    *graph = NULL;
    if (src == NULL)
        return LOOPY_EINVAL;
    CHECK_GOTO(loopy_i_source_uint(src, 1, UINT64_MAX, &n,
                                   "the vertex count n (from 1 to 4294967294)", diag));
    loopy_i_source_where(src, &n_line, &n_column);
    if (n > LOOPY_MAX_VERTICES)
        return loopy_i_vertex_limit(diag, n_line, n_column, n);
    CHECK_GOTO(loopy_i_source_uint(src, 0, UINT64_MAX, &m,
                                   "the move count m", diag));
    if (n > loopy_i_physical_memory() / 24) { /* graph offsets and solve */
        loopy_i_diag(diag, n_line, n_column, "n = %" PRIu64 " is too large "
                     "for this machine's memory", n);
        return LOOPY_ETOOBIG;
    }
    g = loopy_i_graph_shell(0, 0);
    if (g != NULL) /* the lists below are the graph's own */
        g->owned = GRAPH_OWNS_OFFSET | GRAPH_OWNS_TARGET;
    if (g == NULL || (g->offset = loopy_i_calloc((size_t)n + 1,
                                                 sizeof *g->offset)) == NULL) {
        loopy_i_diag(diag, 0, 0, "out of memory for n = %" PRIu64, n);
        status = LOOPY_ENOMEM;
        goto fail;
    }
    g->n = (loopy_vertex)n;
    loopy_i_advise_huge(g->offset, ((size_t)n + 1) * sizeof *g->offset);
    CHECK_GOTO(read_all_fast(src, n, m, g, &s, &taken, diag));
    if (taken) {
        *start = (loopy_vertex)(s - 1);
        *graph = g;
        return LOOPY_OK;
    }
    CHECK_GOTO(read_lists(src, n, m, g, diag));
    if (g->target == NULL && (g->target = loopy_i_malloc(1, 1)) == NULL) {
        status = LOOPY_ENOMEM; /* no moves: a valid pointer all the same */
        goto fail;
    }
    snprintf(what, sizeof what, "the start s (a vertex from 1 to %" PRIu64
             ")", n);
    if (g->m != m) {
        /* The lists ended early: say so where the next token stands. */
        status = loopy_i_source_uint(src, 1, n, &s, what, diag);
        if (status != LOOPY_EIO) {
            loopy_i_source_where(src, &line, &column);
            loopy_i_diag(diag, line, column, "the %" PRIu64 " list%s hold%s %"
                         PRIu64 " move%s, but m = %" PRIu64 " was announced",
                         n, n == 1 ? "" : "s", n == 1 ? "s" : "",
                         (uint64_t)g->m, g->m == 1 ? "" : "s", m);
            status = LOOPY_EPARSE;
        }
        goto fail;
    }
    CHECK_GOTO(loopy_i_source_uint(src, 1, n, &s, what, diag));
    CHECK_GOTO(loopy_i_source_end(src, "the end of the input after s", diag));
    *start = (loopy_vertex)(s - 1);
    *graph = g;
    return LOOPY_OK;

fail:
    loopy_graph_free(g);
    return status;
}
