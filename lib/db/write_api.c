/*
 * write_api.c - the database writers' faces: the writer in order (the
 * bytes after the header held until the header, which the writer at
 * offsets, write.c, writes last) and the public writers of a game's and
 * a graph's solution.
 */
#include "db_internal.h"

#include <string.h>

/* A sequential writer under loopy_i_db_write_at: what comes after the
 * header is held, in order, until the header (which comes last) goes
 * out, then all of it. */
typedef struct held {
    loopy_write_fn write;
    void *ctx;
    unsigned char **chunk;
    size_t *len;
    size_t count, capacity;
    bool short_of_memory;
} held;

static int hold_at(void *ctx, const void *bytes, size_t len, uint64_t offset)
{
    held *h = ctx;
    unsigned char *copy;

    if (offset == 0) {
        if (h->write(h->ctx, bytes, len) != 0)
            return 1;
        for (size_t i = 0; i < h->count; i++)
            if (h->write(h->ctx, h->chunk[i], h->len[i]) != 0)
                return 1;
        return 0;
    }
    if (h->count == h->capacity) {
        size_t cap = h->capacity == 0 ? 64 : h->capacity * 2;
        unsigned char **chunk = loopy_i_realloc(h->chunk, cap, sizeof *chunk);
        size_t *lens;

        if (chunk == NULL)
            goto no_memory;
        h->chunk = chunk;
        lens = loopy_i_realloc(h->len, cap, sizeof *lens);
        if (lens == NULL)
            goto no_memory;
        h->len = lens;
        h->capacity = cap;
    }
    copy = loopy_i_malloc(len > 0 ? len : 1, 1);
    if (copy == NULL)
        goto no_memory;
    memcpy(copy, bytes, len);
    h->chunk[h->count] = copy;
    h->len[h->count++] = len;
    return 0;

no_memory:
    h->short_of_memory = true;
    return 1;
}

loopy_status loopy_i_db_write(const loopy_i_db_source *src,
                              const loopy_i_db_layout *layout,
                              loopy_write_fn write, void *ctx)
{
    held h = {write, ctx, NULL, NULL, 0, 0, false};
    loopy_status status;

    if (write == NULL)
        return LOOPY_EINVAL;
    status = loopy_i_db_write_at(src, layout, hold_at, &h);
    if (status == LOOPY_EIO && h.short_of_memory)
        status = LOOPY_ENOMEM;
    for (size_t i = 0; i < h.count; i++)
        loopy_i_free(h.chunk[i]);
    loopy_i_free(h.chunk);
    loopy_i_free(h.len);
    return status;
}

/* ---- The public writers ---- */

loopy_status loopy_db_check_writable(const loopy_game *game, loopy_diag *diag)
{
    size_t len = 0;

    if (game == NULL || game->name == NULL)
        return LOOPY_EINVAL;
    /* The rules survey() applies, said before a long solve rather than
     * after it. */
    if (!loopy_i_db_printable(game->name, DB_NAME_MAX, &len) || len == 0 ||
        !loopy_i_db_game_name(game->name)) {
        len = strlen(game->name);
        if (len > DB_NAME_MAX)
            loopy_i_diag(diag, 0, 0, "the game's name is %zu characters long: "
                         "a database records a name of 1 to %u letters, "
                         "digits, '_' or '-'", len, DB_NAME_MAX);
        else
            loopy_i_diag(diag, 0, 0, "the game's name '%s' cannot be recorded "
                         "in a database: a name is 1 to %u letters, digits, "
                         "'_' or '-'", game->name, DB_NAME_MAX);
        return LOOPY_EINVAL;
    }
    if (game->params != NULL && !loopy_i_db_printable(game->params, DB_PARAMS_MAX, &len)) {
        len = strlen(game->params);
        if (len > DB_PARAMS_MAX)
            loopy_i_diag(diag, 0, 0, "%s: its parameters are %zu characters "
                         "long: a database records at most %u", game->name,
                         len, DB_PARAMS_MAX);
        else
            loopy_i_diag(diag, 0, 0, "%s: its parameters cannot be recorded "
                         "in a database: they must be printable ASCII",
                         game->name);
        return LOOPY_EINVAL;
    }
    return LOOPY_OK;
}

/* The source of a game's solution. */
static void game_source(const loopy_game_solution *s, const loopy_game *game,
                        int misere, loopy_i_db_source *src)
{
    src->n = s->n;
    src->word = s->word;
    src->record = s->record;
    src->byte = s->byte;
    src->mapped = s->mapped != 0;
    src->position = s->position;
    src->outcome = s->outcome;
    src->remoteness = s->remoteness;
    src->name = game->name;
    src->params = game->params != NULL ? game->params : "";
    src->index_size = game->size;
    src->end = 0;
    src->base = 0;
    src->misere = misere != 0;
    src->symmetric = s->symmetric;
}

loopy_status loopy_db_write_game(const loopy_game_solution *s,
                                 const loopy_game *game, int misere,
                                 loopy_write_fn write, void *ctx)
{
    loopy_i_db_source src;

    if (s == NULL || game == NULL)
        return LOOPY_EINVAL;
    game_source(s, game, misere, &src);
    return loopy_i_db_write(&src, NULL, write, ctx);
}

loopy_status loopy_db_write_game_at(const loopy_game_solution *s,
                                    const loopy_game *game, int misere,
                                    loopy_write_at_fn write_at, void *ctx)
{
    loopy_i_db_source src;

    if (s == NULL || game == NULL)
        return LOOPY_EINVAL;
    game_source(s, game, misere, &src);
    return loopy_i_db_write_at(&src, NULL, write_at, ctx);
}

loopy_status loopy_db_write_graph(const loopy_solution *s, uint32_t base,
                                  int misere, loopy_write_fn write, void *ctx)
{
    loopy_i_db_source src;

    if (s == NULL)
        return LOOPY_EINVAL;
    src.n = loopy_solution_vertex_count(s);
    src.word = NULL;
    src.record = NULL;
    src.byte = NULL;
    src.mapped = false;
    src.position = NULL;
    src.outcome = loopy_solution_outcomes(s);
    src.remoteness = loopy_solution_remoteness(s);
    src.name = "graph";
    src.params = "";
    src.index_size = src.n;
    src.end = 0;
    src.base = base;
    src.misere = misere != 0;
    src.symmetric = false;
    return loopy_i_db_write(&src, NULL, write, ctx);
}
