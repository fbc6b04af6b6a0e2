/*
 * retro_solve.c - solving a game by rules without storing its moves:
 * retrograde analysis over the index space itself, predecessors generated
 * by unmoves(), level by level, on all threads.
 *
 * One 32-bit word per index, nothing else (no queues: each round and level
 * is found by scanning the words):
 *     ABSENT              0xffffffff: not reached (or not legal), or not a
 *                         representative
 *     SEEN                0xfffffffe: reached, its moves not yet looked at
 *     undecided           kind 0, the count of distinct moves not yet known
 *                         to reach a Win (1 .. SATURATED)
 *     Win / Lose / Tie r  kind 1 / 2 / 3 in the top two bits, r below
 * A position with SATURATED or more moves (or counter_limit, for tests)
 * keeps that value and, instead of being counted down, counts its moves
 * that do not reach a Win again each time one of them becomes a Win: rare,
 * slower, and exact, so no position is wrong however many moves it has.
 *
 * The positions to solve: those reachable from the start, found in rounds:
 * each round scans for SEEN words, and each such position gets its first
 * word (decided at 0 when it is over or has no moves, else its move count)
 * while its moves, ABSENT, become SEEN (a compare-and-swap), until a round
 * finds none.  With all_legal, every index that legal() accepts instead,
 * in one scan.
 *
 * Level r of the Win/Lose pass: every position decided at r tells its
 * predecessors: a Lose makes them Wins at r + 1 (a compare-and-swap, so the
 * first level to reach a position gives its least remoteness), a Win counts
 * them down, and the last count makes a Lose at r + 1 (its greatest
 * remoteness, since the levels come in order).  Then the Tie pass does the
 * same from the primitive ties over the positions still undecided, and what
 * stays undecided is a Draw.  Threads share the words through atomics; the
 * result does not depend on their number or order.
 */
#include "rules_internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define ABSENT LOOPY_I_WORD_ABSENT
#define SEEN LOOPY_I_WORD_SEEN
#define KIND_SHIFT LOOPY_I_WORD_SHIFT
#define LOW_MASK LOOPY_I_WORD_LOW
#define SATURATED LOOPY_I_WORD_SATURATED
#define MAX_REMOTENESS LOOPY_I_WORD_MAX_REMOTENESS
/* Indices a thread takes at a time in the scans. */
#define CHUNK 4096

enum { KIND_UNDECIDED = 0 };

static uint32_t decided(loopy_outcome outcome, uint32_t r)
{
    return (uint32_t)outcome << KIND_SHIFT | r;
}

static unsigned kind_of(uint32_t w)
{
    return w >> KIND_SHIFT;
}

typedef struct retro {
    const loopy_game *game;
    uint32_t saturated; /* SATURATED, or a smaller counter_limit */
    /* How neighbours are taken; with all_legal, every canonical() of a
     * move is checked to be a representative, otherwise each position is,
     * once, when reached. */
    loopy_i_reps reps;
    int misere;
    int threads;
    _Atomic uint32_t *word;
    /* The first failure, set once (by the thread that wins the CAS). */
    _Atomic int failed;
    loopy_position failed_at;
    char failed_why[200];
    _Atomic bool out_of_memory; /* the failure is a list's memory */
} retro;

/* Records the first failure: at pos, why (printf-style). */
static void fail_at(retro *t, loopy_position pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void fail_at(retro *t, loopy_position pos, const char *fmt, ...)
{
    int expected = 0;

    if (atomic_compare_exchange_strong(&t->failed, &expected, 1)) {
        va_list ap;
        t->failed_at = pos;
        va_start(ap, fmt);
        vsnprintf(t->failed_why, sizeof t->failed_why, fmt, ap);
        va_end(ap);
    }
}

/* The distinct representatives of pos's moves (backward: unmoves) into
 * buf; their number, or LOOPY_GAME_ERROR after fail_at. */
static size_t neighbours(retro *t, loopy_position pos, bool backward,
                         loopy_position_buffer *buf)
{
    char why[200];
    bool no_memory;
    size_t count = loopy_i_game_neighbours(&t->reps, pos, backward, buf, why,
                                           sizeof why, &no_memory);

    if (count == LOOPY_GAME_ERROR) {
        if (no_memory)
            atomic_store(&t->out_of_memory, true);
        fail_at(t, pos, "%s", why);
        return LOOPY_GAME_ERROR;
    }
    /* Every word a list leads to is read and most are written: their
     * cache misses overlap. */
    for (size_t i = 0; i < count; i++)
        PREFETCH_WRITE(&t->word[buf->items[i]]);
    return count;
}

/* The first word of position i, a representative to solve: decided at 0,
 * or its move count (ABSENT after fail_at).  Reached: its moves, ABSENT,
 * become SEEN. */
static uint32_t initial_word(retro *t, loopy_position i,
                             loopy_position_buffer *buf, bool *level0)
{
    const loopy_game *game = t->game;
    loopy_primitive p;
    size_t count;

    *level0 = false;
    p = game->primitive(game->ctx, i);
    if (p != LOOPY_PLAYING) {
        *level0 = true;
        switch (p) {
        case LOOPY_OVER_TIE:
            return decided(LOOPY_TIE, 0);
        case LOOPY_OVER_WIN:
            return decided(t->misere ? LOOPY_LOSE : LOOPY_WIN, 0);
        case LOOPY_OVER_LOSE:
            return decided(t->misere ? LOOPY_WIN : LOOPY_LOSE, 0);
        default:
            fail_at(t, i, "primitive() gives no known value");
            return ABSENT;
        }
    }
    count = neighbours(t, i, false, buf);
    if (count == LOOPY_GAME_ERROR)
        return ABSENT;
    for (size_t k = 0; !t->reps.all_legal && k < count; k++) {
        uint32_t expected = ABSENT;
        atomic_compare_exchange_strong_explicit(
            &t->word[buf->items[k]], &expected, SEEN, memory_order_relaxed,
            memory_order_relaxed);
    }
    if (count == 0) {
        *level0 = true;
        return decided(t->misere ? LOOPY_WIN : LOOPY_LOSE, 0);
    }
    return count >= t->saturated ? t->saturated : (uint32_t)count;
}

/* Whether q, undecided with a saturated count, has no move left that does
 * not reach a Win of remoteness at most r: counts them again.  (A Win
 * decided at r + 1 during this level does not count yet: it tells q when
 * its own level comes, and q is then a Lose one level later.) */
static bool all_moves_win(retro *t, loopy_position q, uint32_t r,
                          loopy_position_buffer *buf)
{
    size_t count = neighbours(t, q, false, buf);

    if (count == LOOPY_GAME_ERROR)
        return false;
    for (size_t i = 0; i < count; i++) {
        uint32_t w = atomic_load_explicit(&t->word[buf->items[i]],
                                          memory_order_relaxed);
        if (w == ABSENT || kind_of(w) != LOOPY_WIN || (w & LOW_MASK) > r)
            return false;
    }
    return true;
}

/* Position p was decided at r with outcome o (Win or Lose): tells its
 * predecessors.  Returns how many it decided. */
static uint64_t tell_predecessors(retro *t, loopy_position p, unsigned o,
                                  uint32_t r, loopy_position_buffer *preds,
                                  loopy_position_buffer *scratch)
{
    size_t count = neighbours(t, p, true, preds);
    uint64_t made = 0;

    if (count == LOOPY_GAME_ERROR)
        return 0;
    for (size_t i = 0; i < count; i++) {
        loopy_position q = preds->items[i];
        _Atomic uint32_t *slot = &t->word[q];
        uint32_t w = atomic_load_explicit(slot, memory_order_relaxed);

        for (;;) {
            uint32_t next;
            if (w == ABSENT || kind_of(w) != KIND_UNDECIDED)
                break;
            if (o == LOOPY_LOSE) {
                next = decided(LOOPY_WIN, r + 1);
            } else if (w == t->saturated) {
                if (!all_moves_win(t, q, r, scratch))
                    break;
                next = decided(LOOPY_LOSE, r + 1);
            } else {
                next = w == 1 ? decided(LOOPY_LOSE, r + 1) : w - 1;
            }
            /* relaxed: the words are the only shared data, and each
             * level's scan starts after the previous level's barrier. */
            if (atomic_compare_exchange_weak_explicit(
                    slot, &w, next, memory_order_relaxed,
                    memory_order_relaxed)) {
                made += kind_of(next) != KIND_UNDECIDED;
                break;
            }
        }
    }
    return made;
}

/* The Tie pass for one position p, a Tie at r: its undecided predecessors
 * become Ties at r + 1. */
static uint64_t tell_ties(retro *t, loopy_position p, uint32_t r,
                          loopy_position_buffer *preds)
{
    size_t count = neighbours(t, p, true, preds);
    uint64_t made = 0;

    if (count == LOOPY_GAME_ERROR)
        return 0;
    for (size_t i = 0; i < count; i++) {
        _Atomic uint32_t *slot = &t->word[preds->items[i]];
        uint32_t w = atomic_load_explicit(slot, memory_order_relaxed);

        while (w != ABSENT && kind_of(w) == KIND_UNDECIDED) {
            if (atomic_compare_exchange_weak_explicit(
                    slot, &w, decided(LOOPY_TIE, r + 1), memory_order_relaxed,
                    memory_order_relaxed)) {
                made++;
                break;
            }
        }
    }
    return made;
}

/* Runs the levels of one pass (ties: the Tie pass) from first_level
 * positions at remoteness 0 until a level decides nothing.  Each thread
 * has buffers of its own for the unmoves and the recounts. */
static loopy_status run_levels(retro *t, bool ties, uint64_t first_level)
{
    uint64_t size = t->game->size, made = first_level;

    for (uint32_t r = 0; made > 0; r++) {
        if (r >= MAX_REMOTENESS)
            return LOOPY_ETOOBIG;
        made = 0;
#pragma omp parallel num_threads(t->threads) reduction(+ : made)
        {
            loopy_position_buffer p = {NULL, 0, false}, s = {NULL, 0, false};
#pragma omp for schedule(dynamic, 1)
            for (int64_t c = 0; c < (int64_t)((size + CHUNK - 1) / CHUNK); c++) {
                uint64_t lo = (uint64_t)c * CHUNK;
                uint64_t hi = size - lo < CHUNK ? size : lo + CHUNK;
                for (uint64_t i = lo; i < hi; i++) {
                    uint32_t w = atomic_load_explicit(&t->word[i],
                                                      memory_order_relaxed);
                    unsigned k = kind_of(w);
                    if (w == ABSENT || k == KIND_UNDECIDED ||
                        (w & LOW_MASK) != r || (ties != (k == LOOPY_TIE)))
                        continue;
                    if (atomic_load_explicit(&t->failed, memory_order_relaxed))
                        break;
                    made += ties ? tell_ties(t, i, r, &p)
                                 : tell_predecessors(t, i, k, r, &p, &s);
                }
            }
            loopy_i_position_buffer_release(&p);
            loopy_i_position_buffer_release(&s);
        }
        if (atomic_load(&t->failed))
            return LOOPY_EGAME;
    }
    return LOOPY_OK;
}

/* The first word of index i in a scan: with all_legal, of every legal
 * representative; otherwise of each SEEN position.  Counts the words
 * decided at level 0 into *level0 and *ties0, and what it expanded. */
static void first_word(retro *t, loopy_position i, loopy_position_buffer *buf,
                       uint64_t *level0, uint64_t *ties0, uint64_t *expanded)
{
    const loopy_game *game = t->game;
    uint32_t w;
    bool at0;

    if (t->reps.all_legal) {
        if ((game->legal != NULL && !game->legal(game->ctx, i)) ||
            (t->reps.symmetric && game->canonical(game->ctx, i) != i)) {
            atomic_store_explicit(&t->word[i], ABSENT, memory_order_relaxed);
            return;
        }
    } else {
        if (atomic_load_explicit(&t->word[i], memory_order_relaxed) != SEEN)
            return;
        /* Reached as a canonical(): it must be its own. */
        if (t->reps.symmetric) {
            loopy_position r = game->canonical(game->ctx, i);
            if (r != i) {
                fail_at(t, i, "canonical() is not idempotent: it gives this "
                        "position as a representative, then takes it to %"
                        LOOPY_PRI_POSITION, r);
                return;
            }
        }
    }
    w = initial_word(t, i, buf, &at0);
    atomic_store_explicit(&t->word[i], w, memory_order_relaxed);
    *level0 += at0 && kind_of(w) != LOOPY_TIE;
    *ties0 += at0 && kind_of(w) == LOOPY_TIE;
    (*expanded)++;
}

/* Every position's first word, in one scan with all_legal, otherwise in
 * rounds from the start until one finds no SEEN position.  A position
 * reached later in the same round's scan is expanded in that round. */
static loopy_status first_words(retro *t, uint64_t *level0, uint64_t *ties0)
{
    const loopy_game *game = t->game;
    uint64_t size = game->size, expanded = 1;

    if (!t->reps.all_legal) {
        loopy_position start = game->start;
#pragma omp parallel for num_threads(t->threads) schedule(static)
        for (int64_t i = 0; i < (int64_t)size; i++)
            atomic_init(&t->word[i], ABSENT);
        if (t->reps.symmetric)
            start = game->canonical(game->ctx, start);
        if (start >= size) {
            fail_at(t, game->start, "canonical() gives a position outside the "
                                    "index space");
            return LOOPY_EGAME;
        }
        atomic_store(&t->word[start], SEEN);
    }
    while (expanded > 0) {
        uint64_t made = 0, ties = 0;
        expanded = 0;
#pragma omp parallel num_threads(t->threads) reduction(+ : made, ties, expanded)
        {
            loopy_position_buffer buf = {NULL, 0, false};
#pragma omp for schedule(dynamic, 1)
            for (int64_t c = 0; c < (int64_t)((size + CHUNK - 1) / CHUNK);
                 c++) {
                uint64_t lo = (uint64_t)c * CHUNK;
                uint64_t hi = size - lo < CHUNK ? size : lo + CHUNK;
                for (uint64_t i = lo; i < hi; i++)
                    first_word(t, i, &buf, &made, &ties, &expanded);
            }
            loopy_i_position_buffer_release(&buf);
        }
        *level0 += made;
        *ties0 += ties;
        if (atomic_load(&t->failed))
            return LOOPY_EGAME;
        if (t->reps.all_legal)
            break;
    }
    return LOOPY_OK;
}

loopy_status loopy_game_solve_retro(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *s = NULL;
    loopy_status status = LOOPY_OK;
    uint64_t size, level0 = 0, ties0 = 0;
    uint32_t *words;
    retro t;

    if (out == NULL || game == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (options == NULL)
        options = &defaults;
    if (game->unmoves == NULL) {
        loopy_i_diag(diag, 0, 0, "%s: the game has no unmoves(): solve it "
                     "through a graph", game->name);
        return LOOPY_EINVAL;
    }
    size = game->size;
    if (size > SIZE_MAX / sizeof(uint32_t)) {
        loopy_i_diag(diag, 0, 0, "%s: an index space of %" PRIu64 " positions "
                     "is too large for memory", game->name, size);
        return LOOPY_ETOOBIG;
    }
    memset(&t, 0, sizeof t);
    t.game = game;
    loopy_i_reps_init(&t.reps, game, options->no_symmetry != 0,
                      options->all_legal != 0);
    t.misere = options->misere;
    t.saturated = options->counter_limit > 0 &&
                          options->counter_limit < SATURATED
                      ? options->counter_limit
                      : SATURATED;
    t.threads = loopy_i_threads(options->threads, size, CHUNK);
    atomic_init(&t.failed, 0);
    atomic_init(&t.out_of_memory, false);
    words = loopy_i_malloc((size_t)size, sizeof *words);
    t.word = (_Atomic uint32_t *)words;
    if (words == NULL) {
        loopy_i_diag(diag, 0, 0, "%s: out of memory for %" PRIu64 " positions "
                     "(4 bytes each)", game->name, size);
        return LOOPY_ENOMEM;
    }

    status = first_words(&t, &level0, &ties0);
    if (atomic_load(&t.failed))
        status = LOOPY_EGAME;
    if (status == LOOPY_OK)
        status = run_levels(&t, false, level0);
    if (status == LOOPY_OK)
        status = run_levels(&t, true, ties0);
    if (status == LOOPY_EGAME && atomic_load(&t.out_of_memory))
        status = LOOPY_ENOMEM;
    if (status != LOOPY_OK) {
        if (status == LOOPY_EGAME || status == LOOPY_ENOMEM) {
            char text[96];
            loopy_i_diag(diag, 0, 0, "%s: position %" LOOPY_PRI_POSITION
                         " (%s): %s", game->name, t.failed_at,
                         loopy_game_format(game, t.failed_at, text, sizeof text),
                         t.failed_why);
        } else {
            loopy_i_diag(diag, 0, 0, "%s: a remoteness past %u", game->name,
                         (unsigned)MAX_REMOTENESS);
        }
        goto fail;
    }

    /* The solution: the words themselves, and a rank directory.  Every
     * thread has joined: the words are plain data from here on (an atomic
     * uint32_t has the representation of a uint32_t). */
    status = loopy_i_solution_of_words(words, size, t.reps.symmetric,
                                       t.threads, &s);
    if (status != LOOPY_OK)
        goto no_memory;
    *out = s;
    return LOOPY_OK;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory");
    status = LOOPY_ENOMEM;
fail:
    loopy_i_free(words);
    loopy_game_solution_free(s);
    return status;
}
