/* progress.c - the progress line of long runs (see cli.h). */
#include "cli.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds as "1 h 02 min", "3 min 05 s" or "42 s". */
static void format_seconds(char *buf, size_t size, double seconds)
{
    uint64_t s = seconds < 0 ? 0 : seconds > 1e9 ? 1000000000u
                                                  : (uint64_t)(seconds + 0.5);

    if (s >= 3600)
        snprintf(buf, size, "%" PRIu64 " h %02" PRIu64 " min", s / 3600,
                 s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, size, "%" PRIu64 " min %02" PRIu64 " s", s / 60, s % 60);
    else
        snprintf(buf, size, "%" PRIu64 " s", s);
}

/* A phase has ended at now, with done: its line, when it was a tier. */
static void end_phase(cli_progress *p, double now, uint64_t done)
{
    double took = now - p->phase_since;
    uint64_t positions = done > p->phase_done ? done - p->phase_done : 0;

    if (!p->log_tiers || strncmp(p->phase, "tier ", 5) != 0)
        return;
    if (p->shown)
        fputs("\r\033[K", stderr);
    p->shown = false;
    fprintf(stderr, "loopy %s: %s: %" PRIu64 " %s in %.3f s", p->cmd,
            p->phase, positions, positions == 1 ? "index" : "indices", took);
    if (took > 0.001 && positions > 0)
        fprintf(stderr, ", %.2f M/s", (double)positions / took / 1e6);
    fputc('\n', stderr);
}

static void show(void *ctx, const char *phase, uint64_t done, uint64_t total)
{
    cli_progress *p = ctx;
    double now = now_seconds(), elapsed = now - p->start, rate;
    char left[32] = "";

    if (strcmp(phase, p->phase) != 0) {
        end_phase(p, now, done);
        snprintf(p->phase, sizeof p->phase, "%s", phase);
        p->phase_since = now;
        p->phase_done = done;
    }
    if (total != p->rate_total || done < p->rate_done) {
        p->rate_total = total;
        p->rate_done = done;
        p->rate_since = now;
    }
    if (!p->enabled || elapsed < 1.0)
        return;
    if (done > total)
        done = total;
    rate = now - p->rate_since > 0.5
               ? (double)(done - p->rate_done) / (now - p->rate_since) : 0;
    if (rate > 0) {
        format_seconds(left, sizeof left, (double)(total - done) / rate);
        fprintf(stderr, "\rloopy %s: %-14s %5.1f%%  %.2f M/s  %s left  "
                "%.0f s \033[K", p->cmd, phase,
                total ? 100.0 * (double)done / (double)total : 100.0,
                rate / 1e6, left, elapsed);
    } else {
        fprintf(stderr, "\rloopy %s: %-14s %5.1f%%  %.0f s \033[K", p->cmd,
                phase,
                total ? 100.0 * (double)done / (double)total : 100.0, elapsed);
    }
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
        p->phase[0] = '\0';
        p->rate_total = UINT64_MAX;
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
