/*
 * test_db_stats.c - loopy_db_stats_compute against counts made directly
 * from what was written: random databases, dense and sparse, records of 2
 * and 4 bytes (remoteness past 2^14, so the table grows many times), only
 * Draws, the empty database; and every allocation failing in turn, which
 * must leave nothing allocated.
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

static void check_stats(const tdb_expect *e, const loopy_i_db_layout *layout)
{
    tdb_bytes b = tdb_write_layout(e, layout);
    loopy_db *db = NULL;
    loopy_db_stats st;
    loopy_diag diag;
    uint64_t count[4] = {0, 0, 0, 0}, sum[4] = {0, 0, 0, 0};
    uint32_t longest[4] = {LOOPY_NONE, LOOPY_NONE, LOOPY_NONE, LOOPY_NONE};
    loopy_position example[4] = {0, 0, 0, 0};
    uint32_t levels = 0;

    CHECK(tdb_open_mem(&b, &db, &diag) == LOOPY_OK);
    CHECK(loopy_db_stats_compute(db, &st, &diag) == LOOPY_OK);
    for (uint64_t i = 0; i < e->n; i++) {
        unsigned o = e->outcome[i];
        uint32_t r = e->rem[i];
        count[o]++;
        if (o == 0)
            continue;
        if (r + 1 > levels)
            levels = r + 1;
        if (longest[o] == LOOPY_NONE || r > longest[o]) {
            longest[o] = r;
            example[o] = e->pos[i];
        }
        CHECK(r < st.levels && st.at[r][o] > 0);
    }
    CHECK(st.levels == levels);
    for (int k = 0; k < 4; k++) {
        CHECK(st.count[k] == count[k]);
        CHECK(st.longest_remoteness[k] == longest[k]);
        CHECK(longest[k] == LOOPY_NONE || st.longest[k] == example[k]);
    }
    for (uint32_t r = 0; r < st.levels; r++) {
        CHECK(st.at[r][LOOPY_DRAW] == 0);
        for (int k = 1; k < 4; k++)
            sum[k] += st.at[r][k];
    }
    for (int k = 1; k < 4; k++)
        CHECK(sum[k] == count[k]);
    loopy_db_stats_release(&st);
    CHECK(st.at == NULL && st.levels == 0);
    loopy_db_stats_release(NULL);
    loopy_db_close(db);
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
    CHECK(st.at == NULL && st.levels == 0);
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
        CHECK(status == LOOPY_OK || (st.at == NULL && st.levels == 0));
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

int main(void)
{
    random_cases();
    bad_arguments();
    alloc_failures();
    return check_finish("test_db_stats");
}
