/*
 * loopy.h - solve two-player games played on directed graphs.
 *
 * A game is a directed graph: a token sits on a vertex and the players
 * alternately move it along an edge.  loopy classifies every position as a
 * Win, a Lose or a Draw for the player to move by retrograde analysis, and
 * reports its remoteness and a best move.
 *
 * Conventions of this interface:
 *  - Vertices are numbered 0..n-1 inside the library (loopy_vertex, 32 bits);
 *    edge counts and offsets are 64 bits (loopy_edge).  Text readers accept
 *    1-based (default) or 0-based ids and translate.
 *  - Every function that can fail returns a loopy_status; LOOPY_OK is 0.
 *  - The library never prints and never exits.  Parsers describe bad input
 *    in a caller-supplied loopy_diag (line, column, message).
 *  - Objects are created by *_create / *_read / *_solve and released by the
 *    matching *_free, which accepts NULL.
 */
#ifndef LOOPY_H
#define LOOPY_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Version ============================================================ */

#define LOOPY_VERSION_MAJOR 0
#define LOOPY_VERSION_MINOR 1
#define LOOPY_VERSION_PATCH 0
#define LOOPY_VERSION_STRING "0.1.0"

/* ==== Domain types ======================================================= */

typedef uint32_t loopy_vertex; /* a vertex id, 0-based */
typedef uint64_t loopy_edge;   /* an edge count or offset */

#define LOOPY_PRI_VERTEX PRIu32
#define LOOPY_PRI_EDGE PRIu64

/* "No vertex" (no best move) and "no remoteness" (a draw). */
#define LOOPY_NONE UINT32_MAX
/* The largest vertex count: every id must differ from LOOPY_NONE. */
#define LOOPY_MAX_VERTICES ((loopy_vertex)(UINT32_MAX - 1))

/* ==== Status codes ======================================================= */

/* One table for the codes and their messages, so the two cannot drift. */
#define LOOPY_STATUS_MAP(X)                                                    \
    X(OK, "success")                                                           \
    X(ENOMEM, "out of memory")                                                 \
    X(EINVAL, "invalid argument")                                              \
    X(EPARSE, "malformed input")                                               \
    X(ETOOBIG, "too large for this machine or for 32-bit vertex ids")          \
    X(EIO, "input/output error")                                               \
    X(EFORMAT, "not a loopy file or a damaged one")

typedef enum loopy_status {
#define LOOPY_STATUS_ENUM_(name, msg) LOOPY_##name,
    LOOPY_STATUS_MAP(LOOPY_STATUS_ENUM_)
#undef LOOPY_STATUS_ENUM_
        LOOPY_STATUS_COUNT_
} loopy_status;

/* A static English description of a status; never NULL. */
const char *loopy_strerror(loopy_status status);

/*
 * Where and why an input was rejected.  Filled by readers on failure when the
 * caller passes a non-NULL pointer.  line and column are 1-based (column in
 * bytes); both are 0 when the problem is not about a place in a text.
 */
typedef struct loopy_diag {
    uint64_t line;
    uint64_t column;
    char message[256];
} loopy_diag;

/* ==== Graphs ============================================================= */

/* An immutable directed multigraph in compressed sparse row form: the
 * successors of each vertex are kept in the order in which they were given. */
typedef struct loopy_graph loopy_graph;

/*
 * Builds a graph with n vertices and the m edges tail[i] -> head[i].
 * The arrays are copied; they may be NULL when m is 0.  Self-loops and
 * parallel edges are kept.  Fails with LOOPY_EINVAL if an id is >= n or
 * n > LOOPY_MAX_VERTICES, LOOPY_ETOOBIG if a vertex would have 2^32 or more
 * successors.  Time O(n + m), memory 8(n+1) + 4m bytes for the result.
 */
loopy_status loopy_graph_from_edges(loopy_vertex n, loopy_edge m,
                                    const loopy_vertex *tail,
                                    const loopy_vertex *head,
                                    loopy_graph **out);

/* Releases a graph; NULL is allowed. */
void loopy_graph_free(loopy_graph *graph);

loopy_vertex loopy_graph_vertex_count(const loopy_graph *graph);
loopy_edge loopy_graph_edge_count(const loopy_graph *graph);

/* The successors of v, in input order; *count receives their number.
 * The pointer stays valid while the graph lives.  O(1).  Returns NULL (and
 * *count 0) for a graph read with skip_successors: see
 * loopy_graph_has_successors. */
const loopy_vertex *loopy_graph_successors(const loopy_graph *graph,
                                           loopy_vertex v, loopy_edge *count);

/* ==== Progress ============================================================ */

/*
 * Called by long operations now and then (a few hundred times at most per
 * phase) with the phase's name ("read", "build" or "solve") and how far it
 * has come: done out of total units (bytes or positions).  Always called from
 * the thread that called the library function.  The library itself never
 * prints; a tool may show a progress bar from here.
 */
typedef void (*loopy_progress_fn)(void *ctx, const char *phase, uint64_t done,
                                  uint64_t total);

/* ==== Reading text ======================================================= */

typedef enum loopy_text_format {
    /* First line "n m", then m lines "u v", one edge u -> v per line. */
    LOOPY_TEXT_EDGES = 0,
    /* First line "n m", then one line per vertex: its out-degree k and its
     * k successors (the layout of Codeforces 936B); m is the edge total. */
    LOOPY_TEXT_ADJ = 1
} loopy_text_format;

typedef struct loopy_read_options {
    loopy_text_format format;
    /* The id of the first vertex in the text: 1 (default when the options
     * pointer is NULL) or 0. */
    uint32_t base;
    /* Bytes the graph and a solve of it may use; an announced size that
     * needs more is refused before allocating.  0: the machine's memory. */
    uint64_t memory_limit;
    /* Nonzero: stop after the graph instead of requiring the end of the text;
     * the offset where reading stopped is stored in *end_offset. */
    int allow_trailing;
    /* Nonzero: keep only what loopy_solve needs (each vertex's predecessors
     * and out-degree), not the successor lists: 4m + 8n bytes less, and
     * loopy_graph_successors then returns NULL (see "Large graphs"). */
    int skip_successors;
    /* Threads for parsing and building; 0: as many as OpenMP offers. */
    int threads;
    /* Optional progress reports (phases "read" and "build"); NULL: none. */
    loopy_progress_fn progress;
    void *progress_ctx;
} loopy_read_options;

#define LOOPY_READ_OPTIONS_INIT {LOOPY_TEXT_EDGES, 1, 0, 0, 0, 0, NULL, NULL}

/*
 * Parses a graph from text[0..len).  Blank lines and lines whose first
 * non-blank character is '#' are ignored; '\r' counts as white space.
 * On failure *out is NULL and diag (if not NULL) says where and what was
 * expected.  end_offset may be NULL.  Time O(len + n + m).
 */
loopy_status loopy_read_text(const char *text, size_t len,
                             const loopy_read_options *options,
                             loopy_graph **out, size_t *end_offset,
                             loopy_diag *diag);

/* A file's bytes in memory. */
typedef struct loopy_buffer {
    char *data;
    size_t len;
    size_t capacity_; /* internal */
} loopy_buffer;

/*
 * Reads a whole file, or standard input when path is NULL or "-", into
 * buffer.  On failure diag->message names the system error.
 */
loopy_status loopy_buffer_load(const char *path, loopy_buffer *buffer,
                               loopy_diag *diag);
void loopy_buffer_release(loopy_buffer *buffer);

/* ==== Solving ============================================================ */

typedef enum loopy_outcome {
    LOOPY_DRAW = 0, /* neither player can force an end: play goes on forever */
    LOOPY_WIN = 1,  /* the player to move can force a win */
    LOOPY_LOSE = 2  /* the player to move loses against best play */
} loopy_outcome;

typedef struct loopy_solve_options {
    /* Nonzero: a player who cannot move wins (misere play). */
    int misere;
    /* Vertices where the game is over on arrival and the player to move has
     * lost (lose_at) or won (win_at), whatever their out-edges.  A vertex may
     * not be in both lists; repeats are allowed. */
    const loopy_vertex *lose_at;
    size_t lose_at_count;
    const loopy_vertex *win_at;
    size_t win_at_count;
    /* Threads to use; 0: as many as OpenMP offers.  The result does not
     * depend on it. */
    int threads;
    /* Optional progress reports (phase "solve"); NULL: none. */
    loopy_progress_fn progress;
    void *progress_ctx;
    /* Tuning: levels (positions of equal remoteness) with fewer positions
     * than this run on one thread; 0: the default, 4096, and graphs of
     * fewer than 65536 vertices and edges use one thread.  Nonzero also
     * lifts that limit: tests set 1 to run the parallel code on small
     * graphs. */
    uint32_t parallel_min_level;
} loopy_solve_options;

#define LOOPY_SOLVE_OPTIONS_INIT {0, NULL, 0, NULL, 0, 0, NULL, NULL, 0}

/* The value of every position of a graph. */
typedef struct loopy_solution loopy_solution;

/*
 * Solves every position of graph by retrograde analysis.
 *
 * A position without moves is a Lose (a Win under misere play) at remoteness
 * 0, as is a lose_at (win_at) vertex.  A position is a Win at remoteness r if
 * some move reaches a Lose of remoteness r-1 and r is the least such; a Lose
 * at remoteness r if every move reaches a Win and r is 1 + the greatest of
 * their remotenesses; a Draw otherwise.  The best move of a Win (Lose) is the
 * least-numbered successor that is a Lose (Win) of remoteness r-1; of a Draw,
 * the least-numbered successor that is a Draw; none for a position of
 * remoteness 0.  (Least-numbered rather than first in edge order, so that the
 * answer does not depend on how edges are stored or on the thread count.)
 *
 * options may be NULL (normal play).  Time O(n + m), spread over
 * options->threads threads.  Memory: the 9n bytes of the solution (which
 * also hold the solver's counters and queue) and a few MiB of buffers per
 * thread; plus 8n + 4m bytes for the predecessor lists when the graph has
 * none (loopy_graph_from_edges; graphs from loopy_read_* have them).
 * LOOPY_ETOOBIG if n plus the largest out-degree reaches 2^32 - 1 (the
 * solver keeps a position's state and remoteness in one 32-bit word).
 */
loopy_status loopy_solve(const loopy_graph *graph,
                         const loopy_solve_options *options,
                         loopy_solution **out);

/* A reusable solver for many solves of one graph (different target sets):
 * it keeps the reverse graph (borrowed from the graph when it has one), so
 * each run costs O(n + m) without rebuilding it.  The graph must outlive
 * the solver. */
typedef struct loopy_solver loopy_solver;

loopy_status loopy_solver_create(const loopy_graph *graph, loopy_solver **out);
loopy_status loopy_solver_run(loopy_solver *solver,
                              const loopy_solve_options *options,
                              loopy_solution **out);
void loopy_solver_free(loopy_solver *solver);

void loopy_solution_free(loopy_solution *solution);

loopy_vertex loopy_solution_vertex_count(const loopy_solution *solution);
/* Per-vertex arrays, valid while the solution lives: outcome (a
 * loopy_outcome), remoteness (LOOPY_NONE for a draw) and best move
 * (LOOPY_NONE where there is none). */
const uint8_t *loopy_solution_outcomes(const loopy_solution *solution);
const uint32_t *loopy_solution_remoteness(const loopy_solution *solution);
const loopy_vertex *loopy_solution_best_moves(const loopy_solution *solution);
/* How many positions have the given outcome. */
loopy_vertex loopy_solution_count(const loopy_solution *solution,
                                  loopy_outcome outcome);

/* ==== Large graphs ======================================================= */
/*
 * What a graph keeps, per vertex and per edge (n vertices, m edges):
 *   successor lists      8(n+1) + 4m bytes   (not with skip_successors)
 *   predecessor lists    8(n+1) + 4m bytes   (graphs read by loopy_read_*)
 *   out-degrees          4n bytes            (graphs read by loopy_read_*)
 * A solve adds the 9n bytes of its solution.  A graph built by
 * loopy_graph_from_edges has successors only; the solver then builds the
 * predecessor lists for itself.
 */

/* Whether loopy_graph_successors works for this graph.  O(1). */
int loopy_graph_has_successors(const loopy_graph *graph);

/* The predecessors of v (one entry per edge u -> v, in input order), or NULL
 * with *count 0 when the graph keeps none (loopy_graph_from_edges).  O(1). */
const loopy_vertex *loopy_graph_predecessors(const loopy_graph *graph,
                                             loopy_vertex v, loopy_edge *count);

/* The number of moves of v.  O(1). */
loopy_edge loopy_graph_out_degree(const loopy_graph *graph, loopy_vertex v);

/*
 * Reads a graph from a file: loopy's binary format (recognised by its magic
 * bytes, see loopy_write_binary) or text as loopy_read_text.  path NULL or
 * "-" reads standard input.  Regular files are mapped into memory rather
 * than copied, and text is parsed in two passes over the mapping on up to
 * options->threads threads: the first checks the text and counts degrees,
 * the second fills the lists, so no edge array is ever held twice; pages
 * already parsed are handed back to the system.  A pipe is read into memory
 * first.  Diagnostics as loopy_read_text (line and column of the first
 * problem); options->allow_trailing is not supported here (LOOPY_EINVAL).
 * Time O(len + n + m); memory: the graph, plus 8n bytes per thread while
 * building.  A binary file is checked (checksums, ranges) and its arrays are
 * used in place, without copying, on little-endian machines.
 */
loopy_status loopy_read_file(const char *path, const loopy_read_options *options,
                             loopy_graph **out, loopy_diag *diag);

/* Receives the bytes of a binary graph in order; returns 0 on success,
 * nonzero to stop the writer with LOOPY_EIO. */
typedef int (*loopy_write_fn)(void *ctx, const void *bytes, size_t len);

/*
 * Writes graph in loopy's binary format through write: a header (magic
 * bytes "\x89LGR\r\n\x1a\n", format version, byte-order mark, n, m,
 * and for each array its offset, length and checksum, then the header's own
 * checksum) followed by out-degrees, predecessor offsets and lists and, when
 * the graph has them, successor lists; every number little-endian.
 * Predecessor lists are built on the fly when the graph has none.  The
 * caller makes the file atomic (temporary name, then rename).
 * Time O(n + m); memory O(1) beyond the graph (8(n+1) + 4m bytes when the
 * predecessors must be built).
 */
loopy_status loopy_write_binary(const loopy_graph *graph, loopy_write_fn write,
                                void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* LOOPY_H */
