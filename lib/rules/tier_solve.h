/*
 * tier_solve.h - what the tier solver's files share (tier_solve.c: the
 * tiers, the passes, the work file's use; tier_inner.c: a tier whose
 * moves stay inside it, solved by retrograde analysis within the tier).
 */
#ifndef LOOPY_TIER_SOLVE_H
#define LOOPY_TIER_SOLVE_H

#include "tier_store.h"

#include <stdatomic.h>

#define ABSENT LOOPY_I_RECORD_ABSENT
#define REACHED 2u
/* In the forward pass through a tier whose moves stay inside it: reached,
 * and its moves looked at. */
#define EXPANDED 3u
#define SHIFT LOOPY_I_RECORD_SHIFT
/* A Lose at MAX_REMOTENESS + 1 would not fit. */
#define MAX_REMOTENESS (LOOPY_I_RECORD_LOW - 1)
/* Indices a thread takes at a time. */
#define CHUNK 4096
/* Indices between two progress reports within a tier. */
#define SLICE ((uint64_t)1 << 23)

typedef struct tiers {
    const loopy_game *game;
    loopy_i_reps reps;
    int misere;
    int threads;
    uint64_t count;         /* tiers */
    loopy_position *start;  /* count + 1 */
    uint64_t *child_at;     /* count + 1: tier t's children are */
    uint64_t *child;        /*   child[child_at[t] .. child_at[t + 1]) */
    uint64_t *order;        /* the tiers, each before its children */
    unsigned char *allowed; /* count: the children of the tier at work */
    bool *self;             /* count: the tier's moves may stay inside it */
    _Atomic bool grew;      /* a forward round reached a new position */
    struct inner *inner;    /* tier_inner.c's work on the tier at work */
    /* The records: 2 bytes an index (record), or 1 (byte, when the game's
     * remoteness_bound allows it); width says which. */
    _Atomic uint16_t *record;
    _Atomic uint8_t *byte;
    unsigned width;
    uint32_t bound;    /* the game's remoteness_bound, or 0 */
    tier_store *store; /* the work file, or NULL: all in memory */
    uint64_t *pending; /* count: the parents of each tier not solved */
    /* The first failure, set once (by the thread that wins the CAS). */
    _Atomic int failed;
    loopy_position failed_at;
    bool failed_has_position;
    char failed_why[200];
    _Atomic bool out_of_memory;
    _Atomic bool too_remote;
    loopy_progress_fn progress;
    void *progress_ctx;
    /* Progress: the phase's label ("reach tier K/N", "tier K/N"), and the
     * indices of the phase's tiers before the one at work. */
    char label[64];
    uint64_t phase_done;
} tiers;

/* The work: the game's tiers, read and checked into t, for options (the
 * record width chosen, no record allocated); LOOPY_EINVAL, LOOPY_EGAME
 * (the failure in t), ... with diag. */
loopy_status loopy_i_tiers_begin(tiers *t, const loopy_game *game,
                                 const loopy_game_solve_options *options,
                                 loopy_diag *diag);
/* Says why the solve failed, when the failure was not said yet. */
void loopy_i_tiers_explain(tiers *t, loopy_status status, loopy_diag *diag);
/* Frees what loopy_i_tiers_begin allocated. */
void loopy_i_tiers_free(tiers *t);

/* Records the first failure: at pos (when has_position), why. */
void loopy_i_tier_fail(tiers *t, loopy_position pos, bool has_position,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static inline uint16_t record_of(loopy_outcome outcome, uint32_t remoteness)
{
    return (uint16_t)((unsigned)outcome << SHIFT | remoteness);
}

/* The record of index i, as a 16-bit record whatever the width. */
static inline uint16_t get(const tiers *t, loopy_position i)
{
    if (t->byte != NULL)
        return loopy_i_record_of_byte(
            atomic_load_explicit(&t->byte[i], memory_order_relaxed));
    return atomic_load_explicit(&t->record[i], memory_order_relaxed);
}

/* Sets the record of index i (ABSENT, REACHED or a value that fits). */
static inline void put(tiers *t, loopy_position i, uint16_t r)
{
    if (t->byte != NULL)
        atomic_store_explicit(&t->byte[i], loopy_i_byte_of_record(r),
                              memory_order_relaxed);
    else
        atomic_store_explicit(&t->record[i], r, memory_order_relaxed);
}

/* The record of a position without moves: lost (won in misere play). */
static inline uint16_t no_moves(const tiers *t)
{
    return record_of(t->misere ? LOOPY_WIN : LOOPY_LOSE, 0);
}

/* The tier of pos < size. */
uint64_t loopy_i_tier_of(const tiers *t, loopy_position pos);
/* The distinct representatives of pos's moves (pos in tier k) into buf,
 * each checked to lie in a tier that tier k names; LOOPY_GAME_ERROR after
 * loopy_i_tier_fail. */
size_t loopy_i_tier_moves(tiers *t, uint64_t k, loopy_position pos,
                          loopy_position_buffer *buf);
/* Whether position i is one to solve (reached, or with all_legal a legal
 * representative). */
bool loopy_i_tier_to_solve(tiers *t, loopy_position i);
/* What visits a position of tier k, with a buffer of the thread's own. */
typedef void loopy_i_tier_visit(tiers *t, uint64_t k, loopy_position i,
                                loopy_position_buffer *buf);
/* Calls visit on every index of tier k, on all threads, until a failure
 * (with progress reports). */
void loopy_i_tier_each(tiers *t, uint64_t k, loopy_i_tier_visit *visit);
/* The record of position i by what primitive() says of it, p: its value
 * when over, REACHED when it is to be played; ABSENT after a failure. */
uint16_t loopy_i_tier_ending(tiers *t, loopy_position i, loopy_primitive p);

/* What a position's moves (those out of its tier, for a tier whose moves
 * stay inside it) lead to: the least remoteness of a move to a Lose and
 * to a Tie (UINT32_MAX: none), the greatest of a move to a Win (0: none),
 * and whether one leads to a Draw. */
typedef struct tier_fold {
    uint32_t to_lose, to_tie, to_win;
    bool to_draw;
} tier_fold;
#define TIER_FOLD_INIT {UINT32_MAX, UINT32_MAX, 0, false}
/* Adds the record of c, a move of position i, to f; false, after
 * loopy_i_tier_fail, when c is not solved. */
bool loopy_i_tier_fold(tiers *t, loopy_position i, loopy_position c,
                       tier_fold *f);

/* The solve of loopy_game_solve_tiers_stored up to its last tier, each
 * tier parked: t and store are then the caller's (loopy_i_tiers_free,
 * loopy_i_tier_store_close); on failure, closed and freed, said in diag. */
loopy_status loopy_i_tiers_solve_stored(tiers *t, tier_store *store,
                                       const loopy_game *game,
                                       const loopy_game_solve_options *options,
                                       const loopy_game_tier_store *where,
                                       loopy_diag *diag);
/* Tier k's records brought back from the park file to be read (nothing
 * when they are in the work file), and put away again (parked, their
 * pages dropped). */
loopy_status loopy_i_tier_bring(tiers *t, uint64_t k, loopy_diag *diag);
loopy_status loopy_i_tier_put_away(tiers *t, uint64_t k, loopy_diag *diag);

/* Solves tier k, whose moves may stay inside it, by retrograde analysis
 * within it (tier_inner.c): LOOPY_OK, or a failure in t. */
loopy_status loopy_i_tier_solve_inner(tiers *t, uint64_t k);
/* The bytes per index of such a tier that loopy_i_tier_solve_inner
 * holds besides the records. */
#define TIER_INNER_BYTES 10u

#endif
