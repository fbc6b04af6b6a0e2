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
    s->comments = comments;
    s->percent = false;
}

/* Whether c starts a comment here. */
static bool is_comment(const loopy_i_scan *s, char c)
{
    return s->comments && (c == '#' || (s->percent && c == '%'));
}

uint64_t loopy_i_scan_column(const loopy_i_scan *s)
{
    return (uint64_t)(s->p - s->line_start) + 1;
}

void loopy_i_scan_blanks(loopy_i_scan *s)
{
    while (s->p < s->end && is_blank(*s->p))
        s->p++;
    if (s->p < s->end && is_comment(s, *s->p)) {
        const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
        s->p = nl != NULL ? nl : s->end;
    }
}

bool loopy_i_scan_skip_space(loopy_i_scan *s)
{
    for (;;) {
        loopy_i_scan_blanks(s);
        if (s->p >= s->end)
            return false;
        if (*s->p != '\n')
            return true;
        s->p++;
        s->line++;
        s->line_start = s->p;
    }
}

bool loopy_i_scan_end_of_line(loopy_i_scan *s)
{
    loopy_i_scan_blanks(s);
    if (s->p >= s->end)
        return true;
    if (*s->p != '\n')
        return false;
    s->p++;
    s->line++;
    s->line_start = s->p;
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

loopy_status loopy_i_scan_uint(loopy_i_scan *s, uint64_t max, uint64_t *value,
                               const char *what, loopy_diag *diag)
{
    const char *q = s->p;
    uint64_t v = 0;
    bool too_big = false;

    while (q < s->end && *q >= '0' && *q <= '9') {
        unsigned digit = (unsigned)(*q - '0');
        if (v > (UINT64_MAX - digit) / 10)
            too_big = true;
        else
            v = v * 10 + digit;
        q++;
    }
    if (q == s->p || (q < s->end && !is_blank(*q) && *q != '\n' &&
                      !is_comment(s, *q)))
        return loopy_i_scan_expected(s, what, diag);
    if (too_big || v > max) {
        char buf[64];
        const char *found = loopy_i_scan_describe(s, buf, sizeof buf);
        if (too_big)
            loopy_i_diag(diag, s->line, loopy_i_scan_column(s),
                         "number too large: expected %s, found %s", what,
                         found);
        else /* what states the range */
            loopy_i_diag(diag, s->line, loopy_i_scan_column(s),
                         "expected %s, found %s", what, found);
        return LOOPY_EPARSE;
    }
    s->p = q;
    *value = v;
    return LOOPY_OK;
}
