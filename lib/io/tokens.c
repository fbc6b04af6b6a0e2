/*
 * tokens.c - every number of a text, read on all threads (see tokens.h).
 *
 * The text is read a chunk at a time, each chunk cut at white space into
 * one piece per thread.  A piece is read 64 bytes at a time: the class masks of a block (digits.h) give the start
 * of every token in it at once, and each token is parsed eight digits at a
 * time.  The last bytes of the text, where a block would reach past its
 * end, are read byte by byte.  Anything but digits and white space, or a
 * number of 2^32 or more, fails the whole read: the caller then reads the
 * careful way, which says what and where.
 */
#include "tokens.h"

#include "digits.h"

/* Bits set in x; without a popcount instruction in the baseline ISA,
 * __builtin_popcountll would be a call. */
static inline unsigned count_bits(uint64_t x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

size_t loopy_i_feed_chunk_override;
int loopy_i_feed_threads_override;

static bool is_white(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* Reads [p, end) byte by byte, from a token boundary; true if it holds only
 * numbers below 2^32 and white space. */
static bool tokenize_bytes(const char *p, const char *end, uint32_t *out,
                           size_t *count, uint64_t *newlines)
{
    size_t n = *count;
    uint64_t lines = *newlines;

    while (p < end) {
        uint64_t v = 0;
        const char *start;

        if (is_white(*p)) {
            lines += *p++ == '\n';
            continue;
        }
        start = p;
        while (p < end && p - start < 11 && (unsigned)(*p - '0') < 10u)
            v = v * 10 + (unsigned)(*p++ - '0');
        /* 11 digits or more (leading zeros too) are left to the careful
         * reader, as in the blocks. */
        if (p == start || p - start > 10 || v > UINT32_MAX ||
            (p < end && !is_white(*p)))
            return false;
        out[n++] = (uint32_t)v;
    }
    *count = n;
    *newlines = lines;
    return true;
}

/* Reads the piece [p, end) of a text that ends at text_end; p follows white
 * space (or starts the text), and so does end unless it is text_end. */
static bool tokenize_piece(const char *p, const char *end, const char *text_end,
                           uint32_t *out, size_t *count, uint64_t *newlines)
{
    size_t n = 0;
    uint64_t lines = 0;
    const char *after = p;

    *count = 0;
    *newlines = 0;
#ifdef LOOPY_I_SWAR
    {
        uint64_t carry = 0;

        /* A number read at a block's last byte may look 16 bytes on. */
        while (end - p >= 64 && text_end - p >= 80) {
            loopy_i_block b;
            uint64_t starts;

            loopy_i_classify(p, &b);
            if (b.other != 0)
                return false;
            starts = b.digit & ~((b.digit << 1) | carry);
            carry = b.digit >> 63;
            lines += count_bits(b.newline);
            while (starts != 0) {
                unsigned i = (unsigned)__builtin_ctzll(starts);
                uint64_t value;
                unsigned len;

                starts &= starts - 1;
                /* The byte after a number is white space: in this block
                 * (no other class is left in it), or checked when the
                 * block or bytes after are read. */
                if (!loopy_i_number10(p + i, &value, &len) || value > UINT32_MAX)
                    return false;
                out[n++] = (uint32_t)value;
                after = p + i + len;
            }
            p += 64;
        }
        /* A token that ran past the last block has been read. */
        if (after > p)
            p = after;
    }
#endif
    *count = n;
    if (!tokenize_bytes(p, end, out, count, &lines))
        return false;
    *newlines = lines;
    return true;
}

loopy_status loopy_i_feed_open(loopy_i_feed *f, loopy_source *source,
                              int threads, size_t chunk)
{
    const char *text;
    size_t len;

    memset(f, 0, sizeof *f);
    if (!loopy_i_source_rest(source, &text, &len))
        return LOOPY_EINVAL;
    f->source = source;
    f->next = text;
    f->end = text + len;
    if (chunk == 0)
        chunk = loopy_i_feed_chunk_override;
    if (threads == 0)
        threads = loopy_i_feed_threads_override;
    /* All cores (at most 64), with pieces of 64 KiB at least: chunks grow
     * with the thread count, from LOOPY_I_FEED_CHUNK. */
    f->threads = threads > 0 ? threads
                             : loopy_i_threads(0, len, LOOPY_I_FEED_PIECE);
    if (f->threads > 64)
        f->threads = 64;
    f->chunk = chunk > 0 ? chunk : LOOPY_I_FEED_CHUNK;
    if (chunk == 0 && f->chunk < (size_t)f->threads * LOOPY_I_FEED_PIECE)
        f->chunk = (size_t)f->threads * LOOPY_I_FEED_PIECE;
    if (f->chunk > len)
        f->chunk = len + 1; /* a small text: small buffers */
    /* A chunk of b bytes in t pieces holds at most b / 2 + t numbers (a
     * number takes 2 bytes with its separator; a piece's last, 1). */
    f->capacity = f->chunk / 2 + (size_t)f->threads + 1;
    f->value = loopy_i_malloc(f->capacity, sizeof *f->value);
    f->cut = loopy_i_malloc((size_t)f->threads + 1, sizeof *f->cut);
    f->first = loopy_i_malloc((size_t)f->threads + 1, sizeof *f->first);
    f->piece_count = loopy_i_malloc((size_t)f->threads, sizeof *f->piece_count);
    f->piece_lines = loopy_i_malloc((size_t)f->threads, sizeof *f->piece_lines);
    if (f->value == NULL || f->cut == NULL || f->first == NULL ||
        f->piece_count == NULL || f->piece_lines == NULL) {
        loopy_i_feed_close(f);
        return LOOPY_ENOMEM;
    }
    loopy_i_advise_huge(f->value, f->capacity * sizeof *f->value);
    return LOOPY_OK;
}

void loopy_i_feed_close(loopy_i_feed *f)
{
    loopy_i_free(f->value);
    loopy_i_free(f->cut);
    loopy_i_free(f->first);
    loopy_i_free(f->piece_count);
    loopy_i_free(f->piece_lines);
    f->value = NULL;
    f->cut = NULL;
    f->first = NULL;
    f->piece_count = NULL;
    f->piece_lines = NULL;
}

/* Reads the next chunk of the text into f->value; false if it holds
 * anything but numbers below 2^32 and white space. */
static bool read_chunk(loopy_i_feed *f)
{
    const char *text = f->next, *end;
    size_t len = (size_t)(f->end - f->next);
    int threads = f->threads;
    bool ok = true;

    if (len > f->chunk) {
        /* Chunks end just after white space, so that no token is split;
         * a chunk without any fails (a token that long is not a number). */
        len = f->chunk;
        while (len > 0 && !is_white(text[len - 1]))
            len--;
        if (len == 0)
            return false;
    }
    end = text + len;
    f->cut[0] = text;
    for (int t = 1; t <= threads; t++) {
        const char *c = t == threads ? end : text + len / (size_t)threads * (size_t)t;
        if (c < f->cut[t - 1])
            c = f->cut[t - 1];
        while (c > text && c < end && !is_white(c[-1]))
            c++;
        f->cut[t] = c;
    }
    for (int t = 0; t <= threads; t++)
        f->first[t] = (size_t)(f->cut[t] - text) / 2 + (size_t)t;
    /* Thread t writes only its piece's slots of value (first[t] ..., no
     * more than first[t + 1] - first[t] of them) and its own entries of
     * piece_count and piece_lines. */
#pragma omp parallel for num_threads(threads) schedule(static, 1) \
    reduction(&& : ok) if (len >= 4096)
    for (int t = 0; t < threads; t++)
        ok = tokenize_piece(f->cut[t], f->cut[t + 1], f->end,
                            f->value + f->first[t], &f->piece_count[t],
                            &f->piece_lines[t]) && ok;
    if (!ok)
        return false;
    /* The pieces, one after the other. */
    for (int t = 0; t < threads; t++) {
        if (f->first[t] != f->count)
            memmove(f->value + f->count, f->value + f->first[t],
                    f->piece_count[t] * sizeof *f->value);
        f->count += f->piece_count[t];
        f->newlines += f->piece_lines[t];
    }
    f->next = end;
    loopy_i_source_release(f->source, end);
    return true;
}

bool loopy_i_feed_refill(loopy_i_feed *f)
{
    f->at = f->count = 0;
    /* A chunk of white space only: on to the next. */
    while (f->count == 0) {
        if (f->failed || f->next == f->end)
            return false;
        if (!read_chunk(f)) {
            f->failed = true;
            return false;
        }
    }
    return true;
}

bool loopy_i_feed_done(loopy_i_feed *f)
{
    if (f->at < f->count || loopy_i_feed_refill(f) || f->failed)
        return false;
    loopy_i_source_finish(f->source, f->newlines);
    return true;
}
