/*
 * connect4.c - Connect Four on a board of W columns and H rows.
 *
 * The first player, x, and the second, o, take turns dropping a stone of
 * their own into a column that is not full, where it falls onto the stones
 * already there.  Four of one's stones in a row (horizontal, vertical or
 * diagonal) win; a full board without four in a row is a tie.
 *
 * A board's code, as John Tromp encodes positions: each column has H+1
 * bits, column c at bits c*(H+1) and up.  In a column of height h, bits
 * 0..h-1 are its stones from the bottom up (1 for x, 0 for o) and bit h is
 * a 1 that marks the top; the bits above are 0 (W*(H+1) <= 63).  Play
 * starts with a marker at the bottom of every column; x moves when both
 * have as many stones.  The rules below work on codes.  The index is not
 * the code: 2^(W*(H+1)) codes include boards without a marker, and boards
 * where one player has two stones more; the index (connect4_index.c)
 * numbers densely the boards where x has as many stones as o or one more,
 * a sixth to a seventh of the codes on the boards that can be solved.
 *
 * Which boards are positions.  Exactly those that arise in play: x has as
 * many stones as o or one more; nobody has four in a row, or only the
 * player who moved last has, and one of their stones on top of a column
 * lies in every one of their lines (the stone that ended the game), with
 * the board before it a position; and, unlike in tic-tac-toe, the stones
 * can be dropped in some order, x and o alternating, each column filling
 * from the bottom: two columns with o at the bottom and x above cannot be
 * played, as x's first stone must land on the bottom row.  That order is
 * searched for (see order_exists).
 *
 * Symmetry: the left-right mirror; the representative is the smaller
 * index, and moves and unmoves speak of representatives only.
 *
 * Notation: the rows from top to bottom, separated by '/', each cell 'x',
 * 'o' or '.' from the left: "..../..../.o../.xx." on 4 x 4.  A move is
 * named and numbered by its column, 1 to W from the left.
 */
#include "connect4_index.h"

#include <stdio.h>
#include <string.h>

#define C4_MAX_WIDTH 31 /* W*(H+1) <= 63 with H >= 1 */

typedef struct c4_rules {
    uint32_t width, height, stride; /* stride = H+1 bits per column */
    uint64_t codes;                 /* 2^(W*(H+1)) */
    c4_index index;
    uint64_t start;                 /* a marker at the bottom of each column */
    uint64_t column_bits;           /* the H+1 bits of column 0 */
    uint64_t top_row;               /* row H of every column */
    /* below[k]: the rows r < H+1 - 2^k of every column, those that have a
     * row 2^k above them in the same column. */
    uint64_t below[6];
    uint8_t column_of[C4_MAX_BITS + 1]; /* the column of each bit */
    char params[24];                    /* "WxH" */
} c4_rules;

/* A board: the stones of each player, bit c*(H+1) + r for row r (0 at the
 * bottom) of column c, and the markers (in each column, the bit above its
 * stones).  Stones never occupy row H, so lines never wrap from one column
 * into the next. */
typedef struct c4_board {
    uint64_t x, o, marker;
    uint32_t x_count, o_count;
} c4_board;

/* Reads code pos into *board; false when pos is not a board (a column
 * without its marker, or pos >= codes).  All columns at once: each bit is ORed with
 * the bits above it in its column (shifts by 1, 2, 4, ... that stay inside
 * the column), which leaves 1s from each column's highest 1, its marker,
 * down to the bottom; a column without a 1 stays empty. */
static bool decode(const c4_rules *rules, loopy_position pos, c4_board *board)
{
    uint64_t filled = pos, stones;

    if (pos >= rules->codes)
        return false;
    for (uint32_t k = 0; (UINT32_C(1) << k) < rules->stride; k++)
        filled |= filled >> (1u << k) & rules->below[k];
    if ((filled & rules->start) != rules->start)
        return false;
    board->marker = filled & ~(filled >> 1 & rules->below[0]);
    stones = filled & ~board->marker;
    board->x = pos & stones;
    board->o = stones & ~pos;
    board->x_count = loopy_i_count_bits(board->x);
    board->o_count = loopy_i_count_bits(board->o);
    return true;
}

/* Whether stones hold four in a row.  A step of 1 goes up a column, H+1
 * along a row, H and H+2 along the diagonals; the empty row H between
 * columns stops a line from wrapping.  Steps whose four cells cannot all
 * be below bit 63 are skipped (and would shift by 64 or more). */
static bool has_four(const c4_rules *rules, uint64_t stones)
{
    const uint32_t step[4] = {1, rules->stride - 1, rules->stride,
                              rules->stride + 1};

    for (int i = 0; i < 4; i++) {
        uint64_t pairs;
        if (3 * step[i] > C4_MAX_BITS)
            continue;
        pairs = stones & stones >> step[i];
        if (pairs & pairs >> 2 * step[i])
            return true;
    }
    return false;
}

/* ---- Which boards are positions ---- */

/*
 * The states from which the search below failed, remembered exactly: a
 * bitset over all states when there are at most 2^16 of them, otherwise a
 * hash set (open addressing, state + 1 in a slot, 0 empty) that starts in
 * the caller's buffer and grows on the heap.  Should the heap refuse, the
 * set stops growing and new states replace old ones in their first slot:
 * forgetting a failed state only costs time, and legal() cannot report a
 * failure.
 */
#define MEMO_WORDS 1024
typedef struct failed_states {
    bool bitset;
    uint64_t *word; /* the bitset, or the hash slots */
    size_t capacity, count;
    bool on_heap, full;
} failed_states;

static size_t memo_home(const failed_states *f, uint64_t state)
{
    return (size_t)((state * UINT64_C(0x9e3779b97f4a7c15)) >> 32) &
           (f->capacity - 1);
}

static bool memo_has(const failed_states *f, uint64_t state)
{
    if (f->bitset)
        return f->word[state / 64] >> (state % 64) & 1;
    for (size_t i = memo_home(f, state);; i = (i + 1) & (f->capacity - 1)) {
        if (f->word[i] == state + 1)
            return true;
        if (f->word[i] == 0)
            return false;
    }
}

static void memo_add(failed_states *f, uint64_t state)
{
    size_t i;

    if (f->bitset) {
        f->word[state / 64] |= UINT64_C(1) << (state % 64);
        return;
    }
    if (!f->full && 2 * (f->count + 1) > f->capacity) {
        uint64_t *grown = loopy_i_calloc(2 * f->capacity, sizeof *grown);
        if (grown == NULL) {
            f->full = true;
        } else {
            uint64_t *old = f->word;
            size_t old_capacity = f->capacity;
            f->word = grown;
            f->capacity *= 2;
            for (size_t j = 0; j < old_capacity; j++) {
                if (old[j] == 0)
                    continue;
                for (i = memo_home(f, old[j] - 1); grown[i] != 0;
                     i = (i + 1) & (f->capacity - 1))
                    ;
                grown[i] = old[j];
            }
            if (f->on_heap)
                loopy_i_free(old);
            f->on_heap = true;
        }
    }
    if (f->full) {
        f->word[memo_home(f, state)] = state + 1;
        return;
    }
    for (i = memo_home(f, state); f->word[i] != 0;
         i = (i + 1) & (f->capacity - 1))
        ;
    f->word[i] = state + 1;
    f->count++;
}

/*
 * Whether the stones of a board without four in a row can be dropped in
 * some order, x first and then alternately, each column from the bottom
 * (no prefix of that order has a line either, so play never stops early).
 * Not every board can: with o at the bottom of every column x has nowhere
 * to start, and in general one column may have to wait with a stone of one
 * colour until another has played one of the other.
 *
 * A depth-first search over the prefixes of the columns: state (k_0 ..
 * k_{W-1}) has the lowest k_c stones of each column c played, and the next
 * stone is x's iff sum k_c is even.  Columns are tried best first: one
 * whose stone after the next is of the other colour (it can answer the
 * opponent's next stone itself), then the others, lowest column first; on
 * the boards of play this finds an order at once or after a step or two
 * back.  The states from which it failed are remembered (failed_states,
 * set up at the first failure), so each state is searched once.  No
 * recursion: one frame per stone.  Time O(W * S) and memory O(S) for the
 * S = prod (h_c + 1) states of column heights h_c (7 x 6: S <= 7^7), in
 * practice O(W * stones).
 */
static bool order_exists(const c4_rules *rules, const c4_board *board)
{
    uint32_t total = board->x_count + board->o_count;
    /* The next stone of every column, one bit each: a column whose stones
     * are all played has its bit on the marker, which is in neither x nor
     * o, so it never offers a stone. */
    uint64_t head = rules->start;
    uint64_t tried[C4_MAX_STONES + 1]; /* heads tried at each step */
    uint8_t chosen[C4_MAX_STONES + 1]; /* the head bit played */
    /* Set up at the first failure: the state's number (column c's digit
     * k_c < h_c + 1 has weight[c]) and the failed states. */
    bool memo_ready = false, found = true;
    uint64_t weight[C4_MAX_WIDTH], state = 0;
    uint64_t buffer[MEMO_WORDS];
    failed_states memo = {false, buffer, MEMO_WORDS, 0, false, false};
    uint32_t t = 0;

    tried[0] = 0;
    while (t < total) {
        uint64_t mine = t % 2 == 0 ? board->x : board->o;
        uint64_t other = t % 2 == 0 ? board->o : board->x;
        uint64_t offer = head & mine & ~tried[t];
        /* Best first: a column whose stone after this one is the other
         * player's, then the others; each lowest column first. */
        uint64_t answer = offer & other >> 1;
        uint64_t pick = 0;
        for (int pass = 0; pass < 2 && pick == 0; pass++) {
            uint64_t set = pass == 0 ? answer : offer & ~answer;
            for (; set != 0; set &= set - 1) {
                uint64_t bit = set & (~set + 1);
                if (!memo_ready ||
                    !memo_has(&memo,
                              state +
                                  weight[rules->column_of[loopy_i_lowest_bit(bit)]])) {
                    pick = bit;
                    break;
                }
            }
        }
        if (pick != 0) {
            chosen[t] = (uint8_t)loopy_i_lowest_bit(pick);
            tried[t] |= pick;
            head ^= pick | pick << 1;
            if (memo_ready)
                state += weight[rules->column_of[chosen[t]]];
            tried[++t] = 0;
            continue;
        }
        /* Every move from here fails: remember, and go back one stone. */
        if (!memo_ready) {
            uint64_t states = 1;
            for (uint32_t c = 0; c < rules->width; c++) {
                weight[c] = states;
                states *=
                    (uint64_t)loopy_i_lowest_bit(board->marker >> (c * rules->stride)) +
                    1;
            }
            memo.bitset = states <= 64 * MEMO_WORDS;
            memset(buffer, 0,
                   (memo.bitset ? (states + 63) / 64 : MEMO_WORDS) *
                       sizeof *buffer);
            for (uint32_t u = 0; u < t; u++)
                state += weight[rules->column_of[chosen[u]]];
            memo_ready = true;
        }
        memo_add(&memo, state);
        if (t == 0) {
            found = false;
            break;
        }
        t--;
        head ^= (UINT64_C(1) << chosen[t]) | (UINT64_C(2) << chosen[t]);
        state -= weight[rules->column_of[chosen[t]]];
    }
    if (memo.on_heap)
        loopy_i_free(memo.word);
    return found;
}

/* Takes off the stone below marker (the top stone of its column). */
static void lift(c4_board *board, uint64_t marker)
{
    uint64_t stone = marker >> 1;

    if (board->x & stone) {
        board->x &= ~stone;
        board->x_count--;
    } else {
        board->o &= ~stone;
        board->o_count--;
    }
    board->marker ^= marker | stone;
}

/* Whether board arises in play; if not, and why is not NULL, says why. */
static bool board_is_legal(const c4_rules *rules, const c4_board *board,
                           char *why, size_t why_capacity)
{
    bool x_line, o_line, x_last = board->x_count > board->o_count;
    bool common_top = false;

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
    x_line = has_four(rules, board->x);
    o_line = has_four(rules, board->o);
    if (x_line && o_line) {
        if (why != NULL)
            snprintf(why, why_capacity, "both x and o have four in a row");
        return false;
    }
    if ((x_line && !x_last) || (o_line && x_last)) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "%c has four in a row but %c moved last",
                     x_line ? 'x' : 'o', x_line ? 'o' : 'x');
        return false;
    }
    if (!x_line && !o_line) {
        if (order_exists(rules, board))
            return true;
    } else {
        /* The last stone played is one on top of a column, of the player
         * who won, and lies in all their lines; before it the board had
         * none and could be played. */
        uint64_t winner = x_last ? board->x : board->o;
        for (uint64_t tops = board->marker & winner << 1; tops != 0;
             tops &= tops - 1) {
            c4_board before = *board;
            lift(&before, tops & (~tops + 1));
            if (has_four(rules, x_last ? before.x : before.o))
                continue;
            common_top = true;
            if (order_exists(rules, &before))
                return true;
        }
        if (!common_top) {
            if (why != NULL)
                snprintf(why, why_capacity,
                         "no stone on top of a column is in all of %c's "
                         "lines: play would have stopped earlier",
                         x_last ? 'x' : 'o');
            return false;
        }
    }
    if (why != NULL)
        snprintf(why, why_capacity,
                 "no order of play, x and o alternating, builds these "
                 "columns");
    return false;
}

/* The code of the board at index pos; false when pos is outside the
 * index. */
static bool code_at(const c4_rules *rules, loopy_position pos, uint64_t *code,
                    c4_board *board)
{
    /* The solvers ask for the same position several times in a row
     * (canonical, primitive, moves): each thread keeps its last answer.
     * Boards of the same size have the same index, whatever the game. */
    static _Thread_local struct {
        uint32_t width, height;
        loopy_position pos;
        uint64_t code;
    } last;

    if (pos >= rules->index.size)
        return false;
    if (last.width == rules->width && last.height == rules->height &&
        last.pos == pos) {
        *code = last.code;
    } else {
        *code = loopy_i_c4_unrank(&rules->index, pos);
        last.width = rules->width;
        last.height = rules->height;
        last.pos = pos;
        last.code = *code;
    }
    return decode(rules, *code, board);
}

static int c4_legal(void *ctx, loopy_position pos)
{
    const c4_rules *rules = ctx;
    c4_board board;
    uint64_t code;

    return code_at(rules, pos, &code, &board) &&
           board_is_legal(rules, &board, NULL, 0);
}

/* The representative of pos and its mirror image: the smaller index. */
static loopy_position c4_canonical(void *ctx, loopy_position pos)
{
    const c4_rules *rules = ctx;
    c4_board board;
    uint64_t code;

    if (!code_at(rules, pos, &code, &board))
        return pos;
    return loopy_i_c4_rank_canonical(&rules->index, code);
}

/* The positions in the class of pos: 1 for a board that is its own
 * mirror image, else 2. */
static uint64_t c4_class_size(void *ctx, loopy_position pos)
{
    const c4_rules *rules = ctx;
    c4_board board;
    uint64_t code;

    if (!code_at(rules, pos, &code, &board))
        return 1;
    return loopy_i_c4_rank_mirror(&rules->index, code) == pos ? 1 : 2;
}

static loopy_primitive c4_primitive(void *ctx, loopy_position pos)
{
    const c4_rules *rules = ctx;
    c4_board board;
    uint64_t code;

    if (!code_at(rules, pos, &code, &board))
        return LOOPY_PLAYING;
    if (has_four(rules, board.x_count > board.o_count ? board.x : board.o))
        return LOOPY_OVER_LOSE;
    if (board.x_count + board.o_count == rules->width * rules->height)
        return LOOPY_OVER_TIE;
    return LOOPY_PLAYING;
}

/* ---- Moves and unmoves ---- */

/* The index of code, or of its representative (canonical). */
static loopy_position index_of(const c4_rules *rules, uint64_t code,
                               bool canonical)
{
    return canonical ? loopy_i_c4_rank_canonical(&rules->index, code)
                     : loopy_i_c4_rank(&rules->index, code);
}

/* A stone into any column that is not full.  The marker moves up one bit:
 * x's stone is the 1 that the marker leaves, o's a 0. */
static size_t list_moves(const c4_rules *rules, loopy_position pos,
                         bool canonical, loopy_position *out, size_t capacity)
{
    c4_board board;
    loopy_position list[C4_MAX_WIDTH];
    size_t count = 0;
    uint64_t code;
    bool x_moves;

    if (!code_at(rules, pos, &code, &board))
        return 0;
    x_moves = board.x_count == board.o_count;
    for (uint64_t open = board.marker & ~rules->top_row; open != 0;
         open &= open - 1) {
        uint64_t marker = open & (~open + 1);
        list[count++] = index_of(
            rules, (x_moves ? code : code & ~marker) | marker << 1, canonical);
    }
    return loopy_i_distinct_out(list, count, out, capacity);
}

static size_t c4_moves(void *ctx, loopy_position pos, loopy_position *out,
                       size_t capacity)
{
    return list_moves(ctx, pos, false, out, capacity);
}

static size_t c4_canonical_moves(void *ctx, loopy_position pos,
                                 loopy_position *out, size_t capacity)
{
    return list_moves(ctx, pos, true, out, capacity);
}

/* The player who moved last takes their stone off the top of a column,
 * when the board before was still being played: the player to move had no
 * line (nor has now), and the other has none without the stone.  Whether
 * that board arises in play is not asked (unmoves may give boards that do
 * not: the solver skips them). */
static size_t list_unmoves(const c4_rules *rules, loopy_position pos,
                           bool canonical, loopy_position *out,
                           size_t capacity)
{
    c4_board board;
    loopy_position list[C4_MAX_WIDTH];
    size_t count = 0;
    uint64_t code;
    bool x_last;

    if (!code_at(rules, pos, &code, &board))
        return 0;
    x_last = board.x_count > board.o_count;
    if (has_four(rules, x_last ? board.o : board.x))
        return 0;
    for (uint64_t tops = board.marker & (x_last ? board.x : board.o) << 1;
         tops != 0; tops &= tops - 1) {
        uint64_t marker = tops & (~tops + 1);
        c4_board before = board;
        lift(&before, marker);
        if (has_four(rules, x_last ? before.x : before.o))
            continue;
        list[count++] = index_of(rules, (code & ~marker) | marker >> 1,
                                 canonical);
    }
    return loopy_i_distinct_out(list, count, out, capacity);
}

static size_t c4_unmoves(void *ctx, loopy_position pos, loopy_position *out,
                         size_t capacity)
{
    return list_unmoves(ctx, pos, false, out, capacity);
}

static size_t c4_canonical_unmoves(void *ctx, loopy_position pos,
                                   loopy_position *out, size_t capacity)
{
    return list_unmoves(ctx, pos, true, out, capacity);
}

/* ---- Notation ---- */

static size_t c4_format(void *ctx, loopy_position pos, char *out,
                        size_t capacity)
{
    const c4_rules *rules = ctx;
    char text[2 * C4_MAX_BITS + 2];
    size_t len = 0;
    c4_board board;
    uint64_t code;

    if (!code_at(rules, pos, &code, &board))
        return LOOPY_GAME_ERROR;
    for (uint32_t r = rules->height; r-- > 0;) {
        for (uint32_t c = 0; c < rules->width; c++) {
            uint64_t bit = UINT64_C(1) << (c * rules->stride + r);
            text[len++] = board.x & bit ? 'x' : board.o & bit ? 'o' : '.';
        }
        if (r > 0)
            text[len++] = '/';
    }
    text[len] = '\0';
    return loopy_i_text_out(text, len, out, capacity);
}

static int c4_parse(void *ctx, const char *text, loopy_position *pos, char *why,
                    size_t why_capacity)
{
    const c4_rules *rules = ctx;
    char cell[C4_MAX_STONES]; /* row-major from the top, as written */
    c4_board board;
    loopy_position value = 0;

    if (loopy_i_read_grid(text, rules->height, rules->width, " from the top",
                          cell, why, why_capacity) != 0)
        return 1;
    /* Each column from the bottom up: stones, then only empty cells. */
    for (uint32_t c = 0; c < rules->width; c++) {
        uint32_t h = 0;
        for (uint32_t r = 0; r < rules->height; r++) {
            char stone = cell[(rules->height - 1 - r) * rules->width + c];
            if (stone == '.')
                continue;
            if (h != r) {
                snprintf(why, why_capacity,
                         "row %" PRIu32 " from the top, "
                         "column %" PRIu32 ": the stone floats above an "
                         "empty cell",
                         rules->height - r, c + 1);
                return 1;
            }
            if (stone == 'x')
                value |= UINT64_C(1) << (c * rules->stride + h);
            h++;
        }
        value |= UINT64_C(1) << (c * rules->stride + h);
    }
    (void)decode(rules, value, &board);
    if (!board_is_legal(rules, &board, why, why_capacity))
        return 1;
    *pos = loopy_i_c4_rank(&rules->index, value);
    return 0;
}

/* The code of the board written as text, when it is a position. */
static bool code_of(const c4_rules *rules, const char *text, uint64_t *code,
                    c4_board *board)
{
    loopy_position pos;
    char why[8];

    return text != NULL &&
           c4_parse((void *)(uintptr_t)rules, text, &pos, why, sizeof why) ==
               0 &&
           code_at(rules, pos, code, board);
}

/* The code after a stone into column c of code (which is not full), the
 * player to move's. */
static uint64_t drop(const c4_rules *rules, uint64_t code,
                     const c4_board *board, uint32_t c)
{
    uint64_t marker = board->marker & rules->column_bits << (c * rules->stride);

    return (board->x_count == board->o_count ? code : code & ~marker) |
           marker << 1;
}

/* A move is named and numbered by its column, 1 to W from the left. */
static size_t c4_move_label(void *ctx, const char *from, loopy_position to,
                            uint32_t *number, char *label, size_t capacity)
{
    const c4_rules *rules = ctx;
    c4_board board;
    uint64_t code;
    char text[16];

    if (!code_of(rules, from, &code, &board))
        return LOOPY_GAME_ERROR;
    for (uint32_t c = 0; c < rules->width; c++) {
        uint64_t marker =
            board.marker & rules->column_bits << (c * rules->stride);
        if ((marker & rules->top_row) != 0 ||
            loopy_i_c4_rank(&rules->index, drop(rules, code, &board, c)) != to)
            continue;
        *number = c + 1;
        snprintf(text, sizeof text, "%" PRIu32, c + 1);
        return loopy_i_text_out(text, strlen(text), label, capacity);
    }
    return LOOPY_GAME_ERROR;
}

static int c4_move_parse(void *ctx, const char *text, const char *move,
                         loopy_position *to, char *why, size_t why_capacity)
{
    const c4_rules *rules = ctx;
    c4_board board;
    uint64_t code, column = 0;
    size_t digits = 0;

    if (!code_of(rules, text, &code, &board)) {
        snprintf(why, why_capacity, "not a position of the game");
        return 1;
    }
    while (move[digits] >= '0' && move[digits] <= '9' && digits < 6)
        column = column * 10 + (uint64_t)(move[digits++] - '0');
    if (digits == 0 || move[digits] != '\0') {
        snprintf(why, why_capacity, "expected a column, 1 to %" PRIu32,
                 rules->width);
        return 1;
    }
    if (column < 1 || column > rules->width) {
        snprintf(why, why_capacity, "no move %s: the columns are 1 to %"
                 PRIu32, move, rules->width);
        return 1;
    }
    if (board.marker & rules->top_row &
        rules->column_bits << ((column - 1) * rules->stride)) {
        snprintf(why, why_capacity, "no move %s: the column is full", move);
        return 1;
    }
    if (has_four(rules, board.x_count > board.o_count ? board.x : board.o)) {
        snprintf(why, why_capacity, "no move %s: the game is over", move);
        return 1;
    }
    *to = loopy_i_c4_rank(&rules->index,
                          drop(rules, code, &board, (uint32_t)column - 1));
    return 0;
}

static size_t c4_draw(void *ctx, const char *from, unsigned flags, char *out,
                      size_t capacity)
{
    const c4_rules *rules = ctx;
    char cell[C4_MAX_STONES], why[8];

    if (loopy_i_read_grid(from, rules->height, rules->width, "", cell, why,
                          sizeof why) != 0)
        return LOOPY_GAME_ERROR;
    return loopy_i_draw_grid(cell, rules->height, rules->width, false,
                             (flags & LOOPY_DRAW_UNICODE) != 0, out, capacity);
}

/* Tier t: the boards of t stones, whose moves reach tier t + 1. */
static loopy_position c4_tier_start(void *ctx, uint64_t tier)
{
    const c4_rules *rules = ctx;
    return tier <= rules->index.cells ? rules->index.layer_start[tier]
                                      : rules->index.size;
}

static size_t c4_tier_children(void *ctx, uint64_t tier, uint64_t *out,
                               size_t capacity)
{
    const c4_rules *rules = ctx;

    if (tier >= rules->index.cells)
        return 0;
    if (capacity >= 1)
        out[0] = tier + 1;
    return 1;
}

static void c4_release(void *ctx)
{
    c4_rules *rules = ctx;

    loopy_i_c4_index_free(&rules->index);
    loopy_i_free(rules);
}

/* ---- Making a game ---- */

static loopy_status c4_create(const char *params, loopy_game *game,
                              loopy_diag *diag)
{
    static const char *const what[2] = {"the width W", "the height H"};
    uint32_t value[2] = {7, 6};
    size_t column[2] = {1, 1};
    size_t at = 0;
    c4_rules *rules;

    if (params != NULL && params[0] != '\0') {
        for (int i = 0; i < 2; i++) {
            int problem;
            column[i] = at + 1;
            problem = loopy_i_read_param(params, &at, &value[i]);
            if (problem != 0) {
                if (problem == 1)
                    loopy_i_diag(diag, 1, column[i],
                                 "expected %s (parameters WxH such as 7x6)",
                                 what[i]);
                else
                    loopy_i_diag(diag, 1, column[i], "%s is far too large",
                                 what[i]);
                return LOOPY_EINVAL;
            }
            if (i == 0 && params[at] != 'x') {
                loopy_i_diag(diag, 1, at + 1,
                             "expected 'x' after the width "
                             "(parameters WxH such as 7x6)");
                return LOOPY_EINVAL;
            }
            if (i == 0)
                at++;
        }
        if (params[at] != '\0') {
            loopy_i_diag(diag, 1, at + 1,
                         "unexpected text after the height "
                         "(parameters WxH such as 7x6)");
            return LOOPY_EINVAL;
        }
    }
    for (int i = 0; i < 2; i++)
        if (value[i] == 0) {
            loopy_i_diag(diag, 1, column[i], "%s must be at least 1", what[i]);
            return LOOPY_EINVAL;
        }
    if ((uint64_t)value[0] * (value[1] + 1) > C4_MAX_BITS) {
        loopy_i_diag(diag, 1, column[1],
                     "W*(H+1) = %" PRIu64 " is more than the limit of %d "
                     "(the index has H+1 bits per column and must fit in "
                     "64 bits)",
                     (uint64_t)value[0] * (value[1] + 1), C4_MAX_BITS);
        return LOOPY_EINVAL;
    }

    rules = loopy_i_malloc(1, sizeof *rules);
    if (rules == NULL)
        return LOOPY_ENOMEM;
    memset(rules, 0, sizeof *rules);
    rules->width = value[0];
    rules->height = value[1];
    rules->stride = value[1] + 1;
    rules->codes = UINT64_C(1) << (rules->width * rules->stride);
    rules->column_bits = (UINT64_C(1) << rules->stride) - 1;
    for (uint32_t b = 0; b < rules->width * rules->stride; b++)
        rules->column_of[b] = (uint8_t)(b / rules->stride);
    for (uint32_t c = 0; c < rules->width; c++) {
        rules->start |= UINT64_C(1) << (c * rules->stride);
        rules->top_row |= UINT64_C(1) << (c * rules->stride + rules->height);
        for (uint32_t k = 0; (UINT32_C(1) << k) < rules->stride; k++)
            rules->below[k] |=
                ((UINT64_C(1) << (rules->stride - (UINT32_C(1) << k))) - 1)
                << (c * rules->stride);
    }
    snprintf(rules->params, sizeof rules->params, "%" PRIu32 "x%" PRIu32,
             rules->width, rules->height);
    if (loopy_i_c4_index_init(&rules->index, rules->width, rules->height) !=
        LOOPY_OK) {
        loopy_i_free(rules);
        return LOOPY_ENOMEM;
    }

    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "connect4";
    game->params = rules->params;
    game->ctx = rules;
    game->size = rules->index.size;
    game->start = loopy_i_c4_rank(&rules->index, rules->start);
    game->primitive = c4_primitive;
    game->moves = c4_moves;
    game->unmoves = c4_unmoves;
    game->legal = c4_legal;
    game->canonical = c4_canonical;
    game->class_size = c4_class_size;
    game->format = c4_format;
    game->parse = c4_parse;
    game->release = c4_release;
    game->canonical_moves = c4_canonical_moves;
    game->canonical_unmoves = c4_canonical_unmoves;
    game->move_parse = c4_move_parse;
    game->move_label = c4_move_label;
    game->draw = c4_draw;
    game->tier_count = rules->index.cells + 1;
    /* Every move fills a cell. */
    game->remoteness_bound = rules->index.cells;
    game->tier_start = c4_tier_start;
    game->tier_children = c4_tier_children;
    return LOOPY_OK;
}

const loopy_game_def loopy_i_game_connect4 = {
    .version = LOOPY_GAME_VERSION,
    .name = "connect4",
    .summary = "Connect Four: drop stones into columns, four in a row wins",
    .params_help = "WxH: columns and rows (default 7x6; W*(H+1) <= 63)",
    .notation_help = "rows from top to bottom separated by '/', cells 'x' "
                     "(first player), 'o' and '.': ..../..../.o../.xx.",
    .create = c4_create,
};
