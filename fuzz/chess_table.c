/*
 * chess_table.c - fuzz the reading of a sub-ending's table into a chess
 * solve (lib/games/chess_tables.c, chess_i_copy_table): the input is a
 * database file's bytes, opened from memory (its checksums made right
 * again when they are not, one input in two, so that mutations reach the
 * checks behind them), read as the table of KQK into the records of
 * chess:KPK, whose sub-ending KQK is.
 *
 * Whatever the file says, only KQK's segment of the records may change;
 * a refusal is LOOPY_EFORMAT, LOOPY_EIO or LOOPY_ENOMEM with a one-line
 * printable message; a table accepted gives each position of the segment
 * the database's own value (an independent loopy_db_iterate), every other
 * index of the segment absent, and no remoteness at or past the limit.
 * The seed corpus (fuzz/corpus/chess_table/) holds the tables of KQK (the
 * right one) and KRK (another ending), written by loopy game solve.
 */
#include "fuzz.h"

#include "../lib/games/chess.h"
#include "../lib/rules/rules_internal.h"

#include <stdlib.h>
#include <string.h>

/* The values the independent iteration saw in the segment. */
typedef struct seen {
    uint16_t *want;
    loopy_position span;
} seen;

static int note(void *ctx, loopy_position pos, loopy_outcome outcome,
                uint32_t remoteness)
{
    seen *s = ctx;

    if (pos >= s->span)
        return 1;
    s->want[pos] = outcome == LOOPY_DRAW
                       ? (uint16_t)LOOPY_I_RECORD_DRAW
                       : (uint16_t)((unsigned)outcome << LOOPY_I_RECORD_SHIFT |
                                    (remoteness & LOOPY_I_RECORD_LOW));
    return 0;
}

static void require_message(const loopy_diag *diag)
{
    size_t n = strlen(diag->message);

    FUZZ_REQUIRE(n > 0, "a refusal without a message");
    for (size_t i = 0; i < n; i++)
        FUZZ_REQUIRE(diag->message[i] >= ' ' && diag->message[i] != 127,
                     "an unprintable message: %s", diag->message);
}

static void check(const uint8_t *data, size_t size, uint32_t max_level)
{
    static loopy_game *game;
    const chess_rules *rules;
    loopy_diag diag;
    loopy_db *db = NULL;
    loopy_status status;
    uint32_t m, key;
    uint16_t *rec;
    loopy_position lo, hi;
    uint8_t colour[1] = {CHESS_WHITE}, kind[1] = {CHESS_QUEEN};

    memset(&diag, 0, sizeof diag);
    if (game == NULL)
        FUZZ_REQUIRE(loopy_game_open("chess:KPK", &game, &diag) == LOOPY_OK,
                     "chess:KPK: %s", diag.message);
    rules = game->ctx;
    key = chess_i_key(1, colour, kind);
    m = chess_i_find_material(rules, key);
    FUZZ_REQUIRE(m != UINT32_MAX && m > 0, "no KQK in chess:KPK");
    lo = rules->material[m].offset;
    hi = chess_i_segment_end(rules, m);
    if (loopy_db_open_memory(data, size, &db, &diag) != LOOPY_OK)
        return; /* the database reader's own fuzzer (read_db) */
    rec = calloc((size_t)rules->size, sizeof *rec);
    FUZZ_REQUIRE(rec != NULL, "out of memory");
    memset(&diag, 0, sizeof diag);
    /* Two threads, as a build reads its tables. */
    status = chess_i_copy_table(rules, m, db, (_Atomic uint16_t *)rec,
                                max_level, 2, &diag);
    for (loopy_position i = 0; i < rules->size; i++)
        FUZZ_REQUIRE(rec[i] == 0 || (i >= lo && i < hi),
                     "index %llu outside KQK's [%llu, %llu) written",
                     (unsigned long long)i, (unsigned long long)lo,
                     (unsigned long long)hi);
    if (status != LOOPY_OK) {
        FUZZ_REQUIRE(status == LOOPY_EFORMAT || status == LOOPY_EIO ||
                         status == LOOPY_ENOMEM,
                     "status %d", (int)status);
        require_message(&diag);
    } else {
        seen s;
        s.span = hi - lo;
        s.want = calloc((size_t)s.span, sizeof *s.want);
        FUZZ_REQUIRE(s.want != NULL, "out of memory");
        FUZZ_REQUIRE(loopy_db_iterate(db, note, &s, &diag) == LOOPY_OK,
                     "a table read, then refused: %s", diag.message);
        for (loopy_position i = 0; i < s.span; i++) {
            uint16_t v = rec[lo + i];
            FUZZ_REQUIRE(v == s.want[i], "index %llu: %u, the file %u",
                         (unsigned long long)i, v, s.want[i]);
            FUZZ_REQUIRE(v >> LOOPY_I_RECORD_SHIFT == 0 ||
                             (v & LOOPY_I_RECORD_LOW) < max_level,
                         "a remoteness past the limit");
        }
        free(s.want);
    }
    free(rec);
    loopy_db_close(db);
}

FUZZ_TARGET(chess_table)
{
    unsigned sum = 0;
    uint8_t *fixed = fuzz_db_fixed(data, size);

    for (size_t i = 0; i < size; i++)
        sum += data[i];
    /* A low limit now and then, so that its refusal is reached. */
    check(data, size, sum % 5 == 0 ? 12 : LOOPY_I_RECORD_LOW - 2);
    if (fixed != NULL)
        check(fixed, size, sum % 5 == 0 ? 12 : LOOPY_I_RECORD_LOW - 2);
    free(fixed);
    return 0;
}
