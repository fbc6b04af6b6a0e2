/*
 * test_binary.c - the binary graph format: round trips keep every list and
 * degree, and damaged files are refused with a message that says what is
 * wrong (bad magic, version, header or section checksum, truncation, values
 * out of range or lists that disagree even under a correct checksum).
 */
#include "check.h"
#include "gen.h"
#include "internal.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct bytes {
    unsigned char *data;
    size_t len, cap;
} bytes;

static int append(void *ctx, const void *p, size_t len)
{
    bytes *b = ctx;
    if (b->len + len > b->cap) {
        size_t cap = (b->len + len) * 2;
        unsigned char *grown = realloc(b->data, cap);
        if (grown == NULL)
            return 1;
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, len);
    b->len += len;
    return 0;
}

/* Writes data to a temporary file, reads it with loopy_read_file. */
static loopy_status load(const unsigned char *data, size_t len, int skip,
                         loopy_graph **out, loopy_diag *diag)
{
    char path[] = "/tmp/loopy_test_binary_XXXXXX";
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    int fd = mkstemp(path);
    loopy_status status;

    if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
        fputs("test_binary: cannot write a temporary file\n", stderr);
        exit(1);
    }
    close(fd);
    ro.skip_successors = skip;
    memset(diag, 0, sizeof *diag);
    status = loopy_read_file(path, &ro, out, diag);
    unlink(path);
    return status;
}

static bool same_lists(const loopy_graph *a, const loopy_graph *b, bool succ)
{
    if (loopy_graph_vertex_count(a) != loopy_graph_vertex_count(b) ||
        loopy_graph_edge_count(a) != loopy_graph_edge_count(b))
        return false;
    for (loopy_vertex v = 0; v < loopy_graph_vertex_count(a); v++) {
        loopy_edge ka, kb;
        const loopy_vertex *la = succ ? loopy_graph_successors(a, v, &ka)
                                      : loopy_graph_predecessors(a, v, &ka);
        const loopy_vertex *lb = succ ? loopy_graph_successors(b, v, &kb)
                                      : loopy_graph_predecessors(b, v, &kb);
        if (ka != kb || (ka > 0 && memcmp(la, lb, ka * sizeof *la) != 0) ||
            loopy_graph_out_degree(a, v) != loopy_graph_out_degree(b, v))
            return false;
    }
    return true;
}

static void round_trips(void)
{
    gen_edges e = GEN_EDGES_INIT;

    for (uint64_t seed = 0; seed < 60; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_graph *g = NULL, *back = NULL, *slim = NULL;
        bytes b = {NULL, 0, 0};
        loopy_diag diag;

        if (gen_graph(seed, shape, &e) != 0)
            exit(1);
        CHECK(loopy_graph_from_edges(e.n, e.m, e.tail, e.head, &g) == LOOPY_OK);
        CHECK(loopy_write_binary(g, append, &b) == LOOPY_OK);
        CHECK(load(b.data, b.len, 0, &back, &diag) == LOOPY_OK);
        CHECK(load(b.data, b.len, 1, &slim, &diag) == LOOPY_OK);
        if (back != NULL && slim != NULL) {
            CHECK(same_lists(g, back, true));
            CHECK(loopy_graph_has_successors(back));
            CHECK(!loopy_graph_has_successors(slim));
            CHECK(same_lists(back, slim, false));
            /* The predecessor lists the loader found equal those of a graph
             * whose reverse is built in memory. */
            for (loopy_vertex v = 0; v < e.n; v++) {
                loopy_edge k;
                const loopy_vertex *p = loopy_graph_predecessors(back, v, &k);
                for (loopy_edge i = 0; i < k; i++) {
                    loopy_edge ks;
                    const loopy_vertex *s = loopy_graph_successors(g, p[i], &ks);
                    bool found = false;
                    for (loopy_edge j = 0; j < ks; j++)
                        found |= s[j] == v;
                    CHECK(found);
                }
            }
        }
        check_case_end();
        free(b.data);
        loopy_graph_free(g);
        loopy_graph_free(back);
        loopy_graph_free(slim);
    }
    gen_edges_free(&e);
}

/* Loads a damaged copy; the load must fail with `status` and a message
 * containing `words`. */
static void expect_refused(const unsigned char *data, size_t len,
                           loopy_status status, const char *words)
{
    loopy_graph *g = NULL;
    loopy_diag diag;
    loopy_status got = load(data, len, 0, &g, &diag);

    CHECK_MSG(got == status, "status %d (%s), expected %d for '%s'", got,
              diag.message, status, words);
    CHECK_MSG(strstr(diag.message, words) != NULL, "message '%s' lacks '%s'",
              diag.message, words);
    CHECK(g == NULL);
    loopy_graph_free(g);
    check_case_end();
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Recomputes every checksum of a file, as a writer with a bug would. */
static void reseal(unsigned char *data, size_t len)
{
    for (int s = 0; s < 4; s++) {
        uint64_t at = get64(data + 40 + 24 * s), size = get64(data + 48 + 24 * s);
        CHECK(at <= len && size <= len - at);
        put64(data + 56 + 24 * s, loopy_i_checksum(data + at, size, 1));
    }
    put64(data + 136, loopy_i_checksum(data, 136, 1));
}

/* Successor lists that disagree with the rest are not read under
 * skip_successors: the file then holds a consistent graph. */
static void expect_loaded_without_successors(const unsigned char *data,
                                             size_t len)
{
    loopy_graph *g = NULL;
    loopy_diag diag;

    CHECK_MSG(load(data, len, 1, &g, &diag) == LOOPY_OK, "%s", diag.message);
    CHECK(g != NULL && !loopy_graph_has_successors(g));
    loopy_graph_free(g);
    check_case_end();
}

static void damaged_files(void)
{
    static const loopy_vertex tail[] = {0, 1, 2, 2, 3};
    static const loopy_vertex head[] = {1, 2, 0, 3, 3};
    loopy_graph *g = NULL;
    bytes b = {NULL, 0, 0};
    unsigned char *copy;
    uint64_t rev_source_at, target_at;

    CHECK(loopy_graph_from_edges(4, 5, tail, head, &g) == LOOPY_OK);
    CHECK(loopy_write_binary(g, append, &b) == LOOPY_OK);
    loopy_graph_free(g);
    copy = malloc(b.len + 1);
    if (copy == NULL)
        exit(1);

#define FRESH() memcpy(copy, b.data, b.len)
    /* Only the whole magic makes a binary file: with another first byte
     * the bytes are a text (a bad one), even with "LGR" after it. */
    FRESH();
    copy[0] ^= 1;
    expect_refused(copy, b.len, LOOPY_EPARSE, "expected the vertex count n");
    expect_refused((const unsigned char *)"1LGR 2\n", 7, LOOPY_EPARSE,
                   "expected the vertex count n, found '1LGR'");
    /* A first byte 0x89 starts no text: a binary file whose magic was
     * damaged (line ends changed in transfer) or cut short. */
    FRESH();
    copy[6] = '\n';
    expect_refused(copy, b.len, LOOPY_EFORMAT, "bad magic");
    FRESH();
    copy[3] = 'X';
    expect_refused(copy, b.len, LOOPY_EFORMAT, "bad magic");
    expect_refused(b.data, 5, LOOPY_EFORMAT, "bad magic");
    FRESH();
    copy[8] = 9;
    expect_refused(copy, b.len, LOOPY_EFORMAT, "format version 9");
    FRESH();
    copy[12] = 1; /* big-endian byte-order mark */
    expect_refused(copy, b.len, LOOPY_EFORMAT, "byte-order");
    FRESH();
    copy[16] ^= 2; /* n, under the header checksum */
    expect_refused(copy, b.len, LOOPY_EFORMAT, "bad header checksum");
    for (int s = 0; s < 4; s++) {
        static const char *const names[] = {"out-degrees", "predecessor offsets",
                                            "predecessor lists",
                                            "successor lists"};
        char words[64];
        uint64_t at = get64(b.data + 40 + 24 * s);
        FRESH();
        copy[at] ^= 0x10;
        snprintf(words, sizeof words, "bad checksum of the %s", names[s]);
        expect_refused(copy, b.len, LOOPY_EFORMAT, words);
    }
    /* Padding between the header and the first part, and between parts:
     * covered by no checksum, so required to be zero. */
    CHECK(get64(b.data + 40) > 144 && get64(b.data + 64) > get64(b.data + 40) + 16);
    FRESH();
    copy[144] = 1;
    expect_refused(copy, b.len, LOOPY_EFORMAT, "nonzero padding");
    FRESH();
    copy[get64(b.data + 64) - 1] = 0x80;
    expect_refused(copy, b.len, LOOPY_EFORMAT, "nonzero padding");
    expect_refused(b.data, 100, LOOPY_EFORMAT, "truncated");
    expect_refused(b.data, b.len - 1, LOOPY_EFORMAT, "truncated");
    FRESH();
    copy[b.len] = 0;
    expect_refused(copy, b.len + 1, LOOPY_EFORMAT, "damaged");

    /* A vertex id out of range under a checksum that matches it: the
     * loader's range checks catch what checksums cannot. */
    FRESH();
    rev_source_at = get64(b.data + 40 + 24 * 2);
    copy[rev_source_at] = 200;
    put64(copy + 56 + 24 * 2,
          loopy_i_checksum(copy + rev_source_at, get64(b.data + 48 + 24 * 2), 1));
    put64(copy + 136, loopy_i_checksum(copy, 136, 1));
    expect_refused(copy, b.len, LOOPY_EFORMAT, "out of range");

    /* Ids in range under matching checksums, but lists that do not describe
     * one graph.  Predecessor lists of 0->1 1->2 2->0 2->3 3->3: [2] [0] [1]
     * [2 3]; successor lists [1] [2] [0 3] [3]. */
    FRESH();
    put32(copy + rev_source_at, 3); /* 3 a predecessor twice, one move */
    reseal(copy, b.len);
    expect_refused(copy, b.len, LOOPY_EFORMAT, "match the out-degrees");
    FRESH();
    put32(copy + rev_source_at + 4, 1); /* [2] [1] [0] [2 3]: the predecessor */
    put32(copy + rev_source_at + 8, 0); /* lists of 0->2 1->1 2->0 2->3 3->3 */
    reseal(copy, b.len);
    expect_refused(copy, b.len, LOOPY_EFORMAT, "match the successor lists");
    expect_loaded_without_successors(copy, b.len);
    FRESH();
    target_at = get64(b.data + 40 + 24 * 3);
    put32(copy + target_at, 2); /* successors [2] [1] [0 3] [3] */
    put32(copy + target_at + 4, 1);
    reseal(copy, b.len);
    expect_refused(copy, b.len, LOOPY_EFORMAT, "match the successor lists");
    expect_loaded_without_successors(copy, b.len);
#undef FRESH
    free(copy);
    free(b.data);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The exact answers the loader's fingerprint sums stand for, by counting
 * and sorting: *degrees_agree (each u is a predecessor out-degree times)
 * and *pairs_agree (the predecessor lists hold exactly the edges of the
 * successor lists).  The file's values must be in range. */
static void lists_agree(const unsigned char *data, bool *degrees_agree,
                        bool *pairs_agree)
{
    uint64_t n = get64(data + 16), m = get64(data + 24);
    const unsigned char *degree = data + get64(data + 40);
    const unsigned char *offset = data + get64(data + 64);
    const unsigned char *source = data + get64(data + 88);
    const unsigned char *target = data + get64(data + 112);
    uint64_t *rev = malloc((m + 1) * sizeof *rev), *fwd = malloc((m + 1) * sizeof *fwd);
    uint64_t *left = calloc(n + 1, sizeof *left), e = 0;

    if (rev == NULL || fwd == NULL || left == NULL)
        exit(1);
    for (uint64_t u = 0; u < n; u++)
        left[u] = get32(degree + 4 * u);
    *degrees_agree = true;
    for (uint64_t v = 0; v < n; v++)
        for (uint64_t k = get64(offset + 8 * v); k < get64(offset + 8 * (v + 1)); k++) {
            uint64_t u = get32(source + 4 * k);
            *degrees_agree = *degrees_agree && left[u] > 0;
            left[u] -= left[u] > 0;
            rev[k] = u << 32 | v;
        }
    for (uint64_t u = 0; u < n; u++)
        for (uint32_t k = get32(degree + 4 * u); k > 0; k--, e++)
            fwd[e] = u << 32 | get32(target + 4 * e);
    qsort(rev, m, sizeof *rev, compare_u64);
    qsort(fwd, m, sizeof *fwd, compare_u64);
    *pairs_agree = m == 0 || memcmp(rev, fwd, m * sizeof *rev) == 0;
    free(rev);
    free(fwd);
    free(left);
}

/* Files whose values are all in range and whose checksums match, but whose
 * lists were changed: an entry replaced, two entries swapped (within a list
 * or across two), a list boundary moved, a successor replaced.  Whether
 * each is refused, and with which message, must match an exact count. */
static void mutated_lists(void)
{
    gen_edges e = GEN_EDGES_INIT;
    unsigned refused = 0, loaded = 0;

    for (uint64_t seed = 0; seed < 1500; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_graph *g = NULL;
        bytes b = {NULL, 0, 0};
        gen_rng r;
        uint64_t n, m, offset_at, source_at, target_at;
        bool degrees_agree, pairs_agree;

        if (gen_graph(seed, shape, &e) != 0)
            exit(1);
        if (e.n < 2 || e.m < 2)
            continue;
        gen_rng_seed(&r, seed);
        CHECK(loopy_graph_from_edges(e.n, e.m, e.tail, e.head, &g) == LOOPY_OK);
        CHECK(loopy_write_binary(g, append, &b) == LOOPY_OK);
        loopy_graph_free(g);
        n = e.n;
        m = e.m;
        offset_at = get64(b.data + 64);
        source_at = get64(b.data + 88);
        target_at = get64(b.data + 112);
        for (int round = 0; round < 3; round++) {
            uint64_t i = gen_below(&r, m), j = gen_below(&r, m);
            uint32_t x = get32(b.data + source_at + 4 * i);
            uint32_t y = get32(b.data + source_at + 4 * j);
            switch (gen_below(&r, 4)) {
            case 0: /* a predecessor replaced */
                put32(b.data + source_at + 4 * i, gen_below32(&r, (uint32_t)n));
                break;
            case 1: /* two predecessors swapped, in one list or two */
                put32(b.data + source_at + 4 * i, y);
                put32(b.data + source_at + 4 * j, x);
                break;
            case 2: { /* a boundary between two lists moved */
                uint64_t v = 1 + gen_below(&r, n - 1);
                uint64_t lo = get64(b.data + offset_at + 8 * (v - 1));
                uint64_t hi = get64(b.data + offset_at + 8 * (v + 1));
                put64(b.data + offset_at + 8 * v, lo + gen_below(&r, hi - lo + 1));
                break;
            }
            default: /* a successor replaced */
                put32(b.data + target_at + 4 * i, gen_below32(&r, (uint32_t)n));
            }
            reseal(b.data, b.len);
            lists_agree(b.data, &degrees_agree, &pairs_agree);
            for (int skip = 0; skip < 2; skip++) {
                loopy_diag diag;
                loopy_status got = load(b.data, b.len, skip, &g, &diag);
                const char *words = !degrees_agree ? "match the out-degrees"
                                    : !pairs_agree && !skip
                                        ? "match the successor lists" : NULL;
                if (words == NULL) {
                    CHECK_MSG(got == LOOPY_OK, "seed %" PRIu64 ": %s", seed,
                              diag.message);
                    loaded++;
                } else {
                    CHECK_MSG(got == LOOPY_EFORMAT &&
                                  strstr(diag.message, words) != NULL,
                              "seed %" PRIu64 ": status %d '%s', expected '%s'",
                              seed, got, diag.message, words);
                    refused++;
                }
                loopy_graph_free(g);
                g = NULL;
            }
            check_case_end();
        }
        free(b.data);
    }
    /* Both kinds are common, or the test proves little. */
    CHECK_MSG(refused > 1000 && loaded > 1000, "refused %u, loaded %u", refused,
              loaded);
    check_case_end();
    gen_edges_free(&e);
}

/* A binary file keeps the base of the text it was made from; unknown flag
 * bits are refused. */
static void base_recorded(void)
{
    static const char text0[] = "3 2\n0 1\n1 2\n", text1[] = "3 2\n1 2\n2 3\n";
    static const loopy_vertex tail[] = {0, 1}, head[] = {1, 2};

    for (uint32_t base = 0; base < 3; base++) {
        loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
        loopy_graph *g = NULL, *back = NULL;
        bytes b = {NULL, 0, 0};
        loopy_diag diag;

        ro.base = base;
        if (base < 2)
            CHECK(loopy_read_text(base ? text1 : text0, base ? sizeof text1 - 1
                                                             : sizeof text0 - 1,
                                  &ro, &g, NULL, &diag) == LOOPY_OK);
        else /* built from edges: 1 */
            CHECK(loopy_graph_from_edges(3, 2, tail, head, &g) == LOOPY_OK);
        if (g == NULL)
            continue;
        CHECK(loopy_graph_base(g) == (base == 0 ? 0u : 1u));
        CHECK(loopy_write_binary(g, append, &b) == LOOPY_OK);
        for (int skip = 0; skip < 2; skip++) {
            CHECK_MSG(load(b.data, b.len, skip, &back, &diag) == LOOPY_OK, "%s",
                      diag.message);
            CHECK(back != NULL && loopy_graph_base(back) == loopy_graph_base(g));
            CHECK(back != NULL && (skip || same_lists(g, back, true)));
            loopy_graph_free(back);
            back = NULL;
        }
        /* An unknown flag bit, under a correct header checksum. */
        b.data[32] |= 4;
        put64(b.data + 136, loopy_i_checksum(b.data, 136, 1));
        expect_refused(b.data, b.len, LOOPY_EFORMAT,
                       "unknown flag bits 0x4 in the header");
        free(b.data);
        loopy_graph_free(g);
        check_case_end();
    }
}

/* The checksum does not depend on the thread count. */
static void checksum_threads(void)
{
    size_t len = (size_t)5 << 20 | 12345;
    unsigned char *p = malloc(len);
    uint64_t one;

    if (p == NULL)
        exit(1);
    for (size_t i = 0; i < len; i++)
        p[i] = (unsigned char)(i * 2654435761u >> 13);
    one = loopy_i_checksum(p, len, 1);
    CHECK(loopy_i_checksum(p, len, 2) == one);
    CHECK(loopy_i_checksum(p, len, 3) == one);
    p[len / 2] ^= 1;
    CHECK(loopy_i_checksum(p, len, 2) != one);
    check_case_end();
    free(p);
}

int main(void)
{
    round_trips();
    damaged_files();
    mutated_lists();
    base_recorded();
    checksum_threads();
    return check_finish("test_binary");
}
