/*
 * gen.h - deterministic random graphs and target sets for the tests.
 *
 * Everything here is a function of a 64-bit seed: the same seed and shape
 * give the same graph on every machine (own PRNG, no rand()).  Graphs are
 * plain edge lists (n, m, tail[], head[], 0-based ids) so that any test can
 * feed them to loopy_graph_from_edges, write them out as text or binary, or
 * hand them to a reference implementation.
 *
 *   gen_edges g = GEN_EDGES_INIT;
 *   if (gen_graph(seed, GEN_DAG, &g) != 0) ... out of memory ...
 *   ... use g.n, g.m, g.tail, g.head ...
 *   gen_edges_free(&g);
 *
 * gen_graph picks the vertex count itself (mostly 0..60, sometimes up to a
 * few hundred); gen_graph_sized takes it from the caller.  A gen_edges may be
 * reused for many graphs; its buffers grow as needed.
 *
 * The implementation is in tests/lib/gen.c, linked into every test program.
 * Needs only the C standard library; no recursion.
 */
#ifndef LOOPY_TEST_GEN_H
#define LOOPY_TEST_GEN_H

#include <stddef.h>
#include <stdint.h>

/* ==== PRNG: xoshiro256** seeded by splitmix64 =========================== */

typedef struct gen_rng {
    uint64_t s[4];
} gen_rng;

/* One step of splitmix64; also a good 64-bit mixing function for seeds. */
uint64_t gen_splitmix64(uint64_t *x);

/* A well-mixed seed derived from (a, b), e.g. (base seed, case index). */
uint64_t gen_mix_seed(uint64_t a, uint64_t b);

/* Seeds *r from one 64-bit seed (never the all-zero state). */
void gen_rng_seed(gen_rng *r, uint64_t seed);

/* The next 64 random bits (xoshiro256**). */
uint64_t gen_next(gen_rng *r);

/* Uniform in [0, bound); 0 when bound is 0.  Unbiased (rejection). */
uint64_t gen_below(gen_rng *r, uint64_t bound);

/* gen_below for 32-bit bounds. */
uint32_t gen_below32(gen_rng *r, uint32_t bound);

/* Uniform in [lo, hi] (inclusive; lo <= hi). */
uint32_t gen_range32(gen_rng *r, uint32_t lo, uint32_t hi);

/* True with probability num/den. */
int gen_chance(gen_rng *r, uint32_t num, uint32_t den);

/* ==== Edge lists ========================================================= */

typedef struct gen_edges {
    uint32_t n;     /* vertices 0..n-1 */
    uint64_t m;     /* edges tail[i] -> head[i], i < m */
    uint32_t *tail; /* NULL while nothing was ever allocated */
    uint32_t *head;
    uint64_t cap_; /* internal: capacity of tail and head */
    int oom_;      /* internal: an allocation failed */
} gen_edges;

/* A random permutation of 0..n-1 (malloc'd; the caller frees it), or NULL
 * when n is 0 or on allocation failure (then g is marked out of memory). */
uint32_t *gen_perm(gen_rng *r, gen_edges *g, uint32_t n);

#define GEN_EDGES_INIT                                                         \
    {                                                                          \
        0, 0, NULL, NULL, 0, 0                                                 \
    }

/* Frees the buffers and resets *g to an empty list. */
void gen_edges_free(gen_edges *g);

/* Appends tail -> head; on allocation failure marks the list and drops it. */
void gen_push(gen_edges *g, uint32_t tail, uint32_t head);

/* ==== Shapes ============================================================= */

#define GEN_SHAPES(X)                                                          \
    X(SPARSE, "sparse")         /* uniform random, average degree 0..2 */      \
    X(DENSE, "dense")           /* each ordered pair with prob 10..90% */      \
    X(DAG, "dag")               /* edges only from a lower to a higher id */   \
    X(FUNCTIONAL, "functional") /* out-degree exactly 1 */                     \
    X(CYCLE, "cycle")           /* one long cycle or several disjoint ones */  \
    X(RHO, "rho")               /* a cycle with trees hanging into it */       \
    X(SELF_LOOPS, "selfloops")  /* many self-loops plus random edges */        \
    X(MULTI, "multi")           /* parallel edges */                           \
    X(ISOLATED, "isolated")     /* a few active vertices, the rest isolated */ \
    X(HUB_OUT, "hub_out")       /* one vertex with a huge out-degree */        \
    X(HUB_IN, "hub_in")         /* one vertex with a huge in-degree */         \
    X(CHAIN, "chain")           /* paths and ladders: large remoteness */      \
    X(EMPTY, "empty")           /* no edges at all (n may be 0 or 1) */        \
    X(SINKS, "sinks")           /* most vertices are sinks */                  \
    X(DAG_BACK, "dag_back")     /* a DAG plus a few back edges */              \
    X(MIX, "mix") /* disjoint union of other shapes, relabelled, + bridges */

enum {
#define GEN_SHAPE_ENUM_(name, str) GEN_##name,
    GEN_SHAPES(GEN_SHAPE_ENUM_)
#undef GEN_SHAPE_ENUM_
        GEN_SHAPE_COUNT
};

/* The shape's name ("sparse", ...), or "?" for a number out of range. */
const char *gen_shape_name(int shape);

/*
 * Replaces *out with graph number `seed` of the given shape on n vertices.
 * Returns 0, or -1 when memory ran out (then *out holds a partial graph).
 */
int gen_graph_sized(uint64_t seed, int shape, uint32_t n, gen_edges *out);

/* A vertex count for the shape: mostly 4..60, sometimes 0..3, and one time
 * in ten 61..400 (61..150 for the quadratic DENSE shape). */
uint32_t gen_pick_n(uint64_t seed, int shape);

/* Graph number `seed` of the given shape, with gen_pick_n vertices. */
int gen_graph(uint64_t seed, int shape, gen_edges *out);

/* ==== Target sets ======================================================== */

/* Disjoint lose_at / win_at / tie_at lists over 0..n-1; ids may repeat
 * within a list, order is random.  A list's pointer is NULL when it is
 * empty. */
typedef struct gen_targets {
    uint32_t *lose_at;
    size_t lose_count;
    uint32_t *win_at;
    size_t win_count;
    uint32_t *tie_at;
    size_t tie_count;
} gen_targets;

#define GEN_TARGETS_INIT                                                       \
    {                                                                          \
        NULL, 0, NULL, 0, NULL, 0                                              \
    }

/* Frees the lists and resets *t to empty. */
void gen_targets_free(gen_targets *t);

/*
 * Replaces *t with target sets number `seed` for an n-vertex graph: none, a
 * few, lose_at only, win_at only, many, or every vertex.  Returns 0, or -1
 * when memory ran out (then *t is empty).
 */
int gen_make_targets(uint64_t seed, uint32_t n, gen_targets *t);

/*
 * Replaces t's tie_at list with tie set number `seed` over the vertices of
 * 0..n-1 that are in neither lose_at nor win_at: none, a few, a share of
 * them, or all of them, a quarter of them listed up to 3 times.  Returns 0,
 * or -1 when memory ran out (then the tie list is empty).
 */
int gen_add_ties(uint64_t seed, uint32_t n, gen_targets *t);

#endif
