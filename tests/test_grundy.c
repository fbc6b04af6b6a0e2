/*
 * test_grundy.c - the generalized Sprague-Grundy function and the sum rule.
 *
 * Oracles, each independent of lib/impartial/grundy.c:
 *  - a checker of the defining conditions (mex, reversal, a counter function
 *    found by naive repeated sweeps, and the condition for infinity), which
 *    by Smith's uniqueness theorem accepts gamma and nothing else;
 *  - the W/L/D solver: outcomes must agree on every graph;
 *  - product graphs: two or three tokens on one small graph, built as an
 *    explicit graph, solved by the W/L/D solver (outcomes) and valued again
 *    (the value of a position of the product must follow the sum rule);
 *  - naive Sprague-Grundy by repeated sweeps on acyclic graphs;
 *  - small examples worked out by hand from the definition.
 */
#include "check.h"
#include "gen.h"
#include "internal.h"
#include "loopy.h"

#include <stdbool.h>
#include <string.h>

#define INF LOOPY_GRUNDY_INF

/* ---- helpers ---- */

static loopy_graph *graph_of(const gen_edges *e)
{
    loopy_graph *g = NULL;
    if (loopy_graph_from_edges(e->n, e->m, e->tail, e->head, &g) != LOOPY_OK)
        return NULL;
    return g;
}

/* Whether some successor of v has value x (finite x). */
static bool has_succ_value(const loopy_graph *g, const uint32_t *value,
                           loopy_vertex v, uint32_t x)
{
    loopy_edge count;
    const loopy_vertex *succ = loopy_graph_successors(g, v, &count);
    for (loopy_edge e = 0; e < count; e++)
        if (value[succ[e]] == x)
            return true;
    return false;
}

static uint32_t mex_of_finite_succ(const loopy_graph *g, const uint32_t *value,
                                   loopy_vertex v)
{
    uint32_t m = 0;
    while (has_succ_value(g, value, v, m))
        m++;
    return m;
}

/*
 * Checks that r is the generalized Sprague-Grundy function of g straight from
 * the definition.  Returns true when every condition holds.
 */
static bool satisfies_definition(const loopy_graph *g, const loopy_grundy *r,
                                 uint64_t seed)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    const uint32_t *value = loopy_grundy_values(r);
    bool ok = true;
    uint8_t *grounded = calloc(n ? n : 1, 1);

    if (grounded == NULL)
        return false;
    for (loopy_vertex u = 0; u < n && ok; u++) {
        loopy_edge count;
        const loopy_vertex *succ = loopy_graph_successors(g, u, &count);
        size_t set_count;
        const uint32_t *set = loopy_grundy_inf_set(r, u, &set_count);
        if (value[u] != INF) {
            /* mex: no successor has the value, all smaller ones appear. */
            CHECK_MSG(!has_succ_value(g, value, u, value[u]),
                      "seed %llu vertex %u", (unsigned long long)seed, u);
            CHECK_MSG(mex_of_finite_succ(g, value, u) == value[u],
                      "seed %llu vertex %u", (unsigned long long)seed, u);
            CHECK(set_count == 0);
            /* Larger and infinite successors reverse out. */
            for (loopy_edge e = 0; e < count; e++)
                if (value[succ[e]] == INF || value[succ[e]] > value[u])
                    CHECK_MSG(has_succ_value(g, value, succ[e], value[u]),
                              "seed %llu vertex %u", (unsigned long long)seed,
                              u);
        } else {
            /* K is the set of finite successor values, sorted, distinct. */
            size_t k_index = 0;
            for (uint32_t x = 0; k_index < set_count && x <= set[set_count - 1];
                 x++) {
                bool present = has_succ_value(g, value, u, x);
                if (present)
                    CHECK(set[k_index++] == x);
            }
            CHECK(k_index == set_count);
            for (loopy_edge e = 0; e < count; e++)
                if (value[succ[e]] != INF) {
                    bool found = false;
                    for (size_t i = 0; i < set_count; i++)
                        found |= set[i] == value[succ[e]];
                    CHECK(found);
                }
            /* No finite value fits: with m = mex K, some infinite
             * successor has no successor of value m. */
            uint32_t m = mex_of_finite_succ(g, value, u);
            bool blocked = false;
            for (loopy_edge e = 0; e < count; e++)
                if (value[succ[e]] == INF &&
                    !has_succ_value(g, value, succ[e], m))
                    blocked = true;
            CHECK_MSG(blocked, "seed %llu vertex %u is infinite but could be %u",
                      (unsigned long long)seed, u, m);
        }
        ok = !check_state_.case_failed;
    }
    /* The counter function: every finite vertex must be grounded, i.e. each
     * of its larger or infinite successors reverses out through a vertex of
     * the same value grounded before it.  Naive sweeps to a fixed point. */
    for (bool changed = true; changed && ok;) {
        changed = false;
        for (loopy_vertex u = 0; u < n; u++) {
            if (value[u] == INF || grounded[u])
                continue;
            loopy_edge count;
            const loopy_vertex *succ = loopy_graph_successors(g, u, &count);
            bool all = true;
            for (loopy_edge e = 0; e < count && all; e++) {
                loopy_vertex v = succ[e];
                if (value[v] != INF && value[v] < value[u])
                    continue;
                loopy_edge c2;
                const loopy_vertex *s2 = loopy_graph_successors(g, v, &c2);
                bool any = false;
                for (loopy_edge f = 0; f < c2 && !any; f++)
                    any = value[s2[f]] == value[u] && grounded[s2[f]];
                all = any;
            }
            if (all) {
                grounded[u] = 1;
                changed = true;
            }
        }
    }
    for (loopy_vertex u = 0; u < n && ok; u++)
        if (value[u] != INF)
            CHECK_MSG(grounded[u], "seed %llu vertex %u: value %u has no "
                      "counter function", (unsigned long long)seed, u,
                      value[u]);
    free(grounded);
    return !check_state_.case_failed;
}

/* ---- random graphs: definition and outcomes ---- */

static void test_random_graphs(void)
{
    gen_edges e = GEN_EDGES_INIT;

    for (uint64_t seed = 0; seed < 4000; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        loopy_graph *g;
        loopy_grundy *r = NULL;
        loopy_solution *sol = NULL;

        if (gen_graph(seed, shape, &e) != 0 || (g = graph_of(&e)) == NULL) {
            CHECK_MSG(0, "out of memory building a graph");
            check_case_end();
            continue;
        }
        CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
        CHECK(loopy_solve(g, NULL, &sol) == LOOPY_OK);
        if (r != NULL && sol != NULL) {
            const uint8_t *outcome = loopy_solution_outcomes(sol);
            satisfies_definition(g, r, seed);
            for (loopy_vertex v = 0; v < e.n; v++)
                CHECK_MSG(loopy_grundy_outcome(r, v) == outcome[v],
                          "seed %llu shape %s vertex %u",
                          (unsigned long long)seed, gen_shape_name(shape), v);
        }
        loopy_solution_free(sol);
        loopy_grundy_free(r);
        loopy_graph_free(g);
        check_case_end();
    }
    gen_edges_free(&e);
}

/* ---- acyclic graphs: ordinary Sprague-Grundy values ---- */

static void test_acyclic(void)
{
    gen_edges e = GEN_EDGES_INIT;

    for (uint64_t seed = 0; seed < 1000; seed++) {
        int shape = seed % 2 ? GEN_DAG : GEN_SINKS;
        loopy_graph *g;
        loopy_grundy *r = NULL;
        uint32_t *naive;

        if (gen_graph(seed * 7 + 1, shape, &e) != 0 ||
            (g = graph_of(&e)) == NULL)
            continue;
        /* SINKS graphs may have cycles; keep only edges to higher ids
         * would change the shape, so just skip cyclic ones below. */
        naive = malloc((e.n ? e.n : 1) * sizeof *naive);
        for (loopy_vertex v = 0; v < e.n; v++)
            naive[v] = INF;
        for (bool changed = true; changed;) {
            changed = false;
            for (loopy_vertex v = 0; v < e.n; v++) {
                loopy_edge count;
                const loopy_vertex *succ = loopy_graph_successors(g, v, &count);
                bool ready = naive[v] == INF;
                for (loopy_edge i = 0; i < count && ready; i++)
                    ready = naive[succ[i]] != INF;
                if (ready) {
                    naive[v] = mex_of_finite_succ(g, naive, v);
                    changed = true;
                }
            }
        }
        CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
        if (r != NULL) {
            const uint32_t *value = loopy_grundy_values(r);
            /* Where the sweeps valued everything the graph is acyclic. */
            for (loopy_vertex v = 0; v < e.n; v++)
                if (naive[v] != INF)
                    CHECK_MSG(value[v] == naive[v], "seed %llu vertex %u",
                              (unsigned long long)seed, v);
        }
        free(naive);
        loopy_grundy_free(r);
        loopy_graph_free(g);
        check_case_end();
    }
    gen_edges_free(&e);
}

/* A transitive tournament: vertex i moves to every j < i, so its value is
 * i, with no cap. */
static void test_large_values(void)
{
    enum { N = 300 };
    static loopy_vertex tail[N * (N - 1) / 2 + 1], head[N * (N - 1) / 2 + 1];
    loopy_edge m = 0;
    loopy_graph *g = NULL;
    loopy_grundy *r = NULL;

    for (loopy_vertex i = 0; i < N; i++)
        for (loopy_vertex j = 0; j < i; j++) {
            tail[m] = i;
            head[m++] = j;
        }
    CHECK(loopy_graph_from_edges(N, m, tail, head, &g) == LOOPY_OK);
    CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
    if (r != NULL)
        for (loopy_vertex i = 0; i < N; i++)
            CHECK(loopy_grundy_values(r)[i] == i);
    loopy_grundy_free(r);
    loopy_graph_free(g);
    /* The same with a self-loop on the top vertex: it becomes infinite with
     * K = {0 .. N-2}, and every other vertex keeps its value. */
    tail[m] = N - 1;
    head[m++] = N - 1;
    g = NULL;
    r = NULL;
    CHECK(loopy_graph_from_edges(N, m, tail, head, &g) == LOOPY_OK);
    CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
    if (r != NULL) {
        size_t count;
        const uint32_t *set = loopy_grundy_inf_set(r, N - 1, &count);
        CHECK(loopy_grundy_values(r)[N - 1] == INF && count == N - 1);
        for (size_t i = 0; i < count; i++)
            CHECK(set[i] == i);
        for (loopy_vertex i = 0; i + 1 < N; i++)
            CHECK(loopy_grundy_values(r)[i] == i);
        CHECK(loopy_grundy_outcome(r, N - 1) == LOOPY_WIN);
    }
    loopy_grundy_free(r);
    loopy_graph_free(g);
    check_case_end();
}

/* ---- sums against product graphs ---- */

/* The product of `tokens` copies of g: position (a, b[, c]) numbered in
 * base n; a move moves one coordinate along an edge of g. */
static loopy_graph *product_graph(const loopy_graph *g, int tokens)
{
    loopy_vertex n = loopy_graph_vertex_count(g);
    loopy_vertex big = tokens == 2 ? n * n : n * n * n;
    loopy_edge m = loopy_graph_edge_count(g), edges = 0;
    loopy_edge cap = (loopy_edge)tokens * m * (big / (n ? n : 1));
    loopy_vertex *tail = malloc((cap ? cap : 1) * sizeof *tail);
    loopy_vertex *head = malloc((cap ? cap : 1) * sizeof *head);
    loopy_graph *p = NULL;

    if (tail == NULL || head == NULL)
        goto done;
    for (loopy_vertex pos = 0; pos < big; pos++) {
        loopy_vertex digit[3] = {pos % n, (pos / n) % n, (pos / n / n) % n};
        loopy_vertex weight = 1;
        for (int t = 0; t < tokens; t++, weight *= n) {
            loopy_edge count;
            const loopy_vertex *succ = loopy_graph_successors(g, digit[t], &count);
            for (loopy_edge e = 0; e < count; e++) {
                tail[edges] = pos;
                head[edges++] = pos - digit[t] * weight + succ[e] * weight;
            }
        }
    }
    if (loopy_graph_from_edges(big, edges, tail, head, &p) != LOOPY_OK)
        p = NULL;
done:
    free(tail);
    free(head);
    return p;
}

/* The sorted set { k XOR shift : k in set }. */
static size_t shifted_set(const uint32_t *set, size_t count, uint32_t shift,
                          uint32_t *out)
{
    for (size_t i = 0; i < count; i++)
        out[i] = set[i] ^ shift;
    for (size_t i = 1; i < count; i++) /* insertion sort: sets are small */
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return count;
}

static void test_sums(int tokens, uint64_t cases, uint32_t max_n)
{
    gen_edges e = GEN_EDGES_INIT;
    uint64_t infinite_seen[4] = {0};

    for (uint64_t seed = 0; seed < cases; seed++) {
        int shape = (int)(seed % GEN_SHAPE_COUNT);
        uint32_t n = 1 + (uint32_t)(gen_mix_seed(seed, 99) % max_n);
        loopy_graph *g = NULL, *p = NULL;
        loopy_grundy *r = NULL, *rp = NULL;
        loopy_solution *sol = NULL;

        if (gen_graph_sized(seed + 1000003 * (uint64_t)tokens, shape, n, &e) != 0 ||
            (g = graph_of(&e)) == NULL || (p = product_graph(g, tokens)) == NULL) {
            CHECK_MSG(0, "out of memory building graphs");
            loopy_graph_free(g);
            check_case_end();
            continue;
        }
        CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
        CHECK(loopy_grundy_compute(p, &rp) == LOOPY_OK);
        CHECK(loopy_solve(p, NULL, &sol) == LOOPY_OK);
        if (r && rp && sol) {
            const uint8_t *outcome = loopy_solution_outcomes(sol);
            const uint32_t *pvalue = loopy_grundy_values(rp);
            loopy_vertex big = loopy_graph_vertex_count(p);
            for (loopy_vertex pos = 0; pos < big; pos++) {
                loopy_vertex tok[3] = {pos % n, (pos / n) % n, (pos / n / n) % n};
                loopy_grundy_sum s;
                CHECK(loopy_grundy_sum_value(r, tok, (size_t)tokens, &s) ==
                      LOOPY_OK);
                infinite_seen[s.infinite_count]++;
                CHECK_MSG(s.outcome == outcome[pos],
                          "seed %llu n %u position %u: rule %d, solver %d",
                          (unsigned long long)seed, n, pos, s.outcome,
                          outcome[pos]);
                CHECK_MSG(s.value == pvalue[pos],
                          "seed %llu n %u position %u: rule %u, product %u",
                          (unsigned long long)seed, n, pos, s.value,
                          pvalue[pos]);
                if (s.value == INF && pvalue[pos] == INF) {
                    size_t pc, kc = 0;
                    const uint32_t *pset = loopy_grundy_inf_set(rp, pos, &pc);
                    uint32_t shifted[64];
                    if (s.infinite_token != LOOPY_NONE) {
                        const uint32_t *k =
                            loopy_grundy_inf_set(r, s.infinite_token, &kc);
                        CHECK(kc <= 64);
                        if (kc <= 64)
                            shifted_set(k, kc, s.shift, shifted);
                    }
                    CHECK_MSG(pc == kc && (kc == 0 ||
                              memcmp(pset, shifted, kc * sizeof *pset) == 0),
                              "seed %llu position %u: K differs",
                              (unsigned long long)seed, pos);
                }
            }
        }
        loopy_solution_free(sol);
        loopy_grundy_free(r);
        loopy_grundy_free(rp);
        loopy_graph_free(g);
        loopy_graph_free(p);
        check_case_end();
    }
    /* The test means nothing unless each rule was exercised. */
    CHECK(infinite_seen[0] > 0 && infinite_seen[1] > 0 && infinite_seen[2] > 0);
    check_case_end();
    gen_edges_free(&e);
}

/* ---- worked examples ---- */

typedef struct example {
    const char *name;
    loopy_vertex n;
    loopy_edge m;
    loopy_vertex tail[8], head[8];
    /* Expected value per vertex (INF) and, for infinite ones, K as a bit
     * mask of small values. */
    uint32_t value[6];
    uint32_t set_mask[6];
    loopy_outcome outcome[6];
} example;

static void test_examples(void)
{
    static const example examples[] = {
        /* Smith's basic loopy position: a vertex whose only move is to
         * itself.  Play never ends: infinity with K empty, a Draw. */
        {"self-loop", 1, 1, {0}, {0}, {INF}, {0}, {LOOPY_DRAW}},
        /* A self-loop with an exit to a terminal position: the player to
         * move exits and wins, so infinity with K = {0}, a Win. */
        {"self-loop with exit", 2, 2, {0, 0}, {0, 1}, {INF, 0}, {1, 0},
         {LOOPY_WIN, LOOPY_LOSE}},
        /* A 2-cycle: both infinite with K empty (values 0 and 1 would meet
         * the local conditions, but without a counter function). */
        {"2-cycle", 2, 2, {0, 1}, {1, 0}, {INF, INF}, {0, 0},
         {LOOPY_DRAW, LOOPY_DRAW}},
        /* 0 <-> 1 -> 2 (terminal): 1 reverses out through 2, so 0 has value
         * 0 and 1 has value 1 (its options are 0 and 2, both of value 0). */
        {"reversible cycle", 3, 3, {0, 1, 1}, {1, 0, 2}, {0, 1, 0}, {0, 0, 0},
         {LOOPY_LOSE, LOOPY_WIN, LOOPY_LOSE}},
        /* 0 loops and moves to 1 (value 0) and 2 (value 2: 2 -> 1, 2 -> 3,
         * 3 -> 1, so 3 has value 1).  Value 1 is missing below 0 and its
         * self-loop cannot reverse out: infinity with K = {0, 2}, a Win. */
        {"inf{0,2}", 4, 6, {0, 0, 0, 2, 2, 3}, {0, 1, 2, 1, 3, 1}, {INF, 0, 2, 1},
         {5, 0, 0, 0}, {LOOPY_WIN, LOOPY_LOSE, LOOPY_WIN, LOOPY_WIN}},
        /* The 3-cycle 0 -> 1 -> 2 -> 0 with 2 -> 3 (terminal): 1 must move
         * to 2, which reverses out through 3: value 0; then 0 has value 1,
         * and 2, with options of values 1 and 0, has value 2. */
        {"3-cycle with exit", 4, 4, {0, 1, 2, 2}, {1, 2, 0, 3}, {1, 0, 2, 0},
         {0, 0, 0, 0}, {LOOPY_WIN, LOOPY_LOSE, LOOPY_WIN, LOOPY_LOSE}},
    };

    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        const example *x = &examples[i];
        loopy_graph *g = NULL;
        loopy_grundy *r = NULL;
        CHECK(loopy_graph_from_edges(x->n, x->m, x->tail, x->head, &g) ==
              LOOPY_OK);
        CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
        for (loopy_vertex v = 0; r != NULL && v < x->n; v++) {
            size_t count;
            const uint32_t *set = loopy_grundy_inf_set(r, v, &count);
            uint32_t mask = 0;
            for (size_t k = 0; k < count; k++)
                mask |= 1u << set[k];
            CHECK_MSG(loopy_grundy_values(r)[v] == x->value[v],
                      "%s vertex %u", x->name, v);
            CHECK_MSG(mask == x->set_mask[v], "%s vertex %u", x->name, v);
            CHECK_MSG(loopy_grundy_outcome(r, v) == x->outcome[v],
                      "%s vertex %u", x->name, v);
        }
        loopy_grundy_free(r);
        loopy_graph_free(g);
        check_case_end();
    }
}

/* ---- API contract and allocation failures ---- */

static void test_contract(void)
{
    /* 1 -> 0 (terminal), 1 -> 2, 2 -> 2: 2 is infinity{}, 1 infinity{0}. */
    static const loopy_vertex tail[] = {1, 1, 2}, head[] = {0, 2, 2};
    loopy_graph *g = NULL;
    loopy_grundy *r = (loopy_grundy *)&r;
    loopy_grundy_sum s;
    loopy_vertex bad = 3, tokens[] = {2, 0};

    CHECK(loopy_graph_from_edges(3, 3, tail, head, &g) == LOOPY_OK);
    CHECK(loopy_grundy_compute(NULL, &r) == LOOPY_EINVAL && r == NULL);
    CHECK(loopy_grundy_compute(g, NULL) == LOOPY_EINVAL);
    loopy_grundy_free(NULL);
    CHECK(loopy_grundy_compute(g, &r) == LOOPY_OK);
    CHECK(loopy_grundy_sum_value(r, &bad, 1, &s) == LOOPY_EINVAL);
    CHECK(loopy_grundy_sum_value(r, NULL, 1, &s) == LOOPY_EINVAL);
    CHECK(loopy_grundy_sum_value(r, NULL, 0, &s) == LOOPY_OK &&
          s.value == 0 && s.outcome == LOOPY_LOSE);
    /* 2 is infinity{} (self-loop only), 0 has value 0: a draw. */
    CHECK(loopy_grundy_sum_value(r, tokens, 2, &s) == LOOPY_OK &&
          s.value == INF && s.outcome == LOOPY_DRAW && s.infinite_token == 2 &&
          s.shift == 0 && s.infinite_count == 1);
    loopy_grundy_free(r);
    check_case_end();

    /* Every allocation failure is reported, leaks nothing (ASan), and the
     * run after it succeeds. */
    for (uint64_t k = 1;; k++) {
        loopy_status status;
        r = NULL;
        loopy_i_alloc_fail_at(k);
        status = loopy_grundy_compute(g, &r);
        loopy_i_alloc_fail_at(0);
        if (status == LOOPY_OK) {
            loopy_grundy_free(r);
            CHECK(k > 3);
            break;
        }
        CHECK(status == LOOPY_ENOMEM && r == NULL);
    }
    loopy_graph_free(g);
    check_case_end();
}

int main(void)
{
    test_examples();
    test_contract();
    test_large_values();
    test_acyclic();
    test_random_graphs();
    test_sums(2, 3000, 14);
    test_sums(3, 2000, 7);
    return check_finish("test_grundy");
}
