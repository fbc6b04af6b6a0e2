/*
 * probe.c - reading a database: one block per probe, checked as it is
 * read (its checksum, that it is exactly one zstd frame of the length the
 * index says, every record, every gap between sparse positions), then the
 * position looked up in it; iteration over every block; and the value of
 * a game's moves.
 *
 * Probes may run on several threads at once.  Each works in a scratch of
 * its own (a zstd context, and buffers of exactly the block's sizes),
 * taken from the database's spare slots with an atomic exchange, so that
 * no two threads ever hold one, and put back after (or freed when every
 * slot is full).  A scratch remembers the blocks it decoded last (the
 * current one and DB_CACHED_BLOCKS more), which the file (never written
 * while open) keeps valid: the moves of a position, which lie in a few
 * blocks, and the positions a server is asked about again and again are
 * decompressed once.
 */
#include "db_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#define NO_BLOCK UINT64_MAX

static loopy_status damaged_block(loopy_diag *diag, uint64_t b, const char *what)
{
    loopy_i_diag(diag, 0, 0, "damaged loopy database: %s block %" PRIu64, what, b);
    return LOOPY_EFORMAT;
}

/* ---- Scratch ---- */

static db_scratch *scratch_take(const loopy_db *db)
{
    db_scratch *s;

    for (int i = 0; i < DB_SPARES; i++) {
        s = atomic_exchange(&db->spare[i], NULL);
        if (s != NULL)
            return s;
    }
    s = loopy_i_calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->block = NO_BLOCK;
    for (int i = 0; i < DB_CACHED_BLOCKS; i++)
        s->cached[i].block = NO_BLOCK;
    s->dctx = ZSTD_createDCtx();
    if (db->h.flags & DB_FLAG_SPARSE)
        s->position = loopy_i_malloc(db->h.block_positions, sizeof *s->position);
    if (s->dctx == NULL ||
        ((db->h.flags & DB_FLAG_SPARSE) && s->position == NULL)) {
        loopy_i_db_scratch_free(s);
        return NULL;
    }
    return s;
}

static void scratch_give(const loopy_db *db, db_scratch *s)
{
    for (int i = 0; i < DB_SPARES; i++) {
        db_scratch *empty = NULL;
        if (atomic_compare_exchange_strong(&db->spare[i], &empty, s))
            return;
    }
    loopy_i_db_scratch_free(s);
}

/* ---- Blocks ---- */

/* Reads a number (LEB128, at most 10 bytes, no superfluous zero byte)
 * from *q, before end. */
static bool read_gap(const unsigned char **q, const unsigned char *end,
                     uint64_t *gap)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < DB_GAP_MAX_BYTES && *q < end; i++) {
        unsigned c = *(*q)++;
        if (i == DB_GAP_MAX_BYTES - 1 && c > 1)
            return false; /* past 64 bits */
        v |= (uint64_t)(c & 0x7f) << (7 * i);
        if ((c & 0x80) == 0) {
            *gap = v;
            return i == 0 || c != 0;
        }
    }
    return false;
}

/* Whether every record of p[0 .. count * width) is valid: a Draw, or a W,
 * L or T of remoteness at most max; or absent, unless sparse. */
static bool records_valid(const unsigned char *p, uint32_t count,
                          unsigned width, uint32_t max, bool sparse)
{
    uint32_t bad = 0, absent_bad = sparse ? 1u : 0u;

    /* Bitwise, not logical, operators: no branch on random outcomes.
     * kind 0: low 0 (absent, dense only) or 1; else low <= max. */
    if (width == 2) {
        for (uint32_t j = 0; j < count; j++) {
            uint32_t r = (uint32_t)p[2 * j] | (uint32_t)p[2 * j + 1] << 8;
            uint32_t low = r & 0x3fff, zero_kind = (r >> 14) == 0;
            bad |= (zero_kind & ((low > 1) | (absent_bad & (low == 0)))) |
                   ((zero_kind ^ 1) & (low > max));
        }
    } else {
        for (uint32_t j = 0; j < count; j++) {
            uint32_t r = (uint32_t)db_get(p + 4 * (size_t)j, 4);
            uint32_t low = r & 0x3fffffff, zero_kind = (r >> 30) == 0;
            bad |= (zero_kind & ((low > 1) | (absent_bad & (low == 0)))) |
                   ((zero_kind ^ 1) & (low > max));
        }
    }
    return bad == 0;
}

/* Checks the records of the block in s->plain, and decodes the positions
 * of a sparse one into s->position. */
static loopy_status check_block(const loopy_db *db, db_scratch *s, uint64_t b,
                                loopy_diag *diag)
{
    const db_header *h = &db->h;
    const db_block *blk = &db->block[b];
    uint32_t records = loopy_i_db_block_records(db, b);
    bool sparse = (h->flags & DB_FLAG_SPARSE) != 0;
    const unsigned char *q, *end = s->plain + blk->plain;
    loopy_position pos, limit;
    loopy_outcome outcome;
    uint32_t remoteness;

    /* Most probes are of good blocks: one branch-free pass first. */
    if (!records_valid(s->plain, records, h->width, h->max_remoteness, sparse)) {
        for (uint32_t j = 0; j < records; j++) {
            int kind = db_decode((uint32_t)db_get(s->plain + (size_t)j * h->width,
                                                  h->width),
                                 h->width, h->max_remoteness, &outcome,
                                 &remoteness);
            if (kind == DB_INVALID)
                return damaged_block(diag, b, "an invalid record in");
            if (kind == DB_ABSENT && sparse)
                break;
        }
        return damaged_block(diag, b, "an absent position listed in");
    }
    /* The range is that of the positions: its ends are in it. */
    if ((b == 0 && db_get(s->plain, h->width) == 0) ||
        (b + 1 == h->blocks &&
         db_get(s->plain + (size_t)(records - 1) * h->width, h->width) == 0))
        return damaged_block(diag, b, "an absent first or last position in");
    if (!sparse)
        return LOOPY_OK;
    q = s->plain + (size_t)records * h->width;
    /* The first position is written in full, and must be the index's. */
    if (!read_gap(&q, end, &pos) || pos != blk->first)
        return damaged_block(diag, b, "a first position other than the "
                                      "index's in");
    limit = b + 1 < h->blocks ? db->block[b + 1].first : h->hi;
    s->position[0] = pos;
    for (uint32_t j = 1; j < records; j++) {
        uint64_t gap;
        /* One byte, the common case, inline; pos < limit, so
         * limit - pos - 1 does not wrap. */
        if (q < end && *q < 0x80)
            gap = *q++;
        else if (!read_gap(&q, end, &gap))
            return damaged_block(diag, b, "bad positions in");
        if (gap >= limit - pos - 1)
            return damaged_block(diag, b, "bad positions in");
        pos += gap + 1;
        s->position[j] = pos;
    }
    if (q != end)
        return damaged_block(diag, b, "bytes after the positions of");
    if (b + 1 == h->blocks && pos != h->hi - 1)
        return damaged_block(diag, b, "a last position other than the "
                                      "header's in");
    return LOOPY_OK;
}

/* Makes *buf exactly size bytes (its contents are not kept). */
static bool fit(unsigned char **buf, uint32_t *buf_size, uint32_t size)
{
    if (*buf != NULL && *buf_size == size)
        return true;
    loopy_i_free(*buf);
    *buf = loopy_i_malloc(size, 1);
    *buf_size = *buf != NULL ? size : 0;
    return *buf != NULL;
}

/* Swaps the current block of s with the one kept in slot c. */
static void swap_cached(db_scratch *s, db_decoded *c)
{
    db_decoded current = {s->plain, s->plain_size, s->position, s->block};

    s->plain = c->plain;
    s->plain_size = c->plain_size;
    s->position = c->position;
    s->block = c->block;
    *c = current;
}

/* Reads, checks and decompresses block b into s (nothing when s holds it
 * already, or keeps it decoded: then it becomes the current one). */
static loopy_status load_block(const loopy_db *db, db_scratch *s, uint64_t b,
                               loopy_diag *diag)
{
    const db_block *blk = &db->block[b];
    const unsigned char *packed;
    unsigned long long content;
    size_t size;
    loopy_status status;

    if (s->block == b)
        return LOOPY_OK;
    for (int i = 0; i < DB_CACHED_BLOCKS; i++) {
        if (s->cached[i].block == b) {
            swap_cached(s, &s->cached[i]);
            return LOOPY_OK;
        }
    }
    /* A miss: the current block is kept in place of the oldest, whose
     * buffers b is decoded into. */
    swap_cached(s, &s->cached[s->next]);
    s->next = (s->next + 1) % DB_CACHED_BLOCKS;
    s->block = NO_BLOCK;
    if ((db->h.flags & DB_FLAG_SPARSE) && s->position == NULL &&
        (s->position = loopy_i_malloc(db->h.block_positions,
                                      sizeof *s->position)) == NULL) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    if (!fit(&s->plain, &s->plain_size, blk->plain) ||
        (db->fd >= 0 && !fit(&s->compressed, &s->compressed_size, blk->compressed))) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    if (db->fd < 0) {
        packed = db->memory + blk->offset;
    } else {
        status = loopy_i_db_read(db, blk->offset, blk->compressed,
                                 s->compressed, diag);
        if (status != LOOPY_OK)
            return status;
        packed = s->compressed;
    }
    if (loopy_i_checksum(packed, blk->compressed, 1) != blk->checksum)
        return damaged_block(diag, b, "bad checksum of");
    /* Exactly one frame, announcing exactly the index's length, into a
     * buffer of exactly that length: zstd checks every offset inside it. */
    size = ZSTD_findFrameCompressedSize(packed, blk->compressed);
    if (ZSTD_isError(size) || size != blk->compressed)
        return damaged_block(diag, b, "not one zstd frame in");
    content = ZSTD_getFrameContentSize(packed, blk->compressed);
    if (content != blk->plain)
        return damaged_block(diag, b, "a zstd frame of another length than "
                                      "the index says in");
    size = ZSTD_decompressDCtx(s->dctx, s->plain, blk->plain, packed,
                               blk->compressed);
    if (ZSTD_isError(size)) {
        if (ZSTD_getErrorCode(size) == ZSTD_error_memory_allocation) {
            loopy_i_diag(diag, 0, 0, "out of memory");
            return LOOPY_ENOMEM;
        }
        loopy_i_diag(diag, 0, 0, "damaged loopy database: block %" PRIu64
                     " does not decompress: %s", b, ZSTD_getErrorName(size));
        return LOOPY_EFORMAT;
    }
    if (size != blk->plain)
        return damaged_block(diag, b, "a zstd frame of another length than "
                                      "the index says in");
    status = check_block(db, s, b, diag);
    if (status == LOOPY_OK)
        s->block = b;
    return status;
}

/* The block that would hold pos (lo <= pos < hi). */
static uint64_t block_of(const loopy_db *db, loopy_position pos)
{
    uint64_t lo = 0, hi = db->h.blocks;

    if (!(db->h.flags & DB_FLAG_SPARSE))
        return (pos - db->h.lo) / db->h.block_positions;
    /* The last block whose first position is at most pos. */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (db->block[mid].first <= pos)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The value of pos, looked up with scratch s. */
static loopy_status lookup(const loopy_db *db, db_scratch *s, loopy_position pos,
                           loopy_outcome *outcome, uint32_t *remoteness,
                           loopy_diag *diag)
{
    const db_header *h = &db->h;
    uint64_t b, j;
    loopy_status status;

    if (h->n == 0 || pos < h->lo || pos >= h->hi)
        return LOOPY_EINVAL;
    b = block_of(db, pos);
    status = load_block(db, s, b, diag);
    if (status != LOOPY_OK)
        return status;
    if (h->flags & DB_FLAG_SPARSE) {
        uint64_t lo = 0, hi = loopy_i_db_block_records(db, b);
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (s->position[mid] < pos)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == loopy_i_db_block_records(db, b) || s->position[lo] != pos)
            return LOOPY_EINVAL;
        j = lo;
    } else {
        j = pos - db->block[b].first;
    }
    /* check_block has decoded every record of the block. */
    return db_decode((uint32_t)db_get(s->plain + j * h->width, h->width),
                     h->width, h->max_remoteness, outcome, remoteness) ==
                   DB_PRESENT
               ? LOOPY_OK
               : LOOPY_EINVAL;
}

loopy_status loopy_db_probe(const loopy_db *db, loopy_position pos,
                            loopy_outcome *outcome, uint32_t *remoteness)
{
    db_scratch *s;
    loopy_status status;

    if (db == NULL || outcome == NULL || remoteness == NULL)
        return LOOPY_EINVAL;
    s = scratch_take(db);
    if (s == NULL)
        return LOOPY_ENOMEM;
    status = lookup(db, s, pos, outcome, remoteness, NULL);
    scratch_give(db, s);
    return status;
}

/* What a pass over blocks found: the positions of each value, the
 * largest remoteness, and whether the visitor stopped it. */
typedef struct tally {
    uint64_t count[4];
    uint32_t max;
    bool stopped;
} tally;

/* Visits the positions of blocks b0 .. b1-1, in order, in scratch s. */
static loopy_status visit_blocks(const loopy_db *db, db_scratch *s,
                                 uint64_t b0, uint64_t b1,
                                 loopy_db_visit_fn visit, void *ctx,
                                 tally *t, loopy_diag *diag)
{
    const db_header *h = &db->h;
    loopy_status status;

    for (uint64_t b = b0; b < b1; b++) {
        uint32_t records = loopy_i_db_block_records(db, b);

        status = load_block(db, s, b, diag);
        if (status != LOOPY_OK)
            return status;
        for (uint32_t j = 0; j < records; j++) {
            loopy_outcome outcome;
            uint32_t remoteness;
            loopy_position pos = h->flags & DB_FLAG_SPARSE ? s->position[j]
                                                           : db->block[b].first + j;

            if (db_decode((uint32_t)db_get(s->plain + (size_t)j * h->width, h->width),
                          h->width, h->max_remoteness, &outcome,
                          &remoteness) != DB_PRESENT)
                continue;
            t->count[outcome]++;
            if (outcome != LOOPY_DRAW && remoteness > t->max)
                t->max = remoteness;
            if (visit != NULL && visit(ctx, pos, outcome, remoteness) != 0) {
                t->stopped = true; /* by the caller: not an error */
                return LOOPY_OK;
            }
        }
    }
    return LOOPY_OK;
}

/* Whether the blocks held what the header counts (when nobody stopped). */
static loopy_status check_tally(const loopy_db *db, const tally *t,
                                loopy_diag *diag)
{
    static const char letter[] = "DWLT";
    const db_header *h = &db->h;

    if (t->stopped)
        return LOOPY_OK;
    for (int k = 0; k < 4; k++) {
        if (t->count[k] != h->count[k]) {
            loopy_i_diag(diag, 0, 0, "damaged loopy database: the blocks hold %"
                         PRIu64 " positions of value %c, the header counts %"
                         PRIu64, t->count[k], letter[k], h->count[k]);
            return LOOPY_EFORMAT;
        }
    }
    if (t->max != h->max_remoteness) {
        loopy_i_diag(diag, 0, 0, "damaged loopy database: the largest "
                     "remoteness in the blocks is %" PRIu32 ", the header "
                     "says %" PRIu32, t->max, h->max_remoteness);
        return LOOPY_EFORMAT;
    }
    return LOOPY_OK;
}

loopy_status loopy_db_iterate(const loopy_db *db, loopy_db_visit_fn visit,
                              void *ctx, loopy_diag *diag)
{
    return loopy_i_db_iterate_threads(db, visit, ctx, 1, diag);
}

/* Blocks a thread takes at a time: enough to keep the scheduling cheap,
 * few enough to share the end. */
#define ITERATE_CHUNK 16

loopy_status loopy_i_db_iterate_threads(const loopy_db *db,
                                        loopy_db_visit_fn visit, void *ctx,
                                        int threads, loopy_diag *diag)
{
    tally all;
    int failed = LOOPY_OK; /* a loopy_status: some failing thread's */
    _Atomic int64_t stop_at; /* the first chunk in which visit stopped */
    bool said = false;
    uint64_t blocks;
    int64_t chunks;

    if (db == NULL || threads < 1)
        return LOOPY_EINVAL;
    memset(&all, 0, sizeof all);
    blocks = db->h.blocks;
    chunks = (int64_t)((blocks + ITERATE_CHUNK - 1) / ITERATE_CHUNK);
    atomic_init(&stop_at, chunks);
    if (threads > 1 && chunks < 2)
        threads = 1;
#pragma omp parallel num_threads(threads)
    {
        db_scratch *s = scratch_take(db);
        loopy_diag mine_diag;
        tally mine;
        int mine_status = s == NULL ? LOOPY_ENOMEM : LOOPY_OK;

        memset(&mine, 0, sizeof mine);
        memset(&mine_diag, 0, sizeof mine_diag);
        if (s == NULL) {
            loopy_i_diag(&mine_diag, 0, 0, "out of memory");
#pragma omp atomic write
            failed = mine_status;
        }
        /* Each thread visits whole chunks of blocks, taken in increasing
         * order; a failure ends every thread's walk, and a stop in chunk
         * c the walk of the chunks after c (those before it are all
         * visited, as a walk in order would). */
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < chunks; c++) {
            uint64_t b0 = (uint64_t)c * ITERATE_CHUNK;
            uint64_t b1 = blocks - b0 < ITERATE_CHUNK ? blocks : b0 + ITERATE_CHUNK;
            int seen_failed;
            int64_t seen_stop;

#pragma omp atomic read
            seen_failed = failed;
            seen_stop = atomic_load_explicit(&stop_at, memory_order_relaxed);
            if (mine_status != LOOPY_OK || seen_failed != LOOPY_OK ||
                c > seen_stop)
                continue;
            mine.stopped = false;
            mine_status = (int)visit_blocks(db, s, b0, b1, visit, ctx, &mine,
                                            &mine_diag);
            if (mine.stopped) {
                int64_t was = atomic_load(&stop_at);
                while (c < was &&
                       !atomic_compare_exchange_weak(&stop_at, &was, c))
                    ;
            }
            if (mine_status != LOOPY_OK) {
#pragma omp atomic write
                failed = mine_status;
            }
        }
#pragma omp critical(loopy_db_iterate)
        {
            for (int k = 0; k < 4; k++)
                all.count[k] += mine.count[k];
            if (mine.max > all.max)
                all.max = mine.max;
            /* The status and message of one failing thread. */
            if (mine_status != LOOPY_OK && mine_status == failed && !said) {
                if (diag != NULL)
                    *diag = mine_diag;
                said = true;
            }
        }
        if (s != NULL)
            scratch_give(db, s);
    }
    if (failed != LOOPY_OK)
        return (loopy_status)failed;
    all.stopped = atomic_load(&stop_at) < chunks;
    return check_tally(db, &all, diag);
}

/* ---- Games ---- */

loopy_status loopy_db_check_game(const loopy_db *db, const loopy_game *game,
                                 loopy_diag *diag)
{
    const char *params;

    if (db == NULL || game == NULL)
        return LOOPY_EINVAL;
    params = game->params != NULL ? game->params : "";
    if (strcmp(game->name, db->h.name) != 0 || strcmp(params, db->h.params) != 0) {
        loopy_i_diag(diag, 0, 0, "the database holds %s%s%s, not %s%s%s",
                     db->h.name, db->h.params[0] ? ":" : "", db->h.params,
                     game->name, params[0] ? ":" : "", params);
        return LOOPY_EINVAL;
    }
    if (game->size != db->h.index_size) {
        loopy_i_diag(diag, 0, 0, "%s numbers its positions below %"
                     LOOPY_PRI_POSITION ", the database below %" PRIu64
                     ": the game's rules have changed", game->name, game->size,
                     db->h.index_size);
        return LOOPY_EGAME;
    }
    if ((db->h.flags & DB_FLAG_SYMMETRIC) && game->canonical == NULL) {
        loopy_i_diag(diag, 0, 0, "the database holds one position per class "
                     "of symmetric positions, and %s has no canonical()",
                     game->name);
        return LOOPY_EGAME;
    }
    return LOOPY_OK;
}

loopy_status loopy_db_open_game(const loopy_db *db, loopy_game **out,
                                loopy_diag *diag)
{
    loopy_status status;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (db == NULL)
        return LOOPY_EINVAL;
    if (strcmp(db->h.name, "graph") == 0 && db->h.params[0] == '\0') {
        loopy_i_diag(diag, 0, 0, "a database of a graph's positions, not of "
                     "a game by rules");
        return LOOPY_EINVAL;
    }
    /* Only a built-in game, by its name: a file must never make loopy load
     * a shared object (a name with '/', or anything but a game's name). */
    for (const char *c = db->h.name; *c; c++) {
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_' || *c == '-')) {
            loopy_i_diag(diag, 0, 0, "the database names the game '%s', "
                         "which is not a built-in game's name", db->h.name);
            return LOOPY_EFORMAT;
        }
    }
    /* Name and parameters apart: parameters with a '/' must not make a
     * path of the whole. */
    status = loopy_i_game_open_builtin(db->h.name, db->h.params, out, diag);
    if (status != LOOPY_OK)
        return status;
    status = loopy_db_check_game(db, *out, diag);
    if (status != LOOPY_OK) {
        loopy_game_close(*out);
        *out = NULL;
    }
    return status;
}

/* The position the database holds for pos of game. */
static loopy_position stored(const loopy_db *db, const loopy_game *game,
                             loopy_position pos)
{
    if ((db->h.flags & DB_FLAG_SYMMETRIC) && game->canonical != NULL &&
        pos < game->size)
        return game->canonical(game->ctx, pos);
    return pos;
}

loopy_status loopy_db_use_tables(loopy_db *db, const char *folder)
{
    char *copy = NULL;

    if (db == NULL)
        return LOOPY_EINVAL;
    if (folder != NULL) {
        copy = loopy_i_malloc(strlen(folder) + 1, 1);
        if (copy == NULL)
            return LOOPY_ENOMEM;
        memcpy(copy, folder, strlen(folder) + 1);
    }
    loopy_i_free(db->tables);
    db->tables = copy;
    return LOOPY_OK;
}

/* The value of pos (the position db holds for it) from the table of its
 * sub-game in db's folder (loopy_db_use_tables); LOOPY_EINVAL when there
 * is none to ask.  The tables hold normal play. */
static loopy_status table_lookup(const loopy_db *db, const loopy_game *game,
                                 loopy_position pos, loopy_outcome *outcome,
                                 uint32_t *remoteness, loopy_diag *diag)
{
    if (db->tables == NULL || (db->h.flags & DB_FLAG_MISERE) ||
        game->version < 6 || game->table_value == NULL ||
        game->sub_table == NULL)
        return LOOPY_EINVAL;
    return game->table_value(game->ctx, pos, db->tables,
                             (db->h.flags & DB_FLAG_SYMMETRIC) != 0, outcome,
                             remoteness, diag);
}

loopy_status loopy_db_value(const loopy_db *db, const loopy_game *game,
                            loopy_position pos, loopy_outcome *outcome,
                            uint32_t *remoteness)
{
    loopy_position at;
    loopy_status status;

    if (db == NULL || game == NULL)
        return LOOPY_EINVAL;
    at = stored(db, game, pos);
    status = loopy_db_probe(db, at, outcome, remoteness);
    if (status == LOOPY_EINVAL && pos < game->size)
        status = table_lookup(db, game, at, outcome, remoteness, NULL);
    return status;
}

loopy_status loopy_db_moves(const loopy_db *db, const loopy_game *game,
                            loopy_position pos, loopy_game_move **moves,
                            size_t *count, loopy_diag *diag)
{
    loopy_position_buffer buf = {NULL, 0, false};
    loopy_position at;
    loopy_i_list_failure why;
    loopy_game_move *list = NULL;
    loopy_outcome outcome;
    uint32_t remoteness;
    loopy_status status;
    db_scratch *s = NULL;
    size_t n = 0;

    if (moves == NULL || count == NULL)
        return LOOPY_EINVAL;
    *moves = NULL;
    *count = 0;
    if (db == NULL || game == NULL)
        return LOOPY_EINVAL;
    s = scratch_take(db);
    if (s == NULL)
        goto no_memory;
    at = stored(db, game, pos);
    status = lookup(db, s, at, &outcome, &remoteness, diag);
    if (status == LOOPY_EINVAL && pos < game->size)
        status = table_lookup(db, game, at, &outcome, &remoteness, diag);
    if (status == LOOPY_EINVAL)
        loopy_i_diag(diag, 0, 0, "position %" LOOPY_PRI_POSITION " is not in "
                     "the database", pos);
    if (status != LOOPY_OK || game->primitive(game->ctx, pos) != LOOPY_PLAYING)
        goto fail;
    n = loopy_i_game_list_why(game, pos, false, &buf, &why);
    if (n == LOOPY_GAME_ERROR) {
        char text[160];
        if (why.fault == LOOPY_I_LIST_NO_MEMORY)
            goto no_memory;
        loopy_i_list_failure_text(&why, false, text, sizeof text);
        loopy_i_diag(diag, 0, 0, "%s%s", text, why.fault == LOOPY_I_LIST_FAILED
                                                   ? " at this position" : "");
        status = LOOPY_EGAME;
        goto fail;
    }
    n = loopy_i_sort_unique(buf.items, n);
    /* malloc, not loopy_i_malloc: the caller frees it with free. */
    list = malloc(n ? n * sizeof *list : 1);
    if (list == NULL)
        goto no_memory;
    for (size_t i = 0; i < n; i++) {
        list[i].to = buf.items[i];
        at = stored(db, game, buf.items[i]);
        status = buf.items[i] < game->size
                     ? lookup(db, s, at, &list[i].outcome,
                              &list[i].remoteness, diag)
                     : LOOPY_EINVAL;
        if (status == LOOPY_EINVAL && buf.items[i] < game->size)
            status = table_lookup(db, game, at, &list[i].outcome,
                                  &list[i].remoteness, diag);
        if (status == LOOPY_EINVAL) {
            char name[16];
            loopy_position local;
            if (db->tables == NULL && buf.items[i] < game->size &&
                game->version >= 6 && game->sub_table != NULL &&
                game->sub_table(game->ctx, at, name, sizeof name, &local))
                loopy_i_diag(diag, 0, 0, "a move into the ending %s, which "
                             "the database does not hold: a table of its "
                             "ending alone is read with its folder of "
                             "tables", name);
            else
                loopy_i_diag(diag, 0, 0, "a move to %" LOOPY_PRI_POSITION
                             ", which is not in the database: the rules "
                             "changed, or the database is not of this game",
                             buf.items[i]);
            status = LOOPY_EGAME;
        }
        if (status != LOOPY_OK)
            goto fail;
    }
    qsort(list, n, sizeof *list, loopy_i_compare_moves);
    *moves = list;
    *count = n;
    list = NULL;
    status = LOOPY_OK;
    goto fail;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory");
    status = LOOPY_ENOMEM;
fail:
    free(list);
    loopy_i_position_buffer_release(&buf);
    if (s != NULL)
        scratch_give(db, s);
    return status;
}
