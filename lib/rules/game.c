/*
 * game.c - games by rules: the registry of built-in games, opening a game
 * from its specification (built in, or a shared object), and the checked
 * calls into a game's callbacks that the solvers share.
 */
/* dlopen, dlsym, dlclose, dlerror */
#define _DEFAULT_SOURCE

#include "rules_internal.h"

#include "../games/games.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static const loopy_game_def *const builtin[] = {
    &loopy_i_game_chess,
    &loopy_i_game_connect4,
    &loopy_i_game_mnk,
    &loopy_i_game_subtract,
    &loopy_i_game_tictactoe,
};

size_t loopy_game_builtin_count(void)
{
    return sizeof builtin / sizeof builtin[0];
}

const loopy_game_def *loopy_game_builtin(size_t i)
{
    return i < loopy_game_builtin_count() ? builtin[i] : NULL;
}

int loopy_game_has_tablebase(const loopy_game *game)
{
    return game != NULL && game->version >= 6 && game->solve != NULL;
}

loopy_status loopy_game_solve_tablebase(const loopy_game *game,
                                        const loopy_game_solve_options *options,
                                        loopy_game_solution **out,
                                        loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;

    if (out == NULL || game == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (!loopy_game_has_tablebase(game)) {
        loopy_i_diag(diag, 0, 0, "%s: the game has no solver of its own: "
                     "solve it with the solver that stores no moves or "
                     "through a graph", game->name);
        return LOOPY_EINVAL;
    }
    return game->solve(game, options != NULL ? options : &defaults, out,
                       diag);
}

/* An open game: the table the caller sees, first, so that the pointer is
 * the handle, and what closing it needs. */
typedef struct open_game {
    loopy_game game;
    void *object; /* dlopen handle of a shared object, or NULL */
} open_game;

/* Checks a table a game filled: what the solvers rely on before calling
 * anything. */
static loopy_status check_table(const loopy_game *g, const char *who,
                                loopy_diag *diag)
{
    const char *what = NULL;

    if (g->version < 1)
        what = "its version is not set (LOOPY_GAME_VERSION)";
    else if (g->version > LOOPY_GAME_VERSION)
        what = "it was written for a newer loopy (a higher version)";
    else if (g->name == NULL || g->name[0] == '\0')
        what = "it has no name";
    else if (g->size == 0)
        what = "its index space is empty (size 0)";
    else if (g->start >= g->size)
        what = "its start position is not below its size";
    else if (g->primitive == NULL)
        what = "it has no primitive callback (required)";
    else if (g->moves == NULL)
        what = "it has no moves callback (required)";
    else if (g->tier_count > 1 &&
             (g->tier_start == NULL || g->tier_children == NULL))
        what = "it has tiers but no tier_start or tier_children callback";
    else if (g->tier_count > g->size)
        what = "it has more tiers than positions";
    else if (g->version >= 6 && g->table_value != NULL && g->sub_table == NULL)
        what = "it has a table_value callback but no sub_table";
    else if (g->version >= 7 && g->move_twin != NULL && g->move_format == NULL)
        what = "it has a move_twin callback but no move_format";
    if (what == NULL)
        return LOOPY_OK;
    loopy_i_diag(diag, 0, 0, "%s: not a usable game: %s", who, what);
    return LOOPY_EGAME;
}

/* Loads a shared object and asks it for its definition. */
static loopy_status load_object(const char *path, void **object,
                                const loopy_game_def **def, loopy_diag *diag)
{
    loopy_game_entry_fn entry;
    void *symbol;

    dlerror();
    *object = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (*object == NULL) {
        const char *why = dlerror();
        loopy_i_diag(diag, 0, 0, "%s: cannot load the game: %s", path,
                     why != NULL ? why : "unknown reason");
        return LOOPY_EIO;
    }
    symbol = dlsym(*object, LOOPY_GAME_ENTRY);
    if (symbol == NULL) {
        loopy_i_diag(diag, 0, 0, "%s: not a loopy game: it has no function "
                     "%s", path, LOOPY_GAME_ENTRY);
        goto fail;
    }
    /* POSIX: a data pointer from dlsym may be converted to a function
     * pointer; memcpy keeps ISO C quiet about it. */
    memcpy(&entry, &symbol, sizeof entry);
    *def = entry();
    if (*def == NULL || (*def)->create == NULL || (*def)->version < 1 ||
        (*def)->version > LOOPY_GAME_VERSION || (*def)->name == NULL) {
        loopy_i_diag(diag, 0, 0, "%s: not a usable game: %s() gave no "
                     "definition, one without create or name, or one of "
                     "another version", path, LOOPY_GAME_ENTRY);
        goto fail;
    }
    return LOOPY_OK;

fail:
    dlclose(*object);
    *object = NULL;
    return LOOPY_EGAME;
}

/* Opens the game name[0 .. name_len) with params (NULL: none): a built-in
 * game, or, when the name has a '/' and builtin_only is false, a shared
 * object. */
static loopy_status open_game_named(const char *spec, size_t name_len,
                                    const char *params, bool builtin_only,
                                    loopy_game **out, loopy_diag *diag)
{
    const loopy_game_def *def = NULL;
    open_game *g = NULL;
    loopy_status status;
    char *name = NULL;

    name = loopy_i_malloc(name_len + 1, 1);
    g = loopy_i_calloc(1, sizeof *g);
    if (name == NULL || g == NULL) {
        status = LOOPY_ENOMEM;
        loopy_i_diag(diag, 0, 0, "out of memory");
        goto fail;
    }
    memcpy(name, spec, name_len);
    name[name_len] = '\0';
    if (memchr(name, '/', name_len) != NULL && !builtin_only) {
        CHECK_GOTO(load_object(name, &g->object, &def, diag));
    } else {
        for (size_t i = 0; i < loopy_game_builtin_count(); i++)
            if (strcmp(builtin[i]->name, name) == 0)
                def = builtin[i];
        if (def == NULL) {
            loopy_i_diag(diag, 0, 0, "unknown game '%s' (a built-in name, "
                         "or a path to a shared object with a '/')", name);
            status = LOOPY_EINVAL;
            goto fail;
        }
    }
    memset(&g->game, 0, sizeof g->game);
    status = def->create(params, &g->game, diag);
    if (status != LOOPY_OK) {
        if (diag != NULL && diag->message[0] == '\0')
            loopy_i_diag(diag, 0, 0, "%s: cannot make the game: %s", name,
                         loopy_strerror(status));
        goto fail;
    }
    /* A game written for version 1 knows nothing of the fields after: its
     * create() may have cleared its own smaller table only. */
    if (g->game.version < 2) {
        g->game.move_format = NULL;
        g->game.value_note = NULL;
    }
    if (g->game.version < 3) {
        g->game.move_parse = NULL;
        g->game.move_label = NULL;
        g->game.draw = NULL;
    }
    if (g->game.version < 4) {
        g->game.tier_count = 0;
        g->game.tier_start = NULL;
        g->game.tier_children = NULL;
    }
    if (g->game.version < 5 || g->game.canonical == NULL)
        g->game.class_size = NULL;
    if (g->game.version < 5)
        g->game.remoteness_bound = 0;
    if (g->game.version < 6) {
        g->game.solve = NULL;
        g->game.sub_table = NULL;
        g->game.table_value = NULL;
    }
    if (g->game.version < 7)
        g->game.move_twin = NULL;
    status = check_table(&g->game, name, diag);
    if (status != LOOPY_OK) {
        if (g->game.release != NULL)
            g->game.release(g->game.ctx);
        goto fail;
    }
    if (g->game.params == NULL)
        g->game.params = "";
    loopy_i_free(name);
    *out = &g->game;
    return LOOPY_OK;

fail:
    if (g != NULL && g->object != NULL)
        dlclose(g->object);
    loopy_i_free(g);
    loopy_i_free(name);
    return status;
}

/* What an empty game's name is told. */
static const char no_name[] = "no game named: the name is empty (a built-in "
                              "game, or the path of a shared object)";

loopy_status loopy_game_open(const char *spec, loopy_game **out,
                             loopy_diag *diag)
{
    const char *colon;

    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (spec == NULL || spec[0] == '\0') {
        loopy_i_diag(diag, 0, 0, "%s", no_name);
        return LOOPY_EINVAL;
    }
    /* NAME:PARAMS, or PATH:PARAMS, where a path has a '/' and its params
     * come after the last ':' past the last '/'. */
    colon = strrchr(spec, ':');
    if (colon != NULL && strchr(colon, '/') != NULL)
        colon = NULL;
    return open_game_named(spec,
                           colon != NULL ? (size_t)(colon - spec) : strlen(spec),
                           colon != NULL ? colon + 1 : NULL, false, out, diag);
}

/* Opens object with params as two values: a shared object too unless
 * builtin_only. */
static loopy_status open_apart(const char *object, const char *params,
                               bool builtin_only, loopy_game **out,
                               loopy_diag *diag)
{
    if (out == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (object == NULL || object[0] == '\0') {
        loopy_i_diag(diag, 0, 0, "%s", no_name);
        return LOOPY_EINVAL;
    }
    return open_game_named(object, strlen(object),
                           params != NULL && params[0] != '\0' ? params : NULL,
                           builtin_only, out, diag);
}

loopy_status loopy_game_open_params(const char *object, const char *params,
                                    loopy_game **out, loopy_diag *diag)
{
    return open_apart(object, params, false, out, diag);
}

loopy_status loopy_i_game_open_builtin(const char *name, const char *params,
                                       loopy_game **out, loopy_diag *diag)
{
    return open_apart(name, params, true, out, diag);
}

void loopy_game_close(loopy_game *game)
{
    open_game *g = (open_game *)game;

    if (g == NULL)
        return;
    if (g->game.release != NULL)
        g->game.release(g->game.ctx);
    if (g->object != NULL)
        dlclose(g->object);
    loopy_i_free(g);
}

/* A refused position: its message, which quotes the text as given, with
 * each control character (and byte of no UTF-8 character) made '?', as
 * it is printed on a terminal. */
static loopy_status refused(loopy_diag *diag)
{
    if (diag != NULL)
        loopy_i_text_clean(diag->message, sizeof diag->message);
    return LOOPY_EPARSE;
}

loopy_status loopy_game_parse(const loopy_game *game, const char *text,
                              loopy_position *pos, loopy_diag *diag)
{
    char why[200];

    why[0] = '\0';
    if (game->parse != NULL) {
        if (game->parse(game->ctx, text, pos, why, sizeof why) != 0) {
            why[sizeof why - 1] = '\0';
            loopy_i_diag(diag, 0, 0, "'%s' is not a position of %s: %s", text,
                         game->name, why[0] ? why : "the game refuses it");
            return refused(diag);
        }
    } else {
        char *end;
        unsigned long long v;

        if (text[0] < '0' || text[0] > '9') {
            loopy_i_diag(diag, 0, 0, "'%s' is not a position of %s: expected "
                         "a number", text, game->name);
            return refused(diag);
        }
        v = strtoull(text, &end, 10);
        if (*end != '\0') {
            loopy_i_diag(diag, 0, 0, "'%s' is not a position of %s: expected "
                         "a number", text, game->name);
            return refused(diag);
        }
        *pos = (loopy_position)v;
    }
    if (*pos >= game->size) {
        loopy_i_diag(diag, 0, 0, "'%s' is not a position of %s: index %"
                     LOOPY_PRI_POSITION " is not below the size %"
                     LOOPY_PRI_POSITION, text, game->name, *pos, game->size);
        return refused(diag);
    }
    if (game->legal != NULL && !game->legal(game->ctx, *pos)) {
        loopy_i_diag(diag, 0, 0, "'%s' is not a position of %s: it cannot "
                     "occur in play", text, game->name);
        return refused(diag);
    }
    return LOOPY_OK;
}

/* ---- Checked calls, for the solvers ---- */

typedef size_t (*list_fn)(void *, loopy_position, loopy_position *, size_t);

/* loopy_i_game_list_why with the callback list. */
static size_t list_why(const loopy_game *game, list_fn list, loopy_position pos,
                       loopy_position_buffer *buf, loopy_i_list_failure *why)
{
    loopy_i_list_failure failure = {LOOPY_I_LIST_OK, 0, 0};
    size_t count = list(game->ctx, pos, buf->items, buf->capacity);
    loopy_position *grown;

    if (count == LOOPY_GAME_ERROR) {
        failure.fault = LOOPY_I_LIST_FAILED;
        goto fail;
    }
    if (count <= buf->capacity)
        goto fail; /* done: the same exit */
    /* An absurd count is the game's fault, said as such: asking for the
     * memory would turn it into an out-of-memory, or a very long wait. */
    if (count > LOOPY_I_MAX_MOVES) {
        failure.fault = LOOPY_I_LIST_TOO_MANY;
        failure.count = count;
        goto fail;
    }
    grown = loopy_i_realloc(buf->items, count, sizeof *grown);
    if (grown == NULL) {
        buf->out_of_memory = true;
        failure.fault = LOOPY_I_LIST_NO_MEMORY;
        failure.count = count;
        goto fail;
    }
    buf->items = grown;
    buf->capacity = count;
    /* Room for all of them: the same position must give the same count.
     * One retry only, so a count that grows on every call cannot make the
     * solver loop. */
    failure.count = count;
    count = list(game->ctx, pos, buf->items, buf->capacity);
    if (count == LOOPY_GAME_ERROR) {
        failure.fault = LOOPY_I_LIST_FAILED;
        goto fail;
    }
    if (count != failure.count) {
        failure.fault = LOOPY_I_LIST_CHANGED;
        failure.again = count;
        goto fail;
    }
fail:
    if (why != NULL)
        *why = failure;
    return failure.fault == LOOPY_I_LIST_OK ? count : LOOPY_GAME_ERROR;
}

size_t loopy_i_game_list_why(const loopy_game *game, loopy_position pos,
                             bool backward, loopy_position_buffer *buf,
                             loopy_i_list_failure *why)
{
    return list_why(game, backward ? game->unmoves : game->moves, pos, buf,
                    why);
}

size_t loopy_i_game_list(const loopy_game *game, loopy_position pos,
                         bool backward, loopy_position_buffer *buf)
{
    return list_why(game, backward ? game->unmoves : game->moves, pos, buf,
                    NULL);
}

size_t loopy_i_game_list_canonical(const loopy_game *game, loopy_position pos,
                                   bool backward, loopy_position_buffer *buf,
                                   loopy_i_list_failure *why)
{
    return list_why(game,
                    backward ? game->canonical_unmoves : game->canonical_moves,
                    pos, buf, why);
}

void loopy_i_list_failure_text(const loopy_i_list_failure *why, bool backward,
                               char *out, size_t capacity)
{
    const char *name = backward ? "unmoves()" : "moves()";

    switch (why->fault) {
    case LOOPY_I_LIST_TOO_MANY:
        snprintf(out, capacity, "%s asks for room for %zu positions, more "
                 "than %zu", name, why->count, (size_t)LOOPY_I_MAX_MOVES);
        break;
    case LOOPY_I_LIST_CHANGED:
        snprintf(out, capacity, "%s gave %zu positions, then %zu when called "
                 "again with room for %zu", name, why->count, why->again,
                 why->count);
        break;
    case LOOPY_I_LIST_NO_MEMORY:
        /* The callback that asked is named: a count the game got wrong
         * shows as such, not as the machine's want of memory. */
        snprintf(out, capacity, "%s asks for room for %zu positions: out of "
                 "memory", name, why->count);
        break;
    default:
        snprintf(out, capacity, "%s failed", name);
        break;
    }
}

void loopy_i_position_buffer_release(loopy_position_buffer *buf)
{
    loopy_i_free(buf->items);
    buf->items = NULL;
    buf->capacity = 0;
}

size_t loopy_i_game_neighbours(const loopy_i_reps *reps, loopy_position pos,
                               bool backward, loopy_position_buffer *buf,
                               char *why, size_t why_size, bool *no_memory)
{
    const loopy_game *game = reps->game;
    bool given = reps->given[backward];
    loopy_i_list_failure fault;
    size_t count = given ? loopy_i_game_list_canonical(game, pos, backward,
                                                       buf, &fault)
                         : loopy_i_game_list_why(game, pos, backward, buf,
                                                 &fault);
    const char *name = given ? backward ? "canonical_unmoves()"
                                        : "canonical_moves()"
                             : backward ? "unmoves()" : "moves()";

    *no_memory = false;
    if (count == LOOPY_GAME_ERROR) {
        char text[160];
        *no_memory = fault.fault == LOOPY_I_LIST_NO_MEMORY;
        loopy_i_list_failure_text(&fault, backward, text, sizeof text);
        /* given: the text names moves() or unmoves() */
        snprintf(why, why_size, "%s%s", given ? "canonical_" : "", text);
        return LOOPY_GAME_ERROR;
    }
    for (size_t i = 0; i < count; i++) {
        loopy_position s = buf->items[i];
        if (s >= game->size) {
            snprintf(why, why_size, "%s gives position %" LOOPY_PRI_POSITION
                     ", outside the index space", name, s);
            return LOOPY_GAME_ERROR;
        }
        if (reps->symmetric && !given) {
            loopy_position r = game->canonical(game->ctx, s);
            if (r >= game->size) {
                snprintf(why, why_size, "canonical() takes %" LOOPY_PRI_POSITION
                         " to %" LOOPY_PRI_POSITION ", outside the index space",
                         s, r);
                return LOOPY_GAME_ERROR;
            }
            /* A representative must be its own (see graph_solve.c);
             * otherwise each position is checked once, when reached. */
            if (reps->all_legal && game->canonical(game->ctx, r) != r) {
                snprintf(why, why_size, "canonical() is not idempotent: it "
                         "takes %" LOOPY_PRI_POSITION " to %" LOOPY_PRI_POSITION,
                         s, r);
                return LOOPY_GAME_ERROR;
            }
            s = r;
        }
        buf->items[i] = s;
    }
    return loopy_i_sort_unique(buf->items, count);
}

void loopy_i_reps_init(loopy_i_reps *reps, const loopy_game *game,
                       bool no_symmetry, bool all_legal)
{
    reps->game = game;
    reps->symmetric = game->canonical != NULL && !no_symmetry;
    reps->all_legal = all_legal;
    /* With all_legal, a move that is not a representative would go
     * unnoticed (its word is absent): each is taken to its own, and
     * checked. */
    reps->given[0] = reps->symmetric && !all_legal &&
                     game->canonical_moves != NULL;
    reps->given[1] = reps->symmetric && !all_legal &&
                     game->canonical_unmoves != NULL;
}
