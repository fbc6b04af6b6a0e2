/* parallel.c - OpenMP behind small wrappers, so a serial build still works. */
/* MAP_ANONYMOUS, MAP_NORESERVE */
#define _DEFAULT_SOURCE
#include "internal.h"

#ifdef _OPENMP
#include <omp.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdatomic.h>
#include <stdlib.h>

/*
 * OpenMP runtimes end the process when they cannot start a thread (libgomp
 * prints "Thread creation failed" and exits), so the library makes sure
 * first that the threads it asks for can exist at once: a chain of probe
 * threads, each starting the next and waiting for it, with the stack size
 * the runtime will use.  A process short of memory or of processes (ulimit
 * -v, a process limit) then runs on the threads it can get; the answers do
 * not depend on their number.  glibc keeps the stacks of joined threads
 * for reuse, so the runtime's own threads find them just after.
 */
typedef struct probe {
    int left;        /* threads still to start after this one */
    int started;     /* out: how many started, this one included */
    size_t stack;    /* stack size, 0 for the default */
} probe;

/* Address space each probe thread also reserves, beyond its stack, while
 * the chain stands: the runtime's own data for a thread (LLVM's libomp
 * allocates several MiB of it, and aborts when it cannot), so that a
 * process near its ulimit -v runs on fewer threads instead.  Reserved,
 * never touched: it costs no memory. */
#define PROBE_HEADROOM ((size_t)16 << 20)

static void *probe_run(void *arg)
{
    probe *p = arg;
    pthread_attr_t attr;
    pthread_t next;
    probe child;
    void *headroom;

    if (p->left == 0) {
        p->started = 1;
        return NULL;
    }
    headroom = mmap(NULL, PROBE_HEADROOM, PROT_NONE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (headroom == MAP_FAILED) {
        p->started = 1; /* this one runs, but no more */
        return NULL;
    }
    p->started = 1;
    child.left = p->left - 1;
    child.started = 0;
    child.stack = p->stack;
    if (pthread_attr_init(&attr) != 0) {
        munmap(headroom, PROBE_HEADROOM);
        return NULL;
    }
    if ((p->stack == 0 || pthread_attr_setstacksize(&attr, p->stack) == 0) &&
        pthread_create(&next, &attr, probe_run, &child) == 0) {
        pthread_join(next, NULL);
        p->started += child.started;
    }
    pthread_attr_destroy(&attr);
    munmap(headroom, PROBE_HEADROOM);
    return NULL;
}

/* The stack size OMP_STACKSIZE (or GOMP_STACKSIZE) asks the runtime for:
 * a number with an optional B, K, M or G (kilobytes without one); 0 when
 * unset or unreadable (the runtime's default, the system's). */
static size_t omp_stack_size(void)
{
    const char *text = getenv("OMP_STACKSIZE");
    char *end;
    unsigned long long size;
    int shift = 10;

    if (text == NULL)
        text = getenv("GOMP_STACKSIZE");
    if (text == NULL)
        return 0;
    size = strtoull(text, &end, 10);
    while (*end == ' ')
        end++;
    switch (*end) {
    case 'b': case 'B': shift = 0; end++; break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (end == text || size > (SIZE_MAX >> shift))
        return 0;
    return (size_t)size << shift;
}

/* The most threads a probe has started at once in this process.  A fact
 * about the process, not the state of any computation, so one word for all
 * (atomic: library calls may come from several threads).  Once the runtime
 * has run that many, it keeps them, so asking again would only cost a
 * thread start per call (5 s over the 30,000 small solves of a test run);
 * should memory still run out later, the command line's exit handler says
 * so (cli/main.c). */
static _Atomic int probed_threads = 1;

/* How many of `threads` (the caller's included) can run at once now. */
static int startable_threads(int threads)
{
    probe first = {threads - 1, 0, omp_stack_size()};
    int known = atomic_load_explicit(&probed_threads, memory_order_relaxed);

    if (threads <= known)
        return threads;
    probe_run(&first);
    while (first.started > known &&
           !atomic_compare_exchange_weak_explicit(&probed_threads, &known,
                                                  first.started,
                                                  memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
    return first.started;
}
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
#ifdef _OPENMP
    if (threads > 1)
        threads = startable_threads(threads);
#endif
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
