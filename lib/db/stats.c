/*
 * stats.c - what a database holds, counted: how many positions of each
 * value at each remoteness, and the longest win, loss and tie.  One pass
 * over the blocks (loopy_db_iterate), which also checks them.
 *
 * The remoteness has no bound but the record's (2^30 - 1), and the
 * header's largest remoteness is only confirmed once every block is read,
 * so the table grows with the remoteness seen rather than trusting it.
 */
#include "db_internal.h"

#include <string.h>

typedef struct stats_pass {
    loopy_db_stats *stats;
    size_t capacity; /* rows allocated in stats->at */
    bool out_of_memory;
} stats_pass;

/* Room for row r of the table (r <= DB_REMOTENESS_MAX_4, so r + 1 does
 * not wrap); the new rows are zero. */
static bool grow_rows(stats_pass *pass, uint32_t r)
{
    loopy_db_stats *st = pass->stats;
    size_t want = pass->capacity < 64 ? 64 : pass->capacity;
    uint64_t (*grown)[4];

    while (want <= r) {
        /* Doubling, but never past what a remoteness can need. */
        want = want > ((size_t)DB_REMOTENESS_MAX_4 + 1) / 2
                   ? (size_t)DB_REMOTENESS_MAX_4 + 1
                   : want * 2;
    }
    grown = loopy_i_realloc(st->at, want, sizeof *st->at);
    if (grown == NULL)
        return false;
    memset(grown + pass->capacity, 0, (want - pass->capacity) * sizeof *grown);
    st->at = grown;
    pass->capacity = want;
    return true;
}

static int visit(void *ctx, loopy_position pos, loopy_outcome outcome,
                 uint32_t remoteness)
{
    stats_pass *pass = ctx;
    loopy_db_stats *st = pass->stats;

    st->count[outcome]++;
    if (outcome == LOOPY_DRAW)
        return 0;
    if (remoteness >= pass->capacity && !grow_rows(pass, remoteness)) {
        pass->out_of_memory = true;
        return 1;
    }
    st->at[remoteness][outcome]++;
    if (remoteness >= st->levels)
        st->levels = remoteness + 1;
    /* Positions come in increasing order: the first one seen at a new
     * largest remoteness is the smallest there. */
    if (st->longest_remoteness[outcome] == LOOPY_NONE ||
        remoteness > st->longest_remoteness[outcome]) {
        st->longest_remoteness[outcome] = remoteness;
        st->longest[outcome] = pos;
    }
    return 0;
}

loopy_status loopy_db_stats_compute(const loopy_db *db, loopy_db_stats *stats,
                                    loopy_diag *diag)
{
    stats_pass pass;
    loopy_status status;

    if (stats == NULL)
        return LOOPY_EINVAL;
    memset(stats, 0, sizeof *stats);
    for (int k = 0; k < 4; k++)
        stats->longest_remoteness[k] = LOOPY_NONE;
    if (db == NULL)
        return LOOPY_EINVAL;
    pass.stats = stats;
    pass.capacity = 0;
    pass.out_of_memory = false;
    status = loopy_db_iterate(db, visit, &pass, diag);
    if (status == LOOPY_OK && pass.out_of_memory) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        status = LOOPY_ENOMEM;
    }
    if (status != LOOPY_OK)
        loopy_db_stats_release(stats);
    return status;
}

void loopy_db_stats_release(loopy_db_stats *stats)
{
    if (stats == NULL)
        return;
    loopy_i_free(stats->at);
    memset(stats, 0, sizeof *stats);
    for (int k = 0; k < 4; k++)
        stats->longest_remoteness[k] = LOOPY_NONE;
}
