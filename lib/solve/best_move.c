/*
 * best_move.c - each position's best move: its least-numbered successor
 * that proves its value (see loopy_solve), found over the reverse graph.
 *
 * A position u is proved by a successor w exactly when w's (outcome,
 * remoteness) equals the one u needs: a Lose at remoteness r - 1 for a Win
 * at r, a Win at r - 1 for a Lose at r, a Tie at r - 1 for a Tie at r, any
 * Draw for a Draw.  Both sides are packed into one 32-bit key (outcome in
 * the top two bits: 0 for a Tie, whose keys are its remotenesses), so an
 * edge costs one random read: key[u] == value(w).  Walking w in increasing
 * order, the first w that matches u is the least.  Keys are kept in the
 * remoteness array while this runs (a key determines the remoteness, given
 * the outcome), which is restored at the end.
 */
#include "solve_internal.h"

#define TAG_TIE ((uint32_t)0)
#define TAG_WIN ((uint32_t)1 << 30)
#define TAG_LOSE ((uint32_t)2 << 30)
#define KEY_DRAW ((uint32_t)3 << 30)
#define KEY_NONE UINT32_MAX /* wanted by nobody: matches no value */
/* Keys hold remotenesses below this. */
#define KEY_MAX_REMOTENESS (TAG_WIN - 1)
/* Claims waiting for their line of best[]: a power of two, so that ring
 * slots (counter % CLAIM_RING) run on across the counters' wrap. */
#define CLAIM_RING 32u
_Static_assert((CLAIM_RING & (CLAIM_RING - 1)) == 0, "CLAIM_RING: a power of two");

static uint32_t value_of(uint8_t outcome, uint32_t remoteness)
{
    switch (outcome) {
    case LOOPY_WIN:
        return TAG_WIN | remoteness;
    case LOOPY_LOSE:
        return TAG_LOSE | remoteness;
    case LOOPY_TIE:
        return TAG_TIE | remoteness;
    default:
        return KEY_DRAW;
    }
}

static uint32_t wanted_by(uint8_t outcome, uint32_t remoteness)
{
    switch (outcome) {
    case LOOPY_WIN:
        return remoteness == 0 ? KEY_NONE : TAG_LOSE | (remoteness - 1);
    case LOOPY_LOSE:
        return remoteness == 0 ? KEY_NONE : TAG_WIN | (remoteness - 1);
    case LOOPY_TIE:
        return remoteness == 0 ? KEY_NONE : TAG_TIE | (remoteness - 1);
    default:
        return KEY_DRAW;
    }
}

/* Lowers *slot to w unless it holds a smaller vertex.  Threads walk
 * different ranges of w, so two may claim the same u: the compare-and-swap
 * keeps the least, whatever the interleaving.  Only proving edges get here. */
static void claim_min(loopy_vertex *slot, loopy_vertex w)
{
    loopy_vertex seen = __atomic_load_n(slot, __ATOMIC_RELAXED);

    while (w < seen &&
           !__atomic_compare_exchange_n(slot, &seen, w, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
    }
}

/* For remotenesses too large for keys (more than 2^30 levels). */
static bool proves(const uint8_t *outcome, const uint32_t *remoteness,
                   loopy_vertex u, loopy_vertex w)
{
    switch (outcome[u]) {
    case LOOPY_DRAW:
        return outcome[w] == LOOPY_DRAW;
    case LOOPY_WIN:
        return outcome[w] == LOOPY_LOSE && remoteness[u] != 0 &&
               remoteness[w] == remoteness[u] - 1;
    case LOOPY_TIE:
        return outcome[w] == LOOPY_TIE && remoteness[u] != 0 &&
               remoteness[w] == remoteness[u] - 1;
    default:
        return outcome[w] == LOOPY_WIN && remoteness[u] != 0 &&
               remoteness[w] == remoteness[u] - 1;
    }
}

/* The remoteness a key was made from (see wanted_by). */
static uint32_t remoteness_of_key(uint8_t outcome, uint32_t key)
{
    if (outcome == LOOPY_DRAW)
        return LOOPY_NONE;
    return key == KEY_NONE ? 0 : (key & KEY_MAX_REMOTENESS) + 1;
}

void loopy_i_best_moves(const loopy_edge *rev_offset,
                        const loopy_vertex *rev_source, loopy_solution *s,
                        uint32_t max_remoteness, int threads)
{
    const uint8_t *outcome = s->outcome;
    uint32_t *key = s->remoteness; /* restored at the end */
    loopy_vertex *best = s->best_move;
    loopy_vertex n = s->n;
    loopy_edge m = rev_offset[n];

    (void)threads; /* unused in a build without OpenMP */

    if (max_remoteness >= KEY_MAX_REMOTENESS) {
        const uint32_t *remoteness = s->remoteness;
        for (loopy_vertex v = 0; v < n; v++)
            best[v] = LOOPY_NONE;
        for (loopy_vertex w = 0; w < n; w++)
            for (loopy_edge e = rev_offset[w]; e < rev_offset[w + 1]; e++) {
                loopy_vertex u = rev_source[e];
                if (best[u] == LOOPY_NONE && proves(outcome, remoteness, u, w))
                    best[u] = w;
            }
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < (int64_t)n; v++) {
        best[v] = LOOPY_NONE;
        key[v] = wanted_by(outcome[v], key[v]);
    }
    /* key[] is only read here; best[] only through claim_min, which keeps
     * the least w whatever the order (on one thread the first match is the
     * least, and claim_min writes only that).  A match's claim waits in a
     * small ring while its line of best[] is fetched: a claim that missed
     * the cache would hold up the loads behind it. */
#pragma omp parallel num_threads(threads)
    {
        loopy_vertex ring_u[CLAIM_RING], ring_w[CLAIM_RING];
        unsigned head = 0, tail = 0;

        /* nowait: the claims are atomic, so a thread may drain its ring
         * while others still walk. */
#pragma omp for schedule(dynamic, 65536) nowait
        for (int64_t i = 0; i < (int64_t)n; i++) {
            loopy_vertex w = (loopy_vertex)i;
            uint32_t value = value_of(outcome[w],
                                      remoteness_of_key(outcome[w], key[w]));
            loopy_edge end = rev_offset[w + 1];
            for (loopy_edge e = rev_offset[w]; e < end; e++) {
                loopy_vertex u = rev_source[e];
                if (e + 16 < m)
                    PREFETCH(&key[rev_source[e + 16]]);
                if (key[u] != value)
                    continue;
                PREFETCH_WRITE(&best[u]);
                ring_u[head % CLAIM_RING] = u;
                ring_w[head % CLAIM_RING] = w;
                if (++head - tail == CLAIM_RING) {
                    claim_min(&best[ring_u[tail % CLAIM_RING]],
                              ring_w[tail % CLAIM_RING]);
                    tail++;
                }
            }
        }
        for (; tail != head; tail++)
            claim_min(&best[ring_u[tail % CLAIM_RING]], ring_w[tail % CLAIM_RING]);
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < (int64_t)n; v++)
        key[v] = remoteness_of_key(outcome[v], key[v]);
}
