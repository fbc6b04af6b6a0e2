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
 */
#include "chess.h"
#include "../rules/rules_internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* Where the records of the table go. */
typedef struct table_copy {
    _Atomic uint16_t *rec;
    loopy_position offset, span;
    uint32_t max_level;
    bool too_far;
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
        c->too_far = true;
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

loopy_status chess_i_copy_table(const chess_rules *rules, uint32_t m,
                                const loopy_db *db, _Atomic uint16_t *rec,
                                uint32_t max_level, loopy_diag *diag)
{
    const chess_material *material = &rules->material[m];
    loopy_game *game = NULL;
    loopy_status status = LOOPY_OK;
    table_copy copy;

    /* First whose table it is, then how it was solved. */
    status = loopy_db_open_game(db, &game, diag);
    if (status == LOOPY_OK &&
        (!loopy_i_chess_is(game) || strcmp(game->params, material->name) != 0 ||
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
    if (status == LOOPY_OK && (loopy_db_misere(db) || !loopy_db_symmetric(db) ||
                               loopy_db_sparse(db))) {
        loopy_i_diag(diag, 0, 0, "not a table of normal play with a "
                     "position per class, as 'loopy game solve chess:%s "
                     "-o' writes it", material->name);
        status = LOOPY_EFORMAT;
    }
    if (status != LOOPY_OK)
        return status;
    copy.rec = rec;
    copy.offset = material->offset;
    copy.span = chess_i_segment_end(rules, m) - material->offset;
    copy.max_level = max_level;
    copy.too_far = false;
    status = loopy_db_iterate(db, copy_record, &copy, diag);
    if (status == LOOPY_OK && copy.too_far) {
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

bool chess_i_has_table(const char *folder, const char *name)
{
    char *path = table_path(folder, name);
    struct stat st;
    bool there;

    if (path == NULL)
        return true; /* chess_i_read_table will say so */
    /* A link to nothing is there: reading it says so. */
    there = stat(path, &st) == 0 || errno != ENOENT || lstat(path, &st) == 0;
    loopy_i_free(path);
    return there;
}

loopy_status chess_i_read_table(const chess_rules *rules, uint32_t m,
                                const char *folder, _Atomic uint16_t *rec,
                                uint32_t max_level, loopy_diag *diag)
{
    char *path = table_path(folder, rules->material[m].name);
    loopy_db *db = NULL;
    loopy_status status;

    if (path == NULL)
        return LOOPY_ENOMEM;
    status = loopy_db_open(path, &db, diag);
    if (status == LOOPY_OK)
        status = chess_i_copy_table(rules, m, db, rec, max_level, diag);
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
