/*
 * chess.h - what the files of the chess game share (lib/games/chess*.c):
 * the materials and their segments of the index, a decoded position, and
 * the board's tables.  Internal to lib/games.
 */
#ifndef LOOPY_CHESS_H
#define LOOPY_CHESS_H

#include "games.h"

#define CHESS_MAX_PIECES 5    /* two kings and at most three more */
#define CHESS_MAX_MATERIALS 8 /* the sub-materials of a 5-piece one */
#define CHESS_MAX_MOVES 128   /* 3 queens and a king: 27 * 3 + 8 = 89 */
/* A retraction of each of those moves, each also as an uncapture of any of
 * the four kinds: 89 * 5 = 445. */
#define CHESS_MAX_UNMOVES 512
/* The placements of the two kings up to symmetry: the white king in the
 * triangle a1-d1-d4, the black king on or below the a1-h8 diagonal when
 * the white one is on it, the kings apart. */
#define CHESS_KING_PAIRS 462

#define CHESS_NONE 255 /* no such material */

enum { CHESS_WHITE = 0, CHESS_BLACK = 1 };
enum {
    CHESS_KING = 0,
    CHESS_QUEEN = 1,
    CHESS_ROOK = 2,
    CHESS_BISHOP = 3,
    CHESS_KNIGHT = 4
};

/* One material: the pieces of both sides, in slot order: the white king,
 * the black king, then white's other pieces, then black's, each side's in
 * the order Q, R, B, N.  Its segment of the index holds
 * 2 * 462 * 64^(count - 2) indices from offset on. */
typedef struct chess_material {
    uint32_t count;
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint32_t key;     /* chess_i_key of its pieces */
    bool dead;        /* no mate is possible: K v K, K+B v K, K+N v K */
    /* Bit i: slot i holds a piece equal to slot i - 1's (KBBK: bit 3). */
    uint8_t equal;
    /* The material with one more piece of colour c and kind k, or
     * CHESS_NONE when the game has none. */
    uint8_t uncapture[2][5];
    loopy_position offset;
    char name[CHESS_MAX_PIECES + 1]; /* "KQK", "KKR" */
} chess_material;

/* A decoded position: the pieces in its material's slot order. */
typedef struct chess_board {
    uint32_t material; /* which of the rules' materials */
    uint32_t count, side; /* side: who moves */
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint8_t square[CHESS_MAX_PIECES]; /* 0 = a1, 1 = b1, ..., 63 = h8 */
} chess_board;

typedef struct chess_rules {
    uint32_t material_count;
    chess_material material[CHESS_MAX_MATERIALS]; /* [0]: the game's own */
    loopy_position size;
    /* The squares a king, a knight attack from each square; those a rook,
     * a bishop reach on an empty board; the squares strictly between two
     * on a line (0 when they share none). */
    uint64_t king[64], knight[64], rook[64], bishop[64];
    uint64_t between[64][64];
    uint8_t image[8][64]; /* the 8 symmetries of the board; [0] identity */
    /* The king pairs: pair_of[white][black] is the pair's number, or -1
     * when the kings so placed are no pair of the index; bit s of
     * pair_symmetries[white][black] is set when symmetry s takes them to
     * one; pair_king[k] are the squares of pair k, white's first. */
    int16_t pair_of[64][64];
    uint8_t pair_symmetries[64][64];
    uint8_t pair_king[CHESS_KING_PAIRS][2];
    char params[CHESS_MAX_PIECES + 1];
} chess_rules;

/* The place of the lowest 1 of bits, which is not 0. */
static inline uint32_t chess_i_lowest(uint64_t bits)
{
#if defined(__GNUC__)
    return (uint32_t)__builtin_ctzll(bits);
#else
    return loopy_i_count_bits((bits & (~bits + 1)) - 1);
#endif
}

/* ---- lib/games/chess_board.c ---- */

/* Fills the tables, and the materials of the ending whose pieces other
 * than the kings are white's and black's ("Q" and "R" for KQKR; letters
 * Q, R, B, N in that order, at most 4 pieces in all). */
void chess_i_rules_init(chess_rules *rules, const char *white,
                        const char *black);
/* The key of a set of pieces (kings ignored): 2 bits per colour and kind. */
uint32_t chess_i_key(uint32_t count, const uint8_t *colour,
                     const uint8_t *kind);
/* The material with that key, or UINT32_MAX when it is not in the game. */
uint32_t chess_i_find_material(const chess_rules *rules, uint32_t key);
/* Sets out to the pieces colour[], kind[], square[] (as many as material
 * m has, and exactly its pieces, in any order) laid into m's slots. */
void chess_i_lay_out(const chess_rules *rules, uint32_t m, uint32_t side,
                     const uint8_t *colour, const uint8_t *kind,
                     const uint8_t *square, chess_board *out);
/* Decodes pos (below size) into *board; its squares may collide. */
void chess_i_decode(const chess_rules *rules, loopy_position pos,
                    chess_board *board);
/* Puts equal pieces in increasing order of square. */
void chess_i_normalize(chess_board *board);
/* The index of board's class of symmetric positions: the least index of
 * its images whose kings are a pair of the index. */
loopy_position chess_i_encode(const chess_rules *rules,
                              const chess_board *board);
/* Whether a piece of colour attacks square target, with occ occupied. */
bool chess_i_attacked(const chess_rules *rules, const chess_board *board,
                      uint32_t target, uint32_t colour, uint64_t occ);
/* The squares piece i reaches (attacks) with occ occupied. */
uint64_t chess_i_reach(const chess_rules *rules, const chess_board *board,
                       uint32_t i, uint64_t occ);
uint64_t chess_i_occupied(const chess_board *board);
/* Whether board is a position: distinct squares, equal pieces in
 * increasing order, kings not adjacent, the side not to move not in
 * check.  When not and why is not NULL, says why. */
bool chess_i_board_legal(const chess_rules *rules, const chess_board *board,
                         char *why, size_t why_capacity);

/* ---- lib/games/chess.c ---- */

/* The board after piece (a slot of board's side to move) goes to square
 * to, taking what stands there, with the other side to move; false (and
 * *next unusable) when a king stands there.  Legality is not tested. */
bool chess_i_apply(const chess_rules *rules, const chess_board *board,
                   uint32_t piece, uint32_t to, chess_board *next);

/* Calls visit(ctx, index, piece, square) for each legal move of board (a
 * legal position): the class's index of the position it leads to, the
 * slot of the piece that moves and the square it goes to; until visit
 * gives false; returns false when it did.  Without legal_only, also for
 * the moves that leave the mover's king attacked, which lead to indices
 * that are no positions (or to the index space's size when the kings
 * touch). */
typedef bool (*chess_visit_fn)(void *ctx, loopy_position to, uint32_t piece,
                               uint32_t square);
bool chess_i_each_move(const chess_rules *rules, const chess_board *board,
                       bool legal_only, chess_visit_fn visit, void *ctx);
/* The legal moves of board (a legal position) as the classes' indices, to
 * list (room for CHESS_MAX_MOVES); with first_only, at most one.  Returns
 * their count. */
size_t chess_i_moves(const chess_rules *rules, const chess_board *board,
                     loopy_position *list, bool first_only);
/* The classes' indices of the positions, not over, from which a move
 * reaches board (a legal position), to list (room for CHESS_MAX_UNMOVES),
 * repeats possible.  Returns their count.  Without checked, every board a
 * move could have come from, legal or not, over or not (an index that is
 * no position, or the index space's size when the kings touch). */
size_t chess_i_unmoves(const chess_rules *rules, const chess_board *board,
                       bool checked, loopy_position *list);

/* ---- lib/games/chess_san.c ---- */

size_t chess_i_move_format(void *ctx, const char *from, loopy_position to,
                           char *name, size_t name_capacity, char *after,
                           size_t after_capacity);
size_t chess_i_value_note(void *ctx, loopy_outcome outcome,
                          uint32_t remoteness, char *out, size_t capacity);
/* A move in UCI ("h2h8"), numbered 0: the game's move_label. */
size_t chess_i_move_label(void *ctx, const char *from, loopy_position to,
                          uint32_t *number, char *label, size_t capacity);
/* A move in SAN ("Rh8+", the sign and the 'x' optional) or UCI: the
 * game's move_parse. */
int chess_i_move_parse(void *ctx, const char *from, const char *text,
                       loopy_position *to, char *why, size_t why_capacity);

/* ---- lib/games/chess_fen.c ---- */

size_t chess_i_format(void *ctx, loopy_position pos, char *out,
                      size_t capacity);
int chess_i_parse(void *ctx, const char *text, loopy_position *pos, char *why,
                  size_t why_capacity);
/* The same for a board as it stands (not taken to its class). */
size_t chess_i_format_board(const chess_board *board, char *out,
                            size_t capacity);
int chess_i_parse_board(const chess_rules *rules, const char *text,
                        chess_board *out, char *why, size_t why_capacity);
/* The board of a FEN drawn for a terminal, rank 8 at the top, with the
 * ranks' and files' names: the game's draw. */
size_t chess_i_draw(void *ctx, const char *from, unsigned flags, char *out,
                    size_t capacity);
/* The material of a FEN's board, "KRK": the game's params_of. */
int chess_i_params_of(const char *position, char *params, size_t capacity,
                      char *why, size_t why_capacity);

#endif
