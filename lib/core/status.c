/* status.c - status messages and diagnostics. */
#include "internal.h"

#include <stdio.h>
#include <unistd.h>

static const char *const status_messages[] = {
#define LOOPY_STATUS_MESSAGE_(name, msg) msg,
    LOOPY_STATUS_MAP(LOOPY_STATUS_MESSAGE_)
#undef LOOPY_STATUS_MESSAGE_
};

const char *loopy_strerror(loopy_status status)
{
    if ((unsigned)status >= (unsigned)LOOPY_STATUS_COUNT_)
        return "unknown status";
    return status_messages[status];
}

void loopy_i_diag(loopy_diag *diag, uint64_t line, uint64_t column,
                  const char *fmt, ...)
{
    va_list ap;

    if (diag == NULL)
        return;
    diag->line = line;
    diag->column = column;
    diag->hint = LOOPY_HINT_NONE;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
}

loopy_status loopy_i_vertex_limit(loopy_diag *diag, uint64_t line,
                                  uint64_t column, uint64_t n)
{
    loopy_i_diag(diag, line, column, "n = %" PRIu64 " is more than loopy's "
                 "limit of %" PRIu32 " vertices", n, LOOPY_MAX_VERTICES);
    return LOOPY_ETOOBIG;
}

uint64_t loopy_i_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGESIZE);

    if (pages <= 0 || page_size <= 0)
        return UINT64_MAX;
    return (uint64_t)pages * (uint64_t)page_size;
}
