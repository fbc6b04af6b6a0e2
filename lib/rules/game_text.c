/*
 * game_text.c - the words a game writes (format(), move_format(),
 * value_note()), taken through one guard: whatever the callback wrote or
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

size_t loopy_i_text_clean(char *text, size_t capacity)
{
    size_t in = 0, out = 0;

    if (capacity == 0)
        return 0;
    /* The callback may have filled the buffer without a NUL, or said a
     * length past it: the buffer's own end is the bound. */
    text[capacity - 1] = '\0';
    while (text[in] != '\0') {
        size_t len = loopy_text_char(text + in);
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
