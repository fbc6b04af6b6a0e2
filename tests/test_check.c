/*
 * test_check.c - loopy_game_check: it passes every built-in game and the
 * random graph games of tests/graph_game.h (with and without symmetry, on
 * every scope), and it catches each kind of broken rules in a small game
 * built to break one way, naming the first position where it shows, the
 * other position involved and the kind of flaw.  Out of memory at any
 * allocation fails cleanly.
 */
#include "check.h"
#include "gen.h"
#include "graph_game.h"
#include "internal.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static loopy_status run_check(const loopy_game *game,
                              loopy_game_check_scope scope, uint64_t limit,
                              int no_symmetry, loopy_game_check_report *report)
{
    loopy_game_check_options options = LOOPY_GAME_CHECK_OPTIONS_INIT;
    loopy_diag diag;
    loopy_status status;

    options.scope = scope;
    options.limit = limit;
    options.seed = 7;
    options.no_symmetry = no_symmetry;
    memset(&diag, 0, sizeof diag);
    status = loopy_game_check(game, &options, report, &diag);
    CHECK_MSG(status != LOOPY_EGAME ||
                  strstr(diag.message, report->message) != NULL,
              "the diagnostic '%s' lacks the report's message", diag.message);
    return status;
}

/* ---- The built-in games pass ---- */

static void builtin_games(void)
{
    static const struct {
        const char *spec;
        loopy_game_check_scope scope;
        uint64_t limit;
        uint64_t checked; /* 0: not checked */
        bool complete;
    } games[] = {
        {"tictactoe", LOOPY_CHECK_AUTO, 0, 5478, true},
        {"tictactoe", LOOPY_CHECK_REACHABLE, 0, 5478, true},
        {"tictactoe", LOOPY_CHECK_SAMPLE, 500, 500, false},
        {"tictactoe", LOOPY_CHECK_WALKS, 500, 500, false},
        {"subtract", LOOPY_CHECK_AUTO, 0, 22, true},
        {"subtract:30,1,2", LOOPY_CHECK_REACHABLE, 0, 31, true},
        {"subtract:1,1", LOOPY_CHECK_EVERY, 0, 2, true},
        {"mnk:2,3,2", LOOPY_CHECK_AUTO, 0, 0, true},
        {"mnk:3,4,3", LOOPY_CHECK_AUTO, 3000, 0, false},
        {"mnk:4,4,4", LOOPY_CHECK_SAMPLE, 300, 0, false},
        {"connect4:3x3", LOOPY_CHECK_EVERY, 0, 869, true},
        {"connect4:4x4", LOOPY_CHECK_AUTO, 4000, 0, false},
        {"connect4", LOOPY_CHECK_WALKS, 2000, 2000, false},
        {"connect4:5x4", LOOPY_CHECK_SAMPLE, 300, 0, false},
        {"chess:KRK", LOOPY_CHECK_REACHABLE, 2000, 2000, false},
    };

    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        loopy_game *game = NULL;
        loopy_diag diag;

        CHECK(loopy_game_open(games[i].spec, &game, &diag) == LOOPY_OK);
        if (game == NULL)
            continue;
        for (int no_symmetry = 0; no_symmetry < 2; no_symmetry++) {
            loopy_game_check_report report;
            loopy_status status = run_check(
                game, games[i].scope, games[i].limit, no_symmetry, &report);
            CHECK_MSG(status == LOOPY_OK && report.flaw == LOOPY_FLAW_NONE,
                      "%s scope %d: %s: %s", games[i].spec, (int)games[i].scope,
                      loopy_strerror(status), report.message);
            CHECK_MSG(games[i].checked == 0 ||
                          report.checked == games[i].checked,
                      "%s scope %d: %" PRIu64 " positions checked",
                      games[i].spec, (int)games[i].scope, report.checked);
            CHECK_MSG(!report.complete == !games[i].complete,
                      "%s scope %d: complete %d", games[i].spec,
                      (int)games[i].scope, report.complete);
            CHECK(report.checked > 0);
        }
        loopy_game_close(game);
        check_case_end();
    }
}

/* ---- The random graph games pass ---- */

static void random_games(void)
{
    gen_edges e = GEN_EDGES_INIT;
    unsigned games = 0;

    for (uint64_t seed = 0; seed < 300; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_game_check_report report;
        loopy_status status;
        graph_game g;
        loopy_game game;
        uint8_t *kind;
        gen_rng r;
        uint32_t s;

        if (gen_graph(seed, shape, &e) != 0)
            exit(1);
        if (e.n == 0)
            continue;
        gen_rng_seed(&r, gen_mix_seed(seed, 78));
        kind = xmalloc(e.n);
        for (uint32_t v = 0; v < e.n; v++) {
            unsigned roll = (unsigned)gen_below(&r, 100);
            kind[v] = roll < 80   ? LOOPY_PLAYING
                      : roll < 87 ? LOOPY_OVER_LOSE
                      : roll < 93 ? LOOPY_OVER_WIN
                                  : LOOPY_OVER_TIE;
        }
        s = (uint32_t)gen_below(&r, e.n);
        memset(&g, 0, sizeof g);
        graph_game_make(&g, &e, &r, kind, &game, s);
        for (int no_symmetry = 0; no_symmetry < 2; no_symmetry++) {
            /* Scrambled: from the start, and along random games. */
            status = run_check(&game, LOOPY_CHECK_REACHABLE, 0, no_symmetry,
                               &report);
            CHECK_MSG(status == LOOPY_OK && report.complete,
                      "seed %" PRIu64 ": %s", seed, report.message);
            status =
                run_check(&game, LOOPY_CHECK_WALKS, 50, no_symmetry, &report);
            CHECK_MSG(status == LOOPY_OK, "seed %" PRIu64 " walks: %s", seed,
                      report.message);
            /* Compact: every index is a position. */
            g.compact = true;
            game.size = 2 * (uint64_t)g.k;
            game.start = graph_game_encode(&g, s, 0);
            status =
                run_check(&game, LOOPY_CHECK_AUTO, 0, no_symmetry, &report);
            CHECK_MSG(status == LOOPY_OK && report.checked == game.size &&
                          report.complete,
                      "seed %" PRIu64 " compact: %s", seed, report.message);
            status =
                run_check(&game, LOOPY_CHECK_SAMPLE, 20, no_symmetry, &report);
            CHECK_MSG(status == LOOPY_OK, "seed %" PRIu64 " sample: %s", seed,
                      report.message);
            g.compact = false;
            game.size = GRAPH_GAME_INDEX_MASK + 1;
            game.start = graph_game_encode(&g, s, 0);
        }
        check_case_end();
        games++;
        graph_game_free(&g);
        free(kind);
    }
    printf("test_check: %u random graph games, each 8 ways\n", games);
    gen_edges_free(&e);
}

/* ---- Broken games ---- */

/* A line of N squares; a move takes 1 or 2 back toward 0 (the subtraction
 * game), written "hK"; one bug, at square at, breaks one rule. */
enum bug {
    BUG_NONE,
    BUG_UNMOVE_MISSING, /* unmoves(at) lacks at + 2 */
    BUG_UNMOVE_EXTRA,   /* unmoves(at) gives at + 4, no move to at */
    BUG_RANGE,          /* moves(at) also gives N */
    BUG_COUNT,          /* moves(at) counts one more when short of room */
    BUG_OVERWRITE,      /* moves(at) writes its moves whatever the room */
    BUG_FAILS,          /* moves(at) fails */
    BUG_CANONICAL,      /* canonical(p) = p + 1 below at: not idempotent */
    BUG_SYMMETRY,       /* canonical pairs 2k and 2k + 1: not a symmetry */
    BUG_NOTATION,       /* format(at) writes at + 1 */
    BUG_ILLEGAL,        /* legal() refuses at, which moves reach */
    BUG_START,          /* legal() refuses the start */
    BUG_PRIMITIVE       /* primitive(at) gives 7 */
};

typedef struct toy {
    uint64_t n, at;
    enum bug bug;
} toy;

static loopy_primitive toy_primitive(void *ctx, loopy_position p)
{
    const toy *t = ctx;
    return t->bug == BUG_PRIMITIVE && p == t->at ? (loopy_primitive)7
                                                 : LOOPY_PLAYING;
}

static size_t toy_moves(void *ctx, loopy_position p, loopy_position *out,
                        size_t capacity)
{
    const toy *t = ctx;
    loopy_position list[3];
    size_t count = 0;
    bool buggy = p == t->at;

    if (buggy && t->bug == BUG_FAILS)
        return LOOPY_GAME_ERROR;
    for (uint64_t take = 1; take <= 2 && take <= p; take++)
        list[count++] = p - take;
    if (buggy && t->bug == BUG_RANGE)
        list[count++] = t->n;
    for (size_t i = 0; i < count; i++)
        if (i < capacity || (buggy && t->bug == BUG_OVERWRITE))
            out[i] = list[i];
    return buggy && t->bug == BUG_COUNT && capacity < count ? count + 1 : count;
}

static size_t toy_unmoves(void *ctx, loopy_position p, loopy_position *out,
                          size_t capacity)
{
    const toy *t = ctx;
    loopy_position list[3];
    size_t count = 0;

    for (uint64_t take = 1; take <= 2 && p + take < t->n; take++)
        if (!(t->bug == BUG_UNMOVE_MISSING && p == t->at && take == 2))
            list[count++] = p + take;
    if (t->bug == BUG_UNMOVE_EXTRA && p == t->at)
        list[count++] = p + 4;
    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = list[i];
    return count;
}

static int toy_legal(void *ctx, loopy_position p)
{
    const toy *t = ctx;
    return !((t->bug == BUG_ILLEGAL && p == t->at) ||
             (t->bug == BUG_START && p == t->n - 1));
}

static loopy_position toy_canonical(void *ctx, loopy_position p)
{
    const toy *t = ctx;
    if (t->bug == BUG_CANONICAL)
        return p < t->at ? p + 1 : p;
    return t->bug == BUG_SYMMETRY ? p & ~(loopy_position)1 : p;
}

static size_t toy_format(void *ctx, loopy_position p, char *out,
                         size_t capacity)
{
    const toy *t = ctx;
    int len = snprintf(out, capacity, "h%" LOOPY_PRI_POSITION,
                       t->bug == BUG_NOTATION && p == t->at ? p + 1 : p);
    return len < 0 ? LOOPY_GAME_ERROR : (size_t)len;
}

static int toy_parse(void *ctx, const char *text, loopy_position *pos,
                     char *why, size_t why_capacity)
{
    char *end;

    (void)ctx;
    if (text[0] != 'h' || text[1] < '0' || text[1] > '9') {
        snprintf(why, why_capacity, "expected h and a number");
        return 1;
    }
    *pos = strtoull(text + 1, &end, 10);
    return *end != '\0';
}

static void toy_make(toy *t, loopy_game *game)
{
    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "toy";
    game->params = "";
    game->ctx = t;
    game->size = t->n;
    game->start = t->n - 1;
    game->primitive = toy_primitive;
    game->moves = toy_moves;
    game->unmoves = toy_unmoves;
    game->legal = toy_legal;
    game->format = toy_format;
    game->parse = toy_parse;
    if (t->bug == BUG_CANONICAL || t->bug == BUG_SYMMETRY)
        game->canonical = toy_canonical;
}

static void broken_games(void)
{
    static const struct {
        enum bug bug;
        uint64_t at;
        loopy_game_flaw flaw;
        loopy_position position, position_bfs;
        int has_other;
        loopy_position other;
        const char *words; /* in the message */
    } cases[] = {
        {BUG_NONE, 0, LOOPY_FLAW_NONE, 0, 0, 0, 0, ""},
        {BUG_UNMOVE_MISSING, 5, LOOPY_FLAW_UNMOVES, 7, 7, 1, 5,
         "position 7 (h7): moves() reaches 5 (h5) but unmoves(5) does not "
         "give 7 (h7)"},
        {BUG_UNMOVE_EXTRA, 3, LOOPY_FLAW_MOVES, 3, 3, 1, 7,
         "unmoves() gives 7 (h7) but moves(7) does not reach 3 (h3)"},
        {BUG_RANGE, 3, LOOPY_FLAW_RANGE, 3, 3, 0, 0,
         "moves() gives 10, outside"},
        {BUG_COUNT, 6, LOOPY_FLAW_PROTOCOL, 6, 6, 0, 0, "counts 3 positions"},
        {BUG_OVERWRITE, 8, LOOPY_FLAW_PROTOCOL, 8, 8, 0, 0, "writes past"},
        {BUG_FAILS, 4, LOOPY_FLAW_CALLBACK, 4, 4, 0, 0, "moves() failed"},
        {BUG_CANONICAL, 8, LOOPY_FLAW_CANONICAL, 0, 0, 1, 1, "not idempotent"},
        {BUG_SYMMETRY, 0, LOOPY_FLAW_SYMMETRY, 1, 1, 1, 0,
         "moves() of it give the class of 0 (h0), but moves() of its "
         "representative 0 (h0) do not"},
        {BUG_NOTATION, 4, LOOPY_FLAW_NOTATION, 4, 4, 1, 5,
         "format() writes 'h5', which parse() reads as 5"},
        /* unmoves(1) gives 3 too, which the interface allows: the
         * solvers skip what legal() refuses. */
        {BUG_ILLEGAL, 3, LOOPY_FLAW_ILLEGAL, 4, 5, 1, 3,
         "moves() reaches 3 (h3), which legal() refuses"},
        {BUG_START, 0, LOOPY_FLAW_ILLEGAL, 9, 9, 0, 0, "the start is refused"},
        {BUG_PRIMITIVE, 2, LOOPY_FLAW_CALLBACK, 2, 2, 0, 0,
         "primitive() gives 7"},
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* Every index in order, and breadth first from the start (9): the
         * same flaw (a canonical() that is no symmetry may show first as
         * a flaw of another kind there), at the position expected. */
        for (int scope = 0; scope < 2; scope++) {
            toy t = {10, cases[i].at, cases[i].bug};
            loopy_game_check_report report;
            loopy_game game;
            loopy_status status;
            bool exact = scope == 0 || (cases[i].bug != BUG_SYMMETRY &&
                                        cases[i].bug != BUG_CANONICAL);

            toy_make(&t, &game);
            status = run_check(
                &game, scope == 0 ? LOOPY_CHECK_EVERY : LOOPY_CHECK_REACHABLE,
                0, 0, &report);
            CHECK_MSG(status == (cases[i].flaw == LOOPY_FLAW_NONE
                                     ? LOOPY_OK
                                     : LOOPY_EGAME) &&
                          (!exact || report.flaw == cases[i].flaw),
                      "bug %d scope %d: %s, flaw %s: %s", (int)cases[i].bug,
                      scope, loopy_strerror(status),
                      loopy_game_flaw_name(report.flaw), report.message);
            if (cases[i].flaw == LOOPY_FLAW_NONE) {
                CHECK(report.checked == 10 && report.complete &&
                      report.message[0] == '\0');
                continue;
            }
            if (!exact)
                continue;
            CHECK_MSG(report.position == (scope == 0 ? cases[i].position
                                                     : cases[i].position_bfs) &&
                          report.has_other == cases[i].has_other &&
                          (!report.has_other || report.other == cases[i].other),
                      "bug %d scope %d: position %" PRIu64 ", other %d %" PRIu64
                      ": %s",
                      (int)cases[i].bug, scope, report.position,
                      report.has_other, report.other, report.message);
            CHECK_MSG(scope == 1 || strstr(report.message, cases[i].words),
                      "bug %d: '%s' lacks '%s'", (int)cases[i].bug,
                      report.message, cases[i].words);
        }
        check_case_end();
    }
    CHECK(strcmp(loopy_game_flaw_name(LOOPY_FLAW_UNMOVES), "unmoves") == 0);
    CHECK(strcmp(loopy_game_flaw_name((loopy_game_flaw)99), "unknown") == 0);
    check_case_end();
}

/* Bad arguments. */
static void bad_arguments(void)
{
    toy t = {10, 0, BUG_NONE};
    loopy_game game;
    loopy_game_check_report report;
    loopy_game_check_options options = LOOPY_GAME_CHECK_OPTIONS_INIT;
    loopy_diag diag;

    toy_make(&t, &game);
    CHECK(loopy_game_check(NULL, NULL, &report, &diag) == LOOPY_EINVAL);
    CHECK(loopy_game_check(&game, NULL, NULL, &diag) == LOOPY_EINVAL);
    options.scope = (loopy_game_check_scope)9;
    CHECK(loopy_game_check(&game, &options, &report, &diag) == LOOPY_EINVAL);
    CHECK(loopy_game_check(&game, NULL, &report, NULL) == LOOPY_OK);
    game.start = 10;
    CHECK(loopy_game_check(&game, NULL, &report, NULL) == LOOPY_EGAME &&
          report.flaw == LOOPY_FLAW_RANGE);
    check_case_end();
}

/* Every allocation failing in turn: ENOMEM, nothing leaked, then OK. */
static void out_of_memory(void)
{
    loopy_game *game = NULL;
    loopy_diag diag;

    CHECK(loopy_game_open("tictactoe", &game, &diag) == LOOPY_OK);
    if (game == NULL)
        return;
    for (uint64_t k = 1;; k++) {
        static const loopy_game_check_scope scopes[] = {LOOPY_CHECK_REACHABLE,
                                                        LOOPY_CHECK_WALKS};
        loopy_game_check_report report;
        loopy_status status[2];
        int64_t live = loopy_i_alloc_live();

        for (int s = 0; s < 2; s++) {
            loopy_i_alloc_fail_at(k);
            status[s] = run_check(game, scopes[s], 300, 0, &report);
            loopy_i_alloc_fail_at(0);
            CHECK_MSG(status[s] == LOOPY_OK || status[s] == LOOPY_ENOMEM,
                      "allocation %" PRIu64 ": %s", k,
                      loopy_strerror(status[s]));
            CHECK(loopy_i_alloc_live() == live);
        }
        if (status[0] == LOOPY_OK && status[1] == LOOPY_OK)
            break;
        if (k > 200) {
            CHECK_MSG(0, "still failing after 200 allocations");
            break;
        }
    }
    loopy_game_close(game);
    check_case_end();
}

/* Connect Four with canonical_moves (canonical_unmoves) broken: giving
 * the plain moves, which are not all representatives, or dropping one. */
static const loopy_game *given_base;
static int given_bug;

static size_t given_moves(void *ctx, loopy_position pos, loopy_position *out,
                          size_t capacity)
{
    size_t count = given_bug == 0 ? given_base->moves(ctx, pos, out, capacity)
                                  : given_base->canonical_moves(ctx, pos, out,
                                                                capacity);
    return given_bug == 1 && count > 1 ? count - 1 : count;
}

static void broken_given(void)
{
    loopy_game *c4 = NULL;

    if (loopy_game_open("connect4:4x4", &c4, NULL) != LOOPY_OK) {
        CHECK(0);
        return;
    }
    given_base = c4;
    for (given_bug = 0; given_bug < 2; given_bug++) {
        loopy_game broken = *c4;
        loopy_game_check_options opt = LOOPY_GAME_CHECK_OPTIONS_INIT;
        loopy_game_check_report report;
        loopy_diag diag;

        broken.canonical_moves = given_moves;
        opt.scope = LOOPY_CHECK_REACHABLE;
        opt.limit = 2000;
        memset(&diag, 0, sizeof diag);
        CHECK(loopy_game_check(&broken, &opt, &report, &diag) == LOOPY_EGAME);
        CHECK_MSG(report.flaw == LOOPY_FLAW_CANONICAL &&
                      strstr(report.message, "canonical_moves()") != NULL &&
                      strstr(report.message,
                             given_bug == 0 ? "not its own canonical()"
                                            : "which canonical_moves() does "
                                              "not give") != NULL,
                  "bug %d: %s", given_bug, report.message);
    }
    /* Unbroken, it passes. */
    {
        loopy_game_check_options opt = LOOPY_GAME_CHECK_OPTIONS_INIT;
        loopy_game_check_report report;
        opt.scope = LOOPY_CHECK_REACHABLE;
        opt.limit = 2000;
        CHECK(loopy_game_check(c4, &opt, &report, NULL) == LOOPY_OK);
    }
    loopy_game_close(c4);
}

/* ---- A game's words for its moves, broken ---- */

static const loopy_game *words_base;

/* Every move numbered 1. */
static size_t same_number(void *ctx, const char *from, loopy_position to,
                          uint32_t *number, char *label, size_t capacity)
{
    size_t len = words_base->move_label(ctx, from, to, number, label, capacity);
    *number = 1;
    return len;
}

/* Every move read as the top-left cell's. */
static int wrong_parse(void *ctx, const char *from, const char *text,
                       loopy_position *to, char *why, size_t why_capacity)
{
    (void)text;
    return words_base->move_parse(ctx, from, "a3", to, why, why_capacity);
}

/* Every move has a twin, "zz9", that names no move. */
static size_t bogus_twin(void *ctx, const char *from, loopy_position to,
                         uint32_t k, char *name, size_t name_capacity,
                         char *label, size_t label_capacity, char *after,
                         size_t after_capacity)
{
    (void)ctx;
    (void)from;
    (void)to;
    (void)after;
    (void)after_capacity;
    if (k > 1)
        return LOOPY_GAME_ERROR;
    snprintf(name, name_capacity, "zz9");
    if (label != NULL)
        snprintf(label, label_capacity, "zz9");
    return 3;
}

static void broken_words(void)
{
    loopy_game *ttt = NULL;

    if (loopy_game_open("tictactoe", &ttt, NULL) != LOOPY_OK) {
        CHECK(0);
        return;
    }
    words_base = ttt;
    for (int bug = 0; bug < 3; bug++) {
        loopy_game broken = *ttt;
        loopy_game_check_options opt = LOOPY_GAME_CHECK_OPTIONS_INIT;
        loopy_game_check_report report;
        loopy_diag diag;

        if (bug == 0)
            broken.move_label = same_number;
        else if (bug == 1)
            broken.move_parse = wrong_parse;
        else
            broken.move_twin = bogus_twin;
        memset(&diag, 0, sizeof diag);
        CHECK(loopy_game_check(&broken, &opt, &report, &diag) == LOOPY_EGAME);
        CHECK_MSG(report.flaw == LOOPY_FLAW_NOTATION &&
                      strstr(report.message,
                             bug == 0   ? "gives number 1 to two moves"
                             : bug == 1 ? "which move_parse() reads as"
                                        : "move_twin() names another move") !=
                          NULL,
                  "bug %d: %s", bug, report.message);
    }
    loopy_game_close(ttt);
    check_case_end();
}

int main(void)
{
    broken_words();
    broken_given();
    broken_games();
    bad_arguments();
    out_of_memory();
    builtin_games();
    random_games();
    return check_finish("test_check");
}
