/*
 * test_game_defs.c - the built-in games' definitions (mnk, tictactoe,
 * connect4): their parameters (defaults, canonical text, the index
 * space's size, refusals that name the place), a create that fails at
 * each of its allocations in turn and leaks nothing, and class_size
 * against the classes themselves (every legal index counted under its
 * canonical()), and no solution answering a position past the index
 * space.  test_games checks the positions and moves.
 */
#include "check.h"
#include "internal.h"
#include "loopy_game.h"
#include "../lib/games/games.h"

#include <stdlib.h>
#include <string.h>

static loopy_status open_def(const loopy_game_def *def, const char *params,
                             loopy_game *game)
{
    loopy_diag diag;
    loopy_status status;

    diag.message[0] = '\0';
    status = def->create(params, game, &diag);

    CHECK_MSG(status == LOOPY_OK, "%s:%s: %s", def->name, params, diag.message);
    return status;
}

/* Parameters: defaults, canonical text, and refusals that name the place. */
static void test_parameters(void)
{
    static const struct {
        const loopy_game_def *def;
        const char *params;
        uint64_t column;
        const char *says; /* a part of the message */
    } bad[] = {
        {&loopy_i_game_mnk, "0,3,3", 1, "at least 1"},
        {&loopy_i_game_mnk, "3,0,3", 3, "at least 1"},
        {&loopy_i_game_mnk, "3,3,0", 5, "at least 1"},
        {&loopy_i_game_mnk, "3,3", 4, "expected ','"},
        {&loopy_i_game_mnk, "3,3,", 5, "line length K"},
        {&loopy_i_game_mnk, "a,3,3", 1, "number of rows M"},
        {&loopy_i_game_mnk, "3,3,3x", 6, "unexpected text"},
        {&loopy_i_game_mnk, "7,7,3", 3, "limit of 40"},
        {&loopy_i_game_mnk, "1,41,3", 3, "limit of 40"},
        {&loopy_i_game_mnk, "3,4,5", 5, "max(M, N) = 4"},
        {&loopy_i_game_mnk, "1234567,1,1", 1, "too large"},
        {&loopy_i_game_tictactoe, "3,3,3", 1, "no parameters"},
        {&loopy_i_game_connect4, "0x6", 1, "width W must be at least 1"},
        {&loopy_i_game_connect4, "7x0", 3, "height H must be at least 1"},
        {&loopy_i_game_connect4, "7,6", 2, "expected 'x'"},
        {&loopy_i_game_connect4, "7x", 3, "the height H"},
        {&loopy_i_game_connect4, "7x6x", 4, "unexpected text"},
        {&loopy_i_game_connect4, "8x7", 3, "W*(H+1) = 64"},
        {&loopy_i_game_connect4, "32x1", 4, "limit of 63"},
        {&loopy_i_game_connect4, "1x63", 3, "limit of 63"},
    };
    static const struct {
        const loopy_game_def *def;
        const char *params, *canonical;
        uint64_t size;
    } good[] = {
        /* m,n,k: sum over n of C(cells, n) * C(n, ceil(n/2)), computed in
         * Python from the definition (3^cells boards before the index by
         * stone count). */
        {&loopy_i_game_mnk, NULL, "3,3,3", 6046},
        {&loopy_i_game_mnk, "", "3,3,3", 6046},
        {&loopy_i_game_mnk, "04,4,3", "4,4,3", 10165779},
        {&loopy_i_game_mnk, "4,5,3", "4,5,3", 741365049},
        {&loopy_i_game_mnk, "1,40,40", "1,40,40",
         UINT64_C(1852627179112970417)},
        {&loopy_i_game_mnk, "8,5,8", "8,5,8", UINT64_C(1852627179112970417)},
        /* Connect Four: sum over n of (height vectors summing to n) *
         * C(n, ceil(n/2)), computed in Python from the definition. */
        {&loopy_i_game_connect4, NULL, "7x6", UINT64_C(70728639995483)},
        {&loopy_i_game_connect4, "21x2", "21x2", UINT64_C(80408439279742860)},
        {&loopy_i_game_connect4, "1x62", "1x62", UINT64_C(936032203931424916)},
        {&loopy_i_game_connect4, "31x1", "31x1", UINT64_C(106495542464222)},
    };

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        loopy_game game;
        loopy_diag diag;
        int64_t live = loopy_i_alloc_live();
        memset(&diag, 0, sizeof diag);
        CHECK_MSG(bad[i].def->create(bad[i].params, &game, &diag) ==
                      LOOPY_EINVAL,
                  "%s:%s accepted", bad[i].def->name, bad[i].params);
        CHECK_MSG(diag.line == 1 && diag.column == bad[i].column &&
                      strstr(diag.message, bad[i].says) != NULL,
                  "%s:%s: %" PRIu64 ":%" PRIu64 ": %s", bad[i].def->name,
                  bad[i].params, diag.line, diag.column, diag.message);
        CHECK(loopy_i_alloc_live() == live);
    }
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        loopy_game game;
        if (open_def(good[i].def, good[i].params, &game) != LOOPY_OK)
            continue;
        CHECK(game.version == LOOPY_GAME_VERSION);
        CHECK_MSG(strcmp(game.params, good[i].canonical) == 0, "%s",
                  game.params);
        CHECK(game.size == good[i].size && game.start < game.size);
        CHECK(game.legal(game.ctx, game.start));
        CHECK(game.primitive(game.ctx, game.start) == LOOPY_PLAYING);
        game.release(game.ctx);
    }
    /* Every def is complete. */
    {
        const loopy_game_def *def[3] = {
            &loopy_i_game_mnk, &loopy_i_game_tictactoe, &loopy_i_game_connect4};
        for (int i = 0; i < 3; i++)
            CHECK(def[i]->version == LOOPY_GAME_VERSION &&
                  def[i]->name != NULL && def[i]->summary != NULL &&
                  def[i]->params_help != NULL &&
                  def[i]->notation_help != NULL && def[i]->create != NULL);
    }
    check_case_end();
}

/* Out of memory: create fails cleanly and leaks nothing. */
static void test_out_of_memory(void)
{
    const loopy_game_def *def[3] = {&loopy_i_game_mnk, &loopy_i_game_tictactoe,
                                    &loopy_i_game_connect4};

    /* Each allocation in turn fails, until none is left to fail. */
    for (int i = 0; i < 3; i++)
        for (uint64_t at = 1;; at++) {
            loopy_game game;
            loopy_status status;
            int64_t live = loopy_i_alloc_live();
            loopy_i_alloc_fail_at(at);
            status = def[i]->create(NULL, &game, NULL);
            loopy_i_alloc_fail_at(0);
            if (status == LOOPY_OK && at > 1) {
                game.release(game.ctx);
                break;
            }
            CHECK_MSG(status == LOOPY_ENOMEM, "%s: allocation %" PRIu64
                      " failed, status %d", def[i]->name, at, (int)status);
            CHECK(loopy_i_alloc_live() == live);
            if (status != LOOPY_ENOMEM)
                break;
        }
    check_case_end();
}

/* class_size against the classes themselves: every legal index scanned,
 * counted under its canonical(), on games small enough. */
static void test_class_sizes(void)
{
    static const char *const specs[] = {
        "tictactoe", "mnk:3,4,3", "mnk:2,5,2", "mnk:3,3,2",
        "connect4:3x3", "connect4:4x3", "connect4:3x4", "connect4:4x4",
        "connect4:5x3",
    };

    for (size_t g = 0; g < sizeof specs / sizeof specs[0]; g++) {
        loopy_game *game = NULL;
        loopy_diag diag;
        uint32_t *count;
        uint64_t classes = 0, bad = 0;

        memset(&diag, 0, sizeof diag);
        CHECK_MSG(loopy_game_open(specs[g], &game, &diag) == LOOPY_OK, "%s: %s",
                  specs[g], diag.message);
        if (game == NULL)
            continue;
        CHECK_MSG(game->class_size != NULL && game->canonical != NULL,
                  "%s: no class_size", specs[g]);
        count = calloc(game->size, sizeof *count);
        CHECK(count != NULL);
        if (count == NULL || game->class_size == NULL) {
            free(count);
            loopy_game_close(game);
            continue;
        }
        for (loopy_position p = 0; p < game->size; p++)
            if (game->legal == NULL || game->legal(game->ctx, p))
                count[game->canonical(game->ctx, p)]++;
        for (loopy_position p = 0; p < game->size; p++) {
            uint64_t want;
            if (game->legal != NULL && !game->legal(game->ctx, p))
                continue;
            want = count[game->canonical(game->ctx, p)];
            classes += game->canonical(game->ctx, p) == p;
            if (game->class_size(game->ctx, p) != want && bad++ == 0)
                CHECK_MSG(0, "%s: position %" PRIu64 ": class_size %" PRIu64
                          ", its class has %" PRIu64, specs[g], p,
                          game->class_size(game->ctx, p), want);
        }
        CHECK(bad == 0 && classes > 0);
        free(count);
        loopy_game_close(game);
        check_case_end();
    }
}

/* A position past the index space is not in a solution, whatever the
 * game's canonical() makes of it (mnk's reads such an index as a board of
 * its last tier, which the solution holds). */
static void test_past_the_space(void)
{
    static const char *const specs[] = {"tictactoe", "mnk:2,3,2",
                                        "connect4:3x3"};

    for (size_t g = 0; g < sizeof specs / sizeof specs[0]; g++) {
        loopy_game *game = NULL;
        loopy_game_solution *s = NULL;
        loopy_diag diag;
        loopy_outcome o;
        uint32_t r;

        memset(&diag, 0, sizeof diag);
        if (loopy_game_open(specs[g], &game, &diag) != LOOPY_OK ||
            loopy_game_solve_retro(game, NULL, &s, &diag) != LOOPY_OK) {
            CHECK_MSG(0, "%s: %s", specs[g], diag.message);
            loopy_game_close(game);
            continue;
        }
        CHECK(loopy_game_solution_value(s, game, game->start, &o, &r) ==
              LOOPY_OK);
        for (uint64_t k = 0; k < 1000; k++)
            CHECK_MSG(loopy_game_solution_value(s, game, game->size + k, &o,
                                                &r) == LOOPY_EINVAL,
                      "%s: position %" PRIu64 " of %" PRIu64 " answered",
                      specs[g], game->size + k, game->size);
        CHECK(loopy_game_solution_value(s, game, UINT64_MAX, &o, &r) ==
              LOOPY_EINVAL);
        loopy_game_solution_free(s);
        loopy_game_close(game);
        check_case_end();
    }
}

int main(void)
{
    test_past_the_space();
    test_parameters();
    test_out_of_memory();
    test_class_sizes();
    return check_finish("test_game_defs");
}
