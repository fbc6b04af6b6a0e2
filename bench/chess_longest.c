/*
 * chess_longest.c - reads a database of a pawnless chess ending written by
 * `loopy game solve chess:MATERIAL --all-legal` and prints, for the
 * ending's own material only (not its sub-endings, which share the
 * database), the longest win with white to move and the longest loss with
 * black to move, in plies, and the positions of each value: the figures
 * tablebase statistics publish.  Uses the index layout of
 * lib/games/chess.c: the game's own material is the first segment,
 * 2 * 462 * 64^(pieces - 2) indices, white to move in its first half.
 *   chess_longest FILE.ldb
 * prints: pieces wtm_win_plies btm_loss_plies longest_plies wins draws
 * losses ties
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
    return 0;
}

int main(int argc, char **argv)
{
    loopy_db *db;
    loopy_diag diag;
    tally t;
    size_t pieces;

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
    pieces = strlen(loopy_db_game_params(db));
    if (strcmp(loopy_db_game_name(db), "chess") != 0 || pieces < 2 ||
        pieces > 5) {
        fprintf(stderr, "chess_longest: %s: not a chess ending\n", argv[1]);
        loopy_db_close(db);
        return 1;
    }
    t.half = UINT64_C(462) << (6 * (pieces - 2));
    if (loopy_db_iterate(db, visit, &t, &diag) != LOOPY_OK) {
        fprintf(stderr, "chess_longest: %s\n", diag.message);
        loopy_db_close(db);
        return 1;
    }
    printf("%zu %" PRIu32 " %" PRIu32 " %" PRIu32 " %" PRIu64 " %" PRIu64
           " %" PRIu64 " %" PRIu64 "\n",
           pieces, t.win_w, t.lose_b, t.longest, t.count[LOOPY_WIN],
           t.count[LOOPY_DRAW], t.count[LOOPY_LOSE], t.count[LOOPY_TIE]);
    loopy_db_close(db);
    return 0;
}
