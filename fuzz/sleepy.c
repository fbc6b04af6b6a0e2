/*
 * sleepy.c - fuzz the sleepy command (Codeforces 936B): loopy_sleepy_read,
 * then loopy_sleepy_solve.
 *
 * The input is read from every kind of source the command-line tool uses
 * (fuzz_read_source), which must agree; a reference reader of the
 * harness's own decides validity and the place of the first bad token (or
 * of the token after lists that hold fewer moves than m).  On success the
 * graph must be the reference's, two solves must agree byte for byte, and
 * the result must match a breadth-first search over (vertex, parity of the
 * moves made) and, without a win, a cycle test by peeling vertices of
 * out-degree 0 off the part reachable from s (Kahn); a winning path must be
 * a walk along edges from s to a vertex without moves, of an odd number of
 * moves, as short as the search says.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* Larger announced vertex counts are skipped (see race.c). */
#define MAX_N 65536

typedef struct sleepy_input {
    loopy_graph *graph;
    loopy_vertex start;
} sleepy_input;

static loopy_status read_sleepy(loopy_source *source, void *ctx,
                                loopy_diag *diag)
{
    sleepy_input *in = ctx;

    in->graph = (loopy_graph *)(uintptr_t)1; /* must be overwritten */
    in->start = LOOPY_NONE;
    return loopy_sleepy_read(source, &in->graph, &in->start, diag);
}

/* The reference reader: 1 with the graph and start if the text is valid,
 * else 0 with the cursor failed at the first bad place. */
static int reference_read(fuzz_cursor *c, loopy_graph **graph,
                          loopy_vertex *start)
{
    uint64_t n, m, k, v, s;
    loopy_vertex *tail = NULL, *head = NULL;
    size_t count = 0, capacity = 0;
    int ok = 0;

    if (!fuzz_cursor_uint(c, 1, LOOPY_MAX_VERTICES, &n) ||
        !fuzz_cursor_uint(c, 0, UINT64_MAX, &m))
        return 0;
    for (uint64_t u = 0; u < n; u++) {
        if (!fuzz_cursor_uint(c, 0, m - count, &k))
            goto done;
        if (k > UINT32_MAX - 1) { /* refused at the count: the solver
                                     counts moves in 32 bits */
            c->failed = 1;
            c->line = c->last_line;
            c->column = c->last_column;
            goto done;
        }
        for (uint64_t i = 0; i < k; i++) {
            if (!fuzz_cursor_uint(c, 1, n, &v))
                goto done;
            if (count == capacity) {
                capacity = capacity * 2 + 16;
                tail = realloc(tail, capacity * sizeof *tail);
                head = realloc(head, capacity * sizeof *head);
                FUZZ_REQUIRE(tail != NULL && head != NULL, "out of memory");
            }
            tail[count] = (loopy_vertex)u;
            head[count] = (loopy_vertex)(v - 1);
            count++;
        }
    }
    if (count != m) { /* said at the token after the lists */
        fuzz_cursor_fail_here(c);
        goto done;
    }
    if (!fuzz_cursor_uint(c, 1, n, &s) || !fuzz_cursor_end(c))
        goto done;
    FUZZ_REQUIRE(loopy_graph_from_edges((loopy_vertex)n, m, tail, head,
                                        graph) == LOOPY_OK, "reference graph");
    *start = (loopy_vertex)(s - 1);
    ok = 1;
done:
    free(tail);
    free(head);
    return ok;
}

static int has_edge(const loopy_graph *g, loopy_vertex u, loopy_vertex v)
{
    loopy_edge k;
    const loopy_vertex *succ = loopy_graph_successors(g, u, &k);

    for (loopy_edge e = 0; e < k; e++)
        if (succ[e] == v)
            return 1;
    return 0;
}

/* The fewest moves of an odd walk from start to a vertex without moves, or
 * UINT64_MAX: breadth-first search over states 2v + parity. */
static uint64_t shortest_win(const loopy_graph *g, loopy_vertex start)
{
    size_t n = loopy_graph_vertex_count(g), head = 0, tail = 0;
    uint64_t *dist = malloc(2 * n * sizeof *dist), best = UINT64_MAX;
    size_t *queue = malloc(2 * n * sizeof *queue);

    FUZZ_REQUIRE(dist != NULL && queue != NULL, "out of memory");
    for (size_t i = 0; i < 2 * n; i++)
        dist[i] = UINT64_MAX;
    dist[2 * (size_t)start] = 0;
    queue[tail++] = 2 * (size_t)start;
    while (head < tail) {
        size_t state = queue[head++];
        loopy_vertex v = (loopy_vertex)(state / 2);
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, v, &k);

        if (k == 0 && state % 2 == 1 && dist[state] < best)
            best = dist[state];
        for (loopy_edge e = 0; e < k; e++) {
            size_t next = 2 * (size_t)succ[e] + (state % 2 == 0);
            if (dist[next] == UINT64_MAX) {
                dist[next] = dist[state] + 1;
                queue[tail++] = next;
            }
        }
    }
    free(dist);
    free(queue);
    return best;
}

/* Whether a cycle is reachable from start: the reachable part, peeled of
 * vertices whose successors are all peeled, leaves something. */
static int cycle_reachable(const loopy_graph *g, loopy_vertex start)
{
    size_t n = loopy_graph_vertex_count(g), top = 0, reached = 0, peeled = 0;
    uint8_t *seen = calloc(n, 1);
    loopy_vertex *stack = malloc(n * sizeof *stack);
    loopy_edge *left = calloc(n, sizeof *left); /* successors not peeled */
    loopy_vertex *ready = malloc(n * sizeof *ready);
    loopy_vertex **pred = calloc(n, sizeof *pred); /* reverse lists */
    size_t *pred_count = calloc(n, sizeof *pred_count), ready_len = 0;

    FUZZ_REQUIRE(seen && stack && left && ready && pred && pred_count, "memory");
    seen[start] = 1;
    stack[top++] = start;
    while (top > 0) {
        loopy_vertex v = stack[--top];
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, v, &k);

        reached++;
        left[v] = k;
        if (k == 0)
            ready[ready_len++] = v;
        for (loopy_edge e = 0; e < k; e++) {
            loopy_vertex w = succ[e];
            pred[w] = realloc(pred[w], (pred_count[w] + 1) * sizeof **pred);
            FUZZ_REQUIRE(pred[w] != NULL, "out of memory");
            pred[w][pred_count[w]++] = v;
            if (!seen[w]) {
                seen[w] = 1;
                stack[top++] = w;
            }
        }
    }
    while (ready_len > 0) {
        loopy_vertex w = ready[--ready_len];
        peeled++;
        for (size_t i = 0; i < pred_count[w]; i++)
            if (--left[pred[w][i]] == 0)
                ready[ready_len++] = pred[w][i];
    }
    for (size_t v = 0; v < n; v++)
        free(pred[v]);
    free(pred);
    free(pred_count);
    free(seen);
    free(stack);
    free(left);
    free(ready);
    return peeled < reached;
}

static void check_solve(const loopy_graph *g, loopy_vertex start)
{
    loopy_sleepy_result a, b;
    uint64_t best;

    FUZZ_REQUIRE(loopy_sleepy_solve(g, start, &a) == LOOPY_OK, "solve");
    FUZZ_REQUIRE(loopy_sleepy_solve(g, start, &b) == LOOPY_OK, "solve again");
    FUZZ_REQUIRE(a.outcome == b.outcome && a.path_len == b.path_len &&
                     (a.path_len == 0 ||
                      memcmp(a.path, b.path, a.path_len * sizeof *a.path) == 0),
                 "two solves differ");

    best = shortest_win(g, start);
    if (best != UINT64_MAX) {
        loopy_edge k;
        FUZZ_REQUIRE(a.outcome == LOOPY_WIN, "outcome %d, but a win of %"
                     PRIu64 " moves exists", (int)a.outcome, best);
        FUZZ_REQUIRE(a.path != NULL && a.path_len == best + 1,
                     "a path of %zu vertices, the shortest has %" PRIu64,
                     a.path_len, best + 1);
        FUZZ_REQUIRE(a.path_len % 2 == 0 &&
                         a.path_len <= 2 * (size_t)loopy_graph_vertex_count(g),
                     "path of %zu vertices", a.path_len);
        FUZZ_REQUIRE(a.path[0] == start, "the path starts at %" PRIu32,
                     a.path[0]);
        for (size_t i = 0; i + 1 < a.path_len; i++)
            FUZZ_REQUIRE(has_edge(g, a.path[i], a.path[i + 1]),
                         "no move %" PRIu32 " -> %" PRIu32, a.path[i],
                         a.path[i + 1]);
        (void)loopy_graph_successors(g, a.path[a.path_len - 1], &k);
        FUZZ_REQUIRE(k == 0, "the path ends where moves remain");
    } else {
        int draw = cycle_reachable(g, start);
        FUZZ_REQUIRE(a.outcome == (draw ? LOOPY_DRAW : LOOPY_LOSE),
                     "outcome %d, expected %s", (int)a.outcome,
                     draw ? "a draw" : "a loss");
        FUZZ_REQUIRE(a.path == NULL && a.path_len == 0, "a path without a win");
    }
    loopy_sleepy_result_release(&a);
    loopy_sleepy_result_release(&b);
    FUZZ_REQUIRE(loopy_sleepy_solve(g, loopy_graph_vertex_count(g), &a) ==
                     LOOPY_EINVAL && a.path == NULL,
                 "a start out of range accepted");
}

FUZZ_TARGET(sleepy)
{
    const char *text = (const char *)data;
    sleepy_input in[FUZZ_SOURCE_KINDS];
    loopy_diag diag[FUZZ_SOURCE_KINDS];
    loopy_status status[FUZZ_SOURCE_KINDS] = {LOOPY_OK};
    loopy_graph *want = NULL;
    loopy_vertex want_start = 0;
    fuzz_tokens tokens;
    fuzz_cursor cursor;
    int kinds = fuzz_source_kinds(size), valid;

    fuzz_tokenize(text, size, &tokens);
    if (tokens.count > 0 && tokens.token[0].kind == FUZZ_TOKEN_NUMBER &&
        tokens.token[0].value > MAX_N &&
        tokens.token[0].value <= LOOPY_MAX_VERTICES) {
        fuzz_tokens_release(&tokens);
        return 0; /* a valid n, too large for a quick run */
    }
    fuzz_cursor_init(&cursor, &tokens);
    valid = reference_read(&cursor, &want, &want_start);

    for (int k = 0; k < kinds; k++) {
        status[k] = fuzz_read_source(k, data, size, read_sleepy, &in[k],
                                     &diag[k]);
        if (status[k] != LOOPY_OK)
            FUZZ_REQUIRE(in[k].graph == NULL, "a graph left on failure (%s)",
                         fuzz_source_names[k]);
        if (k == 0)
            continue;
        FUZZ_REQUIRE(status[k] == status[0], "status %d from %s, %d from "
                     "memory", (int)status[k], fuzz_source_names[k],
                     (int)status[0]);
        if (status[k] != LOOPY_OK) {
            fuzz_require_same_diag(&diag[k], &diag[0], fuzz_source_names[k]);
        } else {
            fuzz_require_same_graph(in[0].graph, in[k].graph);
            FUZZ_REQUIRE(in[k].start == in[0].start, "start differs (%s)",
                         fuzz_source_names[k]);
        }
    }
    if (!valid) {
        FUZZ_REQUIRE(status[0] != LOOPY_OK, "accepted; the reference stops "
                     "at %" PRIu64 ":%" PRIu64, cursor.line, cursor.column);
        fuzz_require_diag_at(text, size, status[0], &diag[0], cursor.line,
                             cursor.column);
    } else {
        FUZZ_REQUIRE(status[0] == LOOPY_OK, "refused: %s at %" PRIu64 ":%"
                     PRIu64, diag[0].message, diag[0].line, diag[0].column);
        fuzz_require_same_graph(want, in[0].graph);
        FUZZ_REQUIRE(in[0].start == want_start, "start %" PRIu32 ", expected %"
                     PRIu32, in[0].start, want_start);
        check_solve(in[0].graph, in[0].start);
    }

    for (int k = 0; k < kinds; k++)
        if (status[k] == LOOPY_OK)
            loopy_graph_free(in[k].graph);
    loopy_graph_free(want);
    fuzz_tokens_release(&tokens);
    return 0;
}
