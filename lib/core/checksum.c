/*
 * checksum.c - the binary format's checksum.
 *
 * Bytes are cut into 1 MiB blocks; each block is hashed with four
 * independent multiply-rotate lanes over little-endian 64-bit words (so the
 * loop runs at memory speed), and the list of block hashes is hashed again.
 * Blocks are independent, so threads may share the work and the result
 * does not depend on their number.  Not cryptographic: it catches damage,
 * not forgery; the loader checks ranges separately.
 */
#include "internal.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLOCK_BYTES LOOPY_CHECKSUM_BLOCK

static const uint64_t PRIME1 = UINT64_C(0x9e3779b185ebca87);
static const uint64_t PRIME2 = UINT64_C(0xc2b2ae3d27d4eb4f);
static const uint64_t PRIME3 = UINT64_C(0x165667b19e3779f9);

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t read_le64(const unsigned char *p)
{
    uint64_t w;

    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static uint64_t hash_bytes(const unsigned char *p, uint64_t len, uint64_t seed)
{
    uint64_t lane[4] = {seed + PRIME1, seed + PRIME2, seed, seed - PRIME1};
    uint64_t i = 0, h;

    for (; i + 32 <= len; i += 32)
        for (int k = 0; k < 4; k++)
            lane[k] = rotl(lane[k] + read_le64(p + i + 8 * (uint64_t)k) * PRIME2,
                           31) * PRIME1;
    h = rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) +
        rotl(lane[3], 18) + len;
    for (; i < len; i++)
        h = rotl(h ^ (p[i] * PRIME3), 11) * PRIME1;
    h ^= h >> 33;
    h *= PRIME2;
    h ^= h >> 29;
    h *= PRIME3;
    return h ^ (h >> 32);
}

static uint64_t block_hash(const unsigned char *p, uint64_t len, uint64_t b)
{
    uint64_t from = b * BLOCK_BYTES;
    uint64_t size = len - from < BLOCK_BYTES ? len - from : BLOCK_BYTES;

    return hash_bytes(p + from, size, b);
}

/* One step of the fold: the block hash h, as little-endian bytes, hashed
 * with the result so far as the seed. */
static uint64_t fold_one(uint64_t result, uint64_t h)
{
    unsigned char le[8];

    for (int k = 0; k < 8; k++)
        le[k] = (unsigned char)(h >> (8 * k));
    return hash_bytes(le, 8, result);
}

uint64_t loopy_i_checksum_block(const void *block, uint64_t size, uint64_t b)
{
    return hash_bytes(block, size, b);
}

uint64_t loopy_i_checksum_fold(const uint64_t *hashes, uint64_t len)
{
    uint64_t blocks = (len + BLOCK_BYTES - 1) / BLOCK_BYTES, result = len;

    for (uint64_t b = 0; b < blocks; b++)
        result = fold_one(result, hashes[b]);
    return result;
}

uint64_t loopy_i_checksum(const void *bytes, uint64_t len, int threads)
{
    const unsigned char *p = bytes;
    uint64_t blocks = (len + BLOCK_BYTES - 1) / BLOCK_BYTES;
    uint64_t stack_hashes[64], *hashes = stack_hashes, result;

    /* Without memory for the list, the blocks are hashed one by one as
     * they are folded: the same result, serially. */
    if (blocks > 64)
        hashes = loopy_i_malloc((size_t)blocks, sizeof *hashes);
    if (threads < 1 || hashes == NULL)
        threads = 1;
    if (hashes != NULL) {
#pragma omp parallel for num_threads(threads) schedule(static)
        for (int64_t b = 0; b < (int64_t)blocks; b++)
            hashes[b] = block_hash(p, len, (uint64_t)b);
    }
    /* Fold the block hashes, as little-endian bytes, in order. */
    result = len;
    for (uint64_t b = 0; b < blocks; b++)
        result = fold_one(result,
                          hashes != NULL ? hashes[b] : block_hash(p, len, b));
    if (hashes != stack_hashes)
        loopy_i_free(hashes);
    return result;
}

/* splitmix64's finaliser, a bijection of 64-bit words, so distinct
 * inputs never share a fingerprint. */
uint64_t loopy_i_fingerprint(uint64_t x, uint64_t key)
{
    x += key;
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

uint64_t loopy_i_random_key(void)
{
    struct timespec wall = {0, 0}, mono = {0, 0};
    uint64_t x = (uint64_t)(uintptr_t)&wall;

    clock_gettime(CLOCK_REALTIME, &wall);
    clock_gettime(CLOCK_MONOTONIC, &mono);
    x ^= (uint64_t)wall.tv_sec * PRIME1 ^ (uint64_t)wall.tv_nsec * PRIME2;
    x ^= (uint64_t)mono.tv_nsec * PRIME3 ^ (uint64_t)getpid() << 32;
    /* splitmix64's finaliser spreads every input bit over the key. */
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}
