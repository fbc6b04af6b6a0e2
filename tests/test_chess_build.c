/*
 * test_chess_build.c - building a folder of chess tables
 * (loopy_game_solve_options.build, lib/games/chess_build.c), each ending
 * alone, and probing a database through its folder (loopy_db_use_tables).
 *
 * 1. The build's solution is the whole solve's on the game's own ending,
 *    index by index, and holds nothing else.
 * 2. Each table written (folder/NAME.ldb, one per ending of the closure)
 *    is the database of chess:NAME holding that ending alone: every index
 *    of its segment as the whole solve has it, and no other position.
 * 3. The game's own table, with its folder, gives every position's moves
 *    and their values as the whole solve does, those into sub-endings
 *    from their tables; without the folder, those moves are refused.
 * 4. A second build reads every table and solves nothing; a build that
 *    stopped before a table was renamed into place (the table missing, a
 *    stale temporary file there) solves that ending again, to the same
 *    bytes.
 * 5. Refusals: a build without a folder, in misere play, of every
 *    position (no symmetry), into a file; a
 *    table of another ending, named in the message; a damaged table met
 *    by a probe, named in its message.
 * 6. A build whose k-th allocation fails, for every k.
 * 7. A build that holds nothing it reads again (chess_i_build_hold): the
 *    same solution and tables, its tables read again.
 * The whole solve is checked against the retro solver and the published
 * tables in test_chess_tables.c and test_chess_pawns.c.
 */
#include "check.h"
#include "internal.h"
#include "loopy_game.h"
#include "../lib/games/chess.h"
#include "../lib/rules/rules_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static loopy_game *open_chess(const char *params)
{
    char spec[32];
    loopy_game *game = NULL;
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    snprintf(spec, sizeof spec, "chess:%s", params);
    CHECK_MSG(loopy_game_open(spec, &game, &diag) == LOOPY_OK, "%s: %s", spec,
              diag.message);
    return game;
}

/* The labels of a solve's progress, one after another. */
typedef struct labels {
    char text[8192];
} labels;

static void note_label(void *ctx, const char *phase, uint64_t done,
                       uint64_t total)
{
    labels *l = ctx;
    size_t len = strlen(l->text);

    (void)done;
    (void)total;
    snprintf(l->text + len, sizeof l->text - len, "%s\n", phase);
}

/* A solve of game by its own solver: build into folder when build, else
 * of everything (folder NULL).  Its status, diag its message. */
static loopy_status solve(const loopy_game *game, const char *folder,
                          bool build, int misere, labels *l,
                          loopy_game_solution **out, loopy_diag *diag)
{
    loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_status status;

    memset(diag, 0, sizeof *diag);
    options.tables = folder;
    options.build = build;
    options.misere = misere;
    if (l != NULL) {
        l->text[0] = '\0';
        options.progress = note_label;
        options.progress_ctx = l;
    }
    status = loopy_game_solve_tablebase(game, &options, out, diag);
    CHECK(status == LOOPY_OK || *out == NULL);
    return status;
}

/* A new empty folder under $TMPDIR (or /tmp), its name to folder. */
static void make_folder(char *folder, size_t capacity)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(folder, capacity, "%s/loopy-build-XXXXXX",
             tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    CHECK_MSG(mkdtemp(folder) != NULL, "%s: cannot make it", folder);
}

static char *path_of(const char *folder, const char *name, char *path,
                     size_t capacity)
{
    snprintf(path, capacity, "%s/%s.ldb", folder, name);
    return path;
}

/* The bytes of a file (NULL when it cannot be read), *len their count. */
static unsigned char *file_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *bytes = NULL;
    long size;

    *len = 0;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (bytes = malloc((size_t)size)) != NULL &&
        fread(bytes, 1, (size_t)size, f) != (size_t)size) {
        free(bytes);
        bytes = NULL;
    }
    if (bytes != NULL)
        *len = (size_t)size;
    fclose(f);
    return bytes;
}

/* 1. The build's solution against the whole solve's. */
static void check_own(const loopy_game *game, const loopy_game_solution *whole,
                      const loopy_game_solution *built)
{
    const chess_rules *rules = game->ctx;
    loopy_position end = chess_i_segment_end(rules, 0);
    uint64_t differ = 0, extra = 0;

    for (loopy_position i = 0; i < game->size; i++) {
        loopy_outcome oa = LOOPY_DRAW, ob = LOOPY_DRAW;
        uint32_t ra = 0, rb = 0;
        loopy_status sa = loopy_game_solution_value(whole, game, i, &oa, &ra);
        loopy_status sb = loopy_game_solution_value(built, game, i, &ob, &rb);
        if (i < end)
            differ += sa != sb || oa != ob || ra != rb;
        else
            extra += sb == LOOPY_OK;
    }
    CHECK_MSG(differ == 0 && extra == 0,
              "chess:%s: the build differs from the whole solve at %" PRIu64
              " indices of its ending and holds %" PRIu64 " others",
              game->params, differ, extra);
}

/* 2. Each ending's table against the whole solve's segment. */
static void check_tables(const loopy_game *game,
                         const loopy_game_solution *whole, const char *folder)
{
    const chess_rules *rules = game->ctx;
    char path[512];

    for (uint32_t m = 0; m < rules->material_count; m++) {
        const chess_material *material = &rules->material[m];
        loopy_position span = chess_i_segment_end(rules, m) - material->offset;
        loopy_game *its = open_chess(material->name);
        loopy_db *db = NULL;
        loopy_diag diag;
        uint64_t differ = 0, present = 0;

        memset(&diag, 0, sizeof diag);
        path_of(folder, material->name, path, sizeof path);
        CHECK_MSG(loopy_db_open(path, &db, &diag) == LOOPY_OK, "%s: %s", path,
                  diag.message);
        if (db == NULL || its == NULL) {
            loopy_game_close(its);
            continue;
        }
        CHECK(loopy_db_check_game(db, its, &diag) == LOOPY_OK);
        CHECK(loopy_db_symmetric(db) && !loopy_db_misere(db));
        /* Index by index (a value asked of the solution would be its
         * class's). */
        for (loopy_position j = 0; j < span; j++) {
            loopy_outcome oa = LOOPY_DRAW, ob = LOOPY_DRAW;
            uint32_t ra = 0, rb = 0;
            bool a = loopy_i_word_value(
                loopy_i_solution_word(whole, material->offset + j), &oa, &ra);
            loopy_status sb = loopy_db_probe(db, j, &ob, &rb);
            differ += a != (sb == LOOPY_OK) || (a && (oa != ob || ra != rb));
            present += a;
        }
        CHECK_MSG(differ == 0 && loopy_db_size(db) == present,
                  "%s: %" PRIu64 " of its ending's indices differ from the "
                  "whole solve; %" PRIu64 " positions against %" PRIu64,
                  path, differ, loopy_db_size(db), present);
        loopy_db_close(db);
        loopy_game_close(its);
    }
}

/* 3. Moves through the folder, at every step-th index of the ending. */
static void check_moves(const loopy_game *game,
                        const loopy_game_solution *whole, const char *folder,
                        loopy_position step)
{
    const chess_rules *rules = game->ctx;
    loopy_position end = chess_i_segment_end(rules, 0);
    char path[512];
    loopy_db *db = NULL, *bare = NULL;
    loopy_diag diag;
    uint64_t differ = 0, refused = 0, out = 0, asked = 0;

    memset(&diag, 0, sizeof diag);
    path_of(folder, game->params, path, sizeof path);
    CHECK(loopy_db_open(path, &db, &diag) == LOOPY_OK);
    CHECK(loopy_db_open(path, &bare, &diag) == LOOPY_OK);
    if (db == NULL || bare == NULL ||
        loopy_db_use_tables(db, folder) != LOOPY_OK) {
        CHECK(false);
        loopy_db_close(db);
        loopy_db_close(bare);
        return;
    }
    for (loopy_position i = 0; i < end; i += step) {
        loopy_game_move *a = NULL, *b = NULL, *c = NULL;
        size_t na = 0, nb = 0, nc = 0;
        loopy_status sa = loopy_game_solution_moves(whole, game, i, &a, &na,
                                                    &diag);
        loopy_status sb = loopy_db_moves(db, game, i, &b, &nb, &diag);
        loopy_status sc = loopy_db_moves(bare, game, i, &c, &nc, &diag);
        bool leaves = false;

        asked += sa == LOOPY_OK;
        for (size_t k = 0; sa == LOOPY_OK && k < na; k++)
            leaves |= a[k].to >= end ||
                      game->canonical(game->ctx, a[k].to) >= end;
        differ += sa != sb || na != nb ||
                  (na > 0 && memcmp(a, b, na * sizeof *a) != 0);
        out += leaves;
        refused += leaves && sc == LOOPY_EGAME;
        free(a);
        free(b);
        free(c);
    }
    CHECK_MSG(differ == 0 && asked > 0,
              "chess:%s: the moves of %" PRIu64 " of %" PRIu64 " positions "
              "differ through the folder", game->params, differ, asked);
    CHECK_MSG(out > 0 && refused == out,
              "chess:%s: without the folder %" PRIu64 " of the %" PRIu64
              " positions with a move out of the ending were refused",
              game->params, refused, out);
    {
        /* A value of a sub-ending too. */
        loopy_position sub = rules->material[1].offset;
        loopy_outcome o;
        uint32_t r;
        while (sub < game->size &&
               loopy_game_solution_value(whole, game, sub, &o, &r) != LOOPY_OK)
            sub++;
        CHECK(sub < game->size &&
              loopy_db_value(db, game, sub, &o, &r) == LOOPY_OK);
        CHECK(loopy_db_value(bare, game, sub, &o, &r) == LOOPY_EINVAL);
    }
    loopy_db_close(db);
    loopy_db_close(bare);
}

/* 4. Built again: nothing solved, the same bytes; one table lost (and a
 * stale temporary file in its place): that ending solved again. */
static void check_again(const loopy_game *game, const char *folder,
                        const char *lost)
{
    char path[512], part[600];
    unsigned char *before, *after;
    size_t len_before, len_after;
    loopy_game_solution *s = NULL;
    labels *l = calloc(1, sizeof *l);
    loopy_diag diag;

    if (l == NULL) {
        CHECK(false);
        return;
    }
    CHECK(solve(game, folder, true, 0, l, &s, &diag) == LOOPY_OK);
    loopy_game_solution_free(s);
    CHECK_MSG(strstr(l->text, ", from its table") != NULL &&
                  strstr(l->text, "tier") != NULL,
              "chess:%s built again: %s", game->params, l->text);
    /* Every ending read, none solved. */
    for (char *line = l->text; *line != '\0'; line = strchr(line, '\n') + 1) {
        char *eol = strchr(line, '\n');
        char *from = strstr(line, ", from its table");
        CHECK_MSG(strncmp(line, "tier", 4) != 0 || (from != NULL && from < eol),
                  "chess:%s built again solved: %.*s", game->params,
                  (int)(eol - line), line);
    }
    path_of(folder, lost, path, sizeof path);
    before = file_bytes(path, &len_before);
    CHECK(before != NULL && unlink(path) == 0);
    snprintf(part, sizeof part, "%s.%ld.part", path, (long)getpid());
    {
        FILE *f = fopen(part, "wb");
        CHECK(f != NULL && fputs("half a table", f) >= 0 && fclose(f) == 0);
    }
    CHECK(solve(game, folder, true, 0, l, &s, &diag) == LOOPY_OK);
    loopy_game_solution_free(s);
    {
        char solved[64];
        snprintf(solved, sizeof solved, " %s\n", lost);
        CHECK_MSG(strstr(l->text, solved) != NULL,
                  "chess:%s: %s not solved again: %s", game->params, lost,
                  l->text);
    }
    after = file_bytes(path, &len_after);
    CHECK_MSG(after != NULL && len_after == len_before &&
                  memcmp(after, before, len_before) == 0,
              "%s: %zu bytes written again against %zu", path, len_after,
              len_before);
    CHECK(access(part, F_OK) != 0);
    free(before);
    free(after);
    free(l);
}

/* Makes the file path holding text. */
static void make_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");

    CHECK_MSG(f != NULL && fputs(text, f) >= 0 && fclose(f) == 0,
              "%s: cannot make it", path);
}

/* Sets path's times two minutes back. */
static void make_old(const char *path)
{
    struct timespec t[2];

    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= 120;
    t[0].tv_nsec = 0;
    t[1] = t[0];
    CHECK_MSG(utimensat(AT_FDCWD, path, t, 0) == 0, "%s: cannot age it", path);
}

/* 4b. The temporary files of builds killed while writing (their process
 * gone, last written over a minute ago) are removed when a build starts;
 * those of a live process (the parent of this one), of one that holds a
 * lock on its file (a build on another machine: a child here holds it),
 * one just written (a writer not yet locked), a FIFO, a name whose number
 * starts with 0 and files of no ending of the build stay. */
static void check_swept(const loopy_game *game, const char *folder,
                        const char *ending)
{
    char dead[600], live[600], locked[600], other[600], fresh[600];
    char fifo[600], zero[600];
    long gone = 4194304 + 1; /* past the largest pid_max */
    loopy_game_solution *s = NULL;
    labels *l = calloc(1, sizeof *l);
    loopy_diag diag;
    int ready[2], done[2];
    pid_t child;
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");

    if (f != NULL) {
        long max = 0;
        if (fscanf(f, "%ld", &max) == 1 && max > 0 && max < INT32_MAX)
            gone = max + 1;
        fclose(f);
    }
    if (l == NULL || pipe(ready) != 0 || pipe(done) != 0) {
        CHECK(false);
        free(l);
        return;
    }
    snprintf(dead, sizeof dead, "%s/%s.ldb.%ld.part", folder, ending, gone);
    snprintf(live, sizeof live, "%s/%s.ldb.%ld.part", folder, ending,
             (long)getppid());
    snprintf(locked, sizeof locked, "%s/%s.ldb.%ld.part", folder, ending,
             gone + 1 <= INT32_MAX ? gone + 1 : gone - 2);
    snprintf(other, sizeof other, "%s/notes.ldb.%ld.part", folder, gone);
    snprintf(fresh, sizeof fresh, "%s/%s.ldb.%ld.part", folder, ending,
             gone + 2 <= INT32_MAX ? gone + 2 : gone - 3);
    snprintf(fifo, sizeof fifo, "%s/%s.ldb.%ld.part", folder, ending,
             gone + 3 <= INT32_MAX ? gone + 3 : gone - 4);
    snprintf(zero, sizeof zero, "%s/%s.ldb.0%ld.part", folder, ending, gone);
    make_file(dead, "half a table");
    make_file(live, "half a table");
    make_file(locked, "half a table");
    make_file(other, "not a table");
    make_file(fresh, "half a table");
    make_file(zero, "half a table");
    CHECK(mkfifo(fifo, 0600) == 0);
    make_old(dead);
    make_old(live);
    make_old(locked);
    make_old(other);
    make_old(zero);
    make_old(fifo);
    child = fork();
    if (child == 0) {
        /* Holds a lock on the file as a writer on another machine would;
         * only calls safe after fork in a threaded process. */
        struct flock lk;
        char c = 'r';
        int fd = open(locked, O_RDWR);
        memset(&lk, 0, sizeof lk);
        lk.l_type = F_WRLCK;
        lk.l_whence = SEEK_SET;
        if (fd < 0 || fcntl(fd, F_SETLK, &lk) != 0)
            c = 'x';
        if (write(ready[1], &c, 1) != 1 || read(done[0], &c, 1) < 0)
            _exit(1);
        _exit(0);
    }
    CHECK(child > 0);
    if (child > 0) {
        char c = 0;
        int wstatus = 0;
        CHECK(read(ready[0], &c, 1) == 1 && c == 'r');
        CHECK(solve(game, folder, true, 0, l, &s, &diag) == LOOPY_OK);
        loopy_game_solution_free(s);
        CHECK_MSG(access(dead, F_OK) != 0, "%s left", dead);
        CHECK_MSG(access(live, F_OK) == 0, "%s removed", live);
        CHECK_MSG(access(locked, F_OK) == 0, "%s removed, its lock held",
                  locked);
        CHECK_MSG(access(other, F_OK) == 0, "%s removed", other);
        CHECK_MSG(access(fresh, F_OK) == 0, "%s removed, just written",
                  fresh);
        CHECK_MSG(access(fifo, F_OK) == 0, "%s removed, a FIFO", fifo);
        CHECK_MSG(access(zero, F_OK) == 0, "%s removed", zero);
        CHECK(write(done[1], "d", 1) == 1);
        CHECK(waitpid(child, &wstatus, 0) == child && WIFEXITED(wstatus) &&
              WEXITSTATUS(wstatus) == 0);
        /* Its lock gone with it, the file goes at the next build. */
        CHECK(solve(game, folder, true, 0, l, &s, &diag) == LOOPY_OK);
        loopy_game_solution_free(s);
        CHECK_MSG(access(locked, F_OK) != 0, "%s left, its lock gone",
                  locked);
    }
    unlink(live);
    unlink(locked);
    unlink(other);
    unlink(fresh);
    unlink(fifo);
    unlink(zero);
    for (int i = 0; i < 2; i++) {
        close(ready[i]);
        close(done[i]);
    }
    free(l);
}

/* 5. What a build refuses, and a probe through a damaged folder. */
static void check_refused(const loopy_game *game, const char *folder)
{
    const chess_rules *rules = game->ctx;
    char path[512], other[512];
    loopy_game_solution *s = NULL;
    unsigned char *bytes;
    size_t len;
    loopy_diag diag;
    loopy_db *db = NULL;

    CHECK(solve(game, NULL, true, 0, NULL, &s, &diag) == LOOPY_EINVAL);
    CHECK(solve(game, folder, true, 1, NULL, &s, &diag) == LOOPY_EINVAL);
    {
        /* Tables hold one position per class. */
        loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
        options.tables = folder;
        options.build = 1;
        options.no_symmetry = 1;
        CHECK(loopy_game_solve_tablebase(game, &options, &s, &diag) ==
                  LOOPY_EINVAL &&
              s == NULL);
    }
    path_of(folder, game->params, path, sizeof path);
    CHECK(solve(game, path, true, 0, NULL, &s, &diag) == LOOPY_EIO);
    /* The first sub-ending's table holds the last's: a probe that meets
     * it, then a build that reads it (the game's own table gone). */
    path_of(folder, rules->material[1].name, path, sizeof path);
    path_of(folder, rules->material[rules->material_count - 1].name, other,
            sizeof other);
    bytes = file_bytes(other, &len);
    {
        FILE *f = fopen(path, "wb");
        CHECK(bytes != NULL && f != NULL &&
              fwrite(bytes, 1, len, f) == len && fclose(f) == 0);
    }
    path_of(folder, game->params, other, sizeof other);
    CHECK(loopy_db_open(other, &db, &diag) == LOOPY_OK);
    if (db != NULL) {
        loopy_position sub = rules->material[1].offset;
        loopy_outcome o;
        uint32_t r;
        CHECK(loopy_db_use_tables(db, folder) == LOOPY_OK);
        CHECK(loopy_db_value(db, game, sub, &o, &r) != LOOPY_OK);
        while (sub + 1 < chess_i_segment_end(rules, 1) &&
               loopy_db_value(db, game, sub, &o, &r) == LOOPY_EINVAL)
            sub++;
        CHECK(loopy_db_value(db, game, sub, &o, &r) == LOOPY_EFORMAT);
        {
            loopy_game_move *moves = NULL;
            size_t count = 0;
            memset(&diag, 0, sizeof diag);
            CHECK(loopy_db_moves(db, game, sub, &moves, &count, &diag) ==
                  LOOPY_EFORMAT);
            CHECK_MSG(strstr(diag.message, path) != NULL, "%s", diag.message);
            free(moves);
        }
    }
    CHECK(unlink(other) == 0);
    CHECK(solve(game, folder, true, 0, NULL, &s, &diag) == LOOPY_EFORMAT);
    CHECK_MSG(strstr(diag.message, path) != NULL, "%s", diag.message);
    loopy_db_close(db);
    free(bytes);
    unlink(path);
}

static void test_build(const char *params, loopy_position step,
                       const char *lost)
{
    loopy_game *game = open_chess(params);
    loopy_game_solution *whole = NULL, *built = NULL;
    char folder[400], path[512];
    loopy_diag diag;

    make_folder(folder, sizeof folder);
    if (game == NULL)
        return;
    CHECK(solve(game, NULL, false, 0, NULL, &whole, &diag) == LOOPY_OK);
    CHECK_MSG(solve(game, folder, true, 0, NULL, &built, &diag) == LOOPY_OK,
              "chess:%s: %s", params, diag.message);
    if (whole != NULL && built != NULL) {
        check_own(game, whole, built);
        check_tables(game, whole, folder);
        check_moves(game, whole, folder, step);
        check_again(game, folder, lost);
        check_swept(game, folder, lost);
        check_refused(game, folder);
    }
    loopy_game_solution_free(whole);
    loopy_game_solution_free(built);
    {
        const chess_rules *rules = game->ctx;
        for (uint32_t m = 0; m < rules->material_count; m++)
            unlink(path_of(folder, rules->material[m].name, path,
                           sizeof path));
    }
    CHECK_MSG(rmdir(folder) == 0, "%s: left files", folder);
    loopy_game_close(game);
    check_case_end();
}

/* 6. A build of KPK whose k-th allocation fails (only it, or it and every
 * later one), for every k (every step-th) up to what a build makes: it
 * fails with LOOPY_ENOMEM and a message, or builds; the library holds
 * what it held before; no temporary file stays. */
static void test_out_of_memory(uint64_t step)
{
    static const char *const names[] = {"KPK", "KQK", "KRK", "KBK", "KNK",
                                        "KK"};
    loopy_game *game = open_chess("KPK");
    char folder[400], path[512], part[600];
    uint64_t total = 0, failed = 0;
    loopy_game_solution *s = NULL;
    loopy_diag diag;

    make_folder(folder, sizeof folder);
    if (game == NULL)
        return;
    loopy_i_alloc_fail_at(0);
    CHECK(solve(game, folder, true, 0, NULL, &s, &diag) == LOOPY_OK);
    loopy_game_solution_free(s);
    total = loopy_i_alloc_fail_at(0);
    for (uint64_t k = 1; k <= total; k += step) {
        for (int once = 0; once < 2; once++) {
            int64_t live;
            loopy_status status;
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
                unlink(path_of(folder, names[i], path, sizeof path));
            live = loopy_i_alloc_live();
            s = NULL;
            if (once)
                loopy_i_alloc_fail_once(k);
            else
                loopy_i_alloc_fail_at(k);
            status = solve(game, folder, true, 0, NULL, &s, &diag);
            loopy_i_alloc_fail_at(0);
            loopy_game_solution_free(s);
            failed += status != LOOPY_OK;
            CHECK_MSG(status == LOOPY_OK ||
                          (status == LOOPY_ENOMEM && diag.message[0] != '\0'),
                      "allocation %" PRIu64 " failing: status %d, %s", k,
                      (int)status, diag.message);
            CHECK_MSG(loopy_i_alloc_live() == live,
                      "allocation %" PRIu64 " failing: %" PRId64 " blocks "
                      "held", k, loopy_i_alloc_live() - live);
            for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                snprintf(part, sizeof part, "%s.%ld.part",
                         path_of(folder, names[i], path, sizeof path),
                         (long)getpid());
                CHECK_MSG(access(part, F_OK) != 0, "%s left", part);
            }
        }
    }
    CHECK_MSG(total > 10 && failed > 0, "%" PRIu64 " allocations, %" PRIu64
              " builds failed", total, failed);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(path_of(folder, names[i], path, sizeof path));
    CHECK_MSG(rmdir(folder) == 0, "%s: left files", folder);
    loopy_game_close(game);
    check_case_end();
}

/* 7. A build whose hold limit is a byte (chess_i_build_hold): each
 * material leaves memory as soon as the next one does not read it, and is
 * read from its table again when a later one does; the same solution and
 * tables as the whole solve, and more tables read than by the default
 * build. */
static size_t count_reads(const labels *l)
{
    size_t n = 0;

    for (const char *p = l->text; (p = strstr(p, ", from its table")) != NULL; p++)
        n++;
    return n;
}

static void test_hold(const char *params)
{
    loopy_game *game = open_chess(params);
    loopy_game_solution *whole = NULL, *built = NULL, *held = NULL;
    labels *l = malloc(sizeof *l);
    size_t reads_held = 0, reads_default = 0;
    char folder[400], folder2[400], path[512];
    loopy_diag diag;

    make_folder(folder, sizeof folder);
    make_folder(folder2, sizeof folder2);
    if (game == NULL || l == NULL) {
        free(l);
        return;
    }
    CHECK(solve(game, NULL, false, 0, NULL, &whole, &diag) == LOOPY_OK);
    CHECK_MSG(solve(game, folder, true, 0, l, &built, &diag) == LOOPY_OK,
              "chess:%s: %s", params, diag.message);
    reads_default = count_reads(l);
    chess_i_build_hold(1);
    CHECK_MSG(solve(game, folder2, true, 0, l, &held, &diag) == LOOPY_OK,
              "chess:%s, holding nothing: %s", params, diag.message);
    chess_i_build_hold(0);
    reads_held = count_reads(l);
    if (whole != NULL && held != NULL) {
        check_own(game, whole, held);
        check_tables(game, whole, folder2);
    }
    CHECK_MSG(reads_held > reads_default,
              "chess:%s: %zu tables read holding nothing, %zu by default",
              params, reads_held, reads_default);
    loopy_game_solution_free(whole);
    loopy_game_solution_free(built);
    loopy_game_solution_free(held);
    {
        const chess_rules *rules = game->ctx;
        for (uint32_t m = 0; m < rules->material_count; m++) {
            unlink(path_of(folder, rules->material[m].name, path, sizeof path));
            unlink(path_of(folder2, rules->material[m].name, path, sizeof path));
        }
    }
    CHECK_MSG(rmdir(folder) == 0 && rmdir(folder2) == 0, "%s: left files", folder);
    free(l);
    loopy_game_close(game);
    check_case_end();
}

int main(void)
{
    bool quick = check_quick();

    test_build("KPK", 1, "KQK");
    /* Under ThreadSanitizer (10 to 20 times slower) the builds above run
     * the threads; the failures are single-threaded paths. */
    if (getenv("LOOPY_TEST_TSAN") == NULL)
        test_out_of_memory(quick ? 13 : 1);
    if (!quick)
        test_build("KRKN", 37, "KRK");
    test_hold("KPK");
    return check_finish("test_chess_build");
}
