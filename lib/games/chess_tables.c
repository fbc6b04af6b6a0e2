/*
 * chess_tables.c - a sub-ending's records read from its own database, as
 * a tablebase generator reads the tables of the smaller materials
 * instead of generating them again.
 *
 * The database of chess:KQKP, which `loopy game solve chess:KQKP -o
 * DIR/KQKP.ldb` writes, begins with the segment of its own material KQKP
 * (material 0 of that game), and a material's segment is laid out by its
 * pieces alone: the same indices, in the same order, in every game whose
 * captures or promotions reach it.  So the segment of KQKP in chess:KPKP
 * is a copy of the first indices of DIR/KQKP.ldb.  Everything the file
 * decides is checked before it is used: the game and its parameters, the
 * index space (loopy_db_open_game), the segment's layout in that game
 * against this one's, and each position, below the segment's end, before
 * its record is written.
 *
 * A build (loopy_game_solve_options.build) writes each ending it solves
 * as such a table, holding its own segment alone: the database of
 * chess:KQKP whose positions are those of KQKP, its sub-endings being
 * tables of their own.  A table goes to a temporary file in the folder,
 * synced, then renamed to its name: it is whole or not there.
 */
/* fsync, O_CLOEXEC */
#define _DEFAULT_SOURCE
#include "chess.h"
#include "../db/db_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Where the records of the table go. */
typedef struct table_copy {
    _Atomic uint16_t *rec;
    loopy_position offset, span;
    uint32_t max_level;
    atomic_bool too_far; /* set by any thread */
} table_copy;

static int copy_record(void *ctx, loopy_position pos, loopy_outcome outcome,
                       uint32_t remoteness)
{
    table_copy *c = ctx;
    uint16_t v;

    if (pos >= c->span)
        return 1; /* past the ending's own segment: done */
    if (outcome == LOOPY_DRAW) {
        v = LOOPY_I_RECORD_DRAW;
    } else if (remoteness >= c->max_level) {
        atomic_store_explicit(&c->too_far, true, memory_order_relaxed);
        return 1;
    } else {
        v = (uint16_t)((unsigned)outcome << LOOPY_I_RECORD_SHIFT | remoteness);
    }
    atomic_store_explicit(&c->rec[c->offset + pos], v, memory_order_relaxed);
    return 0;
}

/* Whether the material of the table's game (its material 0) is laid out
 * as material m of rules. */
static bool same_layout(const chess_rules *rules, uint32_t m,
                        const chess_rules *table)
{
    const chess_material *ours = &rules->material[m], *its = &table->material[0];
    loopy_position span = chess_i_segment_end(rules, m) - ours->offset,
                   its_span = chess_i_segment_end(table, 0);

    if (ours->key != its->key || ours->count != its->count ||
        ours->plain != its->plain || span != its_span || its->offset != 0)
        return false;
    for (int s = 0; s < 2; s++)
        if ((ours->ep[s] == 0) != (its->ep[s] == 0) ||
            (ours->ep[s] != 0 && ours->ep[s] - ours->offset != its->ep[s]))
            return false;
    return memcmp(ours->kind, its->kind, ours->count) == 0 &&
           memcmp(ours->colour, its->colour, ours->count) == 0;
}

/* Whether db is the table of material m (in normal play, a position per
 * class, laid out as m); LOOPY_EFORMAT, diag saying why, when not. */
static loopy_status check_table(const chess_rules *rules, uint32_t m,
                                const loopy_db *db, loopy_diag *diag)
{
    const chess_material *material = &rules->material[m];
    loopy_game *game = NULL;
    loopy_status status;

    /* First whose table it is, then how it was solved. */
    status = loopy_db_open_game(db, &game, diag);
    if (status == LOOPY_OK &&
        (!chess_i_is(game) || strcmp(game->params, material->name) != 0 ||
         !same_layout(rules, m, game->ctx))) {
        const char *params = loopy_db_game_params(db);
        loopy_i_diag(diag, 0, 0, "it holds %s%s%s, not the ending %s",
                     loopy_db_game_name(db), params[0] != '\0' ? ":" : "",
                     params, material->name);
        status = LOOPY_EFORMAT;
    } else if (status == LOOPY_EINVAL || status == LOOPY_EGAME) {
        status = LOOPY_EFORMAT; /* another game, or one not built in */
    }
    loopy_game_close(game);
    /* Dense or sparse (the writer's choice: KQQKQ, whose equal queens
     * leave most indices without a class, is written sparse); whether
     * every legal position is there is the reader's check after the
     * copy. */
    if (status == LOOPY_OK && (loopy_db_misere(db) || !loopy_db_symmetric(db))) {
        loopy_i_diag(diag, 0, 0, "not a table of normal play with a "
                     "position per class, as 'loopy game solve chess:%s "
                     "-o' writes it", material->name);
        status = LOOPY_EFORMAT;
    }
    return status;
}

loopy_status chess_i_copy_table(const chess_rules *rules, uint32_t m,
                                const loopy_db *db, _Atomic uint16_t *rec,
                                uint32_t max_level, int threads,
                                loopy_diag *diag)
{
    const chess_material *material = &rules->material[m];
    loopy_status status = check_table(rules, m, db, diag);
    table_copy copy;

    if (status != LOOPY_OK)
        return status;
    copy.rec = rec;
    copy.offset = material->offset;
    copy.span = chess_i_segment_end(rules, m) - material->offset;
    copy.max_level = max_level;
    atomic_init(&copy.too_far, false);
    /* The records go to their own places: any thread may copy any block. */
    status = loopy_i_db_iterate_threads(db, copy_record, &copy,
                                        threads > 0 ? threads : 1, diag);
    if (status == LOOPY_OK && atomic_load(&copy.too_far)) {
        loopy_i_diag(diag, 0, 0, "a remoteness past %u", max_level - 1);
        status = LOOPY_EFORMAT;
    }
    return status;
}

bool chess_i_is_folder(const char *folder)
{
    struct stat st;

    return stat(folder, &st) == 0 && S_ISDIR(st.st_mode);
}

/* folder/NAME.ldb, malloc'd; NULL when memory runs out. */
static char *table_path(const char *folder, const char *name)
{
    size_t len = strlen(folder) + strlen(name) + 6;
    char *path = loopy_i_malloc(len, 1);

    if (path != NULL)
        snprintf(path, len, "%s/%s.ldb", folder, name);
    return path;
}

loopy_status chess_i_has_table(const char *folder, const char *name,
                               bool *there)
{
    char *path = table_path(folder, name);
    struct stat st;

    if (path == NULL)
        return LOOPY_ENOMEM;
    /* A link to nothing is there: reading it says so. */
    *there = stat(path, &st) == 0 || errno != ENOENT || lstat(path, &st) == 0;
    loopy_i_free(path);
    return LOOPY_OK;
}

loopy_status chess_i_read_table(const chess_rules *rules, uint32_t m,
                                const char *folder, _Atomic uint16_t *rec,
                                uint32_t max_level, int threads,
                                loopy_diag *diag)
{
    char *path = table_path(folder, rules->material[m].name);
    loopy_db *db = NULL;
    loopy_status status;

    if (path == NULL)
        return LOOPY_ENOMEM;
    status = loopy_db_open(path, &db, diag);
    if (status == LOOPY_OK)
        status = chess_i_copy_table(rules, m, db, rec, max_level, threads,
                                    diag);
    if (status != LOOPY_OK && diag != NULL) {
        /* Name the file before what was wrong with it. */
        char why[sizeof diag->message];
        memcpy(why, diag->message, sizeof why);
        loopy_i_diag(diag, 0, 0, "%s: %s", path, why);
    }
    loopy_db_close(db);
    loopy_i_free(path);
    return status;
}

/* Takes a write lock on the whole of fd's file, at once or not at all
 * (a POSIX record lock: kept by the process until it closes the file,
 * seen across machines on a shared file system that has locks). */
static bool lock_file(int fd)
{
    struct flock l;

    memset(&l, 0, sizeof l);
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    return fcntl(fd, F_SETLK, &l) == 0;
}

/* The writer's loopy_write_at_fn: fd (ctx) at offset, all of the bytes. */
static int write_fd_at(void *ctx, const void *bytes, size_t len,
                       uint64_t offset)
{
    return loopy_i_write_at(*(const int *)ctx, bytes, len, offset) ? 0 : -1;
}

loopy_status chess_i_write_table(const chess_rules *rules, uint32_t m,
                                 const char *folder, const uint16_t *rec,
                                 int threads, loopy_diag *diag)
{
    const chess_material *material = &rules->material[m];
    loopy_position span = chess_i_segment_end(rules, m) - material->offset;
    char *path = table_path(folder, material->name), *temp = NULL;
    loopy_i_db_layout layout = {0, DB_LAYOUT_AUTO, 0, 0, threads};
    loopy_i_db_source src;
    loopy_game *game = NULL;
    loopy_status status = LOOPY_ENOMEM;
    int fd = -1;

    if (path != NULL)
        temp = loopy_i_malloc(strlen(path) + 32, 1);
    if (temp == NULL)
        goto done;
    /* The ending's own game: its index space is the table's. */
    status = loopy_i_game_open_builtin("chess", material->name, &game, diag);
    if (status != LOOPY_OK)
        goto done;
    memset(&src, 0, sizeof src);
    for (loopy_position i = 0; i < span; i++)
        src.n += rec[material->offset + i] != LOOPY_I_RECORD_ABSENT;
    src.record = rec + material->offset;
    src.name = "chess";
    src.params = material->name;
    src.index_size = game->size;
    src.end = span;
    src.symmetric = true;
    /* Named by the process (a stale one of an earlier process with its
     * number is removed), made with the umask's mode as any file. */
    snprintf(temp, strlen(path) + 32, "%s.%ld.part", path, (long)getpid());
    fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno == EEXIST && unlink(temp) == 0)
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot be made: %s", temp,
                     strerror(errno));
        status = LOOPY_EIO;
        goto done;
    }
    /* Held until the file has its name, so that a build sharing the
     * folder from another machine does not take it for a dead one's
     * (where the file system has no locks, the process number alone
     * says so): closing the file would drop the lock. */
    (void)lock_file(fd);
    status = loopy_i_db_write_at(&src, &layout, write_fd_at, &fd);
    if (status == LOOPY_OK && fsync(fd) != 0)
        status = LOOPY_EIO;
    if (status == LOOPY_EIO)
        loopy_i_diag(diag, 0, 0, "%s: writing failed: %s", temp,
                     strerror(errno));
    else if (status != LOOPY_OK)
        loopy_i_diag(diag, 0, 0, "%s: %s", path, loopy_strerror(status));
    if (status == LOOPY_OK && rename(temp, path) != 0) {
        loopy_i_diag(diag, 0, 0, "%s: cannot be made: %s", path,
                     strerror(errno));
        status = LOOPY_EIO;
    }
    if (status != LOOPY_OK)
        unlink(temp);
    /* The table's name, too, is on the disk before a later table counts
     * on it (a folder that cannot be synced, as on some file systems,
     * is no error). */
    if (status == LOOPY_OK) {
        int dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (dir >= 0) {
            if (fsync(dir) != 0 && errno != EINVAL && errno != EROFS) {
                loopy_i_diag(diag, 0, 0, "%s: written, but its folder could "
                             "not be synced to the disk: %s", path,
                             strerror(errno));
                status = LOOPY_EIO;
            }
            close(dir);
        }
    }
    /* Synced already: a failing close loses nothing written. */
    close(fd);
done:
    if (status == LOOPY_ENOMEM)
        loopy_i_diag(diag, 0, 0, "out of memory");
    loopy_game_close(game);
    loopy_i_free(temp);
    loopy_i_free(path);
    return status;
}

/* The process number of NAME.ldb.PID.part, when name is such a file of a
 * material of rules: PID's digits, at most 10, below 2^31; else 0. */
static long part_pid(const chess_rules *rules, const char *name)
{
    const char *dot = strstr(name, ".ldb."), *p;
    size_t len = dot != NULL ? (size_t)(dot - name) : 0;
    bool ours = false;
    long pid = 0;
    int digits = 0;

    for (uint32_t m = 0; m < rules->material_count && len > 0 && !ours; m++)
        ours = strlen(rules->material[m].name) == len &&
               memcmp(rules->material[m].name, name, len) == 0;
    if (!ours)
        return 0;
    if (dot[5] == '0')
        return 0; /* no process number starts with 0 */
    for (p = dot + 5; *p >= '0' && *p <= '9' && digits < 10; p++, digits++)
        pid = pid * 10 + (*p - '0');
    if (digits == 0 || strcmp(p, ".part") != 0 || pid > INT32_MAX)
        return 0;
    return pid;
}

uint64_t chess_i_sweep_parts(const chess_rules *rules, const char *folder)
{
    DIR *dir = opendir(folder);
    struct dirent *e;
    uint64_t removed = 0;

    if (dir == NULL)
        return 0; /* said when the folder is read */
    while ((e = readdir(dir)) != NULL) {
        long pid = part_pid(rules, e->d_name);
        struct stat st, named;
        int fd;

        /* A process that is gone here (another user's live one gives
         * EPERM, and its file stays), and whose lock on the file is gone
         * (a build on another machine sharing the folder holds one). */
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
            errno != ESRCH)
            continue;
        /* A regular file (not a FIFO, which would block, or a device),
         * last written more than a minute ago (not one a writer has just
         * made, before its lock), still the one of that name once its
         * lock is taken. */
        fd = openat(dirfd(dir), e->d_name,
                    O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            time(NULL) - st.st_mtime > 60 && lock_file(fd) &&
            fstatat(dirfd(dir), e->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
            named.st_dev == st.st_dev && named.st_ino == st.st_ino &&
            unlinkat(dirfd(dir), e->d_name, 0) == 0)
            removed++;
        close(fd);
    }
    closedir(dir);
    return removed;
}

/* The material of rules whose segment holds pos (below the size). */
static uint32_t material_of(const chess_rules *rules, loopy_position pos)
{
    uint32_t m = 0;

    /* The segments lie in the materials' order. */
    while (m + 1 < rules->material_count && chess_i_segment_end(rules, m) <= pos)
        m++;
    return m;
}

int chess_i_sub_table(void *ctx, loopy_position pos, char *name,
                      size_t capacity, loopy_position *local)
{
    const chess_rules *rules = ctx;
    uint32_t m;

    if (pos >= rules->size)
        return 0;
    m = material_of(rules, pos);
    if (m == 0 || strlen(rules->material[m].name) >= capacity)
        return 0;
    memcpy(name, rules->material[m].name, strlen(rules->material[m].name) + 1);
    *local = pos - rules->material[m].offset;
    return 1;
}

loopy_status chess_i_table_value(void *ctx, loopy_position pos,
                                 const char *folder, int symmetric,
                                 loopy_outcome *outcome, uint32_t *remoteness,
                                 loopy_diag *diag)
{
    const chess_rules *rules = ctx;
    loopy_db *table = NULL;
    loopy_status status;
    uint32_t m;
    char *path;

    if (pos >= rules->size)
        return LOOPY_EINVAL;
    m = material_of(rules, pos);
    if (m == 0)
        return LOOPY_EINVAL;
    path = table_path(folder, rules->material[m].name);
    if (path == NULL)
        return LOOPY_ENOMEM;
    status = loopy_db_open(path, &table, diag);
    if (status == LOOPY_OK)
        status = check_table(rules, m, table, diag);
    if (status == LOOPY_OK && !symmetric) {
        loopy_i_diag(diag, 0, 0, "a table holds a position per class, the "
                     "database every position");
        status = LOOPY_EFORMAT;
    }
    if (status == LOOPY_OK) {
        status = loopy_db_probe(table, pos - rules->material[m].offset,
                                outcome, remoteness);
        if (status == LOOPY_EINVAL) {
            loopy_i_diag(diag, 0, 0, "it lacks a position of its ending");
            status = LOOPY_EFORMAT; /* a table holds every position */
        } else if (status != LOOPY_OK) {
            loopy_i_diag(diag, 0, 0, "%s", loopy_strerror(status));
        }
    }
    if (status != LOOPY_OK && diag != NULL) {
        char why[sizeof diag->message];
        memcpy(why, diag->message, sizeof why);
        loopy_i_diag(diag, 0, 0, "the table of its ending %s, %s: %s",
                     rules->material[m].name, path, why);
    }
    loopy_db_close(table);
    loopy_i_free(path);
    return status;
}
