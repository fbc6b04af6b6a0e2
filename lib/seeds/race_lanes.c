/*
 * race_lanes.c - up to 64 end vertices of a race re-solved together, one
 * bit lane per end, in the spirit of multi-source BFS.
 *
 * The region re-solved is the union of the ends' regions (see race.c).  A
 * union is a superset of each end's own region, and re-solving a superset
 * against the fixed values outside it gives the same answers, so one pass
 * over the union serves every lane.  Per region vertex: the lanes where it
 * is known to be a Win and a Lose, the lanes whose news its predecessors
 * have not heard yet, and a counter of moves not yet known to reach a Win,
 * bit-sliced (slice b holds bit b of the counter of every lane) so that one
 * borrow chain decrements all the lanes a news word names.  Every lane of a
 * counter starts at the same value (the moves into the region plus those to
 * outside draws), so the slices start as all-ones or all-zeros words.
 */
#include "race.h"

#include <string.h>

void loopy_i_race_lanes_free(race_lanes *lanes)
{
    loopy_i_free(lanes->win);
    loopy_i_free(lanes->lose);
    loopy_i_free(lanes->new_win);
    loopy_i_free(lanes->new_lose);
    loopy_i_free(lanes->slice_start);
    loopy_i_free(lanes->slice);
    loopy_i_free(lanes->ring);
    memset(lanes, 0, sizeof *lanes);
}

static loopy_status reserve(race_lanes *lanes, size_t vertices)
{
    size_t want = lanes->capacity ? lanes->capacity : 1024;

    if (vertices <= lanes->capacity)
        return LOOPY_OK;
    while (want < vertices)
        want *= 2;
    loopy_i_race_lanes_free(lanes);
    lanes->win = loopy_i_malloc(want, sizeof *lanes->win);
    lanes->lose = loopy_i_malloc(want, sizeof *lanes->lose);
    lanes->new_win = loopy_i_malloc(want, sizeof *lanes->new_win);
    lanes->new_lose = loopy_i_malloc(want, sizeof *lanes->new_lose);
    lanes->slice_start = loopy_i_malloc(want + 1, sizeof *lanes->slice_start);
    lanes->ring = loopy_i_malloc(want, sizeof *lanes->ring);
    if (lanes->win == NULL || lanes->lose == NULL || lanes->new_win == NULL ||
        lanes->new_lose == NULL || lanes->slice_start == NULL ||
        lanes->ring == NULL) {
        loopy_i_race_lanes_free(lanes);
        return LOOPY_ENOMEM;
    }
    lanes->capacity = want;
    return LOOPY_OK;
}

static unsigned bit_length(uint32_t x)
{
    unsigned bits = 0;

    while (x != 0) {
        bits++;
        x >>= 1;
    }
    return bits;
}

/* Subtracts 1 in each lane of take from counter i; returns the lanes of
 * take whose counter reached 0.  No lane of take is 0 before. */
static uint64_t count_down(race_lanes *lanes, uint32_t i, uint64_t take)
{
    uint64_t *slice = lanes->slice + lanes->slice_start[i];
    uint64_t slices = lanes->slice_start[i + 1] - lanes->slice_start[i];
    uint64_t borrow = take, nonzero = 0;

    for (uint64_t b = 0; b < slices; b++) {
        uint64_t old = slice[b];
        slice[b] = old ^ borrow;  /* bit b minus the borrow into it */
        borrow &= ~old;           /* which borrows on past bit b */
        nonzero |= slice[b];
    }
    return take & ~nonzero;
}

/* First values of region vertex i = u: lanes where u is the end are lost;
 * a move to an outside Lose wins every other lane; no move left undecided
 * loses them.  Returns the counter's start value. */
static uint32_t start_vertex(race_ctx *c, race_lanes *lanes, uint32_t i,
                             loopy_vertex u, uint64_t end_lanes, uint64_t all)
{
    uint32_t undecided = 0;
    bool wins = false;

    for (loopy_edge e = c->g->offset[u]; e < c->g->offset[u + 1]; e++) {
        loopy_vertex w = c->g->target[e];
        if (c->mark[w] >= REGION)
            undecided++; /* its value may change */
        else if (c->outcome[w] == LOOPY_LOSE)
            wins = true;
        else if (c->outcome[w] == LOOPY_DRAW)
            undecided++; /* stays a draw: never a Win */
    }
    lanes->lose[i] = end_lanes;
    lanes->win[i] = 0;
    if (wins)
        lanes->win[i] = all & ~end_lanes;
    else if (undecided == 0)
        lanes->lose[i] = all;
    lanes->new_win[i] = lanes->win[i];
    lanes->new_lose[i] = lanes->lose[i];
    return undecided;
}

loopy_status loopy_i_race_lanes_solve(race_ctx *c, race_lanes *lanes,
                                      const loopy_vertex *ends,
                                      unsigned count)
{
    uint64_t all = count == 64 ? UINT64_MAX : (UINT64_C(1) << count) - 1;
    size_t k = c->region_len, head = 0, queued = 0, slices = 0;
    loopy_status status = reserve(lanes, k);

    if (status != LOOPY_OK)
        return status;
    /* count[] of a region vertex is free after the expansion: it becomes
     * the vertex's index in the region. */
    for (size_t i = 0; i < k; i++)
        c->count[c->region[i]] = (uint32_t)i;
    /* The end lanes, gathered per vertex: ends are distinct, in region. */
    for (size_t i = 0; i < k; i++)
        lanes->lose[i] = 0;
    for (unsigned l = 0; l < count; l++)
        lanes->lose[c->count[ends[l]]] |= UINT64_C(1) << l;
    /* The start values; the counters' slices are laid out afterwards. */
    for (size_t i = 0; i < k; i++) {
        uint32_t undecided = start_vertex(c, lanes, (uint32_t)i, c->region[i],
                                          lanes->lose[i], all);
        lanes->slice_start[i] = slices;
        slices += bit_length(undecided);
        lanes->ring[i] = undecided; /* kept here until the slices exist */
    }
    lanes->slice_start[k] = slices;
    if (slices > lanes->slice_capacity) {
        uint64_t *grown = loopy_i_realloc(lanes->slice, slices, sizeof *grown);
        if (grown == NULL)
            return LOOPY_ENOMEM;
        lanes->slice = grown;
        lanes->slice_capacity = slices;
    }
    for (size_t i = 0; i < k; i++) {
        uint32_t undecided = lanes->ring[i];
        for (uint64_t b = lanes->slice_start[i]; b < lanes->slice_start[i + 1];
             b++, undecided >>= 1)
            lanes->slice[b] = undecided & 1 ? UINT64_MAX : 0;
    }
    /* Every vertex with news is in the ring exactly once: news that
     * arrives while it waits joins the news it carries. */
    for (size_t i = 0; i < k; i++)
        if (lanes->new_win[i] | lanes->new_lose[i])
            lanes->ring[queued++] = (uint32_t)i;
    while (queued > 0) {
        uint32_t j = lanes->ring[head];
        loopy_vertex v = c->region[j];
        uint64_t news_win = lanes->new_win[j], news_lose = lanes->new_lose[j];

        head = head + 1 == k ? 0 : head + 1;
        queued--;
        lanes->new_win[j] = lanes->new_lose[j] = 0;
        for (loopy_edge e = c->rev_offset[v]; e < c->rev_offset[v + 1]; e++) {
            loopy_vertex u = c->rev_source[e];
            uint32_t i;
            uint64_t open, won, lost = 0;

            if (c->mark[u] < REGION)
                continue; /* outside: its value is fixed */
            i = c->count[u];
            open = all & ~(lanes->win[i] | lanes->lose[i]);
            won = news_lose & open; /* a move to a Lose wins */
            if (news_win & open)
                lost = count_down(lanes, i, news_win & open);
            if ((won | lost) == 0)
                continue;
            if ((lanes->new_win[i] | lanes->new_lose[i]) == 0) {
                size_t tail = head + queued;
                lanes->ring[tail >= k ? tail - k : tail] = i;
                queued++;
            }
            lanes->win[i] |= won;
            lanes->new_win[i] |= won;
            lanes->lose[i] |= lost;
            lanes->new_lose[i] |= lost;
        }
    }
    return LOOPY_OK;
}

int8_t loopy_i_race_lanes_answer(const race_ctx *c, const race_lanes *lanes,
                                 loopy_vertex x, unsigned lane)
{
    uint32_t i;

    if (c->mark[x] < REGION)
        return loopy_i_race_answer_of(c->outcome[x]);
    i = c->count[x];
    if ((lanes->win[i] >> lane) & 1)
        return 1;
    return (lanes->lose[i] >> lane) & 1 ? -1 : 0;
}
