/*
 * digits.h - the readers' shared arithmetic for decimal text: runs of digits
 * read eight bytes at a time, and 64-byte blocks sorted into digits, blanks
 * and newlines with one bit per byte.
 *
 * Reading a token byte by byte makes every token wait for the one before
 * it.  With the class masks of a block, the place of every token in it is
 * known at once (a digit whose left neighbour is not a digit starts one),
 * so the tokens of a block are parsed independently of each other.
 */
#ifndef LOOPY_DIGITS_H
#define LOOPY_DIGITS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define LOOPY_I_INLINE static inline __attribute__((always_inline))
#else
#define LOOPY_I_INLINE static inline
#endif

#if defined(__SSE2__) && !defined(LOOPY_NO_SIMD)
#include <emmintrin.h>
#define LOOPY_I_SSE2 1
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&    \
    defined(__GNUC__)
/* How many of the 8 bytes of chunk (first byte lowest) are leading digits:
 * a byte is a digit iff its high nibble is 3 and adding 6 keeps it so.  A
 * carry out of a non-digit byte can only spoil the bytes after it. */
LOOPY_I_INLINE unsigned loopy_i_digit_run(uint64_t chunk)
{
    const uint64_t high = UINT64_C(0xf0f0f0f0f0f0f0f0);
    const uint64_t threes = UINT64_C(0x3030303030303030);
    uint64_t bad = ((chunk & high) ^ threes) |
                   (((chunk + UINT64_C(0x0606060606060606)) & high) ^ threes);
    /* The top bit of each byte of bad that is not zero. */
    uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
    uint64_t nonzero = (((bad & low7) + low7) | bad) & ~low7;

    return nonzero ? (unsigned)__builtin_ctzll(nonzero) / 8 : 8;
}

/* The value of the first len (1..8) digit bytes of chunk: shifting them to
 * the top fills the front with zero bytes, which count as leading zeros;
 * then pairs, quads and octets of digits are combined by multiplication. */
LOOPY_I_INLINE uint64_t loopy_i_digits_value(uint64_t chunk, unsigned len)
{
    uint64_t v = chunk << (8 * (8 - len));
    v = ((v & UINT64_C(0x0f0f0f0f0f0f0f0f)) * 2561) >> 8;
    v = ((v & UINT64_C(0x00ff00ff00ff00ff)) * 6553601) >> 16;
    return ((v & UINT64_C(0x0000ffff0000ffff)) * UINT64_C(42949672960001)) >>
           32;
}
#define LOOPY_I_SWAR 1

/* The number of at most 10 digits at p, which the caller knows to start
 * with a digit and to have 16 readable bytes: true with *value and *len
 * set, false for 11 digits or more. */
LOOPY_I_INLINE bool loopy_i_number10(const char *p, uint64_t *value,
                                     unsigned *len)
{
    uint64_t chunk, more;
    unsigned run, run2;

    memcpy(&chunk, p, 8);
    run = loopy_i_digit_run(chunk);
    if (run < 8) {
        *value = loopy_i_digits_value(chunk, run);
        *len = run;
        return true;
    }
    memcpy(&more, p + 8, 8);
    run2 = loopy_i_digit_run(more);
    if (run2 > 2)
        return false;
    *value = loopy_i_digits_value(chunk, 8) * (run2 == 0 ? 1 : run2 == 1 ? 10 : 100) +
             (run2 ? loopy_i_digits_value(more, run2) : 0);
    *len = 8 + run2;
    return true;
}
/* The value of the len (1..10) digits at p; 8 bytes from p and from the
 * last 8 digits must be readable. */
LOOPY_I_INLINE uint64_t loopy_i_number_at(const char *p, unsigned len)
{
    uint64_t a, b;

    memcpy(&a, p, 8);
    if (len <= 8)
        return loopy_i_digits_value(a, len);
    memcpy(&b, p + len - 8, 8);
    return loopy_i_digits_value(a, len - 8) * 100000000u +
           loopy_i_digits_value(b, 8);
}
#endif

#ifdef LOOPY_I_SSE2
/* The digit bytes of 16 bytes at p, a bit each. */
LOOPY_I_INLINE unsigned loopy_i_digits16(const char *p)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* x - '0' below 10, unsigned, as a signed compare after moving '0' to
     * -128. */
    __m128i shifted = _mm_add_epi8(x, _mm_set1_epi8((char)(128 - '0')));
    __m128i d = _mm_cmplt_epi8(shifted, _mm_set1_epi8((char)(-128 + 10)));
    return (unsigned)(uint16_t)_mm_movemask_epi8(d);
}
#endif

/* Block classes, one bit per byte of a 64-byte block (byte i: bit i). */
typedef struct loopy_i_block {
    uint64_t digit;   /* '0'..'9' */
    uint64_t newline; /* '\n' */
    uint64_t other;   /* neither those nor a blank (' ', '\t', '\r') */
} loopy_i_block;

/* Classifies the 64 bytes at p. */
LOOPY_I_INLINE void loopy_i_classify(const char *p, loopy_i_block *b)
{
#ifdef LOOPY_I_SSE2
    uint64_t digit = 0, newline = 0, known = 0;

    for (unsigned i = 0; i < 4; i++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        /* x - '0' below 10, unsigned, as a signed compare after moving
         * '0' to -128. */
        __m128i shifted = _mm_add_epi8(x, _mm_set1_epi8((char)(128 - '0')));
        __m128i d = _mm_cmplt_epi8(shifted, _mm_set1_epi8((char)(-128 + 10)));
        __m128i nl = _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'));
        __m128i blank = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                         _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))),
            _mm_cmpeq_epi8(x, _mm_set1_epi8('\r')));
        __m128i any = _mm_or_si128(_mm_or_si128(d, nl), blank);
        digit |= (uint64_t)(uint16_t)_mm_movemask_epi8(d) << (16 * i);
        newline |= (uint64_t)(uint16_t)_mm_movemask_epi8(nl) << (16 * i);
        known |= (uint64_t)(uint16_t)_mm_movemask_epi8(any) << (16 * i);
    }
    b->digit = digit;
    b->newline = newline;
    b->other = ~known;
#else
    uint64_t digit = 0, newline = 0, other = 0;

    for (unsigned i = 0; i < 64; i++) {
        char c = p[i];
        uint64_t bit = (uint64_t)1 << i;
        if ((unsigned)(c - '0') < 10u)
            digit |= bit;
        else if (c == '\n')
            newline |= bit;
        else if (c != ' ' && c != '\t' && c != '\r')
            other |= bit;
    }
    b->digit = digit;
    b->newline = newline;
    b->other = other;
#endif
}

#endif
