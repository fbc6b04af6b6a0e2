/* write_at.c - all of a buffer written at an offset of a file (pwrite,
 * again after a signal or a short write): tier work files and journals,
 * chess tables. */
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
