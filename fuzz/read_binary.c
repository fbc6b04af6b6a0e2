/*
 * read_binary.c - fuzz the binary graph loader (lib/io/binary.c).
 *
 * The input is a file's bytes; those loopy_read_file would not take for a
 * binary file (see fuzz_is_binary) are the text harnesses' business.  The
 * loader runs
 *  - on an exact heap copy of the bytes, as loopy_read_file runs it for a
 *    pipe, with and without skip_successors;
 *  - the same on a copy whose checksums are recomputed, so that damage also
 *    reaches the range and consistency checks (a fuzzer cannot forge a
 *    64-bit checksum by mutation);
 *  - for one input in 16 (by the sum of its bytes), through loopy_read_file
 *    on a temporary file, which maps it: same verdict and message, same
 *    graph.
 * A failure must be LOOPY_EFORMAT with a sensible message.  A graph
 * accepted must be consistent (fuzz_require_consistent_graph); written back
 * with loopy_write_binary, read again and written again, it gives the same
 * graph and the same bytes, which are the input's own bytes when the input
 * has the writer's layout; solved twice it gives identical solutions,
 * checked against the definitions when it has successor lists.  Loaded with
 * skip_successors it has the same predecessor lists, out-degrees and
 * solution.
 */
/* mkstemp, fdopen */
#define _DEFAULT_SOURCE

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_BYTES 144

static uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Requires the written bytes to equal the input wherever the input has
 * data: same header (hence same layout), same sections; only padding may
 * differ (the loader does not read it). */
static void require_same_bytes_as_input(const uint8_t *input, size_t size,
                                        const uint8_t *bytes, size_t len)
{
    if (len != size || memcmp(input, bytes, HEADER_BYTES) != 0)
        return; /* another layout or another header: compared below */
    for (int s = 0; s < 4; s++) {
        uint64_t offset = get_le64(input + 40 + 24 * s);
        uint64_t length = get_le64(input + 48 + 24 * s);

        FUZZ_REQUIRE(offset <= size && length <= size - offset,
                     "section %d outside the file", s);
        FUZZ_REQUIRE(memcmp(input + offset, bytes + offset, (size_t)length) == 0,
                     "section %d written differently", s);
    }
}

/* The checks on an accepted graph g loaded from data; returns its
 * solution (NULL when too big to solve). */
static loopy_solution *check_accepted(const uint8_t *data, size_t size,
                                      const loopy_graph *g, int skip)
{
    loopy_graph *back;
    loopy_diag diag;
    size_t len, len2;
    uint8_t *bytes, *bytes2;
    loopy_status status;

    FUZZ_REQUIRE(!skip || !loopy_graph_has_successors(g),
                 "successor lists kept under skip_successors");
    FUZZ_REQUIRE(skip || loopy_graph_has_successors(g) == (data[32] & 1),
                 "successor lists flag %d, graph %d", data[32] & 1,
                 loopy_graph_has_successors(g));
    fuzz_require_consistent_graph(g);

    bytes = fuzz_write_binary(g, &len);
    if (!skip)
        require_same_bytes_as_input(data, size, bytes, len);
    status = fuzz_read_binary(bytes, len, 0, &back, &diag);
    FUZZ_REQUIRE(status == LOOPY_OK, "reading back: %s", diag.message);
    fuzz_require_consistent_graph(back);
    fuzz_require_same_lists(g, back);
    FUZZ_REQUIRE(loopy_graph_has_successors(g) ==
                     loopy_graph_has_successors(back),
                 "successor lists lost or gained");
    bytes2 = fuzz_write_binary(back, &len2);
    FUZZ_REQUIRE(len == len2 && memcmp(bytes, bytes2, len) == 0,
                 "written twice, %zu and %zu different bytes", len, len2);
    loopy_graph_free(back);
    free(bytes);
    free(bytes2);
    return fuzz_solve_twice(g);
}

/* Loads data with and without skip_successors and checks both outcomes;
 * returns the status of the full load, its graph in *full. */
static loopy_status load_both(const uint8_t *data, size_t size,
                              loopy_graph **full, loopy_diag *diag)
{
    loopy_graph *skipped;
    loopy_diag skip_diag;
    loopy_solution *sol_full = NULL, *sol_skip = NULL;
    loopy_status status = fuzz_read_binary(data, size, 0, full, diag);
    loopy_status skip_status = fuzz_read_binary(data, size, 1, &skipped,
                                                &skip_diag);

    if (status == LOOPY_OK) {
        sol_full = check_accepted(data, size, *full, 0);
        FUZZ_REQUIRE(skip_status == LOOPY_OK, "accepted whole, refused "
                     "without successors: %s", skip_diag.message);
    }
    if (skip_status == LOOPY_OK) {
        sol_skip = check_accepted(data, size, skipped, 1);
        if (status == LOOPY_OK) {
            fuzz_require_same_lists(*full, skipped);
            FUZZ_REQUIRE((sol_full == NULL) == (sol_skip == NULL),
                         "solvable only once");
            if (sol_full != NULL)
                fuzz_require_same_solution(sol_full, sol_skip);
        }
        loopy_graph_free(skipped);
    }
    loopy_solution_free(sol_full);
    loopy_solution_free(sol_skip);
    return status;
}

/* loopy_read_file on a temporary file holding data must agree with the
 * memory load (status, message, graph). */
static void check_file(const uint8_t *data, size_t size, loopy_status status,
                       const loopy_graph *g, const loopy_diag *diag)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    loopy_graph *from_file = NULL;
    loopy_diag file_diag;
    loopy_status file_status;
    FILE *f;
    int fd;

    snprintf(path, sizeof path, "%s/loopy-fuzz-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    fd = mkstemp(path);
    FUZZ_REQUIRE(fd >= 0, "mkstemp %s", path);
    f = fdopen(fd, "wb");
    FUZZ_REQUIRE(f != NULL, "fdopen");
    FUZZ_REQUIRE(fwrite(data, 1, size, f) == size && fclose(f) == 0,
                 "writing %s", path);
    memset(&file_diag, 0, sizeof file_diag);
    file_status = loopy_read_file(path, NULL, &from_file, &file_diag);
    unlink(path);
    FUZZ_REQUIRE(file_status == status && strcmp(file_diag.message,
                                                 diag->message) == 0,
                 "from a file: %d '%s', from memory: %d '%s'",
                 (int)file_status, file_diag.message, (int)status,
                 diag->message);
    if (status == LOOPY_OK) {
        FUZZ_REQUIRE(loopy_graph_has_successors(from_file) ==
                         loopy_graph_has_successors(g),
                     "successor lists differ");
        fuzz_require_same_lists(g, from_file);
    }
    loopy_graph_free(from_file);
}

FUZZ_TARGET(read_binary)
{
    loopy_graph *full = NULL;
    loopy_diag diag;
    loopy_status status;
    unsigned sum = 0;
    uint8_t *fixed;

    if (!fuzz_is_binary(data, size))
        return 0;
    status = load_both(data, size, &full, &diag);
    for (size_t i = 0; i < size; i++)
        sum += data[i];
    if (sum % 16 == 0)
        check_file(data, size, status, full, &diag);
    loopy_graph_free(full);

    if (size < HEADER_BYTES)
        return 0;
    fixed = malloc(size);
    FUZZ_REQUIRE(fixed != NULL, "out of memory");
    memcpy(fixed, data, size);
    fuzz_fix_binary_checksums(fixed, size);
    if (memcmp(fixed, data, size) != 0) {
        status = load_both(fixed, size, &full, &diag);
        loopy_graph_free(full);
    }
    free(fixed);
    return 0;
}
