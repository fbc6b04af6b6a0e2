/* output.c - buffered, atomically committed output. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cli_out_open(cli_out *out, const char *cmd, const char *path)
{
    int fd;

    out->len = 0;
    out->failed = false;
    out->tmp_path = NULL;
    out->path = path;
    if (path == NULL || strcmp(path, "-") == 0) {
        out->file = stdout;
        return true;
    }
    /* The temporary file sits beside the target so rename stays atomic. */
    out->tmp_path = malloc(strlen(path) + sizeof ".tmp.XXXXXX");
    if (out->tmp_path == NULL) {
        cli_error(cmd, "out of memory");
        return false;
    }
    strcpy(out->tmp_path, path);
    strcat(out->tmp_path, ".tmp.XXXXXX");
    fd = mkstemp(out->tmp_path);
    if (fd >= 0) {
        /* mkstemp makes the file private; give it the usual mode. */
        mode_t mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    if (fd < 0 || (out->file = fdopen(fd, "wb")) == NULL) {
        cli_error(cmd, "%s: cannot create: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(out->tmp_path);
        }
        free(out->tmp_path);
        out->tmp_path = NULL;
        return false;
    }
    return true;
}

static void flush(cli_out *out)
{
    if (out->len > 0 && !out->failed &&
        fwrite(out->buf, 1, out->len, out->file) != out->len)
        out->failed = true;
    out->len = 0;
}

void cli_out_bytes(cli_out *out, const char *s, size_t len)
{
    if (len > sizeof out->buf - out->len) {
        flush(out);
        if (len > sizeof out->buf) {
            if (!out->failed && fwrite(s, 1, len, out->file) != len)
                out->failed = true;
            return;
        }
    }
    memcpy(out->buf + out->len, s, len);
    out->len += len;
}

void cli_out_str(cli_out *out, const char *s)
{
    cli_out_bytes(out, s, strlen(s));
}

void cli_out_char(cli_out *out, char c)
{
    if (out->len == sizeof out->buf)
        flush(out);
    out->buf[out->len++] = c;
}

void cli_out_u64(cli_out *out, uint64_t value)
{
    char digits[20];
    size_t n = 0;

    do {
        digits[sizeof digits - ++n] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    cli_out_bytes(out, digits + sizeof digits - n, n);
}

char *cli_out_reserve(cli_out *out, size_t len)
{
    if (len > sizeof out->buf - out->len)
        flush(out);
    return out->buf + out->len;
}

void cli_out_commit(cli_out *out, size_t used)
{
    out->len += used;
}

/* Decimal digits of v. */
static unsigned digit_count(uint64_t v)
{
    unsigned n = 1;

    while (v >= 100000000) {
        v /= 100000000;
        n += 8;
    }
    return n + (v >= 10) + (v >= 100) + (v >= 1000) + (v >= 10000) +
           (v >= 100000) + (v >= 1000000) + (v >= 10000000);
}

char *cli_format_u64(char *p, uint64_t value)
{
    /* Two digits per step from a table of "00".."99", written backwards
     * from the end, whose place is known from the digit count. */
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233"
        "34353637383940414243444546474849505152535455565758596061626364656667"
        "6869707172737475767778798081828384858687888990919293949596979899";
    unsigned n = digit_count(value);
    char *end = p + n, *q = end;

    while (value >= 100) {
        unsigned k = (unsigned)(value % 100) * 2;
        value /= 100;
        *--q = pairs[k + 1];
        *--q = pairs[k];
    }
    if (value >= 10) {
        *--q = pairs[value * 2 + 1];
        *--q = pairs[value * 2];
    } else {
        *--q = (char)('0' + value);
    }
    return end;
}

bool cli_out_close(cli_out *out, const char *cmd)
{
    const char *name = out->path && out->tmp_path ? out->path : "standard output";
    bool ok;

    flush(out);
    ok = !out->failed && fflush(out->file) == 0 && !ferror(out->file);
    if (out->tmp_path == NULL) {
        if (!ok)
            cli_error(cmd, "%s: write failed: %s", name, strerror(errno));
        return ok;
    }
    if (ok && fsync(fileno(out->file)) != 0)
        ok = false;
    if (fclose(out->file) != 0)
        ok = false;
    if (ok && rename(out->tmp_path, out->path) != 0)
        ok = false;
    if (!ok) {
        cli_error(cmd, "%s: write failed: %s", name, strerror(errno));
        unlink(out->tmp_path);
    }
    free(out->tmp_path);
    out->tmp_path = NULL;
    return ok;
}

void cli_out_abort(cli_out *out)
{
    if (out->tmp_path == NULL)
        return;
    fclose(out->file);
    unlink(out->tmp_path);
    free(out->tmp_path);
    out->tmp_path = NULL;
}
