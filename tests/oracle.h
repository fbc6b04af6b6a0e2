/*
 * oracle.h - a brute-force reference solver written from the specification
 * in loopy.h, and a checker that compares a loopy_solution with it, for any
 * test program (tests/lib/oracle.c).
 *
 *   csr gr;
 *   csr_build(&g, &gr);                     successors, in edge-list order
 *   uint8_t *kind = target_kinds(g.n, t);
 *   oracle_sol o;
 *   oracle_solve(&g, misere, t, &o);        the expected answer
 *   ... loopy_solve(lg, &opts, &s) ...
 *   check_solution(&ctx, &gr, kind, &o, s); CHECKs, with context on failure
 *   oracle_free(&o);
 *   free(kind);
 *   csr_free(&gr);
 *
 * Failed checks go through check.h (CHECK_MSG), so they count towards the
 * case the calling program is running; end the case with check_case_end().
 * Best moves follow loopy.h: the least-numbered successor with the required
 * value.  Allocation failures print a message and exit the program.
 */
#ifndef LOOPY_TEST_ORACLE_H
#define LOOPY_TEST_ORACLE_H

#include "gen.h"
#include "loopy.h"

#include <stddef.h>
#include <stdint.h>

/* ==== Context for failure messages ====================================== */

/* What is being tested; every failure message ends with it.  g must not be
 * NULL; t may be (no targets); mode and via may be. */
typedef struct test_ctx {
    const char *what; /* "random" or the name of a hand-written case */
    uint64_t seed;
    int shape;
    const char *mode;
    const char *via; /* "loopy_solve" or "solver_run" */
    int threads;
    const gen_edges *g;
    const gen_targets *t;
    int misere;
} test_ctx;

/* The context as "[random seed=... rerun: test_oracle one SEED SHAPE]", in
 * a static buffer that the next call overwrites. */
const char *ctx_str(const test_ctx *c);

#if defined(__GNUC__) || defined(__clang__)
#define ORACLE_PRINTF_(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ORACLE_PRINTF_(fmt, args)
#endif

/* A failed check with a formatted explanation and the context; the first
 * failure of a case also prints a small graph (at most 4 per program). */
void fail(const test_ctx *c, const char *fmt, ...) ORACLE_PRINTF_(2, 3);

/* "W", "L", "D", "T" for a loopy_outcome, "?" for anything else. */
const char *oname(unsigned o);

/* malloc that never returns NULL (it exits instead); size 0 is allowed. */
void *xmalloc(size_t size);

/* ==== Our own adjacency (CSR, successors in input order) ================ */

typedef struct csr {
    uint32_t n;
    uint64_t *off; /* n + 1 */
    uint32_t *adj; /* m */
} csr;

/* Successor lists of g, each in edge-list order.  O(n + m). */
void csr_build(const gen_edges *g, csr *c);
void csr_free(csr *c);

/* ==== The oracle ========================================================= */

typedef struct oracle_sol {
    uint32_t n;
    uint8_t *outcome;
    uint32_t *rem;
    uint32_t *best;
    uint32_t count[4]; /* indexed by loopy_outcome */
} oracle_sol;

void oracle_free(oracle_sol *s);

/* A malloc'd array of n kinds: 0 not a target, 1 lose_at, 2 win_at,
 * 3 tie_at (the caller guarantees disjointness).  t may be NULL (no
 * targets). */
uint8_t *target_kinds(uint32_t n, const gen_targets *t);

/*
 * Solves g by value iteration straight from the specification (see the
 * comment in oracle.c for why its rounds are the remoteness), then Ties by
 * relaxing their definition to a fixpoint, in normal or misere play, with
 * the targets t (NULL for none).  Fills *s, which the caller releases with
 * oracle_free.  Time O(rounds * (n + m)) with rounds <= n + 1; memory O(n).
 */
void oracle_solve(const gen_edges *g, int misere, const gen_targets *t,
                  oracle_sol *s);

/* ==== Checking solutions ================================================= */

/*
 * Checks that (out, rem, best) satisfies, at every vertex, the local
 * equations of the specification given its successors in gr, with the
 * target kinds of target_kinds().  These equations have exactly one
 * solution, so passing is by itself a proof of correctness (see oracle.c).
 * Returns the first bad vertex, or LOOPY_NONE; *why says what is wrong.
 * Time O(n + m).
 */
uint32_t spec_verify(const csr *gr, const uint8_t *kind, int misere,
                     const uint8_t *out, const uint32_t *rem,
                     const uint32_t *best, char *why, size_t why_len);

/*
 * Checks a library solution s of c->g (in mode c->misere) three ways: equal
 * to the oracle's o (outcomes, remoteness, best moves, counts); best moves
 * are moves of gr, absent exactly at remoteness 0; and spec_verify.  Each
 * failure goes through fail(c, ...).
 */
void check_solution(const test_ctx *c, const csr *gr, const uint8_t *kind,
                    const oracle_sol *o, const loopy_solution *s);

/* Checks that the library graph lg has exactly the successor lists gr of
 * c->g, in the same order. */
void check_graph(const test_ctx *c, const csr *gr, const loopy_graph *lg);

/* Solve options for the mode: misere, the targets t (NULL for none; its
 * tie_at too) and a thread count. */
loopy_solve_options make_options(int misere, const gen_targets *t, int threads);

#endif
