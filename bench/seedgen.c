/*
 * seedgen.c - inputs for bench/seeds.sh, and a checker of sleepy answers.
 *
 *   seedgen race N M Q SEED      P6560 input: many sinks, a draw core, Q
 *                                rounds with Q distinct end vertices
 *   seedgen sleepy N M SEED KIND 936B input; KIND win (a few sinks) or
 *                                draw (no sinks)
 *   seedgen climb R C Q SEED     one grid of distinct heights, Q queries
 *   seedgen check-sleepy INPUT OUTPUT
 *                                prints "Win LEN" after checking the path
 *                                (legal moves, odd count, ends at a sink),
 *                                or the verdict; exit 1 if the path is bad
 *
 * Own PRNG (splitmix64), so inputs are the same on every machine.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint32_t below(uint32_t bound)
{
    return (uint32_t)(next_random() % bound);
}

static uint32_t *permutation(uint32_t n)
{
    uint32_t *p = malloc((size_t)n * sizeof *p);
    if (p == NULL)
        exit(2);
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = below(i + 1), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/* Vertices 0..n/5-1 are sinks, the next n/20 a core whose moves stay in
 * the core (draws until an end lies there), the rest move anywhere. */
static void race(uint32_t n, uint64_t m, uint32_t q)
{
    uint32_t sinks = n / 5, core = n / 20, movers = n - sinks;
    uint32_t *ends = permutation(n);

    printf("%u %" PRIu64 " %u\n", n, m, q);
    for (uint64_t e = 0; e < m; e++) {
        uint32_t u = sinks + below(movers), v;
        if (u < sinks + core)
            v = sinks + below(core);
        else
            v = below(n);
        printf("%u %u\n", u + 1, v + 1);
    }
    for (uint32_t i = 0; i < q; i++)
        printf("%u %u\n", below(n) + 1, ends[i % n] + 1);
    free(ends);
}

static void sleepy(uint32_t n, uint64_t m, int win)
{
    uint32_t sinks = win ? 50 : 0;
    uint64_t per = m / (n - sinks), extra = m % (n - sinks);

    printf("%u %" PRIu64 "\n", n, m);
    /* The last `sinks` vertices have no moves; the start is vertex 1. */
    for (uint32_t v = 0; v < n; v++) {
        uint64_t k = v >= n - sinks ? 0 : per + (v < extra);
        printf("%" PRIu64, k);
        for (uint64_t i = 0; i < k; i++)
            printf(" %u", below(n) + 1);
        putchar('\n');
    }
    printf("1\n");
}

static void climb(uint32_t rows, uint32_t cols, uint32_t q)
{
    uint32_t cells = rows * cols;
    uint32_t *p = permutation(cells);

    printf("1\n%u %u\n", rows, cols);
    for (uint32_t c = 0; c < cells; c++)
        printf("%u%c", 1 + p[c] * 1000u + below(1000),
               (c + 1) % cols ? ' ' : '\n');
    printf("%u\n", q);
    for (uint32_t i = 0; i < q; i++)
        printf("%u %u\n", below(rows) + 1, below(cols) + 1);
    free(p);
}

static int check_sleepy(const char *input, const char *output)
{
    FILE *in = fopen(input, "r"), *out = fopen(output, "r");
    uint32_t n, *offset, *target, s, prev = 0, v;
    uint64_t m, len = 0;
    char verdict[16];

    if (in == NULL || out == NULL || fscanf(in, "%u %" SCNu64, &n, &m) != 2)
        return 2;
    offset = calloc((size_t)n + 2, sizeof *offset);
    target = malloc((size_t)m * sizeof *target + 1);
    for (uint32_t u = 1, e = 0; u <= n; u++) {
        uint32_t k;
        if (fscanf(in, "%u", &k) != 1)
            return 2;
        offset[u] = e;
        for (uint32_t i = 0; i < k; i++)
            if (fscanf(in, "%u", &target[e++]) != 1)
                return 2;
        offset[u + 1] = e;
    }
    if (fscanf(in, "%u", &s) != 1 || fscanf(out, "%15s", verdict) != 1)
        return 2;
    if (strcmp(verdict, "Win") != 0) {
        printf("%s\n", verdict);
        return 0;
    }
    while (fscanf(out, "%u", &v) == 1) {
        int legal = len == 0 ? v == s : 0;
        for (uint32_t e = len ? offset[prev] : 0; len && e < offset[prev + 1]; e++)
            legal |= target[e] == v;
        if (!legal) {
            printf("bad path: no move %u -> %u\n", prev, v);
            return 1;
        }
        prev = v;
        len++;
    }
    if (len % 2 != 0 || offset[prev] != offset[prev + 1]) {
        printf("bad path: %" PRIu64 " vertices, last %u\n", len, prev);
        return 1;
    }
    printf("Win %" PRIu64 "\n", len);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "check-sleepy") == 0)
        return check_sleepy(argv[2], argv[3]);
    if (argc == 6 && strcmp(argv[1], "race") == 0) {
        rng_state = strtoull(argv[5], NULL, 10);
        race((uint32_t)atol(argv[2]), strtoull(argv[3], NULL, 10),
             (uint32_t)atol(argv[4]));
    } else if (argc == 6 && strcmp(argv[1], "sleepy") == 0) {
        rng_state = strtoull(argv[4], NULL, 10);
        sleepy((uint32_t)atol(argv[2]), strtoull(argv[3], NULL, 10),
               strcmp(argv[5], "win") == 0);
    } else if (argc == 6 && strcmp(argv[1], "climb") == 0) {
        rng_state = strtoull(argv[5], NULL, 10);
        climb((uint32_t)atol(argv[2]), (uint32_t)atol(argv[3]),
              (uint32_t)atol(argv[4]));
    } else {
        fputs("usage: see the comment at the top of bench/seedgen.c\n", stderr);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 2;
}
