/*
 * chess_solve.c - the chess game's own solver of one material: every
 * legal position of it, in 2 bytes per index, as a tablebase generator
 * works (chess_build.c runs it on an ending and its sub-endings).
 *
 * The values are those of loopy_game_solve_retro with all_legal (the same
 * Win, Lose, Tie and Draw, the same remoteness), found the same way,
 * level by level from the ends of the game, with two differences that
 * need less memory:
 *
 *  - Tiers.  A capture leads to a smaller material, a promotion to one
 *    with a pawn fewer, never back: the materials are solved one at a
 *    time, the smallest first, each to the end, so that a capture or a
 *    promotion always leads to a position already solved (or read from
 *    its own database: chess_tables.c).  Before its levels, each
 *    position of the material looks once at its moves out of it, in the
 *    pass that sets its first record (exit_record(), which makes only its
 *    captures and promotions): a Lose there makes it a Win waiting for
 *    its level, and when every move out reaches a Win it waits,
 *    undecided, for the level of the highest; the Tie pass looks again
 *    only where a move out reaches a Tie.  Level r then looks at the
 *    material's own positions
 *    decided (or waiting) at r, never at the smaller materials; it runs
 *    until no level decides anything and no record waits for a higher
 *    one.  Only the retractions into the material being solved are made
 *    (chess_i_unmoves' only), unchecked (see below); with pawns those
 *    with an en passant right among them.
 *
 *  - No counters.  Each index holds one 16-bit record, the database's own
 *    2-byte record (0 absent, 1 a Draw, else the outcome in the top two
 *    bits and the remoteness below), and, while solving, UNDECIDED.  When
 *    a position decided a Win at r tells an undecided predecessor q, q is
 *    marked a candidate (unless it waits for a Win past r out of the
 *    material: it cannot lose at r + 1), and after the level's scan each
 *    candidate's moves are looked at again, once: q is a Lose at r + 1
 *    when every one of them reaches a Win of remoteness r or less, which
 *    is what counting them down to the last gives.  (A Win decided at
 *    r + 1 during the level does not count yet: it tells q when its own
 *    level comes.)  When one does not, q keeps a hint of the position
 *    it reaches, and only that position's Win marks q again (most
 *    candidates fail, at their first move, again and again without it).
 *
 *  - Legality from the records.  Once a material's records are set, an
 *    index is a legal position exactly when its record is not absent, so
 *    the levels take back moves and look at moves without testing them:
 *    a move that leaves the mover's king attacked leads to an absent
 *    record (or past the end, when the kings touch), and an unmove to an
 *    illegal position or one that is over reaches no undecided record.
 *
 * Memory: the records, 2 bytes per index, a byte per CHUNK (4096)
 * indices of the material being solved saying where candidates are, and
 * 7 bytes per BLOCK (512) saying when a block is next due (2, and 2
 * saying whether a record there was decided for the next level), whether
 * a position there has a move out of the material to a Tie, whether it
 * holds a Win of the level being run, and in the Tie pass whether it
 * may hold an undecided record.  Each level scans the blocks of
 * the material that hold a record due at it (most levels past the first
 * few touch a small part), twice: the first tells of its Loses (its
 * Ties in the Tie pass) and decides, the second tells of its Wins and
 * marks candidates, so that all the threads that write a record in a
 * scan write the same value there and plain stores do (a
 * compare-and-swap stops the loads after it until it is done, and the
 * records a scan reaches are far apart); the result does not depend on
 * the threads' number or order.  The remoteness of a record is below
 * 2^13 - 4 (MAX_LEVEL): past that (no pawnless ending comes near, the
 * longest known mate of five pieces is 213 plies) the solve stops with
 * LOOPY_ETOOBIG.
 */
#include "chess.h"
#include "../rules/rules_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* While solving, kind 0 (no record of a finished solve): UNDECIDED, low
 * 2; CANDIDATE: undecided, a move reaches a Win of the level being run,
 * its moves to be looked at after it; WAITING + b: undecided, every
 * move out of the material reaches a Win, the highest of remoteness b;
 * and REFUTED + h: undecided, its moves were looked at and one reached
 * no Win, a position whose hint() is h (see mark()). */
#define UNDECIDED 2u
#define CANDIDATE (UNDECIDED + 1u)
#define WAITING (CANDIDATE + 1u)
#define REFUTED ((LOOPY_I_RECORD_LOW + 1) / 2)
#define MAX_LEVEL CHESS_MAX_LEVEL
_Static_assert(REFUTED - WAITING == MAX_LEVEL,
               "the levels fill the undecided records below REFUTED");
/* Indices a thread takes at a time in the scans. */
#define CHUNK CHESS_CHUNK
/* Indices a level's scan skips at a time when none is due at the level
 * (BLOCK divides CHUNK). */
#define BLOCK 512
#define NOTHING_DUE UINT16_MAX

typedef struct tiers {
    const chess_rules *rules;
    _Atomic uint16_t *rec;
    int threads;
    bool misere;
    /* The material being solved, its segment [lo, hi), and the segments
     * the levels scan: its own and those of the materials one capture
     * smaller. */
    loopy_position lo, hi;
    uint32_t material;
    /* The retractions asked for: with pawns, also those with an en
     * passant right. */
    chess_retro how;
    /* Per CHUNK of the material's segment: whether it holds a CANDIDATE
     * (a byte each: a 4096th of the indices). */
    _Atomic uint8_t *marked;
    /* Per BLOCK of the segment, what a level's scan needs to know to skip
     * it: due, the lowest level above the last scan's at which a record
     * there waits or was decided (NOTHING_DUE: none; a level's own
     * scan writes it for its blocks); soon[l & 1], set when a record
     * there is decided at level l, during level l - 1 (cleared after
     * level l). */
    uint16_t *due;
    _Atomic uint8_t *soon[2];
    /* Per BLOCK: whether a position there has a move out of the material
     * that reaches a Tie (set with the first records; the Tie pass looks
     * out of the material only from those blocks). */
    uint8_t *tie_out;
    /* Per BLOCK: whether level r's first scan saw a Win at r there, for
     * its second. */
    uint8_t *wins;
    /* Per BLOCK, in the Tie pass: whether a record there may be undecided
     * (set by count_undecided(), cleared by a look ahead that leaves
     * none). */
    uint8_t *open_in;
} tiers;

static uint16_t record(loopy_outcome outcome, uint32_t remoteness)
{
    return (uint16_t)((unsigned)outcome << LOOPY_I_RECORD_SHIFT | remoteness);
}

static unsigned kind_of(uint16_t v)
{
    return (unsigned)v >> LOOPY_I_RECORD_SHIFT;
}

static uint32_t low_of(uint16_t v)
{
    return v & LOOPY_I_RECORD_LOW;
}

/* The first record of index i, decoded into *board: absent when it is no
 * position (or not its class's index), decided at 0 when the game is over
 * there, else UNDECIDED, with *inside the index of a move that stays in
 * the material, or UINT64_MAX.  Mirrors the game's legal() and
 * primitive(). */
static uint16_t first_record(const tiers *t, uint32_t m, loopy_position i,
                             chess_board *out, loopy_position *inside)
{
    const chess_rules *rules = t->rules;
    bool any;

    if (!chess_i_position_in(rules, m, i, out))
        return LOOPY_I_RECORD_ABSENT;
    if (rules->material[m].dead)
        return record(LOOPY_TIE, 0);
    *inside = chess_i_first_move(rules, out, chess_i_turned(rules, out, i),
                                 &any);
    if (any)
        return UNDECIDED;
    if (!chess_i_attacked(rules, out, out->square[out->side],
                          1 - out->side, chess_i_occupied(out)))
        return record(LOOPY_TIE, 0); /* stalemate */
    return record(t->misere ? LOOPY_WIN : LOOPY_LOSE, 0); /* mate */
}

bool chess_i_table_complete(const chess_records *t, uint32_t m)
{
    const chess_rules *rules = t->rules;
    loopy_position lo = rules->material[m].offset, hi = chess_i_segment_end(rules, m);
    int64_t chunks = (int64_t)((hi - lo + CHUNK - 1) / CHUNK);
    bool wrong = false;

#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 1) \
    reduction(|| : wrong)
    for (int64_t c = 0; c < chunks; c++) {
        loopy_position a = lo + (uint64_t)c * CHUNK;
        loopy_position b = hi - a < CHUNK ? hi : a + CHUNK;
        for (loopy_position i = a; i < b && !wrong; i++) {
            chess_board board;
            wrong = chess_i_position_in(rules, m, i, &board) !=
                    (atomic_load_explicit(&t->rec[i], memory_order_relaxed) !=
                     LOOPY_I_RECORD_ABSENT);
        }
    }
    return !wrong;
}

/* Whether v, a record while solving, is undecided: UNDECIDED, CANDIDATE,
 * WAITING + b (every move out of the material reaches a Win, the highest
 * of remoteness b) or REFUTED + h. */
static bool undecided(uint16_t v)
{
    return kind_of(v) == 0 && low_of(v) >= UNDECIDED;
}

/* Whether v is WAITING + b for a Win past r (it cannot lose at r + 1). */
static bool waiting_past(uint16_t v, uint32_t r)
{
    return kind_of(v) == 0 && low_of(v) >= WAITING && low_of(v) < REFUTED &&
           low_of(v) - WAITING > r;
}

/* A position's hint: 13 bits of its index, mixed. */
static uint32_t hint(loopy_position p)
{
    return (uint32_t)((p * UINT64_C(0x9e3779b97f4a7c15)) >> 51);
}

/* A look at a position's moves at level r (all_moves_win(),
 * tie_ahead()), and the first move that reaches no Win. */
typedef struct level_question {
    const tiers *t;
    uint32_t r;
    loopy_position refuter;
} level_question;

static bool reaches_win(void *ctx, loopy_position to, uint32_t piece,
                        uint32_t square, uint32_t promote)
{
    level_question *w = ctx;
    uint16_t v;

    (void)piece;
    (void)square;
    (void)promote;
    /* Past the end or absent: a move that leaves the mover's king
     * attacked (looked at as any other, and no move at all). */
    if (to >= w->t->rules->size)
        return true;
    v = atomic_load_explicit(&w->t->rec[to], memory_order_relaxed);
    if (v == LOOPY_I_RECORD_ABSENT ||
        (kind_of(v) == LOOPY_WIN && low_of(v) <= w->r))
        return true;
    w->refuter = to;
    return false;
}

/* Whether every move of q reaches a Win of remoteness at most r (looked
 * at until one does not, *refuter).  The moves are not tested for
 * legality: one that leaves the mover's king attacked leads to an index
 * that is no position, whose record is absent (its side not to move is
 * in check), or past the end (the kings touch). */
static bool all_moves_win(const tiers *t, loopy_position q, uint32_t r,
                          loopy_position *refuter)
{
    level_question w = {t, r, 0};
    chess_board board;
    bool all;

    chess_i_decode_in(t->rules, t->material, q, &board);
    all = chess_i_each_move(t->rules, &board,
                            chess_i_turned(t->rules, &board, q), false,
                            reaches_win, &w);
    *refuter = w.refuter;
    return all;
}

/* Sets rec[q] to next if it is undecided, or (lower) a record of next's
 * kind with a higher remoteness, as an exit set it.  Returns whether q
 * was undecided: a record lowered is none the levels must count (its
 * old level, past r + 1, is at most top, the highest that the looks out
 * of the material set, and the levels run to that one anyway).
 *
 * A plain store, no compare-and-swap: while a level runs, every thread
 * that writes a record writes the same one there.  Its first scan
 * decides a Win at r + 1 (a move reaches a Lose at r), a Lose at r + 1
 * (a record waiting for r whose every move reaches a Win: never one of
 * those), or in the Tie pass a Tie at r + 1; its second marks
 * candidates (mark()) and nothing else.  (relaxed: the records are the
 * only shared data, and each scan starts after the last one's barrier.) */
static bool decide(const tiers *t, loopy_position q, uint16_t seen,
                   uint16_t next)
{
    bool open = undecided(seen);

    if (!open &&
        (kind_of(seen) != kind_of(next) || low_of(seen) <= low_of(next)))
        return false;
    atomic_store_explicit(&t->rec[q], next, memory_order_relaxed);
    atomic_store_explicit(&t->soon[low_of(next) & 1][(q - t->lo) / BLOCK], 1,
                          memory_order_relaxed);
    return open;
}

/* Marks q, whose record was seen, a CANDIDATE at level r (its move to a
 * position of hint h reaches a Win at r): unless it is one already,
 * decided, waiting for a Win past r (it cannot lose at r + 1), or
 * REFUTED by a move to a position of another hint.  That position is not
 * a Win of remoteness r or less: when it becomes a Win, its level tells
 * q and marks it (a hint h shared by chance costs a look, no more).  A
 * plain store (see decide()): in the level's second scan, every thread
 * writes CANDIDATE. */
static void mark(const tiers *t, loopy_position q, uint16_t seen, uint32_t r,
                 uint32_t h)
{
    if (!undecided(seen) || seen == CANDIDATE || waiting_past(seen, r) ||
        (low_of(seen) >= REFUTED && low_of(seen) - REFUTED != h))
        return;
    atomic_store_explicit(&t->rec[q], (uint16_t)CANDIDATE,
                          memory_order_relaxed);
    atomic_store_explicit(&t->marked[(q - t->lo) / CHUNK], 1,
                          memory_order_relaxed);
}

/* Position p, decided at r with outcome o (a Win, a Lose, or in the Tie
 * pass a Tie), tells its undecided predecessors in the material being
 * solved: a Win marks them candidates, whose moves are looked at once
 * after the level (looked at for each Win, they were looked at again and
 * again).  Returns how many undecided records it decided. */
static uint64_t tell(const tiers *t, loopy_position p, unsigned o, uint32_t r)
{
    loopy_position list[CHESS_MAX_UNMOVES];
    chess_board board;
    uint64_t made = 0;
    uint32_t h = hint(p);
    size_t count;

    /* Unchecked: an undecided record is a legal position that is not
     * over, and no other record is looked at.  Into a material with
     * pawns, also the positions with an en passant right. */
    chess_i_decode_in(t->rules, t->material, p, &board);
    count = chess_i_unmoves(t->rules, &board,
                            chess_i_turned(t->rules, &board, p), t->how,
                            t->material, list);
    for (size_t k = 0; k < count; k++) {
        loopy_position q = list[k];
        uint16_t seen;
        if (q < t->lo || q >= t->hi)
            continue;
        seen = atomic_load_explicit(&t->rec[q], memory_order_relaxed);
        if (o == LOOPY_LOSE)
            made += decide(t, q, seen, record(LOOPY_WIN, r + 1));
        else if (o == LOOPY_TIE)
            made += decide(t, q, seen, record(LOOPY_TIE, r + 1));
        else
            mark(t, q, seen, r, h);
    }
    return made;
}

/* What exit_record() learns of a position's moves out of the material. */
typedef struct exit_question {
    const tiers *t;
    uint32_t lose, win, tie; /* lowest Lose, highest Win, lowest Tie */
    loopy_position other;    /* the first that reaches no Win, or none */
} exit_question;

static bool look_out(void *ctx, loopy_position to, uint32_t piece,
                     uint32_t square, uint32_t promote)
{
    exit_question *e = ctx;
    uint16_t v;

    (void)piece;
    (void)square;
    (void)promote;
    if (to >= e->t->rules->size || (to >= e->t->lo && to < e->t->hi))
        return true;
    v = atomic_load_explicit(&e->t->rec[to], memory_order_relaxed);
    if (v == LOOPY_I_RECORD_ABSENT)
        return true; /* the move leaves the mover's king attacked */
    if (kind_of(v) == LOOPY_LOSE && low_of(v) < e->lose)
        e->lose = low_of(v);
    else if (kind_of(v) == LOOPY_WIN && (e->win == UINT32_MAX ||
                                         low_of(v) > e->win))
        e->win = low_of(v);
    else if (kind_of(v) == LOOPY_TIE && low_of(v) < e->tie)
        e->tie = low_of(v);
    if (kind_of(v) != LOOPY_WIN && e->other == UINT64_MAX)
        e->other = to;
    return true;
}

/* What a position's moves out of the material (captures and promotions,
 * into materials already solved) make of it before a pass's levels, so
 * that the levels never scan those materials: in the Win and Lose pass,
 * one that reaches a Lose of remoteness a is a Win at a + 1 unless a
 * level finds it a quicker one, and one whose every move out reaches a
 * Win, the highest of remoteness b, waits for level b to look at all its
 * moves; in the Tie pass, one that reaches a Tie of remoteness a is a Tie
 * at a + 1 unless a level finds a quicker one.  Returns the record, or 0
 * when they make nothing of it; *level, the level it is decided at or
 * waits for; *tie, whether a move out reaches a Tie; *other, the first
 * that reaches no Win, or UINT64_MAX. */
static uint16_t exit_record(const tiers *t, const chess_board *board,
                            bool ties, uint32_t *level, bool *tie,
                            loopy_position *other)
{
    exit_question e = {t, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT64_MAX};

    chess_i_each_exit(t->rules, board, look_out, &e);
    *tie = e.tie != UINT32_MAX;
    *other = e.other;
    if (ties && e.tie != UINT32_MAX) {
        *level = e.tie + 1;
        return record(LOOPY_TIE, *level);
    }
    if (!ties && e.lose != UINT32_MAX) {
        *level = e.lose + 1;
        return record(LOOPY_WIN, *level);
    }
    if (!ties && e.other == UINT64_MAX && e.win != UINT32_MAX) {
        *level = e.win;
        return (uint16_t)(WAITING + *level);
    }
    return 0;
}

/* The first records of material [lo, hi) (first_record), with the Win
 * and Lose pass's look out of the material (exit_record) done at once,
 * and tie_out set.  An undecided position is REFUTED from the start by a
 * move out that reaches no Win (it can never lose), else by a move that
 * stays in the material (nothing there is a Win yet): only that move's
 * Win marks it a candidate.  *top is the highest level a record so set
 * waits for or is decided at. */
static loopy_status first_records(tiers *t, uint32_t *top)
{
    int64_t chunks = (int64_t)((t->hi - t->lo + CHUNK - 1) / CHUNK);
    uint32_t high = 0;
    bool too_big = false;

#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 1) \
    reduction(max : high) reduction(|| : too_big)
    for (int64_t c = 0; c < chunks; c++) {
        loopy_position a = t->lo + (uint64_t)c * CHUNK;
        loopy_position b = t->hi - a < CHUNK ? t->hi : a + CHUNK;
        for (loopy_position i = a; i < b; i++) {
            chess_board board;
            loopy_position inside = UINT64_MAX, other;
            uint16_t v = first_record(t, t->material, i, &board, &inside);
            uint32_t level = 0;
            bool tie = false;
            if (v == UNDECIDED) {
                uint16_t out = exit_record(t, &board, false, &level, &tie,
                                           &other);
                if (tie)
                    t->tie_out[(i - t->lo) / BLOCK] = 1;
                if (out != 0 && level >= MAX_LEVEL)
                    too_big = true;
                else if (out != 0) {
                    v = out;
                    high = level > high ? level : high;
                } else if (other != UINT64_MAX || inside != UINT64_MAX) {
                    v = (uint16_t)(REFUTED +
                                   hint(other != UINT64_MAX ? other : inside));
                }
            }
            atomic_store_explicit(&t->rec[i], v, memory_order_relaxed);
        }
    }
    *top = high;
    return too_big ? LOOPY_ETOOBIG : LOOPY_OK;
}

/* Before the Tie pass's levels, each undecided position of a block of
 * tie_out looks again at its moves out of the material (exit_record).
 * *top is the highest level a record so set is decided at. */
static loopy_status tie_exits(const tiers *t, uint32_t *top)
{
    int64_t blocks = (int64_t)((t->hi - t->lo + BLOCK - 1) / BLOCK);
    uint32_t high = 0;
    bool too_big = false;

#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 8) \
    reduction(max : high) reduction(|| : too_big)
    for (int64_t k = 0; k < blocks; k++) {
        loopy_position a = t->lo + (uint64_t)k * BLOCK;
        loopy_position b = t->hi - a < BLOCK ? t->hi : a + BLOCK;
        if (t->tie_out[k] == 0)
            continue;
        for (loopy_position i = a; i < b; i++) {
            uint16_t v = atomic_load_explicit(&t->rec[i],
                                              memory_order_relaxed);
            uint32_t level = 0;
            bool tie;
            loopy_position other;
            chess_board board;
            if (!undecided(v))
                continue;
            chess_i_decode_in(t->rules, t->material, i, &board);
            v = exit_record(t, &board, true, &level, &tie, &other);
            if (v == 0)
                continue;
            if (level >= MAX_LEVEL) {
                too_big = true;
                continue;
            }
            high = level > high ? level : high;
            atomic_store_explicit(&t->rec[i], v, memory_order_relaxed);
        }
    }
    *top = high;
    return too_big ? LOOPY_ETOOBIG : LOOPY_OK;
}

/* After level r's scans, each candidate is a Lose at r + 1 when every
 * move of it reaches a Win of remoteness r or less, and when not,
 * undecided again: REFUTED by the first move that does not.  Returns how
 * many it decided. */
static uint64_t candidates(tiers *t, uint32_t r)
{
    int64_t chunks = (int64_t)((t->hi - t->lo + CHUNK - 1) / CHUNK);
    uint64_t made = 0;

#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 1) \
    reduction(+ : made)
    for (int64_t c = 0; c < chunks; c++) {
        loopy_position a = t->lo + (uint64_t)c * CHUNK;
        loopy_position b = t->hi - a < CHUNK ? t->hi : a + CHUNK;
        if (atomic_load_explicit(&t->marked[c], memory_order_relaxed) == 0)
            continue;
        atomic_store_explicit(&t->marked[c], 0, memory_order_relaxed);
        /* Only this thread writes these records now; the moves looked at
         * are read, and a Lose at r + 1 is no Win they count. */
        for (loopy_position i = a; i < b; i++) {
            loopy_position refuter;
            if (atomic_load_explicit(&t->rec[i], memory_order_relaxed) !=
                CANDIDATE)
                continue;
            if (all_moves_win(t, i, r, &refuter)) {
                atomic_store_explicit(&t->rec[i], record(LOOPY_LOSE, r + 1),
                                      memory_order_relaxed);
                atomic_store_explicit(&t->soon[(r + 1) & 1]
                                              [(i - t->lo) / BLOCK],
                                      1, memory_order_relaxed);
                made++;
            } else {
                atomic_store_explicit(&t->rec[i],
                                      (uint16_t)(REFUTED + hint(refuter)),
                                      memory_order_relaxed);
            }
        }
    }
    return made;
}

/* Clears the blocks' soon[which] flags; with every, due too (a pass's
 * first level scans everything). */
static void clear_due(tiers *t, unsigned which, bool every)
{
    int64_t blocks = (int64_t)((t->hi - t->lo + BLOCK - 1) / BLOCK);

#pragma omp parallel for num_threads(t->threads) schedule(static)
    for (int64_t k = 0; k < blocks; k++) {
        atomic_store_explicit(&t->soon[which][k], 0, memory_order_relaxed);
        if (every) {
            atomic_store_explicit(&t->soon[1 - which][k], 0,
                                  memory_order_relaxed);
            t->due[k] = 0;
        }
    }
}

/* What level r's first scan needs to know of a record v when it sets a
 * block's due (scan_block()): the level above r at which v is due (of
 * kind one or two, decided there; WAITING + b for b past r, when below
 * waits_below), else INT16_MAX.  Without a branch, in signed 16 bits
 * (the levels are below 2^14), so that the compiler makes a block's
 * records of it eight or more at a time. */
static int16_t due_of(uint16_t v, int16_t r, int16_t one, int16_t two,
                      int16_t waits_below)
{
    int16_t kind = (int16_t)(v >> LOOPY_I_RECORD_SHIFT);
    int16_t low = (int16_t)(v & LOOPY_I_RECORD_LOW);
    int16_t after = (int16_t)(low - (int16_t)WAITING);
    bool decided = (kind == one) | (kind == two);
    bool waits = (kind == 0) & (after > r) & (low < waits_below);
    int16_t due = (decided & (low > r)) ? low : INT16_MAX;

    return waits ? after : due;
}

/* Level r's first scan of the block [a, b), numbered k: tells of the
 * records decided at r (in the Win and Lose pass, of its Loses; a Win
 * there sets wins[k] for the second scan), and decides those waiting for
 * r; sets its due.  Returns how many undecided records it decided.
 *
 * It copies the block and reads the copy once, without a branch (its
 * due, whether it holds a Win at r, and a byte for each record to tell
 * of or waiting for r), then acts on those bytes: a branch on each
 * record's kind mispredicts about as often as not, and most records of a
 * block due at r are neither.  (What a tell decides here meanwhile is at
 * r + 1, which soon marks.) */
static uint64_t scan_block(tiers *t, bool ties, uint32_t r, uint64_t k,
                           loopy_position a, loopy_position b)
{
    /* A Draw is no record while solving: waiting and win match none in
     * the Tie pass. */
    uint16_t told = record(ties ? LOOPY_TIE : LOOPY_LOSE, r);
    uint16_t waiting = ties ? LOOPY_I_RECORD_DRAW : (uint16_t)(WAITING + r);
    uint16_t win = ties ? LOOPY_I_RECORD_DRAW : record(LOOPY_WIN, r);
    /* The kinds whose records are due at their levels, and the bound
     * of WAITING + b (in the Tie pass, none). */
    int16_t one = ties ? LOOPY_TIE : LOOPY_WIN;
    int16_t two = ties ? LOOPY_TIE : LOOPY_LOSE;
    int16_t waits_below = ties ? 0 : (int16_t)REFUTED;
    uint16_t copy[BLOCK];
    uint16_t wins = 0;
    int16_t due = INT16_MAX;
    uint8_t act[BLOCK];
    uint32_t n = (uint32_t)(b - a);
    uint64_t made = 0;

    for (uint32_t i = 0; i < n; i++)
        copy[i] = atomic_load_explicit(&t->rec[a + i], memory_order_relaxed);
    for (uint32_t i = n; i < BLOCK; i++)
        copy[i] = LOOPY_I_RECORD_ABSENT;
#pragma omp simd reduction(min : due) reduction(| : wins)
    for (uint32_t i = 0; i < BLOCK; i++) {
        uint16_t v = copy[i];
        int16_t d = due_of(v, (int16_t)r, one, two, waits_below);
        due = d < due ? d : due;
        wins |= v == win;
        act[i] = (uint8_t)((v == told) | (v == waiting));
    }
    for (uint32_t w = 0; w < BLOCK; w += 8) {
        uint64_t any;
        memcpy(&any, act + w, sizeof any);
        if (any == 0)
            continue;
        for (uint32_t i = w; i < w + 8; i++) {
            uint16_t v;
            loopy_position refuter;
            if (!act[i])
                continue;
            v = atomic_load_explicit(&t->rec[a + i], memory_order_relaxed);
            /* The last of its moves out reaches a Win at r (unless a
             * tell made it a Win at r + 1 since). */
            if (v == waiting) {
                if (all_moves_win(t, a + i, r, &refuter))
                    made += decide(t, a + i, v, record(LOOPY_LOSE, r + 1));
            } else if (v == told) {
                made += tell(t, a + i, kind_of(v), r);
            }
        }
    }
    /* A record decided at r + 1 while this scan ran, and not seen by it,
     * set soon[(r + 1) & 1]. */
    t->due[k] = due == INT16_MAX ? NOTHING_DUE : (uint16_t)due;
    t->wins[k] = wins != 0;
    return made;
}

/* Level r's second scan of the block [a, b), one of wins: its Wins at r
 * mark their undecided predecessors candidates.  Apart from the first
 * (see decide()). */
static void scan_wins(tiers *t, uint32_t r, loopy_position a,
                      loopy_position b)
{
    uint16_t win = record(LOOPY_WIN, r);

    for (loopy_position i = a; i < b; i++)
        if (atomic_load_explicit(&t->rec[i], memory_order_relaxed) == win)
            tell(t, i, LOOPY_WIN, r);
}

static bool misses_tie(void *ctx, loopy_position to, uint32_t piece,
                       uint32_t square, uint32_t promote)
{
    const level_question *w = ctx;
    uint16_t v;

    (void)piece;
    (void)square;
    (void)promote;
    if (to >= w->t->rules->size)
        return true;
    v = atomic_load_explicit(&w->t->rec[to], memory_order_relaxed);
    return kind_of(v) != LOOPY_TIE || low_of(v) != w->r;
}

/* Whether a move of q reaches a Tie of remoteness r (unchecked moves, as
 * all_moves_win()'s). */
static bool tie_ahead(const tiers *t, loopy_position q, uint32_t r)
{
    level_question w = {t, r, 0};
    chess_board board;

    chess_i_decode_in(t->rules, t->material, q, &board);
    return !chess_i_each_move(t->rules, &board,
                              chess_i_turned(t->rules, &board, q), false,
                              misses_tie, &w);
}

/* Level r of the Tie pass looking ahead instead, in the block [a, b),
 * numbered k: each record a Tie at r would tell (undecided, or a Tie
 * from a move out, past r + 1) looks at its moves for one.  The same
 * records as scan_block()'s tells, from the other end: the cheaper one
 * when the Ties at r are many and the records they could tell few (a
 * Tie at r reaches some twenty predecessors, most of them decided
 * already).  Each thread writes its own block's records, and a Tie at
 * r + 1 is none the others look for.  Sets the block's due and
 * open_in; returns how many it decided, and *left how many it leaves
 * undecided.  A block with neither an undecided record nor a Tie past
 * r has nothing to look at (nor has it later): left alone. */
static uint64_t pull_block(tiers *t, uint32_t r, uint64_t k,
                           loopy_position a, loopy_position b,
                           uint64_t *left)
{
    uint16_t tie = record(LOOPY_TIE, r + 1);
    uint32_t due = NOTHING_DUE;
    uint64_t made = 0, open = 0;

    if (!t->open_in[k] && t->due[k] == NOTHING_DUE)
        return 0;
    for (loopy_position i = a; i < b; i++) {
        uint16_t v = atomic_load_explicit(&t->rec[i], memory_order_relaxed);
        if ((undecided(v) ||
             (kind_of(v) == LOOPY_TIE && low_of(v) > r + 1)) &&
            tie_ahead(t, i, r)) {
            made += decide(t, i, v, tie);
            v = tie;
        }
        open += undecided(v);
        if (kind_of(v) == LOOPY_TIE && low_of(v) > r && low_of(v) < due)
            due = low_of(v);
    }
    t->due[k] = (uint16_t)due;
    t->open_in[k] = open > 0;
    *left += open;
    return made;
}

/* How the Tie pass runs its levels (chess_i_tie_ahead): 0 as it
 * chooses, 1 each looking ahead, -1 none. */
static int tie_ahead_mode;

void chess_i_tie_ahead(int mode)
{
    tie_ahead_mode = mode;
}

/* How many records of the material being solved are undecided; sets
 * open_in. */
static uint64_t count_undecided(const tiers *t)
{
    int64_t blocks = (int64_t)((t->hi - t->lo + BLOCK - 1) / BLOCK);
    uint64_t open = 0;

#pragma omp parallel for num_threads(t->threads) schedule(static) \
    reduction(+ : open)
    for (int64_t k = 0; k < blocks; k++) {
        loopy_position a = t->lo + (uint64_t)k * BLOCK;
        loopy_position b = t->hi - a < BLOCK ? t->hi : a + BLOCK;
        uint64_t here = 0;
        for (loopy_position i = a; i < b; i++)
            here += undecided(
                atomic_load_explicit(&t->rec[i], memory_order_relaxed));
        t->open_in[k] = here > 0;
        open += here;
    }
    return open;
}

/* One pass (ties: the Tie pass) of the levels over the material being
 * solved, whose looks out of it are done: top is the highest level they
 * set a record for. */
static loopy_status run_levels(tiers *t, bool ties, uint32_t top)
{
    int64_t chunks = (int64_t)((t->hi - t->lo + CHUNK - 1) / CHUNK);
    int64_t blocks = (int64_t)((t->hi - t->lo + BLOCK - 1) / BLOCK);
    uint64_t made = 1, last = 0;
    /* The Tie pass: the undecided records left, counted again by each
     * level that looks ahead (between those, it may fall below the true
     * count: a record that two threads decide at once counts twice). */
    uint64_t open = ties ? count_undecided(t) : 0;

    clear_due(t, 0, true);
    for (uint32_t r = 0; made > 0 || r <= top; r++) {
        if (r >= MAX_LEVEL)
            return LOOPY_ETOOBIG;
        made = 0;
        /* Ties at r (about as many as the last level decided) past half
         * the undecided records: each of those looks ahead. */
        if (ties && (tie_ahead_mode == 0 ? last > open / 2
                                         : tie_ahead_mode > 0)) {
            uint64_t left = 0;
#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 8) \
    reduction(+ : made, left)
            for (int64_t k = 0; k < blocks; k++) {
                loopy_position a = t->lo + (uint64_t)k * BLOCK;
                made += pull_block(t, r, (uint64_t)k, a,
                                   t->hi - a < BLOCK ? t->hi : a + BLOCK,
                                   &left);
            }
            open = left;
            last = made;
            clear_due(t, r & 1, false);
            continue;
        }
        /* A block is scanned when a record there is due at r: one the
         * last scan of it saw waiting or decided for r, or one decided
         * at r since (soon). */
#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 1) \
    reduction(+ : made)
        for (int64_t c = 0; c < chunks; c++) {
            loopy_position a = t->lo + (uint64_t)c * CHUNK;
            loopy_position end = t->hi - a < CHUNK ? t->hi : a + CHUNK;
            for (; a < end; a += BLOCK) {
                uint64_t k = (a - t->lo) / BLOCK;
                loopy_position b = end - a < BLOCK ? end : a + BLOCK;
                if (t->due[k] != r &&
                    atomic_load_explicit(&t->soon[r & 1][k],
                                         memory_order_relaxed) == 0)
                    continue;
                made += scan_block(t, ties, r, k, a, b);
            }
        }
        if (!ties) {
#pragma omp parallel for num_threads(t->threads) schedule(dynamic, 8)
            for (int64_t k = 0; k < blocks; k++) {
                loopy_position a = t->lo + (uint64_t)k * BLOCK;
                if (!t->wins[k])
                    continue;
                t->wins[k] = 0;
                scan_wins(t, r, a, t->hi - a < BLOCK ? t->hi : a + BLOCK);
            }
        }
        if (!ties)
            made += candidates(t, r);
        open = open > made ? open - made : 0;
        last = made;
        clear_due(t, r & 1, false);
    }
    return LOOPY_OK;
}

/* Solves material m, whose smaller materials are solved. */
static loopy_status solve_material(tiers *t, uint32_t m)
{
    const chess_rules *rules = t->rules;
    loopy_position lo = rules->material[m].offset, hi = chess_i_segment_end(rules, m);
    int64_t chunks = (int64_t)((hi - lo + CHUNK - 1) / CHUNK);
    loopy_status status;
    uint8_t *marks, *soon, *tie_out;
    uint16_t *due;
    uint32_t top;

    t->lo = lo;
    t->hi = hi;
    t->material = m;
    t->how = rules->material[m].pawns[0] + rules->material[m].pawns[1] > 0
                 ? CHESS_RETRO_EP
                 : CHESS_RETRO_ANY;
    marks = loopy_i_calloc((size_t)chunks, sizeof *t->marked);
    due = loopy_i_calloc((size_t)chunks * (CHUNK / BLOCK), sizeof *t->due);
    soon = loopy_i_calloc((size_t)chunks * (CHUNK / BLOCK),
                          2 * sizeof *t->soon[0]);
    tie_out = loopy_i_calloc((size_t)chunks * (CHUNK / BLOCK),
                             3 * sizeof *t->tie_out);
    if (marks == NULL || due == NULL || soon == NULL || tie_out == NULL) {
        loopy_i_free(marks);
        loopy_i_free(due);
        loopy_i_free(soon);
        loopy_i_free(tie_out);
        return LOOPY_ENOMEM;
    }
    t->marked = (_Atomic uint8_t *)marks;
    t->due = due;
    t->soon[0] = (_Atomic uint8_t *)soon;
    t->soon[1] = t->soon[0] + (size_t)chunks * (CHUNK / BLOCK);
    t->tie_out = tie_out;
    t->wins = tie_out + (size_t)chunks * (CHUNK / BLOCK);
    t->open_in = t->wins + (size_t)chunks * (CHUNK / BLOCK);
    status = first_records(t, &top);
    if (status == LOOPY_OK)
        status = run_levels(t, false, top);
    if (status == LOOPY_OK)
        status = tie_exits(t, &top);
    if (status == LOOPY_OK)
        status = run_levels(t, true, top);
    loopy_i_free(marks);
    loopy_i_free(due);
    loopy_i_free(soon);
    loopy_i_free(tie_out);
    t->marked = NULL;
    t->due = NULL;
    t->soon[0] = t->soon[1] = NULL;
    t->tie_out = NULL;
    t->wins = NULL;
    t->open_in = NULL;
    if (status != LOOPY_OK)
        return status;
    /* What no pass decided is a Draw. */
#pragma omp parallel for num_threads(t->threads) schedule(static)
    for (int64_t c = 0; c < chunks; c++) {
        loopy_position a = lo + (uint64_t)c * CHUNK;
        loopy_position b = hi - a < CHUNK ? hi : a + CHUNK;
        for (loopy_position i = a; i < b; i++)
            if (undecided(atomic_load_explicit(&t->rec[i],
                                               memory_order_relaxed)))
                atomic_store_explicit(&t->rec[i], LOOPY_I_RECORD_DRAW,
                                      memory_order_relaxed);
    }
    return LOOPY_OK;
}

loopy_status chess_i_solve_material(const chess_records *records, uint32_t m)
{
    tiers t;

    memset(&t, 0, sizeof t);
    t.rules = records->rules;
    t.rec = records->rec;
    t.threads = records->threads;
    t.misere = records->misere;
    return solve_material(&t, m);
}
