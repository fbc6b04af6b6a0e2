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

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The name of rank 0's temporary output file, known to every rank
 * (mpi_share_pending) so that whichever rank a signal reaches first removes
 * it: mpirun ends its ranks with SIGTERM and, once the first of them has
 * died, with SIGKILL a few milliseconds later, before a rank 0 that the
 * machine has not yet scheduled runs its handler.  (On another node the
 * name is the file itself where the folder is shared, else no file: a
 * random name.)  A fixed array, not freed memory, since a handler may read
 * it at any time; set says that it holds a name. */
static char shared_tmp[4096];
static volatile sig_atomic_t shared_tmp_set;

void mpi_share_pending(const mpi_run *run, const char *tmp_path)
{
    int len = 0;

    shared_tmp_set = 0;
    /* A name too long for the array stays rank 0's alone. */
    if (run->rank == 0 && tmp_path != NULL &&
        strlen(tmp_path) < sizeof shared_tmp) {
        len = (int)strlen(tmp_path);
        memcpy(shared_tmp, tmp_path, (size_t)len + 1);
    }
    MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (len == 0)
        return;
    MPI_Bcast(shared_tmp, len + 1, MPI_CHAR, 0, MPI_COMM_WORLD);
    shared_tmp_set = 1;
}

char *mpi_pending_path(void)
{
    size_t len;
    char *copy;

    if (!shared_tmp_set)
        return NULL;
    len = strlen(shared_tmp);
    copy = malloc(len + 1);
    if (copy != NULL)
        memcpy(copy, shared_tmp, len + 1);
    return copy;
}

void mpi_forget_pending(void)
{
    shared_tmp_set = 0;
}

/* Interrupted: remove the output's temporary file (rank 0's own, and the
 * name every rank was given), then die of the signal as if unhandled, so
 * that mpirun sees the usual status.  Only async-signal-safe calls here;
 * the signal is blocked in here, and raise() leaves it pending until this
 * returns.  A second unlink of a removed (or committed) name fails
 * harmlessly. */
static void on_interrupt(int sig)
{
    cli_out_remove_pending();
    if (shared_tmp_set)
        unlink(shared_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

void mpi_catch_signals(void)
{
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++) {
        struct sigaction old;
        /* A signal ignored at start (nohup) stays ignored. */
        if (sigaction(stops[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(stops[k], &sa, NULL);
    }
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
