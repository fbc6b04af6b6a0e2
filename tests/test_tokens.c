/*
 * test_tokens.c - the feed of numbers (lib/io/tokens.h) against a naive
 * reading of the same texts: random texts of numbers and white space, some
 * spoiled (a letter, a number of 2^32 or more, 11 digits and up), read in
 * chunks of many sizes on 1 to 4 threads, from memory and from a mapped
 * file; and what the source looks like after the feed is done.
 */
#include "seeds_util.h"
#include "../io/digits.h"
#include "../io/tokens.h"

#include <unistd.h>

static uint64_t pow10_of(unsigned k)
{
    uint64_t p = 1;
    while (k-- > 0)
        p *= 10;
    return p;
}

/* The naive reading: true with the numbers if the text is only numbers
 * below 2^32 and white space. */
static bool naive(const char *s, size_t len, uint32_t *out, size_t *count,
                  uint64_t *newlines)
{
    size_t n = 0;

    *newlines = 0;
    for (size_t i = 0; i < len;) {
        uint64_t v = 0;
        size_t start = i;
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
            *newlines += s[i] == '\n';
            i++;
            continue;
        }
        while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 12)
            v = v * 10 + (uint64_t)(s[i++] - '0');
        if (i == start || i - start > 10 || v > UINT32_MAX ||
            (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' &&
             s[i] != '\n'))
            return false;
        out[n++] = (uint32_t)v;
    }
    *count = n;
    return true;
}

/* A random text: numbers of 1 to 12 digits (mostly fewer than 10, with
 * leading zeros at times, and values near 2^32), separated by runs of
 * white space; sometimes a letter or a '-' somewhere. */
static void random_text(gen_rng *r, text *t, unsigned tokens)
{
    static const char *const blanks[] = {" ", "\n", "\t", "\r\n", "   ",
                                         "\n\n", " \t "};
    t->len = 0;
    if (gen_chance(r, 1, 4))
        put(t, "%s", blanks[gen_below32(r, 7)]);
    for (unsigned i = 0; i < tokens; i++) {
        switch (gen_below32(r, 8)) {
        case 0:
            put(t, "%" PRIu64, (uint64_t)UINT32_MAX - 2 + gen_below(r, 5));
            break;
        case 1: {
            unsigned digits = 1 + gen_below32(r, 12);
            for (unsigned j = 0; j < digits; j++)
                put(t, "%c", (char)('0' + gen_below32(r, 10)));
            break;
        }
        default:
            put(t, "%u", gen_below32(r, gen_chance(r, 1, 2) ? 1000 : 1u << 30));
            break;
        }
        if (i + 1 < tokens || gen_chance(r, 1, 2))
            put(t, "%s", blanks[gen_below32(r, 7)]);
    }
    if (t->len > 0 && gen_chance(r, 1, 8)) {
        static const char bad[] = "x-+#\v";
        t->s[gen_below(r, t->len)] = bad[gen_below32(r, 5)];
    }
}

/* Reads the whole text through a feed; true with the numbers if the feed
 * says it is all numbers.  Checks what the source says afterwards. */
static bool feed_all(loopy_source *src, int threads, size_t chunk,
                     uint32_t *out, size_t *count, uint64_t start_line,
                     uint64_t newlines_before, uint64_t want_newlines,
                     bool want_ok)
{
    loopy_i_feed f;
    uint32_t v;
    size_t n = 0;
    bool done;

    CHECK(loopy_i_feed_open(&f, src, threads, chunk) == LOOPY_OK);
    while (loopy_i_feed_next(&f, &v))
        out[n++] = v;
    done = loopy_i_feed_done(&f);
    CHECK(done == !f.failed);
    loopy_i_feed_close(&f);
    *count = n;
    if (done && want_ok) {
        /* At the end, on the last line. */
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        loopy_i_mark mark;
        loopy_i_source_mark(src, &mark);
        CHECK_MSG(mark.line == start_line + newlines_before + want_newlines,
                  "line %" PRIu64 ", want %" PRIu64, mark.line,
                  start_line + newlines_before + want_newlines);
        CHECK(loopy_i_source_end(src, "the end", &diag) == LOOPY_OK);
    }
    return done;
}

static void memory_texts(unsigned texts)
{
    text t = {NULL, 0, 0};
    uint32_t *want = NULL, *got = NULL;
    char *exact = NULL;
    size_t cap = 0;

    for (unsigned seed = 0; seed < texts; seed++) {
        gen_rng r;
        size_t want_count = 0, got_count = 0;
        uint64_t newlines = 0;
        bool valid;
        int threads;
        size_t chunk;
        loopy_source *src = NULL;

        gen_rng_seed(&r, gen_mix_seed(0x70ce, seed));
        random_text(&r, &t, gen_below32(&r, seed % 10 == 0 ? 3000 : 60));
        if (t.len + 1 > cap) {
            cap = 2 * (t.len + 1);
            want = realloc(want, cap * sizeof *want);
            got = realloc(got, cap * sizeof *got);
            if (want == NULL || got == NULL)
                abort();
        }
        valid = naive(t.s, t.len, want, &want_count, &newlines);
        threads = 1 + (int)gen_below32(&r, 4);
        /* Chunks of 12 bytes or more always hold white space where the
         * text is valid (a valid number has at most 10 digits). */
        chunk = gen_chance(&r, 1, 4) ? 0 : 12 + gen_below(&r, 300);
        /* In a buffer of exactly its size, so that the sanitizer build
         * sees any read past the end. */
        exact = realloc(exact, t.len ? t.len : 1);
        if (exact == NULL)
            abort();
        memcpy(exact, t.s, t.len);
        CHECK(loopy_source_from_memory(exact, t.len, &src) == LOOPY_OK);
        if (src == NULL)
            break;
        {
            bool ok = feed_all(src, threads, chunk, got, &got_count, 1, 0,
                               newlines, valid);
            CHECK_MSG(ok == valid, "text %u (%zu bytes, %d threads, chunk "
                      "%zu): feed %d, naive %d", seed, t.len, threads, chunk,
                      ok, valid);
            if (ok && valid)
                CHECK(got_count == want_count &&
                      memcmp(got, want, want_count * sizeof *want) == 0);
        }
        check_case_end();
        loopy_source_free(src);
    }
    free(t.s);
    free(exact);
    free(want);
    free(got);
}

/* A mapped file: a first line read the careful way, then the rest through
 * a feed in chunks that hand the pages back; and a second feed after going
 * back to a mark, as the readers do when they fall back. */
static void mapped_file(void)
{
    char path[] = "/tmp/loopy_test_tokens_XXXXXX";
    text t = {NULL, 0, 0};
    uint32_t *want, *got;
    size_t want_count = 0, got_count = 0;
    uint64_t newlines = 0, first;
    loopy_source *src = NULL;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_i_mark mark;
    gen_rng r;
    int fd = mkstemp(path);

    CHECK(fd >= 0);
    if (fd < 0)
        return;
    gen_rng_seed(&r, 0x3a9);
    put(&t, "7 x\n");
    for (unsigned i = 0; i < 300000; i++)
        put(&t, "%u%s", gen_below32(&r, 1u << 31), i % 7 == 6 ? "\n" : " ");
    CHECK(write(fd, t.s, t.len) == (ssize_t)t.len);
    close(fd);
    want = malloc(t.len * sizeof *want);
    got = malloc(t.len * sizeof *got);
    if (want == NULL || got == NULL)
        abort();
    CHECK(naive(t.s + 4, t.len - 4, want, &want_count, &newlines));
    CHECK(loopy_source_open(path, &src, &diag) == LOOPY_OK);
    CHECK(loopy_i_source_uint(src, 0, 100, &first, "n", &diag) == LOOPY_OK &&
          first == 7);
    /* The careful reader meets the 'x': the feed must refuse it too. */
    loopy_i_source_mark(src, &mark);
    CHECK(!feed_all(src, 2, 4096, got, &got_count, 1, 0, 0, false));
    CHECK(loopy_i_source_uint(src, 0, 100, &first, "a number", &diag) ==
          LOOPY_EPARSE && diag.line == 1 && diag.column == 3);
    /* Past it, the feed reads everything, in 1 KiB to 1 MiB chunks. */
    for (size_t chunk = 1024; chunk <= ((size_t)1 << 20); chunk *= 32) {
        loopy_source_free(src);
        src = NULL;
        CHECK(loopy_source_open(path, &src, &diag) == LOOPY_OK);
        CHECK(loopy_i_source_uint(src, 0, 100, &first, "n", &diag) == LOOPY_OK);
        src->scan.p += 2; /* past " x" */
        loopy_i_source_mark(src, &mark);
        CHECK(feed_all(src, 2, chunk, got, &got_count, 1, 1, newlines, true));
        CHECK(got_count == want_count &&
              memcmp(got, want, want_count * sizeof *want) == 0);
        /* Back to the mark: the pages handed back come again. */
        CHECK(loopy_i_source_rewind(src, &mark, &diag) == LOOPY_OK);
        CHECK(feed_all(src, 1, 0, got, &got_count, 1, 1, newlines, true));
        CHECK(got_count == want_count &&
              memcmp(got, want, want_count * sizeof *want) == 0);
        check_case_end();
    }
    loopy_source_free(src);
    unlink(path);
    free(want);
    free(got);
    free(t.s);
}

/* digits.h's parsers on their own: random digit strings of 1 to 12 digits,
 * followed by a random byte, against a byte-by-byte reading. */
static void digit_parsers(unsigned count)
{
    static const char after[] = " \n\t\r/:a\0";

    for (unsigned seed = 0; seed < count; seed++) {
        char buf[32];
        unsigned len, want_run;
        uint64_t want = 0;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0xd161, seed));
        len = 1 + gen_below32(&r, 12);
        memset(buf, '7', sizeof buf);
        for (unsigned i = 0; i < len; i++) {
            buf[i] = (char)('0' + gen_below32(&r, 10));
            want = want * 10 + (uint64_t)(buf[i] - '0');
        }
        buf[len] = after[gen_below32(&r, sizeof after - 1)];
        want_run = len < 8 ? len : 8;
#ifdef LOOPY_I_SWAR
        {
            uint64_t chunk, value = 0;
            unsigned got_len = 0;
            bool ok;
            memcpy(&chunk, buf, 8);
            CHECK(loopy_i_digit_run(chunk) == want_run);
            CHECK(loopy_i_digits_value(chunk, want_run) ==
                  (len < 8 ? want : want / (uint64_t)pow10_of(len - 8)));
            if (len <= 10)
                CHECK_MSG(loopy_i_number_at(buf, len) == want,
                          "'%.*s': %" PRIu64, (int)len, buf,
                          loopy_i_number_at(buf, len));
            ok = loopy_i_number10(buf, &value, &got_len);
            CHECK_MSG(ok == (len <= 10) && (!ok || (value == want &&
                                                    got_len == len)),
                      "'%.*s'", (int)len, buf);
        }
#endif
#ifdef LOOPY_I_SSE2
        {
            unsigned mask = loopy_i_digits16(buf), want_mask = 0;
            for (unsigned i = 0; i < 16; i++)
                want_mask |= (unsigned)(buf[i] >= '0' && buf[i] <= '9') << i;
            CHECK(mask == want_mask);
        }
#endif
        check_case_end();
    }
}

int main(void)
{
    digit_parsers(20000);
    memory_texts(4000);
    mapped_file();
    return check_finish("test_tokens");
}
