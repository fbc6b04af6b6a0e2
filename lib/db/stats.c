/*
 * stats.c - what a database holds, counted: how many positions of each
 * value at each remoteness, and the longest win, loss and tie.  One pass
 * over the blocks (loopy_db_iterate), which also checks them.
 *
 * A remoteness can be anything up to the record's largest (2^30 - 1),
 * whatever the number of positions, so memory follows the remotenesses
 * present, never the largest one: small remotenesses (the usual case)
 * are counted in a dense table, which grows only while most of its rows
 * can be in use (at most 4 (R + 1024) rows for R distinct remotenesses
 * seen so far), and the others in a hash table.  The rows are sorted and
 * merged at the end, one per remoteness present.
 */
#include "db_internal.h"

#include <stdlib.h>
#include <string.h>

/* Rows the dense table may always have (32 KiB per 1024). */
#define DENSE_FLOOR 1024u

/* A remoteness of the hash table, with its W, L and T (count[outcome-1]);
 * EMPTY marks a free slot (no remoteness reaches it). */
typedef struct hashed_row {
    uint32_t remoteness;
    uint64_t count[3];
} hashed_row;
#define EMPTY UINT32_MAX

typedef struct stats_pass {
    loopy_db_stats *stats;
    uint64_t (*dense)[4];  /* dense[r][outcome], r < dense_rows */
    uint64_t dense_rows;
    hashed_row *hash;      /* 2^hash_bits slots, or NULL */
    unsigned hash_bits;
    uint64_t hash_used;
    /* Remotenesses seen, an upper bound (one that went to the hash table
     * before the dense table grew over it counts twice). */
    uint64_t distinct;
    bool out_of_memory;
} stats_pass;

/* Grows the dense table to hold row r (doubling) if it then has at most
 * 4 (R + DENSE_FLOOR) rows for the R remotenesses seen; false (nothing
 * changed) otherwise, or out of memory (then *failed). */
static bool grow_dense(stats_pass *pass, uint32_t r, bool *failed)
{
    uint64_t want = pass->dense_rows < 64 ? 64 : pass->dense_rows;
    uint64_t (*grown)[4];

    while (want <= r)
        want *= 2; /* r < 2^30: no overflow */
    if (want > 4 * (pass->distinct + DENSE_FLOOR))
        return false;
    if (want > SIZE_MAX / sizeof *grown) /* 32-bit machines */
        return false;
    grown = loopy_i_realloc(pass->dense, (size_t)want, sizeof *grown);
    if (grown == NULL) {
        *failed = true;
        return false;
    }
    memset(grown + pass->dense_rows, 0,
           (size_t)(want - pass->dense_rows) * sizeof *grown);
    pass->dense = grown;
    pass->dense_rows = want;
    return true;
}

static size_t slot_of(uint32_t remoteness, unsigned bits)
{
    /* Fibonacci hashing: the top bits of a multiplicative hash. */
    return (size_t)(((uint64_t)remoteness * UINT64_C(0x9e3779b97f4a7c15)) >>
                    (64 - bits));
}

/* Doubles the hash table (16 slots at first), keeping its rows. */
static bool grow_hash(stats_pass *pass)
{
    unsigned bits = pass->hash ? pass->hash_bits + 1 : 4;
    size_t slots = (size_t)1 << bits;
    size_t old = pass->hash ? (size_t)1 << pass->hash_bits : 0;
    hashed_row *table;

    if (bits >= 8 * sizeof(size_t) - 6)
        return false;
    table = loopy_i_malloc(slots, sizeof *table);
    if (table == NULL)
        return false;
    for (size_t i = 0; i < slots; i++)
        table[i].remoteness = EMPTY;
    for (size_t i = 0; i < old; i++) {
        size_t at;
        if (pass->hash[i].remoteness == EMPTY)
            continue;
        at = slot_of(pass->hash[i].remoteness, bits);
        while (table[at].remoteness != EMPTY)
            at = (at + 1) & (slots - 1);
        table[at] = pass->hash[i];
    }
    loopy_i_free(pass->hash);
    pass->hash = table;
    pass->hash_bits = bits;
    return true;
}

/* The hash table's row of remoteness r, added if new; NULL out of memory. */
static uint64_t *hashed(stats_pass *pass, uint32_t r)
{
    uint64_t slots = pass->hash ? (uint64_t)1 << pass->hash_bits : 0;
    size_t mask, at;

    /* At most half full, so that probes stay short. */
    if ((pass->hash_used + 1) * 2 > slots && !grow_hash(pass))
        return NULL;
    mask = ((size_t)1 << pass->hash_bits) - 1;
    at = slot_of(r, pass->hash_bits);
    while (pass->hash[at].remoteness != r) {
        if (pass->hash[at].remoteness == EMPTY) {
            pass->hash[at].remoteness = r;
            memset(pass->hash[at].count, 0, sizeof pass->hash[at].count);
            pass->hash_used++;
            pass->distinct++;
            break;
        }
        at = (at + 1) & mask;
    }
    return pass->hash[at].count;
}

static int visit(void *ctx, loopy_position pos, loopy_outcome outcome,
                 uint32_t remoteness)
{
    stats_pass *pass = ctx;
    loopy_db_stats *st = pass->stats;
    bool failed = false;

    st->count[outcome]++;
    if (outcome == LOOPY_DRAW)
        return 0;
    if (remoteness < pass->dense_rows ||
        grow_dense(pass, remoteness, &failed)) {
        uint64_t *row = pass->dense[remoteness];
        if ((row[LOOPY_WIN] | row[LOOPY_LOSE] | row[LOOPY_TIE]) == 0)
            pass->distinct++;
        row[outcome]++;
    } else {
        uint64_t *count = failed ? NULL : hashed(pass, remoteness);
        if (count == NULL) {
            pass->out_of_memory = true;
            return 1;
        }
        count[outcome - 1]++;
    }
    /* Positions come in increasing order: the first one seen at a new
     * largest remoteness is the smallest there. */
    if (st->longest_remoteness[outcome] == LOOPY_NONE ||
        remoteness > st->longest_remoteness[outcome]) {
        st->longest_remoteness[outcome] = remoteness;
        st->longest[outcome] = pos;
    }
    return 0;
}

static int by_remoteness(const void *a, const void *b)
{
    uint32_t x = ((const hashed_row *)a)->remoteness;
    uint32_t y = ((const hashed_row *)b)->remoteness;

    return (x > y) - (x < y);
}

/* The rows of both tables, merged in increasing remoteness into
 * stats->rows; false out of memory. */
static bool make_rows(stats_pass *pass)
{
    loopy_db_stats *st = pass->stats;
    hashed_row *sorted = NULL;
    uint64_t dense_used = 0, total, k = 0, r = 0, h = 0;

    for (uint64_t i = 0; i < pass->dense_rows; i++)
        dense_used += (pass->dense[i][LOOPY_WIN] | pass->dense[i][LOOPY_LOSE] |
                       pass->dense[i][LOOPY_TIE]) != 0;
    total = dense_used + pass->hash_used;
    if (total == 0)
        return true;
    if (pass->hash_used > 0) {
        size_t slots = (size_t)1 << pass->hash_bits, j = 0;
        sorted = loopy_i_malloc((size_t)pass->hash_used, sizeof *sorted);
        if (sorted == NULL)
            return false;
        for (size_t i = 0; i < slots; i++)
            if (pass->hash[i].remoteness != EMPTY)
                sorted[j++] = pass->hash[i];
        qsort(sorted, j, sizeof *sorted, by_remoteness);
    }
    /* total <= 2^31: each of the 2^30 remotenesses is in one table or
     * both. */
    st->rows = loopy_i_malloc((size_t)total, sizeof *st->rows);
    if (st->rows == NULL) {
        loopy_i_free(sorted);
        return false;
    }
    for (;;) {
        loopy_db_stats_row *row = &st->rows[k];
        const uint64_t *d;

        while (r < pass->dense_rows &&
               (pass->dense[r][LOOPY_WIN] | pass->dense[r][LOOPY_LOSE] |
                pass->dense[r][LOOPY_TIE]) == 0)
            r++;
        if (r == pass->dense_rows && h == pass->hash_used)
            break;
        memset(row, 0, sizeof *row);
        if (h == pass->hash_used ||
            (r < pass->dense_rows && r <= sorted[h].remoteness)) {
            row->remoteness = (uint32_t)r;
            d = pass->dense[r++];
            for (int o = LOOPY_WIN; o <= LOOPY_TIE; o++)
                row->count[o] = d[o];
        } else {
            row->remoteness = sorted[h].remoteness;
        }
        /* The hash table's row of the same remoteness joins it. */
        if (h < pass->hash_used && sorted[h].remoteness == row->remoteness) {
            for (int o = LOOPY_WIN; o <= LOOPY_TIE; o++)
                row->count[o] += sorted[h].count[o - 1];
            h++;
        }
        k++;
    }
    st->row_count = (uint32_t)k;
    loopy_i_free(sorted);
    return true;
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
    memset(&pass, 0, sizeof pass);
    pass.stats = stats;
    status = loopy_db_iterate(db, visit, &pass, diag);
    if (status == LOOPY_OK && (pass.out_of_memory || !make_rows(&pass))) {
        loopy_i_diag(diag, 0, 0, "out of memory for the table of %" PRIu64
                     " remotenesses", pass.distinct);
        status = LOOPY_ENOMEM;
    }
    loopy_i_free(pass.dense);
    loopy_i_free(pass.hash);
    if (status != LOOPY_OK)
        loopy_db_stats_release(stats);
    return status;
}

void loopy_db_stats_release(loopy_db_stats *stats)
{
    if (stats == NULL)
        return;
    loopy_i_free(stats->rows);
    memset(stats, 0, sizeof *stats);
    for (int k = 0; k < 4; k++)
        stats->longest_remoteness[k] = LOOPY_NONE;
}
