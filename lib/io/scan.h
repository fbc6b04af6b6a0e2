/*
 * scan.h - a cursor over text that knows its line and column, for the
 * library's readers: over a text in memory, or over a window of a text
 * read in pieces (a loopy_i_scan_source: a file decompressed as it is
 * read), which slides forward as it is read.  Numbers are unsigned decimal
 * integers without sign; a token is a run of bytes other than white space.
 */
#ifndef LOOPY_SCAN_H
#define LOOPY_SCAN_H

#include "../core/internal.h"

/* A text read in pieces (a decompressed file) rather than held whole:
 * the scan sees a window of it, which slides forward as it reads. */
typedef struct loopy_i_scan_source {
    /* Puts up to room more bytes of the text at dst and returns how many;
     * 0 only at the end of the text (or after a failure, which the
     * function's owner keeps for its caller). */
    size_t (*read)(void *ctx, char *dst, size_t room);
    void *ctx;
    char *window; /* size bytes, owned by the source's owner */
    size_t size;
    bool eof;     /* read has returned 0 */
} loopy_i_scan_source;

/* With a source, before each token the window holds at least this many
 * bytes from it (or the rest of the text): every number that can be in
 * range, and the 21 bytes a message quotes.  Longer numbers are read
 * across windows. */
#define LOOPY_I_SCAN_AHEAD 64u

typedef struct loopy_i_scan {
    const char *text; /* start of the text (with a source: of the window) */
    const char *p;    /* next byte to read */
    const char *end;  /* one past the last byte */
    const char *line_start;
    uint64_t line;    /* 1-based line of p */
    /* Columns of line_start's line before line_start: with a source, those
     * that slid out of the window; 0 otherwise. */
    uint64_t column_carry;
    bool comments;    /* '#' starts a comment running to the end of line */
    bool percent;     /* with comments, '%' starts one too (set after init) */
    loopy_i_scan_source *source; /* NULL: the whole text is in memory */
} loopy_i_scan;

void loopy_i_scan_init(loopy_i_scan *s, const char *text, size_t len,
                       bool comments);

/* A scan over the text that source gives, its first window read. */
void loopy_i_scan_init_source(loopy_i_scan *s, loopy_i_scan_source *source,
                              bool comments);

/* With a source: slides the unread bytes to the window's start and reads
 * after them; true when bytes were added.  False at the end of the text
 * and without a source. */
bool loopy_i_scan_more(loopy_i_scan *s);

/* Texts up to this size are read again after a parse error, to see
 * whether another base or format reads them (the hint of loopy_diag). */
#define LOOPY_I_HINT_MAX_BYTES ((size_t)16 << 20)

/* Whether a text's line `line` holds, before column `column` (1-based; 0:
 * anywhere), a carriage return followed by something other than a line
 * end or more carriage returns: the mark of a text whose lines end with
 * '\r' alone, which reads as one long line.  Fed the text's bytes in
 * order, in pieces of any size. */
typedef struct loopy_i_cr_probe {
    uint64_t line, column; /* the place asked about */
    uint64_t at_line;      /* the line of the next byte fed */
    uint64_t at_column;    /* its 1-based column */
    int state;             /* 0 seeking a '\r', 1 in a run of them, 2 done */
    bool found;
} loopy_i_cr_probe;
void loopy_i_cr_probe_init(loopy_i_cr_probe *probe, uint64_t line,
                           uint64_t column);
/* Feeds the next len bytes; true once the answer is known. */
bool loopy_i_cr_probe_feed(loopy_i_cr_probe *probe, const char *bytes,
                           size_t len);
/* The answer (at the end of the text, when not known before). */
static inline bool loopy_i_cr_probe_found(const loopy_i_cr_probe *probe)
{
    return probe->found;
}

/* The careful reader (read_text.c) over a text that a source gives (scan
 * set by loopy_i_scan_init_source with comments): as
 * loopy_i_read_text_careful without allow_trailing and without hints.
 * Memory grows with the edges read, never with the text. */
loopy_status loopy_i_read_text_fed(loopy_i_scan *scan,
                                   const loopy_read_options *options,
                                   loopy_graph **out, loopy_diag *diag);

/* Steps over a UTF-8 byte-order mark at the start of the text (as some
 * editors write one); columns of line 1 then count from after it. */
static inline void loopy_i_scan_skip_bom(loopy_i_scan *s)
{
    if (s->end - s->p >= 3 && (unsigned char)s->p[0] == 0xef &&
        (unsigned char)s->p[1] == 0xbb && (unsigned char)s->p[2] == 0xbf) {
        s->p += 3;
        s->line_start = s->p;
    }
}

/* 1-based column of p (counting the columns that slid out of a source's
 * window). */
uint64_t loopy_i_scan_column(const loopy_i_scan *s);

/* Skips blanks (space, tab, '\r', '\v', '\f') and, with comments, a comment
 * up to the end of the line; stays on the line. */
void loopy_i_scan_blanks(loopy_i_scan *s);

/* Skips white space, newlines, blank lines and comments; returns whether a
 * token follows (false at the end of the text). */
bool loopy_i_scan_skip_space(loopy_i_scan *s);

/* Reads an unsigned integer at p (no space skipping) that must be <= max and
 * end at white space, a comment's start or the end of the text.  On failure
 * fills diag with "expected WHAT, found ..." at p and returns LOOPY_EPARSE. */
loopy_status loopy_i_scan_uint(loopy_i_scan *s, uint64_t max, uint64_t *value,
                               const char *what, loopy_diag *diag);

/* After the blanks of the line: true if the line (or the text) ends here, and
 * then moves past the newline. */
bool loopy_i_scan_end_of_line(loopy_i_scan *s);

/* Describes the token at p for a message: "'abc'" (at most 20 bytes, then
 * "..."; bytes other than printable ASCII shown as '?'), "end of line",
 * "end of file".  buf must hold at least 48 bytes. */
const char *loopy_i_scan_describe(const loopy_i_scan *s, char *buf,
                                  size_t size);

/* Sets diag to "expected WHAT, found TOKEN" at p and returns LOOPY_EPARSE. */
loopy_status loopy_i_scan_expected(const loopy_i_scan *s, const char *what,
                                   loopy_diag *diag);

#endif
