/*
 * chess_fen.c - the notation of the chess game: Forsyth-Edwards Notation,
 * the board from rank 8 down to rank 1, each rank from file a to h, white
 * pieces in capitals (K, Q, R, B, N, P), black ones in small letters, a
 * digit for a run of empty squares, ranks separated by '/'; then a space
 * and the side to move, 'w' or 'b': "8/8/8/4k3/8/8/8/KQ6 w"; a position
 * with an en passant right goes on with its castling field and its en
 * passant square: "8/8/8/k2Pp3/8/8/8/4K3 w - e6".  parse also reads a
 * full FEN of up to six fields: the castling rights must be '-' (no
 * castling), an en passant square is kept when a pawn can take there
 * (else the position is the one without it, which has the same moves),
 * and the move clocks, which must be numbers, are ignored (no fifty-move
 * rule).
 */
#include "chess.h"

#include <stdio.h>
#include <string.h>

static const char letter[2][7] = {"KQRBNP", "kqrbnp"};

size_t chess_i_format_board(const chess_board *board, char *out,
                            size_t capacity)
{
    char cell[64], text[96];
    size_t len = 0;

    memset(cell, 0, sizeof cell);
    for (uint32_t i = 0; i < board->count; i++)
        cell[board->square[i]] = letter[board->colour[i]][board->kind[i]];
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = cell[rank * 8 + file];
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty > 0)
                text[len++] = (char)('0' + empty);
            empty = 0;
            text[len++] = c;
        }
        if (empty > 0)
            text[len++] = (char)('0' + empty);
        if (rank > 0)
            text[len++] = '/';
    }
    text[len++] = ' ';
    text[len++] = board->side == CHESS_WHITE ? 'w' : 'b';
    if (board->ep != 0) {
        text[len++] = ' ';
        text[len++] = '-';
        text[len++] = ' ';
        text[len++] = (char)('a' + board->ep - 1);
        text[len++] = board->side == CHESS_WHITE ? '6' : '3';
    }
    text[len] = '\0';
    return loopy_i_text_out(text, len, out, capacity);
}

size_t chess_i_format(void *ctx, loopy_position pos, char *out,
                      size_t capacity)
{
    chess_board board;

    chess_i_decode(ctx, pos, &board);
    return chess_i_format_board(&board, out, capacity);
}

/* The names of the game's materials, "KQK, KK", to text (size bytes),
 * as many as fit, then ", ..." when some do not. */
static void list_materials(const chess_rules *rules, char *text, size_t size)
{
    size_t len = 0;

    text[0] = '\0';
    for (uint32_t m = 0; m < rules->material_count; m++) {
        const char *name = rules->material[m].name;
        /* Room for this name and for ", ..." after it. */
        if (len + strlen(name) + 2 + 5 >= size) {
            snprintf(text + len, size - len, ", ...");
            return;
        }
        len += (size_t)snprintf(text + len, size - len, "%s%s",
                                m > 0 ? ", " : "", name);
    }
}

/* Whether text[*at ..] is a number of at most 6 digits (moving past it). */
static bool clock_field(const char *text, size_t *at)
{
    size_t digits = 0;

    while (text[*at] >= '0' && text[*at] <= '9' && digits <= 6) {
        (*at)++;
        digits++;
    }
    return digits > 0 && digits <= 6;
}

int chess_i_parse_board(const chess_rules *rules, const char *text,
                        chess_board *out, char *why, size_t why_capacity)
{
    uint8_t colour[64], kind[64], square[64];
    uint32_t count = 0, kings[2] = {0, 0}, rank = 7, file = 0, side, m;
    uint32_t ep_file = 0;
    size_t at = 0, end;
    chess_board board;

    for (;; at++) {
        char c = text[at];
        const char *found;
        if (c == '/' || c == ' ' || c == '\0') {
            if (file != 8) {
                snprintf(why, why_capacity,
                         "rank %" PRIu32 " has %" PRIu32 " squares, "
                         "expected 8",
                         rank + 1, file);
                return 1;
            }
            if (c != '/')
                break;
            if (rank == 0) {
                snprintf(why, why_capacity, "more than 8 ranks");
                return 1;
            }
            rank--;
            file = 0;
            continue;
        }
        if (c >= '1' && c <= '8') {
            file += (uint32_t)(c - '0');
            if (file > 8) {
                snprintf(why, why_capacity,
                         "rank %" PRIu32 " has more than 8 squares", rank + 1);
                return 1;
            }
            continue;
        }
        found = c != '\0' ? strchr(letter[0], c) : NULL;
        side = CHESS_WHITE;
        if (found == NULL && c != '\0') {
            found = strchr(letter[1], c);
            side = CHESS_BLACK;
        }
        if (found == NULL) {
            snprintf(why, why_capacity,
                     "rank %" PRIu32 ": expected a piece (KQRBNP, kqrbnp) "
                     "or a digit, found '%c'",
                     rank + 1, loopy_i_shown_char(c));
            return 1;
        }
        if (file == 8) {
            snprintf(why, why_capacity,
                     "rank %" PRIu32 " has more than 8 squares", rank + 1);
            return 1;
        }
        colour[count] = (uint8_t)side;
        kind[count] = (uint8_t)(found - letter[side]);
        square[count++] = (uint8_t)(rank * 8 + file);
        if (kind[count - 1] == CHESS_KING)
            kings[side]++;
        file++;
    }
    if (rank != 0) {
        snprintf(why, why_capacity, "%" PRIu32 " ranks, expected 8", 8 - rank);
        return 1;
    }
    if (text[at] != ' ' || (text[at + 1] != 'w' && text[at + 1] != 'b') ||
        (text[at + 2] != ' ' && text[at + 2] != '\0')) {
        snprintf(why, why_capacity,
                 "expected the side to move after the board: ' w' or ' b'");
        return 1;
    }
    side = text[at + 1] == 'w' ? CHESS_WHITE : CHESS_BLACK;
    at += 2;
    /* The rest of a full FEN: castling rights '-', an en passant square
     * or '-', and the two move clocks (ignored: no fifty-move rule), each
     * after one space; blanks at the end are allowed. */
    end = strlen(text);
    while (end > at && text[end - 1] == ' ')
        end--;
    if (at < end) {
        if (text[at + 1] != '-' || (at + 2 < end && text[at + 2] != ' ')) {
            snprintf(why, why_capacity,
                     "castling rights must be '-' (this game has no "
                     "castling)");
            return 1;
        }
        at += 2;
    }
    if (at < end) {
        char f = text[at + 1], r = at + 2 < end ? text[at + 2] : ' ';
        if (f == '-' && (at + 2 >= end || text[at + 2] == ' ')) {
            at += 2;
        } else if (f >= 'a' && f <= 'h' &&
                   r == (side == CHESS_WHITE ? '6' : '3') &&
                   (at + 3 >= end || text[at + 3] == ' ')) {
            ep_file = (uint32_t)(f - 'a') + 1;
            at += 3;
        } else {
            snprintf(why, why_capacity,
                     "the en passant square must be '-' or a square of "
                     "rank %c (%s to move)",
                     side == CHESS_WHITE ? '6' : '3',
                     side == CHESS_WHITE ? "white" : "black");
            return 1;
        }
    }
    for (int clock = 0; clock < 2 && at < end; clock++) {
        at++;
        if (!clock_field(text, &at) || (at < end && text[at] != ' ')) {
            snprintf(why, why_capacity, "expected the %s, a number",
                     clock == 0 ? "halfmove clock" : "move number");
            return 1;
        }
    }
    if (at < end) {
        snprintf(why, why_capacity,
                 "unexpected text after the position (a FEN has at most 6 "
                 "fields)");
        return 1;
    }
    for (int c = 0; c < 2; c++)
        if (kings[c] != 1) {
            snprintf(why, why_capacity, "%s has %" PRIu32 " kings, expected 1",
                     c == 0 ? "white" : "black", kings[c]);
            return 1;
        }
    if (count > CHESS_MAX_PIECES) {
        snprintf(why, why_capacity,
                 "%" PRIu32 " pieces: endings of at most %d pieces (kings "
                 "included) are built in so far",
                 count, CHESS_MAX_PIECES);
        return 1;
    }
    m = chess_i_find_material(rules, chess_i_key(count, colour, kind));
    if (m == UINT32_MAX) {
        char names[64], material[16];
        if (chess_i_params_of(text, material, sizeof material, names,
                              sizeof names) != 0)
            snprintf(material, sizeof material, "of the board");
        list_materials(rules, names, sizeof names);
        snprintf(why, why_capacity,
                 "the material %s is not an ending of chess:%s (its endings: "
                 "%s; 'chess' alone opens the first FEN's)",
                 material, rules->params, names);
        return 1;
    }
    chess_i_lay_out(rules, m, side, colour, kind, square, &board);
    chess_i_normalize(&board);
    board.ep = 0;
    if (!chess_i_board_legal(rules, &board, why, why_capacity))
        return 1;
    if (ep_file != 0) {
        /* The right needs the pawn that has just made its double step,
         * and a move before that; it counts only when a pawn can use it
         * (FEN writes the square after any double step). */
        uint32_t pawn = chess_i_ep_pawn_square(1 - side, ep_file - 1);
        uint32_t behind = side == CHESS_WHITE ? pawn + 8 : pawn - 8;
        uint32_t origin = side == CHESS_WHITE ? pawn + 16 : pawn - 16;
        bool found = false;
        for (uint32_t i = 2; i < board.count; i++)
            found |= board.square[i] == pawn && board.kind[i] == CHESS_PAWN &&
                     board.colour[i] != side;
        for (uint32_t i = 0; i < board.count; i++)
            found &= board.square[i] != behind && board.square[i] != origin;
        if (!found) {
            snprintf(why, why_capacity,
                     "en passant square %c%c: no %s pawn has just come "
                     "two squares past it",
                     (char)('a' + ep_file - 1),
                     side == CHESS_WHITE ? '6' : '3',
                     side == CHESS_WHITE ? "black" : "white");
            return 1;
        }
        board.ep = (uint8_t)ep_file;
        if (!chess_i_ep_capturable(rules, &board, ep_file - 1))
            board.ep = 0;
        else if (!chess_i_board_legal(rules, &board, why, why_capacity)) {
            snprintf(why, why_capacity,
                     "en passant square %c%c: %s was in check before the "
                     "double step",
                     (char)('a' + ep_file - 1),
                     side == CHESS_WHITE ? '6' : '3',
                     side == CHESS_WHITE ? "white" : "black");
            return 1;
        }
    }
    *out = board;
    return 0;
}

int chess_i_parse(void *ctx, const char *text, loopy_position *pos, char *why,
                  size_t why_capacity)
{
    chess_board board;

    if (chess_i_parse_board(ctx, text, &board, why, why_capacity) != 0)
        return 1;
    *pos = chess_i_encode(ctx, &board);
    return 0;
}

size_t chess_i_draw(void *ctx, const char *from, unsigned flags, char *out,
                    size_t capacity)
{
    /* U+2654.. white king, queen, rook, bishop, knight; U+265A.. black. */
    static const char *const unicode[2][6] = {
        {"\xe2\x99\x94", "\xe2\x99\x95", "\xe2\x99\x96", "\xe2\x99\x97", "\xe2\x99\x98", "\xe2\x99\x99"},
        {"\xe2\x99\x9a", "\xe2\x99\x9b", "\xe2\x99\x9c", "\xe2\x99\x9d", "\xe2\x99\x9e", "\xe2\x99\x9f"}};
    const bool fancy = (flags & LOOPY_DRAW_UNICODE) != 0;
    chess_board board;
    char text[512], why[8];
    int piece_at[64];
    size_t len = 0;

    if (from == NULL ||
        chess_i_parse_board(ctx, from, &board, why, sizeof why) != 0)
        return LOOPY_GAME_ERROR;
    for (int i = 0; i < 64; i++)
        piece_at[i] = -1;
    for (uint32_t i = 0; i < board.count; i++)
        piece_at[board.square[i]] = (int)i;
    for (int rank = 7; rank >= 0; rank--) {
        len += (size_t)snprintf(text + len, sizeof text - len, "%d", rank + 1);
        for (int file = 0; file < 8; file++) {
            int i = piece_at[rank * 8 + file];
            char ascii[2] = {0, 0};
            if (i >= 0)
                ascii[0] = letter[board.colour[i]][board.kind[i]];
            len += (size_t)snprintf(
                text + len, sizeof text - len, " %s",
                i >= 0 ? (fancy ? unicode[board.colour[i]][board.kind[i]]
                                : ascii)
                       : (fancy ? "\xc2\xb7" : "."));
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "\n");
    }
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "  a b c d e f g h\n");
    return loopy_i_text_out(text, len, out, capacity);
}

int chess_i_params_of(const char *position, char *params, size_t capacity,
                      char *why, size_t why_capacity)
{
    static const char order[] = "QRBNP";
    uint32_t count[2][6] = {{0}};
    uint32_t pieces = 0;
    char text[16];
    size_t len = 0;

    for (const char *p = position; *p != '\0' && *p != ' '; p++) {
        const char *found;
        if ((*p >= '1' && *p <= '8') || *p == '/')
            continue;
        if ((found = strchr(letter[0], *p)) != NULL && *p != '\0')
            count[CHESS_WHITE][found - letter[0]]++;
        else if ((found = strchr(letter[1], *p)) != NULL && *p != '\0')
            count[CHESS_BLACK][found - letter[1]]++;
        else {
            snprintf(why, why_capacity,
                     "expected a piece (KQRBNP, kqrbnp), a digit or '/', found "
                     "'%c'",
                     loopy_i_shown_char(*p));
            return 1;
        }
        pieces++;
    }
    for (int side = 0; side < 2; side++)
        if (count[side][CHESS_KING] != 1) {
            snprintf(why, why_capacity, "%s has %" PRIu32 " kings, expected 1",
                     side == 0 ? "white" : "black", count[side][CHESS_KING]);
            return 1;
        }
    if (pieces > CHESS_MAX_PIECES) {
        snprintf(why, why_capacity,
                 "%" PRIu32 " pieces: endings of at most %d pieces (kings "
                 "included) are built in so far",
                 pieces, CHESS_MAX_PIECES);
        return 1;
    }
    /* White's pieces, then black's, each led by its king, in Q R B N P
     * order: "KRK", "KQKR", "KRPKR". */
    for (int side = 0; side < 2; side++) {
        text[len++] = 'K';
        for (int k = 0; k < 5; k++)
            for (uint32_t n = 0; n < count[side][k + 1]; n++)
                text[len++] = order[k];
    }
    text[len] = '\0';
    if (len + 1 > capacity) {
        snprintf(why, why_capacity, "no room for the material");
        return 1;
    }
    memcpy(params, text, len + 1);
    return 0;
}
