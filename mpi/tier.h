/*
 * tier.h - what the files of loopy-mpi's tier solver share: tier.c (the
 * tiers dealt to the ranks, the forward pass, a tier whose moves leave it,
 * the work file, resume) and tier_inner.c (a tier whose moves may stay
 * inside it: retrograde analysis within the tier, across the ranks).
 */
#ifndef LOOPY_MPI_TIER_H
#define LOOPY_MPI_TIER_H

#include "mpi.h"

#include "../lib/rules/tier_solve.h"

typedef struct tsolve {
    mpi_run *run;
    const loopy_game *game;
    tiers t; /* the tiers, read and checked; their records */
    int P, me;
    uint64_t *local_at; /* count + 1: where tier k's part is in the records */
    tier_store store;   /* this rank's work file */
    bool store_open;
    unsigned char *allowed; /* count: the children of the tier at work */
    uint64_t min_chunk;     /* MIN_CHUNK, or the tests' LOOPY_MPI_CHUNK */
    loopy_position_buffer buf;
    mpi_exchange x;
    mpi_stats stats;
    /* The forward scan: the next offset in the part, and a position
     * whose moves are half sent (buf[next_item .. items)). */
    uint64_t next;
    bool holding;
    size_t items, next_item;
    bool verbose; /* -v: rank 0's line per tier */
    uint64_t tier; /* the tier at work */
    bool grew;     /* the forward scan reached a new position of it */
    struct tinner *inner; /* tier_inner.c's work on a tier whose moves stay in it */
} tsolve;

/* A slice's moves: kid[kid_at[j] .. kid_at[j + 1]) of its j-th position
 * (none when it is decided without its moves), each with the place of its
 * word: here (slot UINT64_MAX, local place in local_of) or in the
 * answers. */
typedef struct slice {
    uint64_t *kid, *local_of, *slot;
    int *dest;
    size_t kids, cap;
    uint64_t *at; /* the slice's positions, offsets in the part */
    size_t n_at, at_cap;
    size_t *kid_at;        /* positions + 1 */
    uint16_t *ending;      /* per position: its record when decided alone */
    uint32_t *inside;      /* per position: its moves inside its tier (a
                            * tier whose moves stay in it: not asked for) */
    uint64_t *ask, *asked; /* requests out, requests in */
    uint16_t *answer, *answered;
    int *count; /* 4 x P: sends, their places, receives, theirs */
    int *back;  /* 4 x P: the same for the answers */
} slice;

/* The position of this rank's i-th index of tier k. */
loopy_position mpi_tier_position_of(const tsolve *s, uint64_t k, uint64_t i);
/* The rank that holds pos, of tier k; *local its record's place there. */
int mpi_tier_owner(const tsolve *s, uint64_t k, loopy_position pos,
                   uint64_t *local);

/* Tier k's chunk: its indices are dealt to the ranks in chunks of this
 * many, chunk c to rank c mod P. */
uint64_t mpi_tier_chunk(const tsolve *s, uint64_t k);
/* The indices of tier k that rank r holds. */
uint64_t mpi_tier_held(const tsolve *s, uint64_t k, int r);
/* The representatives of pos's moves (pos in tier k) into s->buf, each
 * checked to lie in a tier that tier k names; LOOPY_GAME_ERROR after
 * mpi_game_fail. */
size_t mpi_tier_moves(tsolve *s, uint64_t k, loopy_position pos);

/* ---- The backward pass, a slice at a time (tier_slice.c) ---- */
/* Collective: tier k solved (or, for a tier whose moves stay inside it,
 * started: mpi_tier_inner_start), a slice at a time.  False, agreed, on
 * failure. */
bool mpi_tier_solve_slices(tsolve *s, uint64_t k, slice *sl);
void mpi_tier_slice_free(slice *sl);
/* Whether a slice's x-th position is decided without its moves (over,
 * without moves, or not to solve); its record is then set. */
bool mpi_tier_alone(tsolve *s, uint64_t k, const slice *sl, size_t x);
/* Folds the records of the moves of a slice's x-th position (answered,
 * or this rank's) into f; false after mpi_game_fail when one is not
 * solved. */
bool mpi_tier_fold(tsolve *s, uint64_t k, const slice *sl, size_t x,
                   tier_fold *f);

/* ---- A tier whose moves may stay inside it (tier_inner.c) ---- */
/* Collective: the work of tier k begun: its bytes besides the records
 * (TIER_INNER_BYTES an index of this rank's part), and its records back
 * to undecided (REACHED), as after a resume.  False, agreed, on failure. */
bool mpi_tier_inner_begin(tsolve *s, uint64_t k);
/* Each position of a slice (its moves out of the tier answered): decided
 * alone, or its moves inside counted and those out of it read. */
void mpi_tier_inner_start(tsolve *s, uint64_t k, const slice *sl);
/* Collective: the levels of the Win/Lose pass and of the Tie pass, then
 * what is left a Draw.  False, agreed, on failure. */
bool mpi_tier_inner_levels(tsolve *s, uint64_t k);
/* Frees what mpi_tier_inner_begin allocated (none: nothing). */
void mpi_tier_inner_end(tsolve *s);

#endif
