/*
 * test_games.c - the built-in games by rules: mnk, tictactoe and connect4
 * (their parameters and class sizes: test_game_defs.c).
 *
 * For each board, positions are enumerated breadth-first from the start
 * with the game's moves(), and every position reached is checked against
 * code written here independently of lib/games: its own decoding of the
 * index, its own line search, its own board symmetries.  Checked for each
 * reached position p (a representative of its symmetry class): legal(p);
 * primitive(p) against the line search; canonical(p) == p, and canonical
 * of every symmetric image of p is p; format then parse gives p back; the
 * edges p -> q of moves() and those of unmoves(), taken to
 * representatives, are the same set (compared through order-independent
 * fingerprints); moves() and unmoves() give positions as they are.  On every position of
 * the small boards, and on a sample of the large ones, also edge by edge
 * (q in moves(p) iff p in unmoves(q), each unmove reached and still
 * playing), the notation of the images, and the protocol of the buffer
 * callbacks (a count larger than the capacity, prefixes, no repeats).
 * Then every index of the smaller spaces is scanned: legal(i) holds for as
 * many indices as positions were reached, all of them legal, so for
 * exactly those (legal says "can arise in play").
 *
 * The counts are compared with published ones:
 *  - tic-tac-toe: 5,478 positions reachable from the empty board, 765 up
 *    to the board's symmetries (Wikipedia, "Tic-tac-toe", Combinatorics;
 *    by plies, up to symmetry, 1, 3, 12, 38, 108, 174, 204, 153, 57, 15:
 *    OEIS A008907), of which 138 are terminal: 91 won by x, 44 by o and
 *    3 drawn (Wikipedia, same section, after T. Bolon, "How to never lose
 *    at Tic-Tac-Toe", 2013, p. 7);
 *  - Connect Four: the positions reachable from the empty board (play
 *    stopping at four in a row) on W x H boards, as counted by John Tromp
 *    ("John's Connect Four Playground", tromp.github.io/c4/c4.html) and
 *    recounted with BDDs in the table of the README of
 *    github.com/markus7800/Connect4-Strong-Solver (M. Boeck): 3x3 869,
 *    4x3 12,031, 3x4 6,000, 4x4 161,029, 4x5 1,706,255 and 5x4 3,945,711
 *    (7x6: 4,531,985,219,092, the sum of OEIS A212693, out of reach here).
 * For the other m,n,k boards no published count was found; there the BFS
 * count is cross-checked against the scan of all indices with legal(),
 * two independent enumerations.
 *
 * The largest boards are skipped when LOOPY_TEST_QUICK or LOOPY_TEST_TSAN
 * is set, and in builds with AddressSanitizer or ThreadSanitizer.
 */
#include "check.h"
#include "internal.h"
#include "loopy_game.h"
#include "../lib/games/games.h"

#include <stdlib.h>
#include <string.h>

/* ---- A set of positions, which also keeps the order of insertion ---- */

typedef struct pos_set {
    uint64_t *slot; /* open addressing; UINT64_MAX is empty (never a
                       position: sizes here are below 2^63) */
    size_t capacity;
    uint64_t *list; /* in insertion order */
    size_t count, list_capacity;
} pos_set;

static size_t set_home(const pos_set *set, uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 20) &
           (set->capacity - 1);
}

static int set_contains(const pos_set *set, uint64_t key)
{
    for (size_t i = set_home(set, key);; i = (i + 1) & (set->capacity - 1)) {
        if (set->slot[i] == key)
            return 1;
        if (set->slot[i] == UINT64_MAX)
            return 0;
    }
}

static void set_grow(pos_set *set)
{
    uint64_t *old = set->slot;
    size_t old_capacity = set->capacity;

    set->capacity = old_capacity ? 2 * old_capacity : 1024;
    set->slot = malloc(set->capacity * sizeof *set->slot);
    if (set->slot == NULL)
        abort();
    memset(set->slot, 0xff, set->capacity * sizeof *set->slot);
    for (size_t j = 0; j < old_capacity; j++) {
        size_t i;
        if (old[j] == UINT64_MAX)
            continue;
        for (i = set_home(set, old[j]); set->slot[i] != UINT64_MAX;
             i = (i + 1) & (set->capacity - 1))
            ;
        set->slot[i] = old[j];
    }
    free(old);
}

/* Adds key; returns whether it was new. */
static int set_add(pos_set *set, uint64_t key)
{
    size_t i;

    if (2 * (set->count + 1) > set->capacity)
        set_grow(set);
    for (i = set_home(set, key); set->slot[i] != UINT64_MAX;
         i = (i + 1) & (set->capacity - 1))
        if (set->slot[i] == key)
            return 0;
    set->slot[i] = key;
    if (set->count == set->list_capacity) {
        set->list_capacity = set->list_capacity ? 2 * set->list_capacity : 1024;
        set->list = realloc(set->list, set->list_capacity * sizeof *set->list);
        if (set->list == NULL)
            abort();
    }
    set->list[set->count++] = key;
    return 1;
}

static void set_free(pos_set *set)
{
    free(set->slot);
    free(set->list);
    memset(set, 0, sizeof *set);
}

/* ---- The boards, decoded here without lib/games ---- */

enum { MNK, CONNECT4 };

/* A board as a grid: cell[r][c] is 0 (empty), 1 (x) or 2 (o).  For mnk,
 * row 0 is the top; for Connect Four, row 0 is the bottom. */
typedef struct grid {
    int rows, cols;
    uint8_t cell[40][40];
} grid;

typedef struct shape {
    int kind;
    int rows, cols, k; /* Connect Four: rows = H, cols = W, k = 4 */
} shape;

/*
 * The games' indices, built here by enumeration in the order their
 * definitions give: the boards where x has as many stones as o or one
 * more, by their number n of stones, then by where the stones are, then by
 * the colouring (which of the n stones are x's: an n-bit string with
 * ceil(n/2) ones, in increasing order as numbers).
 *  - Connect Four (lib/games/connect4_index.c): where the stones are is
 *    the vector of column heights, in lexicographic order (column 0 most
 *    significant); the colouring reads the stones column by column, each
 *    from the bottom.  code[i] is the board of index i in Tromp's
 *    encoding (the columns' stones under a marker bit, H+1 bits a column).
 *  - m,n,k (lib/games/mnk_index.c): where the stones are is the set of
 *    occupied cells, in increasing order as a number whose bit i is cell
 *    i; the colouring reads the stones in the order of their cells.
 *    code[i] is x | o << cells, bit i for cell i.
 * sorted holds code << 32 | i in increasing order, for the way back.
 */
typedef struct idx_table {
    uint64_t n, capacity;
    uint64_t *code, *sorted;
} idx_table;

static idx_table table;

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The numbers with the same count of ones, in increasing order: the least
 * with `ones` ones, and the next larger after v (Gosper's hack; after 0,
 * the only one with none, UINT64_MAX, past every limit here). */
static uint64_t least_with_ones(int ones)
{
    return (UINT64_C(1) << ones) - 1;
}

static uint64_t next_same_ones(uint64_t v)
{
    uint64_t low = v & (~v + 1), ripple = v + low;

    if (v == 0)
        return UINT64_MAX;
    return ripple | (((v ^ ripple) >> 2) / low);
}

static void table_add(uint64_t code)
{
    if (table.n == table.capacity) {
        table.capacity = table.capacity == 0 ? 1024 : 2 * table.capacity;
        table.code = realloc(table.code, table.capacity * sizeof *table.code);
    }
    if (table.code == NULL)
        abort();
    table.code[table.n++] = code;
}

static void table_sort(void)
{
    table.sorted = malloc((table.n + 1) * sizeof *table.sorted);
    if (table.sorted == NULL)
        abort();
    for (uint64_t i = 0; i < table.n; i++)
        table.sorted[i] = table.code[i] << 32 | i;
    qsort(table.sorted, table.n, sizeof *table.sorted, compare_u64);
}

static void c4_table_build(int width, int height)
{
    int heights[40];

    memset(&table, 0, sizeof table);
    for (int n = 0; n <= width * height; n++) {
        int ones = (n + 1) / 2;
        /* The height vectors in lexicographic order: an odometer whose
         * last column turns fastest. */
        memset(heights, 0, sizeof heights);
        for (;;) {
            int sum = 0, c;
            for (c = 0; c < width; c++)
                sum += heights[c];
            if (sum == n)
                for (uint64_t v = least_with_ones(ones);
                     v < UINT64_C(1) << n; v = next_same_ones(v)) {
                    uint64_t code = 0;
                    int at = 0;
                    for (c = 0; c < width; c++) {
                        uint64_t field = v >> at &
                                         ((UINT64_C(1) << heights[c]) - 1);
                        field |= UINT64_C(1) << heights[c];
                        code |= field << (c * (height + 1));
                        at += heights[c];
                    }
                    table_add(code);
                }
            for (c = width - 1; c >= 0 && heights[c] == height; c--)
                heights[c] = 0;
            if (c < 0)
                break;
            heights[c]++;
        }
    }
    table_sort();
}

/* cells <= 16, so that a code fits in 32 bits. */
static void mnk_table_build(int cells)
{
    memset(&table, 0, sizeof table);
    for (int n = 0; n <= cells; n++)
        for (uint64_t stones = least_with_ones(n);
             stones < UINT64_C(1) << cells; stones = next_same_ones(stones))
            for (uint64_t v = least_with_ones((n + 1) / 2);
                 v < UINT64_C(1) << n; v = next_same_ones(v)) {
                uint64_t x = 0;
                int at = 0;
                for (int i = 0; i < cells; i++)
                    if (stones >> i & 1)
                        x |= (v >> at++ & 1) << i;
                table_add(x | (stones & ~x) << cells);
            }
    table_sort();
}

static void table_free(void)
{
    free(table.code);
    free(table.sorted);
    memset(&table, 0, sizeof table);
}

/* The index of a code, UINT64_MAX when it has none. */
static uint64_t table_find(uint64_t code)
{
    uint64_t lo = 0, hi = table.n;

    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (table.sorted[mid] >> 32 < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < table.n && table.sorted[lo] >> 32 == code
               ? (table.sorted[lo] & UINT32_MAX)
               : UINT64_MAX;
}

/* Decodes pos; 0 when it is not a board (Connect Four: outside the
 * index). */
static int to_grid(const shape *s, uint64_t pos, grid *g)
{
    g->rows = s->rows;
    g->cols = s->cols;
    if (pos >= table.n)
        return 0;
    pos = table.code[pos];
    if (s->kind == MNK) {
        int cells = s->rows * s->cols;
        for (int i = 0; i < cells; i++)
            g->cell[i / s->cols][i % s->cols] =
                (pos >> i & 1) ? 1 : (pos >> (cells + i) & 1) ? 2 : 0;
        return 1;
    }
    for (int c = 0; c < s->cols; c++) {
        uint64_t column =
            pos >> (c * (s->rows + 1)) & ((UINT64_C(1) << (s->rows + 1)) - 1);
        int height = s->rows;
        while (height >= 0 && !(column >> height & 1))
            height--;
        if (height < 0)
            return 0;
        for (int r = 0; r < s->rows; r++)
            g->cell[r][c] = r >= height ? 0 : (column >> r & 1) ? 1 : 2;
    }
    return 1;
}

static uint64_t from_grid(const shape *s, const grid *g)
{
    uint64_t pos = 0;

    if (s->kind == MNK) {
        int cells = s->rows * s->cols;
        for (int i = 0; i < cells; i++) {
            int cell = g->cell[i / s->cols][i % s->cols];
            pos |= cell == 0 ? 0 : (uint64_t)1 << (cell == 1 ? i : cells + i);
        }
        return table_find(pos);
    }
    for (int c = 0; c < s->cols; c++) {
        int height = 0;
        uint64_t column = 0;
        while (height < s->rows && g->cell[height][c] != 0) {
            if (g->cell[height][c] == 1)
                column |= UINT64_C(1) << height;
            height++;
        }
        column |= UINT64_C(1) << height;
        pos |= column << (c * (s->rows + 1));
    }
    return table_find(pos);
}

/* Whether player has k in a row, by walking from every cell of theirs in
 * the four directions. */
static int grid_has_line(const grid *g, int player, int k)
{
    static const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};

    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            for (int d = 0; d < 4 && g->cell[r][c] == player; d++) {
                int run = 0;
                while (run < k) {
                    int rr = r + run * dr[d], cc = c + run * dc[d];
                    if (rr < 0 || rr >= g->rows || cc < 0 || cc >= g->cols ||
                        g->cell[rr][cc] != player)
                        break;
                    run++;
                }
                if (run == k)
                    return 1;
            }
    return 0;
}

static void grid_counts(const grid *g, int *x, int *o)
{
    *x = *o = 0;
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            *x += g->cell[r][c] == 1;
            *o += g->cell[r][c] == 2;
        }
}

static loopy_primitive oracle_primitive(const shape *s, const grid *g)
{
    int x, o;

    grid_counts(g, &x, &o);
    if (grid_has_line(g, x > o ? 1 : 2, s->k))
        return LOOPY_OVER_LOSE;
    if (x + o == s->rows * s->cols)
        return LOOPY_OVER_TIE;
    return LOOPY_PLAYING;
}

/* The symmetric images of pos (itself included), distinct, into out;
 * returns how many. */
static int images(const shape *s, uint64_t pos, uint64_t out[8])
{
    grid g, t;
    int count = 0, transforms;

    to_grid(s, pos, &g);
    if (s->kind == CONNECT4)
        transforms = 2;
    else
        transforms = s->rows == s->cols ? 8 : 4;
    for (int k = 0; k < transforms; k++) {
        uint64_t image;
        int dup = 0;
        t.rows = k >= 4 ? g.cols : g.rows;
        t.cols = k >= 4 ? g.rows : g.cols;
        for (int r = 0; r < g.rows; r++)
            for (int c = 0; c < g.cols; c++) {
                /* k: bit 0 flips the columns, bit 1 the rows, bit 2
                 * transposes afterwards. */
                int rr = k & 2 ? g.rows - 1 - r : r;
                int cc = k & 1 ? g.cols - 1 - c : c;
                if (k & 4)
                    t.cell[cc][rr] = g.cell[r][c];
                else
                    t.cell[rr][cc] = g.cell[r][c];
            }
        image = from_grid(s, &t);
        for (int i = 0; i < count; i++)
            dup = dup || out[i] == image;
        if (!dup)
            out[count++] = image;
    }
    return count;
}

/* ---- Running a game through the checks ---- */

typedef struct tally {
    uint64_t classes;   /* representatives reached */
    uint64_t positions; /* positions reached (all symmetric images) */
    uint64_t by_ply[41];
    uint64_t x_won, o_won, tied; /* terminal representatives */
    uint64_t legal_indices;      /* from the scan, or 0 */
} tally;

/* moves or unmoves into out; thorough: also checks the capacity protocol
 * (the count does not depend on the capacity, a short buffer gets a
 * prefix) and that the entries are distinct. */
static size_t call_list(const loopy_game *game, int unmoves, uint64_t pos,
                        uint64_t *out, size_t capacity, int thorough)
{
    size_t (*fn)(void *, loopy_position, loopy_position *, size_t) =
        unmoves ? game->unmoves : game->moves;
    size_t count = fn(game->ctx, pos, out, capacity);
    uint64_t first;

    CHECK_MSG(count <= capacity, "%s(%" PRIu64 ") gives %zu entries",
              unmoves ? "unmoves" : "moves", pos, count);
    if (count > capacity || !thorough)
        return count > capacity ? 0 : count;
    CHECK(fn(game->ctx, pos, NULL, 0) == count);
    if (count > 1) {
        CHECK(fn(game->ctx, pos, &first, 1) == count);
        CHECK(first == out[0]);
    }
    for (size_t i = 0; i < count; i++)
        for (size_t j = i + 1; j < count; j++)
            CHECK_MSG(out[i] != out[j], "repeated entry in %s(%" PRIu64 ")",
                      unmoves ? "unmoves" : "moves", pos);
    return count;
}

/* moves() and unmoves() give positions as they are: takes list[0..count)
 * to representatives and drops repeats; returns the new count. */
static size_t canon_list(const loopy_game *game, uint64_t *list, size_t count)
{
    size_t kept = 0;

    for (size_t i = 0; i < count; i++)
        list[i] = game->canonical(game->ctx, list[i]);
    for (size_t i = 1; i < count; i++) {
        uint64_t v = list[i];
        size_t j = i;
        for (; j > 0 && list[j - 1] > v; j--)
            list[j] = list[j - 1];
        list[j] = v;
    }
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || list[kept - 1] != list[i])
            list[kept++] = list[i];
    return kept;
}

static int in_list(const uint64_t *list, size_t count, uint64_t pos)
{
    for (size_t i = 0; i < count; i++)
        if (list[i] == pos)
            return 1;
    return 0;
}

/* A set of edges (from, to), as a count and two sums of hashes that do
 * not depend on the order the edges come in. */
typedef struct edge_print {
    uint64_t count, sum, mixed;
} edge_print;

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t edge_hash(uint64_t from, uint64_t to)
{
    return mix(from ^ mix(to + UINT64_C(0x9e3779b97f4a7c15)));
}

/* The game's canonical_moves (canonical_unmoves) of pos, when it has
 * them, are want[0 .. count): canonical() of each move, without repeats. */
static void check_given(const loopy_game *game, int unmoves, uint64_t pos,
                        const uint64_t *want, size_t count)
{
    size_t (*list)(void *, loopy_position, loopy_position *, size_t) =
        unmoves ? game->canonical_unmoves : game->canonical_moves;
    uint64_t got[64];
    size_t n;

    if (list == NULL)
        return;
    n = list(game->ctx, pos, got, 64);
    CHECK(n <= 64);
    if (n > 64)
        return;
    for (size_t i = 1; i < n; i++) { /* insertion sort, then no repeats */
        uint64_t v = got[i];
        size_t j = i;
        for (; j > 0 && got[j - 1] > v; j--)
            got[j] = got[j - 1];
        got[j] = v;
    }
    {
        size_t kept = 0;
        for (size_t i = 0; i < n; i++)
            if (kept == 0 || got[kept - 1] != got[i])
                got[kept++] = got[i];
        n = kept;
    }
    CHECK_MSG(n == count && memcmp(got, want, n * sizeof *got) == 0,
              "%s: canonical_%s(%" PRIu64 ") differs from canonical() of "
              "each of %s()", game->name, unmoves ? "unmoves" : "moves", pos,
              unmoves ? "unmoves" : "moves");
}

/* An m,n,k board's notation as the grid of index pos (by the table) reads:
 * so the game's index is the table's, board for board. */
static void check_board_text(const shape *s, const loopy_game *game,
                             uint64_t pos)
{
    char want[2 * 40 * 41], got[sizeof want];
    size_t at = 0;
    grid g;

    if (!to_grid(s, pos, &g))
        return;
    for (int r = 0; r < g.rows; r++) {
        if (r > 0)
            want[at++] = '/';
        for (int c = 0; c < g.cols; c++)
            want[at++] = ".xo"[g.cell[r][c]];
    }
    want[at] = '\0';
    CHECK_MSG(game->format(game->ctx, pos, got, sizeof got) == at &&
                  strcmp(got, want) == 0,
              "%s %s: index %" PRIu64 " is \"%s\", the index's order gives "
              "\"%s\"", game->name, game->params, pos, got, want);
}

/* format then parse gives pos back. */
static void check_notation(const loopy_game *game, uint64_t pos)
{
    char text[256], why[128];
    uint64_t back = UINT64_MAX;
    size_t len = game->format(game->ctx, pos, text, sizeof text);

    CHECK(len < sizeof text && strlen(text) == len);
    CHECK_MSG(game->parse(game->ctx, text, &back, why, sizeof why) == 0 &&
                  back == pos,
              "%s: %" PRIu64 " -> \"%s\" does not read back", game->name, pos,
              text);
}

/*
 * Enumerates the game breadth-first and checks every position reached;
 * scans all indices with legal() when scan is set.  Fills *t.
 */
static void explore(const shape *s, const loopy_game *game, int scan, tally *t)
{
    pos_set set = {0};
    uint64_t moves[64], back[64];
    edge_print edges_by_moves = {0, 0, 0}, edges_by_unmoves = {0, 0, 0};
    grid g;

    memset(t, 0, sizeof *t);
    CHECK(game->canonical(game->ctx, game->start) == game->start);
    set_add(&set, game->start);
    /* Breadth-first: when p is checked, the positions of the ply before
     * it are all in the set. */
    for (size_t i = 0; i < set.count; i++) {
        uint64_t p = set.list[i], image[8];
        loopy_primitive primitive = game->primitive(game->ctx, p);
        /* Past the first 20000, the costlier checks run on every 64th. */
        int thorough = i < 20000 || i % 64 == 0;
        int x, o, orbit;
        size_t n;

        CHECK_MSG(to_grid(s, p, &g), "%" PRIu64 " is no board", p);
        grid_counts(&g, &x, &o);
        CHECK_MSG(game->legal(game->ctx, p),
                  "%s: reached %" PRIu64 " is not legal", game->name, p);
        CHECK_MSG(primitive == oracle_primitive(s, &g),
                  "%s: primitive(%" PRIu64 ") = %d", game->name, p,
                  (int)primitive);
        CHECK(game->canonical(game->ctx, p) == p);
        check_notation(game, p);
        orbit = images(s, p, image); /* image[0] is p */
        for (int k = 1; k < orbit; k++) {
            CHECK_MSG(game->canonical(game->ctx, image[k]) == p,
                      "%s: canonical(%" PRIu64 ") is not %" PRIu64, game->name,
                      image[k], p);
            if (thorough)
                check_notation(game, image[k]);
        }
        t->classes++;
        t->positions += (uint64_t)orbit;
        t->by_ply[x + o]++;
        if (primitive == LOOPY_OVER_TIE)
            t->tied++;
        else if (primitive == LOOPY_OVER_LOSE)
            *(x > o ? &t->x_won : &t->o_won) += 1;

        /* q in moves(p) iff p in unmoves(q): the two sets of edges are
         * compared through order-independent fingerprints, and checked
         * edge by edge on the thorough positions. */
        if (primitive == LOOPY_PLAYING) {
            n = canon_list(game, moves, call_list(game, 0, p, moves, 64,
                                                  thorough));
            check_given(game, 0, p, moves, n);
            for (size_t j = 0; j < n; j++) {
                CHECK_MSG(moves[j] < game->size, "move out of range");
                set_add(&set, moves[j]);
                edges_by_moves.count++;
                edges_by_moves.sum += edge_hash(p, moves[j]);
                edges_by_moves.mixed ^= edge_hash(moves[j], p);
                if (thorough) {
                    size_t m = canon_list(game, back,
                                          call_list(game, 1, moves[j], back,
                                                    64, 1));
                    CHECK_MSG(in_list(back, m, p),
                              "%s: %" PRIu64 " is a move of %" PRIu64
                              " but not an unmove back",
                              game->name, moves[j], p);
                }
            }
        }
        n = canon_list(game, back, call_list(game, 1, p, back, 64, thorough));
        check_given(game, 1, p, back, n);
        for (size_t j = 0; j < n; j++) {
            /* unmoves() may give boards that do not arise in play (the
             * solvers skip them); those that do were reached, as the plies
             * before p's are all in the set. */
            if (!set_contains(&set, back[j])) {
                CHECK_MSG(!game->legal(game->ctx, back[j]),
                          "%s: unmove %" PRIu64 " of %" PRIu64
                          " is legal but was not reached",
                          game->name, back[j], p);
                continue;
            }
            edges_by_unmoves.count++;
            edges_by_unmoves.sum += edge_hash(back[j], p);
            edges_by_unmoves.mixed ^= edge_hash(p, back[j]);
            if (thorough) {
                size_t m;
                CHECK(game->primitive(game->ctx, back[j]) == LOOPY_PLAYING);
                m = canon_list(game, moves,
                               call_list(game, 0, back[j], moves, 64, 1));
                CHECK_MSG(in_list(moves, m, p),
                          "%s: %" PRIu64 " is an unmove of %" PRIu64
                          " but not a move back",
                          game->name, back[j], p);
            }
        }
        CHECK((n == 0) == (p == game->start));
    }
    CHECK_MSG(edges_by_moves.count == edges_by_unmoves.count &&
                  edges_by_moves.sum == edges_by_unmoves.sum &&
                  edges_by_moves.mixed == edges_by_unmoves.mixed,
              "%s %s: the edges differ (%" PRIu64 " by moves, %" PRIu64
              " by unmoves)",
              game->name, game->params, edges_by_moves.count,
              edges_by_unmoves.count);

    /* Every position reached is legal (above), so equal counts mean that
     * every legal index is reached. */
    if (scan) {
        for (uint64_t i = 0; i < game->size; i++) {
            t->legal_indices += game->legal(game->ctx, i) != 0;
            if (s->kind == MNK)
                check_board_text(s, game, i);
        }
        CHECK_MSG(t->legal_indices == t->positions,
                  "%s %s: %" PRIu64 " legal indices, %" PRIu64
                  " positions reached",
                  game->name, game->params, t->legal_indices, t->positions);
    }
    set_free(&set);
}

static loopy_status open_def(const loopy_game_def *def, const char *params,
                             loopy_game *game)
{
    loopy_diag diag;
    loopy_status status;

    diag.message[0] = '\0';
    status = def->create(params, game, &diag);

    CHECK_MSG(status == LOOPY_OK, "%s:%s: %s", def->name, params, diag.message);
    return status;
}

/* ---- The tests ---- */

static void test_tictactoe(void)
{
    static const uint64_t by_ply[10] = {1,   3,   12,  38, 108,
                                        174, 204, 153, 57, 15};
    shape s = {MNK, 3, 3, 3};
    loopy_game game;
    tally t;

    if (open_def(&loopy_i_game_tictactoe, NULL, &game) != LOOPY_OK)
        return;
    CHECK(strcmp(game.name, "tictactoe") == 0 && game.params[0] == '\0');
    mnk_table_build(9);
    CHECK(game.size == table.n && game.size == 6046 && game.start == 0);
    explore(&s, &game, 1, &t);
    table_free();
    CHECK_MSG(t.positions == 5478, "%" PRIu64, t.positions);
    CHECK_MSG(t.classes == 765, "%" PRIu64, t.classes);
    for (int i = 0; i < 10; i++)
        CHECK_MSG(t.by_ply[i] == by_ply[i], "ply %d: %" PRIu64, i, t.by_ply[i]);
    CHECK_MSG(t.x_won == 91 && t.o_won == 44 && t.tied == 3,
              "x %" PRIu64 ", o %" PRIu64 ", tied %" PRIu64, t.x_won, t.o_won,
              t.tied);
    game.release(game.ctx);
    check_case_end();
}

static void test_mnk_boards(void)
{
    static const struct {
        const char *params;
        int rows, cols, k, scan;
    } board[] = {
        {"3,3,3", 3, 3, 3, 1}, {"2,3,2", 2, 3, 2, 1}, {"3,4,3", 3, 4, 3, 1},
        {"4,4,3", 4, 4, 3, 0}, {"1,5,2", 1, 5, 2, 1}, {"2,2,1", 2, 2, 1, 1},
    };

    for (size_t b = 0; b < sizeof board / sizeof board[0]; b++) {
        shape s = {MNK, board[b].rows, board[b].cols, board[b].k};
        loopy_game game;
        tally t;
        if (check_quick() && board[b].rows * board[b].cols > 12)
            continue;
        if (open_def(&loopy_i_game_mnk, board[b].params, &game) != LOOPY_OK)
            continue;
        CHECK(strcmp(game.name, "mnk") == 0);
        CHECK(strcmp(game.params, board[b].params) == 0);
        mnk_table_build(board[b].rows * board[b].cols);
        CHECK_MSG(game.size == table.n,
                  "mnk %s: %" PRIu64 " indices, %" PRIu64 " boards",
                  board[b].params, game.size, table.n);
        explore(&s, &game, board[b].scan, &t);
        table_free();
        if (strcmp(board[b].params, "3,3,3") == 0)
            CHECK(t.positions == 5478 && t.classes == 765);
        if (strcmp(board[b].params, "2,2,1") == 0)
            /* x wins with the first stone: the empty board and 4 more */
            CHECK(t.positions == 5 && t.classes == 2);
        game.release(game.ctx);
        check_case_end();
    }
}

static void test_connect4_boards(void)
{
    static const struct {
        int width, height;
        uint64_t published; /* Tromp; Boeck (see the top of the file) */
        int scan;
    } board[] = {
        {3, 3, 869, 1},    {4, 3, 12031, 1},   {3, 4, 6000, 1},
        {4, 4, 161029, 1}, {4, 5, 1706255, 0}, {5, 4, 3945711, 1},
    };

    for (size_t b = 0; b < sizeof board / sizeof board[0]; b++) {
        shape s = {CONNECT4, board[b].height, board[b].width, 4};
        char params[16];
        loopy_game game;
        tally t;
        int bits = board[b].width * (board[b].height + 1);
        if (check_quick() && bits > 20)
            continue;
        snprintf(params, sizeof params, "%dx%d", board[b].width,
                 board[b].height);
        if (open_def(&loopy_i_game_connect4, params, &game) != LOOPY_OK)
            continue;
        CHECK(strcmp(game.name, "connect4") == 0);
        CHECK(strcmp(game.params, params) == 0);
        c4_table_build(board[b].width, board[b].height);
        CHECK_MSG(game.size == table.n,
                  "connect4 %s: %" PRIu64 " indices, %" PRIu64 " boards",
                  params, game.size, table.n);
        explore(&s, &game, board[b].scan, &t);
        table_free();
        CHECK_MSG(t.positions == board[b].published,
                  "connect4 %s: %" PRIu64 " positions, published %" PRIu64,
                  params, t.positions, board[b].published);
        game.release(game.ctx);
        check_case_end();
    }
}

static int parses(const loopy_game *game, const char *text, uint64_t *pos,
                  const char *says)
{
    char why[160] = "";
    int failed = game->parse(game->ctx, text, pos, why, sizeof why);

    if (says == NULL) {
        CHECK_MSG(!failed, "%s: \"%s\": %s", game->name, text, why);
    } else {
        CHECK_MSG(failed && strstr(why, says) != NULL,
                  "%s: \"%s\" gives \"%s\", expected \"%s\"", game->name, text,
                  failed ? why : "(no error)", says);
    }
    return !failed;
}

/* The notation, hand-made positions, and the limits of legality. */
static void test_notation(void)
{
    loopy_game ttt, mnk, c4, big;
    uint64_t pos, list[64];
    char text[256];

    if (open_def(&loopy_i_game_tictactoe, NULL, &ttt) != LOOPY_OK ||
        open_def(&loopy_i_game_mnk, "3,7,3", &mnk) != LOOPY_OK ||
        open_def(&loopy_i_game_connect4, "4x4", &c4) != LOOPY_OK ||
        open_def(&loopy_i_game_connect4, NULL, &big) != LOOPY_OK)
        return;

    /* Two stones come after the 1 empty board and the 9 of one stone;
     * cells {0, 8} are the set of rank C(0, 1) + C(8, 2) = 28 among the
     * sets of two, each with 2 colourings, x on cell 0 the first: 10 +
     * 28 * 2 + 0. */
    if (parses(&ttt, "x../.../..o", &pos, NULL))
        CHECK(pos == 66);
    CHECK(ttt.format(ttt.ctx, 66, text, sizeof text) == 11 &&
          strcmp(text, "x../.../..o") == 0);
    CHECK(ttt.format(ttt.ctx, 1, text, 4) == 11 && strcmp(text, "x..") == 0);
    CHECK(ttt.format(ttt.ctx, 1, text, 1) == 11 && text[0] == '\0');
    parses(&ttt, "x../...", &pos, "2 rows, expected 3");
    parses(&ttt, "x../.../.../...", &pos, "more than 3 rows");
    parses(&ttt, "x../..../...", &pos, "row 2 has more than 3 cells");
    parses(&ttt, "x../../...", &pos, "row 2 has 2 cells");
    parses(&ttt, "x../.X./...", &pos, "row 2, column 2");
    parses(&ttt, "", &pos, "row 1 has 0 cells");
    parses(&ttt, "xx./.../...", &pos, "x has 2 stones and o 0");
    parses(&ttt, "xxx/oo./...", &pos, NULL);
    CHECK(ttt.primitive(ttt.ctx, pos) == LOOPY_OVER_LOSE);
    CHECK(ttt.unmoves(ttt.ctx, pos, list, 64) == 3);
    parses(&ttt, "xxx/ooo/x..", &pos, "both x and o");
    parses(&ttt, "xxx/oo./o..", &pos, "x has 3 in a row but o moved last");
    parses(&ttt, "ooo/xx./xx.", &pos, "o has 3 in a row but x moved last");
    parses(&ttt, "xox/xox/oxo", &pos, NULL); /* full, no line: a tie */
    CHECK(ttt.primitive(ttt.ctx, pos) == LOOPY_OVER_TIE);
    /* x completed a row and a column with the same stone: legal. */
    parses(&ttt, "xxx/xoo/xoo", &pos, NULL);
    CHECK(ttt.unmoves(ttt.ctx, pos, list, 64) == 1);
    /* Two lines of x without a common stone: play stopped at the first. */
    parses(&mnk, "xxx.xxx/oo.oo../o......", &pos, "without a common stone");
    parses(&mnk, "xxx.xx./oo.oo../.......", &pos, NULL);

    /* Connect Four: rows from the top. */
    if (parses(&c4, "..../..../.o../.xx.", &pos, NULL)) {
        CHECK(c4.format(c4.ctx, pos, text, sizeof text) == 19 &&
              strcmp(text, "..../..../.o../.xx.") == 0);
        /* Its index, counted by hand from the definition: 1 + 4 + 10 * 2
         * boards of 0, 1 and 2 stones; then the 8 height vectors of 3
         * stones before (0,2,1,0), (0,0,0,3) .. (0,2,0,1), 3 colourings
         * each; then the colourings 011 before 101 (x, o, x). */
        CHECK_MSG(pos == 50, "index %" PRIu64, pos);
    }
    parses(&c4, "..../.o../..../.xx.", &pos, "the stone floats");
    parses(&c4, "..../..../xx../oo..", &pos, "no order of play");
    parses(&c4, "..../..../..../xo..", &pos, NULL);
    parses(&c4, "..../..../..../ox..", &pos, NULL);
    parses(&c4, "..../..../..../oo..", &pos, "x has 0 stones and o 2");
    parses(&c4, "x.../x.../xo../xoo.", &pos, NULL);
    CHECK(c4.primitive(c4.ctx, pos) == LOOPY_OVER_LOSE);
    parses(&c4, "x.../x.../xo../xoo.", &pos, NULL);
    parses(&c4, "..../..../..../xxxx", &pos, "x has 4 stones and o 0");
    parses(&c4, "..../..../oooo/xxxx", &pos, "both x and o");
    parses(&c4, "..../..../ooo./xxxx", &pos, NULL);
    parses(&c4, "..../..../.ooo/xxxx", &pos, NULL);
    parses(&c4, "..../o.../ooo./xxxx", &pos, "x has four in a row but o");
    parses(&c4, "..../..../..../x.Q.", &pos, "column 3: expected");
    parses(&c4, "..../..../..../x...x", &pos, "more than 4 cells");
    CHECK(c4.start == 0);                   /* the first index */
    CHECK(c4.legal(c4.ctx, c4.start) == 1); /* the empty board */
    CHECK(c4.legal(c4.ctx, c4.size) == 0);

    /* The standard board: seven first moves, four up to the mirror. */
    CHECK(big.moves(big.ctx, big.start, list, 64) == 7);
    CHECK(canon_list(&big, list, 7) == 4);
    CHECK(big.format(big.ctx, big.start, text, sizeof text) == 7 * 6 + 5);
    if (parses(&big, "......./......./......./......./..o..../..xx...", &pos,
               NULL))
        CHECK(big.canonical(big.ctx, pos) <= pos);
    /* A full checkerboard: both have diagonals. */
    parses(&big, "oxoxoxo/xoxoxox/oxoxoxo/xoxoxox/oxoxoxo/xoxoxox", &pos,
           "both x and o");
    parses(&big, "......./......./......./xxxxxxx/.......", &pos,
           "5 rows, expected 6");
    /* No line, right counts, but no x on the bottom row. */
    parses(&big, "......./......./......./......./xxx.xxx/ooo.ooo", &pos,
           "no order of play");

    ttt.release(ttt.ctx);
    mnk.release(mnk.ctx);
    c4.release(c4.ctx);
    big.release(big.ctx);
    check_case_end();
}

int main(void)
{
    test_notation();
    test_tictactoe();
    test_mnk_boards();
    test_connect4_boards();
    return check_finish("test_games");
}
