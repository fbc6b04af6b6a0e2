/* buffer.c - whole files and standard input in memory. */
#include "../core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void loopy_buffer_release(loopy_buffer *buffer)
{
    if (buffer == NULL)
        return;
    loopy_i_free(buffer->data);
    buffer->data = NULL;
    buffer->len = 0;
    buffer->capacity_ = 0;
}

static loopy_status grow(loopy_buffer *b, size_t want)
{
    size_t capacity = b->capacity_ ? b->capacity_ : 65536;
    char *data;

    while (capacity < want) {
        if (capacity > SIZE_MAX / 2)
            return LOOPY_ENOMEM;
        capacity *= 2;
    }
    data = loopy_i_realloc(b->data, capacity, 1);
    if (data == NULL)
        return LOOPY_ENOMEM;
    b->data = data;
    b->capacity_ = capacity;
    return LOOPY_OK;
}

loopy_status loopy_i_buffer_read(int fd, loopy_buffer *buffer, bool text,
                                 loopy_diag *diag)
{
    loopy_status status = LOOPY_OK;
    struct stat st;
    bool known = fstat(fd, &st) == 0;

    memset(buffer, 0, sizeof *buffer);
    if (known && S_ISDIR(st.st_mode)) {
        loopy_i_diag(diag, 0, 0, "cannot read: it is a directory");
        return LOOPY_EIO;
    }
    /* A regular file's size avoids regrowing; one more byte sees the end. */
    if (known && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uint64_t)st.st_size >= SIZE_MAX) {
            status = LOOPY_ENOMEM;
            goto done;
        }
        status = grow(buffer, (size_t)st.st_size + 1);
        if (status != LOOPY_OK)
            goto done;
    }
    for (;;) {
        ssize_t got;

        if (buffer->len == buffer->capacity_) {
            status = grow(buffer, buffer->capacity_ + 1);
            if (status != LOOPY_OK)
                goto done;
        }
        got = read(fd, buffer->data + buffer->len,
                   buffer->capacity_ - buffer->len);
        if (got == 0)
            break;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            loopy_i_diag(diag, 0, 0, "cannot read: %s", strerror(errno));
            status = LOOPY_EIO;
            goto done;
        }
        buffer->len += (size_t)got;
        /* A NUL byte is bad text wherever it is: what came so far is
         * enough for the message, and /dev/zero must not fill memory.
         * Only a binary graph (or a damaged one) starts with 0x89;
         * compressed data holds NUL bytes too. */
        if (text && (unsigned char)buffer->data[0] != 0x89 &&
            !loopy_i_is_gzip(buffer->data, buffer->len) &&
            !loopy_i_is_zstd(buffer->data, buffer->len) &&
            memchr(buffer->data + buffer->len - (size_t)got, 0, (size_t)got))
            break;
    }

done:
    if (status == LOOPY_ENOMEM)
        loopy_i_diag(diag, 0, 0, "out of memory while reading");
    if (status != LOOPY_OK)
        loopy_buffer_release(buffer);
    return status;
}

loopy_status loopy_buffer_load(const char *path, loopy_buffer *buffer,
                               loopy_diag *diag)
{
    bool from_stdin = path == NULL || strcmp(path, "-") == 0;
    loopy_status status;
    int fd;

    if (buffer == NULL)
        return LOOPY_EINVAL;
    memset(buffer, 0, sizeof *buffer);
    fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0) {
        loopy_i_diag(diag, 0, 0, "cannot open: %s", strerror(errno));
        return LOOPY_EIO;
    }
    status = loopy_i_buffer_read(fd, buffer, false, diag);
    if (!from_stdin)
        close(fd);
    return status;
}
