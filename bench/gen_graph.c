/*
 * gen_graph.c - writes the benchmark workloads as loopy edge-list text.
 *
 *   gen_graph random N M SEED   M random moves; one vertex in ten has none
 *                               (a Lose), so the positions are a mix of Win,
 *                               Lose and Draw; tails and heads uniform
 *   gen_graph chain N           1 -> 2 -> ... -> N (remoteness up to N-1)
 *
 * Output goes to standard output; 1-based ids.  Deterministic per seed.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t next_random(void) /* splitmix64 */
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)next_random() * bound) >> 64);
}

static char out_buf[1 << 20];
static size_t out_len;

static void flush_out(void)
{
    if (fwrite(out_buf, 1, out_len, stdout) != out_len) {
        perror("gen_graph");
        exit(1);
    }
    out_len = 0;
}

static void put_u64(uint64_t v, char sep)
{
    char digits[24];
    int k = 0;

    if (out_len > sizeof out_buf - 64)
        flush_out();
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        out_buf[out_len++] = digits[--k];
    out_buf[out_len++] = sep;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "random") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 10), m = strtoull(argv[3], NULL, 10);
        rng_state = strtoull(argv[4], NULL, 10);
        put_u64(n, ' ');
        put_u64(m, '\n');
        for (uint64_t e = 0; e < m; e++) {
            uint64_t u;
            do /* vertices 10, 20, ... never move */
                u = below(n) + 1;
            while (u % 10 == 0);
            put_u64(u, ' ');
            put_u64(below(n) + 1, '\n');
        }
    } else if (argc == 3 && strcmp(argv[1], "chain") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 10);
        put_u64(n, ' ');
        put_u64(n ? n - 1 : 0, '\n');
        for (uint64_t v = 1; v < n; v++) {
            put_u64(v, ' ');
            put_u64(v + 1, '\n');
        }
    } else {
        fputs("usage: gen_graph random N M SEED | gen_graph chain N\n", stderr);
        return 2;
    }
    flush_out();
    return 0;
}
