/*
 * chess.h - what the files of the chess game share (lib/games/chess*.c):
 * the materials and their segments of the index, a decoded position, and
 * the board's tables.  Internal to lib/games.
 */
#ifndef LOOPY_CHESS_H
#define LOOPY_CHESS_H

#include "games.h"

#define CHESS_MAX_PIECES 4   /* two kings and at most two more */
#define CHESS_MAX_MATERIALS 4 /* the sub-materials of a 4-piece one */
#define CHESS_MAX_MOVES 128   /* 2 queens and a king: 27 + 27 + 8 */
/* A retraction of each of those moves, each also as an uncapture of any of
 * the four kinds: 62 * 5. */
#define CHESS_MAX_UNMOVES 320

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
 * the order Q, R, B, N.  Its segment of the index holds 2 * 64^count
 * indices from offset on. */
typedef struct chess_material {
    uint32_t count;
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint32_t key;     /* chess_i_key of its pieces */
    bool dead;        /* no mate is possible: K v K, K+B v K, K+N v K */
    /* Two equal pieces (at most one pair in 4 pieces) are in slots pair - 1
     * and pair; 0 when there are none. */
    uint32_t pair;
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
    /* Bit s: symmetry s takes the square to the least of its images. */
    uint8_t least_symmetries[64];
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
/* chess_i_normalize, then the index. */
loopy_position chess_i_encode(const chess_rules *rules, chess_board *board);
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
/* The least index of the 8 images of board. */
loopy_position chess_i_least_image(const chess_rules *rules,
                                   const chess_board *board);

/* ---- lib/games/chess_fen.c ---- */

size_t chess_i_format(void *ctx, loopy_position pos, char *out,
                      size_t capacity);
int chess_i_parse(void *ctx, const char *text, loopy_position *pos, char *why,
                  size_t why_capacity);

#endif
