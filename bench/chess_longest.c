/*
 * chess_longest.c - reads a database of a chess ending written by `loopy
 * game solve chess:MATERIAL` and prints, for the ending's own material
 * only (not its sub-endings, which share the database), the longest win
 * with white to move and the longest loss with black to move, in plies,
 * and the positions of each value: the figures tablebase statistics
 * publish.  Uses the index layout of lib/games/chess.c: the game's own
 * material is the first segment, 2 * 462 * 64^(pieces - 2) indices
 * without pawns, 2 * 1806 * 48^pawns * 64^others with them (then the
 * positions with an en passant right, which tables do not count), white
 * to move in its first half.
 *   chess_longest FILE.ldb
 * prints: pieces wtm_win_plies btm_loss_plies longest_plies wins draws
 * losses ties, then for white to move and for black to move the
 * positions won, drawn (ties and draws) and lost, and the longest win
 * with black to move
 */
#include "loopy_game.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct tally {
    uint64_t half;            /* white to move: indices below half */
    uint32_t win_w, lose_b;   /* longest, in plies */
    uint32_t longest;         /* of any win or loss, either side to move */
    uint64_t count[4];        /* positions of each outcome, both sides */
    uint64_t side[2][3];      /* [side to move][won, drawn, lost] */
    uint32_t win_b;           /* the longest win with black to move */
} tally;

static int visit(void *ctx, loopy_position pos, loopy_outcome outcome,
                 uint32_t remoteness)
{
    tally *t = ctx;

    if (pos >= 2 * t->half)
        return 1; /* past the ending's own segment: done */
    t->count[outcome]++;
    if ((outcome == LOOPY_WIN || outcome == LOOPY_LOSE) &&
        remoteness > t->longest)
        t->longest = remoteness;
    if (pos < t->half && outcome == LOOPY_WIN && remoteness > t->win_w)
        t->win_w = remoteness;
    if (pos >= t->half && outcome == LOOPY_LOSE && remoteness > t->lose_b)
        t->lose_b = remoteness;
    if (pos >= t->half && outcome == LOOPY_WIN && remoteness > t->win_b)
        t->win_b = remoteness;
    t->side[pos >= t->half][outcome == LOOPY_WIN    ? 0
                            : outcome == LOOPY_LOSE ? 2
                                                    : 1]++;
    return 0;
}

int main(int argc, char **argv)
{
    loopy_db *db;
    loopy_diag diag;
    tally t;
    size_t pieces, pawns = 0;
    const char *params;

    memset(&diag, 0, sizeof diag);
    memset(&t, 0, sizeof t);
    if (argc != 2) {
        fprintf(stderr, "usage: chess_longest FILE.ldb\n");
        return 2;
    }
    if (loopy_db_open(argv[1], &db, &diag) != LOOPY_OK) {
        fprintf(stderr, "chess_longest: %s\n", diag.message);
        return 1;
    }
    params = loopy_db_game_params(db);
    pieces = strlen(params);
    for (const char *p = params; *p != '\0'; p++)
        pawns += *p == 'P';
    if (strcmp(loopy_db_game_name(db), "chess") != 0 || pieces < 2 ||
        pieces > 5) {
        fprintf(stderr, "chess_longest: %s: not a chess ending\n", argv[1]);
        loopy_db_close(db);
        return 1;
    }
    if (pawns == 0) {
        t.half = UINT64_C(462) << (6 * (pieces - 2));
    } else {
        t.half = UINT64_C(1806) << (6 * (pieces - 2 - pawns));
        for (size_t i = 0; i < pawns; i++)
            t.half *= 48;
    }
    if (loopy_db_iterate(db, visit, &t, &diag) != LOOPY_OK) {
        fprintf(stderr, "chess_longest: %s\n", diag.message);
        loopy_db_close(db);
        return 1;
    }
    printf("%zu %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64
           " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
           " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu32 "\n",
           pieces, t.win_w, t.lose_b, t.longest, t.count[LOOPY_WIN],
           t.count[LOOPY_DRAW], t.count[LOOPY_LOSE], t.count[LOOPY_TIE],
           t.side[0][0], t.side[0][1], t.side[0][2], t.side[1][0],
           t.side[1][1], t.side[1][2], t.win_b);
    loopy_db_close(db);
    return 0;
}
