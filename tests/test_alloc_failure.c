/*
 * test_alloc_failure.c - every public entry point that allocates, with its
 * k-th allocation failing, for every k up to the number a successful call
 * makes.
 *
 * For each scenario: one successful call counts its allocations k_total and
 * fingerprints its result.  Then, for k = 1 .. k_total, twice (allocation k
 * and all later ones fail; only allocation k fails):
 *  - the call returns LOOPY_ENOMEM (or the scenario's documented other
 *    status), leaves *out NULL, and gives a message where it has a diag;
 *  - if the call still succeeds (an allocation it could do without), its
 *    result has the fingerprint of the successful call;
 *  - the library holds exactly as many blocks as before (live count from
 *    lib/core/alloc.c); "make asan" adds LeakSanitizer on top.
 */
#include "check.h"
#include "gen.h"
#include "internal.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

/* ---- Fingerprints of results (FNV-1a) ---- */

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static uint64_t graph_print(const loopy_graph *g)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    loopy_edge m = loopy_graph_edge_count(g);
    uint64_t h = fnv(UINT64_C(0xcbf29ce484222325), &n, sizeof n);

    h = fnv(h, &m, sizeof m);
    for (loopy_vertex v = 0; v < n; v++) {
        loopy_edge k;
        const loopy_vertex *succ = loopy_graph_successors(g, v, &k);
        h = fnv(h, &k, sizeof k);
        h = fnv(h, succ, (size_t)k * sizeof *succ);
    }
    return h;
}

static uint64_t solution_print(const loopy_solution *s)
{
    loopy_vertex n = loopy_solution_vertex_count(s);
    uint64_t h = fnv(UINT64_C(0xcbf29ce484222325), &n, sizeof n);

    h = fnv(h, loopy_solution_outcomes(s), n);
    h = fnv(h, loopy_solution_remoteness(s), n * sizeof(uint32_t));
    return fnv(h, loopy_solution_best_moves(s), n * sizeof(loopy_vertex));
}

/* ---- Scenarios ---- */

typedef struct scenario {
    const char *name;
    /* Makes the call; on success stores the result's fingerprint in *print
     * and frees the result.  Checks *out NULL on failure itself. */
    loopy_status (*call)(const struct scenario *sc, uint64_t *print);
    loopy_status other; /* a documented status besides LOOPY_ENOMEM */
    const char *text;   /* input of the reader scenarios */
    loopy_read_options read;
    const gen_edges *graph;          /* input of loopy_graph_from_edges */
    const loopy_graph *built;        /* input of the solver scenarios */
    const loopy_solve_options *solve;
} scenario;

static loopy_status call_read_text(const scenario *sc, uint64_t *print)
{
    loopy_graph *g = (loopy_graph *)(uintptr_t)1;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    size_t end = 0;
    loopy_status status = loopy_read_text(sc->text, strlen(sc->text),
                                          &sc->read, &g, &end, &diag);

    if (status != LOOPY_OK) {
        CHECK_MSG(g == NULL, "%s: *out set on failure", sc->name);
        CHECK_MSG(diag.message[0] != '\0', "%s: no message", sc->name);
        return status;
    }
    *print = fnv(graph_print(g), &end, sizeof end);
    loopy_graph_free(g);
    return status;
}

static loopy_status call_graph_from_edges(const scenario *sc, uint64_t *print)
{
    loopy_graph *g = (loopy_graph *)(uintptr_t)1;
    loopy_status status = loopy_graph_from_edges(
        sc->graph->n, sc->graph->m, sc->graph->tail, sc->graph->head, &g);

    if (status != LOOPY_OK) {
        CHECK_MSG(g == NULL, "%s: *out set on failure", sc->name);
        return status;
    }
    *print = graph_print(g);
    loopy_graph_free(g);
    return status;
}

static loopy_status call_solve(const scenario *sc, uint64_t *print)
{
    loopy_solution *s = (loopy_solution *)(uintptr_t)1;
    loopy_status status = loopy_solve(sc->built, sc->solve, &s);

    if (status != LOOPY_OK) {
        CHECK_MSG(s == NULL, "%s: *out set on failure", sc->name);
        return status;
    }
    *print = solution_print(s);
    loopy_solution_free(s);
    return status;
}

static loopy_status call_solver_create(const scenario *sc, uint64_t *print)
{
    loopy_solver *solver = (loopy_solver *)(uintptr_t)1;
    loopy_status status = loopy_solver_create(sc->built, &solver);

    if (status != LOOPY_OK) {
        CHECK_MSG(solver == NULL, "%s: *out set on failure", sc->name);
        return status;
    }
    *print = 1;
    loopy_solver_free(solver);
    return status;
}

/* loopy_solver_run on a solver created before the window; the solver is
 * kept in a static so that each call runs the same one. */
static loopy_solver *run_solver;

static loopy_status call_solver_run(const scenario *sc, uint64_t *print)
{
    loopy_solution *s = (loopy_solution *)(uintptr_t)1;
    loopy_status status = loopy_solver_run(run_solver, sc->solve, &s);

    if (status != LOOPY_OK) {
        CHECK_MSG(s == NULL, "%s: *out set on failure", sc->name);
        return status;
    }
    *print = solution_print(s);
    loopy_solution_free(s);
    return status;
}

static loopy_status call_buffer_load(const scenario *sc, uint64_t *print)
{
    loopy_buffer buffer;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status status = loopy_buffer_load(sc->text, &buffer, &diag);

    if (status != LOOPY_OK) {
        CHECK_MSG(buffer.data == NULL && buffer.len == 0,
                  "%s: buffer kept on failure", sc->name);
        CHECK_MSG(diag.message[0] != '\0', "%s: no message", sc->name);
        return status;
    }
    *print = fnv(UINT64_C(0xcbf29ce484222325), buffer.data, buffer.len);
    loopy_buffer_release(&buffer);
    return status;
}

/* loopy_read_file of the file named by sc->text (a compressed one). */
static loopy_status call_read_file(const scenario *sc, uint64_t *print)
{
    loopy_graph *g = (loopy_graph *)(uintptr_t)1;
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status status = loopy_read_file(sc->text, &sc->read, &g, &diag);

    if (status != LOOPY_OK) {
        CHECK_MSG(g == NULL, "%s: *out set on failure", sc->name);
        CHECK_MSG(diag.message[0] != '\0', "%s: no message", sc->name);
        return status;
    }
    *print = graph_print(g);
    loopy_graph_free(g);
    return status;
}

static int count_bytes(void *ctx, const void *bytes, size_t len)
{
    uint64_t *h = ctx;

    *h = fnv(*h, bytes, len);
    return 0;
}

/* loopy_write_text of sc->built, as an edge list numbered from 0. */
static loopy_status call_write_text(const scenario *sc, uint64_t *print)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    loopy_status status = loopy_write_text(sc->built, LOOPY_TEXT_EDGES, 0,
                                           count_bytes, &h);

    if (status == LOOPY_OK)
        *print = h;
    return status;
}

/* Writes text compressed with gzip (zlib's gz* functions) or zstd to a new
 * temporary file whose name goes to path. */
static bool write_compressed(const char *text, bool zstd, char *path)
{
    size_t len = strlen(text);
    int fd = mkstemp(path);
    bool ok = fd >= 0;

    if (!ok)
        return false;
    if (zstd) {
        char packed[1024];
        size_t n = ZSTD_compress(packed, sizeof packed, text, len, 3);
        ok = !ZSTD_isError(n) && write(fd, packed, n) == (ssize_t)n;
        close(fd);
    } else {
        gzFile gz = gzdopen(fd, "wb");
        ok = gz != NULL && gzwrite(gz, text, (unsigned)len) == (int)len &&
             gzclose(gz) == Z_OK;
    }
    return ok;
}

/* Big enough that standard input is read in several growing steps. */
#define PIPE_BYTES (300 * 1000)

/* loopy_buffer_load of standard input, fed by a child through a pipe. */
static loopy_status call_buffer_load_stdin(const scenario *sc, uint64_t *print)
{
    int fds[2], saved_stdin = dup(STDIN_FILENO), wstatus;
    loopy_status status;
    pid_t pid;

    CHECK(saved_stdin >= 0 && pipe(fds) == 0);
    pid = fork();
    if (pid == 0) {
        char chunk[1000];
        close(fds[0]);
        memset(chunk, 'x', sizeof chunk);
        for (int i = 0; i < PIPE_BYTES / (int)sizeof chunk; i++)
            if (write(fds[1], chunk, sizeof chunk) != (ssize_t)sizeof chunk)
                _exit(0); /* the reader gave up */
        _exit(0);
    }
    close(fds[1]);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    status = call_buffer_load(sc, print);
    dup2(saved_stdin, STDIN_FILENO);
    close(saved_stdin);
    waitpid(pid, &wstatus, 0);
    return status;
}

/* ---- The sweep ---- */

static void sweep(const scenario *sc)
{
    uint64_t reference = 0, print, k_total;
    int64_t live = loopy_i_alloc_live();
    unsigned long successes = 0;
    loopy_status status;

    loopy_i_alloc_fail_at(0);
    status = sc->call(sc, &reference);
    k_total = loopy_i_alloc_fail_at(0);
    CHECK_MSG(status == LOOPY_OK, "%s: %s", sc->name, loopy_strerror(status));
    CHECK_MSG(k_total > 0, "%s: no allocation to fail", sc->name);
    CHECK_MSG(loopy_i_alloc_live() == live, "%s: %lld blocks leaked", sc->name,
              (long long)(loopy_i_alloc_live() - live));
    for (int once = 0; once <= 1; once++) {
        for (uint64_t k = 1; k <= k_total; k++) {
            if (once)
                loopy_i_alloc_fail_once(k);
            else
                loopy_i_alloc_fail_at(k);
            print = 0;
            status = sc->call(sc, &print);
            loopy_i_alloc_fail_at(0);
            if (status == LOOPY_OK) {
                successes++;
                CHECK_MSG(print == reference, "%s: k = %llu: a different "
                          "result", sc->name, (unsigned long long)k);
            } else {
                CHECK_MSG(status == LOOPY_ENOMEM || status == sc->other,
                          "%s: k = %llu%s: %s", sc->name,
                          (unsigned long long)k, once ? " (once)" : "",
                          loopy_strerror(status));
            }
            CHECK_MSG(loopy_i_alloc_live() == live,
                      "%s: k = %llu%s: %lld blocks leaked", sc->name,
                      (unsigned long long)k, once ? " (once)" : "",
                      (long long)(loopy_i_alloc_live() - live));
        }
    }
    printf("%-34s %3llu allocations, %lu of %llu failing calls succeeded\n",
           sc->name, (unsigned long long)k_total, successes,
           (unsigned long long)(2 * k_total));
    check_case_end();
}

static const char edges_text[] = "6 8\n1 2\n2 3\n3 1\n3 4\n4 5\n5 6\n6 4\n2 2\n";
static const char edges_comments[] =
    "# comments, CRLF, trailing text\r\n3 2 # n m\r\n\r\n1 2\r\n2 3\r\nrest";
static const char adj_text[] = "5 6\n2 2 3\n2 4 5\n1 4\n1 5\n0\n";
static const char bad_text[] = "5 3\n1 2\n2 3\n3 9\n";
static const char pairs_text[] =
    "% konect\n# snap\n1 2\n2 3 # c\n3 1\n3 4\n4 5\n5 6\n6 4\n2 2\n";

int main(void)
{
    static const loopy_read_options edges = {.format = LOOPY_TEXT_EDGES, .base = 1};
    static const loopy_read_options edges_trailing = {
        .format = LOOPY_TEXT_EDGES, .base = 1, .allow_trailing = 1};
    static const loopy_read_options adj0 = {.format = LOOPY_TEXT_ADJ, .base = 1};
    static const loopy_read_options pairs = {.format = LOOPY_TEXT_PAIRS,
                                             .base = 1};
    gen_edges graph = GEN_EDGES_INIT, empty = GEN_EDGES_INIT;
    gen_targets targets = GEN_TARGETS_INIT, tied = GEN_TARGETS_INIT;
    loopy_solve_options normal = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_solve_options with_targets = LOOPY_SOLVE_OPTIONS_INIT;
    loopy_solve_options with_ties;
    loopy_graph *g, *g_empty;
    char path[] = "/tmp/loopy_alloc_XXXXXX";
    int fd;

    signal(SIGPIPE, SIG_IGN);
    if (gen_graph_sized(7, GEN_MIX, 120, &graph) != 0 ||
        gen_make_targets(11, graph.n, &targets) != 0 ||
        gen_make_targets(15, graph.n, &tied) != 0 ||
        gen_add_ties(5, graph.n, &tied) != 0) {
        fputs("out of memory\n", stderr);
        return EXIT_FAILURE;
    }
    with_targets.misere = 1;
    with_targets.lose_at = targets.lose_at;
    with_targets.lose_at_count = targets.lose_count;
    with_targets.win_at = targets.win_at;
    with_targets.win_at_count = targets.win_count;
    with_ties = with_targets;
    with_ties.lose_at = tied.lose_at;
    with_ties.lose_at_count = tied.lose_count;
    with_ties.win_at = tied.win_at;
    with_ties.win_at_count = tied.win_count;
    with_ties.tie_at = tied.tie_at;
    with_ties.tie_at_count = tied.tie_count;

    {
        const scenario readers[] = {
            {"loopy_read_text edges", call_read_text, LOOPY_ENOMEM,
             edges_text, edges, NULL, NULL, NULL},
            {"loopy_read_text edges, trailing", call_read_text, LOOPY_ENOMEM,
             edges_comments, edges_trailing, NULL, NULL, NULL},
            {"loopy_read_text adj", call_read_text, LOOPY_ENOMEM, adj_text,
             adj0, NULL, NULL, NULL},
            {"loopy_read_text empty graph", call_read_text, LOOPY_ENOMEM,
             "0 0\n", edges, NULL, NULL, NULL},
            {"loopy_read_text pairs", call_read_text, LOOPY_ENOMEM,
             pairs_text, pairs, NULL, NULL, NULL},
            {"loopy_graph_from_edges", call_graph_from_edges, LOOPY_ENOMEM,
             NULL, edges, &graph, NULL, NULL},
            {"loopy_graph_from_edges empty", call_graph_from_edges,
             LOOPY_ENOMEM, NULL, edges, &empty, NULL, NULL},
        };
        for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
            sweep(&readers[i]);
    }

    /* A malformed text: failing before the error gives ENOMEM, after it
     * the parse error itself. */
    {
        const scenario bad = {"loopy_read_text malformed", NULL, LOOPY_EPARSE,
                              bad_text, edges, NULL, NULL, NULL};
        uint64_t k_total, print;
        int64_t live = loopy_i_alloc_live();

        loopy_i_alloc_fail_at(0);
        CHECK(call_read_text(&bad, &print) == LOOPY_EPARSE);
        k_total = loopy_i_alloc_fail_at(0);
        for (uint64_t k = 1; k <= k_total; k++) {
            loopy_status status;
            loopy_i_alloc_fail_at(k);
            status = call_read_text(&bad, &print);
            loopy_i_alloc_fail_at(0);
            CHECK(status == LOOPY_ENOMEM || status == LOOPY_EPARSE);
        }
        CHECK(loopy_i_alloc_live() == live);
        printf("%-34s %3llu allocations\n", bad.name,
               (unsigned long long)k_total);
        check_case_end();
    }

    g = NULL;
    g_empty = NULL;
    CHECK(loopy_graph_from_edges(graph.n, graph.m, graph.tail, graph.head, &g) ==
          LOOPY_OK);
    CHECK(loopy_graph_from_edges(0, 0, NULL, NULL, &g_empty) == LOOPY_OK);
    if (g != NULL && g_empty != NULL) {
        const scenario solvers[] = {
            {"loopy_solve", call_solve, LOOPY_ENOMEM, NULL, edges, NULL, g,
             &normal},
            {"loopy_solve misere, targets", call_solve, LOOPY_ENOMEM, NULL,
             edges, NULL, g, &with_targets},
            {"loopy_solve misere, ties", call_solve, LOOPY_ENOMEM,
             NULL, edges, NULL, g, &with_ties},
            {"loopy_solve empty graph", call_solve, LOOPY_ENOMEM, NULL, edges,
             NULL, g_empty, &normal},
            {"loopy_solver_create", call_solver_create, LOOPY_ENOMEM, NULL,
             edges, NULL, g, NULL},
            {"loopy_write_text", call_write_text, LOOPY_ENOMEM, NULL, edges,
             NULL, g, NULL},
        };
        for (size_t i = 0; i < sizeof solvers / sizeof solvers[0]; i++)
            sweep(&solvers[i]);
        if (loopy_solver_create(g, &run_solver) == LOOPY_OK) {
            const scenario run = {"loopy_solver_run", call_solver_run,
                                  LOOPY_ENOMEM, NULL, edges, NULL, g,
                                  &with_targets};
            sweep(&run);
            loopy_solver_free(run_solver);
        } else {
            CHECK(0);
        }
    }
    loopy_graph_free(g);
    loopy_graph_free(g_empty);

    fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        char block[4096];
        memset(block, 'y', sizeof block);
        for (int i = 0; i < 40; i++)
            CHECK(write(fd, block, sizeof block) == (ssize_t)sizeof block);
        close(fd);
        {
            const scenario file = {"loopy_buffer_load file", call_buffer_load,
                                   LOOPY_ENOMEM, path, edges, NULL, NULL,
                                   NULL};
            const scenario pipe_in = {"loopy_buffer_load stdin (pipe)",
                                      call_buffer_load_stdin, LOOPY_ENOMEM,
                                      NULL, edges, NULL, NULL, NULL};
            sweep(&file);
            sweep(&pipe_in);
        }
        unlink(path);
    }

    /* Compressed files: the decoders' allocations go through the
     * library's wrapper too (zlib's), or fail as a whole (libzstd's
     * context, which then is LOOPY_ENOMEM). */
    for (int zstd = 0; zstd <= 1; zstd++) {
        char packed[] = "/tmp/loopy_alloc_packed_XXXXXX";
        const scenario file = {zstd ? "loopy_read_file zstd" : "loopy_read_file gzip",
                               call_read_file, LOOPY_ENOMEM, packed, edges,
                               NULL, NULL, NULL};
        const scenario pairs_file = {
            zstd ? "loopy_read_file zstd, pairs" : "loopy_read_file gzip, pairs",
            call_read_file, LOOPY_ENOMEM, packed, pairs, NULL, NULL, NULL};

        CHECK(write_compressed(edges_text, zstd, packed));
        sweep(&file);
        unlink(packed);
        memcpy(packed + sizeof packed - 7, "XXXXXX", 6);
        CHECK(write_compressed(pairs_text, zstd, packed));
        sweep(&pairs_file);
        unlink(packed);
    }

    gen_edges_free(&graph);
    gen_targets_free(&targets);
    gen_targets_free(&tied);
    return check_finish("test_alloc_failure");
}
