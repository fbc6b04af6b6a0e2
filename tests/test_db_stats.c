/*
 * test_db_stats.c - loopy_db_stats_compute against counts made directly
 * from what was written: random databases, dense and sparse, records of 2
 * and 4 bytes (remoteness past 2^14, so the table grows many times), only
 * Draws, the empty database; and every allocation failing in turn, which
 * must leave nothing allocated.  Remotenesses far apart (2^27 and
 * 2^30 - 1, the forged database of issue #23) cost a row each, shown by
 * the row count and the largest allocation; the dense and the hash table
 * of stats.c, and their merge, against rows counted here.
 *
 *   test_db_stats [--write-corpus DIR]
 * With --write-corpus, writes DIR/stats-huge-remoteness (a seed of
 * fuzz/read_db.c) and exits.
 */
#include "check.h"
#include "db_util.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t next_random(uint64_t *state)
{
    /* splitmix64 */
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A database of n positions spread over an index space of n * spread, with
 * random values of remoteness below max_rem (draw_only: all Draws). */
static void make(uint64_t seed, uint64_t n, uint64_t spread, uint32_t max_rem,
                 bool draw_only, tdb_expect *e)
{
    uint64_t state = seed;
    loopy_position p = 0;

    memset(e, 0, sizeof *e);
    e->n = n;
    e->pos = tdb_alloc((n ? n : 1) * sizeof *e->pos);
    e->outcome = tdb_alloc(n ? n : 1);
    e->rem = tdb_alloc((n ? n : 1) * sizeof *e->rem);
    for (uint64_t i = 0; i < n; i++) {
        p += 1 + next_random(&state) % spread;
        e->pos[i] = p;
        e->outcome[i] = draw_only ? 0 : (uint8_t)(next_random(&state) % 4);
        e->rem[i] = e->outcome[i] == 0 ? LOOPY_NONE
                                       : (uint32_t)(next_random(&state) % max_rem);
    }
    e->index_size = p + 1 + spread;
    e->name = "stats";
    e->params = "";
}

/* A record's value and remoteness, for the expected table. */
typedef struct valued {
    uint32_t rem;
    uint8_t outcome;
} valued;

static int by_rem(const void *a, const void *b)
{
    uint32_t x = ((const valued *)a)->rem, y = ((const valued *)b)->rem;
    return (x > y) - (x < y);
}

static void check_stats(const tdb_expect *e, const loopy_i_db_layout *layout)
{
    tdb_bytes b = tdb_write_layout(e, layout);
    loopy_db *db = NULL;
    loopy_db_stats st;
    loopy_diag diag;
    uint64_t count[4] = {0, 0, 0, 0}, valued_n = 0, rows = 0;
    uint32_t longest[4] = {LOOPY_NONE, LOOPY_NONE, LOOPY_NONE, LOOPY_NONE};
    loopy_position example[4] = {0, 0, 0, 0};
    valued *v = tdb_alloc((e->n ? e->n : 1) * sizeof *v);

    CHECK(tdb_open_mem(&b, &db, &diag) == LOOPY_OK);
    CHECK(loopy_db_stats_compute(db, &st, &diag) == LOOPY_OK);
    for (uint64_t i = 0; i < e->n; i++) {
        unsigned o = e->outcome[i];
        uint32_t r = e->rem[i];
        count[o]++;
        if (o == 0)
            continue;
        v[valued_n].rem = r;
        v[valued_n++].outcome = (uint8_t)o;
        if (longest[o] == LOOPY_NONE || r > longest[o]) {
            longest[o] = r;
            example[o] = e->pos[i];
        }
    }
    for (int k = 0; k < 4; k++) {
        CHECK(st.count[k] == count[k]);
        CHECK(st.longest_remoteness[k] == longest[k]);
        CHECK(longest[k] == LOOPY_NONE || st.longest[k] == example[k]);
    }
    /* The expected table: the records sorted by remoteness, one row per
     * run of equal remotenesses, compared row by row. */
    qsort(v, (size_t)valued_n, sizeof *v, by_rem);
    for (uint64_t i = 0; i < valued_n;) {
        uint64_t want[4] = {0, 0, 0, 0};
        uint64_t j = i;
        for (; j < valued_n && v[j].rem == v[i].rem; j++)
            want[v[j].outcome]++;
        CHECK_MSG(rows < st.row_count, "row %" PRIu64 " missing", rows);
        if (rows < st.row_count) {
            const loopy_db_stats_row *row = &st.rows[rows];
            CHECK_MSG(row->remoteness == v[i].rem, "row %" PRIu64 ": "
                      "remoteness %" PRIu32 ", expected %" PRIu32, rows,
                      row->remoteness, v[i].rem);
            for (int k = 0; k < 4; k++)
                CHECK(row->count[k] == want[k]);
        }
        rows++;
        i = j;
    }
    CHECK_MSG(st.row_count == rows, "%" PRIu32 " rows, expected %" PRIu64,
              st.row_count, rows);
    CHECK((st.rows == NULL) == (st.row_count == 0));
    loopy_db_stats_release(&st);
    CHECK(st.rows == NULL && st.row_count == 0);
    loopy_db_stats_release(NULL);
    loopy_db_close(db);
    free(v);
    free(b.data);
}

static void random_cases(void)
{
    static const loopy_i_db_layout layouts[] = {
        {0, DB_LAYOUT_DENSE, 0, 0, 0},
        {0, DB_LAYOUT_SPARSE, 0, 0, 0},
        {7, DB_LAYOUT_SPARSE, 4, 0, 0},
        {5, DB_LAYOUT_DENSE, 2, 0, 0}};

    for (uint64_t seed = 1; seed <= 40; seed++) {
        tdb_expect e;
        const loopy_i_db_layout *layout = &layouts[seed % 4];
        uint32_t max_rem = layout->width == 2 ? 100 : seed % 3 ? 200 : 70000;

        make(seed, 1 + seed * 37 % 900, 1 + seed % 5, max_rem, seed % 13 == 0,
             &e);
        check_stats(&e, layout);
        tdb_expect_free(&e);
        check_case_end();
    }
}

static void bad_arguments(void)
{
    loopy_db_stats st;

    CHECK(loopy_db_stats_compute(NULL, &st, NULL) == LOOPY_EINVAL);
    CHECK(st.rows == NULL && st.row_count == 0);
    CHECK(loopy_db_stats_compute(NULL, NULL, NULL) == LOOPY_EINVAL);
    check_case_end();
}

static void alloc_failures(void)
{
    tdb_expect e;
    const loopy_i_db_layout layout = {16, DB_LAYOUT_SPARSE, 4, 0, 0};
    tdb_bytes b;
    int64_t live;
    bool done = false;

    make(99, 300, 3, 50000, false, &e);
    b = tdb_write_layout(&e, &layout);
    live = loopy_i_alloc_live();
    for (uint64_t k = 1; !done && k < 1000; k++) {
        loopy_db *db = NULL;
        loopy_db_stats st;
        loopy_diag diag;
        loopy_status status;

        CHECK(tdb_open_mem(&b, &db, &diag) == LOOPY_OK);
        loopy_i_alloc_fail_at(k);
        status = loopy_db_stats_compute(db, &st, &diag);
        loopy_i_alloc_fail_at(0);
        CHECK(status == LOOPY_OK || status == LOOPY_ENOMEM);
        CHECK(status == LOOPY_OK || (st.rows == NULL && st.row_count == 0));
        done = status == LOOPY_OK;
        loopy_db_stats_release(&st);
        loopy_db_close(db);
        CHECK(loopy_i_alloc_live() == live);
    }
    CHECK(done);
    free(b.data);
    tdb_expect_free(&e);
    check_case_end();
}

/* A database of the records given, at positions 0 .. n-1. */
static void make_given(uint64_t n, const uint8_t *outcome, const uint32_t *rem,
                       tdb_expect *e)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    e->pos = tdb_alloc(n * sizeof *e->pos);
    e->outcome = tdb_alloc(n);
    e->rem = tdb_alloc(n * sizeof *e->rem);
    for (uint64_t i = 0; i < n; i++) {
        e->pos[i] = i;
        e->outcome[i] = outcome[i];
        e->rem[i] = rem[i];
    }
    e->index_size = n;
    e->name = "stats";
    e->params = "";
}

/* The forged database of issue #23: a W at the largest remoteness a record
 * holds and an L at 2^27, which once took a table of 32 GiB (and 8 GiB).
 * Also the seed of fuzz/corpus/read_db/stats-huge-remoteness. */
static const uint8_t huge_outcome[2] = {LOOPY_WIN, LOOPY_LOSE};
static const uint32_t huge_rem[2] = {DB_REMOTENESS_MAX_4, (uint32_t)1 << 27};

/* Remotenesses far apart cost a row each, not a table up to the largest:
 * counted by rows and by the largest allocation. */
static void huge_remoteness(void)
{
    static const loopy_i_db_layout layouts[2] = {
        {0, DB_LAYOUT_DENSE, 4, 0, 0}, {0, DB_LAYOUT_SPARSE, 4, 0, 0}};

    for (int l = 0; l < 2; l++) {
        tdb_expect e;
        tdb_bytes b;
        loopy_db *db = NULL;
        loopy_db_stats st;
        loopy_diag diag;
        loopy_status status;

        make_given(2, huge_outcome, huge_rem, &e);
        b = tdb_write_layout(&e, &layouts[l]);
        CHECK(tdb_open_mem(&b, &db, &diag) == LOOPY_OK);
        loopy_i_alloc_fail_at(0); /* resets the largest request */
        status = loopy_db_stats_compute(db, &st, &diag);
        CHECK_MSG(status == LOOPY_OK, "%d '%s'", (int)status, diag.message);
        CHECK_MSG(loopy_i_alloc_largest() <= ((uint64_t)1 << 20),
                  "an allocation of %" PRIu64 " bytes",
                  loopy_i_alloc_largest());
        CHECK(st.row_count == 2 && st.rows != NULL);
        if (status == LOOPY_OK && st.row_count == 2) {
            CHECK(st.rows[0].remoteness == huge_rem[1] &&
                  st.rows[0].count[LOOPY_LOSE] == 1 &&
                  st.rows[0].count[LOOPY_WIN] == 0);
            CHECK(st.rows[1].remoteness == DB_REMOTENESS_MAX_4 &&
                  st.rows[1].count[LOOPY_WIN] == 1 &&
                  st.rows[1].count[LOOPY_LOSE] == 0);
        }
        CHECK(st.longest_remoteness[LOOPY_WIN] == DB_REMOTENESS_MAX_4 &&
              st.longest[LOOPY_WIN] == 0 &&
              st.longest_remoteness[LOOPY_LOSE] == huge_rem[1] &&
              st.longest[LOOPY_LOSE] == 1 &&
              st.longest_remoteness[LOOPY_TIE] == LOOPY_NONE);
        loopy_db_stats_release(&st);
        loopy_db_close(db);
        free(b.data);
        check_stats(&e, &layouts[l]);
        tdb_expect_free(&e);
        check_case_end();
    }
}

/* Both tables and their merge: remotenesses past the dense table's first
 * size come first (hash table), then enough small ones that the dense
 * table grows over them (the same remoteness in both tables is one row);
 * large ones spread over 2^30, repeated; a chain of increasing ones. */
static void mixed_tables(void)
{
    const uint64_t n = 30000;
    static const loopy_i_db_layout layout = {0, DB_LAYOUT_DENSE, 4, 0, 0};
    uint8_t *outcome = tdb_alloc(n);
    uint32_t *rem = tdb_alloc(n * sizeof *rem);
    uint64_t state = 7;
    tdb_expect e;

    for (uint64_t i = 0; i < n; i++) {
        outcome[i] = (uint8_t)(1 + next_random(&state) % 3);
        if (i < 2000) /* 5000 .. 5999, twice each */
            rem[i] = 5000 + (uint32_t)(i % 1000);
        else if (i < 12000) /* 0 .. 4999, twice each */
            rem[i] = (uint32_t)(i % 5000);
        else if (i < 14000) /* back to 5000 .. 5999 */
            rem[i] = 5000 + (uint32_t)(i % 1000);
        else if (i < 20000) { /* 1000 large ones, six times each */
            uint64_t seed = i % 1000 + 99;
            rem[i] = (uint32_t)(next_random(&seed) %
                                ((uint64_t)DB_REMOTENESS_MAX_4 + 1));
        }
        else /* a chain from 100000 on */
            rem[i] = 100000 + (uint32_t)(i - 20000);
        if (i % 17 == 0)
            outcome[i] = LOOPY_DRAW;
        if (outcome[i] == LOOPY_DRAW)
            rem[i] = LOOPY_NONE;
    }
    make_given(n, outcome, rem, &e);
    check_stats(&e, &layout);
    tdb_expect_free(&e);
    free(outcome);
    free(rem);
    check_case_end();
}

/* Writes fuzz/corpus/read_db/stats-huge-remoteness into dir. */
static int write_corpus(const char *dir)
{
    static const loopy_i_db_layout layout = {0, DB_LAYOUT_DENSE, 4, 0, 1};
    char path[4096];
    tdb_expect e;
    tdb_bytes b;
    FILE *f;

    make_given(2, huge_outcome, huge_rem, &e);
    b = tdb_write_layout(&e, &layout);
    snprintf(path, sizeof path, "%s/stats-huge-remoteness", dir);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0) {
        fprintf(stderr, "test_db_stats: cannot write %s\n", path);
        return EXIT_FAILURE;
    }
    printf("%s: %zu bytes\n", path, b.len);
    free(b.data);
    tdb_expect_free(&e);
    return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0)
        return write_corpus(argv[2]);
    random_cases();
    bad_arguments();
    alloc_failures();
    huge_remoteness();
    mixed_tables();
    return check_finish("test_db_stats");
}
