/*
 * retro_solve.c - solving a game by rules without storing its moves:
 * retrograde analysis over the index space itself, predecessors generated
 * by unmoves(), level by level, on all threads.
 *
 * One 32-bit word per index, nothing else (no queues: each level is found
 * by scanning the words for its remoteness):
 *     ABSENT              0xffffffff: not legal, or not a representative
 *     undecided           kind 0, the count of distinct moves not yet known
 *                         to reach a Win (1 .. SATURATED)
 *     Win / Lose / Tie r  kind 1 / 2 / 3 in the top two bits, r below
 * A position with SATURATED or more moves (or counter_limit, for tests)
 * keeps that value and, instead of being counted down, counts its moves
 * that do not reach a Win again each time one of them becomes a Win: rare,
 * slower, and exact, so no position is wrong however many moves it has.
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

#include <stdatomic.h>
#include <string.h>

#define ABSENT UINT32_MAX
#define KIND_SHIFT 30
#define LOW_MASK ((UINT32_C(1) << KIND_SHIFT) - 1)
#define SATURATED LOW_MASK
/* The largest remoteness a word holds (Tie's must stay below ABSENT). */
#define MAX_REMOTENESS (LOW_MASK - 1)
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
    bool symmetric;
    int misere;
    int threads;
    _Atomic uint32_t *word;
    /* The first failure, set once (by the thread that wins the CAS). */
    _Atomic int failed;
    loopy_position failed_at;
    const char *failed_why;
} retro;

static void fail_at(retro *t, loopy_position pos, const char *why)
{
    int expected = 0;

    if (atomic_compare_exchange_strong(&t->failed, &expected, 1)) {
        t->failed_at = pos;
        t->failed_why = why;
    }
}

/* The distinct representatives of pos's moves (backward: unmoves) into
 * buf; their number, or LOOPY_GAME_ERROR after fail_at. */
static size_t neighbours(retro *t, loopy_position pos, bool backward,
                         loopy_position_buffer *buf)
{
    const loopy_game *game = t->game;
    size_t count = loopy_i_game_list(game, pos, backward, buf);

    if (count == LOOPY_GAME_ERROR) {
        fail_at(t, pos, buf->out_of_memory ? "out of memory"
                        : backward ? "unmoves() failed" : "moves() failed");
        return LOOPY_GAME_ERROR;
    }
    for (size_t i = 0; i < count; i++) {
        loopy_position s = buf->items[i];
        if (s < game->size && t->symmetric)
            s = game->canonical(game->ctx, s);
        if (s >= game->size) {
            fail_at(t, pos, backward ? "unmoves() gives a position outside "
                                       "the index space"
                                     : "moves() gives a position outside the "
                                       "index space");
            return LOOPY_GAME_ERROR;
        }
        /* A representative must be its own (see graph_solve.c). */
        if (t->symmetric && game->canonical(game->ctx, s) != s) {
            fail_at(t, pos, "canonical() is not idempotent");
            return LOOPY_GAME_ERROR;
        }
        buf->items[i] = s;
    }
    return loopy_i_sort_unique(buf->items, count);
}

/* The first word of position i: absent, decided at 0, or its move count. */
static uint32_t initial_word(retro *t, loopy_position i,
                             loopy_position_buffer *buf, bool *level0)
{
    const loopy_game *game = t->game;
    loopy_primitive p;
    size_t count;

    *level0 = false;
    if (game->legal != NULL && !game->legal(game->ctx, i))
        return ABSENT;
    if (t->symmetric && game->canonical(game->ctx, i) != i)
        return ABSENT;
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

loopy_status loopy_game_solve_retro(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *s = NULL;
    loopy_status status = LOOPY_OK;
    uint64_t size, level0 = 0, ties0 = 0, n = 0;
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
    t.symmetric = game->canonical != NULL && !options->no_symmetry;
    t.misere = options->misere;
    t.saturated = options->counter_limit > 0 &&
                          options->counter_limit < SATURATED
                      ? options->counter_limit
                      : SATURATED;
    t.threads = loopy_i_threads(options->threads, size, CHUNK);
    atomic_init(&t.failed, 0);
    t.word = loopy_i_malloc((size_t)size, sizeof *t.word);
    if (t.word == NULL) {
        loopy_i_diag(diag, 0, 0, "%s: out of memory for %" PRIu64 " positions "
                     "(4 bytes each)", game->name, size);
        return LOOPY_ENOMEM;
    }

    /* Every index's first word; level 0 is what is decided at once. */
#pragma omp parallel num_threads(t.threads) reduction(+ : level0, ties0)
    {
        loopy_position_buffer buf = {NULL, 0, false};
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < (int64_t)((size + CHUNK - 1) / CHUNK); c++) {
            uint64_t lo = (uint64_t)c * CHUNK;
            uint64_t hi = size - lo < CHUNK ? size : lo + CHUNK;
            for (uint64_t i = lo; i < hi; i++) {
                bool at0;
                uint32_t w = initial_word(&t, i, &buf, &at0);
                atomic_init(&t.word[i], w);
                level0 += at0 && kind_of(w) != LOOPY_TIE;
                ties0 += at0 && kind_of(w) == LOOPY_TIE;
            }
        }
        loopy_i_position_buffer_release(&buf);
    }
    if (atomic_load(&t.failed))
        status = LOOPY_EGAME;
    if (status == LOOPY_OK)
        status = run_levels(&t, false, level0);
    if (status == LOOPY_OK)
        status = run_levels(&t, true, ties0);
    if (status != LOOPY_OK) {
        if (status == LOOPY_EGAME) {
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

    /* The solution: every position present, in increasing order. */
    for (uint64_t i = 0; i < size; i++)
        n += atomic_load_explicit(&t.word[i], memory_order_relaxed) != ABSENT;
    s = loopy_i_calloc(1, sizeof *s);
    if (s == NULL)
        goto no_memory;
    s->n = n;
    s->symmetric = t.symmetric;
    s->position = loopy_i_malloc(n ? (size_t)n : 1, sizeof *s->position);
    s->outcome = loopy_i_malloc(n ? (size_t)n : 1, 1);
    s->remoteness = loopy_i_malloc(n ? (size_t)n : 1, sizeof *s->remoteness);
    if (s->position == NULL || s->outcome == NULL || s->remoteness == NULL)
        goto no_memory;
    n = 0;
    for (uint64_t i = 0; i < size; i++) {
        uint32_t w = atomic_load_explicit(&t.word[i], memory_order_relaxed);
        loopy_outcome o;
        if (w == ABSENT)
            continue;
        o = kind_of(w) == KIND_UNDECIDED ? LOOPY_DRAW : (loopy_outcome)kind_of(w);
        s->position[n] = i;
        s->outcome[n] = (uint8_t)o;
        s->remoteness[n] = o == LOOPY_DRAW ? LOOPY_NONE : (w & LOW_MASK);
        s->count[o]++;
        n++;
    }
    loopy_i_free(t.word);
    *out = s;
    return LOOPY_OK;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory");
    status = LOOPY_ENOMEM;
fail:
    loopy_i_free(t.word);
    loopy_game_solution_free(s);
    return status;
}
