/*
 * ladder.c - a game of your own for loopy, as a shared object.
 *
 * A counter starts at 0.  A move adds 1 to it or takes 2 from it, staying
 * within 0 .. TOP; whoever brings it to TOP wins.  Moves go up and down, so
 * play can cycle: some positions are draws.
 *
 * Build and solve (from the repository's root):
 *   cc -shared -fPIC -Iinclude examples/ladder.c -o ladder.so
 *   build/loopy game solve ./ladder.so:10
 *   build/loopy game probe ./ladder.so:10 7
 *
 * Everything a game needs is here: a loopy_game_def that loopy finds by
 * the exported function loopy_game_definition(), whose create() reads the
 * parameters and fills the loopy_game table with the callbacks.
 */
#include "loopy_game.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct ladder {
    uint64_t top;
    char params[24];
} ladder;

/* Position p is the counter's value, 0 .. top. */
static loopy_primitive primitive(void *ctx, loopy_position p)
{
    const ladder *g = ctx;

    /* The player who brought the counter to top has won. */
    return p == g->top ? LOOPY_OVER_LOSE : LOOPY_PLAYING;
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    const ladder *g = ctx;
    loopy_position next[2];
    size_t count = 0;

    if (p + 1 <= g->top)
        next[count++] = p + 1;
    if (p >= 2)
        next[count++] = p - 2;
    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = next[i];
    return count;
}

/* The positions with a move to p: p - 1 (adding 1) and p + 2 (taking 2),
 * but not from top, where the game is over. */
static size_t unmoves(void *ctx, loopy_position p, loopy_position *out,
                      size_t capacity)
{
    const ladder *g = ctx;
    loopy_position prev[2];
    size_t count = 0;

    if (p >= 1)
        prev[count++] = p - 1;
    if (p + 2 < g->top)
        prev[count++] = p + 2;
    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = prev[i];
    return count;
}

static void release(void *ctx)
{
    free(ctx);
}

static loopy_status create(const char *params, loopy_game *game,
                           loopy_diag *diag)
{
    ladder *g;
    char *end;
    unsigned long long top = 10;

    if (params != NULL && params[0] != '\0') {
        top = strtoull(params, &end, 10);
        if (*end != '\0' || params[0] < '0' || params[0] > '9' || top < 1 ||
            top > 1000000000) {
            if (diag != NULL)
                snprintf(diag->message, sizeof diag->message,
                         "ladder: expected TOP, a whole number from 1 to "
                         "1000000000, found '%s'", params);
            return LOOPY_EINVAL;
        }
    }
    g = malloc(sizeof *g);
    if (g == NULL)
        return LOOPY_ENOMEM;
    g->top = top;
    snprintf(g->params, sizeof g->params, "%llu", top);
    *game = (loopy_game){
        .version = LOOPY_GAME_VERSION,
        .name = "ladder",
        .params = g->params,
        .ctx = g,
        .size = top + 1,
        .start = 0,
        .primitive = primitive,
        .moves = moves,
        .unmoves = unmoves,
        .release = release,
    };
    return LOOPY_OK;
}

static const loopy_game_def definition = {
    .version = LOOPY_GAME_VERSION,
    .name = "ladder",
    .summary = "a counter goes up 1 or down 2; whoever reaches TOP wins",
    .params_help = "TOP (default 10)",
    .notation_help = "the counter's value, such as 7",
    .create = create,
};

/* What loopy looks for in the shared object (LOOPY_GAME_ENTRY). */
const loopy_game_def *loopy_game_definition(void);

const loopy_game_def *loopy_game_definition(void)
{
    return &definition;
}
