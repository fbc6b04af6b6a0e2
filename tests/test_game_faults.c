/*
 * test_game_faults.c - games whose callbacks break their contract, and
 * what the solvers make of it: a clean LOOPY_EGAME whose message names the
 * position and the callback at fault, never an out-of-memory, a hang or a
 * wrong answer.
 *
 * The game: a counter 0 .. 3 that moves up by one; 3 is lost for the
 * player to move.  At position 2, moves() (or unmoves()) may ask for room
 * for SIZE_MAX - 1 positions, or give a count that grows on every call;
 * canonical() may take 3 (or the start) outside the index space.
 */
#include "check.h"

#include "loopy_game.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum fault { FAULT_NONE, FAULT_ABSURD, FAULT_GROWING };

typedef struct counter_game {
    enum fault moves_fault, unmoves_fault;
    size_t calls; /* of the faulty callback: the growing count */
    loopy_position canonical_of_3, canonical_of_0;
} counter_game;

static loopy_primitive primitive(void *ctx, loopy_position p)
{
    (void)ctx;
    return p == 3 ? LOOPY_OVER_LOSE : LOOPY_PLAYING;
}

/* One position, next, or the fault's count when at the faulty position. */
static size_t one(counter_game *g, enum fault fault, bool faulty,
                  loopy_position next, loopy_position *out, size_t capacity)
{
    size_t count = 1;

    if (faulty && fault == FAULT_ABSURD)
        return SIZE_MAX - 1;
    if (faulty && fault == FAULT_GROWING)
        count = 100 + g->calls++;
    for (size_t i = 0; i < count && i < capacity; i++)
        out[i] = next;
    return count;
}

static size_t moves(void *ctx, loopy_position p, loopy_position *out,
                    size_t capacity)
{
    counter_game *g = ctx;

    return p < 3 ? one(g, g->moves_fault, p == 2, p + 1, out, capacity) : 0;
}

static size_t unmoves(void *ctx, loopy_position p, loopy_position *out,
                      size_t capacity)
{
    counter_game *g = ctx;

    return p > 0 ? one(g, g->unmoves_fault, p == 2, p - 1, out, capacity) : 0;
}

static loopy_position canonical(void *ctx, loopy_position p)
{
    const counter_game *g = ctx;

    return p == 3 ? g->canonical_of_3 : p == 0 ? g->canonical_of_0 : p;
}

static void make(counter_game *g, loopy_game *game)
{
    memset(g, 0, sizeof *g);
    g->canonical_of_3 = 3;
    memset(game, 0, sizeof *game);
    game->version = LOOPY_GAME_VERSION;
    game->name = "counter";
    game->params = "";
    game->ctx = g;
    game->size = 4;
    game->start = 0;
    game->primitive = primitive;
    game->moves = moves;
    game->unmoves = unmoves;
}

/* Solves game (by retro or through a graph) on one thread: the faulty
 * callbacks keep a count.  Checks a failure with LOOPY_EGAME whose
 * message holds each of want[] (NULL-terminated); status OK: success. */
static void expect(const loopy_game *game, bool retro, loopy_status want,
                   const char *const *want_text, const char *what)
{
    loopy_game_solve_options options = LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_game_solution *s = NULL;
    loopy_diag diag;
    loopy_status status;

    options.threads = 1;
    memset(&diag, 0, sizeof diag);
    status = retro ? loopy_game_solve_retro(game, &options, &s, &diag)
                   : loopy_game_solve_graph(game, &options, &s, &diag);
    CHECK_MSG(status == want, "%s (%s): %s, expected %s: '%s'", what,
              retro ? "retro" : "graph", loopy_strerror(status),
              loopy_strerror(want), diag.message);
    for (size_t i = 0; want_text != NULL && want_text[i] != NULL; i++)
        CHECK_MSG(strstr(diag.message, want_text[i]) != NULL,
                  "%s (%s): the message '%s' lacks '%s'", what,
                  retro ? "retro" : "graph", diag.message, want_text[i]);
    CHECK(status == LOOPY_OK ? s != NULL : s == NULL);
    loopy_game_solution_free(s);
    check_case_end();
}

static void sound(void)
{
    counter_game g;
    loopy_game game;

    make(&g, &game);
    expect(&game, false, LOOPY_OK, NULL, "the sound game");
    expect(&game, true, LOOPY_OK, NULL, "the sound game");
}

/* moves() asking for room for SIZE_MAX - 1 positions: the game's fault,
 * said with the count, not an out-of-memory. */
static void absurd_count(void)
{
    static const char *const graph_text[] = {
        "counter: position 2", "moves() asks for room for "
        "18446744073709551614 positions, more than 4294967295", NULL};
    counter_game g;
    loopy_game game;

    make(&g, &game);
    g.moves_fault = FAULT_ABSURD;
    if (SIZE_MAX == UINT64_MAX)
        expect(&game, false, LOOPY_EGAME, graph_text, "an absurd count");
    else
        expect(&game, false, LOOPY_EGAME, NULL, "an absurd count");
    g.moves_fault = FAULT_NONE;
    g.unmoves_fault = FAULT_ABSURD;
    expect(&game, true, LOOPY_EGAME, NULL, "an absurd count of unmoves()");
}

/* A count that grows on every call: one retry, then a failure naming both
 * counts; never a loop. */
static void growing_count(void)
{
    static const char *const graph_text[] = {
        "counter: position 2", "moves() gave 100 positions, then 101 when "
        "called again with room for 100", NULL};
    counter_game g;
    loopy_game game;

    make(&g, &game);
    g.moves_fault = FAULT_GROWING;
    expect(&game, false, LOOPY_EGAME, graph_text, "a growing count");
    CHECK_MSG(g.calls == 2, "moves() called %zu times at position 2", g.calls);
    check_case_end();
    g.calls = 0;
    expect(&game, true, LOOPY_EGAME, NULL, "a growing count");
    g.moves_fault = FAULT_NONE;
    g.unmoves_fault = FAULT_GROWING;
    g.calls = 0;
    expect(&game, true, LOOPY_EGAME, NULL, "a growing count of unmoves()");
}

/* canonical() taking a position in range out of it is canonical()'s fault,
 * not moves()'. */
static void canonical_out_of_range(void)
{
    static const char *const move_text[] = {
        "counter: position 2", "canonical() gives 99 for the move to 3, "
        "outside the index space (size 4)", NULL};
    static const char *const start_text[] = {
        "counter: position 0", "canonical() gives 77 for the start, "
        "outside the index space (size 4)", NULL};
    counter_game g;
    loopy_game game;

    make(&g, &game);
    game.canonical = canonical;
    g.canonical_of_0 = 0;
    expect(&game, false, LOOPY_OK, NULL, "an identity canonical()");
    g.canonical_of_3 = 99;
    expect(&game, false, LOOPY_EGAME, move_text, "canonical() of a move");
    expect(&game, true, LOOPY_EGAME, NULL, "canonical() of a move");
    g.canonical_of_3 = 3;
    g.canonical_of_0 = 77;
    expect(&game, false, LOOPY_EGAME, start_text, "canonical() of the start");
}

int main(void)
{
    sound();
    absurd_count();
    growing_count();
    canonical_out_of_range();
    return check_finish("test_game_faults");
}
