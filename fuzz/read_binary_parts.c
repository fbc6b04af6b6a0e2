/*
 * read_binary_parts.c - fuzz the binary graph loader by its parts: the
 * input describes the decoded arrays (out-degrees, predecessor offsets and
 * lists, successor lists), which the harness writes as a file with the
 * right layout and correct checksums.  Mutating bytes of a file (as
 * read_binary does) almost never gets past the checksums with parts that
 * disagree; here every disagreement between parts is one mutation away,
 * which is how a file with valid checksums but out-degrees that disagree
 * with its predecessor lists once corrupted the heap.
 *
 * Input: byte 0 picks n (0..11), byte 1 the mode and flags, byte 2 m
 * (0..39); the rest feeds the arrays.  In mode "edges" the rest is m edges
 * (a consistent graph) followed by mutations (array, index, value); in mode
 * "raw" it is every array's entries in turn.  Values 0xf0 and above stand
 * for extremes (UINT32_MAX, n, m, 2^31, ...).
 *
 * An exact oracle in this file says whether the parts describe one graph;
 * the loader must accept exactly those (with and without skip_successors),
 * refuse the rest with LOOPY_EFORMAT and a message, and never touch memory
 * outside its arrays (ASan).  Accepted graphs are checked and solved.
 * Like fuzz/lib/binary_check.c, this harness also reaches one internal
 * function: it hands loopy_graph_build_successors predecessor lists that
 * disagree with the out-degrees, which it must refuse without writing
 * outside its buffer.
 */
#include "fuzz.h"

#include "../lib/core/internal.h"

#include <stdlib.h>
#include <string.h>

#define HEADER_BYTES 144u
#define ALIGN 64u

typedef struct feed {
    const uint8_t *p;
    size_t left;
} feed;

static unsigned next_byte(feed *f)
{
    if (f->left == 0)
        return 0;
    f->left--;
    return *f->p++;
}

/* A value for an entry: small ones mostly, extremes for bytes >= 0xf0. */
static uint64_t next_value(feed *f, uint64_t modulus, uint64_t n, uint64_t m)
{
    unsigned b = next_byte(f);
    static const uint64_t shifts[] = {31, 32, 63};

    if (b < 0xf0)
        return modulus ? b % modulus : b;
    switch (b & 15) {
    case 0: return UINT32_MAX;
    case 1: return UINT32_MAX - 1;
    case 2: return n;
    case 3: return n + 1;
    case 4: return m;
    case 5: return m + 1;
    case 6: return m == 0 ? 0 : m - 1;
    case 7: return UINT64_MAX;
    default: return (uint64_t)1 << shifts[b % 3];
    }
}

typedef struct parts {
    uint64_t n, m, flags;
    uint32_t *degree;     /* n */
    uint64_t *rev_offset; /* n + 1 */
    uint32_t *rev_source; /* m */
    uint32_t *target;     /* m */
} parts;

static void *zalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);

    FUZZ_REQUIRE(p != NULL, "out of memory");
    return p;
}

/* A consistent graph from m edges, then mutations. */
static void parts_from_edges(parts *g, feed *f)
{
    uint32_t *tail = zalloc(g->m, 4), *head = zalloc(g->m, 4);
    uint64_t *cursor = zalloc(g->n + 1, 8);

    for (uint64_t e = 0; e < g->m; e++) {
        tail[e] = (uint32_t)(next_byte(f) % g->n);
        head[e] = (uint32_t)(next_byte(f) % g->n);
        g->degree[tail[e]]++;
        g->rev_offset[head[e] + 1]++;
    }
    for (uint64_t v = 0; v < g->n; v++)
        g->rev_offset[v + 1] += g->rev_offset[v];
    memcpy(cursor, g->rev_offset, (g->n + 1) * 8);
    for (uint64_t e = 0; e < g->m; e++)
        g->rev_source[cursor[head[e]]++] = tail[e];
    memset(cursor, 0, (g->n + 1) * 8);
    for (uint64_t u = 0; u < g->n; u++)
        cursor[u + 1] = cursor[u] + g->degree[u];
    for (uint64_t e = 0; e < g->m; e++)
        g->target[cursor[tail[e]]++] = head[e];
    free(tail);
    free(head);
    free(cursor);

    for (unsigned k = next_byte(f) % 4; k > 0; k--) {
        unsigned which = next_byte(f) % 4;
        uint64_t len = which == 0 ? g->n : which == 1 ? g->n + 1 : g->m;
        uint64_t at = len ? next_byte(f) % len : 0;
        uint64_t value = next_value(f, g->n + 2, g->n, g->m);

        if (len == 0)
            continue;
        if (which == 0)
            g->degree[at] = (uint32_t)value;
        else if (which == 1)
            g->rev_offset[at] = value;
        else if (which == 2)
            g->rev_source[at] = (uint32_t)value;
        else
            g->target[at] = (uint32_t)value;
    }
}

/* Every array from the bytes as they come. */
static void parts_raw(parts *g, feed *f)
{
    uint64_t sum = 0;

    for (uint64_t v = 0; v < g->n; v++)
        g->degree[v] = (uint32_t)next_value(f, 6, g->n, g->m);
    for (uint64_t v = 1; v <= g->n; v++) {
        sum += next_value(f, 6, g->n, g->m);
        g->rev_offset[v] = sum;
    }
    for (uint64_t e = 0; e < g->m; e++)
        g->rev_source[e] = (uint32_t)next_value(f, g->n + 1, g->n, g->m);
    for (uint64_t e = 0; e < g->m; e++)
        g->target[e] = (uint32_t)next_value(f, g->n + 1, g->n, g->m);
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The oracle: whether the predecessor side (degrees, offsets, lists) is
 * one graph, and whether the successor lists are that graph's. */
static void oracle(const parts *g, int *pred_ok, int *succ_ok)
{
    uint64_t degree_sum = 0, *count, *rev, *fwd, e = 0;

    *pred_ok = g->rev_offset[0] == 0 && g->rev_offset[g->n] == g->m;
    for (uint64_t v = 0; v < g->n; v++) {
        degree_sum += g->degree[v];
        *pred_ok &= g->degree[v] != UINT32_MAX &&
                    g->rev_offset[v] <= g->rev_offset[v + 1];
    }
    *pred_ok &= degree_sum == g->m;
    for (uint64_t k = 0; k < g->m; k++)
        *pred_ok &= g->rev_source[k] < g->n;
    *succ_ok = 0;
    if (!*pred_ok)
        return;
    count = zalloc(g->n, 8);
    for (uint64_t k = 0; k < g->m; k++)
        count[g->rev_source[k]]++;
    for (uint64_t v = 0; v < g->n; v++)
        *pred_ok &= count[v] == g->degree[v];
    free(count);
    if (!*pred_ok)
        return;
    rev = zalloc(g->m, 8);
    fwd = zalloc(g->m, 8);
    *succ_ok = 1;
    for (uint64_t v = 0; v < g->n; v++)
        for (uint64_t k = g->rev_offset[v]; k < g->rev_offset[v + 1]; k++)
            rev[k] = (uint64_t)g->rev_source[k] << 32 | v;
    for (uint64_t u = 0; u < g->n; u++)
        for (uint32_t k = 0; k < g->degree[u]; k++, e++) {
            *succ_ok &= g->target[e] < g->n;
            fwd[e] = u << 32 | g->target[e];
        }
    qsort(rev, g->m, 8, compare_u64);
    qsort(fwd, g->m, 8, compare_u64);
    *succ_ok &= g->m == 0 || memcmp(rev, fwd, g->m * 8) == 0;
    free(rev);
    free(fwd);
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The file: the writer's layout (lib/io/binary.c), checksums fixed. */
static uint8_t *encode(const parts *g, size_t *len)
{
    static const uint8_t magic[8] = {0x89, 'L', 'G', 'R', '\r', '\n', 0x1a, '\n'};
    uint64_t count[4] = {g->n, g->n + 1, g->m, (g->flags & 1) ? g->m : 0};
    int size[4] = {4, 8, 4, 4};
    uint64_t at[4], pos = HEADER_BYTES;
    uint8_t *file;

    for (int s = 0; s < 4; s++) {
        pos = (pos + ALIGN - 1) / ALIGN * ALIGN;
        at[s] = pos;
        pos += count[s] * (uint64_t)size[s];
    }
    file = zalloc(pos, 1);
    memcpy(file, magic, 8);
    put_le(file + 8, 1, 4);
    put_le(file + 12, 0x01020304u, 4);
    put_le(file + 16, g->n, 8);
    put_le(file + 24, g->m, 8);
    put_le(file + 32, g->flags, 8);
    for (int s = 0; s < 4; s++) {
        put_le(file + 40 + 24 * s, at[s], 8);
        put_le(file + 48 + 24 * s, count[s] * (uint64_t)size[s], 8);
        for (uint64_t i = 0; i < count[s]; i++) {
            uint64_t v = s == 0 ? g->degree[i] : s == 1 ? g->rev_offset[i]
                         : s == 2 ? g->rev_source[i] : g->target[i];
            put_le(file + at[s] + i * (uint64_t)size[s], v, size[s]);
        }
    }
    fuzz_fix_binary_checksums(file, (size_t)pos);
    *len = (size_t)pos;
    return file;
}

/* loopy_graph_build_successors on predecessor lists that may disagree with
 * the out-degrees (offsets and ids already valid): it must refuse exactly
 * the disagreeing ones, writing nothing outside its arrays. */
static void build_successors_checked(const parts *g, int degrees_agree)
{
    loopy_graph *shell = loopy_i_graph_shell((loopy_vertex)g->n, g->m);
    loopy_status status;

    FUZZ_REQUIRE(shell != NULL, "out of memory");
    shell->out_degree = g->degree;
    shell->rev_offset = g->rev_offset;
    shell->rev_source = g->rev_source;
    shell->owned = 0; /* borrowed: freed by the harness */
    status = loopy_graph_build_successors(shell);
    FUZZ_REQUIRE(status == (degrees_agree ? LOOPY_OK : LOOPY_EFORMAT),
                 "build_successors: %s, the degrees %s",
                 loopy_strerror(status), degrees_agree ? "agree" : "disagree");
    if (status == LOOPY_OK)
        fuzz_require_consistent_graph(shell);
    else
        FUZZ_REQUIRE(!loopy_graph_has_successors(shell),
                     "successors kept after a refusal");
    loopy_graph_free(shell);
}

FUZZ_TARGET(read_binary_parts)
{
    feed f = {data, size};
    parts g;
    int pred_ok, succ_ok, ranges_ok = 1;
    uint8_t *file;
    size_t len;

    memset(&g, 0, sizeof g);
    g.n = next_byte(&f) % 12;
    unsigned mode = next_byte(&f);
    g.m = next_byte(&f) % 40;
    if (g.n == 0)
        g.m = 0;
    g.flags = mode & 3;
    g.degree = zalloc(g.n, 4);
    g.rev_offset = zalloc(g.n + 1, 8);
    g.rev_source = zalloc(g.m, 4);
    g.target = zalloc(g.m, 4);
    if (mode & 4)
        parts_raw(&g, &f);
    else if (g.n > 0)
        parts_from_edges(&g, &f);
    oracle(&g, &pred_ok, &succ_ok);

    file = encode(&g, &len);
    for (int skip = 0; skip < 2; skip++) {
        loopy_graph *loaded = NULL;
        loopy_diag diag;
        int want = pred_ok && (skip || !(g.flags & 1) || succ_ok);
        loopy_status status = fuzz_read_binary(file, len, skip, &loaded, &diag);

        FUZZ_REQUIRE((status == LOOPY_OK) == want,
                     "skip %d: %s (%s), the oracle says %s", skip,
                     loopy_strerror(status), diag.message,
                     want ? "consistent" : "inconsistent");
        if (status == LOOPY_OK) {
            fuzz_require_consistent_graph(loaded);
            loopy_solution_free(fuzz_solve_twice(loaded));
            if (skip) {
                FUZZ_REQUIRE(loopy_graph_build_successors(loaded) == LOOPY_OK,
                             "successors of an accepted graph");
                fuzz_require_consistent_graph(loaded);
            }
        }
        loopy_graph_free(loaded);
    }
    free(file);

    /* The predecessor side alone, with valid offsets and ids, to
     * loopy_graph_build_successors. */
    ranges_ok = g.rev_offset[0] == 0 && g.rev_offset[g.n] == g.m;
    for (uint64_t v = 0; v < g.n; v++)
        ranges_ok &= g.rev_offset[v] <= g.rev_offset[v + 1];
    for (uint64_t k = 0; k < g.m; k++)
        ranges_ok &= g.rev_source[k] < g.n;
    if (ranges_ok)
        build_successors_checked(&g, pred_ok);

    free(g.degree);
    free(g.rev_offset);
    free(g.rev_source);
    free(g.target);
    return 0;
}
