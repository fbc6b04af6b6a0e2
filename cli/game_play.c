/* game_play.c - "loopy game play": a person plays against the perfect
 * player, in the terminal or through a pipe.
 *
 * Each turn of the person shows the position, its value for them and
 * every move with its value for them, as "loopy game probe" lists them
 * (game_lookup, best first); they answer with a move's number, the
 * position after it, "?" or "q".  loopy plays the first move of the list:
 * the quickest win, else the slowest loss, the same move every time.
 *
 * This is a conversation, so it writes with stdio and flushes at each
 * prompt rather than through cli_out (which writes everything at the end);
 * a failed write still ends the command with EXIT_IO. */
#include "game.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char play_help[] =
    "Answer with the number of a move in the list, the move as the list\n"
    "names it (chess: Kb1; the + or # may be left out), or the position\n"
    "after the move in the game's notation (a number in the list's range\n"
    "is a move's number), 'q' to stop, '?' for this help.  A value is the\n"
    "mover's, in moves of either side: W 3 wins in 3 moves, L 4 loses in 4\n"
    "(at best), T a tie, D a draw (play can go on forever); chess adds the\n"
    "mate in moves of the winner (W 31, mate in 16).  loopy always plays\n"
    "the first move of its list: the quickest win, else a tie, a draw or\n"
    "the slowest loss.\n";

typedef struct play_state {
    const game_args *a;
    const loopy_game *game;
    const loopy_game_solution *s;
    const loopy_db *db;
    bool echo;        /* standard input is not a terminal: show the answers */
    bool draw_noted;
    bool misere;
    /* The position as the person sees it, in the game's notation: for a
     * game that names its moves (chess), the board kept the way it was
     * given, move after move, not turned to its class's representative. */
    char shown[256];
    char *line;
    size_t line_cap;
} play_state;

/* Whether everything printed so far has reached standard output; prints
 * why not. */
static bool flushed(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("game", "standard output: write failed: %s",
                  errno ? strerror(errno) : "unknown error");
        return false;
    }
    return true;
}

/* A value, and the game's words for it ("W 31, mate in 16"; none in
 * misere play, which they do not speak of). */
static void print_value(const play_state *p, loopy_outcome outcome,
                        uint32_t remoteness)
{
    char note[96];

    if (outcome == LOOPY_DRAW)
        printf("D");
    else
        printf("%c %" PRIu32, game_value_letter[outcome], remoteness);
    if (!p->misere &&
        loopy_game_value_note(p->game, outcome, remoteness, note, sizeof note) > 0)
        printf(", %s", note);
}

/* The value for the person, in words. */
static void print_meaning(loopy_outcome outcome, uint32_t remoteness)
{
    static const char *const words[] = {"a draw: play can go on forever",
                                        "you win", "you lose", "a tie"};

    printf("%s", words[outcome]);
    if (outcome != LOOPY_DRAW)
        printf(" in %" PRIu32 " move%s with best play", remoteness,
               remoteness == 1 ? "" : "s");
}

/* Reads the person's choice among count moves into *choice; returns 1 for
 * a move, 0 to stop (q or the end of the input), -1 after a failed write. */
static int ask(play_state *p, const loopy_game_move *moves, size_t count,
               size_t *choice)
{
    for (;;) {
        ssize_t got;
        char *text, *end;
        size_t len;

        printf("Your move (1-%zu, %s, ? for help, q to quit): ", count,
               p->game->move_format != NULL ? "a move, a position"
                                            : "a position");
        if (!flushed())
            return -1;
        got = getline(&p->line, &p->line_cap, stdin);
        if (got < 0) {
            printf("\nEnd of input: the game is left unfinished.\n");
            return flushed() ? 0 : -1;
        }
        text = p->line;
        len = strlen(text);
        /* "Qf1\0junk" is not the move Qf1: the whole line is the answer,
         * as probe reads its lines. */
        if (len != (size_t)got) {
            printf("A NUL byte in the line: not a move.  Give a number from "
                   "1 to %zu, or ? for help.\n", count);
            continue;
        }
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
                           text[len - 1] == ' ' || text[len - 1] == '\t'))
            text[--len] = '\0';
        while (*text == ' ' || *text == '\t')
            text++;
        if (p->echo)
            printf("%s\n", text);
        if (*text == '\0')
            continue;
        if (strcmp(text, "q") == 0 || strcmp(text, "quit") == 0) {
            printf("You stop the game.\n");
            return flushed() ? 0 : -1;
        }
        if (strcmp(text, "?") == 0 || strcmp(text, "help") == 0) {
            printf("%s", play_help);
            continue;
        }
        if (text[0] >= '0' && text[0] <= '9') {
            unsigned long long number;
            errno = 0;
            number = strtoull(text, &end, 10);
            if (*end == '\0' && errno == 0 && number >= 1 && number <= count) {
                *choice = (size_t)number - 1;
                return 1;
            }
        }
        /* A move by its name in the game's notation ("Kb1", with or
         * without the "+" or "#" the list shows). */
        for (size_t i = 0; p->game->move_format != NULL && i < count; i++) {
            char name[256];
            size_t n = strlen(loopy_game_move_name(p->game, p->shown, moves[i].to,
                                             name, sizeof name, NULL, 0));
            while (n > 0 && (name[n - 1] == '+' || name[n - 1] == '#'))
                name[--n] = '\0';
            if (strncmp(name, text, n) == 0 &&
                strspn(text + n, "+#") == strlen(text + n)) {
                *choice = i;
                return 1;
            }
        }
        {
            loopy_diag diag;
            loopy_position pos;

            memset(&diag, 0, sizeof diag);
            if (loopy_game_parse(p->game, text, &pos, &diag) == LOOPY_OK) {
                for (size_t i = 0; i < count; i++) {
                    if (moves[i].to == pos) {
                        *choice = i;
                        return 1;
                    }
                }
                printf("'%s' is not one move from here.", text);
            } else if (p->game->move_format != NULL &&
                       strchr(text, '/') == NULL) {
                /* Not a position: meant as a move's name. */
                printf("'%s' is none of the moves listed.", text);
            } else {
                printf("%s.", diag.message);
            }
            printf("  Give a number from 1 to %zu, or ? for help.\n", count);
        }
    }
}

/* Prints the end of the game at pos, whose value is for the player to
 * move there (the person when person_moves). */
static void print_result(const char *name, loopy_outcome outcome,
                         bool person_moves)
{
    const char *result;

    if (outcome == LOOPY_TIE)
        result = "a tie";
    else if (outcome == LOOPY_DRAW)
        result = "no result";
    else
        result = (outcome == LOOPY_WIN) == person_moves ? "you win"
                                                        : "you lose, loopy wins";
    printf("Game over at %s: %s.\n", name, result);
}

/* One turn of the person at pos: *next is the position after their move;
 * returns 1 for a move, 0 to stop, else minus an exit status. */
static int person_turn(play_state *p, const char *name, loopy_outcome outcome,
                       uint32_t remoteness, const loopy_game_move *moves,
                       size_t count, loopy_position *next)
{
    char to[256], after[256];
    size_t choice;
    int got;

    printf("\nPosition %s: ", name);
    print_value(p, outcome, remoteness);
    printf(" (");
    print_meaning(outcome, remoteness);
    printf(")\n");
    if (outcome == LOOPY_DRAW && !p->draw_noted) {
        p->draw_noted = true;
        printf("Neither side can force a result from a draw: play on as long "
               "as you like, or q to stop.\n");
    }
    for (size_t i = 0; i < count; i++) {
        loopy_outcome o;
        uint32_t r;

        game_move_value(&moves[i], &o, &r);
        printf("  %2zu. %s  ", i + 1,
               loopy_game_move_name(p->game, p->shown, moves[i].to, to, sizeof to,
                              NULL, 0));
        print_value(p, o, r);
        printf("\n");
    }
    got = ask(p, moves, count, &choice);
    if (got <= 0)
        return got < 0 ? -EXIT_IO : 0;
    printf("You play %s\n",
           loopy_game_move_name(p->game, p->shown, moves[choice].to, to, sizeof to,
                          after, sizeof after));
    memcpy(p->shown, after, sizeof p->shown);
    *next = moves[choice].to;
    return 1;
}

static int play_game(play_state *p, loopy_position pos, bool person_moves)
{
    for (;;) {
        loopy_outcome outcome;
        uint32_t remoteness;
        loopy_game_move *moves = NULL;
        size_t count = 0;
        char name[256];
        int rc;

        if (p->game->move_format != NULL)
            memcpy(name, p->shown, sizeof name);
        else
            loopy_game_format(p->game, pos, name, sizeof name);
        rc = game_lookup(p->a, p->game, p->s, p->db, pos, name, &outcome,
                         &remoteness, &moves, &count);
        if (rc != EXIT_OK)
            return rc;
        if (count == 0) {
            free(moves);
            printf("\n");
            print_result(name, outcome, person_moves);
            return flushed() ? EXIT_OK : EXIT_IO;
        }
        if (person_moves) {
            rc = person_turn(p, name, outcome, remoteness, moves, count, &pos);
            free(moves);
            if (rc <= 0)
                return -rc;
        } else {
            loopy_outcome o;
            uint32_t r;
            char to[256], after[256];

            /* The first of the list is the best, ties broken by the
             * smallest position: the same game every time. */
            game_move_value(&moves[0], &o, &r);
            printf("\nloopy plays %s (",
                   loopy_game_move_name(p->game, p->shown, moves[0].to, to,
                                  sizeof to, after, sizeof after));
            print_value(p, o, r);
            printf(" for loopy).\n");
            memcpy(p->shown, after, sizeof p->shown);
            pos = moves[0].to;
            free(moves);
            if (!flushed())
                return EXIT_IO;
        }
        person_moves = !person_moves;
    }
}

int game_play(const game_args *a)
{
    loopy_game *game = NULL;
    loopy_game_solution *s = NULL;
    loopy_db *db = NULL;
    double seconds = 0;
    loopy_position start;
    play_state p;
    int rc;

    if (a->json) {
        cli_error("game", "play: -f json is not available: the game is a "
                  "conversation");
        return EXIT_USAGE;
    }
    if (a->position_count > 1) {
        cli_error("game", "play takes one POSITION, found '%s' after it",
                  a->positions[1]);
        return EXIT_USAGE;
    }
    /* A database answers instead of a solve. */
    rc = cli_is_database(a->spec) ? game_open_database(a, &db, &game)
                                  : game_open_and_solve(a, &game, &s, &seconds);
    if (rc != EXIT_OK)
        goto done;
    if (db == NULL && !a->quiet)
        fprintf(stderr, "loopy game: solved in %.3f s\n", seconds);
    start = game->start;
    if (a->position_count == 1) {
        loopy_diag diag;
        memset(&diag, 0, sizeof diag);
        if (loopy_game_parse(game, a->positions[0], &start, &diag) != LOOPY_OK) {
            cli_error("game", "%s", diag.message);
            rc = EXIT_INPUT;
            goto done;
        }
    }
    {
        /* The start must have a value before anything is printed: a
         * position the solve did not reach is refused with no output. */
        loopy_game_move *moves = NULL;
        loopy_outcome outcome;
        uint32_t remoteness;
        size_t count = 0;
        char name[256];
        loopy_game_format(game, start, name, sizeof name);
        rc = game_lookup(a, game, s, db, start, name, &outcome, &remoteness,
                         &moves, &count);
        free(moves);
        if (rc != EXIT_OK)
            goto done;
    }
    memset(&p, 0, sizeof p);
    p.a = a;
    p.game = game;
    p.s = s;
    p.db = db;
    p.echo = !isatty(STDIN_FILENO);
    p.misere = db != NULL ? loopy_db_misere(db) != 0 : a->solve.misere != 0;
    /* The position as given (a game that names its moves keeps it so). */
    if (a->position_count == 1 && game->move_format != NULL)
        snprintf(p.shown, sizeof p.shown, "%s", a->positions[0]);
    else
        loopy_game_format(game, start, p.shown, sizeof p.shown);
    printf("%s%s%s%s: you play %s, loopy plays %s.  ? for help.\n", game->name,
           game->params[0] ? ":" : "", game->params,
           (db != NULL ? loopy_db_misere(db) : a->solve.misere) ? " (misere)"
                                                                 : "",
           a->second ? "second" : "first", a->second ? "first" : "second");
    rc = play_game(&p, start, !a->second);
    free(p.line);
done:
    loopy_game_solution_free(s);
    loopy_game_close(game);
    loopy_db_close(db);
    return rc;
}
