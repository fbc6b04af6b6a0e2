/*
 * phases.c - times the phases of one solve through the public API:
 *   phases FILE THREADS [PARALLEL_MIN_LEVEL]
 * prints "read" (text: pass 1, checking and counting; binary: load and
 * check), "build" (pass 2, filling the lists), "solve" (propagation and best
 * moves), each in seconds, and the text parsing speed of pass 1 in GB/s.
 * Phase boundaries come from the library's progress callback, which reports
 * the start of each phase.
 */
#include "loopy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

typedef struct marks {
    double start[3]; /* read, build, solve; 0: not seen */
} marks;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void mark(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    marks *m = ctx;
    int i = strcmp(phase, "read") == 0 ? 0 : strcmp(phase, "build") == 0 ? 1 : 2;
    (void)done;
    (void)total;
    if (m->start[i] == 0)
        m->start[i] = now();
}

int main(int argc, char **argv)
{
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    loopy_solve_options so = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_graph *g = NULL;
    loopy_solution *s = NULL;
    loopy_diag diag;
    marks m = {{0, 0, 0}};
    struct stat st;
    double t0, t_read_end, t_end;

    if (argc < 3 || argc > 4 || stat(argv[1], &st) != 0) {
        fputs("usage: phases FILE THREADS [PARALLEL_MIN_LEVEL]\n", stderr);
        return 2;
    }
    ro.threads = so.threads = atoi(argv[2]);
    ro.skip_successors = 1;
    so.parallel_min_level = argc == 4 ? (uint32_t)atol(argv[3]) : 0;
    ro.progress = so.progress = mark;
    ro.progress_ctx = so.progress_ctx = &m;
    t0 = now();
    if (loopy_read_file(argv[1], &ro, &g, &diag) != LOOPY_OK) {
        fprintf(stderr, "phases: %s: %s\n", argv[1], diag.message);
        return 1;
    }
    t_read_end = now();
    if (loopy_solve(g, &so, &s) != LOOPY_OK) {
        fputs("phases: solve failed\n", stderr);
        return 1;
    }
    t_end = now();
    if (m.start[1] == 0) { /* binary: one load phase */
        printf("load %.3f s  solve %.3f s  total %.3f s\n", t_read_end - t0,
               t_end - m.start[2], t_end - t0);
    } else {
        double pass1 = m.start[1] - m.start[0];
        printf("read %.3f s (%.2f GB/s)  build %.3f s  solve %.3f s  "
               "total %.3f s\n", pass1, (double)st.st_size / pass1 / 1e9,
               t_read_end - m.start[1], t_end - m.start[2], t_end - t0);
    }
    loopy_solution_free(s);
    loopy_graph_free(g);
    return 0;
}
