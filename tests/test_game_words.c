/*
 * test_game_words.c - how a person names, types and sees the built-in
 * games' moves (loopy_game version 3): move_label, move_parse, draw, and
 * the definition's params_of, through the public calls that guard them.
 *
 * 1. On every position reached from the start of tic-tac-toe, mnk:3,4,3
 *    (not square), connect4:4x4 (up to 5,000 positions, breadth first) and
 *    subtract:10: each move has a label and a number; the numbers of a
 *    position's moves are distinct and not 0; a label names the same
 *    number in every position (a column is the same column); and
 *    loopy_game_move_parse of the label (and of the move's name) gives the
 *    move back.
 * 2. Moves refused with their reason: a taken cell, a cell off the board,
 *    a full column, a column past the board; chess's SAN, with and without
 *    its check sign and capture, and UCI give the same move; a promotion
 *    and a move that is none are refused.
 * 3. The boards drawn, exactly: tic-tac-toe, Connect Four and chess, in
 *    ASCII and with Unicode pieces; nothing for a game that draws none.
 * 4. A chess FEN's material (params_of): both sides, in Q R B N order;
 *    refusals (a pawn, six pieces, a missing king); a game without
 *    params_of, an unknown game.
 * 5. subtract:5, a heap alone, takes the default 1, 2 or 3.
 */
#include "check.h"
#include "loopy_game.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static loopy_game *open_game(const char *spec)
{
    loopy_game *game = NULL;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_open(spec, &game, &diag) == LOOPY_OK, "%s: %s", spec,
              diag.message);
    return game;
}

/* The moves of pos into out (room for 64); their count. */
static size_t moves_of(const loopy_game *game, loopy_position pos,
                       loopy_position *out)
{
    size_t count;

    if (game->primitive(game->ctx, pos) != LOOPY_PLAYING)
        return 0;
    count = game->moves(game->ctx, pos, out, 64);
    CHECK(count <= 64);
    return count <= 64 ? count : 0;
}

/* Part 1 on one game: labels, numbers and parses of every move of the
 * positions reached, at most limit of them. */
static void check_labels(const char *spec, size_t limit)
{
    loopy_game *game = open_game(spec);
    loopy_position *queue;
    unsigned char *queued;
    size_t head = 0, tail = 0;
    /* The number each label had first (labels are short: a column, a
     * cell, "take 3"). */
    char seen_label[128][16];
    uint32_t seen_number[128];
    size_t seen = 0;

    if (game == NULL)
        return;
    /* The games here have small index spaces: a bit each. */
    queue = malloc(limit * sizeof *queue);
    queued = game->size <= (UINT64_C(1) << 32) ? calloc(game->size / 8 + 1, 1)
                                               : NULL;
    CHECK(queue != NULL && queued != NULL);
    if (queue == NULL || queued == NULL) {
        free(queue);
        free(queued);
        loopy_game_close(game);
        return;
    }
    queue[tail++] = game->start;
    queued[game->start / 8] |= (unsigned char)(1u << (game->start % 8));
    while (head < tail) {
        loopy_position pos = queue[head++], list[64];
        size_t count = moves_of(game, pos, list);
        uint32_t numbers[64];
        char from[256];

        loopy_game_format(game, pos, from, sizeof from);
        for (size_t i = 0; i < count; i++) {
            char label[64], name[256];
            uint32_t number = 0;
            loopy_position to = UINT64_MAX;
            loopy_diag diag;
            bool known = false;

            loopy_game_move_label(game, from, list[i], &number, label,
                                  sizeof label);
            CHECK_MSG(number != 0 && label[0] != '\0', "%s %s: move %zu",
                      spec, from, i);
            numbers[i] = number;
            for (size_t j = 0; j < i; j++)
                CHECK_MSG(numbers[j] != number, "%s %s: number %" PRIu32
                          " twice", spec, from, number);
            for (size_t k = 0; k < seen; k++)
                if (strcmp(seen_label[k], label) == 0) {
                    known = true;
                    CHECK_MSG(seen_number[k] == number, "%s: %s is %" PRIu32
                              " and %" PRIu32, spec, label, seen_number[k],
                              number);
                }
            if (!known && seen < 128 && strlen(label) < 16) {
                strcpy(seen_label[seen], label);
                seen_number[seen++] = number;
            }
            memset(&diag, 0, sizeof diag);
            CHECK_MSG(loopy_game_move_parse(game, from, label, &to, &diag) ==
                              LOOPY_OK && to == list[i],
                      "%s %s: %s: %s", spec, from, label, diag.message);
            loopy_game_move_name(game, from, list[i], name, sizeof name, NULL,
                                 0);
            CHECK_MSG(loopy_game_move_parse(game, from, name, &to, &diag) ==
                              LOOPY_OK && to == list[i],
                      "%s %s: %s: %s", spec, from, name, diag.message);
            if (tail < limit && !(queued[list[i] / 8] >> (list[i] % 8) & 1)) {
                queued[list[i] / 8] |= (unsigned char)(1u << (list[i] % 8));
                queue[tail++] = list[i];
            }
        }
    }
    free(queue);
    free(queued);
    loopy_game_close(game);
    check_case_end();
}

/* Whether reading move text from from fails, with why in the message. */
static void refused(const loopy_game *game, const char *from, const char *text,
                    const char *why)
{
    loopy_position to;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_move_parse(game, from, text, &to, &diag) ==
                      LOOPY_EPARSE && strstr(diag.message, why) != NULL,
              "%s from %s: '%s', expected '%s'", text, from, diag.message,
              why);
}

/* The move text reads as from from, as want does. */
static void same_move(const loopy_game *game, const char *from,
                      const char *text, const char *want)
{
    loopy_position a = 1, b = 2;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_move_parse(game, from, text, &a, &diag) == LOOPY_OK,
              "%s: %s", text, diag.message);
    CHECK_MSG(loopy_game_move_parse(game, from, want, &b, &diag) == LOOPY_OK,
              "%s: %s", want, diag.message);
    CHECK_MSG(a == b, "%s and %s", text, want);
}

static void test_refusals(void)
{
    loopy_game *ttt = open_game("tictactoe");
    loopy_game *c4 = open_game("connect4:4x4");
    loopy_game *chess = open_game("chess:KRK");
    const char *krk = "k7/8/8/8/8/8/8/1R5K w";
    char label[64];
    loopy_position to;
    uint32_t number;

    if (ttt != NULL) {
        refused(ttt, "x../.o./...", "b2", "taken");
        refused(ttt, "x../.o./...", "d1", "no cell d1");
        refused(ttt, "x../.o./...", "b4", "no cell b4");
        refused(ttt, "x../.o./...", "zz", "expected a cell");
        refused(ttt, "xxx/oo./...", "c1", "over");
        /* b2 is the centre, the fifth cell; a3 the top left, the first. */
        CHECK(loopy_game_move_parse(ttt, ".../.../...", "a3", &to, NULL) ==
              LOOPY_OK);
        loopy_game_move_label(ttt, ".../.../...", to, &number, label,
                              sizeof label);
        CHECK(number == 1 && strcmp(label, "a3") == 0);
        /* x../.o./... is index 22: after the 10 boards of fewer stones,
         * cells {0, 4} rank C(0, 1) + C(4, 2) = 6 among the sets of two,
         * with 2 colourings each, x on cell 0 the first. */
        loopy_game_move_label(ttt, "x../.../...", 22, &number, label,
                              sizeof label);
        CHECK(number == 5 && strcmp(label, "b2") == 0);
    }
    if (c4 != NULL) {
        refused(c4, "..../..../..../....", "5", "no move 5");
        refused(c4, "..../..../..../....", "0", "no move 0");
        refused(c4, "..../..../..../....", "a", "expected a column");
        refused(c4, "o.../x.../o.../x...", "1", "full");
    }
    if (chess != NULL) {
        same_move(chess, krk, "Rb7", "b1b7");
        same_move(chess, krk, "Rb7+", "b1b7");
        same_move(chess, krk, "Kg2", "h1g2");
        same_move(chess, "k7/1R6/8/8/8/8/8/7K b", "Kxb7", "a8b7");
        same_move(chess, "k7/1R6/8/8/8/8/8/7K b", "Kb7", "a8b7");
        refused(chess, krk, "b1b9", "no move b1b9");
        refused(chess, krk, "e7e8q", "no move e7e8q");
        refused(chess, krk, "Qb7", "no move Qb7");
        CHECK(loopy_game_move_parse(chess, krk, "b1b7", &to, NULL) == LOOPY_OK);
        loopy_game_move_label(chess, krk, to, &number, label, sizeof label);
        CHECK(number == 0 && strcmp(label, "b1b7") == 0);
    }
    loopy_game_close(ttt);
    loopy_game_close(c4);
    loopy_game_close(chess);
    check_case_end();
}

static void same_drawing(const loopy_game *game, const char *from,
                         unsigned flags, const char *want)
{
    char out[1024];
    size_t len = loopy_game_draw(game, from, flags, out, sizeof out);

    CHECK_MSG(len == strlen(want) && strcmp(out, want) == 0,
              "%s drew:\n%s\nnot:\n%s", from, out, want);
}

static void test_drawings(void)
{
    loopy_game *ttt = open_game("tictactoe");
    loopy_game *c4 = open_game("connect4:4x4");
    loopy_game *chess = open_game("chess:KRK");
    loopy_game *subtract = open_game("subtract");
    char out[64];

    if (ttt != NULL) {
        same_drawing(ttt, "x.o/.x./..o", 0,
                     "3 x . o\n2 . x .\n1 . . o\n  a b c\n");
        same_drawing(ttt, "x.o/.x./..o", LOOPY_DRAW_UNICODE,
                     "3 x \xc2\xb7 o\n2 \xc2\xb7 x \xc2\xb7\n"
                     "1 \xc2\xb7 \xc2\xb7 o\n  a b c\n");
        CHECK(loopy_game_draw(ttt, "not a board", 0, out, sizeof out) == 0 &&
              out[0] == '\0');
    }
    if (c4 != NULL)
        same_drawing(c4, "..../..../.o../.xx.", 0,
                     ". . . .\n. . . .\n. o . .\n. x x .\n1 2 3 4\n");
    if (chess != NULL) {
        same_drawing(chess, "k7/8/8/8/8/8/8/1R5K w", 0,
                     "8 k . . . . . . .\n7 . . . . . . . .\n"
                     "6 . . . . . . . .\n5 . . . . . . . .\n"
                     "4 . . . . . . . .\n3 . . . . . . . .\n"
                     "2 . . . . . . . .\n1 . R . . . . . K\n"
                     "  a b c d e f g h\n");
        loopy_game_draw(chess, "k7/8/8/8/8/8/8/1R5K w", LOOPY_DRAW_UNICODE,
                        out, sizeof out);
        CHECK(strncmp(out, "8 \xe2\x99\x9a \xc2\xb7", 7) == 0);
    }
    /* A game that draws nothing; a buffer cut short stays a string. */
    if (subtract != NULL)
        CHECK(loopy_game_draw(subtract, "7", 0, out, sizeof out) == 0 &&
              out[0] == '\0');
    if (ttt != NULL)
        CHECK(loopy_game_draw(ttt, "x.o/.x./..o", 0, out, 5) == 4 &&
              strcmp(out, "3 x ") == 0);
    loopy_game_close(ttt);
    loopy_game_close(c4);
    loopy_game_close(chess);
    loopy_game_close(subtract);
    check_case_end();
}

static void material(const char *fen, const char *want)
{
    char params[16];
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_params_of("chess", fen, params, sizeof params,
                                   &diag) == LOOPY_OK &&
                  strcmp(params, want) == 0,
              "%s: %s, not %s (%s)", fen, params, want, diag.message);
}

static void no_material(const char *name, const char *fen, loopy_status want,
                        const char *why)
{
    char params[16];
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    CHECK_MSG(loopy_game_params_of(name, fen, params, sizeof params, &diag) ==
                      want && strstr(diag.message, why) != NULL,
              "%s: %s", fen, diag.message);
}

static void test_params_of(void)
{
    loopy_game *game;

    material("8/8/8/8/8/2k5/1R6/K7 w", "KRK");
    material("8/8/8/8/8/2k5/1R6/K7 b - - 0 1", "KRK");
    material("r7/8/8/8/8/2k5/8/KQ6 w", "KQKR");
    material("n7/8/8/8/8/2k5/1B6/KB6 w", "KBBKN");
    material("8/8/8/8/8/2k5/1r6/K7 w", "KKR");
    material("8/8/8/8/8/2k5/8/K7 w", "KK");
    material("8/8/8/8/8/2k5/1P6/K7 w", "KPK");
    material("8/8/8/3pP3/8/2k5/1R6/K7 w - d6", "KRPKP");
    no_material("chess", "rr6/8/8/8/8/2k5/1RR5/K7 w", LOOPY_EPARSE,
                "6 pieces");
    no_material("chess", "8/8/8/8/8/8/1R6/K7 w", LOOPY_EPARSE, "black has 0");
    no_material("chess", "8/8/8/8/8/2k5/1X6/K7 w", LOOPY_EPARSE, "found 'X'");
    no_material("subtract", "7", LOOPY_EINVAL, "does not read");
    no_material("checkers", "7", LOOPY_EINVAL, "not a built-in game");
    /* The ending the FEN names opens, and reads the FEN. */
    game = open_game("chess:KQKR");
    if (game != NULL) {
        loopy_position pos;
        CHECK(loopy_game_parse(game, "r7/8/8/8/8/2k5/8/KQ6 w", &pos, NULL) ==
              LOOPY_OK);
    }
    loopy_game_close(game);
    check_case_end();
}

static void test_subtract_heap(void)
{
    loopy_game *game = open_game("subtract:5");
    loopy_position list[64];

    if (game != NULL) {
        CHECK(strcmp(game->params, "5,1,2,3") == 0);
        CHECK(game->start == 5 && moves_of(game, 5, list) == 3);
    }
    loopy_game_close(game);
    check_case_end();
}

int main(void)
{
    check_labels("tictactoe", 6000);
    check_labels("mnk:3,4,3", 5000);
    check_labels("connect4:4x4", 5000);
    check_labels("subtract:10", 100);
    test_refusals();
    test_drawings();
    test_params_of();
    test_subtract_heap();
    return check_finish("test_game_words");
}
