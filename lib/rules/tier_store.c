/*
 * tier_store.c - the work file and journal of a tier solve on disk
 * (tier_store.h has their layout).  The order of writes is what makes a
 * crash harmless: a tier's records reach the disk (msync) before its
 * journal entry is written and flushed (fdatasync), so an entry names only
 * records that are there; an entry cut short is dropped on resume, and the
 * tier solved again, to the same bytes.
 */
#define _DEFAULT_SOURCE /* madvise, MADV_DONTNEED */
#include "tier_store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const unsigned char journal_magic[8] = {0x89, 'L', 'T', 'J',
                                               '\r', '\n', 0x1a, '\n'};

static void put(unsigned char *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void make_header(const tier_store_key *key, unsigned char *h)
{
    size_t name_len = strlen(key->name), params_len = strlen(key->params);

    memset(h, 0, TIER_JOURNAL_HEADER);
    memcpy(h, journal_magic, sizeof journal_magic);
    put(h + 8, TIER_JOURNAL_VERSION, 4);
    put(h + 12, key->flags, 4);
    put(h + 16, key->size, 8);
    put(h + 24, key->tiers, 8);
    put(h + 32, name_len, 2);
    put(h + 34, params_len, 2);
    memcpy(h + 40, key->name, name_len);
    memcpy(h + 40 + name_len, key->params, params_len);
    put(h + TIER_JOURNAL_HEADER - 8,
        loopy_i_checksum(h, TIER_JOURNAL_HEADER - 8, 1), 8);
}

/* Maps the work file (size records). */
static loopy_status map_records(tier_store *st, const char *path,
                                loopy_diag *diag)
{
    void *map;

    st->map_bytes = (size_t)st->size * st->width;
    /* No records (a rank of loopy-mpi with no index): a byte of memory,
     * so that the records have an address. */
    if (st->map_bytes == 0) {
        st->map_bytes = 1;
        map = mmap(NULL, 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    } else {
        map = mmap(NULL, st->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED,
                   st->fd, 0);
    }
    if (map == MAP_FAILED) {
        loopy_i_diag(diag, 0, 0, "%s: cannot map the work file: %s", path,
                     strerror(errno));
        return errno == ENOMEM ? LOOPY_ENOMEM : LOOPY_EIO;
    }
    st->record = map;
    return LOOPY_OK;
}

/* Whether an entry of kind for tier follows what st records so far;
 * a park, with its frames at, len bytes, recorded. */
static bool take_entry(tier_store *st, uint64_t kind, uint64_t tier,
                       uint64_t checksum, uint64_t at, uint64_t len)
{
    if (kind == TIER_ENTRY_REACHED)
        return !st->reached && tier == 0 && checksum == 0 && at == 0 &&
               len == 0 && (st->reached = true);
    if (tier >= st->tiers)
        return false;
    if (kind == TIER_ENTRY_DONE) {
        if (!st->reached || st->done[tier] || at != 0 || len != 0)
            return false;
        st->done[tier] = 1;
        st->checksum[tier] = checksum;
        if (st->parks)
            st->parked[tier] = 0;
        return true;
    }
    /* A park: once while the tiers are reached, then of a tier done (its
     * records then what it was done with), frames at the park file's end. */
    if (kind != TIER_ENTRY_PARKED || !st->parks || st->parked[tier] ||
        (st->reached ? !st->done[tier] || checksum != st->checksum[tier]
                     : st->park_len[tier] != 0) ||
        at != st->park_end || len == 0 || len > UINT64_MAX - at)
        return false;
    loopy_i_tier_store_parked(st, tier, checksum, at, len);
    return true;
}

void loopy_i_tier_store_parked(tier_store *st, uint64_t tier,
                               uint64_t checksum, uint64_t at, uint64_t len)
{
    st->parked[tier] = 1;
    st->park_at[tier] = at;
    st->park_len[tier] = len;
    st->park_checksum[tier] = checksum;
    st->park_end = at + len;
}

/* Reads the journal's entries (after its header, checked by the caller)
 * into st; drops a last entry cut short or failing its checksum. */
static loopy_status read_entries(tier_store *st, loopy_diag *diag)
{
    unsigned char e[TIER_JOURNAL_ENTRY];
    off_t at = TIER_JOURNAL_HEADER;

    for (;;) {
        int64_t got =
            loopy_i_read_at(st->journal_fd, e, sizeof e, (uint64_t)at);
        uint64_t kind, tier;
        if (got < 0) {
            loopy_i_diag(diag, 0, 0, "%s: cannot read: %s", st->journal_path,
                         strerror(errno));
            return LOOPY_EIO;
        }
        if (got < (int64_t)sizeof e ||
            get(e + 40, 8) != loopy_i_checksum(e, 40, 1)) {
            /* The crash's own entry, or the end: anything after it is
             * not the journal's. */
            struct stat sb;
            if (fstat(st->journal_fd, &sb) == 0 && sb.st_size > at + (off_t)sizeof e) {
                loopy_i_diag(diag, 0, 0, "%s: damaged: the entry at byte %lld "
                             "is not one the solve wrote", st->journal_path,
                             (long long)at);
                return LOOPY_EFORMAT;
            }
            if (ftruncate(st->journal_fd, at) != 0) {
                loopy_i_diag(diag, 0, 0, "%s: cannot cut its last entry: %s",
                             st->journal_path, strerror(errno));
                return LOOPY_EIO;
            }
            return LOOPY_OK;
        }
        kind = get(e, 4);
        tier = get(e + 8, 8);
        if (get(e + 4, 4) != 0 ||
            !take_entry(st, kind, tier, get(e + 16, 8), get(e + 24, 8),
                        get(e + 32, 8))) {
            loopy_i_diag(diag, 0, 0, "%s: damaged: the entry at byte %lld "
                         "(kind %llu, tier %llu) does not follow", st->journal_path,
                         (long long)at, (unsigned long long)kind,
                         (unsigned long long)tier);
            return LOOPY_EFORMAT;
        }
        at += (off_t)sizeof e;
    }
}

/* Checks the journal's header against key; says what differs.  *blank:
 * the journal has no whole header and no entry, so nothing can have been
 * recorded yet (a crash while the solve began): it is begun again. */
static loopy_status check_header(tier_store *st, const tier_store_key *key,
                                 bool *blank, loopy_diag *diag)
{
    unsigned char h[TIER_JOURNAL_HEADER], want[TIER_JOURNAL_HEADER];
    int64_t got = loopy_i_read_at(st->journal_fd, h, sizeof h, 0);
    struct stat sb;

    *blank = false;
    if (got < 0 || fstat(st->journal_fd, &sb) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot read: %s", st->journal_path,
                     strerror(errno));
        return LOOPY_EIO;
    }
    if (got < (int64_t)sizeof h || memcmp(h, journal_magic, 8) != 0 ||
        get(h + TIER_JOURNAL_HEADER - 8, 8) !=
            loopy_i_checksum(h, TIER_JOURNAL_HEADER - 8, 1)) {
        if (sb.st_size < (off_t)(TIER_JOURNAL_HEADER + TIER_JOURNAL_ENTRY)) {
            *blank = true;
            return LOOPY_OK;
        }
        loopy_i_diag(diag, 0, 0, "%s: not the journal of a tier solve, or "
                     "damaged", st->journal_path);
        return LOOPY_EFORMAT;
    }
    make_header(key, want);
    if (memcmp(h, want, sizeof h) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: the journal of another solve (%s): "
                     "remove it and %s to start again", st->journal_path,
                     get(h + 8, 4) != TIER_JOURNAL_VERSION
                         ? "another version of loopy"
                     : memcmp(h + 32, want + 32, TIER_JOURNAL_HEADER - 40) != 0
                         ? "another game"
                     : (get(h + 12, 4) ^ key->flags) & TIER_FLAG_BYTES
                         ? "records of another width"
                     : (get(h + 12, 4) ^ key->flags) & TIER_FLAG_PARKS
                         ? "another solver's work file"
                     : get(h + 12, 4) != key->flags
                         ? "misere, symmetry or --all-legal differ"
                         : "another index space",
                     st->path);
        return LOOPY_EINVAL;
    }
    return LOOPY_OK;
}

/* Gives the work file its size, its records all absent (unless the
 * journal says every tier was reached), its blocks on the disk at once:
 * a full disk is said now, not met mid-solve as a SIGBUS. */
static loopy_status size_records(tier_store *st, loopy_diag *diag)
{
    struct stat sb;
    off_t bytes = (off_t)(st->size * st->width);
    int err;

    if (st->reached) {
        if (fstat(st->fd, &sb) != 0) {
            loopy_i_diag(diag, 0, 0, "%s: cannot read: %s", st->path,
                         strerror(errno));
            return LOOPY_EIO;
        }
        if (sb.st_size != bytes) {
            loopy_i_diag(diag, 0, 0, "%s: the work file has %lld bytes, not "
                         "%lld: remove it and its journal to start again",
                         st->path, (long long)sb.st_size, (long long)bytes);
            return LOOPY_EFORMAT;
        }
        return LOOPY_OK;
    }
    if (ftruncate(st->fd, 0) != 0 || ftruncate(st->fd, bytes) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot size the work file: %s", st->path,
                     strerror(errno));
        return LOOPY_EIO;
    }
    /* With parking, a tier's blocks at a time (loopy_i_tier_store_hold). */
    err = bytes > 0 && !st->parks ? posix_fallocate(st->fd, 0, bytes) : 0;
    if (err != 0 && err != EOPNOTSUPP && err != EINVAL) {
        loopy_i_diag(diag, 0, 0, "%s: no room for the work file's %lld bytes: "
                     "%s", st->path, (long long)bytes, strerror(err));
        return err == ENOSPC ? LOOPY_ETOOBIG : LOOPY_EIO;
    }
    return LOOPY_OK;
}

/* The park file cut to what the journal records: all of it when the
 * tiers are to be reached again (nothing parked then counts), else the
 * frames of its last park (a park the crash cut short is not recorded);
 * refused when shorter. */
static loopy_status size_parks(tier_store *st, loopy_diag *diag)
{
    struct stat sb;

    if (!st->reached) {
        /* The parks of a reach the crash cut short: forgotten, the
         * journal's entries first. */
        memset(st->parked, 0, (size_t)st->tiers);
        memset(st->park_len, 0, (size_t)st->tiers * sizeof *st->park_len);
        st->park_end = 0;
        if (ftruncate(st->journal_fd, TIER_JOURNAL_HEADER) != 0 ||
            fdatasync(st->journal_fd) != 0) {
            loopy_i_diag(diag, 0, 0, "%s: cannot cut: %s", st->journal_path,
                         strerror(errno));
            return LOOPY_EIO;
        }
    }
    if (fstat(st->park_fd, &sb) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot read: %s", st->park_path,
                     strerror(errno));
        return LOOPY_EIO;
    }
    if ((uint64_t)sb.st_size < st->park_end) {
        loopy_i_diag(diag, 0, 0, "%s: %lld bytes, where the journal records "
                     "%llu: remove it, the work file and its journal to start "
                     "again", st->park_path, (long long)sb.st_size,
                     (unsigned long long)st->park_end);
        return LOOPY_EFORMAT;
    }
    if ((uint64_t)sb.st_size > st->park_end &&
        ftruncate(st->park_fd, (off_t)st->park_end) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot cut: %s", st->park_path,
                     strerror(errno));
        return LOOPY_EIO;
    }
    return LOOPY_OK;
}

/* Opens path with flags; on failure says why, naming the work file
 * (shown), whose journal path may be. */
static int open_file(const char *path, const char *shown, int flags,
                     bool resume, loopy_status *status, loopy_diag *diag)
{
    int fd = open(path, flags | O_CLOEXEC, 0644);

    if (fd < 0) {
        int err = errno;
        loopy_i_diag(diag, 0, 0, "%s: %s", shown,
                     err == EEXIST ? "the work file of an earlier solve is "
                                     "there: continue it (--resume), or "
                                     "remove it and its journal"
                     : err == ENOENT && resume ? "no work file to resume"
                                               : strerror(err));
        *status = err == EEXIST || (err == ENOENT && resume) ? LOOPY_EINVAL
                                                             : LOOPY_EIO;
    }
    return fd;
}

loopy_status loopy_i_tier_store_open(tier_store *st, const char *path,
                                     bool resume, const tier_store_key *key,
                                     loopy_diag *diag)
{
    size_t len = strlen(path);
    loopy_status status = LOOPY_OK;
    bool blank = !resume, made = false;

    memset(st, 0, sizeof *st);
    st->fd = st->journal_fd = st->park_fd = -1;
    st->size = key->size;
    st->tiers = key->tiers;
    st->width = key->flags & TIER_FLAG_BYTES ? 1 : 2;
    if (key->size > SIZE_MAX / 2) {
        loopy_i_diag(diag, 0, 0, "%s: an index space of %llu positions is too "
                     "large for a work file", path,
                     (unsigned long long)key->size);
        return LOOPY_ETOOBIG;
    }
    if (strlen(key->name) + strlen(key->params) > TIER_JOURNAL_HEADER - 48) {
        loopy_i_diag(diag, 0, 0, "%s: the game's name and parameters are too "
                     "long for a work file's journal", path);
        return LOOPY_ETOOBIG;
    }
    st->path = loopy_i_malloc(len + 1, 1);
    st->journal_path = loopy_i_malloc(len + sizeof "-journal", 1);
    st->done = loopy_i_calloc((size_t)key->tiers, 1);
    st->checksum = loopy_i_calloc((size_t)key->tiers, sizeof *st->checksum);
    st->parks = (key->flags & TIER_FLAG_PARKS) != 0;
    st->park_fd = -1;
    if (st->parks) {
        st->park_path = loopy_i_malloc(len + sizeof "-parked", 1);
        st->parked = loopy_i_calloc((size_t)key->tiers, 1);
        st->park_at = loopy_i_calloc((size_t)key->tiers, sizeof *st->park_at);
        st->park_len = loopy_i_calloc((size_t)key->tiers, sizeof *st->park_len);
        st->park_checksum =
            loopy_i_calloc((size_t)key->tiers, sizeof *st->park_checksum);
        st->back = loopy_i_calloc((size_t)key->tiers, 1);
    }
    if (st->path == NULL || st->journal_path == NULL || st->done == NULL ||
        st->checksum == NULL ||
        (st->parks && (st->park_path == NULL || st->parked == NULL ||
                       st->park_at == NULL || st->park_len == NULL ||
                       st->park_checksum == NULL || st->back == NULL))) {
        loopy_i_tier_store_close(st, false);
        return LOOPY_ENOMEM;
    }
    memcpy(st->path, path, len + 1);
    memcpy(st->journal_path, path, len);
    memcpy(st->journal_path + len, "-journal", sizeof "-journal");
    if (st->parks) {
        memcpy(st->park_path, path, len);
        memcpy(st->park_path + len, "-parked", sizeof "-parked");
    }
    /* The journal first: it is what says a work file is there.  A work or
     * park file without its journal is no solve's (left by a solve killed
     * as it removed its files): a new solve removes it (a symbolic link
     * itself, not what it names) and makes its own.  A resume makes the
     * work file when a crash came before it. */
    st->journal_fd = open_file(st->journal_path, path,
                               resume ? O_RDWR : O_RDWR | O_CREAT | O_EXCL,
                               resume, &status, diag);
    if (st->journal_fd < 0 && resume && status == LOOPY_EINVAL &&
        access(path, F_OK) == 0)
        /* The work file without its journal: no solve's to continue. */
        loopy_i_diag(diag, 0, 0,
                     "%s: no work to resume: its journal %s is "
                     "missing, which a solve removes first once its database "
                     "is written (solve without --resume to start again)",
                     path, st->journal_path);
    made = !resume && st->journal_fd >= 0;
    if (made) {
        (void)unlink(path);
        if (st->parks)
            (void)unlink(st->park_path);
    }
    if (st->journal_fd >= 0)
        st->fd = open_file(path, path, resume ? O_RDWR | O_CREAT
                                        : O_RDWR | O_CREAT | O_EXCL,
                           resume, &status, diag);
    if (st->fd >= 0 && st->parks)
        st->park_fd = open_file(st->park_path, st->park_path,
                                resume ? O_RDWR | O_CREAT
                                       : O_RDWR | O_CREAT | O_EXCL,
                                false, &status, diag);
    if (status == LOOPY_OK &&
        flock(st->journal_fd, LOCK_EX | LOCK_NB) != 0) {
        int err = errno;
        loopy_i_diag(diag, 0, 0, "%s: %s", path,
                     err == EWOULDBLOCK ? "another solve is using this work "
                                          "file"
                                        : strerror(err));
        status = err == EWOULDBLOCK ? LOOPY_EINVAL : LOOPY_EIO;
    }
    if (status == LOOPY_OK && resume)
        status = check_header(st, key, &blank, diag);
    if (status == LOOPY_OK && !blank)
        status = read_entries(st, diag);
    if (status == LOOPY_OK && blank) {
        unsigned char h[TIER_JOURNAL_HEADER];
        make_header(key, h);
        if (ftruncate(st->journal_fd, 0) != 0 ||
            !loopy_i_write_at(st->journal_fd, h, sizeof h, 0) ||
            fdatasync(st->journal_fd) != 0) {
            loopy_i_diag(diag, 0, 0, "%s: cannot write: %s", st->journal_path,
                         strerror(errno));
            status = LOOPY_EIO;
        }
    }
    if (status == LOOPY_OK && st->parks)
        status = size_parks(st, diag);
    if (status == LOOPY_OK)
        status = size_records(st, diag);
    if (status == LOOPY_OK)
        status = map_records(st, path, diag);
    if (status != LOOPY_OK) {
        if (made) {
            if (st->park_fd >= 0)
                unlink(st->park_path);
            if (st->fd >= 0)
                unlink(path);
            unlink(st->journal_path);
        }
        loopy_i_tier_store_close(st, false);
    }
    return status;
}

/* The page-aligned range around base[lo .. hi) (bytes; outer) or inside
 * it. */
static void page_range(const void *base, uint64_t lo, uint64_t hi, bool outer,
                       uintptr_t *from, uintptr_t *to)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)base + (uintptr_t)lo;
    uintptr_t b = (uintptr_t)base + (uintptr_t)hi;

    *from = outer ? a / page * page : (a + page - 1) / page * page;
    *to = outer ? (b + page - 1) / page * page : b / page * page;
}

loopy_status loopy_i_tier_store_append(tier_store *st, uint32_t kind, uint64_t tier,
                                 uint64_t checksum, uint64_t at, uint64_t len,
                                 loopy_diag *diag)
{
    unsigned char e[TIER_JOURNAL_ENTRY];
    struct stat sb;

    memset(e, 0, sizeof e);
    put(e, kind, 4);
    put(e + 8, tier, 8);
    put(e + 16, checksum, 8);
    put(e + 24, at, 8);
    put(e + 32, len, 8);
    put(e + 40, loopy_i_checksum(e, 40, 1), 8);
    if (fstat(st->journal_fd, &sb) != 0 ||
        !loopy_i_write_at(st->journal_fd, e, sizeof e, (uint64_t)sb.st_size) ||
        fdatasync(st->journal_fd) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot write: %s", st->journal_path,
                     strerror(errno));
        return LOOPY_EIO;
    }
    return LOOPY_OK;
}

loopy_status loopy_i_tier_store_commit(tier_store *st, uint64_t lo,
                                       uint64_t hi, uint32_t kind,
                                       uint64_t tier, uint64_t checksum,
                                       loopy_diag *diag)
{
    uintptr_t from, to;
    loopy_status status;

    if (hi > lo) {
        page_range(st->record, lo * st->width, hi * st->width, true, &from,
                   &to);
        if ((uintptr_t)st->record + st->map_bytes < to)
            to = (uintptr_t)st->record + st->map_bytes;
        if (msync((void *)from, to - from, MS_SYNC) != 0) {
            loopy_i_diag(diag, 0, 0, "the work file: cannot write tier %llu: "
                         "%s", (unsigned long long)tier, strerror(errno));
            return LOOPY_EIO;
        }
    }
    status = loopy_i_tier_store_append(st, kind, tier, checksum, 0, 0, diag);
    if (status == LOOPY_OK && kind == TIER_ENTRY_DONE && st->parks)
        st->parked[tier] = 0;
    return status;
}

void loopy_i_tier_store_release(tier_store *st, uint64_t lo, uint64_t hi)
{
    loopy_i_release_mapped((const unsigned char *)st->record + lo * st->width,
                           (size_t)(hi - lo) * st->width);
}

void loopy_i_release_mapped(const void *bytes, size_t len)
{
    uintptr_t from, to;

    page_range(bytes, 0, len, false, &from, &to);
    /* Shared file pages: dropped from this process only; the file (or
     * the page cache) keeps them, and a later read brings them back. */
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
}

void loopy_i_tier_store_close(tier_store *st, bool keep_map)
{
    if (!keep_map && st->record != NULL)
        munmap(st->record, st->map_bytes);
    if (!keep_map)
        st->record = NULL;
    if (st->fd >= 0)
        close(st->fd);
    if (st->journal_fd >= 0)
        close(st->journal_fd);
    if (st->park_fd >= 0)
        close(st->park_fd);
    st->fd = st->journal_fd = st->park_fd = -1;
    loopy_i_free(st->path);
    loopy_i_free(st->journal_path);
    loopy_i_free(st->done);
    loopy_i_free(st->checksum);
    loopy_i_free(st->park_path);
    loopy_i_free(st->parked);
    loopy_i_free(st->park_at);
    loopy_i_free(st->park_len);
    loopy_i_free(st->park_checksum);
    loopy_i_free(st->back);
    st->back = NULL;
    st->park_path = NULL;
    st->parked = NULL;
    st->park_at = st->park_len = st->park_checksum = NULL;
    st->path = NULL;
    st->journal_path = NULL;
    st->done = NULL;
    st->checksum = NULL;
}
