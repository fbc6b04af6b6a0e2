/*
 * levels.c - the propagation of retrograde analysis, one level at a time.
 *
 * Level r holds the positions decided with remoteness r.  Processing it
 * decides positions of remoteness r + 1 only: a predecessor of a Lose
 * becomes a Win, a predecessor whose last undecided move reaches a Win
 * becomes a Lose.  Which level decides a position does not depend on the
 * order inside a level (a position with a Lose successor never runs out of
 * moves), so any order and any thread count give the same outcomes and
 * remotenesses as the serial FIFO.
 *
 * Small levels, and every level of a one-thread solve, run on the calling
 * thread with direct updates and prefetching (a chain of 10^7 one-vertex
 * levels must not pay a barrier per level; on one thread, binning measured
 * no faster than prefetching here).  Large levels run on all threads, owner-computes: each thread
 * walks its share of the level and sends, for every predecessor u, a
 * message into a bin for u's block; after a barrier each thread applies the
 * bins of the blocks it owns, block by block, so the words being updated
 * stay in cache and no edge needs an atomic.  Bins have a fixed size; a
 * thread that fills one stops, and the exchange repeats in rounds.
 */
#include "solve_internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Levels of fewer positions run on one thread, by default. */
#define PARALLEL_MIN_LEVEL 4096u
/* Entries per bin, at most. */
#define BIN_CAP 1024u
/* Prefetch distance, in queued positions. */
#define AHEAD 8u

loopy_status loopy_i_levels_init(level_state *st, loopy_vertex n, int threads)
{
    uint32_t per;

    st->n = n;
    st->threads = threads;
    /* Blocks of words small enough for a core's cache, few enough that
     * every thread's bins stay small; small graphs get small blocks and bins
     * too, so that every thread owns some. */
    st->block_shift = 4;
    while (((uint64_t)n >> st->block_shift) > 512)
        st->block_shift++;
    st->blocks = (uint32_t)(((uint64_t)n >> st->block_shift) + 1);
    st->bin_cap = n / 8 < 16 ? 16 : n / 8 > BIN_CAP ? BIN_CAP : n / 8;
    st->block_owner = loopy_i_malloc(st->blocks, sizeof *st->block_owner);
    st->first_block = loopy_i_malloc((size_t)threads + 1, sizeof *st->first_block);
    st->region_lo = loopy_i_malloc((size_t)threads + 1, sizeof *st->region_lo);
    st->head = loopy_i_calloc((size_t)threads, sizeof *st->head);
    st->tail = loopy_i_calloc((size_t)threads, sizeof *st->tail);
    st->cursor = loopy_i_calloc((size_t)threads, sizeof *st->cursor);
    st->bins = loopy_i_calloc((size_t)threads, sizeof *st->bins);
    st->fill = loopy_i_calloc((size_t)threads, sizeof *st->fill);
    st->done = loopy_i_calloc((size_t)threads, sizeof *st->done);
    if (st->block_owner == NULL || st->first_block == NULL ||
        st->region_lo == NULL || st->head == NULL || st->tail == NULL ||
        st->cursor == NULL || st->bins == NULL || st->fill == NULL ||
        st->done == NULL)
        return LOOPY_ENOMEM;
    per = st->blocks / (uint32_t)threads;
    for (int t = 0; t <= threads; t++) {
        uint32_t b = t == threads ? st->blocks
                                  : per * (uint32_t)t +
                                        ((uint32_t)t < st->blocks % (uint32_t)threads
                                             ? (uint32_t)t : st->blocks % (uint32_t)threads);
        uint64_t lo = (uint64_t)b << st->block_shift;
        st->first_block[t] = b;
        st->region_lo[t] = (loopy_vertex)(lo < n ? lo : n);
    }
    for (int t = 0; t < threads; t++) {
        for (uint32_t b = st->first_block[t]; b < st->first_block[t + 1]; b++)
            st->block_owner[b] = (uint16_t)t;
        st->head[t] = st->tail[t] = st->cursor[t] = st->region_lo[t];
    }
    {
        for (int t = 0; t < threads; t++) {
            st->bins[t] = loopy_i_malloc((size_t)st->blocks * 2 * st->bin_cap,
                                         sizeof(loopy_vertex));
            st->fill[t] = loopy_i_calloc((size_t)st->blocks * 2, sizeof(uint32_t));
            if (st->bins[t] == NULL || st->fill[t] == NULL)
                return LOOPY_ENOMEM;
        }
    }
    return LOOPY_OK;
}

void loopy_i_levels_free(level_state *st)
{
    for (int t = 0; t < st->threads; t++) {
        if (st->bins != NULL)
            loopy_i_free(st->bins[t]);
        if (st->fill != NULL)
            loopy_i_free(st->fill[t]);
    }
    loopy_i_free(st->block_owner);
    loopy_i_free(st->first_block);
    loopy_i_free(st->region_lo);
    loopy_i_free(st->head);
    loopy_i_free(st->tail);
    loopy_i_free(st->cursor);
    loopy_i_free(st->bins);
    loopy_i_free(st->fill);
    loopy_i_free(st->done);
}

/* Hears that one of u's moves reaches a Lose (loses) or a Win; word is
 * u's word, which is waiting (>= n).  Only u's owner, or the one thread of
 * a small level, calls this for u. */
static inline void hear(level_state *st, loopy_vertex u, uint32_t word,
                        bool loses, uint32_t next)
{
    if (loses || word == WORD_WAITING - 1) {
        st->word[u] = next; /* decided: the word is its remoteness */
        st->outcome[u] = loses ? LOOPY_WIN : LOOPY_LOSE;
        loopy_i_push(st, u);
    } else {
        st->word[u] = word + 1; /* one move fewer to wait for */
    }
}

/* One level on the calling thread, with the positions ahead prefetched:
 * their predecessor offsets, then lists, then words. */
static void level_direct(level_state *st, uint32_t next)
{
    const loopy_edge *rev_offset = st->rev_offset;
    const loopy_vertex *rev_source = st->rev_source;
    const loopy_vertex *queue = st->queue;

    for (int t = 0; t < st->threads; t++) {
        loopy_vertex head = st->head[t], tail = st->tail[t];
        for (loopy_vertex i = head; i < tail; i++) {
            loopy_vertex v = queue[i];
            bool loses = st->outcome[v] == LOOPY_LOSE;
            loopy_edge end = rev_offset[v + 1];

            if (i + 2 * AHEAD < tail)
                PREFETCH(&rev_offset[queue[i + 2 * AHEAD]]);
            if (i + AHEAD < tail) {
                loopy_vertex w = queue[i + AHEAD];
                PREFETCH(&rev_source[rev_offset[w]]);
                PREFETCH(&st->outcome[w]);
            }
            if (i + AHEAD / 2 < tail) {
                loopy_vertex w = queue[i + AHEAD / 2];
                loopy_edge e = rev_offset[w], stop = rev_offset[w + 1];
                for (unsigned k = 0; e < stop && k < 8; e++, k++)
                    PREFETCH_WRITE(&st->word[rev_source[e]]);
            }
            for (loopy_edge e = rev_offset[v]; e < end; e++) {
                loopy_vertex u = rev_source[e];
                uint32_t word = st->word[u];
                if (word >= st->n)
                    hear(st, u, word, loses, next);
            }
        }
    }
}

/* Where a thread is in its share of a level: position i of region t (the
 * share spans regions in order), and edge e of queue[i]'s list. */
typedef struct walk {
    int region;
    loopy_vertex i;
    loopy_edge e;
    uint64_t left; /* positions of the share not yet finished */
} walk;

/* Starts a walk at position `skip` of the level (counting across regions). */
static void walk_start(const level_state *st, walk *w, uint64_t skip,
                       uint64_t count)
{
    int t = 0;

    while (t < st->threads && skip >= (uint64_t)(st->tail[t] - st->head[t])) {
        skip -= st->tail[t] - st->head[t];
        t++;
    }
    w->region = t;
    w->i = t < st->threads ? st->head[t] + (loopy_vertex)skip : 0;
    w->e = t < st->threads && count > 0 ? st->rev_offset[st->queue[w->i]] : 0;
    w->left = count;
}

/* Sends messages of the walk's positions into thread t's bins until the
 * share ends (returns true) or a bin is full (false). */
static bool send(level_state *st, walk *w, int t)
{
    const loopy_edge *rev_offset = st->rev_offset;
    const loopy_vertex *rev_source = st->rev_source;
    loopy_vertex *bins = st->bins[t];
    uint32_t *fill = st->fill[t];
    uint32_t cap = st->bin_cap;
    unsigned shift = st->block_shift;

    while (w->left > 0) {
        loopy_vertex v = st->queue[w->i];
        unsigned kind = st->outcome[v] == LOOPY_LOSE ? 0u : 1u;
        loopy_edge end = rev_offset[v + 1];

        for (; w->e < end; w->e++) {
            loopy_vertex u = rev_source[w->e];
            uint32_t bin = ((u >> shift) << 1) | kind;
            if (fill[bin] == cap)
                return false;
            bins[(size_t)bin * cap + fill[bin]++] = u;
        }
        if (--w->left == 0)
            break;
        /* Next position: the next one in this region or the next region. */
        w->i++;
        while (w->i >= st->tail[w->region]) {
            w->region++;
            w->i = st->head[w->region];
        }
        /* Positions ahead in this region: offsets first, then lists. */
        if (w->i + 2 * AHEAD < st->tail[w->region])
            PREFETCH(&rev_offset[st->queue[w->i + 2 * AHEAD]]);
        if (w->i + AHEAD < st->tail[w->region]) {
            loopy_vertex ahead = st->queue[w->i + AHEAD];
            PREFETCH(&rev_source[rev_offset[ahead]]);
            PREFETCH(&st->outcome[ahead]);
        }
        w->e = rev_offset[st->queue[w->i]];
    }
    return true;
}

/* Applies every thread's bins for the blocks that thread t owns. */
static void apply(level_state *st, int t, uint32_t next)
{
    uint32_t cap = st->bin_cap;

    for (uint32_t b = st->first_block[t]; b < st->first_block[t + 1]; b++) {
        for (int s = 0; s < st->threads; s++) {
            for (unsigned kind = 0; kind < 2; kind++) {
                uint32_t bin = (b << 1) | kind;
                const loopy_vertex *msg = st->bins[s] + (size_t)bin * cap;
                uint32_t count = st->fill[s][bin];
                for (uint32_t k = 0; k < count; k++) {
                    loopy_vertex u = msg[k];
                    if (k + 16 < count)
                        PREFETCH_WRITE(&st->word[msg[k + 16]]);
                    uint32_t word = st->word[u];
                    if (word >= st->n)
                        hear(st, u, word, kind == 0, next);
                }
            }
        }
    }
}

/* One level on all threads, in rounds of send, barrier, apply, barrier. */
static void level_parallel(level_state *st, uint32_t next)
{
    uint64_t total = 0;
    int threads = st->threads;

    for (int t = 0; t < threads; t++)
        total += st->tail[t] - st->head[t];
#pragma omp parallel num_threads(threads)
    {
        int t = loopy_i_thread_num();
        uint64_t from = total * (uint64_t)t / (uint64_t)threads;
        uint64_t to = total * (uint64_t)(t + 1) / (uint64_t)threads;
        uint32_t *fill = st->fill[t];
        walk w;
        bool all_done;

        walk_start(st, &w, from, to - from);
        do {
            for (uint32_t b = 0; b < 2 * st->blocks; b++)
                fill[b] = 0;
            /* done[t] and thread t's bins are written by t only, here, and
             * read by the others only after the barrier. */
            st->done[t] = send(st, &w, t);
#pragma omp barrier
            apply(st, t, next);
            all_done = true;
            for (int s = 0; s < threads; s++)
                all_done = all_done && st->done[s];
            /* Nobody refills a bin before everyone has applied it. */
#pragma omp barrier
        } while (!all_done);
    }
}

uint32_t loopy_i_propagate(level_state *st, const loopy_solve_options *opt)
{
    uint32_t min_level = opt->parallel_min_level ? opt->parallel_min_level
                                                 : PARALLEL_MIN_LEVEL;
    uint32_t r = 0;
    uint64_t decided = 0, next_report = (uint64_t)st->n / 64 + 1;

    for (;;) {
        uint64_t size = 0;

        for (int t = 0; t < st->threads; t++) {
            st->head[t] = st->tail[t];
            st->tail[t] = st->cursor[t];
            size += st->tail[t] - st->head[t];
        }
        if (size == 0)
            break;
        /* A level's positions are all decided: r < n <= 2^32 - 2. */
        if (size < min_level ||
            (st->threads == 1 && opt->parallel_min_level == 0))
            level_direct(st, r + 1);
        else
            level_parallel(st, r + 1);
        decided += size;
        if (opt->progress != NULL && decided >= next_report) {
            opt->progress(opt->progress_ctx, "solve", decided, st->n);
            next_report = decided + (uint64_t)st->n / 64 + 1;
        }
        r++;
    }
    /* The last level decided nothing, so the greatest remoteness is r - 1. */
    return r > 0 ? r - 1 : 0;
}
