/*
 * db_util.h - what the database tests share (tests/lib/db_util.c): bytes
 * in memory as a loopy_write_fn target, opening them as a database (from
 * a temporary file or from memory), what a database should hold, writing
 * it in a chosen layout through the library's inner writer, and the
 * recomputation of a file's checksums.  Allocation failures print a
 * message and exit.
 */
#ifndef LOOPY_TEST_DB_UTIL_H
#define LOOPY_TEST_DB_UTIL_H

#include "loopy_game.h"

#include "../lib/db/db_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Bytes in memory ---- */

typedef struct tdb_bytes {
    unsigned char *data; /* malloc'd; free(data) */
    size_t len, cap;
} tdb_bytes;

/* A loopy_write_fn appending to a tdb_bytes (ctx). */
int tdb_append(void *ctx, const void *p, size_t len);
/* malloc that exits on failure. */
void *tdb_alloc(size_t size);
/* A copy of b (with room for a few more bytes). */
tdb_bytes tdb_copy(const tdb_bytes *b);
/* Writes data to a temporary file, opens it with loopy_db_open and
 * unlinks it (the open descriptor keeps it). */
loopy_status tdb_open_file(const unsigned char *data, size_t len,
                           loopy_db **db, loopy_diag *diag);
/* loopy_db_open_memory on b, diag cleared first. */
loopy_status tdb_open_mem(const tdb_bytes *b, loopy_db **db, loopy_diag *diag);

/* ---- What a database should hold ---- */

typedef struct tdb_expect {
    uint64_t n;
    loopy_position *pos; /* NULL: 0 .. n-1 */
    uint8_t *outcome;
    uint32_t *rem;
    uint64_t index_size;
    const char *name, *params;
    bool misere, symmetric;
    uint32_t base;
} tdb_expect;

loopy_position tdb_pos_at(const tdb_expect *e, uint64_t i);
/* The index of p in e, or e->n. */
uint64_t tdb_find(const tdb_expect *e, loopy_position p);
loopy_i_db_source tdb_source_of(const tdb_expect *e);
/* e written by loopy_i_db_write in the layout (CHECKs that it works). */
tdb_bytes tdb_write_layout(const tdb_expect *e, const loopy_i_db_layout *layout);
/* Frees the arrays of e (which must be malloc'd). */
void tdb_expect_free(tdb_expect *e);
/* The positions and values of a game's solution, and of a graph's. */
void tdb_expect_game(const loopy_game_solution *s, const loopy_game *g,
                     bool misere, bool symmetric, tdb_expect *e);
void tdb_expect_graph(const loopy_solution *s, uint32_t base, bool misere,
                      tdb_expect *e);

/* Recomputes the checksums of b: every block inside the file that the
 * index names, the index, the header (as far as their places are
 * readable). */
void tdb_fix_checksums(tdb_bytes *b);

#endif
