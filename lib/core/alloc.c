/*
 * alloc.c - the library's one allocation wrapper.
 *
 * The failure injection counter is the only mutable global of the library;
 * it exists for tests (see loopy_i_alloc_fail_at) and is atomic so that
 * parallel solves may allocate while it is armed.
 */
/* madvise(MADV_HUGEPAGE) is a Linux extension. */
#define _DEFAULT_SOURCE

#include "internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Arrays this large are read at random by the solver and the reader: ask
 * for transparent huge pages, so that random accesses do not also miss the
 * TLB.  A hint only; without THP nothing changes. */
#define HUGE_ARRAY_BYTES ((size_t)32 << 20)

static void *advise_huge(void *ptr, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t from, to;

    if (ptr == NULL || bytes < HUGE_ARRAY_BYTES)
        return ptr;
    from = ((uintptr_t)ptr + huge - 1) & ~(huge - 1);
    to = ((uintptr_t)ptr + bytes) & ~(huge - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
    (void)bytes;
#endif
    return ptr;
}

static _Atomic uint64_t alloc_count;   /* allocations since the last arm */
static _Atomic uint64_t alloc_fail_at; /* 0: never fail */

uint64_t loopy_i_alloc_fail_at(uint64_t k)
{
    uint64_t made = atomic_exchange(&alloc_count, 0);
    atomic_store(&alloc_fail_at, k);
    return made;
}

/* Counts one allocation and says whether it must fail. */
static bool injected_failure(void)
{
    uint64_t k = atomic_fetch_add(&alloc_count, 1) + 1;
    uint64_t at = atomic_load(&alloc_fail_at);
    return at != 0 && k >= at;
}

static bool size_overflows(size_t count, size_t size)
{
    return size != 0 && count > SIZE_MAX / size;
}

void *loopy_i_malloc(size_t count, size_t size)
{
    if (size_overflows(count, size) || injected_failure())
        return NULL;
    /* malloc(0) may return NULL; ask for one byte so NULL means failure. */
    return advise_huge(malloc(count != 0 && size != 0 ? count * size : 1),
                       count * size);
}

void *loopy_i_calloc(size_t count, size_t size)
{
    if (size_overflows(count, size) || injected_failure())
        return NULL;
    return advise_huge(calloc(count ? count : 1, size ? size : 1), count * size);
}

void *loopy_i_realloc(void *ptr, size_t count, size_t size)
{
    if (size_overflows(count, size) || injected_failure())
        return NULL;
    return realloc(ptr, count != 0 && size != 0 ? count * size : 1);
}

void loopy_i_free(void *ptr)
{
    free(ptr);
}
