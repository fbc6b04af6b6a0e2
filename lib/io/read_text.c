/*
 * read_text.c - the careful reader of the text formats of game graphs: an
 * edge list and adjacency lists (see loopy_text_format).  It reads serially,
 * keeps the line and column of every token and produces every diagnostic;
 * loopy_read_text tries the fast reader (read_fast.c) first for plain edge
 * lists and comes here for other texts and for the message of a bad one.
 * Out-degrees are counted once the edges are in, so the graph is built
 * with one counting-sort scatter.
 */
#include "scan.h"

#include <stdio.h>
#include <string.h>

/* Bytes a solve needs per vertex and per edge: forward and reverse offsets
 * (16), solution (9), queue and counters (8); edge arrays while reading (8),
 * forward and reverse targets (8). */
#define BYTES_PER_VERTEX 33u
#define BYTES_PER_EDGE 16u

typedef struct reader {
    loopy_i_scan scan;
    loopy_diag *diag;
    const loopy_read_options *opt;
    uint32_t base;
    loopy_vertex n;
    loopy_edge m;
    uint64_t header_line; /* where "n m" is, for messages */
    uint64_t header_column;
    loopy_edge *degree;  /* n + 1, becomes the graph's offsets */
    /* The out-degrees are counted after the edges are in, in one tight
     * pass (many cache misses in flight, not one per edge parsed): when
     * m <= UINT32_MAX - 1, so no vertex can pass the solver's limit. */
    bool count_after;
    loopy_vertex *tail;  /* edges read so far, 0-based */
    loopy_vertex *head;
    loopy_edge count;    /* edges read */
    loopy_edge capacity; /* of tail and head */
} reader;

/* Reads a vertex at p when it is a plain number of at most 18 digits in
 * range, ended as loopy_i_scan_uint requires; false (nothing read)
 * otherwise, for read_vertex to read it again and say why.  This spares
 * the message's text on every good token. */
static bool quick_vertex(reader *r, loopy_vertex *v)
{
    const char *p = r->scan.p, *end = r->scan.end;
    uint64_t value = 0;
    int digits = 0;

    while (p < end && (unsigned)(*p - '0') < 10u && digits < 19) {
        value = value * 10 + (uint64_t)(*p - '0');
        p++;
        digits++;
    }
    if (digits == 0 || digits > 18)
        return false;
    if (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' &&
        *p != '\v' && *p != '\f' &&
        !(r->scan.comments && (*p == '#' || (r->scan.percent && *p == '%'))))
        return false;
    if (value < r->base || value - r->base >= r->n)
        return false;
    r->scan.p = p;
    *v = (loopy_vertex)(value - r->base);
    return true;
}

static loopy_status read_vertex(reader *r, const char *what, loopy_vertex *v)
{
    uint64_t value = 0, line, column;
    char expected[160], buf[64], found[64];
    loopy_status status;

    if (quick_vertex(r, v))
        return LOOPY_OK;
    /* n > 0 here: read_header refuses edges in a graph without vertices. */
    snprintf(expected, sizeof expected,
             "%s (a vertex from %" PRIu32 " to %" PRIu64 ")", what, r->base,
             (uint64_t)r->base + r->n - 1);
    /* The token as a range message quotes it, taken now: a long one
     * slides out of a source's window as it is read. */
    line = r->scan.line;
    column = loopy_i_scan_column(&r->scan);
    snprintf(found, sizeof found, "%s",
             loopy_i_scan_describe(&r->scan, buf, sizeof buf));
    status = loopy_i_scan_uint(&r->scan, UINT64_MAX, &value, expected, r->diag);
    if (status != LOOPY_OK)
        return status;
    if (value < r->base || value - r->base >= r->n) {
        loopy_i_diag(r->diag, line, column, "expected %s, found %s", expected,
                     found);
        return LOOPY_EPARSE;
    }
    *v = (loopy_vertex)(value - r->base);
    return LOOPY_OK;
}

/* Requires the line to end here, naming what it holds. */
static loopy_status end_line(reader *r, const char *after)
{
    char what[160];

    if (loopy_i_scan_end_of_line(&r->scan))
        return LOOPY_OK;
    snprintf(what, sizeof what, "the end of the line after %s", after);
    return loopy_i_scan_expected(&r->scan, what, r->diag);
}

/* Reads "n m" and allocates for them, refusing sizes that cannot fit.
 * min_edge_bytes is the fewest bytes an edge takes in the text, which bounds
 * how many edges the rest of the text can hold. */
bool loopy_i_size_fits(uint64_t n, uint64_t m, const loopy_read_options *opt)
{
    uint64_t limit = opt->memory_limit ? opt->memory_limit
                                       : loopy_i_physical_memory();
    uint64_t need = n * BYTES_PER_VERTEX;

    return m <= (UINT64_MAX - need) / BYTES_PER_EDGE &&
           need + m * BYTES_PER_EDGE <= limit;
}

static loopy_status read_header(reader *r, const loopy_read_options *opt,
                                unsigned min_edge_bytes)
{
    uint64_t n = 0, m = 0, limit, room, column;
    loopy_status status;

    if (!loopy_i_scan_skip_space(&r->scan))
        return loopy_i_scan_expected(&r->scan, "the vertex count n", r->diag);
    r->header_line = r->scan.line;
    column = loopy_i_scan_column(&r->scan); /* of n, for size messages */
    r->header_column = column;
    status = loopy_i_scan_uint(&r->scan, UINT64_MAX, &n, "the vertex count n",
                               r->diag);
    if (status != LOOPY_OK)
        return status;
    if (n > LOOPY_MAX_VERTICES)
        return loopy_i_vertex_limit(r->diag, r->scan.line, column, n);
    loopy_i_scan_blanks(&r->scan);
    status = loopy_i_scan_uint(&r->scan, UINT64_MAX, &m,
                               "the edge count m after n", r->diag);
    if (status != LOOPY_OK)
        return status;
    status = end_line(r, "n and m");
    if (status != LOOPY_OK)
        return status;
    if (n == 0 && m > 0) {
        loopy_i_diag(r->diag, r->header_line, column,
                     "m = %" PRIu64 " move%s announced in a graph without "
                     "vertices", m, m == 1 ? "" : "s");
        return LOOPY_EPARSE;
    }

    /* A text too short for m edges fails when it ends, so never allocate
     * (nor refuse for memory) more edges than the remaining bytes can
     * hold: a truncated file gets "found end of file", whatever the
     * machine's memory.  A fed text's length is unknown: its arrays grow
     * with the edges read (grow_edges), refused for memory when they
     * reach what it cannot hold. */
    if (r->scan.source != NULL)
        room = 1024;
    else
        room = (uint64_t)(r->scan.end - r->scan.p) / min_edge_bytes + 1;
    limit = opt->memory_limit ? opt->memory_limit : loopy_i_physical_memory();
    if (!loopy_i_size_fits(n, m < room ? m : room, opt)) {
        loopy_i_diag(r->diag, r->header_line, column,
                     "n = %" PRIu64 " and m = %" PRIu64 " need about %.1f GiB "
                     "of memory, more than the %.1f GiB available",
                     n, m,
                     ((double)n * BYTES_PER_VERTEX + (double)m * BYTES_PER_EDGE) /
                         (1024.0 * 1024 * 1024),
                     (double)limit / (1024.0 * 1024 * 1024));
        return LOOPY_ETOOBIG;
    }
    r->n = (loopy_vertex)n;
    r->m = m;
    r->count_after = m <= UINT32_MAX - 1;
    r->capacity = m < room ? m : room;
    r->degree = loopy_i_calloc((size_t)n + 1, sizeof *r->degree);
    r->tail = loopy_i_malloc((size_t)r->capacity, sizeof *r->tail);
    r->head = loopy_i_malloc((size_t)r->capacity, sizeof *r->head);
    if (r->degree == NULL || r->tail == NULL || r->head == NULL) {
        loopy_i_diag(r->diag, 0, 0, "out of memory for n = %" PRIu64
                     " and m = %" PRIu64, n, m);
        return LOOPY_ENOMEM;
    }
    return LOOPY_OK;
}

/* Makes room for one more edge: the arrays double, up to `most` edges,
 * and the graph with the edges so far and the new one must fit the memory
 * limit; past it, refused as a graph of n vertices and `shown` edges at
 * line:column (a list without a header: the edges so far; a fed text
 * with a header: the header's n and m, where the text in memory is
 * refused). */
static loopy_status grow_edges(reader *r, uint64_t n, uint64_t most,
                               uint64_t shown, uint64_t line, uint64_t column)
{
    const loopy_read_options *opt = r->opt;
    loopy_edge capacity = r->capacity ? r->capacity * 2 : 1024;
    loopy_vertex *tail, *head;

    if (capacity > most)
        capacity = most; /* most > count */
    if (!loopy_i_size_fits(n, r->count + 1, opt)) {
        uint64_t limit = opt->memory_limit ? opt->memory_limit
                                           : loopy_i_physical_memory();
        loopy_i_diag(r->diag, line, column,
                     "n = %" PRIu64 " and m = %" PRIu64 " need about %.1f GiB "
                     "of memory, more than the %.1f GiB available",
                     n, shown,
                     ((double)n * BYTES_PER_VERTEX +
                      (double)shown * BYTES_PER_EDGE) /
                         (1024.0 * 1024 * 1024),
                     (double)limit / (1024.0 * 1024 * 1024));
        return LOOPY_ETOOBIG;
    }
    /* Past what the limit allows, the doubling stops at the limit's edges;
     * SIZE_MAX / 8 keeps the byte counts of both arrays in size_t. */
    while (capacity > r->count + 1 &&
           (!loopy_i_size_fits(n, capacity, opt) || capacity > SIZE_MAX / 8))
        capacity = r->count + 1 + (capacity - r->count - 1) / 2;
    tail = loopy_i_realloc(r->tail, (size_t)capacity, sizeof *tail);
    if (tail == NULL)
        goto nomem;
    r->tail = tail;
    head = loopy_i_realloc(r->head, (size_t)capacity, sizeof *head);
    if (head == NULL)
        goto nomem;
    r->head = head;
    r->capacity = capacity;
    return LOOPY_OK;

nomem:
    loopy_i_diag(r->diag, 0, 0, "out of memory for %" PRIu64 " edges",
                 (uint64_t)capacity);
    return LOOPY_ENOMEM;
}

static loopy_status add_edge(reader *r, loopy_vertex u, loopy_vertex v,
                             uint64_t line, uint64_t column)
{
    loopy_status status;

    /* Out-degrees are counted in 32 bits by the solver. */
    if (!r->count_after && ++r->degree[u] > UINT32_MAX - 1) {
        loopy_i_diag(r->diag, line, column,
                     "vertex %" PRIu64 " has more than %" PRIu32 " moves",
                     (uint64_t)u + r->base, UINT32_MAX - 1);
        return LOOPY_ETOOBIG;
    }
    if (r->count >= r->capacity) {
        /* A text in memory: unreachable, see read_header. */
        if (r->scan.source == NULL) {
            loopy_i_diag(r->diag, line, column,
                         "more edges than the text can hold");
            return LOOPY_EPARSE;
        }
        status = grow_edges(r, r->n, r->m, r->m, r->header_line,
                            r->header_column);
        if (status != LOOPY_OK)
            return status;
    }
    r->tail[r->count] = u;
    r->head[r->count] = v;
    r->count++;
    return LOOPY_OK;
}

static loopy_status premature_end(reader *r, const char *what)
{
    loopy_i_diag(r->diag, r->scan.line, loopy_i_scan_column(&r->scan),
                 "expected %s, found end of file after %" PRIu64 " of the %"
                 PRIu64 " edges announced on line %" PRIu64, what, r->count,
                 r->m, r->header_line);
    return LOOPY_EPARSE;
}

/* The line "u v" of an edge, at the scan's position, to its end. */
static loopy_status read_edge(reader *r, loopy_vertex *u, loopy_vertex *v)
{
    loopy_status status = read_vertex(r, "the edge's first vertex", u);

    if (status != LOOPY_OK)
        return status;
    loopy_i_scan_blanks(&r->scan);
    status = read_vertex(r, "the edge's second vertex", v);
    if (status != LOOPY_OK)
        return status;
    return end_line(r, "the edge");
}

static loopy_status read_edge_list(reader *r)
{
    loopy_status status;

    while (r->count < r->m) {
        loopy_vertex u, v;
        uint64_t line, column;

        if (!loopy_i_scan_skip_space(&r->scan))
            return premature_end(r, "an edge \"u v\"");
        line = r->scan.line;
        column = loopy_i_scan_column(&r->scan);
        status = read_edge(r, &u, &v);
        if (status != LOOPY_OK)
            return status;
        status = add_edge(r, u, v, line, column);
        if (status != LOOPY_OK)
            return status;
    }
    return LOOPY_OK;
}

static loopy_status read_adjacency(reader *r)
{
    loopy_status status;

    for (loopy_vertex u = 0; u < r->n; u++) {
        uint64_t k = 0, column;
        char what[96];

        snprintf(what, sizeof what, "the number of moves of vertex %" PRIu64,
                 (uint64_t)u + r->base);
        if (!loopy_i_scan_skip_space(&r->scan))
            return loopy_i_scan_expected(&r->scan, what, r->diag);
        column = loopy_i_scan_column(&r->scan);
        status = loopy_i_scan_uint(&r->scan, UINT64_MAX, &k, what, r->diag);
        if (status != LOOPY_OK)
            return status;
        if (k > r->m - r->count) {
            loopy_i_diag(r->diag, r->scan.line, column,
                         "vertex %" PRIu64 " has %" PRIu64 " moves, more than"
                         " the %" PRIu64 " left of the m = %" PRIu64
                         " announced on line %" PRIu64,
                         (uint64_t)u + r->base, k, r->m - r->count, r->m,
                         r->header_line);
            return LOOPY_EPARSE;
        }
        for (uint64_t i = 0; i < k; i++) {
            loopy_vertex v;

            loopy_i_scan_blanks(&r->scan);
            column = loopy_i_scan_column(&r->scan);
            snprintf(what, sizeof what, "move %" PRIu64 " of %" PRIu64
                     " of vertex %" PRIu64, i + 1, k, (uint64_t)u + r->base);
            status = read_vertex(r, what, &v);
            if (status != LOOPY_OK)
                return status;
            /* capacity may be below m only when the text is too short,
             * and then read_vertex has failed at its end. */
            status = add_edge(r, u, v, r->scan.line, column);
            if (status != LOOPY_OK)
                return status;
        }
        snprintf(what, sizeof what, "the %" PRIu64 " move%s of vertex %" PRIu64,
                 k, k == 1 ? "" : "s", (uint64_t)u + r->base);
        status = end_line(r, what);
        if (status != LOOPY_OK)
            return status;
    }
    if (r->count != r->m) {
        loopy_i_diag(r->diag, r->scan.line, loopy_i_scan_column(&r->scan),
                     "the vertex lines list %" PRIu64 " moves, but line %"
                     PRIu64 " announced m = %" PRIu64, r->count,
                     r->header_line, r->m);
        return LOOPY_EPARSE;
    }
    return LOOPY_OK;
}

/* Reads an edge list without a header to the end of the text: n is the
 * largest id + 1, the out-degrees are counted once all edges are in. */
static loopy_status read_pairs(reader *r, const loopy_read_options *opt)
{
    uint64_t n = 0;
    loopy_status status;

    r->n = LOOPY_MAX_VERTICES; /* the range of an id, for read_vertex */
    while (loopy_i_scan_skip_space(&r->scan)) {
        loopy_vertex u, v;
        uint64_t line = r->scan.line, column = loopy_i_scan_column(&r->scan);

        status = read_edge(r, &u, &v);
        if (status != LOOPY_OK)
            return status;
        if ((uint64_t)u + 1 > n)
            n = (uint64_t)u + 1;
        if ((uint64_t)v + 1 > n)
            n = (uint64_t)v + 1;
        if (r->count == r->capacity) {
            status = grow_edges(r, n, UINT64_MAX, r->count + 1, line, column);
            if (status != LOOPY_OK)
                return status;
        }
        r->tail[r->count] = u;
        r->head[r->count] = v;
        r->count++;
    }
    r->n = (loopy_vertex)n; /* n <= LOOPY_MAX_VERTICES: read_vertex */
    r->m = r->count;
    if (!loopy_i_size_fits(n, r->m, opt)) { /* the last edge raised n */
        loopy_i_diag(r->diag, 0, 0, "n = %" PRIu64 " and m = %" PRIu64
                     " are too many for the memory available", n, r->m);
        return LOOPY_ETOOBIG;
    }
    r->degree = loopy_i_calloc((size_t)n + 1, sizeof *r->degree);
    if (r->degree == NULL) {
        loopy_i_diag(r->diag, 0, 0, "out of memory for n = %" PRIu64, n);
        return LOOPY_ENOMEM;
    }
    /* Out-degrees are counted in 32 bits by the solver. */
    for (loopy_edge i = 0; i < r->m; i++)
        if (++r->degree[r->tail[i]] > UINT32_MAX - 1) {
            loopy_i_diag(r->diag, 0, 0, "vertex %" PRIu64 " has more than %"
                         PRIu32 " moves", (uint64_t)r->tail[i] + r->base,
                         UINT32_MAX - 1);
            return LOOPY_ETOOBIG;
        }
    return LOOPY_OK;
}

static bool format_ok(loopy_text_format format)
{
    return format == LOOPY_TEXT_EDGES || format == LOOPY_TEXT_ADJ ||
           format == LOOPY_TEXT_PAIRS;
}

/* Reads the text that scan is set over (the start of it), options
 * checked; end_offset as loopy_read_text's. */
static loopy_status careful_scan(const loopy_i_scan *scan,
                                 const loopy_read_options *options,
                                 loopy_graph **out, size_t *end_offset,
                                 loopy_diag *diag)
{
    reader r = {0};
    loopy_status status;

    r.scan = *scan;
    loopy_i_scan_skip_bom(&r.scan);
    r.diag = diag;
    r.opt = options;
    r.base = options->base;
    r.scan.percent = options->format == LOOPY_TEXT_PAIRS;
    if (options->format == LOOPY_TEXT_PAIRS) {
        CHECK_GOTO(read_pairs(&r, options));
    } else {
        /* The shortest edge is "1 1\n" in an edge list, "1 " in adjacency
         * lists. */
        CHECK_GOTO(read_header(&r, options,
                               options->format == LOOPY_TEXT_EDGES ? 4 : 2));
        if (options->format == LOOPY_TEXT_EDGES)
            CHECK_GOTO(read_edge_list(&r));
        else
            CHECK_GOTO(read_adjacency(&r));
    }
    if (options->allow_trailing) {
        if (end_offset != NULL)
            *end_offset = (size_t)(r.scan.p - r.scan.text);
    } else if (loopy_i_scan_skip_space(&r.scan)) {
        status = loopy_i_scan_expected(
            &r.scan,
            options->format == LOOPY_TEXT_EDGES
                ? "the end of the file after the m edges announced"
                : "the end of the file after the n vertex lines",
            diag);
        goto fail;
    }
    if (r.count_after)
        for (loopy_edge i = 0; i < r.count; i++)
            r.degree[r.tail[i]]++;
    status = loopy_i_graph_from_degrees(r.n, r.m, r.degree, r.tail, r.head, out);
    if (status == LOOPY_OK)
        (*out)->base = r.base;
    r.degree = NULL; /* taken over, even on failure */
    if (status == LOOPY_OK) {
        status = loopy_i_graph_add_reverse(*out, r.tail, r.head);
        if (status == LOOPY_OK)
            status = loopy_i_graph_complete(*out, !options->skip_successors);
        if (status != LOOPY_OK) {
            loopy_graph_free(*out);
            *out = NULL;
        }
    }
    if (status != LOOPY_OK)
        loopy_i_diag(diag, 0, 0, "%s while building the graph",
                     loopy_strerror(status));

fail:
    loopy_i_free(r.degree);
    loopy_i_free(r.tail);
    loopy_i_free(r.head);
    return status;
}

static loopy_status careful_read(const char *text, size_t len,
                                 const loopy_read_options *options,
                                 loopy_graph **out, size_t *end_offset,
                                 loopy_diag *diag)
{
    static const loopy_read_options defaults = LOOPY_READ_OPTIONS_INIT;
    loopy_i_scan scan;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (options == NULL)
        options = &defaults;
    if ((text == NULL && len > 0) || options->base > 1 ||
        !format_ok(options->format)) {
        loopy_i_diag(diag, 0, 0, "invalid reader options");
        return LOOPY_EINVAL;
    }
    loopy_i_scan_init(&scan, text ? text : "", len, true);
    return careful_scan(&scan, options, out, end_offset, diag);
}

loopy_status loopy_i_read_text_fed(loopy_i_scan *scan,
                                   const loopy_read_options *options,
                                   loopy_graph **out, loopy_diag *diag)
{
    *out = NULL;
    if (options->base > 1 || options->allow_trailing ||
        !format_ok(options->format) || scan->source == NULL) {
        loopy_i_diag(diag, 0, 0, "invalid reader options");
        return LOOPY_EINVAL;
    }
    return careful_scan(scan, options, out, NULL, diag);
}

/* The first two numbers of the text, past blank lines and '#' comments
 * (the header "n m" of an edge list); false when the first line that is
 * neither does not start with two numbers. */
static bool header_numbers(const char *text, size_t len, uint64_t *n,
                           uint64_t *m)
{
    size_t at = 0;
    uint64_t *value[2] = {n, m};

    for (;;) {
        while (at < len && (text[at] == ' ' || text[at] == '\t' ||
                            text[at] == '\r' || text[at] == '\n'))
            at++;
        if (at < len && text[at] == '#') {
            while (at < len && text[at] != '\n')
                at++;
            continue;
        }
        break;
    }
    for (int k = 0; k < 2; k++) {
        while (k > 0 && at < len && (text[at] == ' ' || text[at] == '\t'))
            at++;
        if (at == len || text[at] < '0' || text[at] > '9')
            return false;
        *value[k] = 0;
        for (; at < len && text[at] >= '0' && text[at] <= '9'; at++) {
            if (*value[k] > (UINT64_MAX - 9) / 10)
                return false;
            *value[k] = *value[k] * 10 + (uint64_t)(text[at] - '0');
        }
    }
    return true;
}

/* Sets diag->hint to the first single change of options that makes the text
 * read: the other base, then the other format.  A hint is never a guess. */
static void find_hint(const char *text, size_t len,
                      const loopy_read_options *options, loopy_diag *diag)
{
    loopy_read_options other[2] = {*options, *options};
    const loopy_hint hint[2] = {
        options->base == 1 ? LOOPY_HINT_BASE_0 : LOOPY_HINT_BASE_1,
        options->format == LOOPY_TEXT_EDGES ? LOOPY_HINT_ADJACENCY
                                            : LOOPY_HINT_EDGES};

    if (len > LOOPY_I_HINT_MAX_BYTES)
        return;
    other[0].base = options->base == 1 ? 0 : 1;
    other[1].format = options->format == LOOPY_TEXT_EDGES ? LOOPY_TEXT_ADJ
                                                          : LOOPY_TEXT_EDGES;
    /* A list without a header is only read when asked for, and hints at
     * no other format: its only hint is the other base.  An edge list
     * that reads as neither may be a collection's list of pairs (SNAP's
     * are numbered from 0), tried last: every text with a header is one
     * too. */
    for (int i = 0; i < (options->format == LOOPY_TEXT_PAIRS ? 1 : 2); i++) {
        loopy_graph *g = NULL;
        loopy_diag scratch;

        other[i].skip_successors = 1;
        other[i].progress = NULL;
        if (careful_read(text, len, &other[i], &g, NULL, &scratch) == LOOPY_OK) {
            loopy_graph_free(g);
            diag->hint = hint[i];
            return;
        }
    }
    for (uint32_t base = 1; options->format == LOOPY_TEXT_EDGES; base--) {
        loopy_read_options pairs = *options;
        loopy_graph *g = NULL;
        loopy_diag scratch;
        uint64_t header_n = 0, header_m = 0;

        pairs.format = LOOPY_TEXT_PAIRS;
        pairs.base = base;
        pairs.skip_successors = 1;
        pairs.progress = NULL;
        /* A list of pairs has as many vertices as its largest number: a
         * short text of large numbers ("2 100000000") is no list worth
         * the memory, so the guess gets about what the text's own pairs
         * would need. */
        if (pairs.memory_limit == 0 ||
            pairs.memory_limit > 64 * (uint64_t)len + (UINT64_C(1) << 20))
            pairs.memory_limit = 64 * (uint64_t)len + (UINT64_C(1) << 20);
        if (careful_read(text, len, &pairs, &g, NULL, &scratch) == LOOPY_OK) {
            /* Only when the first line cannot be a header: it is no "n
             * m" (a collection's '%' comment), or its n is below the
             * largest vertex of the pairs (SNAP's "0 1" is n = 0) and its
             * m is not the count of the lines after it.  An edge list
             * whose header is wrong in one way only is no list of pairs. */
            uint64_t vertices = loopy_graph_vertex_count(g);
            uint64_t edges = loopy_graph_edge_count(g);
            bool pairs_like = !header_numbers(text, len, &header_n,
                                              &header_m) ||
                              (vertices - (base == 0) > header_n &&
                               header_m != edges - 1);
            loopy_graph_free(g);
            if (pairs_like && vertices > 0)
                diag->hint = base == 1 ? LOOPY_HINT_PAIRS
                                       : LOOPY_HINT_PAIRS_BASE_0;
            return;
        }
        if (base == 0)
            break;
    }
}

void loopy_i_cr_probe_init(loopy_i_cr_probe *probe, uint64_t line,
                           uint64_t column)
{
    probe->line = line;
    probe->column = column;
    probe->at_line = 1;
    probe->at_column = 1;
    probe->state = 0;
    probe->found = false;
}

bool loopy_i_cr_probe_feed(loopy_i_cr_probe *probe, const char *bytes,
                           size_t len)
{
    const char *p = bytes, *end = bytes + len;

    /* To the line asked about. */
    while (probe->at_line < probe->line) {
        p = memchr(p, '\n', (size_t)(end - p));
        if (p == NULL)
            return false;
        p++;
        probe->at_line++;
    }
    /* The first carriage return before the column decides: its run of
     * them reaches either another byte of the line or the line's end
     * (past the column, if it runs so far).  Comments count: a comment
     * ended by a bare '\r' runs on over what follows. */
    for (; p < end && probe->state < 2; p++, probe->at_column++) {
        if (*p == '\n') {
            probe->state = 2;
        } else if (probe->state == 1) {
            if (*p != '\r') {
                probe->found = true;
                probe->state = 2;
            }
        } else if (probe->column > 0 && probe->at_column >= probe->column) {
            probe->state = 2;
        } else if (*p == '\r') {
            probe->state = 1;
        }
    }
    return probe->state == 2;
}

/* Whether line `line` of the text in memory holds a bare '\r' before
 * column `column` (loopy_i_cr_probe). */
static bool bare_cr_before(const char *text, size_t len, uint64_t line,
                           uint64_t column)
{
    loopy_i_cr_probe probe;

    if (text == NULL)
        return false;
    loopy_i_cr_probe_init(&probe, line, column);
    loopy_i_cr_probe_feed(&probe, text, len);
    return loopy_i_cr_probe_found(&probe);
}

loopy_status loopy_i_read_text_careful(const char *text, size_t len,
                                       const loopy_read_options *options,
                                       loopy_graph **out, size_t *end_offset,
                                       loopy_diag *diag)
{
    loopy_status status = careful_read(text, len, options, out, end_offset,
                                       diag);

    if (status == LOOPY_EPARSE && diag != NULL && options != NULL) {
        find_hint(text, len, options, diag);
        if (diag->hint == LOOPY_HINT_NONE && diag->line > 0 &&
            bare_cr_before(text, len, diag->line, diag->column))
            diag->hint = LOOPY_HINT_BARE_CR;
    }
    return status;
}

loopy_status loopy_read_text(const char *text, size_t len,
                             const loopy_read_options *options,
                             loopy_graph **out, size_t *end_offset,
                             loopy_diag *diag)
{
    static const loopy_read_options defaults = LOOPY_READ_OPTIONS_INIT;
    loopy_status status;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (options == NULL)
        options = &defaults;
    if (options->format == LOOPY_TEXT_EDGES && !options->allow_trailing &&
        options->base <= 1 && text != NULL) {
        status = loopy_i_read_edges_fast(text, len, options, false, out, diag);
        if (status != LOOPY_EPARSE)
            return status;
    }
    /* Not a plain edge list, or a bad one: the careful reader says why. */
    return loopy_i_read_text_careful(text, len, options, out, end_offset, diag);
}
