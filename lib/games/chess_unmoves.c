/*
 * chess_unmoves.c - the chess game's retractions (chess.c): the positions
 * from which one move reaches a board, pawns' moves, promotions and
 * captures en passant taken back included, each with the right to take
 * en passant where it can have one.
 */
#include "chess.h"

#include <string.h>

/* The retractions found so far, and what is asked. */
typedef struct retro_list {
    const chess_rules *rules;
    chess_retro how;
    /* Only positions of this material (a solver at work on it), or
     * UINT32_MAX for all. */
    uint32_t only;
    loopy_position *items;
    size_t count;
} retro_list;

static void append(retro_list *out, loopy_position index)
{
    /* The bound is CHESS_MAX_UNMOVES; a guard, not a limit met. */
    if (out->count < CHESS_MAX_UNMOVES)
        out->items[out->count++] = index;
}

/* Adds the index of prev to list when prev is a legal position that is
 * not over (its material is alive; it has a move, the one taken back):
 * the class's index, since encode takes a board to it; and, when a pawn
 * of the side not to move in prev stands where a double step would have
 * put it, prev with the right to take it en passant, which has the same
 * moves and more.  Unchecked (CHESS_RETRO_ANY, CHESS_RETRO_EP), any prev:
 * the index, or the index space's size when the kings touch. */
static void add_unmove(retro_list *out, const chess_board *prev)
{
    const chess_rules *rules = out->rules;
    const chess_material *material = &rules->material[prev->material];
    bool legal = out->how == CHESS_RETRO_LEGAL;
    chess_board board;

    if (out->only != UINT32_MAX && prev->material != out->only)
        return;
    if (out->how == CHESS_RETRO_ANY) {
        append(out, chess_i_encode(rules, prev));
        return;
    }
    if (material->dead)
        return;
    /* Equal pieces in order, as legality asks (encode sorts them in each
     * image itself). */
    board = *prev;
    if (legal)
        chess_i_normalize(&board);
    if (!legal || chess_i_board_legal(rules, &board, NULL, 0))
        append(out, chess_i_encode(rules, &board));
    if (board.ep != 0 || material->ep[board.side] == 0)
        return;
    for (uint32_t i = 2; i < board.count; i++) {
        uint32_t sq = board.square[i];
        if (board.kind[i] != CHESS_PAWN || board.colour[i] == board.side ||
            (sq >> 3) != (board.side == CHESS_WHITE ? 4u : 3u))
            continue;
        board.ep = (uint8_t)(1 + (sq & 7));
        if (!legal || chess_i_board_legal(rules, &board, NULL, 0))
            append(out, chess_i_encode(rules, &board));
        board.ep = 0;
    }
}

static void add_uncapture(retro_list *out, const chess_board *prev,
                          uint32_t who, uint32_t kind, uint32_t square)
{
    const chess_rules *rules = out->rules;
    uint8_t colour[CHESS_MAX_PIECES], kinds[CHESS_MAX_PIECES];
    uint8_t squares[CHESS_MAX_PIECES];
    uint32_t n = prev->count;
    uint16_t m = rules->material[prev->material].uncapture[who][kind];
    chess_board taken;

    /* (n < CHESS_MAX_PIECES wherever m is a material: the arrays below
     * take the piece taken back at n.) */
    if (m == CHESS_NONE || n >= CHESS_MAX_PIECES ||
        (out->only != UINT32_MAX && m != out->only) ||
        (kind == CHESS_PAWN && ((square >> 3) == 0 || (square >> 3) == 7)))
        return;
    memcpy(colour, prev->colour, n);
    memcpy(kinds, prev->kind, n);
    memcpy(squares, prev->square, n);
    colour[n] = (uint8_t)who;
    kinds[n] = (uint8_t)kind;
    squares[n] = (uint8_t)square;
    chess_i_lay_out(rules, m, prev->side, colour, kinds, squares, &taken);
    taken.ep = prev->ep;
    add_unmove(out, &taken);
}

/* The retractions of the pawn of slot i, of the side that has just moved:
 * a push, a double step (unless the board would then have an en passant
 * right: a double step to it gives that), a capture of any kind, and a
 * capture en passant. */
static void pawn_unmoves(retro_list *out, const chess_board *board,
                         uint32_t i, uint64_t occ)
{
    const chess_rules *rules = out->rules;
    uint32_t side = board->side, last = 1 - side, at = board->square[i];
    int back = last == CHESS_WHITE ? -8 : 8;
    uint32_t behind = (uint32_t)((int)at + back), rank = at >> 3;
    uint32_t second = last == CHESS_WHITE ? 1 : 6;
    uint32_t fourth = last == CHESS_WHITE ? 3 : 4;
    uint32_t sixth = last == CHESS_WHITE ? 5 : 2;
    uint64_t from;
    chess_board prev = *board;

    prev.side = last;
    prev.ep = 0;
    if (rank != second && (occ >> behind & 1) == 0) {
        prev.square[i] = (uint8_t)behind;
        add_unmove(out, &prev);
        if (rank == fourth &&
            (occ >> (uint32_t)((int)behind + back) & 1) == 0 &&
            !chess_i_ep_capturable(rules, board, at & 7)) {
            prev.square[i] = (uint8_t)((int)behind + back);
            add_unmove(out, &prev);
        }
    }
    /* Captures, from the squares a pawn of the other colour on `at`
     * would take (those are the squares behind on the files beside). */
    from = rules->pawn_attack[side][at] & ~occ;
    if (rank == second)
        from = 0;
    for (; from != 0; from &= from - 1) {
        uint32_t sq = loopy_i_lowest_bit(from);
        prev.square[i] = (uint8_t)sq;
        for (uint32_t kind = CHESS_QUEEN; kind <= CHESS_PAWN; kind++)
            add_uncapture(out, &prev, side, kind, at);
        /* En passant: the pawn taken stood beside sq, having just come
         * two squares from its own second rank past `at`. */
        if (rank == sixth) {
            uint32_t pawn = (uint32_t)((int)at + back);
            uint32_t origin = (uint32_t)((int)at - back);
            if ((occ >> pawn & 1) == 0 && (occ >> origin & 1) == 0) {
                chess_board before = prev;
                before.side = last;
                before.ep = (uint8_t)(1 + (at & 7));
                add_uncapture(out, &before, side, CHESS_PAWN, pawn);
            }
        }
    }
}

/* The retractions of a promotion: the piece of slot i on the last rank
 * was a pawn of its side that came from the square behind (a push) or
 * the squares behind on the files beside (a capture of any piece). */
static void promotion_unmoves(retro_list *out, const chess_board *board,
                              uint32_t i, uint64_t occ)
{
    const chess_rules *rules = out->rules;
    uint32_t side = board->side, last = 1 - side, at = board->square[i];
    uint32_t behind = last == CHESS_WHITE ? at - 8 : at + 8;
    uint8_t kinds[CHESS_MAX_PIECES];
    chess_board prev;
    uint64_t from;

    memcpy(kinds, board->kind, board->count);
    kinds[i] = CHESS_PAWN;
    if (!chess_i_build(rules, last, board->count, board->colour, kinds,
                       board->square, &prev))
        return;
    for (uint32_t j = 2; j < prev.count; j++)
        if (prev.square[j] == at)
            i = j;
    if ((occ >> behind & 1) == 0) {
        prev.square[i] = (uint8_t)behind;
        add_unmove(out, &prev);
    }
    from = rules->pawn_attack[side][at] & ~occ;
    for (; from != 0; from &= from - 1) {
        prev.square[i] = (uint8_t)loopy_i_lowest_bit(from);
        for (uint32_t kind = CHESS_QUEEN; kind <= CHESS_KNIGHT; kind++)
            add_uncapture(out, &prev, side, kind, at);
    }
}

/* The retractions of board's pieces of the side that has just moved (see
 * chess_i_unmoves), to list; with pawns_only, only those from a position
 * with more pawns: a pawn taken, or a piece that was a pawn. */
static void retractions(retro_list *out, const chess_board *board,
                        loopy_position turned, bool pawns_only)
{
    const chess_rules *rules = out->rules;
    const chess_material *material = &rules->material[board->material];
    uint64_t occ = chess_i_occupied(board);
    uint32_t last = 1 - board->side;
    uint32_t promotion_rank = last == CHESS_WHITE ? 7 : 0;
    /* The kinds whose uncapture leads to a material asked for, once. */
    uint32_t kinds = 0;
    bool plain = !material->dead && !pawns_only &&
                 (out->only == UINT32_MAX || out->only == board->material);

    for (uint32_t kind = pawns_only ? CHESS_PAWN : CHESS_QUEEN;
         kind <= CHESS_PAWN; kind++) {
        uint16_t m = material->uncapture[board->side][kind];
        if (m != CHESS_NONE && (out->only == UINT32_MAX || out->only == m))
            kinds |= 1u << kind;
    }
    for (uint32_t i = 0; i < board->count; i++) {
        chess_step step;
        uint64_t from;
        if (board->colour[i] != last)
            continue;
        if (board->kind[i] == CHESS_PAWN) {
            pawn_unmoves(out, board, i, occ);
            continue;
        }
        if (rules->pawns && board->kind[i] != CHESS_KING &&
            (board->square[i] >> 3) == promotion_rank)
            promotion_unmoves(out, board, i, occ);
        if (!plain && kinds == 0)
            continue;
        /* Every pattern is its own reverse; the square came from is empty
         * now, and so is the way between. */
        from = chess_i_reach(rules, board, i, occ) & ~occ;
        /* Unchecked, most indices follow from one encode (chess_i_step). */
        step.image = NULL;
        if (plain && out->how == CHESS_RETRO_ANY)
            chess_i_step_init(rules, board, i, &turned, &step);
        for (; from != 0; from &= from - 1) {
            uint32_t back = loopy_i_lowest_bit(from);
            loopy_position index = chess_i_step(&step, back);
            chess_board prev = *board;
            prev.square[i] = (uint8_t)back;
            prev.side = last;
            if (plain && index != UINT64_MAX)
                append(out, index);
            else if (plain)
                add_unmove(out, &prev);
            /* Or the move took a piece of the side now to move, which
             * reappears where the mover stands. */
            for (uint32_t k = kinds; k != 0; k &= k - 1)
                add_uncapture(out, &prev, board->side, loopy_i_lowest_bit(k),
                              board->square[i]);
        }
    }
}

size_t chess_i_unmoves(const chess_rules *rules, const chess_board *board,
                       loopy_position turned, chess_retro how, uint32_t only,
                       loopy_position *list)
{
    const chess_material *material = &rules->material[board->material];
    uint32_t last = 1 - board->side;
    retro_list out = {rules, how, only, list, 0};

    /* A position with an en passant right comes only from the double
     * step of the pawn that can be taken. */
    if (board->ep != 0) {
        uint32_t pawn = chess_i_ep_pawn_square(last, board->ep - 1u);
        chess_board prev = *board;
        prev.side = last;
        prev.ep = 0;
        for (uint32_t i = 2; i < board->count; i++)
            if (board->square[i] == pawn)
                prev.square[i] = (uint8_t)(board->side == CHESS_WHITE
                                               ? pawn + 16
                                               : pawn - 16);
        add_unmove(&out, &prev);
        return out.count;
    }
    retractions(&out, board, turned, false);
    /* A pawnless class holds the board in all 8 orientations, and a
     * material with pawns tells them apart: its positions that a capture
     * of a pawn or a promotion leads to this class come from any of them.
     * (Only when they are asked for: none comes back to this material.) */
    if (rules->pawns && material->pawns[0] + material->pawns[1] == 0 &&
        how != CHESS_RETRO_ANY &&
        (only == UINT32_MAX ||
         rules->material[only].pawns[0] + rules->material[only].pawns[1] > 0))
        for (uint32_t s = 1; s < 8; s++) {
            chess_board image = *board;
            for (uint32_t i = 0; i < board->count; i++)
                image.square[i] = rules->image[s][board->square[i]];
            retractions(&out, &image, UINT64_MAX, true);
        }
    return out.count;
}
