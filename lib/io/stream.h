/*
 * stream.h - the library's loopy_source: a token reader over a file read in
 * chunks (or over bytes in memory) that knows each token's line and column.
 * Tokens are separated by any white space, newlines included; there are no
 * comments, as in contest inputs.
 */
#ifndef LOOPY_STREAM_H
#define LOOPY_STREAM_H

#include "digits.h"
#include "scan.h"

#include <string.h>

/* Bytes of a token the window holds before it is read (see stream.c). */
#define LOOPY_I_LOOKAHEAD 64u

struct loopy_source {
    int fd;                /* -1 for a memory source */
    bool close_fd;         /* opened here (not standard input) */
    bool eof;              /* nothing more to read into the window */
    char *window;          /* owned; NULL for memory */
    loopy_i_scan scan;     /* over the window (or the memory text) */
    uint64_t column_carry; /* columns of scan.line_start's line before it */
    int read_errno;        /* of a failed read, 0 if none */
    const char *token; /* in the window: the start of the token read last */
    const char *base;      /* where offset 0 of the input is: the window or
                              the memory text */
    uint64_t base_offset;  /* the input offset of base[0] */
    bool seekable;         /* a memory text or a regular file */
    int64_t file_start;    /* the file offset of the input's first byte */
    /* A regular file is mapped rather than read into the window: the scan
     * then runs over the mapping, whose end it sees a window at a time
     * (scan.end), and the pages behind it are handed back at each step. */
    char *map;             /* the whole file, or NULL */
    size_t map_size;
    size_t released;       /* bytes of the map dropped, from its start */
};

/* A place in the input to come back to (loopy_i_source_rewind). */
typedef struct loopy_i_mark {
    uint64_t offset; /* from the input's first byte */
    uint64_t line, column;
} loopy_i_mark;

/* The place of the next unread byte. */
void loopy_i_source_mark(const loopy_source *s, loopy_i_mark *mark);

/* Goes back to a place marked earlier; only for a seekable source.  Returns
 * LOOPY_EIO (diag set) if the file cannot be repositioned. */
loopy_status loopy_i_source_rewind(loopy_source *s, const loopy_i_mark *mark,
                                   loopy_diag *diag);

/* Slides the unread bytes to the front of the window and reads more. */
void loopy_i_source_refill(loopy_source *s);

/* 1-based column of the scan position, counting columns slid out. */
static inline uint64_t loopy_i_source_column(const loopy_source *s)
{
    return (uint64_t)(s->scan.p - s->scan.line_start) + 1 +
           (s->scan.line_start == s->scan.text ? s->column_carry : 0);
}

static inline bool loopy_i_source_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* Reads the next token as a whole number in [min, max].  what names it for
 * the message "expected WHAT, found ..." (at the token, or at the end of the
 * input).  Returns LOOPY_EPARSE, or LOOPY_EIO after a read error. */
loopy_status loopy_i_source_uint(loopy_source *s, uint64_t min, uint64_t max,
                                 uint64_t *value, const char *what,
                                 loopy_diag *diag);

/* The fast path of loopy_i_source_uint: true with *value set when the next
 * token is a number in [min, max]; otherwise false, positioned at the token
 * (white space skipped) so that loopy_i_source_uint can say what is wrong.
 * Lets a caller build an expensive "what" only on failure. */
LOOPY_I_INLINE bool loopy_i_source_try_uint(loopy_source *s, uint64_t min,
                                            uint64_t max, uint64_t *value)
{
    loopy_i_scan *sc = &s->scan;
    const char *p = sc->p, *end = sc->end, *q;
    uint64_t v = 0;

    /* The struct is written back once, at the end: the loops work on
     * local copies. */
    for (;;) {
        while (p < end) {
            if (*p == ' ' || *p == '\t' || *p == '\r') {
                p++;
            } else if (*p == '\n') {
                sc->line++;
                sc->line_start = ++p;
            } else {
                break;
            }
        }
        if ((size_t)(end - p) >= LOOPY_I_LOOKAHEAD || s->eof)
            break;
        sc->p = p;
        loopy_i_source_refill(s);
        p = sc->p;
        end = sc->end;
    }
    sc->p = p;
    if (p == end)
        return false;
    s->token = p;
    q = p;
#ifdef LOOPY_I_SWAR
    if (end - p >= 32) { /* three 8-byte loads and the byte after */
        uint64_t chunk;
        unsigned len;

        memcpy(&chunk, q, 8);
        len = loopy_i_digit_run(chunk);
        if (len == 0)
            return false;
        v = loopy_i_digits_value(chunk, len);
        q += len;
        /* Longer numbers: up to two more chunks (24 digits in all). */
        for (int i = 0; i < 2 && len == 8; i++) {
            static const uint64_t power[9] = {1,      10,      100,
                                              1000,   10000,   100000,
                                              1000000, 10000000,
                                              100000000};
            memcpy(&chunk, q, 8);
            len = loopy_i_digit_run(chunk);
            if (len > 0)
                v = v * power[len] + loopy_i_digits_value(chunk, len);
            q += len;
        }
        /* 20 digits or more: leave the overflow to the careful path. */
        if (q - p > 19)
            return false;
    } else
#endif
    {
        /* 19 digits cannot overflow; a 20th is left to the careful path. */
        for (; q < end && q - p < 19 && (unsigned)(*q - '0') < 10; q++)
            v = v * 10 + (unsigned)(*q - '0');
        if (q == p)
            return false;
    }
    if ((q < end && !loopy_i_source_space(*q)) || v < min || v > max)
        return false;
    sc->p = q;
    *value = v;
    return true;
}

/* loopy_i_source_uint with its fast path inlined at the call. */
#define LOOPY_I_READ_UINT(s, min, max, value, what, diag)                     \
    (loopy_i_source_try_uint(s, min, max, value)                               \
         ? LOOPY_OK                                                            \
         : loopy_i_source_uint(s, min, max, value, what, diag))

/* The rest of the input from the scan position, when all of it is in
 * memory (a mapped file or a memory text) and can be read again: true
 * with *text and *len. */
bool loopy_i_source_rest(const loopy_source *s, const char **text,
                         size_t *len);

/* Moves to the end of the input once the caller has read the rest (above)
 * itself; newlines: how many the rest holds.  A mapping's pages are handed
 * back.  A mark taken before can still be rewound to. */
void loopy_i_source_finish(loopy_source *s, uint64_t newlines);

/* Hands back the whole pages of a mapping before p (nothing for other
 * sources); they come back from the file if read again. */
void loopy_i_source_release(loopy_source *s, const char *p);

/* Requires the end of the input (only white space left). */
loopy_status loopy_i_source_end(loopy_source *s, const char *what,
                                loopy_diag *diag);

/* Line and column of the token read last, for a complaint about it made
 * before the next read (which may move on to another line or window). */
static inline void loopy_i_source_where(const loopy_source *s, uint64_t *line,
                                        uint64_t *column)
{
    const loopy_i_scan *sc = &s->scan;

    *line = sc->line;
    *column = (uint64_t)(s->token - sc->line_start) + 1 +
              (sc->line_start == sc->text ? s->column_carry : 0);
}

#endif
