/*
 * gen.c - deterministic random graphs and target sets for the tests: the
 * PRNG, the sixteen graph shapes and the target-set generator declared in
 * tests/gen.h (see there for the interface).
 *
 * Every result is a function of the seed only.  Changing what any function
 * here draws from the PRNG, or in which order, changes every generated graph
 * and so the cases the tests run: keep it stable.
 */
#include "gen.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ==== PRNG: xoshiro256** seeded by splitmix64 =========================== */

/* One step of splitmix64; also a good 64-bit mixing function for seeds. */
uint64_t gen_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A well-mixed seed derived from (a, b), e.g. (base seed, case index). */
uint64_t gen_mix_seed(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * UINT64_C(0xd1342543de82ef95));
    (void)gen_splitmix64(&x);
    return gen_splitmix64(&x);
}

void gen_rng_seed(gen_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = gen_splitmix64(&x);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1; /* xoshiro must not start from all zeros */
}

static uint64_t gen_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t gen_next(gen_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = gen_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = gen_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, bound); 0 when bound is 0.  Unbiased (rejection). */
uint64_t gen_below(gen_rng *r, uint64_t bound)
{
    if (bound == 0)
        return 0;
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t x = gen_next(r);
        if (x >= threshold)
            return x % bound;
    }
}

uint32_t gen_below32(gen_rng *r, uint32_t bound)
{
    return (uint32_t)gen_below(r, bound);
}

/* Uniform in [lo, hi] (inclusive; lo <= hi). */
uint32_t gen_range32(gen_rng *r, uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)gen_below(r, (uint64_t)hi - lo + 1);
}

/* True with probability num/den. */
int gen_chance(gen_rng *r, uint32_t num, uint32_t den)
{
    return gen_below(r, den) < num;
}

/* ==== Edge lists ========================================================= */

void gen_edges_free(gen_edges *g)
{
    free(g->tail);
    free(g->head);
    g->tail = g->head = NULL;
    g->n = 0;
    g->m = 0;
    g->cap_ = 0;
    g->oom_ = 0;
}

/* Appends tail -> head; on allocation failure marks the list and drops it. */
void gen_push(gen_edges *g, uint32_t tail, uint32_t head)
{
    if (g->oom_)
        return;
    if (g->m == g->cap_) {
        uint64_t cap = g->cap_ ? g->cap_ * 2 : 64;
        if (cap > SIZE_MAX / sizeof(uint32_t)) {
            g->oom_ = 1;
            return;
        }
        uint32_t *t = (uint32_t *)realloc(g->tail, (size_t)cap * sizeof *t);
        if (!t) {
            g->oom_ = 1;
            return;
        }
        g->tail = t;
        uint32_t *h = (uint32_t *)realloc(g->head, (size_t)cap * sizeof *h);
        if (!h) {
            g->oom_ = 1;
            return;
        }
        g->head = h;
        g->cap_ = cap;
    }
    g->tail[g->m] = tail;
    g->head[g->m] = head;
    g->m++;
}

/* A random permutation of 0..n-1 (malloc'd), or NULL (and the list marked)
 * on allocation failure or when n is 0. */
uint32_t *gen_perm(gen_rng *r, gen_edges *g, uint32_t n)
{
    if (n == 0)
        return NULL;
    uint32_t *p = (uint32_t *)malloc((size_t)n * sizeof *p);
    if (!p) {
        g->oom_ = 1;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = gen_below32(r, i + 1);
        uint32_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/* ==== Shapes ============================================================= */

const char *gen_shape_name(int shape)
{
    static const char *const names[] = {
#define GEN_SHAPE_NAME_(name, str) str,
        GEN_SHAPES(GEN_SHAPE_NAME_)
#undef GEN_SHAPE_NAME_
    };
    if (shape < 0 || shape >= GEN_SHAPE_COUNT)
        return "?";
    return names[shape];
}

/* Each shape function adds the edges of an n-vertex graph whose ids start
 * at base.  They must cope with n == 0 and n == 1. */

static void gen_shape_sparse(gen_rng *r, gen_edges *g, uint32_t base,
                             uint32_t n)
{
    if (n == 0)
        return;
    uint64_t m = gen_below(r, (uint64_t)n * 4 + 1) / 2;
    for (uint64_t i = 0; i < m; i++)
        gen_push(g, base + gen_below32(r, n), base + gen_below32(r, n));
}

static void gen_shape_dense(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    uint32_t pct = gen_range32(r, 10, 90);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t v = 0; v < n; v++)
            if (gen_chance(r, pct, 100))
                gen_push(g, base + u, base + v);
}

static void gen_shape_dag(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    if (n < 2)
        return;
    if (gen_chance(r, 1, 3)) {
        uint32_t pct = gen_range32(r, 5, 60);
        for (uint32_t u = 0; u < n; u++)
            for (uint32_t v = u + 1; v < n; v++)
                if (gen_chance(r, pct, 100))
                    gen_push(g, base + u, base + v);
        return;
    }
    uint64_t m = gen_below(r, (uint64_t)n * 3 + 1);
    for (uint64_t i = 0; i < m; i++) {
        uint32_t a = gen_below32(r, n), b = gen_below32(r, n - 1);
        if (b >= a)
            b++;
        gen_push(g, base + (a < b ? a : b), base + (a < b ? b : a));
    }
}

static void gen_shape_functional(gen_rng *r, gen_edges *g, uint32_t base,
                                 uint32_t n)
{
    for (uint32_t v = 0; v < n; v++)
        gen_push(g, base + v, base + gen_below32(r, n));
}

static void gen_shape_cycle(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    if (n == 0)
        return;
    uint32_t variant = gen_below32(r, 3);
    if (variant == 0) { /* 0 -> 1 -> ... -> n-1 -> 0, or the reverse */
        int reverse = gen_chance(r, 1, 2);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = i + 1 == n ? 0 : i + 1;
            if (reverse)
                gen_push(g, base + j, base + i);
            else
                gen_push(g, base + i, base + j);
        }
        return;
    }
    uint32_t *p = gen_perm(r, g, n);
    if (!p)
        return;
    if (variant == 1) { /* one cycle in random order */
        for (uint32_t i = 0; i < n; i++)
            gen_push(g, base + p[i], base + p[i + 1 == n ? 0 : i + 1]);
    } else { /* disjoint cycles of random lengths */
        uint32_t start = 0;
        while (start < n) {
            uint32_t len = gen_range32(r, 1, n - start);
            if (gen_chance(r, 1, 2) && len > 8)
                len = gen_range32(r, 1, 8);
            for (uint32_t i = 0; i < len; i++)
                gen_push(g, base + p[start + i],
                         base + p[start + (i + 1 == len ? 0 : i + 1)]);
            start += len;
        }
    }
    free(p);
}

/* A cycle 0..c-1, trees hanging into it (every later vertex points to an
 * earlier one), and sometimes a few sinks with edges into them. */
static void gen_shape_rho(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    if (n == 0)
        return;
    uint32_t sinks =
        n >= 4 && gen_chance(r, 1, 2) ? gen_range32(r, 1, n / 4) : 0;
    uint32_t core = n - sinks;
    uint32_t c = gen_range32(r, 1, core);
    if (gen_chance(r, 1, 2))
        c = gen_range32(r, 1, c);
    for (uint32_t i = 0; i < c; i++)
        gen_push(g, base + i, base + (i + 1 == c ? 0 : i + 1));
    for (uint32_t v = c; v < core; v++)
        gen_push(g, base + v, base + gen_below32(r, v));
    if (sinks) {
        uint32_t exits = gen_range32(r, 1, 2 * sinks);
        for (uint32_t i = 0; i < exits; i++)
            gen_push(g, base + gen_below32(r, core),
                     base + core + gen_below32(r, sinks));
    }
}

static void gen_shape_self_loops(gen_rng *r, gen_edges *g, uint32_t base,
                                 uint32_t n)
{
    if (n == 0)
        return;
    uint32_t pct = gen_range32(r, 30, 100);
    for (uint32_t v = 0; v < n; v++)
        if (gen_chance(r, pct, 100))
            gen_push(g, base + v, base + v);
    uint64_t m = gen_below(r, (uint64_t)n * 2 + 1);
    for (uint64_t i = 0; i < m; i++)
        gen_push(g, base + gen_below32(r, n), base + gen_below32(r, n));
}

static void gen_shape_multi(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    if (n == 0)
        return;
    uint32_t pairs = gen_range32(r, 1, n + 1);
    for (uint32_t i = 0; i < pairs; i++) {
        uint32_t u = gen_below32(r, n), v = gen_below32(r, n);
        uint32_t reps = gen_range32(r, 2, 5);
        for (uint32_t k = 0; k < reps; k++) {
            gen_push(g, base + u, base + v);
            if (gen_chance(r, 1, 4)) /* interleave another move of u */
                gen_push(g, base + u, base + gen_below32(r, n));
        }
    }
}

static void gen_shape_isolated(gen_rng *r, gen_edges *g, uint32_t base,
                               uint32_t n)
{
    if (n == 0)
        return;
    uint32_t ids[6];
    uint32_t k = gen_range32(r, 1, 6);
    if (k > n)
        k = n;
    for (uint32_t i = 0; i < k; i++)
        ids[i] = gen_below32(r, n);
    uint64_t m = gen_below(r, (uint64_t)k * 3 + 1);
    for (uint64_t i = 0; i < m; i++)
        gen_push(g, base + ids[gen_below32(r, k)],
                 base + ids[gen_below32(r, k)]);
}

/* A hub with an edge to (nearly) every vertex; sometimes every vertex also
 * points back to the hub (a star in both directions). */
static void gen_shape_hub_out(gen_rng *r, gen_edges *g, uint32_t base,
                              uint32_t n)
{
    if (n == 0)
        return;
    uint32_t h = gen_below32(r, n);
    uint32_t variant = gen_below32(r, 3);
    for (uint32_t v = 0; v < n; v++) {
        if (v == h && !gen_chance(r, 1, 4))
            continue;
        gen_push(g, base + h, base + v);
        if (variant == 2 && gen_chance(r, 1, 3)) /* repeats */
            gen_push(g, base + h, base + v);
    }
    if (variant == 1)
        for (uint32_t v = 0; v < n; v++)
            if (v != h)
                gen_push(g, base + v, base + h);
    uint64_t m = gen_below(r, (uint64_t)n + 1);
    for (uint64_t i = 0; i < m; i++)
        gen_push(g, base + gen_below32(r, n), base + gen_below32(r, n));
}

static void gen_shape_hub_in(gen_rng *r, gen_edges *g, uint32_t base,
                             uint32_t n)
{
    if (n == 0)
        return;
    uint32_t h = gen_below32(r, n);
    for (uint32_t v = 0; v < n; v++)
        if (v != h)
            gen_push(g, base + v, base + h);
    uint32_t k = gen_below32(r, 4);
    for (uint32_t i = 0; i < k; i++)
        gen_push(g, base + h, base + gen_below32(r, n));
    uint64_t m = gen_below(r, (uint64_t)n / 2 + 1);
    for (uint64_t i = 0; i < m; i++)
        gen_push(g, base + gen_below32(r, n), base + gen_below32(r, n));
}

static void gen_shape_chain(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    if (n == 0)
        return;
    uint32_t variant = gen_below32(r, 4);
    for (uint32_t i = 0; i + 1 < n; i++) {
        switch (variant) {
        case 1: /* n-1 -> ... -> 0 */
            gen_push(g, base + i + 1, base + i);
            break;
        case 2: /* ladder: i -> i+1 and i -> i+2 */
            gen_push(g, base + i, base + i + 1);
            if (i + 2 < n)
                gen_push(g, base + i, base + i + 2);
            break;
        default:
            gen_push(g, base + i, base + i + 1);
            break;
        }
    }
    if (variant == 3) { /* the end loops: everything is a Draw ... */
        gen_push(g, base + n - 1, base + n - 1);
        if (n > 2 && gen_chance(r, 1, 2)) /* ... unless there is an exit */
            gen_push(g, base + gen_below32(r, n - 1),
                     base + gen_below32(r, n - 1));
    }
}

/* Most vertices are sinks; the others have 1..4 moves, mostly into sinks. */
static void gen_shape_sinks(gen_rng *r, gen_edges *g, uint32_t base, uint32_t n)
{
    if (n == 0)
        return;
    uint8_t *is_sink = (uint8_t *)malloc(n);
    uint32_t *sinks = (uint32_t *)malloc((size_t)n * sizeof *sinks);
    if (!is_sink || !sinks) {
        g->oom_ = 1;
        free(is_sink);
        free(sinks);
        return;
    }
    uint32_t pct = gen_range32(r, 50, 90), ns = 0;
    for (uint32_t v = 0; v < n; v++) {
        is_sink[v] = (uint8_t)gen_chance(r, pct, 100);
        if (is_sink[v])
            sinks[ns++] = v;
    }
    for (uint32_t u = 0; u < n; u++) {
        if (is_sink[u])
            continue;
        uint32_t deg = gen_range32(r, 1, 4);
        for (uint32_t k = 0; k < deg; k++) {
            uint32_t v = ns && gen_chance(r, 3, 4) ? sinks[gen_below32(r, ns)]
                                                   : gen_below32(r, n);
            gen_push(g, base + u, base + v);
        }
    }
    free(is_sink);
    free(sinks);
}

static void gen_shape_dag_back(gen_rng *r, gen_edges *g, uint32_t base,
                               uint32_t n)
{
    if (n == 0)
        return;
    gen_shape_dag(r, g, base, n);
    uint32_t back = gen_range32(r, 1, 3);
    for (uint32_t i = 0; i < back; i++) {
        uint32_t a = gen_below32(r, n), b = gen_below32(r, n);
        gen_push(g, base + (a > b ? a : b), base + (a > b ? b : a));
    }
}

/* Every shape but MIX. */
static void gen_fill(gen_rng *r, int shape, gen_edges *g, uint32_t base,
                     uint32_t n)
{
    switch (shape) {
    case GEN_SPARSE:
        gen_shape_sparse(r, g, base, n);
        break;
    case GEN_DENSE:
        gen_shape_dense(r, g, base, n);
        break;
    case GEN_DAG:
        gen_shape_dag(r, g, base, n);
        break;
    case GEN_FUNCTIONAL:
        gen_shape_functional(r, g, base, n);
        break;
    case GEN_CYCLE:
        gen_shape_cycle(r, g, base, n);
        break;
    case GEN_RHO:
        gen_shape_rho(r, g, base, n);
        break;
    case GEN_SELF_LOOPS:
        gen_shape_self_loops(r, g, base, n);
        break;
    case GEN_MULTI:
        gen_shape_multi(r, g, base, n);
        break;
    case GEN_ISOLATED:
        gen_shape_isolated(r, g, base, n);
        break;
    case GEN_HUB_OUT:
        gen_shape_hub_out(r, g, base, n);
        break;
    case GEN_HUB_IN:
        gen_shape_hub_in(r, g, base, n);
        break;
    case GEN_CHAIN:
        gen_shape_chain(r, g, base, n);
        break;
    case GEN_SINKS:
        gen_shape_sinks(r, g, base, n);
        break;
    case GEN_DAG_BACK:
        gen_shape_dag_back(r, g, base, n);
        break;
    case GEN_EMPTY:
    default:
        break;
    }
}

/* 2..5 parts of other shapes side by side, a few bridges between them, and
 * usually a random relabelling of all vertices. */
static void gen_shape_mix(gen_rng *r, gen_edges *g, uint32_t n)
{
    uint32_t parts = gen_range32(r, 2, 5), base = 0;
    for (uint32_t i = 0; i < parts && base < n; i++) {
        uint32_t size = i + 1 == parts ? n - base : gen_range32(r, 0, n - base);
        int shape = (int)gen_below32(r, GEN_SHAPE_COUNT - 1);
        if (shape == GEN_DENSE && size > 80)
            shape = GEN_SPARSE;
        gen_fill(r, shape, g, base, size);
        base += size;
    }
    if (n == 0)
        return;
    uint32_t bridges = gen_below32(r, 2 * parts + 1);
    for (uint32_t i = 0; i < bridges; i++)
        gen_push(g, gen_below32(r, n), gen_below32(r, n));
    if (gen_chance(r, 3, 4) && !g->oom_) {
        uint32_t *p = gen_perm(r, g, n);
        if (!p)
            return;
        for (uint64_t e = 0; e < g->m; e++) {
            g->tail[e] = p[g->tail[e]];
            g->head[e] = p[g->head[e]];
        }
        free(p);
    }
}

/*
 * Replaces *out with graph number `seed` of the given shape on n vertices.
 * Returns 0, or -1 when memory ran out (then *out holds a partial graph).
 */
int gen_graph_sized(uint64_t seed, int shape, uint32_t n, gen_edges *out)
{
    gen_rng r;
    gen_rng_seed(&r, gen_mix_seed(seed, (uint64_t)shape + 1));
    out->n = n;
    out->m = 0;
    out->oom_ = 0;
    if (shape == GEN_MIX)
        gen_shape_mix(&r, out, n);
    else
        gen_fill(&r, shape, out, 0, n);
    /* Half of the time, shuffle the edge list: this changes the order of
     * each vertex's moves (and the layout of anything built from the list),
     * not the edge multiset. */
    if (!out->oom_ && out->m > 1 && gen_chance(&r, 1, 2)) {
        for (uint64_t i = out->m - 1; i > 0; i--) {
            uint64_t j = gen_below(&r, i + 1);
            uint32_t t = out->tail[i];
            out->tail[i] = out->tail[j];
            out->tail[j] = t;
            t = out->head[i];
            out->head[i] = out->head[j];
            out->head[j] = t;
        }
    }
    return out->oom_ ? -1 : 0;
}

/* A vertex count for the shape: mostly 4..60, sometimes 0..3, and one time
 * in ten 61..400 (61..150 for the quadratic DENSE shape). */
uint32_t gen_pick_n(uint64_t seed, int shape)
{
    gen_rng r;
    gen_rng_seed(&r, gen_mix_seed(seed, UINT64_C(0x6e5f7069636b)));
    uint32_t big = shape == GEN_DENSE ? 150 : 400;
    if (shape == GEN_EMPTY) {
        switch (gen_below32(&r, 4)) {
        case 0:
            return 0;
        case 1:
            return 1;
        case 2:
            return gen_range32(&r, 2, 5);
        default:
            return gen_range32(&r, 0, big);
        }
    }
    uint32_t roll = gen_below32(&r, 100);
    if (roll < 5)
        return gen_below32(&r, 4);
    if (roll < 90)
        return gen_range32(&r, 4, 60);
    return gen_range32(&r, 61, big);
}

/* Graph number `seed` of the given shape, with gen_pick_n vertices. */
int gen_graph(uint64_t seed, int shape, gen_edges *out)
{
    return gen_graph_sized(seed, shape, gen_pick_n(seed, shape), out);
}

/* ==== Target sets ======================================================== */

void gen_targets_free(gen_targets *t)
{
    free(t->lose_at);
    free(t->win_at);
    free(t->tie_at);
    t->lose_at = t->win_at = t->tie_at = NULL;
    t->lose_count = t->win_count = t->tie_count = 0;
}

static void gen_shuffle32(gen_rng *r, uint32_t *a, size_t len)
{
    for (size_t i = len; i > 1; i--) {
        size_t j = (size_t)gen_below(r, i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/*
 * Replaces *t with target sets number `seed` for an n-vertex graph: none, a
 * few, lose_at only, win_at only, many, or every vertex.  Returns 0, or -1
 * when memory ran out (then *t is empty).
 */
int gen_make_targets(uint64_t seed, uint32_t n, gen_targets *t)
{
    gen_targets_free(t);
    if (n == 0)
        return 0;
    gen_rng r;
    gen_rng_seed(&r, gen_mix_seed(seed, UINT64_C(0x746172676574)));
    uint8_t *role = (uint8_t *)calloc(n, 1); /* 0 none, 1 lose, 2 win */
    if (!role)
        return -1;
    uint32_t variant = gen_below32(&r, 7);
    switch (variant) {
    case 0: /* none */
        break;
    case 1: /* a few of either kind */
    case 2: {
        uint32_t k = gen_range32(&r, 1, 3);
        for (uint32_t i = 0; i < k; i++)
            role[gen_below32(&r, n)] = (uint8_t)gen_range32(&r, 1, 2);
        break;
    }
    case 3: /* lose_at only */
    case 4: /* win_at only */
    {
        uint32_t pct = gen_range32(&r, 1, 40);
        for (uint32_t v = 0; v < n; v++)
            if (gen_chance(&r, pct, 100))
                role[v] = (uint8_t)(variant == 3 ? 1 : 2);
        break;
    }
    case 5: { /* many of both */
        uint32_t pct = gen_range32(&r, 5, 60);
        for (uint32_t v = 0; v < n; v++)
            if (gen_chance(&r, pct, 100))
                role[v] = (uint8_t)gen_range32(&r, 1, 2);
        break;
    }
    default: /* every vertex is a target */
        for (uint32_t v = 0; v < n; v++)
            role[v] = (uint8_t)gen_range32(&r, 1, 2);
        break;
    }
    /* Each target appears once, or up to 3 times for a quarter of them. */
    uint8_t *copies = (uint8_t *)malloc(n);
    if (!copies) {
        free(role);
        return -1;
    }
    size_t nl = 0, nw = 0;
    for (uint32_t v = 0; v < n; v++) {
        copies[v] =
            (uint8_t)(role[v]
                          ? 1 + (gen_chance(&r, 1, 4) ? gen_below32(&r, 3) : 0)
                          : 0);
        if (role[v] == 1)
            nl += copies[v];
        else if (role[v] == 2)
            nw += copies[v];
    }
    int rc = 0;
    if (nl) {
        t->lose_at = (uint32_t *)malloc(nl * sizeof *t->lose_at);
        rc |= !t->lose_at;
    }
    if (nw) {
        t->win_at = (uint32_t *)malloc(nw * sizeof *t->win_at);
        rc |= !t->win_at;
    }
    if (rc) {
        free(role);
        free(copies);
        gen_targets_free(t);
        return -1;
    }
    for (uint32_t v = 0; v < n; v++)
        for (uint8_t c = 0; c < copies[v]; c++) {
            if (role[v] == 1)
                t->lose_at[t->lose_count++] = v;
            else
                t->win_at[t->win_count++] = v;
        }
    gen_shuffle32(&r, t->lose_at, t->lose_count);
    gen_shuffle32(&r, t->win_at, t->win_count);
    free(role);
    free(copies);
    return 0;
}

int gen_add_ties(uint64_t seed, uint32_t n, gen_targets *t)
{
    free(t->tie_at);
    t->tie_at = NULL;
    t->tie_count = 0;
    if (n == 0)
        return 0;
    gen_rng r;
    gen_rng_seed(&r, gen_mix_seed(seed, UINT64_C(0x74696573)));
    uint8_t *copies = (uint8_t *)calloc(n, 1); /* 0: not a tie */
    uint8_t *taken = (uint8_t *)calloc(n, 1);  /* in lose_at or win_at */
    if (!copies || !taken) {
        free(copies);
        free(taken);
        return -1;
    }
    for (size_t i = 0; i < t->lose_count; i++)
        taken[t->lose_at[i]] = 1;
    for (size_t i = 0; i < t->win_count; i++)
        taken[t->win_at[i]] = 1;
    uint32_t variant = gen_below32(&r, 6), pct = 0;
    switch (variant) {
    case 0: /* none */
        break;
    case 1: /* a few */
    case 2: {
        uint32_t k = gen_range32(&r, 1, 3);
        for (uint32_t i = 0; i < k; i++)
            copies[gen_below32(&r, n)] = 1;
        break;
    }
    case 3: /* a share */
    case 4:
        pct = gen_range32(&r, 1, 40);
        for (uint32_t v = 0; v < n; v++)
            copies[v] = (uint8_t)gen_chance(&r, pct, 100);
        break;
    default: /* all that are free */
        memset(copies, 1, n);
        break;
    }
    size_t count = 0;
    for (uint32_t v = 0; v < n; v++) {
        if (taken[v])
            copies[v] = 0;
        else if (copies[v] && gen_chance(&r, 1, 4))
            copies[v] = (uint8_t)(1 + gen_below32(&r, 3));
        count += copies[v];
    }
    if (count) {
        t->tie_at = (uint32_t *)malloc(count * sizeof *t->tie_at);
        if (!t->tie_at) {
            free(copies);
            free(taken);
            return -1;
        }
    }
    for (uint32_t v = 0; v < n; v++)
        for (uint8_t c = 0; c < copies[v]; c++)
            t->tie_at[t->tie_count++] = v;
    gen_shuffle32(&r, t->tie_at, t->tie_count);
    free(copies);
    free(taken);
    return 0;
}
