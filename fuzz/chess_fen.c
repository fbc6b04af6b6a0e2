/*
 * chess_fen.c - fuzz the chess game's notation (lib/games/chess_fen.c,
 * chess_san.c): a FEN with pawns and an en passant square, and a move in
 * SAN or UCI from it.  The input's first byte picks the game (chess:KPKP,
 * which has positions with an en passant right, or chess:KRPKR); the rest,
 * cut at its first NUL, is the FEN, then after a newline the move.
 *
 * Whatever is read must hold together: a position read is legal, written
 * back it reads as the same index (its class's), the material named by
 * params_of is the board's; a move read is one of the position's moves,
 * and every move's name reads back as that move.  The sanitizers watch
 * the parsers for reads past the text.
 */
#include "fuzz.h"
#include "loopy_game.h"

#include <stdlib.h>
#include <string.h>

static loopy_game *open_game(int which)
{
    static loopy_game *games[2];
    static const char *const specs[2] = {"chess:KPKP", "chess:KRPKR"};
    loopy_diag diag;

    if (games[which] == NULL) {
        memset(&diag, 0, sizeof diag);
        FUZZ_REQUIRE(loopy_game_open(specs[which], &games[which], &diag) ==
                         LOOPY_OK,
                     "%s: %s", specs[which], diag.message);
    }
    return games[which];
}

/* name, a move at the board written as text, reads back as the move to
 * want. */
static void reads_back(const loopy_game *game, const char *text,
                       const char *name, loopy_position want)
{
    loopy_position to = 0;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    FUZZ_REQUIRE(loopy_game_move_parse(game, text, name, &to, &diag) ==
                         LOOPY_OK &&
                     to == want,
                 "%s: the move %s does not read back: %s", text, name,
                 diag.message);
}

FUZZ_TARGET(chess_fen)
{
    loopy_position list[256], pos, again, to;
    char *text, *move, written[128], params[16], name[64];
    loopy_game *game;
    loopy_diag diag;
    size_t n;

    if (size < 1)
        return 0;
    game = open_game(data[0] & 1);
    text = malloc(size);
    FUZZ_REQUIRE(text != NULL, "out of memory");
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    move = strchr(text, '\n');
    if (move != NULL)
        *move++ = '\0';
    memset(&diag, 0, sizeof diag);
    (void)loopy_game_params_of("chess", text, params, sizeof params, &diag);
    memset(&diag, 0, sizeof diag);
    if (loopy_game_parse(game, text, &pos, &diag) != LOOPY_OK) {
        free(text);
        return 0;
    }
    FUZZ_REQUIRE(pos < game->size && game->legal(game->ctx, pos),
                 "%s: read as %" PRIu64 ", not a position", text, pos);
    loopy_game_format(game, pos, written, sizeof written);
    memset(&diag, 0, sizeof diag);
    FUZZ_REQUIRE(loopy_game_parse(game, written, &again, &diag) == LOOPY_OK &&
                     again == pos,
                 "%s: written %s, read back %s", text, written, diag.message);
    n = game->moves(game->ctx, pos, list, sizeof list / sizeof list[0]);
    FUZZ_REQUIRE(n <= sizeof list / sizeof list[0], "%s: %zu moves", text, n);
    for (size_t i = 0; i < n; i++) {
        FUZZ_REQUIRE(list[i] < game->size && game->legal(game->ctx, list[i]),
                     "%s: a move to %" PRIu64, text, list[i]);
        loopy_game_move_name(game, text, list[i], name, sizeof name, NULL, 0);
        reads_back(game, text, name, list[i]);
        /* The other moves at the board into the same class: each reads
         * back as a move to it, and the board after it is of it. */
        for (uint32_t k = 1; loopy_game_move_twin(game, text, list[i], k, name,
                                                  sizeof name, NULL, 0,
                                                  written, sizeof written) > 0;
             k++) {
            reads_back(game, text, name, list[i]);
            memset(&diag, 0, sizeof diag);
            FUZZ_REQUIRE(loopy_game_parse(game, written, &again, &diag) ==
                                 LOOPY_OK &&
                             again == list[i],
                         "%s: the twin %s gives %s, not its class", text,
                         name, written);
        }
    }
    if (move != NULL) {
        memset(&diag, 0, sizeof diag);
        if (loopy_game_move_parse(game, text, move, &to, &diag) == LOOPY_OK) {
            size_t k = 0;
            while (k < n && list[k] != to)
                k++;
            FUZZ_REQUIRE(k < n, "%s: %s read as no move of it", text, move);
        }
    }
    (void)loopy_game_draw(game, text, LOOPY_DRAW_UNICODE, written,
                          sizeof written);
    free(text);
    return 0;
}
