/*
 * test_db.c - databases (lib/db): every built-in game and hundreds of
 * random graphs (with ties, in normal and misere play) written to memory,
 * loaded from a temporary file or from memory, and read back: every
 * position probes to exactly its solved value, absent positions are
 * absent, iteration gives everything in order, the header's counts agree;
 * in the automatic layout and in forced ones (dense, sparse, 4-byte
 * records, tiny blocks).  Also: the writer's refusals, several threads
 * probing at once, allocation failures, and the game helpers (value,
 * moves) against the solver's.  Damaged files: test_db_damage.c.
 *
 *   test_db [--write-corpus DIR]
 *
 * With --write-corpus, writes the seed corpus of fuzz/read_db.c to DIR
 * instead (small valid databases, dense and sparse, 2- and 4-byte records,
 * and damaged variants).
 */
#include "check.h"
#include "db_util.h"
#include "gen.h"
#include "internal.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct collected {
    uint64_t n, cap;
    loopy_position *pos;
    uint8_t *outcome;
    uint32_t *rem;
    uint64_t stop_after; /* 0: never */
} collected;

static int collect(void *ctx, loopy_position pos, loopy_outcome outcome,
                   uint32_t remoteness)
{
    collected *c = ctx;

    if (c->n == c->cap) {
        c->cap = c->cap * 2 + 16;
        c->pos = realloc(c->pos, c->cap * sizeof *c->pos);
        c->outcome = realloc(c->outcome, c->cap);
        c->rem = realloc(c->rem, c->cap * sizeof *c->rem);
        if (c->pos == NULL || c->outcome == NULL || c->rem == NULL) {
            fputs("test_db: out of memory\n", stderr);
            exit(EXIT_FAILURE);
        }
    }
    c->pos[c->n] = pos;
    c->outcome[c->n] = (uint8_t)outcome;
    c->rem[c->n] = remoteness;
    c->n++;
    return c->stop_after != 0 && c->n == c->stop_after;
}

static void collected_free(collected *c)
{
    free(c->pos);
    free(c->outcome);
    free(c->rem);
    memset(c, 0, sizeof *c);
}

/* An order-free digest of what a walk visits (from several threads). */
typedef struct digest {
    _Atomic uint64_t n, sum;
} digest;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return x;
}

static int add_digest(void *ctx, loopy_position pos, loopy_outcome outcome,
                      uint32_t remoteness)
{
    digest *d = ctx;

    atomic_fetch_add(&d->n, 1);
    atomic_fetch_add(&d->sum, mix(pos * 8 + (uint64_t)outcome) ^
                                  mix((uint64_t)remoteness + 1) * 3);
    return 0;
}

/* The walk on 1 to 4 threads visits what the one in order does. */
static void check_threaded_walk(const loopy_db *db, const tdb_expect *e,
                                const char *what)
{
    digest want;
    uint64_t want_sum = 0;

    atomic_init(&want.n, 0);
    atomic_init(&want.sum, 0);
    for (uint64_t i = 0; i < e->n; i++)
        add_digest(&want, tdb_pos_at(e, i), (loopy_outcome)e->outcome[i],
                   e->rem[i]);
    want_sum = atomic_load(&want.sum);
    for (int threads = 1; threads <= 4; threads++) {
        digest got;
        loopy_diag diag;
        loopy_status status;

        atomic_init(&got.n, 0);
        atomic_init(&got.sum, 0);
        memset(&diag, 0, sizeof diag);
        status = loopy_i_db_iterate_threads(db, add_digest, &got, threads,
                                            &diag);
        CHECK_MSG(status == LOOPY_OK && atomic_load(&got.n) == e->n &&
                      atomic_load(&got.sum) == want_sum,
                  "%s: a walk on %d threads: status %d (%s), %" PRIu64
                  " positions of %" PRIu64, what, threads, (int)status,
                  diag.message, (uint64_t)atomic_load(&got.n), e->n);
    }
}

/* Requires db to hold exactly e; what says which case this is. */
static void check_db(const loopy_db *db, const tdb_expect *e, uint64_t seed,
                     const char *what)
{
    uint64_t count[4] = {0, 0, 0, 0}, bad = 0;
    uint32_t max = 0;
    collected c;
    loopy_diag diag;
    loopy_status status;
    gen_rng r;

    for (uint64_t i = 0; i < e->n; i++) {
        count[e->outcome[i]]++;
        if (e->outcome[i] != LOOPY_DRAW && e->rem[i] > max)
            max = e->rem[i];
    }
    CHECK_MSG(strcmp(loopy_db_game_name(db), e->name) == 0 &&
                  strcmp(loopy_db_game_params(db), e->params) == 0,
              "%s: name '%s' params '%s'", what, loopy_db_game_name(db),
              loopy_db_game_params(db));
    CHECK_MSG(loopy_db_size(db) == e->n && loopy_db_index_size(db) == e->index_size,
              "%s: size %" PRIu64 " index size %" PRIu64, what,
              loopy_db_size(db), loopy_db_index_size(db));
    CHECK(loopy_db_misere(db) == e->misere);
    CHECK(loopy_db_symmetric(db) == e->symmetric);
    CHECK(loopy_db_base(db) == e->base);
    for (int k = 0; k < 4; k++)
        CHECK_MSG(loopy_db_count(db, (loopy_outcome)k) == count[k],
                  "%s: count %d", what, k);
    CHECK(loopy_db_count(db, (loopy_outcome)4) == 0);
    CHECK_MSG(loopy_db_max_remoteness(db) == max, "%s: max %" PRIu32 " vs %" PRIu32,
              what, loopy_db_max_remoteness(db), max);
    CHECK(loopy_db_record_width(db) == 2 || loopy_db_record_width(db) == 4);
    CHECK(max <= DB_REMOTENESS_MAX_2 || loopy_db_record_width(db) == 4);

    /* Every position. */
    for (uint64_t i = 0; i < e->n; i++) {
        loopy_outcome o = (loopy_outcome)9;
        uint32_t rem = 7;
        status = loopy_db_probe(db, tdb_pos_at(e, i), &o, &rem);
        if (status != LOOPY_OK || o != e->outcome[i] || rem != e->rem[i]) {
            if (bad++ < 5)
                CHECK_MSG(0, "%s: position %" PRIu64 ": status %d, %d %" PRIu32
                          ", expected %d %" PRIu32, what, tdb_pos_at(e, i),
                          (int)status, (int)o, rem, e->outcome[i], e->rem[i]);
        }
    }
    CHECK_MSG(bad == 0, "%s: %" PRIu64 " positions probe wrong", what, bad);

    /* In a random order: the blocks a scratch keeps decoded are swapped
     * in and out, revisited and given up at random. */
    gen_rng_seed(&r, seed ^ 0x5eed);
    bad = 0;
    for (uint64_t t = 0; e->n > 0 && t < 2 * e->n && t < 20000; t++) {
        uint64_t i = gen_below(&r, e->n);
        loopy_outcome o = (loopy_outcome)9;
        uint32_t rem = 7;
        status = loopy_db_probe(db, tdb_pos_at(e, i), &o, &rem);
        if (status != LOOPY_OK || o != e->outcome[i] || rem != e->rem[i]) {
            if (bad++ < 5)
                CHECK_MSG(0, "%s: position %" PRIu64 " (random order): status "
                          "%d, %d %" PRIu32 ", expected %d %" PRIu32, what,
                          tdb_pos_at(e, i), (int)status, (int)o, rem,
                          e->outcome[i], e->rem[i]);
        }
    }
    CHECK_MSG(bad == 0, "%s: %" PRIu64 " positions probe wrong in a random "
              "order", what, bad);

    /* Absent ones: next to every position, the ends, and random. */
    gen_rng_seed(&r, seed);
    bad = 0;
    for (uint64_t i = 0; i <= e->n + 300; i++) {
        loopy_position p;
        loopy_outcome o;
        uint32_t rem;

        if (i < e->n)
            p = tdb_pos_at(e, i) + 1;
        else if (i == e->n)
            p = e->n > 0 && tdb_pos_at(e, 0) > 0 ? tdb_pos_at(e, 0) - 1 : e->index_size;
        else if (i == e->n + 1)
            p = e->index_size > 0 ? e->index_size - 1 : 0;
        else if (i == e->n + 2)
            p = UINT64_MAX;
        else
            p = gen_below(&r, e->index_size);
        status = loopy_db_probe(db, p, &o, &rem);
        if (tdb_find(e, p) == e->n ? status != LOOPY_EINVAL : status != LOOPY_OK) {
            if (bad++ < 5)
                CHECK_MSG(0, "%s: probe of %" PRIu64 ": status %d", what, p,
                          (int)status);
        }
    }

    /* Iteration: everything, in order. */
    memset(&c, 0, sizeof c);
    memset(&diag, 0, sizeof diag);
    status = loopy_db_iterate(db, collect, &c, &diag);
    CHECK_MSG(status == LOOPY_OK, "%s: iterate: %s", what, diag.message);
    CHECK_MSG(c.n == e->n, "%s: iterated %" PRIu64 " of %" PRIu64, what, c.n, e->n);
    for (uint64_t i = 0; i < c.n && i < e->n; i++)
        if (c.pos[i] != tdb_pos_at(e, i) || c.outcome[i] != e->outcome[i] ||
            c.rem[i] != e->rem[i]) {
            CHECK_MSG(0, "%s: iteration %" PRIu64 " differs", what, i);
            break;
        }
    collected_free(&c);
    /* A callback that stops: LOOPY_OK, and no further calls. */
    if (e->n >= 3) {
        c.stop_after = 3;
        status = loopy_db_iterate(db, collect, &c, NULL);
        CHECK(status == LOOPY_OK && c.n == 3);
        collected_free(&c);
    }
    CHECK(loopy_db_iterate(db, NULL, NULL, NULL) == LOOPY_OK);
    check_threaded_walk(db, e, what);
}

/* The layouts each database is also written in. */
static void check_layouts(const tdb_expect *e, uint64_t seed, const char *what)
{
    uint32_t small = (uint32_t)(1 + e->n / 40);
    const loopy_i_db_layout layouts[] = {
        {small, DB_LAYOUT_DENSE, 0, 0, 0},
        {small, DB_LAYOUT_SPARSE, 0, 1, 1},
        {small, DB_LAYOUT_AUTO, 4, 0, 2},
        {1, DB_LAYOUT_SPARSE, 0, 0, 0},
        {7, DB_LAYOUT_AUTO, 4, 3, 0},
    };
    char name[200];

    for (size_t k = 0; k < sizeof layouts / sizeof layouts[0]; k++) {
        loopy_db *db = NULL;
        loopy_diag diag;
        tdb_bytes b;

        /* Dense blocks of the whole range: only for small ranges. */
        if (layouts[k].mode == DB_LAYOUT_DENSE && e->n > 0 &&
            (tdb_pos_at(e, e->n - 1) - tdb_pos_at(e, 0)) / layouts[k].block_positions > 20000)
            continue;
        if (layouts[k].block_positions == 1 && e->n > 5000)
            continue;
        b = tdb_write_layout(e, &layouts[k]);
        snprintf(name, sizeof name, "%s, layout %zu", what, k);
        if (tdb_open_mem(&b, &db, &diag) != LOOPY_OK) {
            CHECK_MSG(0, "%s: open: %s", name, diag.message);
        } else {
            CHECK(loopy_db_sparse(db) == (layouts[k].mode == DB_LAYOUT_SPARSE) ||
                  layouts[k].mode == DB_LAYOUT_AUTO);
            CHECK(layouts[k].width == 0 || loopy_db_record_width(db) == layouts[k].width);
            CHECK(loopy_db_block_positions(db) == layouts[k].block_positions);
            check_db(db, e, seed + k, name);
        }
        loopy_db_close(db);
        free(b.data);
    }
}

/* ---- Built-in games ---- */

typedef struct game_case {
    const char *spec;
    int no_symmetry, misere;
    int sparse; /* the automatic layout expected: 1 sparse, 0 dense */
} game_case;

/* loopy_db_value and loopy_db_moves against the solution's, for every
 * step-th position and some positions that are not representatives. */
static void check_game_helpers(const loopy_db *db, const loopy_game *g,
                               const loopy_game_solution *s, uint64_t step,
                               const char *what)
{
    uint64_t n = loopy_game_solution_size(s), bad = 0;
    gen_rng r;

    gen_rng_seed(&r, n);
    for (uint64_t i = 0; i < n + 200; i += i < n ? step : 1) {
        loopy_position p = i < n ? loopy_game_solution_position(s, i)
                                 : gen_below(&r, g->size);
        loopy_outcome o1, o2;
        uint32_t r1, r2;
        loopy_game_move *m1 = NULL, *m2 = NULL;
        size_t c1 = 0, c2 = 0;
        loopy_diag d1, d2;
        loopy_status s1, s2;

        if (g->legal != NULL && !g->legal(g->ctx, p))
            continue;
        s1 = loopy_game_solution_value(s, g, p, &o1, &r1);
        s2 = loopy_db_value(db, g, p, &o2, &r2);
        if (s1 != s2 || (s1 == LOOPY_OK && (o1 != o2 || r1 != r2))) {
            if (bad++ < 5)
                CHECK_MSG(0, "%s: value of %" PRIu64 ": %d %d %u / %d %d %u",
                          what, p, (int)s1, (int)o1, r1, (int)s2, (int)o2, r2);
            continue;
        }
        if (s1 != LOOPY_OK)
            continue;
        memset(&d1, 0, sizeof d1);
        memset(&d2, 0, sizeof d2);
        s1 = loopy_game_solution_moves(s, g, p, &m1, &c1, &d1);
        s2 = loopy_db_moves(db, g, p, &m2, &c2, &d2);
        if (s1 != s2 || c1 != c2 ||
            (c1 > 0 && memcmp(m1, m2, c1 * sizeof *m1) != 0)) {
            if (bad++ < 5)
                CHECK_MSG(0, "%s: moves of %" PRIu64 ": %d %zu / %d %zu (%s)",
                          what, p, (int)s1, c1, (int)s2, c2, d2.message);
        }
        free(m1);
        free(m2);
    }
    CHECK_MSG(bad == 0, "%s: %" PRIu64 " positions differ", what, bad);
}

static void game_cases(void)
{
    static const game_case cases[] = {
        {"subtract", 0, 0, 0},
        {"subtract:40,2,3,7", 0, 1, 0},
        {"tictactoe", 0, 0, 1},
        {"tictactoe", 1, 0, -1},
        {"tictactoe", 0, 1, 1},
        {"connect4:4x4", 0, 0, 0}, /* a dense index */
        {"connect4:3x3", 1, 1, -1},
        {"mnk:3,4,3", 0, 0, -1},
        {"mnk:3,3,3", 1, 0, -1},
    };

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const game_case *c = &cases[k];
        loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
        loopy_game *g = NULL, *g2 = NULL;
        loopy_game_solution *s = NULL;
        loopy_db *db = NULL;
        loopy_diag diag;
        tdb_bytes b = {NULL, 0, 0};
        tdb_expect e;
        char what[160];

        memset(&diag, 0, sizeof diag);
        memset(&e, 0, sizeof e);
        snprintf(what, sizeof what, "%s%s%s", c->spec,
                 c->no_symmetry ? " --no-symmetry" : "",
                 c->misere ? " --misere" : "");
        opt.no_symmetry = c->no_symmetry;
        opt.misere = c->misere;
        if (loopy_game_open(c->spec, &g, &diag) != LOOPY_OK ||
            loopy_game_solve_graph(g, &opt, &s, &diag) != LOOPY_OK) {
            CHECK_MSG(0, "%s: %s", what, diag.message);
            goto done;
        }
        tdb_expect_game(s, g, c->misere != 0, s->symmetric, &e);
        CHECK(loopy_db_write_game(s, g, c->misere, tdb_append, &b) == LOOPY_OK);
        if (tdb_open_file(b.data, b.len, &db, &diag) != LOOPY_OK) {
            CHECK_MSG(0, "%s: open: %s", what, diag.message);
            goto done;
        }
        check_db(db, &e, k, what);
        if (c->sparse >= 0)
            CHECK_MSG(loopy_db_sparse(db) == c->sparse, "%s: sparse %d", what,
                      loopy_db_sparse(db));
        check_game_helpers(db, g, s, e.n > 20000 ? 37 : 1, what);
        check_case_end();

        /* The solver that stores no moves hands over its words: the same
         * positions and values, so the very same bytes. */
        if (g->unmoves != NULL) {
            loopy_game_solution *r = NULL;
            tdb_bytes rb = {NULL, 0, 0};
            CHECK_MSG(loopy_game_solve_retro(g, &opt, &r, &diag) == LOOPY_OK,
                      "%s: retro: %s", what, diag.message);
            if (r != NULL) {
                CHECK(loopy_game_solution_size(r) == e.n);
                CHECK(loopy_game_solution_position(r, 0) ==
                          loopy_game_solution_position(s, 0) &&
                      loopy_game_solution_position(r, e.n - 1) ==
                          loopy_game_solution_position(s, e.n - 1) &&
                      loopy_game_solution_position(r, e.n / 2) ==
                          loopy_game_solution_position(s, e.n / 2));
                CHECK(loopy_db_write_game(r, g, c->misere, tdb_append, &rb) ==
                      LOOPY_OK);
                CHECK_MSG(rb.len == b.len && memcmp(rb.data, b.data, b.len) == 0,
                          "%s: the database of the retro solve differs", what);
            }
            free(rb.data);
            loopy_game_solution_free(r);
            check_case_end();
        }

        /* The game named in the header, and games that are not it. */
        CHECK(loopy_db_open_game(db, &g2, &diag) == LOOPY_OK && g2 != NULL);
        CHECK(g2 == NULL || loopy_db_check_game(db, g2, NULL) == LOOPY_OK);
        loopy_game_close(g2);
        g2 = NULL;
        if (loopy_game_open(strncmp(c->spec, "subtract", 8) == 0 ? "tictactoe"
                                                                 : "subtract",
                            &g2, NULL) == LOOPY_OK) {
            memset(&diag, 0, sizeof diag);
            CHECK(loopy_db_check_game(db, g2, &diag) == LOOPY_EINVAL);
            CHECK_MSG(strstr(diag.message, "the database holds") != NULL, "%s",
                      diag.message);
        }
        loopy_game_close(g2);
        g2 = NULL;
        check_case_end();

        if (e.n <= 100000)
            check_layouts(&e, k * 100, what);
        check_case_end();
    done:
        check_case_end();
        loopy_db_close(db);
        free(b.data);
        tdb_expect_free(&e);
        loopy_game_solution_free(s);
        loopy_game_close(g);
    }
}

/* ---- Random graphs ---- */

static void graph_case(uint64_t seed, int shape)
{
    gen_edges g = GEN_EDGES_INIT;
    gen_targets t = GEN_TARGETS_INIT;
    loopy_solve_options opt = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_graph *graph = NULL;
    loopy_solution *s = NULL;
    loopy_db *db = NULL;
    loopy_diag diag;
    tdb_bytes b = {NULL, 0, 0};
    tdb_expect e;
    gen_rng r;
    uint32_t base;
    char what[120];

    memset(&e, 0, sizeof e);
    gen_rng_seed(&r, seed);
    if (gen_graph(seed, shape, &g) != 0 ||
        (gen_chance(&r, 2, 3) &&
         gen_make_targets(gen_mix_seed(seed, 1), g.n, &t) != 0) ||
        (gen_chance(&r, 2, 3) && gen_add_ties(gen_mix_seed(seed, 2), g.n, &t) != 0)) {
        fputs("test_db: out of memory in the generator\n", stderr);
        exit(EXIT_FAILURE);
    }
    opt.misere = gen_chance(&r, 1, 2);
    opt.lose_at = t.lose_at;
    opt.lose_at_count = t.lose_count;
    opt.win_at = t.win_at;
    opt.win_at_count = t.win_count;
    opt.tie_at = t.tie_at;
    opt.tie_at_count = t.tie_count;
    opt.threads = 1;
    base = (uint32_t)gen_below32(&r, 2);
    snprintf(what, sizeof what, "graph %s seed %" PRIu64, gen_shape_name(shape), seed);
    CHECK(loopy_graph_from_edges(g.n, g.m, g.tail, g.head, &graph) == LOOPY_OK);
    CHECK(graph == NULL || loopy_solve(graph, &opt, &s) == LOOPY_OK);
    if (s == NULL)
        goto done;
    tdb_expect_graph(s, base, opt.misere != 0, &e);
    CHECK(loopy_db_write_graph(s, base, opt.misere, tdb_append, &b) == LOOPY_OK);
    if ((seed % 8 == 0 ? tdb_open_file(b.data, b.len, &db, &diag)
                       : tdb_open_mem(&b, &db, &diag)) != LOOPY_OK) {
        CHECK_MSG(0, "%s: open: %s", what, diag.message);
        goto done;
    }
    CHECK(!loopy_db_sparse(db));
    check_db(db, &e, seed, what);
    /* A graph database names no game. */
    {
        loopy_game *game = (loopy_game *)(uintptr_t)1;
        CHECK(loopy_db_open_game(db, &game, NULL) != LOOPY_OK && game == NULL);
    }
    if (seed % 4 == 0)
        check_layouts(&e, seed, what);
done:
    check_case_end();
    loopy_db_close(db);
    free(b.data);
    tdb_expect_free(&e);
    loopy_solution_free(s);
    loopy_graph_free(graph);
    gen_edges_free(&g);
    gen_targets_free(&t);
}

/* A path of n positions: remoteness up to n - 1, so 4-byte records and
 * several blocks in the default layout. */
static void long_path_case(uint32_t n)
{
    uint32_t *tail = tdb_alloc(n * sizeof *tail), *head = tdb_alloc(n * sizeof *head);
    loopy_graph *graph = NULL;
    loopy_solution *s = NULL;
    loopy_db *db = NULL;
    loopy_diag diag;
    tdb_bytes b = {NULL, 0, 0};
    tdb_expect e;

    memset(&e, 0, sizeof e);
    for (uint32_t v = 0; v + 1 < n; v++) {
        tail[v] = v;
        head[v] = v + 1;
    }
    CHECK(loopy_graph_from_edges(n, n - 1, tail, head, &graph) == LOOPY_OK);
    CHECK(loopy_solve(graph, NULL, &s) == LOOPY_OK);
    tdb_expect_graph(s, 1, false, &e);
    CHECK(loopy_db_write_graph(s, 1, 0, tdb_append, &b) == LOOPY_OK);
    CHECK(tdb_open_file(b.data, b.len, &db, &diag) == LOOPY_OK);
    if (db != NULL) {
        CHECK(loopy_db_record_width(db) == 4);
        CHECK(loopy_db_block_count(db) == (n + DB_DENSE_BLOCK - 1) / DB_DENSE_BLOCK);
        check_db(db, &e, n, "long path");
    }
    check_case_end();
    loopy_db_close(db);
    free(b.data);
    tdb_expect_free(&e);
    loopy_solution_free(s);
    loopy_graph_free(graph);
    free(tail);
    free(head);
}

/* An empty graph: no positions, no blocks. */
static void empty_case(void)
{
    loopy_graph *graph = NULL;
    loopy_solution *s = NULL;
    loopy_db *db = NULL;
    loopy_diag diag;
    tdb_bytes b = {NULL, 0, 0};
    tdb_expect e;

    memset(&e, 0, sizeof e);
    CHECK(loopy_graph_from_edges(0, 0, NULL, NULL, &graph) == LOOPY_OK);
    CHECK(loopy_solve(graph, NULL, &s) == LOOPY_OK);
    tdb_expect_graph(s, 0, true, &e);
    CHECK(loopy_db_write_graph(s, 0, 1, tdb_append, &b) == LOOPY_OK);
    CHECK(tdb_open_mem(&b, &db, &diag) == LOOPY_OK);
    if (db != NULL) {
        CHECK(loopy_db_block_count(db) == 0);
        check_db(db, &e, 0, "empty graph");
    }
    check_case_end();
    loopy_db_close(db);
    free(b.data);
    tdb_expect_free(&e);
    loopy_solution_free(s);
    loopy_graph_free(graph);
}

/* Sources the writer must refuse. */
static void writer_errors(void)
{
    loopy_position pos[3] = {1, 5, 5};
    uint8_t outcome[3] = {1, 2, 3};
    uint32_t rem[3] = {1, 0, 0x40000000u};
    tdb_expect e = {2, pos, outcome, rem, 10, "x", "", false, false, 0};
    loopy_i_db_source src;
    tdb_bytes b = {NULL, 0, 0};
    loopy_i_db_layout two = {0, DB_LAYOUT_AUTO, 2, 0, 0};
    char long_name[80];

    src = tdb_source_of(&e);
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_OK);
    src.n = 3; /* a repeated position, and a remoteness of 2^30 */
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_EINVAL);
    pos[2] = 6;
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_ETOOBIG);
    rem[2] = 0x4000;
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_OK);
    CHECK(loopy_i_db_write(&src, &two, tdb_append, &b) == LOOPY_ETOOBIG);
    src.index_size = 6; /* position 6 outside */
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_EINVAL);
    src.index_size = 10;
    src.name = "";
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_EINVAL);
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    src.name = long_name;
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_EINVAL);
    long_name[64] = '\0';
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_OK);
    src.name = "tab\there";
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_EINVAL);
    src.name = "x";
    outcome[1] = 4;
    CHECK(loopy_i_db_write(&src, NULL, tdb_append, &b) == LOOPY_EINVAL);
    CHECK(loopy_db_write_graph(NULL, 0, 0, tdb_append, &b) == LOOPY_EINVAL);
    CHECK(loopy_db_write_game(NULL, NULL, 0, tdb_append, &b) == LOOPY_EINVAL);
    check_case_end();
    free(b.data);
}

/* ---- Threads and memory ---- */

static void threads_case(void)
{
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game *g = NULL;
    loopy_game_solution *s = NULL;
    loopy_db *db = NULL;
    loopy_diag diag;
    tdb_bytes b = {NULL, 0, 0};
    tdb_expect e;
    uint64_t bad = 0;

    memset(&e, 0, sizeof e);
    if (loopy_game_open("connect4:4x4", &g, NULL) != LOOPY_OK ||
        loopy_game_solve_graph(g, &opt, &s, NULL) != LOOPY_OK) {
        CHECK(0);
        return;
    }
    tdb_expect_game(s, g, false, s->symmetric, &e);
    CHECK(loopy_db_write_game(s, g, 0, tdb_append, &b) == LOOPY_OK);
    CHECK(tdb_open_file(b.data, b.len, &db, &diag) == LOOPY_OK);
    if (db != NULL) {
        /* Each thread probes every position, in an order of its own, so
         * that threads hold different blocks at once. */
#pragma omp parallel for num_threads(4) reduction(+ : bad)
        for (int t = 0; t < 4; t++) {
            for (uint64_t i = 0; i < e.n / 16; i++) {
                uint64_t j = (i * 7919 + (uint64_t)t * 104729) % e.n;
                loopy_outcome o;
                uint32_t r;
                if (loopy_db_probe(db, e.pos[j], &o, &r) != LOOPY_OK ||
                    o != e.outcome[j] || r != e.rem[j])
                    bad++;
            }
            if (loopy_db_iterate(db, NULL, NULL, NULL) != LOOPY_OK)
                bad++;
        }
        CHECK_MSG(bad == 0, "%" PRIu64 " probes wrong on 4 threads", bad);
    }
    check_case_end();
    loopy_db_close(db);
    free(b.data);
    tdb_expect_free(&e);
    loopy_game_solution_free(s);
    loopy_game_close(g);
}

static void alloc_failures(void)
{
    loopy_position pos[6] = {3, 9, 10, 200, 201, 5000};
    uint8_t outcome[6] = {1, 2, 3, 0, 1, 2};
    uint32_t rem[6] = {1, 0, 2, LOOPY_NONE, 3, 0};
    tdb_expect e = {6, pos, outcome, rem, 6000, "x", "p", false, false, 0};
    const loopy_i_db_layout layout = {2, DB_LAYOUT_AUTO, 0, 0, 0};
    tdb_bytes good = tdb_write_layout(&e, &layout);
    int64_t live = loopy_i_alloc_live();
    bool done = false;

    for (uint64_t k = 1; !done && k < 1000; k++) {
        loopy_i_db_source src = tdb_source_of(&e);
        tdb_bytes b = {NULL, 0, 0};
        loopy_db *db = NULL;
        loopy_diag diag;
        loopy_status s1, s2 = LOOPY_OK, s3 = LOOPY_OK;
        loopy_outcome o;
        uint32_t r;

        loopy_i_alloc_fail_at(k);
        s1 = loopy_i_db_write(&src, &layout, tdb_append, &b);
        loopy_i_alloc_fail_at(0);
        CHECK(s1 == LOOPY_OK || s1 == LOOPY_ENOMEM);
        CHECK(s1 != LOOPY_OK || (b.len == good.len && memcmp(b.data, good.data, b.len) == 0));
        free(b.data);

        loopy_i_alloc_fail_at(k);
        s2 = tdb_open_mem(&good, &db, &diag);
        if (s2 == LOOPY_OK) {
            s3 = loopy_db_probe(db, 200, &o, &r);
            if (s3 == LOOPY_OK)
                s3 = loopy_db_iterate(db, NULL, NULL, &diag);
        }
        loopy_i_alloc_fail_at(0);
        CHECK(s2 == LOOPY_OK || (s2 == LOOPY_ENOMEM && db == NULL));
        CHECK(s3 == LOOPY_OK || s3 == LOOPY_ENOMEM);
        loopy_db_close(db);
        /* A walk first, on 1 to 3 threads, each of which needs a scratch
         * of its own: out of memory, not a damaged database. */
        {
            loopy_db *fresh = NULL;
            loopy_status s4 = tdb_open_mem(&good, &fresh, &diag);
            loopy_i_alloc_fail_at(k);
            if (s4 == LOOPY_OK)
                s4 = loopy_i_db_iterate_threads(fresh, NULL, NULL,
                                                1 + (int)(k % 3), &diag);
            loopy_i_alloc_fail_at(0);
            CHECK_MSG(s4 == LOOPY_OK || s4 == LOOPY_ENOMEM,
                      "a walk failing at allocation %" PRIu64 ": %d %s", k,
                      (int)s4, diag.message);
            loopy_db_close(fresh);
        }
        done = s1 == LOOPY_OK && s2 == LOOPY_OK && s3 == LOOPY_OK;
    }
    CHECK(done);
    CHECK_MSG(loopy_i_alloc_live() == live, "%" PRId64 " blocks leaked",
              loopy_i_alloc_live() - live);
    free(good.data);
    check_case_end();
}

/* ---- The fuzzer's seed corpus ---- */

static void save(const char *dir, const char *name, const tdb_bytes *b)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL || fwrite(b->data, 1, b->len, f) != b->len || fclose(f) != 0) {
        fprintf(stderr, "test_db: cannot write %s\n", path);
        exit(EXIT_FAILURE);
    }
    printf("%s: %zu bytes\n", path, b->len);
}

static int write_corpus(const char *dir)
{
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game *g = NULL;
    loopy_game_solution *s = NULL;
    gen_edges ge = GEN_EDGES_INIT;
    gen_targets t = GEN_TARGETS_INIT;
    loopy_solve_options so = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_graph *graph = NULL;
    loopy_solution *sol = NULL;
    tdb_expect e;
    tdb_bytes b, d;
    const loopy_i_db_layout dense8 = {8, DB_LAYOUT_DENSE, 2, 0, 1};
    const loopy_i_db_layout sparse64 = {64, DB_LAYOUT_SPARSE, 0, 0, 1};
    const loopy_i_db_layout dense16w4 = {16, DB_LAYOUT_DENSE, 4, 0, 1};
    const loopy_i_db_layout sparse5w4 = {5, DB_LAYOUT_SPARSE, 4, 0, 1};

    mkdir(dir, 0777);
    memset(&e, 0, sizeof e);
    /* subtract: dense, 2-byte records, 3 blocks. */
    loopy_game_open("subtract", &g, NULL);
    loopy_game_solve_graph(g, &opt, &s, NULL);
    tdb_expect_game(s, g, false, false, &e);
    b = tdb_write_layout(&e, &dense8);
    save(dir, "subtract-dense-w2", &b);
    d = tdb_copy(&b);
    d.len -= 13;
    save(dir, "subtract-truncated", &d);
    free(d.data);
    free(b.data);
    tdb_expect_free(&e);
    loopy_game_solution_free(s);
    loopy_game_close(g);

    /* tic-tac-toe up to symmetry: sparse, 12 blocks; a damaged block. */
    loopy_game_open("tictactoe", &g, NULL);
    loopy_game_solve_graph(g, &opt, &s, NULL);
    tdb_expect_game(s, g, false, s->symmetric, &e);
    b = tdb_write_layout(&e, &sparse64);
    save(dir, "tictactoe-sparse-w2", &b);
    d = tdb_copy(&b);
    d.data[db_get(d.data + 16, 4) + 20] ^= 0x40;
    save(dir, "tictactoe-block-flipped", &d);
    tdb_fix_checksums(&d);
    save(dir, "tictactoe-block-flipped-fixed", &d);
    free(d.data);
    d = tdb_copy(&b);
    d.data[d.len - 20] ^= 0x01;
    tdb_fix_checksums(&d);
    save(dir, "tictactoe-index-damaged-fixed", &d);
    free(d.data);
    free(b.data);
    tdb_expect_free(&e);
    loopy_game_solution_free(s);
    loopy_game_close(g);

    /* A random graph with ties, misere: dense 4-byte records, and a
     * sparse one of a few of its positions. */
    gen_graph_sized(7, GEN_MIX, 60, &ge);
    gen_make_targets(8, ge.n, &t);
    gen_add_ties(9, ge.n, &t);
    so.misere = 1;
    so.lose_at = t.lose_at;
    so.lose_at_count = t.lose_count;
    so.win_at = t.win_at;
    so.win_at_count = t.win_count;
    so.tie_at = t.tie_at;
    so.tie_at_count = t.tie_count;
    loopy_graph_from_edges(ge.n, ge.m, ge.tail, ge.head, &graph);
    loopy_solve(graph, &so, &sol);
    tdb_expect_graph(sol, 1, true, &e);
    b = tdb_write_layout(&e, &dense16w4);
    save(dir, "graph-dense-w4", &b);
    d = tdb_copy(&b);
    db_put(d.data + 64, db_get(d.data + 64, 8) + 1, 8);
    tdb_fix_checksums(&d);
    save(dir, "graph-bad-count-fixed", &d);
    free(d.data);
    free(b.data);
    {
        /* Every 7th vertex, spread over a large index space. */
        tdb_expect f = e;
        uint64_t m = 0;
        f.pos = tdb_alloc(e.n * sizeof *f.pos);
        f.outcome = tdb_alloc(e.n);
        f.rem = tdb_alloc(e.n * sizeof *f.rem);
        for (uint64_t i = 0; i < e.n; i += 7, m++) {
            f.pos[m] = i * 1000003 + 17;
            f.outcome[m] = e.outcome[i];
            f.rem[m] = e.rem[i];
        }
        f.n = m;
        f.index_size = UINT64_MAX;
        f.name = "spread";
        f.params = "7";
        b = tdb_write_layout(&f, &sparse5w4);
        save(dir, "spread-sparse-w4", &b);
        free(b.data);
        tdb_expect_free(&f);
    }
    tdb_expect_free(&e);
    loopy_solution_free(sol);
    loopy_graph_free(graph);
    gen_edges_free(&ge);
    gen_targets_free(&t);

    /* The empty graph. */
    loopy_graph_from_edges(0, 0, NULL, NULL, &graph);
    loopy_solve(graph, NULL, &sol);
    b.data = NULL;
    b.len = b.cap = 0;
    loopy_db_write_graph(sol, 0, 0, tdb_append, &b);
    save(dir, "empty", &b);
    free(b.data);
    loopy_solution_free(sol);
    loopy_graph_free(graph);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0)
        return write_corpus(argv[2]);
    writer_errors();
    empty_case();
    game_cases();
    for (uint64_t seed = 1; seed <= 160; seed++)
        graph_case(seed, (int)(seed % GEN_SHAPE_COUNT));
    long_path_case(70000);
    threads_case();
    alloc_failures();
    return check_finish("test_db");
}
