/*
 * seed_check.c - what the seed-format harnesses (race, sleepy, climb)
 * share: a token list of the input made by a scan of its own (for the
 * harnesses' reference readers), a cursor over it that knows where the
 * first bad place is, and the sources the command-line tool reads from.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* White space of the seed formats: newlines and blanks (loopy.h says "any
 * white space"; the blanks are those of the text readers). */
static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' ||
           c == '\f';
}

void fuzz_tokenize(const char *text, size_t len, fuzz_tokens *out)
{
    size_t capacity = 0, line_start = 0;
    uint64_t line = 1;

    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < len;) {
        fuzz_token *t;
        size_t j = i;

        if (text[i] == '\n') {
            line++;
            line_start = ++i;
            continue;
        }
        if (is_space(text[i])) {
            i++;
            continue;
        }
        if (out->count == capacity) {
            capacity = capacity * 2 + 16;
            out->token = realloc(out->token, capacity * sizeof *out->token);
            FUZZ_REQUIRE(out->token != NULL, "out of memory");
        }
        t = &out->token[out->count++];
        t->line = line;
        t->column = i - line_start + 1;
        t->kind = FUZZ_TOKEN_NUMBER;
        t->value = 0;
        while (j < len && !is_space(text[j])) {
            unsigned digit = (unsigned)(unsigned char)text[j] - '0';
            if (digit > 9)
                t->kind = FUZZ_TOKEN_WORD;
            else if (t->kind == FUZZ_TOKEN_NUMBER &&
                     t->value > (UINT64_MAX - digit) / 10)
                t->kind = FUZZ_TOKEN_HUGE;
            else if (t->kind == FUZZ_TOKEN_NUMBER)
                t->value = t->value * 10 + digit;
            j++;
        }
        i = j;
    }
    out->end_line = line;
    out->end_column = len - line_start + 1;
}

void fuzz_tokens_release(fuzz_tokens *tokens)
{
    free(tokens->token);
    memset(tokens, 0, sizeof *tokens);
}

void fuzz_cursor_init(fuzz_cursor *c, const fuzz_tokens *tokens)
{
    memset(c, 0, sizeof *c);
    c->tokens = tokens;
}

void fuzz_cursor_fail_here(fuzz_cursor *c)
{
    if (c->failed)
        return;
    c->failed = 1;
    if (c->next < c->tokens->count) {
        c->line = c->tokens->token[c->next].line;
        c->column = c->tokens->token[c->next].column;
    } else {
        c->line = c->tokens->end_line;
        c->column = c->tokens->end_column;
    }
}

int fuzz_cursor_uint(fuzz_cursor *c, uint64_t min, uint64_t max,
                     uint64_t *value)
{
    const fuzz_token *t;

    if (c->failed)
        return 0;
    if (c->next >= c->tokens->count) {
        fuzz_cursor_fail_here(c);
        return 0;
    }
    t = &c->tokens->token[c->next];
    if (t->kind != FUZZ_TOKEN_NUMBER || t->value < min || t->value > max) {
        fuzz_cursor_fail_here(c);
        return 0;
    }
    c->last_line = t->line;
    c->last_column = t->column;
    c->next++;
    *value = t->value;
    return 1;
}

int fuzz_cursor_end(fuzz_cursor *c)
{
    if (c->failed)
        return 0;
    if (c->next < c->tokens->count) {
        fuzz_cursor_fail_here(c);
        return 0;
    }
    return 1;
}

void fuzz_require_diag_at(const char *text, size_t len, loopy_status status,
                          const loopy_diag *diag, uint64_t line,
                          uint64_t column)
{
    fuzz_require_good_diag(text, len, status, diag);
    FUZZ_REQUIRE(diag->line == line && diag->column == column,
                 "'%s' at %" PRIu64 ":%" PRIu64 ", expected at %" PRIu64
                 ":%" PRIu64, diag->message, diag->line, diag->column, line,
                 column);
}

void fuzz_require_same_diag(const loopy_diag *a, const loopy_diag *b,
                            const char *what)
{
    FUZZ_REQUIRE(a->line == b->line && a->column == b->column &&
                     strcmp(a->message, b->message) == 0,
                 "%s: '%s' at %" PRIu64 ":%" PRIu64 " vs '%s' at %" PRIu64
                 ":%" PRIu64, what, a->message, a->line, a->column,
                 b->message, b->line, b->column);
}

/* ---- Sources like the command-line tool's ---- */

/* Bytes put before the input in the file that stands for standard input:
 * the reader must start where the descriptor stands ("loopy race < file"
 * after something else read part of the file). */
static const char stdin_prefix[] = "not part of the input\n";

/* The largest input written to a pipe at once (without a reader yet). */
#define PIPE_MAX 32768

const char *const fuzz_source_names[FUZZ_SOURCE_KINDS] = {
    "memory", "file", "standard input from a file", "standard input from a pipe"};

int fuzz_source_kinds(size_t size)
{
    return size <= PIPE_MAX ? FUZZ_SOURCE_KINDS : FUZZ_SOURCE_KINDS - 1;
}

static void write_all(int fd, const void *data, size_t size)
{
    const char *p = data;

    while (size > 0) {
        ssize_t put = write(fd, p, size);
        FUZZ_REQUIRE(put > 0, "cannot write a temporary input");
        p += put;
        size -= (size_t)put;
    }
}

/* A temporary file holding prefix then data; returns its descriptor, at
 * offset 0, and its name in path (unlinked by the caller). */
static int temp_file(const char *prefix, const uint8_t *data, size_t size,
                     char *path, size_t path_size)
{
    const char *dir = getenv("TMPDIR");
    int fd;

    snprintf(path, path_size, "%s/loopy-fuzz-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    fd = mkstemp(path);
    FUZZ_REQUIRE(fd >= 0, "cannot create %s", path);
    write_all(fd, prefix, strlen(prefix));
    write_all(fd, data, size);
    FUZZ_REQUIRE(lseek(fd, 0, SEEK_SET) == 0, "cannot seek %s", path);
    return fd;
}

loopy_status fuzz_read_source(int kind, const uint8_t *data, size_t size,
                              fuzz_reader read, void *ctx, loopy_diag *diag)
{
    loopy_source *source = NULL;
    loopy_status status;
    char path[4096];
    int fd = -1, saved_stdin = -1;
    char *copy = NULL;

    memset(diag, 0, sizeof *diag);
    switch (kind) {
    case FUZZ_SOURCE_MEMORY:
        /* Exactly size bytes, so the sanitizers see a read past the end. */
        copy = malloc(size ? size : 1);
        FUZZ_REQUIRE(copy != NULL, "out of memory");
        if (size > 0)
            memcpy(copy, data, size);
        FUZZ_REQUIRE(loopy_source_from_memory(copy, size, &source) == LOOPY_OK,
                     "memory source");
        break;
    case FUZZ_SOURCE_FILE:
        fd = temp_file("", data, size, path, sizeof path);
        status = loopy_source_open(path, &source, diag);
        FUZZ_REQUIRE(status == LOOPY_OK, "opening %s: %s", path, diag->message);
        break;
    case FUZZ_SOURCE_STDIN_FILE:
    case FUZZ_SOURCE_STDIN_PIPE:
        if (kind == FUZZ_SOURCE_STDIN_FILE) {
            fd = temp_file(stdin_prefix, data, size, path, sizeof path);
            FUZZ_REQUIRE(lseek(fd, (off_t)strlen(stdin_prefix), SEEK_SET) > 0,
                         "cannot seek %s", path);
        } else {
            int ends[2];
            FUZZ_REQUIRE(size <= PIPE_MAX && pipe(ends) == 0, "pipe");
            write_all(ends[1], data, size);
            close(ends[1]);
            fd = ends[0];
        }
        saved_stdin = dup(STDIN_FILENO);
        FUZZ_REQUIRE(saved_stdin >= 0 && dup2(fd, STDIN_FILENO) == STDIN_FILENO,
                     "cannot redirect standard input");
        status = loopy_source_open(NULL, &source, diag);
        FUZZ_REQUIRE(status == LOOPY_OK, "opening stdin: %s", diag->message);
        break;
    default:
        FUZZ_REQUIRE(0, "source kind %d", kind);
    }
    status = read(source, ctx, diag);
    loopy_source_free(source);
    if (saved_stdin >= 0) {
        FUZZ_REQUIRE(dup2(saved_stdin, STDIN_FILENO) == STDIN_FILENO,
                     "cannot restore standard input");
        close(saved_stdin);
    }
    if (fd >= 0)
        close(fd);
    if (kind == FUZZ_SOURCE_FILE || kind == FUZZ_SOURCE_STDIN_FILE)
        unlink(path);
    free(copy);
    return status;
}
