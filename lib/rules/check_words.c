/*
 * check_words.c - loopy_game_check's checks of a game's notation: format()
 * keeps its protocol and parse() reads back what it writes; each move's
 * label, name and twins read back by move_parse() as that move.
 */
#include "check_internal.h"

#include <string.h>

/* The room format() is first given. */
#define TEXT_START 64

/* format()'s protocol and parse(format(pos)) == pos. */
bool loopy_i_check_notation(checker *c, loopy_position pos)
{
    const loopy_game *game = c->game;
    size_t len, again;
    char why[200];
    loopy_position back = SENTINEL;

    if (c->text_capacity < TEXT_START) {
        char *grown = loopy_i_realloc(c->text, TEXT_START, 1);
        if (grown == NULL) {
            c->out_of_memory = true;
            return false;
        }
        c->text = grown;
        c->text_capacity = TEXT_START;
    }
    len = game->format(game->ctx, pos, c->text, c->text_capacity - 1);
    if (len == LOOPY_GAME_ERROR)
        return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, pos, NULL,
                                  "format() failed");
    if (len > SIZE_MAX - 3)
        return loopy_i_check_flaw(c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                                  "format() gives no "
                                  "length");
    if (len + 2 > c->text_capacity) {
        char *grown = loopy_i_realloc(c->text, len + 2, 1);
        if (grown == NULL) {
            c->out_of_memory = true;
            snprintf(c->oom_what, sizeof c->oom_what,
                     ": format() of position "
                     "%" LOOPY_PRI_POSITION " says its text has %zu bytes",
                     pos, len);
            return false;
        }
        c->text = grown;
        c->text_capacity = len + 2;
    }
    /* With one byte too few, then with room for the text and its NUL; a
     * guard byte after the room each time. */
    for (int pass = 0; pass < 2; pass++) {
        size_t room = pass == 0 ? len : len + 1;
        if (room == 0)
            continue;
        c->text[room] = '\x7f';
        again = game->format(game->ctx, pos, c->text, room);
        if (again == LOOPY_GAME_ERROR)
            return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, pos, NULL,
                                      "format() failed");
        if (again != len || c->text[room] != '\x7f' ||
            c->text[room - 1] != '\0')
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                "format() with "
                "room for %zu bytes breaks its protocol (length %zu, "
                "then %zu; NUL-terminated within the room)",
                room, len, again);
    }
    if (strlen(c->text) != len)
        return loopy_i_check_flaw(c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                                  "format() says %zu "
                                  "bytes but writes %zu",
                                  len, strlen(c->text));
    why[0] = '\0';
    if (game->parse(game->ctx, c->text, &back, why, sizeof why) != 0) {
        why[sizeof why - 1] = '\0';
        return loopy_i_check_flaw(c, LOOPY_FLAW_NOTATION, pos, NULL,
                                  "format() writes '%s' "
                                  "but parse() refuses it: %s",
                                  c->text, why[0] ? why : "no reason given");
    }
    if (back != pos) {
        char name[200];
        return loopy_i_check_flaw(
            c, LOOPY_FLAW_NOTATION, pos, &back,
            "format() writes '%s', "
            "which parse() reads as %s",
            c->text,
            back < game->size
                ? loopy_i_check_describe(game, back, name, sizeof name)
                : "a position outside the index space");
    }
    return true;
}

/* The words of pos's moves (c->moves), for a game that has them: each
 * move's label and name (move_label(), move_format()) read back by
 * loopy_game_move_parse as that move, and no number given to two moves.
 * Reading a name may name every move again (chess's SAN), so after the
 * first WORDS_ALL positions, one in WORDS_EVERY is asked. */
#define WORDS_ALL 4096
#define WORDS_EVERY 64

/* Whether text, which names ("move_label() names the move", ...) the move
 * from pos, written as from, to q, reads back as that move; a flaw when
 * not.  False also when memory runs out. */
static bool reads_back(checker *c, loopy_position pos, const char *from,
                       loopy_position q, const char *names, const char *text)
{
    loopy_position back = SENTINEL;
    loopy_status status;
    loopy_diag diag;
    char other[200];

    memset(&diag, 0, sizeof diag);
    status = loopy_game_move_parse(c->game, from, text, &back, &diag);
    if (status == LOOPY_ENOMEM) {
        c->out_of_memory = true;
        return false;
    }
    if (status != LOOPY_OK)
        return loopy_i_check_flaw(
            c, LOOPY_FLAW_NOTATION, pos, &q,
            "%s to %s '%s', which move_parse() refuses: %s", names,
            loopy_i_check_describe(c->game, q, other, sizeof other), text,
            diag.message);
    if (back != q)
        return loopy_i_check_flaw(
            c, LOOPY_FLAW_NOTATION, pos, &q,
            "%s to %s '%s', which move_parse() reads as the move to "
            "%" LOOPY_PRI_POSITION,
            names, loopy_i_check_describe(c->game, q, other, sizeof other),
            text, back);
    return true;
}

bool loopy_i_check_move_words(checker *c, loopy_position pos)
{
    const loopy_game *game = c->game;
    char from[256], label[128], other[200];
    loopy_position *numbers;
    bool ok = true;

    if (game->format == NULL || c->moves.count == 0 ||
        (game->move_label == NULL && game->move_parse == NULL) ||
        (c->report->checked > WORDS_ALL &&
         c->report->checked % WORDS_EVERY != 0))
        return true;
    /* The numbers in set_a, free once the moves are checked. */
    if (!loopy_i_check_reserve(c, &c->set_a, c->moves.count))
        return false;
    numbers = c->set_a.items;
    loopy_game_format(game, pos, from, sizeof from);
    for (size_t i = 0; ok && i < c->moves.count; i++) {
        loopy_position q = c->moves.items[i];
        uint32_t number = 0;
        numbers[i] = 0;
        if (i > 0 && c->moves.items[i - 1] == q)
            continue;
        if (game->move_label != NULL) {
            loopy_game_move_label(game, from, q, &number, label, sizeof label);
            ok = reads_back(c, pos, from, q, "move_label() names the move",
                            label);
        }
        if (ok && game->move_format != NULL) {
            loopy_game_move_name(game, from, q, label, sizeof label, NULL, 0);
            ok = reads_back(c, pos, from, q, "move_format() names the move",
                            label);
        }
        /* The other moves at the board into q's class (move_twin()),
         * by label and by name. */
        for (uint32_t k = 1; ok; k++) {
            char name[128];
            if (loopy_game_move_twin(game, from, q, k, name, sizeof name, label,
                                     sizeof label, NULL, 0) == 0)
                break;
            ok = reads_back(c, pos, from, q, "move_twin() names another move",
                            label) &&
                 reads_back(c, pos, from, q, "move_twin() names another move",
                            name);
        }
        numbers[i] = number;
        for (size_t j = 0; ok && numbers[i] != 0 && j < i; j++)
            if (numbers[j] == numbers[i])
                ok = loopy_i_check_flaw(
                    c, LOOPY_FLAW_NOTATION, pos, &q,
                    "move_label() gives number %" PRIu32 " to two "
                    "moves, to %" LOOPY_PRI_POSITION " and to %s",
                    number, c->moves.items[j],
                    loopy_i_check_describe(game, q, other, sizeof other));
    }
    return ok;
}
