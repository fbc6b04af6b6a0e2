/*
 * read_file.c - loopy_read_file: a graph from a file or standard input, in
 * the binary format or as text.  Regular files are mapped, never copied;
 * pipes are read into memory first (the text is parsed in two passes).
 * Compressed data (a file or a pipe's) is read by read_compressed.c.
 */
/* madvise (MADV_DONTNEED really drops pages; posix_madvise does not). */
#define _DEFAULT_SOURCE

#include "../core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parses text already in memory; release_pages when it is our mapping. */
static loopy_status read_text(const char *text, size_t len,
                              const loopy_read_options *opt, bool release_pages,
                              loopy_graph **out, loopy_diag *diag)
{
    loopy_status status;

    if (opt->format == LOOPY_TEXT_EDGES) {
        status = loopy_i_read_edges_fast(text, len, opt, release_pages, out,
                                         diag);
        if (status != LOOPY_EPARSE)
            return status;
    }
    return loopy_i_read_text_careful(text, len, opt, out, NULL, diag);
}

loopy_status loopy_i_refuse_mangled(loopy_diag *diag)
{
    loopy_i_diag(diag, 0, 0, "damaged loopy binary file: bad magic bytes "
                 "(expected \\x89LGR\\r\\n\\x1a\\n; a transfer that "
                 "changes line ends, or a cut, does this)");
    return LOOPY_EFORMAT;
}

/* Reads a graph from bytes in memory that are not compressed: a binary
 * graph (taken over on success when is_heap), or text.  release_pages:
 * data is our mapping of a text file. */
static loopy_status read_bytes(char *data, size_t len, bool is_heap,
                               bool release_pages,
                               const loopy_read_options *opt,
                               loopy_graph **out, loopy_diag *diag)
{
    if (loopy_i_is_mangled_binary(data, len))
        return loopy_i_refuse_mangled(diag);
    if (loopy_i_is_binary(data, len))
        return loopy_i_read_binary(data, len, is_heap, opt, out, diag);
    return read_text(data ? data : "", len, opt, release_pages, out, diag);
}

static bool is_compressed(const void *bytes, size_t len)
{
    return loopy_i_is_gzip(bytes, len) || loopy_i_is_zstd(bytes, len);
}

/* Maps a regular file of `size` bytes and reads it. */
static loopy_status read_mapped(int fd, size_t size,
                                const loopy_read_options *opt,
                                loopy_graph **out, loopy_diag *diag)
{
    loopy_status status;
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);

    if (map == MAP_FAILED) {
        /* Address space, not the file, ran out (ulimit -v, overcommit). */
        if (errno == ENOMEM) {
            loopy_i_diag(diag, 0, 0, "out of memory: cannot map the file "
                         "(%zu bytes)", size);
            return LOOPY_ENOMEM;
        }
        loopy_i_diag(diag, 0, 0, "cannot map the file: %s", strerror(errno));
        return LOOPY_EIO;
    }
    if (loopy_i_is_mangled_binary(map, size)) {
        munmap(map, size);
        return loopy_i_refuse_mangled(diag);
    }
    if (is_compressed(map, size)) {
        madvise(map, size, MADV_SEQUENTIAL);
        status = loopy_i_read_compressed(map, size, true, opt, out, diag);
        munmap(map, size);
        return status;
    }
    if (loopy_i_is_binary(map, size)) {
        status = loopy_i_read_binary(map, size, false, opt, out, diag);
        if (status != LOOPY_OK)
            munmap(map, size);
        return status; /* on success the graph owns the mapping */
    }
    madvise(map, size, MADV_SEQUENTIAL);
    status = read_text(map, size, opt, true, out, diag);
    munmap(map, size);
    return status;
}

loopy_status loopy_read_file(const char *path, const loopy_read_options *options,
                             loopy_graph **out, loopy_diag *diag)
{
    static const loopy_read_options defaults = LOOPY_READ_OPTIONS_INIT;
    bool from_stdin = path == NULL || strcmp(path, "-") == 0;
    loopy_buffer buffer = {0};
    loopy_status status;
    struct stat st;
    int fd;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (options == NULL)
        options = &defaults;
    if (options->allow_trailing || options->base > 1 ||
        (options->format != LOOPY_TEXT_EDGES &&
         options->format != LOOPY_TEXT_ADJ &&
         options->format != LOOPY_TEXT_PAIRS)) {
        loopy_i_diag(diag, 0, 0, "invalid reader options");
        return LOOPY_EINVAL;
    }
    fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        loopy_i_diag(diag, 0, 0, "cannot open: %s", strerror(errno));
        return LOOPY_EIO;
    }
    /* A regular file is mapped from its start, so standard input that an
     * earlier reader left part-way through is read from where it stands. */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX &&
        (!from_stdin || lseek(fd, 0, SEEK_CUR) == 0)) {
        status = read_mapped(fd, (size_t)st.st_size, options, out, diag);
        if (!from_stdin)
            close(fd);
        return status;
    }
    /* A pipe, a terminal or an empty file: read it whole, from the
     * descriptor already open (a FIFO opened twice would wait for a second
     * writer). */
    status = loopy_i_buffer_read(fd, &buffer, true, diag);
    if (!from_stdin)
        close(fd);
    if (status != LOOPY_OK)
        return status;
    if (is_compressed(buffer.data, buffer.len)) {
        status = loopy_i_read_compressed(buffer.data, buffer.len, false,
                                         options, out, diag);
    } else {
        status = read_bytes(buffer.data, buffer.len, true, false, options, out,
                            diag);
        if (status == LOOPY_OK && loopy_i_is_binary(buffer.data, buffer.len))
            buffer.data = NULL; /* the graph owns it now */
    }
    loopy_buffer_release(&buffer);
    return status;
}
