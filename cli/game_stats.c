/* game_stats.c - "loopy game stats": what a database holds, counted.
 *
 * A GAME argument is solved and written to a database in memory first, so
 * that one path counts both.  The table comes from the library
 * (loopy_db_stats_compute); what needs the game's rules (legal and
 * canonical positions of the index space) is counted here, by calling
 * them on every index, and only where that is cheap: a built-in game the
 * database names, of at most STATS_SCAN_MAX indices. */
#include "game.h"

#include <stdlib.h>
#include <string.h>

/* The largest index space whose every index is asked legal() and
 * canonical() (connect4:5x4 has 2^25: about a second). */
#define STATS_SCAN_MAX (UINT64_C(1) << 25)

/* A database written to memory. */
typedef struct stats_bytes {
    unsigned char *bytes;
    size_t len, capacity;
} stats_bytes;

static int bytes_write(void *ctx, const void *bytes, size_t len)
{
    stats_bytes *b = ctx;

    if (len > SIZE_MAX - b->len)
        return 1;
    if (b->len + len > b->capacity) {
        size_t want = b->capacity < 4096 ? 4096 : b->capacity;
        unsigned char *grown;
        while (want < b->len + len)
            want = want > SIZE_MAX / 2 ? b->len + len : want * 2;
        grown = realloc(b->bytes, want);
        if (grown == NULL)
            return 1;
        b->bytes = grown;
        b->capacity = want;
    }
    memcpy(b->bytes + b->len, bytes, len);
    b->len += len;
    return 0;
}

/* The positions of a database, in increasing order. */
typedef struct stats_positions {
    loopy_position *items;
    size_t count, capacity;
    bool out_of_memory;
} stats_positions;

static int collect(void *ctx, loopy_position pos, loopy_outcome outcome,
                   uint32_t remoteness)
{
    stats_positions *p = ctx;

    (void)outcome;
    (void)remoteness;
    if (p->count == p->capacity) {
        size_t want = p->capacity ? p->capacity * 2 : 1024;
        loopy_position *grown = want <= SIZE_MAX / sizeof *grown
                                    ? realloc(p->items, want * sizeof *grown)
                                    : NULL;
        if (grown == NULL) {
            p->out_of_memory = true;
            return 1;
        }
        p->items = grown;
        p->capacity = want;
    }
    p->items[p->count++] = pos;
    return 0;
}

static bool stored(const stats_positions *p, loopy_position pos)
{
    size_t lo = 0, hi = p->count;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->items[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->count && p->items[lo] == pos;
}

/* What the game's rules say of its index space: legal positions (every
 * index without legal()), those among them that represent their class
 * (with canonical()), and the legal positions whose class the database
 * holds (symmetric databases; without symmetry, the stored ones). */
typedef struct stats_scan {
    bool done;
    uint64_t legal, canonical, in_classes;
    /* With the game's class_size, whatever the index space: the stored
     * positions with their symmetric images, each class by its size. */
    bool imaged;
    uint64_t with_images;
    const loopy_game *game;
} stats_scan;

static int add_class(void *ctx, loopy_position pos, loopy_outcome outcome,
                     uint32_t remoteness)
{
    stats_scan *scan = ctx;

    (void)outcome;
    (void)remoteness;
    scan->with_images += scan->game->class_size(scan->game->ctx, pos);
    return 0;
}

static int scan_index_space(const loopy_db *db, const loopy_game *game,
                            stats_scan *scan)
{
    stats_positions positions = {NULL, 0, 0, false};
    bool symmetric = loopy_db_symmetric(db) && game->canonical != NULL;
    loopy_diag diag;
    loopy_status status;

    memset(scan, 0, sizeof *scan);
    scan->game = game;
    if (symmetric && game->class_size != NULL) {
        memset(&diag, 0, sizeof diag);
        status = loopy_db_iterate(db, add_class, scan, &diag);
        if (status != LOOPY_OK) {
            cli_error("game", "%s", diag.message[0] ? diag.message
                                                    : loopy_strerror(status));
            return cli_exit_status(status);
        }
        scan->imaged = true;
    }
    if (game->size > STATS_SCAN_MAX)
        return EXIT_OK;
    if (symmetric) {
        memset(&diag, 0, sizeof diag);
        status = loopy_db_iterate(db, collect, &positions, &diag);
        if (status == LOOPY_OK && positions.out_of_memory)
            status = LOOPY_ENOMEM;
        if (status != LOOPY_OK) {
            free(positions.items);
            cli_error("game", "%s", diag.message[0] ? diag.message
                                                    : loopy_strerror(status));
            return cli_exit_status(status);
        }
    }
    for (loopy_position pos = 0; pos < game->size; pos++) {
        loopy_position rep;
        if (game->legal != NULL && !game->legal(game->ctx, pos))
            continue;
        scan->legal++;
        if (game->canonical == NULL)
            continue;
        rep = game->canonical(game->ctx, pos);
        scan->canonical += rep == pos;
        if (symmetric && rep < game->size)
            scan->in_classes += stored(&positions, rep);
    }
    if (!symmetric)
        scan->in_classes = loopy_db_size(db);
    scan->done = true;
    free(positions.items);
    return EXIT_OK;
}

/* A position as the game writes it, or as a number (a graph's vertex in
 * its text's numbering). */
static const char *position_text(const loopy_db *db, const loopy_game *game,
                                 loopy_position pos, char *out, size_t cap)
{
    if (game != NULL)
        return loopy_game_format(game, pos, out, cap);
    snprintf(out, cap, "%" LOOPY_PRI_POSITION, pos + loopy_db_base(db));
    return out;
}

/* "  (mate in 16)": the game's words on a value (when wanted, and none
 * in misere play, of which they do not speak). */
static void out_note(cli_out *out, const loopy_db *db, const loopy_game *game,
                     loopy_outcome outcome, bool wanted, uint32_t remoteness,
                     const char *gap)
{
    char note[96];

    if (!wanted || game == NULL || loopy_db_misere(db) ||
        loopy_game_value_note(game, outcome, remoteness, note, sizeof note) ==
            0)
        return;
    cli_out_str(out, gap);
    cli_out_char(out, '(');
    cli_out_str(out, note);
    cli_out_char(out, ')');
}

static void out_padded(cli_out *out, uint64_t value, int width)
{
    char text[32];

    snprintf(text, sizeof text, "%*" PRIu64, width, value);
    cli_out_str(out, text);
}

static void out_json_count(cli_out *out, const char *key, bool known,
                           uint64_t value)
{
    cli_out_str(out, ", \"");
    cli_out_str(out, key);
    cli_out_str(out, "\": ");
    if (known)
        cli_out_u64(out, value);
    else
        cli_out_str(out, "null");
}

static const char *const value_names[] = {"draw", "win", "lose", "tie"};

static void print_json(cli_out *out, const char *source, const loopy_db *db,
                       const loopy_game *game, const loopy_db_stats *st,
                       const stats_scan *scan)
{
    char text[256];
    bool first = true;

    cli_out_str(out, "{\"game\": ");
    game_out_json_string(out, loopy_db_game_name(db));
    cli_out_str(out, ", \"parameters\": ");
    game_out_json_string(out, loopy_db_game_params(db));
    cli_out_str(out, ", \"database\": ");
    if (source != NULL)
        game_out_json_string(out, source);
    else
        cli_out_str(out, "null");
    cli_out_str(out, ", \"misere\": ");
    cli_out_str(out, loopy_db_misere(db) ? "true" : "false");
    cli_out_str(out, ", \"symmetric\": ");
    cli_out_str(out, loopy_db_symmetric(db) ? "true" : "false");
    cli_out_str(out, ", \"sparse\": ");
    cli_out_str(out, loopy_db_sparse(db) ? "true" : "false");
    out_json_count(out, "positions", true, loopy_db_size(db));
    out_json_count(out, "index_space", true, loopy_db_index_size(db));
    out_json_count(out, "legal", scan->done, scan->legal);
    out_json_count(out, "canonical", scan->done && game->canonical != NULL,
                   scan->canonical);
    out_json_count(out, "in_stored_classes", scan->done, scan->in_classes);
    out_json_count(out, "with_images", scan->imaged, scan->with_images);
    for (int k = 1; k <= 4; k++)
        out_json_count(out, value_names[k % 4], true, st->count[k % 4]);
    cli_out_str(out, ", \"remoteness\": [");
    for (uint32_t i = 0; i < st->row_count; i++) {
        const loopy_db_stats_row *row = &st->rows[i];
        cli_out_str(out, first ? "{\"remoteness\": " : ",\n  {\"remoteness\": ");
        first = false;
        cli_out_u64(out, row->remoteness);
        for (int k = 1; k <= 3; k++)
            out_json_count(out, value_names[k], true, row->count[k]);
        cli_out_char(out, '}');
    }
    cli_out_char(out, ']');
    for (int k = 1; k <= 3; k++) {
        cli_out_str(out, ", \"longest_");
        cli_out_str(out, value_names[k]);
        cli_out_str(out, "\": ");
        if (st->longest_remoteness[k] == LOOPY_NONE) {
            cli_out_str(out, "null");
            continue;
        }
        cli_out_str(out, "{\"remoteness\": ");
        cli_out_u64(out, st->longest_remoteness[k]);
        cli_out_str(out, ", \"position\": ");
        game_out_json_string(out, position_text(db, game, st->longest[k], text,
                                                sizeof text));
        cli_out_char(out, '}');
    }
    cli_out_str(out, "}\n");
}

static void print_text(cli_out *out, const char *source, const loopy_db *db,
                       const loopy_game *game, const char *no_game,
                       const loopy_db_stats *st, const stats_scan *scan)
{
    static const char *const longest_names[] = {NULL, "longest win  ",
                                                "longest loss ",
                                                "longest tie  "};
    char text[256];
    uint64_t widest = loopy_db_size(db);
    int width = 1;

    cli_out_str(out, loopy_db_game_name(db));
    if (loopy_db_game_params(db)[0]) {
        cli_out_char(out, ':');
        cli_out_str(out, loopy_db_game_params(db));
    }
    cli_out_str(out, loopy_db_misere(db) ? " (misere): " : ": ");
    cli_out_u64(out, loopy_db_size(db));
    cli_out_str(out, loopy_db_size(db) == 1 ? " position" : " positions");
    cli_out_str(out, loopy_db_symmetric(db)
                         ? " stored, one per class of symmetric positions\n"
                         : " stored\n");
    cli_out_str(out, "  database     ");
    cli_out_str(out, source != NULL ? source : "(in memory, solved now)");
    cli_out_str(out, loopy_db_sparse(db) ? ", sparse blocks\n"
                                         : ", dense blocks\n");
    cli_out_str(out, "  index space  ");
    cli_out_u64(out, loopy_db_index_size(db));
    cli_out_char(out, '\n');
    if (scan->done) {
        cli_out_str(out, "  legal        ");
        cli_out_u64(out, scan->legal);
        cli_out_str(out, game->legal != NULL
                             ? " (indices legal() accepts)\n"
                             : " (no legal(): every index)\n");
        if (game->canonical != NULL) {
            cli_out_str(out, "  canonical    ");
            cli_out_u64(out, scan->canonical);
            cli_out_str(out, " (legal positions that represent their class)\n");
        }
        cli_out_str(out, "  in classes   ");
        cli_out_u64(out, scan->in_classes);
        cli_out_str(out, loopy_db_symmetric(db)
                             ? " (legal positions whose class is stored)\n"
                             : " (legal positions stored)\n");
    } else {
        cli_out_str(out, "  legal        not counted: ");
        cli_out_str(out, no_game);
        cli_out_char(out, '\n');
    }
    if (scan->imaged) {
        cli_out_str(out, "  with images  ");
        cli_out_u64(out, scan->with_images);
        cli_out_str(out, " (stored classes, each counted by its size)\n");
    }

    while (widest >= 10) {
        widest /= 10;
        width++;
    }
    if (width < 6)
        width = 6;
    cli_out_str(out, "remoteness");
    for (int k = 1; k <= 3; k++) {
        cli_out_str(out, "  ");
        for (int pad = 1; pad < width; pad++)
            cli_out_char(out, ' ');
        cli_out_char(out, game_value_letter[k]);
    }
    cli_out_char(out, '\n');
    for (uint32_t i = 0; i < st->row_count; i++) {
        const loopy_db_stats_row *row = &st->rows[i];
        out_padded(out, row->remoteness, 10);
        for (int k = 1; k <= 3; k++) {
            cli_out_str(out, "  ");
            out_padded(out, row->count[k], width);
        }
        /* The game's words for the plies: "mate in 16" beside 31. */
        out_note(out, db, game,
                 row->count[LOOPY_WIN] > 0 ? LOOPY_WIN : LOOPY_LOSE,
                 row->count[LOOPY_WIN] + row->count[LOOPY_LOSE] > 0,
                 row->remoteness, "  ");
        cli_out_char(out, '\n');
    }
    cli_out_str(out, "     total");
    for (int k = 1; k <= 3; k++) {
        cli_out_str(out, "  ");
        out_padded(out, st->count[k], width);
    }
    cli_out_str(out, "\n     draws  ");
    out_padded(out, st->count[LOOPY_DRAW], width);
    cli_out_str(out, " (D: no remoteness)\n");
    for (int k = 1; k <= 3; k++) {
        if (st->longest_remoteness[k] == LOOPY_NONE)
            continue;
        cli_out_str(out, longest_names[k]);
        game_out_value(out, (loopy_outcome)k, st->longest_remoteness[k]);
        if (k != LOOPY_TIE)
            out_note(out, db, game, (loopy_outcome)k, true,
                     st->longest_remoteness[k], " ");
        cli_out_str(out, ": ");
        cli_out_str(out, position_text(db, game, st->longest[k], text,
                                       sizeof text));
        cli_out_char(out, '\n');
    }
}

/* Solves the game a->spec and opens its database in memory, *bytes. */
static int solve_to_memory(const game_args *a, loopy_game **game,
                           stats_bytes *bytes, loopy_db **db)
{
    loopy_game_solution *s = NULL;
    loopy_diag diag;
    loopy_status status;
    double seconds;
    int rc = game_open_and_solve(a, game, &s, &seconds);

    if (rc != EXIT_OK)
        goto done;
    status = loopy_db_write_game(s, *game, a->solve.misere, bytes_write, bytes);
    memset(&diag, 0, sizeof diag);
    if (status == LOOPY_OK)
        status = loopy_db_open_memory(bytes->bytes, bytes->len, db, &diag);
    if (status != LOOPY_OK) {
        /* A failed write into memory: out of memory. */
        cli_error("game", "%s", diag.message[0] ? diag.message
                                                : status == LOOPY_EIO
                                                      ? "out of memory"
                                                      : loopy_strerror(status));
        rc = status == LOOPY_EIO ? EXIT_RESOURCE : cli_exit_status(status);
        goto done;
    }
    if (!a->quiet)
        fprintf(stderr, "loopy game: solved in %.3f s\n", seconds);
done:
    loopy_game_solution_free(s);
    return rc;
}

int game_stats(const game_args *a)
{
    loopy_db *db = NULL;
    loopy_game *game = NULL;
    loopy_db_stats st;
    stats_bytes bytes = {NULL, 0, 0};
    stats_scan scan;
    loopy_diag diag;
    loopy_status status;
    const char *source = NULL;
    char no_game[300];
    cli_out out;
    int rc = EXIT_OK;

    memset(&st, 0, sizeof st);
    memset(&scan, 0, sizeof scan);
    memset(&diag, 0, sizeof diag);
    snprintf(no_game, sizeof no_game, "the index space is above 2^25");
    if (a->db_path != NULL &&
        (a->db_game != NULL || a->db_path != a->spec)) {
        /* The game named (or the tables' game), checked against the
         * database. */
        source = a->db_path;
        rc = game_open_database(a, &db, &game);
        if (rc != EXIT_OK)
            goto done;
    } else if (a->db_path != NULL) {
        source = a->spec;
        status = loopy_db_open(a->spec, &db, &diag);
        if (status != LOOPY_OK) {
            cli_error("game", "%s: %s", a->spec,
                      diag.message[0] ? diag.message : loopy_strerror(status));
            rc = cli_exit_status(status);
            goto done;
        }
        if (a->solve.misere && !loopy_db_misere(db)) {
            cli_error("game", "%s: --misere: the database was solved in "
                      "normal play", a->spec);
            rc = EXIT_USAGE;
            goto done;
        }
        /* The game, for its notation and its index space; a graph, or a
         * game that is not built in, is reported without them. */
        memset(&diag, 0, sizeof diag);
        if (loopy_db_open_game(db, &game, &diag) != LOOPY_OK)
            snprintf(no_game, sizeof no_game, "%s", diag.message[0]
                         ? diag.message : "the game cannot be opened");
    } else {
        rc = solve_to_memory(a, &game, &bytes, &db);
        if (rc != EXIT_OK)
            goto done;
    }
    memset(&diag, 0, sizeof diag);
    status = loopy_db_stats_compute(db, &st, &diag);
    if (status != LOOPY_OK) {
        cli_error("game", "%s: %s", source != NULL ? source : a->spec,
                  diag.message[0] ? diag.message : loopy_strerror(status));
        rc = cli_exit_status(status);
        goto done;
    }
    if (game != NULL && (rc = scan_index_space(db, game, &scan)) != EXIT_OK)
        goto done;
    if (!cli_out_open(&out, "game", a->output)) {
        rc = EXIT_IO;
        goto done;
    }
    if (a->json)
        print_json(&out, source, db, game, &st, &scan);
    else
        print_text(&out, source, db, game, no_game, &st, &scan);
    if (!cli_out_close(&out, "game"))
        rc = EXIT_IO;
done:
    loopy_db_stats_release(&st);
    loopy_game_close(game);
    loopy_db_close(db);
    free(bytes.bytes);
    return rc;
}
