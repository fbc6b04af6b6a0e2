/*
 * forge_lgr.c - a test tool: changes a 32-bit number of a binary graph
 * file and then puts every checksum right, as someone forging a file would,
 * so that only loopy's checks of the values themselves can refuse it.
 *
 *     forge_lgr FILE OFFSET VALUE
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t get(const unsigned char *p, int bytes)
{
    uint64_t v = 0;

    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

int main(int argc, char **argv)
{
    FILE *f;
    long len;
    unsigned char *p;
    uint64_t at;

    if (argc != 4 || (f = fopen(argv[1], "r+b")) == NULL)
        return 2;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < LOOPY_BIN_HEADER ||
        fseek(f, 0, SEEK_SET) != 0 || (p = malloc((size_t)len)) == NULL ||
        fread(p, 1, (size_t)len, f) != (size_t)len)
        return 2;
    at = strtoull(argv[2], NULL, 10);
    if (at + 4 > (uint64_t)len)
        return 2;
    put(p + at, strtoull(argv[3], NULL, 10), 4);
    for (int s = 0; s < LOOPY_BIN_SECTIONS; s++) {
        uint64_t off = get(p + 40 + 24 * s, 8), size = get(p + 48 + 24 * s, 8);
        if (off + size > (uint64_t)len)
            return 2;
        put(p + 56 + 24 * s, loopy_i_checksum(p + off, size, 1), 8);
    }
    put(p + 136, loopy_i_checksum(p, 136, 1), 8);
    if (fseek(f, 0, SEEK_SET) != 0 || fwrite(p, 1, (size_t)len, f) != (size_t)len ||
        fclose(f) != 0)
        return 2;
    free(p);
    return 0;
}
