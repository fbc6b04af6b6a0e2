/*
 * scan.h - a cursor over text in memory that knows its line and column, for
 * the library's readers.  Numbers are unsigned decimal integers without sign;
 * a token is a run of bytes other than white space.
 */
#ifndef LOOPY_SCAN_H
#define LOOPY_SCAN_H

#include "../core/internal.h"

typedef struct loopy_i_scan {
    const char *text; /* start of the text */
    const char *p;    /* next byte to read */
    const char *end;  /* one past the last byte */
    const char *line_start;
    uint64_t line;    /* 1-based line of p */
    bool comments;    /* '#' starts a comment running to the end of line */
    bool percent;     /* with comments, '%' starts one too (set after init) */
} loopy_i_scan;

void loopy_i_scan_init(loopy_i_scan *s, const char *text, size_t len,
                       bool comments);

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

/* 1-based column of p. */
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
