/*
 * read_compressed.c - fuzz the reading of gzip and zstd files
 * (lib/io/decompress.c, through loopy_read_file).
 *
 * The input is a file's bytes.  Read as they are (through a temporary file),
 * they must give a graph or a sensible failure: damaged compressed data is
 * LOOPY_EFORMAT with a one-line message and no place.  Unless they already
 * start like compressed data, they are also compressed here with gzip and
 * with zstd, and both files must read exactly as the plain file does: the
 * same status, message, line, column and hint, the same graph.  Every
 * shorter prefix of either compressed file (from the 4th byte) must fail,
 * as truncated data (LOOPY_EFORMAT) when the text holds no NUL byte (a NUL
 * outside a comment stops the decompression early, and the text's own
 * error comes first).  The zstd file after a skippable frame reads the
 * same too.  The text is read as it is decompressed, never held
 * whole: with a memory limit below its size, the zstd file still reads as
 * the plain file does under that limit.  Each read is done with the
 * edge-list format and the header-less one (which also takes '%').
 * Inputs that are compressed already (gzip, zstd, and zstd starting with
 * a skippable frame) are read as they are.
 */
/* mkstemp, fdopen */
#define _DEFAULT_SOURCE

#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define MEMORY_LIMIT (1u << 20)

/* Writes bytes to a new temporary file; its name goes to path. */
static void write_temp(const void *bytes, size_t len, char *path, size_t size)
{
    const char *dir = getenv("TMPDIR");
    FILE *f;
    int fd;

    snprintf(path, size, "%s/loopy-fuzz-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    fd = mkstemp(path);
    FUZZ_REQUIRE(fd >= 0, "mkstemp %s", path);
    f = fdopen(fd, "wb");
    FUZZ_REQUIRE(f != NULL, "fdopen");
    FUZZ_REQUIRE((len == 0 || fwrite(bytes, 1, len, f) == len) &&
                     fclose(f) == 0,
                 "writing %s", path);
}

static loopy_status read_bytes(const void *bytes, size_t len,
                               const loopy_read_options *opt,
                               loopy_graph **out, loopy_diag *diag)
{
    char path[4096];
    loopy_status status;

    write_temp(bytes, len, path, sizeof path);
    memset(diag, 0, sizeof *diag);
    status = loopy_read_file(path, opt, out, diag);
    unlink(path);
    FUZZ_REQUIRE((status == LOOPY_OK) == (*out != NULL), "status %d, graph %p",
                 (int)status, (void *)*out);
    return status;
}

/* A failure that is not about a place in a text: one line, no place. */
static void require_placeless(loopy_status status, const loopy_diag *diag)
{
    size_t len = strnlen(diag->message, sizeof diag->message);

    FUZZ_REQUIRE(len > 0 && len < sizeof diag->message, "empty message");
    for (size_t i = 0; i < len; i++)
        FUZZ_REQUIRE((unsigned char)diag->message[i] >= 0x20 &&
                         (unsigned char)diag->message[i] < 0x7f,
                     "byte %d in '%s'", diag->message[i], diag->message);
    FUZZ_REQUIRE(diag->line == 0 && diag->column == 0, "%d at %" PRIu64 ":%"
                 PRIu64 ": %s", (int)status, diag->line, diag->column,
                 diag->message);
}

static uint8_t *gzip_bytes(const uint8_t *data, size_t size, size_t *len)
{
    z_stream zs;
    uint8_t *out;
    size_t bound;

    memset(&zs, 0, sizeof zs);
    FUZZ_REQUIRE(deflateInit2(&zs, 6, Z_DEFLATED, 16 + 15, 8,
                              Z_DEFAULT_STRATEGY) == Z_OK, "deflateInit2");
    bound = deflateBound(&zs, (uLong)size) + 32;
    out = malloc(bound);
    FUZZ_REQUIRE(out != NULL, "out of memory");
    zs.next_in = (Bytef *)(uintptr_t)data;
    zs.avail_in = (uInt)size;
    zs.next_out = out;
    zs.avail_out = (uInt)bound;
    FUZZ_REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END, "deflate");
    *len = bound - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

static uint8_t *zstd_bytes(const uint8_t *data, size_t size, size_t *len)
{
    size_t bound = ZSTD_compressBound(size);
    uint8_t *out = malloc(bound);

    FUZZ_REQUIRE(out != NULL, "out of memory");
    *len = ZSTD_compress(out, bound, data, size, 3);
    FUZZ_REQUIRE(!ZSTD_isError(*len), "ZSTD_compress");
    return out;
}

/* Requires the compressed file to read as the plain one did. */
static void require_same_read(const uint8_t *packed, size_t len,
                              const loopy_read_options *opt,
                              loopy_status plain_status,
                              const loopy_graph *plain,
                              const loopy_diag *plain_diag, const char *kind)
{
    loopy_graph *g = NULL;
    loopy_diag diag;
    loopy_status status = read_bytes(packed, len, opt, &g, &diag);

    FUZZ_REQUIRE(status == plain_status &&
                     strcmp(diag.message, plain_diag->message) == 0 &&
                     diag.line == plain_diag->line &&
                     diag.column == plain_diag->column &&
                     diag.hint == plain_diag->hint,
                 "%s: %d %" PRIu64 ":%" PRIu64 " '%s' (hint %d), plain: %d %"
                 PRIu64 ":%" PRIu64 " '%s' (hint %d)", kind, (int)status,
                 diag.line, diag.column, diag.message, (int)diag.hint,
                 (int)plain_status, plain_diag->line, plain_diag->column,
                 plain_diag->message, (int)plain_diag->hint);
    if (status == LOOPY_OK)
        fuzz_require_same_graph(plain, g);
    loopy_graph_free(g);
}

/* Every prefix of packed from 4 bytes (fewer do not show the magic) must
 * fail, as truncated data when the text has no NUL byte. */
static void require_prefixes_fail(const uint8_t *packed, size_t len,
                                  const loopy_read_options *opt, bool has_nul,
                                  const char *kind)
{
    /* Every length for small files, about 8 of them for larger ones. */
    size_t step = len <= 32 ? 1 : len / 8;

    for (size_t cut = 4; cut < len; cut += step) {
        loopy_graph *g = NULL;
        loopy_diag diag;
        loopy_status status = read_bytes(packed, cut, opt, &g, &diag);

        FUZZ_REQUIRE(status != LOOPY_OK, "%s cut to %zu of %zu bytes read",
                     kind, cut, len);
        if (!has_nul) {
            FUZZ_REQUIRE(status == LOOPY_EFORMAT &&
                             strncmp(diag.message, "truncated ", 10) == 0,
                         "%s cut to %zu of %zu bytes: %d '%s'", kind, cut, len,
                         (int)status, diag.message);
            require_placeless(status, &diag);
        }
    }
}

/* Whether the input is compressed already: gzip's magic, zstd's, or a
 * zstd skippable frame's. */
static bool is_packed(const uint8_t *data, size_t size)
{
    return (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) ||
           (size >= 4 && data[0] == 0x28 && data[1] == 0xb5 &&
            data[2] == 0x2f && data[3] == 0xfd) ||
           (size >= 4 && (data[0] & 0xf0) == 0x50 && data[1] == 0x2a &&
            data[2] == 0x4d && data[3] == 0x18);
}

FUZZ_TARGET(read_compressed)
{
    static const loopy_text_format formats[2] = {LOOPY_TEXT_EDGES,
                                                 LOOPY_TEXT_PAIRS};

    for (int f = 0; f < 2; f++) {
        loopy_read_options opt = LOOPY_READ_OPTIONS_INIT;
        loopy_graph *plain = NULL;
        loopy_diag plain_diag;
        loopy_status plain_status;
        uint8_t *gz, *zst;
        size_t gz_len, zst_len;
        bool packed_input = is_packed(data, size);

        opt.format = formats[f];
        opt.memory_limit = MEMORY_LIMIT;
        opt.threads = 1;
        plain_status = read_bytes(data, size, &opt, &plain, &plain_diag);
        if (plain_status == LOOPY_EFORMAT || plain_status == LOOPY_EIO ||
            plain_status == LOOPY_ENOMEM)
            require_placeless(plain_status, &plain_diag);
        else if (plain_status != LOOPY_OK && !packed_input) {
            /* Columns of line 1 count from after a byte-order mark. */
            size_t bom = size >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0
                             ? 3 : 0;
            fuzz_require_good_diag((const char *)data + bom, size - bom,
                                   plain_status, &plain_diag);
        }
        if (packed_input) {
            /* Compressed already: compressing it again would hide it. */
            loopy_graph_free(plain);
            continue;
        }
        gz = gzip_bytes(data, size, &gz_len);
        zst = zstd_bytes(data, size, &zst_len);
        require_same_read(gz, gz_len, &opt, plain_status, plain, &plain_diag,
                          "gzip");
        require_same_read(zst, zst_len, &opt, plain_status, plain, &plain_diag,
                          "zstd");
        {
            /* After a skippable frame, as pzstd writes one first. */
            uint8_t *skip = malloc(zst_len + 12);
            FUZZ_REQUIRE(skip != NULL, "out of memory");
            memcpy(skip, "\x5e\x2a\x4d\x18\x04\x00\x00\x00skip", 12);
            memcpy(skip + 12, zst, zst_len);
            require_same_read(skip, zst_len + 12, &opt, plain_status, plain,
                              &plain_diag, "zstd after a skippable frame");
            free(skip);
        }
        if (f == 0) {
            bool has_nul = size > 0 && memchr(data, 0, size) != NULL;
            loopy_read_options small = opt;
            loopy_graph *g = NULL;
            loopy_diag diag;
            loopy_status status;

            require_prefixes_fail(gz, gz_len, &opt, has_nul, "gzip");
            require_prefixes_fail(zst, zst_len, &opt, has_nul, "zstd");
            /* The decompressed text does not count against the memory
             * limit (it is read as it comes): under a limit below its
             * size, the compressed file reads as the plain one does. */
            if (size >= 2) {
                small.memory_limit = size - 1;
                status = read_bytes(data, size, &small, &g, &diag);
                require_same_read(zst, zst_len, &small, status, g, &diag,
                                  "zstd under a small limit");
                loopy_graph_free(g);
            }
        }
        free(gz);
        free(zst);
        loopy_graph_free(plain);
    }
    return 0;
}
