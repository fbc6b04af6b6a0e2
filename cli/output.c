/* output.c - buffered, atomically committed output. */
#define _XOPEN_SOURCE 700 /* realpath, faccessat, fchown */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file being written, for cli_out_remove_pending (one output
 * at a time). */
static const char *volatile pending_tmp;

void cli_out_remove_pending(void)
{
    const char *path = pending_tmp;

    if (path != NULL)
        unlink(path);
}

bool cli_exists(const char *path)
{
    struct stat sb;

    return lstat(path, &sb) == 0;
}

FILE *cli_standard_stream_on(const struct stat *st)
{
    struct stat s;

    if (fstat(STDOUT_FILENO, &s) == 0 && s.st_dev == st->st_dev &&
        s.st_ino == st->st_ino)
        return stdout;
    if (fstat(STDERR_FILENO, &s) == 0 && s.st_dev == st->st_dev &&
        s.st_ino == st->st_ino)
        return stderr;
    return NULL;
}

bool cli_out_name_ok(const char *cmd, const char *path)
{
    if (path != NULL && path[0] == '\0') {
        cli_error(cmd, "-o: the output file name is empty");
        return false;
    }
    return true;
}

/* The temporary file's name for target: ".loopy-XXXXXX" in target's folder,
 * for mkstemp.  Short and fixed, so that any name the file system accepts
 * for target works (a name of NAME_MAX bytes plus a suffix would not).
 * NULL when out of memory. */
static char *temporary_name(const char *target)
{
    static const char base[] = ".loopy-XXXXXX";
    const char *slash = strrchr(target, '/');
    size_t folder_len = slash != NULL ? (size_t)(slash - target) + 1 : 0;
    char *name = malloc(folder_len + sizeof base);

    if (name != NULL) {
        memcpy(name, target, folder_len);
        memcpy(name + folder_len, base, sizeof base);
    }
    return name;
}

/* The folder target is in, for a message, as *folder and its length: "."
 * without a slash, "/" for a name at the root, otherwise what comes before
 * the last slash ("a" for "a/b" and for "a//b"). */
static int folder_of(const char *target, const char **folder)
{
    const char *slash = strrchr(target, '/');
    size_t len;

    if (slash == NULL) {
        *folder = ".";
        return 1;
    }
    len = (size_t)(slash - target);
    while (len > 0 && target[len - 1] == '/')
        len--;
    *folder = len > 0 ? target : "/";
    return len > 0 ? (int)len : 1;
}

/* Gives the temporary file fd the owner and group of the file it replaces,
 * old, as far as this process may: root may set both; another user may
 * keep a group it belongs to, so a file shared through its group stays
 * shared.  Where it may not (EPERM; EINVAL: an id this user namespace does
 * not map), the file stays the process's, as any file it creates.  False,
 * with errno, on another failure. */
static bool keep_owner(int fd, const struct stat *old)
{
    if (fchown(fd, old->st_uid, old->st_gid) == 0)
        return true;
    if (errno != EPERM && errno != EINVAL)
        return false;
    if (fchown(fd, (uid_t)-1, old->st_gid) == 0)
        return true;
    return errno == EPERM || errno == EINVAL;
}

/* The process's umask (read by setting it, and set back). */
static mode_t current_umask(void)
{
    mode_t mask = umask(0);

    umask(mask);
    return mask;
}

bool cli_out_open(cli_out *out, const char *cmd, const char *path)
{
    const char *target = path;
    struct stat st, target_st;
    bool is_link, exists;
    mode_t mode;
    int fd;

    out->len = 0;
    out->failed = false;
    out->error = 0;
    out->tmp_path = NULL;
    out->resolved = NULL;
    out->direct = false;
    out->path = path;
    if (path == NULL || strcmp(path, "-") == 0) {
        out->file = stdout;
        return true;
    }
    if (!cli_out_name_ok(cmd, path))
        return false;
    /* Replace the file a link names, not the link. */
    is_link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
    if (is_link && (out->resolved = realpath(path, NULL)) != NULL)
        target = out->resolved;
    exists = stat(target, &target_st) == 0;
    /* A name that cannot be made (too long, a file as a folder, a loop of
     * links) fails now, not at the rename after all the work. */
    if (!exists && errno != ENOENT) {
        cli_error(cmd, "%s: cannot create: %s", path, strerror(errno));
        goto fail;
    }
    /* A file that standard output or error already writes to (the shell's
     * "> file" seen through /dev/stdout): write through that stream, where
     * it stands.  Replacing the file would lose what the shell wrote there
     * and what it writes after. */
    if (exists && S_ISREG(target_st.st_mode) &&
        (out->file = cli_standard_stream_on(&target_st)) != NULL) {
        free(out->resolved);
        out->resolved = NULL;
        return true;
    }
    /* A device or FIFO cannot be replaced by a rename, and must not be
     * (renaming over /dev/null as root would turn it into a file): write to
     * it directly.  So does a dangling link, whose target is created. */
    if ((exists && !S_ISREG(target_st.st_mode)) || (is_link && target == path)) {
        out->file = fopen(path, "wb");
        if (out->file == NULL) {
            cli_error(cmd, "%s: cannot open: %s", path, strerror(errno));
            free(out->resolved);
            out->resolved = NULL;
            return false;
        }
        out->direct = true;
        return true;
    }
    /* The shell's "> file" refuses a file the user may not write; so does
     * -o, although the rename below needs only the folder's permission.
     * (Root may, as with "> file".  A running program's file, ETXTBSY, may
     * be replaced by a rename, as install does: it is not refused.) */
    if (exists && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) != 0 &&
        errno != ETXTBSY) {
        cli_error(cmd, "%s: cannot write: %s", path, strerror(errno));
        goto fail;
    }
    /* "dir/" names a folder, which is not made here (open(2) says so too). */
    if (!exists && target[strlen(target) - 1] == '/') {
        cli_error(cmd, "%s: cannot create: %s", path, strerror(EISDIR));
        goto fail;
    }
    /* The temporary file sits beside the target so rename stays atomic. */
    out->tmp_path = temporary_name(target);
    if (out->tmp_path == NULL) {
        cli_error(cmd, "out of memory");
        goto fail;
    }
    fd = mkstemp(out->tmp_path);
    if (fd < 0) {
        const char *folder;
        int folder_len = folder_of(target, &folder);

        /* The file may be writable: what failed is making a file beside
         * it, in its folder. */
        if (exists)
            cli_error(cmd, "%s: cannot write in the folder '%.*s' (needed to "
                      "replace the file safely): %s", path, folder_len,
                      folder, strerror(errno));
        else if (errno == EACCES || errno == EPERM || errno == EROFS)
            /* The folder exists (else ENOENT) but takes no new file. */
            cli_error(cmd, "%s: cannot write in the folder '%.*s': %s", path,
                      folder_len, folder, strerror(errno));
        else
            cli_error(cmd, "%s: cannot create: %s", path, strerror(errno));
        goto fail;
    }
    pending_tmp = out->tmp_path;
    /* mkstemp makes the file private and the process's: give it the owner
     * and mode of the file it replaces (a regular one, here), or the usual
     * mode of a new file. */
    mode = exists ? target_st.st_mode & 0777 : 0666 & ~current_umask();
    if ((exists && !keep_owner(fd, &target_st)) || fchmod(fd, mode) != 0 ||
        (out->file = fdopen(fd, "wb")) == NULL) {
        cli_error(cmd, "%s: cannot create: %s", path, strerror(errno));
        close(fd);
        goto fail_unlink;
    }
    return true;

fail_unlink:
    unlink(out->tmp_path);
fail:
    pending_tmp = NULL;
    free(out->tmp_path);
    out->tmp_path = NULL;
    free(out->resolved);
    out->resolved = NULL;
    return false;
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

/* Makes the rename of a file into path durable: the folder that holds it
 * is flushed to the disk, so that after a power cut the new name is there
 * (a tier solve removes its work file next, which must not outlive the
 * database's name).  0, or the errno of the failure.  No failure: a file
 * system that cannot sync a folder (EINVAL, EROFS), or a folder that may
 * be written but not read (it cannot be opened to sync it). */
static int sync_folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *folder;
    int fd, err = 0;

    if (slash == NULL)
        folder = strdup(".");
    else if (slash == path)
        folder = strdup("/");
    else if ((folder = malloc((size_t)(slash - path) + 1)) != NULL) {
        memcpy(folder, path, (size_t)(slash - path));
        folder[slash - path] = '\0';
    }
    if (folder == NULL)
        return ENOMEM;
    fd = open(folder, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
            err = errno;
        close(fd);
    }
    free(folder);
    return err;
}

bool cli_out_close(cli_out *out, const char *cmd)
{
    const char *name = out->tmp_path || out->direct || out->file != stdout
                           ? out->path : "standard output";
    bool ok;
    int sync_err = 0;

    flush(out);
    ok = !out->failed && fflush(out->file) == 0 && !ferror(out->file);
    if (out->direct) {
        if (fclose(out->file) != 0)
            ok = false;
        if (!ok)
            cli_error(cmd, "%s: write failed: %s", name, strerror(errno));
        out->direct = false;
        return ok;
    }
    if (out->tmp_path == NULL) {
        if (!ok)
            cli_error(cmd, "%s: write failed: %s", name, strerror(errno));
        return ok;
    }
    if (ok && fsync(fileno(out->file)) != 0)
        ok = false;
    if (fclose(out->file) != 0)
        ok = false;
    if (ok && rename(out->tmp_path,
                     out->resolved ? out->resolved : out->path) != 0)
        ok = false;
    else if (ok && (sync_err = sync_folder(out->resolved ? out->resolved
                                                         : out->path)) != 0)
        /* The file is whole and in place; only its name may not survive a
         * power cut. */
        cli_error(cmd, "%s: written, but its folder could not be synced to "
                  "the disk: %s", name, strerror(sync_err));
    if (!ok) {
        cli_error(cmd, "%s: write failed: %s", name, strerror(errno));
        unlink(out->tmp_path);
    }
    ok = ok && sync_err == 0;
    pending_tmp = NULL;
    free(out->tmp_path);
    out->tmp_path = NULL;
    free(out->resolved);
    out->resolved = NULL;
    return ok;
}

bool cli_out_positional(const cli_out *out)
{
    return out->tmp_path != NULL && !out->failed && out->len == 0 &&
           ftello(out->file) == 0;
}

int cli_out_write_at(void *ctx, const void *bytes, size_t len, uint64_t offset)
{
    cli_out *out = ctx;
    const unsigned char *p = bytes;
    int fd = fileno(out->file);

    while (len > 0 && !out->failed) {
        ssize_t put;

        if (offset > (uint64_t)INT64_MAX - len) {
            out->error = EFBIG;
            out->failed = true;
            break;
        }
        put = pwrite(fd, p, len, (off_t)offset);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0) {
            out->error = put == 0 ? ENOSPC : errno;
            out->failed = true;
            break;
        }
        p += put;
        len -= (size_t)put;
        offset += (uint64_t)put;
    }
    return out->failed ? 1 : 0;
}

void cli_out_open_stream(cli_out *out, FILE *file, const char *name)
{
    out->file = file;
    out->tmp_path = NULL;
    out->path = name;
    out->resolved = NULL;
    out->direct = false;
    out->len = 0;
    out->failed = false;
    out->error = 0;
}

void cli_out_abort(cli_out *out)
{
    free(out->resolved);
    out->resolved = NULL;
    if (out->direct) {
        fclose(out->file);
        out->direct = false;
        return;
    }
    if (out->tmp_path == NULL)
        return;
    fclose(out->file);
    pending_tmp = NULL;
    unlink(out->tmp_path);
    free(out->tmp_path);
    out->tmp_path = NULL;
}
