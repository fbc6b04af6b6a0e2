/*
 * write_parts.c - a database written in parts (db_internal.h's "Writing in
 * parts"): each of P processes holds the words of one range of indices,
 * compresses the blocks that start in its range and writes them at the
 * offset the earlier parts' sizes give; one of them writes the header and
 * the index.  The bytes are loopy_i_db_write's for the whole: the shape is
 * decided from the merged tallies by the same function, and a block that
 * runs past the end of its part takes the rest of its records from the
 * heads of the parts after it.
 */
#include "db_internal.h"

#include <string.h>

/* Pages of a mapped part's values, read, leave memory: from .. to. */
static void release(const loopy_i_db_values *v, uint64_t from, uint64_t to)
{
    if (v->mapped && v->record != NULL && to > from)
        loopy_i_release_mapped(v->record + from, (size_t)(to - from) * 2);
    if (v->mapped && v->byte != NULL && to > from)
        loopy_i_release_mapped(v->byte + from, (size_t)(to - from));
}

#define RELEASE_EVERY (UINT64_C(1) << 20)

loopy_status loopy_i_db_part_tally(const loopy_i_db_values *v, uint64_t from,
                                   uint64_t to, loopy_i_db_tally *t)
{
    memset(t, 0, sizeof *t);
    t->from = from;
    t->to = to;
    if (to < from ||
        (to > from && v->word == NULL && v->record == NULL && v->byte == NULL))
        return LOOPY_EINVAL;
    for (uint64_t i = 0; i < to - from; i++) {
        loopy_outcome outcome;
        uint32_t remoteness, w = loopy_i_db_value(v, i);

        if (i % RELEASE_EVERY == 0 && i > 0)
            release(v, i - RELEASE_EVERY, i);
        /* SEEN, or a record's REACHED (which reads as a Draw word). */
        if (w == LOOPY_I_WORD_SEEN ||
            (v->word == NULL && w == 1 &&
             (v->record != NULL ? v->record[i] != LOOPY_I_RECORD_DRAW : true)))
            return LOOPY_EINVAL;
        if (!loopy_i_word_value(w, &outcome, &remoteness))
            continue;
        if (t->n++ == 0)
            t->lo = from + i;
        t->hi = from + i + 1;
        t->count[outcome]++;
        if (outcome != LOOPY_DRAW && remoteness > t->max_remoteness)
            t->max_remoteness = remoteness;
    }
    release(v, (to - from) / RELEASE_EVERY * RELEASE_EVERY, to - from);
    return LOOPY_OK;
}

loopy_status loopy_i_db_parts_shape(const loopy_i_db_source *meta,
                                    const loopy_i_db_layout *layout,
                                    const loopy_i_db_tally *t, int parts,
                                    db_shape *s)
{
    static const loopy_i_db_layout defaults = {0, DB_LAYOUT_AUTO, 0, 0, 0};
    uint64_t max = 0;

    if (layout == NULL)
        layout = &defaults;
    if (meta == NULL || t == NULL || parts < 1 || !loopy_i_db_meta_ok(meta) ||
        (layout->width != 0 && layout->width != 2 && layout->width != 4))
        return LOOPY_EINVAL;
    memset(s, 0, sizeof *s);
    for (int r = 0; r < parts; r++) {
        if (t[r].from != (r == 0 ? 0 : t[r - 1].to) || t[r].to < t[r].from ||
            t[r].n > t[r].to - t[r].from ||
            (t[r].n > 0 &&
             (t[r].lo < t[r].from || t[r].hi > t[r].to || t[r].lo >= t[r].hi)))
            return LOOPY_EINVAL;
        if (t[r].n > 0) {
            if (s->n == 0)
                s->lo = t[r].lo;
            s->hi = t[r].hi;
        }
        s->n += t[r].n;
        for (int k = 0; k < 4; k++)
            s->count[k] += t[r].count[k];
        if (t[r].max_remoteness > max)
            max = t[r].max_remoteness;
    }
    if (t[parts - 1].to != meta->index_size)
        return LOOPY_EINVAL;
    return loopy_i_db_decide(layout, max, s);
}

/* The items of part t: its records inside lo .. hi - 1 (dense), or its
 * present ones (sparse). */
uint64_t loopy_i_db_part_items(const db_shape *s, const loopy_i_db_tally *t)
{
    uint64_t a, b;

    if (s->sparse)
        return t->n;
    a = t->from > s->lo ? t->from : s->lo;
    b = t->to < s->hi ? t->to : s->hi;
    return b > a ? b - a : 0;
}

/* The items before part r's (the first item, 0, is lo in dense mode). */
static uint64_t items_before(const db_shape *s, const loopy_i_db_tally *t,
                             int r)
{
    uint64_t e = 0;

    for (int u = 0; u < r; u++)
        e += loopy_i_db_part_items(s, &t[u]);
    return e;
}

/* The blocks that start among part r's items: first .. end - 1; and the
 * items before the part. */
static void blocks_of(const db_shape *s, const loopy_i_db_tally *t, int r,
                      uint64_t *first, uint64_t *end, uint64_t *before)
{
    uint64_t e = items_before(s, t, r), n = loopy_i_db_part_items(s, &t[r]);

    *before = e;
    *first = e / s->k + (e % s->k != 0);
    *end = (e + n) / s->k + ((e + n) % s->k != 0);
    if (*end < *first)
        *end = *first;
}

uint64_t loopy_i_db_tail_need(const db_shape *shape, const loopy_i_db_tally *t,
                              int parts, int r)
{
    uint64_t first, end, before, total;

    if (r < 0 || r >= parts)
        return 0;
    blocks_of(shape, t, r, &first, &end, &before);
    if (end == first)
        return 0;
    /* The last block ends at item end * K (or at the last item). */
    total = end * (uint64_t)shape->k;
    if (total > (shape->sparse ? shape->n : shape->hi - shape->lo))
        total = shape->sparse ? shape->n : shape->hi - shape->lo;
    return total - before - loopy_i_db_part_items(shape, &t[r]);
}

void loopy_i_db_tail_needs(const db_shape *shape, const loopy_i_db_tally *t,
                           int parts, uint64_t *need)
{
    uint64_t e = 0, k = shape->k;
    uint64_t all = shape->sparse ? shape->n : shape->hi - shape->lo;

    /* blocks_of() and loopy_i_db_tail_need() with one running sum. */
    for (int r = 0; r < parts; r++) {
        uint64_t n = loopy_i_db_part_items(shape, &t[r]);
        uint64_t first = e / k + (e % k != 0);
        uint64_t end = (e + n) / k + ((e + n) % k != 0), total;

        need[r] = 0;
        if (end > first) {
            total = end * k < all ? end * k : all;
            need[r] = total - e - n;
        }
        e += n;
    }
}

uint64_t loopy_i_db_tail_items(const db_shape *shape, const loopy_i_db_tally *t,
                               int parts, int r, int s)
{
    uint64_t need, offset = 0, total;

    if (r < 0 || s <= r || s >= parts)
        return 0;
    need = loopy_i_db_tail_need(shape, t, parts, r);
    for (int u = r + 1; u < s && offset < need; u++)
        offset += loopy_i_db_part_items(shape, &t[u]);
    if (offset >= need)
        return 0;
    total = loopy_i_db_part_items(shape, &t[s]);
    return need - offset < total ? need - offset : total;
}

void loopy_i_db_part_head(const db_shape *shape, const loopy_i_db_tally *t,
                          const loopy_i_db_values *v, uint64_t count,
                          loopy_i_db_item *out)
{
    uint64_t j = 0;

    if (!shape->sparse) {
        /* A part with items starts at or after lo (every part before
         * the last block's end does, see items_of). */
        uint64_t start = t->from > shape->lo ? t->from : shape->lo;
        for (; j < count; j++) {
            out[j].pos = start + j;
            out[j].word = loopy_i_db_value(v, start + j - t->from);
            out[j].zero = 0;
        }
        return;
    }
    for (uint64_t i = 0; j < count && i < t->to - t->from; i++) {
        uint32_t w = loopy_i_db_value(v, i);
        if (w != LOOPY_I_WORD_ABSENT) {
            out[j].pos = t->from + i;
            out[j].word = w;
            out[j].zero = 0;
            j++;
        }
    }
}

/* What a part's blocks are built from. */
typedef struct part_src {
    const db_shape *s;
    const loopy_i_db_tally *t;
    const loopy_i_db_values *v;
    const loopy_i_db_item *tail;
    uint64_t tail_count;
    uint64_t first_block, before;
    /* Sparse: each block's first item, as an index into word (below
     * to - from) or, from to - from on, into the tail. */
    uint64_t *start;
} part_src;

/* The word of the item at local index i (below to - from: the part's
 * own; then the tail's, which are consecutive positions in dense mode). */
static uint32_t item_word(const part_src *ps, uint64_t i, uint64_t *pos)
{
    uint64_t own = ps->t->to - ps->t->from;

    if (i < own) {
        *pos = ps->t->from + i;
        return loopy_i_db_value(ps->v, i);
    }
    *pos = ps->tail[i - own].pos;
    return ps->tail[i - own].word;
}

/* i, or the end of the part's own values when i is past it. */
static uint64_t own_end(const part_src *ps, uint64_t i)
{
    uint64_t own = ps->t->to - ps->t->from;

    return i < own ? i : own;
}

static uint32_t record_of(const db_shape *s, uint32_t w)
{
    loopy_outcome outcome;
    uint32_t remoteness;

    return loopy_i_word_value(w, &outcome, &remoteness)
               ? db_record(s->width, outcome, remoteness)
               : 0;
}

/* A db_build_fn: block first_block + b of the part. */
static size_t build_part_block(const void *ctx, uint64_t b, unsigned char *out,
                               uint64_t *first_position)
{
    const part_src *ps = ctx;
    const db_shape *s = ps->s;
    uint64_t block = ps->first_block + b,
             items = s->sparse ? s->n : s->hi - s->lo;
    uint64_t item0 = block * s->k, last = 0, pos;
    uint32_t count = (uint32_t)(items - item0 < s->k ? items - item0 : s->k);
    size_t len = (size_t)count * s->width;

    if (!s->sparse) {
        /* The block's first position, as a local index. */
        uint64_t at = s->lo + item0 - ps->t->from;
        *first_position = s->lo + item0;
        for (uint32_t j = 0; j < count; j++)
            db_put(out + (size_t)j * s->width,
                   record_of(s, item_word(ps, at + j, &pos)), s->width);
        release(ps->v, at, own_end(ps, at + count));
        return len;
    }
    uint64_t i = ps->start[b], i0 = i;

    for (uint32_t j = 0; j < count; i++) {
        uint32_t w = item_word(ps, i, &pos);
        if (w == LOOPY_I_WORD_ABSENT)
            continue;
        db_put(out + (size_t)j * s->width, record_of(s, w), s->width);
        if (j == 0)
            *first_position = pos;
        /* The first position in full, then the gaps (write.c's). */
        db_put_gap(out, &len, j == 0 ? pos : pos - last - 1);
        last = pos;
        j++;
    }
    release(ps->v, i0, own_end(ps, i));
    return len;
}

/* Compresses the part's blocks a window at a time into window frames,
 * each window handed to frames and freed. */
static loopy_status stream_blocks(const part_src *ps, loopy_i_db_piece *piece,
                                  int threads, loopy_i_db_frames_fn frames,
                                  void *ctx)
{
    uint64_t window = loopy_i_db_window(ps->s, threads), count = 0;
    unsigned char **frame;
    loopy_status status = LOOPY_OK;

    if (window > piece->blocks)
        window = piece->blocks;
    frame = loopy_i_calloc((size_t)window, sizeof *frame);
    if (frame == NULL)
        return LOOPY_ENOMEM;
    for (uint64_t b = 0; status == LOOPY_OK && b < piece->blocks; b += count) {
        count = piece->blocks - b < window ? piece->blocks - b : window;
        status = loopy_i_db_compress(ps->s, b, count, build_part_block, ps,
                                     threads, frame, piece->entry + b);
        if (status == LOOPY_OK && frames(ctx, frame, piece->entry + b, count) != 0)
            status = LOOPY_EIO;
        for (uint64_t j = 0; j < count; j++) {
            loopy_i_free(frame[j]);
            frame[j] = NULL;
        }
    }
    loopy_i_free(frame);
    return status;
}

loopy_status loopy_i_db_part_compress(const db_shape *shape,
                                      const loopy_i_db_tally *t, int parts,
                                      int r, const loopy_i_db_values *v,
                                      const loopy_i_db_item *tail,
                                      uint64_t tail_count, int threads,
                                      loopy_i_db_frames_fn frames, void *ctx,
                                      loopy_i_db_piece *piece)
{
    uint64_t end, need;
    loopy_status status;
    part_src ps;

    memset(piece, 0, sizeof *piece);
    if (r < 0 || r >= parts)
        return LOOPY_EINVAL;
    need = loopy_i_db_tail_need(shape, t, parts, r);
    if (tail_count != need || (need > 0 && tail == NULL))
        return LOOPY_EINVAL;
    memset(&ps, 0, sizeof ps);
    ps.s = shape;
    ps.t = &t[r];
    ps.v = v;
    ps.tail = tail;
    ps.tail_count = tail_count;
    blocks_of(shape, t, r, &ps.first_block, &end, &ps.before);
    piece->first_block = ps.first_block;
    piece->blocks = end - ps.first_block;
    if (piece->blocks == 0)
        return LOOPY_OK;
    if (shape->sparse) {
        /* Where each block's first item is: the part's present words
         * counted from the items before it. */
        uint64_t e = ps.before, own = t[r].to - t[r].from, b = 0;
        ps.start = loopy_i_malloc((size_t)piece->blocks, sizeof *ps.start);
        if (ps.start == NULL)
            return LOOPY_ENOMEM;
        for (uint64_t i = 0; i < own && b < piece->blocks; i++)
            if (loopy_i_db_value(v, i) != LOOPY_I_WORD_ABSENT &&
                e++ == (ps.first_block + b) * shape->k)
                ps.start[b++] = i;
        release(v, 0, own);
    }
    threads = loopy_i_threads(threads, piece->blocks, 4);
    piece->entry = loopy_i_calloc((size_t)piece->blocks, sizeof *piece->entry);
    if (frames == NULL)
        piece->frame =
            loopy_i_calloc((size_t)piece->blocks, sizeof *piece->frame);
    status = piece->entry == NULL || (frames == NULL && piece->frame == NULL)
                 ? LOOPY_ENOMEM
             : frames != NULL
                 ? stream_blocks(&ps, piece, threads, frames, ctx)
                 : loopy_i_db_compress(shape, 0, piece->blocks, build_part_block,
                                       &ps, threads, piece->frame, piece->entry);
    loopy_i_free(ps.start);
    for (uint64_t b = 0; status == LOOPY_OK && b < piece->blocks; b++)
        piece->bytes += piece->entry[b].compressed;
    if (status != LOOPY_OK)
        loopy_i_db_piece_free(piece);
    return status;
}

loopy_status loopy_i_db_piece_write(const loopy_i_db_piece *piece,
                                    loopy_write_fn write, void *ctx)
{
    for (uint64_t b = 0; b < piece->blocks; b++)
        if (write(ctx, piece->frame[b], piece->entry[b].compressed) != 0)
            return LOOPY_EIO;
    return LOOPY_OK;
}

void loopy_i_db_piece_entries(const loopy_i_db_piece *piece, uint64_t offset,
                              unsigned char *out)
{
    for (uint64_t b = 0; b < piece->blocks; b++) {
        db_block e = piece->entry[b];
        e.offset = offset;
        offset += e.compressed;
        loopy_i_db_put_entry(out + b * DB_ENTRY_BYTES, &e);
    }
}

void loopy_i_db_piece_free(loopy_i_db_piece *piece)
{
    if (piece->frame != NULL)
        for (uint64_t b = 0; b < piece->blocks; b++)
            loopy_i_free(piece->frame[b]);
    loopy_i_free(piece->frame);
    loopy_i_free(piece->entry);
    memset(piece, 0, sizeof *piece);
}

void loopy_i_db_parts_finish(const db_shape *shape,
                             const loopy_i_db_source *meta,
                             uint64_t frame_bytes, unsigned char *index,
                             unsigned char *header, size_t *header_len)
{
    uint64_t header_bytes = loopy_i_db_header_bytes(meta);

    loopy_i_db_fill_header(shape, meta, header_bytes,
                           header_bytes + frame_bytes, header);
    *header_len = (size_t)header_bytes;
    db_put(index + shape->blocks * DB_ENTRY_BYTES,
           loopy_i_checksum(index, shape->blocks * DB_ENTRY_BYTES, 1), 8);
}
