/* game_probe.c - "loopy game probe": the value of positions and of their
 * moves, from a solve or from a database; positions from the arguments or
 * one per line of standard input, all read before anything is answered.
 * A position's JSON answer (game_probe_json) is also 'loopy serve''s. */
#include "game.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A position to probe: its text (NULL: the start), and its line of
 * standard input (0: an argument). */
typedef struct probe_item {
    const char *text;
    char *owned; /* text, when read from standard input */
    uint64_t line;
    loopy_position pos;
} probe_item;

typedef struct probe_list {
    probe_item *items;
    size_t count, capacity;
} probe_list;

static int probe_add(probe_list *list, const char *text, char *owned,
                     uint64_t line)
{
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 16;
        probe_item *grown = realloc(list->items, capacity * sizeof *grown);
        if (grown == NULL) {
            free(owned);
            cli_error("game", "out of memory");
            return EXIT_RESOURCE;
        }
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count].text = text;
    list->items[list->count].owned = owned;
    list->items[list->count].line = line;
    list->items[list->count].pos = 0;
    list->count++;
    return EXIT_OK;
}

static void probe_list_free(probe_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->items[i].owned);
    free(list->items);
}

/* The positions of standard input, one a line; blank lines and lines
 * starting with '#' (after blanks) are skipped, blanks around a position
 * dropped.  All of it is read before anything is answered.  in: standard
 * input, or what game_resolve read of it (game_args.stdin_copy). */
static int probe_read_stdin(FILE *in, probe_list *list)
{
    char *line = NULL;
    size_t capacity = 0;
    ssize_t got;
    uint64_t number = 0;
    int rc = EXIT_OK;

    for (;;) {
        char *text, *copy;
        bool nul;

        /* getline says end of input and failure alike: errno tells. */
        errno = 0;
        if (rc != EXIT_OK || (got = getline(&line, &capacity, in)) <= 0)
            break;
        number++;
        text = game_position_line(line, (size_t)got, &nul);
        if (nul) {
            cli_error("game", "<stdin>:%" PRIu64 ": a NUL byte in the line",
                      number);
            rc = EXIT_INPUT;
            break;
        }
        if (text == NULL)
            continue;
        copy = strdup(text);
        if (copy == NULL) {
            cli_error("game", "out of memory");
            rc = EXIT_RESOURCE;
            break;
        }
        rc = probe_add(list, copy, copy, number);
    }
    if (rc == EXIT_OK && errno == ENOMEM) {
        cli_error("game", "<stdin>:%" PRIu64 ": out of memory for the line",
                  number + 1);
        rc = EXIT_RESOURCE;
    }
    if (rc == EXIT_OK && ferror(in)) {
        cli_error("game", "<stdin>: read failed: %s", strerror(errno));
        rc = EXIT_IO;
    }
    free(line);
    return rc;
}

/* The positions to probe, in order: the arguments, standard input in
 * place of '-', the start when none is given. */
static int probe_collect(const game_args *a, probe_list *list)
{
    int rc = EXIT_OK;

    if (a->position_count == 0)
        return probe_add(list, NULL, NULL, 0);
    for (size_t i = 0; i < a->position_count && rc == EXIT_OK; i++)
        rc = strcmp(a->positions[i], "-") == 0
                 ? probe_read_stdin(a->stdin_copy != NULL ? a->stdin_copy
                                                          : stdin,
                                    list)
                 : probe_add(list, a->positions[i], NULL, 0);
    return rc;
}

/* Reads every position in the game's notation; a bad one is refused,
 * naming its line of standard input. */
static int probe_parse(const loopy_game *game, probe_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        probe_item *item = &list->items[i];
        loopy_diag diag;

        memset(&diag, 0, sizeof diag);
        if (item->text == NULL) {
            item->pos = game->start;
        } else if (loopy_game_parse(game, item->text, &item->pos, &diag) !=
                   LOOPY_OK) {
            if (item->line > 0)
                cli_error("game", "<stdin>:%" PRIu64 ": %s", item->line,
                          diag.message);
            else
                cli_error("game", "%s", diag.message);
            return EXIT_INPUT;
        }
    }
    return EXIT_OK;
}

/* The game's words for a value: in parentheses ("W 31 (mate in 16)"), or
 * as JSON's "note"; none in misere play, which the words do not speak of
 * (a chess mate there is a win for the mated side). */
static void probe_note(cli_out *out, bool json, bool misere,
                       const loopy_game *game, loopy_outcome outcome,
                       uint32_t remoteness)
{
    char note[96];

    if (misere ||
        loopy_game_value_note(game, outcome, remoteness, note, sizeof note) == 0)
        return;
    if (json) {
        cli_out_str(out, ", \"note\": ");
        game_out_json_string(out, note);
    } else {
        cli_out_str(out, " (");
        cli_out_str(out, note);
        cli_out_char(out, ')');
    }
}

void game_probe_name(const loopy_game *game, const char *text,
                     loopy_position pos, char *name, size_t capacity)
{
    /* A game that names its moves keeps the position as it was written
     * (chess: the board as given, not its class's representative). */
    if (game->move_format != NULL && text != NULL)
        snprintf(name, capacity, "%s", text);
    else
        loopy_game_format(game, pos, name, capacity);
}

/* Move k at the board written as name into the class of to: k = 0, the
 * class's own (loopy_game_move_name); k > 0, the game's k-th twin,
 * another move at the board into the same class (chess: Qb5 beside Ka2,
 * mirror images).  Its name to move, the position after it to after
 * (NULL: not wanted); false when there is no k-th twin. */
static bool probe_move(const loopy_game *game, const char *name,
                       loopy_position to, uint32_t k, char *move,
                       size_t move_capacity, char *after,
                       size_t after_capacity)
{
    if (k == 0) {
        loopy_game_move_name(game, name, to, move, move_capacity, after,
                             after_capacity);
        return true;
    }
    return loopy_game_move_twin(game, name, to, k, move, move_capacity, NULL,
                                0, after, after_capacity) > 0;
}

/* ", "value": "W", "remoteness": 31" and the game's note, as JSON. */
static void probe_json_value(cli_out *out, bool misere,
                             const loopy_game *game, loopy_outcome outcome,
                             uint32_t remoteness)
{
    cli_out_str(out, ", \"value\": \"");
    cli_out_char(out, game_value_letter[outcome]);
    cli_out_str(out, "\", \"remoteness\": ");
    if (outcome == LOOPY_DRAW)
        cli_out_str(out, "null");
    else
        cli_out_u64(out, remoteness);
    probe_note(out, true, misere, game, outcome, remoteness);
}

void game_probe_json(cli_out *out, const loopy_game *game, const char *name,
                     bool misere, loopy_outcome outcome, uint32_t remoteness,
                     const loopy_game_move *moves, size_t count)
{
    bool first = true;

    cli_out_str(out, "{\"position\": ");
    game_out_json_string(out, name);
    cli_out_str(out, misere ? ", \"misere\": true" : ", \"misere\": false");
    probe_json_value(out, misere, game, outcome, remoteness);
    cli_out_str(out, ", \"moves\": [");
    for (size_t i = 0; i < count; i++) {
        loopy_outcome o;
        uint32_t r;
        char move[256], after[256];

        game_move_value(&moves[i], &o, &r);
        for (uint32_t k = 0; probe_move(game, name, moves[i].to, k, move,
                                        sizeof move, after, sizeof after);
             k++) {
            cli_out_str(out, first ? "{\"to\": " : ", {\"to\": ");
            first = false;
            game_out_json_string(out, after);
            if (game->move_format != NULL) {
                cli_out_str(out, ", \"move\": ");
                game_out_json_string(out, move);
            }
            probe_json_value(out, misere, game, o, r);
            cli_out_char(out, '}');
        }
    }
    cli_out_str(out, "]}");
}

/* The value of one position and of its moves, from the solution s or the
 * database db; misere: the play they were solved in. */
static int probe_one(cli_out *out, const game_args *a, const loopy_game *game,
                     const loopy_game_solution *s, const loopy_db *db,
                     const probe_item *item, bool misere, bool first)
{
    loopy_outcome outcome;
    uint32_t remoteness;
    loopy_game_move *moves = NULL;
    size_t count = 0;
    int rc;
    char name[GAME_NAME_CAPACITY], label[300];

    game_probe_name(game, item->text, item->pos, name, sizeof name);
    /* Messages name the line of standard input a position came from. */
    if (item->line > 0)
        snprintf(label, sizeof label, "<stdin>:%" PRIu64 ": %s", item->line,
                 name);
    else
        snprintf(label, sizeof label, "%s", name);
    rc = game_lookup(a, game, s, db, item->pos, label, &outcome, &remoteness,
                     &moves, &count);
    if (rc != EXIT_OK)
        return rc;
    if (a->json) {
        /* One object a line, as 'loopy serve' answers each alone. */
        cli_out_str(out, first ? "" : ",\n ");
        game_probe_json(out, game, name, misere, outcome, remoteness, moves,
                        count);
        free(moves);
        return EXIT_OK;
    }
    cli_out_str(out, name);
    cli_out_str(out, ": ");
    game_out_value(out, outcome, remoteness);
    probe_note(out, false, misere, game, outcome, remoteness);
    /* As the summary of a solve marks it. */
    cli_out_str(out, misere ? " (misere)\n" : "\n");
    for (size_t i = 0; i < count; i++) {
        loopy_outcome o;
        uint32_t r;
        char move[256];

        game_move_value(&moves[i], &o, &r);
        for (uint32_t k = 0; probe_move(game, name, moves[i].to, k, move,
                                        sizeof move, NULL, 0);
             k++) {
            cli_out_str(out, "  ");
            cli_out_str(out, move);
            cli_out_str(out, "  ");
            game_out_value(out, o, r);
            probe_note(out, false, misere, game, o, r);
            cli_out_char(out, '\n');
        }
    }
    free(moves);
    return EXIT_OK;
}

/* Copies the answers held back in spool to the output (-o, or standard
 * output). */
static int probe_release(FILE *spool, const char *output)
{
    cli_out out;
    char chunk[1 << 14];
    size_t got;

    if (!cli_out_open(&out, "game", output))
        return EXIT_IO;
    rewind(spool);
    while ((got = fread(chunk, 1, sizeof chunk, spool)) > 0)
        cli_out_bytes(&out, chunk, got);
    if (ferror(spool)) {
        cli_out_abort(&out);
        cli_error("game", "a temporary file: read failed: %s", strerror(errno));
        return EXIT_IO;
    }
    return cli_out_close(&out, "game") ? EXIT_OK : EXIT_IO;
}

int game_probe(const game_args *a)
{
    loopy_game *game = NULL;
    loopy_game_solution *s = NULL;
    loopy_db *db = NULL;
    probe_list list = {NULL, 0, 0};
    double seconds = 0;
    cli_out out;
    FILE *spool = NULL;
    bool opened = false, misere;
    int rc;

    /* Every position is read and checked before the solve, which may be
     * long: a typo is answered at once.  A database answers instead of a
     * solve. */
    rc = probe_collect(a, &list);
    if (rc == EXIT_OK)
        rc = a->db_path != NULL ? game_open_database(a, &db, &game)
                                : game_open(a, &game);
    if (rc == EXIT_OK)
        rc = probe_parse(game, &list);
    if (rc == EXIT_OK && db == NULL)
        rc = game_solve_open(a, game, &s, &seconds);
    if (rc != EXIT_OK)
        goto done;
    misere = db != NULL ? loopy_db_misere(db) != 0 : a->solve.misere != 0;
    if (a->dot) {
        /* The graph of the positions from the one given (game_dot.c). */
        if (!cli_out_open(&out, "game", a->output)) {
            rc = EXIT_IO;
            goto done;
        }
        rc = game_dot(&out, a, game, s, db, list.items[0].pos,
                      list.items[0].text);
        if (rc != EXIT_OK)
            cli_out_abort(&out);
        else if (!cli_out_close(&out, "game"))
            rc = EXIT_IO;
        goto done;
    }
    /* The answers are held back in a temporary file until all are given,
     * so that a position refused half-way leaves nothing on standard
     * output however many came before it (without one, they go straight
     * out, held back only up to the output buffer). */
    spool = tmpfile();
    if (spool != NULL)
        cli_out_open_stream(&out, spool, "a temporary file");
    else if (!cli_out_open(&out, "game", a->output)) {
        rc = EXIT_IO;
        goto done;
    }
    opened = true;
    if (a->json)
        cli_out_char(&out, '[');
    for (size_t i = 0; i < list.count && rc == EXIT_OK; i++)
        rc = probe_one(&out, a, game, s, db, &list.items[i], misere, i == 0);
    if (a->json)
        cli_out_str(&out, "]\n");
done:
    if (opened) {
        if (rc == EXIT_OK) {
            if (!cli_out_close(&out, "game"))
                rc = EXIT_IO;
            else if (spool != NULL)
                rc = probe_release(spool, a->output);
        } else {
            cli_out_abort(&out);
        }
    }
    if (spool != NULL)
        fclose(spool);
    if (rc == EXIT_OK && !a->quiet && db == NULL)
        fprintf(stderr, "loopy game: solved in %.3f s\n", seconds);
    probe_list_free(&list);
    loopy_game_solution_free(s);
    loopy_game_close(game);
    loopy_db_close(db);
    return rc;
}
