/*
 * tier_solve.c - solving a game tier by tier (loopy_game_solve_tiers): the
 * game cuts its index space into tiers, ranges of indices, and says which
 * tiers the moves of each tier reach; when no move stays inside its tier
 * (Connect Four: a move adds a stone), every position's value follows from
 * its moves' values, which lie in tiers solved before it.  No unmoves, no
 * counters, no levels: one pass of moves() to find what is reached, tier
 * by tier from the start's, and one pass back, children first.  A tier
 * whose moves may stay inside it (it names itself among its children: a
 * chess material) is reached in rounds until nothing new is, and solved
 * by retrograde analysis within it (tier_inner.c), with unmoves().
 *
 * One 16-bit record per index, as a database's 2-byte records (and a
 * narrow solution's): ABSENT 0, then while solving REACHED (kind 0, low
 * 2: reached, not yet solved), and at the end the outcome in the top two
 * bits and the remoteness in the 14 below.  For a game whose
 * remoteness_bound is at most 83 (Connect Four, m,n,k: their cells), one
 * byte per index instead (rules_internal.h's 1-byte records), read and
 * written as the same 16-bit records (get, put): half the memory and the
 * work file, when no tier's moves stay inside it (a Draw needs a cycle,
 * and a cycle needs such a tier: 1-byte records hold no Draw).
 *
 * Checked as it goes, each failing with LOOPY_EGAME that names the tier or
 * the position: the tiers' starts (0 first, increasing, size last), the
 * lists of child tiers (in range, no cycle other than a tier to itself),
 * and every move (to a tier the list names).
 *
 * Values as loopy_game_solve_retro's: a position over is decided by
 * primitive() (misere swaps wins and losses), one with no moves is lost
 * (won in misere); else a Win at 1 + the least remoteness of its moves to
 * a Lose, else a Tie at 1 + the least of its moves to a Tie, else a Lose at
 * 1 + the greatest of its moves (all to Wins); else (a move to a Draw) a
 * Draw.  Threads work on the
 * positions of one tier at once; the result does not depend on their
 * number.
 */
#include "tier_solve.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* Records the first failure: at pos (when has_position), why. */
void loopy_i_tier_fail(tiers *t, loopy_position pos, bool has_position,
                       const char *fmt, ...)
{
    int expected = 0;

    if (atomic_compare_exchange_strong(&t->failed, &expected, 1)) {
        va_list ap;
        t->failed_at = pos;
        t->failed_has_position = has_position;
        va_start(ap, fmt);
        vsnprintf(t->failed_why, sizeof t->failed_why, fmt, ap);
        va_end(ap);
    }
}

/* The tier of pos < size: the last whose start is at most pos. */
uint64_t loopy_i_tier_of(const tiers *t, loopy_position pos)
{
    uint64_t lo = 0, hi = t->count; /* start[lo] <= pos < start[hi] */

    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (t->start[mid] <= pos)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* ---- The tiers, read from the game and checked ---- */

/* The tiers' starts and children, and an order with every tier before its
 * children (Kahn's, the tiers without a parent first, lowest first). */
static loopy_status read_tiers(tiers *t)
{
    const loopy_game *game = t->game;
    uint64_t n = game->tier_count > 1 ? game->tier_count : 1, total = 0;
    uint64_t *parents = NULL, *ready = NULL, head = 0, tail = 0, capacity;
    size_t got;

    t->count = n;
    if (n > SIZE_MAX / sizeof(uint64_t) - 1)
        return LOOPY_ETOOBIG;
    t->start = loopy_i_malloc((size_t)n + 1, sizeof *t->start);
    t->child_at = loopy_i_calloc((size_t)n + 1, sizeof *t->child_at);
    t->order = loopy_i_malloc((size_t)n, sizeof *t->order);
    t->allowed = loopy_i_calloc((size_t)n, 1);
    t->self = loopy_i_calloc((size_t)n, sizeof *t->self);
    parents = loopy_i_calloc((size_t)n, sizeof *parents);
    ready = loopy_i_malloc((size_t)n, sizeof *ready);
    if (t->start == NULL || t->child_at == NULL || t->order == NULL ||
        t->allowed == NULL || t->self == NULL || parents == NULL ||
        ready == NULL)
        goto no_memory;
    t->start[0] = 0;
    t->start[n] = game->size;
    for (uint64_t k = 1; k < n; k++) {
        t->start[k] = game->tier_start(game->ctx, k);
        if (t->start[k] < t->start[k - 1] || t->start[k] > game->size) {
            loopy_i_tier_fail(t, 0, false,
                              "tier %" PRIu64 " starts at %" PRIu64
                              ", not between tier %" PRIu64 "'s start %" PRIu64
                              " and the size %" PRIu64,
                              k, t->start[k], k - 1, t->start[k - 1],
                              game->size);
            goto fail;
        }
    }
    /* The children, into one array: each list asked for once, with room
     * for every tier (a list names a tier once); the array grows by
     * doubling. */
    capacity = n;
    t->child = loopy_i_malloc((size_t)capacity, sizeof *t->child);
    if (t->child == NULL)
        goto no_memory;
    for (uint64_t k = 0; k < n; k++) {
        if (capacity - total < n) {
            uint64_t *room;
            capacity = capacity * 2 > total + n ? capacity * 2 : total + n;
            room = loopy_i_realloc(t->child, (size_t)capacity,
                                   sizeof *t->child);
            if (room == NULL)
                goto no_memory;
            t->child = room;
        }
        got = game->tier_children(game->ctx, k, t->child + total, (size_t)n);
        if (got == LOOPY_GAME_ERROR || got > n) {
            loopy_i_tier_fail(
                t, 0, false, "tier_children() of tier %" PRIu64 " %s", k,
                got == LOOPY_GAME_ERROR ? "failed"
                                        : "gives more tiers than there are");
            goto fail;
        }
        for (size_t i = 0; i < got; i++) {
            uint64_t c = t->child[total + i];
            if (c >= n) {
                loopy_i_tier_fail(t, 0, false,
                                  "tier_children() of tier %" PRIu64
                                  " gives tier %" PRIu64
                                  ", not below the tier count %" PRIu64,
                                  k, c, n);
                goto fail;
            }
            if (c != k)
                parents[c]++;
            else
                t->self[k] = true;
        }
        total += got;
        t->child_at[k + 1] = total;
    }
    t->pending = loopy_i_malloc((size_t)n, sizeof *t->pending);
    if (t->pending == NULL)
        goto no_memory;
    memcpy(t->pending, parents, (size_t)n * sizeof *parents);
    /* Kahn's order; what it leaves out lies on a cycle. */
    for (uint64_t k = 0; k < n; k++)
        if (parents[k] == 0)
            ready[tail++] = k;
    while (head < tail) {
        uint64_t k = ready[head];
        t->order[head++] = k;
        for (uint64_t i = t->child_at[k]; i < t->child_at[k + 1]; i++)
            if (t->child[i] != k && --parents[t->child[i]] == 0)
                ready[tail++] = t->child[i];
    }
    if (head < n) {
        uint64_t k = 0;
        while (parents[k] == 0)
            k++;
        loopy_i_tier_fail(t, 0, false,
                          "the tiers' children form a cycle (tier %" PRIu64
                          " is on it or below it; tier_children())",
                          k);
        goto fail;
    }
    loopy_i_free(parents);
    loopy_i_free(ready);
    return LOOPY_OK;

no_memory:
    loopy_i_free(parents);
    loopy_i_free(ready);
    return LOOPY_ENOMEM;
fail:
    loopy_i_free(parents);
    loopy_i_free(ready);
    return LOOPY_EGAME;
}

/* ---- The two passes ---- */

/* The distinct representatives of pos's moves into buf, each in a tier
 * that tier k lists; their number, or LOOPY_GAME_ERROR after fail_at. */
size_t loopy_i_tier_moves(tiers *t, uint64_t k, loopy_position pos,
                          loopy_position_buffer *buf)
{
    char why[200];
    bool no_memory;
    size_t count = loopy_i_game_neighbours(&t->reps, pos, false, buf, why,
                                           sizeof why, &no_memory);

    if (count == LOOPY_GAME_ERROR) {
        if (no_memory)
            atomic_store(&t->out_of_memory, true);
        loopy_i_tier_fail(t, pos, true, "%s", why);
        return LOOPY_GAME_ERROR;
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t c = loopy_i_tier_of(t, buf->items[i]);
        if (!t->allowed[c]) {
            loopy_i_tier_fail(
                t, pos, true,
                "a move to position %" LOOPY_PRI_POSITION ", of tier %" PRIu64
                ", which tier_children() of tier %" PRIu64 " does not name",
                buf->items[i], c, k);
            return LOOPY_GAME_ERROR;
        }
        if (t->byte != NULL)
            PREFETCH(&t->byte[buf->items[i]]);
        else
            PREFETCH(&t->record[buf->items[i]]);
    }
    return count;
}

/* Sets allowed[] to tier k's children. */
static void allow_children(tiers *t, uint64_t k, bool on)
{
    for (uint64_t i = t->child_at[k]; i < t->child_at[k + 1]; i++)
        t->allowed[t->child[i]] = on;
}

/* Whether position i is one to solve: reached (or, with all_legal, a
 * legal representative); a reached one must be its own representative. */
bool loopy_i_tier_to_solve(tiers *t, loopy_position i)
{
    const loopy_game *game = t->game;

    if (t->reps.all_legal)
        return (game->legal == NULL || game->legal(game->ctx, i)) &&
               (!t->reps.symmetric || game->canonical(game->ctx, i) == i);
    if (get(t, i) != REACHED)
        return false;
    if (t->reps.symmetric && game->canonical(game->ctx, i) != i) {
        loopy_i_tier_fail(t, i, true,
                          "reached as a representative, but canonical() "
                          "gives another position (not idempotent)");
        return false;
    }
    return true;
}

/* Calls visit on the indices [lo, hi) of tier k, on all threads. */
static void each_in(tiers *t, uint64_t k, loopy_position lo, loopy_position hi,
                    loopy_i_tier_visit *visit)
{
    /* A range of one chunk or less: this thread alone (a parallel region
     * costs more than the work, and small tiers come by the thousand). */
#pragma omp parallel num_threads(t->threads) if (hi - lo > CHUNK)
    {
        loopy_position_buffer buf = {NULL, 0, false};
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < (int64_t)((hi - lo + CHUNK - 1) / CHUNK); c++) {
            loopy_position from = lo + (uint64_t)c * CHUNK;
            loopy_position to = hi - from < CHUNK ? hi : from + CHUNK;
            for (loopy_position i = from;
                 i < to && !atomic_load_explicit(&t->failed,
                                                 memory_order_relaxed);
                 i++)
                visit(t, k, i, &buf);
        }
        loopy_i_position_buffer_release(&buf);
    }
}

/* Tells the progress callback, if any, that the phase's tiers before the
 * one at work and done of its indices are done. */
static void report(tiers *t, uint64_t done)
{
    if (t->progress != NULL)
        t->progress(t->progress_ctx, t->label, t->phase_done + done,
                    t->game->size);
}

/* Calls visit on every index of tier k, on all threads; with a progress
 * callback, a slice at a time, reported after each. */
void loopy_i_tier_each(tiers *t, uint64_t k, loopy_i_tier_visit *visit)
{
    loopy_position lo = t->start[k], hi = t->start[k + 1];

    if (t->progress == NULL) {
        each_in(t, k, lo, hi, visit);
        return;
    }
    report(t, 0);
    for (loopy_position from = lo;
         from < hi && !atomic_load_explicit(&t->failed, memory_order_relaxed);
         from = hi - from < SLICE ? hi : from + SLICE) {
        each_in(t, k, from, hi - from < SLICE ? hi : from + SLICE, visit);
        report(t, (hi - from < SLICE ? hi : from + SLICE) - lo);
    }
}

/* Begins tier k, the j-th of the phase (from 0): its label. */
static void label_tier(tiers *t, const char *phase, uint64_t j)
{
    snprintf(t->label, sizeof t->label, "%s%" PRIu64 "/%" PRIu64, phase,
             j + 1, t->count);
}

/* Forward: the moves of position i, when it is to be solved, become
 * REACHED. */
static void reach_position(tiers *t, uint64_t k, loopy_position i,
                           loopy_position_buffer *buf)
{
    const loopy_game *game = t->game;
    size_t count;

    if (!loopy_i_tier_to_solve(t, i))
        return;
    /* In a tier whose moves stay inside it, looked at once (EXPANDED,
     * REACHED again when the tier is reached). */
    put(t, i, t->self[k] && !t->reps.all_legal ? EXPANDED : REACHED);
    /* With all_legal, what is solved is what legal() says. */
    if (game->primitive(game->ctx, i) != LOOPY_PLAYING || t->reps.all_legal)
        return;
    count = loopy_i_tier_moves(t, k, i, buf);
    for (size_t m = 0; count != LOOPY_GAME_ERROR && m < count; m++) {
        loopy_position c = buf->items[m];
        uint16_t absent = ABSENT;
        if (!t->self[k] || c < t->start[k] || c >= t->start[k + 1])
            put(t, c, REACHED);
        else if (atomic_compare_exchange_strong_explicit(
                     &t->record[c], &absent, REACHED, memory_order_relaxed,
                     memory_order_relaxed))
            atomic_store_explicit(&t->grew, true, memory_order_relaxed);
    }
}

/* The end of a tier's reach whose moves stay inside it: REACHED again. */
static void reached_again(tiers *t, uint64_t k, loopy_position i,
                          loopy_position_buffer *buf)
{
    (void)k;
    (void)buf;
    if (get(t, i) == EXPANDED)
        put(t, i, REACHED);
}

uint16_t loopy_i_tier_ending(tiers *t, loopy_position i, loopy_primitive p)
{
    switch (p) {
    case LOOPY_PLAYING:
        return REACHED;
    case LOOPY_OVER_TIE:
        return record_of(LOOPY_TIE, 0);
    case LOOPY_OVER_WIN:
        return record_of(t->misere ? LOOPY_LOSE : LOOPY_WIN, 0);
    case LOOPY_OVER_LOSE:
        return record_of(t->misere ? LOOPY_WIN : LOOPY_LOSE, 0);
    default:
        loopy_i_tier_fail(t, i, true, "primitive() gives no known value");
        return ABSENT;
    }
}

bool loopy_i_tier_fold(tiers *t, loopy_position i, loopy_position c,
                       tier_fold *f)
{
    uint16_t r = get(t, c);
    uint32_t low = r & LOOPY_I_RECORD_LOW;

    switch (r >> SHIFT) {
    case LOOPY_LOSE:
        f->to_lose = low < f->to_lose ? low : f->to_lose;
        return true;
    case LOOPY_TIE:
        f->to_tie = low < f->to_tie ? low : f->to_tie;
        return true;
    case LOOPY_WIN:
        f->to_win = low > f->to_win ? low : f->to_win;
        return true;
    default:
        /* A Draw, of a tier whose moves stay inside it. */
        if (r == LOOPY_I_RECORD_DRAW) {
            f->to_draw = true;
            return true;
        }
        /* Reached from here in the forward pass, so solved by now; with
         * all_legal, what legal() refuses is not solved. */
        loopy_i_tier_fail(t, i, true,
                          "a move to position %" LOOPY_PRI_POSITION
                          ", which is not solved: %s",
                          c,
                          t->reps.all_legal && r == ABSENT
                              ? "legal() refuses it"
                              : "the tiers are not solved children first");
        return false;
    }
}

/* The record of position i, REACHED, from its moves' records. */
static uint16_t solve_position(tiers *t, uint64_t k, loopy_position i,
                               loopy_position_buffer *buf)
{
    const loopy_game *game = t->game;
    uint16_t ending = loopy_i_tier_ending(t, i, game->primitive(game->ctx, i));
    tier_fold f = TIER_FOLD_INIT;
    uint32_t lose;
    size_t count;

    if (ending != REACHED)
        return ending;
    count = loopy_i_tier_moves(t, k, i, buf);
    if (count == LOOPY_GAME_ERROR)
        return ABSENT;
    if (count == 0)
        return no_moves(t);
    for (size_t m = 0; m < count; m++)
        if (!loopy_i_tier_fold(t, i, buf->items[m], &f))
            return ABSENT;
    if (f.to_lose != UINT32_MAX)
        lose = f.to_lose;
    else if (f.to_tie != UINT32_MAX)
        lose = f.to_tie;
    else if (f.to_draw)
        return LOOPY_I_RECORD_DRAW;
    else
        lose = f.to_win;
    if (lose >= MAX_REMOTENESS) {
        atomic_store(&t->too_remote, true);
        loopy_i_tier_fail(t, i, true, "a remoteness past %u",
                          (unsigned)MAX_REMOTENESS);
        return ABSENT;
    }
    if (t->bound != 0 && lose + 1 > t->bound) {
        loopy_i_tier_fail(t, i, true,
                          "a remoteness of %" PRIu32 ", past the game's "
                          "remoteness_bound of %" PRIu32,
                          lose + 1, t->bound);
        return ABSENT;
    }
    return record_of(f.to_lose != UINT32_MAX  ? LOOPY_WIN
                     : f.to_tie != UINT32_MAX ? LOOPY_TIE
                                              : LOOPY_LOSE,
                     lose + 1);
}

/* Backward: position i solved when REACHED, or, in a tier a crash
 * interrupted, perhaps solved already (again, to the same value). */
static void solve_one(tiers *t, uint64_t k, loopy_position i,
                      loopy_position_buffer *buf)
{
    if (get(t, i) != ABSENT)
        put(t, i, solve_position(t, k, i, buf));
}

/* The records of tier k leave memory (a work file's: they stay in it). */
static void release_tier(tiers *t, uint64_t k)
{
    if (t->store != NULL)
        loopy_i_tier_store_release(t->store, t->start[k], t->start[k + 1]);
}

/* With a work file that parks its tiers: tier k's records get their
 * blocks on the disk (hold), go to the park file (park), or come back
 * from it (unpark); nothing otherwise. */
static loopy_status hold_tier(tiers *t, uint64_t k, loopy_diag *diag)
{
    return t->store == NULL ? LOOPY_OK
                            : loopy_i_tier_store_hold(t->store, t->start[k],
                                                      t->start[k + 1], diag);
}

static loopy_status park_tier(tiers *t, uint64_t k, loopy_diag *diag)
{
    return t->store == NULL
               ? LOOPY_OK
               : loopy_i_tier_store_park(t->store, k, t->start[k],
                                         t->start[k + 1], t->threads, diag);
}

static loopy_status unpark_tier(tiers *t, uint64_t k, loopy_diag *diag)
{
    loopy_status status = hold_tier(t, k, diag);

    return t->store == NULL || status != LOOPY_OK
               ? status
               : loopy_i_tier_store_unpark(t->store, k, t->start[k],
                                           t->start[k + 1], t->threads, diag);
}

/* Tier k and the tiers its moves reach, in the work file to be read and
 * written. */
static loopy_status ready_tiers(tiers *t, uint64_t k, loopy_diag *diag)
{
    loopy_status status = unpark_tier(t, k, diag);

    for (uint64_t i = t->child_at[k]; status == LOOPY_OK && i < t->child_at[k + 1];
         i++)
        status = unpark_tier(t, t->child[i], diag);
    return status;
}

static uint64_t tier_checksum(const tiers *t, uint64_t k)
{
    /* Between the passes: no thread writes the records. */
    return loopy_i_checksum((const unsigned char *)t->store->record +
                                t->start[k] * t->width,
                            (t->start[k + 1] - t->start[k]) * t->width,
                            t->threads);
}

static loopy_status status_of_failure(tiers *t)
{
    return atomic_load(&t->out_of_memory) ? LOOPY_ENOMEM
           : atomic_load(&t->too_remote)  ? LOOPY_ETOOBIG
                                          : LOOPY_EGAME;
}

/* Forward: what the start reaches (or every legal index), tier by tier,
 * parents first; with a work file, then flushed and journaled. */
static loopy_status reach_all(tiers *t, loopy_diag *diag)
{
    const loopy_game *game = t->game;
    uint64_t size = game->size;
    loopy_status status;

    if (t->store == NULL) {
#pragma omp parallel for num_threads(t->threads) schedule(static)
        for (int64_t i = 0; i < (int64_t)size; i++)
            put(t, (loopy_position)i, ABSENT);
    }
    if (!t->reps.all_legal) {
        loopy_position start = game->start;
        if (t->reps.symmetric)
            start = game->canonical(game->ctx, start);
        if (start >= size) {
            loopy_i_tier_fail(t, game->start, true,
                              "canonical() gives a position "
                              "outside the index space");
            return LOOPY_EGAME;
        }
        status = hold_tier(t, loopy_i_tier_of(t, start), diag);
        if (status != LOOPY_OK)
            return status;
        put(t, start, REACHED);
    }
    t->phase_done = 0;
    for (uint64_t j = 0; j < t->count && !atomic_load(&t->failed); j++) {
        uint64_t k = t->order[j];
        label_tier(t, "reach tier ", j);
        /* (A tier is reached after its parents: none is parked yet.) */
        status = ready_tiers(t, k, diag);
        if (status != LOOPY_OK)
            return status;
        allow_children(t, k, true);
        /* Moves inside the tier: again until nothing new is reached. */
        do {
            atomic_store(&t->grew, false);
            loopy_i_tier_each(t, k, reach_position);
        } while (t->self[k] && atomic_load(&t->grew) &&
                 !atomic_load(&t->failed));
        if (t->self[k] && !t->reps.all_legal)
            loopy_i_tier_each(t, k, reached_again);
        allow_children(t, k, false);
        /* Its parents reached before it: its records are what its solve
         * begins with, parked until then. */
        if (!atomic_load(&t->failed)) {
            status = park_tier(t, k, diag);
            if (status != LOOPY_OK)
                return status;
        }
        release_tier(t, k);
        t->phase_done += t->start[k + 1] - t->start[k];
    }
    if (atomic_load(&t->failed))
        return status_of_failure(t);
    snprintf(t->label, sizeof t->label, "reached");
    report(t, 0);
    if (t->store != NULL)
        return loopy_i_tier_store_commit(t->store, 0, size, TIER_ENTRY_REACHED,
                                         0, 0, diag);
    return LOOPY_OK;
}

/* Backward: each tier solved, children first; with a work file, each
 * flushed and journaled as it is finished (those the journal says are
 * finished checked and skipped), and dropped from memory once no tier
 * still to solve needs it. */
static loopy_status solve_all(tiers *t, loopy_diag *diag)
{
    loopy_status status;

    if (t->store == NULL || !t->store->reached) {
        status = reach_all(t, diag);
        if (status != LOOPY_OK)
            return status;
    }
    t->phase_done = 0;
    for (uint64_t j = t->count; j-- > 0;) {
        uint64_t k = t->order[j];
        label_tier(t, "tier ", t->count - 1 - j);
        report(t, 0);
        if (t->store != NULL && t->store->done[k]) {
            /* Finished before a resume: said as done at once (a parked
             * tier is checked when it comes back). */
            report(t, t->start[k + 1] - t->start[k]);
            if (!(t->store->parks && t->store->parked[k]) &&
                tier_checksum(t, k) != t->store->checksum[k]) {
                const char *journal = t->store->journal_path;
                loopy_i_diag(diag, 0, 0, "%.*s: tier %" PRIu64 " of the work "
                             "file is damaged (its records are not those "
                             "its journal recorded): remove it and its "
                             "journal to start again",
                             (int)(strlen(journal) - strlen("-journal")),
                             journal, k);
                return LOOPY_EFORMAT;
            }
        } else {
            status = ready_tiers(t, k, diag);
            if (status != LOOPY_OK)
                return status;
            allow_children(t, k, true);
            if (t->self[k])
                loopy_i_tier_solve_inner(t, k);
            else
                loopy_i_tier_each(t, k, solve_one);
            allow_children(t, k, false);
            if (atomic_load(&t->failed))
                return status_of_failure(t);
            if (t->store != NULL) {
                status = loopy_i_tier_store_commit(
                    t->store, t->start[k], t->start[k + 1], TIER_ENTRY_DONE, k,
                    tier_checksum(t, k), diag);
                if (status != LOOPY_OK)
                    return status;
            }
        }
        /* A tier no tier still to solve reads is parked (a tier is not
         * its own parent). */
        for (uint64_t i = t->child_at[k]; i < t->child_at[k + 1]; i++)
            if (t->child[i] != k && --t->pending[t->child[i]] == 0) {
                status = park_tier(t, t->child[i], diag);
                if (status != LOOPY_OK)
                    return status;
                release_tier(t, t->child[i]);
            }
        if (t->pending[k] == 0) {
            status = park_tier(t, k, diag);
            if (status != LOOPY_OK)
                return status;
            release_tier(t, k);
        }
        t->phase_done += t->start[k + 1] - t->start[k];
    }
    snprintf(t->label, sizeof t->label, "solved");
    report(t, 0);
    return LOOPY_OK;
}

/* Every parked tier back in the work file, for a solution that maps it
 * whole. */
static loopy_status unpark_all(tiers *t, loopy_diag *diag)
{
    loopy_status status = LOOPY_OK;

    for (uint64_t k = 0; status == LOOPY_OK && k < t->count; k++) {
        status = unpark_tier(t, k, diag);
        release_tier(t, k);
    }
    return status;
}

void loopy_i_tiers_free(tiers *t)
{
    loopy_i_free(t->start);
    loopy_i_free(t->child_at);
    loopy_i_free(t->child);
    loopy_i_free(t->order);
    loopy_i_free(t->allowed);
    loopy_i_free(t->self);
    loopy_i_free(t->pending);
}

loopy_status loopy_i_tiers_begin(tiers *t, const loopy_game *game,
                          const loopy_game_solve_options *options,
                          loopy_diag *diag)
{
    loopy_status status;

    memset(t, 0, sizeof *t);
    t->game = game;
    atomic_init(&t->failed, 0);
    atomic_init(&t->out_of_memory, false);
    atomic_init(&t->too_remote, false);
    if (game->tier_children == NULL ||
        (game->tier_count > 1 && game->tier_start == NULL)) {
        loopy_i_diag(diag, 0, 0, "%s: the game has no tiers%s: solve it with "
                     "the solver that stores no moves or through a graph",
                     game->name, game->tier_children == NULL
                                     ? "" : " (no tier_start())");
        return LOOPY_EINVAL;
    }
    if (game->size > SIZE_MAX / sizeof(uint16_t)) {
        loopy_i_diag(diag, 0, 0, "%s: an index space of %" PRIu64 " positions "
                     "is too large for memory", game->name, game->size);
        return LOOPY_ETOOBIG;
    }
    loopy_i_reps_init(&t->reps, game, options->no_symmetry != 0,
                      options->all_legal != 0);
    t->misere = options->misere;
    t->threads = loopy_i_threads(options->threads, game->size, CHUNK);
    t->progress = options->progress;
    t->progress_ctx = options->progress_ctx;
    t->bound = game->remoteness_bound;
    status = read_tiers(t);
    if (status != LOOPY_OK)
        return status;
    /* 1-byte records hold no Draw and no count: only when no tier's moves
     * stay inside it. */
    t->width = t->bound != 0 && t->bound <= LOOPY_I_BYTE_MAX_REMOTENESS ? 1 : 2;
    for (uint64_t k = 0; k < t->count; k++) {
        if (!t->self[k])
            continue;
        t->width = 2;
        /* canonical_unmoves stands for unmoves only when the solve takes
         * representatives of reached positions (reps.given[1]). */
        if (game->unmoves == NULL && !t->reps.given[1]) {
            loopy_i_diag(diag, 0, 0,
                         "%s: tier %" PRIu64 " has moves inside "
                         "itself, which the tier solver solves with "
                         "unmoves(): the game has none",
                         game->name, k);
            return LOOPY_EINVAL;
        }
    }
    return LOOPY_OK;
}

void loopy_i_tiers_explain(tiers *t, loopy_status status,
                           loopy_diag *diag)
{
    const loopy_game *game = t->game;

    if (atomic_load(&t->failed) && t->failed_has_position) {
        char text[96];
        loopy_i_diag(diag, 0, 0, "%s: position %" LOOPY_PRI_POSITION " (%s): %s",
                     game->name, t->failed_at,
                     loopy_game_format(game, t->failed_at, text, sizeof text),
                     t->failed_why);
    } else if (atomic_load(&t->failed)) {
        loopy_i_diag(diag, 0, 0, "%s: %s", game->name, t->failed_why);
    } else if (diag != NULL && diag->message[0] == '\0') {
        loopy_i_diag(diag, 0, 0, "%s: %s", game->name,
                     status == LOOPY_ENOMEM ? "out of memory"
                                            : loopy_strerror(status));
    }
}

/* The bytes of records in memory while the largest tier and its
 * children's are, 1 or 2 bytes an index: all there is when a tier's children
 * are solved just before it (Connect Four's chain, subtract's); a tier
 * whose parents are solved far apart stays longer (its pages, dropped
 * once its last parent is solved, come back from the file when read). */
static uint64_t working_set(const tiers *t)
{
    uint64_t most = 0;

    for (uint64_t k = 0; k < t->count; k++) {
        uint64_t size = t->start[k + 1] - t->start[k], sum = size * t->width;
        for (uint64_t i = t->child_at[k]; i < t->child_at[k + 1]; i++)
            if (t->child[i] != k)
                sum += (t->start[t->child[i] + 1] - t->start[t->child[i]]) *
                       t->width;
        /* A tier whose moves stay inside it: its counts too. */
        if (t->self[k])
            sum += size * TIER_INNER_BYTES;
        most = sum > most ? sum : most;
    }
    return most;
}

loopy_status loopy_game_solve_tiers(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *s = NULL;
    loopy_status status;
    void *records = NULL;
    tiers t;

    if (out == NULL || game == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    status = loopy_i_tiers_begin(&t, game, options != NULL ? options : &defaults,
                                 diag);
    if (status == LOOPY_OK) {
        _Static_assert(sizeof(_Atomic uint16_t) == sizeof(uint16_t) &&
                           sizeof(_Atomic uint8_t) == sizeof(uint8_t),
                       "an atomic record is a record");
        records = loopy_i_malloc((size_t)game->size, t.width);
        if (t.width == 1)
            t.byte = records;
        else
            t.record = records;
        if (records == NULL) {
            status = LOOPY_ENOMEM;
            loopy_i_diag(diag, 0, 0, "%s: out of memory for %" PRIu64
                         " positions (%u bytes each)", game->name, game->size,
                         t.width);
        }
    }
    if (status == LOOPY_OK)
        status = solve_all(&t, diag);
    if (status != LOOPY_OK) {
        loopy_i_tiers_explain(&t, status, diag);
        loopy_i_free(records);
        loopy_i_tiers_free(&t);
        return status;
    }
    loopy_i_tiers_free(&t);
    /* Every thread has joined: the records are plain data from here on. */
    status = loopy_i_solution_of_records(records, t.width, game->size,
                                         t.reps.symmetric, t.threads, &s);
    if (status != LOOPY_OK) {
        loopy_i_free(records);
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    *out = s;
    return LOOPY_OK;
}

loopy_status loopy_game_tier_working_set(const loopy_game *game,
                                         uint64_t *bytes, loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_status status;
    tiers t;

    if (game == NULL || bytes == NULL)
        return LOOPY_EINVAL;
    status = loopy_i_tiers_begin(&t, game, &defaults, diag);
    if (status == LOOPY_OK)
        *bytes = working_set(&t);
    else
        loopy_i_tiers_explain(&t, status, diag);
    loopy_i_tiers_free(&t);
    return status;
}

loopy_status loopy_i_tiers_solve_stored(tiers *t, tier_store *store,
                                       const loopy_game *game,
                                       const loopy_game_solve_options *options,
                                       const loopy_game_tier_store *where,
                                       loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_status status;
    tier_store_key key;
    uint64_t bytes;

    if (game == NULL || where == NULL || where->path == NULL)
        return LOOPY_EINVAL;
    if (options == NULL)
        options = &defaults;
    status = loopy_i_tiers_begin(t, game, options, diag);
    if (status == LOOPY_OK && where->memory_limit != 0 &&
        (bytes = working_set(t)) > where->memory_limit) {
        loopy_i_diag(diag, 0, 0, "%s: the tiers need %" PRIu64 " bytes of "
                     "records in memory at once (the largest tier with the "
                     "tiers its moves reach), more than the %" PRIu64
                     " allowed", game->name, bytes, where->memory_limit);
        status = LOOPY_ETOOBIG;
    }
    if (status == LOOPY_OK) {
        key.name = game->name;
        key.params = game->params != NULL ? game->params : "";
        key.size = game->size;
        key.tiers = t->count;
        key.flags = (options->misere ? TIER_FLAG_MISERE : 0) |
                    (t->reps.symmetric ? TIER_FLAG_SYMMETRIC : 0) |
                    (t->reps.all_legal ? TIER_FLAG_ALL_LEGAL : 0) |
                    (t->width == 1 ? TIER_FLAG_BYTES : 0) | TIER_FLAG_PARKS;
        status = loopy_i_tier_store_open(store, where->path,
                                         where->resume != 0, &key, diag);
        /* Once reached, every tier with indices was parked, and stays so
         * until it is done: a journal that says otherwise was not the
         * solve's. */
        for (uint64_t k = 0; status == LOOPY_OK && store->reached &&
                             k < t->count;
             k++)
            if (t->start[k + 1] > t->start[k] && !store->parked[k] &&
                !store->done[k]) {
                loopy_i_diag(diag, 0, 0, "%s: damaged: tier %" PRIu64
                             " is neither parked nor done after the reach",
                             store->journal_path, k);
                loopy_i_tier_store_close(store, false);
                status = LOOPY_EFORMAT;
            }
        if (status != LOOPY_OK) {
            loopy_i_tiers_explain(t, status, diag);
            loopy_i_tiers_free(t);
            return status;
        }
    }
    /* (A crash before every tier was reached: the store begins again.) */
    if (status == LOOPY_OK) {
        t->store = store;
        if (t->width == 1)
            t->byte = store->record;
        else
            t->record = store->record;
        status = solve_all(t, diag);
        if (status != LOOPY_OK)
            loopy_i_tier_store_close(store, false);
    }
    if (status != LOOPY_OK) {
        loopy_i_tiers_explain(t, status, diag);
        loopy_i_tiers_free(t);
    }
    return status;
}

loopy_status loopy_i_tier_bring(tiers *t, uint64_t k, loopy_diag *diag)
{
    return unpark_tier(t, k, diag);
}

loopy_status loopy_i_tier_put_away(tiers *t, uint64_t k, loopy_diag *diag)
{
    loopy_status status = park_tier(t, k, diag);

    release_tier(t, k);
    return status;
}

loopy_status loopy_game_solve_tiers_stored(
    const loopy_game *game, const loopy_game_solve_options *options,
    const loopy_game_tier_store *where, loopy_game_solution **out,
    loopy_diag *diag)
{
    loopy_game_solution *s = NULL;
    loopy_status status;
    tier_store store;
    tiers t;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    status = loopy_i_tiers_solve_stored(&t, &store, game, options, where, diag);
    if (status != LOOPY_OK)
        return status;
    status = unpark_all(&t, diag);
    if (status == LOOPY_OK) {
        /* The journal's descriptor, and with it its lock, go to the
         * solution: no other solve may take the work file while the
         * database is written from it. */
        int lock_fd = store.journal_fd;
        store.journal_fd = -1;
        status = loopy_i_solution_of_mapped_records(store.record, t.width,
                                                    game->size,
                                                    store.map_bytes, lock_fd,
                                                    t.reps.symmetric,
                                                    t.threads, &s);
    }
    if (status != LOOPY_OK) {
        loopy_i_tiers_explain(&t, status, diag);
        loopy_i_tier_store_close(&store, false);
        loopy_i_tiers_free(&t);
        return status;
    }
    /* The mapping is the solution's now. */
    loopy_i_tier_store_close(&store, true);
    loopy_i_tiers_free(&t);
    *out = s;
    return LOOPY_OK;
}
