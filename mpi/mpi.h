/*
 * mpi.h - loopy-mpi, the solver of explicit game graphs on Open MPI.
 *
 * Each process (rank) owns a range of vertices, balanced by vertices plus
 * predecessor edges, and maps only its share of the binary graph file
 * (part.c).  The retrograde analysis runs level by level as in the
 * single-process solver, with one exchange of batched messages per level
 * (propagate.c); best moves follow in one more pass over the edges
 * (best.c); rank 0 writes the output, receiving the other ranks' lines in
 * rank order (output.c).  Every failure on any rank is agreed on by all
 * ranks at the next collective step (run.c), so that all stop with one
 * message, the same exit status, and no output file.
 */
#ifndef LOOPY_MPI_H
#define LOOPY_MPI_H

#include "../cli/solve_common.h"
#include "../lib/core/internal.h"
#include "../lib/db/db_internal.h"

#include <mpi.h>

/* ---- The run: ranks and agreed failures (run.c) ---- */
typedef struct mpi_run {
    int rank, ranks;
    int status;          /* exit status of the first failure, or EXIT_OK */
    char message[512];   /* its message */
    int failed_rank;     /* after a failed mpi_agree: whose it is */
    const char *fault;   /* LOOPY_MPI_FAULT for this rank, or NULL */
} mpi_run;

/* Sets up run from MPI_COMM_WORLD and the environment. */
void mpi_run_init(mpi_run *run);
/* Records a failure of this rank (the first one is kept). */
void mpi_fail(mpi_run *run, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Whether the test hook LOOPY_MPI_FAULT="RANK:WHAT" names this rank and
 * what ("open", "map", "memory", "level", "tier", "compress", "write",
 * "journal", "share", "inner"); a failure is then simulated. */
bool mpi_fault(const mpi_run *run, const char *what);
/* Collective: whether every rank is without failure.  When one failed,
 * every rank takes the status and message of the lowest failing rank and
 * false is returned. */
bool mpi_agree(mpi_run *run);
/* Installs, after MPI_Init, the handlers of SIGINT, SIGTERM and SIGHUP
 * (those not ignored at start), which remove the output's temporary file
 * (rank 0's, cli_out_remove_pending, and the name mpi_share_pending gave
 * every rank) before the rank dies of the signal. */
void mpi_catch_signals(void);
/* Collective: gives every rank the name of rank 0's temporary output file,
 * tmp_path on rank 0 (NULL: none, as on the other ranks), for the signal
 * handlers: whichever rank a signal reaches first removes the file. */
void mpi_share_pending(const mpi_run *run, const char *tmp_path);
/* A copy of that name (malloc'd), or NULL when none was shared (none, a
 * name of 4096 bytes or more) or memory runs out. */
char *mpi_pending_path(void);
/* This rank forgets that name (the output is committed or abandoned). */
void mpi_forget_pending(void);
/* Peak resident memory of this process, in KiB (Linux's VmHWM; 0 when
 * unknown). */
uint64_t mpi_peak_kib(void);
/* "No level": a rank without positions left to process. */
#define MPI_NO_LEVEL UINT64_MAX

/* ---- A rank's share of a binary graph (part.c) ---- */
typedef struct mpi_part {
    uint64_t n, m;
    uint32_t base;
    uint64_t *bound;        /* ranks + 1: rank r owns [bound[r], bound[r+1]) */
    uint64_t lo, hi;        /* this rank's vertices */
    uint64_t edge_lo;       /* rev_offset[0]: the first predecessor edge */
    const uint32_t *out_degree; /* hi - lo */
    const uint64_t *rev_offset; /* hi - lo + 1, edge numbers of the graph */
    const uint32_t *rev_source; /* predecessors: rev_source[e - edge_lo] */
    uint32_t max_degree;    /* over the whole graph */
    void *map[3];
    size_t map_len[3];
    uint64_t mapped;        /* bytes mapped by this rank */
} mpi_part;

/* Collective: opens path on every rank, checks the header, cuts the
 * vertices into ranges, maps this rank's share and checks it (checksums
 * folded across ranks, ranges, degrees against the predecessor lists).
 * Returns false, agreed by all ranks, on failure. */
bool mpi_part_open(mpi_run *run, const char *path, mpi_part *part);
void mpi_part_close(mpi_part *part);
/* The rank whose range holds v: bound[r] <= v < bound[r + 1], bound of
 * ranks + 1 increasing entries. */
static inline int mpi_range_owner(const uint64_t *bound, int ranks, uint64_t v)
{
    int lo = 0, hi = ranks; /* bound[lo] <= v < bound[hi] */

    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (bound[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The rank that owns vertex v. */
static inline int mpi_owner(const mpi_part *part, int ranks, uint64_t v)
{
    return mpi_range_owner(part->bound, ranks, v);
}

/* ---- The solve (propagate.c, best.c) ---- */
typedef struct mpi_stats {
    uint64_t supersteps;    /* exchanges of the propagation */
    uint64_t bytes_sent;    /* by this rank, all phases */
    uint64_t level_bytes;   /* of which in the levels */
    uint64_t most_sent;     /* by this rank in one exchange */
    uint64_t best_exchanges;
} mpi_stats;

typedef struct mpi_solution {
    uint64_t nl;         /* this rank's vertices */
    uint8_t *outcome;    /* nl each, 0-based from part->lo */
    uint32_t *remoteness;
    uint32_t *best;
    uint64_t count[4];   /* whole graph, by loopy_outcome */
    mpi_stats stats;
} mpi_solution;

/* Collective: solves the graph of part with the targets and play of
 * options (0-based ids of the whole graph).  Returns false, agreed, on
 * failure. */
bool mpi_solve(mpi_run *run, const mpi_part *part,
               const loopy_solve_options *options, mpi_solution *sol);
void mpi_solution_free(mpi_solution *sol);

/* Exchange buffers shared by the propagation and the best moves. */
typedef struct mpi_exchange {
    uint32_t *send;      /* ranks * cap words: rank d's at d * cap */
    int *send_count, *send_displ, *recv_count, *recv_displ;
    uint32_t *recv;      /* ranks * cap words */
    int cap;             /* words per destination */
    uint64_t *head;      /* per destination: the header in force, or NO_HEAD */
} mpi_exchange;
bool mpi_exchange_init(mpi_exchange *x, int ranks);
void mpi_exchange_free(mpi_exchange *x);
/* Collective: sends every rank its words; afterwards rank r's words are
 * x->recv[recv_displ[r] .. + recv_count[r]) and the send counts are 0. */
void mpi_exchange_run(mpi_exchange *x, mpi_stats *stats);
/* Messages are runs under headers: MARK (a word no message starts with)
 * and head[0 .. head_len), head_len 1 or 2, which say what the messages
 * after them mean (a level and a kind, an outcome).  Appends msg[0 .. len)
 * to destination d's buffer, after the header when d's last one differs;
 * false, appending nothing, when the buffer lacks room. */
#define MPI_MARK UINT32_MAX
bool mpi_exchange_put(mpi_exchange *x, int d, const uint32_t *head,
                      int head_len, const uint32_t *msg, int len);

/* The best-move pass (best.c), after the outcomes and remotenesses. */
bool mpi_best_moves(mpi_run *run, const mpi_part *part, mpi_solution *sol,
                    mpi_exchange *x);

/* ---- Output (output.c) ---- */
typedef enum { MPI_FORMAT_TEXT, MPI_FORMAT_JSON, MPI_FORMAT_LDB } mpi_format;
/* Collective: writes the solution, rank 0 into out (open on rank 0 only)
 * and the others' lines sent to it in rank order.  Returns false, agreed,
 * when a rank lacks the memory for its chunk. */
bool mpi_write(mpi_run *run, const mpi_part *part,
               const mpi_solution *sol, mpi_format format,
               const loopy_solve_options *options, cli_out *out);

/* Collective: the database of the solution ("loopy solve -f ldb"), each
 * rank writing its blocks into rank 0's temporary file (db_parts.c; out
 * is open on rank 0, path is its name).  Returns false, agreed, on
 * failure. */
bool mpi_write_db(mpi_run *run, const mpi_part *part, const mpi_solution *sol,
                  bool misere, const char *path, cli_out *out);

/* ---- Games by rules (game.c, cmd_game.c, db_parts.c) ---- */
/* One of a rank's parts of a database: the values of indices from .. to - 1. */
typedef struct mpi_db_part {
    loopy_i_db_values v;
    uint64_t from, to;
} mpi_db_part;

/* This rank's words of a game solved across the ranks: parts of the index
 * space (one range, or its part of every tier), each a range of word. */
typedef struct mpi_game_words {
    uint32_t *word;     /* the words of every part (game.c), or NULL */
    struct tier_store *store; /* or the work file that maps them (tier.c) */
    mpi_db_part *part;
    int parts;
    bool symmetric;     /* positions up to the game's symmetry */
} mpi_game_words;

/* Collective: solves game across the ranks (game.c: the solver that stores
 * no moves, one range of the index space per rank), each keeping the
 * words of its range in *out.  Returns false, agreed, on failure. */
bool mpi_game_solve(mpi_run *run, const loopy_game *game,
                    const loopy_game_solve_options *options,
                    mpi_game_words *out, mpi_stats *stats);
/* The same by tiers (tier.c: each rank's part of every tier in its work
 * file OUTPUT.tiers.R-of-P, mapped; with resume, the one a killed solve
 * left), for a game with tiers (tier_inner.c: those whose moves may stay
 * inside them).  verbose: rank 0
 * writes a line per tier reached and per tier solved to standard error. */
bool mpi_tier_solve(mpi_run *run, const loopy_game *game,
                    const loopy_game_solve_options *options, const char *output,
                    bool resume, bool verbose, mpi_game_words *out,
                    mpi_stats *stats);
/* Collective: removes this rank's work file and journal (the database
 * is written), rank 0's journal before any other file. */
void mpi_game_words_remove_work(const mpi_game_words *w, int rank);
/* Whether mpi_tier_solve solves game; else *why says why not. */
bool mpi_tier_applies(const loopy_game *game, const char **why);
void mpi_game_words_free(mpi_game_words *w);
/* Records the failure of game at pos, why: "NAME: position POS (TEXT):
 * WHY" (game.c's and tier.c's solvers). */
void mpi_game_fail(mpi_run *run, const loopy_game *game, loopy_position pos,
                   int status, const char *why);
/* Collective: the value of pos (its class's, with symmetry), from the rank
 * that holds it; false when it is absent. */
bool mpi_game_value(mpi_run *run, const loopy_game *game,
                    const mpi_game_words *w, loopy_position pos,
                    loopy_outcome *outcome, uint32_t *remoteness);
/* Collective: the database of every rank's words, each rank holding
 * count parts (the same count on every rank): part k of rank r is the
 * (k * ranks + r)-th range of the index space, the ranges consecutive from
 * 0 to meta->index_size.  Each rank writes its blocks into rank 0's
 * temporary file tmp_path (out: rank 0's open output, NULL elsewhere;
 * path: the output's name, for messages); the shape written in *shape.
 * Returns false, agreed, on failure (rank 0 is then to abandon out). */
bool mpi_write_words_db(mpi_run *run, const loopy_i_db_source *meta,
                        const mpi_db_part *mine, int count, const char *path,
                        cli_out *out, const char *tmp_path, db_shape *shape);
/* "loopy-mpi game ...": argv[0] is "game".  Returns the exit status, the
 * same on every rank, after rank 0's message. */
int mpi_cmd_game(mpi_run *run, int argc, char **argv);

#endif
