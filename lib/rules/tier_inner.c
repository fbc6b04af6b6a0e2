/*
 * tier_inner.c - a tier whose moves may stay inside it (a chess material:
 * most moves keep it), solved by retrograde analysis within the tier, its
 * moves out of it read as the known values of tiers solved before.
 *
 * Besides the records, for each index of the tier (TIER_INNER_BYTES):
 *     left        the moves inside the tier not yet known to reach a Win
 *     out_lose    the least remoteness of a move out of the tier to a
 *                 Lose (NONE: no such move): a Win at 1 more is due then
 *     out_tie     the same for a Tie, for the Tie pass
 *     floor       a Lose's remoteness at least: 1 + the greatest of its
 *                 moves out of the tier (all to Wins), NEVER when one of
 *                 them is not a Win; once left is 0, 1 + its last move
 *                 inside to become a Win, if greater: the Lose is due then
 *
 * Level r of the Win/Lose pass: first the positions still undecided whose
 * Win or Lose is due at r are decided; then every position of the tier
 * decided at r tells its predecessors inside the tier (unmoves()): a Lose
 * makes them Wins at r + 1 (a compare-and-swap from undecided, so the
 * first level to reach one gives its least remoteness), a Win counts them
 * down.  The levels go on while something is decided, or due later.  The
 * Tie pass does the same over the positions still undecided, from the
 * Ties of the tier and the moves out of it to Ties; what is left is a
 * Draw.  Each level scans the tier: O(tier * levels), as the solver that
 * stores no moves does over the whole index space (retro_solve.c).
 *
 * The records of the tier hold REACHED while undecided (a resumed tier is
 * first put back so), its values once decided.  Threads share them and
 * the counts through atomics; the result does not depend on their number.
 */
#include "tier_solve.h"

#include <inttypes.h>
#include <string.h>

#define NONE UINT16_MAX
#define NEVER UINT16_MAX

typedef struct inner {
    loopy_position lo, hi;
    _Atomic uint32_t *left;
    uint16_t *out_lose, *out_tie, *floor;
    uint32_t level;           /* the level at work */
    bool ties;                /* the Tie pass */
    _Atomic uint64_t decided; /* decided at the level at work */
    /* The last level something is due at: [0] in the Win/Lose pass, [1]
     * in the Tie pass. */
    _Atomic uint32_t horizon[2];
} inner;

/* The tier solve at work, for the visits (one tier at a time). */
static inner *now_of(tiers *t)
{
    return t->inner;
}

static void raise_horizon(inner *in, int pass, uint32_t level)
{
    _Atomic uint32_t *h = &in->horizon[pass];
    uint32_t seen = atomic_load_explicit(h, memory_order_relaxed);

    while (level > seen &&
           !atomic_compare_exchange_weak_explicit(
               h, &seen, level, memory_order_relaxed, memory_order_relaxed))
        ;
}

/* A resumed tier: its records back to undecided (REACHED) or, with
 * all_legal, to what the legal representatives are. */
static void reset(tiers *t, uint64_t k, loopy_position i,
                  loopy_position_buffer *buf)
{
    (void)k;
    (void)buf;
    if (t->reps.all_legal)
        put(t, i, loopy_i_tier_to_solve(t, i) ? REACHED : ABSENT);
    else if (get(t, i) != ABSENT)
        put(t, i, REACHED);
}

/* Position i's moves counted and its moves out of the tier read; over or
 * without moves, decided at 0. */
static void start(tiers *t, uint64_t k, loopy_position i,
                  loopy_position_buffer *buf)
{
    const loopy_game *game = t->game;
    inner *in = now_of(t);
    uint32_t left = 0, lose, tie;
    tier_fold f = TIER_FOLD_INIT;
    bool never;
    uint16_t ending;
    size_t count, at = (size_t)(i - in->lo);

    if (get(t, i) != REACHED)
        return;
    ending = loopy_i_tier_ending(t, i, game->primitive(game->ctx, i));
    if (ending != REACHED) {
        put(t, i, ending);
        return;
    }
    count = loopy_i_tier_moves(t, k, i, buf);
    if (count == LOOPY_GAME_ERROR)
        return;
    if (count == 0) {
        put(t, i, no_moves(t));
        return;
    }
    for (size_t m = 0; m < count; m++) {
        loopy_position c = buf->items[m];
        if (c >= in->lo && c < in->hi)
            left++;
        else if (!loopy_i_tier_fold(t, i, c, &f))
            return;
    }
    /* A move out of the tier to a Lose, Tie or Draw: never a Lose. */
    never = f.to_lose != UINT32_MAX || f.to_tie != UINT32_MAX || f.to_draw;
    lose = f.to_lose != UINT32_MAX ? f.to_lose : NONE;
    tie = f.to_tie != UINT32_MAX ? f.to_tie : NONE;
    atomic_store_explicit(&in->left[at], left, memory_order_relaxed);
    in->out_lose[at] = (uint16_t)lose;
    in->out_tie[at] = (uint16_t)tie;
    /* A Lose is 1 more than its longest move; with all its moves out of
     * the tier, due at once. */
    in->floor[at] = never ? NEVER : (uint16_t)(f.to_win + 1);
    if (lose != NONE)
        raise_horizon(in, 0, lose + 1u);
    if (tie != NONE)
        raise_horizon(in, 1, tie + 1u);
    if (!never && left == 0)
        raise_horizon(in, 0, f.to_win + 1u);
}

/* Whether position i may have remoteness r: within the records' limit
 * (else LOOPY_ETOOBIG) and the game's remoteness_bound (else the game's
 * flaw); false after a failure. */
static bool fits(tiers *t, loopy_position i, uint32_t r)
{
    if (r > MAX_REMOTENESS) {
        atomic_store(&t->too_remote, true);
        loopy_i_tier_fail(t, i, true, "a remoteness past %u",
                          (unsigned)MAX_REMOTENESS);
        return false;
    }
    if (t->bound != 0 && r > t->bound) {
        loopy_i_tier_fail(t, i, true,
                          "a remoteness of %" PRIu32 ", past the game's "
                          "remoteness_bound of %" PRIu32,
                          r, t->bound);
        return false;
    }
    return true;
}

/* Level r, first: what is due at r decided. */
static void due(tiers *t, uint64_t k, loopy_position i,
                loopy_position_buffer *buf)
{
    inner *in = now_of(t);
    size_t at = (size_t)(i - in->lo);
    uint32_t r = in->level;

    (void)k;
    (void)buf;
    if (get(t, i) != REACHED)
        return;
    if (in->ties) {
        if (in->out_tie[at] != NONE && in->out_tie[at] + 1u == r &&
            fits(t, i, r))
            put(t, i, record_of(LOOPY_TIE, r));
        return;
    }
    if (in->out_lose[at] != NONE && in->out_lose[at] + 1u == r) {
        if (fits(t, i, r))
            put(t, i, record_of(LOOPY_WIN, r));
    } else if (atomic_load_explicit(&in->left[at], memory_order_relaxed) ==
                   0 &&
               in->floor[at] == r) {
        if (fits(t, i, r))
            put(t, i, record_of(LOOPY_LOSE, r));
    }
}

/* Level r, then: each position decided at r tells its predecessors in
 * the tier. */
static void spread(tiers *t, uint64_t k, loopy_position i,
                   loopy_position_buffer *buf)
{
    inner *in = now_of(t);
    uint32_t r = in->level;
    uint16_t mine = get(t, i), kind = mine >> SHIFT;
    char why[200];
    bool no_memory;
    size_t count;

    (void)k;
    if ((mine & LOOPY_I_RECORD_LOW) != r || mine == ABSENT || mine == REACHED ||
        mine == LOOPY_I_RECORD_DRAW ||
        (in->ties ? kind != LOOPY_TIE : kind == LOOPY_TIE))
        return;
    atomic_fetch_add_explicit(&in->decided, 1, memory_order_relaxed);
    count = loopy_i_game_neighbours(&t->reps, i, true, buf, why, sizeof why,
                                    &no_memory);
    if (count == LOOPY_GAME_ERROR) {
        if (no_memory)
            atomic_store(&t->out_of_memory, true);
        loopy_i_tier_fail(t, i, true, "%s", why);
        return;
    }
    for (size_t m = 0; m < count; m++) {
        loopy_position q = buf->items[m];
        size_t at = (size_t)(q - in->lo);
        if (q < in->lo || q >= in->hi)
            continue; /* a parent in another tier */
        if (kind == LOOPY_WIN) {
            uint32_t was;
            if (get(t, q) != REACHED)
                continue;
            was = atomic_fetch_sub_explicit(&in->left[at], 1,
                                            memory_order_relaxed);
            if (was == 0) {
                atomic_store_explicit(&in->left[at], 0, memory_order_relaxed);
                loopy_i_tier_fail(t, q, true,
                                  "unmoves() of position %" LOOPY_PRI_POSITION
                                  " gives it, but its "
                                  "moves do not reach that position",
                                  i);
                return;
            }
            if (was != 1 || in->floor[at] == NEVER)
                continue;
            /* Its last move inside became a Win at r. */
            if (in->floor[at] < r + 1)
                in->floor[at] = (uint16_t)(r + 1);
            raise_horizon(in, 0, in->floor[at]);
        } else {
            /* After a Lose (a Tie in the Tie pass), the first level to
             * get there gives the least remoteness. */
            uint16_t undecided = REACHED;
            if (get(t, q) != REACHED)
                continue;
            if (!fits(t, q, r + 1))
                return;
            atomic_compare_exchange_strong_explicit(
                &t->record[q], &undecided,
                record_of(kind == LOOPY_LOSE ? LOOPY_WIN : LOOPY_TIE, r + 1),
                memory_order_relaxed, memory_order_relaxed);
        }
    }
}

/* What is still undecided at the end: a Draw. */
static void draw(tiers *t, uint64_t k, loopy_position i,
                 loopy_position_buffer *buf)
{
    (void)k;
    (void)buf;
    if (get(t, i) == REACHED)
        put(t, i, LOOPY_I_RECORD_DRAW);
}

/* The levels of one pass (ties: the Tie pass), until nothing is decided
 * at a level and nothing is due after it. */
static void levels(tiers *t, uint64_t k, inner *in, bool ties)
{
    in->ties = ties;
    for (uint32_t r = 0; !atomic_load(&t->failed); r++) {
        in->level = r;
        atomic_store(&in->decided, 0);
        if (r > 0)
            loopy_i_tier_each(t, k, due);
        loopy_i_tier_each(t, k, spread);
        if (atomic_load(&in->decided) == 0 &&
            r >= atomic_load(&in->horizon[ties]))
            break;
    }
}

loopy_status loopy_i_tier_solve_inner(tiers *t, uint64_t k)
{
    inner in;
    size_t n = (size_t)(t->start[k + 1] - t->start[k]);

    memset(&in, 0, sizeof in);
    in.lo = t->start[k];
    in.hi = t->start[k + 1];
    atomic_init(&in.decided, 0);
    atomic_init(&in.horizon[0], 0);
    atomic_init(&in.horizon[1], 0);
    in.left = loopy_i_malloc(n, sizeof *in.left);
    in.out_lose = loopy_i_malloc(n, sizeof *in.out_lose);
    in.out_tie = loopy_i_malloc(n, sizeof *in.out_tie);
    in.floor = loopy_i_malloc(n, sizeof *in.floor);
    if (n > 0 && (in.left == NULL || in.out_lose == NULL ||
                  in.out_tie == NULL || in.floor == NULL)) {
        atomic_store(&t->out_of_memory, true);
        loopy_i_tier_fail(t, in.lo, false,
                          "out of memory for the %zu "
                          "positions of tier %" PRIu64 " (%u bytes each)",
                          n, k, TIER_INNER_BYTES);
    } else {
        /* The scans go over the tier many times: no progress within it. */
        loopy_progress_fn progress = t->progress;
        t->progress = NULL;
        t->inner = &in;
        loopy_i_tier_each(t, k, reset);
        loopy_i_tier_each(t, k, start);
        levels(t, k, &in, false);
        levels(t, k, &in, true);
        if (!atomic_load(&t->failed))
            loopy_i_tier_each(t, k, draw);
        t->inner = NULL;
        t->progress = progress;
    }
    loopy_i_free(in.left);
    loopy_i_free(in.out_lose);
    loopy_i_free(in.out_tie);
    loopy_i_free(in.floor);
    return atomic_load(&t->failed) ? LOOPY_EGAME : LOOPY_OK;
}
