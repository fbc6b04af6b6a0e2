/*
 * test_db_damage.c - damaged databases are refused with the message that
 * names the damage, with and without recomputed checksums: every header
 * field, every truncation, every byte of the block index, bytes of every
 * block, blocks whose zstd frames are valid but whose records or positions
 * are not, and files that are no database at all.
 */
#include "check.h"
#include "db_util.h"
#include "internal.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* Opens b and iterates it: the status of the first failure, its message
 * in diag (LOOPY_OK when all is well). */
static loopy_status open_and_read(const tdb_bytes *b, loopy_diag *diag, bool *at_open)
{
    loopy_db *db = NULL;
    loopy_status status = tdb_open_mem(b, &db, diag);

    *at_open = status != LOOPY_OK;
    if (status == LOOPY_OK) {
        CHECK(db != NULL);
        status = loopy_db_iterate(db, NULL, NULL, diag);
        /* On threads, the same verdict. */
        loopy_diag threaded;
        memset(&threaded, 0, sizeof threaded);
        CHECK_MSG(loopy_i_db_iterate_threads(db, NULL, NULL, 3, &threaded) ==
                      status,
                  "a walk on 3 threads: %s; in order: %s", threaded.message,
                  diag != NULL ? diag->message : "");
    } else {
        CHECK(db == NULL);
    }
    loopy_db_close(db);
    return status;
}

static bool refused_with(const tdb_bytes *b, const char *pattern, const char *what)
{
    loopy_diag diag;
    bool at_open;
    loopy_status status = open_and_read(b, &diag, &at_open);

    CHECK_MSG(status == LOOPY_EFORMAT && strstr(diag.message, pattern) != NULL &&
                  diag.line == 0 && diag.column == 0,
              "%s: status %d, message '%s', expected '%s'", what, (int)status,
              diag.message, pattern);
    return status == LOOPY_EFORMAT;
}

typedef struct field_case {
    const char *name;
    unsigned offset, bytes;
    int op;        /* 0: set to value, 1: add value, 2: xor value */
    uint64_t value;
    const char *fixed;     /* the message with recomputed checksums, or
                              NULL: still a valid database */
    const char *unfixed;   /* the message without (NULL: bad header checksum) */
} field_case;

static void header_fields(const tdb_bytes *base, bool sparse)
{
    const field_case cases[] = {
        {"magic", 0, 1, 2, 0x01, "bad magic bytes", "bad magic bytes"},
        {"magic letter", 3, 1, 2, 0x20, "bad magic bytes", "bad magic bytes"},
        {"version", 8, 4, 0, 2, "format version 2", "format version 2"},
        {"byte order", 12, 4, 0, 0x04030201, "byte-order mark", "byte-order mark"},
        {"header length", 16, 4, 1, 8, "bad name or parameter length", NULL},
        {"header length odd", 16, 4, 1, 1, "bad header length", "bad header length"},
        {"header length huge", 16, 4, 0, 1u << 20, "bad header length", "bad header length"},
        {"unknown flag", 20, 4, 2, 0x100, "unknown flag bits 0x100", NULL},
        {"misere flag", 20, 4, 2, DB_FLAG_MISERE, NULL, NULL},
        {"symmetric flag", 20, 4, 2, DB_FLAG_SYMMETRIC, NULL, NULL},
        /* Read as dense, a sparse file has too few blocks for its index
         * space; read as sparse, a dense block's records are too long. */
        {"sparse flag", 20, 4, 2, DB_FLAG_SPARSE,
         sparse ? "bad block count"
                : "bad uncompressed or compressed length of block 0", NULL},
        {"record width 3", 24, 4, 0, 3, "bad record width", NULL},
        {"record width", 24, 4, 2, 6, "length of block 0 in the index", NULL},
        {"positions per block 0", 28, 4, 0, 0, "bad number of positions per block", NULL},
        {"positions per block", 28, 4, 0, 4096, "bad block count", NULL},
        {"base 2", 32, 4, 0, 2, "bad base", NULL},
        {"base", 32, 4, 2, 1, NULL, NULL},
        {"largest remoteness too large", 36, 4, 0, 0x40000000, "cannot hold", NULL},
        {"largest remoteness + 1", 36, 4, 1, 1, "the largest remoteness in the blocks is", NULL},
        {"largest remoteness - 1", 36, 4, 1, UINT64_MAX, "an invalid record in block", NULL},
        {"positions", 40, 8, 1, 1, "do not add up", NULL},
        {"index size", 48, 8, 0, 5, "bad range of positions", NULL},
        {"index size larger", 48, 8, 1, 1000, NULL, NULL},
        {"count D", 56, 8, 1, 1, "do not add up", NULL},
        {"count W", 64, 8, 1, UINT64_MAX, "do not add up", NULL},
        {"count L huge", 72, 8, 0, UINT64_MAX, "do not add up", NULL},
        {"first position", 88, 8, 1, 1, "bad first position of block 0", NULL},
        {"last position + 1", 96, 8, 1, 1,
         sparse ? "a last position other than the header's"
                : "bad uncompressed or compressed length of block", NULL},
        {"last position huge", 96, 8, 0, UINT64_MAX, "bad range of positions", NULL},
        {"block count", 104, 8, 1, 1, "bad block count", NULL},
        {"block count huge", 104, 8, 0, UINT64_MAX / 2, "bad block count", NULL},
        {"index offset", 112, 8, 1, 32, "bad offset of the block index", NULL},
        /* Into the padding, whose zero is not a character. */
        {"name length", 120, 2, 1, 1, "not printable ASCII", NULL},
        {"name length + 8", 120, 2, 1, 8, "bad name or parameter length", NULL},
        {"name length 0", 120, 2, 0, 0, "bad name or parameter length", NULL},
        {"parameter length", 122, 2, 1, 300, "bad name or parameter length", NULL},
        {"reserved", 124, 4, 0, 1, "nonzero reserved bytes", NULL},
        {"name character", 128, 1, 0, 0x01, "not printable ASCII", NULL},
        {"name letter", 128, 1, 2, 0x01, NULL, NULL},
        {"checksum", 0, 8, 0, 0, "bad header checksum", "bad header checksum"},
    };
    uint64_t h = db_get(base->data + 16, 4);

    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const field_case *c = &cases[k];
        unsigned offset = strcmp(c->name, "checksum") == 0 ? (unsigned)h - 8 : c->offset;
        char what[120];

        for (int fixed = 0; fixed < 2; fixed++) {
            tdb_bytes b = tdb_copy(base);
            uint64_t v = db_get(b.data + offset, c->bytes);
            uint64_t mask = c->bytes == 8 ? UINT64_MAX
                                          : ((uint64_t)1 << (8 * c->bytes)) - 1;
            const char *want;

            v = c->op == 0 ? c->value : c->op == 1 ? v + c->value : v ^ c->value;
            db_put(b.data + offset, v & mask, c->bytes);
            if (fixed && strcmp(c->name, "checksum") != 0)
                tdb_fix_checksums(&b);
            want = fixed ? c->fixed : c->unfixed ? c->unfixed : "bad header checksum";
            snprintf(what, sizeof what, "%s header, %s%s", sparse ? "sparse" : "dense",
                     c->name, fixed ? ", checksum fixed" : "");
            if (want != NULL) {
                refused_with(&b, want, what);
            } else {
                loopy_diag diag;
                bool at_open;
                CHECK_MSG(open_and_read(&b, &diag, &at_open) == LOOPY_OK,
                          "%s: %s", what, diag.message);
            }
            free(b.data);
        }
        check_case_end();
    }
}

/* The index of a database: blocks, offset. */
static void index_place(const tdb_bytes *b, uint64_t *blocks, uint64_t *index)
{
    *blocks = db_get(b->data + 104, 8);
    *index = db_get(b->data + 112, 8);
}

static void damage_index(const tdb_bytes *base, const char *what)
{
    uint64_t blocks, index;
    char name[160];

    index_place(base, &blocks, &index);
    for (uint64_t i = index; i < base->len; i++) {
        for (int fixed = 0; fixed < 2; fixed++) {
            tdb_bytes b = tdb_copy(base);
            loopy_diag diag;
            bool at_open;
            loopy_status status;

            b.data[i] ^= 0x01;
            if (fixed)
                tdb_fix_checksums(&b);
            snprintf(name, sizeof name, "%s: index byte %" PRIu64 "%s", what,
                     i - index, fixed ? ", checksums fixed" : "");
            status = open_and_read(&b, &diag, &at_open);
            /* The index's own checksum is the first check; with it fixed,
             * a changed block checksum shows when the block is read, the
             * rest when the index is read. */
            if (fixed && (i - index >= blocks * DB_ENTRY_BYTES ||
                          (i - index) % DB_ENTRY_BYTES >= 24))
                /* A checksum, which fixing restores. */
                CHECK_MSG(status == LOOPY_OK, "%s: %s", name, diag.message);
            else if (!fixed)
                CHECK_MSG(status == LOOPY_EFORMAT && at_open &&
                              strstr(diag.message, "bad checksum of the block index"),
                          "%s: %d '%s'", name, (int)status, diag.message);
            else
                CHECK_MSG(status == LOOPY_EFORMAT &&
                              strncmp(diag.message, "damaged loopy database: ", 24) == 0 &&
                              strstr(diag.message, "block") != NULL,
                          "%s: %d '%s'", name, (int)status, diag.message);
            free(b.data);
        }
    }
    check_case_end();
}

/* Whether the zstd frames a[0 .. len) and b[0 .. len) decompress to the
 * same bytes: a bit that zstd never reads (as some of a table
 * description's) changes nothing, and the file is then as good as
 * before. */
static bool same_content(const unsigned char *a, const unsigned char *b,
                         size_t len)
{
    unsigned long long size = ZSTD_getFrameContentSize(a, len);
    bool same = false;
    void *x, *y;

    if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR ||
        size > (1u << 24))
        return false;
    x = malloc((size_t)size + 1);
    y = malloc((size_t)size + 1);
    if (x != NULL && y != NULL) {
        size_t nx = ZSTD_decompress(x, (size_t)size + 1, a, len);
        size_t ny = ZSTD_decompress(y, (size_t)size + 1, b, len);
        same = !ZSTD_isError(nx) && !ZSTD_isError(ny) && nx == ny &&
               memcmp(x, y, nx) == 0;
    }
    free(x);
    free(y);
    return same;
}

/* A byte at the start, the middle and the end of each block's frame
 * flipped: the block is refused when read, unless the frame still
 * decompresses to the same bytes (checked here with zstd itself), when it
 * must answer as before; such flips are rare, and only with the checksums
 * recomputed (loopy's block checksum covers the frame's bytes). */
static void damage_blocks(const tdb_bytes *base, const char *what)
{
    uint64_t blocks, index, benign = 0, flips = 0;
    char name[160], want[64];
    loopy_db *intact = NULL;
    loopy_diag diag0;

    index_place(base, &blocks, &index);
    CHECK(tdb_open_mem(base, &intact, &diag0) == LOOPY_OK);
    for (uint64_t k = 0; k < blocks && intact != NULL; k++) {
        const unsigned char *e = base->data + index + k * DB_ENTRY_BYTES;
        uint64_t off = db_get(e, 8), len = db_get(e + 8, 4), first = db_get(e + 16, 8);
        uint64_t places[3] = {off, off + len / 2, off + len - 1};

        for (int j = 0; j < 3; j++) {
            for (int fixed = 0; fixed < 2; fixed++) {
                tdb_bytes b = tdb_copy(base);
                loopy_db *db = NULL;
                loopy_diag diag;
                loopy_outcome o, o0;
                uint32_t r, r0;

                b.data[places[j]] ^= 0x10;
                if (fixed)
                    tdb_fix_checksums(&b);
                snprintf(name, sizeof name, "%s: block %" PRIu64 " byte %" PRIu64
                         "%s", what, k, places[j] - off, fixed ? ", checksums fixed" : "");
                /* The index is intact: the file opens; the block is
                 * refused when read, by a probe or the iteration. */
                CHECK_MSG(tdb_open_mem(&b, &db, &diag) == LOOPY_OK, "%s: %s", name,
                          diag.message);
                flips++;
                if (db != NULL && fixed &&
                    same_content(base->data + off, b.data + off, len)) {
                    benign++;
                    CHECK(loopy_db_probe(intact, first, &o0, &r0) == LOOPY_OK);
                    CHECK_MSG(loopy_db_probe(db, first, &o, &r) == LOOPY_OK &&
                                  o == o0 && r == r0,
                              "%s: the same content answers otherwise", name);
                    memset(&diag, 0, sizeof diag);
                    CHECK_MSG(loopy_db_iterate(db, NULL, NULL, &diag) == LOOPY_OK,
                              "%s: the same content is refused: %s", name,
                              diag.message);
                } else if (db != NULL) {
                    CHECK_MSG(loopy_db_probe(db, first, &o, &r) == LOOPY_EFORMAT,
                              "%s: probe", name);
                    memset(&diag, 0, sizeof diag);
                    CHECK(loopy_db_iterate(db, NULL, NULL, &diag) == LOOPY_EFORMAT);
                    snprintf(want, sizeof want, fixed ? "block %" PRIu64
                             : "bad checksum of block %" PRIu64, k);
                    CHECK_MSG(strncmp(diag.message, "damaged loopy database: ", 24) == 0 &&
                                  strstr(diag.message, want) != NULL,
                              "%s: '%s'", name, diag.message);
                    /* Other blocks still answer. */
                    if (k > 0) {
                        loopy_status st = loopy_db_probe(
                            db, db_get(e - DB_ENTRY_BYTES + 16, 8), &o, &r);
                        /* (Its first index may be absent in dense mode.) */
                        CHECK_MSG(st == LOOPY_OK || st == LOOPY_EINVAL,
                                  "%s: block %" PRIu64 ": %d", name, k - 1, (int)st);
                    }
                }
                loopy_db_close(db);
                free(b.data);
            }
        }
    }
    /* The checks above are no test if most flips were benign. */
    CHECK_MSG(benign * 20 <= flips, "%s: %" PRIu64 " of %" PRIu64
              " flipped bytes changed nothing", what, benign, flips);
    loopy_db_close(intact);
    check_case_end();
}

static void truncations(const tdb_bytes *base, const char *what)
{
    char name[160];

    for (size_t len = 0; len < base->len; len++) {
        tdb_bytes b = tdb_copy(base);
        loopy_diag diag;
        bool at_open;
        loopy_status status;

        b.len = len;
        status = open_and_read(&b, &diag, &at_open);
        snprintf(name, sizeof name, "%s cut to %zu bytes", what, len);
        CHECK_MSG(status == LOOPY_EFORMAT && at_open &&
                      (len < 8 ? strstr(diag.message, "bad magic bytes") != NULL
                       : len < db_get(base->data + 16, 4)
                           ? strstr(diag.message, "truncated loopy database") != NULL
                           : strstr(diag.message, "bad offset of the block index") != NULL),
                  "%s: %d '%s'", name, (int)status, diag.message);
        free(b.data);
    }
    {
        tdb_bytes b = tdb_copy(base);
        b.data[b.len++] = 0;
        refused_with(&b, "bad offset of the block index", what);
        free(b.data);
    }
    check_case_end();
}

/* Replaces block k of base by a zstd frame of plain[0..len) and fixes the
 * offsets, lengths and checksums: a file whose frames are all valid. */
static tdb_bytes repack(const tdb_bytes *base, uint64_t k, const unsigned char *plain,
                    size_t len)
{
    uint64_t blocks, index;
    size_t bound = ZSTD_compressBound(len);
    unsigned char *frame = tdb_alloc(bound);
    size_t flen = ZSTD_compress(frame, bound, plain, len, 3);
    tdb_bytes out = {NULL, 0, 0};
    uint64_t h = db_get(base->data + 16, 4), offset = h;
    unsigned char *entries;

    index_place(base, &blocks, &index);
    entries = tdb_alloc(blocks * DB_ENTRY_BYTES + 8);
    memcpy(entries, base->data + index, blocks * DB_ENTRY_BYTES);
    tdb_append(&out, base->data, h);
    for (uint64_t i = 0; i < blocks; i++) {
        unsigned char *e = entries + i * DB_ENTRY_BYTES;
        uint64_t off = db_get(e, 8), clen = db_get(e + 8, 4);
        db_put(e, offset, 8);
        if (i == k) {
            tdb_append(&out, frame, flen);
            db_put(e + 8, flen, 4);
            db_put(e + 12, len, 4);
            offset += flen;
        } else {
            tdb_append(&out, base->data + off, clen);
            offset += clen;
        }
    }
    db_put(out.data + 112, offset, 8);
    tdb_append(&out, entries, blocks * DB_ENTRY_BYTES + 8);
    tdb_fix_checksums(&out);
    free(frame);
    free(entries);
    return out;
}

/* The uncompressed bytes of block k of base (a valid file). */
static unsigned char *plain_block(const tdb_bytes *base, uint64_t k, size_t *len)
{
    uint64_t blocks, index;
    const unsigned char *e;
    unsigned char *out;

    index_place(base, &blocks, &index);
    e = base->data + index + k * DB_ENTRY_BYTES;
    *len = db_get(e + 12, 4);
    out = tdb_alloc(*len + 16);
    CHECK(ZSTD_decompress(out, *len, base->data + db_get(e, 8), db_get(e + 8, 4)) == *len);
    return out;
}

/* Blocks with valid frames and bad contents. */
static void bad_contents(const tdb_bytes *dense, const tdb_bytes *sparse)
{
    uint64_t blocks, index;
    unsigned width;
    size_t len;
    unsigned char *p;
    tdb_bytes b;

    /* Dense: an invalid record (kind 0, low 2), and absent ends. */
    width = (unsigned)db_get(dense->data + 24, 4);
    index_place(dense, &blocks, &index);
    p = plain_block(dense, 1, &len);
    b = repack(dense, 1, p, len);
    {
        /* Repacked unchanged: still a good database. */
        loopy_diag diag;
        bool at_open;
        CHECK_MSG(open_and_read(&b, &diag, &at_open) == LOOPY_OK, "repacked: %s",
                  diag.message);
    }
    free(b.data);
    db_put(p + width, 2, width);
    b = repack(dense, 1, p, len);
    refused_with(&b, "an invalid record in block 1", "dense invalid record");
    free(b.data);
    free(p);
    p = plain_block(dense, 0, &len);
    db_put(p, 0, width);
    b = repack(dense, 0, p, len);
    refused_with(&b, "an absent first or last position in block 0", "dense first");
    free(b.data);
    free(p);
    p = plain_block(dense, blocks - 1, &len);
    db_put(p + len - width, 0, width);
    b = repack(dense, blocks - 1, p, len);
    refused_with(&b, "an absent first or last position in block", "dense last");
    free(b.data);
    free(p);
    check_case_end();

    /* Sparse: an absent record, gaps that overrun, overlong, short. */
    width = (unsigned)db_get(sparse->data + 24, 4);
    index_place(sparse, &blocks, &index);
    {
        uint32_t k = (uint32_t)db_get(sparse->data + 28, 4);
        size_t gaps = (size_t)k * width;

        p = plain_block(sparse, 1, &len);
        db_put(p, 0, width);
        b = repack(sparse, 1, p, len);
        refused_with(&b, "an absent position listed in block 1", "sparse absent");
        free(b.data);
        free(p);

        p = plain_block(sparse, 1, &len);
        p[len - 1] = 0x7f; /* the last gap runs into block 2 */
        b = repack(sparse, 1, p, len);
        refused_with(&b, "bad positions in block 1", "sparse gap too long");
        free(b.data);
        free(p);

        p = plain_block(sparse, 1, &len);
        p[len] = 0; /* a byte too many */
        b = repack(sparse, 1, p, len + 1);
        refused_with(&b, "bytes after the positions of block 1", "sparse extra byte");
        free(b.data);
        free(p);

        /* The first position other than the index's. */
        p = plain_block(sparse, 1, &len);
        p[gaps] ^= 0x01;
        b = repack(sparse, 1, p, len);
        refused_with(&b, "a first position other than the index's in block 1",
                     "sparse first position");
        free(b.data);
        free(p);

        /* An overlong gap: the first gap as 0x80 | g, 0x00. */
        p = plain_block(sparse, 1, &len);
        while (p[gaps] & 0x80) /* past the first position */
            gaps++;
        gaps++;
        if (p[gaps] < 0x80) {
            unsigned char *q = tdb_alloc(len + 1);
            memcpy(q, p, gaps);
            q[gaps] = (unsigned char)(p[gaps] | 0x80);
            q[gaps + 1] = 0;
            memcpy(q + gaps + 2, p + gaps + 1, len - gaps - 1);
            b = repack(sparse, 1, q, len + 1);
            refused_with(&b, "bad positions in block 1", "sparse overlong gap");
            free(b.data);
            free(q);
        }
        free(p);

        /* The last block ending before the header's last position. */
        p = plain_block(sparse, blocks - 1, &len);
        if (p[len - 1] > 0 && p[len - 1] < 0x80) {
            p[len - 1]--;
            b = repack(sparse, blocks - 1, p, len);
            refused_with(&b, "a last position other than the header's", "sparse last");
            free(b.data);
        }
        free(p);

        /* A short block: its records but a gap missing. */
        p = plain_block(sparse, 0, &len);
        b = repack(sparse, 0, p, len - 1);
        refused_with(&b, "block 0", "sparse short");
        free(b.data);
        free(p);
    }
    check_case_end();
}

static void foreign_files(void)
{
    loopy_db *db = (loopy_db *)(uintptr_t)1;
    loopy_diag diag;
    tdb_bytes b = {NULL, 0, 0};
    loopy_graph *g = NULL;
    uint32_t tail[2] = {0, 1}, head[2] = {1, 0};

    CHECK(tdb_open_file((const unsigned char *)"3 1\n1 2\n", 8, &db, &diag) == LOOPY_EFORMAT);
    CHECK(db == NULL && strstr(diag.message, "not a loopy database: bad magic") != NULL);
    CHECK(tdb_open_file(NULL, 0, &db, &diag) == LOOPY_EFORMAT);
    CHECK(strstr(diag.message, "bad magic") != NULL);
    CHECK(loopy_graph_from_edges(2, 2, tail, head, &g) == LOOPY_OK);
    CHECK(loopy_write_binary(g, tdb_append, &b) == LOOPY_OK);
    CHECK(tdb_open_mem(&b, &db, &diag) == LOOPY_EFORMAT);
    CHECK_MSG(strstr(diag.message, "a loopy binary graph") != NULL, "%s", diag.message);
    loopy_graph_free(g);
    free(b.data);
    memset(&diag, 0, sizeof diag);
    CHECK(loopy_db_open("/nonexistent/x.ldb", &db, &diag) == LOOPY_EIO);
    CHECK(db == NULL && strstr(diag.message, "cannot open") != NULL);
    CHECK(loopy_db_open("/tmp", &db, &diag) == LOOPY_EIO);
    CHECK(strstr(diag.message, "not a regular file") != NULL);
    CHECK(loopy_db_open(NULL, &db, &diag) == LOOPY_EINVAL);
    CHECK(loopy_db_open_memory(NULL, 5, &db, &diag) == LOOPY_EINVAL);
    loopy_db_close(NULL);
    check_case_end();
}

/* A sparse and a dense database of tic-tac-toe, with several blocks. */
/* A database may name only a game: one whose name (checksums made right)
 * is a path, or has a character a game's name cannot have, is refused when
 * the file is opened, so that nothing can make loopy_db_open_game load a
 * file; and the writer refuses to write such a name. */
static void game_names(const tdb_bytes *base, tdb_expect *e)
{
    static const char *const names[] = {"../t/x.so", "/tmp/a.so", "tic tac t"};
    const loopy_i_db_layout layout = {64, DB_LAYOUT_SPARSE, 2, 0, 0};

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        tdb_bytes b = tdb_copy(base);
        loopy_db *db = NULL;
        loopy_diag diag;

        /* "tictactoe" is 9 letters, as each forged name. */
        CHECK(b.data[120] == 9 && b.data[121] == 0);
        memcpy(b.data + 128, names[i], 9);
        tdb_fix_checksums(&b);
        memset(&diag, 0, sizeof diag);
        CHECK_MSG(tdb_open_mem(&b, &db, &diag) == LOOPY_EFORMAT && db == NULL &&
                      strstr(diag.message, "a game name with a character") !=
                          NULL,
                  "'%s': %s", names[i], diag.message);
        loopy_db_close(db);
        free(b.data);
        check_case_end();
    }
    {
        const char *name = e->name;
        tdb_bytes out = {NULL, 0, 0};
        loopy_i_db_source src;

        e->name = "x/y";
        src = tdb_source_of(e);
        CHECK(loopy_i_db_write(&src, &layout, tdb_append, &out) == LOOPY_EINVAL);
        free(out.data);
        e->name = name;
        check_case_end();
    }
}

static void damage_cases(void)
{
    loopy_game_solve_options opt = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game *g = NULL;
    loopy_game_solution *s = NULL;
    tdb_expect e;
    const loopy_i_db_layout sparse_layout = {64, DB_LAYOUT_SPARSE, 2, 0, 0};
    const loopy_i_db_layout dense_layout = {2048, DB_LAYOUT_DENSE, 4, 0, 0};
    tdb_bytes sparse, dense;

    memset(&e, 0, sizeof e);
    opt.no_symmetry = 1;
    if (loopy_game_open("tictactoe", &g, NULL) != LOOPY_OK ||
        loopy_game_solve_graph(g, &opt, &s, NULL) != LOOPY_OK) {
        CHECK(0);
        return;
    }
    tdb_expect_game(s, g, false, false, &e);
    sparse = tdb_write_layout(&e, &sparse_layout);
    dense = tdb_write_layout(&e, &dense_layout);
    check_case_end();
    header_fields(&sparse, true);
    header_fields(&dense, false);
    truncations(&sparse, "sparse");
    truncations(&dense, "dense");
    damage_index(&sparse, "sparse");
    damage_index(&dense, "dense");
    damage_blocks(&sparse, "sparse");
    damage_blocks(&dense, "dense");
    bad_contents(&dense, &sparse);
    game_names(&sparse, &e);
    free(sparse.data);
    free(dense.data);
    tdb_expect_free(&e);
    loopy_game_solution_free(s);
    loopy_game_close(g);
}

int main(void)
{
    foreign_files();
    damage_cases();
    return check_finish("test_db_damage");
}
