/*
 * chess_san.c - a move of the chess game in standard algebraic notation,
 * and what a value means in moves (the game's move_format and value_note).
 *
 * SAN (the FIDE Laws of Chess, appendix C): the piece's letter (K, Q, R,
 * B, N; none for a pawn), then, when another piece of the same kind
 * and colour could also go to the square, the file it leaves, else its
 * rank, else both (a pawn that takes: always its file); 'x' for a capture
 * (en passant too); the square; '=' and the piece a pawn becomes on the
 * last rank; '+' for a check, '#' for a mate: "Qb7+", "Kxe2", "Rae1",
 * "N5f3#", "e4", "exd6", "bxa1=N", "e8=Q+".
 *
 * A move is named on the board as the caller wrote it (not on its class's
 * representative, the board the index holds), and the position after it
 * is written the same way round: probe and play keep the board as the
 * user gave it.
 */
#include "chess.h"

#include <stdio.h>
#include <string.h>

static const char piece_letter[] = "KQRBNP";

/* Every legal move of a position: the index it leads to, the piece (its
 * slot) and the square. */
typedef struct san_moves {
    size_t count;
    loopy_position to[CHESS_MAX_MOVES];
    uint8_t piece[CHESS_MAX_MOVES], square[CHESS_MAX_MOVES];
    uint8_t promote[CHESS_MAX_MOVES];
} san_moves;

static bool collect(void *ctx, loopy_position to, uint32_t piece,
                    uint32_t square, uint32_t promote)
{
    san_moves *m = ctx;

    m->to[m->count] = to;
    m->promote[m->count] = (uint8_t)promote;
    m->piece[m->count] = (uint8_t)piece;
    m->square[m->count++] = (uint8_t)square;
    return true;
}

/* Reads the board written as from and its legal moves; false when from
 * is no position. */
static bool read_moves(const chess_rules *rules, const char *from,
                       chess_board *board, san_moves *moves)
{
    char why[8];

    if (from == NULL ||
        chess_i_parse_board(rules, from, board, why, sizeof why) != 0)
        return false;
    moves->count = 0;
    chess_i_each_move(rules, board, UINT64_MAX, true, collect, moves);
    return true;
}

/* Which of moves is the n-th (from 0) that reaches to's class, or
 * moves->count when there are not that many. */
static size_t nth_to(const san_moves *moves, loopy_position to, uint32_t n)
{
    size_t k = 0;

    for (; k < moves->count; k++)
        if (moves->to[k] == to && n-- == 0)
            break;
    return k;
}

/* Move k of moves at board, in SAN, to name; the board after it to after
 * (NULL: not wanted). */
static size_t san_name(const chess_rules *rules, const chess_board *board,
                       const san_moves *moves, size_t k, char *name,
                       size_t name_capacity, char *after,
                       size_t after_capacity)
{
    chess_board next;
    size_t len = 0;
    char text[16];
    uint32_t i, square;
    bool same_file = false, same_rank = false, other = false, check;
    bool pawn, takes;

    i = moves->piece[k];
    square = moves->square[k];
    /* The other pieces of the kind that could go there. */
    for (size_t j = 0; j < moves->count; j++) {
        uint32_t p = moves->piece[j];
        if (p == i || moves->square[j] != square ||
            board->kind[p] != board->kind[i])
            continue;
        other = true;
        same_file |= (board->square[p] & 7) == (board->square[i] & 7);
        same_rank |= (board->square[p] >> 3) == (board->square[i] >> 3);
    }
    pawn = board->kind[i] == CHESS_PAWN;
    takes = pawn && (board->square[i] & 7) != (square & 7);
    for (uint32_t j = 0; j < board->count; j++)
        takes |= board->square[j] == square;
    if (!pawn)
        text[len++] = piece_letter[board->kind[i]];
    if ((other && !pawn && (!same_file || same_rank)) || (pawn && takes))
        text[len++] = (char)('a' + (board->square[i] & 7));
    if (other && !pawn && same_file)
        text[len++] = (char)('1' + (board->square[i] >> 3));
    if (takes)
        text[len++] = 'x';
    text[len++] = (char)('a' + (square & 7));
    text[len++] = (char)('1' + (square >> 3));
    if (moves->promote[k] != 0) {
        text[len++] = '=';
        text[len++] = piece_letter[moves->promote[k]];
    }
    chess_i_play(rules, board, i, square, moves->promote[k], &next);
    check = chess_i_attacked(rules, &next, next.square[next.side],
                             1 - next.side, chess_i_occupied(&next));
    if (check)
        text[len++] = chess_i_has_move(rules, &next) ? '+' : '#';
    text[len] = '\0';
    if (after != NULL)
        chess_i_format_board(&next, after, after_capacity);
    return loopy_i_text_out(text, len, name, name_capacity);
}

size_t chess_i_move_format(void *ctx, const char *from, loopy_position to,
                           char *name, size_t name_capacity, char *after,
                           size_t after_capacity)
{
    const chess_rules *rules = ctx;
    chess_board board;
    san_moves moves;
    size_t k;

    if (to >= rules->size || !read_moves(rules, from, &board, &moves))
        return LOOPY_GAME_ERROR;
    k = nth_to(&moves, to, 0);
    if (k == moves.count)
        return LOOPY_GAME_ERROR;
    return san_name(rules, &board, &moves, k, name, name_capacity, after,
                    after_capacity);
}

/* The move k of moves, in UCI: the square it leaves and the one it
 * reaches, and the piece a pawn becomes: "h2h8", "e7e8q". */
static void uci_name(const chess_board *board, const san_moves *moves,
                     size_t k, char *text)
{
    uint32_t from = board->square[moves->piece[k]], to = moves->square[k];

    text[0] = (char)('a' + (from & 7));
    text[1] = (char)('1' + (from >> 3));
    text[2] = (char)('a' + (to & 7));
    text[3] = (char)('1' + (to >> 3));
    text[4] = moves->promote[k] != 0 ? "kqrbnp"[moves->promote[k]] : '\0';
    text[5] = '\0';
}

size_t chess_i_move_label(void *ctx, const char *from, loopy_position to,
                          uint32_t *number, char *label, size_t capacity)
{
    const chess_rules *rules = ctx;
    chess_board board;
    san_moves moves;
    char text[8];
    size_t k;

    if (!read_moves(rules, from, &board, &moves))
        return LOOPY_GAME_ERROR;
    k = nth_to(&moves, to, 0);
    if (k == moves.count)
        return LOOPY_GAME_ERROR;
    uci_name(&board, &moves, k, text);
    *number = 0; /* no number names a move on every board */
    return loopy_i_text_out(text, strlen(text), label, capacity);
}

size_t chess_i_move_twin(void *ctx, const char *from, loopy_position to,
                         uint32_t n, char *name, size_t name_capacity,
                         char *label, size_t label_capacity, char *after,
                         size_t after_capacity)
{
    const chess_rules *rules = ctx;
    chess_board board;
    san_moves moves;
    char text[8];
    size_t k;

    if (n == 0 || !read_moves(rules, from, &board, &moves))
        return LOOPY_GAME_ERROR;
    k = nth_to(&moves, to, n);
    if (k == moves.count)
        return LOOPY_GAME_ERROR;
    if (label != NULL) {
        uci_name(&board, &moves, k, text);
        loopy_i_text_out(text, strlen(text), label, label_capacity);
    }
    return san_name(rules, &board, &moves, k, name, name_capacity, after,
                    after_capacity);
}

/* Copies text to out without the characters of drop; false when it does
 * not fit. */
static bool without(const char *text, const char *drop, char *out,
                    size_t capacity)
{
    size_t len = 0;

    for (; *text != '\0'; text++) {
        if (strchr(drop, *text) != NULL)
            continue;
        if (len + 1 >= capacity)
            return false;
        out[len++] = *text;
    }
    out[len] = '\0';
    return true;
}

int chess_i_move_parse(void *ctx, const char *from, const char *text,
                       loopy_position *to, char *why, size_t why_capacity)
{
    const chess_rules *rules = ctx;
    chess_board board;
    san_moves moves;
    char typed[16], bare[16], name[16], uci[8];
    size_t len = strlen(text);

    if (chess_i_parse_board(rules, from, &board, why, why_capacity) != 0)
        return 1;
    moves.count = 0;
    chess_i_each_move(rules, &board, UINT64_MAX, true, collect, &moves);
    /* UCI: from and to squares, and the piece a pawn becomes. */
    for (size_t k = 0; (len == 4 || len == 5) && k < moves.count; k++) {
        uci_name(&board, &moves, k, uci);
        if (strcmp(uci, text) == 0) {
            *to = moves.to[k];
            return 0;
        }
    }
    /* SAN, its check or mate sign optional, its 'x' and '=' too, and an
     * en passant capture's " e.p.". */
    if (len > 4 && strcmp(text + len - 4, "e.p.") == 0) {
        len -= 4;
        while (len > 0 && text[len - 1] == ' ')
            len--;
    }
    if (len >= sizeof typed)
        len = 0;
    memcpy(typed, text, len);
    typed[len] = '\0';
    if (!without(typed, "+#", typed, sizeof typed) ||
        !without(typed, "x=", bare, sizeof bare))
        typed[0] = bare[0] = '\0';
    for (size_t k = 0; typed[0] != '\0' && k < moves.count; k++) {
        char plain[16], plain_bare[16];
        san_name(rules, &board, &moves, k, name, sizeof name, NULL, 0);
        without(name, "+#", plain, sizeof plain);
        without(plain, "x=", plain_bare, sizeof plain_bare);
        if (strcmp(plain, typed) == 0 || strcmp(plain_bare, bare) == 0) {
            *to = moves.to[k];
            return 0;
        }
    }
    /* A pawn's move to the last rank without the piece it becomes. */
    for (size_t k = 0; bare[0] != '\0' && k < moves.count; k++) {
        char plain[16], promoted[16];
        uci_name(&board, &moves, k, uci);
        if (moves.promote[k] == 0)
            continue;
        san_name(rules, &board, &moves, k, name, sizeof name, NULL, 0);
        without(name, "+#", plain, sizeof plain);
        without(plain, "x=", promoted, sizeof promoted);
        /* The name without its last letter, the piece; UCI likewise. */
        promoted[strlen(promoted) - 1] = '\0';
        uci[4] = '\0';
        if (strcmp(promoted, bare) == 0 || strcmp(uci, text) == 0) {
            snprintf(why, why_capacity,
                     "%s: a pawn that reaches the last rank becomes a queen, "
                     "rook, bishop or knight: say which (%.*s=Q or %s%c)",
                     text, (int)(strlen(plain) - 2), plain, uci, 'q');
            return 1;
        }
    }
    snprintf(why, why_capacity, "no move %s here (a move in SAN, such as "
             "Rh8 or e8=Q, or UCI, such as h2h8 or e7e8q)", text);
    return 1;
}

size_t chess_i_value_note(void *ctx, loopy_outcome outcome,
                          uint32_t remoteness, char *out, size_t capacity)
{
    char text[48];
    int len = 0;

    (void)ctx;
    /* A win in r plies is a mate on the winner's (r + 1) / 2-th move; a
     * loss in r plies, on the opponent's r / 2-th. */
    if (outcome == LOOPY_WIN)
        len = snprintf(text, sizeof text, "mate in %" PRIu32,
                       (remoteness + 1) / 2);
    else if (outcome == LOOPY_LOSE && remoteness == 0)
        len = snprintf(text, sizeof text, "checkmated");
    else if (outcome == LOOPY_LOSE)
        len = snprintf(text, sizeof text, "mated in %" PRIu32,
                       remoteness / 2);
    else if (outcome == LOOPY_TIE && remoteness == 0)
        len = snprintf(text, sizeof text, "stalemate or dead material");
    else if (outcome == LOOPY_TIE)
        len = snprintf(text, sizeof text, "stalemate or dead material in "
                       "%" PRIu32 " %s", remoteness,
                       remoteness == 1 ? "ply" : "plies");
    else
        len = snprintf(text, sizeof text, "drawn");
    return loopy_i_text_out(text, (size_t)len, out, capacity);
}
