/*
 * check_internal.h - what the parts of loopy_game_check share (check.c:
 * the scopes and the checks of moves, unmoves, symmetry and tiers;
 * check_words.c: the checks of the notation, positions' and moves').
 */
#ifndef LOOPY_RULES_CHECK_INTERNAL_H
#define LOOPY_RULES_CHECK_INTERNAL_H

#include "rules_internal.h"

/* Never a position (positions are below size <= UINT64_MAX): marks the
 * slot just past the room a callback is given, to catch writes there. */
#define SENTINEL UINT64_MAX

/* A growing list of positions. */
typedef struct plist {
    loopy_position *items;
    size_t count, capacity;
} plist;

/* The positions already examined: open addressing, linear probing, a slot
 * holds pos + 1 (0: empty), at most half full. */
typedef struct pos_set {
    uint64_t *slot;
    size_t capacity, count; /* capacity: a power of 2, or 0 */
} pos_set;

typedef struct checker {
    const loopy_game *game;
    bool symmetric;
    loopy_game_check_report *report;
    bool out_of_memory;
    char oom_what[128]; /* the callback whose request failed, or "" */
    /* moves: the examined position's moves (raw), which the scopes follow;
     * unmoves: its unmoves; again: the protocol's second call; near: a
     * neighbour's list; set_a, set_b: classes being compared. */
    plist moves, unmoves, again, near, set_a, set_b;
    char *text;
    size_t text_capacity;
    pos_set seen;
    uint64_t rng;
    uint64_t *kids; /* tier_children() of the tier at hand: tier_count */
} checker;

/* Room for n positions in l; false (and c->out_of_memory) when memory
 * runs out. */
bool loopy_i_check_reserve(checker *c, plist *l, size_t n);

/* "17 (x..o)", or "17" for a game without notation. */
const char *loopy_i_check_describe(const loopy_game *game, loopy_position pos,
                                   char *out, size_t capacity);

/* Records the flaw kind at pos (other: the second position, or NULL) with
 * the message "position POS: ..."; returns false, for the callers to pass
 * on. */
bool loopy_i_check_flaw(checker *c, loopy_game_flaw kind, loopy_position pos,
                        const loopy_position *other, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* format()'s protocol and parse(format(pos)) == pos. */
bool loopy_i_check_notation(checker *c, loopy_position pos);

/* The words of pos's moves (c->moves), for a game that has them: each
 * move's label and name, and each twin's, read back as that move; no
 * number given to two moves. */
bool loopy_i_check_move_words(checker *c, loopy_position pos);

#endif
