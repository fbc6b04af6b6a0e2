/*
 * test_compressed.c - graph files compressed with gzip or zstd, and edge
 * lists without a header (LOOPY_TEXT_PAIRS), read by loopy_read_file; text
 * written back with loopy_write_text.
 *
 * Compressed files are made here with zlib and libzstd, so the test needs
 * neither the gzip nor the zstd program.  It checks that
 *  - a gzip and a zstd file read as the plain file does: the same graph,
 *    or the same message at the same line and column (of the text), also
 *    for a binary graph compressed and for standard input;
 *  - every prefix of a compressed file is refused as truncated, with a
 *    message and no place; changed bytes are refused as damage (or, in
 *    gzip's header fields that carry no data, read the same graph);
 *    concatenated gzip members read as one text, other bytes after the end
 *    are refused;
 *  - a decompression bomb costs no more than its cap: 64 MiB of zeros stop
 *    at the first chunk (a NUL byte is bad text), 64 MiB of newlines are
 *    refused past the memory limit, and no allocation exceeds it by more
 *    than one chunk;
 *  - an edge list without a header, with '#' and '%' comments, reads as the
 *    same list with one, n being the largest id (by base); its errors name
 *    line and column; loopy_write_text's texts read back to the same graph
 *    in every format and base.
 */
#include "check.h"
#include "internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

typedef struct bytes {
    unsigned char *data;
    size_t len;
} bytes;

static int append(void *ctx, const void *p, size_t len)
{
    bytes *b = ctx;
    unsigned char *grown = realloc(b->data, b->len + len + 1);

    if (grown == NULL)
        return 1;
    b->data = grown;
    memcpy(b->data + b->len, p, len);
    b->len += len;
    return 0;
}

static bytes gzip_of(const void *data, size_t len)
{
    z_stream zs;
    bytes out;

    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        exit(2);
    out.len = deflateBound(&zs, (uLong)len) + 64;
    out.data = malloc(out.len);
    if (out.data == NULL)
        exit(2);
    zs.next_in = (Bytef *)(uintptr_t)data;
    zs.avail_in = (uInt)len;
    zs.next_out = out.data;
    zs.avail_out = (uInt)out.len;
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
        exit(2);
    out.len -= zs.avail_out;
    deflateEnd(&zs);
    return out;
}

/* With a checksum of the content, as the zstd program writes by default. */
static bytes zstd_of(const void *data, size_t len)
{
    bytes out;
    size_t bound = ZSTD_compressBound(len);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();

    out.data = malloc(bound);
    if (out.data == NULL || cctx == NULL ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)))
        exit(2);
    out.len = ZSTD_compress2(cctx, out.data, bound, data, len);
    if (ZSTD_isError(out.len))
        exit(2);
    ZSTD_freeCCtx(cctx);
    return out;
}

/* Reads data[0..len) as a file (or, with from_stdin, as standard input
 * redirected from a pipe) with loopy_read_file. */
static loopy_status load(const void *data, size_t len,
                         const loopy_read_options *opt, bool from_stdin,
                         loopy_graph **out, loopy_diag *diag)
{
    char path[] = "/tmp/loopy_test_compressed_XXXXXX";
    int fd = mkstemp(path);
    loopy_status status;

    if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
        fputs("test_compressed: cannot write a temporary file\n", stderr);
        exit(2);
    }
    close(fd);
    memset(diag, 0, sizeof *diag);
    if (from_stdin) {
        /* A pipe, which cannot be mapped: cat the file into it. */
        char cmd[128];
        FILE *pipe;
        int saved = dup(STDIN_FILENO);

        snprintf(cmd, sizeof cmd, "cat %s", path);
        pipe = popen(cmd, "r");
        if (pipe == NULL || saved < 0)
            exit(2);
        dup2(fileno(pipe), STDIN_FILENO);
        status = loopy_read_file("-", opt, out, diag);
        dup2(saved, STDIN_FILENO);
        close(saved);
        pclose(pipe);
    } else {
        status = loopy_read_file(path, opt, out, diag);
    }
    unlink(path);
    return status;
}

static bool same_graph(const loopy_graph *a, const loopy_graph *b)
{
    if (loopy_graph_vertex_count(a) != loopy_graph_vertex_count(b) ||
        loopy_graph_edge_count(a) != loopy_graph_edge_count(b) ||
        loopy_graph_base(a) != loopy_graph_base(b))
        return false;
    for (loopy_vertex v = 0; v < loopy_graph_vertex_count(a); v++) {
        loopy_edge ka, kb;
        const loopy_vertex *sa = loopy_graph_successors(a, v, &ka);
        const loopy_vertex *sb = loopy_graph_successors(b, v, &kb);

        if (ka != kb || (ka > 0 && memcmp(sa, sb, ka * sizeof *sa) != 0))
            return false;
    }
    return true;
}

static bool same_diag(const loopy_diag *a, const loopy_diag *b)
{
    return a->line == b->line && a->column == b->column &&
           a->hint == b->hint && strcmp(a->message, b->message) == 0;
}

static const char game[] =
    "# a test graph\n7 10\n1 2\n2 3\n3 4\n4 2\n5 6\n6 7\n5 5\n1 5\n1 5\n7 3\n";

/* A text reads the same plain, gzipped and zstd-compressed, from a file
 * and from a pipe. */
static void same_as_plain(const char *what, const char *text, size_t len,
                          loopy_text_format format)
{
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *plain = NULL;
    loopy_diag plain_diag;
    loopy_status plain_status;
    bytes packed[2] = {gzip_of(text, len), zstd_of(text, len)};

    opt.format = format;
    plain_status = load(text, len, &opt, false, &plain, &plain_diag);
    for (int k = 0; k < 2; k++)
        for (int from_stdin = 0; from_stdin <= 1; from_stdin++) {
            loopy_graph *g = NULL;
            loopy_diag diag;
            loopy_status status = load(packed[k].data, packed[k].len, &opt,
                                       from_stdin, &g, &diag);

            CHECK_MSG(status == plain_status, "%s (%s%s): status %d, plain %d:"
                      " %s", what, k ? "zstd" : "gzip",
                      from_stdin ? ", a pipe" : "", (int)status,
                      (int)plain_status, diag.message);
            if (status == LOOPY_OK && plain_status == LOOPY_OK)
                CHECK_MSG(same_graph(plain, g), "%s: another graph", what);
            else if (status == plain_status)
                CHECK_MSG(same_diag(&diag, &plain_diag), "%s: %" PRIu64 ":%"
                          PRIu64 " '%s', plain %" PRIu64 ":%" PRIu64 " '%s'",
                          what, diag.line, diag.column, diag.message,
                          plain_diag.line, plain_diag.column,
                          plain_diag.message);
            loopy_graph_free(g);
        }
    loopy_graph_free(plain);
    free(packed[0].data);
    free(packed[1].data);
    check_case_end();
}

static void test_same_as_plain(void)
{
#define CASE(what, text, format) {what, text, sizeof text - 1, format}
    static const struct {
        const char *what, *text;
        size_t len;
        loopy_text_format format;
    } cases[] = {
        CASE("adjacency lists", "3 3\n2 2 3\n1 3\n0\n", LOOPY_TEXT_ADJ),
        CASE("pairs with comments", "% konect\n1 2 # a\n2 3\n3 1\n",
             LOOPY_TEXT_PAIRS),
        CASE("bad token", "3 2\n1 2\n2 x\n", LOOPY_TEXT_EDGES),
        CASE("too few edges", "3 3\n1 2\n2 3\n", LOOPY_TEXT_EDGES),
        CASE("base hint", "3 1\n0 1\n", LOOPY_TEXT_EDGES),
        CASE("NUL byte", "3 1\n1\0002\n", LOOPY_TEXT_EDGES),
        CASE("NUL in a comment", "3 1 # a\000b\n1 2\n", LOOPY_TEXT_EDGES),
        CASE("empty", "", LOOPY_TEXT_EDGES),
        CASE("bare CR", "3 2\r1 2\r2 3\r", LOOPY_TEXT_EDGES),
    };
#undef CASE

    same_as_plain("a game", game, strlen(game), LOOPY_TEXT_EDGES);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        same_as_plain(cases[i].what, cases[i].text, cases[i].len,
                      cases[i].format);
}

/* A binary graph compressed reads as the binary file. */
static void test_binary_compressed(void)
{
    loopy_graph *g = NULL, *again = NULL;
    loopy_diag diag;
    bytes bin = {NULL, 0}, gz;

    CHECK(loopy_read_text(game, strlen(game), NULL, &g, NULL, &diag) == LOOPY_OK);
    CHECK(loopy_write_binary(g, append, &bin) == LOOPY_OK);
    gz = gzip_of(bin.data, bin.len);
    CHECK(load(gz.data, gz.len, NULL, false, &again, &diag) == LOOPY_OK);
    CHECK(again != NULL && same_graph(g, again));
    loopy_graph_free(again);
    loopy_graph_free(g);
    free(bin.data);
    free(gz.data);
    check_case_end();
}

/* Every prefix is truncated; damaged bytes are refused or harmless. */
static void test_truncated_and_damaged(void)
{
    bytes packed[2] = {gzip_of(game, strlen(game)), zstd_of(game, strlen(game))};
    loopy_graph *plain = NULL;
    loopy_diag diag;

    CHECK(loopy_read_text(game, strlen(game), NULL, &plain, NULL, &diag) ==
          LOOPY_OK);
    for (int k = 0; k < 2; k++) {
        const char *want = k ? "truncated zstd file: it ends inside the "
                               "compressed data"
                             : "truncated gzip file: it ends inside the "
                               "compressed data";

        for (size_t cut = k ? 4 : 2; cut < packed[k].len; cut++) {
            loopy_graph *g = NULL;
            loopy_status status = load(packed[k].data, cut, NULL, false, &g,
                                       &diag);
            CHECK_MSG(status == LOOPY_EFORMAT && g == NULL &&
                          strcmp(diag.message, want) == 0 && diag.line == 0,
                      "%s cut to %zu bytes: %d '%s'", k ? "zstd" : "gzip", cut,
                      (int)status, diag.message);
        }
        for (size_t at = 0; at < packed[k].len; at++) {
            loopy_graph *g = NULL;
            loopy_status status;

            packed[k].data[at] ^= 0x5a;
            status = load(packed[k].data, packed[k].len, NULL, false, &g, &diag);
            packed[k].data[at] ^= 0x5a;
            /* Refused as damaged; or as bad text: a changed magic makes
             * the bytes text, and damage that decompresses to a NUL byte
             * stops the decompression there, before the checksum.  gzip's
             * header has fields that change nothing (time, system). */
            if (status == LOOPY_OK)
                CHECK_MSG(same_graph(plain, g), "%s byte %zu changed: "
                          "another graph read", k ? "zstd" : "gzip", at);
            else
                CHECK_MSG(status == LOOPY_EFORMAT || status == LOOPY_EPARSE,
                          "%s byte %zu changed: %d '%s'", k ? "zstd" : "gzip",
                          at, (int)status, diag.message);
            loopy_graph_free(g);
        }
    }
    /* Two gzip members are one text; other bytes after the end are not. */
    {
        const char *head = "3 2\n1 2\n", *tail = "2 3\n";
        bytes a = gzip_of(head, strlen(head)), b = gzip_of(tail, strlen(tail));
        unsigned char *both = malloc(a.len + b.len + 1);
        loopy_graph *g = NULL;

        memcpy(both, a.data, a.len);
        memcpy(both + a.len, b.data, b.len);
        CHECK(load(both, a.len + b.len, NULL, false, &g, &diag) == LOOPY_OK &&
              loopy_graph_edge_count(g) == 2);
        loopy_graph_free(g);
        g = NULL;
        both[a.len] = 'x';
        CHECK(load(both, a.len + 1, NULL, false, &g, &diag) == LOOPY_EFORMAT &&
              strstr(diag.message, "follow its end") != NULL);
        free(both);
        free(a.data);
        free(b.data);
    }
    loopy_graph_free(plain);
    free(packed[0].data);
    free(packed[1].data);
    check_case_end();
}

/* Decompression bombs: zeros stop at once, other bytes at the limit. */
static void test_bombs(void)
{
    size_t size = (size_t)64 << 20;
    char *big = malloc(size);
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *g = NULL;
    loopy_diag diag;
    loopy_status status;
    bytes packed;

    if (big == NULL)
        exit(2);
    memset(big, 0, size);
    packed = zstd_of(big, size);
    loopy_i_alloc_fail_at(0); /* resets the largest request */
    status = load(packed.data, packed.len, NULL, false, &g, &diag);
    CHECK_MSG(status == LOOPY_EPARSE && diag.line == 1 && diag.column == 1,
              "zeros: %d '%s'", (int)status, diag.message);
    CHECK_MSG(loopy_i_alloc_largest() <= ((size_t)4 << 20),
              "zeros: an allocation of %" PRIu64 " bytes",
              loopy_i_alloc_largest());
    free(packed.data);

    memset(big, '\n', size);
    packed = gzip_of(big, size);
    opt.memory_limit = (uint64_t)8 << 20;
    loopy_i_alloc_fail_at(0);
    status = load(packed.data, packed.len, &opt, false, &g, &diag);
    CHECK_MSG(status == LOOPY_ETOOBIG && diag.line == 0 &&
                  strstr(diag.message, "decompresses to more than") != NULL,
              "newlines: %d '%s'", (int)status, diag.message);
    CHECK_MSG(loopy_i_alloc_largest() <= ((size_t)9 << 20),
              "newlines: an allocation of %" PRIu64 " bytes",
              loopy_i_alloc_largest());
    /* Without the limit they are read: a text without its header. */
    opt.memory_limit = 0;
    status = load(packed.data, packed.len, &opt, false, &g, &diag);
    CHECK_MSG(status == LOOPY_EPARSE && diag.line == ((uint64_t)64 << 20) + 1,
              "newlines without a limit: %d '%s' at line %" PRIu64,
              (int)status, diag.message, diag.line);
    free(packed.data);
    free(big);
    check_case_end();
}

/* Reads text with format and base from memory. */
static loopy_status read_as(const char *text, loopy_text_format format,
                            uint32_t base, loopy_graph **out, loopy_diag *diag)
{
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;

    opt.format = format;
    opt.base = base;
    memset(diag, 0, sizeof *diag);
    return loopy_read_text(text, strlen(text), &opt, out, NULL, diag);
}

static void test_pairs(void)
{
    loopy_graph *pairs = NULL, *edges = NULL, *g = NULL;
    loopy_diag diag;

    /* SNAP's layout: 0-based, tabs, '#' lines; n = largest id + 1. */
    CHECK(read_as("# Directed graph\n# Nodes: 5 Edges: 5\n0\t1\n1\t2\n2\t0\n"
                  "2\t4\n4\t4\n", LOOPY_TEXT_PAIRS, 0, &pairs, &diag) == LOOPY_OK);
    CHECK(read_as("5 5\n0 1\n1 2\n2 0\n2 4\n4 4\n", LOOPY_TEXT_EDGES, 0, &edges,
                  &diag) == LOOPY_OK);
    CHECK(pairs != NULL && edges != NULL && same_graph(pairs, edges));
    loopy_graph_free(pairs);
    loopy_graph_free(edges);
    pairs = edges = NULL;
    /* KONECT's: '%' lines, 1-based; a comment after a number. */
    CHECK(read_as("% sym unweighted\n1 2%c\n2 3 # d\n\n3 1\r\n",
                  LOOPY_TEXT_PAIRS, 1, &pairs, &diag) == LOOPY_OK);
    CHECK(pairs != NULL && loopy_graph_vertex_count(pairs) == 3 &&
          loopy_graph_edge_count(pairs) == 3);
    loopy_graph_free(pairs);
    pairs = NULL;
    /* '%' is no comment in the formats with a header. */
    CHECK(read_as("2 1\n1 2 %c\n", LOOPY_TEXT_EDGES, 1, &g, &diag) ==
              LOOPY_EPARSE &&
          diag.line == 2 && diag.column == 5);
    /* No edges: no vertices. */
    CHECK(read_as("# nothing\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) == LOOPY_OK &&
          loopy_graph_vertex_count(g) == 0);
    loopy_graph_free(g);
    g = NULL;
    /* Errors: the place, the range, the hint of the other base only. */
    CHECK(read_as("1 2\n2 x\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) == LOOPY_EPARSE);
    CHECK_MSG(diag.line == 2 && diag.column == 3 &&
                  strcmp(diag.message, "expected the edge's second vertex (a "
                         "vertex from 1 to 4294967294), found 'x'") == 0,
              "%" PRIu64 ":%" PRIu64 " %s", diag.line, diag.column,
              diag.message);
    CHECK(read_as("0 1\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) == LOOPY_EPARSE &&
          diag.hint == LOOPY_HINT_BASE_0);
    CHECK(read_as("1 2 3\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) == LOOPY_EPARSE &&
          diag.column == 5 && diag.hint == LOOPY_HINT_NONE);
    CHECK(read_as("1 4294967295\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) ==
          LOOPY_EPARSE);
    /* The largest id is in range, and n = 4294967294 then too big for
     * memory: refused at its edge before anything is allocated for it. */
    CHECK(read_as("1 4294967294\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) ==
              LOOPY_ETOOBIG &&
          diag.line == 1 && diag.column == 1 &&
          strncmp(diag.message, "n = 4294967294 and m = 1 need about",
                  35) == 0);
    /* A text with a header reads as pairs too (its first line an edge):
     * why the format is never guessed. */
    CHECK(read_as("3 2\n1 2\n2 3\n", LOOPY_TEXT_PAIRS, 1, &g, &diag) ==
              LOOPY_OK &&
          loopy_graph_edge_count(g) == 3);
    loopy_graph_free(g);
    check_case_end();
}

/* loopy_write_text reads back to the same graph in every format and base. */
static void test_write_text(void)
{
    loopy_graph *g = NULL, *isolated = NULL;
    loopy_diag diag;
    bytes out = {NULL, 0};

    CHECK(read_as(game, LOOPY_TEXT_EDGES, 1, &g, &diag) == LOOPY_OK);
    for (int f = 0; f < 3; f++)
        for (uint32_t base = 0; base <= 1; base++) {
            loopy_graph *again = NULL;

            out.len = 0;
            CHECK(loopy_write_text(g, (loopy_text_format)f, base, append,
                                   &out) == LOOPY_OK);
            append(&out, "", 1);
            CHECK_MSG(read_as((char *)out.data, (loopy_text_format)f, base,
                              &again, &diag) == LOOPY_OK,
                      "format %d base %u: %s", f, (unsigned)base, diag.message);
            /* The base read is the one written: compare lists only. */
            CHECK(again != NULL &&
                  loopy_graph_vertex_count(again) == loopy_graph_vertex_count(g));
            if (again != NULL)
                again->base = g->base;
            CHECK(again != NULL && same_graph(g, again));
            loopy_graph_free(again);
        }
    out.len = 0;
    CHECK(loopy_write_text(g, LOOPY_TEXT_EDGES, 1, append, &out) == LOOPY_OK);
    CHECK(out.len == 45 && memcmp(out.data, "7 10\n1 2\n1 5\n1 5\n2 3\n", 21) == 0);
    /* A last vertex on no edge cannot be written as pairs. */
    CHECK(read_as("3 1\n1 2\n", LOOPY_TEXT_EDGES, 1, &isolated, &diag) == LOOPY_OK);
    CHECK(loopy_write_text(isolated, LOOPY_TEXT_PAIRS, 1, append, &out) ==
          LOOPY_EINVAL);
    CHECK(loopy_write_text(isolated, LOOPY_TEXT_EDGES, 2, append, &out) ==
          LOOPY_EINVAL);
    loopy_graph_free(isolated);
    loopy_graph_free(g);
    free(out.data);
    check_case_end();
}

int main(void)
{
    test_same_as_plain();
    test_binary_compressed();
    test_truncated_and_damaged();
    test_bombs();
    test_pairs();
    test_write_text();
    return check_finish("test_compressed");
}
