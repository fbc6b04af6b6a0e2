/*
 * part.c - a rank's share of a binary graph file (see lib/io/binary.c for
 * the format), mapped and checked without any rank reading the whole file.
 *
 * The vertices are cut into ranges of about equal (vertices + predecessor
 * edges), found by rank 0 by binary search over the predecessor offsets,
 * read from the file a few bytes at a time.  Rank r maps the out-degrees
 * and offsets of its range and the predecessor lists they point to; the
 * successor lists are never read.  The file's checksums are over 1 MiB
 * blocks: each rank hashes the blocks that start in its part of a section
 * (mapping up to the end of the last one), rank 0 folds the hashes of all
 * ranks in order and compares.  Then every value that decides where memory
 * is read or written is checked on the rank that uses it, as the
 * single-process loader does: offsets monotone from 0 to m, predecessors
 * below n, degrees below 2^32 - 1 summing to m.  That every vertex stands
 * in the predecessor lists as often as its out-degree says is checked with
 * keyed fingerprints summed over all ranks (Blum's multiset check; the key
 * is drawn anew for every run): no memory access depends on it, only the
 * counting of moves.
 */
#include "mpi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads len bytes at offset off; false on an error or the end of file. */
static bool pread_all(int fd, void *buf, size_t len, uint64_t off)
{
    unsigned char *p = buf;

    while (len > 0) {
        ssize_t got = pread(fd, p, len, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        p += got;
        len -= (size_t)got;
        off += (uint64_t)got;
    }
    return true;
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;

    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* A mapped piece of a section: bytes [from, to) of the section at `at`. */
typedef struct piece {
    const unsigned char *at;
    uint64_t from, to;
} piece;

static const unsigned char nothing[8];

/* Maps bytes [from, to) of the section at file offset `sec` into *pc; the
 * mapping is kept in part->map[slot]. */
static bool map_piece(mpi_run *run, mpi_part *part, int slot, int fd,
                      const char *path, uint64_t sec, uint64_t from,
                      uint64_t to, piece *pc)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start, len;
    void *map;

    pc->from = from;
    pc->to = to;
    pc->at = nothing;
    if (to <= from)
        return true;
    start = (sec + from) / page * page;
    len = sec + to - start;
    if (len > SIZE_MAX) {
        mpi_fail(run, EXIT_RESOURCE, "%s: a share of %" PRIu64 " bytes is too "
                 "large to map", path, len);
        return false;
    }
    map = mpi_fault(run, "map") ? MAP_FAILED
                                : mmap(NULL, (size_t)len, PROT_READ,
                                       MAP_PRIVATE, fd, (off_t)start);
    if (map == MAP_FAILED) {
        mpi_fail(run, EXIT_RESOURCE, "%s: cannot map bytes %" PRIu64 "..%"
                 PRIu64 ": %s", path, sec + from, sec + to,
                 mpi_fault(run, "map") ? "Cannot allocate memory "
                                         "(LOOPY_MPI_FAULT)"
                                       : strerror(errno));
        return false;
    }
    part->map[slot] = map;
    part->map_len[slot] = (size_t)len;
    part->mapped += len;
    pc->at = (const unsigned char *)map + (sec + from - start);
    return true;
}

/* The end of the bytes to map for a rank owning [own_from, own_to) of a
 * section of sec_len bytes and needing [from, need_to): far enough to hash
 * every checksum block that starts in its part. */
static uint64_t map_end(uint64_t own_from, uint64_t own_to, uint64_t need_to,
                        uint64_t sec_len)
{
    uint64_t B = LOOPY_CHECKSUM_BLOCK, end = need_to;

    if (own_to > own_from) {
        uint64_t block_end = (own_to + B - 1) / B * B;
        if (block_end > sec_len)
            block_end = sec_len;
        if (block_end > end)
            end = block_end;
    }
    return end;
}

/* Collective: the checksum of a section from the hashes of the blocks each
 * rank owns ([own_from, own_to) of the section, mapped in pc); rank 0
 * compares it with the header's.  The parts of the ranks must cover the
 * section in rank order; rank 0 checks that they fit together. */
static void check_sum(mpi_run *run, const piece *pc, uint64_t own_from,
                      uint64_t own_to, uint64_t sec_len, uint64_t want,
                      const char *path, const char *name)
{
    uint64_t B = LOOPY_CHECKSUM_BLOCK;
    uint64_t first = (own_from + B - 1) / B;
    uint64_t end = own_to > own_from ? (own_to + B - 1) / B : first;
    uint64_t blocks = (sec_len + B - 1) / B;
    int count = (int)(end - first), *counts = NULL, *displ = NULL, fits = 1;
    uint64_t *mine, *all = NULL;

    /* Block counts are far below 2^31: a block is 1 MiB, and a file of
     * 2^51 bytes would not be mapped. */
    mine = malloc(((size_t)count + 1) * sizeof *mine);
    if (run->rank == 0) {
        counts = malloc((size_t)run->ranks * sizeof *counts);
        displ = malloc((size_t)run->ranks * sizeof *displ);
        all = malloc(((size_t)blocks + 1) * sizeof *all);
    }
    if (mine == NULL || (run->rank == 0 && (!counts || !displ || !all)))
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(run))
        goto done;
    for (int i = 0; i < count; i++) {
        uint64_t b = first + (uint64_t)i;
        uint64_t size = sec_len - b * B < B ? sec_len - b * B : B;
        mine[i] = loopy_i_checksum_block(pc->at + (b * B - pc->from), size, b);
    }
    MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (run->rank == 0) {
        uint64_t total = 0;
        for (int r = 0; r < run->ranks; r++) {
            displ[r] = (int)(total < blocks ? total : blocks);
            total += (uint64_t)counts[r];
        }
        fits = total == blocks;
    }
    MPI_Bcast(&fits, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!fits) { /* parts overlapping or apart: offsets damaged */
        if (run->rank == 0)
            mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: a value "
                     "out of range", path);
        goto done;
    }
    MPI_Gatherv(mine, count, MPI_UINT64_T, all, counts, displ, MPI_UINT64_T, 0,
                MPI_COMM_WORLD);
    if (run->rank == 0 && loopy_i_checksum_fold(all, sec_len) != want)
        mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: bad checksum "
                 "of the %s", path, name);
done:
    free(mine);
    free(counts);
    free(displ);
    free(all);
}

/* Rank 0: the vertex ranges, balanced by vertices plus predecessor edges.
 * Bound r is the least v with rev_offset[v] + v >= r (n + m) / ranks, by
 * binary search over offsets read from the file; on a damaged file the
 * bounds are still in order, and the ranks' checks find the damage. */
static bool find_bounds(mpi_run *run, int fd, const char *path,
                        const loopy_binary_layout *lay, uint64_t *bound)
{
    uint64_t n = lay->n, total = lay->n + lay->m, P = (uint64_t)run->ranks;

    bound[0] = 0;
    bound[P] = n;
    for (uint64_t r = 1; r < P; r++) {
        uint64_t target = total / P * r + total % P * r / P;
        uint64_t lo = bound[r - 1], hi = n; /* the answer is in [lo, hi] */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            unsigned char b[8];
            if (!pread_all(fd, b, 8, lay->offset[LOOPY_BIN_REV_OFFSET] + 8 * mid)) {
                mpi_fail(run, EXIT_IO, "%s: read failed: %s", path,
                         errno ? strerror(errno) : "end of file");
                return false;
            }
            if (le64(b) + mid >= target)
                hi = mid;
            else
                lo = mid + 1;
        }
        bound[r] = lo;
    }
    return true;
}

/* Opens the file and checks its header, length and padding. */
static int open_checked(mpi_run *run, const char *path, loopy_binary_layout *lay)
{
    unsigned char header[LOOPY_BIN_HEADER];
    loopy_diag diag;
    struct stat st;
    uint64_t pos = LOOPY_BIN_HEADER;
    ssize_t got = 0;
    int fd;

    memset(&diag, 0, sizeof diag);
    /* O_NONBLOCK: a FIFO is refused below rather than waited on. */
    fd = mpi_fault(run, "open") ? -1 : open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        mpi_fail(run, EXIT_IO, "%s: cannot open: %s", path,
                 mpi_fault(run, "open") ? "No such file or directory "
                                          "(LOOPY_MPI_FAULT)"
                                        : strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        mpi_fail(run, EXIT_IO, "%s: not a regular file: loopy-mpi maps its "
                 "share of a binary graph file", path);
        close(fd);
        return -1;
    }
    while (got < (ssize_t)sizeof header) {
        ssize_t r = pread(fd, header + got, sizeof header - (size_t)got, got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += r;
    }
    if (!loopy_i_is_binary(header, (size_t)got)) {
        if (loopy_i_is_gzip(header, (size_t)got) ||
            loopy_i_is_zstd(header, (size_t)got))
            mpi_fail(run, EXIT_INPUT, "%s: a compressed file: loopy-mpi maps "
                     "its share of a binary graph, so decompress it first "
                     "(gunzip, zstd -d)", path);
        else if (loopy_i_is_mangled_binary(header, (size_t)got))
            mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: bad magic"
                     " bytes (expected \\x89LGR\\r\\n\\x1a\\n)", path);
        else
            mpi_fail(run, EXIT_INPUT, "%s: not a loopy binary graph: loopy-mpi "
                     "reads binary graphs; make one with 'loopy convert %s -o "
                     "FILE.lgr'", path, path);
        close(fd);
        return -1;
    }
    if (loopy_i_binary_layout(header, (size_t)got, lay, &diag) != LOOPY_OK ||
        loopy_i_binary_length(lay->end, (uint64_t)st.st_size, &diag) != LOOPY_OK) {
        mpi_fail(run, EXIT_INPUT, "%s: %s", path, diag.message);
        close(fd);
        return -1;
    }
    for (int s = 0; s < LOOPY_BIN_SECTIONS; s++) {
        unsigned char gap[LOOPY_BIN_HEADER];
        uint64_t len = lay->offset[s] - pos;
        /* Sections are aligned to 64 bytes: a gap is shorter. */
        if (len > sizeof gap || !pread_all(fd, gap, (size_t)len, pos) ||
            loopy_i_binary_padding(gap, pos, lay->offset[s], &diag) != LOOPY_OK) {
            mpi_fail(run, EXIT_INPUT, "%s: %s", path, diag.message[0]
                     ? diag.message : "damaged loopy binary file: bad section table");
            close(fd);
            return -1;
        }
        pos = lay->offset[s] + lay->length[s];
    }
    return fd;
}

/* Checks the values of this rank's share; returns the sum of its
 * out-degrees, and fills the largest and the fingerprint sums. */
static void check_values(mpi_run *run, mpi_part *part, const char *path,
                         uint64_t key, uint64_t *degree_sum, uint64_t sums[2])
{
    uint64_t nl = part->hi - part->lo, bad = 0, from_lists = 0, from_degrees = 0;
    uint64_t edges = part->rev_offset[nl] - part->edge_lo, sum = 0;
    uint32_t most = 0;

    for (uint64_t i = 0; i < nl; i++) {
        uint32_t d = part->out_degree[i];
        uint64_t v = part->lo + i;
        bad += d == UINT32_MAX;
        sum += d;
        most = d > most ? d : most;
        from_degrees += d * loopy_i_fingerprint(v, key);
    }
    for (uint64_t e = 0; e < edges; e++) {
        uint32_t u = part->rev_source[e];
        bad += u >= part->n;
        from_lists += loopy_i_fingerprint(u, key);
    }
    if (bad != 0)
        mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: a value out "
                 "of range", path);
    *degree_sum = sum;
    part->max_degree = most;
    sums[0] = from_lists;
    sums[1] = from_degrees;
}

bool mpi_part_open(mpi_run *run, const char *path, mpi_part *part)
{
    loopy_binary_layout lay;
    piece deg = {nothing, 0, 0}, off = {nothing, 0, 0}, src = {nothing, 0, 0};
    uint64_t P = (uint64_t)run->ranks, r = (uint64_t)run->rank, key = 0;
    uint64_t header[4] = {0, 0, 0, 0}, sums[2] = {0, 0}, all[2], degree_sum = 0,
             total_degree = 0;
    uint32_t most = 0;
    bool last = r + 1 == P;
    int fd;

    memset(part, 0, sizeof *part);
    memset(&lay, 0, sizeof lay);
    fd = open_checked(run, path, &lay);
    part->bound = calloc((size_t)P + 1, sizeof *part->bound);
    if (part->bound == NULL)
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(run))
        goto fail;
    /* Rank 0 finds the ranges; every rank checks that its header says the
     * same, which a file being replaced under the run would not. */
    if (run->rank == 0)
        find_bounds(run, fd, path, &lay, part->bound);
    if (!mpi_agree(run))
        goto fail;
    MPI_Bcast(part->bound, (int)P + 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    header[0] = lay.n;
    header[1] = lay.m;
    header[2] = lay.base;
    header[3] = lay.end;
    {
        uint64_t first[4];
        memcpy(first, header, sizeof first);
        MPI_Bcast(first, 4, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        if (memcmp(first, header, sizeof first) != 0)
            mpi_fail(run, EXIT_INPUT, "%s: not the same file on every rank (its"
                     " header differs from rank 0's)", path);
    }
    part->n = lay.n;
    part->m = lay.m;
    part->base = lay.base;
    part->lo = part->bound[r];
    part->hi = part->bound[r + 1];

    /* Out-degrees and offsets, with their checksums. */
    {
        uint64_t own_to = last ? 8 * (lay.n + 1) : 8 * part->hi;
        uint64_t len = lay.length[LOOPY_BIN_OUT_DEGREE];
        if (run->status == EXIT_OK)
            map_piece(run, part, 0, fd, path, lay.offset[LOOPY_BIN_OUT_DEGREE],
                      4 * part->lo,
                      map_end(4 * part->lo, 4 * part->hi, 4 * part->hi, len), &deg);
        len = lay.length[LOOPY_BIN_REV_OFFSET];
        if (run->status == EXIT_OK)
            map_piece(run, part, 1, fd, path, lay.offset[LOOPY_BIN_REV_OFFSET],
                      8 * part->lo,
                      map_end(8 * part->lo, own_to, 8 * (part->hi + 1), len), &off);
        if (!mpi_agree(run))
            goto fail;
        check_sum(run, &deg, 4 * part->lo, 4 * part->hi,
                  lay.length[LOOPY_BIN_OUT_DEGREE],
                  lay.checksum[LOOPY_BIN_OUT_DEGREE], path, "out-degrees");
        check_sum(run, &off, 8 * part->lo, own_to,
                  lay.length[LOOPY_BIN_REV_OFFSET],
                  lay.checksum[LOOPY_BIN_REV_OFFSET], path, "predecessor offsets");
        if (!mpi_agree(run))
            goto fail;
    }
    part->out_degree = (const uint32_t *)(const void *)deg.at;
    part->rev_offset = (const uint64_t *)(const void *)off.at;
    /* The offsets run from 0 to m without going back. */
    {
        uint64_t nl = part->hi - part->lo;
        bool ok = (r != 0 || part->rev_offset[0] == 0) &&
                  (!last || part->rev_offset[nl] == lay.m);
        for (uint64_t i = 0; ok && i < nl; i++)
            ok = part->rev_offset[i] <= part->rev_offset[i + 1];
        ok = ok && part->rev_offset[nl] <= lay.m;
        if (!ok)
            mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: a value "
                     "out of range", path);
        part->edge_lo = part->rev_offset[0];
        if (!mpi_agree(run))
            goto fail;
    }
    /* The predecessor lists of the range. */
    {
        uint64_t from = 4 * part->edge_lo, to = 4 * part->rev_offset[part->hi - part->lo];
        map_piece(run, part, 2, fd, path, lay.offset[LOOPY_BIN_REV_SOURCE], from,
                  map_end(from, to, to, lay.length[LOOPY_BIN_REV_SOURCE]), &src);
        if (!mpi_agree(run))
            goto fail;
        check_sum(run, &src, from, to, lay.length[LOOPY_BIN_REV_SOURCE],
                  lay.checksum[LOOPY_BIN_REV_SOURCE], path, "predecessor lists");
        if (!mpi_agree(run))
            goto fail;
        part->rev_source = (const uint32_t *)(const void *)src.at;
    }
    /* Values, degrees and the fingerprints. */
    if (run->rank == 0)
        key = loopy_i_random_key();
    MPI_Bcast(&key, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    check_values(run, part, path, key, &degree_sum, sums);
    MPI_Allreduce(sums, all, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&degree_sum, &total_degree, 1, MPI_UINT64_T, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(&part->max_degree, &most, 1, MPI_UINT32_T, MPI_MAX,
                  MPI_COMM_WORLD);
    if (run->status == EXIT_OK && total_degree != lay.m)
        mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: a value out "
                 "of range", path);
    if (run->status == EXIT_OK && all[0] != all[1])
        mpi_fail(run, EXIT_INPUT, "%s: damaged loopy binary file: the "
                 "predecessor lists do not match the out-degrees", path);
    part->max_degree = most;
    if (!mpi_agree(run))
        goto fail;
    close(fd);
    return true;

fail:
    if (fd >= 0)
        close(fd);
    mpi_part_close(part);
    return false;
}

void mpi_part_close(mpi_part *part)
{
    for (int i = 0; i < 3; i++)
        if (part->map[i] != NULL)
            munmap(part->map[i], part->map_len[i]);
    free(part->bound);
    memset(part, 0, sizeof *part);
}
