/*
 * test_octal.c - Sprague-Grundy values of octal games.
 *
 * Oracles: the published sequences of Kayles (OEIS A002186) and Dawson's
 * Chess (OEIS A002187), their known periods, and a naive recursion that
 * tries every split of every heap (a different algorithm: no value lists,
 * no bitsets), on many random codes.
 */
#include "check.h"
#include "gen.h"
#include "internal.h"
#include "loopy.h"
#include "../lib/impartial/octal_internal.h"

#include <string.h>

/* OEIS A002186, a(0..79): Kayles, octal code 0.77.  Typed from the
 * published sequence; it agrees with the naive recursion below and with
 * the period 12 that holds from n = 71 on (checked further down). */
static const uint32_t kayles[80] = {
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4,
    1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1,
    2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2,
    8, 1, 4, 7, 2,
};

/* OEIS A002187, a(0..79): Dawson's Chess, octal code 0.137.  Dawson's
 * Kayles (0.07) is the same game shifted by one: its heap n has value
 * a(n - 1) for n >= 1 (the index offset).  Period 34 from n = 52 on. */
static const uint32_t dawson_chess[80] = {
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0,
    2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5,
    5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1,
    1, 0, 3, 3, 2,
};

/* The naive recursion: every option of every heap, mex by a flag array. */
static void naive_values(const uint8_t *digit, unsigned digits, uint32_t heaps,
                         uint32_t *g)
{
    /* Values stay below 2 * (number of options) + 1, and options number
     * at most digits * (heaps + 2). */
    size_t flag_size = 2 * ((size_t)digits * (heaps + 2)) + 2;
    uint8_t *flag = calloc(flag_size, 1);

    g[0] = 0;
    for (uint32_t n = 1; n <= heaps; n++) {
        memset(flag, 0, flag_size);
        for (unsigned k = 1; k <= digits && k <= n; k++) {
            if ((digit[k] & 1) && n == k)
                flag[0] = 1;
            if ((digit[k] & 2) && n > k)
                flag[g[n - k]] = 1;
            if (digit[k] & 4)
                for (uint32_t a = 1; a + 1 <= n - k; a++)
                    flag[g[a] ^ g[n - k - a]] = 1;
        }
        uint32_t m = 0;
        while (flag[m])
            m++;
        g[n] = m;
    }
    free(flag);
}

static void test_published(void)
{
    enum { N = 3000 };
    uint32_t *k = malloc((N + 1) * sizeof *k);
    uint32_t *c = malloc((N + 1) * sizeof *c);
    uint32_t *d = malloc((N + 1) * sizeof *d);
    loopy_diag diag;

    CHECK(loopy_octal_values("0.77", N, k, &diag) == LOOPY_OK);
    CHECK(loopy_octal_values("0.137", N, c, &diag) == LOOPY_OK);
    CHECK(loopy_octal_values("0.07", N, d, &diag) == LOOPY_OK);
    for (uint32_t n = 0; n < 80; n++) {
        CHECK_MSG(k[n] == kayles[n], "Kayles heap %u", n);
        CHECK_MSG(c[n] == dawson_chess[n], "Dawson's Chess heap %u", n);
        CHECK_MSG(d[n] == (n == 0 ? 0 : dawson_chess[n - 1]),
                  "Dawson's Kayles heap %u", n);
    }
    check_case_end();
    /* The known periods, and that they start exactly where published. */
    for (uint32_t n = 71; n + 12 <= N; n++)
        CHECK_MSG(k[n] == k[n + 12], "Kayles period at %u", n);
    CHECK(k[70] != k[82]);
    for (uint32_t n = 52; n + 34 <= N; n++)
        CHECK_MSG(c[n] == c[n + 34], "Dawson's Chess period at %u", n);
    CHECK(c[51] != c[85]);
    for (uint32_t n = 1; n < N; n++)
        CHECK(d[n + 1] == c[n]);
    check_case_end();
    /* ".77" is accepted as "0.77". */
    CHECK(loopy_octal_values(".77", 100, c, NULL) == LOOPY_OK);
    CHECK(memcmp(c, k, 101 * sizeof *c) == 0);
    check_case_end();
    free(k);
    free(c);
    free(d);
}

/* Random codes of 1..6 digits (the bitset path needs long value lists, so
 * some runs are long). */
static void test_random_codes(void)
{
    gen_rng r;
    gen_rng_seed(&r, 20261129);

    for (int round = 0; round < 400; round++) {
        char code[16] = "0.";
        uint8_t digit[8] = {0};
        unsigned digits = gen_range32(&r, 1, 6);
        uint32_t heaps = round % 40 == 0 ? gen_range32(&r, 2000, 5000)
                                         : gen_range32(&r, 0, 400);
        uint32_t *fast = malloc(((size_t)heaps + 1) * sizeof *fast);
        uint32_t *slow = malloc(((size_t)heaps + 1) * sizeof *slow);

        for (unsigned i = 1; i <= digits; i++) {
            digit[i] = (uint8_t)gen_below32(&r, 8);
            code[1 + i] = (char)('0' + digit[i]);
        }
        code[2 + digits] = '\0';
        naive_values(digit, digits, heaps, slow);
        /* The default tuning, then tunings that force the bitset scans
         * (tiny threshold, few or no direct splits) on small heaps. */
        for (int tune = 0; tune < (heaps <= 600 ? 3 : 1); tune++) {
            static const loopy_i_octal_tuning tunings[] = {{1, 0}, {2, 3}};
            loopy_status status =
                tune == 0 ? loopy_octal_values(code, heaps, fast, NULL)
                          : loopy_i_octal_values_tuned(code, heaps, fast, NULL,
                                                       &tunings[tune - 1]);
            CHECK(status == LOOPY_OK);
            for (uint32_t n = 0; n <= heaps; n++)
                CHECK_MSG(fast[n] == slow[n], "code %s tuning %d heap %u: "
                          "%u, naive %u", code, tune, n, fast[n], slow[n]);
        }
        free(fast);
        free(slow);
        check_case_end();
    }
}

static void test_bad_codes(void)
{
    static const struct {
        const char *code;
        uint64_t column;
        const char *message;
    } bad[] = {
        {"", 1, "expected an octal code such as 0.77, found the end of the code"},
        {"1.7", 1, "expected an octal code such as 0.77, found '1'"},
        {"0,7", 2, "expected an octal code such as 0.77, found ','"},
        {"0.", 3, "expected an octal digit (0-7), found the end of the code"},
        {"0.78", 4, "expected an octal digit (0-7), found '8'"},
        {"0.7 ", 4, "expected an octal digit (0-7), found ' '"},
        {"0.77777777777777777777777777777777777777777777777777777777777777777",
         67, "expected at most 64 digits after the point, found more"},
    };
    uint32_t values[8];

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        CHECK(loopy_octal_values(bad[i].code, 7, values, &diag) == LOOPY_EPARSE);
        CHECK_MSG(diag.line == 1 && diag.column == bad[i].column,
                  "'%s': column %llu", bad[i].code,
                  (unsigned long long)diag.column);
        CHECK_MSG(strcmp(diag.message, bad[i].message) == 0, "'%s': %s",
                  bad[i].code, diag.message);
        check_case_end();
    }
    CHECK(loopy_octal_values(NULL, 7, values, NULL) == LOOPY_EINVAL);
    CHECK(loopy_octal_values("0.7", 7, NULL, NULL) == LOOPY_EINVAL);
    CHECK(loopy_octal_values("0.7", UINT32_MAX, values, NULL) == LOOPY_EINVAL);
    /* The smallest heaps of 0.7: none has no move, one can be emptied. */
    CHECK(loopy_octal_values("0.7", 1, values, NULL) == LOOPY_OK &&
          values[0] == 0 && values[1] == 1);
    check_case_end();
}

static void test_out_of_memory(void)
{
    uint32_t *values = malloc(5001 * sizeof *values);
    uint32_t *expect = malloc(5001 * sizeof *expect);

    CHECK(loopy_octal_values("0.77", 5000, expect, NULL) == LOOPY_OK);
    for (uint64_t k = 1;; k++) {
        loopy_status status;
        loopy_i_alloc_fail_at(k);
        status = loopy_octal_values("0.77", 5000, values, NULL);
        loopy_i_alloc_fail_at(0);
        if (status == LOOPY_OK) {
            CHECK(memcmp(values, expect, 5001 * sizeof *values) == 0);
            CHECK(k > 5);
            break;
        }
        CHECK(status == LOOPY_ENOMEM);
    }
    free(values);
    free(expect);
    check_case_end();
}

int main(void)
{
    test_published();
    test_random_codes();
    test_bad_codes();
    test_out_of_memory();
    return check_finish("test_octal");
}
