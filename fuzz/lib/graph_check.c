/*
 * graph_check.c - invariants of graphs and of the text readers, for the fuzz
 * harnesses.  Uses only the public API.
 */
#include "fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small enough that no input makes one execution slow (n of about 30,000
 * at most: "30000 0" costs O(n) in each of the dozen reads of an input),
 * large enough for any graph a short input holds. */
#define FUZZ_MEMORY_LIMIT (1u << 20)

_Noreturn void fuzz_fail(const char *file, int line, const char *cond,
                         const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "fuzz: %s:%d: broken: %s: ", file, line, cond);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

void fuzz_require_same_graph(const loopy_graph *a, const loopy_graph *b)
{
    loopy_vertex n = loopy_graph_vertex_count(a);

    FUZZ_REQUIRE(loopy_graph_vertex_count(b) == n, "n %" PRIu32 " vs %" PRIu32,
                 n, loopy_graph_vertex_count(b));
    FUZZ_REQUIRE(loopy_graph_edge_count(a) == loopy_graph_edge_count(b),
                 "m %" PRIu64 " vs %" PRIu64, loopy_graph_edge_count(a),
                 loopy_graph_edge_count(b));
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge ka, kb;
        const loopy_vertex *sa = loopy_graph_successors(a, v, &ka);
        const loopy_vertex *sb = loopy_graph_successors(b, v, &kb);

        FUZZ_REQUIRE(ka == kb, "vertex %" PRIu32 ": %" PRIu64 " vs %" PRIu64
                     " successors", v, ka, kb);
        FUZZ_REQUIRE(ka == 0 || memcmp(sa, sb, (size_t)ka * sizeof *sa) == 0,
                     "vertex %" PRIu32 ": different successors", v);
    }
}

/* Requires the graph's sizes to add up and every successor to exist. */
static void require_valid_graph(const loopy_graph *g)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    loopy_edge total = 0;

    FUZZ_REQUIRE(n <= LOOPY_MAX_VERTICES, "n = %" PRIu32, n);
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, v, &k);

        for (loopy_edge e = 0; e < k; e++)
            FUZZ_REQUIRE(succ[e] < n, "vertex %" PRIu32 " -> %" PRIu32, v,
                         succ[e]);
        total += k;
    }
    FUZZ_REQUIRE(total == loopy_graph_edge_count(g), "degrees sum to %" PRIu64
                 ", m = %" PRIu64, total, loopy_graph_edge_count(g));
}

typedef struct text_sink {
    char *data;
    size_t len, capacity;
} text_sink;

static void sink_printf(text_sink *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sink_printf(text_sink *s, const char *fmt, ...)
{
    va_list ap;
    int need;

    /* 64 bytes hold any line written below. */
    if (s->capacity - s->len < 64) {
        s->capacity = s->capacity * 2 + 64;
        s->data = realloc(s->data, s->capacity);
        FUZZ_REQUIRE(s->data != NULL, "out of memory");
    }
    va_start(ap, fmt);
    need = vsnprintf(s->data + s->len, s->capacity - s->len, fmt, ap);
    va_end(ap);
    FUZZ_REQUIRE(need > 0 && (size_t)need < s->capacity - s->len, "line");
    s->len += (size_t)need;
}

char *fuzz_write_text(const loopy_graph *g, loopy_text_format format,
                      uint32_t base, size_t *len)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    text_sink s = {NULL, 0, 0};

    sink_printf(&s, "%" PRIu32 " %" PRIu64 "\n", n, loopy_graph_edge_count(g));
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, v, &k);

        if (format == LOOPY_TEXT_ADJ)
            sink_printf(&s, "%" PRIu64, k);
        for (loopy_edge e = 0; e < k; e++) {
            if (format == LOOPY_TEXT_ADJ)
                sink_printf(&s, " %" PRIu64, (uint64_t)succ[e] + base);
            else
                sink_printf(&s, "%" PRIu64 " %" PRIu64 "\n",
                            (uint64_t)v + base, (uint64_t)succ[e] + base);
        }
        if (format == LOOPY_TEXT_ADJ)
            sink_printf(&s, "\n");
    }
    *len = s.len;
    return s.data;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A message "expected X, found Y" must describe what is at its line and
 * column (at, with left bytes to the end of the text): Y is "end of file",
 * "end of line", a number there (or its value, leading zeros dropped),
 * "a loopy binary graph" where the binary format's magic stands, or the
 * word there in quotes (printable
 * ASCII as is, other bytes as '?', cut after 20 bytes with "..."). */
static void require_found_is_there(const char *message, const char *at,
                                   size_t left)
{
    const char *found = strstr(message, ", found ");
    size_t word = 0;

    if (found == NULL)
        return;
    found += strlen(", found ");
    while (word < left && !is_blank(at[word]) && at[word] != '\n')
        word++;
    if (strncmp(found, "end of file", 11) == 0) {
        FUZZ_REQUIRE(left == 0, "'%s' with %zu bytes left", message, left);
    } else if (strncmp(found, "end of line", 11) == 0) {
        FUZZ_REQUIRE(left > 0 && at[0] == '\n', "'%s' not at a newline",
                     message);
    } else if (strncmp(found, "a loopy binary graph", 20) == 0) {
        /* The contest readers name a binary graph where text was due
         * (at the start of the input), by its magic. */
        FUZZ_REQUIRE(left >= 4 && memcmp(at, "\x89LGR", 4) == 0,
                     "'%s' without the magic there", message);
    } else if (strncmp(found, "a UTF-8 byte-order mark", 23) == 0) {
        /* So do they a byte-order mark, which they do not skip. */
        FUZZ_REQUIRE(left >= 3 && memcmp(at, "\xef\xbb\xbf", 3) == 0,
                     "'%s' without the mark there", message);
    } else if (found[0] >= '0' && found[0] <= '9') {
        /* The number as written, or its value: the climb reader names a
         * repeated height by value ("found 7 again" where "007" stands). */
        size_t digits = strspn(found, "0123456789"), zeros = 0;
        while (zeros + 1 < word && at[zeros] == '0')
            zeros++;
        FUZZ_REQUIRE((digits <= word && memcmp(found, at, digits) == 0) ||
                         (zeros + digits == word &&
                          memcmp(found, at + zeros, digits) == 0),
                     "'%s': the number is not there", message);
    } else {
        size_t shown = strlen(found);
        int cut;

        FUZZ_REQUIRE(shown >= 2 && found[0] == '\'' && found[shown - 1] == '\'',
                     "'%s': found what?", message);
        shown -= 2;
        cut = word > 20;
        FUZZ_REQUIRE(shown == (cut ? 23 : word), "'%s': %zu bytes shown for a "
                     "word of %zu", message, shown, word);
        for (size_t i = 0; i < shown - (cut ? 3 : 0); i++) {
            unsigned char c = (unsigned char)at[i];
            char want = c >= 0x20 && c < 0x7f ? (char)c : '?';
            FUZZ_REQUIRE(found[1 + i] == want, "'%s': byte %zu is %d", message,
                         i, c);
        }
    }
}

void fuzz_require_good_diag(const char *text, size_t len, loopy_status status,
                            const loopy_diag *diag)
{
    size_t msg_len = strnlen(diag->message, sizeof diag->message);
    const char *line_start = text, *line_end;
    uint64_t line = 1;

    FUZZ_REQUIRE(status == LOOPY_EPARSE || status == LOOPY_ETOOBIG,
                 "status %d (%s): %s", (int)status, loopy_strerror(status),
                 diag->message);
    FUZZ_REQUIRE(msg_len > 0 && msg_len < sizeof diag->message,
                 "empty or unterminated message");
    for (size_t i = 0; i < msg_len; i++)
        FUZZ_REQUIRE((unsigned char)diag->message[i] >= 0x20 &&
                         (unsigned char)diag->message[i] < 0x7f,
                     "byte %d in message '%s'", diag->message[i],
                     diag->message);
    if (diag->line == 0) {
        FUZZ_REQUIRE(diag->column == 0, "column %" PRIu64 " without a line",
                     diag->column);
        return;
    }
    while (line < diag->line) {
        const char *nl = memchr(line_start, '\n', len - (size_t)(line_start - text));
        FUZZ_REQUIRE(nl != NULL, "line %" PRIu64 " but the text has %" PRIu64
                     ": %s", diag->line, line, diag->message);
        line_start = nl + 1;
        line++;
    }
    line_end = memchr(line_start, '\n', len - (size_t)(line_start - text));
    if (line_end == NULL)
        line_end = text + len;
    FUZZ_REQUIRE(diag->column >= 1 &&
                     diag->column <= (uint64_t)(line_end - line_start) + 1,
                 "column %" PRIu64 " of line %" PRIu64 " of %zu bytes: %s",
                 diag->column, diag->line, (size_t)(line_end - line_start),
                 diag->message);
    require_found_is_there(diag->message, line_start + diag->column - 1,
                           (size_t)(text + len - line_start) -
                               (size_t)(diag->column - 1));
}

/* Requires the library's verdict on a text to agree with the reference
 * reader's (fuzz/lib/text_oracle.c). */
static void require_oracle_agrees(const char *text, size_t len,
                                  const loopy_read_options *opt,
                                  loopy_status status, const loopy_graph *g,
                                  size_t end, const loopy_diag *diag)
{
    loopy_graph *expected = NULL;
    uint64_t n, m;
    size_t oracle_end = SIZE_MAX;
    int verdict = fuzz_oracle_read(text, len, opt, &n, &m, &expected,
                                   &oracle_end);

    switch (status) {
    case LOOPY_OK:
        FUZZ_REQUIRE(verdict == 1, "the library read a graph, the oracle "
                     "says %s", verdict ? "too big" : "not a graph");
        fuzz_require_same_graph(expected, g);
        if (opt->allow_trailing)
            FUZZ_REQUIRE(end == oracle_end, "end offset %zu, oracle %zu", end,
                         oracle_end);
        break;
    case LOOPY_ETOOBIG:
        /* Refused for its announced size: n must be over the vertex limit
         * (then m need not be read), or the header's sizes not far below
         * the memory limit. */
        FUZZ_REQUIRE(n > LOOPY_MAX_VERTICES ||
                         (verdict >= 0 &&
                          (m > (UINT64_MAX - 8 * (n + 1)) / 4 / 16 ||
                           16 * (8 * (n + 1) + 4 * m) > opt->memory_limit)),
                     "refused as too big: n %" PRIu64 " m %" PRIu64 ": %s", n,
                     m, diag->message);
        break;
    default:
        FUZZ_REQUIRE(verdict <= 0, "the library refused a graph (%s) that "
                     "the oracle read", diag->message);
        break;
    }
    loopy_graph_free(expected);
}

/* Reads text[0..len) (a copy of exactly len bytes, so that the sanitizers
 * see any read past the end) and checks the outcome on its own and against
 * the reference reader. */
static loopy_status read_checked(const char *text, size_t len,
                                 const loopy_read_options *opt,
                                 loopy_graph **out, size_t *end,
                                 loopy_diag *diag)
{
    char *copy = malloc(len ? len : 1);
    loopy_status status;

    FUZZ_REQUIRE(copy != NULL, "out of memory");
    if (len > 0)
        memcpy(copy, text, len);
    memset(diag, 0, sizeof *diag);
    *out = (loopy_graph *)(uintptr_t)1; /* must be overwritten */
    status = loopy_read_text(copy, len, opt, out, end, diag);
    if (status != LOOPY_OK) {
        FUZZ_REQUIRE(*out == NULL, "*out set on failure");
        /* The graph readers skip a UTF-8 byte-order mark at the start and
         * count line 1's columns from after it, as an editor shows them
         * (fuzz/read_pairs.c does the same). */
        if (len >= 3 && memcmp(copy, "\xef\xbb\xbf", 3) == 0)
            fuzz_require_good_diag(copy + 3, len - 3, status, diag);
        else
            fuzz_require_good_diag(copy, len, status, diag);
    } else {
        loopy_vertex n = loopy_graph_vertex_count(*out);
        loopy_edge m = loopy_graph_edge_count(*out);

        require_valid_graph(*out);
        /* The graph alone takes 8(n + 1) + 4m bytes (loopy.h). */
        FUZZ_REQUIRE(8 * ((uint64_t)n + 1) + 4 * m <= opt->memory_limit,
                     "n = %" PRIu32 ", m = %" PRIu64 " over the limit", n, m);
        if (opt->allow_trailing && end != NULL)
            FUZZ_REQUIRE(*end <= len, "end offset %zu of %zu", *end, len);
    }
    require_oracle_agrees(copy, len, opt, status, *out,
                          end != NULL ? *end : 0, diag);
    free(copy);
    return status;
}

/* Requires g, written out in its format (with either base) and read again,
 * to come back identical. */
static void require_round_trip(const loopy_graph *g,
                               const loopy_read_options *opt)
{
    for (uint32_t base = 0; base <= 1; base++) {
        loopy_read_options again = *opt;
        loopy_graph *copy;
        loopy_diag diag;
        size_t len;
        char *text = fuzz_write_text(g, opt->format, base, &len);
        loopy_status status;

        again.base = base;
        again.allow_trailing = 0;
        status = read_checked(text, len, &again, &copy, NULL, &diag);
        FUZZ_REQUIRE(status == LOOPY_OK, "reading back: %s at %" PRIu64 ":%"
                     PRIu64, diag.message, diag.line, diag.column);
        fuzz_require_same_graph(g, copy);
        loopy_graph_free(copy);
        free(text);
    }
}

void fuzz_text_reader(const uint8_t *data, size_t size,
                      loopy_text_format format)
{
    const char *text = (const char *)data;

    for (uint32_t base = 0; base <= 1; base++) {
        loopy_read_options opt = {
            .format = format, .base = base, .memory_limit = FUZZ_MEMORY_LIMIT};
        loopy_graph *whole, *prefix, *again;
        loopy_diag whole_diag, prefix_diag, again_diag;
        loopy_status whole_status, prefix_status, again_status;
        size_t end = SIZE_MAX;

        whole_status = read_checked(text, size, &opt, &whole, NULL, &whole_diag);
        if (whole_status == LOOPY_OK) {
            require_round_trip(whole, &opt);
            fuzz_require_binary_round_trip(whole);
        }

        opt.allow_trailing = 1;
        prefix_status = read_checked(text, size, &opt, &prefix, &end,
                                     &prefix_diag);
        if (prefix_status != LOOPY_OK) {
            /* A graph that cannot be read fails the same way either way. */
            FUZZ_REQUIRE(whole_status == prefix_status &&
                             whole_diag.line == prefix_diag.line &&
                             whole_diag.column == prefix_diag.column &&
                             strcmp(whole_diag.message, prefix_diag.message) == 0,
                         "with trailing text allowed: '%s', without: '%s'",
                         prefix_diag.message, whole_diag.message);
            continue;
        }
        /* The text up to the end offset is exactly the graph. */
        opt.allow_trailing = 0;
        again_status = read_checked(text, end, &opt, &again, NULL, &again_diag);
        FUZZ_REQUIRE(again_status == LOOPY_OK, "prefix of %zu bytes: %s", end,
                     again_diag.message);
        fuzz_require_same_graph(prefix, again);
        if (whole_status == LOOPY_OK)
            fuzz_require_same_graph(prefix, whole);
        loopy_graph_free(again);
        loopy_graph_free(prefix);
        loopy_graph_free(whole);
    }
}
