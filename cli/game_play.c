/* game_play.c - "loopy game play": a person plays against the perfect
 * player, in the terminal or through a pipe.
 *
 * Each turn of the person draws the board (for a game that draws one),
 * gives the position's value for them, and lists the moves by number: the
 * game's own number for a move where it has one (Connect Four's column,
 * m,n,k's cell), which stays the move's from turn to turn, else their
 * place in the order of their names.  They answer with a number, the move
 * in the game's notation (chess: SAN or UCI; a column; a cell), or the
 * position after it; or hint, best, moves, undo, ? or q.  loopy plays the
 * first move of its list (game_lookup, best first): the quickest win, else
 * the slowest loss, the same move every time.  When the game ends, or the
 * person stops, the game is summed up: its moves (PGN for chess), where
 * the value changed, and who blundered.
 *
 * This is a conversation, so it writes with stdio and flushes at each
 * prompt rather than through cli_out (which writes everything at the end);
 * a failed write still ends the command with EXIT_IO. */
#include "game.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char play_help[] =
    "Answer with a move's number in the list (it stays the move's from turn\n"
    "to turn where the game numbers its moves: a column in Connect Four, a\n"
    "cell in m,n,k, counted across the rows from the top left), the move in\n"
    "the game's notation (a column; a cell such as b2; chess: SAN, Rh8, or\n"
    "UCI, h2h8; the + or # may be left out), or the position after it.\n"
    "  hint    loopy's best move for you, its value and remoteness\n"
    "  best    play that move\n"
    "  moves   every move with its value for you, best first\n"
    "  undo    take back your last move and loopy's answer\n"
    "  q       stop (the game is summed up)\n"
    "A value is the mover's, in moves of either side: W 3 wins in 3 moves,\n"
    "L 4 loses in 4 (at best), T a tie, D a draw (play can go on forever);\n"
    "chess adds the mate in moves of the winner (W 31, mate in 16).  loopy\n"
    "always plays its best move: the quickest win, else a tie, a draw or\n"
    "the slowest loss.\n";

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

/* Whether the locale (LC_ALL, else LC_CTYPE, else LANG) reads UTF-8: then
 * boards may show Unicode pieces, else ASCII only. */
static bool locale_is_utf8(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};

    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *value = getenv(vars[i]);
        if (value == NULL || value[0] == '\0')
            continue;
        for (const char *p = value; *p != '\0'; p++)
            if (strncasecmp(p, "utf-8", 5) == 0 || strncasecmp(p, "utf8", 4) == 0)
                return true;
        return false;
    }
    return false;
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

/* How good a value is for the one who has it: W, then T, D, L. */
static int rank_of(loopy_outcome outcome)
{
    static const int rank[] = {2, 0, 3, 1}; /* D, W, L, T */

    return rank[outcome];
}

/* Sorts options by number; names break ties (chess numbers none). */
static int compare_options(const void *x, const void *y)
{
    const play_option *a = x, *b = y;

    if (a->number != b->number)
        return a->number < b->number ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The moves at the board of a class's move besides the one its name
 * names (loopy_game_move_twin), added to options[*count ..), which grows;
 * false when memory runs out. */
static bool add_twins(const play_state *p, const char *shown,
                      const loopy_game_move *move, size_t index,
                      play_option **options, size_t *count, size_t *room)
{
    for (uint32_t k = 1;; k++) {
        play_option o;
        memset(&o, 0, sizeof o);
        if (loopy_game_move_twin(p->game, shown, move->to, k, o.name,
                                 sizeof o.name, o.label, sizeof o.label, NULL,
                                 0) == 0)
            return true;
        o.index = index;
        o.twin = k;
        o.to = move->to;
        if (*count == *room) {
            play_option *more = realloc(*options, 2 * *room * sizeof o);
            if (more == NULL)
                return false;
            *options = more;
            *room *= 2;
        }
        (*options)[(*count)++] = o;
    }
}

/* The moves of the position shown as the person sees them, *n of them
 * (more than count when two moves at the board lead into one class):
 * numbered by the game where it numbers every move, each number once;
 * else 1, 2, ... in the order of their names (positions: in increasing
 * order). */
static play_option *make_options(const play_state *p, const char *shown,
                                 const loopy_game_move *moves, size_t count,
                                 size_t *n)
{
    size_t room = count ? count : 1;
    play_option *options = malloc(room * sizeof *options);
    bool numbered = p->game->move_label != NULL;

    if (options == NULL)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        play_option *o = &options[i];
        o->index = i;
        o->twin = 0;
        o->to = moves[i].to;
        loopy_game_move_name(p->game, shown, moves[i].to, o->name,
                             sizeof o->name, NULL, 0);
        o->label[0] = '\0';
        o->number = 0;
        if (p->game->move_label != NULL)
            loopy_game_move_label(p->game, shown, moves[i].to, &o->number,
                                  o->label, sizeof o->label);
        /* A game that names no moves is listed by the positions after
         * them, in increasing order. */
        if (p->game->move_format == NULL && p->game->move_label == NULL)
            o->number = 0;
        if (p->game->move_format == NULL && o->label[0] != '\0')
            snprintf(o->name, sizeof o->name, "%s", o->label);
        numbered = numbered && o->number != 0;
    }
    *n = count;
    for (size_t i = 0; i < count; i++)
        if (!add_twins(p, shown, &moves[i], i, &options, n, &room)) {
            free(options);
            return NULL;
        }
    /* A twin has no number of its own: the game's numbers name classes. */
    numbered = numbered && *n == count;
    count = *n;
    if (p->game->move_format == NULL && p->game->move_label == NULL) {
        /* Insertion sort by position: a few dozen moves. */
        for (size_t i = 1; i < count; i++) {
            play_option o = options[i];
            size_t j = i;
            for (; j > 0 && options[j - 1].to > o.to; j--)
                options[j] = options[j - 1];
            options[j] = o;
        }
    } else {
        if (!numbered)
            for (size_t i = 0; i < count; i++)
                options[i].number = 0;
        qsort(options, count, sizeof *options, compare_options);
    }
    for (size_t i = 0; i < count; i++) {
        /* The same number twice is no name: number them all in order. */
        if (!numbered || (i > 0 && options[i].number == options[i - 1].number)) {
            for (size_t j = 0; j < count; j++)
                options[j].number = (uint32_t)(j + 1);
            break;
        }
    }
    for (size_t i = 0; i < count; i++) {
        char number[16];
        snprintf(number, sizeof number, "%" PRIu32, options[i].number);
        options[i].bare = p->game->move_format == NULL &&
                          options[i].label[0] != '\0' &&
                          strcmp(number, options[i].label) == 0;
    }
    return options;
}

/* "Moves: 1 a3  2 b3 ...", wrapped; a move whose name is its number is
 * shown by its number alone (Connect Four's columns). */
static void print_options(const play_option *options, size_t count)
{
    size_t column = 6;
    const char *gap = "  ";

    /* Numbers alone (Connect Four's columns) need no wide gaps. */
    for (size_t i = 0; i < count && options[i].bare; i++)
        if (i + 1 == count)
            gap = " ";

    printf("Moves:");
    for (size_t i = 0; i < count; i++) {
        char item[96];
        char number[16];
        int len;
        snprintf(number, sizeof number, "%" PRIu32, options[i].number);
        len = options[i].bare
                  ? snprintf(item, sizeof item, "%s", number)
                  : snprintf(item, sizeof item, "%s %s", number,
                             options[i].name);
        if (len < 0)
            len = 0;
        if (column + strlen(gap) + (size_t)len > 76 && column > 6) {
            printf("\n      ");
            column = 6;
        }
        printf("%s%s", column > 6 ? gap : " ", item);
        column += (column > 6 ? strlen(gap) : 1) + (size_t)len;
    }
    printf("\n");
}

/* Every move with its value for the person, best first. */
static void print_valued(const play_state *p, const play_option *options,
                         size_t n, const loopy_game_move *moves, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        loopy_outcome value;
        uint32_t remoteness;

        game_move_value(&moves[i], &value, &remoteness);
        /* The move, then its twins (the same value). */
        for (uint32_t k = 0; k <= LOOPY_GAME_TWINS_MAX; k++) {
            const play_option *o = NULL;
            char number[16];
            for (size_t j = 0; j < n && o == NULL; j++)
                if (options[j].index == i && options[j].twin == k)
                    o = &options[j];
            if (o == NULL)
                break;
            snprintf(number, sizeof number, "%" PRIu32, o->number);
            if (o->bare)
                printf("  %3s  ", number);
            else
                printf("  %3s. %s  ", number, o->name);
            print_value(p, value, remoteness);
            printf("\n");
        }
    }
}

/* The option for the move that leads to to (its class's own, not a
 * twin), or NULL. */
static const play_option *option_to(const play_option *options, size_t count,
                                    loopy_position to)
{
    for (size_t i = 0; i < count; i++)
        if (options[i].to == to && options[i].twin == 0)
            return &options[i];
    return NULL;
}

/* The option for the move to to whose position after it is written as
 * text (a twin's, when text is its board), else its class's own; NULL
 * when no move leads to to. */
static const play_option *option_after(const play_state *p, const char *shown,
                                       const play_option *options,
                                       size_t count, loopy_position to,
                                       const char *text)
{
    for (size_t i = 0; i < count; i++) {
        char name[64], after[GAME_NAME_CAPACITY];
        if (options[i].to != to || options[i].twin == 0 ||
            loopy_game_move_twin(p->game, shown, to, options[i].twin, name,
                                 sizeof name, NULL, 0, after,
                                 sizeof after) == 0)
            continue;
        if (strcmp(after, text) == 0)
            return &options[i];
    }
    return option_to(options, count, to);
}

/* Whether a and b are the same move's name but for the signs a game may
 * let one leave out ('x', '+', '#', '='; chess: "Qxb5+" is "Qb5"). */
static bool same_but_signs(const char *a, const char *b)
{
    for (;;) {
        while (*a != '\0' && strchr("x+#=", *a) != NULL)
            a++;
        while (*b != '\0' && strchr("x+#=", *b) != NULL)
            b++;
        if (*a != *b)
            return false;
        if (*a == '\0')
            return true;
        a++;
        b++;
    }
}

/* The option whose name or label is text, when text names a move that a
 * twin shares its class with: the move the person meant, not its class's
 * own.  NULL when none is, or the text names no twin. */
static const play_option *option_named(const play_option *options,
                                       size_t count, const char *text)
{
    const play_option *found = NULL;

    for (size_t i = 0; i < count; i++) {
        if (strcmp(options[i].name, text) != 0 &&
            strcmp(options[i].label, text) != 0 &&
            !same_but_signs(options[i].name, text))
            continue;
        if (found != NULL)
            return NULL; /* two: the game's own reading decides */
        found = &options[i];
    }
    if (found == NULL)
        return NULL;
    for (size_t i = 0; i < count; i++)
        if (options[i].to == found->to && &options[i] != found)
            return found;
    return NULL;
}

/* What the person answered. */
enum { ANSWER_MOVE, ANSWER_STOP, ANSWER_UNDO, ANSWER_FAILED };

/* Reads the person's answer: a move (*choice, an option), q or the end of
 * the input (ANSWER_STOP), undo, or a failed write (ANSWER_FAILED). */
static int ask(play_state *p, const char *shown, const play_option *options,
               size_t n, const loopy_game_move *moves, size_t count,
               const play_option **choice)
{
    for (;;) {
        ssize_t got;
        char *text;
        size_t len;
        bool digits;

        printf("Your move (a number or a move; hint, moves, undo, ? for help, "
               "q to quit): ");
        if (!flushed())
            return ANSWER_FAILED;
        errno = 0;
        got = getline(&p->line, &p->line_cap, stdin);
        if (got < 0 && errno == ENOMEM) {
            cli_error("game", "<stdin>: out of memory for the line");
            return ANSWER_FAILED;
        }
        if (got < 0) {
            printf("\nEnd of input: the game is left unfinished.\n");
            return flushed() ? ANSWER_STOP : ANSWER_FAILED;
        }
        text = p->line;
        len = strlen(text);
        /* "Qf1\0junk" is not the move Qf1: the whole line is the answer,
         * as probe reads its lines. */
        if (len != (size_t)got) {
            printf("A NUL byte in the line: not a move.  ? for help.\n");
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
            return flushed() ? ANSWER_STOP : ANSWER_FAILED;
        }
        if (strcmp(text, "?") == 0 || strcmp(text, "help") == 0) {
            printf("%s", play_help);
            continue;
        }
        if (strcmp(text, "moves") == 0) {
            print_valued(p, options, n, moves, count);
            continue;
        }
        if (strcmp(text, "undo") == 0)
            return ANSWER_UNDO;
        if (strcmp(text, "hint") == 0 || strcmp(text, "best") == 0) {
            const play_option *best = option_to(options, n, moves[0].to);
            loopy_outcome value;
            uint32_t remoteness;
            if (strcmp(text, "best") == 0) {
                *choice = best;
                return ANSWER_MOVE;
            }
            game_move_value(&moves[0], &value, &remoteness);
            printf("Hint: %" PRIu32, best->number);
            if (!best->bare)
                printf(" (%s)", best->name);
            printf(", ");
            print_value(p, value, remoteness);
            printf(": ");
            print_meaning(value, remoteness);
            printf(".\n");
            continue;
        }
        digits = strspn(text, "0123456789") == strlen(text);
        if (digits) {
            char *end;
            unsigned long long number;
            errno = 0;
            number = strtoull(text, &end, 10);
            for (size_t i = 0; errno == 0 && i < n; i++)
                if (options[i].number == number) {
                    *choice = &options[i];
                    return ANSWER_MOVE;
                }
        }
        {
            loopy_diag diag, position_diag;
            loopy_position to;
            const play_option *found = NULL;

            /* The move in the game's notation, else the position after
             * it. */
            memset(&diag, 0, sizeof diag);
            memset(&position_diag, 0, sizeof position_diag);
            if (!digits)
                found = option_named(options, n, text);
            if (found == NULL && (!digits || p->game->move_parse != NULL) &&
                loopy_game_move_parse(p->game, shown, text, &to, &diag) ==
                    LOOPY_OK)
                found = option_to(options, n, to);
            /* A number is a move's number, never a position (subtract's
             * positions are numbers too). */
            if (found == NULL && !digits &&
                loopy_game_parse(p->game, text, &to, &position_diag) ==
                    LOOPY_OK) {
                found = option_after(p, shown, options, n, to, text);
                if (found == NULL) {
                    printf("'%s' is not one move from here.  ? for help.\n",
                           text);
                    continue;
                }
            }
            if (found != NULL) {
                *choice = found;
                return ANSWER_MOVE;
            }
            /* A number is a move's (out of range: "no move 99"), a text
             * with a '/' a position, anything else a move. */
            if (digits && (p->game->move_parse == NULL ||
                           strncmp(diag.message, "no ", 3) != 0))
                printf("no move %s: the moves are numbered as listed", text);
            else if (strchr(text, '/') != NULL && position_diag.message[0])
                printf("%s", position_diag.message);
            else
                printf("%s", diag.message[0] ? diag.message
                                             : "not one of the moves");
            printf(".  ? for help.\n");
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

/* Room for one more step and record. */
static bool grow(play_state *p)
{
    size_t want;
    play_step *steps;
    play_record *records;

    if (p->moves + 1 < p->capacity)
        return true;
    want = p->capacity ? 2 * p->capacity : 64;
    steps = realloc(p->steps, want * sizeof *steps);
    if (steps == NULL)
        return false;
    p->steps = steps;
    records = realloc(p->records, want * sizeof *records);
    if (records == NULL)
        return false;
    p->records = records;
    p->capacity = want;
    return true;
}

/* Makes the move from the current step to move (an entry of the list best
 * first; with twin k > 0, the game's k-th other move at the board into its
 * class), named name, for the player at the current step, whose value
 * there is outcome, remoteness.  False when memory ran out. */
static bool make_move(play_state *p, const loopy_game_move *move,
                      uint32_t twin, const char *name, loopy_outcome outcome,
                      uint32_t remoteness)
{
    play_step *now, *next;
    play_record *record;
    char label[256];

    if (!grow(p)) {
        cli_error("game", "play: out of memory");
        return false;
    }
    now = &p->steps[p->moves];
    next = &p->steps[p->moves + 1];
    record = &p->records[p->moves];
    record->by_person = now->person_moves;
    snprintf(record->name, sizeof record->name, "%s", name);
    record->before = outcome;
    record->before_remoteness = remoteness;
    game_move_value(move, &record->after, &record->after_remoteness);
    next->pos = move->to;
    next->person_moves = !now->person_moves;
    /* The board after a twin; after the class's own move (or a twin the
     * game no longer names), the class's. */
    if (twin == 0 ||
        loopy_game_move_twin(p->game, now->shown, move->to, twin, label,
                             sizeof label, NULL, 0, next->shown,
                             sizeof next->shown) == 0) {
        if (p->game->move_format != NULL)
            loopy_game_move_name(p->game, now->shown, move->to, label,
                                 sizeof label, next->shown,
                                 sizeof next->shown);
        else
            loopy_game_format(p->game, move->to, next->shown,
                              sizeof next->shown);
    }
    p->moves++;
    return true;
}

/* One turn of the person at the current step; returns 1 after a move, 0
 * to stop, 2 after an undo, else minus an exit status. */
static int person_turn(play_state *p, loopy_outcome outcome,
                       uint32_t remoteness, const loopy_game_move *moves,
                       size_t count)
{
    const char *shown = p->steps[p->moves].shown;
    const play_option *choice = NULL;
    play_option *options;
    size_t n = 0;
    int answer;

    options = make_options(p, shown, moves, count, &n);
    if (options == NULL) {
        cli_error("game", "play: out of memory");
        return -EXIT_RESOURCE;
    }
    printf("\nPosition %s: ", shown);
    print_value(p, outcome, remoteness);
    printf(" (");
    print_meaning(outcome, remoteness);
    printf(")\n");
    if (outcome == LOOPY_DRAW && !p->draw_noted) {
        p->draw_noted = true;
        printf("Neither side can force a result from a draw: play on as long "
               "as you like, or q to stop.\n");
    }
    print_options(options, n);
    for (;;) {
        answer = ask(p, shown, options, n, moves, count, &choice);
        if (answer != ANSWER_UNDO)
            break;
        /* Back to the person's previous turn: their move and loopy's
         * answer, or their move alone when the game ended on it. */
        {
            size_t back = p->moves;
            while (back > 0 && !p->records[back - 1].by_person)
                back--;
            if (back == 0) {
                printf("Nothing to undo: you have made no move yet.\n");
                continue;
            }
            printf("You take back %s", p->records[back - 1].name);
            if (back < p->moves)
                printf(" and loopy's %s", p->records[back].name);
            printf(".\n");
            p->moves = back - 1;
            free(options);
            return flushed() ? 2 : -EXIT_IO;
        }
    }
    if (answer == ANSWER_FAILED || answer == ANSWER_STOP) {
        free(options);
        return answer == ANSWER_FAILED ? -EXIT_IO : 0;
    }
    printf("You play %s\n", choice->name);
    if (!make_move(p, &moves[choice->index], choice->twin, choice->name,
                   outcome, remoteness)) {
        free(options);
        return -EXIT_RESOURCE;
    }
    free(options);
    return 1;
}

/* The board of the current step, for a game that draws one. */
static void print_board(const play_state *p)
{
    /* A chessboard in Unicode takes 300 bytes, the widest m,n,k board
     * (1 x 40) as many. */
    char board[1024];

    if (loopy_game_draw(p->game, p->steps[p->moves].shown, p->draw_flags,
                        board, sizeof board) > 0)
        printf("\n%s", board);
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

/* The game's moves: numbered in pairs as PGN's movetext is ("1. e4 e5"),
 * from black's move when black began ("1... Kc4"), from move number
 * first. */
static void print_movetext(const play_state *p, bool black_first,
                           size_t first, const char *result)
{
    size_t column = 0;

    for (size_t i = 0; i < p->moves; i++) {
        char item[96];
        size_t ply = i + (black_first ? 1 : 0);
        int len;
        if (ply % 2 == 0)
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

/* The summary at the end: the moves (PGN for chess), the moves that
 * changed the value for their player, and who blundered.  over: the game
 * is over, outcome for the player to move at its last position. */
static void print_summary(const play_state *p, bool over,
                          loopy_outcome outcome)
{
    const play_step *first = &p->steps[0];
    bool chess = strcmp(p->game->name, "chess") == 0;
    size_t blunders[2] = {0, 0};
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
        size_t number;
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
        print_movetext(p, side == 'b', number, result);
    } else {
        printf("The game, %zu move%s: ", p->moves, p->moves == 1 ? "" : "s");
        print_movetext(p, false, 1, NULL);
    }
    for (size_t i = 0; i < p->moves; i++) {
        const play_record *r = &p->records[i];
        if (r->before == r->after)
            continue;
        changed = true;
        printf("Move %zu, %s %s: %c", i + 1,
               r->by_person ? "yours," : "loopy's,", r->name,
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

static int play_game(play_state *p)
{
    for (;;) {
        play_step *now = &p->steps[p->moves];
        loopy_outcome outcome;
        uint32_t remoteness;
        loopy_game_move *moves = NULL;
        size_t count = 0;
        int rc;

        rc = game_lookup(p->a, p->game, p->s, p->db, now->pos, now->shown,
                         &outcome, &remoteness, &moves, &count);
        if (rc != EXIT_OK)
            return rc;
        if (count == 0) {
            free(moves);
            print_board(p);
            printf("\n");
            print_result(now->shown, outcome, now->person_moves);
            print_summary(p, true, outcome);
            return flushed() ? EXIT_OK : EXIT_IO;
        }
        if (now->person_moves) {
            print_board(p);
            rc = person_turn(p, outcome, remoteness, moves, count);
            free(moves);
            if (rc == 0) {
                print_summary(p, false, outcome);
                return flushed() ? EXIT_OK : EXIT_IO;
            }
            if (rc < 0)
                return -rc;
        } else {
            loopy_outcome o;
            uint32_t r;
            char name[64];
            uint32_t number;

            /* The first of the list is the best, ties broken by the
             * smallest position: the same game every time. */
            game_move_value(&moves[0], &o, &r);
            if (p->game->move_format != NULL)
                loopy_game_move_name(p->game, now->shown, moves[0].to, name,
                                     sizeof name, NULL, 0);
            else
                loopy_game_move_label(p->game, now->shown, moves[0].to,
                                      &number, name, sizeof name);
            printf("\nloopy plays %s (", name);
            print_value(p, o, r);
            printf(" for loopy).\n");
            if (!make_move(p, &moves[0], 0, name, outcome, remoteness)) {
                free(moves);
                return EXIT_RESOURCE;
            }
            free(moves);
            if (!flushed())
                return EXIT_IO;
        }
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

    memset(&p, 0, sizeof p);
    if (a->json || a->dot) {
        cli_error("game", "play: -f %s is not available: the game is a "
                  "conversation", a->json ? "json" : "dot");
        return EXIT_USAGE;
    }
    if (a->position_count > 1) {
        cli_error("game", "play takes one POSITION, found '%s' after it",
                  a->positions[1]);
        return EXIT_USAGE;
    }
    /* A database answers instead of a solve. */
    rc = a->db_path != NULL ? game_open_database(a, &db, &game)
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
    p.a = a;
    p.game = game;
    p.s = s;
    p.db = db;
    p.echo = !isatty(STDIN_FILENO);
    p.misere = db != NULL ? loopy_db_misere(db) != 0 : a->solve.misere != 0;
    p.draw_flags = locale_is_utf8() ? LOOPY_DRAW_UNICODE : 0;
    if (!grow(&p)) {
        cli_error("game", "play: out of memory");
        rc = EXIT_RESOURCE;
        goto done;
    }
    p.steps[0].pos = start;
    p.steps[0].person_moves = !a->second;
    /* The position as given (a game that names its moves keeps it so). */
    if (a->position_count == 1 && game->move_format != NULL)
        snprintf(p.steps[0].shown, sizeof p.steps[0].shown, "%s",
                 a->positions[0]);
    else
        loopy_game_format(game, start, p.steps[0].shown,
                          sizeof p.steps[0].shown);
    printf("%s%s%s%s: you play %s, loopy plays %s.  ? for help.\n", game->name,
           game->params[0] ? ":" : "", game->params,
           p.misere ? " (misere)" : "", a->second ? "second" : "first",
           a->second ? "first" : "second");
    rc = play_game(&p);
done:
    free(p.line);
    free(p.steps);
    free(p.records);
    loopy_game_solution_free(s);
    loopy_game_close(game);
    loopy_db_close(db);
    return rc;
}
