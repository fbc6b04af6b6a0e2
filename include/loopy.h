/*
 * loopy.h - solve two-player games played on directed graphs.  Games given
 * by their rules, and the databases of solved games, are in loopy_game.h,
 * built on this header as Lua's lauxlib.h is on lua.h.
 *
 * A game is a directed graph: a token sits on a vertex and the players
 * alternately move it along an edge.  loopy classifies every position as a
 * Win, a Lose or a Draw for the player to move (or a Tie, when some
 * positions end the game with nobody winning) by retrograde analysis, and
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
    X(EFORMAT, "not a loopy file or a damaged one")                            \
    X(EGAME, "the game's rules failed or broke the game interface")

typedef enum loopy_status {
#define LOOPY_STATUS_ENUM_(name, msg) LOOPY_##name,
    LOOPY_STATUS_MAP(LOOPY_STATUS_ENUM_)
#undef LOOPY_STATUS_ENUM_
        LOOPY_STATUS_COUNT_
} loopy_status;

/* A static English description of a status; never NULL. */
const char *loopy_strerror(loopy_status status);

/* The threads the library runs on for a `threads` option of `requested`:
 * requested when positive, else as many as OpenMP offers (all cores, or
 * OMP_NUM_THREADS); 1 in a build without OpenMP.  (Small inputs may use
 * fewer.) */
int loopy_threads(int requested);

/* What a rejected text most likely is instead, when the reader can tell
 * (see loopy_diag). */
typedef enum loopy_hint {
    LOOPY_HINT_NONE = 0,
    LOOPY_HINT_BASE_0,    /* the text reads with base 0 */
    LOOPY_HINT_BASE_1,    /* the text reads with base 1 */
    LOOPY_HINT_ADJACENCY, /* the text reads as adjacency lists */
    LOOPY_HINT_EDGES,     /* the text reads as an edge list */
    LOOPY_HINT_BARE_CR,   /* a bare '\r' stands before the error, below */
    LOOPY_HINT_PAIRS,     /* the text reads as a list of pairs (SNAP's) */
    LOOPY_HINT_PAIRS_BASE_0 /* as a list of pairs numbered from 0 */
} loopy_hint;

/*
 * Where and why an input was rejected.  Filled by readers on failure when the
 * caller passes a non-NULL pointer.  line and column are 1-based (column in
 * bytes); both are 0 when the problem is not about a place in a text.  hint
 * names a single change of the read options under which the rejected text
 * reads without error (the other base, then the other format; for an edge
 * list, then a list of pairs, then one numbered from 0, as SNAP's are),
 * found by reading it again when it is at most 16 MiB; the message does
 * not say so:
 * only the caller knows how to ask for it.  When there is no such hint and
 * the line of the error holds, before the error, a carriage return followed
 * by more of the line than carriage returns (comments included), hint is
 * LOOPY_HINT_BARE_CR, at any size of text: lines end with '\n' or "\r\n",
 * so a text whose lines end with '\r' alone reads as one line, with its
 * carriage returns as blanks.  That hint states what the line holds; it is
 * not checked by reading the text again.
 */
typedef struct loopy_diag {
    uint64_t line;
    uint64_t column;
    char message[256];
    loopy_hint hint;
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

/* The number of the first vertex in the text the graph was read from (0 or
 * 1): options->base for loopy_read_text and loopy_read_file, the recorded
 * one for a binary file (which keeps that of the text it was made from),
 * 1 for a graph built by loopy_graph_from_edges.  Ids stay 0-based; this
 * is only how to number vertices when printing them.  O(1). */
uint32_t loopy_graph_base(const loopy_graph *graph);

/* The successors of v, in input order; *count receives their number.
 * The pointer stays valid while the graph lives.  O(1).  Returns NULL (and
 * *count 0) for a graph read with skip_successors: see
 * loopy_graph_has_successors. */
const loopy_vertex *loopy_graph_successors(const loopy_graph *graph,
                                           loopy_vertex v, loopy_edge *count);

/* ==== Progress =========================================================== */

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
    LOOPY_TEXT_ADJ = 1,
    /* Lines "u v" only, without the "n m" header, as graph collections
     * (SNAP, KONECT) ship edge lists; '%' also starts a comment.  n is the
     * largest id + 1 - base (0 for a text without edges), so vertices
     * above the largest id cannot be given.  The edges are kept as they
     * are read (memory grows with the text read); no hint of another
     * format is given for a rejected text.  Never chosen by itself: a
     * text with a header is also a valid text of this format. */
    LOOPY_TEXT_PAIRS = 2
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
    LOOPY_LOSE = 2, /* the player to move loses against best play */
    LOOPY_TIE = 3   /* neither player can force a win, and best play ends
                       the game at a tie_at vertex (nobody wins) */
} loopy_outcome;

typedef struct loopy_solve_options {
    /* Nonzero: a player who cannot move wins (misere play). */
    int misere;
    /* Vertices where the game is over on arrival and the player to move has
     * lost (lose_at) or won (win_at), whatever their out-edges.  A vertex may
     * not be in both lists, nor in tie_at below; repeats are allowed. */
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
    /* Vertices where the game is over on arrival with nobody winning (a Tie
     * at remoteness 0), whatever their out-edges; misere play does not
     * change them.  A vertex may not be in two of lose_at, win_at and
     * tie_at; repeats are allowed.  (Last, so that older initialisers
     * stay valid.) */
    const loopy_vertex *tie_at;
    size_t tie_at_count;
} loopy_solve_options;

#define LOOPY_SOLVE_OPTIONS_INIT                                               \
    {0, NULL, 0, NULL, 0, 0, NULL, NULL, 0, NULL, 0}

/* The value of every position of a graph. */
typedef struct loopy_solution loopy_solution;

/*
 * Solves every position of graph by retrograde analysis.
 *
 * A position without moves is a Lose (a Win under misere play) at remoteness
 * 0, as is a lose_at (win_at) vertex; a tie_at vertex is a Tie at remoteness
 * 0 (in either play).  Any other position is a Win at remoteness r if some
 * move reaches a Lose of remoteness r-1 and r is the least such; a Lose at
 * remoteness r if every move reaches a Win and r is 1 + the greatest of
 * their remotenesses.  A position that is neither is a Tie at remoteness r
 * if some move reaches a Tie of remoteness r-1 and r is the least such (as
 * GamesmanOne defines it: both players prefer ending the game in a tie to
 * endless play, and hurry to it); a Draw otherwise.  So a move to a Tie
 * never makes a position a Lose, and a Tie never makes a predecessor a Win.
 * The best move of a Win (Lose) is the least-numbered successor that is a
 * Lose (Win) of remoteness r-1; of a Tie, the least-numbered successor that
 * is a Tie of remoteness r-1; of a Draw, the least-numbered successor that
 * is a Draw; none for a position of remoteness 0.  (Least-numbered rather
 * than first in edge order, so that the answer does not depend on how edges
 * are stored or on the thread count.)
 *
 * options may be NULL (normal play).  Time O(n + m), spread over
 * options->threads threads (with tie_at vertices, a second propagation over
 * the positions that are neither Win nor Lose, also O(n + m)).  Memory: the
 * 9n bytes of the solution (which also hold the solver's counters and
 * queue) and a few MiB of buffers per thread; plus 8n + 4m bytes for the
 * predecessor lists when the graph has none (loopy_graph_from_edges; graphs
 * from loopy_read_* have them).  LOOPY_EINVAL if a target is out of range
 * or in two of lose_at, win_at and tie_at.
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
 * loopy_outcome), remoteness (LOOPY_NONE for a draw; a Tie has one) and
 * best move (LOOPY_NONE where there is none). */
const uint8_t *loopy_solution_outcomes(const loopy_solution *solution);
const uint32_t *loopy_solution_remoteness(const loopy_solution *solution);
const loopy_vertex *loopy_solution_best_moves(const loopy_solution *solution);
/* How many positions have the given outcome (0 for a value that is not a
 * loopy_outcome). */
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

/*
 * Gives a graph that has only predecessor lists (read with skip_successors,
 * or from a binary file written without successors) its successor lists,
 * by one counting sort over the predecessor lists; each vertex's successors
 * then come in increasing order.  Does nothing when the graph has them.
 * Checks as it fills that the predecessor lists name each vertex exactly
 * out-degree times, and fails with LOOPY_EFORMAT where they do not (the
 * graphs loopy builds or loads always agree).  On failure the graph is
 * unchanged.  Time O(n + m); memory 8(n+1) + 4m bytes.
 */
loopy_status loopy_graph_build_successors(loopy_graph *graph);

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
 * A file (or standard input) compressed with gzip or zstd, recognised by
 * its magic bytes (1f 8b; 28 b5 2f fd, or a zstd skippable frame's),
 * is read as it is decompressed, text or binary; places in messages are
 * those of the decompressed text.  A text is read serially through a
 * window of 1 MiB, never held whole (memory: the graph and its edge
 * arrays, whatever the decompressed size); a binary graph is held
 * decompressed, up to the size its header announces and the memory limit
 * (options->memory_limit, else the machine's memory: LOOPY_ETOOBIG past
 * it).  Decompression stops at a NUL byte outside a comment, where a text
 * is bad anyway; damaged or truncated compressed data is LOOPY_EFORMAT,
 * its message naming the damage ("truncated gzip file: ..."), also when
 * the text is bad before it.  gzip members and zstd frames may be
 * concatenated; a zstd frame may take a window of up to 2 GiB (zstd
 * --long=31) as far as the memory limit allows beyond 128 MiB, a larger
 * one is LOOPY_ETOOBIG with its size in the message.
 * Time O(len + n + m); memory: the graph, plus 8n bytes per thread while
 * building.  A binary file is checked (checksums, ranges, that each vertex
 * stands in the predecessor lists exactly out-degree times, counted exactly
 * with 4n bytes per counting thread (at most 4), and that the predecessor
 * and successor lists hold the same edges, by sums of 64-bit edge
 * fingerprints under a key drawn for each load: a guard against damage, not
 * a proof; memory safety never rests on it or on the checksums) and its
 * arrays are used in place, without copying, on little-endian machines;
 * keeping successors adds their offsets, 8(n+1) bytes.
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

/*
 * Writes graph as text through write, vertices numbered from base (0 or
 * 1): LOOPY_TEXT_EDGES ("n m", then a line "u v" per edge), LOOPY_TEXT_ADJ
 * (as loopy_text_format describes) or LOOPY_TEXT_PAIRS (the edge lines
 * alone).  Each vertex's moves are written in the order of its successor
 * list, vertex by vertex, so reading the text back with that format and
 * base gives the same graph (the same n and successor lists).  Fails with
 * LOOPY_EINVAL when the graph has no successor lists
 * (loopy_graph_build_successors), on a bad format or base, and for
 * LOOPY_TEXT_PAIRS when vertex n - 1 is on no edge (such a text would
 * read back with fewer vertices); LOOPY_EIO when write fails.  Time
 * O(n + m) (and O(m) more for that check); memory 64 KiB.
 */
loopy_status loopy_write_text(const loopy_graph *graph, loopy_text_format format,
                              uint32_t base, loopy_write_fn write, void *ctx);

/* ==== Sprague-Grundy values ============================================== */

/*
 * Impartial play on a graph: a token on a vertex, the two players alternately
 * move it along an edge, a player who cannot move loses (normal play), and a
 * play that never ends is a draw.
 *
 * On an acyclic graph every vertex has a Sprague-Grundy value: the least
 * natural number that is not the value of a successor (mex).  On any graph,
 * loopy computes Smith's generalized Sprague-Grundy function gamma (C. A. B.
 * Smith 1966; A. S. Fraenkel and Y. Yesha 1986): gamma(u) is either a
 * natural number or "infinity(K)", K being the set of the finite values of
 * u's successors.  gamma(u) = m < infinity exactly when
 *   (a) no successor has value m and every j < m is a successor's value, and
 *   (b) every successor v whose value is infinite or larger than m has a
 *       successor w of value m ("v reverses out through w"), where w can be
 *       chosen earlier than u in one well-founded order of the finite
 *       vertices (a counter function: it forbids circular justifications,
 *       such as both vertices of a 2-cycle claiming the values 0 and 1);
 * and gamma(u) is infinite where no such m exists.  On acyclic graphs gamma
 * is the ordinary Sprague-Grundy value.
 *
 * Outcomes follow from gamma: 0 is a Lose for the player to move; a positive
 * value, or infinity(K) with 0 in K, is a Win; infinity(K) without 0 in K is
 * a Draw.  They agree with loopy_solve in normal play.
 */

/* The value of an infinite vertex in loopy_grundy_values. */
#define LOOPY_GRUNDY_INF UINT32_MAX

/* The generalized Sprague-Grundy function of every vertex of one graph. */
typedef struct loopy_grundy loopy_grundy;

/*
 * Computes gamma for every vertex of graph.
 *
 * Vertices from which no cycle can be reached get their ordinary value by a
 * mex in reverse topological order; the rest are labelled by one
 * counter-based retrograde pass per value level k = 0, 1, 2, ... (see
 * lib/impartial/grundy.c).  Time O(n + m) on an acyclic graph and
 * O(n + m + (g + 2)(n' + m')) in general, where g is the largest finite
 * value, and n', m' count the vertices that reach a cycle and the edges
 * into or out of them (a level k > 0 only runs when some such vertex has
 * moves to every value below k).  Memory about
 * 33n + 4m bytes of scratch (the reverse graph included) and 12n + 4k bytes
 * for the result, k <= m being the total size of the sets K.  The graph
 * need not outlive the result.  The graph must have successor lists
 * (loopy_graph_build_successors), else LOOPY_EINVAL.
 */
loopy_status loopy_grundy_compute(const loopy_graph *graph, loopy_grundy **out);

/* Releases a result; NULL is allowed. */
void loopy_grundy_free(loopy_grundy *grundy);

loopy_vertex loopy_grundy_vertex_count(const loopy_grundy *grundy);

/* Per-vertex values, valid while the result lives: a natural number, or
 * LOOPY_GRUNDY_INF. */
const uint32_t *loopy_grundy_values(const loopy_grundy *grundy);

/* For an infinite vertex v: its set K, the distinct finite values of its
 * successors in increasing order (*count of them; the pointer is valid
 * while the result lives).  For a finite vertex: *count = 0.  O(1). */
const uint32_t *loopy_grundy_inf_set(const loopy_grundy *grundy,
                                     loopy_vertex v, size_t *count);

/* The outcome of vertex v as derived above.  O(log |K|). */
loopy_outcome loopy_grundy_outcome(const loopy_grundy *grundy, loopy_vertex v);

/* The value of several tokens on one graph, each move moving one token along
 * one edge (the disjunctive sum of the one-token games). */
typedef struct loopy_grundy_sum {
    loopy_outcome outcome;
    /* The XOR of the finite tokens' values, or LOOPY_GRUNDY_INF. */
    uint32_t value;
    /* When exactly one token is infinite: that token's vertex, and the XOR
     * of the other tokens' values; the sum's set is
     * K' = { k XOR shift : k in K(infinite_token) }.  When two or more are
     * infinite, infinite_token is LOOPY_NONE and K' is empty. */
    loopy_vertex infinite_token;
    uint32_t shift;
    /* How many tokens have an infinite value. */
    size_t infinite_count;
} loopy_grundy_sum;

/*
 * The value of tokens[0..count) by the sum rule of generalized
 * Sprague-Grundy theory (Smith; Fraenkel and Yesha):
 *   - all finite: the XOR of the values (0: Lose, otherwise Win);
 *   - exactly one infinite, infinity(K), the others XOR to a:
 *     infinity(K XOR a), a Win iff a is in K (then the winner moves the
 *     infinite token to a successor of value a), otherwise a Draw;
 *   - two or more infinite: infinity({}), a Draw.
 * No tokens is the finite value 0.  Fails with LOOPY_EINVAL if a token is
 * out of range or tokens is NULL while count > 0.  Time O(count + log |K|).
 */
loopy_status loopy_grundy_sum_value(const loopy_grundy *grundy,
                                    const loopy_vertex *tokens, size_t count,
                                    loopy_grundy_sum *out);

/* ==== Octal games ======================================================== */

/* The most digits after the point that an octal code may have. */
#define LOOPY_OCTAL_MAX_DIGITS 64

/*
 * Sprague-Grundy values of the heap game with octal code `code`, for heaps
 * of 0..heaps tokens, stored in values[0..heaps] (caller-allocated).
 *
 * The code is "0.d1d2d3..." (the leading 0 may be omitted) with 1 to
 * LOOPY_OCTAL_MAX_DIGITS octal digits.  A move takes k tokens from one heap
 * where digit dk allows it: bit 1 when they are the whole heap, bit 2 when
 * one non-empty heap remains, bit 4 when the rest is split into two
 * non-empty heaps.  Examples: 0.77 Kayles, 0.07 Dawson's Kayles, 0.137
 * Dawson's Chess.  A heap's value is the mex of its options' values, a split
 * option being valued by the XOR of its two parts.
 *
 * On a malformed code, fails with LOOPY_EPARSE and diag (if not NULL) gives
 * the column (line 1) and "expected ..., found ...".  heaps must be below
 * UINT32_MAX.
 *
 * Time: the split options of a heap are searched value by value (the
 * smallest values first, stopping at the mex).  Each candidate value t is
 * settled by walking the shortest per-value lists of heaps (rare values),
 * then a direct search of 256 splits, and only then word-parallel bitset
 * ANDs of the long lists (lib/impartial/octal.c).  Games whose values split
 * into rare and common ones (Kayles and most studied octal games) take
 * close to O(heaps * D * mex) time; the worst case is
 * O(heaps^2 * D * V^2 / 64) for D digits and V distinct values.
 * Memory O(heaps) words: at most 64 values get bitsets (16 bytes a heap in
 * all) plus 8 bytes a heap for the lists.
 */
loopy_status loopy_octal_values(const char *code, uint32_t heaps,
                                uint32_t *values, loopy_diag *diag);
/* ==== Streamed text sources ============================================== */

/* A text read front to back in chunks (a file, standard input, or bytes in
 * memory), so that the seed-problem readers below never hold a whole input
 * in memory.  Their formats are token based, like a contest judge's: numbers
 * are separated by any white space, newlines included, and nothing else
 * (no comments). */
typedef struct loopy_source loopy_source;

/*
 * Opens path, or standard input when path is NULL or "-".  On failure *out
 * is NULL, the status is LOOPY_EIO or LOOPY_ENOMEM and diag (if not NULL)
 * names the system error.  The source keeps a 1 MiB window.
 */
loopy_status loopy_source_open(const char *path, loopy_source **out,
                               loopy_diag *diag);

/* A source over text[0..len), which must outlive it (not copied). */
loopy_status loopy_source_from_memory(const char *text, size_t len,
                                      loopy_source **out);

/* Closes the file (never standard input) and releases; NULL is allowed. */
void loopy_source_free(loopy_source *source);

/* ==== Seed problem: race to a vertex (Luogu P6560) ======================= */

/* Rounds of the race game: the token starts at start[i]; whoever moves it
 * onto end[i] wins, whoever cannot move loses.  Arrays of count entries. */
typedef struct loopy_race_rounds {
    size_t count;
    loopy_vertex *start;
    loopy_vertex *end;
} loopy_race_rounds;

/* Releases the arrays of rounds (which may be zeroed); the struct itself
 * belongs to the caller. */
void loopy_race_rounds_release(loopy_race_rounds *rounds);

/*
 * Reads P6560's input: "n m q", then m edges "u v" (a move u -> v), then q
 * rounds "x y" (start x, end y), vertices numbered from 1; tokens separated
 * by any white space, and nothing may follow the last round.  On success
 * *graph (free with loopy_graph_free) and *rounds (0-based) are filled; on
 * failure both are empty and diag says where and what was expected.
 * Time O(n + m + q), memory 8(n+1) + 12m bytes at the peak, 8q for rounds.
 */
loopy_status loopy_race_read(loopy_source *source, loopy_graph **graph,
                             loopy_race_rounds *rounds, loopy_diag *diag);

/* How loopy_race_answer re-solves for each end vertex (see there). */
typedef enum loopy_race_strategy {
    LOOPY_RACE_AUTO = 0,  /* lanes for 4 or more ends, else LOCAL with a
                             full pass when the region grows big */
    LOOPY_RACE_LOCAL = 1, /* each end's region alone */
    LOOPY_RACE_FULL = 2,  /* a full retrograde pass per end vertex */
    LOOPY_RACE_LANES = 3  /* always lanes, however few the ends */
} loopy_race_strategy;

/*
 * Answers every round: answer[i] is 1 if the player to move at start[i]
 * wins, -1 if that player loses, 0 if neither can force a win.  This is the
 * outcome of start[i] in loopy_solve with lose_at = {end[i]} (so start = end
 * gives -1: the game is over and the player to move has lost).
 *
 * The graph is solved once without targets (B).  Making y a lost end can
 * change only the positions whose B value was proved through y, and the
 * draws that reach them; that region is found by a reverse search from y
 * and re-solved alone against the fixed values around it, once per distinct
 * end vertex.  If B(y) is already Lose nothing changes.  Up to 64 ends are
 * re-solved together over the union of their regions, one bit lane each,
 * with bit-sliced move counters (LANES; AUTO for 4 ends or more).  A single
 * end whose region passes n/4 + m/4 falls back to a full pass (AUTO).
 *
 * Time O(n + m) plus, per distinct end vertex (per 64 for lanes), its
 * region's size and edges, at most O(n + m) (lanes: times the rounds of
 * news a vertex receives); memory 8(n+1) + 4m bytes of reverse graph, 25n
 * of solution and scratch, 8 per round, and for lanes 40 bytes plus 8 per
 * counter bit a region vertex.  Fails with LOOPY_EINVAL on an id >= n.
 */
loopy_status loopy_race_answer(const loopy_graph *graph,
                               const loopy_race_rounds *rounds,
                               loopy_race_strategy strategy, int8_t *answer);

/* ==== Seed problem: Petya's sleepy game (Codeforces 936B) ================ */

/*
 * Reads 936B's input: "n m", then for each vertex i = 1..n its number of
 * moves c and the c successors, then the start s; tokens separated by any
 * white space; the c's must add up to m.  *graph is freed with
 * loopy_graph_free; *start is 0-based.  Time O(n + m), memory 8(n+1) + 4m
 * bytes (the lists arrive in vertex order, so no edge list is kept).
 * From a file or a memory text, the numbers are read on all threads in
 * chunks of 1 MiB (64 KiB a thread beyond 16 threads), with buffers of
 * about three chunks; if anything is not as expected, the input is read
 * again from the lists' start token by token, which says what is wrong and
 * where.
 */
loopy_status loopy_sleepy_read(loopy_source *source, loopy_graph **graph,
                               loopy_vertex *start, loopy_diag *diag);

/* 936B's limit: a game that lasts this many moves is a draw. */
#define LOOPY_SLEEPY_MOVES 1000000u

/* What one player steering both sides can reach from the start. */
typedef struct loopy_sleepy_result {
    /* LOOPY_WIN: a position without moves is reachable after an odd
     * number of moves, fewer than LOOPY_SLEEPY_MOVES; LOOPY_DRAW:
     * otherwise, play can last LOOPY_SLEEPY_MOVES moves (a cycle, or a path
     * that long, is reachable); LOOPY_LOSE: neither.  (Within the
     * problem's n <= 10^5 the limit never decides.) */
    loopy_outcome outcome;
    /* For a Win, a shortest such walk: path[0] = start, ..., path[len-1]
     * has no moves, len even (an odd number of moves), len <= min(2n,
     * LOOPY_SLEEPY_MOVES).  NULL and 0 otherwise.  0-based ids. */
    loopy_vertex *path;
    size_t path_len;
} loopy_sleepy_result;

/*
 * Solves 936B from start by breadth-first search over (vertex, parity of
 * moves made) and, without a win, a depth-first search that stops at the
 * first cycle and otherwise measures the longest path; no recursion
 * (explicit stacks).  Time O(n + m),
 * memory 17n bytes (and 4 a vertex of the path).  The graph must have
 * successor lists (loopy_graph_build_successors), else LOOPY_EINVAL.
 */
loopy_status loopy_sleepy_solve(const loopy_graph *graph, loopy_vertex start,
                                loopy_sleepy_result *result);
void loopy_sleepy_result_release(loopy_sleepy_result *result);

/* ==== Seed problem: climbing a height grid =============================== */

/*
 * For every cell of a rows x cols grid (row-major heights), whether the
 * player to move wins when a move takes the flag to an orthogonally
 * adjacent, strictly higher cell and a player who cannot move loses.
 * first_wins[i] receives 1 or 0.  Equal heights are allowed here (equal
 * cells are not moves).  The moves stay implicit: retrograde analysis from
 * the local maxima, with a per-cell count of higher neighbours; no sorting.
 * Time O(rows * cols), memory 12 bytes per cell (heights with the solve's
 * state, and a queue).
 */
loopy_status loopy_climb_solve(uint32_t rows, uint32_t cols,
                               const uint32_t *height, uint8_t *first_wins);

/* The answers of all queries of all test cases, in input order: 1 for
 * "First", 0 for "Second". */
typedef struct loopy_climb_answers {
    size_t count;
    uint8_t *first_wins;
} loopy_climb_answers;

void loopy_climb_answers_release(loopy_climb_answers *answers);

/*
 * Reads and answers the grid game's input: T, then T test cases of "n m",
 * n rows of m heights (whole numbers 1..4294967295, distinct within a test
 * case), q, and q queries "r c" (1-based).  Each case is solved as soon as
 * it is read, so memory is that of the largest grid, about 13 bytes per
 * cell (heights, a state byte, and 2 slots a cell that check the heights
 * are distinct and then serve as the solve's queue), plus a byte per
 * query; buffers grow as heights arrive, never ahead of the text.  From a
 * file or memory, distinctness is checked by sorting a copy, and the grid
 * is read a second time only to find where a repeat stands; from a pipe, a
 * hash set checks each height as it comes (slower).  A repeated height or a
 * query outside the grid is an input error at its place (the first bad
 * place in reading order).  Time O(total cells + total queries).  From a
 * file or a memory text, the numbers are read on all threads in chunks of
 * 1 MiB (64 KiB a thread beyond 16 threads), with buffers of about three
 * chunks; if anything is not as expected, the whole input is read again
 * token by token, which says what and where.
 */
loopy_status loopy_climb_run(loopy_source *source, loopy_climb_answers *answers,
                             loopy_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* LOOPY_H */
