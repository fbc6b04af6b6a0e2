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
    loopy_status status = loopy_db_write_game(s, game, misere, cli_write_bytes, out);

    if (status != LOOPY_OK) {
        cli_out_abort(out);
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

int cli_db_open_game(const char *path, int misere, loopy_db **db,
                     loopy_game **game)
{
    loopy_diag diag;
    loopy_status status;

    memset(&diag, 0, sizeof diag);
    status = loopy_db_open(path, db, &diag);
    if (status == LOOPY_OK && misere && !loopy_db_misere(*db)) {
        cli_error("game", "%s: --misere: the database was solved in normal "
                  "play", path);
        return EXIT_USAGE;
    }
    if (status == LOOPY_OK)
        status = loopy_db_open_game(*db, game, &diag);
    if (status != LOOPY_OK) {
        cli_error("game", "%s: %s", path, diag.message[0] ? diag.message
                                                           : loopy_strerror(status));
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
