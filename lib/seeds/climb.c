/*
 * climb.c - the grid game of seed 002: a flag moves to an orthogonally
 * adjacent, strictly higher cell; a player who cannot move loses.
 *
 * Moves are never stored: they are read off the heights.  Every move
 * climbs, so the game graph is acyclic and retrograde analysis decides
 * every cell (see solve_grid).  (A memoised depth-first search was tried
 * instead: a third slower on random heights.)
 */
#include "../io/stream.h"

#include <stdio.h>
#include <string.h>

/* The state byte of a cell during the solve: bits 0-2 count the higher
 * neighbours not yet known to be Wins; DECIDED and WIN say what is known. */
#define COUNT_MASK 7u
#define DECIDED 8u
#define WIN 16u

/* Runs BODY with d set to each orthogonal neighbour of cell c = (r, k). */
#define FOR_NEIGHBOURS(rows, cols, c, r, k, d, BODY)                           \
    do {                                                                       \
        size_t d;                                                              \
        if ((r) > 0) { d = (c) - (cols); BODY }                                \
        if ((r) + 1 < (rows)) { d = (c) + (cols); BODY }                       \
        if ((k) > 0) { d = (c) - 1; BODY }                                     \
        if ((k) + 1 < (cols)) { d = (c) + 1; BODY }                            \
    } while (0)

/* c / cols by a multiplication, corrected by one either way. */
static uint32_t row_of(size_t c, uint32_t cols, double inverse_cols)
{
    uint32_t r = (uint32_t)((double)c * inverse_cols);

    if ((size_t)r * cols > c)
        r--;
    else if ((size_t)(r + 1) * cols <= c)
        r++;
    return r;
}

/* The solve: retrograde analysis from the local maxima (Lose), with a
 * caller's FIFO queue of rows * cols + 1 entries (a branch-free push writes
 * one entry beyond the last).  Popping a Lose makes its
 * undecided lower neighbours Wins; popping a Win counts down their higher
 * neighbours not known to be Wins, and a count reaching 0 makes a Lose. */
static void solve_grid(uint32_t rows, uint32_t cols, const uint32_t *height,
                       uint8_t *state, uint32_t *queue)
{
    double inverse_cols = 1.0 / cols;
    size_t head = 0, tail = 0;

    for (uint32_t r = 0; r < rows; r++) {
        for (uint32_t k = 0; k < cols; k++) {
            size_t c = (size_t)r * cols + k;
            unsigned higher = 0;
            FOR_NEIGHBOURS(rows, cols, c, r, k, d,
                           { higher += height[d] > height[c]; });
            /* A local maximum has no move: a Lose, queued.  Branch-free:
             * with random heights every test here is a coin toss. */
            state[c] = (uint8_t)(higher == 0 ? DECIDED : higher);
            queue[tail] = (uint32_t)c;
            tail += higher == 0;
        }
    }
    while (head < tail) {
        size_t c = queue[head++];
        uint32_t r = row_of(c, cols, inverse_cols);
        uint32_t k = (uint32_t)(c - (size_t)r * cols);
        bool c_wins = (state[c] & WIN) != 0;
        uint32_t hc = height[c];

        /* The lower neighbours are the positions that can move onto c; the
         * update is computed without branches (see above). */
        FOR_NEIGHBOURS(rows, cols, c, r, k, d, {
            uint8_t sd = state[d];
            unsigned act = (height[d] < hc) & !(sd & DECIDED);
            uint8_t counted = (uint8_t)(sd - act);
            unsigned lost = act & ((counted & COUNT_MASK) == 0);
            state[d] = c_wins ? (lost ? (uint8_t)DECIDED : counted)
                              : (act ? (uint8_t)(DECIDED | WIN) : sd);
            queue[tail] = (uint32_t)d;
            tail += c_wins ? lost : act;
        });
    }
    for (size_t c = 0; c < (size_t)rows * cols; c++)
        state[c] = (state[c] & WIN) != 0;
}

loopy_status loopy_climb_solve(uint32_t rows, uint32_t cols,
                               const uint32_t *height, uint8_t *first_wins)
{
    uint32_t *queue;
    size_t cells = (size_t)rows * cols;

    if ((rows != 0 && cells / rows != cols) || cells > UINT32_MAX ||
        (cells > 0 && (height == NULL || first_wins == NULL)))
        return LOOPY_EINVAL;
    if (cells == 0)
        return LOOPY_OK;
    /* One spare entry: solve_grid writes past the last push. */
    queue = loopy_i_malloc(cells + 1, sizeof *queue);
    if (queue == NULL)
        return LOOPY_ENOMEM;
    solve_grid(rows, cols, height, first_wins, queue);
    loopy_i_free(queue);
    return LOOPY_OK;
}

void loopy_climb_answers_release(loopy_climb_answers *answers)
{
    if (answers == NULL)
        return;
    loopy_i_free(answers->first_wins);
    answers->first_wins = NULL;
    answers->count = 0;
}

/* Buffers of the largest test case so far, reused by the next ones.  They
 * grow as heights arrive rather than as n and m announce, so a short text
 * announcing a huge grid fails at its end without claiming the memory. */
typedef struct climb_reader {
    loopy_source *source;
    loopy_diag *diag;
    uint32_t *height;
    size_t height_capacity;
    uint8_t *state;
    size_t state_capacity;
    /* An open-addressing set of the heights read (0 marks a free slot),
     * then the solve's queue: 2 slots a cell or more, a queue needs 1. */
    uint32_t *seen;
    size_t seen_capacity;
    size_t slots;   /* in use for this case: a power of two */
    unsigned shift; /* 64 - log2(slots), for Fibonacci hashing */
    loopy_climb_answers *answers;
    size_t answer_capacity;
} climb_reader;

#define BATCH 16

#if defined(__GNUC__)
#define PREFETCH(addr) __builtin_prefetch(addr)
#else
#define PREFETCH(addr) ((void)(addr))
#endif

static size_t slot_of(const climb_reader *cr, uint32_t value)
{
    /* Fibonacci hashing: the top bits of the product are well mixed. */
    return (size_t)((value * UINT64_C(0x9e3779b97f4a7c15)) >> cr->shift);
}

/* Adds value to the set; false if it is there already. */
static bool insert_height(climb_reader *cr, uint32_t value)
{
    size_t slot = slot_of(cr, value);

    while (cr->seen[slot] != 0 && cr->seen[slot] != value)
        slot = (slot + 1) & (cr->slots - 1);
    if (cr->seen[slot] == value)
        return false;
    cr->seen[slot] = value;
    return true;
}

/* Makes the set slots entries (a power of two) holding height[0..count),
 * which are distinct. */
static loopy_status resize_set(climb_reader *cr, size_t slots, size_t count)
{
    if (slots > cr->seen_capacity) {
        uint32_t *grown = loopy_i_malloc(slots, sizeof *grown);
        if (grown == NULL)
            return LOOPY_ENOMEM;
        loopy_i_free(cr->seen);
        cr->seen = grown;
        cr->seen_capacity = slots;
    }
    cr->slots = slots;
    cr->shift = 64;
    for (size_t s = slots; s > 1; s >>= 1)
        cr->shift--;
    memset(cr->seen, 0, slots * sizeof *cr->seen);
    for (size_t c = 0; c < count; c++)
        (void)insert_height(cr, cr->height[c]);
    return LOOPY_OK;
}

/* Room for want heights (doubling, never past cells); the set's load kept
 * at half at most. */
static loopy_status reserve_heights(climb_reader *cr, size_t want, size_t have,
                                    size_t cells)
{
    if (want > cr->height_capacity) {
        size_t capacity = cr->height_capacity ? cr->height_capacity : 1024;
        uint32_t *grown;
        while (capacity < want)
            capacity *= 2;
        capacity = capacity < cells ? capacity : cells;
        grown = loopy_i_realloc(cr->height, capacity, sizeof *grown);
        if (grown == NULL)
            return LOOPY_ENOMEM;
        cr->height = grown;
        cr->height_capacity = capacity;
    }
    if (2 * want > cr->slots) {
        size_t slots = cr->slots;
        while (slots < 2 * want)
            slots *= 2;
        return resize_set(cr, slots, have);
    }
    return LOOPY_OK;
}

static loopy_status repeated_height(climb_reader *cr, size_t c, uint32_t cols,
                                    uint64_t line, uint64_t column)
{
    size_t first = 0;

    while (cr->height[first] != cr->height[c])
        first++;
    loopy_i_diag(cr->diag, line, column,
                 "expected a height different from the others of the grid, "
                 "found %" PRIu32 " again (row %zu, column %zu has it too)",
                 cr->height[c], first / cols + 1, first % cols + 1);
    return LOOPY_EPARSE;
}

/* Reads the n x m heights of one case, refusing a repeated height at its
 * place.  Heights are read in batches whose slots are prefetched before
 * they are probed: the set is larger than the caches, and each probe would
 * wait for memory.  A batch remembers where its tokens stood, for the
 * message.  Afterwards the set has at least 2 slots a cell. */
static loopy_status read_heights(climb_reader *cr, uint32_t rows, uint32_t cols)
{
    size_t cells = (size_t)rows * cols;
    uint64_t line[BATCH], column[BATCH];
    loopy_status status;

    status = resize_set(cr, 2048, 0);
    for (size_t c = 0; c < cells && status == LOOPY_OK; c += BATCH) {
        size_t count = cells - c < BATCH ? cells - c : BATCH, got;

        status = reserve_heights(cr, c + count, c, cells);
        if (status != LOOPY_OK) {
            loopy_i_diag(cr->diag, 0, 0, "out of memory for a %" PRIu32
                         " x %" PRIu32 " grid", rows, cols);
            return status;
        }
        for (got = 0; got < count; got++) {
            uint64_t value;
            status = LOOPY_I_READ_UINT(cr->source, 1, UINT32_MAX, &value,
                                       "a height (a whole number from 1 to "
                                       "4294967295)", cr->diag);
            if (status != LOOPY_OK)
                break; /* after the repeats before it are reported */
            cr->height[c + got] = (uint32_t)value;
            loopy_i_source_where(cr->source, &line[got], &column[got]);
            PREFETCH(&cr->seen[slot_of(cr, (uint32_t)value)]);
        }
        for (size_t i = 0; i < got; i++)
            if (!insert_height(cr, cr->height[c + i]))
                return repeated_height(cr, c + i, cols, line[i], column[i]);
    }
    return status;
}

/* Packs the 0/1 bytes of state into bits, in place (byte c / 8 is written
 * only after bytes c.. are read), so that queries at random cells look up a
 * table 8 times smaller, which stays in the cache. */
static void pack_bits(uint8_t *state, size_t cells)
{
    for (size_t c = 0; c < cells; c += 8) {
        unsigned byte = 0;
        for (size_t i = 0; i < 8 && c + i < cells; i++)
            byte |= (unsigned)state[c + i] << i;
        state[c / 8] = (uint8_t)byte;
    }
}

static loopy_status add_answer(climb_reader *cr, uint8_t first_wins)
{
    loopy_climb_answers *a = cr->answers;

    if (a->count == cr->answer_capacity) {
        size_t capacity = cr->answer_capacity ? 2 * cr->answer_capacity : 4096;
        uint8_t *grown = loopy_i_realloc(a->first_wins, capacity, 1);
        if (grown == NULL)
            return LOOPY_ENOMEM;
        a->first_wins = grown;
        cr->answer_capacity = capacity;
    }
    a->first_wins[a->count++] = first_wins;
    return LOOPY_OK;
}

/* Reads and answers test case number t (1-based). */
static loopy_status read_case(climb_reader *cr, uint64_t t, uint64_t cases)
{
    uint64_t rows, cols, queries, r, k;
    char what[96], what_col[96];
    loopy_status status;
    uint64_t limit = loopy_i_physical_memory();

    snprintf(what, sizeof what, "the row count n of test case %" PRIu64
             " of %" PRIu64, t, cases);
    CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 1, UINT32_MAX, &rows, what,
                                   cr->diag));
    CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 1, UINT32_MAX, &cols,
                                   "the column count m", cr->diag));
    /* 21 bytes a cell at most: height, state and up to 4 hash slots. */
    if (rows * cols > UINT32_MAX || rows * cols > limit / 21) {
        uint64_t line, column;
        loopy_i_source_where(cr->source, &line, &column);
        loopy_i_diag(cr->diag, line, column, "a %" PRIu64 " x %" PRIu64
                     " grid is too large for this machine", rows, cols);
        return LOOPY_ETOOBIG;
    }
    CHECK_GOTO(read_heights(cr, (uint32_t)rows, (uint32_t)cols));
    if (rows * cols > cr->state_capacity) {
        loopy_i_free(cr->state);
        cr->state_capacity = 0;
        cr->state = loopy_i_malloc((size_t)(rows * cols), 1);
        if (cr->state == NULL) {
            loopy_i_diag(cr->diag, 0, 0, "out of memory for a %" PRIu64
                         " x %" PRIu64 " grid", rows, cols);
            return LOOPY_ENOMEM;
        }
        cr->state_capacity = (size_t)(rows * cols);
    }
    solve_grid((uint32_t)rows, (uint32_t)cols, cr->height, cr->state,
               cr->seen);
    pack_bits(cr->state, (size_t)(rows * cols));

    CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 0, UINT64_MAX, &queries,
                                   "the query count q", cr->diag));
    snprintf(what, sizeof what, "a row from 1 to %" PRIu64, rows);
    snprintf(what_col, sizeof what_col, "a column from 1 to %" PRIu64, cols);
    for (uint64_t i = 0; i < queries; i++) {
        CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 1, rows, &r, what,
                                       cr->diag));
        CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 1, cols, &k, what_col,
                                       cr->diag));
        size_t cell = (size_t)((r - 1) * cols + (k - 1));
        status = add_answer(cr, (cr->state[cell >> 3] >> (cell & 7)) & 1);
        if (status != LOOPY_OK) {
            loopy_i_diag(cr->diag, 0, 0, "out of memory for the answers");
            return status;
        }
    }
    return LOOPY_OK;

fail:
    return status;
}

loopy_status loopy_climb_run(loopy_source *source, loopy_climb_answers *answers,
                             loopy_diag *diag)
{
    climb_reader cr;
    loopy_status status;
    uint64_t cases;

    if (answers == NULL)
        return LOOPY_EINVAL;
    answers->count = 0;
    answers->first_wins = NULL;
    if (source == NULL)
        return LOOPY_EINVAL;
    memset(&cr, 0, sizeof cr);
    cr.source = source;
    cr.diag = diag;
    cr.answers = answers;
    CHECK_GOTO(LOOPY_I_READ_UINT(source, 1, UINT64_MAX, &cases,
                                   "the number of test cases T", diag));
    for (uint64_t t = 1; t <= cases; t++)
        CHECK_GOTO(read_case(&cr, t, cases));
    status = loopy_i_source_end(source, "the end of the input after the last"
                                " test case", diag);

fail:
    loopy_i_free(cr.height);
    loopy_i_free(cr.state);
    loopy_i_free(cr.seen);
    if (status != LOOPY_OK)
        loopy_climb_answers_release(answers);
    return status;
}
