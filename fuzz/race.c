/*
 * race.c - fuzz the race command (Luogu P6560): loopy_race_read, then
 * loopy_race_answer with every strategy.
 *
 * The input is read as the command-line tool reads it, from every kind of
 * source (fuzz_read_source); all must agree byte for byte.  A reference
 * reader of the harness's own says whether the input is valid and, if not,
 * where the first bad token (or the end of the text) stands: a failure must
 * be there, with a sane message (fuzz_require_diag_at).  A success must give
 * the reference's graph and rounds; then the four strategies must give the
 * same answers twice each, and on small graphs the answers of a value
 * iteration per end vertex (y lost; a position wins when a move reaches a
 * Lose, loses when it has no move or every move reaches a Win).
 */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

/* Larger announced vertex counts are skipped: each costs memory and time
 * in every read and solve without making the input any more interesting. */
#define MAX_N 65536
/* The value iteration's budget, in vertex and edge visits per input. */
#define BRUTE_BUDGET 4000000u

typedef struct race_input {
    loopy_graph *graph;
    loopy_race_rounds rounds;
} race_input;

static loopy_status read_race(loopy_source *source, void *ctx,
                              loopy_diag *diag)
{
    race_input *in = ctx;

    in->graph = (loopy_graph *)(uintptr_t)1; /* must be overwritten */
    return loopy_race_read(source, &in->graph, &in->rounds, diag);
}

/* The reference reader: 1 with the graph and rounds if the text is valid,
 * else 0 with the cursor failed at the first bad place. */
static int reference_read(fuzz_cursor *c, loopy_graph **graph,
                          loopy_race_rounds *rounds)
{
    uint64_t n, m, q, u, v;
    loopy_vertex *tail = NULL, *head = NULL;
    size_t count = 0, capacity = 0;
    int ok = 0;

    memset(rounds, 0, sizeof *rounds);
    if (!fuzz_cursor_uint(c, 1, LOOPY_MAX_VERTICES, &n) ||
        !fuzz_cursor_uint(c, 0, UINT64_MAX, &m) ||
        !fuzz_cursor_uint(c, 0, UINT64_MAX, &q))
        return 0;
    /* m moves, then q rounds: pairs in tail and head alike.  The loops
     * end at the first bad token (the text holds few). */
    for (uint64_t i = 0; i < m || (i - m < q && i >= m); i++) {
        if (!fuzz_cursor_uint(c, 1, n, &u) || !fuzz_cursor_uint(c, 1, n, &v))
            goto done;
        if (count == capacity) {
            capacity = capacity * 2 + 16;
            tail = realloc(tail, capacity * sizeof *tail);
            head = realloc(head, capacity * sizeof *head);
            FUZZ_REQUIRE(tail != NULL && head != NULL, "out of memory");
        }
        tail[count] = (loopy_vertex)(u - 1);
        head[count] = (loopy_vertex)(v - 1);
        count++;
    }
    if (!fuzz_cursor_end(c))
        goto done;
    FUZZ_REQUIRE(loopy_graph_from_edges((loopy_vertex)n, m, tail, head,
                                        graph) == LOOPY_OK, "reference graph");
    rounds->count = (size_t)q;
    rounds->start = malloc((size_t)q * sizeof *rounds->start + 1);
    rounds->end = malloc((size_t)q * sizeof *rounds->end + 1);
    FUZZ_REQUIRE(rounds->start != NULL && rounds->end != NULL, "memory");
    for (size_t i = 0; i < (size_t)q; i++) {
        rounds->start[i] = tail[(size_t)m + i];
        rounds->end[i] = head[(size_t)m + i];
    }
    ok = 1;
done:
    free(tail);
    free(head);
    return ok;
}

/* Answers of every round with end y by value iteration: -1, 0 or 1 in
 * value[v] (0 while undecided); returns the work done. */
static uint64_t value_iteration(const loopy_graph *g, loopy_vertex y,
                                int8_t *value)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    uint64_t work = 0;
    int changed = 1;

    memset(value, 0, n);
    value[y] = -1; /* the game is over: the player to move has lost */
    while (changed) {
        changed = 0;
        for (loopy_vertex v = 0; v < n; v++) {
            loopy_edge k;
            const loopy_vertex *succ = loopy_graph_successors(g, v, &k);
            int all_win = 1, some_lose = 0;

            if (value[v] != 0)
                continue;
            for (loopy_edge e = 0; e < k; e++) {
                some_lose |= value[succ[e]] < 0;
                all_win &= value[succ[e]] > 0;
            }
            work += k + 1;
            if (some_lose || all_win) { /* no move: all_win, a Lose */
                value[v] = some_lose ? 1 : -1;
                changed = 1;
            }
        }
    }
    return work;
}

static void require_brute_force(const loopy_graph *g,
                                const loopy_race_rounds *rounds,
                                const int8_t *answer)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    int8_t *value = malloc(n);
    uint8_t *done = calloc(n, 1);
    uint64_t work = 0;

    FUZZ_REQUIRE(value != NULL && done != NULL, "out of memory");
    /* Each end once: its rounds are checked together. */
    for (size_t i = 0; i < rounds->count && work < BRUTE_BUDGET; i++) {
        loopy_vertex y = rounds->end[i];
        if (done[y])
            continue;
        done[y] = 1;
        work += value_iteration(g, y, value);
        for (size_t j = i; j < rounds->count; j++)
            if (rounds->end[j] == y)
                FUZZ_REQUIRE(answer[j] == value[rounds->start[j]],
                             "round %zu (%" PRIu32 " to %" PRIu32 "): %d, "
                             "value iteration %d", j + 1, rounds->start[j] + 1,
                             y + 1, answer[j], value[rounds->start[j]]);
    }
    free(value);
    free(done);
}

static void require_same_rounds(const loopy_race_rounds *a,
                                const loopy_race_rounds *b)
{
    FUZZ_REQUIRE(a->count == b->count, "%zu rounds vs %zu", a->count, b->count);
    for (size_t i = 0; i < a->count; i++)
        FUZZ_REQUIRE(a->start[i] == b->start[i] && a->end[i] == b->end[i],
                     "round %zu differs", i + 1);
}

static void check_answers(const loopy_graph *g, const loopy_race_rounds *rounds)
{
    static const loopy_race_strategy strategy[] = {
        LOOPY_RACE_AUTO, LOOPY_RACE_LANES, LOOPY_RACE_LOCAL, LOOPY_RACE_FULL};
    static const char *const name[] = {"auto", "lanes", "local", "full"};
    size_t bytes = rounds->count ? rounds->count : 1;
    int8_t *first = malloc(bytes), *answer = malloc(bytes);
    loopy_race_rounds bad = *rounds;
    loopy_vertex *bad_end = NULL;

    FUZZ_REQUIRE(first != NULL && answer != NULL, "out of memory");
    for (size_t s = 0; s < sizeof strategy / sizeof *strategy; s++) {
        for (int again = 0; again < 2; again++) {
            int8_t *out = s == 0 && again == 0 ? first : answer;
            loopy_status status;

            memset(out, 0x55, bytes); /* every answer must be written */
            status = loopy_race_answer(g, rounds, strategy[s], out);
            FUZZ_REQUIRE(status == LOOPY_OK, "--strategy %s: status %d",
                         name[s], (int)status);
            for (size_t i = 0; i < rounds->count; i++)
                FUZZ_REQUIRE(out[i] >= -1 && out[i] <= 1 && out[i] == first[i],
                             "--strategy %s%s: round %zu answers %d, auto %d",
                             name[s], again ? " (again)" : "", i + 1, out[i],
                             first[i]);
        }
    }
    if (loopy_graph_vertex_count(g) <= 300)
        require_brute_force(g, rounds, first);

    /* A round out of range is refused. */
    if (rounds->count > 0) {
        bad_end = malloc(rounds->count * sizeof *bad_end);
        FUZZ_REQUIRE(bad_end != NULL, "out of memory");
        memcpy(bad_end, rounds->end, rounds->count * sizeof *bad_end);
        bad_end[rounds->count - 1] = loopy_graph_vertex_count(g);
        bad.end = bad_end;
        FUZZ_REQUIRE(loopy_race_answer(g, &bad, LOOPY_RACE_AUTO, answer) ==
                         LOOPY_EINVAL, "an end out of range accepted");
    }
    free(bad_end);
    free(first);
    free(answer);
}

FUZZ_TARGET(race)
{
    const char *text = (const char *)data;
    race_input in[FUZZ_SOURCE_KINDS];
    loopy_diag diag[FUZZ_SOURCE_KINDS];
    loopy_status status[FUZZ_SOURCE_KINDS] = {LOOPY_OK};
    loopy_race_rounds want_rounds;
    loopy_graph *want = NULL;
    fuzz_tokens tokens;
    fuzz_cursor cursor;
    int kinds = fuzz_source_kinds(size), valid;

    fuzz_tokenize(text, size, &tokens);
    if (tokens.count > 0 && tokens.token[0].kind == FUZZ_TOKEN_NUMBER &&
        tokens.token[0].value > MAX_N &&
        tokens.token[0].value <= LOOPY_MAX_VERTICES) {
        fuzz_tokens_release(&tokens);
        return 0; /* a valid n, too large for a quick run */
    }
    fuzz_cursor_init(&cursor, &tokens);
    valid = reference_read(&cursor, &want, &want_rounds);

    for (int k = 0; k < kinds; k++) {
        status[k] = fuzz_read_source(k, data, size, read_race, &in[k], &diag[k]);
        if (status[k] != LOOPY_OK) {
            FUZZ_REQUIRE(in[k].graph == NULL && in[k].rounds.count == 0 &&
                             in[k].rounds.start == NULL &&
                             in[k].rounds.end == NULL,
                         "output left on failure (%s)", fuzz_source_names[k]);
        } else {
            FUZZ_REQUIRE(in[k].graph != NULL, "no graph");
        }
        if (k == 0)
            continue;
        FUZZ_REQUIRE(status[k] == status[0], "status %d from %s, %d from "
                     "memory", (int)status[k], fuzz_source_names[k],
                     (int)status[0]);
        if (status[k] != LOOPY_OK) {
            fuzz_require_same_diag(&diag[k], &diag[0], fuzz_source_names[k]);
        } else {
            fuzz_require_same_graph(in[0].graph, in[k].graph);
            require_same_rounds(&in[0].rounds, &in[k].rounds);
        }
    }
    if (!valid) {
        FUZZ_REQUIRE(status[0] != LOOPY_OK, "accepted; the reference stops "
                     "at %" PRIu64 ":%" PRIu64, cursor.line, cursor.column);
        fuzz_require_diag_at(text, size, status[0], &diag[0], cursor.line,
                             cursor.column);
    } else {
        FUZZ_REQUIRE(status[0] == LOOPY_OK, "refused: %s at %" PRIu64 ":%"
                     PRIu64, diag[0].message, diag[0].line, diag[0].column);
        fuzz_require_same_graph(want, in[0].graph);
        require_same_rounds(&want_rounds, &in[0].rounds);
        check_answers(in[0].graph, &in[0].rounds);
    }

    for (int k = 0; k < kinds; k++) {
        if (status[k] == LOOPY_OK) {
            loopy_graph_free(in[k].graph);
            loopy_race_rounds_release(&in[k].rounds);
        }
    }
    if (valid) {
        loopy_graph_free(want);
        free(want_rounds.start);
        free(want_rounds.end);
    }
    fuzz_tokens_release(&tokens);
    return 0;
}
