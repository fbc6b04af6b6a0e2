/*
 * open.c - opening a database: the header and the block index are read
 * and checked, the blocks are left where they are (in the file, read with
 * pread by each probe, or in the caller's memory).
 *
 * Every number that decides a later read is verified exactly here, before
 * use: the header's sizes against each other and the file's length, every
 * index entry (offsets back to back from the header's end to the index,
 * lengths within zstd's bound and, uncompressed, exactly what the block's
 * records need, first positions increasing and consistent with the
 * layout).  The checksums guard against accidents only; no memory access
 * depends on them.  What only a block's contents can show (its checksum,
 * its zstd frame, its records and gaps) is checked when it is read
 * (probe.c).
 */
/* pread */
#define _XOPEN_SOURCE 700

#include "db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

static const unsigned char graph_magic[8] = {0x89, 'L', 'G', 'R',
                                             '\r', '\n', 0x1a, '\n'};

static loopy_status damaged(loopy_diag *diag, const char *what)
{
    loopy_i_diag(diag, 0, 0, "damaged loopy database: %s", what);
    return LOOPY_EFORMAT;
}

/* Reads len bytes at offset from the database's file or memory into out. */
static loopy_status read_at(const loopy_db *db, uint64_t offset, size_t len,
                            unsigned char *out, loopy_diag *diag)
{
    size_t done = 0;

    if (db->fd < 0) {
        memcpy(out, db->memory + offset, len);
        return LOOPY_OK;
    }
    while (done < len) {
        ssize_t got = pread(db->fd, out + done, len - done,
                            (off_t)(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            /* The file was checked against its length when opened: it
             * has shrunk since, or the disk failed. */
            loopy_i_diag(diag, 0, 0, "loopy database: read failed at byte %"
                         PRIu64 ": %s", offset + done,
                         got < 0 ? strerror(errno) : "the file has shrunk");
            return LOOPY_EIO;
        }
        done += (size_t)got;
    }
    return LOOPY_OK;
}

loopy_status loopy_i_db_read(const loopy_db *db, uint64_t offset, size_t len,
                             unsigned char *out, loopy_diag *diag)
{
    return read_at(db, offset, len, out, diag);
}

static bool printable(const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] < 0x20 || p[i] > 0x7e)
            return false;
    return true;
}

/* Checks the fixed part of the header against the file's length. */
static loopy_status check_start(const unsigned char *p, uint64_t len,
                                loopy_diag *diag)
{
    uint64_t version;

    if (len >= sizeof graph_magic && memcmp(p, graph_magic, sizeof graph_magic) == 0) {
        loopy_i_diag(diag, 0, 0, "not a loopy database: a loopy binary graph "
                     "(read it with 'loopy solve')");
        return LOOPY_EFORMAT;
    }
    if (len < sizeof loopy_i_db_magic ||
        memcmp(p, loopy_i_db_magic, sizeof loopy_i_db_magic) != 0) {
        loopy_i_diag(diag, 0, 0, "not a loopy database: bad magic bytes "
                     "(expected \\x89LDB\\r\\n\\x1a\\n)");
        return LOOPY_EFORMAT;
    }
    if (len < DB_FIXED_BYTES + 8) {
        loopy_i_diag(diag, 0, 0, "truncated loopy database: %" PRIu64 " bytes, "
                     "shorter than the smallest header (%u bytes)", len,
                     DB_FIXED_BYTES + 8);
        return LOOPY_EFORMAT;
    }
    version = db_get(p + 8, 4);
    if (version != DB_VERSION) {
        loopy_i_diag(diag, 0, 0, "loopy database of format version %" PRIu64
                     "; this loopy reads version %u", version, DB_VERSION);
        return LOOPY_EFORMAT;
    }
    if (db_get(p + 12, 4) != DB_BYTE_ORDER)
        return damaged(diag, "bad byte-order mark (expected little-endian)");
    return LOOPY_OK;
}

/* The header's length, checked against the file's: *bytes. */
static loopy_status header_length(const unsigned char *p, uint64_t len,
                                  uint32_t *bytes, loopy_diag *diag)
{
    uint64_t h = db_get(p + 16, 4);

    if (h < DB_FIXED_BYTES + 8 || h > DB_HEADER_MAX || h % 8 != 0)
        return damaged(diag, "bad header length");
    if (h > len) {
        loopy_i_diag(diag, 0, 0, "truncated loopy database: %" PRIu64 " bytes, "
                     "shorter than its %" PRIu64 "-byte header", len, h);
        return LOOPY_EFORMAT;
    }
    *bytes = (uint32_t)h;
    return LOOPY_OK;
}

/* Decodes and checks the whole header, p[0 .. h->header_bytes). */
static loopy_status parse_header(const unsigned char *p, uint64_t len,
                                 db_header *h, loopy_diag *diag)
{
    uint64_t name_len, params_len, sum = 0, items, want;
    uint64_t width, k, base, max;

    if (db_get(p + h->header_bytes - 8, 8) !=
        loopy_i_checksum(p, h->header_bytes - 8, 1))
        return damaged(diag, "bad header checksum");
    h->flags = (uint32_t)db_get(p + 20, 4);
    width = db_get(p + 24, 4);
    k = db_get(p + 28, 4);
    base = db_get(p + 32, 4);
    max = db_get(p + 36, 4);
    h->n = db_get(p + 40, 8);
    h->index_size = db_get(p + 48, 8);
    for (int i = 0; i < 4; i++)
        h->count[i] = db_get(p + 56 + 8 * i, 8);
    h->lo = db_get(p + 88, 8);
    h->hi = db_get(p + 96, 8);
    h->blocks = db_get(p + 104, 8);
    h->index_offset = db_get(p + 112, 8);
    name_len = db_get(p + 120, 2);
    params_len = db_get(p + 122, 2);

    if ((h->flags & ~DB_FLAGS_KNOWN) != 0) {
        loopy_i_diag(diag, 0, 0, "damaged loopy database: unknown flag bits "
                     "0x%" PRIx32 " in the header (this loopy knows 0x%x)",
                     h->flags & ~DB_FLAGS_KNOWN, DB_FLAGS_KNOWN);
        return LOOPY_EFORMAT;
    }
    if (db_get(p + 124, 4) != 0)
        return damaged(diag, "nonzero reserved bytes in the header");
    if (name_len == 0 || name_len > DB_NAME_MAX || params_len > DB_PARAMS_MAX ||
        (DB_FIXED_BYTES + name_len + params_len + 7) / 8 * 8 + 8 != h->header_bytes)
        return damaged(diag, "bad name or parameter length");
    if (!printable(p + DB_FIXED_BYTES, (size_t)(name_len + params_len)))
        return damaged(diag, "a name or parameters that are not printable "
                             "ASCII");
    for (uint64_t i = DB_FIXED_BYTES + name_len + params_len;
         i < h->header_bytes - 8; i++)
        if (p[i] != 0)
            return damaged(diag, "nonzero padding in the header");
    /* A game's name, as the writer requires: letters, digits, '_', '-'. */
    for (uint64_t i = 0; i < name_len; i++) {
        unsigned char c = p[DB_FIXED_BYTES + i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return damaged(diag, "a game name with a character other than "
                                 "letters, digits, '_' and '-'");
    }
    memcpy(h->name, p + DB_FIXED_BYTES, (size_t)name_len);
    h->name[name_len] = '\0';
    memcpy(h->params, p + DB_FIXED_BYTES + name_len, (size_t)params_len);
    h->params[params_len] = '\0';

    if (width != 2 && width != 4)
        return damaged(diag, "bad record width (expected 2 or 4)");
    h->width = (uint32_t)width;
    if (k == 0 || k > DB_BLOCK_MAX)
        return damaged(diag, "bad number of positions per block");
    h->block_positions = (uint32_t)k;
    if (base > 1)
        return damaged(diag, "bad base (expected 0 or 1)");
    h->base = (uint32_t)base;
    if (max > (width == 2 ? DB_REMOTENESS_MAX_2 : DB_REMOTENESS_MAX_4))
        return damaged(diag, "a largest remoteness that its records cannot "
                             "hold");
    h->max_remoteness = (uint32_t)max;
    for (int i = 0; i < 4; i++) {
        if (h->count[i] > h->n - sum)
            return damaged(diag, "counts of values that do not add up to "
                                 "the positions");
        sum += h->count[i];
    }
    if (sum != h->n)
        return damaged(diag, "counts of values that do not add up to the "
                             "positions");
    if (h->n > h->index_size || h->hi > h->index_size || h->lo > h->hi ||
        (h->n == 0) != (h->hi == 0) || (h->n == 0 && h->lo != 0) ||
        (h->n > 0 && h->n > h->hi - h->lo))
        return damaged(diag, "bad range of positions");
    items = (h->flags & DB_FLAG_SPARSE) ? h->n : h->hi - h->lo;
    want = items / k + (items % k != 0);
    if (h->blocks != want)
        return damaged(diag, "bad block count");
    /* The index ends the file: its offset is the only value that fits. */
    if (h->blocks > (len - 8) / DB_ENTRY_BYTES ||
        h->index_offset != len - 8 - h->blocks * DB_ENTRY_BYTES ||
        h->index_offset < h->header_bytes)
        return damaged(diag, "bad offset of the block index (or a truncated "
                             "or extended file)");
    return LOOPY_OK;
}

uint32_t loopy_i_db_block_records(const loopy_db *db, uint64_t b)
{
    const db_header *h = &db->h;

    if (h->flags & DB_FLAG_SPARSE)
        return b + 1 < h->blocks ? h->block_positions
                                 : (uint32_t)(h->n - b * h->block_positions);
    return b + 1 < h->blocks ? h->block_positions
                             : (uint32_t)(h->hi - db->block[b].first);
}

/* Decodes and checks the block index, p[0 .. blocks * 32 + 8). */
static loopy_status parse_index(loopy_db *db, const unsigned char *p,
                                loopy_diag *diag)
{
    const db_header *h = &db->h;
    uint64_t bytes = h->blocks * DB_ENTRY_BYTES, offset = h->header_bytes;
    bool sparse = (h->flags & DB_FLAG_SPARSE) != 0;
    char what[160];

    if (db_get(p + bytes, 8) != loopy_i_checksum(p, bytes, 1))
        return damaged(diag, "bad checksum of the block index");
    for (uint64_t b = 0; b < h->blocks; b++) {
        const unsigned char *e = p + b * DB_ENTRY_BYTES;
        db_block *blk = &db->block[b];
        uint64_t records, lo_plain, hi_plain;

        blk->offset = db_get(e, 8);
        blk->compressed = (uint32_t)db_get(e + 8, 4);
        blk->plain = (uint32_t)db_get(e + 12, 4);
        blk->first = db_get(e + 16, 8);
        blk->checksum = db_get(e + 24, 8);
        /* Blocks lie back to back from the header to the index. */
        if (blk->offset != offset || blk->compressed == 0 ||
            blk->compressed > h->index_offset - offset) {
            snprintf(what, sizeof what, "bad offset or length of block %"
                     PRIu64 " in the index", b);
            return damaged(diag, what);
        }
        offset += blk->compressed;
        /* First positions: the layout's in dense mode; increasing, from
         * lo, below hi, with room for the block's positions in sparse. */
        if (!sparse ? blk->first != h->lo + b * h->block_positions
                    : (b == 0 ? blk->first != h->lo
                              : blk->first <= db->block[b - 1].first ||
                                    blk->first - db->block[b - 1].first <
                                        h->block_positions) ||
                          blk->first >= h->hi) {
            snprintf(what, sizeof what, "bad first position of block %" PRIu64
                     " in the index", b);
            return damaged(diag, what);
        }
        records = loopy_i_db_block_records(db, b);
        if (sparse && h->hi - blk->first < records) {
            snprintf(what, sizeof what, "bad first position of block %" PRIu64
                     " in the index", b);
            return damaged(diag, what);
        }
        /* Uncompressed: the records, and in sparse mode a number of 1 to
         * 10 bytes for each position (the first, then the gaps). */
        lo_plain = records * h->width + (sparse ? records : 0);
        hi_plain = records * h->width + (sparse ? records * DB_GAP_MAX_BYTES : 0);
        if (blk->plain < lo_plain || blk->plain > hi_plain ||
            blk->compressed > ZSTD_compressBound(blk->plain)) {
            snprintf(what, sizeof what, "bad uncompressed or compressed "
                     "length of block %" PRIu64 " in the index", b);
            return damaged(diag, what);
        }
    }
    if (offset != h->index_offset)
        return damaged(diag, "blocks that do not reach the block index");
    return LOOPY_OK;
}

/* Reads the header and the index of db (fd or memory set, and its
 * length). */
static loopy_status load(loopy_db *db, loopy_diag *diag)
{
    unsigned char header[DB_HEADER_MAX], *index = NULL;
    uint64_t len = db->file_bytes;
    size_t first = len < DB_FIXED_BYTES ? (size_t)len : DB_FIXED_BYTES;
    loopy_status status;

    CHECK_GOTO(read_at(db, 0, first, header, diag));
    CHECK_GOTO(check_start(header, len, diag));
    CHECK_GOTO(header_length(header, len, &db->h.header_bytes, diag));
    CHECK_GOTO(read_at(db, DB_FIXED_BYTES, db->h.header_bytes - DB_FIXED_BYTES,
                       header + DB_FIXED_BYTES, diag));
    CHECK_GOTO(parse_header(header, len, &db->h, diag));
    /* The index lies inside the file (parse_header), so these sizes are
     * the file's, below SIZE_MAX for a file in memory or mapped. */
    if (db->h.blocks >= SIZE_MAX / DB_ENTRY_BYTES)
        goto no_memory;
    index = loopy_i_malloc((size_t)db->h.blocks * DB_ENTRY_BYTES + 8, 1);
    db->block = loopy_i_malloc((size_t)db->h.blocks, sizeof *db->block);
    db->spare = loopy_i_calloc(DB_SPARES, sizeof *db->spare);
    if (index == NULL || db->block == NULL || db->spare == NULL)
        goto no_memory;
    for (int i = 0; i < DB_SPARES; i++)
        atomic_init(&db->spare[i], NULL);
    CHECK_GOTO(read_at(db, db->h.index_offset,
                       (size_t)db->h.blocks * DB_ENTRY_BYTES + 8, index, diag));
    CHECK_GOTO(parse_index(db, index, diag));
    loopy_i_free(index);
    return LOOPY_OK;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory");
    status = LOOPY_ENOMEM;
fail:
    loopy_i_free(index);
    return status;
}

static loopy_db *db_new(void)
{
    loopy_db *db = loopy_i_calloc(1, sizeof *db);

    if (db != NULL) {
        db->fd = -1;
        db->block = NULL;
        db->spare = NULL;
        db->memory = NULL;
    }
    return db;
}

loopy_status loopy_db_open(const char *path, loopy_db **out, loopy_diag *diag)
{
    loopy_db *db = NULL;
    loopy_status status;
    struct stat st;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (path == NULL) {
        loopy_i_diag(diag, 0, 0, "no database named");
        return LOOPY_EINVAL;
    }
    db = db_new();
    if (db == NULL) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    /* O_NONBLOCK: a FIFO named like a database is refused below instead
     * of waiting for a writer (reads of a regular file ignore the flag). */
    db->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (db->fd < 0 || fstat(db->fd, &st) != 0) {
        loopy_i_diag(diag, 0, 0, "cannot open: %s", strerror(errno));
        status = LOOPY_EIO;
        goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
        loopy_i_diag(diag, 0, 0, "not a regular file (a database is read at "
                     "random, not from a pipe)");
        status = LOOPY_EIO;
        goto fail;
    }
    db->file_bytes = (uint64_t)st.st_size;
    CHECK_GOTO(load(db, diag));
    *out = db;
    return LOOPY_OK;

fail:
    loopy_db_close(db);
    return status;
}

loopy_status loopy_db_open_memory(const void *bytes, size_t len,
                                  loopy_db **out, loopy_diag *diag)
{
    loopy_db *db;
    loopy_status status;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (bytes == NULL && len > 0)
        return LOOPY_EINVAL;
    db = db_new();
    if (db == NULL) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    db->memory = bytes;
    db->file_bytes = len;
    status = load(db, diag);
    if (status != LOOPY_OK) {
        loopy_db_close(db);
        return status;
    }
    *out = db;
    return LOOPY_OK;
}

void loopy_i_db_scratch_free(db_scratch *s)
{
    if (s == NULL)
        return;
    ZSTD_freeDCtx(s->dctx);
    loopy_i_free(s->compressed);
    loopy_i_free(s->plain);
    loopy_i_free(s->position);
    for (int i = 0; i < DB_CACHED_BLOCKS; i++) {
        loopy_i_free(s->cached[i].plain);
        loopy_i_free(s->cached[i].position);
    }
    loopy_i_free(s);
}

void loopy_db_close(loopy_db *db)
{
    if (db == NULL)
        return;
    if (db->spare != NULL)
        for (int i = 0; i < DB_SPARES; i++)
            loopy_i_db_scratch_free(atomic_load(&db->spare[i]));
    if (db->fd >= 0)
        close(db->fd);
    loopy_i_free(db->spare);
    loopy_i_free(db->block);
    loopy_i_free(db->tables);
    loopy_i_free(db);
}

/* ---- What the header says ---- */

const char *loopy_db_game_name(const loopy_db *db)
{
    return db->h.name;
}

const char *loopy_db_game_params(const loopy_db *db)
{
    return db->h.params;
}

int loopy_db_misere(const loopy_db *db)
{
    return (db->h.flags & DB_FLAG_MISERE) != 0;
}

int loopy_db_symmetric(const loopy_db *db)
{
    return (db->h.flags & DB_FLAG_SYMMETRIC) != 0;
}

int loopy_db_sparse(const loopy_db *db)
{
    return (db->h.flags & DB_FLAG_SPARSE) != 0;
}

uint32_t loopy_db_base(const loopy_db *db)
{
    return db->h.base;
}

uint64_t loopy_db_size(const loopy_db *db)
{
    return db->h.n;
}

uint64_t loopy_db_index_size(const loopy_db *db)
{
    return db->h.index_size;
}

uint64_t loopy_db_count(const loopy_db *db, loopy_outcome outcome)
{
    return (unsigned)outcome < 4 ? db->h.count[outcome] : 0;
}

uint32_t loopy_db_max_remoteness(const loopy_db *db)
{
    return db->h.max_remoteness;
}

unsigned loopy_db_record_width(const loopy_db *db)
{
    return db->h.width;
}

uint32_t loopy_db_block_positions(const loopy_db *db)
{
    return db->h.block_positions;
}

uint64_t loopy_db_block_count(const loopy_db *db)
{
    return db->h.blocks;
}
