/*
 * decompress.c - graph files compressed with gzip or zstd, recognised by
 * their magic bytes (never by name) and decompressed into memory, where
 * loopy_read_file reads them as it reads a pipe's bytes.
 *
 * Memory: the decompressed bytes are held whole (the text readers take a
 * text in memory), so they are capped: past the reader's memory limit
 * (options->memory_limit, else the machine's memory) the read fails with
 * LOOPY_ETOOBIG.  A text is bad at its first NUL byte outside a comment,
 * so decompression stops there (a stream of zeros, the usual
 * decompression bomb, costs one chunk); the readers then report that
 * place as they would in the plain file.
 */
#include "../core/internal.h"

#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

/* Output is produced this much at a time. */
#define CHUNK ((size_t)1 << 20)

bool loopy_i_is_gzip(const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

bool loopy_i_is_zstd(const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    return len >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f &&
           b[3] == 0xfd;
}

typedef struct inflater {
    loopy_buffer *out;
    uint64_t limit;        /* bytes the output may reach */
    bool text;             /* NUL outside a comment ends the useful part */
    bool percent;          /* '%' starts a comment too */
    bool in_comment;       /* the text scanned so far ends inside one */
    size_t scanned;        /* bytes of out already looked at for NUL */
    const char *kind;      /* "gzip" or "zstd", for messages */
    loopy_diag *diag;
} inflater;

static loopy_status too_big(const inflater *z)
{
    loopy_i_diag(z->diag, 0, 0, "the %s data decompresses to more than "
                 "%.1f GiB, the memory available for it (a compressed file "
                 "is held in memory decompressed)", z->kind,
                 (double)z->limit / (1024.0 * 1024 * 1024));
    return LOOPY_ETOOBIG;
}

/* Room for CHUNK more bytes at out->data + out->len, within the limit. */
static loopy_status make_room(inflater *z, size_t *room)
{
    loopy_buffer *b = z->out;
    size_t want;
    char *data;

    if ((uint64_t)b->len > z->limit)
        return too_big(z);
    if (b->capacity_ - b->len < CHUNK / 2) {
        want = b->capacity_ < CHUNK ? CHUNK : b->capacity_;
        if (want > SIZE_MAX - b->capacity_)
            goto nomem;
        want += b->capacity_; /* doubling */
        if ((uint64_t)want > z->limit + 1)
            want = (size_t)z->limit + 1;
        if (want <= b->len)
            goto nomem;
        data = loopy_i_realloc(b->data, want, 1);
        if (data == NULL)
            goto nomem;
        b->data = data;
        b->capacity_ = want;
    }
    *room = b->capacity_ - b->len;
    /* One byte past the limit is allowed in, so that reaching it is seen. */
    if ((uint64_t)*room > z->limit + 1 - b->len)
        *room = (size_t)(z->limit + 1 - b->len);
    return LOOPY_OK;

nomem:
    loopy_i_diag(z->diag, 0, 0, "out of memory while decompressing the %s "
                 "data", z->kind);
    return LOOPY_ENOMEM;
}

/* Whether the output now holds a NUL byte outside a comment: a text that
 * is bad there, which need not be decompressed further. */
static bool bad_text_reached(inflater *z)
{
    const char *p = z->out->data;

    if (!z->text || z->out->len == 0 || (unsigned char)p[0] == 0x89)
        return false; /* a binary graph (or a damaged one) */
    for (size_t i = z->scanned; i < z->out->len; i++) {
        char c = p[i];

        if (z->in_comment) {
            z->in_comment = c != '\n';
        } else if (c == '#' || (z->percent && c == '%')) {
            z->in_comment = true;
        } else if (c == '\0') {
            z->scanned = z->out->len;
            return true;
        }
    }
    z->scanned = z->out->len;
    return false;
}

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

static loopy_status gunzip(inflater *z, const unsigned char *in, size_t len)
{
    loopy_status status = LOOPY_OK;
    z_stream zs;
    int ret;

    memset(&zs, 0, sizeof zs);
    zs.zalloc = zlib_alloc;
    zs.zfree = zlib_free;
    /* 16 + 15: a gzip wrapper (header, CRC-32 and length checked), the
     * largest window. */
    if (inflateInit2(&zs, 16 + 15) != Z_OK) {
        loopy_i_diag(z->diag, 0, 0, "out of memory for the gzip decoder");
        return LOOPY_ENOMEM;
    }
    for (;;) {
        size_t room, before;

        status = make_room(z, &room);
        if (status != LOOPY_OK)
            break;
        if (zs.avail_in == 0 && len > 0) {
            zs.next_in = (Bytef *)(uintptr_t)in;
            zs.avail_in = len > UINT_MAX ? UINT_MAX : (uInt)len;
            in += zs.avail_in;
            len -= zs.avail_in;
        }
        zs.next_out = (Bytef *)(z->out->data + z->out->len);
        zs.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        before = zs.avail_out;
        ret = inflate(&zs, Z_NO_FLUSH);
        z->out->len += before - zs.avail_out;
        if (ret == Z_MEM_ERROR) {
            loopy_i_diag(z->diag, 0, 0, "out of memory in the gzip decoder");
            status = LOOPY_ENOMEM;
            break;
        }
        if (ret == Z_DATA_ERROR || ret == Z_NEED_DICT || ret == Z_STREAM_ERROR) {
            loopy_i_diag(z->diag, 0, 0, "damaged gzip file: %s",
                         zs.msg ? zs.msg : "invalid compressed data");
            status = LOOPY_EFORMAT;
            break;
        }
        if (bad_text_reached(z))
            break;
        if (ret == Z_STREAM_END) {
            if (zs.avail_in == 0 && len > 0) {
                zs.next_in = (Bytef *)(uintptr_t)in;
                zs.avail_in = len > UINT_MAX ? UINT_MAX : (uInt)len;
                in += zs.avail_in;
                len -= zs.avail_in;
            }
            if (zs.avail_in == 0)
                break;
            /* gzip files may be concatenated members (a damaged header of
             * the next one is found by inflate); other bytes after the end
             * are refused rather than ignored. */
            if (zs.next_in[0] != 0x1f) {
                loopy_i_diag(z->diag, 0, 0, "damaged gzip file: bytes that "
                             "are not gzip data follow its end");
                status = LOOPY_EFORMAT;
                break;
            }
            if (inflateReset(&zs) != Z_OK) {
                status = LOOPY_EFORMAT;
                loopy_i_diag(z->diag, 0, 0, "damaged gzip file");
                break;
            }
            continue;
        }
        /* Z_OK or Z_BUF_ERROR: no progress with all input given is a
         * stream that ends early. */
        if (zs.avail_in == 0 && len == 0 && zs.avail_out > 0) {
            loopy_i_diag(z->diag, 0, 0, "truncated gzip file: it ends inside "
                         "the compressed data");
            status = LOOPY_EFORMAT;
            break;
        }
    }
    inflateEnd(&zs);
    return status;
}

static loopy_status unzstd(inflater *z, const unsigned char *in, size_t len)
{
    loopy_status status = LOOPY_OK;
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    ZSTD_inBuffer input = {in, len, 0};
    size_t ret = 1;

    if (dctx == NULL) {
        loopy_i_diag(z->diag, 0, 0, "out of memory for the zstd decoder");
        return LOOPY_ENOMEM;
    }
    /* Frames needing windows over zstd's default limit (128 MiB, made by
     * zstd --long=28 or more) are refused by the decoder. */
    for (;;) {
        ZSTD_outBuffer output;
        size_t room;

        status = make_room(z, &room);
        if (status != LOOPY_OK)
            break;
        output.dst = z->out->data + z->out->len;
        output.size = room;
        output.pos = 0;
        ret = ZSTD_decompressStream(dctx, &output, &input);
        z->out->len += output.pos;
        if (ZSTD_isError(ret)) {
            if (ZSTD_getErrorCode(ret) == ZSTD_error_memory_allocation) {
                loopy_i_diag(z->diag, 0, 0, "out of memory in the zstd "
                             "decoder");
                status = LOOPY_ENOMEM;
            } else {
                loopy_i_diag(z->diag, 0, 0, "damaged zstd file: %s",
                             ZSTD_getErrorName(ret));
                status = LOOPY_EFORMAT;
            }
            break;
        }
        if (bad_text_reached(z))
            break;
        /* ret 0: a frame ended and everything it holds has been output. */
        if (input.pos == input.size && output.pos < output.size) {
            if (ret != 0) {
                loopy_i_diag(z->diag, 0, 0, "truncated zstd file: it ends "
                             "inside the compressed data");
                status = LOOPY_EFORMAT;
            }
            break;
        }
    }
    ZSTD_freeDCtx(dctx);
    return status;
}

loopy_status loopy_i_decompress(const void *data, size_t len,
                                const loopy_read_options *options,
                                loopy_buffer *out, loopy_diag *diag)
{
    inflater z;
    loopy_status status;

    memset(out, 0, sizeof *out);
    z.out = out;
    z.limit = options->memory_limit ? options->memory_limit
                                    : loopy_i_physical_memory();
    if (z.limit >= SIZE_MAX)
        z.limit = SIZE_MAX - 1;
    z.text = true;
    z.percent = options->format == LOOPY_TEXT_PAIRS;
    z.in_comment = false;
    z.scanned = 0;
    z.diag = diag;
    if (loopy_i_is_gzip(data, len)) {
        z.kind = "gzip";
        status = gunzip(&z, data, len);
    } else {
        z.kind = "zstd";
        status = unzstd(&z, data, len);
    }
    if (status == LOOPY_OK && (uint64_t)out->len > z.limit)
        status = too_big(&z);
    if (status != LOOPY_OK)
        loopy_buffer_release(out);
    return status;
}
