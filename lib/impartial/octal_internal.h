/*
 * octal_internal.h - the tunable core of loopy_octal_values, for tests that
 * must drive every search path on small inputs.  Not installed.
 */
#ifndef LOOPY_OCTAL_INTERNAL_H
#define LOOPY_OCTAL_INTERNAL_H

#include "../core/internal.h"

typedef struct loopy_i_octal_tuning {
    /* A value gets bitsets once this many heaps have it (>= 1). */
    size_t bitset_threshold;
    /* Splits tried one by one before the bitset scans (0: none). */
    uint32_t direct_splits;
} loopy_i_octal_tuning;

/* loopy_octal_values with explicit tuning; the results do not depend on
 * it, only the time and memory do. */
loopy_status loopy_i_octal_values_tuned(const char *code, uint32_t heaps,
                                        uint32_t *values, loopy_diag *diag,
                                        const loopy_i_octal_tuning *tuning);

#endif
