/*
 * db_parts.c - a database written by every rank (lib/db/write_parts.c):
 * each rank tallies its words, all agree on the shape from everyone's
 * tally, each sends the ranks before it the first records their last
 * blocks run into, compresses the blocks that start in its range a window
 * at a time into a spill file of its own, and, once a prefix sum of the
 * ranks' sizes gives every part its offset, copies them with pwrite into
 * rank 0's temporary file; rank 0 writes the header and the block index
 * it gathers (32 bytes a block).  No rank holds more than its own words,
 * a window of compressed blocks (about 64 MiB of records), a copy buffer
 * and its index entries (rank 0: the whole index).
 *
 * A spill file is made beside the output (or in TMPDIR, else /tmp, when
 * the ranks share no output file) and unlinked at once: it takes disk
 * space only while its rank runs, and a rank killed leaves none behind.
 *
 * The ranks open rank 0's temporary file by its name, where the output
 * lies on a file system every rank sees at the same path (one machine, or
 * a cluster's shared file system).  Where one cannot (an output that is
 * not a regular file, nodes without a shared file system), every rank
 * sends rank 0 its blocks instead, which it writes in order.
 */
#include "mpi.h"

#include "../lib/db/db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* This rank's spill file: its compressed blocks, part after part. */
typedef struct spill {
    int fd;
    uint64_t bytes; /* written so far */
    int error;      /* errno of the first failure */
} spill;

/* Makes the spill file in the folder of near (a file's name; NULL:
 * TMPDIR, else /tmp) and unlinks it; false, with errno, on failure. */
static bool spill_open(spill *sp, const char *near, char *dir, size_t dir_size)
{
    const char *slash = near != NULL ? strrchr(near, '/') : NULL;
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    int n;

    memset(sp, 0, sizeof *sp);
    sp->fd = -1;
    if (near != NULL && slash == NULL)
        n = snprintf(dir, dir_size, ".");
    else if (near != NULL)
        n = snprintf(dir, dir_size, "%.*s", (int)(slash - near + (slash == near)),
                     near);
    else
        n = snprintf(dir, dir_size, "%s",
                     tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (n < 0 || (size_t)n >= dir_size ||
        snprintf(path, sizeof path, "%s/.loopy-mpi-spill-XXXXXX", dir) >=
            (int)sizeof path) {
        errno = ENAMETOOLONG;
        return false;
    }
    sp->fd = mkstemp(path);
    if (sp->fd < 0)
        return false;
    (void)unlink(path);
    return true;
}

/* A loopy_i_db_frames_fn: a window of frames appended to the spill. */
static int spill_frames(void *ctx, unsigned char *const *frame,
                        const db_block *entry, uint64_t count)
{
    spill *sp = ctx;

    for (uint64_t b = 0; b < count; b++) {
        if (!loopy_i_write_at(sp->fd, frame[b], entry[b].compressed,
                              sp->bytes)) {
            sp->error = errno;
            return -1;
        }
        sp->bytes += entry[b].compressed;
    }
    return 0;
}

/* Reads len bytes at offset of the spill into buf; false, with the
 * errno in sp->error, on failure (a spill that shrank: EIO). */
static bool spill_read(spill *sp, unsigned char *buf, size_t len,
                       uint64_t offset)
{
    int64_t got = loopy_i_read_at(sp->fd, buf, len, offset);

    if (got == (int64_t)len)
        return true;
    if (sp->error == 0)
        sp->error = got < 0 ? errno : EIO;
    return false;
}

/* The tallies of every rank's parts, flat[r][k] (LOOPY_I_DB_TALLY_WORDS
 * words each), as t[k * ranks + r]: the parts in the order of their
 * indices. */
static void unpack_tallies(int ranks, int count, const uint64_t *flat,
                           loopy_i_db_tally *t)
{
    for (int r = 0; r < ranks; r++)
        for (int k = 0; k < count; k++) {
            const uint64_t *w = flat + ((size_t)r * (size_t)count + (size_t)k) *
                                           LOOPY_I_DB_TALLY_WORDS;
            loopy_i_db_tally *u = &t[(size_t)k * (size_t)ranks + (size_t)r];
            u->from = w[0];
            u->to = w[1];
            u->n = w[2];
            for (int j = 0; j < 4; j++)
                u->count[j] = w[3 + j];
            u->lo = w[7];
            u->hi = w[8];
            u->max_remoteness = w[9];
        }
}

static void pack_tally(const loopy_i_db_tally *t, uint64_t *w)
{
    w[0] = t->from;
    w[1] = t->to;
    w[2] = t->n;
    for (int j = 0; j < 4; j++)
        w[3 + j] = t->count[j];
    w[7] = t->lo;
    w[8] = t->hi;
    w[9] = t->max_remoteness;
}

/* The parts, the shape, and what each part's tail takes from the parts
 * after it: need[q] items in all; for part q, the parts g = q + 1, ...
 * until need[q] is met. */
typedef struct layout {
    int P, me, count, parts;
    const mpi_db_part *mine;
    loopy_i_db_tally *t;
    db_shape *s;
    uint64_t *need;
} layout;

static int owner_of(const layout *l, int g)
{
    return g % l->P;
}

/* Calls each(l, q, g, items, offset, ctx) for every pair of a part q and
 * a later part g from which q's tail takes items (at offset in q's tail),
 * q increasing, then g increasing; for q of owner q_owner only (-1: all). */
typedef void pair_fn(const layout *l, int q, int g, uint64_t items,
                     uint64_t offset, void *ctx);
static void each_pair(const layout *l, int q_owner, pair_fn *each, void *ctx)
{
    for (int q = 0; q < l->parts; q++) {
        uint64_t got = 0;
        if (q_owner >= 0 && owner_of(l, q) != q_owner)
            continue;
        /* The first items of the parts after q, until the need is met
         * (loopy_i_db_tail_items, without its sums from the start). */
        for (int g = q + 1; g < l->parts && got < l->need[q]; g++) {
            uint64_t c = loopy_i_db_part_items(l->s, &l->t[g]);
            if (c > l->need[q] - got)
                c = l->need[q] - got;
            if (c > 0)
                each(l, q, g, c, got, ctx);
            got += c;
        }
    }
}

/* The exchange of the tails: counts and displacements in bytes (ranks
 * each), what is sent and what comes, and each of this rank's parts'
 * tails. */
typedef struct tails {
    int *scount, *sdispl, *rcount, *rdispl;
    loopy_i_db_item *send, *recv;
    uint64_t sent, received;   /* items */
    uint64_t *sitems, *ritems; /* items, per rank */
    loopy_i_db_item **tail;    /* count: each part's */
    bool failed;
} tails;

static void count_pair(const layout *l, int q, int g, uint64_t items,
                       uint64_t offset, void *ctx)
{
    tails *x = ctx;
    (void)offset;
    if (owner_of(l, g) == l->me) {
        x->sitems[owner_of(l, q)] += items;
        x->sent += items;
    }
    if (owner_of(l, q) == l->me) {
        x->ritems[owner_of(l, g)] += items;
        x->received += items;
    }
}

/* Fills the send buffer: for each destination in order, its parts q
 * increasing, this rank's parts g after q increasing. */
typedef struct filling {
    tails *x;
    uint64_t *at; /* per destination, items written */
} filling;

static void fill_pair(const layout *l, int q, int g, uint64_t items,
                      uint64_t offset, void *ctx)
{
    filling *f = ctx;
    int d = owner_of(l, q);
    loopy_i_db_item *out;
    const mpi_db_part *p;

    (void)offset;
    if (owner_of(l, g) != l->me)
        return;
    p = &l->mine[g / l->P];
    out = f->x->send + (size_t)f->x->sdispl[d] / sizeof *out + f->at[d];
    loopy_i_db_part_head(l->s, &l->t[g], &p->v, items, out);
    f->at[d] += items;
}

/* Takes the received items into the tails, in the order they were sent. */
static void take_pair(const layout *l, int q, int g, uint64_t items,
                      uint64_t offset, void *ctx)
{
    filling *f = ctx;
    int s = owner_of(l, g);
    const loopy_i_db_item *in =
        f->x->recv + (size_t)f->x->rdispl[s] / sizeof *in + f->at[s];

    memcpy(f->x->tail[q / l->P] + offset, in, (size_t)items * sizeof *in);
    f->at[s] += items;
}

/* This rank's side of the exchange of the tails (counts, buffers, the
 * items it sends); records a failure when memory runs out or a count
 * would not fit an int. */
static void plan_tails(mpi_run *run, const layout *l, tails *x)
{
    uint64_t *at = calloc((size_t)l->P, sizeof *at);
    filling f = {x, at};

    x->tail = calloc((size_t)l->count, sizeof *x->tail);
    x->sitems = calloc((size_t)l->P * 2, sizeof *x->sitems);
    if (x->sitems != NULL)
        x->ritems = x->sitems + l->P;
    if (at == NULL || x->tail == NULL || x->sitems == NULL) {
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
        free(at);
        return;
    }
    for (int k = 0; k < l->count; k++) {
        x->tail[k] =
            malloc((size_t)l->need[k * l->P + l->me] * sizeof **x->tail + 1);
        if (x->tail[k] == NULL) {
            mpi_fail(run, EXIT_RESOURCE, "out of memory");
            free(at);
            return;
        }
    }
    /* Each part's tail is under a block (DB_BLOCK_MAX items of 16
     * bytes); a rank's parts' together must fit an int. */
    each_pair(l, -1, count_pair, x);
    if (x->sent > (uint64_t)INT_MAX / sizeof *x->send ||
        x->received > (uint64_t)INT_MAX / sizeof *x->recv) {
        mpi_fail(run, EXIT_RESOURCE,
                 "the database's blocks share more "
                 "records between ranks than an MPI message carries");
        free(at);
        return;
    }
    for (int d = 0, sd = 0, rd = 0; d < l->P; d++) {
        x->scount[d] = (int)(x->sitems[d] * sizeof *x->send);
        x->rcount[d] = (int)(x->ritems[d] * sizeof *x->recv);
        x->sdispl[d] = sd;
        x->rdispl[d] = rd;
        sd += x->scount[d];
        rd += x->rcount[d];
    }
    x->send = malloc((size_t)x->sent * sizeof *x->send + 1);
    x->recv = malloc((size_t)x->received * sizeof *x->recv + 1);
    if (x->send == NULL || x->recv == NULL) {
        mpi_fail(run, EXIT_RESOURCE,
                 "out of memory: the records the "
                 "database's blocks share with the next ranks");
        free(at);
        return;
    }
    each_pair(l, -1, fill_pair, &f);
    free(at);
}

/* After the exchange: the received items into the tails. */
static bool take_tails(mpi_run *run, const layout *l, tails *x)
{
    uint64_t *at = calloc((size_t)l->P, sizeof *at);
    filling f = {x, at};

    if (at == NULL) {
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
        return false;
    }
    each_pair(l, l->me, take_pair, &f);
    free(at);
    return true;
}

static void tails_free(tails *x, int count)
{
    for (int k = 0; x->tail != NULL && k < count; k++)
        free(x->tail[k]);
    free(x->tail);
    free(x->sitems);
    free(x->send);
    free(x->recv);
}

/* Messages of blocks sent to rank 0, and the copy buffer: this many
 * bytes. */
#define SEND_BYTES ((size_t)4 << 20)
#define TAG_BLOCKS 11

/* Copies bytes at from of the spill to offset of fd through buf
 * (SEND_BYTES); false, with the errno in *error, on failure. */
static bool copy_part(spill *sp, uint64_t from, uint64_t bytes, int fd,
                      uint64_t offset, unsigned char *buf, int *error)
{
    while (bytes > 0) {
        size_t n = bytes < SEND_BYTES ? (size_t)bytes : SEND_BYTES;
        if (!spill_read(sp, buf, n, from)) {
            *error = sp->error;
            return false;
        }
        if (!loopy_i_write_at(fd, buf, n, offset)) {
            *error = errno;
            return false;
        }
        from += n;
        offset += n;
        bytes -= n;
    }
    return true;
}

/* Collective, without a shared file: rank 0 writes the header, every
 * part's blocks in order (its own from its spill, and the others' as
 * they send them from theirs, in messages of SEND_BYTES at most, through
 * buf of as many bytes on every rank) and the index through out.  A
 * failure is recorded; a rank sends all its bytes and rank 0 takes every
 * message even after one, so that no rank waits. */
static void send_to_rank0(mpi_run *run, const db_shape *shape,
                          const loopy_i_db_source *meta,
                          const loopy_i_db_piece *piece, int count,
                          const uint64_t *sizes, uint64_t frame_bytes,
                          unsigned char *index, unsigned char *buf,
                          spill *sp, cli_out *out, const char *path)
{
    int P = run->ranks;
    bool failed = false;
    uint64_t from = 0;

    if (run->rank != 0) {
        /* This rank's parts in order, from the spill. */
        for (int k = 0; k < count; k++)
            for (uint64_t done = 0, n; done < piece[k].bytes; done += n) {
                n = piece[k].bytes - done < SEND_BYTES ? piece[k].bytes - done
                                                       : SEND_BYTES;
                if (!spill_read(sp, buf, (size_t)n, from)) {
                    /* (Sent all the same: rank 0 counts the bytes.) */
                    memset(buf, 0, (size_t)n);
                    failed = true;
                }
                from += n;
                MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_BLOCKS, MPI_COMM_WORLD);
            }
        if (failed)
            mpi_fail(run, EXIT_IO, "%s: reading this rank's spill file: %s",
                     path, strerror(sp->error));
        return;
    }
    {
        unsigned char header[DB_HEADER_MAX];
        size_t header_len;
        loopy_i_db_parts_finish(shape, meta, frame_bytes, index, header,
                                &header_len);
        failed = cli_write_bytes(out, header, header_len) != 0;
    }
    for (size_t g = 0; g < (size_t)P * (size_t)count; g++) {
        size_t r = g % (size_t)P, k = g / (size_t)P;
        uint64_t bytes = sizes[(r * (size_t)count + k) * 2], got = 0;
        if (r == 0) {
            for (uint64_t n; got < bytes; got += n, from += n) {
                n = bytes - got < SEND_BYTES ? bytes - got : SEND_BYTES;
                failed = failed || !spill_read(sp, buf, (size_t)n, from) ||
                         cli_write_bytes(out, buf, (size_t)n) != 0;
            }
            continue;
        }
        while (got < bytes) {
            MPI_Status st;
            int n = 0;
            MPI_Recv(buf, (int)SEND_BYTES, MPI_BYTE, (int)r, TAG_BLOCKS,
                     MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &n);
            got += (uint64_t)(n > 0 ? n : 0);
            failed = failed || cli_write_bytes(out, buf, (size_t)n) != 0;
            if (n <= 0)
                break; /* (a sender sends no empty message) */
        }
    }
    failed = failed || cli_write_bytes(out, index, (size_t)shape->blocks *
                                                       DB_ENTRY_BYTES + 8) != 0;
    if (failed)
        mpi_fail(run, EXIT_IO, "%s: write failed", path);
}

bool mpi_write_words_db(mpi_run *run, const loopy_i_db_source *meta,
                        const mpi_db_part *mine, int count, const char *path,
                        cli_out *out, const char *tmp_path, db_shape *shape)
{
    int P = run->ranks, me = run->rank, fd = -1, error = 0;
    bool shared = true;
    unsigned char *buf = malloc(SEND_BYTES);
    spill sp = {-1, 0, 0};
    char spill_dir[4096];
    size_t parts = (size_t)P * (size_t)count;
    loopy_i_db_tally *t = malloc(parts * sizeof *t + 1);
    uint64_t *flat = malloc(parts * LOOPY_I_DB_TALLY_WORDS * sizeof *flat + 1);
    uint64_t *need = malloc(parts * sizeof *need + 1);
    /* Per part: compressed bytes and blocks (gathered); per rank: the
     * counts of the exchanges. */
    uint64_t *sizes = malloc(parts * 2 * sizeof *sizes + 1);
    uint64_t *my_sizes = malloc((size_t)count * 2 * sizeof *my_sizes + 1);
    int *counts = calloc((size_t)P * 6, sizeof *counts);
    loopy_i_db_piece *piece = calloc((size_t)count, sizeof *piece);
    uint64_t *mine_flat =
        malloc((size_t)count * LOOPY_I_DB_TALLY_WORDS * sizeof *mine_flat + 1);
    tails x;
    layout l;
    unsigned char *entries = NULL, *gathered = NULL, *index = NULL;
    uint64_t my_blocks = 0, frame_bytes = 0, header_bytes;
    loopy_status status;
    bool ok = false;

    memset(&x, 0, sizeof x);
    memset(shape, 0, sizeof *shape);
    if (t == NULL || flat == NULL || need == NULL || sizes == NULL ||
        my_sizes == NULL || counts == NULL || piece == NULL ||
        mine_flat == NULL || buf == NULL || parts > (size_t)INT_MAX)
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
    else if (!spill_open(&sp, tmp_path, spill_dir, sizeof spill_dir))
        mpi_fail(run, EXIT_IO, "%s: cannot make a spill file for the "
                 "database's blocks in %s: %s", path, spill_dir,
                 strerror(errno));
    for (int k = 0; run->status == EXIT_OK && k < count; k++) {
        loopy_i_db_tally mt;
        if (loopy_i_db_part_tally(&mine[k].v, mine[k].from, mine[k].to, &mt) !=
            LOOPY_OK)
            mpi_fail(run, EXIT_INPUT, "%s: a position is left unsolved",
                     meta->name);
        pack_tally(&mt, mine_flat + (size_t)k * LOOPY_I_DB_TALLY_WORDS);
    }
    if (!mpi_agree(run))
        goto done;
    MPI_Allgather(mine_flat, count * LOOPY_I_DB_TALLY_WORDS, MPI_UINT64_T, flat,
                  count * LOOPY_I_DB_TALLY_WORDS, MPI_UINT64_T, MPI_COMM_WORLD);
    unpack_tallies(P, count, flat, t);
    /* Every rank decides alike, from the same tallies. */
    status = loopy_i_db_parts_shape(meta, NULL, t, (int)parts, shape);
    if (status != LOOPY_OK) {
        mpi_fail(run, cli_exit_status(status), "%s: %s", path,
                 loopy_strerror(status));
        goto done;
    }
    loopy_i_db_tail_needs(shape, t, (int)parts, need);
    l.P = P;
    l.me = me;
    l.count = count;
    l.parts = (int)parts;
    l.mine = mine;
    l.t = t;
    l.s = shape;
    l.need = need;
    x.scount = counts;
    x.sdispl = counts + P;
    x.rcount = counts + 2 * P;
    x.rdispl = counts + 3 * P;
    plan_tails(run, &l, &x);
    if (!mpi_agree(run))
        goto done;
    MPI_Alltoallv(x.send, x.scount, x.sdispl, MPI_BYTE, x.recv, x.rcount,
                  x.rdispl, MPI_BYTE, MPI_COMM_WORLD);
    if (!take_tails(run, &l, &x) || !mpi_agree(run))
        goto done;
    /* What was sent and received is in the tails now. */
    free(x.send);
    free(x.recv);
    x.send = x.recv = NULL;

    {
        /* Tests make the windows tiny, so that a part takes many. */
        const char *window = getenv("LOOPY_MPI_WINDOW");
        long want = window != NULL ? strtol(window, NULL, 10) : 0;
        loopy_i_db_window_blocks =
            want >= 1 && want <= (1L << 30) ? (uint64_t)want : 0;
    }
    for (int k = 0; run->status == EXIT_OK && k < count; k++) {
        int g = k * P + me;
        status = loopy_i_db_part_compress(shape, t, (int)parts, g, &mine[k].v,
                                          x.tail[k], need[g], 0, spill_frames,
                                          &sp, &piece[k]);
        if (mpi_fault(run, "compress"))
            mpi_fail(run, EXIT_RESOURCE, "out of memory: compressing the "
                     "database's blocks (LOOPY_MPI_FAULT)");
        else if (status == LOOPY_EIO)
            mpi_fail(run, EXIT_IO, "%s: writing the spill file in %s: %s",
                     path, spill_dir, strerror(sp.error));
        else if (status != LOOPY_OK)
            mpi_fail(run, cli_exit_status(status),
                     "%s: compressing the database's positions %" PRIu64
                     " to %" PRIu64 ": %s",
                     path, mine[k].from, mine[k].to,
                     status == LOOPY_ENOMEM ? "out of memory"
                                            : loopy_strerror(status));
        free(x.tail[k]); /* in the part's blocks now */
        x.tail[k] = NULL;
        my_sizes[2 * k] = piece[k].bytes;
        my_sizes[2 * k + 1] = piece[k].blocks;
        my_blocks += piece[k].blocks;
    }
    if (run->status == EXIT_OK &&
        my_blocks > (uint64_t)INT_MAX / DB_ENTRY_BYTES)
        mpi_fail(run, EXIT_RESOURCE,
                 "%" PRIu64 " blocks of the database on "
                 "one rank: more than an MPI message carries; use more ranks",
                 my_blocks);
    if (run->status == EXIT_OK) {
        entries = malloc((size_t)my_blocks * DB_ENTRY_BYTES + 1);
        if (entries == NULL)
            mpi_fail(run, EXIT_RESOURCE, "out of memory");
    }
    if (run->status == EXIT_OK &&
        shape->blocks > (uint64_t)INT_MAX / DB_ENTRY_BYTES)
        mpi_fail(run, EXIT_RESOURCE,
                 "%s: a block index of %" PRIu64 " blocks, more than rank 0 "
                 "gathers in one MPI message (%d)",
                 path, shape->blocks, INT_MAX / (int)DB_ENTRY_BYTES);
    if (me == 0 && run->status == EXIT_OK) {
        index = malloc((size_t)shape->blocks * DB_ENTRY_BYTES + 8);
        gathered = malloc((size_t)shape->blocks * DB_ENTRY_BYTES + 1);
        if (index == NULL || gathered == NULL)
            mpi_fail(run, EXIT_RESOURCE,
                     "out of memory: the block index, %" PRIu64 " bytes",
                     shape->blocks * DB_ENTRY_BYTES);
    }
    if (!mpi_agree(run))
        goto done;

    /* Where each part's blocks go: after the header and the parts before
     * it, from every part's size. */
    MPI_Allgather(my_sizes, 2 * count, MPI_UINT64_T, sizes, 2 * count,
                  MPI_UINT64_T, MPI_COMM_WORLD);
    /* Every rank writes into rank 0's temporary file when all know its
     * name and can open it; else (an output that is not a regular file, a
     * name too long to share, a cluster whose nodes share no file system)
     * the blocks go to rank 0, which writes them in order. */
    {
        int mine_shared = tmp_path != NULL, all_shared;
        if (mine_shared && me == 0) {
            fd = fileno(out->file);
        } else if (mine_shared) {
            fd = open(tmp_path, O_WRONLY | O_CLOEXEC);
            mine_shared = fd >= 0 && !mpi_fault(run, "share");
        }
        MPI_Allreduce(&mine_shared, &all_shared, 1, MPI_INT, MPI_MIN,
                      MPI_COMM_WORLD);
        shared = all_shared != 0;
        if (!shared && me != 0 && fd >= 0)
            close(fd);
        if (!shared)
            fd = -1; /* (rank 0's is its output's, closed with it) */
    }
    header_bytes = loopy_i_db_header_bytes(meta);
    for (size_t g = 0; g < parts; g++) {
        size_t r = g % (size_t)P, k = g / (size_t)P;
        frame_bytes += sizes[(r * (size_t)count + k) * 2];
    }
    {
        uint64_t offset = header_bytes, from = 0;
        unsigned char *e = entries;
        for (size_t g = 0; g < parts; g++) {
            size_t r = g % (size_t)P, k = g / (size_t)P;
            if (r == (size_t)me) {
                if (shared && fd >= 0 && error == 0) {
                    if (mpi_fault(run, "write"))
                        error = ENOSPC;
                    else
                        copy_part(&sp, from, piece[k].bytes, fd, offset, buf,
                                  &error);
                }
                from += piece[k].bytes;
                loopy_i_db_piece_entries(&piece[k], offset, e);
                e += piece[k].blocks * DB_ENTRY_BYTES;
            }
            offset += sizes[(r * (size_t)count + k) * 2];
        }
    }
    if (fd >= 0 && me != 0) {
        if (error == 0 && fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
            error = errno;
        if (close(fd) != 0 && error == 0)
            error = errno;
    }
    if (!shared && mpi_fault(run, "write"))
        error = ENOSPC;
    if (error != 0)
        mpi_fail(run, EXIT_IO, "%s: write failed: %s%s", path, strerror(error),
                 mpi_fault(run, "write") ? " (LOOPY_MPI_FAULT)" : "");

    /* The index, gathered on rank 0 (each rank's entries, its parts in
     * order) and put in the parts' order; rank 0 writes it and the
     * header.  Every write is done once all have agreed, below. */
    {
        int len = (int)(my_blocks * DB_ENTRY_BYTES);
        int *gcount = counts + 4 * P, *gdispl = counts + 5 * P;
        MPI_Gather(&len, 1, MPI_INT, gcount, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int r = 0, d = 0; me == 0 && r < P; r++) {
            gdispl[r] = d;
            d += gcount[r];
        }
        MPI_Gatherv(entries, len, MPI_BYTE, gathered, gcount, gdispl, MPI_BYTE,
                    0, MPI_COMM_WORLD);
        if (me == 0) {
            uint64_t *from = calloc((size_t)P, sizeof *from);
            unsigned char *to = index;
            if (from == NULL)
                mpi_fail(run, EXIT_RESOURCE, "out of memory");
            for (size_t g = 0; from != NULL && g < parts; g++) {
                size_t r = g % (size_t)P, k = g / (size_t)P;
                uint64_t bytes =
                    sizes[(r * (size_t)count + k) * 2 + 1] * DB_ENTRY_BYTES;
                memcpy(to, gathered + gdispl[r] + from[r], (size_t)bytes);
                from[r] += bytes;
                to += bytes;
            }
            free(from);
        }
    }
    if (shared && me == 0 && run->status == EXIT_OK) {
        unsigned char header[DB_HEADER_MAX];
        size_t header_len;
        loopy_i_db_parts_finish(shape, meta, frame_bytes, index, header,
                                &header_len);
        if (!loopy_i_write_at(fd, header, header_len, 0) ||
            !loopy_i_write_at(fd, index,
                              (size_t)shape->blocks * DB_ENTRY_BYTES + 8,
                              header_bytes + frame_bytes))
            mpi_fail(run, EXIT_IO, "%s: write failed: %s", path,
                     strerror(errno));
    } else if (!shared && mpi_agree(run)) {
        /* (Collective: every rank sends, or none, once all agree.) */
        send_to_rank0(run, shape, meta, piece, count, sizes, frame_bytes,
                      index, buf, &sp, out, path);
    }
    ok = mpi_agree(run);

done:
    for (int k = 0; piece != NULL && k < count; k++)
        loopy_i_db_piece_free(&piece[k]);
    free(piece);
    tails_free(&x, count);
    free(t);
    free(flat);
    free(need);
    free(sizes);
    free(my_sizes);
    free(counts);
    free(mine_flat);
    free(entries);
    free(gathered);
    free(index);
    free(buf);
    if (sp.fd >= 0)
        close(sp.fd);
    return ok;
}
