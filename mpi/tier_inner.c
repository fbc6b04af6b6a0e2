/*
 * tier_inner.c - a tier whose moves may stay inside it (a chess material),
 * solved across the ranks by retrograde analysis within the tier, as
 * lib/rules/tier_inner.c solves it in one process; its moves out of the
 * tier are read once from the tiers solved before.
 *
 * Each rank holds its chunks of the tier (tier.c deals them) and, for each
 * of its indices, what the single process holds (TIER_INNER_BYTES): the
 * moves inside the tier not yet known to reach a Win (left), the least
 * remoteness of a move out of the tier to a Lose and to a Tie, and the
 * least remoteness a Lose may have (floor).  The start is tier.c's slices,
 * whose moves out of the tier are asked of their owners; the moves inside
 * are only counted.  Level r: each rank decides what is due at r among its
 * positions, then each position decided at r tells its predecessors in the
 * tier (unmoves()); what a position tells a position of another rank goes
 * into that rank's buffer (its index in two words, after a header: the
 * kind), exchanged all-to-all when a buffer fills and at the end of the
 * scan.  A Lose makes its predecessors Wins at r + 1, a Win counts them
 * down; a Tie makes them Ties in the Tie pass.  Every rank scans level r
 * before any scans r + 1, and what a level makes depends only on what the
 * level before made, so values and remotenesses are the single process's
 * whatever the number of ranks.  The levels end when no rank decided
 * anything at a level and nothing is due after it.
 */
#include "tier.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT16_MAX
#define NEVER UINT16_MAX

/* The kinds of message: a predecessor of a Win, of a Lose, of a Tie. */
enum { TELL_WIN, TELL_LOSE, TELL_TIE };

typedef struct tinner {
    uint64_t n; /* this rank's indices of the tier */
    uint32_t *left;
    uint16_t *out_lose, *out_tie, *floor;
    uint32_t level;
    bool ties;
    uint64_t decided;      /* by this rank at the level at work */
    uint32_t horizon[2];   /* the last level something is due at, here */
    uint32_t held_kind;    /* of the position whose predecessors are held */
} tinner;

bool mpi_tier_inner_begin(tsolve *s, uint64_t k)
{
    tinner *in = calloc(1, sizeof *in);
    uint64_t lo = s->local_at[k], n = s->local_at[k + 1] - lo;

    if (in != NULL) {
        in->n = n;
        in->left = malloc((size_t)n * sizeof *in->left + 1);
        in->out_lose = malloc((size_t)n * sizeof *in->out_lose + 1);
        in->out_tie = malloc((size_t)n * sizeof *in->out_tie + 1);
        in->floor = malloc((size_t)n * sizeof *in->floor + 1);
    }
    s->inner = in;
    if (in == NULL || in->left == NULL || in->out_lose == NULL ||
        in->out_tie == NULL || in->floor == NULL)
        mpi_fail(s->run, EXIT_RESOURCE,
                 "out of memory for the %" PRIu64 " positions of tier %" PRIu64
                 " this rank holds (%u bytes each)",
                 n, k, TIER_INNER_BYTES);
    if (!mpi_agree(s->run))
        return false;
    /* Undecided again, as a tier solved halfway before a resume: the
     * positions to solve are those not absent. */
    for (uint64_t i = 0; i < n; i++) {
        if (get(&s->t, lo + i) != ABSENT)
            put(&s->t, lo + i, REACHED);
        in->left[i] = 0;
        in->out_lose[i] = in->out_tie[i] = NONE;
        in->floor[i] = NEVER;
    }
    return true;
}

void mpi_tier_inner_end(tsolve *s)
{
    tinner *in = s->inner;

    if (in == NULL)
        return;
    free(in->left);
    free(in->out_lose);
    free(in->out_tie);
    free(in->floor);
    free(in);
    s->inner = NULL;
}

static void raise_horizon(tinner *in, int pass, uint32_t level)
{
    if (level > in->horizon[pass])
        in->horizon[pass] = level;
}

/* Whether a position of this rank (its i-th of tier k) may have
 * remoteness r; else the failure is recorded. */
static bool fits(tsolve *s, uint64_t k, uint64_t i, uint32_t r)
{
    char why[120];

    if (r > MAX_REMOTENESS)
        snprintf(why, sizeof why, "a remoteness past %u",
                 (unsigned)MAX_REMOTENESS);
    else if (s->t.bound != 0 && r > s->t.bound)
        snprintf(why, sizeof why,
                 "a remoteness of %" PRIu32 ", past the game's "
                 "remoteness_bound of %" PRIu32,
                 r, s->t.bound);
    else
        return true;
    mpi_game_fail(s->run, s->game, mpi_tier_position_of(s, k, i),
                  r > MAX_REMOTENESS ? EXIT_RESOURCE : EXIT_INPUT, why);
    return false;
}

void mpi_tier_inner_start(tsolve *s, uint64_t k, const slice *sl)
{
    tinner *in = s->inner;

    for (size_t x = 0; x < sl->n_at && s->run->status == EXIT_OK; x++) {
        uint64_t i = sl->at[x];
        tier_fold f = TIER_FOLD_INIT;
        bool never;

        if (mpi_tier_alone(s, k, sl, x))
            continue;
        if (!mpi_tier_fold(s, k, sl, x, &f))
            return;
        /* A move out of the tier to a Lose, Tie or Draw: never a Lose. */
        never = f.to_lose != UINT32_MAX || f.to_tie != UINT32_MAX || f.to_draw;
        in->left[i] = sl->inside[x];
        in->out_lose[i] = f.to_lose != UINT32_MAX ? (uint16_t)f.to_lose : NONE;
        in->out_tie[i] = f.to_tie != UINT32_MAX ? (uint16_t)f.to_tie : NONE;
        /* A Lose is 1 more than its longest move; with all its moves out
         * of the tier, due at once. */
        in->floor[i] = never ? NEVER : (uint16_t)(f.to_win + 1);
        if (f.to_lose != UINT32_MAX)
            raise_horizon(in, 0, f.to_lose + 1);
        if (f.to_tie != UINT32_MAX)
            raise_horizon(in, 1, f.to_tie + 1);
        if (!never && sl->inside[x] == 0)
            raise_horizon(in, 0, f.to_win + 1);
    }
}

/* Level r, first: what is due at r decided. */
static void due(tsolve *s, uint64_t k)
{
    tinner *in = s->inner;
    uint32_t r = in->level;

    for (uint64_t i = 0; i < in->n && s->run->status == EXIT_OK; i++) {
        uint64_t local = s->local_at[k] + i;
        if (get(&s->t, local) != REACHED)
            continue;
        if (in->ties) {
            if (in->out_tie[i] != NONE && in->out_tie[i] + 1u == r &&
                fits(s, k, i, r))
                put(&s->t, local, record_of(LOOPY_TIE, r));
        } else if (in->out_lose[i] != NONE && in->out_lose[i] + 1u == r) {
            if (fits(s, k, i, r))
                put(&s->t, local, record_of(LOOPY_WIN, r));
        } else if (in->left[i] == 0 && in->floor[i] == r && fits(s, k, i, r)) {
            put(&s->t, local, record_of(LOOPY_LOSE, r));
        }
    }
}

/* The predecessor q (this rank's, at local) of a position decided at the
 * level at work hears of it (kind); from, the position that tells, or
 * UINT64_MAX when it is another rank's (the message is then sent without
 * it). */
static void hear(tsolve *s, uint64_t k, uint64_t local, uint32_t kind,
                 loopy_position q, loopy_position from)
{
    tinner *in = s->inner;
    uint64_t i = local - s->local_at[k];
    uint32_t r = in->level;

    if (get(&s->t, local) != REACHED)
        return;
    if (kind == TELL_WIN) {
        char why[160];
        if (in->left[i] > 0) {
            if (--in->left[i] > 0 || in->floor[i] == NEVER)
                return;
            /* Its last move inside became a Win at r. */
            if (in->floor[i] < r + 1)
                in->floor[i] = (uint16_t)(r + 1);
            raise_horizon(in, 0, in->floor[i]);
            return;
        }
        if (from == UINT64_MAX)
            snprintf(why, sizeof why,
                     "unmoves() of a position of its tier gives it, but "
                     "its moves do not reach that position");
        else
            snprintf(why, sizeof why,
                     "unmoves() of position %" LOOPY_PRI_POSITION
                     " gives it, but its moves do not reach that position",
                     from);
        mpi_game_fail(s->run, s->game, q, EXIT_INPUT, why);
        return;
    }
    /* After a Lose (a Tie in the Tie pass), the first level to get there
     * gives the least remoteness. */
    if (fits(s, k, i, r + 1))
        put(&s->t, local,
            record_of(kind == TELL_LOSE ? LOOPY_WIN : LOOPY_TIE, r + 1));
}

/* Sends buf[next_item ..) of the held position (the one that tells,
 * from) to their owners, or tells them here; false when a buffer is
 * full. */
static bool send_held(tsolve *s, uint64_t k, loopy_position from)
{
    tinner *in = s->inner;
    const uint32_t head[1] = {in->held_kind};

    for (; s->next_item < s->items; s->next_item++) {
        loopy_position q = s->buf.items[s->next_item];
        uint64_t local;
        uint32_t msg[2];
        int d;
        if (q < s->t.start[k] || q >= s->t.start[k + 1])
            continue; /* a parent in another tier */
        d = mpi_tier_owner(s, k, q, &local);
        if (d == s->me) {
            hear(s, k, local, in->held_kind, q, from);
            continue;
        }
        msg[0] = (uint32_t)(q >> 32);
        msg[1] = (uint32_t)q;
        if (!mpi_exchange_put(&s->x, d, head, 1, msg, 2))
            return false;
    }
    s->holding = false;
    return true;
}

/* This rank's i-th position of tier k, decided at the level at work, has
 * its predecessors held to be told. */
static void tell(tsolve *s, uint64_t k, uint64_t i)
{
    tinner *in = s->inner;
    uint16_t mine = get(&s->t, s->local_at[k] + i);
    unsigned kind = (unsigned)mine >> SHIFT;
    char why[200];
    bool no_memory;
    size_t count;
    loopy_position pos;

    if (kind == 0 || (mine & LOOPY_I_RECORD_LOW) != in->level ||
        in->ties != (kind == LOOPY_TIE))
        return;
    in->decided++;
    pos = mpi_tier_position_of(s, k, i);
    count = loopy_i_game_neighbours(&s->t.reps, pos, true, &s->buf, why,
                                    sizeof why, &no_memory);
    if (count == LOOPY_GAME_ERROR) {
        mpi_game_fail(s->run, s->game, pos,
                      no_memory ? EXIT_RESOURCE : EXIT_INPUT, why);
        return;
    }
    s->holding = count > 0;
    s->items = count;
    s->next_item = 0;
    in->held_kind = kind == LOOPY_WIN    ? TELL_WIN
                    : kind == LOOPY_LOSE ? TELL_LOSE
                                         : TELL_TIE;
}

static void apply(tsolve *s, uint64_t k)
{
    const mpi_exchange *x = &s->x;

    for (int r = 0; r < s->P; r++) {
        const uint32_t *m = x->recv + x->recv_displ[r];
        int count = x->recv_count[r];
        uint32_t kind = TELL_WIN;
        for (int j = 0; j + 1 < count && s->run->status == EXIT_OK;) {
            loopy_position q;
            uint64_t local;
            if (m[j] == MPI_MARK && j + 1 < count) {
                kind = m[j + 1];
                j += 2;
                continue;
            }
            q = (uint64_t)m[j] << 32 | m[j + 1];
            if (q < s->t.start[k] || q >= s->t.start[k + 1] ||
                mpi_tier_owner(s, k, q, &local) != s->me || kind > TELL_TIE) {
                mpi_fail(s->run, EXIT_RESOURCE,
                         "internal error: a message for position %" PRIu64
                         ", not rank %d's in tier %" PRIu64,
                         q, s->me, k);
                return;
            }
            hear(s, k, local, kind, q, UINT64_MAX);
            j += 2;
        }
    }
}

/* Collective: level r's telling, over every rank's part of tier k, with
 * its exchanges. */
static bool spread(tsolve *s, uint64_t k)
{
    tinner *in = s->inner;
    loopy_position from = 0;

    s->next = 0;
    s->holding = false;
    for (;;) {
        int mine[2], all[2];
        while (s->run->status == EXIT_OK) {
            if (s->holding && !send_held(s, k, from))
                break;
            if (s->next >= in->n)
                break;
            from = mpi_tier_position_of(s, k, s->next);
            tell(s, k, s->next++);
        }
        mpi_exchange_run(&s->x, &s->stats);
        s->stats.supersteps++;
        apply(s, k);
        mine[0] = s->holding || s->next < in->n;
        mine[1] = s->run->status != EXIT_OK;
        MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (all[1])
            return mpi_agree(s->run);
        if (!all[0])
            return true;
    }
}

/* Collective: the levels of one pass (ties: the Tie pass), until no rank
 * decided anything at a level and nothing is due after it. */
static bool levels(tsolve *s, uint64_t k, bool ties)
{
    tinner *in = s->inner;

    in->ties = ties;
    for (uint32_t r = 0;; r++) {
        uint64_t made[2], most[2];
        in->level = r;
        in->decided = 0;
        if (r > 0)
            due(s, k);
        if (!mpi_agree(s->run) || !spread(s, k))
            return false;
        /* Whether any rank decided something, and the last level due. */
        made[0] = in->decided;
        made[1] = in->horizon[ties];
        MPI_Allreduce(made, most, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
        if (most[0] == 0 && r >= most[1])
            return true;
    }
}

bool mpi_tier_inner_levels(tsolve *s, uint64_t k)
{
    tinner *in = s->inner;

    if (!levels(s, k, false))
        return false;
    /* A test's failure inside the first such tier, its Wins and Loses
     * decided and its Ties not. */
    if (mpi_fault(s->run, "inner"))
        mpi_fail(s->run, EXIT_RESOURCE, "out of memory (LOOPY_MPI_FAULT)");
    if (!mpi_agree(s->run) || !levels(s, k, true))
        return false;
    /* What is still undecided: a Draw. */
    for (uint64_t i = 0; i < in->n; i++)
        if (get(&s->t, s->local_at[k] + i) == REACHED)
            put(&s->t, s->local_at[k] + i, LOOPY_I_RECORD_DRAW);
    return true;
}
