/*
 * internal.h - helpers shared by the library's modules.  Not installed.
 * Internal cross-file symbols carry the prefix loopy_i_.
 */
#ifndef LOOPY_INTERNAL_H
#define LOOPY_INTERNAL_H

#include "loopy.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Propagate a failing status to the function's cleanup label. */
#define CHECK_GOTO(expr)                                                       \
    do {                                                                       \
        status = (expr);                                                       \
        if (status != LOOPY_OK)                                                \
            goto fail;                                                         \
    } while (0)

/* ---- Allocation (lib/core/alloc.c) ----
 * Every allocation of the library goes through these, so that tests can make
 * the k-th one fail.  Sizes are checked for overflow: count * size that does
 * not fit in size_t fails like an exhausted heap. */
void *loopy_i_malloc(size_t count, size_t size);
void *loopy_i_calloc(size_t count, size_t size);
void *loopy_i_realloc(void *ptr, size_t count, size_t size);
void loopy_i_free(void *ptr);

/* Test hook: make the allocation numbered k (1-based, counted from this
 * call) and every later one fail; 0 turns failures off.  Returns how many
 * allocations were made since the previous call. */
uint64_t loopy_i_alloc_fail_at(uint64_t k);
/* The same, but only allocation k fails; the later ones succeed. */
uint64_t loopy_i_alloc_fail_once(uint64_t k);
/* Blocks allocated through these functions and not yet freed. */
int64_t loopy_i_alloc_live(void);
/* The largest request in bytes since the last loopy_i_alloc_fail_at or
 * loopy_i_alloc_fail_once (injected failures included; requests whose size
 * overflows size_t fail without being counted). */
uint64_t loopy_i_alloc_largest(void);

/* ---- Diagnostics (lib/core/status.c) ---- */
void loopy_i_diag(loopy_diag *diag, uint64_t line, uint64_t column,
                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Bytes of physical memory, or UINT64_MAX when unknown. */
uint64_t loopy_i_physical_memory(void);

/* ---- Graph internals (lib/graph/graph.c) ---- */
struct loopy_graph {
    loopy_vertex n;
    loopy_edge m;
    loopy_edge *offset;   /* n + 1 entries: successors of v are     */
    loopy_vertex *target; /* target[offset[v] .. offset[v+1])       */
};

/* Builds a graph from per-vertex out-degrees (taken over: degree becomes the
 * offset array, so it must have n + 1 entries) and edges in any order; the
 * successors of each vertex keep the order of the edge arrays. */
loopy_status loopy_i_graph_from_degrees(loopy_vertex n, loopy_edge m,
                                        loopy_edge *degree,
                                        const loopy_vertex *tail,
                                        const loopy_vertex *head,
                                        loopy_graph **out);

/* Builds the reverse of g: for each vertex its predecessors, one entry per
 * edge.  rev_offset has n + 1 entries, rev_source m. */
loopy_status loopy_i_graph_reverse(const loopy_graph *g, loopy_edge **rev_offset,
                                   loopy_vertex **rev_source);

/* ---- Solver internals (lib/solve/retro.c) ---- */
/* The reverse graph a solver keeps, valid while it lives. */
void loopy_i_solver_reverse(const loopy_solver *solver,
                            const loopy_edge **rev_offset,
                            const loopy_vertex **rev_source);

#endif
