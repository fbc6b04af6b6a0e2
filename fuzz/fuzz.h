/*
 * fuzz.h - what the fuzz harnesses share.
 *
 * A harness is one file fuzz/NAME.c that starts its entry point with
 * FUZZ_TARGET(NAME) and has a seed corpus in fuzz/corpus/NAME/ (an optional
 * libFuzzer dictionary may sit beside it as fuzz/NAME.dict).  Nothing else
 * needs editing to add one:
 *  - "make fuzz" links each fuzz/NAME.c with libFuzzer (clang) into
 *    build/fuzz/NAME, where FUZZ_TARGET defines LLVMFuzzerTestOneInput;
 *  - "make check" links every harness, built with -DFUZZ_REPLAY by the
 *    ordinary compiler, into tests/test_fuzz_replay, where FUZZ_TARGET
 *    registers the harness by name so that its corpus is replayed.
 *
 * A harness reports a broken invariant with FUZZ_REQUIRE, which prints the
 * reason and aborts: libFuzzer then saves the input as a crash, and the
 * replay driver (which runs each input in a child process) counts a failure.
 * Harnesses use only include/loopy.h, so they keep working whatever the
 * library does inside; the one exception is fuzz/lib/binary_check.c, which
 * reaches the binary loader in memory (see there).
 */
#ifndef LOOPY_FUZZ_H
#define LOOPY_FUZZ_H

#include "loopy.h"

#include <stddef.h>
#include <stdint.h>

typedef int (*fuzz_entry)(const uint8_t *data, size_t size);

#ifdef FUZZ_REPLAY
/* Defined by the replay driver; called before main by each harness. */
void fuzz_register(const char *name, fuzz_entry entry);
#define FUZZ_TARGET(NAME)                                                      \
    static int fuzz_entry_##NAME(const uint8_t *data, size_t size);            \
    __attribute__((constructor)) static void fuzz_register_##NAME(void)        \
    {                                                                          \
        fuzz_register(#NAME, fuzz_entry_##NAME);                               \
    }                                                                          \
    static int fuzz_entry_##NAME(const uint8_t *data, size_t size)
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define FUZZ_TARGET(NAME) int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#endif

/* Aborts with "fuzz: FILE:LINE: broken: COND: message" when cond is false. */
#define FUZZ_REQUIRE(cond, ...)                                                \
    do {                                                                       \
        if (!(cond))                                                           \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                 \
    } while (0)

_Noreturn void fuzz_fail(const char *file, int line, const char *cond,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- Databases (fuzz/lib/db_fix.c) ---- */

/* Recomputes the checksums that lie inside a database's bytes p[0..len):
 * each block the index names, the index, the header. */
void fuzz_fix_db_checksums(uint8_t *p, size_t len);
/* A copy of data with its checksums made right again (fuzz_fix_db_checksums,
 * malloc'd, for the caller to free), for one input in two (by the sum of
 * its bytes, so that a replay takes the same), when that changes it; else
 * NULL.  Mutations then reach the checks behind the checksums. */
uint8_t *fuzz_db_fixed(const uint8_t *data, size_t size);

/* ---- Checks on graphs (fuzz/lib/graph_check.c) ---- */

/* Requires a and b to have the same vertices and the same successor lists. */
void fuzz_require_same_graph(const loopy_graph *a, const loopy_graph *b);

/* Writes g in a text format with ids starting at base, into a malloc'd
 * buffer (*len bytes, not NUL-terminated); aborts if memory runs out. */
char *fuzz_write_text(const loopy_graph *g, loopy_text_format format,
                      uint32_t base, size_t *len);

/* Requires a failed read of text[0..len) to be described sensibly: a known
 * status, a one-line message, and a line and column inside the text. */
void fuzz_require_good_diag(const char *text, size_t len, loopy_status status,
                            const loopy_diag *diag);

/* The reader harness for a text format: reads data with base 0 and 1, with
 * and without allow_trailing, and checks how the four results relate, the
 * graph's round trips through fuzz_write_text and through the binary
 * format (fuzz_require_binary_round_trip), and every diagnostic. */
void fuzz_text_reader(const uint8_t *data, size_t size,
                      loopy_text_format format);

/* ---- The binary format (fuzz/lib/binary_check.c) ---- */

/* Writes g with loopy_write_binary into a malloc'd buffer of *len bytes;
 * aborts on failure. */
uint8_t *fuzz_write_binary(const loopy_graph *g, size_t *len);

/* Whether loopy_read_file would take data[0..size) for a binary file. */
int fuzz_is_binary(const uint8_t *data, size_t size);

/* Loads binary bytes (fuzz_is_binary) as loopy_read_file does from a pipe,
 * on an exact-size heap copy, with one thread.  A failure must be
 * LOOPY_EFORMAT with a one-line message and no line or column. */
loopy_status fuzz_read_binary(const uint8_t *data, size_t size,
                              int skip_successors, loopy_graph **out,
                              loopy_diag *diag);

/* Recomputes the checksums of the header's sections that lie inside the
 * bytes, then the header's own (nothing when size < 144), so that damage
 * reaches the loader's range checks. */
void fuzz_fix_binary_checksums(uint8_t *data, size_t size);

/* Requires out-degrees, predecessor lists and (when present) successor
 * lists to describe one graph: ids below n, sums m, u a predecessor once
 * per move of u, and each vertex's predecessors the sources of its
 * in-edges. */
void fuzz_require_consistent_graph(const loopy_graph *g);

/* Requires the same n, m, out-degrees and predecessor lists, and the same
 * successor lists when both graphs have them. */
void fuzz_require_same_lists(const loopy_graph *a, const loopy_graph *b);

/* Solves g twice (normal play, one thread), requires identical solutions
 * (and a correct one, when g has successor lists: fuzz_require_solution);
 * returns the first, or NULL when g is too big for the solver. */
loopy_solution *fuzz_solve_twice(const loopy_graph *g);

/* Writes g in the binary format, reads it back through the binary loader
 * and requires the same graph and the same solution. */
void fuzz_require_binary_round_trip(const loopy_graph *g);

/* ---- A reference reader (fuzz/lib/text_oracle.c) ---- */

/* Reads text[0..len) like loopy_read_text with opt, by a different method
 * (line by line).  Returns 1 with *out (and *end, the end offset with
 * trailing text allowed) when the text is a graph, 2 when it is one whose
 * 8(n + 1) + 4m bytes exceed opt->memory_limit (not built), 0 when it is not
 * a graph or n > LOOPY_MAX_VERTICES, -1 when not even its header line "n m"
 * can be read.  *header_n receives n when the first token is a number,
 * *header_m m when the header is readable (else both stay 0). */
int fuzz_oracle_read(const char *text, size_t len,
                     const loopy_read_options *opt, uint64_t *header_n,
                     uint64_t *header_m, loopy_graph **out, size_t *end);

/* ---- Checks on solutions (fuzz/lib/solution_check.c) ---- */

/* Requires sol to be the solution of graph under options, checking the
 * definitions of loopy_solve position by position (see the file). */
void fuzz_require_solution(const loopy_graph *graph,
                           const loopy_solve_options *options,
                           const loopy_solution *sol);

/* Requires two solutions to be identical byte for byte. */
void fuzz_require_same_solution(const loopy_solution *a,
                                const loopy_solution *b);

/* ---- The seed-problem formats (fuzz/lib/seed_check.c) ---- */

/* A token of a seed format's input (a run of bytes other than white
 * space), found by the harnesses' own scan, for their reference readers. */
enum { FUZZ_TOKEN_NUMBER, FUZZ_TOKEN_HUGE, FUZZ_TOKEN_WORD };

typedef struct fuzz_token {
    uint64_t line, column; /* of its first byte, 1-based */
    int kind;              /* digits only (value set), too many for 64 bits,
                              or anything else */
    uint64_t value;
} fuzz_token;

typedef struct fuzz_tokens {
    fuzz_token *token;
    size_t count;
    uint64_t end_line, end_column; /* where "end of file" stands */
} fuzz_tokens;

void fuzz_tokenize(const char *text, size_t len, fuzz_tokens *out);
void fuzz_tokens_release(fuzz_tokens *tokens);

/* Reads tokens in order; the first that is missing or not what a reader
 * wants is where the input is bad (failed, line, column). */
typedef struct fuzz_cursor {
    const fuzz_tokens *tokens;
    size_t next;
    int failed;
    uint64_t line, column;           /* of the failure */
    uint64_t last_line, last_column; /* of the last token read */
} fuzz_cursor;

void fuzz_cursor_init(fuzz_cursor *c, const fuzz_tokens *tokens);
/* 1 with *value when the next token is a number in [min, max], else 0
 * (and the cursor has failed there). */
int fuzz_cursor_uint(fuzz_cursor *c, uint64_t min, uint64_t max,
                     uint64_t *value);
/* 1 if no token is left, else 0 (failed at the next token). */
int fuzz_cursor_end(fuzz_cursor *c);
/* Fails at the next token, or at the end of the text (if not yet failed). */
void fuzz_cursor_fail_here(fuzz_cursor *c);

/* fuzz_require_good_diag, and the place must be line:column. */
void fuzz_require_diag_at(const char *text, size_t len, loopy_status status,
                          const loopy_diag *diag, uint64_t line,
                          uint64_t column);
/* Requires the same place and message. */
void fuzz_require_same_diag(const loopy_diag *a, const loopy_diag *b,
                            const char *what);

/* Where the command-line tool's bytes can come from: a memory text (not
 * the tool's, the library's other entry), a FILE operand, and standard
 * input redirected from a file (whose descriptor does not stand at the
 * file's start) or from a pipe (which cannot be read twice). */
enum {
    FUZZ_SOURCE_MEMORY,
    FUZZ_SOURCE_FILE,
    FUZZ_SOURCE_STDIN_FILE,
    FUZZ_SOURCE_STDIN_PIPE,
    FUZZ_SOURCE_KINDS
};
extern const char *const fuzz_source_names[FUZZ_SOURCE_KINDS];

/* How many source kinds (the first ones) an input of size bytes can use:
 * a large one is not written to a pipe. */
int fuzz_source_kinds(size_t size);

typedef loopy_status (*fuzz_reader)(loopy_source *source, void *ctx,
                                    loopy_diag *diag);

/* Makes a source of the kind over data[0..size), runs read on it, then
 * frees it and restores standard input. */
loopy_status fuzz_read_source(int kind, const uint8_t *data, size_t size,
                              fuzz_reader read, void *ctx, loopy_diag *diag);

#endif
