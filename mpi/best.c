/*
 * best.c - best moves across ranks: each position's least successor that
 * proves its value (see lib/solve/best_move.c for the definition).
 *
 * Once outcomes and remotenesses are final, every position w tells each
 * predecessor u its value (w, remoteness); u's owner keeps the least w that
 * proves u's value: a Lose at r - 1 for a Win at r, a Win at r - 1 for a
 * Lose at r, a Tie at r - 1 for a Tie at r, a Draw for a Draw.  A message
 * is (u, w, remoteness), and a header (MARK, outcome) comes before it in a
 * buffer when the outcome differs from the last one there.  One pass over
 * the predecessor lists, in order (so they are read ahead), in as many
 * exchanges as the buffers need.
 */
#include "mpi.h"

#include <stdlib.h>
#include <string.h>

#define MARK MPI_MARK
/* Prefetch distance, in edges. */
#define AHEAD 16

typedef struct pass {
    const mpi_part *part;
    mpi_solution *sol;
    mpi_exchange *x;
    int me, ranks;
    uint64_t i, edge;   /* next position and edge to send */
} pass;

static void offer(mpi_solution *sol, uint64_t x, uint32_t w, uint8_t outcome,
                  uint32_t remoteness)
{
    uint8_t mine = sol->outcome[x];
    uint32_t r = sol->remoteness[x];
    bool proves;

    if (mine == LOOPY_DRAW)
        proves = outcome == LOOPY_DRAW;
    else
        proves = r != 0 && remoteness == r - 1 &&
                 outcome == (mine == LOOPY_WIN    ? LOOPY_LOSE
                             : mine == LOOPY_LOSE ? LOOPY_WIN
                                                  : LOOPY_TIE);
    if (proves && w < sol->best[x])
        sol->best[x] = w;
}

/* Sends from where the last call stopped until done or a buffer is full. */
static void work(pass *s)
{
    const mpi_part *part = s->part;
    uint64_t edges = part->rev_offset[s->sol->nl] - part->edge_lo;

    for (; s->i < s->sol->nl; s->i++, s->edge = 0) {
        uint64_t i = s->i;
        uint64_t from = part->rev_offset[i] - part->edge_lo;
        uint64_t count = part->rev_offset[i + 1] - part->rev_offset[i];
        uint32_t w = (uint32_t)(part->lo + i), r = s->sol->remoteness[i];
        uint8_t outcome = s->sol->outcome[i];
        uint32_t head = outcome, msg[3] = {0, w, r};

        for (; s->edge < count; s->edge++) {
            uint32_t u = part->rev_source[from + s->edge];
            int d = s->ranks == 1 ? 0 : mpi_owner(part, s->ranks, u);
            /* The lists of consecutive positions lie end to end. */
            if (from + s->edge + AHEAD < edges) {
                uint64_t ahead = part->rev_source[from + s->edge + AHEAD] - part->lo;
                if (ahead < s->sol->nl) {
                    PREFETCH(&s->sol->outcome[ahead]);
                    PREFETCH(&s->sol->remoteness[ahead]);
                }
            }
            if (d == s->me) {
                offer(s->sol, u - part->lo, w, outcome, r);
                continue;
            }
            msg[0] = u;
            if (!mpi_exchange_put(s->x, d, &head, 1, msg, 3))
                return;
        }
    }
}

static bool apply(pass *s, mpi_run *run)
{
    const mpi_exchange *x = s->x;

    for (int r = 0; r < s->ranks; r++) {
        const uint32_t *m = x->recv + x->recv_displ[r];
        int count = x->recv_count[r];
        uint8_t outcome = LOOPY_DRAW;

        for (int k = 0; k < count;) {
            if (m[k] == MARK && k + 1 < count) {
                outcome = (uint8_t)(m[k + 1] & 3);
                k += 2;
            } else if (k + 2 < count && m[k] >= s->part->lo &&
                       m[k] < s->part->hi) {
                offer(s->sol, m[k] - s->part->lo, m[k + 1], outcome, m[k + 2]);
                k += 3;
            } else {
                mpi_fail(run, EXIT_RESOURCE, "internal error: a malformed best-"
                         "move message on rank %d", run->rank);
                return false;
            }
        }
    }
    return true;
}

bool mpi_best_moves(mpi_run *run, const mpi_part *part, mpi_solution *sol,
                    mpi_exchange *x)
{
    pass s;

    memset(&s, 0, sizeof s);
    s.part = part;
    s.sol = sol;
    s.x = x;
    s.me = run->rank;
    s.ranks = run->ranks;
    for (uint64_t i = 0; i < sol->nl; i++)
        sol->best[i] = LOOPY_NONE;
    for (;;) {
        int mine[2] = {s.i < sol->nl && run->status == EXIT_OK,
                       run->status != EXIT_OK}, all[2];

        MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (all[1] || !all[0])
            break;
        work(&s);
        mpi_exchange_run(x, &sol->stats);
        sol->stats.best_exchanges++;
        apply(&s, run);
    }
    return mpi_agree(run);
}
