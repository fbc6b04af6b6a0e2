/*
 * binary_check.c - the binary graph format in the fuzz harnesses: writing a
 * graph to memory, loading bytes as loopy_read_file does, and the checks a
 * loaded graph must pass.
 *
 * Unlike the rest of fuzz/, this file uses two internal entry points of the
 * library (lib/core/internal.h): the binary loader loopy_i_read_binary, fed
 * a heap copy exactly as loopy_read_file feeds it the bytes of a pipe (the
 * public API has no in-memory binary reader, and a temporary file per
 * execution would be slow), and loopy_i_malloc for that copy, which the
 * graph then owns.
 */
#include "fuzz.h"

#include "../../lib/core/internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct byte_sink {
    uint8_t *data;
    size_t len, capacity;
} byte_sink;

static int sink_write(void *ctx, const void *bytes, size_t len)
{
    byte_sink *s = ctx;

    if (len > s->capacity - s->len) {
        size_t want = s->capacity * 2 + len + 256;
        uint8_t *grown = realloc(s->data, want);
        FUZZ_REQUIRE(grown != NULL, "out of memory");
        s->data = grown;
        s->capacity = want;
    }
    memcpy(s->data + s->len, bytes, len);
    s->len += len;
    return 0;
}

uint8_t *fuzz_write_binary(const loopy_graph *g, size_t *len)
{
    byte_sink s = {NULL, 0, 0};
    loopy_status status = loopy_write_binary(g, sink_write, &s);

    FUZZ_REQUIRE(status == LOOPY_OK, "loopy_write_binary: %s",
                 loopy_strerror(status));
    *len = s.len;
    return s.data;
}

int fuzz_is_binary(const uint8_t *data, size_t size)
{
    return loopy_i_is_binary(data, size);
}

loopy_status fuzz_read_binary(const uint8_t *data, size_t size,
                              int skip_successors, loopy_graph **out,
                              loopy_diag *diag)
{
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    loopy_status status;
    void *copy;

    FUZZ_REQUIRE(loopy_i_is_binary(data, size), "not binary bytes");
    /* Exactly size bytes, so that the sanitizers see any read past them. */
    copy = loopy_i_malloc(size, 1);
    FUZZ_REQUIRE(copy != NULL, "out of memory");
    memcpy(copy, data, size);
    opt.skip_successors = skip_successors;
    opt.threads = 1;
    memset(diag, 0, sizeof *diag);
    *out = (loopy_graph *)(uintptr_t)1; /* must be overwritten */
    status = loopy_i_read_binary(copy, size, true, &opt, out, diag);
    if (status == LOOPY_OK) {
        FUZZ_REQUIRE(*out != NULL, "no graph");
        /* The graph owns the copy now. */
    } else {
        size_t msg = strnlen(diag->message, sizeof diag->message);

        FUZZ_REQUIRE(*out == NULL, "*out set on failure");
        FUZZ_REQUIRE(status == LOOPY_EFORMAT, "status %d (%s): %s",
                     (int)status, loopy_strerror(status), diag->message);
        FUZZ_REQUIRE(msg > 0 && msg < sizeof diag->message,
                     "empty or unterminated message");
        for (size_t i = 0; i < msg; i++)
            FUZZ_REQUIRE((unsigned char)diag->message[i] >= 0x20 &&
                             (unsigned char)diag->message[i] < 0x7f,
                         "byte %d in message", diag->message[i]);
        FUZZ_REQUIRE(diag->line == 0 && diag->column == 0,
                     "a place %" PRIu64 ":%" PRIu64 " in a binary file",
                     diag->line, diag->column);
        loopy_i_free(copy);
    }
    return status;
}

void fuzz_fix_binary_checksums(uint8_t *data, size_t size)
{
    if (size < 144)
        return;
    for (int s = 0; s < 4; s++) {
        uint64_t offset = 0, length = 0;

        for (int i = 7; i >= 0; i--) {
            offset = offset << 8 | data[40 + 24 * s + i];
            length = length << 8 | data[48 + 24 * s + i];
        }
        if (offset <= size && length <= size - offset) {
            uint64_t sum = loopy_i_checksum(data + offset, length, 1);
            for (int i = 0; i < 8; i++)
                data[56 + 24 * s + i] = (uint8_t)(sum >> (8 * i));
        }
    }
    uint64_t header_sum = loopy_i_checksum(data, 136, 1);
    for (int i = 0; i < 8; i++)
        data[136 + i] = (uint8_t)(header_sum >> (8 * i));
}

/* The predecessor lists of g's successor lists, each in increasing order
 * (counting sort): offsets in *offset (n + 1), sources in the result. */
static loopy_vertex *reverse_successors(const loopy_graph *g, uint64_t **offset)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    loopy_edge m = loopy_graph_edge_count(g);
    uint64_t *off = calloc((size_t)n + 2, sizeof *off);
    loopy_vertex *src = malloc(m ? (size_t)m * sizeof *src : 1);

    FUZZ_REQUIRE(off != NULL && src != NULL, "out of memory");
    for (loopy_vertex u = 0; u < n; u++) {
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, u, &k);
        for (loopy_edge e = 0; e < k; e++)
            off[succ[e] + 2]++;
    }
    for (uint64_t v = 0; v < n; v++)
        off[v + 2] += off[v + 1];
    for (loopy_vertex u = 0; u < n; u++) {
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, u, &k);
        for (loopy_edge e = 0; e < k; e++)
            src[off[succ[e] + 1]++] = u;
    }
    *offset = off;
    return src;
}

void fuzz_require_consistent_graph(const loopy_graph *g)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    loopy_edge m = loopy_graph_edge_count(g), out_sum = 0, in_sum = 0;
    uint64_t *tally;

    FUZZ_REQUIRE(n <= LOOPY_MAX_VERTICES, "n = %" PRIu32, n);
    tally = calloc((size_t)n + 1, sizeof *tally);
    FUZZ_REQUIRE(tally != NULL, "out of memory");
    /* Every predecessor exists, and u appears as a predecessor once per
     * move of u. */
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge k;
        const loopy_vertex *pred = loopy_graph_predecessors(g, v, &k);

        FUZZ_REQUIRE(k == 0 || pred != NULL, "vertex %" PRIu32 ": no list", v);
        FUZZ_REQUIRE(k <= m - in_sum, "in-degrees sum past m");
        for (loopy_edge e = 0; e < k; e++) {
            FUZZ_REQUIRE(pred[e] < n, "%" PRIu32 " <- %" PRIu32, v, pred[e]);
            tally[pred[e]]++;
        }
        in_sum += k;
        out_sum += loopy_graph_out_degree(g, v);
    }
    FUZZ_REQUIRE(in_sum == m && out_sum == m, "in-degrees sum to %" PRIu64
                 ", out-degrees to %" PRIu64 ", m = %" PRIu64, in_sum, out_sum,
                 m);
    for (loopy_vertex u = 0; u < n; u++)
        FUZZ_REQUIRE(tally[u] == loopy_graph_out_degree(g, u),
                     "vertex %" PRIu32 ": out-degree %" PRIu64 " but %" PRIu64
                     " predecessor entries", u, loopy_graph_out_degree(g, u),
                     tally[u]);
    if (loopy_graph_has_successors(g)) {
        uint64_t *off;
        loopy_vertex *src;

        for (loopy_vertex u = 0; u < n; u++) {
            loopy_edge k;
            const loopy_vertex *succ = loopy_graph_successors(g, u, &k);

            FUZZ_REQUIRE(k == loopy_graph_out_degree(g, u),
                         "vertex %" PRIu32 ": %" PRIu64 " successors, "
                         "out-degree %" PRIu64, u, k,
                         loopy_graph_out_degree(g, u));
            FUZZ_REQUIRE(k == 0 || succ != NULL, "no successor list");
            for (loopy_edge e = 0; e < k; e++)
                FUZZ_REQUIRE(succ[e] < n, "%" PRIu32 " -> %" PRIu32, u,
                             succ[e]);
        }
        /* Each vertex's predecessors are the sources of the edges into it,
         * as a multiset (tally is all zeros again here). */
        src = reverse_successors(g, &off);
        for (loopy_vertex v = 0; v < n; v++) {
            loopy_edge k;
            const loopy_vertex *pred = loopy_graph_predecessors(g, v, &k);

            FUZZ_REQUIRE(k == off[v + 1] - off[v], "vertex %" PRIu32 ": %"
                         PRIu64 " predecessors, %" PRIu64 " edges in", v, k,
                         off[v + 1] - off[v]);
            for (loopy_edge e = 0; e < k; e++)
                tally[pred[e]]++;
            for (uint64_t e = off[v]; e < off[v + 1]; e++) {
                FUZZ_REQUIRE(tally[src[e]] > 0, "vertex %" PRIu32 ": edge "
                             "from %" PRIu32 " not among its predecessors",
                             v, src[e]);
                tally[src[e]]--;
            }
        }
        free(off);
        free(src);
    }
    free(tally);
}

void fuzz_require_same_lists(const loopy_graph *a, const loopy_graph *b)
{
    loopy_vertex n = loopy_graph_vertex_count(a);

    FUZZ_REQUIRE(loopy_graph_vertex_count(b) == n, "n %" PRIu32 " vs %" PRIu32,
                 n, loopy_graph_vertex_count(b));
    FUZZ_REQUIRE(loopy_graph_edge_count(a) == loopy_graph_edge_count(b),
                 "m %" PRIu64 " vs %" PRIu64, loopy_graph_edge_count(a),
                 loopy_graph_edge_count(b));
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge ka, kb;
        const loopy_vertex *pa = loopy_graph_predecessors(a, v, &ka);
        const loopy_vertex *pb = loopy_graph_predecessors(b, v, &kb);

        FUZZ_REQUIRE(loopy_graph_out_degree(a, v) == loopy_graph_out_degree(b, v),
                     "vertex %" PRIu32 ": out-degree %" PRIu64 " vs %" PRIu64,
                     v, loopy_graph_out_degree(a, v),
                     loopy_graph_out_degree(b, v));
        FUZZ_REQUIRE(ka == kb && (ka == 0 || memcmp(pa, pb, (size_t)ka *
                                                               sizeof *pa) == 0),
                     "vertex %" PRIu32 ": different predecessors", v);
    }
    if (loopy_graph_has_successors(a) && loopy_graph_has_successors(b))
        fuzz_require_same_graph(a, b);
}

loopy_solution *fuzz_solve_twice(const loopy_graph *g)
{
    loopy_solve_options opt = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_solution *first = NULL, *second = NULL;
    loopy_status status;

    opt.threads = 1;
    status = loopy_solve(g, &opt, &first);
    FUZZ_REQUIRE(status == LOOPY_OK || status == LOOPY_ETOOBIG, "solve: %s",
                 loopy_strerror(status));
    if (status != LOOPY_OK)
        return NULL;
    FUZZ_REQUIRE(loopy_solve(g, &opt, &second) == LOOPY_OK, "second solve");
    fuzz_require_same_solution(first, second);
    loopy_solution_free(second);
    if (loopy_graph_has_successors(g))
        fuzz_require_solution(g, &opt, first);
    return first;
}

void fuzz_require_binary_round_trip(const loopy_graph *g)
{
    size_t len;
    uint8_t *bytes = fuzz_write_binary(g, &len);
    loopy_graph *back;
    loopy_solution *want, *got;
    loopy_diag diag;
    loopy_status status = fuzz_read_binary(bytes, len, 0, &back, &diag);

    FUZZ_REQUIRE(status == LOOPY_OK, "reading back the binary bytes: %s",
                 diag.message);
    FUZZ_REQUIRE(loopy_graph_has_successors(back) ==
                     loopy_graph_has_successors(g),
                 "successor lists lost or gained");
    fuzz_require_consistent_graph(back);
    fuzz_require_same_lists(g, back);
    want = fuzz_solve_twice(g);
    got = fuzz_solve_twice(back);
    FUZZ_REQUIRE((want == NULL) == (got == NULL), "solvable only once");
    if (want != NULL)
        fuzz_require_same_solution(want, got);
    loopy_solution_free(want);
    loopy_solution_free(got);
    loopy_graph_free(back);
    free(bytes);
}
