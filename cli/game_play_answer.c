/* game_play_answer.c - "loopy game play": the moves of a position as
 * the person sees them (numbered, named, with the twins of a move that
 * leads to the same class), and the reading of an answer: a number, a
 * move in the game's notation, the position after it, or a word (hint,
 * best, moves, undo, ?, q). */
#include "game_play.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

play_option *play_make_options(const play_state *p, const char *shown,
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

void play_print_options(const play_option *options, size_t count)
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
            play_print_value(p, value, remoteness);
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

int play_ask(play_state *p, const char *shown, const play_option *options,
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
        if (!play_flushed())
            return ANSWER_FAILED;
        errno = 0;
        got = getline(&p->line, &p->line_cap, stdin);
        if (got < 0 && errno == ENOMEM) {
            cli_error("game", "<stdin>: out of memory for the line");
            return ANSWER_FAILED;
        }
        if (got < 0) {
            printf("\nEnd of input: the game is left unfinished.\n");
            return play_flushed() ? ANSWER_STOP : ANSWER_FAILED;
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
            return play_flushed() ? ANSWER_STOP : ANSWER_FAILED;
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
            play_print_value(p, value, remoteness);
            printf(": ");
            play_print_meaning(value, remoteness);
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
