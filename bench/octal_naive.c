/*
 * octal_naive.c - reference for bench/octal.sh: the textbook recursion for
 * an octal game, trying every split of every heap (O(N^2) per digit).
 * Prints 'HEAP VALUE' lines like 'loopy octal'.
 *   octal_naive CODE N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *point = argc == 3 ? strchr(argv[1], '.') : NULL;
    unsigned digits, digit[65];
    uint32_t n_max, *g;
    uint8_t *flag;
    size_t flag_size;

    if (point == NULL || strlen(point + 1) > 64) {
        fprintf(stderr, "usage: octal_naive CODE N\n");
        return 2;
    }
    digits = (unsigned)strlen(point + 1);
    for (unsigned k = 1; k <= digits; k++)
        digit[k] = (unsigned)(point[k] - '0');
    n_max = (uint32_t)strtoul(argv[2], NULL, 10);
    g = malloc(((size_t)n_max + 1) * sizeof *g);
    flag_size = 2 * (size_t)digits * ((size_t)n_max + 2) + 2;
    flag = calloc(flag_size, 1);
    g[0] = 0;
    for (uint32_t n = 1; n <= n_max; n++) {
        uint32_t m = 0;
        for (unsigned k = 1; k <= digits && k <= n; k++) {
            if ((digit[k] & 1) && n == k)
                flag[0] = 1;
            if ((digit[k] & 2) && n > k)
                flag[g[n - k]] = 1;
            if (digit[k] & 4)
                for (uint32_t a = 1; 2 * a <= n - k; a++)
                    flag[g[a] ^ g[n - k - a]] = 1;
        }
        while (flag[m])
            m++;
        g[n] = m;
        /* The benchmarked games have values far below 4096, so only the
         * first 4096 flags can have been set (bench/octal.sh compares the
         * outputs, which would catch a violation). */
        memset(flag, 0, flag_size < 4096 ? flag_size : 4096);
    }
    for (uint32_t n = 0; n <= n_max; n++)
        printf("%u %u\n", n, g[n]);
    free(g);
    free(flag);
    return 0;
}
