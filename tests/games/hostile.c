/*
 * hostile.c - a game that breaks the text and size rules of loopy_game on
 * purpose, for tests/cli/hostile.sh (issue #23): a ladder (a counter from
 * 0 to 4, +1 or -2, who reaches 4 wins) whose parameter names the misdeed.
 *
 *   unterminated  format(), move_format(), value_note(), move_label() and
 *                 draw() fill their whole buffer and write no NUL
 *   overlong      the same, and say their text is 1 GiB long
 *   control       text with an escape sequence, a bell, DEL, a C1 control
 *                 and bytes that are not UTF-8
 *   bigformat     format() says its text needs SIZE_MAX / 4 bytes
 *   bigmoves      moves() asks for room for 2^32 - 1 positions
 *   colon         no misdeed, but its parameters read "x:y" (as a database
 *                 made by it records them)
 *   (none)        no misdeed
 * Any other parameter is refused, as a game refuses what it does not know.
 */
#include "loopy_game.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { TOP = 4 };

typedef struct hostile {
    char mode[16];
} hostile;

static int is(const void *ctx, const char *mode)
{
    return strcmp(((const hostile *)ctx)->mode, mode) == 0;
}

/* Writes text as the mode says into out[0 .. capacity); the length it
 * claims. */
static size_t write_text(const void *ctx, const char *text, char *out,
                         size_t capacity)
{
    static const char control[] = "\x1b[2J\x1b]0;owned\x07 \x7f \xc2\x9b "
                                  "\xff\xfe \xc0\xaf \xed\xa0\x80 ok \xe2\x82";

    if (capacity == 0)
        return strlen(text);
    if (is(ctx, "unterminated") || is(ctx, "overlong")) {
        memset(out, 'A', capacity);
        return is(ctx, "overlong") ? (size_t)1 << 30 : capacity;
    }
    if (is(ctx, "control"))
        text = control;
    strncpy(out, text, capacity - 1);
    out[capacity - 1] = '\0';
    return strlen(text);
}

static loopy_primitive primitive(void *ctx, loopy_position p)
{
    (void)ctx;
    return p == TOP ? LOOPY_OVER_LOSE : LOOPY_PLAYING;
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    loopy_position next[2];
    size_t count = 0;

    if (is(ctx, "bigmoves") && p == 0)
        return UINT32_MAX;
    if (p + 1 <= TOP)
        next[count++] = p + 1;
    if (p >= 2)
        next[count++] = p - 2;
    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = next[i];
    return count;
}

static size_t format(void *ctx, loopy_position p, char *out, size_t capacity)
{
    char text[8] = {(char)('0' + p), '\0'};

    if (is(ctx, "bigformat"))
        return SIZE_MAX / 4;
    return write_text(ctx, text, out, capacity);
}

static int parse(void *ctx, const char *text, loopy_position *p, char *why,
                 size_t why_capacity)
{
    (void)ctx;
    (void)why;
    (void)why_capacity;
    /* The first character is the counter; what follows is the misdeeds'
     * own text, which parse takes back as format() wrote it. */
    if (text[0] < '0' || text[0] > '0' + TOP)
        return 1;
    *p = (loopy_position)(text[0] - '0');
    return 0;
}

static size_t move_format(void *ctx, const char *from, loopy_position to,
                          char *name, size_t name_capacity, char *after,
                          size_t after_capacity)
{
    char text[8] = {'+', (char)('0' + to), '\0'};
    char board[8] = {(char)('0' + to), '\0'};

    (void)from;
    if (after != NULL)
        write_text(ctx, board, after, after_capacity);
    return write_text(ctx, text, name, name_capacity);
}

static size_t value_note(void *ctx, loopy_outcome outcome, uint32_t remoteness,
                         char *out, size_t capacity)
{
    (void)outcome;
    (void)remoteness;
    return write_text(ctx, "a note", out, capacity);
}

static size_t move_label(void *ctx, const char *from, loopy_position to,
                         uint32_t *number, char *label, size_t capacity)
{
    char text[8] = {'m', (char)('0' + to), '\0'};

    (void)from;
    *number = 0;
    return write_text(ctx, text, label, capacity);
}

static size_t draw(void *ctx, const char *from, unsigned flags, char *out,
                   size_t capacity)
{
    (void)from;
    (void)flags;
    return write_text(ctx, "[ladder]\n", out, capacity);
}

static void release(void *ctx)
{
    free(ctx);
}

static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    static const char *const modes[] = {"", "unterminated", "overlong",
                                        "control", "bigformat", "bigmoves",
                                        "colon"};
    hostile *g;
    size_t i;

    if (params == NULL)
        params = "";
    for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(params, modes[i]) == 0)
            break;
    if (i == sizeof modes / sizeof modes[0]) {
        if (diag != NULL) {
            strncpy(diag->message, "unknown misdeed", sizeof diag->message - 1);
            diag->message[sizeof diag->message - 1] = '\0';
        }
        return LOOPY_EINVAL;
    }
    g = calloc(1, sizeof *g);
    if (g == NULL)
        return LOOPY_ENOMEM;
    strcpy(g->mode, params);
    game->version = LOOPY_GAME_VERSION;
    game->name = "hostile";
    game->params = strcmp(params, "colon") == 0 ? "x:y" : g->mode;
    game->ctx = g;
    game->size = TOP + 1;
    game->start = 0;
    game->primitive = primitive;
    game->moves = moves;
    game->format = format;
    game->parse = parse;
    game->move_format = move_format;
    game->value_note = value_note;
    game->move_label = move_label;
    game->draw = draw;
    game->release = release;
    return LOOPY_OK;
}

static const loopy_game_def definition = {
    .version = LOOPY_GAME_VERSION,
    .name = "hostile",
    .summary = "a ladder that breaks the rules of text and sizes",
    .params_help = "a misdeed (see tests/games/hostile.c)",
    .notation_help = "the counter, 0 to 4",
    .create = create,
};

const loopy_game_def *loopy_game_definition(void);
const loopy_game_def *loopy_game_definition(void)
{
    return &definition;
}
