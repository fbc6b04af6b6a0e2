/*
 * test_resource_limits.c - announced sizes that cannot fit are refused
 * before anything is allocated, and a short text never makes the reader
 * allocate for the edges it announces but cannot hold.
 *
 * Allocations are observed through the test hooks of lib/core/alloc.c:
 * loopy_i_alloc_fail_at(0) returns how many were made since it was last
 * called, loopy_i_alloc_largest() the largest request in bytes.
 */
#include "check.h"
#include "internal.h"

#include <string.h>

typedef struct outcome {
    loopy_status status;
    loopy_diag diag;
    uint64_t allocations; /* made by the call */
    uint64_t largest;     /* bytes of its largest request */
} outcome;

static outcome read_text(const char *text, loopy_text_format format,
                         uint64_t memory_limit)
{
    loopy_read_options opt = {
        .format = format, .base = 1, .memory_limit = memory_limit};
    loopy_graph *g = (loopy_graph *)(uintptr_t)1;
    outcome r;

    memset(&r, 0, sizeof r);
    loopy_i_alloc_fail_at(0);
    r.status = loopy_read_text(text, strlen(text), &opt, &g, NULL, &r.diag);
    r.largest = loopy_i_alloc_largest();
    r.allocations = loopy_i_alloc_fail_at(0);
    if (r.status == LOOPY_OK)
        loopy_graph_free(g);
    else
        CHECK_MSG(g == NULL, "*out set on failure for '%s'", text);
    return r;
}

/* A refusal for size: ETOOBIG at the given line, naming `number`, with no
 * allocation at all. */
static void refused_before_allocating(const char *text,
                                      loopy_text_format format,
                                      uint64_t memory_limit, uint64_t line,
                                      const char *number)
{
    outcome r = read_text(text, format, memory_limit);

    CHECK_MSG(r.status == LOOPY_ETOOBIG, "'%s': %s (%s)", text,
              loopy_strerror(r.status), r.diag.message);
    CHECK_MSG(r.allocations == 0, "'%s': %llu allocations, largest %llu bytes",
              text, (unsigned long long)r.allocations,
              (unsigned long long)r.largest);
    CHECK_MSG(r.diag.line == line, "'%s': line %llu, want %llu", text,
              (unsigned long long)r.diag.line, (unsigned long long)line);
    CHECK_MSG(strstr(r.diag.message, number) != NULL,
              "'%s': message '%s' does not name %s", text, r.diag.message,
              number);
    check_case_end();
}

/* A short text announcing many edges fails as malformed, having asked for
 * no more than `bytes` at once. */
static void short_text_small_allocations(const char *text,
                                         loopy_text_format format,
                                         uint64_t bytes)
{
    outcome r = read_text(text, format, UINT64_C(1) << 40);

    CHECK_MSG(r.status == LOOPY_EPARSE, "'%s': %s (%s)", text,
              loopy_strerror(r.status), r.diag.message);
    CHECK_MSG(r.largest <= bytes, "'%s': asked for %llu bytes at once", text,
              (unsigned long long)r.largest);
    check_case_end();
}

/* The least memory_limit under which an n-vertex, m-edge text is read, and
 * checks around it: refused with no allocation just below, read above, and
 * never below the graph's own 8(n + 1) + 4m bytes. */
static void memory_limit_threshold(loopy_vertex n, loopy_edge m)
{
    char text[4096];
    size_t len;
    uint64_t lo = 1, hi = UINT64_C(1) << 40, graph_bytes = 8 * ((uint64_t)n + 1) + 4 * m;
    outcome r;

    len = (size_t)snprintf(text, sizeof text, "%" PRIu32 " %" PRIu64 "\n", n, m);
    for (loopy_edge e = 0; e < m && len + 32 < sizeof text; e++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%" PRIu64 " %" PRIu64 "\n", e % n + 1,
                                (e * 7) % n + 1);
    /* Binary search for the least limit that reads the text. */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (read_text(text, LOOPY_TEXT_EDGES, mid).status == LOOPY_OK)
            hi = mid;
        else
            lo = mid + 1;
    }
    CHECK_MSG(lo >= graph_bytes, "n %u m %llu: read under a limit of %llu "
              "bytes, below the graph's %llu", n, (unsigned long long)m,
              (unsigned long long)lo, (unsigned long long)graph_bytes);
    CHECK_MSG(lo <= 16 * graph_bytes, "n %u m %llu: needs a limit of %llu",
              n, (unsigned long long)m, (unsigned long long)lo);
    r = read_text(text, LOOPY_TEXT_EDGES, lo - 1);
    CHECK(r.status == LOOPY_ETOOBIG && r.allocations == 0);
    CHECK(read_text(text, LOOPY_TEXT_EDGES, lo + 1).status == LOOPY_OK);
    CHECK(read_text(text, LOOPY_TEXT_EDGES, 2 * lo).status == LOOPY_OK);
    CHECK(read_text(text, LOOPY_TEXT_EDGES, 0).status == LOOPY_OK);
    printf("memory_limit threshold for n = %u, m = %llu: %llu bytes "
           "(graph alone %llu)\n", n, (unsigned long long)m,
           (unsigned long long)lo, (unsigned long long)graph_bytes);
    check_case_end();
}

/* The seed readers on a short text announcing far more than it holds:
 * they fail where the text ends (line:column), with no request of more
 * than max_bytes. */
static void seed_short_text(int which, const char *text, uint64_t line,
                            uint64_t column, uint64_t max_bytes)
{
    loopy_source *src = NULL;
    loopy_graph *g = NULL;
    loopy_race_rounds rounds;
    loopy_climb_answers answers;
    loopy_vertex start;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status status;
    uint64_t largest;

    CHECK(loopy_source_from_memory(text, strlen(text), &src) == LOOPY_OK);
    loopy_i_alloc_fail_at(0);
    if (which == 0)
        status = loopy_race_read(src, &g, &rounds, &diag);
    else if (which == 1)
        status = loopy_sleepy_read(src, &g, &start, &diag);
    else
        status = loopy_climb_run(src, &answers, &diag);
    largest = loopy_i_alloc_largest();
    loopy_i_alloc_fail_at(0);
    loopy_source_free(src);
    CHECK_MSG(status == LOOPY_EPARSE && diag.line == line &&
                  diag.column == column,
              "'%s': status %d at %llu:%llu: %s", text, (int)status,
              (unsigned long long)diag.line, (unsigned long long)diag.column,
              diag.message);
    CHECK_MSG(largest <= max_bytes, "'%s': a request of %llu bytes", text,
              (unsigned long long)largest);
    check_case_end();
}

int main(void)
{
    const uint64_t gib = UINT64_C(1) << 30;
    loopy_graph *g = (loopy_graph *)(uintptr_t)1;
    uint64_t made;

    /* n over the 32-bit limit, in both formats, after comments. */
    refused_before_allocating("4294967295 0\n", LOOPY_TEXT_EDGES, 0, 1,
                              "4294967295");
    refused_before_allocating("# big\n\n18446744073709551615 1\n1 1\n",
                              LOOPY_TEXT_ADJ, 0, 3, "18446744073709551615");
    refused_before_allocating("5000000000\n", LOOPY_TEXT_EDGES, 0, 1,
                              "5000000000");
    /* n at the limit, or n * m, too large for the memory given. */
    refused_before_allocating("4294967294 0\n", LOOPY_TEXT_EDGES, gib, 1,
                              "4294967294");
    refused_before_allocating("4000000000 4000000000\n1 2\n", LOOPY_TEXT_EDGES,
                              64 * gib, 1, "4000000000");
    /* m too large for the memory given, in texts that do hold m edges. */
    {
        char edges[2048], adj[2048];
        size_t a = (size_t)snprintf(edges, sizeof edges, "# m too big\n2 100\n");
        size_t b = (size_t)snprintf(adj, sizeof adj, "2 100\n50");
        for (int e = 0; e < 100; e++) {
            a += (size_t)snprintf(edges + a, sizeof edges - a, "1 2\n");
            b += (size_t)snprintf(adj + b, sizeof adj - b, e == 50 ? "\n50 1"
                                                                  : " 2");
        }
        snprintf(adj + b, sizeof adj - b, "\n");
        refused_before_allocating(edges, LOOPY_TEXT_EDGES, 1000, 2, "m = 100");
        refused_before_allocating(adj, LOOPY_TEXT_ADJ, 1000, 1, "m = 100");
        /* The same m with a memory limit that holds them: read. */
        CHECK(read_text(edges, LOOPY_TEXT_EDGES, 4000).status == LOOPY_OK);
        CHECK(read_text(adj, LOOPY_TEXT_ADJ, 4000).status == LOOPY_OK);
        check_case_end();
    }
    refused_before_allocating("100000 0\n", LOOPY_TEXT_EDGES, 100000, 1,
                              "100000");

    /* A number past 2^64 - 1 is malformed, not large. */
    {
        outcome r = read_text("99999999999999999999999 1\n1 1\n",
                              LOOPY_TEXT_EDGES, 0);
        CHECK(r.status == LOOPY_EPARSE && r.allocations == 0);
        CHECK(strstr(r.diag.message, "number too large") != NULL);
        check_case_end();
    }

    /* m within the limit but far beyond what the text holds: what is asked
     * for depends on the text and n, not on m.  The fast edge-list reader
     * sizes its bins by the edges the text can hold, here a few KiB;
     * 4n + 4m bytes would be 400 MB. */
    short_text_small_allocations("2 100000000\n1 2\n", LOOPY_TEXT_EDGES,
                                 64 * 1024);
    short_text_small_allocations("2 100000000\n1 2\n0\n", LOOPY_TEXT_ADJ, 4096);
    short_text_small_allocations("3 4000000000\n", LOOPY_TEXT_EDGES, 64 * 1024);
    /* Nor, whatever the memory, is such an m refused as too large: the
     * text is reported where it ends. */
    short_text_small_allocations("# m too big\n2 1000000000000\n1 2\n",
                                 LOOPY_TEXT_EDGES, 4096);
    short_text_small_allocations("2 18446744073709551615\n1 2\n",
                                 LOOPY_TEXT_ADJ, 4096);

    /* Likewise for the seed readers: counts of moves, rounds, heights or a
     * vertex's moves (sleepy's k, once claimed as it was read). */
    seed_short_text(0, "2 4000000000 4000000000\n1 2\n", 3, 1, 4096);
    seed_short_text(1, "1 99999999999\n4294967294\n", 3, 1, 4096);
    seed_short_text(1, "3 4000000000\n1000000000 1 2\n", 3, 1, 4096);
    seed_short_text(2, "1\n10000 1000\n1 2\n", 4, 1, 8192);

    memory_limit_threshold(1, 0);
    memory_limit_threshold(10, 20);
    memory_limit_threshold(1000, 100);

    /* The graph constructor refuses n over the limit without allocating. */
    loopy_i_alloc_fail_at(0);
    CHECK(loopy_graph_from_edges(LOOPY_MAX_VERTICES + 1u, 0, NULL, NULL, &g) ==
          LOOPY_EINVAL);
    made = loopy_i_alloc_fail_at(0);
    CHECK(g == NULL && made == 0);
    check_case_end();

    return check_finish("test_resource_limits");
}
