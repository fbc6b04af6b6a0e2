/*
 * test_rules.c - games by rules against the brute-force oracle.
 *
 * A test game whose rules are a random graph (tests/graph_game.h): its
 * positions are the pairs (v, a) of a base vertex v and a bit a, stored
 * under a scrambled 63-bit index, its moves the base graph's edges, each
 * flipping the bit or not; swapping the bit is a real symmetry.  Base
 * vertices are random primitives: wins, losses and ties.
 *
 * For thousands of such games, in normal and misere play, with and without
 * the symmetry, on one and two threads, both solvers must give every
 * position reachable from the start the value and remoteness that the
 * oracle (tests/lib/oracle.c, from the definitions) gives the same graph
 * written out explicitly; they must solve exactly the reachable positions
 * (representatives with the symmetry); and the first of the moves
 * loopy_game_solution_moves lists must carry the position's value.  The
 * solver that stores no moves also solves every index (all_legal), each
 * of which the oracle answers too.
 */
#include "check.h"
#include "gen.h"
#include "graph_game.h"
#include "oracle.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The doubled graph written out: vertex 2v + a; and its targets. */
static void doubled(const graph_game *g, int misere, gen_edges *d,
                    gen_targets *t)
{
    gen_edges_free(d);
    d->n = 2 * g->k;
    for (uint32_t v = 0; v < g->k; v++)
        for (unsigned a = 0; a < 2; a++)
            for (uint64_t e = g->off[v]; e < g->off[v + 1]; e++)
                gen_push(d, 2 * v + a, 2 * g->to[e] + (a ^ g->flip[e]));
    memset(t, 0, sizeof *t);
    t->lose_at = xmalloc(2 * g->k * sizeof(uint32_t) + 4);
    t->win_at = xmalloc(2 * g->k * sizeof(uint32_t) + 4);
    t->tie_at = xmalloc(2 * g->k * sizeof(uint32_t) + 4);
    for (uint32_t x = 0; x < 2 * g->k; x++) {
        uint8_t kind = g->kind[x / 2];
        if (kind == LOOPY_OVER_TIE)
            t->tie_at[t->tie_count++] = x;
        else if (kind == (misere ? LOOPY_OVER_WIN : LOOPY_OVER_LOSE))
            t->lose_at[t->lose_count++] = x;
        else if (kind != LOOPY_PLAYING)
            t->win_at[t->win_count++] = x;
    }
}

/* The positions reachable from the start (primitive ones not expanded):
 * reached[2v + a]. */
static uint8_t *reachable(const graph_game *g, uint32_t s)
{
    uint8_t *seen = xmalloc(2 * g->k + 1);
    uint32_t *queue = xmalloc((2 * g->k + 1) * sizeof *queue);
    size_t head = 0, tail = 0;

    memset(seen, 0, 2 * g->k + 1);
    seen[2 * s] = 1;
    queue[tail++] = 2 * s;
    while (head < tail) {
        uint32_t x = queue[head++], v = x / 2;
        if (g->kind[v] != LOOPY_PLAYING)
            continue;
        for (uint64_t e = g->off[v]; e < g->off[v + 1]; e++) {
            uint32_t y = 2 * g->to[e] + ((x & 1) ^ g->flip[e]);
            if (!seen[y]) {
                seen[y] = 1;
                queue[tail++] = y;
            }
        }
    }
    free(queue);
    return seen;
}

static const loopy_outcome mover_value[] = {LOOPY_DRAW, LOOPY_LOSE, LOOPY_WIN,
                                            LOOPY_TIE};

static void check_game(uint64_t seed, int shape, const graph_game *g,
                       const loopy_game *game, int misere,
                       int symmetry, int threads, const oracle_sol *o,
                       const uint8_t *seen, bool retro)
{
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *sol = NULL;
    loopy_diag diag;
    loopy_status status;
    uint64_t expected = 0;

    opt.misere = misere;
    opt.no_symmetry = !symmetry;
    opt.threads = threads;
    /* Half the retro solves recount instead of counting down. */
    opt.counter_limit = retro && seed % 4 >= 2 ? 2 : 0;
    memset(&diag, 0, sizeof diag);
    status = retro ? loopy_game_solve_retro(game, &opt, &sol, &diag)
                   : loopy_game_solve_graph(game, &opt, &sol, &diag);
    CHECK_MSG(status == LOOPY_OK, "seed %" PRIu64 " shape %d %s: %s (%s)",
              seed, shape, retro ? "retro" : "graph", loopy_strerror(status),
              diag.message);
    if (status != LOOPY_OK)
        return;
    for (uint32_t x = 0; x < 2 * g->k; x++) {
        loopy_outcome outcome;
        uint32_t remoteness;
        loopy_position p = graph_game_encode(g, x / 2, x & 1);

        if (!seen[x])
            continue;
        expected += !symmetry || (x & 1) == 0 || !seen[x - 1];
        CHECK_MSG(loopy_game_solution_value(sol, game, p, &outcome,
                                            &remoteness) == LOOPY_OK,
                  "seed %" PRIu64 " shape %d: position %u not solved", seed,
                  shape, x);
        CHECK_MSG(outcome == o->outcome[x] && remoteness == o->rem[x],
                  "seed %" PRIu64 " shape %d misere %d symmetry %d threads %d:"
                  " (%u, %u) is %s %u, the oracle says %s %u", seed, shape,
                  misere, symmetry, threads, x / 2, x & 1, oname(outcome),
                  remoteness, oname(o->outcome[x]), o->rem[x]);
        if (g->kind[x / 2] == LOOPY_PLAYING && (x & 1) == 0) {
            loopy_game_move *mv = NULL;
            size_t count = 0;
            CHECK(loopy_game_solution_moves(sol, game, p, &mv, &count, &diag) ==
                  LOOPY_OK);
            if (count > 0) {
                loopy_outcome best = mover_value[mv[0].outcome];
                uint32_t r = mv[0].remoteness + (best != LOOPY_DRAW);
                CHECK_MSG(best == outcome && (best == LOOPY_DRAW ||
                                              r == remoteness),
                          "seed %" PRIu64 ": the first move of (%u, 0) gives "
                          "%s %u, the position is %s %u", seed, x / 2,
                          oname(best), r, oname(outcome), remoteness);
            }
            free(mv);
        }
    }
    /* With the symmetry, a class counts once: (v, 0) and (v, 1) share it;
     * `expected` counted (v, 1) only when (v, 0) was not reached. */
    if (symmetry) {
        expected = 0;
        for (uint32_t v = 0; v < g->k; v++)
            expected += seen[2 * v] || seen[2 * v + 1];
    }
    CHECK_MSG(loopy_game_solution_size(sol) == expected,
              "seed %" PRIu64 ": %" PRIu64 " positions solved, %" PRIu64
              " reachable", seed, loopy_game_solution_size(sol), expected);
    loopy_game_solution_free(sol);
}

/* The solver over the index space (compact indices) against the oracle on
 * every position, reachable or not. */
static void check_retro(uint64_t seed, const graph_game *g,
                        const loopy_game *game, int misere, int symmetry,
                        int threads, const oracle_sol *o)
{
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *sol = NULL;
    loopy_diag diag;
    loopy_status status;

    opt.misere = misere;
    opt.no_symmetry = !symmetry;
    opt.threads = threads;
    /* Half the games recount every position with 2 moves or more instead
     * of counting down: the path of positions with very many moves. */
    opt.counter_limit = seed % 4 < 2 ? 2 : 0;
    /* Every index, reached from the start or not. */
    opt.all_legal = 1;
    memset(&diag, 0, sizeof diag);
    status = loopy_game_solve_retro(game, &opt, &sol, &diag);
    CHECK_MSG(status == LOOPY_OK, "retro seed %" PRIu64 ": %s (%s)", seed,
              loopy_strerror(status), diag.message);
    if (status != LOOPY_OK)
        return;
    CHECK(loopy_game_solution_size(sol) == (symmetry ? g->k : 2 * g->k));
    for (uint32_t x = 0; x < 2 * g->k; x++) {
        loopy_outcome outcome = LOOPY_DRAW;
        uint32_t remoteness = 0;

        CHECK(loopy_game_solution_value(sol, game, x, &outcome, &remoteness) ==
              LOOPY_OK);
        CHECK_MSG(outcome == o->outcome[x] && remoteness == o->rem[x],
                  "retro seed %" PRIu64 " misere %d symmetry %d threads %d: "
                  "(%u, %u) is %s %u, the oracle says %s %u", seed, misere,
                  symmetry, threads, x / 2, x & 1, oname(outcome), remoteness,
                  oname(o->outcome[x]), o->rem[x]);
    }
    loopy_game_solution_free(sol);
}

static void random_games(void)
{
    gen_edges e = GEN_EDGES_INIT, d = GEN_EDGES_INIT;
    unsigned games = 0;

    for (uint64_t seed = 0; seed < 2400; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        gen_rng r;
        graph_game g;
        loopy_game game;
        uint8_t *kind;
        uint32_t s;

        if (gen_graph(seed, shape, &e) != 0)
            exit(1);
        if (e.n == 0)
            continue;
        gen_rng_seed(&r, gen_mix_seed(seed, 77));
        kind = xmalloc(e.n);
        for (uint32_t v = 0; v < e.n; v++) {
            unsigned roll = (unsigned)gen_below(&r, 100);
            kind[v] = roll < 80 ? LOOPY_PLAYING
                      : roll < 87 ? LOOPY_OVER_LOSE
                      : roll < 93 ? LOOPY_OVER_WIN : LOOPY_OVER_TIE;
        }
        s = (uint32_t)gen_below(&r, e.n);
        memset(&g, 0, sizeof g);
        graph_game_make(&g, &e, &r, kind, &game, s);
        /* A third of the games give the representatives of their moves
         * themselves. */
        graph_game_give_representatives(&game, seed % 3 == 1);
        for (int misere = 0; misere < 2; misere++) {
            gen_targets t;
            oracle_sol o;
            uint8_t *seen = reachable(&g, s);

            doubled(&g, misere, &d, &t);
            oracle_solve(&d, misere, &t, &o);
            for (int symmetry = 0; symmetry < 2; symmetry++) {
                check_game(seed, shape, &g, &game, misere, symmetry,
                           1 + (int)(seed % 2), &o, seen, false);
                g.compact = true;
                game.size = 2 * (uint64_t)g.k;
                game.start = graph_game_encode(&g, s, 0);
                check_retro(seed, &g, &game, misere, symmetry,
                            1 + (int)(seed / 2 % 2), &o);
                check_game(seed, shape, &g, &game, misere, symmetry,
                           1 + (int)(seed / 2 % 2), &o, seen, true);
                g.compact = false;
                game.size = GRAPH_GAME_INDEX_MASK + 1;
                game.start = graph_game_encode(&g, s, 0);
            }
            oracle_free(&o);
            free(t.lose_at);
            free(t.win_at);
            free(t.tie_at);
            free(seen);
        }
        check_case_end();
        games++;
        graph_game_free(&g);
        free(kind);
    }
    printf("test_rules: %u random graph games, each 12 ways (2 solvers)\n",
           games);
    gen_edges_free(&e);
    gen_edges_free(&d);
}

/* The subtraction game with takes {1, .., k}: the lost heaps are the
 * multiples of k + 1 (Bouton's analysis of Nim's one-heap case; any text
 * on impartial games), a lost heap h lasting h / (k + 1) rounds of two
 * moves, a won one one move more than the lost heap it moves to. */
static void subtraction(void)
{
    static const char *const specs[] = {"subtract", "subtract:30,1,2",
                                        "subtract:50,1,2,3,4,5",
                                        "subtract:1,1"};
    static const unsigned take_max[] = {3, 2, 5, 1};

    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        loopy_game *game = NULL;
        loopy_game_solution *sol = NULL;
        loopy_diag diag;

        CHECK(loopy_game_open(specs[i], &game, &diag) == LOOPY_OK);
        CHECK(loopy_game_solve_graph(game, NULL, &sol, &diag) == LOOPY_OK);
        CHECK(loopy_game_solution_size(sol) == game->size);
        for (uint64_t h = 0; h < game->size; h++) {
            loopy_outcome outcome;
            uint32_t rem;
            uint64_t period = take_max[i] + 1;
            CHECK(loopy_game_solution_value(sol, game, h, &outcome, &rem) ==
                  LOOPY_OK);
            if (h % period == 0)
                CHECK_MSG(outcome == LOOPY_LOSE && rem == 2 * (h / period),
                          "%s heap %" PRIu64 ": %s %u", specs[i], h,
                          oname(outcome), rem);
            else
                CHECK_MSG(outcome == LOOPY_WIN && rem == 2 * (h / period) + 1,
                          "%s heap %" PRIu64 ": %s %u", specs[i], h,
                          oname(outcome), rem);
        }
        loopy_game_solution_free(sol);
        loopy_game_close(game);
        check_case_end();
    }
}

/*
 * The built-in games: both solvers give every position the same value, in
 * normal and misere play, with and without symmetry, and the start
 * positions have their published values:
 *  - tic-tac-toe: a tie with perfect play, the board filled (9 moves);
 *    5,478 positions, 765 up to symmetry (Wikipedia, "Tic-tac-toe");
 *    misere tic-tac-toe (who makes three in a row loses) is a tie too
 *    (Wikipedia, "Tic-tac-toe variants");
 *  - m,n,k-games: 3,4,3 and 4,4,3 are first-player wins, 4,4,4 a tie
 *    (Wikipedia, "m,n,k-game");
 *  - Connect Four: 4x4, 5x4 and 4x5 are ties ending on ply 16, 20 and 20
 *    (John Tromp's table of small boards, tromp.github.io/c4/c4.html, also
 *    in the README of github.com/ChristopheSteininger/c4).
 */
static void builtin_games(void)
{
    static const struct {
        const char *spec;
        loopy_outcome outcome;
        uint32_t remoteness;
        uint64_t positions, classes; /* 0: not checked */
        bool large;
    } games[] = {
        {"tictactoe", LOOPY_TIE, 9, 5478, 765, false},
        {"mnk:3,4,3", LOOPY_WIN, 7, 0, 0, false},
        {"mnk:2,3,2", LOOPY_WIN, 3, 0, 0, false},
        {"connect4:4x4", LOOPY_TIE, 16, 161029, 0, false},
        {"connect4:3x3", LOOPY_TIE, 9, 869, 0, false},
        {"subtract:40,1,3,4", LOOPY_WIN, 0, 41, 0, false},
        {"mnk:4,4,3", LOOPY_WIN, 5, 0, 0, true},
        {"mnk:4,4,4", LOOPY_TIE, 16, 0, 0, true},
        {"connect4:5x4", LOOPY_TIE, 20, 3945711, 0, true},
        {"connect4:4x5", LOOPY_TIE, 20, 1706255, 0, true},
    };

    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        loopy_game *game = NULL;
        loopy_diag diag;

        if (games[i].large && check_quick())
            continue;
        CHECK(loopy_game_open(games[i].spec, &game, &diag) == LOOPY_OK);
        if (game == NULL)
            continue;
        for (int mode = 0; mode < 4; mode++) {
            loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
            loopy_game_solution *by_graph = NULL, *by_retro = NULL;
            loopy_outcome outcome;
            uint32_t remoteness;
            uint64_t n;

            opt.misere = mode & 1;
            opt.no_symmetry = (mode & 2) != 0;
            opt.threads = 2;
            /* The large boards once, in normal play with symmetry. */
            if (games[i].large && mode != 0)
                continue;
            CHECK(loopy_game_solve_graph(game, &opt, &by_graph, &diag) ==
                  LOOPY_OK);
            /* The large boards by the graph solver alone: the two solvers
             * are compared on the small ones, and time is short. */
            if (!games[i].large)
                CHECK_MSG(loopy_game_solve_retro(game, &opt, &by_retro,
                                                 &diag) == LOOPY_OK,
                          "%s: %s", games[i].spec, diag.message);
            if (by_graph == NULL || (by_retro == NULL && !games[i].large)) {
                loopy_game_solution_free(by_graph);
                loopy_game_solution_free(by_retro);
                continue;
            }
            n = loopy_game_solution_size(by_graph);
            for (uint64_t k = 0; by_retro != NULL && k < n; k++) {
                loopy_position p = loopy_game_solution_position(by_graph, k);
                loopy_outcome o1, o2 = LOOPY_DRAW;
                uint32_t r1, r2 = 0;
                loopy_game_solution_value(by_graph, game, p, &o1, &r1);
                CHECK(loopy_game_solution_value(by_retro, game, p, &o2, &r2) ==
                      LOOPY_OK);
                CHECK_MSG(o1 == o2 && r1 == r2,
                          "%s mode %d: position %" PRIu64 ": graph %s %u, "
                          "retro %s %u", games[i].spec, mode, p, oname(o1),
                          r1, oname(o2), r2);
            }
            loopy_game_solution_value(by_graph, game, game->start, &outcome,
                                      &remoteness);
            if (mode == 0 || (mode == 1 && strcmp(games[i].spec,
                                                  "tictactoe") == 0) ||
                mode == 2)
                CHECK_MSG(outcome == games[i].outcome &&
                              (games[i].remoteness == 0 ||
                               remoteness == games[i].remoteness),
                          "%s mode %d: the start is %s %u", games[i].spec,
                          mode, oname(outcome), remoteness);
            if (mode == 2 && games[i].positions != 0)
                CHECK_MSG(n == games[i].positions,
                          "%s: %" PRIu64 " positions", games[i].spec, n);
            if (mode == 0 && games[i].classes != 0)
                CHECK_MSG(n == games[i].classes,
                          "%s: %" PRIu64 " positions up to symmetry",
                          games[i].spec, n);
            if (mode == 0 && games[i].large && games[i].positions != 0 &&
                strncmp(games[i].spec, "connect4", 8) == 0) {
                /* A class is a board and its mirror image: the positions
                 * are twice the classes less the symmetric boards. */
                CHECK(n <= games[i].positions && 2 * n >= games[i].positions);
            }
            loopy_game_solution_free(by_graph);
            loopy_game_solution_free(by_retro);
        }
        loopy_game_close(game);
        check_case_end();
    }
}

/* A canonical() that is not idempotent (a representative that is not its
 * own) is refused by both solvers, naming a position, instead of giving
 * them different answers. */
static loopy_position shifted_canonical(void *ctx, loopy_position p)
{
    (void)ctx;
    return p < 8 ? p + 1 : p;
}

static void broken_symmetry(void)
{
    loopy_game *game = NULL;
    loopy_diag diag;

    CHECK(loopy_game_open("subtract:20,1,2", &game, &diag) == LOOPY_OK);
    if (game == NULL)
        return;
    game->canonical = shifted_canonical;
    for (int retro = 0; retro < 2; retro++) {
        loopy_game_solution *sol = (loopy_game_solution *)(uintptr_t)1;
        loopy_status status;

        memset(&diag, 0, sizeof diag);
        status = retro ? loopy_game_solve_retro(game, NULL, &sol, &diag)
                       : loopy_game_solve_graph(game, NULL, &sol, &diag);
        CHECK_MSG(status == LOOPY_EGAME && sol == NULL &&
                      strstr(diag.message, "idempotent") != NULL,
                  "retro %d: %s, '%s'", retro, loopy_strerror(status),
                  diag.message);
        check_case_end();
    }
    game->canonical = NULL;
    loopy_game_close(game);
}

/* Specifications that do not make a game. */
static void bad_specs(void)
{
    /* ("subtract:10" is a heap alone, which takes 1, 2 or 3.) */
    static const char *const bad[] = {"", "nosuchgame", "subtract:x",
                                      "subtract:10,", "subtract:10,0",
                                      "subtract:10,,2", "./no/such.so",
                                      "/dev/null"};

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        loopy_game *game = (loopy_game *)(uintptr_t)1;
        loopy_diag diag;
        loopy_status status;

        memset(&diag, 0, sizeof diag);
        status = loopy_game_open(bad[i], &game, &diag);
        CHECK_MSG(status != LOOPY_OK && game == NULL && diag.message[0] != 0,
                  "'%s': status %d, message '%s'", bad[i], status,
                  diag.message);
        check_case_end();
    }
}

int main(void)
{
    bad_specs();
    broken_symmetry();
    subtraction();
    builtin_games();
    random_games();
    return check_finish("test_rules");
}
