/*
 * game_text.c - the words a game writes (format(), move_format(),
 * value_note(), move_label(), draw()), taken through one guard: whatever the callback wrote or
 * said of its length, what leaves here ends with a NUL inside its buffer
 * and is valid UTF-8 without control characters, so that a game's text can
 * neither make its reader run past a buffer nor drive a terminal.
 */
#include "rules_internal.h"

#include <string.h>

size_t loopy_text_char(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    uint32_t code;
    size_t len;

    if (s[0] < 0x80) /* ASCII: C0 controls and DEL are not shown */
        return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        len = 2;
        code = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        len = 3;
        code = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        len = 4;
        code = s[0] & 0x07u;
    } else {
        return 0; /* a continuation byte, or a lead byte of no sequence */
    }
    /* Each continuation is 10xxxxxx; a NUL stops the loop there. */
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0u) != 0x80)
            return 0;
        code = code << 6 | (s[i] & 0x3fu);
    }
    /* Overlong forms, UTF-16 surrogates, past U+10FFFF, and the C1
     * controls (U+0080..U+009F, which terminals obey as ESC sequences). */
    if ((len == 3 && code < 0x800) || (len == 4 && code < 0x10000) ||
        (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff ||
        code < 0xa0)
        return 0;
    return len;
}

/* loopy_i_text_clean, keeping '\n' when lines. */
static size_t text_clean(char *text, size_t capacity, bool lines)
{
    size_t in = 0, out = 0;

    if (capacity == 0)
        return 0;
    /* The callback may have filled the buffer without a NUL, or said a
     * length past it: the buffer's own end is the bound. */
    text[capacity - 1] = '\0';
    while (text[in] != '\0') {
        size_t len = lines && text[in] == '\n' ? 1 : loopy_text_char(text + in);
        if (len == 0) {
            text[out++] = '?';
            in++;
            continue;
        }
        memmove(text + out, text + in, len);
        out += len;
        in += len;
    }
    text[out] = '\0';
    return out;
}

size_t loopy_i_text_clean(char *text, size_t capacity)
{
    return text_clean(text, capacity, false);
}

const char *loopy_game_format(const loopy_game *game, loopy_position pos,
                              char *out, size_t capacity)
{
    if (capacity == 0)
        return out;
    /* A callback that writes nothing leaves an empty text, never what the
     * buffer held before. */
    out[0] = '\0';
    if (game->format == NULL ||
        game->format(game->ctx, pos, out, capacity) == LOOPY_GAME_ERROR ||
        loopy_i_text_clean(out, capacity) == 0)
        snprintf(out, capacity, "%" LOOPY_PRI_POSITION, pos);
    return out;
}

const char *loopy_game_move_name(const loopy_game *game, const char *from,
                                 loopy_position to, char *name,
                                 size_t name_capacity, char *after,
                                 size_t after_capacity)
{
    size_t len = LOOPY_GAME_ERROR;

    if (after != NULL && after_capacity == 0)
        after = NULL;
    if (name_capacity == 0)
        return name;
    if (game->move_format != NULL && from != NULL) {
        /* Empty texts, should the game write less than it says. */
        name[0] = '\0';
        if (after != NULL)
            after[0] = '\0';
        len = game->move_format(game->ctx, from, to, name, name_capacity,
                                after, after != NULL ? after_capacity : 0);
    }
    if (len == LOOPY_GAME_ERROR || len == 0 ||
        loopy_i_text_clean(name, name_capacity) == 0) {
        /* No name (or a failed one): the position the move leads to. */
        loopy_game_format(game, to, name, name_capacity);
        if (after != NULL)
            loopy_game_format(game, to, after, after_capacity);
    } else if (after != NULL && loopy_i_text_clean(after, after_capacity) == 0) {
        loopy_game_format(game, to, after, after_capacity);
    }
    return name;
}

size_t loopy_game_move_twin(const loopy_game *game, const char *from,
                            loopy_position to, uint32_t k, char *name,
                            size_t name_capacity, char *label,
                            size_t label_capacity, char *after,
                            size_t after_capacity)
{
    size_t len;

    if (label != NULL && label_capacity == 0)
        label = NULL;
    if (after != NULL && after_capacity == 0)
        after = NULL;
    /* Empty texts, should the game write less than it says. */
    if (label != NULL)
        label[0] = '\0';
    if (after != NULL)
        after[0] = '\0';
    if (name_capacity == 0)
        return 0;
    name[0] = '\0';
    if (game->move_twin == NULL || from == NULL || k == 0 ||
        k > LOOPY_GAME_TWINS_MAX)
        return 0;
    len = game->move_twin(game->ctx, from, to, k, name, name_capacity, label,
                          label != NULL ? label_capacity : 0, after,
                          after != NULL ? after_capacity : 0);
    if (len == LOOPY_GAME_ERROR || len == 0 ||
        loopy_i_text_clean(name, name_capacity) == 0) {
        name[0] = '\0';
        if (label != NULL)
            label[0] = '\0';
        if (after != NULL)
            after[0] = '\0';
        return 0;
    }
    /* A twin without a label is known by its name; one without the board
     * after it, by the class's position. */
    if (label != NULL && text_clean(label, label_capacity, false) == 0)
        snprintf(label, label_capacity, "%s", name);
    if (after != NULL && loopy_i_text_clean(after, after_capacity) == 0)
        loopy_game_format(game, to, after, after_capacity);
    return strlen(name);
}

size_t loopy_game_value_note(const loopy_game *game, loopy_outcome outcome,
                             uint32_t remoteness, char *out, size_t capacity)
{
    size_t len;

    if (capacity == 0)
        return 0;
    out[0] = '\0';
    if (game->value_note == NULL)
        return 0;
    len = game->value_note(game->ctx, outcome, remoteness, out, capacity);
    if (len == 0 || len == LOOPY_GAME_ERROR) {
        out[0] = '\0';
        return 0;
    }
    return loopy_i_text_clean(out, capacity);
}

const char *loopy_game_move_label(const loopy_game *game, const char *from,
                                  loopy_position to, uint32_t *number,
                                  char *label, size_t capacity)
{
    uint32_t got = 0;
    size_t len = LOOPY_GAME_ERROR;

    if (number != NULL)
        *number = 0;
    if (capacity == 0)
        return label;
    if (game->move_label != NULL && from != NULL) {
        label[0] = '\0';
        len = game->move_label(game->ctx, from, to, &got, label, capacity);
    }
    if (len == LOOPY_GAME_ERROR || len == 0 ||
        text_clean(label, capacity, false) == 0)
        return loopy_game_move_name(game, from, to, label, capacity, NULL, 0);
    if (number != NULL)
        *number = got;
    return label;
}

/* Whether name is text, a '+' or '#' at name's end optional in text (the
 * check a SAN move shows need not be typed). */
static bool same_move_name(const char *name, const char *text)
{
    size_t n = strlen(name), t = strlen(text);

    while (n > 0 && (name[n - 1] == '+' || name[n - 1] == '#'))
        n--;
    while (t > 0 && (text[t - 1] == '+' || text[t - 1] == '#'))
        t--;
    return n > 0 && n == t && strncmp(name, text, n) == 0;
}

loopy_status loopy_game_move_parse(const loopy_game *game, const char *from,
                                   const char *text, loopy_position *to,
                                   loopy_diag *diag)
{
    loopy_position_buffer buf = {NULL, 0, false};
    loopy_position pos;
    loopy_status status;
    char why[256], name[256];
    size_t count;

    if (game == NULL || from == NULL || text == NULL || to == NULL)
        return LOOPY_EINVAL;
    why[0] = '\0';
    if (game->move_parse != NULL &&
        game->move_parse(game->ctx, from, text, to, why, sizeof why) == 0) {
        if (*to < game->size)
            return LOOPY_OK;
        snprintf(why, sizeof why, "move_parse() gave position %"
                 LOOPY_PRI_POSITION ", outside the index space", *to);
    }
    text_clean(why, sizeof why, false);
    /* The moves of from, each by its name and its label. */
    status = loopy_game_parse(game, from, &pos, diag);
    if (status != LOOPY_OK)
        return LOOPY_EINVAL;
    if (game->primitive(game->ctx, pos) != LOOPY_PLAYING) {
        loopy_i_diag(diag, 0, 0, "no move %s: the game is over", text);
        return LOOPY_EPARSE;
    }
    count = loopy_i_game_list(game, pos, false, &buf);
    if (count == LOOPY_GAME_ERROR) {
        status = buf.out_of_memory ? LOOPY_ENOMEM : LOOPY_EGAME;
        loopy_i_diag(diag, 0, 0, "%s", buf.out_of_memory
                                           ? "out of memory"
                                           : "moves() failed at this position");
        loopy_i_position_buffer_release(&buf);
        return status;
    }
    for (size_t i = 0; i < count; i++) {
        bool found =
            same_move_name(loopy_game_move_name(game, from, buf.items[i], name,
                                                sizeof name, NULL, 0),
                           text) ||
            (game->move_label != NULL &&
             strcmp(loopy_game_move_label(game, from, buf.items[i], NULL, name,
                                          sizeof name),
                    text) == 0);
        /* The other moves at the board into the same class (move_twin()),
         * by name and label too. */
        for (uint32_t k = 1; !found; k++) {
            char label[256];
            if (loopy_game_move_twin(game, from, buf.items[i], k, name,
                                     sizeof name, label, sizeof label, NULL,
                                     0) == 0)
                break;
            found = same_move_name(name, text) || strcmp(label, text) == 0;
        }
        if (found) {
            *to = buf.items[i];
            loopy_i_position_buffer_release(&buf);
            return LOOPY_OK;
        }
    }
    loopy_i_position_buffer_release(&buf);
    if (why[0] != '\0')
        loopy_i_diag(diag, 0, 0, "%s", why);
    else
        loopy_i_diag(diag, 0, 0, "no move %s here", text);
    return LOOPY_EPARSE;
}

size_t loopy_game_draw(const loopy_game *game, const char *from,
                       unsigned flags, char *out, size_t capacity)
{
    size_t len;

    if (capacity == 0)
        return 0;
    out[0] = '\0';
    if (game->draw == NULL || from == NULL)
        return 0;
    len = game->draw(game->ctx, from, flags, out, capacity);
    if (len == 0 || len == LOOPY_GAME_ERROR) {
        out[0] = '\0';
        return 0;
    }
    return text_clean(out, capacity, true);
}

loopy_status loopy_game_params_of(const char *name, const char *position,
                                  char *params, size_t capacity,
                                  loopy_diag *diag)
{
    const loopy_game_def *def = NULL;
    char why[256];

    if (name == NULL || position == NULL || params == NULL || capacity == 0)
        return LOOPY_EINVAL;
    for (size_t i = 0; i < loopy_game_builtin_count(); i++)
        if (strcmp(loopy_game_builtin(i)->name, name) == 0)
            def = loopy_game_builtin(i);
    if (def == NULL || def->version < 3 || def->params_of == NULL) {
        loopy_i_diag(diag, 0, 0, "%s: %s", name,
                     def == NULL ? "not a built-in game"
                                 : "the game does not read its parameters "
                                   "from a position");
        return LOOPY_EINVAL;
    }
    why[0] = '\0';
    params[0] = '\0';
    if (def->params_of(position, params, capacity, why, sizeof why) != 0) {
        params[0] = '\0';
        text_clean(why, sizeof why, false);
        loopy_i_diag(diag, 0, 0, "'%s' is not a position of %s: %s", position,
                     name, why[0] ? why : "no parameters found");
        /* The position as given, printed on a terminal. */
        if (diag != NULL)
            text_clean(diag->message, sizeof diag->message, false);
        return LOOPY_EPARSE;
    }
    params[capacity - 1] = '\0';
    return LOOPY_OK;
}
