/*
 * climb_read.c - the input of the grid game (seed 002): T test cases, each
 * a grid of distinct heights and queries, read, checked and answered one
 * case at a time.
 *
 * Distinct heights are checked where the input can be read again (a file,
 * or a memory text) by sorting a copy of the grid's heights: a sequential,
 * branch-free pass, where a hash set would wait for memory at each height.
 * Only when a height repeats is the grid read again, to find where the
 * repeat stands.  From a pipe, a hash set finds it as it is read.
 */
#include "climb.h"

#include "../io/tokens.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    uint8_t *state; /* the answers of the cells, packed in bits */
    size_t state_capacity;
    /* 2 slots a cell or more: the sorted copy of the heights (and its
     * radix sort's other half), or from a pipe an open-addressing set of
     * the heights read (0 marks a free slot); then the solve's words
     * (height << 8 | state), while the heights array is its queue. */
    uint32_t *seen;
    size_t seen_capacity;
    size_t slots;   /* in use for this case: a power of two */
    unsigned shift; /* 64 - log2(slots), for Fibonacci hashing */
    loopy_climb_answers *answers;
    size_t answer_capacity;
    /* The fast way (tokens.h): numbers come from here, and anything
     * unexpected fails the read, which then starts again the careful way
     * without it.  NULL: the careful way. */
    loopy_i_feed *feed;
} climb_reader;

#define BATCH 16

/* The next number, in [min, max]: from the feed (any failure is
 * LOOPY_EPARSE without a message; the careful read will make it) or from
 * the source. */
static loopy_status take(climb_reader *cr, uint64_t min, uint64_t max,
                         uint64_t *value, const char *what)
{
    uint32_t v;

    if (cr->feed == NULL)
        return LOOPY_I_READ_UINT(cr->source, min, max, value, what, cr->diag);
    if (!loopy_i_feed_next(cr->feed, &v) || v < min || v > max)
        return LOOPY_EPARSE;
    *value = v;
    return LOOPY_OK;
}

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

/* Room for want heights (doubling, never past cells). */
static loopy_status grow_heights(climb_reader *cr, size_t want, size_t cells)
{
    size_t capacity = cr->height_capacity ? cr->height_capacity : 1024;
    uint32_t *grown;

    if (want <= cr->height_capacity)
        return LOOPY_OK;
    while (capacity < want)
        capacity *= 2;
    capacity = capacity < cells ? capacity : cells;
    grown = loopy_i_realloc(cr->height, capacity, sizeof *grown);
    if (grown == NULL)
        return LOOPY_ENOMEM;
    cr->height = grown;
    cr->height_capacity = capacity;
    loopy_i_advise_huge(grown, capacity * sizeof *grown);
    return LOOPY_OK;
}

/* grow_heights, and the set's load kept at half at most. */
static loopy_status reserve_heights(climb_reader *cr, size_t want, size_t have,
                                    size_t cells)
{
    loopy_status status = grow_heights(cr, want, cells);

    if (status == LOOPY_OK && 2 * want > cr->slots) {
        size_t slots = cr->slots;
        while (slots < 2 * want)
            slots *= 2;
        status = resize_set(cr, slots, have);
    }
    return status;
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

/* Reads the n x m heights of one case from a pipe, refusing a repeated
 * height at its place.  Heights are read in batches whose slots are prefetched before
 * they are probed: the set is larger than the caches, and each probe would
 * wait for memory.  A batch remembers where its tokens stood, for the
 * message.  Afterwards the set has at least 2 slots a cell. */
static loopy_status read_heights_hashed(climb_reader *cr, uint32_t rows,
                                        uint32_t cols)
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

/* Sorts a[0..n) by LSD radix sort, four passes of 8 bits (256 buckets
 * stay in the cache while they are written), through tmp; the result ends
 * in a. */
static uint32_t *radix_sort(uint32_t *a, uint32_t *tmp, size_t n)
{
    size_t count[4][256];
    uint32_t *from = a, *to = tmp, *swap;

    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint32_t v = a[i];
        count[0][v & 255]++;
        count[1][(v >> 8) & 255]++;
        count[2][(v >> 16) & 255]++;
        count[3][v >> 24]++;
    }
    for (unsigned p = 0; p < 4; p++) {
        size_t sum = 0;
        for (size_t d = 0; d < 256; d++) {
            size_t c = count[p][d];
            count[p][d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[p][(from[i] >> (8 * p)) & 255]++] = from[i];
        swap = from;
        from = to;
        to = swap;
    }
    return from;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The first cell (in reading order) whose height came before, or cells if
 * none; sorted holds the heights sorted.  LOOPY_ENOMEM possible. */
static loopy_status first_repeat(const climb_reader *cr, const uint32_t *sorted,
                                 size_t cells, size_t *repeat)
{
    size_t repeated = 0, k = 0;
    uint32_t *values;
    uint8_t *seen;

    *repeat = cells;
    for (size_t i = 1; i < cells; i++)
        repeated += sorted[i] == sorted[i - 1] &&
                    (i == 1 || sorted[i - 1] != sorted[i - 2]);
    if (repeated == 0)
        return LOOPY_OK;
    /* Only a bad input gets here: the repeated values, then the first cell
     * to show one of them a second time. */
    values = loopy_i_malloc(repeated, sizeof *values);
    seen = loopy_i_calloc(repeated, 1);
    if (values == NULL || seen == NULL) {
        loopy_i_free(values);
        loopy_i_free(seen);
        return LOOPY_ENOMEM;
    }
    for (size_t i = 1; i < cells; i++)
        if (sorted[i] == sorted[i - 1] &&
            (i == 1 || sorted[i - 1] != sorted[i - 2]))
            values[k++] = sorted[i];
    for (size_t c = 0; c < cells && *repeat == cells; c++) {
        const uint32_t *hit = bsearch(&cr->height[c], values, repeated,
                                      sizeof *values, compare_u32);
        if (hit != NULL && seen[hit - values]++)
            *repeat = c;
    }
    loopy_i_free(values);
    loopy_i_free(seen);
    return LOOPY_OK;
}

/* True if a[0..n) are distinct; part: n entries, bits: 2^21 bits (zero on
 * entry and on return).  Multiplying by an odd number is a bijection of
 * the 32-bit words, so two values are equal iff their products are: a pass
 * scatters the products by their top 11 bits (2048 buckets, as a radix
 * sort's pass), then each bucket marks the low 21 bits of its products in
 * the bitmap, which stays in the cache, and unmarks them after.  Two
 * scattering passes instead of the radix sort's four, and no branches. */
static bool distinct_bijective(const uint32_t *a, size_t n, uint32_t *part,
                               uint64_t *bits)
{
    enum { TOP = 11, LOW = 32 - TOP, BUCKETS = 1 << TOP };
    const uint32_t odd = UINT32_C(0x9e3779b1);
    size_t start[BUCKETS + 1];
    uint64_t repeat = 0;

    memset(start, 0, sizeof start);
    for (size_t i = 0; i < n; i++)
        start[(uint32_t)(a[i] * odd) >> LOW]++;
    for (size_t b = 0, sum = 0; b <= BUCKETS; b++) {
        size_t c = start[b];
        start[b] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t h = a[i] * odd;
        part[start[h >> LOW]++] = h;
    }
    /* start[b] is now the end of bucket b. */
    for (size_t b = 0, from = 0; b < BUCKETS; from = start[b++]) {
        for (size_t i = from; i < start[b]; i++) {
            uint32_t low = part[i] & ((UINT32_C(1) << LOW) - 1);
            uint64_t word = bits[low >> 6], bit = UINT64_C(1) << (low & 63);
            repeat |= word & bit;
            bits[low >> 6] = word | bit;
        }
        for (size_t i = from; i < start[b]; i++)
            bits[(part[i] & ((UINT32_C(1) << LOW) - 1)) >> 6] = 0;
    }
    return repeat == 0;
}

/* Checks that height[0..count) are distinct by sorting a copy in seen
 * (grown to 2 slots a height); a repeat is reported at its place, found by
 * reading the grid again from its mark (grid NULL: not reported).  LOOPY_OK,
 * LOOPY_EPARSE (repeat), LOOPY_ENOMEM or LOOPY_EIO. */
static loopy_status check_distinct(climb_reader *cr, size_t count,
                                   const loopy_i_mark *grid, uint32_t cols)
{
    uint64_t value, line = 0, column = 0;
    loopy_status status;
    uint32_t *sorted;
    size_t repeat;

    if (2 * count > cr->seen_capacity) {
        loopy_i_free(cr->seen);
        cr->seen_capacity = 0;
        cr->seen = loopy_i_malloc(2 * count, sizeof *cr->seen);
        if (cr->seen == NULL)
            return LOOPY_ENOMEM;
        cr->seen_capacity = 2 * count;
        loopy_i_advise_huge(cr->seen, 2 * count * sizeof *cr->seen);
    }
    /* A large grid is first checked without sorting: the bitmap (2^21
     * bits) fits in seen after the scattered copy. */
    if (count >= ((size_t)1 << 16)) {
        uint64_t *bits = (uint64_t *)(void *)(cr->seen + count +
                                              (count & 1));
        memset(bits, 0, (size_t)1 << 18);
        if (distinct_bijective(cr->height, count, cr->seen, bits))
            return LOOPY_OK;
    }
    /* A repeat (or a small grid): sorting says for sure, and where. */
    memcpy(cr->seen, cr->height, count * sizeof *cr->seen);
    sorted = radix_sort(cr->seen, cr->seen + count, count);
    status = first_repeat(cr, sorted, count, &repeat);
    if (status != LOOPY_OK || repeat == count)
        return status;
    if (grid == NULL)
        return LOOPY_EPARSE; /* the fast way: the careful one will say */
    status = loopy_i_source_rewind(cr->source, grid, cr->diag);
    for (size_t c = 0; c <= repeat && status == LOOPY_OK; c++)
        status = LOOPY_I_READ_UINT(cr->source, 1, UINT32_MAX, &value,
                                   "a height", cr->diag);
    if (status != LOOPY_OK)
        return status; /* the file changed under us */
    loopy_i_source_where(cr->source, &line, &column);
    return repeated_height(cr, repeat, cols, line, column);
}

/* read_heights the fast way: the heights straight from the feed's chunks,
 * then checked (from 1 up, distinct). */
static loopy_status read_heights_fast(climb_reader *cr, uint32_t rows,
                                      uint32_t cols)
{
    size_t cells = (size_t)rows * cols, count = 0;
    loopy_i_feed *f = cr->feed;
    uint32_t zero = 0;

    while (count < cells) {
        size_t take_now = f->count - f->at;
        if (take_now == 0) {
            if (!loopy_i_feed_refill(f))
                return LOOPY_EPARSE;
            continue;
        }
        take_now = take_now < cells - count ? take_now : cells - count;
        /* Room grows with the heights the text has shown. */
        if (grow_heights(cr, count + take_now, cells) != LOOPY_OK)
            return LOOPY_ENOMEM;
        for (size_t i = 0; i < take_now; i++) {
            uint32_t h = f->value[f->at + i];
            zero |= (uint32_t)(h == 0);
            cr->height[count + i] = h;
        }
        f->at += take_now;
        count += take_now;
    }
    return zero ? LOOPY_EPARSE : check_distinct(cr, cells, NULL, cols);
}

/* Reads the n x m heights of one case from a source that can be read
 * again, then checks them (check_distinct).  A bad token ends the reading,
 * but a repeat before it is reported first, as it comes first.  Afterwards
 * seen has at least 2 slots a cell (the solve's queue). */
static loopy_status read_heights(climb_reader *cr, uint32_t rows, uint32_t cols)
{
    size_t cells = (size_t)rows * cols, count;
    loopy_status status = LOOPY_OK, checked;
    loopy_i_mark grid;

    if (cr->feed != NULL)
        return read_heights_fast(cr, rows, cols);
    if (!cr->source->seekable)
        return read_heights_hashed(cr, rows, cols);
    loopy_i_source_mark(cr->source, &grid);
    for (count = 0; count < cells; count++) {
        uint64_t value;
        if (count == cr->height_capacity &&
            grow_heights(cr, count + 1, cells) != LOOPY_OK) {
            status = LOOPY_ENOMEM;
            break;
        }
        status = LOOPY_I_READ_UINT(cr->source, 1, UINT32_MAX, &value,
                                   "a height (a whole number from 1 to "
                                   "4294967295)", cr->diag);
        if (status != LOOPY_OK)
            break;
        cr->height[count] = (uint32_t)value;
    }
    if (status == LOOPY_OK) {
        status = check_distinct(cr, cells, &grid, cols);
    } else if (status == LOOPY_EPARSE && count > 1) {
        loopy_diag bad_token;
        if (cr->diag != NULL)
            bad_token = *cr->diag;
        checked = check_distinct(cr, count, &grid, cols);
        if (checked == LOOPY_EPARSE || checked == LOOPY_EIO)
            return checked;
        if (cr->diag != NULL)
            *cr->diag = bad_token;
    }
    if (status == LOOPY_ENOMEM)
        loopy_i_diag(cr->diag, 0, 0, "out of memory for a %" PRIu32 " x %"
                     PRIu32 " grid", rows, cols);
    return status;
}

/* Packs the answers of the solved cells (their LOOPY_I_CLIMB_WIN bits)
 * into bits of state, so that queries at random cells look up a table 64
 * times smaller than the words, which stays in the cache. */
static void pack_bits(const uint64_t *cell, size_t cells, uint8_t *state)
{
    for (size_t c = 0; c < cells; c += 8) {
        unsigned byte = 0;
        for (size_t i = 0; i < 8 && c + i < cells; i++)
            byte |= ((cell[c + i] & LOOPY_I_CLIMB_WIN) != 0) << i;
        state[c / 8] = (uint8_t)byte;
    }
}

/* Room for more answers (doubling): at most what the text has shown. */
static loopy_status reserve_answers(climb_reader *cr, size_t more)
{
    loopy_climb_answers *a = cr->answers;
    size_t capacity = cr->answer_capacity ? cr->answer_capacity : 4096;
    uint8_t *grown;

    if (more <= cr->answer_capacity - a->count)
        return LOOPY_OK;
    while (capacity - a->count < more)
        capacity *= 2;
    grown = loopy_i_realloc(a->first_wins, capacity, 1);
    if (grown == NULL)
        return LOOPY_ENOMEM;
    a->first_wins = grown;
    cr->answer_capacity = capacity;
    return LOOPY_OK;
}

/* The fast way of answering `count` queries: pairs of numbers from the
 * feed's chunks, checked against the grid. */
static loopy_status answer_fast(climb_reader *cr, uint8_t *answer, size_t count,
                                uint64_t rows, uint64_t cols)
{
    loopy_i_feed *f = cr->feed;

    for (size_t j = 0; j < count; j++) {
        uint32_t r, k;
        size_t cell;
        if (f->count - f->at >= 2) {
            r = f->value[f->at];
            k = f->value[f->at + 1];
            f->at += 2;
        } else if (!loopy_i_feed_next(f, &r) || !loopy_i_feed_next(f, &k)) {
            return LOOPY_EPARSE;
        }
        if (r - 1 >= rows || k - 1 >= cols) /* 0 wraps around */
            return LOOPY_EPARSE;
        cell = (size_t)((r - 1) * cols + (k - 1));
        answer[j] = (cr->state[cell >> 3] >> (cell & 7)) & 1;
    }
    cr->answers->count += count;
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
    CHECK_GOTO(take(cr, 1, UINT32_MAX, &rows, what));
    CHECK_GOTO(take(cr, 1, UINT32_MAX, &cols, "the column count m"));
    /* 21 bytes a cell at most: height, state and up to 4 hash slots. */
    if (rows * cols > UINT32_MAX || rows * cols > limit / 21) {
        uint64_t line, column;
        loopy_i_source_where(cr->source, &line, &column);
        loopy_i_diag(cr->diag, line, column, "a %" PRIu64 " x %" PRIu64
                     " grid is too large for this machine", rows, cols);
        return LOOPY_ETOOBIG;
    }
    CHECK_GOTO(read_heights(cr, (uint32_t)rows, (uint32_t)cols));
    if ((rows * cols + 7) / 8 > cr->state_capacity) {
        loopy_i_free(cr->state);
        cr->state_capacity = 0;
        cr->state = loopy_i_malloc((size_t)(rows * cols + 7) / 8, 1);
        if (cr->state == NULL) {
            loopy_i_diag(cr->diag, 0, 0, "out of memory for a %" PRIu64
                         " x %" PRIu64 " grid", rows, cols);
            return LOOPY_ENOMEM;
        }
        cr->state_capacity = (size_t)(rows * cols + 7) / 8;
    }
    /* The set (2 slots a cell) becomes the solve's words, and the heights
     * its queue, which needs a spare entry. */
    if (grow_heights(cr, (size_t)(rows * cols) + 1,
                     (size_t)(rows * cols) + 1) != LOOPY_OK) {
        loopy_i_diag(cr->diag, 0, 0, "out of memory for a %" PRIu64 " x %"
                     PRIu64 " grid", rows, cols);
        return LOOPY_ENOMEM;
    }
    {
        uint64_t *cell = (uint64_t *)(void *)cr->seen;
        loopy_i_climb_solve_grid((uint32_t)rows, (uint32_t)cols, cr->height,
                                 cell, cr->height);
        pack_bits(cell, (size_t)(rows * cols), cr->state);
    }

    CHECK_GOTO(take(cr, 0, UINT64_MAX, &queries, "the query count q"));
    snprintf(what, sizeof what, "a row from 1 to %" PRIu64, rows);
    snprintf(what_col, sizeof what_col, "a column from 1 to %" PRIu64, cols);
    /* Room is made for a block of answers at a time, never more than the
     * queries read so far justify (doubling). */
    for (uint64_t i = 0; i < queries;) {
        uint64_t block = queries - i < 4096 ? queries - i : 4096;
        uint8_t *answer;

        if (reserve_answers(cr, (size_t)block) != LOOPY_OK) {
            loopy_i_diag(cr->diag, 0, 0, "out of memory for the answers");
            return LOOPY_ENOMEM;
        }
        answer = cr->answers->first_wins + cr->answers->count;
        if (cr->feed != NULL) {
            CHECK_GOTO(answer_fast(cr, answer, (size_t)block, rows, cols));
            i += block;
            continue;
        }
        for (uint64_t j = 0; j < block; j++) {
            size_t cell;
            CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 1, rows, &r, what,
                                         cr->diag));
            CHECK_GOTO(LOOPY_I_READ_UINT(cr->source, 1, cols, &k, what_col,
                                         cr->diag));
            cell = (size_t)((r - 1) * cols + (k - 1));
            answer[j] = (cr->state[cell >> 3] >> (cell & 7)) & 1;
            cr->answers->count++;
        }
        i += block;
    }
    return LOOPY_OK;

fail:
    return status;
}

/* The whole input the fast way, when it is in memory and can be read
 * again (tokens.h).  Sets *taken if it answered every query.  Otherwise
 * the source is back where it was and no answers are kept: then the
 * careful way reads the input and says what is wrong.  LOOPY_ENOMEM if
 * memory runs out. */
static loopy_status read_fast(climb_reader *cr, bool *taken)
{
    loopy_i_feed f;
    loopy_i_mark start;
    loopy_status status;
    uint64_t cases;
    loopy_diag ignored = {0, 0, "out of memory", LOOPY_HINT_NONE};
    loopy_diag *diag = cr->diag;
    const char *text;
    size_t len;

    *taken = false;
    if (!loopy_i_source_rest(cr->source, &text, &len))
        return LOOPY_OK;
    loopy_i_source_mark(cr->source, &start);
    status = loopy_i_feed_open(&f, cr->source, 0, 0);
    if (status != LOOPY_OK) {
        loopy_i_diag(diag, 0, 0, "out of memory");
        return status;
    }
    cr->feed = &f;
    cr->diag = &ignored; /* a message now would be a guess */
    status = take(cr, 1, UINT64_MAX, &cases, "");
    for (uint64_t t = 1; t <= cases && status == LOOPY_OK; t++)
        status = read_case(cr, t, cases);
    if (status == LOOPY_OK && !loopy_i_feed_done(&f))
        status = LOOPY_EPARSE;
    loopy_i_feed_close(&f);
    cr->feed = NULL;
    cr->diag = diag;
    if (status == LOOPY_OK) {
        *taken = true;
        return LOOPY_OK;
    }
    if (status == LOOPY_ENOMEM) {
        /* Its message names what did not fit, and no place. */
        if (diag != NULL)
            *diag = ignored;
        return status;
    }
    cr->answers->count = 0;
    /* A mapping or a memory text (the feed needs one): this cannot fail. */
    (void)loopy_i_source_rewind(cr->source, &start, NULL);
    return LOOPY_OK;
}

loopy_status loopy_climb_run(loopy_source *source, loopy_climb_answers *answers,
                             loopy_diag *diag)
{
    climb_reader cr;
    loopy_status status;
    uint64_t cases;
    bool taken;

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
    CHECK_GOTO(read_fast(&cr, &taken));
    if (taken)
        goto fail; /* the way out, with status LOOPY_OK */
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
