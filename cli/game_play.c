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
#include "game_play.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

bool play_flushed(void)
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

void play_print_value(const play_state *p, loopy_outcome outcome,
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

void play_print_meaning(loopy_outcome outcome, uint32_t remoteness)
{
    static const char *const words[] = {"a draw: play can go on forever",
                                        "you win", "you lose", "a tie"};

    printf("%s", words[outcome]);
    if (outcome != LOOPY_DRAW)
        printf(" in %" PRIu32 " move%s with best play", remoteness,
               remoteness == 1 ? "" : "s");
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

    options = play_make_options(p, shown, moves, count, &n);
    if (options == NULL) {
        cli_error("game", "play: out of memory");
        return -EXIT_RESOURCE;
    }
    printf("\nPosition %s: ", shown);
    play_print_value(p, outcome, remoteness);
    printf(" (");
    play_print_meaning(outcome, remoteness);
    printf(")\n");
    if (outcome == LOOPY_DRAW && !p->draw_noted) {
        p->draw_noted = true;
        printf("Neither side can force a result from a draw: play on as long "
               "as you like, or q to stop.\n");
    }
    play_print_options(options, n);
    for (;;) {
        answer = play_ask(p, shown, options, n, moves, count, &choice);
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
            return play_flushed() ? 2 : -EXIT_IO;
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
            play_print_summary(p, true, outcome);
            return play_flushed() ? EXIT_OK : EXIT_IO;
        }
        if (now->person_moves) {
            print_board(p);
            rc = person_turn(p, outcome, remoteness, moves, count);
            free(moves);
            if (rc == 0) {
                play_print_summary(p, false, outcome);
                return play_flushed() ? EXIT_OK : EXIT_IO;
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
            play_print_value(p, o, r);
            printf(" for loopy).\n");
            if (!make_move(p, &moves[0], 0, name, outcome, remoteness)) {
                free(moves);
                return EXIT_RESOURCE;
            }
            free(moves);
            if (!play_flushed())
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
