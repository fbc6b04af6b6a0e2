/*
 * test_tier_inner.c - the tier solver on tiers whose moves may stay inside
 * them (lib/rules/tier_inner.c: retrograde analysis within the tier).
 *
 * - Random tiered games with moves inside some tiers (tests/tiered.h):
 *   cycles, Ties and Draws through them; every position's value equals
 *   the graph solver's and the retro solver's, both independent of the
 *   tier solver, with misere, all_legal and 1 or 2 threads; a
 *   remoteness_bound one below the longest remoteness refused.
 * - The limits inside such a tier, on a chain of positions: a remoteness
 *   of exactly 2^14 - 2 solved, one more refused; the game's
 *   remoteness_bound; a game with canonical_unmoves but no unmoves
 *   refused where unmoves is needed.
 * Chess, a tier per material, is in test_tiers (against the retro solver).
 */
#include "check.h"
#include "tiered.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Games with moves inside tiers (cycles, Ties and Draws through them):
 * the tier solver against the graph solver and the retro solver, both
 * independent of it, on every position; misere, all_legal and the
 * threads varied. */
static void test_random_inner(int rounds)
{
    gen_rng r;

    gen_rng_seed(&r, 0x1e4e);
    for (int round = 0; round < rounds; round++) {
        tiered g;
        loopy_game game;
        loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
        loopy_game_solution *s = NULL, *ref = NULL, *retro = NULL;
        loopy_diag diag;
        bool all = round % 5 == 4;

        tiered_make_inner(&g, &r, &game,
                          round % 4 == 3 ? 8 : 1 + (unsigned)(round % 8));
        opt.misere = round % 3 == 1;
        opt.threads = 1 + round % 2;
        opt.all_legal = all;
        memset(&diag, 0, sizeof diag);
        CHECK_MSG(loopy_game_solve_tiers(&game, &opt, &s, &diag) == LOOPY_OK,
                  "round %d: %s", round, diag.message);
        CHECK_MSG(loopy_game_solve_retro(&game, &opt, &retro, &diag) ==
                      LOOPY_OK,
                  "round %d: retro: %s", round, diag.message);
        /* A remoteness_bound one below the longest remoteness: refused. */
        if (round % 4 == 3 && retro != NULL) {
            uint32_t longest = 0;
            loopy_game_solution *b = NULL;
            for (uint64_t p = 0; p < g.size; p++) {
                loopy_outcome o;
                uint32_t rem;
                if (loopy_game_solution_value(retro, &game, p, &o, &rem) ==
                        LOOPY_OK &&
                    o != LOOPY_DRAW && rem > longest)
                    longest = rem;
            }
            if (longest >= 2) {
                game.remoteness_bound = longest - 1;
                memset(&diag, 0, sizeof diag);
                CHECK_MSG(loopy_game_solve_tiers(&game, &opt, &b, &diag) ==
                                  LOOPY_EGAME &&
                              strstr(diag.message, "remoteness_bound"),
                          "round %d: %s", round, diag.message);
                loopy_game_solution_free(b);
                game.remoteness_bound = 0;
            }
        }
        opt.all_legal = 0;
        if (!all)
            CHECK(loopy_game_solve_graph(&game, &opt, &ref, &diag) == LOOPY_OK);
        for (uint64_t p = 0; s != NULL && retro != NULL && p < g.size; p++) {
            loopy_outcome o = LOOPY_DRAW, o2 = LOOPY_DRAW, o3 = LOOPY_DRAW;
            uint32_t rem = 0, rem2 = 0, rem3 = 0;
            loopy_status v = loopy_game_solution_value(s, &game, p, &o, &rem);
            loopy_status v2 =
                loopy_game_solution_value(retro, &game, p, &o2, &rem2);
            bool same = v == v2 && (v != LOOPY_OK || (o == o2 && rem == rem2));
            if (ref != NULL) {
                loopy_status v3 =
                    loopy_game_solution_value(ref, &game, p, &o3, &rem3);
                same = same && v3 == v &&
                       (v != LOOPY_OK || (o3 == o && rem3 == rem));
            }
            if (!same) {
                CHECK_MSG(0,
                          "round %d: position %llu: tier %d %d %u, retro "
                          "%d %d %u, graph %d %u",
                          round, (unsigned long long)p, (int)v, (int)o, rem,
                          (int)v2, (int)o2, rem2, (int)o3, rem3);
                break;
            }
        }
        loopy_game_solution_free(s);
        loopy_game_solution_free(retro);
        loopy_game_solution_free(ref);
        tiered_free(&g);
        check_case_end();
    }
}

/* A chain 0 -> 1 -> ... -> n - 1: position 0 at remoteness n - 1.  Tier
 * 0 holds positions 0 and 1 and names itself; tier t > 0 holds position
 * t + 1 alone: the levels inside tier 0 climb to n - 1 over two
 * positions, cheaply. */
static size_t chain_moves(void *ctx, loopy_position pos, loopy_position *out,
                          size_t capacity)
{
    const uint64_t *n = ctx;

    if (pos + 1 >= *n)
        return 0;
    if (capacity > 0)
        out[0] = pos + 1;
    return 1;
}

static size_t chain_unmoves(void *ctx, loopy_position pos, loopy_position *out,
                            size_t capacity)
{
    (void)ctx;
    if (pos == 0)
        return 0;
    if (capacity > 0)
        out[0] = pos - 1;
    return 1;
}

static loopy_primitive chain_primitive(void *ctx, loopy_position pos)
{
    (void)ctx;
    (void)pos;
    return LOOPY_PLAYING;
}

static size_t chain_tiers(void *ctx, uint64_t tier, uint64_t *out,
                          size_t capacity)
{
    const uint64_t *n = ctx;
    size_t count = 0;

    if (tier == 0 && count < capacity)
        out[count++] = 0;
    if (tier + 2 < *n && count < capacity)
        out[count++] = tier + 1;
    return count;
}

static loopy_position chain_tier_start(void *ctx, uint64_t tier)
{
    (void)ctx;
    return tier + 1;
}

static void chain_game(loopy_game *game, uint64_t *n)
{
    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "chain";
    game->params = "";
    game->ctx = n;
    game->size = *n;
    game->primitive = chain_primitive;
    game->moves = chain_moves;
    game->unmoves = chain_unmoves;
    game->tier_count = *n - 1;
    game->tier_start = chain_tier_start;
    game->tier_children = chain_tiers;
}

/* The limits inside a tier that names itself: a remoteness of exactly
 * 2^14 - 2 solved, one more refused (LOOPY_ETOOBIG), as in a tier whose
 * moves leave it; the game's remoteness_bound refused past; a game with
 * canonical_unmoves but no unmoves refused where unmoves is needed (all
 * legal indices, or no symmetry), not called through NULL. */
static void test_inner_limits(void)
{
    loopy_game game;
    loopy_game_solution *s = NULL;
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_diag diag;
    uint64_t n = 16383;
    loopy_outcome o;
    uint32_t rem;

    chain_game(&game, &n);
    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_solve_tiers(&game, &opt, &s, &diag) == LOOPY_OK, "%s",
              diag.message);
    CHECK(s != NULL &&
          loopy_game_solution_value(s, &game, 0, &o, &rem) == LOOPY_OK &&
          o == LOOPY_LOSE && rem == 16382);
    loopy_game_solution_free(s);
    s = NULL;
    n = 16384;
    chain_game(&game, &n);
    CHECK(loopy_game_solve_tiers(&game, &opt, &s, &diag) == LOOPY_ETOOBIG &&
          s == NULL);
    n = 10;
    chain_game(&game, &n);
    game.remoteness_bound = 8;
    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_solve_tiers(&game, &opt, &s, &diag) == LOOPY_EGAME &&
                  strstr(diag.message, "remoteness_bound of 8") != NULL,
              "%s", diag.message);
    game.remoteness_bound = 9;
    CHECK(loopy_game_solve_tiers(&game, &opt, &s, &diag) == LOOPY_OK);
    loopy_game_solution_free(s);
    s = NULL;
    game.remoteness_bound = 0;
    game.canonical_unmoves = chain_unmoves;
    game.unmoves = NULL;
    opt.all_legal = 1;
    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_solve_tiers(&game, &opt, &s, &diag) == LOOPY_EINVAL &&
                  strstr(diag.message, "unmoves") != NULL,
              "%s", diag.message);
    check_case_end();
}

int main(void)
{
    test_random_inner(check_quick() ? 300 : 3000);
    test_inner_limits();
    return check_finish("test_tier_inner");
}
