/*
 * run.c - the ranks of a run, and how they agree on failures.
 *
 * A rank that fails (a file it cannot open, memory it cannot get, a
 * damaged share) records the failure and goes on taking part in every
 * collective step until the next agreement, where all ranks learn of it:
 * none waits for a rank that has given up, so nothing hangs, and all stop
 * with the lowest failing rank's message and exit status.
 */
#include "mpi.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mpi_run_init(mpi_run *run)
{
    const char *fault = getenv("LOOPY_MPI_FAULT");
    char *end;
    long rank;

    memset(run, 0, sizeof *run);
    MPI_Comm_rank(MPI_COMM_WORLD, &run->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run->ranks);
    run->status = EXIT_OK;
    if (fault != NULL) {
        rank = strtol(fault, &end, 10);
        if (end != fault && *end == ':' && rank == run->rank)
            run->fault = end + 1;
    }
}

bool mpi_fault(const mpi_run *run, const char *what)
{
    return run->fault != NULL && strcmp(run->fault, what) == 0;
}

void mpi_fail(mpi_run *run, int status, const char *fmt, ...)
{
    va_list ap;

    if (run->status != EXIT_OK)
        return;
    run->status = status;
    va_start(ap, fmt);
    vsnprintf(run->message, sizeof run->message, fmt, ap);
    va_end(ap);
}

bool mpi_agree(mpi_run *run)
{
    int mine = run->status != EXIT_OK ? run->rank : run->ranks, first;

    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == run->ranks)
        return true;
    run->failed_rank = first;
    MPI_Bcast(&run->status, 1, MPI_INT, first, MPI_COMM_WORLD);
    MPI_Bcast(run->message, (int)sizeof run->message, MPI_CHAR, first,
              MPI_COMM_WORLD);
    return false;
}

/* Peak resident memory of this process, in KiB (Linux's VmHWM). */
uint64_t mpi_peak_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    uint64_t kib = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmHWM:", 6) == 0)
            kib = strtoull(line + 6, NULL, 10);
    fclose(f);
    return kib;
}
