/*
 * text_oracle.c - a second, deliberately simple reader of the text formats,
 * for differential fuzzing of loopy_read_text.
 *
 * Where the library scans with a cursor, this one works line by line: cut
 * each line at its first '#', split it into tokens at blanks (space, tab,
 * CR, VT, FF), drop lines without tokens, and read the remaining lines as
 * records: the header "n m", then m edge lines "u v" (edges) or n vertex
 * lines "k v1 .. vk" (adjacency).  A number is a run of decimal digits.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

typedef struct oracle {
    const char *text;
    size_t len;
    size_t pos;      /* start of the next line */
    size_t line_end; /* end of the current record's line (with its '\n') */
    /* Tokens of the current record: offsets and lengths. */
    size_t *start, *length;
    size_t count, capacity;
} oracle;

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Loads the next line with tokens into o; 0 at the end of the text. */
static int next_record(oracle *o)
{
    while (o->pos < o->len) {
        const char *line = o->text + o->pos;
        const char *nl = memchr(line, '\n', o->len - o->pos);
        size_t line_len = nl ? (size_t)(nl - line) : o->len - o->pos;
        const char *hash = memchr(line, '#', line_len);
        size_t content = hash ? (size_t)(hash - line) : line_len;

        o->count = 0;
        for (size_t i = 0; i < content;) {
            size_t j = i;
            if (is_blank(line[i])) {
                i++;
                continue;
            }
            while (j < content && !is_blank(line[j]))
                j++;
            if (o->count == o->capacity) {
                o->capacity = o->capacity * 2 + 8;
                o->start = realloc(o->start, o->capacity * sizeof *o->start);
                o->length = realloc(o->length, o->capacity * sizeof *o->length);
                FUZZ_REQUIRE(o->start && o->length, "out of memory");
            }
            o->start[o->count] = o->pos + i;
            o->length[o->count] = j - i;
            o->count++;
            i = j;
        }
        o->pos += line_len + (nl ? 1 : 0);
        o->line_end = o->pos;
        if (o->count > 0)
            return 1;
    }
    return 0;
}

/* Token t as a number; 0 if it is not digits or exceeds UINT64_MAX. */
static int token_number(const oracle *o, size_t t, uint64_t *value)
{
    const char *s = o->text + o->start[t];
    uint64_t v = 0;

    for (size_t i = 0; i < o->length[t]; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *value = v;
    return 1;
}

static int token_vertex(const oracle *o, size_t t, uint64_t n, uint32_t base,
                        loopy_vertex *v)
{
    uint64_t value;

    if (!token_number(o, t, &value) || value < base || value - base >= n)
        return 0;
    *v = (loopy_vertex)(value - base);
    return 1;
}

/* See fuzz.h. */
int fuzz_oracle_read(const char *text, size_t len,
                     const loopy_read_options *opt, uint64_t *header_n,
                     uint64_t *header_m, loopy_graph **out, size_t *end)
{
    oracle o = {text, len, 0, 0, NULL, NULL, 0, 0};
    loopy_vertex *tail = NULL, *head = NULL;
    uint64_t n, m, count = 0, records;
    int ok = -1;

    *header_n = *header_m = 0;
    *out = NULL;
    /* A UTF-8 byte-order mark at the start is skipped, as the readers
     * do. */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        o.pos = 3;
    if (!next_record(&o) || !token_number(&o, 0, &n))
        goto done;
    *header_n = n;
    if (o.count != 2 || !token_number(&o, 1, &m))
        goto done;
    *header_m = m;
    *end = o.line_end;
    ok = 0;
    if (n > LOOPY_MAX_VERTICES || m > len) /* m > len: the text is too short */
        goto done;
    tail = malloc(m ? (size_t)m * sizeof *tail : 1);
    head = malloc(m ? (size_t)m * sizeof *head : 1);
    FUZZ_REQUIRE(tail && head, "out of memory");
    records = opt->format == LOOPY_TEXT_EDGES ? m : n;
    for (uint64_t r = 0; r < records; r++) {
        if (!next_record(&o))
            goto done;
        if (opt->format == LOOPY_TEXT_EDGES) {
            if (o.count != 2 || !token_vertex(&o, 0, n, opt->base, &tail[r]) ||
                !token_vertex(&o, 1, n, opt->base, &head[r]))
                goto done;
            count++;
        } else {
            uint64_t k;
            if (!token_number(&o, 0, &k) || k > m - count || o.count != k + 1)
                goto done;
            for (uint64_t i = 0; i < k; i++) {
                tail[count] = (loopy_vertex)r;
                if (!token_vertex(&o, (size_t)i + 1, n, opt->base, &head[count]))
                    goto done;
                count++;
            }
        }
        *end = o.line_end;
    }
    if (count != m)
        goto done;
    if (!opt->allow_trailing && next_record(&o))
        goto done;
    if (opt->memory_limit != 0 &&
        8 * (n + 1) + 4 * m > opt->memory_limit) {
        ok = 2; /* a graph, too large to build here */
        goto done;
    }
    FUZZ_REQUIRE(loopy_graph_from_edges((loopy_vertex)n, m, tail, head, out) ==
                     LOOPY_OK, "loopy_graph_from_edges refused the oracle's graph");
    ok = 1;

done:
    free(tail);
    free(head);
    free(o.start);
    free(o.length);
    return ok;
}
