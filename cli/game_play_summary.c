/* game_play_summary.c - "loopy game play": the summary when the game
 * ends or the person stops: its moves (PGN with the FEN tag for chess),
 * the moves that changed the value for their player, and who blundered. */
#include "game_play.h"

#include <string.h>

/* How good a value is for the one who has it: W, then T, D, L. */
static int rank_of(loopy_outcome outcome)
{
    static const int rank[] = {2, 0, 3, 1}; /* D, W, L, T */

    return rank[outcome];
}

/* The side a FEN gives the move to ('w' or 'b'), or 0. */
static char fen_side(const char *fen)
{
    const char *space = strchr(fen, ' ');

    return space != NULL && (space[1] == 'w' || space[1] == 'b') ? space[1]
                                                                 : 0;
}

/* The six fields of PGN's FEN tag from a FEN of two to six (the board,
 * the side, then "-", "-", "0" and "1" for those not given), to out; the
 * move number to *number (1 when not given). */
static void pgn_fen(const char *fen, char *out, size_t capacity,
                    size_t *number)
{
    static const char *const missing[6] = {"", "", "-", "-", "0", "1"};
    const char *at = fen;
    size_t len = 0;

    *number = 1;
    out[0] = '\0';
    for (int field = 0; field < 6; field++) {
        const char *start;
        size_t n;
        while (*at == ' ' || *at == '\t')
            at++;
        start = at;
        while (*at != '\0' && *at != ' ' && *at != '\t')
            at++;
        n = (size_t)(at - start);
        if (n == 0) {
            start = missing[field];
            n = strlen(start);
        }
        if (field == 5 && n <= 9) {
            size_t value = 0;
            for (size_t i = 0; i < n && start[i] >= '0' && start[i] <= '9';
                 i++)
                value = value * 10 + (size_t)(start[i] - '0');
            if (value > 0)
                *number = value;
        }
        if (len + n + 2 < capacity) {
            memcpy(out + len, start, n);
            len += n;
            out[len++] = field < 5 ? ' ' : '\0';
            out[len] = '\0';
        }
    }
}

/* The game's moves: with pairs, numbered in pairs as PGN's movetext is
 * ("1. e4 e5"), from black's move when black began ("1... Kc4"), from
 * move number first; else each move by its own number, as the lines
 * after it count them ("1. b2 2. a3"). */
static void print_movetext(const play_state *p, bool pairs, bool black_first,
                           size_t first, const char *result)
{
    size_t column = 0;

    for (size_t i = 0; i < p->moves; i++) {
        char item[96];
        size_t ply = i + (black_first ? 1 : 0);
        int len;
        if (!pairs)
            len = snprintf(item, sizeof item, "%zu. %s", i + 1,
                           p->records[i].name);
        else if (ply % 2 == 0)
            len = snprintf(item, sizeof item, "%zu. %s", ply / 2 + first,
                           p->records[i].name);
        else if (i == 0)
            len = snprintf(item, sizeof item, "%zu... %s", first,
                           p->records[i].name);
        else
            len = snprintf(item, sizeof item, "%s", p->records[i].name);
        if (len < 0)
            len = 0;
        if (column > 0 && column + 1 + (size_t)len > 76) {
            printf("\n");
            column = 0;
        }
        printf("%s%s", column > 0 ? " " : "", item);
        column += (column > 0 ? 1 : 0) + (size_t)len;
    }
    if (result != NULL)
        printf("%s%s", column > 0 ? " " : "", result);
    printf("\n");
}

void play_print_summary(const play_state *p, bool over,
                        loopy_outcome outcome)
{
    const play_step *first = &p->steps[0];
    bool chess = strcmp(p->game->name, "chess") == 0;
    bool black_first = chess && fen_side(first->shown) == 'b';
    size_t blunders[2] = {0, 0}, number = 1;
    bool changed = false;

    if (p->moves == 0)
        return;
    printf("\n");
    if (chess) {
        char side = fen_side(first->shown);
        bool person_white = (side != 'b') == first->person_moves;
        bool last_white = (side == 'b') == (p->moves % 2 == 1);
        const char *result = "*";
        char fen[160];
        /* last_white: white is to move at the last position. */
        if (over && outcome == LOOPY_TIE)
            result = "1/2-1/2";
        else if (over && outcome != LOOPY_DRAW)
            result = (outcome == LOOPY_WIN) == last_white ? "1-0" : "0-1";
        printf("[Event \"loopy game play\"]\n[White \"%s\"]\n[Black \"%s\"]\n",
               person_white ? "you" : "loopy", person_white ? "loopy" : "you");
        /* PGN's FEN has all six fields. */
        pgn_fen(first->shown, fen, sizeof fen, &number);
        printf("[SetUp \"1\"]\n[FEN \"%s\"]\n[Result \"%s\"]\n\n", fen,
               result);
        print_movetext(p, true, black_first, number, result);
    } else {
        printf("The game, %zu move%s: ", p->moves, p->moves == 1 ? "" : "s");
        print_movetext(p, false, false, 1, NULL);
    }
    for (size_t i = 0; i < p->moves; i++) {
        const play_record *r = &p->records[i];
        if (r->before == r->after)
            continue;
        changed = true;
        /* Numbered as the moves above: chess's in pairs ("Move 2..."
         * for black's), another game's one by one. */
        if (chess) {
            size_t ply = i + (black_first ? 1 : 0);
            printf("Move %zu%s", ply / 2 + number, ply % 2 ? "..." : "");
        } else {
            printf("Move %zu", i + 1);
        }
        printf(", %s %s: %c", r->by_person ? "yours," : "loopy's,", r->name,
               game_value_letter[r->before]);
        if (r->before != LOOPY_DRAW)
            printf(" %" PRIu32, r->before_remoteness);
        printf(" became %c", game_value_letter[r->after]);
        if (r->after != LOOPY_DRAW)
            printf(" %" PRIu32, r->after_remoteness);
        printf(" for %s%s.\n", r->by_person ? "you" : "loopy",
               rank_of(r->after) > rank_of(r->before) ? ": a blunder" : "");
        if (rank_of(r->after) > rank_of(r->before))
            blunders[r->by_person]++;
    }
    if (!changed)
        printf("The value never changed: no blunders.\n");
    else
        printf("Blunders: yours %zu, loopy's %zu.\n", blunders[1], blunders[0]);
}
