/*
 * chess.c - pawnless chess endings of up to four pieces, kings included:
 * "chess:KQK", "chess:KRK", "chess:KBNK", "chess:KQKR" (white's pieces,
 * then black's, each led by its king).
 *
 * The rules.  Standard chess on the 8x8 board with kings, queens, rooks,
 * bishops and knights, and either side to move.  Only legal moves: a move
 * never leaves the mover's own king attacked (so kings never stand next to
 * each other).  A capture removes the piece taken; kings are never taken.
 * Checkmate (no legal move, king attacked): the side to move has lost.
 * Stalemate (no legal move, king not attacked): the game is over, nobody
 * won (a tie).  A material that cannot mate, K v K and a king and one
 * bishop or knight against the bare king, is over too: a dead draw, a tie.
 * No pawns (so no promotion nor en passant), no castling, no fifty-move
 * rule and no repetition rule: a position repeated forever is a draw.
 *
 * The index.  A capture leads to a smaller material, which is part of the
 * same game: the index space holds a segment for the game's material and
 * one for each smaller material that captures reach (KQKR: KQKR, KQK,
 * KKR, KK), each at its own offset, largest first.  A material's pieces
 * have slots: the white king, the black king, then white's other pieces,
 * then black's, each side's in the order Q, R, B, N.  In a segment of n
 * pieces the index is offset + (side << 6n | square[n-1] ... square[0]),
 * 6 bits a square (a1 = 0, b1 = 1, ..., h8 = 63), side 0 for white to
 * move: 2 * 64^n indices (KQK 524,288; four pieces 33,554,432).  Two
 * equal pieces (KBBK) are one position in either order: only the order
 * with the lower square first is legal.
 *
 * Which indices are positions (legal()): pieces on distinct squares, equal
 * pieces in order, kings not adjacent, and the side not to move not in
 * check.  Double checks that no move could give are positions too: they
 * cost nothing and never reach the others.
 *
 * Symmetry.  Without pawns the board's 8 symmetries (mirrors of files and
 * ranks, and the reflection in the a1-h8 diagonal, and their products)
 * keep every rule; the representative of a position is the least index of
 * its 8 images, the whole position mapped.
 *
 * Unmoves.  The side that just moved takes back a move of one of its
 * pieces to an empty square it reaches (the same patterns backwards),
 * leaving the square empty or, as the retraction of a capture, with a
 * piece of the side to move of any kind whose material is in the game.
 * Only legal positions that are not over are given (a position with a
 * move is never mate nor stalemate, so a dead material is the only other
 * way to be over).
 *
 * Notation: FEN (chess_fen.c).
 */
#include "chess.h"

#include <stdio.h>
#include <string.h>

/* The legal moves of the side to move, as indices, to list (room for
 * CHESS_MAX_MOVES); with first_only, at most one.  Returns their count. */
static size_t generate(const chess_rules *rules, const chess_board *board,
                       loopy_position *list, bool first_only)
{
    uint64_t occ = chess_i_occupied(board), own = 0;
    uint32_t side = board->side;
    size_t count = 0;

    for (uint32_t i = 0; i < board->count; i++)
        if (board->colour[i] == side)
            own |= UINT64_C(1) << board->square[i];
    for (uint32_t i = 0; i < board->count; i++) {
        uint64_t targets;
        if (board->colour[i] != side)
            continue;
        targets = chess_i_reach(rules, board, i, occ) & ~own;
        for (; targets != 0; targets &= targets - 1) {
            uint32_t to = chess_i_lowest(targets);
            chess_board next = *board;
            uint32_t victim = UINT32_MAX;
            for (uint32_t j = 0; j < board->count; j++)
                if (board->square[j] == to)
                    victim = j;
            /* The kings' slots are 0 and 1: a king is never taken (a
             * legal position never has it attacked by the side to move). */
            if (victim < 2)
                continue;
            next.square[i] = (uint8_t)to;
            if (victim != UINT32_MAX) {
                /* Slot order is kept when one slot goes. */
                for (uint32_t j = victim; j + 1 < next.count; j++) {
                    next.colour[j] = next.colour[j + 1];
                    next.kind[j] = next.kind[j + 1];
                    next.square[j] = next.square[j + 1];
                }
                next.count--;
                next.material = chess_i_find_material(
                    rules, chess_i_key(next.count, next.colour, next.kind));
            }
            if (chess_i_attacked(rules, &next, next.square[side], 1 - side,
                                 chess_i_occupied(&next)))
                continue;
            next.side = 1 - side;
            list[count++] = chess_i_encode(rules, &next);
            if (first_only)
                return count;
        }
    }
    return count;
}

static int chess_legal(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;

    if (pos >= rules->size)
        return 0;
    chess_i_decode(rules, pos, &board);
    return chess_i_board_legal(rules, &board, NULL, 0);
}

static loopy_primitive chess_primitive(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;
    loopy_position first;

    chess_i_decode(rules, pos, &board);
    if (rules->material[board.material].dead)
        return LOOPY_OVER_TIE;
    if (generate(rules, &board, &first, true) > 0)
        return LOOPY_PLAYING;
    return chess_i_attacked(rules, &board, board.square[board.side],
                            1 - board.side, chess_i_occupied(&board))
               ? LOOPY_OVER_LOSE
               : LOOPY_OVER_TIE;
}

static size_t chess_moves(void *ctx, loopy_position pos, loopy_position *out,
                          size_t capacity)
{
    const chess_rules *rules = ctx;
    loopy_position list[CHESS_MAX_MOVES];
    chess_board board;

    chess_i_decode(rules, pos, &board);
    return loopy_i_distinct_out(list, generate(rules, &board, list, false),
                                out, capacity);
}

/* Adds the index of prev to list when prev is a legal position that is
 * not over (its material is alive; it has a move, the one taken back). */
static void add_unmove(const chess_rules *rules, chess_board *prev,
                       loopy_position *list, size_t *count)
{
    if (rules->material[prev->material].dead)
        return;
    chess_i_normalize(prev);
    if (!chess_i_board_legal(rules, prev, NULL, 0))
        return;
    list[(*count)++] = chess_i_encode(rules, prev);
}

static size_t chess_unmoves(void *ctx, loopy_position pos, loopy_position *out,
                            size_t capacity)
{
    const chess_rules *rules = ctx;
    loopy_position list[CHESS_MAX_UNMOVES];
    const chess_material *material;
    chess_board board;
    uint64_t occ;
    uint32_t last;
    size_t count = 0;

    chess_i_decode(rules, pos, &board);
    if (!chess_i_board_legal(rules, &board, NULL, 0))
        return loopy_i_distinct_out(list, 0, out, capacity);
    material = &rules->material[board.material];
    occ = chess_i_occupied(&board);
    last = 1 - board.side;
    for (uint32_t i = 0; i < board.count; i++) {
        uint64_t from;
        if (board.colour[i] != last)
            continue;
        /* Every pattern is its own reverse; the square came from is empty
         * now, and so is the way between. */
        from = chess_i_reach(rules, &board, i, occ) & ~occ;
        for (; from != 0; from &= from - 1) {
            uint32_t back = chess_i_lowest(from);
            chess_board prev = board;
            prev.square[i] = (uint8_t)back;
            prev.side = last;
            if (!material->dead)
                add_unmove(rules, &prev, list, &count);
            /* Or the move took a piece of the side now to move, which
             * reappears where the mover stands. */
            for (uint8_t kind = CHESS_QUEEN; kind <= CHESS_KNIGHT; kind++) {
                uint8_t colour[CHESS_MAX_PIECES], kinds[CHESS_MAX_PIECES];
                uint8_t square[CHESS_MAX_PIECES];
                uint32_t n = board.count, m = material->uncapture[board.side][kind];
                chess_board taken;
                if (m == CHESS_NONE)
                    continue;
                memcpy(colour, prev.colour, n);
                memcpy(kinds, prev.kind, n);
                memcpy(square, prev.square, n);
                colour[n] = (uint8_t)board.side;
                kinds[n] = kind;
                square[n] = board.square[i];
                chess_i_lay_out(rules, m, last, colour, kinds, square, &taken);
                add_unmove(rules, &taken, list, &count);
            }
        }
    }
    return loopy_i_distinct_out(list, count, out, capacity);
}

static loopy_position chess_canonical(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;

    chess_i_decode(rules, pos, &board);
    return chess_i_least_image(rules, &board);
}

static void chess_release(void *ctx)
{
    loopy_i_free(ctx);
}

/* ---- Making a game ---- */

/* Reads one side's pieces after its king at params[*at]: the letters
 * Q, R, B, N, put in that order into out. */
static void read_side(const char *params, size_t *at, char *out)
{
    static const char order[] = "QRBN";
    size_t len = 0;

    for (int k = 0; k < 4; k++)
        for (size_t j = *at; params[j] == 'Q' || params[j] == 'R' ||
                             params[j] == 'B' || params[j] == 'N';
             j++)
            if (params[j] == order[k])
                out[len++] = order[k];
    out[len] = '\0';
    *at += len;
}

static loopy_status chess_create(const char *params, loopy_game *game,
                                 loopy_diag *diag)
{
    char white[CHESS_MAX_PIECES + 1], black[CHESS_MAX_PIECES + 1];
    size_t at = 0, pieces = 0;
    chess_rules *rules;
    chess_board start;

    if (params == NULL || params[0] == '\0')
        params = "KQK";
    for (size_t i = 0; params[i] != '\0'; i++)
        pieces++;
    if (pieces > CHESS_MAX_PIECES) {
        loopy_i_diag(diag, 1, CHESS_MAX_PIECES + 1,
                     "%zu pieces: endings of at most %d pieces (kings "
                     "included) are built in so far",
                     pieces, CHESS_MAX_PIECES);
        return LOOPY_EINVAL;
    }
    for (int side = 0; side < 2; side++) {
        if (params[at] == 'P') {
            loopy_i_diag(diag, 1, at + 1,
                         "'P': pawnless endings only (pieces K, Q, R, B, N)");
            return LOOPY_EINVAL;
        }
        if (params[at] != 'K') {
            loopy_i_diag(diag, 1, at + 1,
                         "expected 'K', %s king (a material such as KQK or "
                         "KBNK: white's pieces, then black's, each led by "
                         "its king; pieces Q, R, B, N)",
                         side == 0 ? "white's" : "black's");
            return LOOPY_EINVAL;
        }
        at++;
        read_side(params, &at, side == 0 ? white : black);
    }
    if (params[at] != '\0') {
        loopy_i_diag(diag, 1, at + 1,
                     "unexpected '%c' (pieces are K, Q, R, B, N; no pawns)",
                     params[at] > ' ' && params[at] <= '~' ? params[at] : '?');
        return LOOPY_EINVAL;
    }

    rules = loopy_i_malloc(1, sizeof *rules);
    if (rules == NULL)
        return LOOPY_ENOMEM;
    memset(rules, 0, sizeof *rules);
    chess_i_rules_init(rules, white, black);

    /* The start: white king a1, black king h8, white's other pieces on c1
     * and d1, black's on h6 and h5, white to move: no piece attacks the
     * black king, and the white king can step to a2. */
    {
        static const uint8_t extra_square[2][2] = {{2, 3}, {47, 39}};
        uint32_t used[2] = {0, 0};
        const chess_material *material = &rules->material[0];
        start.material = 0;
        start.count = material->count;
        start.side = CHESS_WHITE;
        for (uint32_t i = 0; i < material->count; i++) {
            start.colour[i] = material->colour[i];
            start.kind[i] = material->kind[i];
            start.square[i] =
                i == 0   ? 0
                : i == 1 ? 63
                         : extra_square[material->colour[i]]
                                       [used[material->colour[i]]++];
        }
    }

    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "chess";
    game->params = rules->params;
    game->ctx = rules;
    game->size = rules->size;
    game->start = chess_i_encode(rules, &start);
    game->primitive = chess_primitive;
    game->moves = chess_moves;
    game->unmoves = chess_unmoves;
    game->legal = chess_legal;
    game->canonical = chess_canonical;
    game->format = chess_i_format;
    game->parse = chess_i_parse;
    game->release = chess_release;
    return LOOPY_OK;
}

const loopy_game_def loopy_i_game_chess = {
    .version = LOOPY_GAME_VERSION,
    .name = "chess",
    .summary = "pawnless chess endings of up to 4 pieces, with their "
               "sub-endings: depth to mate",
    .params_help = "the material: white's pieces, then black's, each led by "
                   "its king, pieces Q, R, B, N (default KQK; KRK, KBNK, "
                   "KBBK, KQKR, ...; at most 4 pieces)",
    .notation_help = "FEN: the board from rank 8 down and the side to move, "
                     "8/8/8/4k3/8/8/8/KQ6 w (a full FEN is read too; no "
                     "castling rights)",
    .create = chess_create,
};
