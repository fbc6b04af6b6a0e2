/*
 * test_large_oom.c - every allocation of the fast reader, the binary
 * writer and loader, and the parallel solver may fail: each k-th failure
 * must give LOOPY_ENOMEM (or success when k is past the last allocation),
 * never a crash or a leak (the asan build checks leaks).
 */
#include "check.h"
#include "gen.h"
#include "internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int append(void *ctx, const void *p, size_t len)
{
    FILE *f = ctx;
    return fwrite(p, 1, len, f) == len ? 0 : 1;
}

/* Runs one read-convert-load-solve round with the k-th allocation failing;
 * returns whether every step succeeded. */
static bool round_with_failure(uint64_t k, const char *text, size_t len,
                               const char *path)
{
    loopy_read_options ro = LOOPY_READ_OPTIONS_INIT;
    loopy_solve_options so = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_graph *g = NULL, *back = NULL;
    loopy_solution *s = NULL;
    loopy_diag diag;
    loopy_status status;
    bool ok = false;
    FILE *f;

    ro.threads = 2;
    so.threads = 2;
    so.parallel_min_level = 1;
    loopy_i_alloc_fail_at(k);
    status = loopy_read_text(text, len, &ro, &g, NULL, &diag);
    CHECK(status == LOOPY_OK || status == LOOPY_ENOMEM);
    if (status != LOOPY_OK)
        goto done;
    f = fopen(path, "wb");
    if (f == NULL)
        goto done;
    status = loopy_write_binary(g, append, f);
    fclose(f);
    CHECK(status == LOOPY_OK || status == LOOPY_ENOMEM);
    if (status != LOOPY_OK)
        goto done;
    status = loopy_read_file(path, &ro, &back, &diag);
    CHECK(status == LOOPY_OK || status == LOOPY_ENOMEM);
    if (status != LOOPY_OK)
        goto done;
    status = loopy_solve(back, &so, &s);
    CHECK(status == LOOPY_OK || status == LOOPY_ENOMEM);
    ok = status == LOOPY_OK;
done:
    loopy_i_alloc_fail_at(0);
    loopy_solution_free(s);
    loopy_graph_free(g);
    loopy_graph_free(back);
    return ok;
}

int main(void)
{
    char path[] = "/tmp/loopy_test_large_oom_XXXXXX";
    gen_edges e = GEN_EDGES_INIT;
    char *text;
    size_t len = 0, cap;
    int fd = mkstemp(path);

    if (fd < 0 || gen_graph_sized(42, GEN_MIX, 300, &e) != 0)
        return 1;
    close(fd);
    cap = 32 + (size_t)e.m * 24;
    text = malloc(cap);
    if (text == NULL)
        return 1;
    len = (size_t)snprintf(text, cap, "%" PRIu32 " %" PRIu64 "\n", e.n, e.m);
    for (uint64_t i = 0; i < e.m; i++)
        len += (size_t)snprintf(text + len, cap - len, "%" PRIu32 " %" PRIu32 "\n",
                                e.tail[i] + 1, e.head[i] + 1);
    /* Fail each allocation in turn until a round needs no failure. */
    for (uint64_t k = 1; k < 10000; k++) {
        bool done = round_with_failure(k, text, len, path);
        check_case_end();
        if (done)
            break;
    }
    unlink(path);
    free(text);
    gen_edges_free(&e);
    return check_finish("test_large_oom");
}
