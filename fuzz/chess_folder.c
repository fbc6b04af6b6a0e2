/*
 * chess_folder.c - fuzz the tables a probe reads from a folder
 * (loopy_db_use_tables, lib/db/probe.c): the input is the bytes of the
 * file KQK.ldb in a folder where a build wrote the table of KPK alone
 * (its checksums made right again, one input in two, so that mutations
 * reach the checks behind them); the moves of KPK's positions that
 * promote to a queen are asked of KPK.ldb with that folder.
 *
 * Whatever the file says, a refusal is LOOPY_EFORMAT, LOOPY_EIO or
 * LOOPY_ENOMEM with a one-line printable message naming the file; moves
 * given are the position's, each within KPK with the whole solve's value
 * and each into KQK with the value the file itself gives at that index
 * (read independently, from memory).  The seed corpus
 * (fuzz/corpus/chess_folder/) holds KQK's table as a build writes it
 * (KQK alone) and KRK's (another ending).
 */
/* mkdtemp */
#define _DEFAULT_SOURCE
#include "fuzz.h"

#include "../lib/games/chess.h"
#include "../lib/games/games.h"
#include "../lib/rules/rules_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Positions of KPK asked each time. */
#define ASKED 16

typedef struct setup {
    loopy_game *game;
    loopy_game_solution *whole;
    char folder[64], kpk[96], kqk[96];
    loopy_position asked[ASKED];
    size_t count;
} setup;

static setup the_setup;

/* At exit: the folder and its tables go. */
static void clean_up(void)
{
    static const char *const names[] = {"KPK", "KQK", "KRK", "KBK", "KNK",
                                        "KK"};
    char path[128];

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s.ldb", the_setup.folder, names[i]);
        unlink(path);
    }
    rmdir(the_setup.folder);
}

/* The folder with KPK's table built alone (and its sub-endings'), the
 * whole solve, and positions with a queen promotion. */
static setup *prepare(void)
{
    setup *s = &the_setup;
    loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *built = NULL;
    const chess_rules *rules;
    loopy_diag diag;

    if (s->game != NULL)
        return s;
    memset(&diag, 0, sizeof diag);
    FUZZ_REQUIRE(loopy_game_open("chess:KPK", &s->game, &diag) == LOOPY_OK,
                 "chess:KPK: %s", diag.message);
    snprintf(s->folder, sizeof s->folder, "/tmp/loopy-fuzz-folder-XXXXXX");
    FUZZ_REQUIRE(mkdtemp(s->folder) != NULL, "%s: cannot make it", s->folder);
    atexit(clean_up);
    snprintf(s->kpk, sizeof s->kpk, "%.64s/KPK.ldb", s->folder);
    snprintf(s->kqk, sizeof s->kqk, "%.64s/KQK.ldb", s->folder);
    options.tables = s->folder;
    options.build = 1;
    FUZZ_REQUIRE(loopy_game_solve_tablebase(s->game, &options, &built,
                                            &diag) == LOOPY_OK,
                 "build: %s", diag.message);
    loopy_game_solution_free(built);
    options.tables = NULL;
    options.build = 0;
    FUZZ_REQUIRE(loopy_game_solve_tablebase(s->game, &options, &s->whole,
                                            &diag) == LOOPY_OK,
                 "solve: %s", diag.message);
    rules = s->game->ctx;
    /* Every so many index of KPK's own segment with a move out of it. */
    for (loopy_position i = 0; i < chess_i_segment_end(rules, 0) &&
                               s->count < ASKED; i += 97) {
        loopy_game_move *moves = NULL;
        size_t n = 0;
        bool out = false;
        if (loopy_game_solution_moves(s->whole, s->game, i, &moves, &n,
                                      &diag) != LOOPY_OK)
            continue;
        for (size_t k = 0; k < n; k++)
            out |= moves[k].to >= chess_i_segment_end(rules, 0);
        free(moves);
        if (out)
            s->asked[s->count++] = i;
    }
    FUZZ_REQUIRE(s->count == ASKED, "only %zu positions promote", s->count);
    return s;
}

static void require_message(const loopy_diag *diag, const char *path)
{
    size_t n = strlen(diag->message);

    FUZZ_REQUIRE(n > 0, "a refusal without a message");
    for (size_t i = 0; i < n; i++)
        FUZZ_REQUIRE(diag->message[i] >= ' ' && diag->message[i] != 127,
                     "an unprintable message: %s", diag->message);
    FUZZ_REQUIRE(strstr(diag->message, path) != NULL,
                 "a refusal that does not name %s: %s", path, diag->message);
}

static void check(setup *s, const uint8_t *data, size_t size)
{
    const chess_rules *rules = s->game->ctx;
    loopy_position end = chess_i_segment_end(rules, 0);
    loopy_db *db = NULL, *file = NULL;
    loopy_diag diag;
    FILE *f = fopen(s->kqk, "wb");

    FUZZ_REQUIRE(f != NULL && fwrite(data, 1, size, f) == size &&
                     fclose(f) == 0,
                 "%s: cannot write it", s->kqk);
    memset(&diag, 0, sizeof diag);
    FUZZ_REQUIRE(loopy_db_open(s->kpk, &db, &diag) == LOOPY_OK &&
                     loopy_db_use_tables(db, s->folder) == LOOPY_OK,
                 "%s: %s", s->kpk, diag.message);
    /* The file as the harness reads it, apart from the library's path. */
    if (loopy_db_open_memory(data, size, &file, &diag) != LOOPY_OK)
        file = NULL;
    for (size_t a = 0; a < s->count; a++) {
        loopy_game_move *moves = NULL, *truth = NULL;
        size_t n = 0, nt = 0;
        loopy_status status;

        memset(&diag, 0, sizeof diag);
        status = loopy_db_moves(db, s->game, s->asked[a], &moves, &n, &diag);
        FUZZ_REQUIRE(loopy_game_solution_moves(s->whole, s->game, s->asked[a],
                                               &truth, &nt, &diag) == LOOPY_OK,
                     "the whole solve's moves");
        if (status != LOOPY_OK) {
            FUZZ_REQUIRE(status == LOOPY_EFORMAT || status == LOOPY_EIO ||
                             status == LOOPY_ENOMEM,
                         "status %d", (int)status);
            require_message(&diag, s->kqk);
            FUZZ_REQUIRE(moves == NULL && n == 0, "moves given on failure");
        } else {
            FUZZ_REQUIRE(file != NULL && n == nt, "%zu moves, not %zu", n,
                         nt);
            for (size_t k = 0; k < n; k++) {
                loopy_position to = moves[k].to;
                loopy_position canon = s->game->canonical(s->game->ctx, to);
                loopy_outcome o = LOOPY_DRAW;
                uint32_t r = 0;
                bool found = false;
                for (size_t j = 0; j < nt; j++)
                    found |= truth[j].to == to;
                FUZZ_REQUIRE(found, "a move that is not the position's");
                char name[16];
                loopy_position local;
                FUZZ_REQUIRE(found, "a move that is not the position's");
                if (canon >= end &&
                    s->game->sub_table(s->game->ctx, canon, name, sizeof name,
                                       &local) &&
                    strcmp(name, "KQK") == 0) {
                    FUZZ_REQUIRE(loopy_db_probe(file, local, &o, &r) ==
                                         LOOPY_OK &&
                                     o == moves[k].outcome &&
                                     r == moves[k].remoteness,
                                 "a move into KQK with a value the file "
                                 "does not give");
                    continue;
                }
                FUZZ_REQUIRE(loopy_game_solution_value(s->whole, s->game, to,
                                                       &o, &r) == LOOPY_OK &&
                                 o == moves[k].outcome &&
                                 r == moves[k].remoteness,
                             "a move outside KQK with another value");
            }
        }
        free(moves);
        free(truth);
    }
    loopy_db_close(file);
    loopy_db_close(db);
}

FUZZ_TARGET(chess_folder)
{
    setup *s = prepare();
    uint8_t *fixed = fuzz_db_fixed(data, size);

    check(s, data, size);
    if (fixed != NULL)
        check(s, fixed, size);
    free(fixed);
    return 0;
}
