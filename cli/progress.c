/* progress.c - the progress line of long runs (see cli.h). */
#include "cli.h"

#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    cli_progress *p = ctx;
    double elapsed = now_seconds() - p->start;

    if (!p->enabled || elapsed < 1.0)
        return;
    fprintf(stderr, "\rloopy %s: %-5s %5.1f%%  %6.1f s ", p->cmd, phase,
            total ? 100.0 * (double)(done > total ? total : done) / (double)total
                  : 100.0,
            elapsed);
    fflush(stderr);
    p->shown = true;
}

void cli_progress_attach(cli_progress *p, const char *cmd,
                         loopy_progress_fn *fn, void **ctx)
{
    if (p->cmd == NULL) {
        p->cmd = cmd;
        p->start = now_seconds();
        p->enabled = isatty(STDERR_FILENO) != 0;
        p->shown = false;
    }
    *fn = show;
    *ctx = p;
}

void cli_progress_end(cli_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = false;
}
