/*
 * game_play.h - the pieces of "loopy game play" (game_play.c: the game
 * loop, a turn, a move made; game_play_answer.c: the person's options
 * and the reading of an answer; game_play_summary.c: the summary at the
 * end, PGN for chess).
 */
#ifndef LOOPY_CLI_GAME_PLAY_H
#define LOOPY_CLI_GAME_PLAY_H

#include "game.h"

/* A position of the game played: where it stands, as the person sees it
 * (for a game that names its moves, chess, the board kept the way it was
 * given, move after move, not its class's representative), and who is to
 * move there. */
typedef struct play_step {
    loopy_position pos;
    char shown[256];
    bool person_moves;
} play_step;

/* A move made: by whom, its name, and the mover's value before it (the
 * position's) and after it (the move's). */
typedef struct play_record {
    bool by_person;
    char name[64];
    loopy_outcome before, after;
    uint32_t before_remoteness, after_remoteness;
} play_record;

/* A move of the current position as the person sees it: its index in the
 * list best first, its number, its name, and its label when the game
 * gives one (what move_parse reads: "b2", "h2h8"). */
typedef struct play_option {
    size_t index;  /* its move in the list, best first */
    uint32_t twin; /* 0, or k: the game's k-th other move into its class */
    uint32_t number;
    bool bare; /* named by its number alone (Connect Four's column) */
    char name[64];
    char label[64];
    loopy_position to;
} play_option;

typedef struct play_state {
    const game_args *a;
    const loopy_game *game;
    const loopy_game_solution *s;
    const loopy_db *db;
    bool echo;        /* standard input is not a terminal: show the answers */
    bool draw_noted;
    bool misere;
    unsigned draw_flags; /* LOOPY_DRAW_UNICODE when the terminal reads UTF-8 */
    play_step *steps;    /* steps[0 .. moves] */
    play_record *records; /* records[i]: the move from steps[i] */
    size_t moves, capacity;
    char *line;
    size_t line_cap;
} play_state;

/* What the person answered. */
enum { ANSWER_MOVE, ANSWER_STOP, ANSWER_UNDO, ANSWER_FAILED };

/* Whether everything printed so far has reached standard output; prints
 * why not. */
bool play_flushed(void);

/* A value, and the game's words for it ("W 31, mate in 16"; none in
 * misere play, which they do not speak of). */
void play_print_value(const play_state *p, loopy_outcome outcome,
                      uint32_t remoteness);

/* The value for the person, in words. */
void play_print_meaning(loopy_outcome outcome, uint32_t remoteness);

/* The moves of the position shown as the person sees them, *n of them
 * (more than count when two moves at the board lead into one class):
 * numbered by the game where it numbers every move, each number once;
 * else 1, 2, ... in the order of their names (positions: in increasing
 * order).  NULL when memory runs out. */
play_option *play_make_options(const play_state *p, const char *shown,
                               const loopy_game_move *moves, size_t count,
                               size_t *n);

/* "Moves: 1 a3  2 b3 ...", wrapped; a move whose name is its number is
 * shown by its number alone (Connect Four's columns). */
void play_print_options(const play_option *options, size_t count);

/* Reads the person's answer: a move (*choice, an option), q or the end of
 * the input (ANSWER_STOP), undo, or a failed write (ANSWER_FAILED). */
int play_ask(play_state *p, const char *shown, const play_option *options,
             size_t n, const loopy_game_move *moves, size_t count,
             const play_option **choice);

/* The summary at the end: the moves (PGN for chess), the moves that
 * changed the value for their player, and who blundered.  over: the game
 * is over, outcome for the player to move at its last position. */
void play_print_summary(const play_state *p, bool over,
                        loopy_outcome outcome);

#endif
