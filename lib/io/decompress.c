/*
 * decompress.c - graph files compressed with gzip or zstd, recognised by
 * their magic bytes (never by name), decompressed a piece at a time
 * (loopy_i_unpack): read_compressed.c reads the text as it comes, so
 * memory follows the graph, never the decompressed size.
 *
 * gzip: members may be concatenated; other bytes after the end are
 * refused.  zstd: frames may be concatenated, and skippable frames (as
 * pzstd writes first) are skipped; a frame may need a window of up to
 * 2 GiB (zstd --long=31), as far as the memory allows (ZSTD_d_windowLogMax:
 * 128 MiB, zstd's default, or the largest power of two the memory limit
 * holds), and a frame needing more is refused with its window named.
 * The window is memory the decoder needs, at most the frame's
 * decompressed size.
 */
#include "../core/internal.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/* zstd's own limits (zstd.h has them only under ZSTD_STATIC_LINKING_ONLY):
 * the window a decoder takes by default, and the largest any frame may
 * need on a 64-bit machine (30 on a 32-bit one). */
#define ZSTD_WINDOW_LOG_DEFAULT 27u
#define ZSTD_WINDOW_LOG_LARGEST (sizeof(size_t) == 4 ? 30u : 31u)

bool loopy_i_is_gzip(const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

/* A skippable frame's magic: 0x184D2A50 .. 0x184D2A5F, little-endian. */
static bool is_skippable(const unsigned char *b, size_t len)
{
    return len >= 4 && (b[0] & 0xf0) == 0x50 && b[1] == 0x2a && b[2] == 0x4d &&
           b[3] == 0x18;
}

bool loopy_i_is_zstd(const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    return (len >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f &&
            b[3] == 0xfd) ||
           is_skippable(b, len);
}

struct loopy_i_unpack {
    const unsigned char *in; /* the compressed data, not owned */
    size_t len;
    size_t given;            /* gzip: bytes of in handed to zlib */
    bool gzip;               /* else zstd */
    z_stream zs;
    ZSTD_DCtx *dctx;
    ZSTD_inBuffer input;
    unsigned window_log;     /* zstd: the largest window taken, as a log */
    bool done;               /* all data decompressed and checked */
    loopy_status failed;     /* the first failure, returned again */
};

static voidpf zlib_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    return loopy_i_malloc(items, size);
}

static void zlib_free(voidpf opaque, voidpf ptr)
{
    (void)opaque;
    loopy_i_free(ptr);
}

/* The largest window log that memory allows: zstd's default at least,
 * more while a window that size fits the limit. */
static unsigned window_log_for(uint64_t limit)
{
    unsigned log = ZSTD_WINDOW_LOG_DEFAULT;

    while (log < ZSTD_WINDOW_LOG_LARGEST && ((uint64_t)1 << (log + 1)) <= limit)
        log++;
    return log;
}

loopy_status loopy_i_unpack_open(const void *data, size_t len,
                                 const loopy_read_options *options,
                                 loopy_i_unpack **out, loopy_diag *diag)
{
    uint64_t limit = options->memory_limit ? options->memory_limit
                                           : loopy_i_physical_memory();
    loopy_i_unpack *u = loopy_i_calloc(1, sizeof *u);

    *out = NULL;
    if (u == NULL)
        goto nomem;
    u->in = data;
    u->len = len;
    u->gzip = loopy_i_is_gzip(data, len);
    if (u->gzip) {
        u->zs.zalloc = zlib_alloc;
        u->zs.zfree = zlib_free;
        /* 16 + 15: a gzip wrapper (header, CRC-32 and length checked), the
         * largest window. */
        if (inflateInit2(&u->zs, 16 + 15) != Z_OK) {
            loopy_i_free(u);
            goto nomem;
        }
    } else {
        u->window_log = window_log_for(limit);
        u->dctx = ZSTD_createDCtx();
        if (u->dctx == NULL ||
            ZSTD_isError(ZSTD_DCtx_setParameter(u->dctx, ZSTD_d_windowLogMax,
                                                (int)u->window_log))) {
            ZSTD_freeDCtx(u->dctx);
            loopy_i_free(u);
            goto nomem;
        }
        u->input.src = data;
        u->input.size = len;
    }
    *out = u;
    return LOOPY_OK;

nomem:
    loopy_i_diag(diag, 0, 0, "out of memory for the %s decoder",
                 loopy_i_is_gzip(data, len) ? "gzip" : "zstd");
    return LOOPY_ENOMEM;
}

void loopy_i_unpack_free(loopy_i_unpack *u)
{
    if (u == NULL)
        return;
    if (u->gzip)
        inflateEnd(&u->zs);
    else
        ZSTD_freeDCtx(u->dctx);
    loopy_i_free(u);
}

loopy_status loopy_i_unpack_rewind(loopy_i_unpack *u, loopy_diag *diag)
{
    bool ok = u->gzip ? inflateReset(&u->zs) == Z_OK
                      : !ZSTD_isError(ZSTD_DCtx_reset(u->dctx,
                                                      ZSTD_reset_session_only));

    if (!ok) {
        loopy_i_diag(diag, 0, 0, "cannot restart the %s decoder",
                     u->gzip ? "gzip" : "zstd");
        return LOOPY_ENOMEM;
    }
    u->zs.next_in = NULL;
    u->zs.avail_in = 0;
    u->given = 0;
    u->input.pos = 0;
    u->done = false;
    u->failed = LOOPY_OK;
    return LOOPY_OK;
}

uint64_t loopy_i_unpack_consumed(const loopy_i_unpack *u)
{
    return u->gzip ? (uint64_t)(u->given - u->zs.avail_in) : u->input.pos;
}

static loopy_status fail(loopy_i_unpack *u, loopy_status status)
{
    u->failed = status;
    return status;
}

/* Hands zlib the next piece of input when it has none (zlib counts in
 * 32 bits). */
static void give_input(loopy_i_unpack *u)
{
    if (u->zs.avail_in == 0 && u->given < u->len) {
        size_t piece = u->len - u->given;
        if (piece > UINT_MAX)
            piece = UINT_MAX;
        u->zs.next_in = (Bytef *)(uintptr_t)(u->in + u->given);
        u->zs.avail_in = (uInt)piece;
        u->given += piece;
    }
}

static loopy_status gunzip(loopy_i_unpack *u, unsigned char *dst, size_t room,
                           size_t *got, loopy_diag *diag)
{
    while (*got == 0 && !u->done) {
        uInt avail = room > UINT_MAX ? UINT_MAX : (uInt)room;
        int ret;

        give_input(u);
        u->zs.next_out = dst;
        u->zs.avail_out = avail;
        ret = inflate(&u->zs, Z_NO_FLUSH);
        *got = avail - u->zs.avail_out;
        if (ret == Z_MEM_ERROR) {
            loopy_i_diag(diag, 0, 0, "out of memory in the gzip decoder");
            return fail(u, LOOPY_ENOMEM);
        }
        if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR) {
            loopy_i_diag(diag, 0, 0, "damaged gzip file: %s",
                         u->zs.msg ? u->zs.msg : "invalid compressed data");
            return fail(u, LOOPY_EFORMAT);
        }
        if (ret == Z_STREAM_END) {
            give_input(u);
            if (u->zs.avail_in == 0) {
                u->done = true;
                break;
            }
            /* gzip files may be concatenated members (a damaged header of
             * the next one is found by inflate); other bytes after the end
             * are refused rather than ignored. */
            if (u->zs.next_in[0] != 0x1f) {
                loopy_i_diag(diag, 0, 0, "damaged gzip file: bytes that are "
                             "not gzip data follow its end");
                return fail(u, LOOPY_EFORMAT);
            }
            if (inflateReset(&u->zs) != Z_OK) {
                loopy_i_diag(diag, 0, 0, "damaged gzip file");
                return fail(u, LOOPY_EFORMAT);
            }
            continue;
        }
        /* Z_OK or Z_BUF_ERROR: room left with all input given is a stream
         * that ends early. */
        if (u->zs.avail_in == 0 && u->given == u->len && u->zs.avail_out > 0) {
            loopy_i_diag(diag, 0, 0, "truncated gzip file: it ends inside the "
                         "compressed data");
            return fail(u, LOOPY_EFORMAT);
        }
    }
    return LOOPY_OK;
}

/* The window a regular zstd frame at p needs (RFC 8878, 3.1.1.1.2: the
 * window descriptor, or the content size of a single-segment frame); 0
 * when p does not hold a frame header. */
static uint64_t frame_window(const unsigned char *p, size_t len)
{
    static const unsigned dict_bytes[4] = {0, 1, 2, 4};
    static const unsigned size_bytes[4] = {0, 2, 4, 8};
    unsigned descriptor, fcs, at;
    uint64_t size = 0;

    if (len < 6 || !loopy_i_is_zstd(p, len) || is_skippable(p, len))
        return 0;
    descriptor = p[4];
    if (!(descriptor & 0x20)) { /* a window descriptor */
        unsigned exponent = p[5] >> 3, mantissa = p[5] & 7;
        uint64_t base = (uint64_t)1 << (10 + exponent);
        return base + base / 8 * mantissa;
    }
    fcs = size_bytes[descriptor >> 6];
    if (fcs == 0)
        fcs = 1; /* single segment: at least one byte of size */
    at = 5 + dict_bytes[descriptor & 3];
    if (len < at + fcs)
        return 0;
    for (unsigned i = fcs; i-- > 0;)
        size = size << 8 | p[at + i];
    return fcs == 2 ? size + 256 : size;
}

/* The message for a frame whose window is over the limit: the first such
 * frame, found by walking the frames from the start. */
static loopy_status window_too_large(const loopy_i_unpack *u, loopy_diag *diag)
{
    uint64_t allowed = (uint64_t)1 << u->window_log, window = 0;
    size_t at = 0;

    while (at < u->len) {
        size_t frame = ZSTD_findFrameCompressedSize(u->in + at, u->len - at);
        window = frame_window(u->in + at, u->len - at);
        if (window > allowed || ZSTD_isError(frame))
            break;
        at += frame;
    }
    if (window > allowed) {
        unsigned log = 10;
        char made[48] = "";
        while (log < 63 && ((uint64_t)1 << log) < window)
            log++;
        if (log <= ZSTD_WINDOW_LOG_LARGEST)
            snprintf(made, sizeof made, " (as zstd --long=%u makes)", log);
        loopy_i_diag(diag, 0, 0, "the zstd data needs a window of %.0f MiB%s,"
                     " more than the %.0f MiB %s", (double)window / (1 << 20),
                     made, (double)allowed / (1 << 20),
                     u->window_log == ZSTD_WINDOW_LOG_LARGEST
                         ? "that zstd decodes"
                         : "that the memory allows");
    } else {
        loopy_i_diag(diag, 0, 0, "the zstd data needs a window over the "
                     "%.0f MiB that the memory allows",
                     (double)allowed / (1 << 20));
    }
    return LOOPY_ETOOBIG;
}

static loopy_status unzstd(loopy_i_unpack *u, unsigned char *dst, size_t room,
                           size_t *got, loopy_diag *diag)
{
    while (*got == 0 && !u->done) {
        ZSTD_outBuffer output = {dst, room, 0};
        size_t ret = ZSTD_decompressStream(u->dctx, &output, &u->input);

        *got = output.pos;
        if (ZSTD_isError(ret)) {
            switch (ZSTD_getErrorCode(ret)) {
            case ZSTD_error_memory_allocation:
                loopy_i_diag(diag, 0, 0, "out of memory in the zstd decoder");
                return fail(u, LOOPY_ENOMEM);
            case ZSTD_error_frameParameter_windowTooLarge:
                return fail(u, window_too_large(u, diag));
            default:
                loopy_i_diag(diag, 0, 0, "damaged zstd file: %s",
                             ZSTD_getErrorName(ret));
                return fail(u, LOOPY_EFORMAT);
            }
        }
        /* ret 0: a frame ended and all it holds was given (the output may
         * be full).  Room left with all input read and a frame not ended:
         * the data stops inside it. */
        if (u->input.pos == u->input.size && ret == 0) {
            u->done = true;
        } else if (u->input.pos == u->input.size && output.pos < output.size) {
            loopy_i_diag(diag, 0, 0, "truncated zstd file: it ends inside the "
                         "compressed data");
            return fail(u, LOOPY_EFORMAT);
        }
    }
    return LOOPY_OK;
}

loopy_status loopy_i_unpack_read(loopy_i_unpack *u, void *dst, size_t room,
                                 size_t *got, loopy_diag *diag)
{
    *got = 0;
    if (u->failed != LOOPY_OK)
        return u->failed;
    if (room == 0)
        return LOOPY_OK;
    return u->gzip ? gunzip(u, dst, room, got, diag)
                   : unzstd(u, dst, room, got, diag);
}
