/*
 * check.c - checking a game's rules before a long solve: on each position
 * examined, moves and unmoves agree, the count protocol holds, canonical()
 * is idempotent and maps symmetric positions alike, and the notation reads
 * back what it writes (loopy_game_check, `loopy game check`; the notation
 * in check_words.c).
 *
 * Serial on purpose: the first flaw must be the first in a fixed order, so
 * that a run names the same position every time, and a check is quick next
 * to the solve it protects.  The positions come from one of four scopes
 * (every index, breadth first from the start, indices drawn at random,
 * random games); all but the first remember what they examined in a hash
 * set, so each position is examined once.
 */
#include "check_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_LIMIT 100000
/* SAMPLE draws, and WALKS steps, at most this many times the limit. */
#define TRIES_PER_POSITION 64

static const char *const flaw_names[] = {
#define FLAW_NAME_(name, word) word,
    LOOPY_GAME_FLAW_MAP(FLAW_NAME_)
#undef FLAW_NAME_
};

const char *loopy_game_flaw_name(loopy_game_flaw flaw)
{
    return (unsigned)flaw < sizeof flaw_names / sizeof flaw_names[0]
               ? flaw_names[flaw]
               : "unknown";
}

/* ---- Small pieces ---- */

bool loopy_i_check_reserve(checker *c, plist *l, size_t n)
{
    loopy_position *grown;

    if (n <= l->capacity)
        return true;
    if (n < 2 * l->capacity)
        n = 2 * l->capacity;
    grown = loopy_i_realloc(l->items, n, sizeof *grown);
    if (grown == NULL) {
        c->out_of_memory = true;
        return false;
    }
    l->items = grown;
    l->capacity = n;
    return true;
}

/* splitmix64: the seeded positions of SAMPLE and WALKS. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform below n >= 1: draws below 2^64 mod n are rejected so that every
 * remainder is equally likely. */
static uint64_t random_below(uint64_t *state, uint64_t n)
{
    uint64_t threshold = (0 - n) % n, r;

    do
        r = next_random(state);
    while (r < threshold);
    return r % n;
}

static size_t set_home(const pos_set *s, uint64_t key)
{
    key ^= key >> 33;
    key *= UINT64_C(0xff51afd7ed558ccd);
    key ^= key >> 33;
    return (size_t)key & (s->capacity - 1);
}

static bool set_has(const pos_set *s, loopy_position pos)
{
    if (s->capacity == 0)
        return false;
    for (size_t i = set_home(s, pos + 1);; i = (i + 1) & (s->capacity - 1)) {
        if (s->slot[i] == pos + 1)
            return true;
        if (s->slot[i] == 0)
            return false;
    }
}

/* Adds pos (not yet there); false when memory ran out. */
static bool set_add(checker *c, pos_set *s, loopy_position pos)
{
    size_t i;

    if (2 * (s->count + 1) > s->capacity) {
        size_t capacity = s->capacity ? 2 * s->capacity : 1024;
        pos_set grown = {loopy_i_calloc(capacity, sizeof(uint64_t)), capacity,
                         s->count};
        if (grown.slot == NULL) {
            c->out_of_memory = true;
            return false;
        }
        for (size_t j = 0; j < s->capacity; j++) {
            if (s->slot[j] == 0)
                continue;
            for (i = set_home(&grown, s->slot[j]); grown.slot[i] != 0;
                 i = (i + 1) & (capacity - 1))
                ;
            grown.slot[i] = s->slot[j];
        }
        loopy_i_free(s->slot);
        *s = grown;
    }
    for (i = set_home(s, pos + 1); s->slot[i] != 0;
         i = (i + 1) & (s->capacity - 1))
        ;
    s->slot[i] = pos + 1;
    s->count++;
    return true;
}

const char *loopy_i_check_describe(const loopy_game *game, loopy_position pos,
                                   char *out, size_t capacity)
{
    int len = snprintf(out, capacity, "%" LOOPY_PRI_POSITION, pos);

    if (game->format != NULL && len > 0 && (size_t)len + 4 < capacity) {
        char text[160];
        snprintf(out + len, capacity - (size_t)len, " (%s)",
                 loopy_game_format(game, pos, text, sizeof text));
    }
    return out;
}

bool loopy_i_check_flaw(checker *c, loopy_game_flaw kind, loopy_position pos,
                        const loopy_position *other, const char *fmt, ...)
{
    loopy_game_check_report *r = c->report;
    char name[200];
    int len;
    va_list ap;

    r->flaw = kind;
    r->position = pos;
    r->has_other = other != NULL;
    r->other = other != NULL ? *other : 0;
    len = snprintf(r->message, sizeof r->message, "position %s: ",
                   loopy_i_check_describe(c->game, pos, name, sizeof name));
    if (len > 0 && (size_t)len < sizeof r->message) {
        va_start(ap, fmt);
        vsnprintf(r->message + len, sizeof r->message - (size_t)len, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* The class of pos: its representative, or pos without symmetry. */
static loopy_position class_of(const checker *c, loopy_position pos)
{
    return c->symmetric ? c->game->canonical(c->game->ctx, pos) : pos;
}

/* ---- Lists, with the count protocol checked ---- */

/* The moves (backward: unmoves) of pos into out.  strict: the protocol in
 * full (room for 0, for the count, for one more; the same list each time),
 * for a position being examined; otherwise, as the solvers call, with the
 * room out has, and again with room for all when that was too little.
 * Checks every position given is below size. */
typedef size_t (*list_fn)(void *, loopy_position, loopy_position *, size_t);

static bool fetch_with(checker *c, loopy_position pos, list_fn list,
                       const char *what, plist *out, bool strict);

static bool fetch(checker *c, loopy_position pos, bool backward, plist *out,
                  bool strict)
{
    const loopy_game *game = c->game;

    return fetch_with(c, pos, backward ? game->unmoves : game->moves,
                      backward ? "unmoves()" : "moves()", out, strict);
}

/* fetch() with the callback list, named what in messages. */
static bool fetch_with(checker *c, loopy_position pos, list_fn list,
                       const char *what, plist *out, bool strict)
{
    const loopy_game *game = c->game;
    size_t room = strict ? 0 : out->capacity > 0 ? out->capacity - 1 : 0;
    size_t count, again;

    if (!loopy_i_check_reserve(c, out, room + 1))
        return false;
    out->items[room] = SENTINEL;
    count = list(game->ctx, pos, out->items, room);
    if (count == LOOPY_GAME_ERROR)
        return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, pos, NULL,
                                  "%s failed", what);
    if (out->items[room] != SENTINEL)
        return loopy_i_check_flaw(c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                                  "%s writes past the "
                                  "room for %zu positions it was given",
                                  what, room);
    /* An absurd count is the game's fault, as the solvers say too. */
    if (count > LOOPY_I_MAX_MOVES)
        return loopy_i_check_flaw(
            c, LOOPY_FLAW_PROTOCOL, pos, NULL,
            "%s asks for room for %zu positions, more than %zu", what, count,
            (size_t)LOOPY_I_MAX_MOVES);
    if (count > room || strict) {
        /* Room for all of them, and a sentinel after. */
        /* (count < SIZE_MAX: that is LOOPY_GAME_ERROR) */
        if (!loopy_i_check_reserve(c, out, count + 1)) {
            snprintf(c->oom_what, sizeof c->oom_what, ": %s of position %"
                     LOOPY_PRI_POSITION " asks for room for %zu positions",
                     what, pos, count);
            return false;
        }
        out->items[count] = SENTINEL;
        again = list(game->ctx, pos, out->items, count);
        if (again == LOOPY_GAME_ERROR)
            return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, pos, NULL,
                                      "%s failed", what);
        if (again != count)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                "%s counts %zu "
                "positions with room for %zu, then %zu with room for "
                "%zu",
                what, count, room, again, count);
        if (out->items[count] != SENTINEL)
            return loopy_i_check_flaw(c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                                      "%s writes past the "
                                      "room for %zu positions it was given",
                                      what, count);
    }
    out->count = count;
    if (strict) {
        /* A bigger room than needed: the same list (in any order). */
        if (!loopy_i_check_reserve(c, &c->again, count + 2))
            return false;
        c->again.items[count + 1] = SENTINEL;
        again = list(game->ctx, pos, c->again.items, count + 1);
        if (again == LOOPY_GAME_ERROR)
            return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, pos, NULL,
                                      "%s failed", what);
        if (again != count)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                "%s counts %zu "
                "positions with room for %zu, then %zu with room for "
                "%zu",
                what, count, count, again, count + 1);
        if (c->again.items[count + 1] != SENTINEL)
            return loopy_i_check_flaw(c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                                      "%s writes past the "
                                      "room for %zu positions it was given",
                                      what, count + 1);
        qsort(out->items, count, sizeof *out->items, loopy_i_compare_position);
        qsort(c->again.items, count, sizeof *out->items,
              loopy_i_compare_position);
        if (count > 0 &&
            memcmp(out->items, c->again.items, count * sizeof *out->items) != 0)
            return loopy_i_check_flaw(c, LOOPY_FLAW_PROTOCOL, pos, NULL,
                                      "%s gives other "
                                      "positions when called again",
                                      what);
    }
    for (size_t i = 0; i < count; i++)
        if (out->items[i] >= game->size)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_RANGE, pos, NULL,
                "%s gives %" LOOPY_PRI_POSITION
                ", outside the index space 0 .. %" LOOPY_PRI_POSITION,
                what, out->items[i], game->size - 1);
    return true;
}

/* The distinct classes of in (found at pos) into out, sorted. */
static bool classes(checker *c, loopy_position pos, const plist *in, plist *out)
{
    if (!loopy_i_check_reserve(c, out, in->count + 1))
        return false;
    for (size_t i = 0; i < in->count; i++) {
        loopy_position r = class_of(c, in->items[i]);
        if (r >= c->game->size)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &in->items[i],
                "canonical() takes its neighbour %" LOOPY_PRI_POSITION
                " to %" LOOPY_PRI_POSITION ", outside the index space",
                in->items[i], r);
        out->items[i] = r;
    }
    out->count = loopy_i_sort_unique(out->items, in->count);
    return true;
}

static bool has_class(const plist *set, loopy_position r)
{
    return bsearch(&r, set->items, set->count, sizeof r,
                   loopy_i_compare_position) != NULL;
}

/* ---- The checks of one position ---- */

static const char *const over_word[4] = {"not over", "over (won)",
                                         "over (lost)", "over (tied)"};

/* The classes of the list (backward: unmoves) of pos and of its
 * representative r, which must be the same. */
static bool check_symmetry(checker *c, loopy_position pos, loopy_position r,
                           const plist *list, bool backward)
{
    const char *what = backward ? "unmoves()" : "moves()";
    char name[200], rep[200];

    if (!fetch(c, r, backward, &c->near, false) ||
        !classes(c, pos, list, &c->set_a) ||
        !classes(c, r, &c->near, &c->set_b))
        return false;
    for (int side = 0; side < 2; side++) {
        const plist *mine = side == 0 ? &c->set_a : &c->set_b;
        const plist *theirs = side == 0 ? &c->set_b : &c->set_a;
        for (size_t i = 0; i < mine->count; i++) {
            if (has_class(theirs, mine->items[i]))
                continue;
            loopy_i_check_describe(c->game, mine->items[i], name, sizeof name);
            loopy_i_check_describe(c->game, r, rep, sizeof rep);
            return side == 0
                       ? loopy_i_check_flaw(
                             c, LOOPY_FLAW_SYMMETRY, pos, &r,
                             "%s of it give "
                             "the class of %s, but %s of its representative "
                             "%s do not",
                             what, name, what, rep)
                       : loopy_i_check_flaw(
                             c, LOOPY_FLAW_SYMMETRY, pos, &r,
                             "%s of its "
                             "representative %s give the class of %s, but "
                             "%s of it do not",
                             what, rep, name, what);
        }
    }
    return true;
}

/* Whether q, a move of pos (backward: an unmove), leads back to pos's
 * class r: unmoves(q) (backward: moves(q)) give r; a flaw when not. */
static bool leads_back(checker *c, loopy_position pos, loopy_position r,
                       loopy_position q, bool backward)
{
    const char *near = c->symmetric ? "a position symmetric to " : "";
    char name[200], other[200];

    if (!fetch(c, q, !backward, &c->near, false) ||
        !classes(c, q, &c->near, &c->set_a))
        return false;
    if (has_class(&c->set_a, r))
        return true;
    loopy_i_check_describe(c->game, q, name, sizeof name);
    loopy_i_check_describe(c->game, pos, other, sizeof other);
    return backward
               ? loopy_i_check_flaw(c, LOOPY_FLAW_MOVES, pos, &q,
                                    "unmoves() gives %s but moves(%"
                                    LOOPY_PRI_POSITION ") does not reach %s%s",
                                    name, q, near, other)
               : loopy_i_check_flaw(c, LOOPY_FLAW_UNMOVES, pos, &q,
                                    "moves() reaches %s but unmoves(%"
                                    LOOPY_PRI_POSITION ") does not give %s%s",
                                    name, q, near, other);
}

/* Every move q of pos: legal; unmoves(q) gives pos's class back. */
static bool check_moves(checker *c, loopy_position pos, loopy_position r)
{
    const loopy_game *game = c->game;
    char name[200];

    if (!fetch(c, pos, false, &c->moves, true))
        return false;
    for (size_t i = 0; i < c->moves.count; i++) {
        loopy_position q = c->moves.items[i];
        if (game->legal != NULL && !game->legal(game->ctx, q))
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_ILLEGAL, pos, &q,
                "moves() reaches %s, "
                "which legal() refuses",
                loopy_i_check_describe(game, q, name, sizeof name));
        /* the list is sorted: a repeated move is checked once */
        if (game->unmoves == NULL || (i > 0 && c->moves.items[i - 1] == q))
            continue;
        if (!leads_back(c, pos, r, q, false))
            return false;
    }
    return true;
}

/* The tier of pos (game->tier_count > 1): the last whose start is at
 * most pos. */
static uint64_t tier_of(const loopy_game *game, loopy_position pos)
{
    uint64_t lo = 0, hi = game->tier_count;

    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (game->tier_start(game->ctx, mid) <= pos)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* With tiers: the representative of every move of pos (whose
 * representative is r) lies in a tier that tier_children() of r's tier
 * names. */
static bool check_tiers(checker *c, loopy_position pos, loopy_position r)
{
    const loopy_game *game = c->game;
    uint64_t tiers = game->tier_count > 1 ? game->tier_count : 1;
    uint64_t a = tiers > 1 ? tier_of(game, r) : 0;
    size_t count;
    char name[200];

    if (game->tier_children == NULL)
        return true;
    count = game->tier_children(game->ctx, a, c->kids, (size_t)tiers);
    if (count == LOOPY_GAME_ERROR || count > tiers)
        return loopy_i_check_flaw(c, LOOPY_FLAW_TIERS, pos, NULL,
                                  "tier_children() of its "
                                  "tier %" PRIu64 " %s",
                                  a,
                                  count == LOOPY_GAME_ERROR
                                      ? "failed"
                                      : "gives more tiers than there "
                                        "are");
    for (size_t i = 0; i < c->moves.count; i++) {
        loopy_position q = class_of(c, c->moves.items[i]);
        uint64_t b = tiers > 1 ? tier_of(game, q) : 0;
        size_t k = 0;
        while (k < count && c->kids[k] != b)
            k++;
        if (k == count)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_TIERS, pos, &q,
                "moves() reaches %s, "
                "of tier %" PRIu64 ", which tier_children() of its "
                "tier %" PRIu64 " does not name",
                loopy_i_check_describe(game, q, name, sizeof name), b, a);
    }
    return true;
}

/* With tiers: the tiers as a whole (their starts, children and order),
 * and room for a tier's children. */
static bool check_tier_plan(checker *c)
{
    const loopy_game *game = c->game;
    uint64_t bytes, tiers = game->tier_count > 1 ? game->tier_count : 1;
    loopy_diag diag;

    if (game->tier_children == NULL)
        return true;
    c->kids = loopy_i_malloc((size_t)tiers, sizeof *c->kids);
    if (c->kids == NULL) {
        c->out_of_memory = true;
        return false;
    }
    memset(&diag, 0, sizeof diag);
    switch (loopy_game_tier_working_set(game, &bytes, &diag)) {
    case LOOPY_OK:
        return true;
    case LOOPY_ENOMEM:
        c->out_of_memory = true;
        return false;
    default:
        return loopy_i_check_flaw(c, LOOPY_FLAW_TIERS, game->start, NULL, "%s",
                                  diag.message);
    }
}

/* The game's canonical_moves() (backward: canonical_unmoves()) of pos:
 * representatives, the same classes as those of the plain list. */
static bool check_given(checker *c, loopy_position pos, const plist *plain,
                        bool backward)
{
    const loopy_game *game = c->game;
    list_fn list = backward ? game->canonical_unmoves : game->canonical_moves;
    const char *what = backward ? "canonical_unmoves()" : "canonical_moves()";
    const char *base = backward ? "unmoves()" : "moves()";
    char name[200];

    if (list == NULL || !c->symmetric)
        return true;
    if (!fetch_with(c, pos, list, what, &c->near, true) ||
        !classes(c, pos, plain, &c->set_a))
        return false;
    for (size_t i = 0; i < c->near.count; i++) {
        loopy_position q = c->near.items[i];
        if (class_of(c, q) != q)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &q,
                "%s gives %s, which is not its own canonical()", what,
                loopy_i_check_describe(game, q, name, sizeof name));
        if (!has_class(&c->set_a, q))
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &q,
                "%s gives %s, which is not canonical() of any of "
                "%s",
                what, loopy_i_check_describe(game, q, name, sizeof name), base);
    }
    c->near.count = loopy_i_sort_unique(c->near.items, c->near.count);
    for (size_t i = 0; i < c->set_a.count; i++)
        if (!has_class(&c->near, c->set_a.items[i]))
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &c->set_a.items[i],
                "%s reaches the class of %s, which %s does not give", base,
                loopy_i_check_describe(game, c->set_a.items[i], name,
                                       sizeof name),
                what);
    return true;
}

/* Every unmove p of pos that legal() accepts: not over; moves(p) reaches
 * pos's class. */
static bool check_unmoves(checker *c, loopy_position pos, loopy_position r)
{
    const loopy_game *game = c->game;
    char name[200];

    if (!fetch(c, pos, true, &c->unmoves, true))
        return false;
    for (size_t i = 0; i < c->unmoves.count; i++) {
        loopy_position p = c->unmoves.items[i];
        loopy_primitive over;
        if (i > 0 && c->unmoves.items[i - 1] == p)
            continue;
        /* unmoves() may give positions that do not arise in play: the
         * solver skips them, and so does the check. */
        if (game->legal != NULL && !game->legal(game->ctx, p))
            continue;
        over = game->primitive(game->ctx, p);
        if ((unsigned)over > LOOPY_OVER_TIE)
            return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, p, NULL,
                                      "primitive() gives "
                                      "%d, not a loopy_primitive",
                                      (int)over);
        if (over != LOOPY_PLAYING)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_ILLEGAL, pos, &p,
                "unmoves() gives %s, "
                "where the game is %s: no move is made from there",
                loopy_i_check_describe(game, p, name, sizeof name),
                (unsigned)over < 4 ? over_word[over] : "over");
        if (!leads_back(c, pos, r, p, true))
            return false;
    }
    return true;
}

/* Examines pos, legal and below size; afterwards c->moves holds its moves
 * (none when it is over). */
static bool examine(checker *c, loopy_position pos)
{
    const loopy_game *game = c->game;
    loopy_primitive over = game->primitive(game->ctx, pos);
    loopy_position r = pos;
    char name[200];

    c->report->checked++;
    c->moves.count = 0;
    if ((unsigned)over > LOOPY_OVER_TIE)
        return loopy_i_check_flaw(c, LOOPY_FLAW_CALLBACK, pos, NULL,
                                  "primitive() gives %d, "
                                  "not a loopy_primitive",
                                  (int)over);
    if (c->symmetric) {
        loopy_position rr;
        r = game->canonical(game->ctx, pos);
        if (r >= game->size)
            return loopy_i_check_flaw(c, LOOPY_FLAW_CANONICAL, pos, NULL,
                                      "canonical() gives %" LOOPY_PRI_POSITION
                                      ", outside the index space",
                                      r);
        rr = game->canonical(game->ctx, r);
        if (rr != r)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &r,
                "canonical() gives %s, "
                "whose canonical() is %" LOOPY_PRI_POSITION ": not "
                "idempotent",
                loopy_i_check_describe(game, r, name, sizeof name), rr);
        if (game->legal != NULL && !game->legal(game->ctx, r))
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &r,
                "its representative "
                "%s is refused by legal()",
                loopy_i_check_describe(game, r, name, sizeof name));
        if (game->primitive(game->ctx, r) != over)
            return loopy_i_check_flaw(
                c, LOOPY_FLAW_CANONICAL, pos, &r,
                "it is %s but its "
                "representative %s is not",
                over_word[over],
                loopy_i_check_describe(game, r, name, sizeof name));
    }
    if (game->format != NULL && game->parse != NULL &&
        !loopy_i_check_notation(c, pos))
        return false;
    if (over == LOOPY_PLAYING) {
        if (!check_moves(c, pos, r) || !check_given(c, pos, &c->moves, false) ||
            !check_tiers(c, pos, r) || !loopy_i_check_move_words(c, pos))
            return false;
        if (r != pos && !check_symmetry(c, pos, r, &c->moves, false))
            return false;
    }
    if (game->unmoves != NULL) {
        if (!check_unmoves(c, pos, r) ||
            !check_given(c, pos, &c->unmoves, true))
            return false;
        if (r != pos && !check_symmetry(c, pos, r, &c->unmoves, true))
            return false;
    }
    return true;
}

/* ---- The scopes ---- */

static bool is_legal(const loopy_game *game, loopy_position pos)
{
    return game->legal == NULL || game->legal(game->ctx, pos);
}

static bool scope_every(checker *c, uint64_t limit)
{
    const loopy_game *game = c->game;
    uint64_t pos = 0;

    for (; pos < game->size && c->report->checked < limit; pos++) {
        c->report->drawn++;
        if (is_legal(game, pos) && !examine(c, pos))
            return false;
    }
    c->report->complete = pos == game->size;
    return true;
}

/* Breadth first from the start: the queue is the list of positions met,
 * at most limit of them; complete when none was left out. */
static bool scope_reachable(checker *c, uint64_t limit)
{
    plist queue = {NULL, 0, 0};
    bool ok = false, dropped = false;
    size_t head = 0;

    if (!set_has(&c->seen, c->game->start)) {
        if (!loopy_i_check_reserve(c, &queue, 1) ||
            !set_add(c, &c->seen, c->game->start))
            goto done;
        queue.items[queue.count++] = c->game->start;
    }
    while (head < queue.count) {
        if (!examine(c, queue.items[head++]))
            goto done;
        c->report->reachable++;
        for (size_t i = 0; i < c->moves.count; i++) {
            loopy_position q = c->moves.items[i];
            if (set_has(&c->seen, q))
                continue;
            if (queue.count >= limit) {
                dropped = true;
                continue;
            }
            if (!loopy_i_check_reserve(c, &queue, queue.count + 1) ||
                !set_add(c, &c->seen, q))
                goto done;
            queue.items[queue.count++] = q;
        }
    }
    c->report->complete = !dropped;
    ok = true;
done:
    loopy_i_free(queue.items);
    return ok;
}

/* The start, then indices drawn at random until limit legal positions
 * (not seen before) were examined or TRIES_PER_POSITION * limit drawn. */
static bool scope_sample(checker *c, uint64_t limit)
{
    const loopy_game *game = c->game;
    uint64_t tries = limit > UINT64_MAX / TRIES_PER_POSITION
                         ? UINT64_MAX
                         : limit * TRIES_PER_POSITION;
    uint64_t drawn = 0;

    if (!set_add(c, &c->seen, game->start) || !examine(c, game->start))
        return false;
    while (c->report->checked < limit && drawn < tries) {
        loopy_position pos = random_below(&c->rng, game->size);
        drawn++;
        c->report->drawn++;
        if (!is_legal(game, pos) || set_has(&c->seen, pos))
            continue;
        if (!set_add(c, &c->seen, pos) || !examine(c, pos))
            return false;
    }
    return true;
}

/* Random games from the start: each step examines the position if it is
 * new, then plays a random move, or starts again where the game is over.
 * limit new positions at most, TRIES_PER_POSITION * limit steps. */
static bool scope_walks(checker *c, uint64_t limit)
{
    const loopy_game *game = c->game;
    uint64_t tries = limit > UINT64_MAX / TRIES_PER_POSITION
                         ? UINT64_MAX
                         : limit * TRIES_PER_POSITION;
    uint64_t walked = 0;
    loopy_position pos = game->start;

    for (uint64_t step = 0; walked < limit && step < tries; step++) {
        if (!set_has(&c->seen, pos)) {
            if (!set_add(c, &c->seen, pos) || !examine(c, pos))
                return false;
            c->report->walked++;
            walked++;
        } else if (game->primitive(game->ctx, pos) != LOOPY_PLAYING) {
            c->moves.count = 0;
        } else if (!fetch(c, pos, false, &c->moves, false)) {
            return false;
        }
        pos = c->moves.count > 0
                  ? c->moves.items[random_below(&c->rng, c->moves.count)]
                  : game->start;
    }
    return true;
}

loopy_status loopy_game_check(const loopy_game *game,
                              const loopy_game_check_options *options,
                              loopy_game_check_report *report, loopy_diag *diag)
{
    static const loopy_game_check_options defaults =
        LOOPY_GAME_CHECK_OPTIONS_INIT;
    loopy_game_check_scope scope;
    loopy_status status = LOOPY_OK;
    uint64_t limit;
    checker c;
    bool ok;

    if (report == NULL || game == NULL)
        return LOOPY_EINVAL;
    memset(report, 0, sizeof *report);
    if (options == NULL)
        options = &defaults;
    if (game->primitive == NULL || game->moves == NULL || game->size == 0 ||
        (unsigned)options->scope > LOOPY_CHECK_WALKS) {
        loopy_i_diag(diag, 0, 0,
                     "%s: no game to check (primitive, moves and "
                     "a size are required), or an unknown scope",
                     game->name != NULL ? game->name : "?");
        return LOOPY_EINVAL;
    }
    limit = options->limit > 0 ? options->limit : DEFAULT_LIMIT;
    scope = options->scope;
    if (scope == LOOPY_CHECK_AUTO)
        scope = game->size <= limit ? LOOPY_CHECK_EVERY : LOOPY_CHECK_REACHABLE;
    report->scope = scope;

    memset(&c, 0, sizeof c);
    c.game = game;
    c.report = report;
    c.symmetric = game->canonical != NULL && !options->no_symmetry;
    c.rng = options->seed;
    if (!check_tier_plan(&c))
        ok = false;
    else if (game->start >= game->size)
        ok = loopy_i_check_flaw(
            &c, LOOPY_FLAW_RANGE, game->start, NULL,
            "the start is "
            "outside the index space 0 .. %" LOOPY_PRI_POSITION,
            game->size - 1);
    else if (!is_legal(game, game->start))
        ok = loopy_i_check_flaw(&c, LOOPY_FLAW_ILLEGAL, game->start, NULL,
                                "the start is "
                                "refused by legal()");
    else if (scope == LOOPY_CHECK_EVERY)
        ok = scope_every(&c, limit);
    else if (scope == LOOPY_CHECK_SAMPLE)
        ok = scope_sample(&c, limit);
    else if (scope == LOOPY_CHECK_WALKS)
        ok = scope_walks(&c, limit);
    else
        ok = scope_reachable(&c, limit);
    /* AUTO, when breadth first could not reach everything: random games
     * for the positions far from the start. */
    if (ok && options->scope == LOOPY_CHECK_AUTO &&
        scope == LOOPY_CHECK_REACHABLE && !report->complete)
        ok = scope_walks(&c, limit);

    if (c.out_of_memory) {
        loopy_i_diag(diag, 0, 0, "%s: out of memory while checking%s",
                     game->name, c.oom_what);
        status = LOOPY_ENOMEM;
        memset(report->message, 0, sizeof report->message);
        report->flaw = LOOPY_FLAW_NONE;
    } else if (!ok) {
        loopy_i_diag(diag, 0, 0, "%s: %s", game->name, report->message);
        status = LOOPY_EGAME;
    }
    loopy_i_free(c.moves.items);
    loopy_i_free(c.unmoves.items);
    loopy_i_free(c.again.items);
    loopy_i_free(c.near.items);
    loopy_i_free(c.set_a.items);
    loopy_i_free(c.set_b.items);
    loopy_i_free(c.text);
    loopy_i_free(c.seen.slot);
    loopy_i_free(c.kids);
    return status;
}
