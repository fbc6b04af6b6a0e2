/*
 * tier_save.c - a tier solve whose database is written from its park
 * file, a tier at a time (loopy_game_solve_tiers_saved): the tier solve
 * on disk leaves every tier parked (lib/rules/tier_solve.c), and each
 * tier is then a part of the database written in parts
 * (lib/db/write_parts.c): its tally first (a tier brought back at a
 * time), the shape from them all, then each tier's blocks compressed, a
 * window at a time, and written at their offsets, with the first records
 * of the tiers after it that its last block runs into.  The bytes are
 * those of loopy_db_write_game_at for the whole solution.
 */
#include "db_internal.h"
#include "../rules/tier_solve.h"

#include <limits.h>
#include <string.h>

/* The values of tier k, as the database writer reads them. */
static loopy_i_db_values tier_values(const tiers *t, uint64_t k)
{
    loopy_i_db_values v = {NULL, NULL, NULL, true};

    /* (The store's mapping: the records, seen without _Atomic.) */
    if (t->width == 1)
        v.byte = (const uint8_t *)t->store->record + t->start[k];
    else
        v.record = (const uint16_t *)t->store->record + t->start[k];
    return v;
}

/* Where the frames go: write_at, from offset on. */
typedef struct sink {
    loopy_write_at_fn write_at;
    void *ctx;
    uint64_t offset;
} sink;

static int put_frames(void *ctx, unsigned char *const *frame,
                      const db_block *entry, uint64_t count)
{
    sink *k = ctx;

    for (uint64_t b = 0; b < count; b++) {
        if (k->write_at(k->ctx, frame[b], entry[b].compressed, k->offset) != 0)
            return -1;
        k->offset += entry[b].compressed;
    }
    return 0;
}

/* Every tier's tally, each brought back and put away; and the start's
 * value into summary. */
static loopy_status tally_tiers(tiers *t, loopy_i_db_tally *tally,
                                loopy_game_solve_summary *summary,
                                loopy_diag *diag)
{
    const loopy_game *game = t->game;
    loopy_position start = game->start;
    uint64_t start_tier;
    loopy_status status = LOOPY_OK;

    if (t->reps.symmetric && game->canonical != NULL && start < game->size)
        start = game->canonical(game->ctx, start);
    start_tier = start < game->size ? loopy_i_tier_of(t, start) : UINT64_MAX;
    summary->start_outcome = LOOPY_DRAW;
    summary->start_remoteness = LOOPY_NONE;
    for (uint64_t k = 0; status == LOOPY_OK && k < t->count; k++) {
        loopy_i_db_values v = tier_values(t, k);
        status = loopy_i_tier_bring(t, k, diag);
        if (status != LOOPY_OK)
            break;
        if (loopy_i_db_part_tally(&v, t->start[k], t->start[k + 1],
                                  &tally[k]) != LOOPY_OK) {
            loopy_i_diag(diag, 0, 0, "%s: tier %llu has a position left "
                         "unsolved (the work file or its park file is "
                         "damaged)", game->name, (unsigned long long)k);
            return LOOPY_EFORMAT;
        }
        if (k == start_tier &&
            !loopy_i_word_value(loopy_i_db_value(&v, start - t->start[k]),
                                &summary->start_outcome,
                                &summary->start_remoteness)) {
            summary->start_outcome = LOOPY_DRAW;
            summary->start_remoteness = LOOPY_NONE;
        }
        status = loopy_i_tier_put_away(t, k, diag);
    }
    return status;
}

/* The items of tier r's tail: the first items of the tiers after it,
 * each brought back (and left so: it is the next to be written, and is
 * not decompressed again). */
static loopy_status tail_of(tiers *t, const db_shape *s,
                            const loopy_i_db_tally *tally, int parts, int r,
                            uint64_t need, loopy_i_db_item *tail,
                            loopy_diag *diag)
{
    uint64_t at = 0;

    for (int u = r + 1; u < parts && at < need; u++) {
        uint64_t c = loopy_i_db_tail_items(s, tally, parts, r, u);
        loopy_i_db_values v;
        loopy_status status;
        if (c == 0)
            continue;
        status = loopy_i_tier_bring(t, (uint64_t)u, diag);
        if (status != LOOPY_OK)
            return status;
        v = tier_values(t, (uint64_t)u);
        loopy_i_db_part_head(s, &tally[u], &v, c, tail + at);
        at += c;
    }
    return LOOPY_OK;
}

/* The database of the solved tiers through write_at. */
static loopy_status write_tiers(tiers *t, bool misere,
                                loopy_write_at_fn write_at, void *ctx,
                                loopy_game_solve_summary *summary,
                                loopy_diag *diag)
{
    const loopy_game *game = t->game;
    int parts = (int)t->count;
    loopy_i_db_tally *tally = loopy_i_calloc((size_t)t->count + 1, sizeof *tally);
    uint64_t *need = loopy_i_calloc((size_t)t->count + 1, sizeof *need);
    loopy_i_db_item *tail = NULL;
    unsigned char header[DB_HEADER_MAX], *index = NULL;
    loopy_i_db_source meta;
    loopy_status status;
    size_t header_len;
    sink out = {write_at, ctx, 0};
    db_shape s;

    memset(&meta, 0, sizeof meta);
    meta.name = game->name;
    meta.params = game->params != NULL ? game->params : "";
    meta.index_size = game->size;
    meta.misere = misere;
    meta.symmetric = t->reps.symmetric;
    status = tally == NULL || need == NULL ? LOOPY_ENOMEM : LOOPY_OK;
    if (status == LOOPY_OK && t->count > (uint64_t)INT_MAX) {
        loopy_i_diag(diag, 0, 0, "%s: %llu tiers, more than a database is "
                     "written from", game->name, (unsigned long long)t->count);
        status = LOOPY_ETOOBIG;
    }
    if (status == LOOPY_OK)
        status = tally_tiers(t, tally, summary, diag);
    if (status == LOOPY_OK)
        status = loopy_i_db_parts_shape(&meta, NULL, tally, parts, &s);
    if (status == LOOPY_OK) {
        loopy_i_db_tail_needs(&s, tally, parts, need);
        tail = loopy_i_malloc((size_t)s.k + 1, sizeof *tail);
        index = loopy_i_malloc((size_t)s.blocks * DB_ENTRY_BYTES + 8, 1);
        if (tail == NULL || index == NULL)
            status = LOOPY_ENOMEM;
    }
    out.offset = loopy_i_db_header_bytes(&meta);
    for (int r = 0; status == LOOPY_OK && r < parts; r++) {
        loopy_i_db_values v = tier_values(t, (uint64_t)r);
        loopy_i_db_piece piece;
        uint64_t from = out.offset;
        status = loopy_i_tier_bring(t, (uint64_t)r, diag);
        if (status == LOOPY_OK)
            status = tail_of(t, &s, tally, parts, r, need[r], tail, diag);
        if (status != LOOPY_OK)
            break;
        status = loopy_i_db_part_compress(&s, tally, parts, r, &v, tail,
                                          need[r], t->threads, put_frames,
                                          &out, &piece);
        if (status != LOOPY_OK)
            break;
        loopy_i_db_piece_entries(&piece, from,
                                 index + piece.first_block * DB_ENTRY_BYTES);
        loopy_i_db_piece_free(&piece);
        status = loopy_i_tier_put_away(t, (uint64_t)r, diag);
    }
    if (status == LOOPY_OK) {
        uint64_t header_bytes = loopy_i_db_header_bytes(&meta);
        loopy_i_db_parts_finish(&s, &meta, out.offset - header_bytes, index,
                                header, &header_len);
        if (write_at(ctx, index, (size_t)s.blocks * DB_ENTRY_BYTES + 8,
                     out.offset) != 0 ||
            write_at(ctx, header, header_len, 0) != 0)
            status = LOOPY_EIO;
        summary->positions = s.n;
        memcpy(summary->count, s.count, sizeof summary->count);
    }
    if (status != LOOPY_OK && diag != NULL && diag->message[0] == '\0')
        loopy_i_diag(diag, 0, 0, "%s: writing the database: %s", game->name,
                     status == LOOPY_EIO ? "write failed"
                                         : loopy_strerror(status));
    loopy_i_free(tally);
    loopy_i_free(need);
    loopy_i_free(tail);
    loopy_i_free(index);
    return status;
}

loopy_status loopy_game_solve_tiers_saved(
    const loopy_game *game, const loopy_game_solve_options *options,
    const loopy_game_tier_store *where, loopy_write_at_fn write_at, void *ctx,
    loopy_game_solve_summary *summary, loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solve_summary mine;
    loopy_status status;
    tier_store store;
    tiers t;

    if (game == NULL || write_at == NULL)
        return LOOPY_EINVAL;
    if (options == NULL)
        options = &defaults;
    if (summary == NULL)
        summary = &mine;
    memset(summary, 0, sizeof *summary);
    if (loopy_db_check_writable(game, diag) != LOOPY_OK)
        return LOOPY_EINVAL;
    status = loopy_i_tiers_solve_stored(&t, &store, game, options, where, diag);
    if (status != LOOPY_OK)
        return status;
    status = write_tiers(&t, options->misere != 0, write_at, ctx, summary, diag);
    loopy_i_tier_store_close(&store, false);
    loopy_i_tiers_free(&t);
    return status;
}
