/*
 * mnk.c - the m,n,k-games: tic-tac-toe and its relatives.
 *
 * The board has M rows and N columns.  The first player, x, and the second,
 * o, take turns placing a stone of their own on an empty cell; whoever
 * makes K in a row (along a row, a column or a diagonal) wins, and a full
 * board without one is a tie.  Tic-tac-toe is 3,3,3 and has a definition
 * of its own, "tictactoe", without parameters.
 *
 * The index.  Cells are numbered row by row from the top left, i = r*N + c.
 * A position is indexed by its number of stones first (mnk_index.c), so
 * the boards of n stones are tier n, whose moves all lead to tier n + 1;
 * there are fewer than 3^(MN) indices (MN <= 40 keeps them in 64 bits), and
 * play starts at 0.  Whose turn it is follows from the counts: x moves
 * when both have as many stones.
 *
 * Which indices are positions.  Exactly those that arise in play: x has as
 * many stones as o or one more; nobody has K in a row, or only the player
 * who moved last has, with a stone lying in every one of their lines (the
 * stone that ended the game: two lines without a common stone mean the game
 * went on after it was won).  Any other placement with the right counts is
 * reached by placing the stones in any order, as no subset of them has a
 * line.
 *
 * Symmetry.  The board's reflections and turns (8 on a square board, 4 on
 * any other) map lines to lines, so symmetric positions have equal values.
 * The representative of a class is the image that reads least as a number
 * of base 3 whose digit i says what stands on cell i (0 empty, 1 x, 2 o),
 * which is found by comparing the highest cell where images differ.
 *
 * Inside, a board is two sets of cells (bit i for cell i), mapped by a
 * symmetry a byte of cells at a time (256 entries per byte and symmetry).
 *
 * Notation: the rows from top to bottom, separated by '/', each cell 'x',
 * 'o' or '.': "x.o/.x./..o".  A move is named by its cell, the column's
 * letter and the row from the bottom ("b2", as a chessboard's squares),
 * and numbered 1 to M*N across the rows from the top left.
 */
#include "mnk_index.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define MNK_MAX_SYMMETRIES 8
#define MNK_MAX_LINES (4 * MNK_MAX_CELLS)

typedef struct mnk_rules {
    uint32_t rows, cols, k, cells;
    uint64_t id;                  /* this game's, never 0 */
    uint64_t size;                /* index.size */
    mnk_index index;
    uint64_t line[MNK_MAX_LINES]; /* each K-line as a set of cells */
    uint32_t line_count;
    /* The board's symmetries other than the identity: cell i goes to
     * moved[s][i]; image[s][b][v] is where the cells 8b + j (bit j of v)
     * go, as a set. */
    uint32_t symmetry_count;
    uint8_t moved[MNK_MAX_SYMMETRIES - 1][MNK_MAX_CELLS];
    uint64_t image[MNK_MAX_SYMMETRIES - 1][MNK_MAX_BYTES][256];
    char params[32]; /* "M,N,K", or "" for tictactoe */
} mnk_rules;

/* A board as two sets of cells, bit i for cell i. */
typedef struct mnk_board {
    uint64_t x, o;
    uint32_t x_count, o_count;
} mnk_board;

/* The last board each thread read, by the game it belongs to (each game
 * made gets an id of its own) and its index: the solvers ask for a
 * position's primitive(), canonical() and moves() one after another, and
 * reading an index is the dearest part of each. */
static atomic_uint_fast64_t games_made;
static _Thread_local struct {
    uint64_t game_id;
    loopy_position pos;
    mnk_board board;
} last_read;

static mnk_board decode(const mnk_rules *rules, loopy_position pos)
{
    mnk_board board;

    if (last_read.game_id == rules->id && last_read.pos == pos)
        return last_read.board;
    loopy_i_mnk_unrank(&rules->index, pos, &board.x, &board.o);
    board.x_count = loopy_i_count_bits(board.x);
    board.o_count = loopy_i_count_bits(board.o);
    last_read.game_id = rules->id;
    last_read.pos = pos;
    last_read.board = board;
    return board;
}

static loopy_position encode(const mnk_rules *rules, uint64_t x, uint64_t o)
{
    return loopy_i_mnk_rank(&rules->index, x, o);
}

static bool has_line(const mnk_rules *rules, uint64_t stones)
{
    for (uint32_t l = 0; l < rules->line_count; l++)
        if ((stones & rules->line[l]) == rules->line[l])
            return true;
    return false;
}

/* The cells common to every line among stones (all cells when none). */
static uint64_t common_to_lines(const mnk_rules *rules, uint64_t stones)
{
    uint64_t common = ~UINT64_C(0);

    for (uint32_t l = 0; l < rules->line_count; l++)
        if ((stones & rules->line[l]) == rules->line[l])
            common &= rules->line[l];
    return common;
}

/* ---- The positions ---- */

/* Whether board arises in play; if not, and why is not NULL, says why. */
static bool board_is_legal(const mnk_rules *rules, const mnk_board *board,
                           char *why, size_t why_capacity)
{
    bool x_line, o_line;
    uint64_t mover_stones;

    if (board->x_count != board->o_count &&
        board->x_count != board->o_count + 1) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "x has %" PRIu32 " stone%s and o %" PRIu32
                     ": x must have as many as o or one more",
                     board->x_count, board->x_count == 1 ? "" : "s",
                     board->o_count);
        return false;
    }
    x_line = has_line(rules, board->x);
    o_line = has_line(rules, board->o);
    if (!x_line && !o_line)
        return true;
    if (x_line && o_line) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "both x and o have %" PRIu32 " in a row", rules->k);
        return false;
    }
    if (x_line != (board->x_count > board->o_count)) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "%c has %" PRIu32 " in a row but %c "
                     "moved last",
                     x_line ? 'x' : 'o', rules->k, x_line ? 'o' : 'x');
        return false;
    }
    mover_stones = x_line ? board->x : board->o;
    if ((common_to_lines(rules, mover_stones) & mover_stones) == 0) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "%c has lines of %" PRIu32 " without "
                     "a common stone: play would have stopped at the first",
                     x_line ? 'x' : 'o', rules->k);
        return false;
    }
    return true;
}

static int mnk_legal(void *ctx, loopy_position pos)
{
    const mnk_rules *rules = ctx;
    mnk_board board;

    if (pos >= rules->size)
        return 0;
    board = decode(rules, pos);
    return board_is_legal(rules, &board, NULL, 0);
}

/* The index of the representative among the images of the board (x, o):
 * of two images, the one with the smaller digit (0 empty, 1 x, 2 o) on the
 * highest cell where they differ, so only the winner's index is
 * computed. */
static loopy_position least_image(const mnk_rules *rules, uint64_t x,
                                  uint64_t o)
{
    uint64_t best_x = x, best_o = o;
    uint32_t bytes = (rules->cells + 7) / 8;

    for (uint32_t s = 0; s < rules->symmetry_count; s++) {
        uint64_t image_x = 0, image_o = 0, differ;
        uint32_t top;
        for (uint32_t b = 0; b < bytes; b++) {
            image_x |= rules->image[s][b][x >> (8 * b) & 255];
            image_o |= rules->image[s][b][o >> (8 * b) & 255];
        }
        differ = (image_x ^ best_x) | (image_o ^ best_o);
        if (differ == 0)
            continue;
        top = loopy_i_highest_bit(differ);
        /* the digit on cell top: 1 for x, 2 for o, 0 for empty */
        if ((image_x >> top & 1) + 2 * (image_o >> top & 1) <
            (best_x >> top & 1) + 2 * (best_o >> top & 1)) {
            best_x = image_x;
            best_o = image_o;
        }
    }
    return encode(rules, best_x, best_o);
}

/* The positions in the class of pos: the symmetries (the identity among
 * them) over those that leave the board as it is. */
static uint64_t mnk_class_size(void *ctx, loopy_position pos)
{
    const mnk_rules *rules = ctx;
    mnk_board board = decode(rules, pos);
    uint32_t bytes = (rules->cells + 7) / 8, fixed = 1;

    for (uint32_t s = 0; s < rules->symmetry_count; s++) {
        uint64_t image_x = 0, image_o = 0;
        for (uint32_t b = 0; b < bytes; b++) {
            image_x |= rules->image[s][b][board.x >> (8 * b) & 255];
            image_o |= rules->image[s][b][board.o >> (8 * b) & 255];
        }
        fixed += image_x == board.x && image_o == board.o;
    }
    /* The symmetries form a group: the stabiliser's size divides it. */
    return (rules->symmetry_count + 1) / fixed;
}

static loopy_position mnk_canonical(void *ctx, loopy_position pos)
{
    const mnk_rules *rules = ctx;
    mnk_board board = decode(rules, pos);

    return least_image(rules, board.x, board.o);
}

static loopy_primitive mnk_primitive(void *ctx, loopy_position pos)
{
    const mnk_rules *rules = ctx;
    mnk_board board = decode(rules, pos);
    /* x moved last iff x has more stones (at the start nobody did, and o's
     * empty set of stones has no line). */
    uint64_t last_mover = board.x_count > board.o_count ? board.x : board.o;

    if (has_line(rules, last_mover))
        return LOOPY_OVER_LOSE;
    if (board.x_count + board.o_count == rules->cells)
        return LOOPY_OVER_TIE;
    return LOOPY_PLAYING;
}

/* ---- Moves and unmoves ---- */

/* The player to move puts a stone on any empty cell: the children as
 * they are, or as their representatives (each child's least image found
 * from its cells, so that the board is read once). */
static size_t children(const mnk_rules *rules, loopy_position pos,
                       bool canonical, loopy_position *out, size_t capacity)
{
    mnk_board board = decode(rules, pos);
    bool x_moves = board.x_count == board.o_count;
    uint64_t empty = ~(board.x | board.o) & ((UINT64_C(1) << rules->cells) - 1);
    loopy_position list[MNK_MAX_CELLS];
    size_t count = 0;

    for (; empty != 0; empty &= empty - 1) {
        uint64_t cell = empty & (~empty + 1);
        uint64_t x = x_moves ? board.x | cell : board.x;
        uint64_t o = x_moves ? board.o : board.o | cell;
        list[count++] = canonical ? least_image(rules, x, o)
                                  : encode(rules, x, o);
    }
    return loopy_i_distinct_out(list, count, out, capacity);
}

static size_t mnk_moves(void *ctx, loopy_position pos, loopy_position *out,
                        size_t capacity)
{
    return children(ctx, pos, false, out, capacity);
}

static size_t mnk_canonical_moves(void *ctx, loopy_position pos,
                                  loopy_position *out, size_t capacity)
{
    return children(ctx, pos, true, out, capacity);
}

/* The player who moved last takes back one of their stones, when the game
 * was not over before it: the player to move had no line then (nor now),
 * and the one who moved last has none without the stone, so the stone is
 * in all their lines if they have any. */
static size_t mnk_unmoves(void *ctx, loopy_position pos, loopy_position *out,
                          size_t capacity)
{
    const mnk_rules *rules = ctx;
    mnk_board board = decode(rules, pos);
    bool x_last = board.x_count > board.o_count;
    uint64_t last = x_last ? board.x : board.o;
    loopy_position list[MNK_MAX_CELLS];
    size_t count = 0;

    if (board.x_count != board.o_count && board.x_count != board.o_count + 1)
        return 0;
    if (has_line(rules, x_last ? board.o : board.x))
        return 0;
    if (has_line(rules, last))
        last &= common_to_lines(rules, last);
    for (; last != 0; last &= last - 1) {
        uint64_t cell = last & (~last + 1);
        list[count++] = x_last ? encode(rules, board.x & ~cell, board.o)
                               : encode(rules, board.x, board.o & ~cell);
    }
    return loopy_i_distinct_out(list, count, out, capacity);
}

/* ---- Notation ---- */

static size_t mnk_format(void *ctx, loopy_position pos, char *out,
                         size_t capacity)
{
    const mnk_rules *rules = ctx;
    char text[2 * MNK_MAX_CELLS + 1];
    size_t len = 0;

    mnk_board board = decode(rules, pos);

    for (uint32_t i = 0; i < rules->cells; i++) {
        if (i > 0 && i % rules->cols == 0)
            text[len++] = '/';
        text[len++] = board.x >> i & 1 ? 'x' : board.o >> i & 1 ? 'o' : '.';
    }
    text[len] = '\0';
    return loopy_i_text_out(text, len, out, capacity);
}

static int mnk_parse(void *ctx, const char *text, loopy_position *pos,
                     char *why, size_t why_capacity)
{
    const mnk_rules *rules = ctx;
    char cell[MNK_MAX_CELLS]; /* row-major from the top, as written */
    mnk_board board = {0, 0, 0, 0};

    if (loopy_i_read_grid(text, rules->rows, rules->cols, "", cell, why,
                          why_capacity) != 0)
        return 1;
    for (uint32_t i = 0; i < rules->rows * rules->cols; i++) {
        if (cell[i] == 'x')
            board.x |= UINT64_C(1) << i;
        else if (cell[i] == 'o')
            board.o |= UINT64_C(1) << i;
    }
    board.x_count = loopy_i_count_bits(board.x);
    board.o_count = loopy_i_count_bits(board.o);
    if (!board_is_legal(rules, &board, why, why_capacity))
        return 1;
    *pos = encode(rules, board.x, board.o);
    return 0;
}

/* The board written as text, when it is a position of the game. */
static bool board_of(const mnk_rules *rules, const char *text,
                     mnk_board *board)
{
    loopy_position pos;
    char why[8];

    if (text == NULL || mnk_parse((void *)(uintptr_t)rules, text, &pos, why,
                                  sizeof why) != 0)
        return false;
    *board = decode(rules, pos);
    return true;
}

/* A move is named by its cell: the column's letter, then the row from the
 * bottom ("b2"), and numbered 1 to M*N across the rows from the top left,
 * as a telephone's keys are. */
static size_t mnk_move_label(void *ctx, const char *from, loopy_position to,
                             uint32_t *number, char *label, size_t capacity)
{
    const mnk_rules *rules = ctx;
    mnk_board board, after;
    uint64_t added;
    uint32_t cell, row;
    char text[16];

    if (!board_of(rules, from, &board) || to >= rules->size)
        return LOOPY_GAME_ERROR;
    after = decode(rules, to);
    added = (after.x | after.o) & ~(board.x | board.o);
    if (added == 0 || (added & (added - 1)) != 0 ||
        (after.x & board.x) != board.x || (after.o & board.o) != board.o)
        return LOOPY_GAME_ERROR;
    cell = loopy_i_lowest_bit(added);
    row = cell / rules->cols;
    loopy_i_column_name(cell % rules->cols, text);
    snprintf(text + strlen(text), sizeof text - strlen(text), "%" PRIu32,
             rules->rows - row);
    *number = cell + 1;
    return loopy_i_text_out(text, strlen(text), label, capacity);
}

static int mnk_move_parse(void *ctx, const char *from, const char *text,
                          loopy_position *to, char *why, size_t why_capacity)
{
    const mnk_rules *rules = ctx;
    mnk_board board;
    uint32_t row, col;
    uint64_t cell;

    if (!board_of(rules, from, &board)) {
        snprintf(why, why_capacity, "not a position of the game");
        return 1;
    }
    if (loopy_i_read_cell(text, rules->rows, rules->cols, &row, &col, why,
                          why_capacity) != 0)
        return 1;
    cell = UINT64_C(1) << (row * rules->cols + col);
    if ((board.x | board.o) & cell) {
        snprintf(why, why_capacity, "no move %s: the cell is taken", text);
        return 1;
    }
    if (mnk_primitive(ctx, encode(rules, board.x, board.o)) != LOOPY_PLAYING) {
        snprintf(why, why_capacity, "no move %s: the game is over", text);
        return 1;
    }
    *to = board.x_count == board.o_count
              ? encode(rules, board.x | cell, board.o)
              : encode(rules, board.x, board.o | cell);
    return 0;
}

static size_t mnk_draw(void *ctx, const char *from, unsigned flags, char *out,
                       size_t capacity)
{
    const mnk_rules *rules = ctx;
    char cell[MNK_MAX_CELLS], why[8];

    if (loopy_i_read_grid(from, rules->rows, rules->cols, "", cell, why,
                          sizeof why) != 0)
        return LOOPY_GAME_ERROR;
    return loopy_i_draw_grid(cell, rules->rows, rules->cols, true,
                             (flags & LOOPY_DRAW_UNICODE) != 0, out, capacity);
}

/* Tier t: the boards of t stones, whose moves reach tier t + 1. */
static loopy_position mnk_tier_start(void *ctx, uint64_t tier)
{
    const mnk_rules *rules = ctx;

    return tier <= rules->cells ? rules->index.tier_start[tier] : rules->size;
}

static size_t mnk_tier_children(void *ctx, uint64_t tier, uint64_t *out,
                                size_t capacity)
{
    const mnk_rules *rules = ctx;

    if (tier >= rules->cells)
        return 0;
    if (capacity >= 1)
        out[0] = tier + 1;
    return 1;
}

static void mnk_release(void *ctx)
{
    mnk_rules *rules = ctx;

    loopy_i_mnk_index_free(&rules->index);
    loopy_i_free(rules);
}

/* ---- Making a game ---- */

/* Adds the lines of K cells that start at (r, c) and step by (dr, dc). */
static void add_lines(mnk_rules *rules, int dr, int dc)
{
    int rows = (int)rules->rows, cols = (int)rules->cols, k = (int)rules->k;

    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int end_r = r + (k - 1) * dr, end_c = c + (k - 1) * dc;
            uint64_t line = 0;
            if (end_r < 0 || end_r >= rows || end_c < 0 || end_c >= cols)
                continue;
            for (int j = 0; j < k; j++)
                line |= UINT64_C(1) << ((r + j * dr) * cols + c + j * dc);
            rules->line[rules->line_count++] = line;
        }
}

/* Adds the symmetry that moves cell (r, c) to (a*r + b*c + e, f*r + g*c +
 * h), unless it is the identity or already there. */
static void add_symmetry(mnk_rules *rules, int a, int b, int e, int f, int g,
                         int h)
{
    uint32_t s = rules->symmetry_count;
    uint8_t *moved = rules->moved[s];
    int cols = (int)rules->cols;
    bool identity = true;

    for (int r = 0; r < (int)rules->rows; r++)
        for (int c = 0; c < cols; c++) {
            int to = (a * r + b * c + e) * cols + f * r + g * c + h;
            moved[r * cols + c] = (uint8_t)to;
            identity = identity && to == r * cols + c;
        }
    if (identity)
        return;
    for (uint32_t t = 0; t < s; t++)
        if (memcmp(rules->moved[t], moved, rules->cells) == 0)
            return;
    for (uint32_t byte = 0; byte < MNK_MAX_BYTES; byte++)
        for (uint32_t v = 0; v < 256; v++) {
            uint64_t to = 0;
            for (uint32_t j = 0; j < 8; j++)
                if ((v >> j & 1) && 8 * byte + j < rules->cells)
                    to |= UINT64_C(1) << moved[8 * byte + j];
            rules->image[s][byte][v] = to;
        }
    rules->symmetry_count++;
}

static loopy_status make_game(const char *name, uint32_t rows, uint32_t cols,
                              uint32_t k, bool tictactoe, loopy_game *game)
{
    mnk_rules *rules = loopy_i_malloc(1, sizeof *rules);
    uint32_t m = rows - 1, n = cols - 1;

    if (rules == NULL)
        return LOOPY_ENOMEM;
    memset(rules, 0, sizeof *rules);
    rules->rows = rows;
    rules->cols = cols;
    rules->k = k;
    rules->cells = rows * cols;
    if (loopy_i_mnk_index_init(&rules->index, rules->cells) != LOOPY_OK) {
        loopy_i_free(rules);
        return LOOPY_ENOMEM;
    }
    rules->size = rules->index.size;
    rules->id = atomic_fetch_add(&games_made, 1) + 1;
    add_lines(rules, 0, 1);
    add_lines(rules, 1, 0);
    add_lines(rules, 1, 1);
    add_lines(rules, 1, -1);
    /* (r, c) -> (a*r + b*c + e, f*r + g*c + h): both flips and the half
     * turn, then on a square board the four that swap rows and columns. */
    add_symmetry(rules, -1, 0, (int)m, 0, 1, 0);
    add_symmetry(rules, 1, 0, 0, 0, -1, (int)n);
    add_symmetry(rules, -1, 0, (int)m, 0, -1, (int)n);
    if (rows == cols) {
        add_symmetry(rules, 0, 1, 0, 1, 0, 0);
        add_symmetry(rules, 0, -1, (int)n, -1, 0, (int)m);
        add_symmetry(rules, 0, 1, 0, -1, 0, (int)m);
        add_symmetry(rules, 0, -1, (int)n, 1, 0, 0);
    }
    if (!tictactoe)
        snprintf(rules->params, sizeof rules->params,
                 "%" PRIu32 ",%" PRIu32 ",%" PRIu32, rows, cols, k);

    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = name;
    game->params = rules->params;
    game->ctx = rules;
    game->size = rules->size;
    game->start = 0;
    game->primitive = mnk_primitive;
    game->moves = mnk_moves;
    game->unmoves = mnk_unmoves;
    game->legal = mnk_legal;
    game->canonical = mnk_canonical;
    game->canonical_moves = mnk_canonical_moves;
    game->class_size = mnk_class_size;
    game->tier_count = rules->cells + 1;
    game->tier_start = mnk_tier_start;
    game->tier_children = mnk_tier_children;
    /* Every move fills a cell. */
    game->remoteness_bound = rules->cells;
    game->format = mnk_format;
    game->parse = mnk_parse;
    game->release = mnk_release;
    game->move_parse = mnk_move_parse;
    game->move_label = mnk_move_label;
    game->draw = mnk_draw;
    return LOOPY_OK;
}

static loopy_status mnk_create(const char *params, loopy_game *game,
                               loopy_diag *diag)
{
    static const char *const what[3] = {
        "the number of rows M", "the number of columns N", "the line length K"};
    uint32_t value[3] = {3, 3, 3};
    size_t column[3] = {1, 1, 1};
    size_t at = 0;

    if (params != NULL && params[0] != '\0') {
        for (int i = 0; i < 3; i++) {
            column[i] = at + 1;
            int problem = loopy_i_read_param(params, &at, &value[i]);
            if (problem != 0) {
                if (problem == 1)
                    loopy_i_diag(diag, 1, column[i],
                                 "expected %s (parameters M,N,K such as "
                                 "4,4,3)",
                                 what[i]);
                else
                    loopy_i_diag(diag, 1, column[i], "%s is far too large",
                                 what[i]);
                return LOOPY_EINVAL;
            }
            if (i < 2 && params[at] != ',') {
                loopy_i_diag(diag, 1, at + 1,
                             "expected ',' after %s "
                             "(parameters M,N,K such as 4,4,3)",
                             what[i]);
                return LOOPY_EINVAL;
            }
            if (i < 2)
                at++;
        }
        if (params[at] != '\0') {
            loopy_i_diag(diag, 1, at + 1,
                         "unexpected text after K "
                         "(parameters M,N,K such as 4,4,3)");
            return LOOPY_EINVAL;
        }
    }
    for (int i = 0; i < 3; i++)
        if (value[i] == 0) {
            loopy_i_diag(diag, 1, column[i], "%s must be at least 1", what[i]);
            return LOOPY_EINVAL;
        }
    if ((uint64_t)value[0] * value[1] > MNK_MAX_CELLS) {
        loopy_i_diag(diag, 1, column[1],
                     "M*N = %" PRIu64 " cells is more than the limit of %d "
                     "(its boards must be numbered in 64 bits)",
                     (uint64_t)value[0] * value[1], MNK_MAX_CELLS);
        return LOOPY_EINVAL;
    }
    if (value[2] > value[0] && value[2] > value[1]) {
        loopy_i_diag(diag, 1, column[2],
                     "K = %" PRIu32 " is more than max(M, N) = %" PRIu32
                     ": nobody could ever win",
                     value[2], value[0] > value[1] ? value[0] : value[1]);
        return LOOPY_EINVAL;
    }
    return make_game("mnk", value[0], value[1], value[2], false, game);
}

static loopy_status tictactoe_create(const char *params, loopy_game *game,
                                     loopy_diag *diag)
{
    if (params != NULL && params[0] != '\0') {
        loopy_i_diag(diag, 1, 1,
                     "tictactoe takes no parameters (other boards: "
                     "mnk:M,N,K)");
        return LOOPY_EINVAL;
    }
    return make_game("tictactoe", 3, 3, 3, true, game);
}

const loopy_game_def loopy_i_game_mnk = {
    .version = LOOPY_GAME_VERSION,
    .name = "mnk",
    .summary = "m,n,k-games: K in a row on an M x N board wins",
    .params_help = "M,N,K: rows, columns and the length of a winning line "
                   "(default 3,3,3; M*N <= 40, K <= max(M, N))",
    .notation_help = "rows from top to bottom separated by '/', cells 'x' "
                     "(first player), 'o' and '.': x.o/.x./..o",
    .create = mnk_create,
};

const loopy_game_def loopy_i_game_tictactoe = {
    .version = LOOPY_GAME_VERSION,
    .name = "tictactoe",
    .summary = "tic-tac-toe: three in a row on a 3 x 3 board wins",
    .params_help = "none (other boards: mnk:M,N,K)",
    .notation_help = "rows from top to bottom separated by '/', cells 'x' "
                     "(first player), 'o' and '.': x.o/.x./..o",
    .create = tictactoe_create,
};
