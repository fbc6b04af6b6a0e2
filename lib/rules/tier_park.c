/*
 * tier_park.c - tiers parked: a tier's records compressed to the end of
 * the park file and their blocks in the work file given back to the file
 * system, and back again (tier_store.h has the layout).  The order of
 * writes keeps a crash harmless: the frames reach the disk before the
 * journal entry that records them, and the blocks are given back only
 * after it; a park the crash cut short is not recorded, and the park file
 * is cut back to the frames recorded when the solve resumes.
 */
#define _GNU_SOURCE /* fallocate's hole punching */
#include "tier_store.h"

#include <zstd.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* zstd's level for parked records: its fastest, since each tier is
 * parked once or twice and read back as often. */
#define PARK_LEVEL 1
/* Compressed bytes read at a time when a tier comes back. */
#define PARK_READ ((size_t)1 << 20)
/* The largest window a frame may ask for: a chunk's, rounded up. */
#define PARK_WINDOW_LOG 23

loopy_status loopy_i_tier_store_hold(tier_store *st, uint64_t lo, uint64_t hi,
                                     loopy_diag *diag)
{
    int err;

    if (!st->parks || hi <= lo)
        return LOOPY_OK;
    err = posix_fallocate(st->fd, (off_t)(lo * st->width),
                          (off_t)((hi - lo) * st->width));
    if (err == 0 || err == EOPNOTSUPP || err == EINVAL)
        return LOOPY_OK;
    loopy_i_diag(diag, 0, 0, "%s: no room for %llu bytes of records: %s",
                 st->path, (unsigned long long)((hi - lo) * st->width),
                 strerror(err));
    return err == ENOSPC ? LOOPY_ETOOBIG : LOOPY_EIO;
}

/* records[lo .. hi): their whole pages' blocks given back to the file
 * system (where it can punch holes; a page shared with another tier
 * stays), their pages dropped from memory. */
static void give_back(tier_store *st, uint64_t lo, uint64_t hi)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t a = (lo * st->width + page - 1) / page * page;
    uint64_t b = hi * st->width / page * page;

#ifdef FALLOC_FL_PUNCH_HOLE
    if (b > a)
        (void)fallocate(st->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                        (off_t)a, (off_t)(b - a));
#else
    (void)a;
    (void)b;
#endif
    loopy_i_tier_store_release(st, lo, hi);
}

/* Tier's records leave the work file (they are in the park file). */
static void put_away(tier_store *st, uint64_t tier, uint64_t lo, uint64_t hi)
{
    give_back(st, lo, hi);
    st->back[tier] = 0;
}

/* Compresses chunks c0 .. c0 + n - 1 of the bytes at rec (bytes long) on
 * threads into buf (n slots of bound bytes), their sizes into size. */
static loopy_status compress_chunks(const unsigned char *rec, uint64_t bytes,
                                    uint64_t c0, uint64_t n, int threads,
                                    unsigned char *buf, size_t bound,
                                    size_t *size)
{
    int failed = 0;

    (void)threads; /* in a build without OpenMP */
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int64_t i = 0; i < (int64_t)n; i++) {
        uint64_t off = (c0 + (uint64_t)i) * TIER_PARK_CHUNK;
        uint64_t m = bytes - off < TIER_PARK_CHUNK ? bytes - off
                                                   : TIER_PARK_CHUNK;
        size_t r = ZSTD_compress(buf + (size_t)i * bound, bound, rec + off,
                                 (size_t)m, PARK_LEVEL);
        if (ZSTD_isError(r)) {
#pragma omp atomic write
            failed = 1;
        } else {
            size[i] = r;
        }
    }
    /* Only memory can fail: the bound is zstd's own. */
    return failed ? LOOPY_ENOMEM : LOOPY_OK;
}

loopy_status loopy_i_tier_store_park(tier_store *st, uint64_t tier,
                                     uint64_t lo, uint64_t hi, int threads,
                                     loopy_diag *diag)
{
    const unsigned char *rec;
    uint64_t bytes, chunks, window, at, len = 0, checksum;
    size_t bound = ZSTD_compressBound((size_t)TIER_PARK_CHUNK), *size;
    unsigned char *buf;
    loopy_status status = LOOPY_OK;

    if (!st->parks || hi <= lo)
        return LOOPY_OK;
    if (st->parked[tier]) {
        /* In the park file already (and read back since): the same. */
        put_away(st, tier, lo, hi);
        return LOOPY_OK;
    }
    rec = (const unsigned char *)st->record + lo * st->width;
    bytes = (hi - lo) * st->width;
    chunks = (bytes + TIER_PARK_CHUNK - 1) / TIER_PARK_CHUNK;
    window = 2 * (uint64_t)(threads > 0 ? threads : 1);
    if (window > chunks)
        window = chunks;
    at = st->park_end;
    buf = loopy_i_malloc((size_t)window, bound);
    size = loopy_i_malloc((size_t)window, sizeof *size);
    if (buf == NULL || size == NULL) {
        loopy_i_free(buf);
        loopy_i_free(size);
        loopy_i_diag(diag, 0, 0, "out of memory parking tier %llu",
                     (unsigned long long)tier);
        return LOOPY_ENOMEM;
    }
    for (uint64_t c0 = 0; status == LOOPY_OK && c0 < chunks; c0 += window) {
        uint64_t n = chunks - c0 < window ? chunks - c0 : window;
        status = compress_chunks(rec, bytes, c0, n, threads, buf, bound, size);
        if (status != LOOPY_OK)
            loopy_i_diag(diag, 0, 0, "out of memory parking tier %llu",
                         (unsigned long long)tier);
        for (uint64_t i = 0; status == LOOPY_OK && i < n; i++) {
            if (!loopy_i_write_at(st->park_fd, buf + (size_t)i * bound,
                                  size[i], at + len)) {
                int err = errno;
                loopy_i_diag(diag, 0, 0, "%s: cannot write: %s", st->park_path,
                             strerror(err));
                status = err == ENOSPC ? LOOPY_ETOOBIG : LOOPY_EIO;
            }
            len += size[i];
        }
    }
    loopy_i_free(buf);
    loopy_i_free(size);
    if (status != LOOPY_OK)
        return status;
    checksum = loopy_i_checksum(rec, bytes, threads);
    if (fdatasync(st->park_fd) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot write: %s", st->park_path,
                     strerror(errno));
        return LOOPY_EIO;
    }
    status = loopy_i_tier_store_append(st, TIER_ENTRY_PARKED, tier, checksum,
                                       at, len, diag);
    if (status != LOOPY_OK)
        return status;
    loopy_i_tier_store_parked(st, tier, checksum, at, len);
    put_away(st, tier, lo, hi);
    return LOOPY_OK;
}

static loopy_status damaged(tier_store *st, uint64_t tier, const char *why,
                            loopy_diag *diag)
{
    loopy_i_diag(diag, 0, 0, "%s: tier %llu's records are damaged (%s): "
                 "remove it, %s and its journal to start again",
                 st->park_path, (unsigned long long)tier, why, st->path);
    return LOOPY_EFORMAT;
}

/* Decompresses the park file's frames of tier into out (bytes long),
 * reading them through in (PARK_READ bytes). */
static loopy_status inflate(tier_store *st, uint64_t tier, ZSTD_DCtx *dctx,
                            unsigned char *in, unsigned char *out,
                            uint64_t bytes, loopy_diag *diag)
{
    ZSTD_outBuffer ob = {out, (size_t)bytes, 0};
    uint64_t at = st->park_at[tier], left = st->park_len[tier];
    size_t ret = 1;

    while (left > 0) {
        size_t n = left < PARK_READ ? (size_t)left : PARK_READ;
        ssize_t got = pread(st->park_fd, in, n, (off_t)at);
        ZSTD_inBuffer ib = {in, 0, 0};
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            loopy_i_diag(diag, 0, 0, "%s: cannot read: %s", st->park_path,
                         strerror(errno));
            return LOOPY_EIO;
        }
        if (got == 0)
            return damaged(st, tier, "the park file is shorter than its "
                           "journal says", diag);
        ib.size = (size_t)got;
        while (ib.pos < ib.size) {
            size_t in_was = ib.pos, out_was = ob.pos;
            ret = ZSTD_decompressStream(dctx, &ob, &ib);
            if (ZSTD_isError(ret))
                return damaged(st, tier, ZSTD_getErrorName(ret), diag);
            /* Output full and input left that gives nothing: more records
             * than the tier has. */
            if (ib.pos == in_was && ob.pos == out_was)
                return damaged(st, tier, "more records than the tier has",
                               diag);
        }
        at += (uint64_t)got;
        left -= (uint64_t)got;
    }
    if (ret != 0 || ob.pos != ob.size)
        return damaged(st, tier, "fewer records than the tier has", diag);
    return LOOPY_OK;
}

loopy_status loopy_i_tier_store_unpark(tier_store *st, uint64_t tier,
                                       uint64_t lo, uint64_t hi, int threads,
                                       loopy_diag *diag)
{
    unsigned char *out, *in;
    uint64_t bytes;
    ZSTD_DCtx *dctx;
    loopy_status status;

    if (!st->parks || !st->parked[tier] || st->back[tier] || hi <= lo)
        return LOOPY_OK;
    status = loopy_i_tier_store_hold(st, lo, hi, diag);
    if (status != LOOPY_OK)
        return status;
    out = (unsigned char *)st->record + lo * st->width;
    bytes = (hi - lo) * st->width;
    dctx = ZSTD_createDCtx();
    in = loopy_i_malloc(PARK_READ, 1);
    if (dctx == NULL || in == NULL ||
        ZSTD_isError(ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax,
                                            PARK_WINDOW_LOG))) {
        ZSTD_freeDCtx(dctx);
        loopy_i_free(in);
        loopy_i_diag(diag, 0, 0, "out of memory reading tier %llu back",
                     (unsigned long long)tier);
        return LOOPY_ENOMEM;
    }
    status = inflate(st, tier, dctx, in, out, bytes, diag);
    ZSTD_freeDCtx(dctx);
    loopy_i_free(in);
    if (status == LOOPY_OK &&
        loopy_i_checksum(out, bytes, threads) != st->park_checksum[tier])
        status = damaged(st, tier, "not the records its journal recorded",
                         diag);
    if (status == LOOPY_OK)
        st->back[tier] = 1;
    return status;
}
