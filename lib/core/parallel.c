/* parallel.c - OpenMP behind small wrappers, so a serial build still works. */
#include "internal.h"

#ifdef _OPENMP
#include <omp.h>
#endif

int loopy_i_threads(int requested, uint64_t work_items, uint64_t min_per_thread)
{
    uint64_t most = min_per_thread ? work_items / min_per_thread : UINT64_MAX;
    int threads = requested;

#ifdef _OPENMP
    if (threads <= 0)
        threads = omp_get_max_threads();
#else
    threads = 1;
#endif
    if (threads < 1)
        threads = 1;
    if ((uint64_t)threads > most)
        threads = most > 0 ? (int)most : 1;
    return threads;
}

int loopy_i_thread_num(void)
{
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

int loopy_threads(int requested)
{
    return loopy_i_threads(requested, 0, 0);
}
