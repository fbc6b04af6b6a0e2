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
 *  - a decompression bomb costs no more than the window the text is read
 *    through: 64 MiB of zeros stop at the first chunk (a NUL byte is bad
 *    text), 64 MiB of newlines or of comment are read, under a memory
 *    limit of 8 MiB too, and no allocation follows their size;
 *  - texts over 16 MiB (whose errors are not read again in memory) say
 *    what the plain text says, where it says it, after long runs of
 *    blanks, blank lines, comments and digits;
 *  - zstd's skippable frames are skipped, windows of zstd --long are read
 *    as far as the memory allows, and a larger one is refused by its
 *    size;
 *  - a compressed binary graph shorter or longer than its header says is
 *    refused as the plain file is, the extra bytes only counted;
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

/* Reads a compressed file with a fresh count of the largest allocation:
 * memory that follows the decompressed size shows there. */
static loopy_status load_counted(const bytes *packed,
                                 const loopy_read_options *opt,
                                 loopy_graph **out, loopy_diag *diag,
                                 uint64_t *largest)
{
    loopy_status status;

    loopy_i_alloc_fail_at(0); /* resets the largest request */
    status = load(packed->data, packed->len, opt, false, out, diag);
    *largest = loopy_i_alloc_largest();
    return status;
}

/* Decompression bombs: zeros stop at once (a NUL byte is bad text), and
 * newlines, whatever their number, are read in a window: no allocation
 * follows the decompressed size, with a memory limit far below it or
 * without one. */
static void test_bombs(void)
{
    size_t size = (size_t)64 << 20;
    char *big = malloc(size);
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *g = NULL;
    loopy_diag diag;
    loopy_status status;
    uint64_t largest;
    bytes packed;

    if (big == NULL)
        exit(2);
    memset(big, 0, size);
    packed = zstd_of(big, size);
    status = load_counted(&packed, NULL, &g, &diag, &largest);
    CHECK_MSG(status == LOOPY_EPARSE && diag.line == 1 && diag.column == 1,
              "zeros: %d '%s'", (int)status, diag.message);
    CHECK_MSG(largest <= ((size_t)4 << 20),
              "zeros: an allocation of %" PRIu64 " bytes", largest);
    free(packed.data);

    memset(big, '\n', size);
    packed = gzip_of(big, size);
    for (int limited = 0; limited <= 1; limited++) {
        opt.memory_limit = limited ? (uint64_t)8 << 20 : 0;
        status = load_counted(&packed, &opt, &g, &diag, &largest);
        CHECK_MSG(status == LOOPY_EPARSE &&
                      diag.line == ((uint64_t)64 << 20) + 1 &&
                      diag.column == 1 &&
                      strcmp(diag.message, "expected the vertex count n, "
                             "found end of file") == 0,
                  "newlines%s: %d '%s' at line %" PRIu64,
                  limited ? " under 8 MiB" : "", (int)status, diag.message,
                  diag.line);
        CHECK_MSG(largest <= ((size_t)2 << 20),
                  "newlines: an allocation of %" PRIu64 " bytes", largest);
    }
    free(packed.data);

    /* A graph, then 64 MiB of comment: read, in the window. */
    {
        static const char head[] = "3 2\n1 2\n2 3\n#";
        loopy_graph *small = NULL;
        memcpy(big, head, sizeof head - 1);
        memset(big + sizeof head - 1, 'c', size - sizeof head);
        big[size - 1] = '\n';
        packed = zstd_of(big, size);
        status = load_counted(&packed, NULL, &g, &diag, &largest);
        CHECK_MSG(status == LOOPY_OK, "comment: %d '%s'", (int)status,
                  diag.message);
        CHECK(loopy_read_text(head, sizeof head - 1, NULL, &small, NULL,
                              &diag) == LOOPY_OK);
        CHECK(g != NULL && small != NULL && same_graph(g, small));
        CHECK_MSG(largest <= ((size_t)2 << 20),
                  "comment: an allocation of %" PRIu64 " bytes", largest);
        loopy_graph_free(g);
        loopy_graph_free(small);
        g = NULL;
        free(packed.data);
    }
    free(big);
    check_case_end();
}

/* Texts over the size whose errors are read again in memory (16 MiB):
 * the window's own reading must say what the plain text's does, at the
 * same place (columns that slid out of the window, lines, long tokens,
 * the end of the file inside a comment, the bare-'\r' hint), and no
 * allocation may follow the text's size. */
static void same_big(const char *what, const char *head, char fill,
                     const char *tail, size_t tail_len,
                     loopy_text_format format)
{
    size_t filler = ((size_t)17 << 20) + 12345;
    size_t len = strlen(head) + filler + tail_len;
    char *text = malloc(len + 1);
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *plain = NULL, *g = NULL;
    loopy_diag plain_diag, diag;
    loopy_status plain_status, status;
    uint64_t largest;
    bytes packed;

    if (text == NULL)
        exit(2);
    memcpy(text, head, strlen(head));
    memset(text + strlen(head), fill, filler);
    memcpy(text + strlen(head) + filler, tail, tail_len);
    opt.format = format;
    memset(&plain_diag, 0, sizeof plain_diag);
    plain_status = loopy_read_text(text, len, &opt, &plain, NULL, &plain_diag);
    packed = zstd_of(text, len);
    status = load_counted(&packed, &opt, &g, &diag, &largest);
    CHECK_MSG(status == plain_status, "%s: status %d, plain %d: '%s'", what,
              (int)status, (int)plain_status, diag.message);
    if (status == LOOPY_OK && plain_status == LOOPY_OK)
        CHECK_MSG(same_graph(plain, g), "%s: another graph", what);
    else
        CHECK_MSG(same_diag(&diag, &plain_diag), "%s: %" PRIu64 ":%" PRIu64
                  " '%s' (hint %d), plain %" PRIu64 ":%" PRIu64 " '%s' "
                  "(hint %d)", what, diag.line, diag.column, diag.message,
                  (int)diag.hint, plain_diag.line, plain_diag.column,
                  plain_diag.message, (int)plain_diag.hint);
    CHECK_MSG(largest <= ((size_t)2 << 20),
              "%s: an allocation of %" PRIu64 " bytes", what, largest);
    loopy_graph_free(plain);
    loopy_graph_free(g);
    free(packed.data);
    free(text);
    check_case_end();
}

/* A tail given as a literal: its bytes and their number (NULs too). */
#define TAIL(text) text, sizeof text - 1

static void test_big_texts(void)
{
    same_big("leading zeros", "3 1\n", '0', TAIL("1 2\n"), LOOPY_TEXT_EDGES);
    same_big("leading zeros, out of range", "3 1\n", '0', TAIL("4 2\n"),
             LOOPY_TEXT_EDGES);
    same_big("a number too large", "3 1\n1 ", '9', TAIL("\n"),
             LOOPY_TEXT_EDGES);
    same_big("digits then a letter", "3 1\n", '0', TAIL("x 2\n"),
             LOOPY_TEXT_EDGES);
    same_big("blanks, then a bad token", "3 1\n1", ' ', TAIL("x\n"),
             LOOPY_TEXT_EDGES);
    same_big("blanks between two vertices", "3 1\n1", '\t', TAIL("2\n"),
             LOOPY_TEXT_EDGES);
    same_big("blank lines, then too few edges", "3 2\n1 2\n", '\n', TAIL(""),
             LOOPY_TEXT_EDGES);
    same_big("the end of the file in a comment", "3 1\n#", 'c', TAIL(""),
             LOOPY_TEXT_EDGES);
    same_big("a comment, then an end of line", "3 # ", 'c',
             TAIL("\n1 2\n"), LOOPY_TEXT_EDGES);
    same_big("bare CR", "3 2\r1 2\r2 3\r\n#", 'c', TAIL("\n"),
             LOOPY_TEXT_EDGES);
    same_big("adjacency lists", "3 2\n2 2 ", ' ', TAIL("3\n0\n0\n"),
             LOOPY_TEXT_ADJ);
    same_big("pairs with % comments", "1 2\n%", '%', TAIL("\n2 3\n3 x\n"),
             LOOPY_TEXT_PAIRS);
    same_big("a NUL after blank lines", "3 1\n", '\n', TAIL("1 \0 2\n"),
             LOOPY_TEXT_EDGES);
    same_big("a NUL in a comment", "3 1\n#", 'c', TAIL("\0\n1 2\n"),
             LOOPY_TEXT_EDGES);
}

/* A frame header that announces a window of (8 + mantissa) << (exponent
 * + 7) bytes, then one raw block holding text (RFC 8878). */
static bytes zstd_with_window(unsigned exponent, unsigned mantissa,
                              const char *text)
{
    size_t len = strlen(text);
    bytes out;
    uint32_t block = 1u | (uint32_t)len << 3; /* last, raw */

    out.len = 6 + 3 + len;
    out.data = malloc(out.len);
    if (out.data == NULL)
        exit(2);
    memcpy(out.data, "\x28\xb5\x2f\xfd", 4);
    out.data[4] = 0x00; /* no content size, no checksum, no dictionary */
    out.data[5] = (unsigned char)(exponent << 3 | mantissa);
    out.data[6] = (unsigned char)block;
    out.data[7] = (unsigned char)(block >> 8);
    out.data[8] = (unsigned char)(block >> 16);
    memcpy(out.data + 9, text, len);
    return out;
}

/* zstd as its tools write it: skippable frames (pzstd's first frame) and
 * windows of zstd --long. */
static void test_zstd_frames(void)
{
    static const char text[] = "3 2\n1 2\n2 3\n";
    bytes plain = zstd_of(text, sizeof text - 1), both;
    loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
    loopy_graph *want = NULL, *g = NULL;
    loopy_diag diag;
    loopy_status status;

    CHECK(loopy_read_text(text, sizeof text - 1, NULL, &want, NULL, &diag) ==
          LOOPY_OK);
    /* A skippable frame first (magic 0x184D2A50 .. 5F), and between two
     * frames: skipped, from a file and from a pipe. */
    both.data = malloc(2 * (plain.len + 16));
    if (both.data == NULL)
        exit(2);
    for (unsigned variant = 0; variant < 16; variant += 15)
        for (int from_stdin = 0; from_stdin <= 1; from_stdin++) {
            both.len = 0;
            for (int k = 0; k < 2; k++) {
                both.data[both.len++] = (unsigned char)(0x50 + variant);
                memcpy(both.data + both.len, "\x2a\x4d\x18\x05\x00\x00\x00"
                       "skip!", 12);
                both.len += 12;
                memcpy(both.data + both.len, plain.data, plain.len);
                both.len += k == 0 ? plain.len : 0;
            }
            status = load(both.data, both.len, NULL, from_stdin, &g, &diag);
            CHECK_MSG(status == LOOPY_OK && same_graph(g, want),
                      "skippable frames (%s): %d '%s'",
                      from_stdin ? "pipe" : "file", (int)status, diag.message);
            loopy_graph_free(g);
            g = NULL;
        }
    /* Only a skippable frame: an empty text; cut short: truncated. */
    status = load(both.data, 13, NULL, false, &g, &diag);
    CHECK_MSG(status == LOOPY_EPARSE && strcmp(diag.message, "expected the "
              "vertex count n, found end of file") == 0, "a skippable frame "
              "alone: %d '%s'", (int)status, diag.message);
    status = load(both.data, 10, NULL, false, &g, &diag);
    CHECK_MSG(status == LOOPY_EFORMAT && strncmp(diag.message, "truncated "
              "zstd file", 18) == 0, "a cut skippable frame: %d '%s'",
              (int)status, diag.message);
    free(both.data);

    /* A window of 1 GiB (zstd --long=30 writing to a pipe, where the size
     * is not known): read; under a memory limit of 256 MiB, refused with
     * the window named. */
    {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        ZSTD_inBuffer in = {text, sizeof text - 1, 0};
        ZSTD_outBuffer out;
        bytes long30;

        long30.data = malloc(256);
        out.dst = long30.data;
        out.size = 256;
        out.pos = 0;
        if (cctx == NULL || long30.data == NULL ||
            ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, 30)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(
                cctx, ZSTD_c_enableLongDistanceMatching, 1)) ||
            ZSTD_isError(ZSTD_compressStream2(cctx, &out, &in,
                                              ZSTD_e_continue)) ||
            ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end) != 0)
            exit(2);
        long30.len = out.pos;
        ZSTD_freeCCtx(cctx);
        CHECK(long30.len > 5 && (long30.data[5] >> 3) == 20); /* 2^30 */
        status = load(long30.data, long30.len, NULL, false, &g, &diag);
        CHECK_MSG(status == LOOPY_OK && same_graph(g, want),
                  "a 1 GiB window: %d '%s'", (int)status, diag.message);
        loopy_graph_free(g);
        g = NULL;
        opt.memory_limit = (uint64_t)256 << 20;
        status = load(long30.data, long30.len, &opt, false, &g, &diag);
        CHECK_MSG(status == LOOPY_ETOOBIG && diag.line == 0 &&
                      strcmp(diag.message, "the zstd data needs a window of "
                             "1024 MiB (as zstd --long=30 makes), more than "
                             "the 256 MiB that the memory allows") == 0,
                  "a 1 GiB window under 256 MiB: %d '%s'", (int)status,
                  diag.message);
        free(long30.data);
    }
    /* A window over zstd's largest (3840 MiB): refused, named. */
    {
        bytes huge = zstd_with_window(21, 7, text), fine = zstd_with_window(
                                                        21, 0, text);
        status = load(huge.data, huge.len, NULL, false, &g, &diag);
        CHECK_MSG(status == LOOPY_ETOOBIG &&
                      strncmp(diag.message, "the zstd data needs a window of "
                              "3840 MiB, more than the ", 55) == 0,
                  "a 3840 MiB window: %d '%s'", (int)status, diag.message);
        /* 2 GiB, as much as zstd decodes: read where memory allows. */
        if (loopy_i_physical_memory() >= ((uint64_t)2 << 30)) {
            status = load(fine.data, fine.len, NULL, false, &g, &diag);
            CHECK_MSG(status == LOOPY_OK && same_graph(g, want),
                      "a 2 GiB window: %d '%s'", (int)status, diag.message);
            loopy_graph_free(g);
            g = NULL;
        }
        free(huge.data);
        free(fine.data);
    }
    loopy_graph_free(want);
    free(plain.data);
    check_case_end();
}

/* A binary graph compressed: refused as the plain file is when it is
 * shorter or longer than its header says; the decompressed bytes past the
 * announced size are counted, not kept. */
static void test_binary_lengths(void)
{
    loopy_graph *g = NULL, *again = NULL;
    loopy_diag diag, plain_diag;
    bytes bin = {NULL, 0}, gz;
    loopy_status status, plain_status;
    size_t extra = (size_t)32 << 20;
    uint64_t largest;

    CHECK(loopy_read_text(game, strlen(game), NULL, &g, NULL, &diag) == LOOPY_OK);
    CHECK(loopy_write_binary(g, append, &bin) == LOOPY_OK);
    /* Cut short, with 32 MiB of zeros after it, with a damaged magic. */
    for (int k = 0; k < 3; k++) {
        size_t len = k == 0 ? bin.len - 3 : k == 1 ? bin.len + extra : bin.len;
        unsigned char *data = calloc(len, 1);
        if (data == NULL)
            exit(2);
        memcpy(data, bin.data, k == 0 ? len : bin.len);
        if (k == 2)
            data[3] = 'X';
        plain_status = load(data, len, NULL, false, &again, &plain_diag);
        gz = gzip_of(data, len);
        status = load_counted(&gz, NULL, &again, &diag, &largest);
        CHECK_MSG(status == LOOPY_EFORMAT && status == plain_status &&
                      same_diag(&diag, &plain_diag),
                  "binary %s: %d '%s', plain %d '%s'",
                  k == 0 ? "shorter" : k == 1 ? "longer" : "magic",
                  (int)status, diag.message,
                  (int)plain_status, plain_diag.message);
        CHECK_MSG(largest <= ((size_t)2 << 20),
                  "binary: an allocation of %" PRIu64 " bytes", largest);
        free(gz.data);
        free(data);
    }
    /* Held in memory: past the memory limit, refused as too big. */
    {
        loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
        opt.memory_limit = bin.len - 1;
        gz = gzip_of(bin.data, bin.len);
        status = load(gz.data, gz.len, &opt, false, &again, &diag);
        CHECK_MSG(status == LOOPY_ETOOBIG &&
                      strstr(diag.message, "decompresses to more than") != NULL,
                  "binary over the limit: %d '%s'", (int)status, diag.message);
        opt.memory_limit = bin.len;
        status = load(gz.data, gz.len, &opt, false, &again, &diag);
        CHECK_MSG(status == LOOPY_OK && same_graph(g, again),
                  "binary at the limit: %d '%s'", (int)status, diag.message);
        loopy_graph_free(again);
        free(gz.data);
    }
    loopy_graph_free(g);
    free(bin.data);
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
    test_big_texts();
    test_zstd_frames();
    test_binary_lengths();
    test_pairs();
    test_write_text();
    return check_finish("test_compressed");
}
