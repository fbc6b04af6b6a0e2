/*
 * chess.c - chess endings of up to five pieces, kings included:
 * "chess:KQK", "chess:KRK", "chess:KBNK", "chess:KQKR", "chess:KBBKN",
 * "chess:KPK", "chess:KRPKR", "chess:KPPKP" (white's pieces, then black's,
 * each led by its king, pawns last).
 *
 * The rules.  Standard chess on the 8x8 board with kings, queens, rooks,
 * bishops and knights, and either side to move.  Only legal moves: a move
 * never leaves the mover's own king attacked (so kings never stand next to
 * each other).  A capture removes the piece taken; kings are never taken.
 * Checkmate (no legal move, king attacked): the side to move has lost.
 * Stalemate (no legal move, king not attacked): the game is over, nobody
 * won (a tie).  A material that cannot mate, K v K and a king and one
 * bishop or knight against the bare king, is over too: a dead draw, a tie.
 * Pawns step one square forward to an empty one, two from their own
 * second rank when both are empty, take one square diagonally forward, and
 * become a queen, rook, bishop or knight on the last rank (four moves, each
 * into the material it makes); a pawn that has just made a double step may
 * be taken en passant, on the next move only.  No castling, no fifty-move
 * rule and no repetition rule: a position repeated forever is a draw.
 *
 * The index.  A capture leads to a smaller material, and a promotion to
 * one with a pawn fewer, which are part of the same game: the index space
 * holds a segment for the game's material and one for each material that
 * captures and promotions reach (KQKR: KQKR, KQK, KKR, KK; KPK: KPK, KQK,
 * KRK, KBK, KNK, KK), each at its own offset, largest first.  A material's pieces
 * have slots: the white king, the black king, then white's other pieces,
 * then black's, each side's in the order Q, R, B, N.  Without pawns the
 * board's 8 symmetries (mirrors of files and ranks, the reflection in the
 * a1-h8 diagonal, and their products) keep every rule, and the index holds
 * one position of each class, as tablebases do: the kings come first, as
 * one of the 462 placements of the two kings up to symmetry (the white
 * king in the triangle a1-d1-d4; when it stands on the diagonal, the black
 * king on or below it; the kings apart), then 6 bits for each other piece
 * (a1 = 0, b1 = 1, ..., h8 = 63).  In a segment of n pieces the index is
 * offset + ((side * 462 + pair) << 6(n - 2) | square[n-1] ... square[2]),
 * side 0 for white to move: 2 * 462 * 64^(n - 2) indices (KQK 59,136;
 * four pieces 3,784,704; five 242,221,056).  Two equal pieces (KBBK) are
 * one position in either order: only the order with the lower square
 * first is legal.  When both kings stand on the diagonal, a position and
 * its mirror in the diagonal both have indices: the lesser is the class's.
 * moves() and unmoves() give the classes' indices, and canonical() takes
 * any index to its class's.
 *
 * With pawns only the mirror of the files keeps the rules: the kings are
 * one of 1806 placements (the white king on files a to d), each pawn one
 * of the 48 squares of ranks 2 to 7, each other piece one of 64, the
 * pawns' digits above the pieces' (chess_board.c).  A position stored has
 * no en passant right, as in the published tables; but a double step that
 * the other side can answer by taking en passant leads to the position
 * with that right, which has an index of its own in a segment after its
 * material's (when both sides have pawns): the king pair, the file of the
 * pawn that may be taken, the other pieces.  Its moves are the plain
 * position's and the captures en passant; it comes only from that double
 * step; and the double step leads to the plain position only when no
 * capture en passant is legal (a FEN with an en passant square that no
 * pawn can use reads as the plain position).
 *
 * Which indices are positions (legal()): pieces on distinct squares, equal
 * pieces in order, kings not adjacent, the side not to move not in check,
 * and the index its class's.  Double checks that no move could give are
 * positions too: they cost nothing and never reach the others.
 *
 * Unmoves.  The side that just moved takes back a move of one of its
 * pieces to an empty square it reaches (the same patterns backwards),
 * leaving the square empty or, as the retraction of a capture, with a
 * piece of the side to move of any kind whose material is in the game.
 * A pawn goes back one square (two to its second rank), or diagonally as
 * the retraction of a capture, en passant too; a piece on its last rank
 * may have been a pawn.  Each position found is given with the right to
 * take en passant too where it can have one.  A pawnless class holds its
 * board in 8 orientations, which a material with pawns tells apart: the
 * retractions into one with more pawns start from each.  Only legal
 * positions that are not over are given (a position with a move is never
 * mate nor stalemate, so a dead material is the only other way to be
 * over).
 *
 * Notation: FEN (chess_fen.c), which also names a position's material
 * (params_of: "chess" and a FEN open that ending); moves in SAN, read in
 * UCI too (chess_san.c).
 */
#include "chess.h"

#include <stdio.h>
#include <string.h>

bool chess_i_apply(const chess_rules *rules, const chess_board *board,
                   uint32_t piece, uint32_t to, chess_board *next)
{
    uint32_t victim = UINT32_MAX;

    *next = *board;
    for (uint32_t j = 0; j < board->count; j++)
        if (board->square[j] == to)
            victim = j;
    /* The kings' slots are 0 and 1. */
    if (victim < 2)
        return false;
    next->square[piece] = (uint8_t)to;
    next->side = 1 - board->side;
    next->ep = 0;
    if (victim != UINT32_MAX) {
        next->material = rules->material[board->material]
                             .capture[board->colour[victim]]
                                     [board->kind[victim]];
        /* Slot order is kept when one slot goes. */
        for (uint32_t j = victim; j + 1 < next->count; j++) {
            next->colour[j] = next->colour[j + 1];
            next->kind[j] = next->kind[j + 1];
            next->square[j] = next->square[j + 1];
        }
        next->count--;
    }
    return true;
}

/* The board after the pawn of slot piece (already moved to the last rank
 * by chess_i_apply into *next, its slot then at) becomes a kind: laid out
 * anew in the material it makes.  false when the game has none. */
static bool promote(const chess_rules *rules, chess_board *next,
                    uint32_t square, uint32_t kind)
{
    uint8_t colour[CHESS_MAX_PIECES], kinds[CHESS_MAX_PIECES];
    uint8_t squares[CHESS_MAX_PIECES];

    /* Copies: chess_i_build writes *next as it reads them. */
    memcpy(colour, next->colour, next->count);
    memcpy(kinds, next->kind, next->count);
    memcpy(squares, next->square, next->count);
    for (uint32_t j = 2; j < next->count; j++)
        if (squares[j] == square)
            kinds[j] = (uint8_t)kind;
    return chess_i_build(rules, next->side, next->count, colour, kinds,
                         squares, next);
}

/* The moves of the pawn of slot i (see chess_i_each_move): pushes, a
 * double step (to the position with an en passant right when the other
 * side can use it), captures, each to every kind on the last rank; with
 * exits_only, the captures and the push that promotes alone. */
static bool pawn_moves(const chess_rules *rules, const chess_board *board,
                       uint32_t i, uint64_t occ, bool safe, bool legal_only,
                       bool exits_only, chess_visit_fn visit, void *ctx)
{
    uint32_t side = board->side, from = board->square[i];
    int forward = side == CHESS_WHITE ? 8 : -8;
    uint32_t ahead = (uint32_t)((int)from + forward);
    uint64_t targets = rules->pawn_attack[side][from] & occ;
    uint64_t own = 0;

    for (uint32_t j = 0; j < board->count; j++)
        if (board->colour[j] == side)
            own |= UINT64_C(1) << board->square[j];
    targets &= ~own;
    /* A push leaves the material only when it promotes. */
    if ((occ >> ahead & 1) == 0 &&
        (!exits_only || ahead >> 3 == 0 || ahead >> 3 == 7))
        targets |= UINT64_C(1) << ahead;
    for (; targets != 0; targets &= targets - 1) {
        uint32_t to = loopy_i_lowest_bit(targets), rank = to >> 3;
        bool last = rank == 0 || rank == 7;
        chess_board next;
        if (!chess_i_apply(rules, board, i, to, &next))
            continue;
        if (legal_only && !safe &&
            chess_i_attacked(rules, &next, next.square[side], 1 - side,
                             (occ & ~(UINT64_C(1) << from)) |
                                 UINT64_C(1) << to))
            continue;
        for (uint32_t kind = last ? CHESS_QUEEN : 0;
             kind <= (last ? CHESS_KNIGHT : 0); kind++) {
            chess_board made = next;
            if (last && !promote(rules, &made, to, kind))
                continue;
            if (!visit(ctx, chess_i_encode(rules, &made), i, to, kind))
                return false;
        }
    }
    /* The double step from the pawn's own second rank. */
    if (!exits_only && (from >> 3) == (side == CHESS_WHITE ? 1u : 6u) &&
        (occ >> ahead & 1) == 0 &&
        (occ >> (uint32_t)((int)ahead + forward) & 1) == 0) {
        uint32_t to = (uint32_t)((int)ahead + forward);
        chess_board next;
        /* With the right to take en passant when the other side can. */
        chess_i_play(rules, board, i, to, 0, &next);
        if (legal_only && !safe &&
            chess_i_attacked(rules, &next, next.square[side], 1 - side,
                             (occ & ~(UINT64_C(1) << from)) |
                                 UINT64_C(1) << to))
            return true;
        if (!visit(ctx, chess_i_encode(rules, &next), i, to, 0))
            return false;
    }
    return true;
}

/* The en passant captures of a board with the right (board->ep). */
static bool ep_moves(const chess_rules *rules, const chess_board *board,
                     bool legal_only, chess_visit_fn visit, void *ctx)
{
    uint32_t side = board->side;
    uint32_t pawn = chess_i_ep_pawn_square(1 - side, board->ep - 1u);
    uint32_t target = side == CHESS_WHITE ? pawn + 8 : pawn - 8;

    for (uint32_t i = 2; i < board->count; i++) {
        chess_board next;
        if (board->colour[i] != side || board->kind[i] != CHESS_PAWN ||
            (rules->pawn_attack[side][board->square[i]] >> target & 1) == 0)
            continue;
        chess_i_play(rules, board, i, target, 0, &next);
        if (legal_only &&
            chess_i_attacked(rules, &next, next.square[side], 1 - side,
                             chess_i_occupied(&next)))
            continue;
        if (!visit(ctx, chess_i_encode(rules, &next), i, target, 0))
            return false;
    }
    return true;
}

bool chess_i_play(const chess_rules *rules, const chess_board *board,
                  uint32_t piece, uint32_t to, uint32_t kind, chess_board *next)
{
    uint32_t from = board->square[piece];
    bool pawn = board->kind[piece] == CHESS_PAWN;
    chess_board moved = *board;

    /* En passant: a pawn's move to another file onto an empty square
     * takes the pawn beside it, as if that stood on the square. */
    if (pawn && (from & 7) != (to & 7) &&
        (chess_i_occupied(board) >> to & 1) == 0) {
        uint32_t beside = (from & ~UINT32_C(7)) | (to & 7);
        for (uint32_t j = 2; j < board->count; j++)
            if (board->square[j] == beside)
                moved.square[j] = (uint8_t)to;
    }
    if (!chess_i_apply(rules, &moved, piece, to, next))
        return false;
    if (pawn && kind != 0)
        return promote(rules, next, to, kind);
    if (pawn && (from > to ? from - to : to - from) == 16 &&
        chess_i_ep_capturable(rules, next, to & 7))
        next->ep = (uint8_t)(1 + (to & 7));
    return true;
}

/* chess_i_each_move, and with exits_only its captures and promotions
 * alone. */
static bool each_move(const chess_rules *rules, const chess_board *board,
                      loopy_position turned, bool legal_only,
                      bool exits_only, chess_visit_fn visit, void *ctx)
{
    uint64_t occ = chess_i_occupied(board), own = 0;
    uint32_t side = board->side, king = board->square[side];
    /* Only a king's move, or a move from a line through the king, can
     * leave it attacked, unless it is attacked already. */
    bool checked = legal_only &&
                   chess_i_attacked(rules, board, king, 1 - side, occ);
    uint64_t lines = legal_only ? rules->rook[king] | rules->bishop[king]
                                : 0;
    for (uint32_t i = 0; i < board->count; i++)
        if (board->colour[i] == side)
            own |= UINT64_C(1) << board->square[i];
    for (uint32_t i = 0; i < board->count; i++) {
        chess_step step;
        uint64_t targets, from_bit;
        bool safe;
        if (board->colour[i] != side)
            continue;
        from_bit = UINT64_C(1) << board->square[i];
        safe = !checked && i != side && (lines & from_bit) == 0;
        if (board->kind[i] == CHESS_PAWN) {
            if (!pawn_moves(rules, board, i, occ, safe, legal_only,
                            exits_only, visit, ctx))
                return false;
            continue;
        }
        targets = chess_i_reach(rules, board, i, occ) & ~own &
                  (exits_only ? occ : ~UINT64_C(0));
        /* A quiet move that cannot leave its king attacked, or any when
         * moves are not checked: most indices follow from one encode
         * (chess_i_step). */
        step.image = NULL;
        if ((safe || !legal_only) && !exits_only && (targets & ~occ) != 0)
            chess_i_step_init(rules, board, i, &turned, &step);
        for (; targets != 0; targets &= targets - 1) {
            uint32_t to = loopy_i_lowest_bit(targets);
            chess_board next;
            loopy_position index = (occ >> to & 1) == 0
                                       ? chess_i_step(&step, to)
                                       : UINT64_MAX;
            if (index != UINT64_MAX) {
                if (!visit(ctx, index, i, to, 0))
                    return false;
                continue;
            }
            /* A king is never taken (a legal position never has it
             * attacked by the side to move). */
            if (!chess_i_apply(rules, board, i, to, &next))
                continue;
            if (legal_only && !safe &&
                chess_i_attacked(rules, &next, next.square[side], 1 - side,
                                 (occ & ~from_bit) | UINT64_C(1) << to))
                continue;
            if (!visit(ctx, chess_i_encode(rules, &next), i, to, 0))
                return false;
        }
    }
    return board->ep == 0 || ep_moves(rules, board, legal_only, visit, ctx);
}

bool chess_i_each_move(const chess_rules *rules, const chess_board *board,
                       loopy_position turned, bool legal_only,
                       chess_visit_fn visit, void *ctx)
{
    return each_move(rules, board, turned, legal_only, false, visit, ctx);
}

bool chess_i_each_exit(const chess_rules *rules, const chess_board *board,
                       chess_visit_fn visit, void *ctx)
{
    return each_move(rules, board, UINT64_MAX, false, true, visit, ctx);
}

/* chess_i_moves' list. */
typedef struct move_list {
    loopy_position *items;
    size_t count;
} move_list;

static bool append_move(void *ctx, loopy_position to, uint32_t piece,
                        uint32_t square, uint32_t promote)
{
    move_list *list = ctx;

    (void)piece;
    (void)square;
    (void)promote;
    list->items[list->count++] = to;
    return true;
}

size_t chess_i_moves(const chess_rules *rules, const chess_board *board,
                     loopy_position turned, loopy_position *list)
{
    move_list moves = {list, 0};

    chess_i_each_move(rules, board, turned, true, append_move, &moves);
    return moves.count;
}

/* A look at the legal moves until one reaches an index in [lo, hi) (to;
 * any: whether there was a move at all). */
typedef struct first_inside {
    loopy_position lo, hi, to;
    bool any;
} first_inside;

static bool stop_inside(void *ctx, loopy_position to, uint32_t piece,
                        uint32_t square, uint32_t promote)
{
    first_inside *f = ctx;

    (void)piece;
    (void)square;
    (void)promote;
    f->any = true;
    if (to < f->lo || to >= f->hi)
        return true;
    f->to = to;
    return false;
}

/* A quiet move of board's side to move that is legal without a look at
 * the board after it: out of check, a piece (not a pawn) on no line
 * through its king uncovers nothing, and a move of it to an empty square
 * stays in the material.  Returns the piece's slot, and *to its square,
 * or UINT32_MAX when no piece has one. */
static uint32_t quiet_move(const chess_rules *rules, const chess_board *board,
                           uint32_t *to)
{
    uint32_t side = board->side, king = board->square[side];
    uint64_t occ = chess_i_occupied(board);
    uint64_t lines = rules->rook[king] | rules->bishop[king];

    if (chess_i_attacked(rules, board, king, 1 - side, occ))
        return UINT32_MAX;
    for (uint32_t i = 2; i < board->count; i++) {
        uint64_t targets;
        if (board->colour[i] != side || board->kind[i] == CHESS_PAWN ||
            (lines >> board->square[i] & 1) != 0)
            continue;
        targets = chess_i_reach(rules, board, i, occ) & ~occ;
        if (targets != 0) {
            *to = loopy_i_lowest_bit(targets);
            return i;
        }
    }
    return UINT32_MAX;
}

loopy_position chess_i_first_move(const chess_rules *rules,
                                  const chess_board *board,
                                  loopy_position turned, bool *any)
{
    first_inside f = {rules->material[board->material].offset,
                      chess_i_segment_end(rules, board->material),
                      UINT64_MAX, false};
    uint32_t to, i = quiet_move(rules, board, &to);

    if (i != UINT32_MAX) {
        chess_step step;
        loopy_position index;
        chess_i_step_init(rules, board, i, &turned, &step);
        index = chess_i_step(&step, to);
        if (index == UINT64_MAX) {
            chess_board next;
            chess_i_apply(rules, board, i, to, &next);
            index = chess_i_encode(rules, &next);
        }
        *any = true;
        return index;
    }
    chess_i_each_move(rules, board, turned, true, stop_inside, &f);
    *any = f.any;
    return f.to;
}

bool chess_i_has_move(const chess_rules *rules, const chess_board *board)
{
    /* Any index is inside: the first move stops the look. */
    first_inside f = {0, UINT64_MAX, UINT64_MAX, false};
    uint32_t to;

    if (quiet_move(rules, board, &to) != UINT32_MAX)
        return true;
    chess_i_each_move(rules, board, UINT64_MAX, true, stop_inside, &f);
    return f.any;
}

static loopy_primitive chess_primitive(void *ctx, loopy_position pos);

bool chess_i_is(const loopy_game *game)
{
    return game != NULL && game->primitive == chess_primitive;
}

static int chess_legal(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;

    /* Only the class's own index is a position. */
    return pos < rules->size && chess_i_position(rules, pos, &board);
}

static loopy_primitive chess_primitive(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;

    chess_i_decode(rules, pos, &board);
    if (rules->material[board.material].dead)
        return LOOPY_OVER_TIE;
    if (chess_i_has_move(rules, &board))
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
    return loopy_i_distinct_out(list,
                                chess_i_moves(rules, &board, UINT64_MAX, list),
                                out, capacity);
}

static size_t chess_unmoves(void *ctx, loopy_position pos, loopy_position *out,
                            size_t capacity)
{
    const chess_rules *rules = ctx;
    loopy_position list[CHESS_MAX_UNMOVES];
    chess_board board;
    size_t count = 0;

    chess_i_decode(rules, pos, &board);
    if (chess_i_board_legal(rules, &board, NULL, 0))
        count = chess_i_unmoves(rules, &board, UINT64_MAX, CHESS_RETRO_LEGAL,
                                UINT32_MAX, list);
    return loopy_i_distinct_out(list, count, out, capacity);
}

static loopy_position chess_canonical(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;

    chess_i_decode(rules, pos, &board);
    return chess_i_encode(rules, &board);
}

static void chess_release(void *ctx)
{
    loopy_i_free(ctx);
}

/* ---- Making a game ---- */

/* Reads one side's pieces after its king at params[*at]: the letters
 * Q, R, B, N, P, put in that order into out. */
static void read_side(const char *params, size_t *at, char *out)
{
    static const char order[] = "QRBNP";
    size_t len = 0;

    for (int k = 0; k < 5; k++)
        for (size_t j = *at; params[j] == 'Q' || params[j] == 'R' ||
                             params[j] == 'B' || params[j] == 'N' ||
                             params[j] == 'P';
             j++)
            if (params[j] == order[k])
                out[len++] = order[k];
    out[len] = '\0';
    *at += len;
}

/* Tier t: material t's segments. */
static loopy_position chess_tier_start(void *ctx, uint64_t tier)
{
    const chess_rules *rules = ctx;

    return rules->material[tier].offset;
}

/* Material t's moves stay in it, capture a piece, promote a pawn, or
 * both at once. */
static size_t chess_tier_children(void *ctx, uint64_t tier, uint64_t *out,
                                  size_t capacity)
{
    const chess_rules *rules = ctx;
    uint32_t children[CHESS_MAX_MATERIALS];
    size_t count = chess_i_children(rules, (uint32_t)tier, children), n = 0;

    if (n < capacity)
        out[n++] = tier;
    for (size_t i = 0; i < count && n < capacity; i++)
        out[n++] = children[i];
    return n;
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
    for (size_t i = 0; params[i] != '\0'; i++) {
        char c = params[i];
        if (strchr("KQRBNP", c) == NULL) {
            if (c == ' ')
                loopy_i_diag(diag, 1, i + 1, "unexpected space (a material "
                             "such as KQK: pieces K, Q, R, B, N, P)");
            else
                loopy_i_diag(diag, 1, i + 1,
                             "unexpected '%c' (a material such as KQK: "
                             "pieces K, Q, R, B, N, P)",
                             loopy_i_shown_char(c));
            return LOOPY_EINVAL;
        }
        pieces++;
    }
    if (pieces > CHESS_MAX_PIECES) {
        loopy_i_diag(diag, 1, CHESS_MAX_PIECES + 1,
                     "%zu pieces: endings of at most %d pieces (kings "
                     "included) are built in so far",
                     pieces, CHESS_MAX_PIECES);
        return LOOPY_EINVAL;
    }
    for (int side = 0; side < 2; side++) {
        if (params[at] != 'K') {
            loopy_i_diag(diag, 1, at + 1,
                         "expected 'K', %s king (a material such as KQK or "
                         "KRPKR: white's pieces, then black's, each led by "
                         "its king; pieces Q, R, B, N, P)",
                         side == 0 ? "white's" : "black's");
            return LOOPY_EINVAL;
        }
        at++;
        read_side(params, &at, side == 0 ? white : black);
    }
    if (params[at] != '\0') {
        loopy_i_diag(diag, 1, at + 1,
                     "unexpected '%c' (pieces are K, Q, R, B, N, P; one "
                     "king a side)",
                     loopy_i_shown_char(params[at]));
        return LOOPY_EINVAL;
    }

    rules = loopy_i_malloc(1, sizeof *rules);
    if (rules == NULL)
        return LOOPY_ENOMEM;
    memset(rules, 0, sizeof *rules);
    chess_i_rules_init(rules, white, black);

    /* The start: white king a1, black king h8, white's other pieces on c1,
     * d1 and e1, black's on h6, h5 and h4, white's pawns on f2, g2 and h2,
     * black's on a7, b7 and c7, white to move: no piece attacks the black
     * king, and the white king can step to a2. */
    {
        static const uint8_t extra_square[2][3] = {{2, 3, 4}, {47, 39, 31}};
        static const uint8_t pawn_square[2][3] = {{13, 14, 15}, {48, 49, 50}};
        uint32_t used[2] = {0, 0}, pawns[2] = {0, 0};
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
                : material->kind[i] == CHESS_PAWN
                    ? pawn_square[material->colour[i]]
                                 [pawns[material->colour[i]]++]
                    : extra_square[material->colour[i]]
                                  [used[material->colour[i]]++];
        }
        start.ep = 0;
    }

    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "chess";
    /* A tier per material: its moves stay in it or capture. */
    game->tier_count = rules->material_count;
    game->tier_start = chess_tier_start;
    game->tier_children = chess_tier_children;
    game->params = rules->params;
    game->ctx = rules;
    game->size = rules->size;
    game->start = chess_i_encode(rules, &start);
    game->primitive = chess_primitive;
    game->moves = chess_moves;
    game->unmoves = chess_unmoves;
    game->legal = chess_legal;
    game->canonical = chess_canonical;
    /* moves() and unmoves() already give the classes' indices. */
    game->canonical_moves = chess_moves;
    game->canonical_unmoves = chess_unmoves;
    game->move_format = chess_i_move_format;
    game->value_note = chess_i_value_note;
    game->format = chess_i_format;
    game->parse = chess_i_parse;
    game->release = chess_release;
    game->move_parse = chess_i_move_parse;
    game->move_label = chess_i_move_label;
    game->move_twin = chess_i_move_twin;
    game->draw = chess_i_draw;
    game->solve = chess_i_solve;
    game->sub_table = chess_i_sub_table;
    game->table_value = chess_i_table_value;
    return LOOPY_OK;
}

const loopy_game_def loopy_i_game_chess = {
    .version = LOOPY_GAME_VERSION,
    .name = "chess",
    .summary = "chess endings of up to 5 pieces, with their sub-endings: "
               "depth to mate",
    .params_help = "the material: white's pieces, then black's, each led by "
                   "its king, pieces Q, R, B, N, P (default KQK; KRK, KBNK, "
                   "KQKR, KPK, KRPKR, KPPKP, ...; at most 5 pieces)",
    .notation_help = "FEN: the board from rank 8 down and the side to move, "
                     "8/8/8/4k3/8/8/8/KQ6 w, and after a double step the "
                     "en passant square (8/8/8/k2Pp3/8/8/8/4K3 w - e6; a "
                     "full FEN is read too; no castling rights); moves in "
                     "SAN (Qb7+, Kxe2, exd6, e8=Q+) or UCI (e7e8q).  probe "
                     "and play keep the board as given; a solve's summary "
                     "and stats show the class's representative (the white "
                     "king in a1-d1-d4, or on files a-d with pawns)",
    .create = chess_create,
    .params_of = chess_i_params_of,
};
