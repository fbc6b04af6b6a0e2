/*
 * read_compressed.c - a graph file compressed with gzip or zstd, read as
 * it is decompressed.
 *
 * A text is never held whole: the careful reader (read_text.c) reads it
 * through a window of WINDOW bytes that the decompressor refills (a
 * loopy_i_scan_source), so memory follows the graph (its edge arrays),
 * not the decompressed size: gigabytes of comments, blank lines or
 * leading zeros cost the window.  Places in messages are those of the
 * decompressed text, as for the plain file.  The compressed data is
 * checked whole before a text's own verdict counts: damage or truncation
 * found anywhere is the message, also when the text went wrong before
 * it; except after a NUL byte outside a comment, where the text is bad
 * anyway and decompression stops (a stream of zeros costs one window), or
 * goes on to the size of a text that gets a hint (16 MiB), since the NUL
 * may stand in a comment of the format hinted at.
 * After a parse error, a text of at most LOOPY_I_HINT_MAX_BYTES is
 * decompressed again into memory and read by loopy_i_read_text_careful,
 * for the hint of another base or format (and the very message the plain
 * file gets); a longer one is decompressed again for the bare-'\r' hint
 * only.
 *
 * A binary graph (its first byte 0x89) is decompressed whole into memory,
 * as the binary reader takes it, but never past the size its header
 * announces (the rest is only counted) nor past the memory limit.
 */
/* madvise (MADV_DONTNEED really drops pages; posix_madvise does not). */
#define _DEFAULT_SOURCE

#include "scan.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Bytes of the window a compressed text is read through. */
#define WINDOW ((size_t)1 << 20)
/* Pages of a mapped file already decompressed are handed back every this
 * many bytes, so that the compressed file does not count fully in the
 * resident set either. */
#define RELEASE_STEP ((size_t)8 << 20)

typedef struct packed {
    loopy_i_unpack *unpack;
    const char *data;      /* the compressed data */
    bool release_pages;    /* ... is our private mapping of a file */
    size_t released;       /* bytes of it handed back, from its start */
    const loopy_read_options *opt;
    uint64_t compressed;   /* bytes of compressed data, for progress */
    uint64_t next_report;  /* consumed bytes at the next progress report */
    uint64_t total;        /* decompressed bytes given so far */
    loopy_status status;   /* the decompressor's failure, else LOOPY_OK */
    loopy_diag damage;     /* its message */
    bool binary;           /* the data starts like a binary graph */
    bool percent;          /* '%' starts a comment too (the pairs format) */
    bool in_comment;       /* the bytes so far end inside a comment */
    bool stop_at;          /* a NUL outside a comment was seen: */
    uint64_t stop;         /* ... give no byte past this offset */
    uint64_t dropped;      /* bytes decompressed past it and not given */
} packed;

/* Progress, and the pages of a mapping behind the decompressor handed
 * back (they come back from the file if it is read again). */
static void report(packed *p)
{
    const loopy_read_options *opt = p->opt;
    uint64_t done = loopy_i_unpack_consumed(p->unpack);
    long page = sysconf(_SC_PAGESIZE);

    if (p->release_pages && page > 0 && done >= p->released + RELEASE_STEP) {
        size_t to = (size_t)done / (size_t)page * (size_t)page;
        madvise((void *)(uintptr_t)(p->data + p->released), to - p->released,
                MADV_DONTNEED);
        p->released = to;
    }
    if (opt->progress == NULL)
        return;
    if (done >= p->next_report) {
        opt->progress(opt->progress_ctx, "read", done, p->compressed);
        /* A few hundred reports at most. */
        p->next_report = done + p->compressed / 256 + 1;
    }
}

/* Looks at the bytes given for a NUL byte outside a comment, after which
 * the text is bad: then a little more is given (what a message quotes)
 * and then nothing.  Not for a binary graph, which holds zeros. */
static void watch_for_nul(packed *p, const char *bytes, size_t len)
{
    if (memchr(bytes, '\0', len) == NULL) {
        /* No NUL (the usual case, also of comment and blank-line bombs):
         * only whether the bytes end inside a comment, from their last
         * line. */
        const char *line = bytes + len;
        if (memchr(bytes, '\n', len) == NULL)
            line = bytes; /* one line, maybe a long comment */
        while (line > bytes && line[-1] != '\n')
            line--;
        if (line > bytes)
            p->in_comment = false;
        if (!p->in_comment)
            p->in_comment =
                memchr(line, '#', (size_t)(bytes + len - line)) != NULL ||
                (p->percent &&
                 memchr(line, '%', (size_t)(bytes + len - line)) != NULL);
        return;
    }
    for (size_t i = 0; i < len && !p->stop_at; i++) {
        char c = bytes[i];

        if (p->in_comment) {
            p->in_comment = c != '\n';
        } else if (c == '#' || (p->percent && c == '%')) {
            p->in_comment = true;
        } else if (c == '\0') {
            p->stop_at = true;
            p->stop = p->total + i + 1 + LOOPY_I_SCAN_AHEAD;
        }
    }
}

/* loopy_i_scan_source's read: the next decompressed bytes. */
static size_t source_read(void *ctx, char *dst, size_t room)
{
    packed *p = ctx;
    size_t got = 0;

    if (p->status != LOOPY_OK)
        return 0;
    if (p->stop_at && room > p->stop - p->total)
        room = (size_t)(p->stop - p->total);
    p->status = loopy_i_unpack_read(p->unpack, dst, room, &got, &p->damage);
    if (p->status != LOOPY_OK)
        return 0;
    if (p->total == 0 && got > 0)
        p->binary = (unsigned char)dst[0] == 0x89;
    if (!p->binary && !p->stop_at) {
        watch_for_nul(p, dst, got);
        if (p->stop_at && got > p->stop - p->total) {
            p->dropped = got - (p->stop - p->total);
            got = (size_t)(p->stop - p->total);
        }
    }
    p->total += got;
    report(p);
    return got;
}

/* Decompresses the rest of the data into buf (size bytes, its contents
 * unused), to check it whole; stops at a stop point (a NUL). */
static void drain(packed *p, char *buf, size_t size)
{
    while (source_read(p, buf, size) > 0)
        ;
}

/* Decompresses the first p->total bytes again into a new buffer. */
static loopy_status again_in_memory(packed *p, char **out, loopy_diag *diag)
{
    char *text = loopy_i_malloc(p->total ? (size_t)p->total : 1, 1);
    loopy_status status;
    size_t have = 0, got;

    *out = NULL;
    if (text == NULL) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    status = loopy_i_unpack_rewind(p->unpack, diag);
    while (status == LOOPY_OK && have < p->total) {
        status = loopy_i_unpack_read(p->unpack, text + have,
                                     (size_t)p->total - have, &got, diag);
        if (status == LOOPY_OK && got == 0) {
            loopy_i_diag(diag, 0, 0, "the compressed data changed while "
                         "it was read");
            status = LOOPY_EIO;
        }
        have += got;
    }
    if (status != LOOPY_OK) {
        loopy_i_free(text);
        return status;
    }
    *out = text;
    return LOOPY_OK;
}

/* Sets diag->hint to LOOPY_HINT_BARE_CR when the error's line holds a
 * bare '\r' before it, looking at the text decompressed again. */
static void bare_cr_hint(packed *p, char *buf, size_t size, loopy_diag *diag)
{
    loopy_i_cr_probe probe;
    loopy_diag scratch;
    uint64_t left = p->total;
    size_t got = 0;

    if (diag == NULL || diag->line == 0 || diag->hint != LOOPY_HINT_NONE ||
        loopy_i_unpack_rewind(p->unpack, &scratch) != LOOPY_OK)
        return;
    loopy_i_cr_probe_init(&probe, diag->line, diag->column);
    while (left > 0 &&
           loopy_i_unpack_read(p->unpack, buf,
                               left < size ? (size_t)left : size, &got,
                               &scratch) == LOOPY_OK &&
           got > 0) {
        left -= got;
        if (loopy_i_cr_probe_feed(&probe, buf, got))
            break;
    }
    if (loopy_i_cr_probe_found(&probe))
        diag->hint = LOOPY_HINT_BARE_CR;
}

/* A text: read as it is decompressed; see the top of the file for what
 * wins when both the text and the compressed data are bad. */
static loopy_status read_packed_text(packed *p, loopy_i_scan *scan,
                                     loopy_graph **out, loopy_diag *diag)
{
    loopy_status status = loopy_i_read_text_fed(scan, p->opt, out, diag);
    char *text;

    if (status == LOOPY_OK || status == LOOPY_ENOMEM ||
        status == LOOPY_EINVAL) {
        if (p->status != LOOPY_OK && status == LOOPY_OK) {
            /* Read to its end: the data's end is checked too. */
            loopy_graph_free(*out);
            *out = NULL;
        }
        return p->status != LOOPY_OK ? p->status : status;
    }
    /* The text is bad (or too large): is the compressed data sound?  (The
     * rest is read to its end, or to a NUL outside a comment.) */
    if (p->status == LOOPY_OK && !p->stop_at)
        drain(p, scan->source->window, scan->source->size);
    if (p->status == LOOPY_OK && p->stop_at &&
        p->total <= LOOPY_I_HINT_MAX_BYTES) {
        /* A NUL outside a comment stopped the decompression, but in
         * another format it may stand in a comment (a '%' line of a list
         * of pairs), and the plain file's hint comes from reading the
         * whole text: a text small enough for a hint is decompressed on,
         * to one byte past that size at most. */
        p->total += p->dropped; /* where the decompressor is */
        p->dropped = 0;
        p->stop = LOOPY_I_HINT_MAX_BYTES + 1;
        if (p->total < p->stop)
            drain(p, scan->source->window, scan->source->size);
    }
    if (p->status != LOOPY_OK)
        return p->status;
    if (p->total <= LOOPY_I_HINT_MAX_BYTES) {
        /* Small: the plain text's reading, hints and all. */
        loopy_diag again_diag;
        loopy_status again;

        memset(&again_diag, 0, sizeof again_diag);
        again = again_in_memory(p, &text, &again_diag);
        if (again != LOOPY_OK)
            return status; /* the first verdict stands */
        status = loopy_i_read_text_careful(text, (size_t)p->total, p->opt, out,
                                           NULL, diag);
        loopy_i_free(text);
        return status;
    }
    if (status == LOOPY_EPARSE)
        bare_cr_hint(p, scan->source->window, scan->source->size, diag);
    return status;
}

/* Grows buf to hold want bytes (doubling). */
static bool reserve(char **buf, size_t *capacity, size_t want)
{
    size_t grown = *capacity ? *capacity : WINDOW;
    char *data;

    while (grown < want)
        grown = grown > SIZE_MAX / 2 ? want : grown * 2;
    if (grown == *capacity)
        return true;
    data = loopy_i_realloc(*buf, grown, 1);
    if (data == NULL)
        return false;
    *buf = data;
    *capacity = grown;
    return true;
}

/* A binary graph (or bytes that start like one): decompressed into
 * memory up to the size its header announces, the rest counted; then the
 * binary reader's verdict, or the damage of the compressed data.  The
 * source's window (its first bytes in view) serves as scratch. */
static loopy_status read_packed_binary(packed *p, const loopy_i_scan *scan,
                                       loopy_graph **out, loopy_diag *diag)
{
    uint64_t limit = p->opt->memory_limit ? p->opt->memory_limit
                                          : loopy_i_physical_memory();
    char *window = scan->source->window;
    size_t have = (size_t)(scan->end - scan->text), capacity = 0, got;
    uint64_t cap = have;
    loopy_binary_layout layout;
    loopy_diag scratch;
    char *buf = NULL;
    loopy_status status = LOOPY_OK;
    bool header_ok;

    /* The header says how long the file is; a header the reader refuses
     * is refused whatever follows, so the first window is enough then,
     * and no memory limit comes before its verdict (the plain file's
     * reader says the header's fault first, whatever the limit). */
    memset(&scratch, 0, sizeof scratch);
    header_ok = loopy_i_binary_layout((const unsigned char *)scan->text, have,
                                      &layout, &scratch) == LOOPY_OK;
    if (header_ok)
        cap = layout.end;
    if (!reserve(&buf, &capacity, have > 0 ? have : 1))
        goto nomem;
    memcpy(buf, scan->text, have);
    for (got = 0;; have += got) {
        /* (A first window longer than announced is refused by length.) */
        if (header_ok && (uint64_t)have > limit && (uint64_t)have <= cap) {
            loopy_i_diag(diag, 0, 0, "the compressed binary graph "
                         "decompresses to more than %.1f GiB, the memory "
                         "available for it (a binary graph is held in memory "
                         "decompressed)",
                         (double)limit / (1024.0 * 1024 * 1024));
            status = LOOPY_ETOOBIG;
            break;
        }
        if (have >= cap)
            break;
        got = source_read(p, window,
                          cap - have < WINDOW ? (size_t)(cap - have) : WINDOW);
        if (got == 0)
            break;
        if (got > SIZE_MAX - have || !reserve(&buf, &capacity, have + got))
            goto nomem;
        memcpy(buf + have, window, got);
    }
    /* The rest only counted (a file longer than announced is refused with
     * its length); the data checked to its end. */
    drain(p, window, WINDOW);
    if (p->status != LOOPY_OK || status != LOOPY_OK) {
        loopy_i_free(buf);
        return p->status != LOOPY_OK ? p->status : status;
    }
    if (loopy_i_is_mangled_binary(buf, have)) {
        loopy_i_free(buf);
        return loopy_i_refuse_mangled(diag);
    }
    if (p->total > have) {
        /* As the binary reader says it of the plain file: the header's
         * checks, the padding within it, then the length. */
        uint64_t pos = LOOPY_BIN_HEADER;
        status = loopy_i_binary_layout((const unsigned char *)buf, have,
                                       &layout, diag);
        for (int s = 0; status == LOOPY_OK && s < LOOPY_BIN_SECTIONS; s++) {
            status = loopy_i_binary_padding((const unsigned char *)buf + pos,
                                            pos, layout.offset[s], diag);
            pos = layout.offset[s] + layout.length[s];
        }
        if (status == LOOPY_OK)
            status = loopy_i_binary_length(layout.end, p->total, diag);
        loopy_i_free(buf);
        return status;
    }
    status = loopy_i_read_binary(buf, have, true, p->opt, out, diag);
    if (status != LOOPY_OK)
        loopy_i_free(buf); /* on success the graph owns it */
    return status;

nomem:
    loopy_i_free(buf);
    loopy_i_diag(diag, 0, 0, "out of memory for the decompressed binary graph");
    return LOOPY_ENOMEM;
}

loopy_status loopy_i_read_compressed(const void *data, size_t len,
                                     bool release_pages,
                                     const loopy_read_options *options,
                                     loopy_graph **out, loopy_diag *diag)
{
    loopy_i_scan_source source;
    loopy_i_scan scan;
    loopy_status status;
    packed p;

    *out = NULL;
    memset(&p, 0, sizeof p);
    memset(&source, 0, sizeof source);
    p.opt = options;
    p.data = data;
    p.release_pages = release_pages;
    p.compressed = len;
    p.percent = options->format == LOOPY_TEXT_PAIRS;
    status = loopy_i_unpack_open(data, len, options, &p.unpack, diag);
    if (status != LOOPY_OK)
        return status;
    source.window = loopy_i_malloc(WINDOW, 1);
    if (source.window == NULL) {
        loopy_i_unpack_free(p.unpack);
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    source.size = WINDOW;
    source.read = source_read;
    source.ctx = &p;
    loopy_i_scan_init_source(&scan, &source, true);
    if (p.binary)
        status = read_packed_binary(&p, &scan, out, diag);
    else
        status = read_packed_text(&p, &scan, out, diag);
    if (p.status != LOOPY_OK) {
        /* Damaged, truncated or beyond the memory: that is the message,
         * whatever the bytes given before read as. */
        loopy_graph_free(*out);
        *out = NULL;
        if (diag != NULL)
            *diag = p.damage;
        status = p.status;
    }
    loopy_i_free(source.window);
    loopy_i_unpack_free(p.unpack);
    return status;
}
