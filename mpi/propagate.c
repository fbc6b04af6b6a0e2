/*
 * propagate.c - the retrograde analysis across ranks, level by level.
 *
 * The state of each vertex is the single-process solver's (see
 * lib/solve/solve_internal.h): one 32-bit word, its remoteness once it is
 * decided (below n), else WAITING minus the count of its moves not yet
 * known to reach a Win.  A decided position of level L tells each of its
 * predecessors "you win" (it is a Lose) or "one more move reaches a Win"
 * (it is a Win); a predecessor so decided joins level L + 1.  A rank
 * applies what it tells its own vertices at once and batches the rest, one
 * buffer per destination; the buffers go out in one exchange (all-to-all)
 * per superstep, carrying only the predecessor's id and, when it changes,
 * the level and the kind of message (Romein and Bal's combined messages).
 *
 * Levels are processed in order, so a position is decided at the level the
 * single-process solver decides it, and outcomes and remotenesses are
 * identical.  Supersteps are not tied to levels, which would make a chain
 * of 10^7 vertices take 10^7 exchanges: before each one, the ranks gather
 * their lowest pending levels; rank A may then process every level L up to
 * the lowest pending level of the other ranks (nothing they do can reach
 * A's positions below it), and, once it has sent a message at level S, up
 * to S + 1 (the answer cannot come back before S + 2).  So ranks with work
 * at the same level go in lockstep, one exchange per level, while a part of
 * the graph that only one rank is working on runs there without exchanges.
 * A rank's pending positions are kept in buckets by level (a sorted list of
 * levels, each an array of positions).  Buffers have a fixed size; a
 * rank whose buffer fills stops, even inside a level, and goes on after the
 * exchange.
 */
#include "mpi.h"

#include <stdlib.h>
#include <string.h>

#define WAITING UINT32_MAX
#define MARK MPI_MARK /* starts a header: level, kind */
#define NIL UINT32_MAX
/* Prefetch distance, in edges of a list and in positions of a level. */
#define AHEAD 8
/* Message kinds. */
enum { KIND_YOU_WIN, KIND_COUNT, KIND_TIE };

/* The positions of one level waiting to send their messages, in an array
 * of their own: item[next .. count) are still to go. */
typedef struct bucket {
    uint32_t level;
    uint32_t *item;
    size_t count, cap, next;
} bucket;

typedef struct prop {
    mpi_run *run;
    const mpi_part *part;
    mpi_solution *sol;
    mpi_exchange *x;
    uint64_t n, nl;
    uint32_t *word;  /* the solution's remoteness array */
    bucket *bk;      /* by increasing level */
    size_t bk_count, bk_cap;
    bool tie_phase;
    uint32_t cur;           /* a position whose messages are half sent, */
    uint64_t cur_edge;      /* from this edge of its list on */
} prop;

/* The bucket of `level`, made when there is none; NULL without memory. */
static bucket *bucket_of(prop *p, uint32_t level)
{
    size_t lo = 0, hi = p->bk_count;

    /* Nearly always the last or the one before: levels grow. */
    if (hi > 0 && p->bk[hi - 1].level == level)
        return &p->bk[hi - 1];
    while (lo < hi) { /* the first bucket of level >= `level` */
        size_t mid = lo + (hi - lo) / 2;
        if (p->bk[mid].level < level)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < p->bk_count && p->bk[lo].level == level)
        return &p->bk[lo];
    if (p->bk_count == p->bk_cap) {
        size_t cap = p->bk_cap ? 2 * p->bk_cap : 16;
        bucket *grown = realloc(p->bk, cap * sizeof *grown);
        if (grown == NULL)
            return NULL;
        p->bk = grown;
        p->bk_cap = cap;
    }
    memmove(&p->bk[lo + 1], &p->bk[lo], (p->bk_count - lo) * sizeof *p->bk);
    memset(&p->bk[lo], 0, sizeof *p->bk);
    p->bk[lo].level = level;
    p->bk_count++;
    return &p->bk[lo];
}

/* Queues local vertex i, decided at `level`. */
static bool push(prop *p, uint32_t level, uint32_t i)
{
    bucket *b = mpi_fault(p->run, "level") ? NULL : bucket_of(p, level);

    if (b != NULL && b->count == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        uint32_t *grown = realloc(b->item, cap * sizeof *grown);
        if (grown == NULL) {
            b = NULL;
        } else {
            b->item = grown;
            b->cap = cap;
        }
    }
    if (b == NULL) {
        mpi_fail(p->run, EXIT_RESOURCE, "out of memory%s",
                 mpi_fault(p->run, "level") ? " (LOOPY_MPI_FAULT)" : "");
        return false;
    }
    b->item[b->count++] = i;
    return true;
}

static void decide(prop *p, uint32_t i, uint32_t level, uint8_t outcome)
{
    p->word[i] = level;
    p->sol->outcome[i] = outcome;
    push(p, level, i);
}

/* Local vertex i hears a message of `kind` from a position of `level`. */
static void hear(prop *p, uint32_t i, uint32_t level, uint32_t kind)
{
    uint32_t w = p->word[i];

    if (w < p->n)
        return; /* decided */
    if (kind == KIND_TIE)
        decide(p, i, level + 1, LOOPY_TIE);
    else if (kind == KIND_YOU_WIN)
        decide(p, i, level + 1, LOOPY_WIN);
    else if (w == WAITING - 1)
        decide(p, i, level + 1, LOOPY_LOSE);
    else
        p->word[i] = w + 1;
}

/* Sends the messages of local vertex i from edge `edge` on; returns false,
 * leaving p->cur and p->cur_edge where it stopped, when a buffer is full.
 * Sets *sent when a message left the rank. */
static bool tell(prop *p, uint32_t i, uint64_t edge, bool *sent)
{
    const mpi_part *part = p->part;
    int me = p->run->rank, ranks = p->run->ranks;
    uint32_t level = p->word[i];
    uint32_t kind = p->tie_phase ? KIND_TIE
                    : p->sol->outcome[i] == LOOPY_LOSE ? KIND_YOU_WIN : KIND_COUNT;
    uint64_t from = part->rev_offset[i] - part->edge_lo;
    uint64_t count = part->rev_offset[i + 1] - part->rev_offset[i];
    const uint32_t head[2] = {level, kind};

    for (uint64_t e = edge; e < count; e++) {
        uint32_t u = part->rev_source[from + e];
        int d = ranks == 1 ? 0 : mpi_owner(part, ranks, u);
        /* The words of the predecessors a few edges on, if they are ours
         * (a list's next entries are scattered over the graph). */
        if (e + AHEAD < count) {
            uint64_t ahead = part->rev_source[from + e + AHEAD] - part->lo;
            if (ahead < p->nl)
                PREFETCH_WRITE(&p->word[ahead]);
        }
        if (d == me) {
            hear(p, (uint32_t)(u - part->lo), level, kind);
        } else if (mpi_exchange_put(p->x, d, head, 2, &u, 1)) {
            *sent = true;
        } else {
            p->cur = i;
            p->cur_edge = e;
            return false;
        }
    }
    p->cur = NIL;
    return true;
}

/* The lowest level this rank has to process, or MPI_NO_LEVEL. */
static uint64_t next_level(const prop *p)
{
    if (p->cur != NIL)
        return p->word[p->cur];
    return p->bk_count > 0 ? p->bk[0].level : MPI_NO_LEVEL;
}

/* Asks for what position item[k] will need when its turn comes: its
 * predecessor offsets now, its list a little later (misses overlap). */
static void prefetch(const prop *p, const bucket *b, size_t k)
{
    const mpi_part *part = p->part;

    if (k + 2 * AHEAD < b->count)
        PREFETCH(&part->rev_offset[b->item[k + 2 * AHEAD]]);
    if (k + AHEAD < b->count)
        PREFETCH(&part->rev_source[part->rev_offset[b->item[k + AHEAD]] -
                                   part->edge_lo]);
    if (k + AHEAD / 2 < b->count) {
        uint32_t i = b->item[k + AHEAD / 2];
        uint64_t e = part->rev_offset[i] - part->edge_lo;
        uint64_t end = part->rev_offset[i + 1] - part->edge_lo;
        for (int j = 0; j < 8 && e < end; j++, e++) {
            uint64_t u = part->rev_source[e] - part->lo;
            if (u < p->nl)
                PREFETCH_WRITE(&p->word[u]);
        }
    }
}

/* Processes the levels up to `bound` (see the top of the file). */
static void work(prop *p, uint64_t bound)
{
    uint64_t sent_at = MPI_NO_LEVEL;

    for (;;) {
        uint64_t level = next_level(p);
        bool sent = false, whole;

        if (level == MPI_NO_LEVEL || level > bound ||
            (sent_at != MPI_NO_LEVEL && level > sent_at + 1) ||
            p->run->status != EXIT_OK)
            return;
        if (p->cur != NIL) {
            whole = tell(p, p->cur, p->cur_edge, &sent);
        } else {
            bucket *b = &p->bk[0];
            uint32_t i = b->item[b->next];
            prefetch(p, b, b->next);
            if (++b->next == b->count) { /* the level is emptied */
                free(b->item);
                p->bk_count--;
                memmove(&p->bk[0], &p->bk[1], p->bk_count * sizeof *p->bk);
            }
            whole = tell(p, i, 0, &sent);
        }
        if (sent && level < sent_at)
            sent_at = level;
        if (!whole)
            return;
    }
}

/* Applies the received messages, rank by rank. */
static void apply(prop *p)
{
    const mpi_exchange *x = p->x;

    for (int r = 0; r < p->run->ranks; r++) {
        const uint32_t *w = x->recv + x->recv_displ[r];
        int count = x->recv_count[r];
        uint32_t level = 0, kind = KIND_COUNT;

        for (int k = 0; k < count; k++) {
            if (w[k] == MARK && k + 2 < count) {
                level = w[k + 1];
                kind = w[k + 2];
                k += 2;
            } else if (w[k] >= p->part->lo && w[k] < p->part->hi) {
                hear(p, (uint32_t)(w[k] - p->part->lo), level, kind);
            } else {
                mpi_fail(p->run, EXIT_RESOURCE, "internal error: a message "
                         "for vertex %" PRIu32 ", which rank %d does not own",
                         w[k], p->run->rank);
                return;
            }
        }
    }
}

/* Collective: supersteps until no rank has a level left. */
static bool run_levels(prop *p)
{
    int ranks = p->run->ranks;
    uint64_t *next = malloc((size_t)ranks * 2 * sizeof *next);

    if (next == NULL)
        mpi_fail(p->run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(p->run)) {
        free(next);
        return false;
    }
    for (;;) {
        uint64_t mine[2] = {next_level(p), p->run->status != EXIT_OK};
        uint64_t least = MPI_NO_LEVEL, bound = MPI_NO_LEVEL;
        bool failed = false;

        MPI_Allgather(mine, 2, MPI_UINT64_T, next, 2, MPI_UINT64_T,
                      MPI_COMM_WORLD);
        for (int r = 0; r < ranks; r++) {
            failed |= next[2 * r + 1] != 0;
            least = next[2 * r] < least ? next[2 * r] : least;
            if (r != p->run->rank && next[2 * r] < bound)
                bound = next[2 * r];
        }
        if (failed) {
            free(next);
            return mpi_agree(p->run);
        }
        if (least == MPI_NO_LEVEL)
            break;
        work(p, bound);
        mpi_exchange_run(p->x, &p->sol->stats);
        p->sol->stats.supersteps++;
        apply(p);
    }
    free(next);
    return true;
}

/* Level 0: positions without moves, and the targets; tie_at positions are
 * decided (Ties at 0) but not queued until the Tie phase. */
static bool seed(prop *p, const loopy_solve_options *opt)
{
    const mpi_part *part = p->part;
    const loopy_vertex *lists[3] = {opt->lose_at, opt->win_at, opt->tie_at};
    size_t counts[3] = {opt->lose_at_count, opt->win_at_count, opt->tie_at_count};
    const uint8_t as[3] = {LOOPY_LOSE, LOOPY_WIN, LOOPY_TIE};

    for (uint64_t i = 0; i < p->nl; i++)
        p->word[i] = WAITING - part->out_degree[i];
    for (int k = 0; k < 3; k++) {
        for (size_t j = 0; j < counts[k]; j++) {
            uint64_t v = lists[k][j];
            if (v < part->lo || v >= part->hi)
                continue;
            uint32_t i = (uint32_t)(v - part->lo);
            p->word[i] = 0;
            p->sol->outcome[i] = as[k];
            if (as[k] != LOOPY_TIE && !push(p, 0, i))
                return false;
        }
    }
    for (uint64_t i = 0; i < p->nl; i++)
        if (p->word[i] == WAITING && p->sol->outcome[i] == LOOPY_DRAW) {
            p->word[i] = 0;
            p->sol->outcome[i] = opt->misere ? LOOPY_WIN : LOOPY_LOSE;
            if (!push(p, 0, (uint32_t)i))
                return false;
        }
    return true;
}

/* The Tie phase: what is still undecided waits for one message, and the
 * tie_at positions are queued at level 0 (see lib/solve/retro.c). */
static bool seed_ties(prop *p, const loopy_solve_options *opt)
{
    p->tie_phase = true;
    for (uint64_t i = 0; i < p->nl; i++)
        if (p->word[i] >= p->n)
            p->word[i] = WAITING - 1;
    for (size_t j = 0; j < opt->tie_at_count; j++) {
        uint64_t v = opt->tie_at[j];
        if (v >= p->part->lo && v < p->part->hi &&
            !push(p, 0, (uint32_t)(v - p->part->lo)))
            return false;
    }
    return true;
}

bool mpi_solve(mpi_run *run, const mpi_part *part,
               const loopy_solve_options *options, mpi_solution *sol)
{
    uint64_t nl = part->hi - part->lo, count[4] = {0, 0, 0, 0};
    mpi_exchange x;
    prop p;
    bool ok = false;

    memset(sol, 0, sizeof *sol);
    memset(&p, 0, sizeof p);
    memset(&x, 0, sizeof x);
    sol->nl = nl;
    p.run = run;
    p.part = part;
    p.sol = sol;
    p.x = &x;
    p.n = part->n;
    p.nl = nl;
    p.cur = NIL;
    if ((uint64_t)part->max_degree + part->n >= WAITING) {
        mpi_fail(run, EXIT_RESOURCE, "%s", loopy_strerror(LOOPY_ETOOBIG));
        return mpi_agree(run);
    }
    if (!mpi_fault(run, "memory")) {
        sol->outcome = calloc(nl + 1, 1);
        sol->remoteness = malloc((nl + 1) * sizeof *sol->remoteness);
        sol->best = malloc((nl + 1) * sizeof *sol->best);
    }
    if (sol->outcome == NULL || sol->remoteness == NULL || sol->best == NULL ||
        !mpi_exchange_init(&x, run->ranks))
        mpi_fail(run, EXIT_RESOURCE, "out of memory%s",
                 mpi_fault(run, "memory") ? " (LOOPY_MPI_FAULT)" : "");
    if (!mpi_agree(run))
        goto done;
    p.word = sol->remoteness;
    seed(&p, options);
    if (!run_levels(&p))
        goto done;
    if (options->tie_at_count > 0) {
        seed_ties(&p, options);
        if (!run_levels(&p))
            goto done;
    }
    /* Positions still waiting are Draws. */
    for (uint64_t i = 0; i < nl; i++) {
        if (p.word[i] >= part->n)
            p.word[i] = LOOPY_NONE;
        count[sol->outcome[i]]++;
    }
    sol->stats.level_bytes = sol->stats.bytes_sent;
    MPI_Allreduce(count, sol->count, 4, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    ok = mpi_best_moves(run, part, sol, &x);

done:
    for (size_t b = 0; b < p.bk_count; b++)
        free(p.bk[b].item);
    free(p.bk);
    mpi_exchange_free(&x);
    if (!ok)
        mpi_solution_free(sol);
    return ok;
}

void mpi_solution_free(mpi_solution *sol)
{
    free(sol->outcome);
    free(sol->remoteness);
    free(sol->best);
    sol->outcome = NULL;
    sol->remoteness = NULL;
    sol->best = NULL;
}
