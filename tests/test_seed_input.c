/*
 * test_seed_input.c - the seed problems' readers: random texts read back,
 * every kind of bad input, the token reader's fast path, mutated inputs,
 * streaming across the reader's window, and allocation failures.
 */
#include "seeds_util.h"
#include "../io/stream.h"
#include "../io/tokens.h"

#include <unistd.h>

/* The climb reader as if from a pipe: no second reading, so a repeated
 * height is found with a hash set as the grid is read. */
static loopy_status run_climb_pipe(loopy_source *src, void *out, loopy_diag *d)
{
    src->seekable = false;
    return loopy_climb_run(src, (loopy_climb_answers *)out, d);
}

/* The sleepy reader as if from a pipe: the careful way only (the fast way
 * needs an input it can read again). */
static loopy_status run_sleepy_pipe(loopy_source *src, void *out, loopy_diag *d)
{
    src->seekable = false;
    return run_sleepy_read(src, out, d);
}

/* Whether two sleepy readings agree: status, message and place, graph. */
static void same_sleepy(loopy_status s1, const loopy_diag *d1,
                        const loopy_graph *g1, loopy_vertex start1,
                        loopy_status s2, const loopy_diag *d2,
                        const loopy_graph *g2, loopy_vertex start2)
{
    CHECK_MSG(s1 == s2 && d1->line == d2->line && d1->column == d2->column &&
                  strcmp(d1->message, d2->message) == 0,
              "fast: %d '%s' at %" PRIu64 ":%" PRIu64 ", careful: %d '%s' at %"
              PRIu64 ":%" PRIu64, s1, d1->message, d1->line, d1->column, s2,
              d2->message, d2->line, d2->column);
    CHECK((g1 == NULL) == (g2 == NULL));
    if (g1 == NULL || g2 == NULL)
        return;
    CHECK(start1 == start2);
    CHECK(loopy_graph_vertex_count(g1) == loopy_graph_vertex_count(g2) &&
          loopy_graph_edge_count(g1) == loopy_graph_edge_count(g2));
    for (loopy_vertex v = 0; v < loopy_graph_vertex_count(g1); v++) {
        loopy_edge d1n, d2n;
        const loopy_vertex *a = loopy_graph_successors(g1, v, &d1n);
        const loopy_vertex *b = loopy_graph_successors(g2, v, &d2n);
        CHECK(d1n == d2n && (d1n == 0 || memcmp(a, b, d1n * sizeof *a) == 0));
    }
}

/* ==== Readers read back what was written ================================= */

static void race_reader_round_trip(unsigned count)
{
    gen_edges g = GEN_EDGES_INIT;
    text t = {NULL, 0, 0};

    for (unsigned seed = 0; seed < count; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_race_rounds rounds;
        loopy_graph *graph = NULL;
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        void *out[2] = {&graph, &rounds};
        uint32_t n, q, *xs, *ys;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0x7eade, seed));
        n = 1 + gen_below32(&r, 40);
        if (gen_graph_sized(seed, shape, n, &g) != 0)
            abort();
        q = gen_below32(&r, 20);
        xs = malloc((q + 1) * sizeof *xs);
        ys = malloc((q + 1) * sizeof *ys);
        t.len = 0;
        put(&t, "%s%u%s%" PRIu64 "%s%u", gen_chance(&r, 1, 4) ? "\n " : "",
            n, separator(&r), g.m, separator(&r), q);
        for (uint64_t e = 0; e < g.m; e++)
            put(&t, "%s%u%s%u", separator(&r), g.tail[e] + 1, separator(&r),
                g.head[e] + 1);
        for (uint32_t i = 0; i < q; i++) {
            xs[i] = gen_below32(&r, n);
            ys[i] = gen_below32(&r, n);
            put(&t, "%s%u%s%u", separator(&r), xs[i] + 1, separator(&r),
                ys[i] + 1);
        }
        put(&t, "%s", gen_chance(&r, 1, 2) ? "\n" : "");
        CHECK_MSG(read_memory(run_race_read, t.s, t.len, out, &diag) ==
                  LOOPY_OK, "%" PRIu64 ":%" PRIu64 ": %s", diag.line,
                  diag.column, diag.message);
        if (graph != NULL) {
            /* The successors of each vertex in the order of the text. */
            uint64_t *seen = calloc(n, sizeof *seen);
            CHECK(loopy_graph_vertex_count(graph) == n);
            CHECK(loopy_graph_edge_count(graph) == g.m);
            for (uint64_t e = 0; e < g.m; e++) {
                loopy_edge deg;
                const loopy_vertex *succ =
                    loopy_graph_successors(graph, g.tail[e], &deg);
                CHECK(seen[g.tail[e]] < deg &&
                      succ[seen[g.tail[e]]] == g.head[e]);
                seen[g.tail[e]]++;
            }
            free(seen);
            CHECK(rounds.count == q);
            for (uint32_t i = 0; i < q && i < rounds.count; i++)
                CHECK(rounds.start[i] == xs[i] && rounds.end[i] == ys[i]);
        }
        check_case_end();
        free(xs);
        free(ys);
        loopy_race_rounds_release(&rounds);
        loopy_graph_free(graph);
    }
    free(t.s);
    gen_edges_free(&g);
}

static void sleepy_reader_round_trip(unsigned count)
{
    gen_edges g = GEN_EDGES_INIT;
    text t = {NULL, 0, 0};

    for (unsigned seed = 0; seed < count; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_graph *graph = NULL, *want;
        loopy_vertex start = 0;
        void *out[2] = {&graph, &start};
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        uint32_t n, s;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0x51eed, seed));
        n = 1 + gen_below32(&r, 40);
        if (gen_graph_sized(seed, shape, n, &g) != 0)
            abort();
        want = graph_of(&g);
        s = gen_below32(&r, n);
        t.len = 0;
        put(&t, "%u%s%" PRIu64, n, separator(&r), g.m);
        for (uint32_t v = 0; v < n; v++) {
            loopy_edge deg;
            const loopy_vertex *succ = loopy_graph_successors(want, v, &deg);
            put(&t, "%s%" PRIu64, separator(&r), deg);
            for (loopy_edge e = 0; e < deg; e++)
                put(&t, "%s%u", separator(&r), succ[e] + 1);
        }
        put(&t, "%s%u%s", separator(&r), s + 1, separator(&r));
        CHECK_MSG(read_memory(run_sleepy_read, t.s, t.len, out, &diag) ==
                  LOOPY_OK, "%" PRIu64 ":%" PRIu64 ": %s", diag.line,
                  diag.column, diag.message);
        {
            /* The careful way reads the same graph. */
            loopy_graph *careful = NULL;
            loopy_vertex careful_start = 0;
            void *careful_out[2] = {&careful, &careful_start};
            loopy_diag careful_diag = {0, 0, "", LOOPY_HINT_NONE};
            loopy_status st = read_memory(run_sleepy_pipe, t.s, t.len,
                                          careful_out, &careful_diag);
            same_sleepy(graph ? LOOPY_OK : LOOPY_EPARSE, &diag, graph, start,
                        st, &careful_diag, careful, careful_start);
            loopy_graph_free(careful);
        }
        if (graph != NULL) {
            CHECK(start == s);
            CHECK(loopy_graph_edge_count(graph) == g.m);
            for (uint32_t v = 0; v < n; v++) {
                loopy_edge d1, d2;
                const loopy_vertex *a = loopy_graph_successors(want, v, &d1);
                const loopy_vertex *b = loopy_graph_successors(graph, v, &d2);
                CHECK(d1 == d2 && (d1 == 0 || memcmp(a, b, d1 * 4) == 0));
            }
        }
        check_case_end();
        loopy_graph_free(graph);
        loopy_graph_free(want);
    }
    free(t.s);
    gen_edges_free(&g);
}

/* ==== Bad input ========================================================== */

typedef struct bad_case {
    run_fn fn;
    const char *text;
    loopy_status status;
    uint64_t line, column;
    const char *message; /* the whole message */
} bad_case;

static const bad_case bad_cases[] = {
    /* race */
    {run_race_read, "", LOOPY_EPARSE, 1, 1,
     "expected the vertex count n (from 1 to 4294967294), found end of file"},
    {run_race_read, "0 0 0", LOOPY_EPARSE, 1, 1,
     "expected the vertex count n (from 1 to 4294967294), found 0"},
    {run_race_read, "x 1 1", LOOPY_EPARSE, 1, 1,
     "expected the vertex count n (from 1 to 4294967294), found 'x'"},
    {run_race_read, "4294967295 0 0", LOOPY_ETOOBIG, 1, 1,
     "n = 4294967295 is more than loopy's limit of 4294967294 vertices"},
    {run_sleepy_read, "  5000000000 0", LOOPY_ETOOBIG, 1, 3,
     "n = 5000000000 is more than loopy's limit of 4294967294 vertices"},
    {run_race_read, "3 1", LOOPY_EPARSE, 1, 4,
     "expected the round count q, found end of file"},
    {run_race_read, "3 1 0\n1 4\n", LOOPY_EPARSE, 2, 3,
     "expected a move's second vertex (from 1 to 3), found '4'"},
    {run_race_read, "3 1 0\n0 1\n", LOOPY_EPARSE, 2, 1,
     "expected a move's first vertex (from 1 to 3), found 0"},
    {run_race_read, "3 2 0\n1 2\n", LOOPY_EPARSE, 3, 1,
     "expected a move's first vertex (from 1 to 3), found end of file after "
     "1 of the 2 moves announced"},
    {run_race_read, "3 1 1\n1 2\n1", LOOPY_EPARSE, 3, 2,
     "expected a round's end y (from 1 to 3), found end of file after 0 of "
     "the 1 round announced"},
    {run_race_read, "3 0 1\n1 2 3\n", LOOPY_EPARSE, 2, 5,
     "expected the end of the input after the q rounds, found '3'"},
    {run_race_read, "3 0 1\n1 -2\n", LOOPY_EPARSE, 2, 3,
     "expected a round's end y (from 1 to 3), found '-2'"},
    {run_race_read, "3 0 1\n  2 1x\n", LOOPY_EPARSE, 2, 5,
     "expected a round's end y (from 1 to 3), found '1x'"},
    {run_race_read, "3 0 2\n2 1\n4 1\n", LOOPY_EPARSE, 3, 1,
     "expected a round's start x (from 1 to 3), found '4'"},
    /* sleepy */
    {run_sleepy_read, "2 1\n1 2\n0\n", LOOPY_EPARSE, 4, 1,
     "expected the start s (a vertex from 1 to 2), found end of file"},
    {run_sleepy_read, "2 1\n2 1 2\n0\n1\n", LOOPY_EPARSE, 2, 1,
     "expected the number of moves of vertex 1 (at most the 1 left of m = "
     "1), found '2'"},
    {run_sleepy_read, "2 2\n1 2\n0\n1\n", LOOPY_EPARSE, 4, 1,
     "the 2 lists hold 1 move, but m = 2 was announced"},
    {run_sleepy_read, "2 1\n1 3\n0\n1\n", LOOPY_EPARSE, 2, 3,
     "expected a move of vertex 1 (a vertex from 1 to 2), found '3'"},
    {run_sleepy_read, "2 0\n0\n0\n3\n", LOOPY_EPARSE, 4, 1,
     "expected the start s (a vertex from 1 to 2), found '3'"},
    {run_sleepy_read, "2 0\n0\n0\n1 1\n", LOOPY_EPARSE, 4, 3,
     "expected the end of the input after s, found '1'"},
    {run_sleepy_read, "2 0\n0\n", LOOPY_EPARSE, 3, 1,
     "expected the number of moves of vertex 2 (at most the 0 left of m = "
     "0), found end of file"},
    /* climb */
    {run_climb, "1\n2 2\n1 2\n3 1\n1\n1 1\n", LOOPY_EPARSE, 4, 3,
     "expected a height different from the others of the grid, found 1 "
     "again (row 1, column 1 has it too)"},
    {run_climb, "1\n1 2\n5 6\n1\n2 1\n", LOOPY_EPARSE, 5, 1,
     "expected a row from 1 to 1, found '2'"},
    {run_climb, "1\n1 2\n5 6\n1\n1 3\n", LOOPY_EPARSE, 5, 3,
     "expected a column from 1 to 2, found '3'"},
    {run_climb, "1\n1 2\n5 6\n1\n1 0\n", LOOPY_EPARSE, 5, 3,
     "expected a column from 1 to 2, found 0"},
    {run_climb, "1\n1 2\n5 0\n0\n", LOOPY_EPARSE, 3, 3,
     "expected a height (a whole number from 1 to 4294967295), found 0"},
    {run_climb, "1\n1 1\n4294967296\n0\n", LOOPY_EPARSE, 3, 1,
     "expected a height (a whole number from 1 to 4294967295), found "
     "'4294967296'"},
    {run_climb, "2\n1 1\n5\n0\n", LOOPY_EPARSE, 5, 1,
     "expected the row count n of test case 2 of 2, found end of file"},
    {run_climb, "1\n1 1\n5\n0\n7\n", LOOPY_EPARSE, 5, 1,
     "expected the end of the input after the last test case, found '7'"},
    {run_climb, "1\n0 1\n", LOOPY_EPARSE, 2, 1,
     "expected the row count n of test case 1 of 1, found 0"},
    {run_climb, "1\n1 1\n5\n1\n1 1 1\n", LOOPY_EPARSE, 5, 5,
     "expected the end of the input after the last test case, found '1'"},
};

static void bad_inputs(void)
{
    size_t count = sizeof bad_cases / sizeof bad_cases[0];

    /* The climb cases twice: from a text that can be read again, and as
     * if from a pipe. */
    for (size_t i = 0; i < 2 * count; i++) {
        bad_case pipe_case = bad_cases[i % count];
        const bad_case *b = &pipe_case;
        if (i >= count && b->fn != run_climb)
            continue;
        if (i >= count)
            pipe_case.fn = run_climb_pipe;
        loopy_graph *graph = NULL;
        loopy_race_rounds rounds = {0, NULL, NULL};
        loopy_vertex start = 0;
        loopy_climb_answers answers = {0, NULL};
        void *race_out[2] = {&graph, &rounds};
        void *sleepy_out[2] = {&graph, &start};
        void *out = b->fn == run_race_read     ? (void *)race_out
                    : b->fn == run_sleepy_read ? (void *)sleepy_out
                                               : (void *)&answers;
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        loopy_status status =
            read_memory(b->fn, b->text, strlen(b->text), out, &diag);


        CHECK_MSG(status == b->status, "case %zu: status %d", i, status);
        CHECK_MSG(diag.line == b->line && diag.column == b->column,
                  "case %zu: at %" PRIu64 ":%" PRIu64 ", want %" PRIu64
                  ":%" PRIu64, i, diag.line, diag.column, b->line, b->column);
        CHECK_MSG(strcmp(diag.message, b->message) == 0,
                  "case %zu: message '%s'", i, diag.message);
        /* Nothing is handed out on failure. */
        CHECK(graph == NULL && rounds.count == 0 && rounds.start == NULL &&
              answers.count == 0 && answers.first_wins == NULL);
        check_case_end();
    }
}

/* ==== Streaming across the reader's window =============================== */

/* A grid of one row of `cells` heights, 8 bytes each, several windows
 * long; with `repeat` the last height repeats the first. */
static void stream_case(uint32_t cells, bool repeat)
{
    char path[] = "/tmp/loopy_seeds_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    uint32_t *h = malloc(cells * sizeof *h);
    uint8_t *wins = malloc(cells);
    loopy_climb_answers answers = {0, NULL};
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_source *src = NULL;
    loopy_status status;

    CHECK(f != NULL && h != NULL && wins != NULL);
    if (f == NULL || h == NULL || wins == NULL)
        goto done;
    fprintf(f, "1\n1 %u\n", cells);
    for (uint32_t c = 0; c < cells; c++) {
        /* A zigzag: every other cell is a local maximum. */
        h[c] = 1000000 + (c % 2 ? c : cells + c);
        if (repeat && c == cells - 1)
            h[c] = h[0];
        fprintf(f, "%u ", h[c]);
    }
    fprintf(f, "\n3\n1 1\n1 %u\n1 %u\n", cells / 2, cells);
    fclose(f);
    CHECK(loopy_source_open(path, &src, &diag) == LOOPY_OK);
    status = loopy_climb_run(src, &answers, &diag);
    loopy_source_free(src);
    if (repeat) {
        CHECK(status == LOOPY_EPARSE);
        CHECK_MSG(diag.line == 3 && diag.column == 8 * (uint64_t)(cells - 1) + 1,
                  "at %" PRIu64 ":%" PRIu64, diag.line, diag.column);
    } else {
        CHECK_MSG(status == LOOPY_OK, "%" PRIu64 ":%" PRIu64 ": %s", diag.line,
                  diag.column, diag.message);
        CHECK(loopy_climb_solve(1, cells, h, wins) == LOOPY_OK);
        CHECK(answers.count == 3);
        if (answers.count == 3)
            CHECK(answers.first_wins[0] == wins[0] &&
                  answers.first_wins[1] == wins[cells / 2 - 1] &&
                  answers.first_wins[2] == wins[cells - 1]);
    }
    check_case_end();
done:
    loopy_climb_answers_release(&answers);
    unlink(path);
    free(h);
    free(wins);
}

/* ==== Mutated inputs ==================================================== */

/* Valid inputs with random bytes replaced, inserted or deleted: each reader
 * must either accept the text or reject it with a message at a line and
 * column inside the text (never crash, never leak, never hand out
 * results). */
static void mutated_inputs(unsigned count)
{
    static const char *const texts[3] = {
        "5 5 3\n1 2\n2 3\n3 1\n3 4\n4 5\n2 3\n1 5\n3 3\n",
        "5 6\n2 2 3\n2 4 5\n1 4\n1 5\n0\n1\n",
        "2\n2 3\n1 2 3\n6 5 4\n3\n2 1\n2 3\n1 1\n1 2\n9 8\n1\n1 2\n"};
    static const run_fn fns[3] = {run_race_read, run_sleepy_read, run_climb};
    static const char dup_grid[] =
        "1\n3 3\n1 2 3\n4 5 6\n7 8 9\n2\n1 1\n3 3\n";
    static const char alphabet[] = "0123456789  \n\n\t-x9";

    for (unsigned seed = 0; seed < count; seed++) {
        char buf[128];
        size_t len;
        int which = (int)(seed % 3);
        loopy_graph *graph = NULL;
        loopy_race_rounds rounds = {0, NULL, NULL};
        loopy_vertex start = 0;
        loopy_climb_answers answers = {0, NULL};
        void *race_out[2] = {&graph, &rounds};
        void *sleepy_out[2] = {&graph, &start};
        void *out = which == 0 ? (void *)race_out
                    : which == 1 ? (void *)sleepy_out
                                 : (void *)&answers;
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        loopy_status status;
        uint64_t lines = 1;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0x3a7e, seed));
        {
            const char *base = which == 2 && seed % 2 ? dup_grid : texts[which];
            len = strlen(base);
            memcpy(buf, base, len);
        }
        for (unsigned k = 1 + gen_below32(&r, 3); k > 0; k--) {
            size_t at = gen_below32(&r, (uint32_t)len + 1);
            char c = alphabet[gen_below32(&r, sizeof alphabet - 1)];
            switch (gen_below32(&r, 3)) {
            case 0: /* replace */
                if (at < len)
                    buf[at] = c;
                break;
            case 1: /* insert */
                if (len + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, len - at);
                    buf[at] = c;
                    len++;
                }
                break;
            default: /* delete */
                if (at < len) {
                    memmove(buf + at, buf + at + 1, len - at - 1);
                    len--;
                }
                break;
            }
        }
        for (size_t i = 0; i < len; i++)
            lines += buf[i] == '\n';
        status = read_memory(fns[which], buf, len, out, &diag);
        if (which == 2) {
            /* As if from a pipe: the same verdict, at the same place. */
            loopy_climb_answers piped = {0, NULL};
            loopy_diag pipe_diag = {0, 0, "", LOOPY_HINT_NONE};
            CHECK(read_memory(run_climb_pipe, buf, len, &piped, &pipe_diag) ==
                  status);
            CHECK_MSG(pipe_diag.line == diag.line &&
                          pipe_diag.column == diag.column &&
                          strcmp(pipe_diag.message, diag.message) == 0,
                      "mutation %u: '%s' at %" PRIu64 ":%" PRIu64
                      ", piped '%s' at %" PRIu64 ":%" PRIu64, seed,
                      diag.message, diag.line, diag.column,
                      pipe_diag.message, pipe_diag.line, pipe_diag.column);
            CHECK(piped.count == answers.count &&
                  (piped.count == 0 ||
                   memcmp(piped.first_wins, answers.first_wins,
                          piped.count) == 0));
            loopy_climb_answers_release(&piped);
        }
        if (which == 1) {
            loopy_graph *careful = NULL;
            loopy_vertex careful_start = 0;
            void *careful_out[2] = {&careful, &careful_start};
            loopy_diag careful_diag = {0, 0, "", LOOPY_HINT_NONE};
            loopy_status st = read_memory(run_sleepy_pipe, buf, len,
                                          careful_out, &careful_diag);
            same_sleepy(status, &diag, graph, start, st, &careful_diag,
                        careful, careful_start);
            loopy_graph_free(careful);
        }
        if (status != LOOPY_OK) {
            CHECK_MSG(status == LOOPY_EPARSE || status == LOOPY_ETOOBIG,
                      "mutation %u: status %d", seed, status);
            CHECK_MSG(diag.line >= 1 && diag.line <= lines &&
                          diag.column >= 1 && diag.message[0] != '\0',
                      "mutation %u: at %" PRIu64 ":%" PRIu64 ": '%s'", seed,
                      diag.line, diag.column, diag.message);
            CHECK(graph == NULL && rounds.start == NULL &&
                  answers.first_wins == NULL);
        }
        check_case_end();
        loopy_graph_free(graph);
        loopy_race_rounds_release(&rounds);
        loopy_climb_answers_release(&answers);
    }
}

/* ==== The token reader's fast path ===================================== */

/* Random numbers of 1 to 22 digits (leading zeros too), some spoiled by a
 * letter, read with random bounds: each must read as strtoull would judge
 * it, or fail at its own line and column.  The fast path parses 8 digits at
 * a time when 32 bytes are left and byte by byte near the end, so texts are
 * short and long. */
static void token_reader(unsigned texts)
{
    text t = {NULL, 0, 0};
    enum { TOKENS = 40 };

    for (unsigned seed = 0; seed < texts; seed++) {
        char token[TOKENS][32];
        uint64_t line[TOKENS], column[TOKENS], min[TOKENS], max[TOKENS];
        uint64_t cur_line = 1, cur_column = 1;
        unsigned count = 1 + seed % TOKENS;
        loopy_source *src = NULL;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0x70c3, seed));
        t.len = 0;
        for (unsigned i = 0; i < count; i++) {
            unsigned len = 1 + gen_below32(&r, gen_chance(&r, 1, 4) ? 22 : 8);
            const char *sep = separator(&r);
            for (unsigned j = 0; j < len; j++)
                token[i][j] = (char)('0' + gen_below32(&r, 10));
            token[i][len] = '\0';
            if (gen_chance(&r, 1, 20))
                token[i][gen_below32(&r, len)] = gen_chance(&r, 1, 2) ? 'x' : '/';
            min[i] = gen_chance(&r, 1, 4) ? gen_below(&r, 1000) : 0;
            max[i] = gen_chance(&r, 1, 4) ? gen_below(&r, UINT64_C(1) << 40)
                                          : UINT64_MAX;
            line[i] = cur_line;
            column[i] = cur_column;
            put(&t, "%s%s", token[i], sep);
            cur_column += len;
            for (const char *c = sep; *c; c++) {
                if (*c == '\n') {
                    cur_line++;
                    cur_column = 1;
                } else {
                    cur_column++;
                }
            }
        }
        CHECK(loopy_source_from_memory(t.s, t.len, &src) == LOOPY_OK);
        for (unsigned i = 0; src != NULL && i < count; i++) {
            loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
            uint64_t got = 0, want = 0;
            bool valid = true;
            loopy_status status =
                loopy_i_source_uint(src, min[i], max[i], &got, "a number", &diag);

            for (const char *c = token[i]; *c; c++) {
                unsigned digit = (unsigned)(*c - '0');
                if (digit > 9 || want > (UINT64_MAX - digit) / 10)
                    valid = false;
                else
                    want = want * 10 + digit;
            }
            valid = valid && want >= min[i] && want <= max[i];
            CHECK_MSG(status == (valid ? LOOPY_OK : LOOPY_EPARSE),
                      "text %u, token %u '%s' in [%" PRIu64 ", %" PRIu64
                      "]: status %d", seed, i, token[i], min[i], max[i],
                      status);
            if (valid) {
                CHECK_MSG(got == want, "text %u, token %u '%s': %" PRIu64,
                          seed, i, token[i], got);
            } else {
                CHECK_MSG(diag.line == line[i] && diag.column == column[i],
                          "text %u, token %u: at %" PRIu64 ":%" PRIu64
                          ", want %" PRIu64 ":%" PRIu64, seed, i, diag.line,
                          diag.column, line[i], column[i]);
                break;
            }
            if (i + 1 == count)
                CHECK(loopy_i_source_end(src, "the end", &diag) == LOOPY_OK);
        }
        check_case_end();
        loopy_source_free(src);
    }
    free(t.s);
}

/* ==== Allocation failures ================================================ */

/* Makes allocation k fail for k = 1, 2, ... until the call succeeds; every
 * failure must be LOOPY_ENOMEM (the sanitizer build finds leaks). */
static void allocation_failures(void)
{
    gen_edges g = GEN_EDGES_INIT;
    static const char race_text[] = "5 6 4\n1 2\n2 3\n3 1\n3 4\n4 5\n2 2\n"
                                    "1 3\n1 5\n2 5\n3 3\n";
    static const char sleepy_text[] = "5 6\n2 2 3\n2 4 5\n1 4\n1 5\n0\n1\n";
    static const char climb_text[] = "2\n2 3\n1 2 3\n6 5 4\n3\n2 1\n2 3\n"
                                     "1 1\n1 1\n7\n1\n1 1\n";

    if (gen_graph_sized(5, GEN_MIX, 40, &g) != 0)
        abort();
    for (int which = 0; which < 8; which++) {
        loopy_graph *graph = graph_of(&g), *read_graph = NULL;
        loopy_vertex starts[4] = {0, 1, 2, 3}, ends[4] = {5, 5, 9, 0};
        loopy_race_rounds rounds = {4, starts, ends}, read_rounds;
        loopy_climb_answers answers;
        loopy_sleepy_result res;
        loopy_vertex start;
        int8_t answer[4];
        loopy_status status;
        uint64_t k;

        for (k = 1;; k++) {
            void *race_out[2] = {&read_graph, &read_rounds};
            void *sleepy_out[2] = {&read_graph, &start};
            loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};

            memset(&read_rounds, 0, sizeof read_rounds);
            memset(&answers, 0, sizeof answers);
            loopy_i_alloc_fail_at(k);
            switch (which) {
            case 0:
            case 1:
                status = loopy_race_answer(graph, &rounds,
                                           which ? LOOPY_RACE_FULL
                                                 : LOOPY_RACE_AUTO,
                                           answer);
                break;
            case 2:
                status = loopy_sleepy_solve(graph, 3, &res);
                loopy_sleepy_result_release(&res);
                break;
            case 3:
                status = read_memory(run_race_read, race_text,
                                     sizeof race_text - 1, race_out, &diag);
                loopy_race_rounds_release(&read_rounds);
                break;
            case 4:
                status = read_memory(run_sleepy_read, sleepy_text,
                                     sizeof sleepy_text - 1, sleepy_out, &diag);
                break;
            case 5:
                status = read_memory(run_climb, climb_text,
                                     sizeof climb_text - 1, &answers, &diag);
                loopy_climb_answers_release(&answers);
                break;
            case 6: /* the careful ways */
                status = read_memory(run_sleepy_pipe, sleepy_text,
                                     sizeof sleepy_text - 1, sleepy_out, &diag);
                break;
            default:
                status = read_memory(run_climb_pipe, climb_text,
                                     sizeof climb_text - 1, &answers, &diag);
                loopy_climb_answers_release(&answers);
                break;
            }
            loopy_graph_free(read_graph);
            read_graph = NULL;
            loopy_i_alloc_fail_at(0);
            if (status == LOOPY_OK)
                break;
            CHECK_MSG(status == LOOPY_ENOMEM, "call %d, failing allocation %"
                      PRIu64 ": status %d", which, k, status);
            if (status != LOOPY_ENOMEM)
                break;
        }
        CHECK(k > 1); /* some allocation was made and its failure seen */
        check_case_end();
        loopy_graph_free(graph);
    }
    gen_edges_free(&g);
}

int main(void)
{
    race_reader_round_trip(500);
    sleepy_reader_round_trip(500);
    /* Again with the fast way's texts cut into many chunks and pieces. */
    loopy_i_feed_chunk_override = 40;
    loopy_i_feed_threads_override = 3;
    sleepy_reader_round_trip(500);
    mutated_inputs(3000);
    /* Pieces of 150 bytes: the feed's 64-byte blocks, then its bytes. */
    loopy_i_feed_chunk_override = 300;
    loopy_i_feed_threads_override = 2;
    sleepy_reader_round_trip(500);
    loopy_i_feed_chunk_override = 0;
    loopy_i_feed_threads_override = 0;
    bad_inputs();
    token_reader(3000);
    mutated_inputs(6000);
    stream_case(400000, false);
    stream_case(400000, true);
    allocation_failures();
    return check_finish("test_seed_input");
}
