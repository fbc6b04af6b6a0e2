/*
 * db_util.c - what the database tests share (tests/db_util.h).
 */
#include "db_util.h"

#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tdb_append(void *ctx, const void *p, size_t len)
{
    tdb_bytes *b = ctx;

    if (len > b->cap - b->len) {
        size_t cap = (b->len + len) * 2 + 64;
        unsigned char *grown = realloc(b->data, cap);
        if (grown == NULL)
            return 1;
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, len);
    b->len += len;
    return 0;
}

void *tdb_alloc(size_t size)
{
    void *p = malloc(size ? size : 1);

    if (p == NULL) {
        fputs("test_db: out of memory\n", stderr);
        exit(EXIT_FAILURE);
    }
    return p;
}

tdb_bytes tdb_copy(const tdb_bytes *b)
{
    tdb_bytes c = {tdb_alloc(b->len + 64), b->len, b->len + 64};

    memcpy(c.data, b->data, b->len);
    return c;
}

/* Writes data to a temporary file and opens it with loopy_db_open (the
 * file is unlinked at once: the open descriptor keeps it). */
loopy_status tdb_open_file(const unsigned char *data, size_t len,
                              loopy_db **db, loopy_diag *diag)
{
    char path[] = "/tmp/loopy_test_db_XXXXXX";
    int fd = mkstemp(path);
    loopy_status status;

    if (fd < 0 || (len > 0 && write(fd, data, len) != (ssize_t)len)) {
        fputs("test_db: cannot write a temporary file\n", stderr);
        exit(EXIT_FAILURE);
    }
    close(fd);
    memset(diag, 0, sizeof *diag);
    status = loopy_db_open(path, db, diag);
    unlink(path);
    return status;
}

loopy_status tdb_open_mem(const tdb_bytes *b, loopy_db **db, loopy_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    return loopy_db_open_memory(b->data, b->len, db, diag);
}


loopy_position tdb_pos_at(const tdb_expect *e, uint64_t i)
{
    return e->pos != NULL ? e->pos[i] : i;
}

/* The index of p in e, or e->n. */
uint64_t tdb_find(const tdb_expect *e, loopy_position p)
{
    uint64_t lo = 0, hi = e->n;

    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (tdb_pos_at(e, mid) < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < e->n && tdb_pos_at(e, lo) == p ? lo : e->n;
}

loopy_i_db_source tdb_source_of(const tdb_expect *e)
{
    loopy_i_db_source s;

    s.n = e->n;
    s.word = NULL;
    s.record = NULL;
    s.byte = NULL;
    s.mapped = false;
    s.position = e->pos;
    s.outcome = e->outcome;
    s.remoteness = e->rem;
    s.name = e->name;
    s.params = e->params;
    s.index_size = e->index_size;
    s.end = 0;
    s.base = e->base;
    s.misere = e->misere;
    s.symmetric = e->symmetric;
    return s;
}

tdb_bytes tdb_write_layout(const tdb_expect *e, const loopy_i_db_layout *layout)
{
    loopy_i_db_source src = tdb_source_of(e);
    tdb_bytes b = {NULL, 0, 0};
    loopy_status status = loopy_i_db_write(&src, layout, tdb_append, &b);

    CHECK_MSG(status == LOOPY_OK, "loopy_i_db_write: %s", loopy_strerror(status));
    return b;
}


void tdb_expect_free(tdb_expect *e)
{
    free(e->pos);
    free(e->outcome);
    free(e->rem);
    memset(e, 0, sizeof *e);
}


void tdb_expect_game(const loopy_game_solution *s, const loopy_game *g,
                           bool misere, bool symmetric, tdb_expect *e)
{
    e->n = loopy_game_solution_size(s);
    e->pos = tdb_alloc(e->n * sizeof *e->pos);
    e->outcome = tdb_alloc(e->n);
    e->rem = tdb_alloc(e->n * sizeof *e->rem);
    for (uint64_t i = 0; i < e->n; i++) {
        loopy_outcome o;
        e->pos[i] = loopy_game_solution_position(s, i);
        /* A representative's value is its own. */
        loopy_game_solution_value(s, g, e->pos[i], &o, &e->rem[i]);
        e->outcome[i] = (uint8_t)o;
    }
    e->index_size = g->size;
    e->name = g->name;
    e->params = g->params;
    e->misere = misere;
    e->symmetric = symmetric;
    e->base = 0;
}


void tdb_expect_graph(const loopy_solution *s, uint32_t base, bool misere,
                            tdb_expect *e)
{
    e->n = loopy_solution_vertex_count(s);
    e->pos = NULL;
    e->outcome = tdb_alloc(e->n);
    e->rem = tdb_alloc(e->n * sizeof *e->rem);
    memcpy(e->outcome, loopy_solution_outcomes(s), e->n);
    memcpy(e->rem, loopy_solution_remoteness(s), e->n * sizeof *e->rem);
    e->index_size = e->n;
    e->name = "graph";
    e->params = "";
    e->misere = misere;
    e->symmetric = false;
    e->base = base;
}


/* Fixes the checksums of b: every block inside the file that the index
 * names, the index, the header (as far as their places are readable). */
void tdb_fix_checksums(tdb_bytes *b)
{
    unsigned char *p = b->data;
    uint64_t h, blocks, index;

    if (b->len < DB_FIXED_BYTES + 8)
        return;
    h = db_get(p + 16, 4);
    blocks = db_get(p + 104, 8);
    index = db_get(p + 112, 8);
    if (index <= b->len && blocks <= (b->len - index) / DB_ENTRY_BYTES &&
        8 <= b->len - index - blocks * DB_ENTRY_BYTES) {
        for (uint64_t k = 0; k < blocks; k++) {
            unsigned char *e = p + index + k * DB_ENTRY_BYTES;
            uint64_t off = db_get(e, 8), len = db_get(e + 8, 4);
            if (off <= b->len && len <= b->len - off)
                db_put(e + 24, loopy_i_checksum(p + off, len, 1), 8);
        }
        db_put(p + index + blocks * DB_ENTRY_BYTES,
               loopy_i_checksum(p + index, blocks * DB_ENTRY_BYTES, 1), 8);
    }
    if (h >= DB_FIXED_BYTES + 8 && h <= b->len)
        db_put(p + h - 8, loopy_i_checksum(p, h - 8, 1), 8);
}
