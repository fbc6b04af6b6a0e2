/*
 * test_chess.c - the built-in game chess (lib/games/chess*.c): pawnless
 * endings of up to five pieces (with pawns: test_chess_pawns.c).
 *
 * 1. The rules, by loopy_game_check: every index of KQK and KRK (a sample
 *    under LOOPY_TEST_QUICK), a sample of the four-piece KQKR, KBBK, KBNK
 *    and the five-piece KQRKR, KBBKN, KNNNK, random games of KRNKR
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
 *    random positions of every ending of three and four pieces (KRKN
 *    only under LOOPY_TEST_QUICK; captures into the smaller endings, by
 *    either side), solved by the game's own solver, and on positions
 *    loopy says are short mates: a win in r plies is a mate the oracle
 *    finds in r plies and not in r - 2; a loss in r, a mate it cannot
 *    escape for r plies but can for r - 2; any other value, no mate
 *    within its horizon.
 * 4. Moves in SAN (move_format): check, mate, captures, the file or the
 *    rank of two rooks that could go to one square; value_note's words.
 * The chess game's own solver and the published tables of every
 * three- and four-piece ending: test_chess_tables.c; five pieces take
 * minutes: bench/chess.sh.
 */
#include "check.h"
#include "internal.h"
#include "loopy_game.h"
#include "../lib/games/games.h"

#include <stdlib.h>
#include <string.h>

/* Room for the moves of a position (89 at most in five pieces). */
#define CHESS_TEST_MOVES 128

/* Indices of a material's segment per piece other than the kings: the
 * 462 placements of the kings up to symmetry, both sides to move. */
#define PAIRS (UINT64_C(2) * 462)

/* Whether index pos of game is a position with black to move. */
static int black_to_move(const loopy_game *game, loopy_position pos)
{
    char fen[128];
    size_t len = game->format(game->ctx, pos, fen, sizeof fen);

    return len > 0 && len < sizeof fen && fen[len - 1] == 'b';
}

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

/* Writes board's image under symmetry s (bit 0 mirrors the files, bit 1
 * the ranks, bit 2 swaps files and ranks) as FEN, colour to move. */
static void oracle_write(const oracle_board *b, int colour, int s, char *out)
{
    static const char letters[] = "KQRBN";
    int cell[64] = {0}, empty = 0;

    for (int sq = 0; sq < 64; sq++) {
        int f = sq & 7, r = sq >> 3, t;
        if (s & 1)
            f = 7 - f;
        if (s & 2)
            r = 7 - r;
        if (s & 4) {
            t = f;
            f = r;
            r = t;
        }
        cell[r * 8 + f] = b->cell[sq];
    }
    for (int r = 7; r >= 0; r--) {
        for (int f = 0; f < 8; f++) {
            int c = cell[r * 8 + f];
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty > 0)
                *out++ = (char)('0' + empty);
            empty = 0;
            *out++ = (char)(c > 0 ? letters[c - 1] : letters[-c - 1] + 32);
        }
        if (empty > 0)
            *out++ = (char)('0' + empty);
        empty = 0;
        if (r > 0)
            *out++ = '/';
    }
    *out++ = ' ';
    *out++ = colour > 0 ? 'w' : 'b';
    *out = '\0';
}

/* ---- The tests ---- */

static void test_parameters(void)
{
    static const struct {
        const char *params, *canonical;
        uint64_t size;
    } good[] = {
        {NULL, "KQK", PAIRS * 64 + PAIRS},
        {"KRK", "KRK", PAIRS * 64 + PAIRS},
        {"KNBK", "KBNK", PAIRS * 4096 + 2 * PAIRS * 64 + PAIRS},
        {"KBBK", "KBBK", PAIRS * 4096 + PAIRS * 64 + PAIRS},
        {"KRKQ", "KRKQ", PAIRS * 4096 + 2 * PAIRS * 64 + PAIRS},
        {"KKN", "KKN", PAIRS * 64 + PAIRS},
        {"KK", "KK", PAIRS},
        /* KQRKR, KQRK, KQKR, KRKR, KQK, KRK, KKR, KK */
        {"KQRKR", "KQRKR",
         PAIRS * 262144 + 3 * PAIRS * 4096 + 3 * PAIRS * 64 + PAIRS},
        /* KBBKN, KBBK, KBKN, KBK, KKN, KK */
        {"KBBKN", "KBBKN",
         PAIRS * 262144 + 2 * PAIRS * 4096 + 2 * PAIRS * 64 + PAIRS},
        {"KNKBB", "KNKBB",
         PAIRS * 262144 + 2 * PAIRS * 4096 + 2 * PAIRS * 64 + PAIRS},
    };
    static const struct {
        const char *params;
        uint64_t column;
        const char *says;
    } bad[] = {
        {"QK", 1, "expected 'K'"},
        {"KQ", 3, "expected 'K'"},
        {"KQKX", 4, "unexpected 'X'"},
        {"KPPKPP", 6, "at most 5"},
        {"KPKX", 4, "unexpected 'X'"},
        {"KQRKRN", 6, "at most 5"},
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
        /* The kings a1 and e5 are a pair of the index, both on the
         * diagonal; the queen on b1 (1) is below it: the class's index. */
        CHECK(pos % 64 == 1 && pos < PAIRS * 64 / 2);
        CHECK(kqk.format(kqk.ctx, pos, text, sizeof text) == 21 &&
              strcmp(text, "8/8/8/4k3/8/8/8/KQ6 w") == 0);
        CHECK(parses(&kqk, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", &again, NULL) &&
              again == pos);
        CHECK(kqk.primitive(kqk.ctx, pos) == LOOPY_PLAYING);
    }
    parses(&kqk, "8/8/8/4k3/8/8/8/KQ6 w KQ - 0 1", &pos, "castling");
    parses(&kqk, "8/8/8/4k3/8/8/P7/KQ6 w", &pos,
           "the material KQPK is not an ending of chess:KQK");
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
        /* b1 = 1, d1 = 3 in the low 12 bits; not in the other order */
        CHECK(pos % 4096 == (1 | 3 << 6));
        CHECK(!kbbk.legal(kbbk.ctx, pos - pos % 4096 + (3 | 1 << 6)));
    }
    /* The 8 images of a position are one index; its mirror in the
     * diagonal, when both kings stand on it, too. */
    {
        static const char *const fens[] = {
            "8/8/8/4k3/8/8/8/KQ6 w", "8/8/2k5/8/8/8/5Q2/1K6 b",
            "8/8/8/3k4/8/8/8/K1Q5 w", "7k/8/8/8/8/8/1Q6/K7 b"};
        for (int f = 0; f < 4; f++) {
            oracle_board board;
            int colour = oracle_read(fens[f], &board);
            if (!parses(&kqk, fens[f], &pos, NULL))
                continue;
            CHECK(kqk.legal(kqk.ctx, pos) &&
                  kqk.canonical(kqk.ctx, pos) == pos);
            for (int s = 1; s < 8; s++) {
                oracle_write(&board, colour, s, text);
                CHECK_MSG(parses(&kqk, text, &again, NULL) && again == pos,
                          "%s, image %d %s: %" PRIu64 " and %" PRIu64,
                          fens[f], s, text, pos, again);
            }
        }
    }
    /* K+B v K is dead: over at once. */
    if (parses(&kbbk, "8/8/8/4k3/8/8/8/KB6 w", &pos, NULL))
        CHECK(kbbk.primitive(kbbk.ctx, pos) == LOOPY_OVER_TIE);
    kqk.release(kqk.ctx);
    kbbk.release(kbbk.ctx);
    check_case_end();
}

/* The moves of fen in SAN include every name of want (NULL-ended), each
 * with the board after it written the way fen is, which reads back as
 * the move's class; and value_note's words. */
static void check_san(const char *params, const char *fen,
                      const char *const *want)
{
    loopy_game game;
    loopy_position pos, again, list[CHESS_TEST_MOVES];
    size_t count = 0;
    char names[2048] = " ", name[32], after[128], note[64];

    if (!open_chess(params, &game))
        return;
    CHECK(game.version >= 2 && game.move_format != NULL);
    if (parses(&game, fen, &pos, NULL))
        count = game.moves(game.ctx, pos, list, CHESS_TEST_MOVES);
    for (size_t i = 0; i < count && i < CHESS_TEST_MOVES; i++) {
        size_t len = game.move_format(game.ctx, fen, list[i], name,
                                      sizeof name, after, sizeof after);
        CHECK(len > 0 && len < sizeof name);
        CHECK_MSG(parses(&game, after, &again, NULL) && again == list[i],
                  "%s: %s gives %s", fen, name, after);
        strncat(names, name, sizeof names - strlen(names) - 2);
        strcat(names, " ");
    }
    for (int i = 0; want[i] != NULL; i++) {
        char word[40];
        snprintf(word, sizeof word, " %s ", want[i]);
        CHECK_MSG(strstr(names, word) != NULL, "%s: no %s among%s", fen,
                  want[i], names);
    }
    /* Not a move of pos, or not a position: refused. */
    CHECK(count == 0 ||
          game.move_format(game.ctx, fen, pos, name, sizeof name, NULL, 0) ==
              LOOPY_GAME_ERROR);
    CHECK(game.move_format(game.ctx, "8/8/8 w", pos, name, sizeof name, NULL,
                           0) == LOOPY_GAME_ERROR);
    CHECK(game.value_note(game.ctx, LOOPY_WIN, 31, note, sizeof note) > 0 &&
          strcmp(note, "mate in 16") == 0);
    CHECK(game.value_note(game.ctx, LOOPY_LOSE, 32, note, sizeof note) > 0 &&
          strcmp(note, "mated in 16") == 0);
    game.release(game.ctx);
    check_case_end();
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every legal move of a board, each once: the moves of its class
 * (moves()), each named by loopy_game_move_name and followed by the
 * game's twins (loopy_game_move_twin: the other moves at the board into
 * the same class, mirror images), against the oracle's moves, compared
 * as the boards after them.  Each of n random positions of params is
 * written in each of its 8 images, so that twins of every kind come up
 * (KQK from 8/6k1/8/8/8/8/4Q3/1K6 w: Ka2 and Qb5 reach mirror images);
 * twins_seen: some must. */
static void test_every_move(const char *params, int n, bool twins_seen)
{
    loopy_game game;
    int tried = 0, twins = 0;

    if (!open_chess(params, &game))
        return;
    while (tried < n) {
        loopy_position pos, list[CHESS_TEST_MOVES], again;
        oracle_board board, next[64];
        char fen[128], seen[2 * 64][128], want[64][128];
        char *seen_at[2 * 64], *want_at[64];
        size_t count, unique = 0, names = 0;
        int colour, moves;

        pos = next_random() % (PAIRS << (6 * (strlen(params) - 2)));
        if (!game.legal(game.ctx, pos) || game.canonical(game.ctx, pos) != pos)
            continue;
        tried++;
        game.format(game.ctx, pos, fen, sizeof fen);
        colour = oracle_read(fen, &board);
        count = game.moves(game.ctx, pos, list, CHESS_TEST_MOVES);
        CHECK(count <= CHESS_TEST_MOVES);
        /* Distinct classes, in any order. */
        for (size_t i = 0; i < count; i++) {
            size_t j = 0;
            while (j < unique && list[j] != list[i])
                j++;
            if (j == unique)
                list[unique++] = list[i];
        }
        for (int s = 0; s < 8; s++) {
            oracle_board image;
            char name[64], other[64];
            oracle_write(&board, colour, s, fen);
            oracle_read(fen, &image);
            moves = oracle_moves(&image, colour, next);
            for (int j = 0; j < moves; j++) {
                oracle_write(&next[j], -colour, 0, want[j]);
                want_at[j] = want[j];
            }
            names = 0;
            for (size_t i = 0; i < unique && names < 2 * 64; i++) {
                loopy_game_move_name(&game, fen, list[i], name, sizeof name,
                                     seen[names], sizeof seen[names]);
                seen_at[names] = seen[names];
                names++;
                for (uint32_t k = 1; names < 2 * 64; k++) {
                    if (loopy_game_move_twin(&game, fen, list[i], k, other,
                                             sizeof other, NULL, 0,
                                             seen[names],
                                             sizeof seen[names]) == 0)
                        break;
                    /* Another move, into the same class. */
                    CHECK_MSG(strcmp(other, name) != 0, "%s: %s twice", fen,
                              name);
                    CHECK_MSG(parses(&game, seen[names], &again, NULL) &&
                                  again == list[i],
                              "%s: %s gives %s", fen, other, seen[names]);
                    /* Read back as the move to its class, by the game's
                     * move_parse() and by the library's own reading of
                     * names and labels (a game without one). */
                    for (int own = 0; own < 2; own++) {
                        loopy_game reader = game;
                        loopy_position read = UINT64_MAX;
                        if (own == 1)
                            reader.move_parse = NULL;
                        CHECK_MSG(loopy_game_move_parse(&reader, fen, other,
                                                        &read, NULL) ==
                                          LOOPY_OK &&
                                      read == list[i],
                                  "%s: %s not read back (%d)", fen, other,
                                  own);
                    }
                    seen_at[names] = seen[names];
                    names++;
                    twins++;
                }
            }
            CHECK_MSG((int)names == moves,
                      "%s: %zu moves named, the oracle has %d", fen, names,
                      moves);
            if ((int)names != moves)
                continue;
            qsort(seen_at, names, sizeof *seen_at, compare_text);
            qsort(want_at, names, sizeof *want_at, compare_text);
            for (size_t j = 0; j < names; j++)
                CHECK_MSG(strcmp(seen_at[j], want_at[j]) == 0,
                          "%s: a move to %s, the oracle's %s", fen,
                          seen_at[j], want_at[j]);
        }
    }
    /* Where they are common (KQK: a queen's move and a king's that mirror
     * each other, a board in 40 or so), twins came up. */
    CHECK_MSG(twins > 0 || !twins_seen, "chess:%s: no twin in %d positions",
              params, n);
    game.release(game.ctx);
    check_case_end();
}

static void test_san(void)
{
    static const char *const mates[] = {"Qb2#", "Qa4#", "Qe5+", "Kc1", "Kd3",
                                        NULL};
    static const char *const ranks[] = {"Rce3", "Rge3", "Rc8+", "Kb2", NULL};
    static const char *const files[] = {"R3c5", "R6c5", "Rc8+", NULL};
    static const char *const takes[] = {"Kxe2", "Ra8+", "Re7", NULL};
    static const char *const turned[] = {"Qg7#", "Qh5#", "Qd4+", "Kf8", NULL};

    check_san("KQK", "8/8/8/1Q6/8/8/2K5/k7 w", mates);
    check_san("KRRK", "7k/8/8/8/8/2R3R1/8/1K6 w", ranks);
    check_san("KRRK", "7k/8/2R5/8/8/2R5/8/1K6 w", files);
    check_san("KRKR", "7k/R7/8/8/8/8/4r3/3K4 w", takes);
    /* The board as written, not its class's representative: the first
     * turned half round (the white king on f7 is no king of the triangle
     * a1-d1-d4), its moves turned with it. */
    check_san("KQK", "7k/5K2/8/8/6Q1/8/8/8 w", turned);
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
    /* Five pieces: three equal pieces, a pair, and the walks of real
     * games (captures down to three pieces). */
    check_rules("KQRKR", LOOPY_CHECK_SAMPLE, sample / 2, 0);
    check_rules("KBBKN", LOOPY_CHECK_SAMPLE, sample / 2, 0);
    check_rules("KNNNK", LOOPY_CHECK_SAMPLE, sample / 4, 0);
    check_rules("KRNKR", LOOPY_CHECK_WALKS, sample / 2, 0);
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
            CHECK_MSG(!black_to_move(&game, i), "a win for black");
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
    for (loopy_position p = 0; uci && p < PAIRS * 64; p++) {
        loopy_outcome o;
        if (!game.legal(game.ctx, p) || game.canonical(game.ctx, p) != p ||
            !black_to_move(&game, p))
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
    loopy_game_solution *s = NULL;
    loopy_position *short_mates = NULL;
    size_t short_count = 0, short_capacity = 0;
    int tried = 0;
    loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_diag diag;

    if (!open_chess(params, &game))
        return;
    /* The game's own solver (the same values as the retro one:
     * test_chess_tables.c), which is faster. */
    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_solve_tablebase(&game, &options, &s, &diag) ==
                  LOOPY_OK,
              "chess:%s: %s", params, diag.message);
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
            pos = next_random() % (PAIRS << (6 * (strlen(params) - 2)));
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
    static const char *const others[] = {
        "KQQK", "KQRK", "KQBK", "KQNK", "KRRK", "KRBK", "KRNK", "KBBK",
        "KBNK", "KNNK", "KQKQ", "KQKR", "KQKB", "KQKN", "KRKR", "KRKB",
        "KBKB", "KBKN", "KNKN", NULL};

    test_parameters();
    test_notation();
    test_san();
    test_rules();
    test_longest("KQK", 19, kqk_starts, 0);
    test_longest("KRK", 31, krk_starts, 1);
    test_dead();
    test_every_move("KQK", check_quick() ? 40 : 300, true);
    test_every_move("KRK", check_quick() ? 40 : 300, false);
    test_every_move("KQKR", check_quick() ? 20 : 200, false);
    test_every_move("KBNK", check_quick() ? 20 : 200, false);
    test_every_move("KRKN", check_quick() ? 20 : 200, false);
    test_oracle("KQK", check_quick() ? 5 : 7, check_quick() ? 20 : 60);
    test_oracle("KRK", check_quick() ? 5 : 7, check_quick() ? 20 : 60);
    /* Four pieces: captures into the smaller endings, both sides (not
     * under ThreadSanitizer, where its solve takes a minute; the
     * three-piece ones run the same threads). */
    if (getenv("LOOPY_TEST_TSAN") == NULL)
        test_oracle("KRKN", 5, check_quick() ? 10 : 40);
    /* Every other ending of three and four pieces with a piece to mate
     * with, a few positions each. */
    for (int i = 0; !check_quick() && others[i] != NULL; i++)
        test_oracle(others[i], 5, 10);
    return check_finish("test_chess");
}
