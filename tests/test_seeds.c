/*
 * test_seeds.c - the seed problems (race, sleepy, climb) against oracles
 * written here with other algorithms (tests/seeds_util.h), on thousands of
 * random small inputs.
 */
#include "seeds_util.h"
#include "../io/tokens.h"

/* ==== Race =============================================================== */

static const loopy_race_strategy strategies[] = {
    LOOPY_RACE_AUTO, LOOPY_RACE_LOCAL, LOOPY_RACE_FULL, LOOPY_RACE_LANES};

/* Rounds: every start for a few ends (one end twice, apart). */
static void race_differential(unsigned graphs)
{
    gen_edges g = GEN_EDGES_INIT;
    int8_t *want = NULL;

    for (unsigned seed = 0; seed < graphs; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        gen_rng r;
        uint32_t n, ends;
        loopy_race_rounds rounds;
        loopy_graph *graph;
        int8_t *answer;

        gen_rng_seed(&r, gen_mix_seed(0x7ace, seed));
        n = 1 + gen_below32(&r, seed % 10 == 0 ? 60 : 24);
        if (gen_graph_sized(seed, shape, n, &g) != 0)
            abort();
        graph = graph_of(&g);
        ends = 1 + gen_below32(&r, 5);
        rounds.count = (size_t)(ends + 1) * n;
        rounds.start = malloc(rounds.count * sizeof *rounds.start);
        rounds.end = malloc(rounds.count * sizeof *rounds.end);
        answer = malloc(rounds.count);
        want = realloc(want, rounds.count);
        for (uint32_t k = 0; k <= ends; k++) {
            /* The last group repeats the first end. */
            uint32_t y = k == ends ? rounds.end[0] : gen_below32(&r, n);
            race_oracle(&g, y, want + (size_t)k * n);
            for (uint32_t x = 0; x < n; x++) {
                rounds.start[(size_t)k * n + x] = x;
                rounds.end[(size_t)k * n + x] = y;
            }
        }
        for (int s = 0; s < 4; s++) {
            memset(answer, 7, rounds.count);
            CHECK(loopy_race_answer(graph, &rounds, strategies[s], answer) ==
                  LOOPY_OK);
            for (size_t i = 0; i < rounds.count; i++)
                CHECK_MSG(answer[i] == want[i],
                          "graph %u (%s, n %u), strategy %d: start %u end %u:"
                          " %d, oracle %d", seed, gen_shape_name(shape), n, s,
                          rounds.start[i] + 1, rounds.end[i] + 1, answer[i],
                          want[i]);
        }
        check_case_end();
        free(answer);
        loopy_race_rounds_release(&rounds);
        loopy_graph_free(graph);
    }
    free(want);
    gen_edges_free(&g);
}

/* Graphs of 65 to 200 vertices with every vertex an end (so several full
 * and partial batches of 64 lanes), a few starts per end. */
static void race_many_ends(unsigned graphs)
{
    gen_edges g = GEN_EDGES_INIT;
    int8_t *want = NULL;

    for (unsigned seed = 0; seed < graphs; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_race_rounds rounds;
        loopy_graph *graph;
        int8_t *answer;
        uint32_t n;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0x7ace64, seed));
        n = 65 + gen_below32(&r, 136);
        if (gen_graph_sized(seed, shape, n, &g) != 0)
            abort();
        graph = graph_of(&g);
        rounds.count = (size_t)4 * n;
        rounds.start = malloc(rounds.count * sizeof *rounds.start);
        rounds.end = malloc(rounds.count * sizeof *rounds.end);
        answer = malloc(rounds.count);
        want = realloc(want, rounds.count + n);
        for (uint32_t y = 0; y < n; y++) {
            race_oracle(&g, y, want + rounds.count);
            for (uint32_t i = 0; i < 4; i++) {
                /* Rounds in an order that is not sorted by end. */
                size_t at = (size_t)i * n + (y * 7919u) % n;
                uint32_t x = i == 0 ? y : gen_below32(&r, n);
                rounds.start[at] = x;
                rounds.end[at] = y;
                want[at] = want[rounds.count + x];
            }
        }
        for (int s = 0; s < 4; s++) {
            memset(answer, 7, rounds.count);
            CHECK(loopy_race_answer(graph, &rounds, strategies[s], answer) ==
                  LOOPY_OK);
            for (size_t i = 0; i < rounds.count; i++)
                CHECK_MSG(answer[i] == want[i],
                          "graph %u (%s, n %u), strategy %d: start %u end %u:"
                          " %d, oracle %d", seed, gen_shape_name(shape), n, s,
                          rounds.start[i] + 1, rounds.end[i] + 1, answer[i],
                          want[i]);
        }
        check_case_end();
        free(answer);
        loopy_race_rounds_release(&rounds);
        loopy_graph_free(graph);
    }
    free(want);
    gen_edges_free(&g);
}

/* Random graphs and rounds printed with random separators read back. */
/* ==== Sleepy ============================================================= */

static void sleepy_differential(unsigned graphs)
{
    gen_edges g = GEN_EDGES_INIT;

    for (unsigned seed = 0; seed < graphs; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_sleepy_result res;
        loopy_graph *graph;
        uint64_t shortest;
        uint32_t n, s;
        bool cycle;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0x51ee, seed));
        n = 1 + gen_below32(&r, seed % 10 == 0 ? 80 : 25);
        if (gen_graph_sized(seed, shape, n, &g) != 0)
            abort();
        graph = graph_of(&g);
        s = gen_below32(&r, n);
        shortest = sleepy_oracle(&g, s, &cycle);
        CHECK(loopy_sleepy_solve(graph, s, &res) == LOOPY_OK);
        if (shortest != 0) {
            CHECK_MSG(res.outcome == LOOPY_WIN, "graph %u: outcome %d, a win"
                      " in %" PRIu64, seed, res.outcome, shortest);
            CHECK_MSG(res.path_len == shortest + 1, "graph %u: %zu vertices,"
                      " shortest %" PRIu64 " moves", seed, res.path_len,
                      shortest);
            CHECK(res.path_len % 2 == 0 && res.path[0] == s);
            for (size_t i = 0; i + 1 < res.path_len; i++) {
                loopy_edge deg;
                const loopy_vertex *succ =
                    loopy_graph_successors(graph, res.path[i], &deg);
                bool legal = false;
                for (loopy_edge e = 0; e < deg; e++)
                    legal |= succ[e] == res.path[i + 1];
                CHECK_MSG(legal, "graph %u: no move %u -> %u", seed,
                          res.path[i] + 1, res.path[i + 1] + 1);
            }
            if (res.path_len > 0) {
                loopy_edge deg;
                loopy_graph_successors(graph, res.path[res.path_len - 1],
                                       &deg);
                CHECK(deg == 0);
            }
        } else {
            CHECK_MSG(res.outcome == (cycle ? LOOPY_DRAW : LOOPY_LOSE),
                      "graph %u: outcome %d, oracle %s", seed, res.outcome,
                      cycle ? "Draw" : "Lose");
            CHECK(res.path == NULL && res.path_len == 0);
        }
        check_case_end();
        loopy_sleepy_result_release(&res);
        loopy_graph_free(graph);
    }
    gen_edges_free(&g);
}

/* The 10^6-move limit, on graphs of about 10^6 vertices whose answers are
 * known by construction: a path 0 -> 1 -> ... -> L (the only sink L is
 * reached after exactly L moves), and the same with shortcuts i -> i + 3,
 * which keep every walk's parity but make the shortest walks short. */
static void sleepy_move_limit(void)
{
    static const struct {
        uint32_t length; /* L */
        bool shortcuts;
        loopy_outcome want;
    } cases[] = {
        {999999, false, LOOPY_WIN},   /* 10^6 vertices: the longest win */
        {1000001, false, LOOPY_DRAW}, /* a win only after 10^6 moves */
        {1000000, false, LOOPY_DRAW}, /* no win; 10^6 moves can be made */
        {999998, false, LOOPY_LOSE},  /* no win; 999998 moves at most */
        {1000000, true, LOOPY_DRAW},  /* short walks, a long path */
        {999998, true, LOOPY_LOSE},
        {999999, true, LOOPY_WIN},    /* a win by the shortcuts */
    };
    gen_edges g = GEN_EDGES_INIT;

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint32_t length = cases[c].length;
        loopy_sleepy_result res;
        loopy_graph *graph;

        gen_edges_free(&g);
        g.n = length + 1;
        for (uint32_t v = 0; v < length; v++) {
            gen_push(&g, v, v + 1);
            if (cases[c].shortcuts && v + 3 <= length)
                gen_push(&g, v, v + 3);
        }
        graph = graph_of(&g);
        CHECK(loopy_sleepy_solve(graph, 0, &res) == LOOPY_OK);
        CHECK_MSG(res.outcome == cases[c].want, "L = %u%s: outcome %d, "
                  "expected %d", length, cases[c].shortcuts ? " + shortcuts"
                  : "", res.outcome, cases[c].want);
        if (res.outcome == LOOPY_WIN) {
            /* Shortest: L moves on the path, about L / 3 with shortcuts. */
            size_t moves = cases[c].shortcuts ? length / 3 + length % 3
                                              : length;
            CHECK_MSG(res.path_len == moves + 1, "L = %u: %zu vertices",
                      length, res.path_len);
            CHECK(res.path_len <= LOOPY_SLEEPY_MOVES);
        }
        check_case_end();
        loopy_sleepy_result_release(&res);
        loopy_graph_free(graph);
    }
    gen_edges_free(&g);
}

/* ==== Climb ============================================================== */

/* Grids with repeated heights too: equal cells are not moves. */
static void climb_differential(unsigned grids)
{
    for (unsigned seed = 0; seed < grids; seed++) {
        uint32_t rows, cols, cells, range;
        uint32_t *h;
        uint8_t *wins;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0xc11b, seed));
        rows = 1 + gen_below32(&r, 6);
        cols = 1 + gen_below32(&r, 6);
        cells = rows * cols;
        range = gen_chance(&r, 1, 2) ? 4 * cells : 1 + gen_below32(&r, cells);
        h = malloc(cells * sizeof *h);
        wins = malloc(cells);
        for (uint32_t c = 0; c < cells; c++)
            h[c] = 1 + gen_below32(&r, range);
        CHECK(loopy_climb_solve(rows, cols, h, wins) == LOOPY_OK);
        for (uint32_t c = 0; c < cells; c++)
            CHECK_MSG(wins[c] == climb_wins(rows, cols, h, c),
                      "grid %u (%ux%u), cell %u: %d", seed, rows, cols, c,
                      wins[c]);
        check_case_end();
        free(h);
        free(wins);
    }
}

/* Whole inputs of several test cases with distinct heights. */
static void climb_run_differential(unsigned inputs)
{
    text t = {NULL, 0, 0};
    uint8_t *want = NULL;

    for (unsigned seed = 0; seed < inputs; seed++) {
        loopy_climb_answers answers;
        loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
        uint32_t cases, total = 0;
        gen_rng r;

        gen_rng_seed(&r, gen_mix_seed(0xc11b2, seed));
        cases = 1 + gen_below32(&r, 4);
        t.len = 0;
        put(&t, "%u", cases);
        for (uint32_t k = 0; k < cases; k++) {
            uint32_t rows = 1 + gen_below32(&r, 5), cols = 1 + gen_below32(&r, 5);
            uint32_t cells = rows * cols, q = gen_below32(&r, 12);
            gen_edges scratch = GEN_EDGES_INIT;
            uint32_t *perm = gen_perm(&r, &scratch, cells), *h;

            h = malloc(cells * sizeof *h);
            for (uint32_t c = 0; c < cells; c++)
                h[c] = 1 + perm[c] * 1000u + gen_below32(&r, 1000);
            put(&t, "\n%u %u", rows, cols);
            for (uint32_t c = 0; c < cells; c++)
                put(&t, "%s%u", c % cols == 0 ? "\n" : separator(&r), h[c]);
            put(&t, "\n%u", q);
            want = realloc(want, total + q + 1);
            for (uint32_t i = 0; i < q; i++) {
                uint32_t rr = gen_below32(&r, rows), cc = gen_below32(&r, cols);
                put(&t, "\n%u%s%u", rr + 1, separator(&r), cc + 1);
                want[total++] = climb_wins(rows, cols, h, rr * cols + cc);
            }
            free(perm);
            free(h);
        }
        put(&t, "\n");
        CHECK_MSG(read_memory(run_climb, t.s, t.len, &answers, &diag) ==
                  LOOPY_OK, "%" PRIu64 ":%" PRIu64 ": %s", diag.line,
                  diag.column, diag.message);
        CHECK(answers.count == total);
        for (size_t i = 0; i < total && i < answers.count; i++)
            CHECK_MSG(answers.first_wins[i] == want[i], "input %u, query %zu",
                      seed, i);
        check_case_end();
        loopy_climb_answers_release(&answers);
    }
    free(want);
    free(t.s);
}

int main(void)
{
    race_differential(3000);
    race_many_ends(150);
    sleepy_differential(4000);
    sleepy_move_limit();
    climb_differential(3000);
    climb_run_differential(1000);
    /* The readers' fast way with its texts cut into many chunks and pieces
     * (tokens.h). */
    loopy_i_feed_chunk_override = 32;
    loopy_i_feed_threads_override = 3;
    climb_run_differential(1000);
    loopy_i_feed_chunk_override = 300; /* pieces of 64-byte blocks */
    loopy_i_feed_threads_override = 2;
    climb_run_differential(1000);
    loopy_i_feed_chunk_override = 0;
    loopy_i_feed_threads_override = 0;
    return check_finish("test_seeds");
}
