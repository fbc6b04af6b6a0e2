/*
 * test_db_parts.c - a database written in parts (lib/db/write_parts.c, what
 * every rank of loopy-mpi does) is byte for byte the database
 * loopy_i_db_write writes for the whole.  Random words (dense and sparse,
 * Draws, Ties, remotenesses past the 2-byte record's), cut into random
 * parts (empty ones, parts smaller than a block, so that a block's tail
 * comes from several parts), in random layouts (blocks of 1 to 300
 * positions and the default, every mode, both widths); then the refusals.
 * The same words written at offsets (lib/db/write.c's window writer), a
 * few blocks at a time, are the same bytes, the header written last.
 */
#include "check.h"
#include "db_util.h"
#include "gen.h"

#include <string.h>

typedef struct words {
    uint32_t *w;
    uint64_t size;
} words;

static uint32_t word_of(loopy_outcome outcome, uint32_t remoteness)
{
    return outcome == LOOPY_DRAW
               ? 0u
               : (uint32_t)outcome << LOOPY_I_WORD_SHIFT | remoteness;
}

/* size words, present with probability density/1000, remotenesses below
 * max_rem. */
static words random_words(gen_rng *rng, uint64_t size, uint32_t density,
                          uint32_t max_rem)
{
    words ws;

    ws.size = size;
    ws.w = tdb_alloc((size_t)size * sizeof *ws.w + 1);
    for (uint64_t i = 0; i < size; i++) {
        if (gen_below32(rng, 1000) >= density) {
            ws.w[i] = LOOPY_I_WORD_ABSENT;
            continue;
        }
        /* Draws, Wins, Loses and a few Ties. */
        uint32_t k = gen_below32(rng, 20);
        loopy_outcome o = k < 3    ? LOOPY_DRAW
                          : k < 11 ? LOOPY_WIN
                          : k < 19 ? LOOPY_LOSE
                                   : LOOPY_TIE;
        ws.w[i] = word_of(o, gen_below32(rng, max_rem));
    }
    return ws;
}

static loopy_i_db_source meta_of(const words *ws, bool misere, bool symmetric)
{
    loopy_i_db_source m;

    memset(&m, 0, sizeof m);
    m.name = "parts";
    m.params = "test";
    m.index_size = ws->size;
    m.misere = misere;
    m.symmetric = symmetric;
    m.word = ws->w;
    for (uint64_t i = 0; i < ws->size; i++)
        m.n += ws->w[i] != LOOPY_I_WORD_ABSENT;
    return m;
}

/* The values of ws from index i on, as words, or as 2-byte or 1-byte
 * records (form 0, 1, 2) in rec and byte (ws->size each). */
static loopy_i_db_values values_at(const words *ws, int form,
                                   const uint16_t *rec, const uint8_t *byte,
                                   uint64_t i)
{
    loopy_i_db_values v = {NULL, NULL, NULL, false};

    if (form == 0)
        v.word = ws->w + i;
    else if (form == 1)
        v.record = rec + i;
    else
        v.byte = byte + i;
    return v;
}

/* A loopy_i_db_frames_fn, as loopy-mpi's spill: the window's frames
 * appended to a tdb_bytes; fail_at > 0 fails the fail_at-th window. */
typedef struct spilled {
    tdb_bytes b;
    uint64_t windows, fail_at;
} spilled;

static int spill_into(void *ctx, unsigned char *const *frame,
                      const db_block *entry, uint64_t count)
{
    spilled *sp = ctx;

    if (++sp->windows == sp->fail_at)
        return 1;
    CHECK(count > 0);
    for (uint64_t b = 0; b < count; b++)
        CHECK(tdb_append(&sp->b, frame[b], entry[b].compressed) == 0);
    return 0;
}

/* The bytes of ws written in the given parts (cut[0] = 0 < ... <=
 * cut[parts] = size), as the ranks of loopy-mpi write them, from its
 * values in form (values_at; rec and byte hold them); false when a step
 * fails (its status in *status). */
static bool write_parts(const words *ws, int form, const uint16_t *rec,
                        const uint8_t *byte, const loopy_i_db_source *meta,
                        const loopy_i_db_layout *layout, const uint64_t *cut,
                        int parts, tdb_bytes *out, loopy_status *status)
{
    loopy_i_db_tally *t = tdb_alloc((size_t)parts * sizeof *t);
    loopy_i_db_piece *piece = tdb_alloc((size_t)parts * sizeof *piece);
    /* Odd parts (even ones for 1-byte records) go through a spill, a
     * window of 1, 2 or the writer's choice of blocks at a time. */
    spilled *spill = tdb_alloc((size_t)parts * sizeof *spill);
    unsigned char header[DB_HEADER_MAX], *index = NULL;
    uint64_t offset, next_block = 0, frame_bytes = 0;
    size_t header_len;
    db_shape s;
    bool ok = false;

    memset(piece, 0, (size_t)parts * sizeof *piece);
    memset(spill, 0, (size_t)parts * sizeof *spill);
    for (int r = 0; r < parts; r++) {
        loopy_i_db_values v = values_at(ws, form, rec, byte, cut[r]);
        *status = loopy_i_db_part_tally(&v, cut[r], cut[r + 1], &t[r]);
        if (*status != LOOPY_OK)
            goto done;
    }
    *status = loopy_i_db_parts_shape(meta, layout, t, parts, &s);
    if (*status != LOOPY_OK)
        goto done;
    {
        /* Every part's need in one pass, as loopy-mpi takes them. */
        uint64_t *needs = tdb_alloc((size_t)parts * sizeof *needs);
        loopy_i_db_tail_needs(&s, t, parts, needs);
        for (int r = 0; r < parts; r++)
            CHECK(needs[r] == loopy_i_db_tail_need(&s, t, parts, r));
        free(needs);
    }
    for (int r = 0; r < parts; r++) {
        /* The tail: the heads the later parts send. */
        uint64_t need = 0, at = 0;
        loopy_i_db_item *tail;
        for (int u = r + 1; u < parts; u++)
            need += loopy_i_db_tail_items(&s, t, parts, r, u);
        CHECK(need < (uint64_t)s.k);
        tail = tdb_alloc((size_t)need * sizeof *tail + 1);
        for (int u = r + 1; u < parts; u++) {
            uint64_t c = loopy_i_db_tail_items(&s, t, parts, r, u);
            /* What loopy-mpi takes instead: the parts' first items in
             * turn until the need is met. */
            uint64_t walk = loopy_i_db_part_items(&s, &t[u]);
            CHECK(c == (need - at < walk ? need - at : walk));
            loopy_i_db_values v = values_at(ws, form, rec, byte, cut[u]);
            loopy_i_db_part_head(&s, &t[u], &v, c, tail + at);
            at += c;
        }
        loopy_i_db_values v = values_at(ws, form, rec, byte, cut[r]);
        CHECK(need == loopy_i_db_tail_need(&s, t, parts, r));
        bool streamed = (r + form) % 2 == 1;
        loopy_i_db_window_blocks = (uint64_t)(r % 3);
        *status = loopy_i_db_part_compress(
            &s, t, parts, r, &v, tail, need, layout->threads,
            streamed ? spill_into : NULL, &spill[r], &piece[r]);
        loopy_i_db_window_blocks = 0;
        free(tail);
        if (*status != LOOPY_OK)
            goto done;
        if (streamed) {
            /* Every frame went to the spill, none is held. */
            CHECK(piece[r].frame == NULL);
            CHECK(spill[r].b.len == piece[r].bytes);
            CHECK(piece[r].blocks == 0 || spill[r].windows > 0);
        }
        CHECK(piece[r].blocks == 0 || piece[r].first_block == next_block);
        next_block += piece[r].blocks;
        frame_bytes += piece[r].bytes;
    }
    CHECK(next_block == s.blocks);
    index = tdb_alloc((size_t)s.blocks * DB_ENTRY_BYTES + 8);
    offset = loopy_i_db_header_bytes(meta);
    for (int r = 0; r < parts; r++) {
        loopy_i_db_piece_entries(&piece[r], offset,
                                 index + piece[r].first_block * DB_ENTRY_BYTES);
        offset += piece[r].bytes;
    }
    loopy_i_db_parts_finish(&s, meta, frame_bytes, index, header, &header_len);
    CHECK(tdb_append(out, header, header_len) == 0);
    for (int r = 0; r < parts; r++) {
        if (piece[r].frame == NULL)
            CHECK(piece[r].bytes == 0 ||
                  tdb_append(out, spill[r].b.data, spill[r].b.len) == 0);
        else
            CHECK(loopy_i_db_piece_write(&piece[r], tdb_append, out) ==
                  LOOPY_OK);
    }
    CHECK(tdb_append(out, index, (size_t)s.blocks * DB_ENTRY_BYTES + 8) == 0);
    ok = true;
done:
    for (int r = 0; r < parts; r++) {
        loopy_i_db_piece_free(&piece[r]);
        free(spill[r].b.data);
    }
    free(spill);
    free(piece);
    free(t);
    free(index);
    return ok;
}

/* Random cuts of 0 .. size into parts (some empty, some tiny). */
/* A file written at offsets (a loopy_write_at_fn): what it holds, whether
 * the header (offset 0) came and anything after it, and a write that
 * fails on purpose (the fail-th, counting from 1; 0 for none). */
typedef struct at_file {
    tdb_bytes b;
    bool header_seen, after_header;
    uint64_t calls, fail;
} at_file;

static int put_at(void *ctx, const void *p, size_t len, uint64_t offset)
{
    at_file *f = ctx;

    if (++f->calls == f->fail)
        return 1;
    if (f->header_seen)
        f->after_header = true;
    if (offset == 0)
        f->header_seen = true;
    if (offset + len > f->b.cap) {
        size_t cap = (size_t)(offset + len) * 2;
        unsigned char *data = tdb_alloc(cap);
        memset(data, 0xEE, cap);
        if (f->b.len > 0)
            memcpy(data, f->b.data, f->b.len);
        free(f->b.data);
        f->b.data = data;
        f->b.cap = cap;
    }
    memcpy(f->b.data + offset, p, len);
    if (offset + len > f->b.len)
        f->b.len = (size_t)(offset + len);
    return 0;
}

/* The writer at offsets, a window of 1 to 5 blocks or its own choice:
 * the bytes of the writer in order (which holds them until the header),
 * the header last; a failing write stops it with LOOPY_EIO, with no
 * header written. */
static void write_at_case(gen_rng *rng, const loopy_i_db_source *meta,
                          const loopy_i_db_layout *layout,
                          const tdb_bytes *want, loopy_status want_status,
                          uint64_t seed)
{
    at_file f;
    loopy_status status;

    memset(&f, 0, sizeof f);
    loopy_i_db_window_blocks = gen_below(rng, 6);
    status = loopy_i_db_write_at(meta, layout, put_at, &f);
    CHECK_MSG(status == want_status &&
                  (status != LOOPY_OK ||
                   (f.b.len == want->len &&
                    memcmp(f.b.data, want->data, want->len) == 0 &&
                    f.header_seen && !f.after_header)),
              "seed %" PRIu64 ": written at offsets, window %" PRIu64
              ": status %d, %zu bytes, in order %zu", seed,
              loopy_i_db_window_blocks, (int)status, f.b.len, want->len);
    if (status == LOOPY_OK && f.calls > 0) {
        uint64_t calls = f.calls;

        free(f.b.data);
        memset(&f, 0, sizeof f);
        f.fail = 1 + gen_below(rng, calls);
        status = loopy_i_db_write_at(meta, layout, put_at, &f);
        CHECK_MSG(status == LOOPY_EIO && !f.header_seen,
                  "seed %" PRIu64 ": write %" PRIu64 " of %" PRIu64
                  " failed: status %d, header written %d", seed, f.fail,
                  calls, (int)status, (int)f.header_seen);
    }
    loopy_i_db_window_blocks = 0;
    free(f.b.data);
}

static void random_cuts(gen_rng *rng, uint64_t size, int parts, uint64_t *cut)
{
    cut[0] = 0;
    cut[parts] = size;
    for (int r = 1; r < parts; r++)
        cut[r] = gen_below(rng, size + 1);
    /* Sorted (parts is small). */
    for (int i = 1; i < parts; i++)
        for (int j = i; j > 1 && cut[j] < cut[j - 1]; j--) {
            uint64_t x = cut[j];
            cut[j] = cut[j - 1];
            cut[j - 1] = x;
        }
    /* Now and then a part that is one index or a few. */
    if (parts > 2 && gen_below32(rng, 3) == 0) {
        uint64_t x = cut[1] + gen_below(rng, 3);
        cut[2] = x > cut[3] ? cut[3] : x;
    }
}

static void random_case(uint64_t seed, bool quick)
{
    gen_rng rng;
    loopy_i_db_layout layout;
    static const uint32_t ks[] = {0, 0, 1, 2, 3, 7, 64};
    uint64_t size, cut[10];
    uint32_t density, max_rem;
    int parts;

    gen_rng_seed(&rng, seed);
    size = gen_below32(&rng, 8) == 0 ? gen_below(&rng, quick ? 20000 : 120000)
                                     : gen_below(&rng, 3000);
    density = gen_below32(&rng, 3) == 0 ? 1 + gen_below32(&rng, 60)
                                        : 200 + gen_below32(&rng, 801);
    max_rem = gen_below32(&rng, 5) == 0 ? 70000 : 1 + gen_below32(&rng, 300);
    memset(&layout, 0, sizeof layout);
    layout.block_positions = gen_below32(&rng, 4) == 0
                                 ? 1 + gen_below32(&rng, 300)
                                 : ks[gen_below32(&rng, 7)];
    layout.mode = (int)gen_below32(&rng, 3);
    layout.width = gen_below32(&rng, 4) == 0 ? 4 : 0;
    layout.level = gen_below32(&rng, 2) == 0 ? 1 : 0;
    layout.threads = 1 + (int)gen_below32(&rng, 2);
    parts = 1 + (int)gen_below32(&rng, 9);

    words ws = random_words(&rng, size, density, max_rem);
    /* The values as words, or as 2-byte records (remotenesses that fit),
     * or as 1-byte records (those of a tier solve: no Draw, remotenesses
     * to 83). */
    int form = max_rem <= LOOPY_I_BYTE_MAX_REMOTENESS ? (int)(seed % 3)
               : max_rem <= LOOPY_I_RECORD_LOW        ? (int)(seed % 2)
                                                      : 0;
    for (uint64_t i = 0; form == 2 && i < size; i++)
        if (ws.w[i] == 0)
            ws.w[i] = word_of(LOOPY_WIN, 1); /* no Draw in 1-byte records */
    loopy_i_db_source meta = meta_of(&ws, seed % 2 == 0, seed % 3 == 0);
    tdb_bytes want = {NULL, 0, 0}, got = {NULL, 0, 0};
    loopy_status want_status =
        loopy_i_db_write(&meta, &layout, tdb_append, &want);
    loopy_status got_status;

    uint16_t *rec = tdb_alloc((size_t)size * sizeof *rec + 1);
    uint8_t *byte = tdb_alloc((size_t)size + 1);
    for (uint64_t i = 0; i < size; i++) {
        loopy_outcome o;
        uint32_t r;
        rec[i] = !loopy_i_word_value(ws.w[i], &o, &r) ? LOOPY_I_RECORD_ABSENT
                 : o == LOOPY_DRAW
                     ? LOOPY_I_RECORD_DRAW
                     : (uint16_t)((unsigned)o << LOOPY_I_RECORD_SHIFT | r);
        byte[i] = form == 2 ? loopy_i_byte_of_record(rec[i]) : 0;
    }
    write_at_case(&rng, &meta, &layout, &want, want_status, seed);
    random_cuts(&rng, size, parts, cut);
    write_parts(&ws, form, rec, byte, &meta, &layout, cut, parts, &got,
                &got_status);
    free(rec);
    free(byte);
    CHECK_MSG(want_status == got_status,
              "seed %" PRIu64 ": status %d, in parts %d", seed,
              (int)want_status, (int)got_status);
    CHECK_MSG(
        want_status != LOOPY_OK ||
            (got.len == want.len && memcmp(got.data, want.data, want.len) == 0),
        "seed %" PRIu64 ": %" PRIu64 " words in %d parts, K %u, mode %d: "
        "%zu bytes, the whole's %zu",
        seed, size, parts, layout.block_positions, layout.mode, got.len,
        want.len);
    free(want.data);
    free(got.data);
    free(ws.w);
    check_case_end();
}

/* What the writer in parts refuses. */
static void refusals(void)
{
    gen_rng rng;
    uint64_t cut[3] = {0, 50, 100};
    loopy_i_db_layout layout;
    loopy_i_db_tally t[2];
    loopy_i_db_piece piece;
    loopy_status status;
    tdb_bytes b = {NULL, 0, 0};
    db_shape s;

    gen_rng_seed(&rng, 99);
    words ws = random_words(&rng, 100, 900, 20);
    loopy_i_db_source meta = meta_of(&ws, false, false);
    memset(&layout, 0, sizeof layout);
    CHECK(write_parts(&ws, 0, NULL, NULL, &meta, &layout, cut, 2, &b, &status));
    free(b.data);

    /* A word, a record, a byte that is not solved. */
    loopy_i_db_values v0 = {ws.w, NULL, NULL, false},
                      v1 = {ws.w + 50, NULL, NULL, false};
    uint16_t reached_record[3] = {LOOPY_I_RECORD_DRAW, 2, 0};
    uint8_t reached_byte[2] = {2, LOOPY_I_BYTE_REACHED};
    loopy_i_db_values vr = {NULL, reached_record, NULL, false};
    loopy_i_db_values vb = {NULL, NULL, reached_byte, false};
    ws.w[70] = LOOPY_I_WORD_SEEN;
    CHECK(loopy_i_db_part_tally(&v1, 50, 100, &t[1]) == LOOPY_EINVAL);
    CHECK(loopy_i_db_part_tally(&vr, 0, 1, &t[1]) == LOOPY_OK);
    CHECK(loopy_i_db_part_tally(&vr, 0, 2, &t[1]) == LOOPY_EINVAL);
    CHECK(loopy_i_db_part_tally(&vb, 0, 1, &t[1]) == LOOPY_OK);
    CHECK(loopy_i_db_part_tally(&vb, 0, 2, &t[1]) == LOOPY_EINVAL);
    ws.w[70] = 0;
    CHECK(loopy_i_db_part_tally(&v0, 0, 50, &t[0]) == LOOPY_OK);
    CHECK(loopy_i_db_part_tally(&v1, 50, 100, &t[1]) == LOOPY_OK);
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_OK);
    /* Parts that leave a gap, or do not reach the end. */
    t[1].from = 51;
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_EINVAL);
    t[1].from = 50;
    meta.index_size = 101;
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_EINVAL);
    meta.index_size = 100;
    /* A bad name, a bad width, a remoteness a 2-byte record cannot hold. */
    meta.name = "no spaces";
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_EINVAL);
    meta.name = "parts";
    layout.width = 3;
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_EINVAL);
    layout.width = 2;
    t[0].max_remoteness = DB_REMOTENESS_MAX_2 + 1;
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_ETOOBIG);
    t[0].max_remoteness = 0;
    layout.width = 0;
    layout.block_positions = 7;
    CHECK(loopy_i_db_parts_shape(&meta, &layout, t, 2, &s) == LOOPY_OK);
    /* A tail of the wrong length. */
    CHECK(loopy_i_db_tail_items(&s, t, 2, 0, 1) > 0 || 50 % 7 == 0);
    CHECK(loopy_i_db_part_compress(&s, t, 2, 0, &v0, NULL, 0, 1, NULL, NULL, &piece) ==
          LOOPY_EINVAL);
    CHECK(piece.blocks == 0 && piece.frame == NULL);
    CHECK(loopy_i_db_part_compress(&s, t, 2, 2, &v0, NULL, 0, 1, NULL, NULL,
                                   &piece) == LOOPY_EINVAL);
    /* A spill that fails at its first, second or third window of one
     * block: LOOPY_EIO, no entries left, and no window after it. */
    for (uint64_t fail = 1; fail <= 3; fail++) {
        spilled sp;
        memset(&sp, 0, sizeof sp);
        sp.fail_at = fail;
        loopy_i_db_window_blocks = 1;
        CHECK(loopy_i_db_part_compress(&s, t, 2, 1, &v1, NULL, 0, 1,
                                       spill_into, &sp, &piece) == LOOPY_EIO);
        loopy_i_db_window_blocks = 0;
        CHECK(sp.windows == fail);
        CHECK(piece.blocks == 0 && piece.entry == NULL && piece.frame == NULL);
        free(sp.b.data);
    }
    free(ws.w);
    check_case_end();
}

int main(void)
{
    bool quick = check_quick() != 0;
    uint64_t cases = quick ? 300 : 2000;

    for (uint64_t seed = 1; seed <= cases; seed++)
        random_case(seed, quick);
    refusals();
    return check_finish("test_db_parts");
}
