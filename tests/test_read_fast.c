/*
 * test_read_fast.c - the fast two-pass edge-list reader against the careful
 * one.  On texts with every allowed quirk (blanks, tabs, '\r', comments,
 * blank lines, leading zeros, a last line without '\n'), read in one piece
 * and in several, from memory and from a mapped file, the graphs must be
 * identical; on the same texts with one byte damaged, status, line, column
 * and message must be those of the careful reader, and a text the careful
 * reader refuses must never be accepted.  The reader's bins are also
 * checked on their own, on more vertices than the texts can have here.
 */
#include "check.h"
#include "gen.h"
#include "internal.h"
#include "../lib/io/edge_bins.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct text {
    char *data;
    size_t len, cap;
} text;

static void put(text *t, const char *s)
{
    size_t len = strlen(s);
    if (t->len + len + 1 > t->cap) {
        t->cap = (t->len + len + 1) * 2;
        t->data = realloc(t->data, t->cap);
        if (t->data == NULL)
            exit(1);
    }
    memcpy(t->data + t->len, s, len + 1);
    t->len += len;
}

static const char *pick(gen_rng *r, const char *const *options, unsigned count)
{
    return options[gen_below32(r, count)];
}

/* An edge list of g with random but valid spacing and comments. */
static void quirky_text(gen_rng *r, const gen_edges *g, uint32_t base, text *t)
{
    static const char *const lead[] = {"", "", "", " ", "\t", "  "};
    static const char *const sep[] = {" ", " ", " ", "\t", "  ", " \t "};
    static const char *const trail[] = {"", "", "", " ", "\r", "\t# 5 6",
                                        "#x", " # comment"};
    static const char *const extra[] = {"\n", "# a comment line 1 2\n",
                                        "   \n", "\r\n", "  # 12\n"};
    char buf[64];

    t->len = 0;
    if (gen_chance(r, 1, 10))
        put(t, "\xef\xbb\xbf"); /* a UTF-8 byte-order mark */
    if (gen_chance(r, 1, 4))
        put(t, "# header comment\n\n");
    snprintf(buf, sizeof buf, "%" PRIu32 " %" PRIu64 "\n", g->n, g->m);
    put(t, buf);
    for (uint64_t e = 0; e < g->m; e++) {
        const char *zeros = gen_chance(r, 1, 20) ? "00" : "";
        if (gen_chance(r, 1, 10))
            put(t, pick(r, extra, 5));
        snprintf(buf, sizeof buf, "%s%s%" PRIu32 "%s%" PRIu32 "%s%s",
                 pick(r, lead, 6), zeros, g->tail[e] + base, pick(r, sep, 6),
                 g->head[e] + base, pick(r, trail, 8),
                 gen_chance(r, 1, 8) ? "\r\n" : "\n");
        put(t, buf);
    }
    if (gen_chance(r, 1, 5))
        put(t, pick(r, extra, 5));
    if (gen_chance(r, 1, 4) && t->len > 0 && t->data[t->len - 1] == '\n')
        t->data[--t->len] = '\0'; /* no newline at the end */
}

static bool same_graphs(const loopy_graph *a, const loopy_graph *b)
{
    if (loopy_graph_vertex_count(a) != loopy_graph_vertex_count(b) ||
        loopy_graph_edge_count(a) != loopy_graph_edge_count(b))
        return false;
    for (loopy_vertex v = 0; v < loopy_graph_vertex_count(a); v++) {
        loopy_edge ka, kb, pa, pb;
        const loopy_vertex *sa = loopy_graph_successors(a, v, &ka);
        const loopy_vertex *sb = loopy_graph_successors(b, v, &kb);
        const loopy_vertex *ra = loopy_graph_predecessors(a, v, &pa);
        const loopy_vertex *rb = loopy_graph_predecessors(b, v, &pb);
        if (ka != kb || pa != pb ||
            (ka && memcmp(sa, sb, ka * sizeof *sa) != 0) ||
            (pa && memcmp(ra, rb, pa * sizeof *ra) != 0) ||
            loopy_graph_out_degree(a, v) != loopy_graph_out_degree(b, v))
            return false;
    }
    return true;
}

static loopy_status read_via_file(const text *t, const loopy_read_options *ro,
                                  loopy_graph **out, loopy_diag *diag)
{
    char path[] = "/tmp/loopy_test_read_fast_XXXXXX";
    int fd = mkstemp(path);
    loopy_status status;

    if (fd < 0 || write(fd, t->data, t->len) != (ssize_t)t->len) {
        fputs("test_read_fast: cannot write a temporary file\n", stderr);
        exit(1);
    }
    close(fd);
    status = loopy_read_file(path, ro, out, diag);
    unlink(path);
    return status;
}

/* Reads t every way; all must agree with the careful reader. */
static void compare(const text *t, uint32_t base, int threads, bool via_file)
{
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *want = NULL, *got = NULL;
    loopy_diag want_diag = {0, 0, "", LOOPY_HINT_NONE},
               got_diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status want_status, got_status;

    ro.base = base;
    ro.threads = threads;
    want_status = loopy_i_read_text_careful(t->data, t->len, &ro, &want, NULL,
                                            &want_diag);
    got_status = via_file ? read_via_file(t, &ro, &got, &got_diag)
                          : loopy_read_text(t->data, t->len, &ro, &got, NULL,
                                            &got_diag);
    CHECK_MSG(got_status == want_status, "status %d, careful %d (%s)",
              got_status, want_status, want_diag.message);
    if (want_status == LOOPY_OK && got_status == LOOPY_OK) {
        CHECK(same_graphs(want, got));
    } else if (got_status == want_status) {
        CHECK(got_diag.line == want_diag.line);
        CHECK(got_diag.column == want_diag.column);
        CHECK(strcmp(got_diag.message, want_diag.message) == 0);
        CHECK(got_diag.hint == want_diag.hint);
    }
    loopy_graph_free(want);
    loopy_graph_free(got);
}

/* The carriage-return hint needs no second reading, so texts over the
 * 16 MiB of the option hints get it too; no text at all gets none. */
static void bare_cr_large(void)
{
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_BASE_1};
    loopy_graph *g = NULL;
    text t = {0};
    loopy_status status;

    put(&t, "3 4500000\r");
    while (t.len <= ((size_t)16 << 20) + 4096)
        put(&t, "1 2\r2 3\r3 1\r1 3\r");
    status = loopy_read_text(t.data, t.len, &ro, &g, NULL, &diag);
    CHECK_MSG(status == LOOPY_EPARSE && diag.line == 1 && diag.column == 11 &&
                  diag.hint == LOOPY_HINT_BARE_CR,
              "status %d at %" PRIu64 ":%" PRIu64 ", hint %d (%s)", status,
              diag.line, diag.column, diag.hint, diag.message);
    loopy_graph_free(g);
    free(t.data);
    diag.hint = LOOPY_HINT_BASE_1;
    status = loopy_read_text(NULL, 0, &ro, &g, NULL, &diag);
    CHECK(status == LOOPY_EPARSE && diag.hint == LOOPY_HINT_NONE && g == NULL);
    check_case_end();
}

/* The hints of rejected texts: a single change of options that reads them,
 * never a guess; else a bare carriage return on the line of the error. */
static void hints(void)
{
    static const struct {
        const char *text;
        uint32_t base;
        bool adj;
        loopy_hint want;
    } cases[] = {
        {"3 1\n0 1\n", 1, false, LOOPY_HINT_BASE_0},
        {"3 1\n1 0\n", 1, false, LOOPY_HINT_BASE_0},
        {"3 1\n1 3\n", 0, false, LOOPY_HINT_BASE_1},
        {"3 3\n2 2 3\n1 3\n0\n", 1, false, LOOPY_HINT_ADJACENCY},
        {"3 2\n1 2\n1 3\n0\n", 1, false, LOOPY_HINT_ADJACENCY},
        {"2 1\n1 2\n0\n", 0, true, LOOPY_HINT_BASE_1},
        {"2 1\n1 0\n0\n", 1, true, LOOPY_HINT_BASE_0},
        {"3 2\n1 2\n2 3\n", 1, true, LOOPY_HINT_EDGES},
        /* No hint where the other base or format fails too: vertices 0 and
         * n both used, three numbers that are no vertex's moves. */
        {"3 1\n0 3\n", 0, false, LOOPY_HINT_NONE},
        {"3 1\n3 0\n", 0, false, LOOPY_HINT_NONE},
        {"3 2\n3 1\n0 1\n", 1, false, LOOPY_HINT_NONE},
        {"1 1\n0 1\n", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1 2 3\n", 1, false, LOOPY_HINT_NONE},
        {"3 1\n0 4\n", 0, false, LOOPY_HINT_NONE},
        {"3 1\n1 4\n", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1 2 x\n", 1, false, LOOPY_HINT_NONE},
        {"3 1 1\n1 2\n", 1, false, LOOPY_HINT_NONE},
        {"3 2\n1 2\n", 1, false, LOOPY_HINT_NONE},
        {"2 1\n1 2 2\n0\n", 1, true, LOOPY_HINT_NONE},
        /* Lines ended by '\r' alone, in both formats, with and without a
         * final one, and behind a comment; only a carriage return before
         * the error, on its line, and followed by more of the line counts. */
        {"3 2\r1 2\r2 3\r", 1, false, LOOPY_HINT_BARE_CR},
        {"3 2\r1 2\r2 3", 1, false, LOOPY_HINT_BARE_CR},
        {"2 1\r1 2\r0\r", 1, true, LOOPY_HINT_BARE_CR},
        {"# c\r3 1\r1 2\r", 1, false, LOOPY_HINT_BARE_CR},
        {"3 1\n1\r\r2 x\n", 1, false, LOOPY_HINT_BARE_CR},
        {"3 1\n1 x\r\r2\n", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1 x # saved\r see\n", 1, false, LOOPY_HINT_NONE},
        {"x 2\r1 2\r", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1\r2\n2 x\n", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1 x\r\r\n", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1 x\r", 1, false, LOOPY_HINT_NONE},
        {"3 1\n1 \r\r\n", 1, false, LOOPY_HINT_NONE},
        /* An option that reads the text comes first. */
        {"3 1\n0\r1\n", 1, false, LOOPY_HINT_BASE_0},
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
        loopy_diag diag = {0, 0, "", LOOPY_HINT_BASE_1};
        loopy_graph *g = NULL;
        loopy_status status;

        ro.base = cases[i].base;
        ro.format = cases[i].adj ? LOOPY_TEXT_ADJ : LOOPY_TEXT_EDGES;
        status = loopy_read_text(cases[i].text, strlen(cases[i].text), &ro, &g,
                                 NULL, &diag);
        CHECK_MSG(status == LOOPY_EPARSE && diag.hint == cases[i].want,
                  "case %zu: status %d, hint %d (%s)", i, status, diag.hint,
                  diag.message);
        loopy_graph_free(g);
        check_case_end();
    }
    bare_cr_large();
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The readers' bins on their own, against plain counting and filling:
 * more than 2^25 vertices (bins then span 2^16 vertices each, and there
 * are more than 512), bins of 64 entries that fill and flush many times,
 * vertices at the ends of bins and of the range. */
static void bins_alone(void)
{
    const loopy_vertex n = ((loopy_vertex)1 << 26) + 5;
    const uint32_t picks = 20000;
    uint32_t *count = calloc(n, sizeof *count); /* then each list's cursor */
    uint32_t *picked = malloc(picks * sizeof *picked);
    uint32_t *sorted = malloc(picks * sizeof *sorted);
    loopy_vertex *list = malloc(picks * sizeof *list);
    edge_bins b = {0};
    uint64_t total = 0;
    uint32_t slot = 0;
    bool filled = true;
    gen_rng r;

    gen_rng_seed(&r, 99);
    if (count == NULL || picked == NULL || sorted == NULL || list == NULL)
        exit(1);
    for (uint32_t i = 0; i < picks; i++) {
        uint32_t k = gen_below32(&r, n >> 16);
        switch (gen_below32(&r, 4)) {
        case 0: /* the ends of a bin, and of the range */
            picked[i] = gen_chance(&r, 1, 2) ? k << 16 : (k << 16) - 1 + !k;
            if (gen_chance(&r, 1, 20))
                picked[i] = gen_chance(&r, 1, 2) ? 0 : n - 1;
            break;
        case 1: /* a few vertices many times: their bins fill */
            picked[i] = 12345 + 70000 * gen_below32(&r, 3);
            break;
        default:
            picked[i] = gen_below32(&r, n);
        }
    }
    memcpy(sorted, picked, picks * sizeof *sorted);
    qsort(sorted, picks, sizeof *sorted, compare_u32);

    /* Counting: count[v] is how often v was picked. */
    CHECK(loopy_i_bins_init(&b, n, 1000, 65536, false) == LOOPY_OK);
    CHECK(b.shift == 16 && b.bins == (n >> 16) + 1 && b.cap == BIN_CAP_MIN);
    for (uint32_t i = 0; i < picks && b.low != NULL; i++)
        loopy_i_count_edge(&b, picked[i], count);
    for (unsigned i = 0; i < b.bins && b.low != NULL; i++)
        loopy_i_count_bin(&b, i, count);
    loopy_i_bins_free(&b);
    for (loopy_vertex v = 0; v < n; v++)
        total += count[v];
    CHECK(total == picks);
    for (uint32_t i = 0, j; i < picks; i = j) {
        for (j = i; j < picks && sorted[j] == sorted[i]; j++) {
        }
        CHECK_MSG(count[sorted[i]] == j - i, "vertex %" PRIu32 ": %" PRIu32
                  " counted, %" PRIu32 " picked", sorted[i], count[sorted[i]],
                  j - i);
        count[sorted[i]] = slot; /* the start of its list */
        slot += j - i;
    }

    /* Filling: entry i goes to the next slot of picked[i]'s list; walking
     * back, each pick must be the last one left in its list. */
    CHECK(loopy_i_bins_init(&b, n, 1000, 65536, true) == LOOPY_OK);
    for (uint32_t i = 0; i < picks && b.value != NULL; i++)
        filled &= loopy_i_fill_edge(&b, picked[i], i, count, list, picks);
    for (unsigned i = 0; i < b.bins && b.value != NULL; i++)
        filled &= loopy_i_fill_bin(&b, i, count, list, picks);
    CHECK(filled);
    for (uint32_t i = picks; i-- > 0;)
        CHECK_MSG(list[--count[picked[i]]] == i, "pick %" PRIu32 " (vertex %"
                  PRIu32 ") at slot %" PRIu32 ": found %" PRIu32, i, picked[i],
                  count[picked[i]], list[count[picked[i]]]);
    loopy_i_bins_free(&b);
    free(count);
    free(picked);
    free(sorted);
    free(list);
    check_case_end();
}

int main(void)
{
    static const char *const damage[] = {"x", "-", "0", "9", " ", "\n", "#",
                                         "\v", "99999999999", "\r", "1 2"};
    gen_edges e = GEN_EDGES_INIT;
    text t = {NULL, 0, 0}, bad = {NULL, 0, 0};

    for (uint64_t seed = 0; seed < 300; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        uint32_t base = (uint32_t)(seed / 7 % 2);
        int threads = 1 + (int)(seed % 3);
        gen_rng r;

        gen_rng_seed(&r, seed);
        /* Some graphs big enough for several pieces of 4 KiB. */
        if (gen_graph_sized(seed, shape, seed % 10 == 0 ? 3000 : (uint32_t)
                                                              gen_below32(&r, 80),
                            &e) != 0)
            exit(1);
        quirky_text(&r, &e, base, &t);
        compare(&t, base, threads, seed % 4 == 0);
        for (int k = 0; k < 6 && t.len > 0; k++) {
            size_t at = (size_t)gen_below(&r, t.len);
            bad.len = 0;
            put(&bad, "");
            bad.data = realloc(bad.data, t.len + 16);
            memcpy(bad.data, t.data, at);
            bad.len = at;
            bad.data[at] = '\0';
            put(&bad, pick(&r, damage, 11));
            if (gen_chance(&r, 1, 2) && at + 1 < t.len) /* replace, not insert */
                at++;
            bad.data = realloc(bad.data, bad.len + t.len - at + 1);
            memcpy(bad.data + bad.len, t.data + at, t.len - at);
            bad.len += t.len - at;
            compare(&bad, base, threads, k == 0 && seed % 4 == 1);
        }
        check_case_end();
    }
    free(t.data);
    free(bad.data);
    gen_edges_free(&e);
    hints();
    bins_alone();
    return check_finish("test_read_fast");
}
