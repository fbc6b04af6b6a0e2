/*
 * climb.c - fuzz the climb command (the grid game): loopy_climb_run, and
 * loopy_climb_solve on the grids of the input.
 *
 * The input is read from every kind of source the command-line tool uses
 * (fuzz_read_source): from memory and files a repeated height is found by
 * sorting and reading the grid again, from a pipe by a hash set; all must
 * agree.  A reference reader of the harness's own decides validity and the
 * first bad place in reading order (a bad token, or a height seen before in
 * its grid, at that token); a failure must be there with a sane message.
 * A grid announced too large may instead be refused as such at its column
 * count.  On success the answers must be those of a memoised recursion over
 * strictly higher neighbours.  loopy_climb_solve is checked against the
 * same recursion on each grid read, and on a copy with many equal heights.
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* Grids up to this many cells get the recursion (its depth is at most the
 * cell count). */
#define BRUTE_CELLS 4096
/* A grid of more cells may be refused as too large for the machine. */
#define MAYBE_TOO_BIG (UINT64_C(1) << 24)

static loopy_status read_climb(loopy_source *source, void *ctx,
                               loopy_diag *diag)
{
    loopy_climb_answers *answers = ctx;

    answers->count = 12345; /* must be overwritten */
    answers->first_wins = (uint8_t *)(uintptr_t)1;
    return loopy_climb_run(source, answers, diag);
}

typedef struct grid {
    uint32_t rows, cols;
    const uint32_t *height;
    int8_t *wins; /* -1: not known yet */
} grid;

/* Whether the player to move from cell c wins: some strictly higher
 * neighbour is a loss for the other player. */
static int wins_from(grid *g, size_t c)
{
    size_t r = c / g->cols, k = c % g->cols;
    size_t next[4];
    int count = 0, win = 0;

    if (g->wins[c] >= 0)
        return g->wins[c];
    if (r > 0)
        next[count++] = c - g->cols;
    if (r + 1 < g->rows)
        next[count++] = c + g->cols;
    if (k > 0)
        next[count++] = c - 1;
    if (k + 1 < g->cols)
        next[count++] = c + 1;
    for (int i = 0; i < count && !win; i++)
        if (g->height[next[i]] > g->height[c] && !wins_from(g, next[i]))
            win = 1;
    g->wins[c] = (int8_t)win;
    return win;
}

/* Fills wins[0..rows*cols) by the recursion. */
static void brute_force(uint32_t rows, uint32_t cols, const uint32_t *height,
                        int8_t *wins)
{
    grid g = {rows, cols, height, wins};
    size_t cells = (size_t)rows * cols;

    memset(wins, -1, cells);
    for (size_t c = 0; c < cells; c++)
        (void)wins_from(&g, c);
}

static void require_solve(uint32_t rows, uint32_t cols, const uint32_t *height,
                          const int8_t *wins)
{
    size_t cells = (size_t)rows * cols;
    uint8_t *first_wins = malloc(cells);

    FUZZ_REQUIRE(first_wins != NULL, "out of memory");
    memset(first_wins, 0x55, cells);
    FUZZ_REQUIRE(loopy_climb_solve(rows, cols, height, first_wins) == LOOPY_OK,
                 "loopy_climb_solve");
    for (size_t c = 0; c < cells; c++)
        FUZZ_REQUIRE(first_wins[c] == (uint8_t)wins[c], "%" PRIu32 " x %"
                     PRIu32 " grid, cell %zu: %d, the recursion says %d", rows,
                     cols, c, first_wins[c], wins[c]);
    free(first_wins);
}

/* Checks loopy_climb_solve on a grid, and on the grid with heights cut to
 * a few values (equal neighbours are not moves). */
static void check_grid(uint32_t rows, uint32_t cols, const uint32_t *height,
                       int8_t *wins)
{
    size_t cells = (size_t)rows * cols;
    uint32_t *flat = malloc(cells * sizeof *flat);
    int8_t *flat_wins = malloc(cells);

    FUZZ_REQUIRE(flat != NULL && flat_wins != NULL, "out of memory");
    brute_force(rows, cols, height, wins);
    require_solve(rows, cols, height, wins);
    for (size_t c = 0; c < cells; c++)
        flat[c] = height[c] % 3;
    brute_force(rows, cols, flat, flat_wins);
    require_solve(rows, cols, flat, flat_wins);
    free(flat);
    free(flat_wins);
}

typedef struct reference {
    int valid;
    /* A case's grid of more than MAYBE_TOO_BIG cells was announced before
     * the first bad place: it may be refused at its column count. */
    int maybe_too_big;
    uint64_t big_line, big_column;
    uint8_t *answer; /* when valid, and every grid small */
    size_t count, capacity;
    int answers_known;
} reference;

/* Reads one case; 0 at a bad place. */
static int reference_case(fuzz_cursor *c, reference *ref, uint32_t **height,
                          size_t *height_capacity)
{
    uint64_t rows, cols, cells, queries, r, k, value;
    int8_t *wins = NULL;
    int ok = 0;

    if (!fuzz_cursor_uint(c, 1, UINT32_MAX, &rows) ||
        !fuzz_cursor_uint(c, 1, UINT32_MAX, &cols))
        return 0;
    cells = rows * cols;
    if (cells > UINT32_MAX) {
        /* Refused at the column count, whatever follows. */
        c->failed = 1;
        c->line = c->last_line;
        c->column = c->last_column;
        ref->maybe_too_big = 1;
        ref->big_line = c->line;
        ref->big_column = c->column;
        return 0;
    }
    if (cells > MAYBE_TOO_BIG && !ref->maybe_too_big) {
        ref->maybe_too_big = 1;
        ref->big_line = c->last_line;
        ref->big_column = c->last_column;
    }
    /* Heights: the text holds few, so the loop ends at a bad place when
     * the grid is large. */
    for (uint64_t i = 0; i < cells; i++) {
        if (!fuzz_cursor_uint(c, 1, UINT32_MAX, &value))
            return 0;
        for (uint64_t j = 0; j < i; j++) {
            if ((*height)[j] == value) {
                c->next--; /* the repeat is the bad place */
                fuzz_cursor_fail_here(c);
                return 0;
            }
        }
        if (i == *height_capacity) {
            *height_capacity = *height_capacity * 2 + 64;
            *height = realloc(*height, *height_capacity * sizeof **height);
            FUZZ_REQUIRE(*height != NULL, "out of memory");
        }
        (*height)[i] = (uint32_t)value;
    }
    if (cells <= BRUTE_CELLS) {
        wins = malloc((size_t)cells);
        FUZZ_REQUIRE(wins != NULL, "out of memory");
        check_grid((uint32_t)rows, (uint32_t)cols, *height, wins);
    } else {
        ref->answers_known = 0;
    }
    if (!fuzz_cursor_uint(c, 0, UINT64_MAX, &queries))
        goto done;
    for (uint64_t i = 0; i < queries; i++) {
        if (!fuzz_cursor_uint(c, 1, rows, &r) ||
            !fuzz_cursor_uint(c, 1, cols, &k))
            goto done;
        if (wins == NULL)
            continue;
        if (ref->count == ref->capacity) {
            ref->capacity = ref->capacity * 2 + 64;
            ref->answer = realloc(ref->answer, ref->capacity);
            FUZZ_REQUIRE(ref->answer != NULL, "out of memory");
        }
        ref->answer[ref->count++] = (uint8_t)wins[(r - 1) * cols + (k - 1)];
    }
    ok = 1;
done:
    free(wins);
    return ok;
}

static void reference_read(fuzz_cursor *c, reference *ref)
{
    uint32_t *height = NULL;
    size_t height_capacity = 0;
    uint64_t cases;

    memset(ref, 0, sizeof *ref);
    ref->answers_known = 1;
    if (!fuzz_cursor_uint(c, 1, UINT64_MAX, &cases))
        return;
    for (uint64_t t = 0; t < cases; t++)
        if (!reference_case(c, ref, &height, &height_capacity))
            goto done;
    ref->valid = fuzz_cursor_end(c);
done:
    free(height);
}

FUZZ_TARGET(climb)
{
    const char *text = (const char *)data;
    loopy_climb_answers answers[FUZZ_SOURCE_KINDS];
    loopy_diag diag[FUZZ_SOURCE_KINDS];
    loopy_status status[FUZZ_SOURCE_KINDS] = {LOOPY_OK};
    fuzz_tokens tokens;
    fuzz_cursor cursor;
    reference ref;
    int kinds = fuzz_source_kinds(size);

    fuzz_tokenize(text, size, &tokens);
    fuzz_cursor_init(&cursor, &tokens);
    reference_read(&cursor, &ref);

    for (int k = 0; k < kinds; k++) {
        status[k] = fuzz_read_source(k, data, size, read_climb, &answers[k],
                                     &diag[k]);
        if (status[k] != LOOPY_OK)
            FUZZ_REQUIRE(answers[k].count == 0 && answers[k].first_wins == NULL,
                         "answers left on failure (%s)", fuzz_source_names[k]);
        if (k == 0)
            continue;
        FUZZ_REQUIRE(status[k] == status[0], "status %d from %s, %d from "
                     "memory: %s / %s", (int)status[k], fuzz_source_names[k],
                     (int)status[0], diag[k].message, diag[0].message);
        if (status[k] != LOOPY_OK) {
            fuzz_require_same_diag(&diag[k], &diag[0], fuzz_source_names[k]);
        } else {
            FUZZ_REQUIRE(answers[k].count == answers[0].count &&
                             (answers[0].count == 0 ||
                              memcmp(answers[k].first_wins,
                                     answers[0].first_wins,
                                     answers[0].count) == 0),
                         "answers differ (%s)", fuzz_source_names[k]);
        }
    }
    if (status[0] == LOOPY_ETOOBIG && ref.maybe_too_big) {
        fuzz_require_diag_at(text, size, status[0], &diag[0], ref.big_line,
                             ref.big_column);
    } else if (!ref.valid) {
        FUZZ_REQUIRE(status[0] != LOOPY_OK, "accepted; the reference stops "
                     "at %" PRIu64 ":%" PRIu64, cursor.line, cursor.column);
        fuzz_require_diag_at(text, size, status[0], &diag[0], cursor.line,
                             cursor.column);
    } else {
        FUZZ_REQUIRE(status[0] == LOOPY_OK, "refused: %s at %" PRIu64 ":%"
                     PRIu64, diag[0].message, diag[0].line, diag[0].column);
        if (ref.answers_known) {
            FUZZ_REQUIRE(answers[0].count == ref.count, "%zu answers, %zu "
                         "queries", answers[0].count, ref.count);
            for (size_t i = 0; i < ref.count; i++)
                FUZZ_REQUIRE(answers[0].first_wins[i] == ref.answer[i],
                             "query %zu: %d, the recursion says %d", i + 1,
                             answers[0].first_wins[i], ref.answer[i]);
        }
    }

    for (int k = 0; k < kinds; k++)
        loopy_climb_answers_release(&answers[k]);
    free(ref.answer);
    fuzz_tokens_release(&tokens);
    return 0;
}
