/*
 * chess.h - what the files of the chess game share (lib/games/chess*.c):
 * the materials and their segments of the index, a decoded position, and
 * the board's tables.  Internal to lib/games.
 */
#ifndef LOOPY_CHESS_H
#define LOOPY_CHESS_H

#include "games.h"

#include <stdatomic.h>

#define CHESS_MAX_PIECES 5 /* two kings and at most three more */
/* Every material of at most five pieces: with 0, 1, 2 or 3 pieces besides
 * the kings, each of 10 kinds (5 a side), 1 + 10 + 55 + 220. */
#define CHESS_MAX_MATERIALS 286
/* 3 queens and a king: 27 * 3 + 8 = 89; 3 pawns and a king: 3 * 12 + 8
 * (each pawn's push and two captures, each promoting to 4 kinds), and
 * two en passant captures. */
#define CHESS_MAX_MOVES 128
/* Retractions: of a queen's or a king's move, each also as an uncapture
 * of any of 5 kinds, or of a promotion (a piece on the last rank back to
 * a pawn: a push, or two captures of 4 kinds); a pawn's push, double step
 * and captures back; each with its en passant right, and, for a pawnless
 * board in a game with pawns, in each of its 8 orientations (K+2Q: 62
 * moves back, 6 ways each, then 7 * (62 + 18)): below 4096. */
#define CHESS_MAX_UNMOVES 4096
/* The placements of the two kings up to symmetry: the white king in the
 * triangle a1-d1-d4, the black king on or below the a1-h8 diagonal when
 * the white one is on it, the kings apart. */
#define CHESS_KING_PAIRS 462
/* With pawns only the mirror of the files keeps the rules: the white king
 * on files a to d, the black king anywhere apart from it. */
#define CHESS_PAWN_KING_PAIRS 1806

#define CHESS_NONE 0xFFFF /* no such material */

enum { CHESS_WHITE = 0, CHESS_BLACK = 1 };
enum {
    CHESS_KING = 0,
    CHESS_QUEEN = 1,
    CHESS_ROOK = 2,
    CHESS_BISHOP = 3,
    CHESS_KNIGHT = 4,
    CHESS_PAWN = 5
};

/* One material: the pieces of both sides, in slot order: the white king,
 * the black king, white's pawns, black's pawns, then white's other pieces,
 * then black's, each side's in the order Q, R, B, N.  Without pawns its
 * segment of the index holds 2 * 462 * 64^(count - 2) indices from offset
 * on; with pawns 2 * 1806 * 48^pawns * 64^others, and, when both sides
 * have a pawn, the positions with an en passant right follow
 * (chess_board.c). */
typedef struct chess_material {
    uint32_t count;
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint32_t key;     /* chess_i_key of its pieces */
    uint32_t pawns[2]; /* white's, black's */
    bool dead;        /* no mate is possible: K v K, K+B v K, K+N v K */
    /* Bit i: slot i holds a piece equal to slot i - 1's (KBBK: bit 3). */
    uint8_t equal;
    /* The material with one more (uncapture), one fewer (capture) piece
     * of colour c and kind k, and with a pawn of colour c made a k
     * (promote), or CHESS_NONE when the game has none. */
    uint16_t uncapture[2][6], capture[2][6], promote[2][6];
    /* The segment [offset, offset + plain) of the positions without an
     * en passant right; ep[s], those with side s to move that can take a
     * pawn en passant (when both sides have pawns). */
    loopy_position offset, plain, ep[2];
    char name[CHESS_MAX_PIECES + 1]; /* "KQK", "KKR", "KRPKR" */
} chess_material;

/* A decoded position: the pieces in its material's slot order. */
typedef struct chess_board {
    uint32_t material; /* which of the rules' materials */
    uint32_t count, side; /* side: who moves */
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint8_t square[CHESS_MAX_PIECES]; /* 0 = a1, 1 = b1, ..., 63 = h8 */
    /* 0, or 1 + the file of the pawn that has just made a double step
     * and that the side to move can take en passant. */
    uint8_t ep;
} chess_board;

typedef struct chess_rules {
    uint32_t material_count;
    chess_material material[CHESS_MAX_MATERIALS]; /* [0]: the game's own */
    loopy_position size;
    /* The squares a king, a knight attack from each square; those a rook,
     * a bishop reach on an empty board; the squares strictly between two
     * on a line (0 when they share none). */
    uint64_t king[64], knight[64], rook[64], bishop[64];
    uint64_t pawn_attack[2][64]; /* the squares a pawn of colour c takes */
    uint64_t between[64][64];
    /* The squares from a square outwards in each direction on an empty
     * board: [0, 4) the rook's, [4, 8) the bishop's; the first of each
     * pair runs to higher squares (north, east, north-east, north-west),
     * the second to lower. */
    uint64_t ray[8][64];
    uint8_t image[8][64]; /* the 8 symmetries of the board; [0] identity */
    /* The king pairs: pair_of[white][black] is the pair's number, or -1
     * when the kings so placed are no pair of the index; bit s of
     * pair_symmetries[white][black] is set when symmetry s takes them to
     * one; pair_king[k] are the squares of pair k, white's first. */
    int16_t pair_of[64][64];
    uint8_t pair_symmetries[64][64];
    uint8_t pair_king[CHESS_KING_PAIRS][2];
    /* The same for the materials with pawns (files a to d). */
    int16_t pawn_pair_of[64][64];
    uint8_t pawn_pair_king[CHESS_PAWN_KING_PAIRS][2];
    bool pawns; /* some material has pawns */
    char params[CHESS_MAX_PIECES + 1];
} chess_rules;

/* The end of material m's segment of the index: the next one's start,
 * or the index space's size after the last. */
static inline loopy_position chess_i_segment_end(const chess_rules *rules,
                                                 uint32_t m)
{
    return m + 1 < rules->material_count ? rules->material[m + 1].offset
                                         : rules->size;
}

/* ---- lib/games/chess_board.c ---- */

/* Fills the tables, and the materials of the ending whose pieces other
 * than the kings are white's and black's ("Q" and "R" for KQKR; letters
 * Q, R, B, N, P in that order, at most 3 pieces in all): without pawns
 * every subset of them, with pawns every material that captures and
 * promotions reach. */
void chess_i_rules_init(chess_rules *rules, const char *white,
                        const char *black);
/* The key of a set of pieces (kings ignored): 2 bits per colour and kind. */
uint32_t chess_i_key(uint32_t count, const uint8_t *colour,
                     const uint8_t *kind);
/* The material with that key, or UINT32_MAX when it is not in the game. */
uint32_t chess_i_find_material(const chess_rules *rules, uint32_t key);
/* The key's part of one piece of colour and kind (not a king). */
uint32_t chess_i_key_bit(uint32_t colour, uint32_t kind);
/* The materials other than m that the moves of m lead to (a capture, a
 * promotion, or both at once), each once, to out (room for
 * CHESS_MAX_MATERIALS); returns their count. */
size_t chess_i_children(const chess_rules *rules, uint32_t m, uint32_t *out);
/* Lays the pieces out as chess_i_lay_out does, into the material that
 * they make (found by its key); false when the game has none. */
bool chess_i_build(const chess_rules *rules, uint32_t side, uint32_t count,
                   const uint8_t *colour, const uint8_t *kind,
                   const uint8_t *square, chess_board *out);
/* Sets out to the pieces colour[], kind[], square[] (as many as material
 * m has, and exactly its pieces, in any order) laid into m's slots. */
void chess_i_lay_out(const chess_rules *rules, uint32_t m, uint32_t side,
                     const uint8_t *colour, const uint8_t *kind,
                     const uint8_t *square, chess_board *out);
/* Decodes pos (below size) into *board; its squares may collide. */
void chess_i_decode(const chess_rules *rules, loopy_position pos,
                    chess_board *board);
/* The same for pos in material m's segment (a solver's, which knows it). */
void chess_i_decode_in(const chess_rules *rules, uint32_t m,
                       loopy_position pos, chess_board *board);
/* Puts equal pieces in increasing order of square. */
void chess_i_normalize(chess_board *board);
/* The index of board's class of symmetric positions: the least index of
 * its images whose kings are a pair of the index. */
loopy_position chess_i_encode(const chess_rules *rules,
                              const chess_board *board);
/* The index of a board after one piece of it moves to an empty square
 * and the other side is to move, found without encode's symmetry search
 * when one symmetry places the kings before and after (chess_i_step). */
typedef struct chess_step {
    const chess_rules *rules;
    const uint8_t *image; /* the symmetry's squares; NULL: encode */
    /* Pawnless: the symmetry placing the kings before (one bit).  With
     * pawns: 1 when the files are mirrored (the white king on e to h). */
    uint32_t symmetries;
    uint32_t piece, side;
    bool pawns;
    uint8_t king[2];      /* the kings' squares before */
    /* The piece's square's weight in the index (a piece not a king), or
     * the kings' pair's (a king): 64^k pawnless, a product of 64s and
     * 48s with pawns. */
    loopy_position place;
    /* The index without the piece's square (a piece not a king), or the
     * other pieces' part alone (a king). */
    loopy_position base;
} chess_step;
/* Prepares step for moves of piece (a slot) of board: a shortcut when
 * the kings do not touch, piece is a king or has no equal piece (which
 * would be sorted among its equals), and: pawnless, one symmetry places
 * the kings; with pawns, piece is no pawn and board has no en passant
 * right.  Else step->image is NULL.  *turned is the index of board with
 * the other side to move, UINT64_MAX until it is needed: then encoded and
 * kept, for the board's other pieces. */
void chess_i_step_init(const chess_rules *rules, const chess_board *board,
                       uint32_t piece, loopy_position *turned,
                       chess_step *step);
/* The index of the board step was made for with its piece on square to
 * (empty) and the other side to move; UINT64_MAX when the shortcut does
 * not hold (no shortcut, or a king's move to where another symmetry
 * places the kings, or they touch): encode then. */
static inline loopy_position chess_i_step(const chess_step *step, uint32_t to)
{
    const chess_rules *rules = step->rules;
    uint32_t w, b;
    int pair;

    if (step->image == NULL)
        return UINT64_MAX;
    if (step->piece >= 2)
        return step->base + step->image[to] * step->place;
    w = step->piece == 0 ? to : step->king[0];
    b = step->piece == 1 ? to : step->king[1];
    if (step->pawns) {
        /* No pair when the white king leaves its half of the files (it
         * is then on e to h in the image). */
        pair = rules->pawn_pair_of[step->image[w]][step->image[b]];
        if (pair < 0)
            return UINT64_MAX;
        return step->base +
               (step->side * CHESS_PAWN_KING_PAIRS + (uint32_t)pair) *
                   step->place;
    }
    pair = rules->pair_of[step->image[w]][step->image[b]];
    if (rules->pair_symmetries[w][b] != step->symmetries || pair < 0)
        return UINT64_MAX;
    return step->base +
           (step->side * CHESS_KING_PAIRS + (uint32_t)pair) * step->place;
}
/* The index of board with the other side to move, from pos, board's own
 * class's index (a position, decoded from pos), when that is quick to
 * find; else UINT64_MAX (chess_i_step_init then encodes it). */
loopy_position chess_i_turned(const chess_rules *rules,
                              const chess_board *board, loopy_position pos);
/* Decodes pos (below the size) into board; whether it is a position: a
 * legal board whose class's index is pos itself. */
bool chess_i_position(const chess_rules *rules, loopy_position pos,
                      chess_board *board);
/* The same for pos in material m's segment, without looking m up (a
 * search among the materials, most of a scan's time in a closure of
 * 126). */
bool chess_i_position_in(const chess_rules *rules, uint32_t m,
                         loopy_position pos, chess_board *board);
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
/* The square of the pawn of colour that has just made a double step on
 * file: on its fourth rank. */
uint32_t chess_i_ep_pawn_square(uint32_t colour, uint32_t file);
/* Whether the side to move of board (ep aside) could take en passant the
 * pawn of the other side on file: it stands on its fourth rank, the two
 * squares behind it are empty, and a pawn of the side to move beside it
 * can take it without leaving its own king attacked. */
bool chess_i_ep_capturable(const chess_rules *rules, const chess_board *board,
                           uint32_t file);

/* ---- lib/games/chess.c, chess_unmoves.c ---- */

/* Whether game is a chess ending opened from loopy_i_game_chess. */
bool chess_i_is(const loopy_game *game);

/* The board after piece (a slot of board's side to move) goes to square
 * to, taking what stands there, with the other side to move; false (and
 * *next unusable) when a king stands there.  Legality is not tested. */
bool chess_i_apply(const chess_rules *rules, const chess_board *board,
                   uint32_t piece, uint32_t to, chess_board *next);
/* The board after a legal move (as chess_i_each_move names it: the
 * piece's slot, the square, the kind a pawn becomes or 0), with its
 * captures en passant, promotion and en passant right. */
bool chess_i_play(const chess_rules *rules, const chess_board *board,
                  uint32_t piece, uint32_t to, uint32_t kind,
                  chess_board *next);

/* Calls visit(ctx, index, piece, square, promote) for each legal move of
 * board (a legal position): the class's index of the position it leads
 * to, the slot of the piece that moves, the square it goes to and the
 * kind a pawn becomes there (0 for none); until visit gives false;
 * returns false when it did.  Without legal_only, also for
 * the moves that leave the mover's king attacked, which lead to indices
 * that are no positions (or to the index space's size when the kings
 * touch).  turned: chess_i_turned's index of board, or UINT64_MAX. */
typedef bool (*chess_visit_fn)(void *ctx, loopy_position to, uint32_t piece,
                               uint32_t square, uint32_t promote);
bool chess_i_each_move(const chess_rules *rules, const chess_board *board,
                       loopy_position turned, bool legal_only,
                       chess_visit_fn visit, void *ctx);
/* The same without legal_only for the moves that leave board's material:
 * its captures (en passant among them) and promotions. */
bool chess_i_each_exit(const chess_rules *rules, const chess_board *board,
                       chess_visit_fn visit, void *ctx);
/* The legal moves of board (a legal position) as the classes' indices, to
 * list (room for CHESS_MAX_MOVES).  Returns their count.  turned: as
 * chess_i_each_move's. */
size_t chess_i_moves(const chess_rules *rules, const chess_board *board,
                     loopy_position turned, loopy_position *list);
/* Whether board (a legal position) has a legal move. */
bool chess_i_has_move(const chess_rules *rules, const chess_board *board);
/* The class's index of one legal move of board (a legal position) that
 * stays in its material, or UINT64_MAX when none does; *any, whether it
 * has a legal move at all.  Out of check, a quiet move of a piece off
 * the lines through its king, found without making the others. */
loopy_position chess_i_first_move(const chess_rules *rules,
                                  const chess_board *board,
                                  loopy_position turned, bool *any);
/* What chess_i_unmoves gives: the legal positions, not over, each with
 * its en passant rights (the game's unmoves); or, for a solver, whose
 * illegal indices hold no record, every board a move could have come
 * from, legal or not (an index that is no position, or the index space's
 * size when the kings touch), with (EP: those of a dead material left
 * out) or without (ANY: into pawnless materials only) the variants with
 * an en passant right. */
typedef enum chess_retro {
    CHESS_RETRO_LEGAL,
    CHESS_RETRO_EP,
    CHESS_RETRO_ANY
} chess_retro;
/* The classes' indices of the positions from which a move reaches board
 * (a legal position), as how asks, to list (room for CHESS_MAX_UNMOVES),
 * repeats possible.  Returns their count.  With only below UINT32_MAX,
 * only the positions of that material (what a solver of it asks).
 * turned: as chess_i_each_move's. */
size_t chess_i_unmoves(const chess_rules *rules, const chess_board *board,
                       loopy_position turned, chess_retro how, uint32_t only,
                       loopy_position *list);

/* ---- lib/games/chess_san.c ---- */

size_t chess_i_move_format(void *ctx, const char *from, loopy_position to,
                           char *name, size_t name_capacity, char *after,
                           size_t after_capacity);
size_t chess_i_value_note(void *ctx, loopy_outcome outcome,
                          uint32_t remoteness, char *out, size_t capacity);
/* A move in UCI ("h2h8"), numbered 0: the game's move_label. */
size_t chess_i_move_label(void *ctx, const char *from, loopy_position to,
                          uint32_t *number, char *label, size_t capacity);
size_t chess_i_move_twin(void *ctx, const char *from, loopy_position to,
                         uint32_t n, char *name, size_t name_capacity,
                         char *label, size_t label_capacity, char *after,
                         size_t after_capacity);
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

/* ---- lib/games/chess_tables.c ---- */

/* Whether folder is one (a folder of tables). */
bool chess_i_is_folder(const char *folder);
/* Whether folder/NAME.ldb is there (or cannot be looked at: then reading
 * it fails with the reason), to *there; LOOPY_ENOMEM. */
loopy_status chess_i_has_table(const char *folder, const char *name,
                               bool *there);
/* Reads material m's records (m > 0: a sub-ending) from folder/NAME.ldb
 * (chess_i_has_table), the database of chess:NAME, into rec (the game's
 * records, 2 bytes per index, as chess_solve.c keeps them), each
 * remoteness below max_level, on threads.  A file that cannot be read,
 * or holds another game or layout, fails (diag names the file and the
 * problem). */
loopy_status chess_i_read_table(const chess_rules *rules, uint32_t m,
                                const char *folder, _Atomic uint16_t *rec,
                                uint32_t max_level, int threads,
                                loopy_diag *diag);
/* Removes folder's NAME.ldb.PID.part files (NAME an ending of rules) of
 * processes that are gone: tables a build was writing when it was killed
 * (regular files last written over a minute ago, whose lock is free);
 * returns how many.  A folder that cannot be read is left to the reads
 * that follow. */
uint64_t chess_i_sweep_parts(const chess_rules *rules, const char *folder);
/* The same from an open database: LOOPY_EFORMAT (diag says why) when it
 * is not chess:NAME in normal play, one position per class (dense or
 * sparse blocks), laid out as material m, or holds a remoteness of
 * max_level or more; the database's own failures.  Only the records of m's segment are written, each
 * position checked to lie in it before its record is. */
loopy_status chess_i_copy_table(const chess_rules *rules, uint32_t m,
                                const loopy_db *db, _Atomic uint16_t *rec,
                                uint32_t max_level, int threads,
                                loopy_diag *diag);
/* Whether pos (below the size) lies in a sub-ending of the ending of
 * rules: then that ending's name ("KQKP", its table's) goes to name and
 * pos's index in the game of that ending alone to *local, nonzero.  0 for
 * the ending's own material, or when capacity cannot hold the name.  The
 * game's sub_table. */
int chess_i_sub_table(void *rules, loopy_position pos, char *name,
                      size_t capacity, loopy_position *local);
/* The value of pos (an index of the ending of rules, below its size) from
 * the table of the sub-ending it lies in, folder/NAME.ldb, checked as a
 * solve reads it; symmetric: the asking database holds a position per
 * class, as tables do.  LOOPY_EINVAL when pos lies in no sub-ending; a
 * table missing, unreadable, wrong or lacking pos fails, diag naming it:
 * "the table of its ending KQK, DIR/KQK.ldb: why".  The game's
 * table_value. */
loopy_status chess_i_table_value(void *rules, loopy_position pos,
                                 const char *folder, int symmetric,
                                 loopy_outcome *outcome, uint32_t *remoteness,
                                 loopy_diag *diag);
/* Writes material m's records (rec, the game's, 2 bytes per index) as
 * folder/NAME.ldb, the table of chess:NAME holding the ending NAME alone,
 * through a temporary file renamed when whole; on threads.  LOOPY_EIO
 * (diag names the file) when it cannot be written. */
loopy_status chess_i_write_table(const chess_rules *rules, uint32_t m,
                                 const char *folder, const uint16_t *rec,
                                 int threads, loopy_diag *diag);

/* ---- lib/games/chess_solve.c ---- */

/* The records of a chess game's solve, 2 bytes per index (the database's
 * records), as the solver of one material and chess_build.c share them. */
typedef struct chess_records {
    const chess_rules *rules;
    _Atomic uint16_t *rec;
    uint16_t *plain; /* rec, as plain data (a build's drops and writes) */
    int threads;
    bool misere;
} chess_records;
/* The remoteness a solve stops at (LOOPY_ETOOBIG): below 2^13, past any
 * chess ending's (the longest known mate of seven pieces is 549 plies). */
#define CHESS_MAX_LEVEL 8188u
/* The indices a thread takes at a time. */
#define CHESS_CHUNK 4096u
/* Solves material m of records, whose smaller materials are solved (or
 * read from their tables): every legal index, by levels, in 2 bytes per
 * index and a few per 512. */
loopy_status chess_i_solve_material(const chess_records *records,
                                    uint32_t m);
/* Whether the records of material m, read from its table, are present
 * exactly at its legal positions (each its class's index), as a solve of
 * every legal position writes them: a table of the positions reached
 * from a start only (--solver retro without --all-legal) is not one. */
bool chess_i_table_complete(const chess_records *records, uint32_t m);
/* How the Tie pass runs its levels: 0, as the solver chooses (the
 * default); 1, each level looking ahead from the records it could
 * decide; -1, each telling from its Ties.  For tests; not thread-safe
 * against a solve running. */
void chess_i_tie_ahead(int mode);

/* ---- lib/games/chess_build.c ---- */

/* Every legal position of a chess ending, 2 bytes per index, tier by
 * tier: the game's solve (loopy_game_solve_tablebase). */
loopy_status chess_i_solve(const loopy_game *game,
                           const loopy_game_solve_options *options,
                           loopy_game_solution **out, loopy_diag *diag);
/* The bytes of records a build (options->build) may keep of materials it
 * reads again later; past them, such a material leaves memory and is read
 * from its table again when needed.  0: half of physical memory (the
 * default).  For tests; not thread-safe against a build running. */
void chess_i_build_hold(uint64_t bytes);

#endif
