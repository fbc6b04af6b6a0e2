/*
 * chess.c - pawnless chess endings of up to five pieces, kings included:
 * "chess:KQK", "chess:KRK", "chess:KBNK", "chess:KQKR", "chess:KBBKN"
 * (white's pieces, then black's, each led by its king).
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
 * Which indices are positions (legal()): pieces on distinct squares, equal
 * pieces in order, kings not adjacent, the side not to move not in check,
 * and the index its class's.  Double checks that no move could give are
 * positions too: they cost nothing and never reach the others.
 *
 * Unmoves.  The side that just moved takes back a move of one of its
 * pieces to an empty square it reaches (the same patterns backwards),
 * leaving the square empty or, as the retraction of a capture, with a
 * piece of the side to move of any kind whose material is in the game.
 * Only legal positions that are not over are given (a position with a
 * move is never mate nor stalemate, so a dead material is the only other
 * way to be over).
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
    if (victim != UINT32_MAX) {
        /* Slot order is kept when one slot goes. */
        for (uint32_t j = victim; j + 1 < next->count; j++) {
            next->colour[j] = next->colour[j + 1];
            next->kind[j] = next->kind[j + 1];
            next->square[j] = next->square[j + 1];
        }
        next->count--;
        next->material = chess_i_find_material(
            rules, chess_i_key(next->count, next->colour, next->kind));
    }
    return true;
}

bool chess_i_each_move(const chess_rules *rules, const chess_board *board,
                       bool legal_only, chess_visit_fn visit, void *ctx)
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
        uint64_t targets, from_bit;
        bool safe;
        if (board->colour[i] != side)
            continue;
        from_bit = UINT64_C(1) << board->square[i];
        safe = !checked && i != side && (lines & from_bit) == 0;
        targets = chess_i_reach(rules, board, i, occ) & ~own;
        for (; targets != 0; targets &= targets - 1) {
            uint32_t to = chess_i_lowest(targets);
            chess_board next;
            /* A king is never taken (a legal position never has it
             * attacked by the side to move). */
            if (!chess_i_apply(rules, board, i, to, &next))
                continue;
            if (legal_only && !safe &&
                chess_i_attacked(rules, &next, next.square[side], 1 - side,
                                 (occ & ~from_bit) | UINT64_C(1) << to))
                continue;
            if (!visit(ctx, chess_i_encode(rules, &next), i, to))
                return false;
        }
    }
    return true;
}

/* chess_i_moves' list. */
typedef struct move_list {
    loopy_position *items;
    size_t count;
    bool first_only;
} move_list;

static bool append_move(void *ctx, loopy_position to, uint32_t piece,
                        uint32_t square)
{
    move_list *list = ctx;

    (void)piece;
    (void)square;
    list->items[list->count++] = to;
    return !list->first_only;
}

size_t chess_i_moves(const chess_rules *rules, const chess_board *board,
                     loopy_position *list, bool first_only)
{
    move_list moves = {list, 0, first_only};

    chess_i_each_move(rules, board, true, append_move, &moves);
    return moves.count;
}

static loopy_primitive chess_primitive(void *ctx, loopy_position pos);

bool loopy_i_chess_is(const loopy_game *game)
{
    return game != NULL && game->primitive == chess_primitive;
}

static int chess_legal(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;

    if (pos >= rules->size)
        return 0;
    chess_i_decode(rules, pos, &board);
    if (!chess_i_board_legal(rules, &board, NULL, 0))
        return 0;
    /* Only the class's own index is a position. */
    return chess_i_encode(rules, &board) == pos;
}

static loopy_primitive chess_primitive(void *ctx, loopy_position pos)
{
    const chess_rules *rules = ctx;
    chess_board board;
    loopy_position first;

    chess_i_decode(rules, pos, &board);
    if (rules->material[board.material].dead)
        return LOOPY_OVER_TIE;
    if (chess_i_moves(rules, &board, &first, true) > 0)
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
    return loopy_i_distinct_out(list, chess_i_moves(rules, &board, list, false),
                                out, capacity);
}

/* Adds the index of prev to list when prev is a legal position that is
 * not over (its material is alive; it has a move, the one taken back):
 * the class's index, since encode takes a board to it.  Unchecked, any
 * prev: the index, or the index space's size when the kings touch. */
static void add_unmove(const chess_rules *rules, chess_board *prev,
                       bool checked, loopy_position *list, size_t *count)
{
    if (checked) {
        /* Equal pieces in order, as legality asks (encode sorts them in
         * each image itself). */
        chess_i_normalize(prev);
        if (rules->material[prev->material].dead ||
            !chess_i_board_legal(rules, prev, NULL, 0))
            return;
    }
    list[(*count)++] = chess_i_encode(rules, prev);
}

size_t chess_i_unmoves(const chess_rules *rules, const chess_board *board,
                       bool checked, loopy_position *list)
{
    const chess_material *material = &rules->material[board->material];
    uint64_t occ = chess_i_occupied(board);
    uint32_t last = 1 - board->side;
    size_t count = 0;

    for (uint32_t i = 0; i < board->count; i++) {
        uint64_t from;
        if (board->colour[i] != last)
            continue;
        /* Every pattern is its own reverse; the square came from is empty
         * now, and so is the way between. */
        from = chess_i_reach(rules, board, i, occ) & ~occ;
        for (; from != 0; from &= from - 1) {
            uint32_t back = chess_i_lowest(from);
            chess_board prev = *board;
            prev.square[i] = (uint8_t)back;
            prev.side = last;
            if (!material->dead)
                add_unmove(rules, &prev, checked, list, &count);
            /* Or the move took a piece of the side now to move, which
             * reappears where the mover stands. */
            for (uint8_t kind = CHESS_QUEEN; kind <= CHESS_KNIGHT; kind++) {
                uint8_t colour[CHESS_MAX_PIECES], kinds[CHESS_MAX_PIECES];
                uint8_t square[CHESS_MAX_PIECES];
                uint32_t n = board->count;
                uint32_t m = material->uncapture[board->side][kind];
                chess_board taken;
                if (m == CHESS_NONE)
                    continue;
                memcpy(colour, prev.colour, n);
                memcpy(kinds, prev.kind, n);
                memcpy(square, prev.square, n);
                colour[n] = (uint8_t)board->side;
                kinds[n] = kind;
                square[n] = board->square[i];
                chess_i_lay_out(rules, m, last, colour, kinds, square, &taken);
                add_unmove(rules, &taken, checked, list, &count);
            }
        }
    }
    return count;
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
        count = chess_i_unmoves(rules, &board, true, list);
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

/* Tier t: material t's segment. */
static loopy_position chess_tier_start(void *ctx, uint64_t tier)
{
    const chess_rules *rules = ctx;

    return rules->material[tier].offset;
}

/* Material t's moves stay in it, or capture a piece: the materials with
 * one piece fewer, whose uncapture gives t. */
static size_t chess_tier_children(void *ctx, uint64_t tier, uint64_t *out,
                                  size_t capacity)
{
    const chess_rules *rules = ctx;
    size_t n = 0;

    if (n < capacity)
        out[n++] = tier;
    for (uint32_t m = 0; m < rules->material_count; m++) {
        bool below = false;
        for (int c = 0; c < 2; c++)
            for (int k = 0; k < 5; k++)
                below |= rules->material[m].uncapture[c][k] == tier;
        if (below && m != tier && n < capacity)
            out[n++] = m;
    }
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
                             "such as KQK: pieces K, Q, R, B, N)");
            else
                loopy_i_diag(diag, 1, i + 1,
                             "unexpected '%c' (a material such as KQK: "
                             "pieces K, Q, R, B, N)",
                             c > ' ' && c <= '~' ? c : '?');
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

    /* The start: white king a1, black king h8, white's other pieces on c1,
     * d1 and e1, black's on h6, h5 and h4, white to move: no piece attacks
     * the black king, and the white king can step to a2. */
    {
        static const uint8_t extra_square[2][3] = {{2, 3, 4}, {47, 39, 31}};
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
    game->draw = chess_i_draw;
    return LOOPY_OK;
}

const loopy_game_def loopy_i_game_chess = {
    .version = LOOPY_GAME_VERSION,
    .name = "chess",
    .summary = "pawnless chess endings of up to 5 pieces, with their "
               "sub-endings: depth to mate",
    .params_help = "the material: white's pieces, then black's, each led by "
                   "its king, pieces Q, R, B, N (default KQK; KRK, KBNK, "
                   "KBBK, KQKR, KBBKN, ...; at most 5 pieces)",
    .notation_help = "FEN: the board from rank 8 down and the side to move, "
                     "8/8/8/4k3/8/8/8/KQ6 w (a full FEN is read too; no "
                     "castling rights); moves in SAN (Qb7+, Kxe2).  probe "
                     "and play keep the board as given; a solve's summary "
                     "and stats show the class's representative (the white "
                     "king in a1-d1-d4)",
    .create = chess_create,
    .params_of = chess_i_params_of,
};
