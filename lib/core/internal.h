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

/* Asks the processor to fetch addr's cache line ahead of a read (or a
 * write), where the next accesses are known but scattered. */
#if defined(__GNUC__)
#define PREFETCH(addr) __builtin_prefetch(addr)
#define PREFETCH_WRITE(addr) __builtin_prefetch(addr, 1)
#else
#define PREFETCH(addr) ((void)(addr))
#define PREFETCH_WRITE(addr) ((void)(addr))
#endif

/* ---- Allocation (lib/core/alloc.c) ----
 * Every allocation of the library goes through these, so that tests can make
 * the k-th one fail.  Sizes are checked for overflow: count * size that does
 * not fit in size_t fails like an exhausted heap. */
void *loopy_i_malloc(size_t count, size_t size);
void *loopy_i_calloc(size_t count, size_t size);
void *loopy_i_realloc(void *ptr, size_t count, size_t size);
void loopy_i_free(void *ptr);
/* Zeroed memory of count * size bytes whose pages are taken only when
 * first written (and not counted against the commit limit), so that a
 * solver may address a space far larger than the part it uses; counted
 * and failed as the others.  loopy_i_reserve_drop zeroes bytes [from,
 * to), giving their whole pages back; loopy_i_unreserve releases it all
 * (count and size as reserved). */
void *loopy_i_reserve(size_t count, size_t size);
void loopy_i_reserve_drop(void *ptr, size_t from, size_t to);
void loopy_i_unreserve(void *ptr, size_t count, size_t size);

/* Asks for transparent huge pages for the whole 2 MiB pages inside
 * ptr[0..bytes) (a hint; nothing happens without THP).  Blocks of 32 MiB
 * or more get it when allocated; a reader calls it for smaller arrays it
 * fills at once (page faults then cost a 512th), or reads at random. */
void loopy_i_advise_huge(void *ptr, size_t bytes);

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

/* Refuses a vertex count n above LOOPY_MAX_VERTICES, found at line:column,
 * in the words every reader uses; returns LOOPY_ETOOBIG. */
loopy_status loopy_i_vertex_limit(loopy_diag *diag, uint64_t line,
                                  uint64_t column, uint64_t n);

/* Bytes of physical memory, or UINT64_MAX when unknown. */
uint64_t loopy_i_physical_memory(void);

/* ---- Graph internals (lib/graph/graph.c) ----
 * Each array may be missing (NULL).  Arrays are either owned (allocated with
 * loopy_i_malloc) or point into a read-only file mapping that the graph owns
 * and unmaps on free. */
struct loopy_graph {
    loopy_vertex n;
    loopy_edge m;
    loopy_edge *offset;       /* n + 1: successors of v are             */
    loopy_vertex *target;     /* target[offset[v] .. offset[v+1])       */
    loopy_edge *rev_offset;   /* n + 1: predecessors of v are           */
    loopy_vertex *rev_source; /* rev_source[rev_offset[v] .. [v+1])     */
    uint32_t *out_degree;     /* n, or NULL when offset is there        */
    void *mapping;            /* a file's bytes holding some arrays     */
    size_t mapping_len;
    bool mapping_is_heap;     /* loopy_i_malloc'ed, not mmap'ed          */
    unsigned owned;           /* GRAPH_OWNS_* bits                      */
    uint32_t base;            /* see loopy_graph_base                   */
};

enum {
    GRAPH_OWNS_OFFSET = 1,
    GRAPH_OWNS_TARGET = 2,
    GRAPH_OWNS_REV_OFFSET = 4,
    GRAPH_OWNS_REV_SOURCE = 8,
    GRAPH_OWNS_OUT_DEGREE = 16,
    GRAPH_OWNS_ALL = 31
};

/* Builds a graph from per-vertex out-degrees (taken over: degree becomes the
 * offset array, so it must have n + 1 entries) and edges in any order; the
 * successors of each vertex keep the order of the edge arrays. */
loopy_status loopy_i_graph_from_degrees(loopy_vertex n, loopy_edge m,
                                        loopy_edge *degree,
                                        const loopy_vertex *tail,
                                        const loopy_vertex *head,
                                        loopy_graph **out);

/* Builds the reverse of g (which must have successors): for each vertex its
 * predecessors, one entry per edge.  rev_offset has n + 1 entries, rev_source
 * m. */
loopy_status loopy_i_graph_reverse(const loopy_graph *g, loopy_edge **rev_offset,
                                   loopy_vertex **rev_source);

/* Adds predecessor lists in edge order (the order of the text) to g, from
 * its m edges tail[i] -> head[i]. */
loopy_status loopy_i_graph_add_reverse(loopy_graph *g, const loopy_vertex *tail,
                                       const loopy_vertex *head);

/* Turns the counts offset[0..n) into start offsets (exclusive prefix
 * sums), offset[n] the total: the middle step of a counting sort. */
void loopy_i_starts_from_counts(loopy_edge *offset, loopy_vertex n);

/* An empty graph shell with n and m set and every array NULL. */
loopy_graph *loopy_i_graph_shell(loopy_vertex n, loopy_edge m);

/* Adds the predecessor lists to a graph that has successors only, and drops
 * the successors when keep_successors is false.  On failure g is unchanged. */
loopy_status loopy_i_graph_complete(loopy_graph *g, bool keep_successors);

/* ---- Threads (lib/core/parallel.c) ----
 * OpenMP behind two functions, so that a build without it still works. */

/* The threads to use for a request of `requested` (0: all OpenMP offers),
 * never more than the work allows (work_items / min_per_thread), at least 1. */
int loopy_i_threads(int requested, uint64_t work_items, uint64_t min_per_thread);

/* The calling thread's number inside a parallel region (0 outside). */
int loopy_i_thread_num(void);

/* ---- Checksums (lib/core/checksum.c) ---- */
/* A 64-bit checksum of bytes[0..len) computed over 1 MiB blocks, on up to
 * threads threads; the result does not depend on the thread count. */
uint64_t loopy_i_checksum(const void *bytes, uint64_t len, int threads);
/* The same checksum in pieces, for a process that holds only part of the
 * bytes (loopy-mpi): block b (bytes [b * LOOPY_CHECKSUM_BLOCK, ...), size
 * bytes, the last one shorter) hashed alone, and the hashes of all the
 * blocks of len bytes folded into the checksum. */
#define LOOPY_CHECKSUM_BLOCK ((uint64_t)1 << 20)
uint64_t loopy_i_checksum_block(const void *block, uint64_t size, uint64_t b);
uint64_t loopy_i_checksum_fold(const uint64_t *hashes, uint64_t len);

/* A keyed fingerprint of a 64-bit word for multiset checks: a bijection
 * of x for each key (splitmix64's finaliser of x + key), so distinct words
 * never share one; the key, drawn anew (loopy_i_random_key), keeps a file
 * from being made to fit. */
uint64_t loopy_i_fingerprint(uint64_t x, uint64_t key);

/* A 64-bit key that differs between calls and between processes (clocks,
 * the process id and an address mixed together): for fingerprints that a
 * file must not be able to anticipate.  Not for secrets. */
uint64_t loopy_i_random_key(void);

/* ---- Text readers (lib/io) ---- */
/* The careful, serial reader: every diagnostic of loopy_read_text. */
loopy_status loopy_i_read_text_careful(const char *text, size_t len,
                                       const loopy_read_options *options,
                                       loopy_graph **out, size_t *end_offset,
                                       loopy_diag *diag);

/* Whether a graph of n vertices and m edges fits options->memory_limit (or
 * the machine's memory), by the careful reader's estimate. */
bool loopy_i_size_fits(uint64_t n, uint64_t m, const loopy_read_options *opt);

/* The fast two-pass reader of the edge-list format, for texts without
 * trailing data.  Returns LOOPY_EPARSE without a diagnostic when the text
 * is not in the plain form it handles (any syntax problem, or rare spacing)
 * so the caller can rerun the careful reader for the exact message; other
 * failures (memory) are final.  release_pages: the text is a private file
 * mapping whose parsed pages may be handed back with madvise. */
loopy_status loopy_i_read_edges_fast(const char *text, size_t len,
                                     const loopy_read_options *options,
                                     bool release_pages, loopy_graph **out,
                                     loopy_diag *diag);

/* ---- Reading and writing at an offset (lib/io/write_at.c) ---- */
/* Writes all of bytes at offset of fd; false, errno set, on failure. */
bool loopy_i_write_at(int fd, const void *bytes, size_t len, uint64_t offset);
/* Reads len bytes at offset of fd into bytes, again after a signal or a
 * short read: the count read (fewer at the end of the file), or -1 with
 * errno. */
int64_t loopy_i_read_at(int fd, void *bytes, size_t len, uint64_t offset);

/* ---- Binary format (lib/io/binary.c) ---- */
/* Whether bytes start with the binary format's whole magic. */
bool loopy_i_is_binary(const void *bytes, size_t len);
/* Whether bytes start like a binary graph (byte 0x89) without its whole
 * magic: one damaged in transfer or cut short, never a text. */
bool loopy_i_is_mangled_binary(const void *bytes, size_t len);
/* Refuses such bytes: LOOPY_EFORMAT, diag saying so (lib/io/read_file.c). */
loopy_status loopy_i_refuse_mangled(loopy_diag *diag);

/* ---- Compressed files (lib/io/decompress.c, read_compressed.c) ---- */
/* Whether bytes start with gzip's magic (1f 8b), zstd's (28 b5 2f fd) or
 * a zstd skippable frame's (50..5f 2a 4d 18, as pzstd writes first). */
bool loopy_i_is_gzip(const void *bytes, size_t len);
bool loopy_i_is_zstd(const void *bytes, size_t len);
/* A decompressor of gzip or zstd data[0..len) (one of the two, by its
 * magic), which must stay in place while it lives; options->memory_limit
 * (else the machine's memory) bounds the zstd windows it takes. */
typedef struct loopy_i_unpack loopy_i_unpack;
loopy_status loopy_i_unpack_open(const void *data, size_t len,
                                 const loopy_read_options *options,
                                 loopy_i_unpack **out, loopy_diag *diag);
/* The next bytes of the decompressed data, at most room, to dst: *got of
 * them, 0 only at the end (where the data has been checked whole).
 * Damaged or truncated data: LOOPY_EFORMAT; a zstd window over the
 * memory's: LOOPY_ETOOBIG (diag names it); LOOPY_ENOMEM.  After a failure,
 * the same status again (diag untouched). */
loopy_status loopy_i_unpack_read(loopy_i_unpack *u, void *dst, size_t room,
                                 size_t *got, loopy_diag *diag);
/* Bytes of the compressed data consumed so far. */
uint64_t loopy_i_unpack_consumed(const loopy_i_unpack *u);
/* Starts again from the first byte. */
loopy_status loopy_i_unpack_rewind(loopy_i_unpack *u, loopy_diag *diag);
void loopy_i_unpack_free(loopy_i_unpack *u);
/* loopy_read_file's reading of compressed data[0..len): a text read as it
 * is decompressed (memory: the graph and a 1 MiB window), a binary graph
 * decompressed whole.  release_pages: data is a private mapping of a
 * file, whose pages may be handed back once decompressed. */
loopy_status loopy_i_read_compressed(const void *data, size_t len,
                                     bool release_pages,
                                     const loopy_read_options *options,
                                     loopy_graph **out, loopy_diag *diag);

/* Reads fd to its end into *buffer (loopy_buffer_load on an open
 * descriptor, which stays open).  text: the input should be text, so the
 * reading stops after a chunk holding a NUL byte (bad text anyway) unless
 * it starts like a binary graph. */
loopy_status loopy_i_buffer_read(int fd, loopy_buffer *buffer, bool text,
                                 loopy_diag *diag);

/* The header of a binary graph, checked (loopy_i_binary_layout): sizes,
 * base, and the sections' offsets, lengths and checksums, in file order;
 * `end` is where the last section ends, which must be the file's length. */
#define LOOPY_BIN_HEADER 144u
enum {
    LOOPY_BIN_OUT_DEGREE, /* u32 x n */
    LOOPY_BIN_REV_OFFSET, /* u64 x n + 1 */
    LOOPY_BIN_REV_SOURCE, /* u32 x m */
    LOOPY_BIN_TARGET,     /* u32 x m, or empty */
    LOOPY_BIN_SECTIONS
};
typedef struct loopy_binary_layout {
    uint64_t n, m, end;
    bool successors;
    uint32_t base;
    uint64_t offset[LOOPY_BIN_SECTIONS], length[LOOPY_BIN_SECTIONS],
        checksum[LOOPY_BIN_SECTIONS];
} loopy_binary_layout;
/* Checks the first len bytes of a binary graph (its header, when len is
 * at least LOOPY_BIN_HEADER) and fills layout; the sections lie in order,
 * aligned and apart, but are not checked against a file length. */
loopy_status loopy_i_binary_layout(const unsigned char *bytes, size_t len,
                                   loopy_binary_layout *layout,
                                   loopy_diag *diag);
/* Checks that a file of len bytes ends where its sections do (end). */
loopy_status loopy_i_binary_length(uint64_t end, uint64_t len, loopy_diag *diag);
/* Checks that the padding bytes[0 .. to - from), file offsets from..to,
 * are zeros. */
loopy_status loopy_i_binary_padding(const unsigned char *bytes, uint64_t from,
                                    uint64_t to, loopy_diag *diag);

/* Loads a binary graph from data[0..len), an mmap'ed file or (is_heap) a
 * loopy_i_malloc'ed copy; on success the graph takes data over and releases
 * it on free, on failure the caller keeps it. */
loopy_status loopy_i_read_binary(void *data, size_t len, bool is_heap,
                                 const loopy_read_options *options,
                                 loopy_graph **out, loopy_diag *diag);
/* ---- Solver internals (lib/solve/retro.c) ---- */
/* The reverse graph a solver keeps, valid while it lives. */
void loopy_i_solver_reverse(const loopy_solver *solver,
                            const loopy_edge **rev_offset,
                            const loopy_vertex **rev_source);

#endif
