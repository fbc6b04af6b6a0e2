/*
 * test_chess.c - the built-in game chess (lib/games/chess*.c): pawnless
 * endings of up to four pieces.
 *
 * 1. The rules, by loopy_game_check: every index of KQK and KRK (a sample
 *    under LOOPY_TEST_QUICK), a sample of the four-piece KQKR, KBBK, KBNK
 *    (moves against unmoves, captures and uncaptures across materials,
 *    the 8 symmetries, FEN read back), and without symmetry.
 * 2. The published figures, from the retrograde solve of every legal
 *    position (all_legal):
 *    - the longest mates: KQK 10 moves (a win in 19 plies, white to
 *      move), KRK 16 moves (31 plies): Wikipedia, "Endgame tablebase"
 *      (Nalimov tables: "the longest forced mate" lists KQK 10 and KRK
 *      16) and "Chess endgame" (KQK "at most ten moves", KRK "at most
 *      sixteen moves"); also Haworth's DTM tables;
 *    - the class distribution of the UCI Machine Learning Repository's
 *      "Chess (King-Rook vs. King)" data set (krkopt, Bain and van Hoff,
 *      1994): 28,056 positions with black to move, one of each class of
 *      symmetric positions (the white king in the triangle a1-d1-d4), by
 *      white's optimal depth of win in moves:
 *      draw 2796, 0: 27, 1: 78, 2: 246, 3: 81, 4: 198, 5: 471, 6: 592,
 *      7: 683, 8: 1433, 9: 1712, 10: 1985, 11: 2854, 12: 3597,
 *      13: 4194, 14: 4553, 15: 2166, 16: 390;
 *    - K+B v K and K+N v K: every position a tie (a dead draw).
 *    The graph solver, from a few positions, gives the same values.
 * 3. An independent oracle: a plain depth-limited mate search written
 *    here (its own board, moves and check test; nothing of lib/games) on
 *    random KQK and KRK positions and on positions loopy says are short
 *    mates: a win in r plies is a mate the oracle finds in r plies and
 *    not in r - 2; a loss in r, a mate it cannot escape for r plies but
 *    can for r - 2; any other value, no mate within its horizon.
 * Four-piece solves take minutes: bench/chess.sh.
 */
#include "check.h"
#include "internal.h"
#include "loopy_game.h"
#include "../lib/games/games.h"

#include <stdlib.h>
#include <string.h>

static int open_chess(const char *params, loopy_game *game)
{
    loopy_diag diag;
    loopy_status status;

    memset(&diag, 0, sizeof diag);
    status = loopy_i_game_chess.create(params, game, &diag);
    CHECK_MSG(status == LOOPY_OK, "chess:%s: %s", params ? params : "(null)",
              diag.message);
    return status == LOOPY_OK;
}

static uint64_t seed_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
    /* xorshift64* */
    seed_state ^= seed_state >> 12;
    seed_state ^= seed_state << 25;
    seed_state ^= seed_state >> 27;
    return seed_state * UINT64_C(2685821657736338717);
}

/* ---- The oracle: its own board and moves ---- */

/* cell[sq]: 0 empty, 1..5 white K Q R B N, -1..-5 black; sq = rank*8+file */
typedef struct oracle_board {
    int cell[64];
} oracle_board;

static const int king_step[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                    {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
static const int knight_step[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                      {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

static int on_board(int file, int rank)
{
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

/* Whether colour's pieces (1 white, -1 black) attack square sq. */
static int oracle_attacked(const oracle_board *b, int sq, int colour)
{
    int f = sq % 8, r = sq / 8;

    for (int d = 0; d < 8; d++) {
        int tf = f + king_step[d][0], tr = r + king_step[d][1];
        int nf = f + knight_step[d][0], nr = r + knight_step[d][1];
        if (on_board(tf, tr) && b->cell[tr * 8 + tf] == colour * 1)
            return 1;
        if (on_board(nf, nr) && b->cell[nr * 8 + nf] == colour * 5)
            return 1;
        /* Walk the line from sq: the first piece met attacks along it
         * when it moves that way (rook: straight, bishop: diagonal). */
        for (int step = 1;; step++) {
            int lf = f + step * king_step[d][0], lr = r + step * king_step[d][1];
            int piece;
            if (!on_board(lf, lr))
                break;
            piece = b->cell[lr * 8 + lf];
            if (piece == 0)
                continue;
            if (piece == colour * 2 || piece == colour * (d % 2 ? 4 : 3))
                return 1;
            break;
        }
    }
    return 0;
}

static int king_square(const oracle_board *b, int colour)
{
    for (int sq = 0; sq < 64; sq++)
        if (b->cell[sq] == colour)
            return sq;
    return -1;
}

/* The legal moves of colour: the boards after them, up to 64. */
static int oracle_moves(const oracle_board *b, int colour, oracle_board *out)
{
    int count = 0;

    for (int sq = 0; sq < 64; sq++) {
        int piece = b->cell[sq] * colour, f = sq % 8, r = sq / 8;
        if (piece <= 0)
            continue;
        for (int d = 0; d < 8; d++) {
            int dir_f, dir_r, reach;
            if (piece == 5) {
                dir_f = knight_step[d][0];
                dir_r = knight_step[d][1];
                reach = 1;
            } else {
                dir_f = king_step[d][0];
                dir_r = king_step[d][1];
                /* rook: even d (straight), bishop: odd d (diagonal) */
                if ((piece == 3 && d % 2) || (piece == 4 && d % 2 == 0))
                    continue;
                reach = piece == 1 ? 1 : 7;
            }
            for (int step = 1; step <= reach; step++) {
                int tf = f + step * dir_f, tr = r + step * dir_r, to, there;
                oracle_board next;
                if (!on_board(tf, tr))
                    break;
                to = tr * 8 + tf;
                there = b->cell[to] * colour;
                if (there > 0 || there == -1) /* own piece, enemy king */
                    break;
                next = *b;
                next.cell[to] = next.cell[sq];
                next.cell[sq] = 0;
                if (!oracle_attacked(&next, king_square(&next, colour),
                                     -colour))
                    out[count++] = next;
                if (there != 0)
                    break;
            }
        }
    }
    return count;
}

static int oracle_loses_within(const oracle_board *b, int colour, int plies);

/* Whether colour mates within plies plies (its own moves included). */
static int oracle_wins_within(const oracle_board *b, int colour, int plies)
{
    oracle_board next[64];
    int n;

    if (plies < 1)
        return 0;
    n = oracle_moves(b, colour, next);
    for (int i = 0; i < n; i++)
        if (oracle_loses_within(&next[i], -colour, plies - 1))
            return 1;
    return 0;
}

/* Whether colour, to move, is mated within plies plies whatever it does. */
static int oracle_loses_within(const oracle_board *b, int colour, int plies)
{
    oracle_board next[64];
    int n = oracle_moves(b, colour, next);

    if (n == 0)
        return oracle_attacked(b, king_square(b, colour), -colour);
    if (plies < 2)
        return 0;
    for (int i = 0; i < n; i++)
        if (!oracle_wins_within(&next[i], -colour, plies - 1))
            return 0;
    return 1;
}

/* Reads a FEN's board and side (the oracle's own reading). */
static int oracle_read(const char *fen, oracle_board *b)
{
    static const char letters[] = "KQRBN";
    int sq = 56;

    memset(b, 0, sizeof *b);
    for (; *fen != ' '; fen++) {
        const char *p = strchr(letters, *fen >= 'a' ? *fen - 32 : *fen);
        if (*fen == '/')
            sq -= 16;
        else if (*fen >= '1' && *fen <= '8')
            sq += *fen - '0';
        else
            b->cell[sq++] = (int)(p - letters + 1) * (*fen >= 'a' ? -1 : 1);
    }
    return fen[1] == 'w' ? 1 : -1;
}

/* ---- The tests ---- */

static void test_parameters(void)
{
    static const struct {
        const char *params, *canonical;
        uint64_t size;
    } good[] = {
        {NULL, "KQK", 2 * 262144 + 2 * 4096},
        {"KRK", "KRK", 2 * 262144 + 2 * 4096},
        {"KNBK", "KBNK", 2 * 16777216 + 4 * 262144 + 2 * 4096},
        {"KBBK", "KBBK", 2 * 16777216 + 2 * 262144 + 2 * 4096},
        {"KRKQ", "KRKQ", 2 * 16777216 + 4 * 262144 + 2 * 4096},
        {"KKN", "KKN", 2 * 262144 + 2 * 4096},
        {"KK", "KK", 2 * 4096},
    };
    static const struct {
        const char *params;
        uint64_t column;
        const char *says;
    } bad[] = {
        {"QK", 1, "expected 'K'"},
        {"KQ", 3, "expected 'K'"},
        {"KQKX", 4, "unexpected 'X'"},
        {"KPK", 2, "pawnless"},
        {"KQRKR", 5, "at most 4"},
        {"KQKK", 4, "unexpected 'K'"},
    };

    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        loopy_game game;
        if (!open_chess(good[i].params, &game))
            continue;
        CHECK_MSG(strcmp(game.params, good[i].canonical) == 0, "%s",
                  game.params);
        CHECK_MSG(game.size == good[i].size, "%s: size %" PRIu64,
                  game.params, game.size);
        CHECK(game.legal(game.ctx, game.start));
        CHECK(strcmp(game.name, "chess") == 0);
        game.release(game.ctx);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        loopy_game game;
        loopy_diag diag;
        memset(&diag, 0, sizeof diag);
        CHECK_MSG(loopy_i_game_chess.create(bad[i].params, &game, &diag) ==
                      LOOPY_EINVAL,
                  "chess:%s accepted", bad[i].params);
        CHECK_MSG(diag.column == bad[i].column &&
                      strstr(diag.message, bad[i].says) != NULL,
                  "chess:%s: column %" PRIu64 ": %s", bad[i].params,
                  diag.column, diag.message);
    }
    CHECK(loopy_i_game_chess.summary != NULL &&
          loopy_i_game_chess.params_help != NULL &&
          loopy_i_game_chess.notation_help != NULL);
    check_case_end();
}

static int parses(const loopy_game *game, const char *text, uint64_t *pos,
                  const char *says)
{
    char why[200] = "";
    int failed = game->parse(game->ctx, text, pos, why, sizeof why);

    if (says == NULL)
        CHECK_MSG(!failed, "\"%s\": %s", text, why);
    else
        CHECK_MSG(failed && strstr(why, says) != NULL,
                  "\"%s\" gives \"%s\", expected \"%s\"", text,
                  failed ? why : "(no error)", says);
    return !failed;
}

static void test_notation(void)
{
    loopy_game kqk, kbbk;
    uint64_t pos, again, list[400];
    char text[128];

    if (!open_chess("KQK", &kqk) || !open_chess("KBBK", &kbbk))
        return;
    if (parses(&kqk, "8/8/8/4k3/8/8/8/KQ6 w", &pos, NULL)) {
        /* a1 = 0, b1 = 1, e5 = 36: slots WK, BK, Q, white to move */
        CHECK(pos == (UINT64_C(0) | UINT64_C(36) << 6 | UINT64_C(1) << 12));
        CHECK(kqk.format(kqk.ctx, pos, text, sizeof text) == 21 &&
              strcmp(text, "8/8/8/4k3/8/8/8/KQ6 w") == 0);
        CHECK(parses(&kqk, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", &again, NULL) &&
              again == pos);
        CHECK(kqk.primitive(kqk.ctx, pos) == LOOPY_PLAYING);
    }
    parses(&kqk, "8/8/8/4k3/8/8/8/KQ6 w KQ - 0 1", &pos, "castling");
    parses(&kqk, "8/8/8/4k3/8/8/P7/KQ6 w", &pos, "pawn on a2");
    parses(&kqk, "8/8/8/4k3/8/8/8/KR6 w", &pos, "not an ending of chess:KQK");
    parses(&kqk, "8/8/8/4k3/8/8/8/KQ6", &pos, "side to move");
    parses(&kqk, "8/8/8/4k3/8/8/8/KQ7 w", &pos, "more than 8 squares");
    parses(&kqk, "8/8/4k3/8/8/8/KQ6 w", &pos, "7 ranks");
    parses(&kqk, "8/8/8/4k3/8/8/8/KQ5 w", &pos, "7 squares");
    parses(&kqk, "8/8/8/4k3/8/8/8/QQ6 w", &pos, "white has 0 kings");
    parses(&kqk, "8/8/8/8/8/8/1k6/KQ6 w", &pos, "next to each other");
    parses(&kqk, "4k3/8/8/8/8/8/8/K3Q3 w", &pos, "black is in check");
    parses(&kqk, "4k3/8/8/8/8/8/8/K3Q3 b", &pos, NULL);
    parses(&kqk, "4k3/8/8/8/8/8/8/K3X3 b", &pos, "found 'X'");
    /* The sub-ending K v K: over, a tie. */
    if (parses(&kqk, "4k3/8/8/8/8/8/8/K7 b", &pos, NULL))
        CHECK(kqk.primitive(kqk.ctx, pos) == LOOPY_OVER_TIE);
    /* Mate and stalemate. */
    if (parses(&kqk, "k7/1Q6/1K6/8/8/8/8/8 b", &pos, NULL))
        CHECK(kqk.primitive(kqk.ctx, pos) == LOOPY_OVER_LOSE);
    if (parses(&kqk, "k7/2Q5/1K6/8/8/8/8/8 b", &pos, NULL))
        CHECK(kqk.primitive(kqk.ctx, pos) == LOOPY_OVER_TIE);
    /* Black takes the queen: one move, to K v K. */
    if (parses(&kqk, "k7/1Q6/8/2K5/8/8/8/8 b", &pos, NULL)) {
        CHECK(kqk.moves(kqk.ctx, pos, list, 400) == 1);
        CHECK(parses(&kqk, "8/1k6/8/2K5/8/8/8/8 w", &again, NULL) &&
              list[0] == again);
    }
    /* Two bishops: one index whichever is read first. */
    if (parses(&kbbk, "8/8/8/4k3/8/8/8/KB1B4 w", &pos, NULL)) {
        CHECK(kbbk.format(kbbk.ctx, pos, text, sizeof text) == 23 &&
              strcmp(text, "8/8/8/4k3/8/8/8/KB1B4 w") == 0);
        CHECK(!kbbk.legal(kbbk.ctx, (pos & ~(UINT64_C(4095) << 12)) |
                                        UINT64_C(3) << 12 | UINT64_C(1) << 18));
    }
    /* K+B v K is dead: over at once. */
    if (parses(&kbbk, "8/8/8/4k3/8/8/8/KB6 w", &pos, NULL))
        CHECK(kbbk.primitive(kbbk.ctx, pos) == LOOPY_OVER_TIE);
    kqk.release(kqk.ctx);
    kbbk.release(kbbk.ctx);
    check_case_end();
}

static void check_rules(const char *params, loopy_game_check_scope scope,
                        uint64_t limit, int no_symmetry)
{
    loopy_game game;
    loopy_game_check_options options = LOOPY_GAME_CHECK_OPTIONS_INIT;
    loopy_game_check_report report;
    loopy_diag diag;

    if (!open_chess(params, &game))
        return;
    memset(&diag, 0, sizeof diag);
    options.scope = scope;
    options.limit = limit;
    options.seed = 14;
    options.no_symmetry = no_symmetry;
    CHECK_MSG(loopy_game_check(&game, &options, &report, &diag) == LOOPY_OK,
              "chess:%s: %s", params, diag.message);
    CHECK_MSG(report.checked > limit / 2 || scope == LOOPY_CHECK_EVERY,
              "chess:%s: %" PRIu64 " checked", params, report.checked);
    if (scope == LOOPY_CHECK_EVERY)
        CHECK(report.complete);
    game.release(game.ctx);
    check_case_end();
}

static void test_rules(void)
{
    loopy_game_check_scope every = check_quick() ? LOOPY_CHECK_SAMPLE
                                                 : LOOPY_CHECK_EVERY;
    uint64_t sample = check_quick() ? 2000 : 20000;

    /* Every index of KQK; KRK, whose rules are the same code with another
     * piece, by a sample (each whole check takes some 18 s). */
    check_rules("KQK", every, check_quick() ? 5000 : 1000000, 0);
    check_rules("KRK", LOOPY_CHECK_SAMPLE, check_quick() ? 5000 : 100000, 0);
    check_rules("KQK", LOOPY_CHECK_SAMPLE, sample, 1);
    check_rules("KQKR", LOOPY_CHECK_SAMPLE, sample, 0);
    check_rules("KBBK", LOOPY_CHECK_SAMPLE, sample, 0);
    check_rules("KBNK", LOOPY_CHECK_SAMPLE, sample, 0);
    check_rules("KNKN", LOOPY_CHECK_SAMPLE, sample / 4, 1);
    check_rules("KQQK", LOOPY_CHECK_SAMPLE, sample / 4, 0);
}

static loopy_game_solution *solve_all(const loopy_game *game)
{
    loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *solution = NULL;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    options.all_legal = 1;
    CHECK_MSG(loopy_game_solve_retro(game, &options, &solution, &diag) ==
                  LOOPY_OK,
              "chess:%s: %s", game->params, diag.message);
    return solution;
}

/* The value of pos; LOOPY_DRAW with UINT32_MAX when absent. */
static loopy_outcome value_of(const loopy_game_solution *s,
                              const loopy_game *game, loopy_position pos,
                              uint32_t *remoteness)
{
    loopy_outcome outcome;

    if (loopy_game_solution_value(s, game, pos, &outcome, remoteness) !=
        LOOPY_OK) {
        *remoteness = UINT32_MAX;
        return LOOPY_DRAW;
    }
    return outcome;
}

/* The graph solver from start reaches positions with the same values. */
static void compare_graph(const loopy_game *game,
                          const loopy_game_solution *retro, const char *fen)
{
    loopy_game from = *game;
    loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *graph = NULL;
    loopy_diag diag;
    uint64_t n, differ = 0;

    if (!parses(game, fen, &from.start, NULL))
        return;
    memset(&diag, 0, sizeof diag);
    if (loopy_game_solve_graph(&from, &options, &graph, &diag) != LOOPY_OK) {
        CHECK_MSG(0, "graph solve of %s: %s", fen, diag.message);
        return;
    }
    n = loopy_game_solution_size(graph);
    for (uint64_t i = 0; i < n; i++) {
        loopy_position p = loopy_game_solution_position(graph, i);
        uint32_t r1, r2;
        loopy_outcome o1 = value_of(graph, &from, p, &r1);
        loopy_outcome o2 = value_of(retro, game, p, &r2);
        differ += o1 != o2 || r1 != r2;
    }
    CHECK_MSG(differ == 0 && n > 1000,
              "%s: %" PRIu64 " of %" PRIu64 " positions differ", fen, differ,
              n);
    loopy_game_solution_free(graph);
}

/* The published figures of KQK and KRK, the graph solver, and the UCI
 * KRK table; returns the solution for the oracle. */
static void test_longest(const char *params, uint32_t longest_plies,
                         const char *const *starts, int uci)
{
    static const uint64_t uci_count[17] = {27,   78,   246,  81,   198, 471,
                                           592,  683,  1433, 1712, 1985, 2854,
                                           3597, 4194, 4553, 2166, 390};
    loopy_game game;
    loopy_game_solution *s;
    uint32_t longest_w = 0, longest_l = 0, r;
    uint64_t by_depth[18] = {0}, uci_total = 0;

    if (!open_chess(params, &game))
        return;
    s = solve_all(&game);
    if (s == NULL) {
        game.release(game.ctx);
        return;
    }
    for (loopy_position i = 0; i < game.size; i++) {
        loopy_outcome o;
        if (!game.legal(game.ctx, i) || game.canonical(game.ctx, i) != i)
            continue;
        o = value_of(s, &game, i, &r);
        CHECK(r != UINT32_MAX && o != LOOPY_DRAW);
        if (o == LOOPY_WIN) {
            CHECK_MSG((i >> 18 & 1) == 0, "a win for black");
            if (r > longest_w)
                longest_w = r;
        }
        if (o == LOOPY_LOSE && r > longest_l)
            longest_l = r;
    }
    CHECK_MSG(longest_w == longest_plies,
              "chess:%s: the longest win is %" PRIu32 " plies, published %" PRIu32,
              params, longest_w, longest_plies);
    printf("chess:%s: longest mate %" PRIu32 " plies (%" PRIu32
           " moves) white to move, %" PRIu32 " plies black to move\n",
           params, longest_w, (longest_w + 1) / 2, longest_l);
    /* The UCI table: black to move, one position of each class of
     * symmetric ones (the set's white king in a1-d1-d4 is one choice of
     * representative; ours are the least indices). */
    for (loopy_position p = UINT64_C(1) << 18; uci && p < UINT64_C(2) << 18;
         p++) {
        loopy_outcome o;
        if (!game.legal(game.ctx, p) || game.canonical(game.ctx, p) != p)
            continue;
        o = value_of(s, &game, p, &r);
        uci_total++;
        if (o == LOOPY_LOSE && r % 2 == 0 && r / 2 <= 16)
            by_depth[r / 2]++;
        else
            by_depth[17]++;
    }
    if (uci) {
        CHECK_MSG(uci_total == 28056, "%" PRIu64 " positions", uci_total);
        CHECK_MSG(by_depth[17] == 2796, "draws %" PRIu64, by_depth[17]);
        for (int d = 0; d <= 16; d++)
            CHECK_MSG(by_depth[d] == uci_count[d],
                      "depth %d: %" PRIu64 ", published %" PRIu64, d,
                      by_depth[d], uci_count[d]);
        printf("chess:KRK: %" PRIu64 " classes of positions with black to "
               "move, %" PRIu64 " drawn, %" PRIu64 " mated, %" PRIu64
               " lost in 16 moves: the UCI krkopt table\n",
               uci_total, by_depth[17], by_depth[0], by_depth[16]);
    }
    for (int i = 0; starts[i] != NULL; i++)
        compare_graph(&game, s, starts[i]);
    loopy_game_solution_free(s);
    game.release(game.ctx);
    check_case_end();
}

/* K+B v K and K+N v K: every legal position a tie. */
static void test_dead(void)
{
    const char *params[2] = {"KBK", "KKN"};

    for (int k = 0; k < 2; k++) {
        loopy_game game;
        loopy_game_solution *s;
        if (!open_chess(params[k], &game))
            continue;
        s = solve_all(&game);
        if (s != NULL) {
            CHECK(loopy_game_solution_count(s, LOOPY_TIE) ==
                  loopy_game_solution_size(s));
            CHECK(loopy_game_solution_size(s) > 1000);
        }
        loopy_game_solution_free(s);
        game.release(game.ctx);
    }
    check_case_end();
}

/* loopy against the oracle on n random positions and n short mates. */
static void test_oracle(const char *params, int horizon, int n)
{
    loopy_game game;
    loopy_game_solution *s;
    loopy_position *short_mates = NULL;
    size_t short_count = 0, short_capacity = 0;
    int tried = 0;

    if (!open_chess(params, &game))
        return;
    s = solve_all(&game);
    if (s == NULL) {
        game.release(game.ctx);
        return;
    }
    for (loopy_position i = 0; i < game.size; i++) {
        uint32_t r;
        loopy_outcome o;
        if (!game.legal(game.ctx, i) || game.canonical(game.ctx, i) != i)
            continue;
        o = value_of(s, &game, i, &r);
        if ((o == LOOPY_WIN || o == LOOPY_LOSE) && (int)r <= horizon) {
            if (short_count == short_capacity) {
                short_capacity = short_capacity ? 2 * short_capacity : 1024;
                short_mates = realloc(short_mates,
                                      short_capacity * sizeof *short_mates);
                if (short_mates == NULL)
                    abort();
            }
            short_mates[short_count++] = i;
        }
    }
    while (tried < 2 * n) {
        loopy_position pos;
        uint32_t r;
        loopy_outcome o;
        char fen[128];
        oracle_board board;
        int colour;
        if (tried < n) {
            /* a random index of the game's own material */
            pos = next_random() % (UINT64_C(2) << 18);
            if (!game.legal(game.ctx, pos))
                continue;
        } else {
            pos = short_mates[next_random() % short_count];
        }
        tried++;
        o = value_of(s, &game, pos, &r);
        game.format(game.ctx, pos, fen, sizeof fen);
        colour = oracle_read(fen, &board);
        if (o == LOOPY_WIN && (int)r <= horizon) {
            CHECK_MSG(oracle_wins_within(&board, colour, (int)r) &&
                          !oracle_wins_within(&board, colour, (int)r - 2),
                      "%s: loopy W %" PRIu32, fen, r);
        } else if (o == LOOPY_LOSE && (int)r <= horizon - 1) {
            CHECK_MSG(oracle_loses_within(&board, colour, (int)r) &&
                          (r < 2 ||
                           !oracle_loses_within(&board, colour, (int)r - 2)),
                      "%s: loopy L %" PRIu32, fen, r);
        } else {
            CHECK_MSG(!oracle_wins_within(&board, colour, horizon) &&
                          !oracle_loses_within(&board, colour, horizon - 1),
                      "%s: loopy %d %" PRIu32 ", the oracle finds a mate",
                      fen, (int)o, r);
        }
    }
    free(short_mates);
    loopy_game_solution_free(s);
    game.release(game.ctx);
    check_case_end();
}

int main(void)
{
    static const char *const kqk_starts[] = {"8/8/8/4k3/8/8/8/KQ6 w",
                                             "8/8/8/3k4/8/2K5/8/7Q b", NULL};
    static const char *const krk_starts[] = {"8/8/8/4k3/8/8/8/KR6 w",
                                             "8/8/2k5/8/8/8/8/K6R b", NULL};

    test_parameters();
    test_notation();
    test_rules();
    test_longest("KQK", 19, kqk_starts, 0);
    test_longest("KRK", 31, krk_starts, 1);
    test_dead();
    test_oracle("KQK", check_quick() ? 5 : 7, check_quick() ? 20 : 60);
    test_oracle("KRK", check_quick() ? 5 : 7, check_quick() ? 20 : 60);
    return check_finish("test_chess");
}
