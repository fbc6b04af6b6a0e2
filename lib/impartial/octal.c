/*
 * octal.c - Sprague-Grundy values of octal heap games (loopy_octal_values).
 *
 * The value of heap n is the mex of its options: for each digit dk of the
 * code, taking k tokens may leave nothing (bit 1, n = k), one heap n - k
 * (bit 2), or two non-empty heaps a + b = n - k (bit 4), valued
 * G(a) XOR G(b).  Single-heap options are O(D) per heap; the split options
 * are the cost: done naively, O(n) pairs per heap and O(N^2) in all.
 *
 * Instead we ask, for t = 0, 1, 2, ... in turn, "is t an option's value?"
 * and stop at the first t that is not (the mex).  For a split s = n - k,
 * t is a value iff for some pair of values x <= y with x XOR y = t there is
 * a heap a < s of value x with G(s - a) = y.  Heaps are kept in one list
 * per value.  The evidence is gathered cheapest first, over all k at once
 * (split_reaches):
 *  1. pairs where one list is short are settled by walking it: this is the
 *     "rare and common values" observation of the octal-game literature
 *     (Guy; Gangolli and Plambeck) made automatic.  In Kayles the common
 *     values 1, 2, 4, 7, 8 fill almost every heap and the rare ones (0, 3,
 *     5, 6) stop early, so any XOR of a common value needs a rare part and
 *     its search walks a list of a few heaps;
 *  2. a direct search over the first 256 splits a + (s - a): two common
 *     values that make t nearly always do so within a few dozen splits;
 *  3. only then bitset scans for the pairs of long lists: forward[x] has
 *     bit a for each heap a of value x, reverse[y] bit N - b for each heap
 *     b of value y, so heaps a with G(s - a) = y are the bits a of
 *     reverse[y] shifted right by N - s, and 64 splits are tested per word.
 *     In practice this phase runs to the end only to prove that the mex is
 *     not reachable.
 * Measured at N = 100000 (bench/octal.sh): Kayles about 0.04 s, Dawson's
 * Kayles about 0.5 s (its values have no rare/common split, so phase 3
 * proves each mex), against 4-6 s for the naive recursion.
 *
 * Only values with at least max(64, N/64) heaps get bitsets, so at most 64
 * values have them: memory stays O(N) words.
 */
#include "octal_internal.h"

#include <ctype.h>

typedef struct value_class {
    uint32_t *heap;    /* heaps >= 1 with this value, increasing */
    size_t count, capacity;
    uint64_t *forward; /* bitsets, or NULL while the list is short */
    uint64_t *reverse;
} value_class;

typedef struct octal_work {
    uint8_t digit[LOOPY_OCTAL_MAX_DIGITS + 1]; /* digit[k] for k = 1..digits */
    unsigned digits;
    uint32_t heaps;
    const uint32_t *value; /* values[0..n) of the heaps done so far */
    value_class *cls;      /* one per value 0..class_count-1 */
    uint32_t class_count;
    size_t class_capacity;
    size_t words;          /* words of one bitset */
    size_t threshold;      /* list length from which a value gets bitsets */
    uint32_t direct_splits; /* splits tried one by one before bitset scans */
    uint64_t value_span;   /* a power of two above every value so far */
    uint32_t *seen;        /* seen[t] == n: t is a single-heap option of n */
    size_t seen_capacity;
} octal_work;

/* Parses "0.ddd" or ".ddd" into w->digit; on failure fills diag. */
static loopy_status parse_code(const char *code, octal_work *w,
                               loopy_diag *diag)
{
    size_t i = 0;

    if (code[i] == '0')
        i++;
    if (code[i] != '.') {
        if (code[i] == '\0')
            loopy_i_diag(diag, 1, i + 1, "expected an octal code such as "
                         "0.77, found the end of the code");
        else
            loopy_i_diag(diag, 1, i + 1, "expected an octal code such as "
                         "0.77, found '%c'", isprint((unsigned char)code[i])
                         ? code[i] : '?');
        return LOOPY_EPARSE;
    }
    i++;
    w->digits = 0;
    for (;; i++) {
        char c = code[i];
        if (c == '\0' && w->digits > 0)
            return LOOPY_OK;
        if (c < '0' || c > '7') {
            if (c == '\0')
                loopy_i_diag(diag, 1, i + 1, "expected an octal digit (0-7), "
                             "found the end of the code");
            else
                loopy_i_diag(diag, 1, i + 1, "expected an octal digit (0-7), "
                             "found '%c'", isprint((unsigned char)c) ? c : '?');
            return LOOPY_EPARSE;
        }
        if (w->digits == LOOPY_OCTAL_MAX_DIGITS) {
            loopy_i_diag(diag, 1, i + 1, "expected at most %d digits after "
                         "the point, found more", LOOPY_OCTAL_MAX_DIGITS);
            return LOOPY_EPARSE;
        }
        w->digit[++w->digits] = (uint8_t)(c - '0');
    }
}

/* Gives value x its bitsets, filled from its list. */
static loopy_status make_bitsets(octal_work *w, value_class *c)
{
    c->forward = loopy_i_calloc(w->words, sizeof *c->forward);
    c->reverse = loopy_i_calloc(w->words, sizeof *c->reverse);
    if (c->forward == NULL || c->reverse == NULL)
        return LOOPY_ENOMEM;
    for (size_t i = 0; i < c->count; i++) {
        uint64_t a = c->heap[i], r = (uint64_t)w->heaps - a;
        c->forward[a >> 6] |= UINT64_C(1) << (a & 63);
        c->reverse[r >> 6] |= UINT64_C(1) << (r & 63);
    }
    return LOOPY_OK;
}

/* Records that heap n (>= 1) has value x. */
static loopy_status add_heap(octal_work *w, uint32_t n, uint32_t x)
{
    value_class *c;

    if (x >= w->class_count) {
        if (x >= w->class_capacity) {
            size_t cap = w->class_capacity ? w->class_capacity : 16;
            value_class *grown;
            while (cap <= x)
                cap *= 2;
            grown = loopy_i_realloc(w->cls, cap, sizeof *grown);
            if (grown == NULL)
                return LOOPY_ENOMEM;
            w->cls = grown;
            w->class_capacity = cap;
        }
        for (uint32_t v = w->class_count; v <= x; v++)
            w->cls[v] = (value_class){NULL, 0, 0, NULL, NULL};
        w->class_count = x + 1;
        while (w->value_span <= x)
            w->value_span *= 2;
    }
    c = &w->cls[x];
    if (c->count == c->capacity) {
        size_t cap = c->capacity ? c->capacity * 2 : 8;
        uint32_t *grown = loopy_i_realloc(c->heap, cap, sizeof *grown);
        if (grown == NULL)
            return LOOPY_ENOMEM;
        c->heap = grown;
        c->capacity = cap;
    }
    c->heap[c->count++] = n;
    if (c->forward != NULL) {
        uint64_t r = (uint64_t)w->heaps - n;
        c->forward[n >> 6] |= UINT64_C(1) << (n & 63);
        c->reverse[r >> 6] |= UINT64_C(1) << (r & 63);
    } else if (c->count >= w->threshold) {
        return make_bitsets(w, c);
    }
    return LOOPY_OK;
}

/* Whether some heap a in [1, s) has value x and G(s - a) = y, by the
 * bitsets: word j of forward[x] against bits 64j + N - s ... of reverse[y]. */
static bool pair_by_bitsets(const octal_work *w, const value_class *cx,
                            const value_class *cy, uint32_t s)
{
    uint64_t shift = (uint64_t)w->heaps - s;
    size_t q = (size_t)(shift >> 6), last = (size_t)((s - 1) >> 6);
    unsigned r = (unsigned)(shift & 63);

    for (size_t j = 0; j <= last; j++) {
        uint64_t rev = cy->reverse[j + q];
        /* Bits past N in reverse are zero (heap sizes <= 0), and the array
         * has two spare words, so j + q + 1 is in range. */
        if (r != 0)
            rev = (rev >> r) | (cy->reverse[j + q + 1] << (64 - r));
        if ((cx->forward[j] & rev) != 0)
            return true;
    }
    return false;
}

/* Whether the pair of values (x, y) is cheap to settle by walking the
 * shorter list (else both have bitsets and a scan costs about s/64). */
static bool pair_is_cheap(const octal_work *w, uint32_t x, uint32_t y,
                          uint32_t s)
{
    const value_class *cx = &w->cls[x], *cy = &w->cls[y];
    size_t shorter = cx->count <= cy->count ? cx->count : cy->count;

    return cx->forward == NULL || cy->forward == NULL ||
           shorter <= ((size_t)s >> 6) + 1;
}

/* Whether some heap a in [1, s) has value x and G(s - a) = y. */
static bool pair_exists(const octal_work *w, uint32_t x, uint32_t y, uint32_t s)
{
    const value_class *cx = &w->cls[x], *cy = &w->cls[y];
    const value_class *walk = cx->count <= cy->count ? cx : cy;
    uint32_t other = walk == cx ? y : x;

    if (cx->count == 0 || cy->count == 0)
        return false;
    if (!pair_is_cheap(w, x, y, s))
        return pair_by_bitsets(w, cx, cy, s);
    for (size_t i = 0; i < walk->count && walk->heap[i] < s; i++)
        if (w->value[s - walk->heap[i]] == other)
            return true;
    return false;
}

/*
 * Whether a split move of heap n (taking k tokens where digit k has bit 4,
 * leaving two non-empty heaps summing to s = n - k) can give the value t.
 * Cheapest evidence first, across all k, so that a costly scan that finds
 * nothing at one s is not paid when another s has an easy witness:
 *  1. pairs of values with a short list (the rare values), walked;
 *  2. a direct search over the first splits a + (s - a): when two common
 *     values make t, a witness nearly always turns up within a few dozen;
 *  3. bitset scans of the pairs of long lists, which settle the rest
 *     (in practice: prove that t, the mex, is not reachable).
 */
static bool split_reaches(const octal_work *w, uint32_t n, uint32_t t)
{
    bool long_pairs = false;

    if (t >= w->value_span) /* an XOR of two values below the span */
        return false;
    for (unsigned k = 1; k <= w->digits && k + 2 <= n; k++) {
        uint32_t s = n - k;
        if (!(w->digit[k] & 4))
            continue;
        for (uint32_t x = 0; x < w->class_count; x++) {
            uint32_t y = x ^ t;
            if (y < x || y >= w->class_count || w->cls[x].count == 0 ||
                w->cls[y].count == 0)
                continue;
            if (!pair_is_cheap(w, x, y, s))
                long_pairs = true;
            else if (pair_exists(w, x, y, s))
                return true;
        }
    }
    if (!long_pairs)
        return false;
    for (unsigned k = 1; k <= w->digits && k + 2 <= n; k++) {
        uint32_t s = n - k, half = s / 2;
        uint32_t direct = half < w->direct_splits ? half : w->direct_splits;
        if (!(w->digit[k] & 4))
            continue;
        for (uint32_t a = 1; a <= direct; a++)
            if ((w->value[a] ^ w->value[s - a]) == t)
                return true;
    }
    for (unsigned k = 1; k <= w->digits && k + 2 <= n; k++) {
        uint32_t s = n - k;
        if (!(w->digit[k] & 4) || s / 2 <= w->direct_splits)
            continue; /* every split of s was tried directly */
        for (uint32_t x = 0; x < w->class_count; x++) {
            uint32_t y = x ^ t;
            if (y >= x && y < w->class_count && w->cls[x].count > 0 &&
                w->cls[y].count > 0 && !pair_is_cheap(w, x, y, s) &&
                pair_by_bitsets(w, &w->cls[x], &w->cls[y], s))
                return true;
        }
    }
    return false;
}

/* Marks t as a single-heap option value of heap n. */
static loopy_status mark_seen(octal_work *w, uint32_t t, uint32_t n)
{
    if (t >= w->seen_capacity) {
        size_t cap = w->seen_capacity ? w->seen_capacity : 64;
        uint32_t *grown;
        while (cap <= t)
            cap *= 2;
        grown = loopy_i_realloc(w->seen, cap, sizeof *grown);
        if (grown == NULL)
            return LOOPY_ENOMEM;
        for (size_t i = w->seen_capacity; i < cap; i++)
            grown[i] = 0;
        w->seen = grown;
        w->seen_capacity = cap;
    }
    w->seen[t] = n;
    return LOOPY_OK;
}

/* The value of heap n >= 1, all smaller heaps being done. */
static loopy_status heap_value(octal_work *w, uint32_t n, uint32_t *out)
{
    loopy_status status;
    uint32_t t = 0;

    for (unsigned k = 1; k <= w->digits && k <= n; k++) {
        if ((w->digit[k] & 1) && n == k)
            CHECK_GOTO(mark_seen(w, 0, n));
        if ((w->digit[k] & 2) && n > k)
            CHECK_GOTO(mark_seen(w, w->value[n - k], n));
    }
    for (;; t++) {
        bool reached = t < w->seen_capacity && w->seen[t] == n;
        if (!reached && !split_reaches(w, n, t))
            break;
    }
    *out = t;
    return LOOPY_OK;

fail:
    return status;
}

loopy_status loopy_octal_values(const char *code, uint32_t heaps,
                                uint32_t *values, loopy_diag *diag)
{
    /* At most 64 values can reach max(64, heaps/64) heaps: bounded memory.
     * 256 direct splits find nearly every witness that exists (measured on
     * Kayles and Dawson's Kayles: see bench/octal.sh). */
    loopy_i_octal_tuning tuning = {heaps / 64 > 64 ? heaps / 64 : 64, 256};

    return loopy_i_octal_values_tuned(code, heaps, values, diag, &tuning);
}

loopy_status loopy_i_octal_values_tuned(const char *code, uint32_t heaps,
                                        uint32_t *values, loopy_diag *diag,
                                        const loopy_i_octal_tuning *tuning)
{
    octal_work w = {0};
    loopy_status status;

    if (code == NULL || values == NULL || heaps == UINT32_MAX)
        return LOOPY_EINVAL;
    CHECK_GOTO(parse_code(code, &w, diag));
    w.heaps = heaps;
    w.value = values;
    w.value_span = 1;
    w.words = ((size_t)heaps >> 6) + 3;
    w.threshold = tuning->bitset_threshold > 1 ? tuning->bitset_threshold : 1;
    w.direct_splits = tuning->direct_splits;
    values[0] = 0;
    for (uint32_t n = 1; n <= heaps; n++) {
        CHECK_GOTO(heap_value(&w, n, &values[n]));
        CHECK_GOTO(add_heap(&w, n, values[n]));
    }
    status = LOOPY_OK;

fail:
    for (uint32_t x = 0; x < w.class_count; x++) {
        loopy_i_free(w.cls[x].heap);
        loopy_i_free(w.cls[x].forward);
        loopy_i_free(w.cls[x].reverse);
    }
    loopy_i_free(w.cls);
    loopy_i_free(w.seen);
    return status;
}
