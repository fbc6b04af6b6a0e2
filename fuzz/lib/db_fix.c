/*
 * db_fix.c - a database's checksums made right again after a change, so
 * that a fuzzer's mutations reach the checks behind them (a mutation
 * cannot forge a 64-bit checksum).  Uses the database's internal layout
 * (lib/db/db_internal.h).
 */
#include "fuzz.h"

#include "../../lib/db/db_internal.h"

#include <stdlib.h>
#include <string.h>

/* Recomputes the checksums that lie inside the bytes: each block the
 * index names, the index, the header. */
void fuzz_fix_db_checksums(uint8_t *p, size_t len)
{
    uint64_t h, blocks, index;

    if (len < DB_FIXED_BYTES + 8)
        return;
    h = db_get(p + 16, 4);
    blocks = db_get(p + 104, 8);
    index = db_get(p + 112, 8);
    if (index <= len && blocks <= (len - index) / DB_ENTRY_BYTES &&
        8 <= len - index - blocks * DB_ENTRY_BYTES) {
        for (uint64_t k = 0; k < blocks; k++) {
            uint8_t *e = p + index + k * DB_ENTRY_BYTES;
            uint64_t off = db_get(e, 8), clen = db_get(e + 8, 4);
            if (off <= len && clen <= len - off)
                db_put(e + 24, loopy_i_checksum(p + off, clen, 1), 8);
        }
        db_put(p + index + blocks * DB_ENTRY_BYTES,
               loopy_i_checksum(p + index, blocks * DB_ENTRY_BYTES, 1), 8);
    }
    if (h >= DB_FIXED_BYTES + 8 && h <= len)
        db_put(p + h - 8, loopy_i_checksum(p, h - 8, 1), 8);
}


uint8_t *fuzz_db_fixed(const uint8_t *data, size_t size)
{
    unsigned sum = 0;
    uint8_t *fixed;

    for (size_t i = 0; i < size; i++)
        sum += data[i];
    if (sum % 2 == 0 || size == 0)
        return NULL;
    fixed = malloc(size);
    FUZZ_REQUIRE(fixed != NULL, "out of memory");
    memcpy(fixed, data, size);
    fuzz_fix_db_checksums(fixed, size);
    if (memcmp(fixed, data, size) == 0) {
        free(fixed);
        return NULL;
    }
    return fixed;
}
