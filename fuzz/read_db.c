/*
 * read_db.c - fuzz the database loader (lib/db).
 *
 * An input is one of two things:
 *  - a file's bytes, when it starts with byte 0x89 as every database does:
 *    opened from an exact heap copy (loopy_db_open_memory), and for one
 *    input in 16 (by the sum of its bytes) also from a temporary file
 *    (loopy_db_open), which must agree; then the same on a copy whose
 *    checksums (blocks, index, header) are recomputed, so that damage
 *    reaches the structural checks (a fuzzer cannot forge a 64-bit
 *    checksum by mutation);
 *  - anything else: a description of a database (layout, positions,
 *    values; see describe()), which the library's writer writes (an
 *    internal entry point, loopy_i_db_write, that chooses the layout) and
 *    which must then read back exactly; the rest of the input then names
 *    one byte of the written file to change, and the changed file, its
 *    checksums recomputed, is checked as above.  Mutating a file rarely
 *    makes a valid zstd frame; this way every check of the records and
 *    positions inside the frames is a few mutations away.
 * A refusal must be LOOPY_EFORMAT with a one-line printable message and no
 * line or column.  A database accepted is probed and iterated: the
 * iteration is in strictly increasing order, below the index-space size,
 * of valid values; when it succeeds it holds the header's counts, the
 * positions it gave probe to the same values (about 200 of them, evenly
 * spread, when there are more) and their neighbours not given are absent;
 * when it fails, the positions it gave before still probe to their
 * values.  Two iterations give the same result.  When the iteration
 * succeeds, loopy_db_stats_compute agrees with it (one row per
 * remoteness present).
 *
 * The seed corpus (fuzz/corpus/read_db/) is written by
 * "build/tests/test_db --write-corpus fuzz/corpus/read_db", and its
 * stats-huge-remoteness by "build/tests/test_db_stats --write-corpus
 * fuzz/corpus/read_db".
 */
/* mkstemp, fdopen */
#define _DEFAULT_SOURCE

#include "fuzz.h"

#include "../lib/db/db_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Iterate only below this many records (a 4 KiB file can announce 10^8
 * records of one repeated value), and probe about this many positions of
 * the iteration (with their neighbours): probes are slow under the
 * sanitizers, and a block's answers are all alike. */
#define RECORD_BUDGET (1u << 14)
#define PROBES 200u

typedef struct list {
    uint64_t n, cap;
    loopy_position *pos;
    uint8_t *outcome;
    uint32_t *rem;
} list;

static int collect(void *ctx, loopy_position pos, loopy_outcome outcome,
                   uint32_t remoteness)
{
    list *l = ctx;

    if (l->n == l->cap) {
        l->cap = l->cap * 2 + 64;
        l->pos = realloc(l->pos, l->cap * sizeof *l->pos);
        l->outcome = realloc(l->outcome, l->cap);
        l->rem = realloc(l->rem, l->cap * sizeof *l->rem);
        FUZZ_REQUIRE(l->pos != NULL && l->outcome != NULL && l->rem != NULL,
                     "out of memory");
    }
    l->pos[l->n] = pos;
    l->outcome[l->n] = (uint8_t)outcome;
    l->rem[l->n] = remoteness;
    l->n++;
    return 0;
}

static void list_free(list *l)
{
    free(l->pos);
    free(l->outcome);
    free(l->rem);
    memset(l, 0, sizeof *l);
}

static void require_good_refusal(loopy_status status, const loopy_diag *diag,
                                 const char *what)
{
    size_t len = strnlen(diag->message, sizeof diag->message);

    FUZZ_REQUIRE(status == LOOPY_EFORMAT, "%s: status %d (%s): %s", what,
                 (int)status, loopy_strerror(status), diag->message);
    FUZZ_REQUIRE(len > 0 && len < sizeof diag->message, "%s: empty message", what);
    for (size_t i = 0; i < len; i++)
        FUZZ_REQUIRE((unsigned char)diag->message[i] >= 0x20 &&
                         (unsigned char)diag->message[i] < 0x7f,
                     "%s: byte %d in the message", what, diag->message[i]);
    FUZZ_REQUIRE(diag->line == 0 && diag->column == 0, "%s: a place", what);
}

/* Probes p and requires the value given, or absence (want NULL). */
static void require_probe(const loopy_db *db, loopy_position p, const list *l,
                          uint64_t i)
{
    loopy_outcome o;
    uint32_t r;
    loopy_status status = loopy_db_probe(db, p, &o, &r);

    if (l == NULL) {
        FUZZ_REQUIRE(status == LOOPY_EINVAL, "probe of absent %" PRIu64
                     ": status %d", p, (int)status);
        return;
    }
    FUZZ_REQUIRE(status == LOOPY_OK && o == l->outcome[i] && r == l->rem[i],
                 "probe of %" PRIu64 ": status %d, %d %" PRIu32 ", iterated %d %"
                 PRIu32, p, (int)status, (int)o, r, l->outcome[i], l->rem[i]);
}

/* loopy_db_stats_compute on a database whose iteration gave l: its
 * counts, one row per remoteness present in increasing order (however
 * large: a row each, not a table up to the largest), each record counted
 * in its row, and the longest of each value with its first position. */
static void require_stats(const loopy_db *db, const list *l)
{
    loopy_db_stats st;
    loopy_diag diag;
    loopy_status status;
    uint64_t sum[4] = {0, 0, 0, 0};
    uint32_t longest[4] = {LOOPY_NONE, LOOPY_NONE, LOOPY_NONE, LOOPY_NONE};
    loopy_position example[4] = {0, 0, 0, 0};

    memset(&diag, 0, sizeof diag);
    status = loopy_db_stats_compute(db, &st, &diag);
    FUZZ_REQUIRE(status == LOOPY_OK, "stats: %d '%s' after a good iteration",
                 (int)status, diag.message);
    FUZZ_REQUIRE(st.row_count <= l->n &&
                     (st.rows == NULL) == (st.row_count == 0),
                 "stats: %" PRIu32 " rows for %" PRIu64 " positions",
                 st.row_count, l->n);
    for (uint32_t i = 0; i < st.row_count; i++) {
        const loopy_db_stats_row *row = &st.rows[i];
        FUZZ_REQUIRE(i == 0 || row->remoteness > st.rows[i - 1].remoteness,
                     "stats: rows not increasing at %" PRIu32, i);
        FUZZ_REQUIRE(row->count[LOOPY_DRAW] == 0 &&
                         row->count[LOOPY_WIN] + row->count[LOOPY_LOSE] +
                                 row->count[LOOPY_TIE] > 0,
                     "stats: row %" PRIu32 " empty or with draws", i);
        for (int k = 1; k < 4; k++)
            sum[k] += row->count[k];
    }
    for (uint64_t i = 0; i < l->n; i++) {
        uint32_t lo = 0, hi = st.row_count;
        int o = l->outcome[i];
        if (o == LOOPY_DRAW)
            continue;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (st.rows[mid].remoteness < l->rem[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        FUZZ_REQUIRE(lo < st.row_count && st.rows[lo].remoteness == l->rem[i] &&
                         st.rows[lo].count[o] > 0,
                     "stats: no row for remoteness %" PRIu32, l->rem[i]);
        if (longest[o] == LOOPY_NONE || l->rem[i] > longest[o]) {
            longest[o] = l->rem[i];
            example[o] = l->pos[i];
        }
    }
    for (int k = 0; k < 4; k++) {
        FUZZ_REQUIRE(st.count[k] == loopy_db_count(db, (loopy_outcome)k),
                     "stats: count of %d", k);
        FUZZ_REQUIRE(k == LOOPY_DRAW || sum[k] == st.count[k],
                     "stats: rows of %d sum to %" PRIu64, k, sum[k]);
        FUZZ_REQUIRE(k == LOOPY_DRAW ||
                         (st.longest_remoteness[k] == longest[k] &&
                          (longest[k] == LOOPY_NONE ||
                           st.longest[k] == example[k])),
                     "stats: longest of %d", k);
    }
    loopy_db_stats_release(&st);
}

/* The checks on an accepted database; the iteration's status, and in
 * *out (when not NULL) what it gave.  A database of more records than the
 * budget is only probed (out->cap stays 0). */
static loopy_status check_open(const loopy_db *db, list *out)
{
    uint64_t n = loopy_db_size(db), sum = 0, count[4] = {0, 0, 0, 0};
    uint64_t records = loopy_db_sparse(db) ? n
                       : loopy_db_block_count(db) * loopy_db_block_positions(db);
    uint32_t max = loopy_db_max_remoteness(db);
    loopy_diag diag, again_diag;
    loopy_status status, again;
    uint64_t stride;
    list l, l2;

    memset(&l, 0, sizeof l);
    memset(&l2, 0, sizeof l2);
    for (int k = 0; k < 4; k++)
        sum += loopy_db_count(db, (loopy_outcome)k);
    FUZZ_REQUIRE(sum == n, "counts %" PRIu64 " of %" PRIu64, sum, n);
    FUZZ_REQUIRE(n <= loopy_db_index_size(db), "more positions than indices");
    FUZZ_REQUIRE(loopy_db_record_width(db) == 2 || loopy_db_record_width(db) == 4,
                 "width %u", loopy_db_record_width(db));
    FUZZ_REQUIRE(strlen(loopy_db_game_name(db)) > 0, "no name");
    require_probe(db, loopy_db_index_size(db), NULL, 0);
    require_probe(db, UINT64_MAX, NULL, 0);
    if (records > RECORD_BUDGET || loopy_db_block_count(db) > RECORD_BUDGET) {
        loopy_outcome o;
        uint32_t r;
        status = loopy_db_probe(db, 0, &o, &r);
        FUZZ_REQUIRE(status == LOOPY_OK || status == LOOPY_EINVAL ||
                         status == LOOPY_EFORMAT, "probe: %d", (int)status);
        return LOOPY_OK;
    }

    memset(&diag, 0, sizeof diag);
    status = loopy_db_iterate(db, collect, &l, &diag);
    stride = l.n / PROBES + 1;
    for (uint64_t i = 0; i < l.n; i++) {
        FUZZ_REQUIRE(i == 0 || l.pos[i] > l.pos[i - 1], "iteration not increasing");
        FUZZ_REQUIRE(l.pos[i] < loopy_db_index_size(db), "position past the index space");
        FUZZ_REQUIRE(l.outcome[i] <= LOOPY_TIE, "outcome %d", l.outcome[i]);
        FUZZ_REQUIRE(l.outcome[i] == LOOPY_DRAW ? l.rem[i] == LOOPY_NONE
                                                : l.rem[i] <= max,
                     "remoteness %" PRIu32 " of outcome %d", l.rem[i], l.outcome[i]);
        count[l.outcome[i]]++;
        if (i % stride == 0 || i + 1 == l.n)
            require_probe(db, l.pos[i], &l, i);
    }
    if (status == LOOPY_OK) {
        FUZZ_REQUIRE(l.n == n, "iterated %" PRIu64 " of %" PRIu64, l.n, n);
        for (int k = 0; k < 4; k++)
            FUZZ_REQUIRE(count[k] == loopy_db_count(db, (loopy_outcome)k),
                         "count of %d", k);
        for (uint64_t i = 0; i < l.n; i += stride) {
            if (l.pos[i] + 1 < loopy_db_index_size(db) &&
                (i + 1 == l.n || l.pos[i + 1] != l.pos[i] + 1))
                require_probe(db, l.pos[i] + 1, NULL, 0);
            if (l.pos[i] > 0 && (i == 0 || l.pos[i - 1] != l.pos[i] - 1))
                require_probe(db, l.pos[i] - 1, NULL, 0);
        }
        require_stats(db, &l);
    } else {
        require_good_refusal(status, &diag, "iteration");
    }
    /* Again, with whatever scratch the probes left: the same answer. */
    memset(&again_diag, 0, sizeof again_diag);
    again = loopy_db_iterate(db, collect, &l2, &again_diag);
    FUZZ_REQUIRE(again == status && l2.n == l.n &&
                     strcmp(again_diag.message, diag.message) == 0,
                 "iterated twice: %d '%s', then %d '%s'", (int)status,
                 diag.message, (int)again, again_diag.message);
    list_free(&l2);
    if (out != NULL)
        *out = l;
    else
        list_free(&l);
    return status;
}

/* Opens from a temporary file: the same verdict and message as from
 * memory. */
static void check_file(const uint8_t *data, size_t size, loopy_status status,
                       const loopy_diag *diag)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    loopy_db *db = NULL;
    loopy_diag file_diag;
    loopy_status file_status;
    FILE *f;
    int fd;

    snprintf(path, sizeof path, "%s/loopy-fuzz-db-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    fd = mkstemp(path);
    FUZZ_REQUIRE(fd >= 0, "mkstemp %s", path);
    f = fdopen(fd, "wb");
    FUZZ_REQUIRE(f != NULL, "fdopen");
    FUZZ_REQUIRE(fwrite(data, 1, size, f) == size && fclose(f) == 0, "writing %s",
                 path);
    memset(&file_diag, 0, sizeof file_diag);
    file_status = loopy_db_open(path, &db, &file_diag);
    unlink(path);
    FUZZ_REQUIRE(file_status == status &&
                     strcmp(file_diag.message, diag->message) == 0,
                 "from a file: %d '%s', from memory: %d '%s'", (int)file_status,
                 file_diag.message, (int)status, diag->message);
    if (db != NULL)
        check_open(db, NULL);
    loopy_db_close(db);
}

/* Opens a file's bytes from an exact heap copy and checks what comes. */
static void check_bytes(const uint8_t *data, size_t size, bool with_file)
{
    uint8_t *copy = malloc(size ? size : 1);
    loopy_db *db = (loopy_db *)(uintptr_t)1;
    loopy_diag diag;
    loopy_status status;

    FUZZ_REQUIRE(copy != NULL, "out of memory");
    memcpy(copy, data, size);
    memset(&diag, 0, sizeof diag);
    status = loopy_db_open_memory(copy, size, &db, &diag);
    if (status == LOOPY_OK) {
        FUZZ_REQUIRE(db != NULL, "no database");
        check_open(db, NULL);
    } else {
        FUZZ_REQUIRE(db == NULL, "*out set on failure");
        require_good_refusal(status, &diag, "open");
    }
    loopy_db_close(db);
    if (with_file)
        check_file(data, size, status, &diag);
    free(copy);
}

static void check_file_bytes(const uint8_t *data, size_t size)
{
    unsigned sum = 0;
    uint8_t *fixed;

    for (size_t i = 0; i < size; i++)
        sum += data[i];
    check_bytes(data, size, sum % 16 == 0);
    fixed = malloc(size ? size : 1);
    FUZZ_REQUIRE(fixed != NULL, "out of memory");
    memcpy(fixed, data, size);
    fuzz_fix_db_checksums(fixed, size);
    if (memcmp(fixed, data, size) != 0)
        check_bytes(fixed, size, false);
    free(fixed);
}

/* ---- Databases described by the input ---- */

typedef struct feed {
    const uint8_t *p;
    size_t left;
} feed;

static unsigned next_byte(feed *f)
{
    if (f->left == 0)
        return 0;
    f->left--;
    return *f->p++;
}

/* A number: the byte itself mostly, extremes for bytes >= 0xf0. */
static uint64_t next_number(feed *f, uint64_t modulus)
{
    static const uint64_t extreme[16] = {
        0x3fff, 0x4000, 0x3fffffff, 0x40000000, 127, 128, 16383, 16384,
        1000, (uint64_t)1 << 20, (uint64_t)1 << 32, (uint64_t)1 << 40,
        (uint64_t)1 << 56, (uint64_t)1 << 62, UINT64_MAX / 3, UINT64_MAX - 1};
    unsigned b = next_byte(f);

    return b < 0xf0 ? (modulus ? b % modulus : b) : extreme[b & 15];
}

typedef struct writer_sink {
    uint8_t *data;
    size_t len, cap;
} writer_sink;

static int sink(void *ctx, const void *bytes, size_t len)
{
    writer_sink *s = ctx;

    if (len > s->cap - s->len) {
        size_t cap = (s->len + len) * 2 + 256;
        uint8_t *grown = realloc(s->data, cap);
        FUZZ_REQUIRE(grown != NULL, "out of memory");
        s->data = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->len, bytes, len);
    s->len += len;
    return 0;
}

/*
 * Input: byte 0 the layout (bits 0-1: auto, dense, sparse, auto; bit 2:
 * 4-byte records; bit 3 misere; bit 4 symmetric; bit 5 base 1), byte 1
 * positions per block (1 + b % 64; 0xff: the default), byte 2 the count
 * (at most 100), then the first position, then per position its value
 * (outcome, remoteness) and the gap to the next, then the index-space
 * size beyond the last position.  The rest names a byte to change and
 * how.
 */
static void describe(const uint8_t *data, size_t size)
{
    feed f = {data, size};
    unsigned layout_byte = next_byte(&f), k_byte = next_byte(&f);
    uint64_t n = next_byte(&f) % 101, max = 0, m = 0;
    loopy_position *pos = calloc(n + 1, sizeof *pos);
    uint8_t *outcome = calloc(n + 1, 1);
    uint32_t *rem = calloc(n + 1, sizeof *rem);
    loopy_position p = next_number(&f, 0);
    loopy_i_db_layout layout;
    loopy_i_db_source src;
    writer_sink out = {NULL, 0, 0};
    loopy_status status;
    loopy_diag diag;
    loopy_db *db = NULL;
    list l;
    bool too_far = false;

    FUZZ_REQUIRE(pos != NULL && outcome != NULL && rem != NULL, "out of memory");
    for (uint64_t i = 0; i < n && !too_far; i++) {
        uint64_t r = next_number(&f, 0), gap = next_number(&f, 8);

        pos[m] = p;
        outcome[m] = (uint8_t)(next_byte(&f) % 4);
        rem[m] = outcome[m] == LOOPY_DRAW ? LOOPY_NONE
                 : r > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)r;
        if (outcome[m] != LOOPY_DRAW && rem[m] > max)
            max = rem[m];
        m++;
        too_far = gap >= UINT64_MAX - 1 - p; /* the next would pass 2^64 - 2 */
        p += gap + 1;
    }
    memset(&layout, 0, sizeof layout);
    layout.mode = (layout_byte & 3) == 3 ? DB_LAYOUT_AUTO : (int)(layout_byte & 3);
    layout.width = layout_byte & 4 ? 4 : 0;
    layout.block_positions = k_byte == 0xff ? 0 : 1 + k_byte % 64;
    /* Dense blocks cover the whole range: not when it is huge. */
    if (layout.mode == DB_LAYOUT_DENSE && m > 0 &&
        (pos[m - 1] - pos[0]) / (layout.block_positions ? layout.block_positions
                                                        : DB_DENSE_BLOCK) > 65536)
        layout.mode = DB_LAYOUT_AUTO;
    layout.threads = 1;
    src.n = m;
    src.word = NULL;
    src.record = NULL;
    src.byte = NULL;
    src.mapped = false;
    src.position = pos;
    src.outcome = outcome;
    src.remoteness = rem;
    src.name = "fuzz";
    src.params = "described";
    {
        uint64_t beyond = next_number(&f, 0);
        uint64_t last = m > 0 ? pos[m - 1] : 0;
        src.index_size = beyond >= UINT64_MAX - last ? UINT64_MAX : last + 1 + beyond;
    }
    src.end = 0;
    src.base = (layout_byte >> 5) & 1;
    src.misere = (layout_byte & 8) != 0;
    src.symmetric = (layout_byte & 16) != 0;

    status = loopy_i_db_write(&src, &layout, sink, &out);
    if (max > DB_REMOTENESS_MAX_4) {
        FUZZ_REQUIRE(status == LOOPY_ETOOBIG, "remoteness %" PRIu64 " written: %d",
                     max, (int)status);
        goto done;
    }
    FUZZ_REQUIRE(status == LOOPY_OK, "writer: %d", (int)status);
    memset(&diag, 0, sizeof diag);
    status = loopy_db_open_memory(out.data, out.len, &db, &diag);
    FUZZ_REQUIRE(status == LOOPY_OK, "written, then refused: %s", diag.message);
    FUZZ_REQUIRE(loopy_db_size(db) == m && loopy_db_index_size(db) == src.index_size &&
                     loopy_db_misere(db) == src.misere &&
                     loopy_db_symmetric(db) == src.symmetric &&
                     loopy_db_base(db) == src.base &&
                     loopy_db_max_remoteness(db) == max &&
                     strcmp(loopy_db_game_params(db), "described") == 0,
                 "header differs");
    FUZZ_REQUIRE(layout.mode == DB_LAYOUT_AUTO ||
                     loopy_db_sparse(db) == (layout.mode == DB_LAYOUT_SPARSE),
                 "layout %d, sparse %d", layout.mode, loopy_db_sparse(db));
    FUZZ_REQUIRE(loopy_db_record_width(db) ==
                     (layout.width == 4 || max > DB_REMOTENESS_MAX_2 ? 4u : 2u),
                 "width %u", loopy_db_record_width(db));
    memset(&l, 0, sizeof l);
    status = check_open(db, &l);
    if (l.cap > 0 || m == 0) {
        FUZZ_REQUIRE(status == LOOPY_OK && l.n == m, "written, then %d after %"
                     PRIu64 " of %" PRIu64, (int)status, l.n, m);
        for (uint64_t i = 0; i < m; i++)
            FUZZ_REQUIRE(l.pos[i] == pos[i] && l.outcome[i] == outcome[i] &&
                             l.rem[i] == rem[i],
                         "position %" PRIu64 " read back differently", i);
    }
    list_free(&l);
    loopy_db_close(db);
    db = NULL;

    /* One change, with checksums made right again. */
    if (out.len > 0 && f.left >= 3) {
        uint64_t at = (next_byte(&f) << 8 | next_byte(&f)) % out.len;
        out.data[at] ^= (uint8_t)(1 + next_byte(&f) % 255);
        fuzz_fix_db_checksums(out.data, out.len);
        check_bytes(out.data, out.len, false);
    }
done:
    loopy_db_close(db);
    free(out.data);
    free(pos);
    free(outcome);
    free(rem);
}

FUZZ_TARGET(read_db)
{
    if (size > 0 && data[0] == 0x89)
        check_file_bytes(data, size);
    else
        describe(data, size);
    return 0;
}
