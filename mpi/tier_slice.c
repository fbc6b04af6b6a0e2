/*
 * tier_slice.c - the backward pass of loopy-mpi's tier solver over a tier,
 * a slice of each rank's positions at a time: their moves gathered, the
 * records of those other ranks hold asked in one all-to-all exchange and
 * answered in a second, then each position solved from its moves' records
 * (a tier whose moves leave it) or started for the levels (tier_inner.c).
 */
#include "tier.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Positions of a slice of the backward pass. */
#define SLICE_POSITIONS 65536



static bool grow_kids(slice *sl, size_t want)
{
    size_t cap = sl->cap ? sl->cap : 1024;
    uint64_t *kid, *local_of, *slot;
    int *dest;

    if (want <= sl->cap)
        return true;
    while (cap < want)
        cap *= 2;
    kid = realloc(sl->kid, cap * sizeof *kid);
    if (kid != NULL)
        sl->kid = kid;
    local_of = realloc(sl->local_of, cap * sizeof *local_of);
    if (local_of != NULL)
        sl->local_of = local_of;
    slot = realloc(sl->slot, cap * sizeof *slot);
    if (slot != NULL)
        sl->slot = slot;
    dest = realloc(sl->dest, cap * sizeof *dest);
    if (dest != NULL)
        sl->dest = dest;
    if (kid == NULL || local_of == NULL || slot == NULL || dest == NULL)
        return false;
    sl->cap = cap;
    return true;
}

/* Phase 1 of a slice (its positions sl->at, offsets in tier k's part):
 * the positions' moves, and the requests per owner. */
static void gather_kids(tsolve *s, uint64_t k, slice *sl)
{
    const loopy_game *game = s->game;
    int *scount = sl->count, *sdispl = sl->count + s->P;
    bool inner = s->t.self[k];
    loopy_position lo = s->t.start[k], hi = s->t.start[k + 1];

    sl->kids = 0;
    memset(scount, 0, (size_t)s->P * sizeof *scount);
    for (size_t x = 0; x < sl->n_at; x++) {
        uint64_t i = sl->at[x], local = s->local_at[k] + i;
        loopy_position pos = mpi_tier_position_of(s, k, i);
        loopy_primitive p;
        size_t count;

        sl->kid_at[x] = sl->kids;
        sl->ending[x] = ABSENT;
        sl->inside[x] = 0;
        /* Reached (or solved, in a tier solved again after a resume). */
        if (s->run->status != EXIT_OK || get(&s->t, local) == ABSENT)
            continue;
        p = game->primitive(game->ctx, pos);
        if (p != LOOPY_PLAYING) {
            sl->ending[x] = loopy_i_tier_ending(&s->t, pos, p);
            if (sl->ending[x] == ABSENT)
                mpi_game_fail(s->run, s->game, pos, EXIT_INPUT,
                          "primitive() gives no known value");
            continue;
        }
        count = mpi_tier_moves(s, k, pos);
        if (count == LOOPY_GAME_ERROR)
            continue;
        if (count == 0) {
            sl->ending[x] = no_moves(&s->t);
            continue;
        }
        if (sl->kids + count > (size_t)INT_MAX) {
            mpi_fail(s->run, EXIT_RESOURCE, "%s: a slice of tier %" PRIu64
                     " with more moves than an MPI message carries",
                     game->name, k);
            continue;
        }
        if (!grow_kids(sl, sl->kids + count)) {
            mpi_fail(s->run, EXIT_RESOURCE,
                     "out of memory: the moves of a "
                     "slice of tier %" PRIu64,
                     k);
            continue;
        }
        sl->ending[x] = REACHED; /* from its moves */
        for (size_t m = 0; m < count; m++) {
            loopy_position c = s->buf.items[m];
            uint64_t ck, place;
            int d;
            if (inner && c >= lo && c < hi) {
                /* Counted, not asked: the levels find its value. */
                sl->inside[x]++;
                continue;
            }
            ck = loopy_i_tier_of(&s->t, c);
            d = mpi_tier_owner(s, ck, c, &place);
            sl->kid[sl->kids] = c;
            sl->dest[sl->kids] = d;
            sl->local_of[sl->kids] = place;
            if (d != s->me)
                scount[d]++;
            sl->kids++;
        }
    }
    sl->kid_at[sl->n_at] = sl->kids;
    for (int d = 0, at = 0; d < s->P; d++) {
        sdispl[d] = at;
        at += scount[d];
    }
}

/* Collective: the exchanges of a slice (requests out, answers back);
 * false (not agreed) when memory runs out. */
static bool exchange_kids(tsolve *s, slice *sl)
{
    int P = s->P;
    int *scount = sl->count, *sdispl = sl->count + P;
    int *rcount = sl->count + 2 * P, *rdispl = sl->count + 3 * P;
    int *fill = sl->back; /* reused below as the answers' counts */
    size_t sent = 0, received = 0;

    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
    for (int d = 0, at = 0; d < P; d++) {
        rdispl[d] = at;
        at += rcount[d];
        received += (size_t)rcount[d];
        sent += (size_t)scount[d];
    }
    free(sl->ask);
    free(sl->asked);
    free(sl->answer);
    free(sl->answered);
    sl->ask = malloc(sent * sizeof *sl->ask + 1);
    sl->asked = malloc(received * sizeof *sl->asked + 1);
    sl->answer = malloc(received * sizeof *sl->answer + 1);
    sl->answered = malloc(sent * sizeof *sl->answered + 1);
    if (sl->ask == NULL || sl->asked == NULL || sl->answer == NULL ||
        sl->answered == NULL)
        mpi_fail(s->run, EXIT_RESOURCE, "out of memory: a slice's requests");
    /* The others count on this rank's requests and answers: all go on,
     * or none. */
    if (!mpi_agree(s->run))
        return false;
    memset(fill, 0, (size_t)P * sizeof *fill);
    for (size_t j = 0; j < sl->kids; j++) {
        int d = sl->dest[j];
        if (d == s->me) {
            sl->slot[j] = UINT64_MAX;
            continue;
        }
        sl->slot[j] = (uint64_t)(sdispl[d] + fill[d]);
        sl->ask[sdispl[d] + fill[d]++] = sl->kid[j];
    }
    MPI_Alltoallv(sl->ask, scount, sdispl, MPI_UINT64_T, sl->asked, rcount,
                  rdispl, MPI_UINT64_T, MPI_COMM_WORLD);
    for (size_t j = 0; j < received; j++) {
        loopy_position c = sl->asked[j];
        uint64_t local, k = c < s->game->size ? loopy_i_tier_of(&s->t, c) : 0;
        if (c >= s->game->size || mpi_tier_owner(s, k, c, &local) != s->me) {
            mpi_fail(s->run, EXIT_RESOURCE,
                     "internal error: a request for "
                     "position %" PRIu64 ", not rank %d's",
                     c, s->me);
            sl->answer[j] = ABSENT;
            continue;
        }
        sl->answer[j] = get(&s->t, local);
    }
    MPI_Alltoallv(sl->answer, rcount, rdispl, MPI_UINT16_T, sl->answered,
                  scount, sdispl, MPI_UINT16_T, MPI_COMM_WORLD);
    s->stats.supersteps++;
    s->stats.bytes_sent += sent * 8 + received * 2;
    return true;
}

bool mpi_tier_alone(tsolve *s, uint64_t k, const slice *sl, size_t x)
{
    if (sl->ending[x] == REACHED)
        return false;
    if (sl->ending[x] != ABSENT)
        put(&s->t, s->local_at[k] + sl->at[x], sl->ending[x]);
    return true;
}

bool mpi_tier_fold(tsolve *s, uint64_t k, const slice *sl, size_t x,
                   tier_fold *f)
{
    for (size_t j = sl->kid_at[x]; j < sl->kid_at[x + 1]; j++) {
        uint16_t r = sl->slot[j] == UINT64_MAX ? get(&s->t, sl->local_of[j])
                                               : sl->answered[sl->slot[j]];
        uint32_t low = r & LOOPY_I_RECORD_LOW;
        unsigned kind = (unsigned)r >> SHIFT;
        if (r == LOOPY_I_RECORD_DRAW) {
            /* Of a tier whose moves stay inside it. */
            f->to_draw = true;
        } else if (kind == LOOPY_LOSE) {
            f->to_lose = low < f->to_lose ? low : f->to_lose;
        } else if (kind == LOOPY_TIE) {
            f->to_tie = low < f->to_tie ? low : f->to_tie;
        } else if (kind == LOOPY_WIN) {
            f->to_win = low > f->to_win ? low : f->to_win;
        } else {
            char why[160];
            snprintf(why, sizeof why,
                     "a move to position %" LOOPY_PRI_POSITION
                     ", which is not solved: %s",
                     sl->kid[j],
                     s->t.reps.all_legal && r == ABSENT
                         ? "legal() refuses it"
                         : "the tiers are not solved children first");
            mpi_game_fail(s->run, s->game, mpi_tier_position_of(s, k, sl->at[x]),
                          EXIT_INPUT, why);
            return false;
        }
    }
    return true;
}

/* Phase 2: each position's record from its moves'. */
static void solve_kids(tsolve *s, uint64_t k, slice *sl)
{
    uint32_t bound = s->t.bound;

    for (size_t x = 0; x < sl->n_at && s->run->status == EXIT_OK; x++) {
        uint64_t i = sl->at[x], local = s->local_at[k] + i;
        tier_fold f = TIER_FOLD_INIT;
        uint32_t lose;

        if (mpi_tier_alone(s, k, sl, x))
            continue;
        if (!mpi_tier_fold(s, k, sl, x, &f))
            return;
        if (f.to_lose == UINT32_MAX && f.to_tie == UINT32_MAX && f.to_draw) {
            put(&s->t, local, LOOPY_I_RECORD_DRAW);
            continue;
        }
        lose = f.to_lose != UINT32_MAX  ? f.to_lose
               : f.to_tie != UINT32_MAX ? f.to_tie
                                        : f.to_win;
        if (lose >= MAX_REMOTENESS) {
            char why[80];
            snprintf(why, sizeof why, "a remoteness past %u",
                     (unsigned)MAX_REMOTENESS);
            mpi_game_fail(s->run, s->game, mpi_tier_position_of(s, k, i), EXIT_RESOURCE, why);
            return;
        }
        if (bound != 0 && lose + 1 > bound) {
            char why[120];
            snprintf(why, sizeof why,
                     "a remoteness of %" PRIu32 ", past the "
                     "game's remoteness_bound of %" PRIu32,
                     lose + 1, bound);
            mpi_game_fail(s->run, s->game, mpi_tier_position_of(s, k, i), EXIT_INPUT, why);
            return;
        }
        put(&s->t, local,
            record_of(f.to_lose != UINT32_MAX  ? LOOPY_WIN
                      : f.to_tie != UINT32_MAX ? LOOPY_TIE
                                               : LOOPY_LOSE,
                      lose + 1));
    }
}

/* Collective: tier k solved, a slice at a time: every rank takes the
 * same number of slices (that of the largest part over SLICE_POSITIONS),
 * slice j holding the j-th piece of each of the rank's chunks of the tier,
 * so that the ranks' slices take alike from every part of the tier. */
bool mpi_tier_solve_slices(tsolve *s, uint64_t k, slice *sl)
{
    uint64_t n = s->local_at[k + 1] - s->local_at[k], most = 0, slices;
    uint64_t c = mpi_tier_chunk(s, k), chunks, piece, cap;

    for (int r = 0; r < s->P; r++)
        most = mpi_tier_held(s, k, r) > most ? mpi_tier_held(s, k, r) : most;
    slices = most / SLICE_POSITIONS + (most % SLICE_POSITIONS != 0);
    if (slices == 0)
        return true;
    chunks = n / c + (n % c != 0);
    piece = c / slices + (c % slices != 0);
    cap = chunks * piece + 1;
    if (cap > sl->at_cap) {
        free(sl->at);
        free(sl->kid_at);
        free(sl->ending);
        free(sl->inside);
        sl->at = malloc((size_t)cap * sizeof *sl->at);
        sl->kid_at = malloc(((size_t)cap + 1) * sizeof *sl->kid_at);
        sl->ending = malloc((size_t)cap * sizeof *sl->ending);
        sl->inside = malloc((size_t)cap * sizeof *sl->inside);
        sl->at_cap = cap;
        if (sl->at == NULL || sl->kid_at == NULL || sl->ending == NULL ||
            sl->inside == NULL) {
            mpi_fail(s->run, EXIT_RESOURCE,
                     "out of memory: a slice of tier %" PRIu64, k);
            sl->at_cap = 0;
        }
    }
    if (!mpi_agree(s->run))
        return false;
    for (uint64_t j = 0; j < slices; j++) {
        sl->n_at = 0;
        for (uint64_t q = 0; q < chunks; q++) {
            uint64_t end = n - q * c < c ? n : q * c + c;
            for (uint64_t i = q * c + j * piece;
                 i < end && i < q * c + (j + 1) * piece; i++)
                sl->at[sl->n_at++] = i;
        }
        gather_kids(s, k, sl);
        if (!exchange_kids(s, sl))
            return false; /* agreed */
        if (s->run->status == EXIT_OK && s->t.self[k])
            mpi_tier_inner_start(s, k, sl);
        else if (s->run->status == EXIT_OK)
            solve_kids(s, k, sl);
        if (!mpi_agree(s->run))
            return false;
    }
    return true;
}

void mpi_tier_slice_free(slice *sl)
{
    free(sl->kid);
    free(sl->local_of);
    free(sl->slot);
    free(sl->dest);
    free(sl->at);
    free(sl->kid_at);
    free(sl->ending);
    free(sl->inside);
    free(sl->ask);
    free(sl->asked);
    free(sl->answer);
    free(sl->answered);
    free(sl->count);
    free(sl->back);
}

