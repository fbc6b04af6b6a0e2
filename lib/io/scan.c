/* scan.c - see scan.h. */
#include "scan.h"

#include <stdio.h>
#include <string.h>

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

void loopy_i_scan_init(loopy_i_scan *s, const char *text, size_t len,
                       bool comments)
{
    s->text = text;
    s->p = text;
    s->end = text + len;
    s->line_start = text;
    s->line = 1;
    s->column_carry = 0;
    s->comments = comments;
    s->percent = false;
    s->source = NULL;
}

void loopy_i_scan_init_source(loopy_i_scan *s, loopy_i_scan_source *source,
                              bool comments)
{
    loopy_i_scan_init(s, source->window, 0, comments);
    s->source = source;
    source->eof = false;
    loopy_i_scan_more(s);
}

bool loopy_i_scan_more(loopy_i_scan *s)
{
    loopy_i_scan_source *f = s->source;
    size_t keep, have;

    if (f == NULL || f->eof)
        return false;
    keep = (size_t)(s->end - s->p);
    /* The line's columns before p slide out with the bytes before it. */
    s->column_carry += (uint64_t)(s->p - s->line_start);
    memmove(f->window, s->p, keep);
    for (have = keep; have < f->size;) {
        size_t got = f->read(f->ctx, f->window + have, f->size - have);
        if (got == 0) {
            f->eof = true;
            break;
        }
        have += got;
    }
    s->text = s->p = s->line_start = f->window;
    s->end = f->window + have;
    return have > keep;
}

/* With a source: LOOPY_I_SCAN_AHEAD bytes from p in the window, or the rest
 * of the text. */
static void ahead(loopy_i_scan *s)
{
    if (s->source != NULL && (size_t)(s->end - s->p) < LOOPY_I_SCAN_AHEAD)
        loopy_i_scan_more(s);
}

/* Whether c starts a comment here. */
static bool is_comment(const loopy_i_scan *s, char c)
{
    return s->comments && (c == '#' || (s->percent && c == '%'));
}

uint64_t loopy_i_scan_column(const loopy_i_scan *s)
{
    return (uint64_t)(s->p - s->line_start) + 1 + s->column_carry;
}

void loopy_i_scan_blanks(loopy_i_scan *s)
{
    /* Runs of blanks and comments of any length, across windows. */
    do {
        while (s->p < s->end && is_blank(*s->p))
            s->p++;
    } while (s->p == s->end && loopy_i_scan_more(s));
    if (s->p < s->end && is_comment(s, *s->p)) {
        const char *nl;
        while ((nl = memchr(s->p, '\n', (size_t)(s->end - s->p))) == NULL) {
            s->p = s->end;
            if (!loopy_i_scan_more(s))
                break;
        }
        if (nl != NULL)
            s->p = nl;
    }
    ahead(s);
}

/* Moves past the newline at p. */
static void next_line(loopy_i_scan *s)
{
    s->p++;
    s->line++;
    s->line_start = s->p;
    s->column_carry = 0;
}

bool loopy_i_scan_skip_space(loopy_i_scan *s)
{
    for (;;) {
        loopy_i_scan_blanks(s);
        if (s->p >= s->end)
            return false;
        if (*s->p != '\n')
            return true;
        /* Blank lines come in runs (a text of nothing else, too). */
        {
            const char *q = s->p + 1;
            while (q < s->end && *q == '\n')
                q++;
            s->line += (uint64_t)(q - s->p);
            s->p = s->line_start = q;
            s->column_carry = 0;
        }
    }
}

bool loopy_i_scan_end_of_line(loopy_i_scan *s)
{
    loopy_i_scan_blanks(s);
    if (s->p >= s->end)
        return true;
    if (*s->p != '\n')
        return false;
    next_line(s);
    return true;
}

const char *loopy_i_scan_describe(const loopy_i_scan *s, char *buf, size_t size)
{
    size_t len = 0, k = 0;
    bool more;

    if (s->p >= s->end)
        return "end of file";
    if (*s->p == '\n')
        return "end of line";
    while (s->p + len < s->end && !is_blank(s->p[len]) && s->p[len] != '\n' &&
           len < 20)
        len++;
    more = s->p + len < s->end && !is_blank(s->p[len]) && s->p[len] != '\n';
    /* Bytes other than printable ASCII (control bytes, NUL, bytes of other
     * encodings) are shown as '?', so a message stays one clean line. */
    if (size < len + sizeof "''...")
        return "a word";
    buf[k++] = '\'';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s->p[i];
        buf[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    if (more) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

loopy_status loopy_i_scan_expected(const loopy_i_scan *s, const char *what,
                                   loopy_diag *diag)
{
    char buf[64];

    loopy_i_diag(diag, s->line, loopy_i_scan_column(s), "expected %s, found %s",
                 what, loopy_i_scan_describe(s, buf, sizeof buf));
    return LOOPY_EPARSE;
}

/* Adds the digits from s->p on to *v (*too_big once it overflows) and
 * returns where they end. */
static const char *digits(const loopy_i_scan *s, uint64_t *v, bool *too_big)
{
    const char *q = s->p;

    while (q < s->end && *q >= '0' && *q <= '9') {
        unsigned digit = (unsigned)(*q - '0');
        if (*v > (UINT64_MAX - digit) / 10)
            *too_big = true;
        else
            *v = *v * 10 + digit;
        q++;
    }
    return q;
}

/* The verdict on a number read: at line:column, found as a message
 * quotes it, ended at a byte that may follow a number (ended_well). */
static loopy_status number_verdict(uint64_t line, uint64_t column,
                                   const char *found, bool ended_well,
                                   bool too_big, uint64_t v, uint64_t max,
                                   const char *what, loopy_diag *diag)
{
    if (!ended_well)
        loopy_i_diag(diag, line, column, "expected %s, found %s", what, found);
    else if (too_big)
        loopy_i_diag(diag, line, column,
                     "number too large: expected %s, found %s", what, found);
    else if (v > max) /* what states the range */
        loopy_i_diag(diag, line, column, "expected %s, found %s", what, found);
    else
        return LOOPY_OK;
    return LOOPY_EPARSE;
}

/* Whether the byte at q may follow a number. */
static bool number_end(const loopy_i_scan *s, const char *q)
{
    return q == s->end || is_blank(*q) || *q == '\n' || is_comment(s, *q);
}

loopy_status loopy_i_scan_uint(loopy_i_scan *s, uint64_t max, uint64_t *value,
                               const char *what, loopy_diag *diag)
{
    const char *q;
    uint64_t v = 0, line, column;
    bool too_big = false;
    char buf[64], found[64];
    loopy_status status;

    q = digits(s, &v, &too_big);
    if (q == s->end && q > s->p && s->source != NULL && !s->source->eof) {
        /* Digits up to the window's end (a window holds LOOKAHEAD bytes
         * of a token, so this is a long run: leading zeros, or a number
         * too large): read on across windows, the message's quote of the
         * token kept before it slides out. */
        line = s->line;
        column = loopy_i_scan_column(s);
        snprintf(found, sizeof found, "%s",
                 loopy_i_scan_describe(s, buf, sizeof buf));
        do {
            s->p = digits(s, &v, &too_big);
        } while (s->p == s->end && loopy_i_scan_more(s));
        status = number_verdict(line, column, found, number_end(s, s->p),
                                too_big, v, max, what, diag);
        if (status == LOOPY_OK)
            *value = v;
        return status;
    }
    if (q == s->p || !number_end(s, q))
        return loopy_i_scan_expected(s, what, diag);
    status = number_verdict(s->line, loopy_i_scan_column(s),
                            too_big || v > max
                                ? loopy_i_scan_describe(s, buf, sizeof buf)
                                : "",
                            true, too_big, v, max, what, diag);
    if (status != LOOPY_OK)
        return status;
    s->p = q;
    *value = v;
    return LOOPY_OK;
}
