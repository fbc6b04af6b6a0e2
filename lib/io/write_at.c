/* write_at.c - all of a buffer written at an offset of a file (pwrite,
 * again after a signal or a short write): tier work files and journals,
 * chess tables; and read back so (pread): journals, loopy-mpi's spill. */
#include "../core/internal.h"

#include <errno.h>
#include <unistd.h>

bool loopy_i_write_at(int fd, const void *bytes, size_t len, uint64_t offset)
{
    const unsigned char *p = bytes;

    while (len > 0) {
        ssize_t got;

        if (offset > (uint64_t)INT64_MAX - len) {
            errno = EFBIG;
            return false;
        }
        got = pwrite(fd, p, len, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got == 0)
                errno = EIO;
            return false;
        }
        p += got;
        len -= (size_t)got;
        offset += (uint64_t)got;
    }
    return true;
}

int64_t loopy_i_read_at(int fd, void *bytes, size_t len, uint64_t offset)
{
    size_t have = 0;

    while (have < len) {
        ssize_t got = pread(fd, (unsigned char *)bytes + have, len - have,
                            (off_t)(offset + have));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        have += (size_t)got;
    }
    return (int64_t)have;
}
