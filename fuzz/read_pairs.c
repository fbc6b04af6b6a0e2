/*
 * read_pairs.c - fuzz the edge-list reader without a header
 * (LOOPY_TEXT_PAIRS), with base 0 and 1.
 *
 * A reference reader here, line by line (split at '\n', cut at the first
 * '#' or '%', split at blanks), says which line is the first bad one and
 * what graph the text holds.  The library must agree: the same graph, or a
 * failure on that line (LOOPY_EPARSE), or LOOPY_ETOOBIG when the good
 * lines before it already exceed the memory limit; every message is
 * checked (fuzz_require_good_diag).  A graph read is written back with
 * loopy_write_text as pairs (when its last vertex is on an edge; refused
 * otherwise) and as an edge list with a header, read again, and must come
 * back the same; and it goes through the binary format
 * (fuzz_require_binary_round_trip).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#define MEMORY_LIMIT (1u << 20)

typedef struct oracle {
    uint64_t bad_line; /* the first bad line, 0 when none */
    uint64_t n, m;     /* of the good lines before it (all, when none) */
    loopy_vertex *tail, *head;
} oracle;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Reads one id of [p, end) (no blanks); 1 with *id (0-based) when it is an
 * id under base. */
static int oracle_id(const char *p, const char *end, uint32_t base,
                     loopy_vertex *id)
{
    uint64_t v = 0;

    if (p == end)
        return 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (v < base || v - base >= LOOPY_MAX_VERTICES)
        return 0;
    *id = (loopy_vertex)(v - base);
    return 1;
}

static void oracle_read(const char *text, size_t len, uint32_t base,
                        oracle *o)
{
    const char *p = text, *end = text + len;
    uint64_t line = 0;

    memset(o, 0, sizeof *o);
    /* A UTF-8 byte-order mark at the start is skipped. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        p += 3;
    /* An edge takes 3 bytes at least ("1 1"): fewer than len / 2 + 1. */
    o->tail = malloc((len / 2 + 1) * sizeof *o->tail);
    o->head = malloc((len / 2 + 1) * sizeof *o->head);
    FUZZ_REQUIRE(o->tail != NULL && o->head != NULL, "out of memory");
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end, *q, *tok[3], *tok_end[3];
        int count = 0;
        loopy_vertex u, v;

        line++;
        for (q = p; q < stop; q++)
            if (*q == '#' || *q == '%')
                break;
        stop = q;
        for (q = p; q < stop;) {
            while (q < stop && is_blank(*q))
                q++;
            if (q == stop)
                break;
            if (count == 3) {
                count++;
                break;
            }
            tok[count] = q;
            while (q < stop && !is_blank(*q))
                q++;
            tok_end[count++] = q;
        }
        if (count != 0) {
            if (count != 2 || !oracle_id(tok[0], tok_end[0], base, &u) ||
                !oracle_id(tok[1], tok_end[1], base, &v)) {
                o->bad_line = line;
                return;
            }
            o->tail[o->m] = u;
            o->head[o->m] = v;
            o->m++;
            if ((uint64_t)u + 1 > o->n)
                o->n = (uint64_t)u + 1;
            if ((uint64_t)v + 1 > o->n)
                o->n = (uint64_t)v + 1;
        }
        p = nl ? nl + 1 : end;
    }
}

/* The library's estimate of what a graph and its solve need (read_text.c):
 * 33 bytes a vertex, 16 an edge. */
static int too_big(uint64_t n, uint64_t m)
{
    return 33 * n + 16 * m > MEMORY_LIMIT;
}

typedef struct sink {
    char *data;
    size_t len;
} sink;

static int to_sink(void *ctx, const void *bytes, size_t len)
{
    sink *s = ctx;
    char *grown = realloc(s->data, s->len + len + 1);

    FUZZ_REQUIRE(grown != NULL, "out of memory");
    s->data = grown;
    memcpy(s->data + s->len, bytes, len);
    s->len += len;
    return 0;
}

/* Writes g in format with base, reads it back and requires the same. */
static void require_text_round_trip(const loopy_graph *g,
                                    loopy_text_format format, uint32_t base)
{
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    sink s = {NULL, 0};
    loopy_graph *again = NULL;
    loopy_diag diag;
    loopy_status status = loopy_write_text(g, format, base, to_sink, &s);
    loopy_vertex n = loopy_graph_vertex_count(g);
    int last_on_edge = n == 0;

    if (format == LOOPY_TEXT_PAIRS && n > 0) {
        for (loopy_vertex u = 0; u < n && !last_on_edge; u++) {
            loopy_edge k;
            const loopy_vertex *succ = loopy_graph_successors(g, u, &k);
            for (loopy_edge i = 0; i < k; i++)
                if (u == n - 1 || succ[i] == n - 1)
                    last_on_edge = 1;
        }
        if (!last_on_edge) {
            FUZZ_REQUIRE(status == LOOPY_EINVAL, "pairs written for a graph "
                         "whose last vertex is on no edge: status %d",
                         (int)status);
            free(s.data);
            return;
        }
    }
    FUZZ_REQUIRE(status == LOOPY_OK, "loopy_write_text: %s",
                 loopy_strerror(status));
    opt.format = format;
    opt.base = base;
    opt.memory_limit = MEMORY_LIMIT * 4; /* the text may be longer */
    status = loopy_read_text(s.data ? s.data : "", s.len, &opt, &again, NULL,
                             &diag);
    FUZZ_REQUIRE(status == LOOPY_OK, "reading back format %d base %u: %s",
                 (int)format, (unsigned)base, diag.message);
    fuzz_require_same_graph(g, again);
    loopy_graph_free(again);
    free(s.data);
}

FUZZ_TARGET(read_pairs)
{
    const char *text = (const char *)data;

    for (uint32_t base = 0; base <= 1; base++) {
        loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
        char *copy = malloc(size ? size : 1);
        loopy_graph *g = NULL, *expected = NULL;
        loopy_diag diag;
        loopy_status status;
        oracle o;

        FUZZ_REQUIRE(copy != NULL, "out of memory");
        if (size > 0)
            memcpy(copy, text, size); /* exactly size bytes, for ASan */
        opt.format = LOOPY_TEXT_PAIRS;
        opt.base = base;
        opt.memory_limit = MEMORY_LIMIT;
        opt.threads = 1;
        memset(&diag, 0, sizeof diag);
        status = loopy_read_text(copy, size, &opt, &g, NULL, &diag);
        oracle_read(copy, size, base, &o);
        if (status == LOOPY_OK) {
            FUZZ_REQUIRE(o.bad_line == 0, "read a graph, the oracle finds "
                         "line %" PRIu64 " bad", o.bad_line);
            FUZZ_REQUIRE(!too_big(o.n, o.m), "read a graph over the limit");
            FUZZ_REQUIRE(loopy_graph_base(g) == base, "base %u",
                         (unsigned)loopy_graph_base(g));
            FUZZ_REQUIRE(loopy_graph_from_edges((loopy_vertex)o.n, o.m, o.tail,
                                                o.head, &expected) == LOOPY_OK,
                         "the oracle's graph");
            fuzz_require_same_graph(expected, g);
            require_text_round_trip(g, LOOPY_TEXT_PAIRS, base);
            require_text_round_trip(g, LOOPY_TEXT_EDGES, base);
            require_text_round_trip(g, LOOPY_TEXT_ADJ, 1 - base);
            fuzz_require_binary_round_trip(g);
        } else {
            FUZZ_REQUIRE(g == NULL, "*out set on failure");
            /* Columns of line 1 count from after a byte-order mark. */
            if (size >= 3 && memcmp(copy, "\xef\xbb\xbf", 3) == 0)
                fuzz_require_good_diag(copy + 3, size - 3, status, &diag);
            else
                fuzz_require_good_diag(copy, size, status, &diag);
            if (status == LOOPY_EPARSE)
                FUZZ_REQUIRE(o.bad_line != 0 && diag.line == o.bad_line,
                             "refused at line %" PRIu64 ", the oracle's bad "
                             "line is %" PRIu64 ": %s", diag.line, o.bad_line,
                             diag.message);
            else
                FUZZ_REQUIRE(status == LOOPY_ETOOBIG && too_big(o.n, o.m),
                             "status %d with n %" PRIu64 " m %" PRIu64 ": %s",
                             (int)status, o.n, o.m, diag.message);
            /* No hint of another format, only of the other base. */
            FUZZ_REQUIRE(diag.hint == LOOPY_HINT_NONE ||
                             diag.hint == LOOPY_HINT_BARE_CR ||
                             diag.hint == (base ? LOOPY_HINT_BASE_0
                                                : LOOPY_HINT_BASE_1),
                         "hint %d", (int)diag.hint);
        }
        loopy_graph_free(expected);
        loopy_graph_free(g);
        free(o.tail);
        free(o.head);
        free(copy);
    }
    return 0;
}
