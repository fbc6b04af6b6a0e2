/*
 * binary.c - loopy's binary graph format (".lgr").
 *
 * Layout, every number little-endian:
 *     0  magic "\x89LGR\r\n\x1a\n" (the high byte and the line ends catch
 *        transfers that mangle binary files)
 *     8  u32 format version (1)        12  u32 byte-order mark 0x01020304
 *    16  u64 n                          24  u64 m
 *    32  u64 flags (bit 0: successor lists present; bit 1: the text the
 *        graph was read from numbered its vertices from 0, not 1)
 *    40  four sections, each u64 offset, u64 length, u64 checksum:
 *        out-degrees (u32 x n), predecessor offsets (u64 x n+1),
 *        predecessor lists (u32 x m), successor lists (u32 x m, or empty)
 *   136  u64 checksum of bytes 0..135
 *   144  padding; sections start at multiples of 64 bytes, in this order,
 *        and the file ends where the last one does.
 * Successor offsets are the prefix sums of the out-degrees, so they are not
 * stored.  The loader checks the header, the checksums of the sections it
 * uses, every value's range and that the lists agree with each other, then
 * uses the arrays in place (on a little-endian machine; a big-endian one
 * gets swapped copies).
 *
 * Checksums and fingerprints guard against accidents; they prove nothing
 * about a file made to pass them.  So every number that decides where
 * memory is read or written is verified exactly before use: n and m and
 * the section table against the file's length, offsets (monotone, from 0
 * to m), ids (below n), out-degrees (below UINT32_MAX, summing to m, and
 * each equal to the vertex's count in the predecessor lists:
 * degrees_exact).  Only the agreement of predecessor and successor lists
 * is left to a keyed fingerprint (lists_consistent); no access depends on
 * it.  loopy_graph_build_successors checks its counts again as it fills.
 */
#include "../core/internal.h"

#include <string.h>


#define FORMAT_VERSION 1u
#define HEADER_BYTES LOOPY_BIN_HEADER
#define SECTION_ALIGN 64u
#define FLAG_SUCCESSORS 1u
#define FLAG_BASE_0 2u

static const unsigned char magic[8] = {0x89, 'L', 'G', 'R', '\r', '\n', 0x1a, '\n'};

enum {
    SEC_OUT_DEGREE = LOOPY_BIN_OUT_DEGREE,
    SEC_REV_OFFSET = LOOPY_BIN_REV_OFFSET,
    SEC_REV_SOURCE = LOOPY_BIN_REV_SOURCE,
    SEC_TARGET = LOOPY_BIN_TARGET,
    SECTIONS = LOOPY_BIN_SECTIONS
};

static const char *const section_name[SECTIONS] = {
    "out-degrees", "predecessor offsets", "predecessor lists", "successor lists"};

static bool host_is_little_endian(void)
{
    const uint16_t probe = 1;
    unsigned char first;

    memcpy(&first, &probe, 1);
    return first == 1;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

bool loopy_i_is_binary(const void *bytes, size_t len)
{
    /* Only the whole magic makes a binary file: a text may hold anything
     * else, even "LGR" in bytes 2 to 4. */
    return len >= sizeof magic && memcmp(bytes, magic, sizeof magic) == 0;
}

bool loopy_i_is_mangled_binary(const void *bytes, size_t len)
{
    /* No text starts with byte 0x89 (not ASCII, and no UTF-8 character
     * starts with it): a binary graph whose magic was damaged (a transfer
     * that changed its line ends), or one cut short. */
    return len >= 1 && magic[0] == *(const unsigned char *)bytes &&
           !loopy_i_is_binary(bytes, len);
}

/* ---- Writing ---- */

/* Produces the little-endian bytes of a section in pieces: either a pointer
 * into the graph (little-endian host, array present) or bytes converted into
 * buf.  Element i of the section is read at `first`. */
typedef struct section_source {
    const loopy_graph *g;
    const loopy_edge *rev_offset;
    const loopy_vertex *rev_source;
    int which;
} section_source;

#define CHUNK_ELEMS 8192u

static int elem_bytes(int which)
{
    return which == SEC_REV_OFFSET ? 8 : 4;
}

static uint64_t elem_value(const section_source *s, uint64_t i)
{
    const loopy_graph *g = s->g;

    switch (s->which) {
    case SEC_OUT_DEGREE:
        return g->out_degree ? g->out_degree[i] : g->offset[i + 1] - g->offset[i];
    case SEC_REV_OFFSET:
        return s->rev_offset[i];
    case SEC_REV_SOURCE:
        return s->rev_source[i];
    default:
        return g->target[i];
    }
}

static const void *direct_array(const section_source *s)
{
    if (!host_is_little_endian())
        return NULL;
    switch (s->which) {
    case SEC_OUT_DEGREE:
        return s->g->out_degree;
    case SEC_REV_OFFSET:
        return s->rev_offset;
    case SEC_REV_SOURCE:
        return s->rev_source;
    default:
        return s->g->target;
    }
}

/* Feeds the section's bytes to write, or (write NULL) returns its checksum
 * through *checksum.  The checksum of converted bytes is computed on a copy
 * of the whole section only when the bytes cannot be used in place, so the
 * common case streams. */
static loopy_status emit_section(const section_source *s, uint64_t count,
                                 loopy_write_fn write, void *ctx)
{
    const void *direct = direct_array(s);
    unsigned char buf[CHUNK_ELEMS * 8];
    int size = elem_bytes(s->which);

    if (direct != NULL)
        return count == 0 || write(ctx, direct, (size_t)(count * (uint64_t)size)) == 0
                   ? LOOPY_OK : LOOPY_EIO;
    for (uint64_t i = 0; i < count; i += CHUNK_ELEMS) {
        uint64_t k = count - i < CHUNK_ELEMS ? count - i : CHUNK_ELEMS;
        for (uint64_t j = 0; j < k; j++)
            put_le(buf + j * (uint64_t)size, elem_value(s, i + j), size);
        if (write(ctx, buf, (size_t)(k * (uint64_t)size)) != 0)
            return LOOPY_EIO;
    }
    return LOOPY_OK;
}

/* A write function that collects bytes into a growing array. */
typedef struct collector {
    unsigned char *data;
    uint64_t len;
} collector;

static int collect(void *ctx, const void *bytes, size_t len)
{
    collector *c = ctx;
    memcpy(c->data + c->len, bytes, len);
    c->len += len;
    return 0;
}

static loopy_status section_checksum(const section_source *s, uint64_t count,
                                     uint64_t *checksum)
{
    const void *direct = direct_array(s);
    uint64_t bytes = count * (uint64_t)elem_bytes(s->which);
    collector c = {NULL, 0};
    loopy_status status;

    if (direct != NULL || count == 0) {
        *checksum = loopy_i_checksum(direct, bytes, loopy_i_threads(0, bytes, 1 << 22));
        return LOOPY_OK;
    }
    if (bytes > SIZE_MAX)
        return LOOPY_ENOMEM;
    c.data = loopy_i_malloc((size_t)bytes, 1);
    if (c.data == NULL)
        return LOOPY_ENOMEM;
    status = emit_section(s, count, collect, &c);
    *checksum = loopy_i_checksum(c.data, bytes, loopy_i_threads(0, bytes, 1 << 22));
    loopy_i_free(c.data);
    return status;
}

static uint64_t align_up(uint64_t x)
{
    return (x + SECTION_ALIGN - 1) / SECTION_ALIGN * SECTION_ALIGN;
}

loopy_status loopy_write_binary(const loopy_graph *graph, loopy_write_fn write,
                                void *ctx)
{
    static const unsigned char zeros[SECTION_ALIGN] = {0};
    loopy_status status = LOOPY_OK;
    unsigned char header[HEADER_BYTES];
    loopy_edge *own_offset = NULL;
    loopy_vertex *own_source = NULL;
    section_source src[SECTIONS];
    uint64_t count[SECTIONS], pos = HEADER_BYTES;
    bool has_target;

    if (graph == NULL || write == NULL)
        return LOOPY_EINVAL;
    has_target = graph->target != NULL && graph->offset != NULL;
    if (graph->rev_offset == NULL)
        CHECK_GOTO(loopy_i_graph_reverse(graph, &own_offset, &own_source));
    count[SEC_OUT_DEGREE] = graph->n;
    count[SEC_REV_OFFSET] = (uint64_t)graph->n + 1;
    count[SEC_REV_SOURCE] = graph->m;
    count[SEC_TARGET] = has_target ? graph->m : 0;
    memset(header, 0, sizeof header);
    memcpy(header, magic, sizeof magic);
    put_le(header + 8, FORMAT_VERSION, 4);
    put_le(header + 12, 0x01020304u, 4);
    put_le(header + 16, graph->n, 8);
    put_le(header + 24, graph->m, 8);
    put_le(header + 32, (has_target ? FLAG_SUCCESSORS : 0) |
                            (graph->base == 0 ? FLAG_BASE_0 : 0), 8);
    for (int s = 0; s < SECTIONS; s++) {
        uint64_t checksum = 0, length = count[s] * (uint64_t)elem_bytes(s);
        src[s].g = graph;
        src[s].rev_offset = own_offset ? own_offset : graph->rev_offset;
        src[s].rev_source = own_offset ? own_source : graph->rev_source;
        src[s].which = s;
        CHECK_GOTO(section_checksum(&src[s], count[s], &checksum));
        pos = align_up(pos);
        put_le(header + 40 + 24 * s, pos, 8);
        put_le(header + 48 + 24 * s, length, 8);
        put_le(header + 56 + 24 * s, checksum, 8);
        pos += length;
    }
    put_le(header + 136, loopy_i_checksum(header, 136, 1), 8);
    if (write(ctx, header, sizeof header) != 0) {
        status = LOOPY_EIO;
        goto fail;
    }
    pos = HEADER_BYTES;
    for (int s = 0; s < SECTIONS; s++) {
        uint64_t start = align_up(pos);
        if (start > pos && write(ctx, zeros, (size_t)(start - pos)) != 0) {
            status = LOOPY_EIO;
            goto fail;
        }
        CHECK_GOTO(emit_section(&src[s], count[s], write, ctx));
        pos = start + count[s] * (uint64_t)elem_bytes(s);
    }

fail:
    loopy_i_free(own_offset);
    loopy_i_free(own_source);
    return status;
}

/* ---- Reading ---- */

static loopy_status damaged(loopy_diag *diag, const char *what)
{
    loopy_i_diag(diag, 0, 0, "damaged loopy binary file: %s", what);
    return LOOPY_EFORMAT;
}

loopy_status loopy_i_binary_layout(const unsigned char *p, size_t len,
                                   loopy_binary_layout *layout,
                                   loopy_diag *diag)
{
    uint64_t pos = HEADER_BYTES, version, n, m, flags;

    if (len < sizeof magic || memcmp(p, magic, sizeof magic) != 0)
        return damaged(diag, "bad magic bytes (expected \\x89LGR\\r\\n\\x1a\\n)");
    if (len < HEADER_BYTES) {
        loopy_i_diag(diag, 0, 0, "truncated loopy binary file: %zu bytes, "
                     "shorter than its %u-byte header", len, HEADER_BYTES);
        return LOOPY_EFORMAT;
    }
    version = get_le(p + 8, 4);
    if (version != FORMAT_VERSION) {
        loopy_i_diag(diag, 0, 0, "loopy binary file of format version %" PRIu64
                     "; this loopy reads version %u", version, FORMAT_VERSION);
        return LOOPY_EFORMAT;
    }
    if (get_le(p + 12, 4) != 0x01020304u)
        return damaged(diag, "bad byte-order mark (expected little-endian)");
    if (get_le(p + 136, 8) != loopy_i_checksum(p, 136, 1))
        return damaged(diag, "bad header checksum");
    n = get_le(p + 16, 8);
    m = get_le(p + 24, 8);
    flags = get_le(p + 32, 8);
    if ((flags & ~(uint64_t)(FLAG_SUCCESSORS | FLAG_BASE_0)) != 0) {
        loopy_i_diag(diag, 0, 0, "damaged loopy binary file: unknown flag "
                     "bits 0x%" PRIx64 " in the header (this loopy knows "
                     "0x%x)", flags & ~(uint64_t)(FLAG_SUCCESSORS | FLAG_BASE_0),
                     FLAG_SUCCESSORS | FLAG_BASE_0);
        return LOOPY_EFORMAT;
    }
    if (n > LOOPY_MAX_VERTICES || m > UINT64_MAX / 8)
        return damaged(diag, "impossible sizes in the header");
    for (int s = 0; s < SECTIONS; s++) {
        uint64_t want = s == SEC_OUT_DEGREE   ? n * 4
                        : s == SEC_REV_OFFSET ? (n + 1) * 8
                        : s == SEC_REV_SOURCE ? m * 4
                        : (flags & FLAG_SUCCESSORS) ? m * 4 : 0;
        layout->offset[s] = get_le(p + 40 + 24 * s, 8);
        layout->length[s] = get_le(p + 48 + 24 * s, 8);
        layout->checksum[s] = get_le(p + 56 + 24 * s, 8);
        if (layout->length[s] != want || layout->offset[s] % SECTION_ALIGN != 0 ||
            layout->offset[s] < pos || layout->offset[s] > UINT64_MAX / 2)
            return damaged(diag, "bad section table");
        pos = layout->offset[s] + layout->length[s];
    }
    layout->n = n;
    layout->m = m;
    layout->successors = (flags & FLAG_SUCCESSORS) != 0;
    layout->base = (flags & FLAG_BASE_0) ? 0 : 1;
    layout->end = pos;
    return LOOPY_OK;
}

loopy_status loopy_i_binary_length(uint64_t end, uint64_t len, loopy_diag *diag)
{
    if (end > len) {
        loopy_i_diag(diag, 0, 0, "truncated loopy binary file: %" PRIu64
                     " bytes, the header announces %" PRIu64, len, end);
        return LOOPY_EFORMAT;
    }
    if (end < len) {
        loopy_i_diag(diag, 0, 0, "damaged loopy binary file: %" PRIu64
                     " bytes, the header announces %" PRIu64, len, end);
        return LOOPY_EFORMAT;
    }
    return LOOPY_OK;
}

loopy_status loopy_i_binary_padding(const unsigned char *bytes, uint64_t from,
                                    uint64_t to, loopy_diag *diag)
{
    for (uint64_t i = 0; i < to - from; i++)
        if (bytes[i] != 0)
            return damaged(diag, "nonzero padding between parts");
    return LOOPY_OK;
}

/* Checks the header and fills the layout. */
static loopy_status read_header(const unsigned char *p, size_t len,
                                loopy_binary_layout *layout, loopy_diag *diag)
{
    loopy_status status = loopy_i_binary_layout(p, len, layout, diag);
    uint64_t pos = HEADER_BYTES;

    if (status != LOOPY_OK)
        return status;
    if (layout->end <= len) {
        /* The bytes between the parts are zeros, so that no byte of the
         * file escapes a check. */
        for (int s = 0; s < SECTIONS; s++) {
            status = loopy_i_binary_padding(p + pos, pos, layout->offset[s], diag);
            if (status != LOOPY_OK)
                return status;
            pos = layout->offset[s] + layout->length[s];
        }
    }
    return loopy_i_binary_length(layout->end, len, diag);
}

/* Checks the offsets and degrees: offsets run from 0 to m without going
 * back, degrees sum to m.  The lists' entries are checked by
 * lists_consistent, in the same pass as their fingerprints. */
static bool offsets_valid(const loopy_graph *g, int threads)
{
    loopy_vertex n = g->n;
    uint64_t degree_sum = 0, bad = 0;

    (void)threads; /* in a build without OpenMP */

    if (g->rev_offset[0] != 0 || g->rev_offset[n] != g->m)
        return false;
#pragma omp parallel for num_threads(threads) reduction(+ : degree_sum, bad)
    for (int64_t v = 0; v < (int64_t)n; v++) {
        degree_sum += g->out_degree[v];
        bad += g->out_degree[v] == UINT32_MAX;
        bad += g->rev_offset[v] > g->rev_offset[v + 1];
    }
    return bad == 0 && degree_sum == g->m;
}

static uint64_t pair(loopy_vertex from, loopy_vertex to, uint64_t key)
{
    return loopy_i_fingerprint((uint64_t)from << 32 | to, key);
}

/*
 * Checks that every entry of the lists is a vertex, and that vertex u
 * stands in the predecessor lists exactly out_degree[u] times: counted
 * exactly, one counter a vertex (4n bytes while loading), since the
 * out-degrees become the solver's counters and the successor lists'
 * offsets.  Needs offsets_valid first.
 */
/* At most this many threads count entries in degrees_exact, each into
 * counters of its own (4n bytes a thread). */
#define COUNT_THREADS 4
/* How far ahead a counting thread prefetches the counter it will bump. */
#define COUNT_PREFETCH 32

/*
 * Checks that every entry of the predecessor lists is a vertex, and that
 * vertex u stands in them exactly out_degree[u] times: counted exactly,
 * since the out-degrees become the solver's counters and the successor
 * lists' offsets.  Each thread counts a share of the entries into counters
 * of its own (4n bytes each, while loading; no atomics, which would
 * serialise the misses), prefetched a little ahead; then the shares are
 * added up per vertex.  Counts wrap at 2^32, which cannot hide a
 * disagreement: the true counts and the degrees both sum to m and every
 * degree is below UINT32_MAX (offsets_valid), so counts equal to the
 * degrees modulo 2^32 are the degrees.  Time O(n + m), one random access
 * per entry.  Needs offsets_valid first.
 */
static loopy_status degrees_exact(const loopy_graph *g, int threads,
                                  loopy_diag *diag)
{
    const loopy_vertex *rev_source = g->rev_source;
    loopy_vertex n = g->n;
    loopy_edge m = g->m;
    uint32_t *count[COUNT_THREADS] = {NULL};
    uint64_t bad = 0, wrong = 0, first = UINT64_MAX;
    int parts = 0;

    if (n == 0)
        return LOOPY_OK;
    if (threads > COUNT_THREADS)
        threads = COUNT_THREADS;
    /* Fewer counting threads when memory is short; none is an error. */
    while (parts < threads &&
           (count[parts] = loopy_i_calloc(n, sizeof **count)) != NULL)
        parts++;
    if (parts == 0) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(+ : bad)
    for (int t = 0; t < parts; t++) {
        uint32_t *mine = count[t];
        loopy_edge begin = m / (uint64_t)parts * (uint64_t)t;
        loopy_edge end = t + 1 == parts ? m : begin + m / (uint64_t)parts;

        for (loopy_edge e = begin; e < end; e++) {
            loopy_vertex u = rev_source[e];
            if (e + COUNT_PREFETCH < end && rev_source[e + COUNT_PREFETCH] < n)
                PREFETCH_WRITE(&mine[rev_source[e + COUNT_PREFETCH]]);
            if (u >= n)
                bad++;
            else
                mine[u]++;
        }
    }
    if (bad == 0) {
#pragma omp parallel for num_threads(threads) schedule(static) \
    reduction(+ : wrong) reduction(min : first)
        for (int64_t v = 0; v < (int64_t)n; v++) {
            uint32_t sum = 0;
            for (int t = 0; t < parts; t++)
                sum += count[t][v];
            if (sum != g->out_degree[v]) {
                wrong++;
                if ((uint64_t)v < first)
                    first = (uint64_t)v;
            }
        }
    }
    for (int t = 0; t < parts; t++)
        loopy_i_free(count[t]);
    if (bad != 0)
        return damaged(diag, "a value out of range");
    if (wrong != 0) {
        loopy_i_diag(diag, 0, 0, "damaged loopy binary file: the predecessor "
                     "lists do not match the out-degrees (%" PRIu64 " vertices "
                     "disagree, the first is vertex %" PRIu64 ", 0-based)",
                     wrong, first);
        return LOOPY_EFORMAT;
    }
    return LOOPY_OK;
}

/*
 * Checks, with successor lists, that each vertex's predecessors are (as a
 * multiset: their order is the text's) the sources of the edges into it,
 * and that every successor is a vertex.
 *
 * A multiset equality, tested by sums of keyed fingerprints of the pairs
 * (u, v) modulo 2^64 (Blum's checker for multisets).  Equal multisets
 * always pass.  This is a guard against files written wrong or damaged,
 * not a proof: different multisets pass when a nonzero integer combination
 * of distinct fingerprints sums to 0 modulo 2^64, about 2^-64 for a file
 * not made against this function, and the key, drawn at random for every
 * load, keeps anyone from making one.  Nothing depends on it for memory
 * safety: every entry is range-checked, the out-degrees are exact
 * (degrees_exact), and the successor offsets are their prefix sums.  Every
 * pass is sequential and runs on all threads; no memory.
 */
static loopy_status lists_consistent(const loopy_graph *g, int threads,
                                     loopy_diag *diag)
{
    const loopy_edge *rev_offset = g->rev_offset;
    const loopy_vertex *rev_source = g->rev_source;
    const loopy_vertex *target = g->target;
    loopy_vertex n = g->n;
    uint64_t rev_pairs = 0, pairs = 0, bad = 0;
    uint64_t key = loopy_i_random_key();

    (void)threads; /* in a build without OpenMP */
    if (target == NULL)
        return LOOPY_OK;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) \
    reduction(+ : rev_pairs, pairs, bad)
    for (int64_t i = 0; i < (int64_t)n; i++) {
        loopy_vertex v = (loopy_vertex)i;
        for (loopy_edge e = rev_offset[v]; e < rev_offset[v + 1]; e++)
            rev_pairs += pair(rev_source[e], v, key);
        /* Successor offsets are the out-degrees' prefix sums. */
        for (loopy_edge e = g->offset[v]; e < g->offset[v + 1]; e++) {
            bad += target[e] >= n;
            pairs += pair(v, target[e], key);
        }
    }
    if (bad != 0)
        return damaged(diag, "a value out of range");
    if (rev_pairs != pairs)
        return damaged(diag, "predecessor lists that do not match the "
                             "successor lists");
    return LOOPY_OK;
}

/* Copies a section into an allocated array of host-order numbers (for
 * big-endian machines). */
static void *swapped_copy(const unsigned char *p, uint64_t count, int size)
{
    void *out = loopy_i_malloc((size_t)count, (size_t)size);

    if (out == NULL)
        return NULL;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t v = get_le(p + i * (uint64_t)size, size);
        if (size == 8)
            ((uint64_t *)out)[i] = v;
        else
            ((uint32_t *)out)[i] = (uint32_t)v;
    }
    return out;
}

loopy_status loopy_i_read_binary(void *data, size_t len, bool is_heap,
                                 const loopy_read_options *options,
                                 loopy_graph **out, loopy_diag *diag)
{
    unsigned char *bytes = data;
    const unsigned char *p = bytes;
    loopy_status status;
    loopy_binary_layout sec;
    uint64_t n, m;
    bool want_target;
    loopy_graph *g = NULL;
    int threads;

    *out = NULL;
    CHECK_GOTO(read_header(p, len, &sec, diag));
    n = sec.n;
    m = sec.m;
    want_target = sec.successors && !options->skip_successors;
    threads = loopy_i_threads(options->threads, m + n, (uint64_t)1 << 20);
    for (int s = 0; s < SECTIONS; s++) {
        if (s == SEC_TARGET && !want_target)
            continue;
        if (loopy_i_checksum(p + sec.offset[s], sec.length[s], threads) !=
            sec.checksum[s]) {
            loopy_i_diag(diag, 0, 0, "damaged loopy binary file: bad checksum"
                         " of the %s", section_name[s]);
            status = LOOPY_EFORMAT;
            goto fail;
        }
    }
    g = loopy_i_graph_shell((loopy_vertex)n, m);
    if (g == NULL)
        goto no_memory;
    g->base = sec.base;
    if (host_is_little_endian()) {
        g->out_degree = (uint32_t *)(void *)(bytes + sec.offset[SEC_OUT_DEGREE]);
        g->rev_offset = (loopy_edge *)(void *)(bytes + sec.offset[SEC_REV_OFFSET]);
        g->rev_source = (loopy_vertex *)(void *)(bytes + sec.offset[SEC_REV_SOURCE]);
        if (want_target)
            g->target = (loopy_vertex *)(void *)(bytes + sec.offset[SEC_TARGET]);
    } else {
        g->out_degree = swapped_copy(p + sec.offset[SEC_OUT_DEGREE], n, 4);
        g->rev_offset = swapped_copy(p + sec.offset[SEC_REV_OFFSET], n + 1, 8);
        g->rev_source = swapped_copy(p + sec.offset[SEC_REV_SOURCE], m, 4);
        g->owned = GRAPH_OWNS_OUT_DEGREE | GRAPH_OWNS_REV_OFFSET |
                   GRAPH_OWNS_REV_SOURCE;
        if (want_target) {
            g->target = swapped_copy(p + sec.offset[SEC_TARGET], m, 4);
            g->owned |= GRAPH_OWNS_TARGET;
        }
        if (g->out_degree == NULL || g->rev_offset == NULL ||
            g->rev_source == NULL || (want_target && g->target == NULL))
            goto no_memory;
    }
    if (!offsets_valid(g, threads)) {
        status = damaged(diag, "a value out of range");
        goto fail;
    }
    if (want_target) {
        g->offset = loopy_i_malloc((size_t)n + 1, sizeof *g->offset);
        if (g->offset == NULL)
            goto no_memory;
        g->owned |= GRAPH_OWNS_OFFSET;
        g->offset[0] = 0;
        for (uint64_t v = 0; v < n; v++)
            g->offset[v + 1] = g->offset[v] + g->out_degree[v];
    }
    CHECK_GOTO(degrees_exact(g, threads, diag));
    CHECK_GOTO(lists_consistent(g, threads, diag));
    g->mapping = data;
    g->mapping_len = len;
    g->mapping_is_heap = is_heap;
    *out = g;
    return LOOPY_OK;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory");
    status = LOOPY_ENOMEM;
fail:
    loopy_graph_free(g);
    return status;
}
