/*
 * test_mnk_index.c - the index of m,n,k boards by stone count
 * (lib/games/mnk_index.c) on every board size it takes, 1 to 40 cells.
 *
 * test_games checks the index board for board against an enumeration of
 * its definition on boards of up to 16 cells; this checks what holds at
 * every size, the large ones included:
 *  - the number of indices and of boards of each stone count equal the
 *    count of boards where x has as many stones as o or one more, counted
 *    here by a walk over the cells (how many boards of each (x, o) count
 *    the first c cells hold), not by binomials;
 *  - rank and unrank are inverse: unrank(rank(b)) == b for random boards
 *    b of every stone count, rank(unrank(i)) == i for random indices i and
 *    for the first and last index of every tier;
 *  - a board of n stones ranks inside tier n, whose indices are
 *    tier_start[n] .. tier_start[n + 1] - 1;
 *  - adding a stone (a move) always goes to the next tier.
 */
#include "check.h"
#include "internal.h"
#include "../lib/games/mnk_index.h"

#include <string.h>

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t next_random(void) /* splitmix64 */
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* below(n) < n, n >= 1 (the bias of the modulo does not matter here). */
static uint64_t below(uint64_t n)
{
    return next_random() % n;
}

/* A random board of n stones on cells, ceil(n/2) of them x's: into *x and
 * *o. */
static void random_board(uint32_t cells, uint32_t n, uint64_t *x, uint64_t *o)
{
    uint32_t place[MNK_MAX_CELLS];

    for (uint32_t i = 0; i < cells; i++)
        place[i] = i;
    /* The first n places of a partial Fisher-Yates shuffle. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = i + (uint32_t)below(cells - i), t = place[i];
        place[i] = place[j];
        place[j] = t;
    }
    *x = *o = 0;
    for (uint32_t i = 0; i < n; i++)
        *(i < (n + 1) / 2 ? x : o) |= UINT64_C(1) << place[i];
}

/* boards[n]: the boards of n stones with x's count ceil(n/2), by a walk
 * over the cells: ways[x][o] boards of the cells so far with x x's and o
 * o's (at most 3^40 < 2^64, so nothing overflows). */
static void count_boards(uint32_t cells, uint64_t boards[MNK_MAX_CELLS + 1])
{
    static uint64_t ways[MNK_MAX_CELLS + 2][MNK_MAX_CELLS + 2];

    memset(ways, 0, sizeof ways);
    ways[0][0] = 1;
    for (uint32_t c = 1; c <= cells; c++)
        for (uint32_t x = c + 1; x-- > 0;)
            for (uint32_t o = c - x + 1; o-- > 0;) {
                /* Cell c empty, an x or an o: from the first c - 1. */
                uint64_t w = x + o < c ? ways[x][o] : 0;
                if (x > 0)
                    w += ways[x - 1][o];
                if (o > 0)
                    w += ways[x][o - 1];
                ways[x][o] = w;
            }
    for (uint32_t n = 0; n <= cells; n++)
        boards[n] = ways[(n + 1) / 2][n / 2];
}

static void test_size(uint32_t cells, uint32_t samples)
{
    mnk_index ix;
    uint64_t boards[MNK_MAX_CELLS + 1], total = 0;
    bool ok = true;

    if (loopy_i_mnk_index_init(&ix, cells) != LOOPY_OK) {
        CHECK_MSG(0, "%u cells: the index could not be made", cells);
        return;
    }
    count_boards(cells, boards);
    for (uint32_t n = 0; n <= cells; n++) {
        CHECK_MSG(ix.tier_start[n] == total &&
                      ix.tier_start[n + 1] - ix.tier_start[n] == boards[n],
                  "%u cells, %u stones: tier from %" PRIu64 ", %" PRIu64
                  " indices; %" PRIu64 " boards", cells, n, ix.tier_start[n],
                  ix.tier_start[n + 1] - ix.tier_start[n], boards[n]);
        total += boards[n];
    }
    CHECK_MSG(ix.size == total, "%u cells: %" PRIu64 " indices, %" PRIu64
              " boards", cells, ix.size, total);

    for (uint32_t n = 0; n <= cells && ok; n++) {
        uint64_t first = ix.tier_start[n], last = ix.tier_start[n + 1] - 1;
        uint64_t ends[2] = {first, last};
        /* The ends of the tier, and random boards of n stones. */
        for (uint32_t s = 0; s < samples + 2 && ok; s++) {
            uint64_t x, o, x2, o2, index;
            if (s < 2) {
                loopy_i_mnk_unrank(&ix, ends[s], &x, &o);
                ok = loopy_i_count_bits(x | o) == n && (x & o) == 0 &&
                     loopy_i_mnk_rank(&ix, x, o) == ends[s];
                CHECK_MSG(ok, "%u cells: index %" PRIu64 " at an end of tier "
                          "%u does not come back", cells, ends[s], n);
                continue;
            }
            random_board(cells, n, &x, &o);
            index = loopy_i_mnk_rank(&ix, x, o);
            loopy_i_mnk_unrank(&ix, index, &x2, &o2);
            ok = index >= first && index <= last && x2 == x && o2 == o;
            CHECK_MSG(ok, "%u cells: the board x %#" PRIx64 ", o %#" PRIx64
                      " of %u stones ranks %" PRIu64 " (tier %" PRIu64
                      " .. %" PRIu64 ") and unranks to x %#" PRIx64
                      ", o %#" PRIx64, cells, x, o, n, index, first, last, x2,
                      o2);
            /* A move: a stone of the player to move on an empty cell. */
            if (ok && n < cells) {
                uint64_t empty = ~(x | o) & ((UINT64_C(1) << (cells - 1) << 1) - 1);
                uint64_t cell = empty & (0 - empty); /* the lowest */
                uint64_t child = n % 2 == 0 ? loopy_i_mnk_rank(&ix, x | cell, o)
                                            : loopy_i_mnk_rank(&ix, x, o | cell);
                ok = child >= ix.tier_start[n + 1] && child < ix.tier_start[n + 2];
                CHECK_MSG(ok, "%u cells: a move from tier %u ranks %" PRIu64,
                          cells, n, child);
            }
        }
    }
    /* Random indices anywhere. */
    for (uint32_t s = 0; s < samples && ok; s++) {
        uint64_t i = below(ix.size), x, o;
        loopy_i_mnk_unrank(&ix, i, &x, &o);
        ok = (x & o) == 0 && loopy_i_count_bits(x) ==
                                 (loopy_i_count_bits(x | o) + 1) / 2 &&
             (x | o) >> (cells - 1) >> 1 == 0 && loopy_i_mnk_rank(&ix, x, o) == i;
        CHECK_MSG(ok, "%u cells: index %" PRIu64 " does not come back", cells, i);
    }
    loopy_i_mnk_index_free(&ix);
    check_case_end();
}

int main(void)
{
    uint32_t samples = check_quick() ? 40 : 400;

    for (uint32_t cells = 1; cells <= MNK_MAX_CELLS; cells++)
        test_size(cells, samples);
    return check_finish("test_mnk_index");
}
