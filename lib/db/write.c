/*
 * write.c - writing a database (".ldb", layout in db_internal.h): the
 * positions are cut into blocks, each block is compressed with zstd on its
 * own (on all threads; the bytes do not depend on their number), a window
 * of blocks at a time; the blocks, the block index and last the header go
 * out through the caller's write function, at their offsets, and the
 * caller makes the file atomic.
 */
#include "db_internal.h"

#include <string.h>
#include <zstd.h>

/* zstd's level: a database is written once and read often, and its
 * records compress well; past 9 the writing slows for little gain. */
#define DEFAULT_LEVEL 9

const unsigned char loopy_i_db_magic[8] = {0x89, 'L', 'D', 'B',
                                           '\r', '\n', 0x1a, '\n'};

/* What the writer decided: the shape, and where each block starts in the
 * source. */
typedef struct plan {
    const loopy_i_db_source *src;
    db_shape s;
    uint64_t *start;       /* blocks + 1: each block's first source index */
    uint64_t *from;        /* words, sparse: each block's first position */
} plan;

static loopy_position position_at(const loopy_i_db_source *src, uint64_t i)
{
    return src->position != NULL ? src->position[i] : i;
}

bool loopy_i_db_printable(const char *s, size_t max, size_t *len)
{
    size_t i = 0;

    for (; s[i] != '\0'; i++)
        if (i == max || (unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return false;
    *len = i;
    return true;
}

/* Whether name is a game's name: letters, digits, '_' and '-' (the only
 * names a database may make loopy open, see loopy_db_open_game). */
bool loopy_i_db_game_name(const char *name)
{
    for (; *name; name++)
        if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
              (*name >= '0' && *name <= '9') || *name == '_' || *name == '-'))
            return false;
    return true;
}

/* Whether src is a words source, wide or narrow. */
static bool indexed(const loopy_i_db_source *src)
{
    return src->word != NULL || src->record != NULL || src->byte != NULL;
}

/* The word of index pos of a words source. */
static uint32_t word_of(const loopy_i_db_source *src, uint64_t pos)
{
    return src->word != NULL     ? src->word[pos]
           : src->record != NULL ? loopy_i_word_of_record(src->record[pos])
                                 : loopy_i_word_of_record(
                                       loopy_i_record_of_byte(src->byte[pos]));
}

/* The value at index pos of a words source; false when absent. */
static bool word_at(const loopy_i_db_source *src, uint64_t pos,
                    loopy_outcome *outcome, uint32_t *remoteness)
{
    return loopy_i_word_value(word_of(src, pos), outcome, remoteness);
}

/* Records of a words source read so far leave memory, when they are a
 * file's mapping (a tier solve's work file): from[0 .. to). */
#define RELEASE_EVERY (UINT64_C(1) << 20)
static void release_records(const loopy_i_db_source *src, uint64_t from,
                            uint64_t to)
{
    if (src->mapped && src->record != NULL && to > from)
        loopy_i_release_mapped(src->record + from, (size_t)(to - from) * 2);
    if (src->mapped && src->byte != NULL && to > from)
        loopy_i_release_mapped(src->byte + from, (size_t)(to - from));
}

/* survey() of a words source: counts, and the first and last position. */
static uint64_t survey_words(const loopy_i_db_source *src, plan *p)
{
    uint64_t max = 0, n = 0;
    uint64_t end = src->end != 0 && src->end < src->index_size
                       ? src->end : src->index_size;

    p->s.lo = p->s.hi = 0;
    for (uint64_t pos = 0; pos < end; pos++) {
        if (pos % RELEASE_EVERY == 0)
            release_records(src, pos - (pos > 0 ? RELEASE_EVERY : 0), pos);
        loopy_outcome outcome;
        uint32_t remoteness;
        if (!word_at(src, pos, &outcome, &remoteness))
            continue;
        if (n++ == 0)
            p->s.lo = pos;
        p->s.hi = pos + 1;
        p->s.count[outcome]++;
        if (outcome != LOOPY_DRAW && remoteness > max)
            max = remoteness;
    }
    release_records(src, end / RELEASE_EVERY * RELEASE_EVERY, end);
    return n != src->n ? UINT64_MAX : max;
}

bool loopy_i_db_meta_ok(const loopy_i_db_source *src)
{
    size_t len;

    return src->name != NULL && src->params != NULL &&
           loopy_i_db_printable(src->name, DB_NAME_MAX, &len) && len > 0 &&
           loopy_i_db_game_name(src->name) &&
           loopy_i_db_printable(src->params, DB_PARAMS_MAX, &len) && src->base <= 1;
}

loopy_status loopy_i_db_decide(const loopy_i_db_layout *layout, uint64_t max,
                               db_shape *s)
{
    uint64_t range = s->hi - s->lo, items;

    if (max > DB_REMOTENESS_MAX_4 ||
        (layout->width == 2 && max > DB_REMOTENESS_MAX_2))
        return LOOPY_ETOOBIG;
    s->max_remoteness = (uint32_t)max;
    s->width = layout->width != 0 ? layout->width
               : max <= DB_REMOTENESS_MAX_2 ? 2 : 4;
    /* Sparse when the solved positions are under a quarter of the range
     * they span: a gap then costs less than the absent records. */
    s->sparse = layout->mode == DB_LAYOUT_SPARSE ||
                (layout->mode == DB_LAYOUT_AUTO && s->n < range / 4);
    s->k = layout->block_positions != 0 ? layout->block_positions
           : s->sparse ? DB_SPARSE_BLOCK : DB_DENSE_BLOCK;
    if (s->k > DB_BLOCK_MAX)
        return LOOPY_EINVAL;
    items = s->sparse ? s->n : range;
    s->blocks = items / s->k + (items % s->k != 0);
    if (s->blocks > SIZE_MAX / DB_ENTRY_BYTES)
        return LOOPY_ETOOBIG;
    s->level = layout->level != 0 ? layout->level : DEFAULT_LEVEL;
    return LOOPY_OK;
}

/* Checks the source, counts its values and decides the shape. */
static loopy_status survey(const loopy_i_db_source *src,
                           const loopy_i_db_layout *layout, plan *p)
{
    uint64_t max = 0;

    if (!loopy_i_db_meta_ok(src) || src->n > src->index_size ||
        (src->n > 0 && !indexed(src) &&
         (src->outcome == NULL || src->remoteness == NULL)))
        return LOOPY_EINVAL;
    memset(p->s.count, 0, sizeof p->s.count);
    if (indexed(src)) {
        max = survey_words(src, p);
        if (max == UINT64_MAX)
            return LOOPY_EINVAL;
    }
    for (uint64_t i = 0; !indexed(src) && i < src->n; i++) {
        loopy_position pos = position_at(src, i);
        uint8_t outcome = src->outcome[i];

        if (pos >= src->index_size || (i > 0 && pos <= position_at(src, i - 1)) ||
            outcome > LOOPY_TIE)
            return LOOPY_EINVAL;
        p->s.count[outcome]++;
        if (outcome != LOOPY_DRAW && src->remoteness[i] > max)
            max = src->remoteness[i];
    }
    if (!indexed(src)) {
        p->s.lo = src->n > 0 ? position_at(src, 0) : 0;
        p->s.hi = src->n > 0 ? position_at(src, src->n - 1) + 1 : 0;
    }
    p->s.n = src->n;
    return loopy_i_db_decide(layout, max, &p->s);
}

/* Finds where each block starts in the source. */
static loopy_status lay_out(plan *p)
{
    const loopy_i_db_source *src = p->src;

    p->start = loopy_i_malloc((size_t)p->s.blocks + 1, sizeof *p->start);
    if (p->start == NULL)
        return LOOPY_ENOMEM;
    if (p->s.sparse && indexed(src)) {
        /* Where each block's first position is among the indices. */
        uint64_t i = 0;
        p->from = loopy_i_malloc((size_t)p->s.blocks + 1, sizeof *p->from);
        if (p->from == NULL)
            return LOOPY_ENOMEM;
        for (uint64_t pos = p->s.lo; pos < p->s.hi; pos++) {
            if (word_of(src, pos) != LOOPY_I_WORD_ABSENT && i++ % p->s.k == 0)
                p->from[(i - 1) / p->s.k] = pos;
            if ((pos + 1) % RELEASE_EVERY == 0)
                release_records(src, pos + 1 - RELEASE_EVERY, pos + 1);
        }
        release_records(src, p->s.hi / RELEASE_EVERY * RELEASE_EVERY, p->s.hi);
        for (uint64_t b = 0; b < p->s.blocks; b++)
            p->start[b] = b * p->s.k;
    } else if (p->s.sparse) {
        for (uint64_t b = 0; b < p->s.blocks; b++)
            p->start[b] = b * p->s.k;
    } else if (indexed(src)) {
        for (uint64_t b = 0; b < p->s.blocks; b++)
            p->start[b] = 0; /* unused: a block is its range of indices */
    } else {
        uint64_t i = 0;
        for (uint64_t b = 0; b < p->s.blocks; b++) {
            while (i < src->n && position_at(src, i) < p->s.lo + b * p->s.k)
                i++;
            p->start[b] = i;
        }
    }
    p->start[p->s.blocks] = src->n;
    return LOOPY_OK;
}

static uint32_t block_records(const plan *p, uint64_t b)
{
    if (p->s.sparse)
        return (uint32_t)(p->start[b + 1] - p->start[b]);
    return (uint32_t)(p->s.hi - (p->s.lo + b * p->s.k) < p->s.k
                          ? p->s.hi - (p->s.lo + b * p->s.k) : p->s.k);
}

/* build_block() for a words source: the same bytes as for the list of
 * its positions. */
static size_t build_words_block(const plan *p, uint64_t b, unsigned char *out)
{
    const loopy_i_db_source *src = p->src;
    uint32_t count = block_records(p, b);
    size_t len = (size_t)count * p->s.width;
    loopy_outcome outcome;
    uint32_t remoteness;

    if (!p->s.sparse) {
        loopy_position first = p->s.lo + b * p->s.k;
        for (uint32_t j = 0; j < count; j++)
            db_put(out + (size_t)j * p->s.width,
                   word_at(src, first + j, &outcome, &remoteness)
                       ? db_record(p->s.width, outcome, remoteness)
                       : 0,
                   p->s.width);
        release_records(src, first, first + count);
        return len;
    }
    uint64_t last = 0;

    for (uint64_t pos = p->from[b], j = 0; j < count; pos++) {
        if (!word_at(src, pos, &outcome, &remoteness))
            continue;
        db_put(out + (size_t)j * p->s.width,
               db_record(p->s.width, outcome, remoteness), p->s.width);
        /* The first position in full (the index's, again), then the
         * gaps. */
        db_put_gap(out, &len, j == 0 ? pos : pos - last - 1);
        last = pos;
        j++;
    }
    if (count > 0)
        release_records(src, p->from[b], last + 1);
    return len;
}

/* The uncompressed bytes of block b into out (room for the largest), and
 * its first position; returns their number.  A db_build_fn. */
static size_t build_block(const void *ctx, uint64_t b, unsigned char *out,
                          uint64_t *first_position)
{
    const plan *p = ctx;
    const loopy_i_db_source *src = p->src;
    uint32_t count = block_records(p, b);
    size_t len = (size_t)count * p->s.width;

    *first_position = !p->s.sparse ? p->s.lo + b * p->s.k
                      : indexed(src)   ? p->from[b]
                                       : position_at(src, p->start[b]);
    if (indexed(src))
        return build_words_block(p, b, out);
    if (!p->s.sparse) {
        loopy_position first = p->s.lo + b * p->s.k;
        memset(out, 0, len);
        for (uint64_t i = p->start[b]; i < p->start[b + 1]; i++)
            db_put(out + (position_at(src, i) - first) * p->s.width,
                   db_record(p->s.width, (loopy_outcome)src->outcome[i],
                             src->remoteness[i]),
                   p->s.width);
        return len;
    }
    for (uint32_t j = 0; j < count; j++) {
        uint64_t i = p->start[b] + j;
        db_put(out + (size_t)j * p->s.width,
               db_record(p->s.width, (loopy_outcome)src->outcome[i],
                         src->remoteness[i]),
               p->s.width);
        /* The first position in full (the index's, again), then the
         * gaps; positions increase, so a gap is at least 0. */
        db_put_gap(out, &len, j == 0 ? position_at(src, i)
                                     : position_at(src, i) - position_at(src, i - 1) - 1);
    }
    return len;
}

loopy_status loopy_i_db_compress(const db_shape *s, uint64_t first,
                                uint64_t blocks, db_build_fn build,
                                const void *ctx, int threads,
                                unsigned char **frame, db_block *entry)
{
    size_t plain_max = (size_t)s->k * (s->width + (s->sparse ? DB_GAP_MAX_BYTES : 0));
    size_t bound = ZSTD_compressBound(plain_max);
    int failed = 0; /* a loopy_status, set by any thread that fails */

    (void)threads; /* in a build without OpenMP */
#pragma omp parallel num_threads(threads)
    {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        unsigned char *plain = loopy_i_malloc(plain_max, 1);
        unsigned char *packed = loopy_i_malloc(bound, 1);
        int mine = cctx == NULL || plain == NULL || packed == NULL ? LOOPY_ENOMEM
                                                                   : LOOPY_OK;

        /* zstd's own checksum of the content too (4 bytes a frame): a
         * damaged block is then refused even when the damage came with a
         * recomputed block checksum. */
        if (mine == LOOPY_OK &&
            (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel,
                                                 s->level)) ||
             ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1))))
            mine = LOOPY_EINVAL;

#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < (int64_t)blocks; i++) {
            uint64_t b = (uint64_t)i, first_position = 0;
            size_t len, packed_len;

            if (mine != LOOPY_OK)
                continue;
            len = build(ctx, first + b, plain, &first_position);
            packed_len = ZSTD_compress2(cctx, packed, bound, plain, len);
            if (ZSTD_isError(packed_len)) {
                /* Only memory can fail here: the bound is zstd's own. */
                mine = LOOPY_ENOMEM;
                continue;
            }
            /* Each block is written by the one thread that runs it. */
            frame[b] = loopy_i_malloc(packed_len, 1);
            if (frame[b] == NULL) {
                mine = LOOPY_ENOMEM;
                continue;
            }
            memcpy(frame[b], packed, packed_len);
            entry[b].first = first_position;
            entry[b].compressed = (uint32_t)packed_len;
            entry[b].plain = (uint32_t)len;
            entry[b].checksum = loopy_i_checksum(packed, packed_len, 1);
        }
        if (mine != LOOPY_OK) {
            /* Any failure fails the whole write; when threads fail
             * differently, which status is kept does not matter. */
#pragma omp atomic write
            failed = mine;
        }
        ZSTD_freeCCtx(cctx);
        loopy_i_free(plain);
        loopy_i_free(packed);
    }
    return (loopy_status)failed;
}

uint64_t loopy_i_db_header_bytes(const loopy_i_db_source *meta)
{
    return (DB_FIXED_BYTES + strlen(meta->name) + strlen(meta->params) + 7) / 8 *
               8 + 8;
}

void loopy_i_db_put_entry(unsigned char *e, const db_block *b)
{
    db_put(e, b->offset, 8);
    db_put(e + 8, b->compressed, 4);
    db_put(e + 12, b->plain, 4);
    db_put(e + 16, b->first, 8);
    db_put(e + 24, b->checksum, 8);
}

void loopy_i_db_fill_header(const db_shape *s, const loopy_i_db_source *src,
                            uint64_t header_bytes, uint64_t index_offset,
                            unsigned char *h)
{
    size_t name_len = strlen(src->name), params_len = strlen(src->params);

    memset(h, 0, (size_t)header_bytes);
    memcpy(h, loopy_i_db_magic, sizeof loopy_i_db_magic);
    db_put(h + 8, DB_VERSION, 4);
    db_put(h + 12, DB_BYTE_ORDER, 4);
    db_put(h + 16, header_bytes, 4);
    db_put(h + 20, (src->misere ? DB_FLAG_MISERE : 0) |
                       (src->symmetric ? DB_FLAG_SYMMETRIC : 0) |
                       (s->sparse ? DB_FLAG_SPARSE : 0), 4);
    db_put(h + 24, s->width, 4);
    db_put(h + 28, s->k, 4);
    db_put(h + 32, src->base, 4);
    db_put(h + 36, s->max_remoteness, 4);
    db_put(h + 40, s->n, 8);
    db_put(h + 48, src->index_size, 8);
    for (int k = 0; k < 4; k++)
        db_put(h + 56 + 8 * k, s->count[k], 8);
    db_put(h + 88, s->lo, 8);
    db_put(h + 96, s->hi, 8);
    db_put(h + 104, s->blocks, 8);
    db_put(h + 112, index_offset, 8);
    db_put(h + 120, name_len, 2);
    db_put(h + 122, params_len, 2);
    memcpy(h + DB_FIXED_BYTES, src->name, name_len);
    memcpy(h + DB_FIXED_BYTES + name_len, src->params, params_len);
    db_put(h + header_bytes - 8,
           loopy_i_checksum(h, header_bytes - 8, 1), 8);
}

/* Blocks compressed before their frames are written: enough for about
 * WINDOW_BYTES of records, and at least 4 a thread. */
#define WINDOW_BYTES (UINT64_C(64) << 20)

uint64_t loopy_i_db_window_blocks = 0;

uint64_t loopy_i_db_window(const db_shape *s, int threads)
{
    uint64_t window =
        s->blocks > 0 ? WINDOW_BYTES / ((uint64_t)s->k * s->width) : 0;

    if (window < 4 * (uint64_t)threads)
        window = 4 * (uint64_t)threads;
    if (loopy_i_db_window_blocks != 0)
        window = loopy_i_db_window_blocks;
    return window > s->blocks ? s->blocks : window;
}

loopy_status loopy_i_db_write_at(const loopy_i_db_source *src,
                                 const loopy_i_db_layout *layout,
                                 loopy_write_at_fn write_at, void *ctx)
{
    static const loopy_i_db_layout defaults = {0, DB_LAYOUT_AUTO, 0, 0, 0};
    unsigned char header[DB_HEADER_MAX];
    unsigned char **frame = NULL, *index = NULL;
    db_block *entry = NULL;
    uint64_t header_bytes, offset, window, count = 0;
    loopy_status status;
    int threads;
    plan p;

    if (src == NULL || write_at == NULL)
        return LOOPY_EINVAL;
    if (layout == NULL)
        layout = &defaults;
    if (layout->width != 0 && layout->width != 2 && layout->width != 4)
        return LOOPY_EINVAL;
    memset(&p, 0, sizeof p);
    p.src = src;
    CHECK_GOTO(survey(src, layout, &p));
    CHECK_GOTO(lay_out(&p));
    threads = loopy_i_threads(layout->threads, p.s.blocks, 4);
    window = loopy_i_db_window(&p.s, threads);
    frame = loopy_i_calloc((size_t)window, sizeof *frame);
    entry = loopy_i_calloc((size_t)p.s.blocks, sizeof *entry);
    if ((window > 0 && frame == NULL) || entry == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    /* The frames, a window at a time, in order, after the header. */
    header_bytes = loopy_i_db_header_bytes(src);
    offset = header_bytes;
    for (uint64_t first = 0; first < p.s.blocks; first += count) {
        count = p.s.blocks - first < window ? p.s.blocks - first : window;
        CHECK_GOTO(loopy_i_db_compress(&p.s, first, count, build_block, &p,
                                       threads, frame, entry + first));
        for (uint64_t b = 0; b < count; b++) {
            db_block *e = &entry[first + b];

            e->offset = offset;
            if (write_at(ctx, frame[b], e->compressed, offset) != 0) {
                status = LOOPY_EIO;
                goto fail;
            }
            offset += e->compressed;
            loopy_i_free(frame[b]);
            frame[b] = NULL;
        }
    }
    /* Then the index, and last the header, which says where it is. */
    index = loopy_i_malloc((size_t)p.s.blocks * DB_ENTRY_BYTES + 8, 1);
    if (index == NULL) {
        status = LOOPY_ENOMEM;
        goto fail;
    }
    for (uint64_t b = 0; b < p.s.blocks; b++)
        loopy_i_db_put_entry(index + b * DB_ENTRY_BYTES, &entry[b]);
    db_put(index + p.s.blocks * DB_ENTRY_BYTES,
           loopy_i_checksum(index, p.s.blocks * DB_ENTRY_BYTES, 1), 8);
    loopy_i_db_fill_header(&p.s, src, header_bytes, offset, header);
    status = LOOPY_EIO;
    if (write_at(ctx, index, (size_t)p.s.blocks * DB_ENTRY_BYTES + 8, offset) != 0 ||
        write_at(ctx, header, (size_t)header_bytes, 0) != 0)
        goto fail;
    status = LOOPY_OK;

fail:
    if (frame != NULL)
        for (uint64_t b = 0; b < window; b++)
            loopy_i_free(frame[b]);
    loopy_i_free(frame);
    loopy_i_free(entry);
    loopy_i_free(index);
    loopy_i_free(p.start);
    loopy_i_free(p.from);
    return status;
}
