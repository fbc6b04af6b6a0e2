/*
 * alloc.c - the library's one allocation wrapper.
 *
 * The test hooks' counters (failure injection, live blocks, largest request)
 * are the only mutable globals of the library; they exist for tests (see
 * loopy_i_alloc_fail_at in internal.h) and are atomic so that parallel
 * solves may allocate while they count.
 */
/* madvise(MADV_HUGEPAGE) is a Linux extension. */
#define _DEFAULT_SOURCE

#include "internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Arrays this large are read at random by the solver and the reader: ask
 * for transparent huge pages, so that random accesses do not also miss the
 * TLB.  A hint only; without THP nothing changes. */
#define HUGE_ARRAY_BYTES ((size_t)32 << 20)

void loopy_i_advise_huge(void *ptr, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t from, to;

    if (ptr == NULL)
        return;
    from = ((uintptr_t)ptr + huge - 1) & ~(huge - 1);
    to = ((uintptr_t)ptr + bytes) & ~(huge - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
    (void)ptr;
    (void)bytes;
#endif
}

static void *advise_huge(void *ptr, size_t bytes)
{
    if (bytes >= HUGE_ARRAY_BYTES)
        loopy_i_advise_huge(ptr, bytes);
    return ptr;
}

static _Atomic uint64_t alloc_count;   /* allocations since the last arm */
static _Atomic uint64_t alloc_fail_at; /* 0: never fail */
static _Atomic bool alloc_fail_once;   /* only the alloc_fail_at-th fails */
static _Atomic int64_t alloc_live;     /* blocks allocated and not freed */
static _Atomic uint64_t alloc_largest; /* largest request since the last arm */

uint64_t loopy_i_alloc_fail_at(uint64_t k)
{
    uint64_t made = atomic_exchange(&alloc_count, 0);
    atomic_store(&alloc_largest, 0);
    atomic_store(&alloc_fail_once, false);
    atomic_store(&alloc_fail_at, k);
    return made;
}

uint64_t loopy_i_alloc_fail_once(uint64_t k)
{
    uint64_t made = loopy_i_alloc_fail_at(k);
    atomic_store(&alloc_fail_once, true);
    return made;
}

int64_t loopy_i_alloc_live(void)
{
    return atomic_load(&alloc_live);
}

uint64_t loopy_i_alloc_largest(void)
{
    return atomic_load(&alloc_largest);
}

/* Counts one allocation of count * size bytes (known not to overflow) and
 * says whether it must fail. */
static bool injected_failure(size_t count, size_t size)
{
    uint64_t k = atomic_fetch_add(&alloc_count, 1) + 1;
    uint64_t at = atomic_load(&alloc_fail_at);
    uint64_t bytes = (uint64_t)count * size;
    uint64_t largest = atomic_load(&alloc_largest);

    while (bytes > largest &&
           !atomic_compare_exchange_weak(&alloc_largest, &largest, bytes))
        ;
    return at != 0 && (atomic_load(&alloc_fail_once) ? k == at : k >= at);
}

/* Counts a block made (+1) or released (-1), for the leak checks of tests. */
static void *track(void *ptr, int64_t delta)
{
    if (ptr != NULL)
        atomic_fetch_add(&alloc_live, delta);
    return ptr;
}

static bool size_overflows(size_t count, size_t size)
{
    return size != 0 && count > SIZE_MAX / size;
}

void *loopy_i_malloc(size_t count, size_t size)
{
    if (size_overflows(count, size) || injected_failure(count, size))
        return NULL;
    /* malloc(0) may return NULL; ask for one byte so NULL means failure. */
    return track(advise_huge(malloc(count != 0 && size != 0 ? count * size : 1),
                             count * size),
                 1);
}

void *loopy_i_calloc(size_t count, size_t size)
{
    if (size_overflows(count, size) || injected_failure(count, size))
        return NULL;
    return track(advise_huge(calloc(count ? count : 1, size ? size : 1),
                             count * size),
                 1);
}

void *loopy_i_realloc(void *ptr, size_t count, size_t size)
{
    if (size_overflows(count, size) || injected_failure(count, size))
        return NULL;
    /* Growing a block keeps the count; a NULL ptr makes a new block. */
    return track(realloc(ptr, count != 0 && size != 0 ? count * size : 1),
                 ptr == NULL ? 1 : 0);
}

void loopy_i_free(void *ptr)
{
    track(ptr, -1);
    free(ptr);
}

void *loopy_i_reserve(size_t count, size_t size)
{
    void *ptr;

    if (size_overflows(count, size) || injected_failure(count, size))
        return NULL;
    /* Not counted against the commit limit: its pages are taken as they
     * are first written, and only those the caller touches exist. */
    ptr = mmap(NULL, count != 0 && size != 0 ? count * size : 1,
               PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS
#ifdef MAP_NORESERVE
               | MAP_NORESERVE
#endif
               , -1, 0);
    if (ptr == MAP_FAILED)
        return NULL;
    return track(advise_huge(ptr, count * size), 1);
}

void loopy_i_reserve_drop(void *ptr, size_t from, size_t to)
{
    long size = sysconf(_SC_PAGESIZE);
    uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
    uintptr_t a = (uintptr_t)ptr + from, b = (uintptr_t)ptr + to;
    uintptr_t pa = (a + page - 1) & ~(page - 1), pb = b & ~(page - 1);

    if (to <= from)
        return;
    if (pb <= pa) {
        memset((void *)a, 0, to - from);
        return;
    }
    /* The part pages at the ends stay (they hold others' bytes too); the
     * whole pages go back, and read as zeros from here on. */
    memset((void *)a, 0, pa - a);
    memset((void *)pb, 0, b - pb);
    if (madvise((void *)pa, pb - pa, MADV_DONTNEED) != 0)
        memset((void *)pa, 0, pb - pa);
}

void loopy_i_unreserve(void *ptr, size_t count, size_t size)
{
    if (ptr == NULL)
        return;
    track(ptr, -1);
    munmap(ptr, count != 0 && size != 0 ? count * size : 1);
}
