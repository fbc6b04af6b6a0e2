/* db.c - databases on the command line: writing one through a cli_out,
 * recognising a database argument, and answering probes from it
 * ('loopy game solve -o', 'loopy game probe FILE.ldb', 'loopy solve -f
 * ldb'). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_write_bytes(void *ctx, const void *bytes, size_t len)
{
    cli_out *out = ctx;

    cli_out_bytes(out, bytes, len);
    return out->failed ? 1 : 0;
}

int cli_db_write_game(cli_out *out, const char *path,
                      const loopy_game_solution *s, const loopy_game *game,
                      int misere)
{
    /* A file of its own is written at offsets, a window of blocks at a
     * time; a stream takes the bytes in order, held until the header. */
    loopy_status status =
        cli_out_positional(out)
            ? loopy_db_write_game_at(s, game, misere, cli_out_write_at, out)
            : loopy_db_write_game(s, game, misere, cli_write_bytes, out);

    if (status != LOOPY_OK) {
        /* The reason a write at an offset failed, before the abort's
         * calls change errno. */
        int error = out->error;
        cli_out_abort(out);
        if (status == LOOPY_EIO && error != 0)
            cli_error("game", "%s: write failed: %s", path, strerror(error));
        else
            cli_error("game", "%s: %s", path, status == LOOPY_EIO
                      ? "write failed" : loopy_strerror(status));
        return cli_exit_status(status);
    }
    return cli_out_close(out, "game") ? EXIT_OK : EXIT_IO;
}

bool cli_names_database(const char *path)
{
    size_t len = path != NULL ? strlen(path) : 0;

    return len > 4 && strcmp(path + len - 4, ".ldb") == 0;
}

bool cli_is_database(const char *spec)
{
    struct stat st;

    return cli_names_database(spec) && stat(spec, &st) == 0 &&
           !S_ISDIR(st.st_mode);
}

bool cli_binary_output_ok(const char *cmd, const char *output)
{
    if ((output == NULL || strcmp(output, "-") == 0) && isatty(STDOUT_FILENO)) {
        cli_error(cmd, "a database is binary: not written to a terminal (give "
                  "-o FILE.ldb, or redirect standard output)");
        return false;
    }
    return true;
}

bool cli_out_not_terminal(cli_out *out, const char *cmd)
{
    if (!isatty(fileno(out->file)))
        return true;
    cli_out_abort(out);
    cli_error(cmd, "%s: a database is binary: not written to a terminal",
              out->path != NULL && strcmp(out->path, "-") != 0
                  ? out->path : "standard output");
    return false;
}

bool cli_db_builtin(const loopy_db *db)
{
    const char *name = loopy_db_game_name(db);

    if (strcmp(name, "graph") == 0 && loopy_db_game_params(db)[0] == '\0')
        return true;
    for (size_t i = 0; i < loopy_game_builtin_count(); i++)
        if (strcmp(loopy_game_builtin(i)->name, name) == 0)
            return true;
    return false;
}

/* Opens the game spec, or, when params is not NULL, spec's object with
 * params.  Parameters given apart are never joined to the path: they come
 * from a database, and a file must never choose what loopy loads. */
static int open_spec(const char *cmd, const char *path, const char *spec,
                     const char *params, loopy_game **game)
{
    loopy_diag diag;
    loopy_status status;
    char *object = NULL;

    memset(&diag, 0, sizeof diag);
    if (params == NULL) {
        status = loopy_game_open(spec, game, &diag);
    } else {
        size_t len = cli_game_object_len(spec);

        object = malloc(len + 1);
        if (object == NULL) {
            cli_error(cmd, "out of memory");
            return EXIT_RESOURCE;
        }
        memcpy(object, spec, len);
        object[len] = '\0';
        status = loopy_game_open_params(object, params, game, &diag);
    }
    free(object);
    if (status == LOOPY_OK)
        return EXIT_OK;
    if (params != NULL) {
        /* The game refuses what the database says of it: the file is at
         * fault, not the command line. */
        cli_error(cmd,
                  "%s: --game: the game refuses the database's "
                  "parameters '%s': %s",
                  path, params,
                  diag.message[0] ? diag.message : loopy_strerror(status));
        return status == LOOPY_ENOMEM ? EXIT_RESOURCE : EXIT_INPUT;
    }
    if (status != LOOPY_EINVAL || !cli_unknown_game(cmd, "--game: ", spec))
        cli_error(cmd, "--game: %s",
                  diag.message[0] ? diag.message : loopy_strerror(status));
    return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
}

/* Opens the game spec (--game) for db, checked against the database.  A
 * spec without parameters of the database's game gets the database's. */
static int open_given_game(const char *cmd, const loopy_db *db,
                           const char *path, const char *spec,
                           loopy_game **game)
{
    const char *params = loopy_db_game_params(db);
    loopy_diag diag;
    loopy_status status;
    int rc = open_spec(cmd, path, spec, NULL, game);

    if (rc == EXIT_OK && cli_game_object_len(spec) == strlen(spec) &&
        strcmp((*game)->name, loopy_db_game_name(db)) == 0 &&
        strcmp((*game)->params, params) != 0) {
        loopy_game_close(*game);
        *game = NULL;
        rc = open_spec(cmd, path, spec, params, game);
    }
    if (rc != EXIT_OK)
        return rc;
    memset(&diag, 0, sizeof diag);
    status = loopy_db_check_game(db, *game, &diag);
    if (status != LOOPY_OK) {
        loopy_game_close(*game);
        *game = NULL;
        /* Another game is the command line's mistake; the same game with
         * another index space, its rules'. */
        cli_error(cmd, "%s: --game: %s", path, diag.message);
        return status == LOOPY_EINVAL ? EXIT_USAGE : cli_exit_status(status);
    }
    return EXIT_OK;
}

int cli_db_open_with(const char *cmd, const char *path, const char *game_spec,
                     int misere, int no_symmetry, loopy_db **db,
                     loopy_game **game)
{
    loopy_diag diag;
    loopy_status status;

    memset(&diag, 0, sizeof diag);
    status = loopy_db_open(path, db, &diag);
    if (status != LOOPY_OK) {
        cli_error(cmd, "%s: %s", path,
                  diag.message[0] ? diag.message : loopy_strerror(status));
        return cli_exit_status(status);
    }
    /* Options that say how to solve must agree with how the database was
     * solved: it is read, not solved again. */
    if (misere && !loopy_db_misere(*db)) {
        cli_error(cmd,
                  "%s: --misere: the database was solved in normal "
                  "play",
                  path);
        return EXIT_USAGE;
    }
    if (no_symmetry && loopy_db_symmetric(*db)) {
        cli_error(cmd,
                  "%s: --no-symmetry: the database holds one position "
                  "per class of symmetric positions",
                  path);
        return EXIT_USAGE;
    }
    if (game_spec != NULL)
        return open_given_game(cmd, *db, path, game_spec, game);
    if (!cli_db_builtin(*db)) {
        const char *params = loopy_db_game_params(*db);
        cli_error(cmd,
                  "%s: the database holds %s%s%s, which is not a "
                  "built-in game: name its shared object with --game (such "
                  "as --game ./%s.so)",
                  path, loopy_db_game_name(*db), params[0] ? ":" : "", params,
                  loopy_db_game_name(*db));
        return EXIT_USAGE;
    }
    memset(&diag, 0, sizeof diag);
    status = loopy_db_open_game(*db, game, &diag);
    if (status != LOOPY_OK) {
        cli_error(cmd, "%s: %s", path,
                  diag.message[0] ? diag.message : loopy_strerror(status));
        return cli_exit_status(status);
    }
    return EXIT_OK;
}

int cli_db_lookup(const loopy_db *db, const char *path, const loopy_game *game,
                  loopy_position pos, const char *name, loopy_outcome *outcome,
                  uint32_t *remoteness, loopy_game_move **moves, size_t *count)
{
    loopy_diag diag;
    loopy_status status;

    memset(&diag, 0, sizeof diag);
    /* The moves first: their lookup of pos says why it fails (absent,
     * or a damaged block); the value then comes from the same block. */
    status = loopy_db_moves(db, game, pos, moves, count, &diag);
    if (status == LOOPY_OK)
        status = loopy_db_value(db, game, pos, outcome, remoteness);
    if (status == LOOPY_EINVAL) {
        cli_error("game", "%s: not reachable from the start position", name);
        return EXIT_INPUT;
    }
    if (status != LOOPY_OK) {
        /* A damaged or unreadable file is the file's problem; a move
         * outside the database is the position's. */
        cli_error("game", "%s: %s",
                  status == LOOPY_EFORMAT || status == LOOPY_EIO ? path : name,
                  diag.message[0] ? diag.message : loopy_strerror(status));
        free(*moves);
        *moves = NULL;
        return cli_exit_status(status);
    }
    return EXIT_OK;
}

bool cli_db_summary(const char *path, const loopy_game *game,
                    const loopy_game_solve_options *options,
                    loopy_game_solve_summary *sum)
{
    loopy_db *db = NULL;
    loopy_diag diag;
    bool same;

    memset(&diag, 0, sizeof diag);
    same = loopy_db_open(path, &db, &diag) == LOOPY_OK &&
           loopy_db_check_game(db, game, &diag) == LOOPY_OK &&
           loopy_db_misere(db) == (options->misere != 0) &&
           loopy_db_symmetric(db) ==
               (game->canonical != NULL && !options->no_symmetry);
    if (same) {
        sum->positions = loopy_db_size(db);
        for (int k = 0; k < 4; k++)
            sum->count[k] = loopy_db_count(db, (loopy_outcome)k);
        sum->start_outcome = LOOPY_DRAW;
        sum->start_remoteness = LOOPY_NONE;
        same = loopy_db_value(db, game, game->start, &sum->start_outcome,
                              &sum->start_remoteness) == LOOPY_OK;
    }
    loopy_db_close(db);
    return same;
}
