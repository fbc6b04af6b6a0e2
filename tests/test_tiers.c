/*
 * test_tiers.c - the tier solver (loopy_game_solve_tiers); tiers whose
 * moves stay inside them are test_tier_inner.c's.
 *
 * - Random tiered games (tests/tiered.h: tiers of random sizes, some
 *   empty; each tier's children a random set of later tiers; random moves
 *   into them, random primitives, positions without moves): every
 *   position's value equals the oracle's, which evaluates the definition
 *   from the last index down (moves only go up), and the graph solver's;
 *   reachability too, and with misere and all_legal; on 1 and 2 threads.
 * - Connect Four 3x3 to 4x4 (4x4 unless quick) and subtraction games: the
 *   same values as the solver that stores no moves, with and without
 *   symmetry and misere, and with all_legal.
 * - Broken tiers refused with LOOPY_EGAME and a message naming them: a
 *   cycle of tiers, a tier that names itself, a move to a tier not named,
 *   starts out of order, a failing tier_children, a child out of range;
 *   a game without tiers is LOOPY_EINVAL.
 * - The work file's journal (lib/rules/tier_store.c): entries read back,
 *   a last entry cut short dropped (and cut from the file), a damaged one
 *   before the last refused, entries out of order refused, another
 *   solve's journal refused; a stored solve equals the one in memory.
 *
 *   test_tiers [--write-corpus DIR]
 * With --write-corpus, writes the seed corpus of fuzz/tier_journal.c to
 * DIR instead.
 */
#include "check.h"
#include "tiered.h"
#include "loopy_game.h"
#include "../lib/rules/tier_store.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file in memory written at offsets (a loopy_write_at_fn). */
typedef struct at_bytes {
    unsigned char *data;
    size_t len, cap;
} at_bytes;

static int put_at(void *ctx, const void *p, size_t len, uint64_t offset)
{
    at_bytes *b = ctx;

    if (offset + len > b->cap) {
        size_t cap = (size_t)(offset + len) * 2;
        unsigned char *data = realloc(b->data, cap);
        if (data == NULL)
            return 1;
        memset(data + b->cap, 0xEE, cap - b->cap);
        b->data = data;
        b->cap = cap;
    }
    memcpy(b->data + offset, p, len);
    if (offset + len > b->len)
        b->len = (size_t)(offset + len);
    return 0;
}

/* The database of a solve that parks its tiers (in folder/s.tiers) is
 * the one written from the solution in memory, b, byte for byte; and
 * again when the finished solve is resumed; its summary is b's. */
static void test_saved(const char *folder, const loopy_game *game,
                       const loopy_game_solve_options *opt,
                       const loopy_game_solution *b, const char *spec)
{
    char path[4200], name[4300];
    loopy_game_tier_store store = {NULL, 0, 0};
    loopy_game_solve_summary sum;
    at_bytes want = {NULL, 0, 0}, got = {NULL, 0, 0};
    loopy_outcome o = LOOPY_DRAW;
    uint32_t r = LOOPY_NONE;
    loopy_diag diag;

    snprintf(path, sizeof path, "%s/s.tiers", folder);
    store.path = path;
    memset(&diag, 0, sizeof diag);
    CHECK(loopy_db_write_game_at(b, game, opt->misere, put_at, &want) ==
          LOOPY_OK);
    for (int round = 0; round < 2; round++) {
        got.len = 0;
        store.resume = round;
        CHECK_MSG(loopy_game_solve_tiers_saved(game, opt, &store, put_at, &got,
                                               &sum, &diag) == LOOPY_OK,
                  "%s: %s", spec, diag.message);
        CHECK_MSG(got.len == want.len &&
                      memcmp(got.data, want.data, want.len) == 0,
                  "%s (round %d): %zu bytes, the solution's %zu", spec, round,
                  got.len, want.len);
        CHECK(sum.positions == loopy_game_solution_size(b));
        for (int k = 0; k < 4; k++)
            CHECK(sum.count[k] ==
                  loopy_game_solution_count(b, (loopy_outcome)k));
        loopy_game_solution_value(b, game, game->start, &o, &r);
        CHECK(sum.start_outcome == o && sum.start_remoteness == r);
    }
    unlink(path);
    snprintf(name, sizeof name, "%s-journal", path);
    unlink(name);
    snprintf(name, sizeof name, "%s-parked", path);
    unlink(name);
    free(want.data);
    free(got.data);
}

static void test_random(int rounds)
{
    gen_rng r;

    gen_rng_seed(&r, 0x7135);
    for (int round = 0; round < rounds; round++) {
        tiered g;
        loopy_game game;
        bool misere = round % 3 == 1, all = round % 4 == 3;
        loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
        loopy_game_solution *s = NULL, *ref = NULL;
        loopy_diag diag;
        bool *reached;
        loopy_outcome *outcome;
        uint32_t *remoteness;
        loopy_status status;

        tiered_make(&g, &r, &game);
        reached = calloc(g.size, sizeof *reached);
        outcome = calloc(g.size, sizeof *outcome);
        remoteness = calloc(g.size, sizeof *remoteness);
        tiered_oracle(&g, misere, all, reached, outcome, remoteness);
        opt.misere = misere;
        opt.all_legal = all;
        opt.threads = 1 + round % 2;
        /* Every other round, a remoteness_bound: 1-byte records.  The
         * oracle's longest remoteness, or more; first one less, which
         * the solver must refuse when a remoteness passes it. */
        if (round % 2 == 0) {
            uint32_t longest = 0;
            for (uint64_t p = 0; p < g.size; p++)
                if (reached[p] && remoteness[p] > longest)
                    longest = remoteness[p];
            if (longest >= 2) {
                game.remoteness_bound = longest - 1;
                memset(&diag, 0, sizeof diag);
                status = loopy_game_solve_tiers(&game, &opt, &s, &diag);
                CHECK_MSG(status == LOOPY_EGAME &&
                              strstr(diag.message, "remoteness_bound") != NULL,
                          "round %d: a bound of %u: %d %s", round,
                          longest - 1, (int)status, diag.message);
                loopy_game_solution_free(s);
                s = NULL;
            }
            game.remoteness_bound = longest + (uint32_t)(round % 3);
            if (game.remoteness_bound == 0)
                game.remoteness_bound = 1;
        }
        memset(&diag, 0, sizeof diag);
        status = loopy_game_solve_tiers(&game, &opt, &s, &diag);
        CHECK_MSG(status == LOOPY_OK, "round %d: %s", round, diag.message);
        /* The 1-byte records are the solution's. */
        if (s != NULL)
            CHECK((s->byte != NULL) == (game.remoteness_bound != 0));
        opt.all_legal = 0;
        if (!all)
            CHECK(loopy_game_solve_graph(&game, &opt, &ref, &diag) == LOOPY_OK);
        for (uint64_t p = 0; s != NULL && p < g.size; p++) {
            loopy_outcome o = LOOPY_DRAW;
            uint32_t rem = 0;
            loopy_status v = loopy_game_solution_value(s, &game, p, &o, &rem);
            CHECK_MSG((v == LOOPY_OK) == reached[p], "round %d: position %llu "
                      "reached %d, solved %d", round, (unsigned long long)p,
                      (int)reached[p], (int)(v == LOOPY_OK));
            if (v == LOOPY_OK && reached[p])
                CHECK_MSG(o == outcome[p] && rem == remoteness[p],
                          "round %d: position %llu: %d %u, the oracle %d %u",
                          round, (unsigned long long)p, (int)o, rem,
                          (int)outcome[p], remoteness[p]);
            if (ref != NULL) {
                loopy_outcome o2;
                uint32_t rem2;
                loopy_status v2 = loopy_game_solution_value(ref, &game, p, &o2,
                                                            &rem2);
                CHECK(v2 == v && (v != LOOPY_OK || (o2 == o && rem2 == rem)));
            }
        }
        /* A third of the rounds: solved again parking its tiers on disk,
         * the database written from the park file: the solution's. */
        if (s != NULL && round % 3 == 0) {
            char folder[] = "/tmp/loopy-test-saved-XXXXXX", what[64];
            loopy_game_solve_options again = opt;
            again.all_legal = all;
            snprintf(what, sizeof what, "round %d", round);
            CHECK(mkdtemp(folder) != NULL);
            test_saved(folder, &game, &again, s, what);
            rmdir(folder);
        }
        loopy_game_solution_free(s);
        loopy_game_solution_free(ref);
        free(reached);
        free(outcome);
        free(remoteness);
        tiered_free(&g);
        check_case_end();
    }
}

/* ---- Broken tiers ---- */

/* A random tiered game whose tiers are all non-empty and whose start
 * moves (so that each fault shows). */
static void tiered_make_full(tiered *g, loopy_game *game)
{
    gen_rng r;

    gen_rng_seed(&r, 99);
    for (;;) {
        bool ok;
        tiered_make(g, &r, game);
        ok = g->move_at[1] > 0 && g->kind[0] == LOOPY_PLAYING;
        for (uint64_t t = 0; t < g->tiers; t++)
            ok = ok && g->start[t + 1] > g->start[t];
        if (ok)
            return;
        tiered_free(g);
    }
}

static void expect_refused(int fault, loopy_status want, const char *words)
{
    tiered g;
    loopy_game game;
    loopy_game_solution *s = NULL;
    loopy_diag diag;
    loopy_status status;

    tiered_make_full(&g, &game);
    g.fault = fault;
    memset(&diag, 0, sizeof diag);
    status = loopy_game_solve_tiers(&game, NULL, &s, &diag);
    CHECK_MSG(status == want, "fault %d: status %d (%s)", fault, (int)status,
              diag.message);
    CHECK_MSG(strstr(diag.message, words) != NULL, "fault %d: '%s' lacks '%s'",
              fault, diag.message, words);
    CHECK(s == NULL);
    tiered_free(&g);
    check_case_end();
}

/* loopy_game_check says so too: a flaw of kind tiers. */
static void expect_check_flaw(int fault, const char *words)
{
    tiered g;
    loopy_game game;
    loopy_game_check_report report;
    loopy_diag diag;

    tiered_make_full(&g, &game);
    g.fault = fault;
    memset(&diag, 0, sizeof diag);
    CHECK(loopy_game_check(&game, NULL, &report, &diag) == LOOPY_EGAME);
    CHECK_MSG(report.flaw == LOOPY_FLAW_TIERS && strstr(report.message, words),
              "fault %d: flaw %d: %s", fault, (int)report.flaw, report.message);
    g.fault = FAULT_NONE;
    CHECK(loopy_game_check(&game, NULL, &report, &diag) == LOOPY_OK);
    tiered_free(&g);
    check_case_end();
}

static void test_refusals(void)
{
    gen_rng r;
    tiered g;
    loopy_game game;
    loopy_game_solution *s = NULL;
    loopy_diag diag;

    expect_refused(FAULT_CYCLE, LOOPY_EGAME, "cycle");
    /* A tier that names itself needs unmoves, which this game has not. */
    expect_refused(FAULT_SELF, LOOPY_EINVAL, "tier 1 has moves inside itself");
    expect_refused(FAULT_UNNAMED, LOOPY_EGAME, "which tier_children() of tier 0 "
                                               "does not name");
    expect_refused(FAULT_ORDER, LOOPY_EGAME, "tier 2 starts at");
    expect_refused(FAULT_FAILS, LOOPY_EGAME, "tier_children() of tier 1 failed");
    expect_refused(FAULT_RANGE, LOOPY_EGAME, "not below the tier count");
    expect_check_flaw(FAULT_UNNAMED, "which tier_children() of its tier 0 "
                                     "does not name");
    expect_check_flaw(FAULT_CYCLE, "cycle");
    expect_check_flaw(FAULT_FAILS, "tier_children() of tier 1 failed");
    /* No tiers. */
    gen_rng_seed(&r, 5);
    tiered_make(&g, &r, &game);
    game.tier_children = NULL;
    game.tier_count = 0;
    memset(&diag, 0, sizeof diag);
    CHECK(loopy_game_solve_tiers(&game, NULL, &s, &diag) == LOOPY_EINVAL);
    CHECK(strstr(diag.message, "has no tiers") != NULL);
    tiered_free(&g);
    check_case_end();
}

/* ---- Built-in games against the solver that stores no moves ---- */

static void test_against_retro(const char *spec, int flags)
{
    loopy_game *game = NULL;
    loopy_game_solution *a = NULL, *b = NULL;
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    CHECK(loopy_game_open(spec, &game, &diag) == LOOPY_OK);
    if (game == NULL)
        return;
    opt.misere = flags & 1;
    opt.no_symmetry = (flags & 2) != 0;
    opt.all_legal = (flags & 4) != 0;
    CHECK_MSG(loopy_game_solve_tiers(game, &opt, &a, &diag) == LOOPY_OK, "%s: %s",
              spec, diag.message);
    CHECK(loopy_game_solve_retro(game, &opt, &b, &diag) == LOOPY_OK);
    if (a != NULL && b != NULL) {
        CHECK(loopy_game_solution_size(a) == loopy_game_solution_size(b));
        for (int o = 0; o < 4; o++)
            CHECK(loopy_game_solution_count(a, (loopy_outcome)o) ==
                  loopy_game_solution_count(b, (loopy_outcome)o));
        for (uint64_t i = 0; i < loopy_game_solution_size(a); i++) {
            loopy_position p = loopy_game_solution_position(a, i);
            loopy_outcome oa, ob;
            uint32_t ra, rb;
            CHECK(p == loopy_game_solution_position(b, i));
            CHECK(loopy_game_solution_value(a, game, p, &oa, &ra) == LOOPY_OK);
            CHECK(loopy_game_solution_value(b, game, p, &ob, &rb) == LOOPY_OK);
            if (oa != ob || ra != rb) {
                CHECK_MSG(0, "%s flags %d: position %llu: %d %u, retro %d %u",
                          spec, flags, (unsigned long long)p, (int)oa, ra,
                          (int)ob, rb);
                break;
            }
        }
    }
    loopy_game_solution_free(a);
    loopy_game_solution_free(b);
    loopy_game_close(game);
    check_case_end();
}

/* ---- Progress ---- */

/* What the progress callback was told: the phases' labels in turn, done
 * never going back within a label, the total always the index space. */
typedef struct heard {
    uint64_t size, calls, tiers_seen, last_done;
    char label[64];
    bool bad_total, went_back, reached, solved;
    uint64_t solved_done;
} heard;

static void hear(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    heard *h = ctx;

    h->calls++;
    h->bad_total |= total != h->size || done > total;
    if (strcmp(phase, h->label) != 0) {
        if (strncmp(phase, "tier ", 5) == 0)
            h->tiers_seen++;
        snprintf(h->label, sizeof h->label, "%s", phase);
    } else {
        h->went_back |= done < h->last_done;
    }
    h->last_done = done;
    h->reached |= strcmp(phase, "reached") == 0;
    if (strcmp(phase, "solved") == 0) {
        h->solved = true;
        h->solved_done = done;
    }
}

/* A tier solve tells its progress tier by tier ("tier K/N", K from 1 in
 * the order solved), and ends with "solved" at the whole index space. */
static void test_progress(void)
{
    loopy_game *game = NULL;
    loopy_game_solution *s = NULL;
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_diag diag;
    heard h;

    memset(&diag, 0, sizeof diag);
    memset(&h, 0, sizeof h);
    CHECK(loopy_game_open("connect4:4x3", &game, &diag) == LOOPY_OK);
    if (game == NULL)
        return;
    h.size = game->size;
    opt.progress = hear;
    opt.progress_ctx = &h;
    CHECK(loopy_game_solve_tiers(game, &opt, &s, &diag) == LOOPY_OK);
    CHECK(!h.bad_total && !h.went_back);
    CHECK(h.reached && h.solved && h.solved_done == game->size);
    /* One label per tier: 4x3 has 13 stone counts. */
    CHECK_MSG(h.tiers_seen == game->tier_count, "%llu tiers told, %llu",
              (unsigned long long)h.tiers_seen,
              (unsigned long long)game->tier_count);
    loopy_game_solution_free(s);
    loopy_game_close(game);
    check_case_end();
}

/* ---- The journal ---- */

static const tier_store_key journal_key = {"fuzz", "x", 1000, 7, 0};

/* A journal with entries REACHED, DONE 6, DONE 5 in folder/w.tiers, its
 * bytes in *bytes (malloc'd), *len of them. */
static bool make_journal(const char *folder, unsigned char **bytes,
                         size_t *len)
{
    char path[4200], journal[4300];
    tier_store st;
    loopy_diag diag;
    FILE *f;
    bool ok;

    snprintf(path, sizeof path, "%s/w.tiers", folder);
    snprintf(journal, sizeof journal, "%s-journal", path);
    unlink(path);
    unlink(journal);
    memset(&diag, 0, sizeof diag);
    if (loopy_i_tier_store_open(&st, path, false, &journal_key, &diag) !=
        LOOPY_OK)
        return false;
    ((uint16_t *)st.record)[999] = 7;
    ok = loopy_i_tier_store_commit(&st, 0, 1000, TIER_ENTRY_REACHED, 0, 0,
                                   &diag) == LOOPY_OK &&
         loopy_i_tier_store_commit(&st, 900, 1000, TIER_ENTRY_DONE, 6, 11,
                                   &diag) == LOOPY_OK &&
         loopy_i_tier_store_commit(&st, 800, 900, TIER_ENTRY_DONE, 5, 12,
                                   &diag) == LOOPY_OK;
    loopy_i_tier_store_close(&st, false);
    *len = TIER_JOURNAL_HEADER + 3 * TIER_JOURNAL_ENTRY;
    *bytes = malloc(*len);
    f = fopen(journal, "rb");
    ok = ok && *bytes != NULL && f != NULL && fread(*bytes, 1, *len, f) == *len;
    if (f != NULL)
        fclose(f);
    return ok;
}

/* Writes bytes[0 .. len) as folder/w.tiers-journal and opens it for a
 * resume: the status, with *done tiers done and the journal's new size. */
static loopy_status reopen(const char *folder, const unsigned char *bytes,
                           size_t len, const tier_store_key *key,
                           uint64_t *done, off_t *size, loopy_diag *diag)
{
    char path[4200], journal[4300];
    tier_store st;
    loopy_status status;
    struct stat sb;
    FILE *f;

    snprintf(path, sizeof path, "%s/w.tiers", folder);
    snprintf(journal, sizeof journal, "%s-journal", path);
    f = fopen(journal, "wb");
    if (f == NULL || fwrite(bytes, 1, len, f) != len || fclose(f) != 0)
        return LOOPY_EIO;
    memset(diag, 0, sizeof *diag);
    status = loopy_i_tier_store_open(&st, path, true, key, diag);
    *done = 0;
    if (status == LOOPY_OK) {
        for (uint64_t t = 0; t < key->tiers; t++)
            *done += st.done[t];
        CHECK(((uint16_t *)st.record)[999] == 7);
        loopy_i_tier_store_close(&st, false);
    }
    *size = stat(journal, &sb) == 0 ? sb.st_size : -1;
    return status;
}

static void test_journal(void)
{
    char folder[] = "/tmp/loopy-test-tiers-XXXXXX", path[4200];
    unsigned char *j = NULL, *copy;
    size_t len = 0;
    uint64_t done;
    off_t size;
    loopy_diag diag;
    tier_store_key other = journal_key;

    CHECK(mkdtemp(folder) != NULL);
    CHECK(make_journal(folder, &j, &len));
    copy = malloc(len);
    if (j == NULL || copy == NULL)
        return;
    CHECK(reopen(folder, j, len, &journal_key, &done, &size, &diag) == LOOPY_OK);
    CHECK(done == 2 && size == (off_t)len);
    /* The last entry cut short: dropped, and cut. */
    CHECK(reopen(folder, j, len - 5, &journal_key, &done, &size, &diag) ==
          LOOPY_OK);
    CHECK(done == 1 && size == (off_t)(len - TIER_JOURNAL_ENTRY));
    /* The last entry damaged: dropped too. */
    memcpy(copy, j, len);
    copy[len - 20] ^= 1;
    CHECK(reopen(folder, copy, len, &journal_key, &done, &size, &diag) ==
          LOOPY_OK);
    CHECK(done == 1);
    /* An entry before the last damaged: refused. */
    memcpy(copy, j, len);
    copy[TIER_JOURNAL_HEADER + TIER_JOURNAL_ENTRY + 3] ^= 1;
    CHECK(reopen(folder, copy, len, &journal_key, &done, &size, &diag) ==
          LOOPY_EFORMAT);
    CHECK(strstr(diag.message, "damaged") != NULL);
    /* A tier done before every tier was reached: refused. */
    memcpy(copy, j, TIER_JOURNAL_HEADER);
    memcpy(copy + TIER_JOURNAL_HEADER, j + TIER_JOURNAL_HEADER + TIER_JOURNAL_ENTRY,
           TIER_JOURNAL_ENTRY);
    CHECK(reopen(folder, copy, TIER_JOURNAL_HEADER + TIER_JOURNAL_ENTRY,
                 &journal_key, &done, &size, &diag) == LOOPY_EFORMAT);
    CHECK(strstr(diag.message, "does not follow") != NULL);
    /* The header damaged, or another solve's. */
    memcpy(copy, j, len);
    copy[50] ^= 1;
    CHECK(reopen(folder, copy, len, &journal_key, &done, &size, &diag) ==
          LOOPY_EFORMAT);
    other.name = "other";
    CHECK(reopen(folder, j, len, &other, &done, &size, &diag) == LOOPY_EINVAL);
    CHECK(strstr(diag.message, "another game") != NULL);
    other = journal_key;
    other.flags = TIER_FLAG_MISERE;
    CHECK(reopen(folder, j, len, &other, &done, &size, &diag) == LOOPY_EINVAL);
    snprintf(path, sizeof path, "%s/w.tiers", folder);
    unlink(path);
    strcat(path, "-journal");
    unlink(path);
    rmdir(folder);
    free(j);
    free(copy);
    check_case_end();
}

/* A stored solve (a work file in a temporary folder) equals the solve in
 * memory, and leaves its work file for the caller. */
static void test_stored(const char *spec, int flags)
{
    char folder[] = "/tmp/loopy-test-tiers-XXXXXX", path[4200];
    loopy_game *game = NULL;
    loopy_game_solution *a = NULL, *b = NULL;
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_tier_store store = {NULL, 0, 0};
    loopy_diag diag;

    CHECK(mkdtemp(folder) != NULL);
    snprintf(path, sizeof path, "%s/w.tiers", folder);
    memset(&diag, 0, sizeof diag);
    CHECK(loopy_game_open(spec, &game, &diag) == LOOPY_OK);
    if (game == NULL)
        return;
    opt.misere = flags & 1;
    opt.no_symmetry = (flags & 2) != 0;
    opt.all_legal = (flags & 4) != 0;
    store.path = path;
    CHECK_MSG(loopy_game_solve_tiers_stored(game, &opt, &store, &a, &diag) ==
                  LOOPY_OK, "%s: %s", spec, diag.message);
    CHECK(loopy_game_solve_tiers(game, &opt, &b, &diag) == LOOPY_OK);
    if (a != NULL && b != NULL) {
        CHECK(loopy_game_solution_size(a) == loopy_game_solution_size(b));
        for (uint64_t i = 0; i < loopy_game_solution_size(a); i += 7) {
            loopy_position p = loopy_game_solution_position(a, i);
            loopy_outcome oa = LOOPY_DRAW, ob = LOOPY_WIN;
            uint32_t ra = 0, rb = 1;
            CHECK(p == loopy_game_solution_position(b, i));
            loopy_game_solution_value(a, game, p, &oa, &ra);
            loopy_game_solution_value(b, game, p, &ob, &rb);
            CHECK(oa == ob && ra == rb);
        }
    }
    /* While the solution lives (its database not yet written), it holds
     * the journal's lock: another solve may not take the work file. */
    store.resume = 1;
    if (a != NULL) {
        loopy_game_solution *c = NULL;
        memset(&diag, 0, sizeof diag);
        CHECK_MSG(loopy_game_solve_tiers_stored(game, &opt, &store, &c,
                                                &diag) == LOOPY_EINVAL &&
                      c == NULL &&
                      strstr(diag.message, "another solve is using") != NULL,
                  "%s: a resume beside a live solution: %s", spec,
                  diag.message);
        loopy_game_solution_free(c);
    }
    /* Resumed when finished: the same, from the file. */
    loopy_game_solution_free(a);
    a = NULL;
    CHECK(loopy_game_solve_tiers_stored(game, &opt, &store, &a, &diag) ==
          LOOPY_OK);
    CHECK(a != NULL && b != NULL &&
          loopy_game_solution_size(a) == loopy_game_solution_size(b));
    if (b != NULL)
        test_saved(folder, game, &opt, b, spec);
    loopy_game_solution_free(a);
    loopy_game_solution_free(b);
    loopy_game_close(game);
    unlink(path);
    strcat(path, "-journal");
    unlink(path);
    rmdir(folder);
    check_case_end();
}

/* The seed corpus of fuzz/tier_journal.c. */
/* Reads the whole file at path into *bytes (malloc'd), *len of them. */
static bool slurp(const char *path, unsigned char **bytes, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n;
    bool ok;

    *bytes = NULL;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        if (f != NULL)
            fclose(f);
        return false;
    }
    *len = (size_t)n;
    *bytes = malloc(*len + 1);
    ok = *bytes != NULL && fread(*bytes, 1, *len, f) == *len;
    fclose(f);
    return ok;
}

/* The fuzzer's seeds of a solve that parks (fuzz/tier_journal.c): 7
 * tiers over 1000 indices (tier k: 1000k/7 ..), each reached and parked,
 * tier 6 then done and parked again; the input is a mode byte, the
 * journal's length (2 bytes), the journal (its entries, or whole), the
 * park file (or it cut short). */
static bool write_park_seeds(const char *folder, const char *dir)
{
    static const tier_store_key key = {"fuzz", "x", 1000, 7, TIER_FLAG_PARKS};
    char path[4200], name[4300];
    unsigned char *j = NULL, *park = NULL;
    size_t jlen = 0, plen = 0;
    tier_store st;
    loopy_diag diag;
    bool ok;

    snprintf(path, sizeof path, "%s/p.tiers", folder);
    memset(&diag, 0, sizeof diag);
    if (loopy_i_tier_store_open(&st, path, false, &key, &diag) != LOOPY_OK)
        return false;
    ok = true;
    for (uint64_t k = 0; ok && k < 7; k++) {
        uint64_t lo = 1000 * k / 7, hi = 1000 * (k + 1) / 7;
        for (uint64_t i = lo; i < hi; i++)
            ((uint16_t *)st.record)[i] = (uint16_t)(i % 3 == 0 ? 2 : 0);
        ok = loopy_i_tier_store_park(&st, k, lo, hi, 1, &diag) == LOOPY_OK;
    }
    ok = ok &&
         loopy_i_tier_store_commit(&st, 0, 1000, TIER_ENTRY_REACHED, 0, 0,
                                   &diag) == LOOPY_OK &&
         loopy_i_tier_store_unpark(&st, 6, 857, 1000, 1, &diag) == LOOPY_OK;
    for (uint64_t i = 857; ok && i < 1000; i++)
        ((uint16_t *)st.record)[i] = (uint16_t)(1u << 14 | (i % 7));
    ok = ok &&
         loopy_i_tier_store_commit(
             &st, 857, 1000, TIER_ENTRY_DONE, 6,
             loopy_i_checksum((unsigned char *)st.record + 857 * 2, 143 * 2, 1),
             &diag) == LOOPY_OK &&
         loopy_i_tier_store_park(&st, 6, 857, 1000, 1, &diag) == LOOPY_OK;
    loopy_i_tier_store_close(&st, false);
    snprintf(name, sizeof name, "%s-journal", path);
    ok = ok && slurp(name, &j, &jlen);
    snprintf(name, sizeof name, "%s-parked", path);
    ok = ok && slurp(name, &park, &plen) && plen > 5;
    for (int seed = 0; ok && seed < 3; seed++) {
        /* Entries after the header the fuzzer writes; the whole journal;
         * the park file cut short. */
        size_t from = seed == 1 ? 0 : TIER_JOURNAL_HEADER, n = jlen - from;
        size_t pn = seed == 2 ? plen - 5 : plen;
        FILE *f;
        snprintf(name, sizeof name, "%s/%s", dir,
                 seed == 0 ? "parks-entries" : seed == 1 ? "parks-whole"
                                                         : "parks-cut");
        f = fopen(name, "wb");
        ok = f != NULL && fputc(seed == 1 ? 2 : 3, f) != EOF &&
             fputc((int)(n & 0xff), f) != EOF && fputc((int)(n >> 8), f) != EOF &&
             fwrite(j + from, 1, n, f) == n && fwrite(park, 1, pn, f) == pn;
        if (f != NULL && fclose(f) != 0)
            ok = false;
    }
    unlink(path);
    snprintf(name, sizeof name, "%s-journal", path);
    unlink(name);
    snprintf(name, sizeof name, "%s-parked", path);
    unlink(name);
    free(j);
    free(park);
    return ok;
}

static int write_corpus(const char *dir)
{
    char folder[] = "/tmp/loopy-test-tiers-XXXXXX", name[4200];
    unsigned char *j = NULL;
    size_t len = 0;
    struct {
        const char *name;
        unsigned char first;
        size_t from, to; /* of the journal */
    } seeds[] = {
        {"entries", 1, TIER_JOURNAL_HEADER, 0},
        {"entries-cut", 1, TIER_JOURNAL_HEADER, 5},
        {"reached-only", 1, TIER_JOURNAL_HEADER, 2 * TIER_JOURNAL_ENTRY},
        {"whole", 0, 0, 0},
        {"header-only", 0, 0, 3 * TIER_JOURNAL_ENTRY},
        {"done-first", 1, TIER_JOURNAL_HEADER + TIER_JOURNAL_ENTRY, 0},
    };

    if (mkdtemp(folder) == NULL || !make_journal(folder, &j, &len) ||
        !write_park_seeds(folder, dir))
        return EXIT_FAILURE;
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        FILE *f;
        snprintf(name, sizeof name, "%s/%s", dir, seeds[i].name);
        f = fopen(name, "wb");
        if (f == NULL || fputc(seeds[i].first, f) == EOF ||
            fwrite(j + seeds[i].from, 1, len - seeds[i].to - seeds[i].from, f) !=
                len - seeds[i].to - seeds[i].from ||
            fclose(f) != 0)
            return EXIT_FAILURE;
    }
    snprintf(name, sizeof name, "%s/w.tiers", folder);
    unlink(name);
    strcat(name, "-journal");
    unlink(name);
    rmdir(folder);
    free(j);
    return EXIT_SUCCESS;
}

/* ---- Parked tiers ---- */

/* Random records for [lo, hi) of st (and want): runs of one byte or
 * noise, as reach marks and values come. */
static void fill_records(gen_rng *r, tier_store *st, unsigned char *want,
                         uint64_t lo, uint64_t hi)
{
    unsigned char *rec = st->record;

    for (uint64_t i = lo * st->width; i < hi * st->width;) {
        uint64_t run = 1 + gen_below(r, 5000), end = i + run;
        unsigned char b = (unsigned char)gen_below(r, 256);
        bool noise = gen_chance(r, 1, 3);
        if (end > hi * st->width)
            end = hi * st->width;
        for (; i < end; i++)
            want[i] = rec[i] = noise ? (unsigned char)gen_next(r) : b;
    }
}

/* Whether st's records of [lo, hi) are want's. */
static bool records_are(const tier_store *st, const unsigned char *want,
                        uint64_t lo, uint64_t hi)
{
    return hi <= lo || memcmp((const unsigned char *)st->record + lo * st->width,
                              want + lo * st->width,
                              (size_t)((hi - lo) * st->width)) == 0;
}

/* One case: tiers reached and parked, then solved (unparked, new
 * records, done) and parked again, the store closed at a random step as a
 * crash would leave it and resumed: every parked tier comes back as it
 * was parked, a done one not parked is in the work file; a park file with
 * a park the crash left unrecorded is cut back; a damaged one refused. */
static void park_case(uint64_t seed, bool quick)
{
    char folder[] = "/tmp/loopy-test-park-XXXXXX", path[4200], parked[4300];
    char name[4300];
    uint64_t last_parked = UINT64_MAX;
    gen_rng r;
    tier_store st;
    tier_store_key key = {"fuzz", "x", 0, 0, TIER_FLAG_PARKS};
    loopy_diag diag;
    uint64_t tiers, *start, crash, step = 0;
    unsigned char *want;
    bool alive = false;

    gen_rng_seed(&r, seed);
    tiers = 1 + gen_below(&r, 8);
    /* A tier now and then past a park file's chunk of 4 MiB. */
    key.size = !quick && seed % 16 == 0 ? 9000000 : 1 + gen_below(&r, 200000);
    key.tiers = tiers;
    if (gen_chance(&r, 1, 2))
        key.flags |= TIER_FLAG_BYTES;
    start = malloc((tiers + 1) * sizeof *start);
    want = malloc((size_t)key.size * 2);
    CHECK(mkdtemp(folder) != NULL && start != NULL && want != NULL);
    if (start == NULL || want == NULL)
        return;
    start[0] = 0;
    start[tiers] = key.size;
    for (uint64_t k = 1; k < tiers; k++)
        start[k] = gen_below(&r, key.size + 1);
    for (uint64_t k = 1; k < tiers; k++) /* sorted: tiers may be empty */
        for (uint64_t j = k; j > 0 && start[j] < start[j - 1]; j--) {
            uint64_t x = start[j];
            start[j] = start[j - 1];
            start[j - 1] = x;
        }
    snprintf(path, sizeof path, "%s/w.tiers", folder);
    snprintf(parked, sizeof parked, "%s-parked", path);
    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_i_tier_store_open(&st, path, false, &key, &diag) == LOOPY_OK,
              "%s", diag.message);
    alive = true;
    crash = gen_below(&r, 2 * tiers + 2);
    /* Reached, parents first (tier 0 first here), each parked or not. */
    for (uint64_t k = 0; k < tiers && step++ != crash; k++) {
        CHECK(loopy_i_tier_store_hold(&st, start[k], start[k + 1], &diag) ==
              LOOPY_OK);
        fill_records(&r, &st, want, start[k], start[k + 1]);
        if (gen_chance(&r, 3, 4))
            CHECK_MSG(loopy_i_tier_store_park(&st, k, start[k], start[k + 1],
                                              1 + (int)(seed % 2), &diag) ==
                          LOOPY_OK,
                      "%s", diag.message);
    }
    if (step <= tiers) {
        /* A crash in the reach: the resume forgets the parks. */
        loopy_i_tier_store_close(&st, false);
        CHECK(loopy_i_tier_store_open(&st, path, true, &key, &diag) == LOOPY_OK);
        for (uint64_t k = 0; k < tiers; k++)
            CHECK(!st.parked[k]);
        CHECK(!st.reached && st.park_end == 0);
        loopy_i_tier_store_close(&st, false);
        alive = false;
    } else {
        CHECK(loopy_i_tier_store_commit(&st, 0, key.size, TIER_ENTRY_REACHED,
                                        0, 0, &diag) == LOOPY_OK);
        /* Solved, children first: back, checked, new records, done,
         * parked or not. */
        for (uint64_t k = tiers; k-- > 0 && step++ != crash;) {
            CHECK(loopy_i_tier_store_unpark(&st, k, start[k], start[k + 1], 1,
                                            &diag) == LOOPY_OK);
            CHECK_MSG(records_are(&st, want, start[k], start[k + 1]),
                      "seed %llu: tier %llu back", (unsigned long long)seed,
                      (unsigned long long)k);
            fill_records(&r, &st, want, start[k], start[k + 1]);
            CHECK(loopy_i_tier_store_commit(
                      &st, start[k], start[k + 1], TIER_ENTRY_DONE, k,
                      loopy_i_checksum((unsigned char *)st.record +
                                           start[k] * st.width,
                                       (start[k + 1] - start[k]) * st.width, 1),
                      &diag) == LOOPY_OK);
            last_parked = UINT64_MAX;
            if (gen_chance(&r, 1, 2)) {
                CHECK(loopy_i_tier_store_park(&st, k, start[k], start[k + 1], 2,
                                              &diag) == LOOPY_OK);
                if (start[k + 1] > start[k])
                    last_parked = k;
            }
        }
    }
    if (alive) {
        /* The crash, and a park it cut short (frames, no entry). */
        uint64_t end = st.park_end;
        unsigned char done[8], was_parked[8];
        memcpy(done, st.done, (size_t)tiers);
        memcpy(was_parked, st.parked, (size_t)tiers);
        /* Or the crash came while the entry of the last park, of a tier
         * done, was written: its records still in the work file (given
         * back only after the entry), the entry cut short. */
        if (last_parked != UINT64_MAX && gen_chance(&r, 1, 2)) {
            uint64_t k = last_parked;
            struct stat sb;
            int fd = open(path, O_RDWR);
            CHECK(fd >= 0 &&
                  pwrite(fd, want + start[k] * st.width,
                         (size_t)((start[k + 1] - start[k]) * st.width),
                         (off_t)(start[k] * st.width)) ==
                      (ssize_t)((start[k + 1] - start[k]) * st.width) &&
                  close(fd) == 0);
            snprintf(name, sizeof name, "%s-journal", path);
            CHECK(stat(name, &sb) == 0 && truncate(name, sb.st_size - 5) == 0);
            was_parked[k] = 0;
            end = st.park_at[k];
        }
        loopy_i_tier_store_close(&st, false);
        if (gen_chance(&r, 1, 2)) {
            FILE *f = fopen(parked, "ab");
            CHECK(f != NULL && fwrite("garbage", 1, 7, f) == 7 && fclose(f) == 0);
        }
        CHECK_MSG(loopy_i_tier_store_open(&st, path, true, &key, &diag) ==
                      LOOPY_OK,
                  "%s", diag.message);
        CHECK(st.reached && st.park_end == end);
        {
            struct stat sb;
            CHECK(stat(parked, &sb) == 0 && (uint64_t)sb.st_size == end);
        }
        for (uint64_t k = 0; k < tiers; k++) {
            CHECK(st.done[k] == done[k] && st.parked[k] == was_parked[k]);
            CHECK(loopy_i_tier_store_unpark(&st, k, start[k], start[k + 1], 2,
                                            &diag) == LOOPY_OK);
            /* A tier not done and not parked: empty, or one the crash
             * came in the middle of (not checked). */
            if (st.done[k] || st.parked[k])
                CHECK_MSG(records_are(&st, want, start[k], start[k + 1]),
                          "seed %llu: tier %llu after the resume",
                          (unsigned long long)seed, (unsigned long long)k);
        }
        /* A byte of a parked tier's frames changed: refused. */
        for (uint64_t k = 0; k < tiers; k++)
            if (st.parked[k] && start[k + 1] > start[k]) {
                int fd;
                unsigned char b = 0;
                uint64_t at = st.park_at[k] + gen_below(&r, st.park_len[k]);
                /* (Put away again: it is back since the resume.) */
                CHECK(loopy_i_tier_store_park(&st, k, start[k], start[k + 1], 1,
                                              &diag) == LOOPY_OK);
                fd = open(parked, O_RDWR);
                CHECK(fd >= 0 && pread(fd, &b, 1, (off_t)at) == 1);
                b ^= (unsigned char)(1 + gen_below(&r, 255));
                CHECK(pwrite(fd, &b, 1, (off_t)at) == 1 && close(fd) == 0);
                CHECK(loopy_i_tier_store_unpark(&st, k, start[k], start[k + 1],
                                                1, &diag) == LOOPY_EFORMAT);
                CHECK_MSG(strstr(diag.message, "w.tiers-parked: tier") != NULL,
                          "%s", diag.message);
                break;
            }
        loopy_i_tier_store_close(&st, false);
    }
    unlink(path);
    unlink(parked);
    strcat(path, "-journal");
    unlink(path);
    rmdir(folder);
    free(start);
    free(want);
    check_case_end();
}

int main(int argc, char **argv)
{
    int quick = check_quick();

    if (argc == 3 && strcmp(argv[1], "--write-corpus") == 0)
        return write_corpus(argv[2]);
    test_journal();
    for (uint64_t seed = 1; seed <= (quick ? 60u : 400u); seed++)
        park_case(seed, quick);
    test_stored("connect4:4x3", 0);
    test_stored("connect4:3x3", 7);
    test_stored("subtract:200,3,4", 1);
    test_stored("subtract:200,3,4", 2);
    test_stored("mnk:3,3,3", 0);
    test_stored("chess:KQK", 4);
    if (!quick)
        test_stored("connect4:4x4", 0);

    test_random(quick ? 300 : 3000);
    test_refusals();
    test_progress();
    test_against_retro("connect4:3x3", 0);
    test_against_retro("connect4:4x3", 1);
    test_against_retro("connect4:3x4", 2);
    test_against_retro("connect4:4x3", 4);
    test_against_retro("connect4:3x3", 7);
    /* Subtract's tiers run downwards, a block of heaps each. */
    for (int flags = 0; flags < 8; flags += 1 + (flags & 2))
        test_against_retro("subtract", flags);
    test_against_retro("subtract:300,3,5,7", 0);
    test_against_retro("subtract:300,3,5,7", 1);
    test_against_retro("subtract:1000,2,7,30,31", 4);
    test_against_retro("subtract:1,2", 1);
    test_against_retro("subtract:0", 0);
    /* Chess: a tier per material, its moves inside it solved by
     * retrograde analysis within the tier, every legal index (the
     * tables' solve), misere too. */
    test_against_retro("chess:KQK", 4);
    test_against_retro("chess:KQK", 5);
    test_against_retro("chess:KBK", 4);
    if (!quick) {
        test_against_retro("chess:KRK", 4);
        test_against_retro("connect4:4x4", 0);
        test_against_retro("connect4:4x4", 3);
    }
    return check_finish("test_tiers");
}
