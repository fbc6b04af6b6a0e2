/*
 * game.c - a game by rules solved across ranks without storing its moves:
 * lib/rules/retro_solve.c's analysis with the index space cut into equal
 * ranges, one per rank, each rank holding the words of its range only.
 *
 * The words are the single-process solver's (ABSENT, SEEN, an undecided
 * count, or an outcome and remoteness).  Each phase is a scan of a rank's
 * words: the reaching rounds (a SEEN position gets its first word and its
 * moves become SEEN), then each level r of the Win/Lose pass and of the Tie
 * pass (a position decided at r tells its predecessors, from unmoves()).
 * What a position tells a position of another rank goes into that rank's
 * buffer, a 64-bit index in two words, after a header (MARK, level, kind)
 * when those change; the buffers are exchanged all-to-all whenever one
 * fills and at the end of the scan, and the receivers apply the messages as
 * the single-process solver applies its own.  All ranks scan level r
 * before any scans r + 1, so outcomes and remotenesses are the single
 * process's.  Every rank then writes its part of the database (db_parts.c),
 * byte for byte that of "loopy game solve --solver retro".
 *
 * Not (yet) across ranks: positions with 2^30 - 1 moves or more (the
 * single process counts them again when needed, which would read other
 * ranks' words).
 */
#include "mpi.h"

#include "../lib/rules/tier_store.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ABSENT LOOPY_I_WORD_ABSENT
#define SEEN LOOPY_I_WORD_SEEN
#define KIND_SHIFT LOOPY_I_WORD_SHIFT
#define LOW_MASK LOOPY_I_WORD_LOW
#define SATURATED LOOPY_I_WORD_SATURATED
#define MAX_REMOTENESS LOOPY_I_WORD_MAX_REMOTENESS
#define MARK MPI_MARK

/* Phases, and the kinds of message. */
enum { PHASE_REACH, PHASE_LEVEL, PHASE_TIES };
enum { KIND_REACH, KIND_YOU_WIN, KIND_COUNT, KIND_TIE };

typedef struct gsolve {
    mpi_run *run;
    const loopy_game *game;
    loopy_i_reps reps;
    int misere;
    uint64_t size, lo, nl;
    uint64_t *bound;
    uint32_t *word;
    mpi_exchange x;
    mpi_stats stats;
    loopy_position_buffer buf;
    /* The scan: the next index, and a position whose messages are half
     * sent (buf[next_item .. items) from `held`). */
    uint64_t next;
    bool holding;
    size_t items, next_item;
    uint32_t held_level, held_kind;
    uint64_t made, expanded; /* by this rank in the current scan */
} gsolve;

static uint32_t decided(loopy_outcome outcome, uint32_t r)
{
    return (uint32_t)outcome << KIND_SHIFT | r;
}

static unsigned kind_of(uint32_t w)
{
    return w >> KIND_SHIFT;
}

static int owner(const gsolve *g, uint64_t pos)
{
    return mpi_range_owner(g->bound, g->run->ranks, pos);
}

/* The neighbours of pos into g->buf; their number, or LOOPY_GAME_ERROR
 * after mpi_game_fail. */
static size_t neighbours(gsolve *g, loopy_position pos, bool backward)
{
    char why[200];
    bool no_memory;
    size_t count = loopy_i_game_neighbours(&g->reps, pos, backward, &g->buf,
                                           why, sizeof why, &no_memory);

    if (count == LOOPY_GAME_ERROR)
        mpi_game_fail(g->run, g->game, pos,
                      no_memory ? EXIT_RESOURCE : EXIT_INPUT, why);
    return count;
}

/* Local word i hears a message of kind from a position of level r. */
static void hear(gsolve *g, uint64_t i, uint32_t r, uint32_t kind)
{
    uint32_t w = g->word[i];

    if (kind == KIND_REACH) {
        if (w == ABSENT)
            g->word[i] = SEEN;
        return;
    }
    if (w == ABSENT || w == SEEN || kind_of(w) != 0)
        return;
    if (kind == KIND_TIE) {
        g->word[i] = decided(LOOPY_TIE, r + 1);
    } else if (kind == KIND_YOU_WIN) {
        g->word[i] = decided(LOOPY_WIN, r + 1);
    } else if (w == 1) {
        g->word[i] = decided(LOOPY_LOSE, r + 1);
    } else {
        g->word[i] = w - 1;
        return;
    }
    g->made++;
}

/* Sends g->buf[next_item ..) of the held position; false when a buffer is
 * full (the rest stays held). */
static bool send_held(gsolve *g)
{
    const uint32_t head[2] = {g->held_level, g->held_kind};
    uint32_t msg[2];

    for (; g->next_item < g->items; g->next_item++) {
        loopy_position q = g->buf.items[g->next_item];
        int d = owner(g, q);
        if (d == g->run->rank) {
            hear(g, q - g->lo, g->held_level, g->held_kind);
            continue;
        }
        msg[0] = (uint32_t)(q >> 32);
        msg[1] = (uint32_t)q;
        if (!mpi_exchange_put(&g->x, d, head, 2, msg, 2))
            return false;
    }
    g->holding = false;
    return true;
}

/* The first word of local index i (reaching rounds, or every legal index
 * with all_legal); its moves are held to be sent as REACH messages. */
static void first_word(gsolve *g, uint64_t i, uint64_t *level0, uint64_t *ties0)
{
    const loopy_game *game = g->game;
    loopy_position pos = g->lo + i;
    loopy_primitive p;
    size_t count;
    uint32_t w;

    if (g->reps.all_legal) {
        if ((game->legal != NULL && !game->legal(game->ctx, pos)) ||
            (g->reps.symmetric && game->canonical(game->ctx, pos) != pos)) {
            g->word[i] = ABSENT;
            return;
        }
    } else {
        if (g->word[i] != SEEN)
            return;
        if (g->reps.symmetric && game->canonical(game->ctx, pos) != pos) {
            char why[160];
            snprintf(why, sizeof why, "canonical() is not idempotent: it gives "
                     "this position as a representative, then takes it to %"
                     LOOPY_PRI_POSITION, game->canonical(game->ctx, pos));
            mpi_game_fail(g->run, g->game, pos, EXIT_INPUT, why);
            return;
        }
    }
    g->expanded++;
    p = game->primitive(game->ctx, pos);
    if (p != LOOPY_PLAYING) {
        switch (p) {
        case LOOPY_OVER_TIE:
            g->word[i] = decided(LOOPY_TIE, 0);
            (*ties0)++;
            return;
        case LOOPY_OVER_WIN:
            g->word[i] = decided(g->misere ? LOOPY_LOSE : LOOPY_WIN, 0);
            (*level0)++;
            return;
        case LOOPY_OVER_LOSE:
            g->word[i] = decided(g->misere ? LOOPY_WIN : LOOPY_LOSE, 0);
            (*level0)++;
            return;
        default:
            mpi_game_fail(g->run, g->game, pos, EXIT_INPUT, "primitive() gives no known value");
            return;
        }
    }
    count = neighbours(g, pos, false);
    if (count == LOOPY_GAME_ERROR)
        return;
    if (count >= SATURATED) {
        mpi_game_fail(g->run, g->game, pos, EXIT_RESOURCE, "2^30 - 1 moves or more: loopy-mpi "
                  "does not solve such positions yet (loopy game solve does)");
        return;
    }
    w = count == 0 ? decided(g->misere ? LOOPY_WIN : LOOPY_LOSE, 0)
                   : (uint32_t)count;
    *level0 += count == 0;
    g->word[i] = w;
    if (!g->reps.all_legal && count > 0) {
        g->holding = true;
        g->items = count;
        g->next_item = 0;
        g->held_level = 0;
        g->held_kind = KIND_REACH;
    }
}

/* A position decided at r tells its predecessors: they are held. */
static void tell(gsolve *g, uint64_t i, uint32_t r, bool ties)
{
    uint32_t w = g->word[i];
    unsigned k;
    size_t count;

    if (w == ABSENT || w == SEEN)
        return;
    k = kind_of(w);
    if (k == 0 || (w & LOW_MASK) != r || ties != (k == LOOPY_TIE))
        return;
    count = neighbours(g, g->lo + i, true);
    if (count == LOOPY_GAME_ERROR)
        return;
    g->holding = true;
    g->items = count;
    g->next_item = 0;
    g->held_level = r;
    g->held_kind = ties ? KIND_TIE : k == LOOPY_LOSE ? KIND_YOU_WIN : KIND_COUNT;
}

/* Scans on until the scan ends or a buffer fills. */
static void scan(gsolve *g, int phase, uint32_t r, uint64_t *level0,
                 uint64_t *ties0)
{
    while (g->run->status == EXIT_OK) {
        if (g->holding && !send_held(g))
            return;
        if (g->next >= g->nl)
            return;
        if (phase == PHASE_REACH)
            first_word(g, g->next++, level0, ties0);
        else
            tell(g, g->next++, r, phase == PHASE_TIES);
    }
}

static void apply(gsolve *g)
{
    const mpi_exchange *x = &g->x;

    for (int s = 0; s < g->run->ranks; s++) {
        const uint32_t *m = x->recv + x->recv_displ[s];
        int count = x->recv_count[s];
        uint32_t level = 0, kind = KIND_REACH;

        for (int k = 0; k + 1 < count;) {
            if (m[k] == MARK && k + 2 < count) {
                level = m[k + 1];
                kind = m[k + 2];
                k += 3;
                continue;
            }
            uint64_t q = (uint64_t)m[k] << 32 | m[k + 1];
            if (q < g->lo || q - g->lo >= g->nl) {
                mpi_fail(g->run, EXIT_RESOURCE, "internal error: a message "
                         "for position %" PRIu64 ", not rank %d's", q,
                         g->run->rank);
                return;
            }
            hear(g, q - g->lo, level, kind);
            k += 2;
        }
    }
}

/* Collective: one scan of every rank's words, with its exchanges.  Returns
 * the sum over ranks of what it decided (made) or expanded. */
static bool run_scan(gsolve *g, int phase, uint32_t r, uint64_t *total,
                     uint64_t level0[2])
{
    uint64_t zero[2] = {0, 0}, *first = level0 != NULL ? level0 : zero;

    g->next = 0;
    g->holding = false;
    g->made = g->expanded = 0;
    for (;;) {
        int mine[2], all[2];
        scan(g, phase, r, &first[0], &first[1]);
        mpi_exchange_run(&g->x, &g->stats);
        g->stats.supersteps++;
        apply(g);
        mine[0] = g->holding || g->next < g->nl;
        mine[1] = g->run->status != EXIT_OK;
        MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (all[1])
            return mpi_agree(g->run);
        if (!all[0])
            break;
    }
    {
        uint64_t mine = phase == PHASE_REACH ? g->expanded : g->made;
        MPI_Allreduce(&mine, total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    }
    return true;
}

/* Collective: the levels of one pass, from `first` positions at 0. */
static bool run_levels(gsolve *g, bool ties, uint64_t first)
{
    for (uint32_t r = 0; first > 0; r++) {
        if (r >= MAX_REMOTENESS) {
            mpi_fail(g->run, EXIT_RESOURCE, "%s: a remoteness past %u",
                     g->game->name, (unsigned)MAX_REMOTENESS);
            return mpi_agree(g->run);
        }
        if (!run_scan(g, ties ? PHASE_TIES : PHASE_LEVEL, r, &first, NULL))
            return false;
    }
    return true;
}

/* Collective: every position's first word. */
static bool first_words(gsolve *g, uint64_t level0[2])
{
    const loopy_game *game = g->game;
    uint64_t expanded = 1, local[2] = {0, 0};

    if (!g->reps.all_legal) {
        loopy_position start = game->start;
        for (uint64_t i = 0; i < g->nl; i++)
            g->word[i] = ABSENT;
        if (g->reps.symmetric)
            start = game->canonical(game->ctx, start);
        if (start >= g->size)
            mpi_fail(g->run, EXIT_INPUT, "%s: canonical() gives a position "
                     "outside the index space", game->name);
        else if (start >= g->lo && start - g->lo < g->nl)
            g->word[start - g->lo] = SEEN;
        if (!mpi_agree(g->run))
            return false;
    }
    while (expanded > 0) {
        if (!run_scan(g, PHASE_REACH, 0, &expanded, local))
            return false;
        if (g->reps.all_legal)
            break;
    }
    MPI_Allreduce(local, level0, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return true;
}

bool mpi_game_solve(mpi_run *run, const loopy_game *game,
                    const loopy_game_solve_options *options,
                    mpi_game_words *out, mpi_stats *stats)
{
    uint64_t P = (uint64_t)run->ranks, level0[2] = {0, 0};
    gsolve g;
    bool ok = false;

    memset(out, 0, sizeof *out);
    memset(&g, 0, sizeof g);
    g.run = run;
    g.game = game;
    g.size = game->size;
    g.misere = options->misere;
    loopy_i_reps_init(&g.reps, game, options->no_symmetry != 0,
                      options->all_legal != 0);
    if (game->unmoves == NULL)
        mpi_fail(run, EXIT_USAGE, "%s: the game has no unmoves(), which "
                 "loopy-mpi needs", game->name);
    else if (g.size > (UINT64_C(1) << 62))
        mpi_fail(run, EXIT_RESOURCE, "%s: an index space of %" PRIu64
                 " positions is too large", game->name, g.size);
    g.bound = calloc((size_t)P + 1, sizeof *g.bound);
    if (g.bound != NULL)
        for (uint64_t r = 0; r <= P; r++)
            g.bound[r] = g.size / P * r + g.size % P * r / P;
    if (g.bound != NULL) {
        g.lo = g.bound[run->rank];
        g.nl = g.bound[run->rank + 1] - g.lo;
    }
    if (!mpi_fault(run, "memory"))
        g.word = malloc((size_t)g.nl * sizeof *g.word + 1);
    if (run->status == EXIT_OK &&
        (g.bound == NULL ||
         g.word == NULL || !mpi_exchange_init(&g.x, run->ranks)))
        mpi_fail(run, EXIT_RESOURCE, "out of memory%s",
                 mpi_fault(run, "memory") ? " (LOOPY_MPI_FAULT)" : "");
    if (!mpi_agree(run))
        goto done;
    if (!first_words(&g, level0) || !run_levels(&g, false, level0[0]) ||
        !run_levels(&g, true, level0[1]))
        goto done;
    out->part = malloc(sizeof *out->part);
    if (out->part == NULL)
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(run))
        goto done;
    out->parts = 1;
    memset(&out->part[0].v, 0, sizeof out->part[0].v);
    out->part[0].v.word = g.word;
    out->part[0].from = g.lo;
    out->part[0].to = g.lo + g.nl;
    out->word = g.word;
    out->symmetric = g.reps.symmetric;
    g.word = NULL;
    ok = true;

done:
    *stats = g.stats;
    loopy_i_position_buffer_release(&g.buf);
    mpi_exchange_free(&g.x);
    free(g.word);
    free(g.bound);
    return ok;
}

void mpi_game_fail(mpi_run *run, const loopy_game *game, loopy_position pos,
                   int status, const char *why)
{
    char text[96];

    mpi_fail(run, status, "%s: position %" LOOPY_PRI_POSITION " (%s): %s",
             game->name, pos, loopy_game_format(game, pos, text, sizeof text),
             why);
}

void mpi_game_words_free(mpi_game_words *w)
{
    if (w->store != NULL) {
        loopy_i_tier_store_close(w->store, false);
        free(w->store);
    }
    free(w->word);
    free(w->part);
    memset(w, 0, sizeof *w);
}

void mpi_game_words_remove_work(const mpi_game_words *w, int rank)
{
    if (w->store == NULL)
        return;
    /* Rank 0's journal first: without it the solve is finished, and the
     * other ranks' files are no solve's (tier.c's open_store). */
    if (rank == 0)
        unlink(w->store->journal_path);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0)
        unlink(w->store->journal_path);
    unlink(w->store->path);
}

bool mpi_game_value(mpi_run *run, const loopy_game *game,
                    const mpi_game_words *w, loopy_position pos,
                    loopy_outcome *outcome, uint32_t *remoteness)
{
    uint32_t word = LOOPY_I_WORD_ABSENT, least;

    (void)run;
    if (w->symmetric && game->canonical != NULL)
        pos = game->canonical(game->ctx, pos);
    /* The rank that holds pos gives its word; every other ABSENT, the
     * largest. */
    for (int k = 0; pos < game->size && k < w->parts; k++)
        if (pos >= w->part[k].from && pos < w->part[k].to)
            word = loopy_i_db_value(&w->part[k].v, pos - w->part[k].from);
    MPI_Allreduce(&word, &least, 1, MPI_UINT32_T, MPI_MIN, MPI_COMM_WORLD);
    return loopy_i_word_value(least, outcome, remoteness);
}
