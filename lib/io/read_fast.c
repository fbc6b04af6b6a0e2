/*
 * read_fast.c - the fast reader of plain edge lists.
 *
 * Two passes over the text, each split into one piece per thread at line
 * boundaries:
 *   1. check the syntax and the ranges, and count each vertex's out- and
 *      in-degree per thread (no edge is stored);
 *   2. parse again and drop every edge straight into its place in the
 *      predecessor lists (and the successor lists when they are wanted).
 * Per-thread counts make each thread's slots in a vertex's list disjoint, so
 * pass 2 needs no atomics, and the lists keep the text's order whatever the
 * thread count.  Updates go through bins (edge_bins.h) for locality.  Memory:
 * in pass 1, 8n bytes per thread and bins of at most 2m bytes in all; in
 * pass 2, the graph, 4n bytes per thread and bins of 1.5m bytes in all
 * (twice both with successor lists); the text itself is never copied, and
 * its pages are handed back as they are parsed.  A file that
 * changes between the passes cannot make pass 2 write out of bounds: slots
 * are checked against m and every list entry against n afterwards.
 *
 * The reader handles the plain form only.  At the first thing it does not
 * like (a syntax error, a number out of range, a rare blank such as '\v',
 * a wrong edge count) it gives up with LOOPY_EPARSE and no diagnostic; the
 * caller then runs the careful reader, which finds the same problem and
 * reports its line and column.  So positions are only computed on error.
 */
/* madvise (MADV_DONTNEED really drops pages; posix_madvise does not). */
#define _DEFAULT_SOURCE

#include "digits.h"
#include "edge_bins.h"
#include "scan.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages already parsed are handed back to the system every this many bytes,
 * so a mapped file does not count fully in the resident set. */
#define RELEASE_STEP ((size_t)8 << 20)

typedef struct piece {
    const char *begin, *end; /* whole lines; end is after a '\n' or the text's */
    uint64_t edges;          /* counted by pass 1 */
    /* n each: per vertex, this piece's edges u -> . and . -> v (pass 1),
     * then this piece's next slot in the vertex's list (pass 2) */
    uint32_t *out_count;
    uint32_t *in_count;
    edge_bins in_bins, out_bins;
    bool failed;
} piece;

typedef struct fast_reader {
    const loopy_read_options *opt;
    loopy_vertex n;
    loopy_edge m;
    uint32_t base;
    bool release_pages;
    bool successors;
    int threads;
    piece *pieces;
    loopy_graph *graph;
    uint64_t total_bytes;
    const char *text_end;
} fast_reader;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static bool is_digit(char c)
{
    return (unsigned)(c - '0') < 10u;
}

/* Parses digits at *pp, byte by byte; at most 10 (ids fit in 32 bits).
 * The caller guarantees a non-digit before the end of the buffer. */
static bool parse_id_slow(const char **pp, uint64_t *value)
{
    const char *p = *pp;
    uint64_t v = 0;
    unsigned digit;

    while ((digit = (unsigned)(*p - '0')) < 10u) {
        v = v * 10 + digit;
        p++;
    }
    if (p == *pp || p - *pp > 10)
        return false;
    *pp = p;
    *value = v;
    return true;
}

/* The same, eight bytes at a time (the caller guarantees 8 readable bytes
 * at *pp). */
static inline bool parse_id(const char **pp, uint64_t *value)
{
#ifdef LOOPY_I_SWAR
    uint64_t chunk;
    unsigned len;

    memcpy(&chunk, *pp, sizeof chunk);
    len = loopy_i_digit_run(chunk);
    if (len == 8)
        return parse_id_slow(pp, value); /* 8 digits or more */
    if (len == 0)
        return false;
    *pp += len;
    *value = loopy_i_digits_value(chunk, len);
    return true;
#else
    return parse_id_slow(pp, value);
#endif
}

#if defined(LOOPY_I_SSE2) && defined(LOOPY_I_SWAR)
#define PLAIN_LINES 1
/* The common line "u v\n" (one space, at most 10 digits each), with 32
 * bytes readable at *pp: true with u, v and *pp past the line.  The digit
 * mask of the 32 bytes gives both numbers' ends at once, and the numbers are
 * parsed off that chain, so lines do not wait on each other's digits.
 * Anything else (blanks, comments, '\r', long numbers): false, for the
 * general loop. */
LOOPY_I_INLINE bool plain_line(const char **pp, uint64_t *u, uint64_t *v)
{
    const char *p = *pp;
    uint32_t other = ~(loopy_i_digits16(p) | loopy_i_digits16(p + 16) << 16);
    uint32_t rest = other & (other - 1);
    unsigned space, newline;

    if ((other & 1) || rest == 0)
        return false;
    space = (unsigned)__builtin_ctz(other);
    newline = (unsigned)__builtin_ctz(rest);
    if (space > 10 || newline == space + 1 || newline - space > 11 ||
        p[space] != ' ' || p[newline] != '\n')
        return false;
    *u = loopy_i_number_at(p, space);
    *v = loopy_i_number_at(p + space + 1, newline - space - 1);
    *pp = p + newline + 1;
    return true;
}
#endif

/* Hands back the whole pages of [from, to) when the text is a mapping. */
static void release(const fast_reader *r, const char *from, const char *to)
{
    long page_size = sysconf(_SC_PAGESIZE);
    uintptr_t a, b;

    if (!r->release_pages || page_size <= 0 || to <= from)
        return;
    a = ((uintptr_t)from + (uintptr_t)page_size - 1) &
        ~((uintptr_t)page_size - 1);
    b = (uintptr_t)to & ~((uintptr_t)page_size - 1);
    if (b > a)
        madvise((void *)a, b - a, MADV_DONTNEED);
}

static void report(const fast_reader *r, const char *phase, uint64_t done)
{
    if (r->opt->progress != NULL && loopy_i_thread_num() == 0)
        r->opt->progress(r->opt->progress_ctx, phase, done, r->total_bytes);
}

/*
 * Checks and counts the lines of p[0..end), all of which end with '\n'.
 * Returns false at anything but "u v" lines, blank lines and comments.
 */
static bool count_lines(const fast_reader *r, piece *pc, const char *p,
                        const char *end)
{
    uint64_t limit = (uint64_t)r->n + r->base, base = r->base;
    uint64_t edges = 0;

    while (p < end) {
        uint64_t u, v;

#ifdef PLAIN_LINES
        if (plain_line(&p, &u, &v)) {
            if (u < base || v < base || u >= limit || v >= limit)
                return false;
            loopy_i_count_edge(&pc->out_bins, (uint32_t)(u - base),
                               pc->out_count);
            loopy_i_count_edge(&pc->in_bins, (uint32_t)(v - base),
                               pc->in_count);
            edges++;
            continue;
        }
#endif
        while (is_space(*p))
            p++;
        if (*p == '\n') {
            p++;
            continue;
        }
        if (*p == '#') {
            /* A newline ends the piece, unless the file changed since. */
            if ((p = memchr(p, '\n', (size_t)(end - p))) == NULL)
                return false;
            p++;
            continue;
        }
        if (!parse_id(&p, &u) || !is_space(*p))
            return false;
        while (is_space(*p))
            p++;
        if (!parse_id(&p, &v))
            return false;
        while (is_space(*p))
            p++;
        if (*p == '#' && (p = memchr(p, '\n', (size_t)(end - p))) == NULL)
            return false;
        if (*p != '\n' || u < base || v < base || u >= limit || v >= limit)
            return false;
        p++;
        loopy_i_count_edge(&pc->out_bins, (uint32_t)(u - base), pc->out_count);
        loopy_i_count_edge(&pc->in_bins, (uint32_t)(v - base), pc->in_count);
        edges++;
    }
    pc->edges += edges;
    return true;
}

/* Pass 2 over lines that pass 1 accepted: numbers come in pairs, comments
 * are skipped.  in_count / out_count now hold each vertex's next slot. */
static bool fill_lines(const fast_reader *r, piece *pc, const char *p,
                       const char *end)
{
    loopy_graph *g = r->graph;
    uint64_t base = r->base, n = r->n, m = r->m;
    bool ok = true;

    while (p < end) {
        uint64_t u, v;

#ifdef PLAIN_LINES
        if (plain_line(&p, &u, &v)) {
            if (u < base || v < base || u - base >= n || v - base >= n)
                return false;
            u -= base;
            v -= base;
            ok &= loopy_i_fill_edge(&pc->in_bins, (uint32_t)v, (uint32_t)u,
                                    pc->in_count, g->rev_source, m);
            if (g->target != NULL)
                ok &= loopy_i_fill_edge(&pc->out_bins, (uint32_t)u,
                                        (uint32_t)v, pc->out_count, g->target,
                                        m);
            continue;
        }
#endif
        while (!is_digit(*p)) {
            /* Pass 1 checked these bytes, but a file changed in between
             * must fail cleanly ("the text changed"), not run off. */
            if (*p == '#' && (p = memchr(p, '\n', (size_t)(end - p))) == NULL)
                return false;
            p++;
            if (p >= end)
                return ok;
        }
        if (!parse_id(&p, &u))
            return false;
        while (p < end && is_space(*p))
            p++;
        if (p >= end || !parse_id(&p, &v) || u < base || v < base || u - base >= n ||
            v - base >= n)
            return false;
        u -= base;
        v -= base;
        ok &= loopy_i_fill_edge(&pc->in_bins, (uint32_t)v, (uint32_t)u, pc->in_count,
                        g->rev_source, m);
        if (g->target != NULL)
            ok &= loopy_i_fill_edge(&pc->out_bins, (uint32_t)u, (uint32_t)v,
                            pc->out_count, g->target, m);
    }
    return ok;
}

/* Applies what is left in a piece's bins after a pass. */
static bool flush_bins(const fast_reader *r, piece *pc, bool fill)
{
    bool ok = true;

    if (!fill) {
        for (unsigned i = 0; i < pc->in_bins.bins; i++) {
            loopy_i_count_bin(&pc->in_bins, i, pc->in_count);
            loopy_i_count_bin(&pc->out_bins, i, pc->out_count);
        }
        return true;
    }
    for (unsigned i = 0; i < pc->in_bins.bins; i++) {
        ok &= loopy_i_fill_bin(&pc->in_bins, i, pc->in_count, r->graph->rev_source, r->m);
        if (r->graph->target != NULL)
            ok &= loopy_i_fill_bin(&pc->out_bins, i, pc->out_count, r->graph->target,
                           r->m);
    }
    return ok;
}

/* Runs pass 1 (fill false) or 2 over one piece in steps, handing pages back
 * after each step.  The last line of the text may lack its '\n': it is
 * copied to a small buffer that has one. */
static bool run_piece(const fast_reader *r, piece *pc, bool fill)
{
    const char *p = pc->begin, *end = pc->end, *safe_end = end;
    char tail[512 + 40];
    size_t tail_len;

    /* The main loop may read 32 bytes from a line's start, so it stops at
     * a line end at least 32 bytes before the end of the text; the rest
     * (and a last line without '\n') is parsed from a padded copy. */
    if ((size_t)(r->text_end - safe_end) < 32)
        safe_end = (size_t)(r->text_end - p) > 32 ? r->text_end - 32 : p;
    while (safe_end > p && safe_end[-1] != '\n')
        safe_end--;
    if (safe_end < p)
        safe_end = p;
    while (p < safe_end) {
        const char *stop = (size_t)(safe_end - p) > RELEASE_STEP
                               ? p + RELEASE_STEP : safe_end;
        bool ok;

        /* Steps end after a '\n'. */
        while (stop < safe_end && stop[-1] != '\n')
            stop++;
        ok = fill ? fill_lines(r, pc, p, stop) : count_lines(r, pc, p, stop);
        if (!ok)
            return false;
        release(r, p, stop);
        p = stop;
        report(r, fill ? "build" : "read",
               (uint64_t)(p - pc->begin) * (uint64_t)r->threads);
    }
    tail_len = (size_t)(end - p);
    if (tail_len > 512)
        return false; /* a long last line: the careful reader */
    if (tail_len > 0) {
        bool ok;
        memcpy(tail, p, tail_len);
        if (tail[tail_len - 1] != '\n')
            tail[tail_len++] = '\n';
        memset(tail + tail_len, 0, 32);
        ok = fill ? fill_lines(r, pc, tail, tail + tail_len)
                  : count_lines(r, pc, tail, tail + tail_len);
        if (!ok)
            return false;
    }
    return flush_bins(r, pc, fill);
}

/* Reads the first line "n m" with the careful scanner; returns where the
 * edges start, or NULL when the line is not plain. */
static const char *read_header(fast_reader *r, const char *text, size_t len)
{
    loopy_i_scan s;
    uint64_t n = 0, m = 0;

    loopy_i_scan_init(&s, text, len, true);
    loopy_i_scan_skip_bom(&s);
    if (!loopy_i_scan_skip_space(&s) ||
        loopy_i_scan_uint(&s, LOOPY_MAX_VERTICES, &n, "", NULL) != LOOPY_OK)
        return NULL;
    loopy_i_scan_blanks(&s);
    /* Per-thread counts are 32 bits: larger m goes the careful way. */
    if (loopy_i_scan_uint(&s, UINT32_MAX - 1, &m, "", NULL) != LOOPY_OK ||
        !loopy_i_scan_end_of_line(&s) || !loopy_i_size_fits(n, m, r->opt))
        return NULL;
    r->n = (loopy_vertex)n;
    r->m = m;
    return s.p;
}

/* Splits body[0..len) into r->threads pieces of whole lines. */
static void split(fast_reader *r, const char *body, size_t len)
{
    const char *end = body + len, *p = body;

    for (int t = 0; t < r->threads; t++) {
        const char *stop = t + 1 == r->threads
                               ? end : body + len / (size_t)r->threads * (size_t)(t + 1);
        if (stop < p)
            stop = p;
        while (stop < end && stop > body && stop[-1] != '\n')
            stop++;
        r->pieces[t].begin = p;
        r->pieces[t].end = stop;
        p = stop;
    }
}

/* Turns the per-piece counts of vertices [lo, hi) into start positions of
 * each piece inside the vertex's list, and writes the vertices' totals to
 * total[] (may be NULL). */
static void counts_to_starts(fast_reader *r, bool in, loopy_vertex lo,
                             loopy_vertex hi, loopy_edge *total)
{
    for (loopy_vertex v = lo; v < hi; v++) {
        loopy_edge sum = 0;
        for (int t = 0; t < r->threads; t++) {
            uint32_t *count = in ? r->pieces[t].in_count : r->pieces[t].out_count;
            uint32_t c = count[v];
            count[v] = (uint32_t)sum; /* < m < 2^32 */
            sum += c;
        }
        if (total != NULL)
            total[v] = sum;
    }
}

static loopy_status allocate_graph(fast_reader *r)
{
    loopy_graph *g = loopy_i_graph_shell(r->n, r->m);

    if (g == NULL)
        return LOOPY_ENOMEM;
    r->graph = g;
    g->rev_offset = loopy_i_malloc((size_t)r->n + 1, sizeof *g->rev_offset);
    g->rev_source = loopy_i_malloc((size_t)r->m, sizeof *g->rev_source);
    g->owned = GRAPH_OWNS_REV_OFFSET | GRAPH_OWNS_REV_SOURCE;
    if (r->successors) {
        g->offset = loopy_i_malloc((size_t)r->n + 1, sizeof *g->offset);
        g->target = loopy_i_malloc((size_t)r->m, sizeof *g->target);
        g->owned |= GRAPH_OWNS_OFFSET | GRAPH_OWNS_TARGET;
        if (g->offset == NULL || g->target == NULL)
            return LOOPY_ENOMEM;
    } else {
        g->out_degree = loopy_i_malloc(r->n, sizeof *g->out_degree);
        g->owned |= GRAPH_OWNS_OUT_DEGREE;
        if (g->out_degree == NULL)
            return LOOPY_ENOMEM;
    }
    if (g->rev_offset == NULL || g->rev_source == NULL)
        return LOOPY_ENOMEM;
    return LOOPY_OK;
}

/* Between the passes: sums the counts into the graph's offsets. */
static void prepare_fill(fast_reader *r)
{
    loopy_graph *g = r->graph;
    int threads = r->threads;

#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t chunk = 0; chunk < threads * 8; chunk++) {
        loopy_vertex lo = (loopy_vertex)((uint64_t)r->n * (uint64_t)chunk /
                                         (uint64_t)(threads * 8));
        loopy_vertex hi = (loopy_vertex)((uint64_t)r->n * (uint64_t)(chunk + 1) /
                                         (uint64_t)(threads * 8));
        counts_to_starts(r, true, lo, hi, g->rev_offset);
        if (r->successors) {
            counts_to_starts(r, false, lo, hi, g->offset);
        } else {
            for (loopy_vertex v = lo; v < hi; v++) {
                uint32_t d = 0;
                for (int t = 0; t < threads; t++)
                    d += r->pieces[t].out_count[v]; /* <= m < 2^32 - 1 */
                g->out_degree[v] = d;
            }
        }
    }
    loopy_i_starts_from_counts(g->rev_offset, r->n);
    if (r->successors)
        loopy_i_starts_from_counts(g->offset, r->n);
    /* Relative starts become absolute slots: m < 2^32 on this path. */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < (int64_t)r->n; i++) {
        for (int t = 0; t < threads; t++) {
            r->pieces[t].in_count[i] += (uint32_t)g->rev_offset[i];
            if (r->successors)
                r->pieces[t].out_count[i] += (uint32_t)g->offset[i];
        }
    }
}

/* After pass 2: every list entry must be a vertex.  Only a text that changed
 * between the passes could leave a slot unwritten. */
static bool lists_valid(const fast_reader *r)
{
    const loopy_graph *g = r->graph;
    uint64_t bad = 0;

#pragma omp parallel for num_threads(r->threads) reduction(+ : bad)
    for (int64_t e = 0; e < (int64_t)r->m; e++) {
        bad += g->rev_source[e] >= r->n;
        if (g->target != NULL)
            bad += g->target[e] >= r->n;
    }
    return bad == 0;
}

/* Makes each piece's bins for pass 1 (fill false) or 2.  The more entries,
 * the more updates of a flush share a cache line.  Pass 1 runs before the
 * graph exists, so its bins can be large: m / 2 entries in all for each
 * direction, m bytes.  Pass 2's sit beside the graph: m / 4 entries for
 * each direction filled, 1.5m bytes.  (Against m / 8 entries of 4096 at
 * most, as before, pass 1 of the bench graph went from 1.23 to 1.06 s on
 * one thread, and pass 2 from 1.51 to 1.26 s.) */
static bool make_bins(fast_reader *r, bool fill)
{
    /* Pass 1 trusts m only as far as the text can hold it ("u v\n" takes
     * 4 bytes): a short text must not get large bins for edges it lacks. */
    uint64_t m = !fill && r->m > r->total_bytes / 4 ? r->total_bytes / 4 : r->m;
    uint64_t entries = m / (fill ? 4 : 2) / (uint64_t)r->threads;

    for (int t = 0; t < r->threads; t++) {
        piece *pc = &r->pieces[t];
        loopy_i_bins_free(&pc->in_bins);
        loopy_i_bins_free(&pc->out_bins);
        if (loopy_i_bins_init(&pc->in_bins, r->n, entries, 65536, fill) != LOOPY_OK ||
            ((!fill || r->successors) &&
             loopy_i_bins_init(&pc->out_bins, r->n, entries, 65536, fill) != LOOPY_OK))
            return false;
    }
    return true;
}

static void free_pieces(fast_reader *r)
{
    for (int t = 0; r->pieces != NULL && t < r->threads; t++) {
        loopy_i_bins_free(&r->pieces[t].in_bins);
        loopy_i_bins_free(&r->pieces[t].out_bins);
        loopy_i_free(r->pieces[t].out_count);
        loopy_i_free(r->pieces[t].in_count);
    }
    loopy_i_free(r->pieces);
    r->pieces = NULL;
}

static bool run_pass(fast_reader *r, bool fill)
{
    bool ok = true;

#pragma omp parallel for num_threads(r->threads) schedule(static, 1)
    for (int t = 0; t < r->threads; t++)
        r->pieces[t].failed = !run_piece(r, &r->pieces[t], fill);
    for (int t = 0; t < r->threads; t++)
        ok = ok && !r->pieces[t].failed;
    return ok;
}

loopy_status loopy_i_read_edges_fast(const char *text, size_t len,
                                     const loopy_read_options *options,
                                     bool release_pages, loopy_graph **out,
                                     loopy_diag *diag)
{
    fast_reader r = {0};
    loopy_status status = LOOPY_EPARSE;
    const char *body;
    uint64_t edges = 0;

    *out = NULL;
    r.opt = options;
    r.base = options->base;
    r.release_pages = release_pages;
    r.successors = !options->skip_successors;
    r.total_bytes = len;
    r.text_end = text + len;
    body = read_header(&r, text, len);
    if (body == NULL)
        return LOOPY_EPARSE;
    /* Pieces of 4 MiB at least, unless the caller asked for threads. */
    r.threads = loopy_i_threads(options->threads, (uint64_t)(text + len - body),
                                options->threads > 0 ? 4096 : (uint64_t)1 << 22);
    /* Each thread counts degrees in 8n bytes of its own: never more threads
     * than a quarter of the memory allows, nor than a sane maximum. */
    while (r.threads > 1 &&
           (r.threads > 256 ||
            (uint64_t)r.threads * 8 * r.n > loopy_i_physical_memory() / 4))
        r.threads--;
    r.pieces = loopy_i_calloc((size_t)r.threads, sizeof *r.pieces);
    if (r.pieces == NULL)
        goto no_memory;
    for (int t = 0; t < r.threads; t++) {
        r.pieces[t].out_count = loopy_i_calloc(r.n, sizeof(uint32_t));
        r.pieces[t].in_count = loopy_i_calloc(r.n, sizeof(uint32_t));
        if (r.pieces[t].out_count == NULL || r.pieces[t].in_count == NULL)
            goto no_memory;
    }
    if (!make_bins(&r, false))
        goto no_memory;
    split(&r, body, (size_t)(text + len - body));
    report(&r, "read", 0);
    if (!run_pass(&r, false))
        goto fail;
    for (int t = 0; t < r.threads; t++)
        edges += r.pieces[t].edges;
    if (edges != r.m)
        goto fail;
    report(&r, "build", 0);
    if (!make_bins(&r, true) || allocate_graph(&r) != LOOPY_OK)
        goto no_memory;
    prepare_fill(&r);
    if (!r.successors) {
        for (int t = 0; t < r.threads; t++) {
            loopy_i_free(r.pieces[t].out_count);
            r.pieces[t].out_count = NULL;
        }
    }
    if (!run_pass(&r, true) || !lists_valid(&r)) {
        loopy_i_diag(diag, 0, 0, "the text changed while it was read");
        status = LOOPY_EIO;
        goto fail;
    }
    free_pieces(&r);
    r.graph->base = r.base;
    *out = r.graph;
    return LOOPY_OK;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory for n = %" PRIu32 " and m = %"
                 PRIu64, r.n, r.m);
    status = LOOPY_ENOMEM;
fail:
    free_pieces(&r);
    loopy_graph_free(r.graph);
    return status;
}
