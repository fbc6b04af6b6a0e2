/*
 * rules_internal.h - what the solvers of games by rules share
 * (lib/rules/): checked calls into a game's callbacks and the solution.
 */
#ifndef LOOPY_RULES_INTERNAL_H
#define LOOPY_RULES_INTERNAL_H

#include "../core/internal.h"
#include "loopy_game.h"

#include <stdio.h>

/* A growing buffer of positions for moves() and unmoves(). */
typedef struct loopy_position_buffer {
    loopy_position *items;
    size_t capacity;
    bool out_of_memory; /* set when growing it failed */
} loopy_position_buffer;

/* Why a list of moves failed (loopy_i_game_list_why). */
typedef enum loopy_i_list_fault {
    LOOPY_I_LIST_OK = 0,
    LOOPY_I_LIST_FAILED,     /* the callback gave LOOPY_GAME_ERROR */
    LOOPY_I_LIST_NO_MEMORY,  /* growing the buffer failed */
    LOOPY_I_LIST_TOO_MANY,   /* a count above LOOPY_I_MAX_MOVES */
    LOOPY_I_LIST_CHANGED     /* another count on the second call */
} loopy_i_list_fault;

typedef struct loopy_i_list_failure {
    loopy_i_list_fault fault;
    size_t count; /* the count the callback gave first */
    size_t again; /* and on the second call (LOOPY_I_LIST_CHANGED) */
} loopy_i_list_failure;

/* The largest count of moves (or unmoves) a callback may give: more is
 * taken as a broken callback, not as a reason to ask for memory.  Room
 * for 2^32 - 1 positions (32 GiB) is past what any solver could use, and
 * it keeps count * sizeof(loopy_position) from overflowing size_t. */
#define LOOPY_I_MAX_MOVES                                                      \
    ((size_t)UINT32_MAX < SIZE_MAX / sizeof(loopy_position)                    \
         ? (size_t)UINT32_MAX                                                  \
         : SIZE_MAX / sizeof(loopy_position))

/* The moves (backward: the unmoves) of pos into buf: one call, and when
 * the count exceeds buf's capacity, a second with room for that count,
 * which must give the same count (so at most two calls, never a loop).
 * Their number, or LOOPY_GAME_ERROR when the game failed, gave a count
 * above LOOPY_I_MAX_MOVES or another count the second time, or memory ran
 * out (then buf->out_of_memory is set).  *why (NULL: not wanted) says
 * which; loopy_i_list_failure_text puts it in words. */
size_t loopy_i_game_list_why(const loopy_game *game, loopy_position pos,
                             bool backward, loopy_position_buffer *buf,
                             loopy_i_list_failure *why);
/* The same, without saying why. */
size_t loopy_i_game_list(const loopy_game *game, loopy_position pos,
                         bool backward, loopy_position_buffer *buf);
/* The same with canonical_moves() (backward: canonical_unmoves()), which
 * the game has. */
size_t loopy_i_game_list_canonical(const loopy_game *game, loopy_position pos,
                                   bool backward, loopy_position_buffer *buf,
                                   loopy_i_list_failure *why);
/* "moves() failed", "moves() asks for room for N positions, more than
 * 4294967295", "moves() gave N positions, then M when called again with
 * room for N" (unmoves() when backward), in out[0 .. capacity). */
void loopy_i_list_failure_text(const loopy_i_list_failure *why, bool backward,
                               char *out, size_t capacity);
void loopy_i_position_buffer_release(loopy_position_buffer *buf);

/* How the solvers without stored moves take a position's neighbours: the
 * game, whether positions are representatives (symmetric), whether every
 * legal index is solved (all_legal), and given[backward]: whether the
 * game's canonical_moves (canonical_unmoves) give the representatives,
 * rather than canonical() of each move. */
typedef struct loopy_i_reps {
    const loopy_game *game;
    bool symmetric, all_legal;
    bool given[2];
} loopy_i_reps;

/* The options of a solve: representatives when the game has canonical()
 * and no_symmetry is false, and given[] from what the game offers. */
void loopy_i_reps_init(loopy_i_reps *reps, const loopy_game *game,
                       bool no_symmetry, bool all_legal);

/* The distinct representatives of pos's moves (backward: unmoves) into
 * buf, each checked to lie in the index space (and, with all_legal, to be
 * its own representative): their number, or LOOPY_GAME_ERROR with the
 * reason in why[0 .. why_size) (*no_memory when it is memory). */
size_t loopy_i_game_neighbours(const loopy_i_reps *reps, loopy_position pos,
                               bool backward, loopy_position_buffer *buf,
                               char *why, size_t why_size, bool *no_memory);

/* Opens the built-in game name with params (the text after "NAME:"; NULL
 * or "": the defaults), never a shared object whatever the text: for names
 * and parameters read from a file. */
loopy_status loopy_i_game_open_builtin(const char *name, const char *params,
                                       loopy_game **out, loopy_diag *diag);

/* Makes text[0 .. capacity) safe to show, whatever a game's callback
 * wrote there: NUL-terminated within capacity, and every byte that begins
 * no valid UTF-8 character, or begins a control character (C0, DEL, C1),
 * replaced by '?'.  Returns the length.  O(capacity). */
size_t loopy_i_text_clean(char *text, size_t capacity);

/* qsort's comparison of two positions. */
int loopy_i_compare_position(const void *a, const void *b);

/* qsort's comparison of two loopy_game_move, best first for the player who
 * moves: to an opponent's Lose (quickest first), to a Tie (quickest
 * first), to a Draw, to an opponent's Win (slowest first); then by
 * position. */
int loopy_i_compare_moves(const void *a, const void *b);

/* Sorts positions[0..count) and drops repeats; returns the new count. */
size_t loopy_i_sort_unique(loopy_position *positions, size_t count);

/* The words of the solver that stores no moves (retro_solve.c), one per
 * index: absent, undecided (a count: a Draw once solved), or the outcome
 * in the top two bits and the remoteness below. */
#define LOOPY_I_WORD_ABSENT UINT32_MAX
#define LOOPY_I_WORD_SHIFT 30
#define LOOPY_I_WORD_LOW ((UINT32_C(1) << LOOPY_I_WORD_SHIFT) - 1)
/* While solving: reached, its moves not yet looked at. */
#define LOOPY_I_WORD_SEEN (UINT32_MAX - 1)
/* An undecided count this large stays (the moves are counted again). */
#define LOOPY_I_WORD_SATURATED LOOPY_I_WORD_LOW
/* The largest remoteness a word holds (a Tie's must stay below SEEN). */
#define LOOPY_I_WORD_MAX_REMOTENESS (LOOPY_I_WORD_LOW - 2)

/* The value a solved word holds; false when it is absent. */
static inline bool loopy_i_word_value(uint32_t w, loopy_outcome *outcome,
                                      uint32_t *remoteness)
{
    unsigned kind = w >> LOOPY_I_WORD_SHIFT;

    if (w == LOOPY_I_WORD_ABSENT)
        return false;
    *outcome = (loopy_outcome)kind; /* kind 0, undecided: LOOPY_DRAW */
    *remoteness = kind == 0 ? LOOPY_NONE : (w & LOOPY_I_WORD_LOW);
    return true;
}

/* The records of a narrow solution (a game's own solver, chess_solve.c),
 * 2 bytes per index, which are the 2-byte records of a database
 * (lib/db/db_internal.h): 0 absent, 1 a Draw, else the outcome in the top
 * two bits and the remoteness in the 14 below. */
#define LOOPY_I_RECORD_ABSENT 0u
#define LOOPY_I_RECORD_DRAW 1u
#define LOOPY_I_RECORD_SHIFT 14
#define LOOPY_I_RECORD_LOW ((1u << LOOPY_I_RECORD_SHIFT) - 1)

/* The word that holds the value a record holds. */
static inline uint32_t loopy_i_word_of_record(uint16_t r)
{
    unsigned kind = (unsigned)r >> LOOPY_I_RECORD_SHIFT;

    if (r == LOOPY_I_RECORD_ABSENT)
        return LOOPY_I_WORD_ABSENT;
    if (kind == 0)
        return 1; /* undecided once solved: a Draw */
    return (uint32_t)kind << LOOPY_I_WORD_SHIFT | (r & LOOPY_I_RECORD_LOW);
}

/* The 1-byte records of a tier solve whose game bounds its remoteness
 * (loopy_game's remoteness_bound, at most LOOPY_I_BYTE_MAX_REMOTENESS):
 * 0 absent, 1 reached and not yet solved, else 2 + 3r + outcome - 1 for a
 * Win, Lose or Tie at remoteness r.  No Draw (a tier solve makes none). */
#define LOOPY_I_BYTE_ABSENT 0u
#define LOOPY_I_BYTE_REACHED 1u
#define LOOPY_I_BYTE_MAX_REMOTENESS 83u

/* The record that holds the value a byte holds (REACHED: kind 0, low 2);
 * and back, for a record of a Win, Lose or Tie whose remoteness is at
 * most LOOPY_I_BYTE_MAX_REMOTENESS, ABSENT or REACHED. */
static inline uint16_t loopy_i_record_of_byte(uint8_t b)
{
    if (b < 2)
        return (uint16_t)(b * 2u); /* ABSENT 0, REACHED 2 */
    return (uint16_t)(((b - 2u) % 3u + 1u) << LOOPY_I_RECORD_SHIFT |
                      (b - 2u) / 3u);
}

static inline uint8_t loopy_i_byte_of_record(uint16_t r)
{
    unsigned kind = (unsigned)r >> LOOPY_I_RECORD_SHIFT;

    if (kind == 0)
        return (uint8_t)(r / 2u); /* ABSENT 0, REACHED 2 */
    return (uint8_t)(2u + 3u * (r & LOOPY_I_RECORD_LOW) + kind - 1u);
}

/* Indices per entry of a word solution's rank directory. */
#define LOOPY_I_RANK_BLOCK 4096

/* The value of every position solved, in one of two forms.  Listed (the
 * graph solver): positions in increasing order, with their outcome and
 * remoteness at the same index.  Words (the solver that stores no moves,
 * which hands over its words rather than copying them: 4 bytes per index
 * in all): word[pos] for every index pos < size, and rank[b], the
 * positions present below index b * LOOPY_I_RANK_BLOCK. */
struct loopy_game_solution {
    uint64_t n;
    loopy_position *position;
    uint8_t *outcome;
    uint32_t *remoteness;
    uint32_t *word; /* non-NULL: the words form */
    uint16_t *record; /* non-NULL: the words form, narrow (records) */
    uint8_t *byte;    /* non-NULL: the words form, in 1-byte records */
    size_t mapped;    /* nonzero: record or byte is a shared file mapping
                       * of so many bytes (a tier solve's work file) */
    bool reserved;    /* record is loopy_i_reserve'd (size records) */
    bool locked;      /* lock_fd is the work file's journal, held open with
                       * its lock so that no other solve takes the work
                       * file until this solution is freed (its caller has
                       * saved the database and removed the files) */
    int lock_fd;
    uint64_t size;  /* words */
    uint64_t *rank; /* size / LOOPY_I_RANK_BLOCK + 1 */
    uint64_t count[4]; /* indexed by loopy_outcome */
    bool symmetric;    /* positions are the game's representatives */
};

/* A solution in the words form made of words[0 .. size) (which it takes
 * over, to free with it): the rank directory and the counts, on up to
 * threads threads.  LOOPY_ENOMEM leaves words to the caller. */
loopy_status loopy_i_solution_of_words(uint32_t *words, uint64_t size,
                                       bool symmetric, int threads,
                                       loopy_game_solution **out);

/* The same of records[0 .. size) of width bytes each (2: the narrow
 * records, 1: the 1-byte records), which it takes over. */
loopy_status loopy_i_solution_of_records(void *records, unsigned width,
                                         uint64_t size, bool symmetric,
                                         int threads,
                                         loopy_game_solution **out);

/* The same of narrow records loopy_i_reserve'd (size of them), released
 * with loopy_i_unreserve. */
loopy_status loopy_i_solution_of_reserved_records(uint16_t *records,
                                                  uint64_t size,
                                                  bool symmetric, int threads,
                                                  loopy_game_solution **out);

/* The same of the records of a work file mapped shared (bytes long),
 * unmapped when the solution is freed; their pages leave memory as they
 * are counted.  lock_fd (the locked journal) is closed with the solution,
 * and on failure too. */
loopy_status loopy_i_solution_of_mapped_records(void *records, unsigned width,
                                                uint64_t size, size_t bytes,
                                                int lock_fd, bool symmetric,
                                                int threads,
                                                loopy_game_solution **out);

/* Drops the whole pages inside bytes[0 .. len) of a shared file mapping
 * from memory (tier_store.c); a later read brings them back. */
void loopy_i_release_mapped(const void *bytes, size_t len);

/* Whether s is in the words form, wide or narrow. */
static inline bool loopy_i_solution_indexed(const loopy_game_solution *s)
{
    return s->word != NULL || s->record != NULL || s->byte != NULL;
}

/* The word of index pos (below s->size) of a solution in the words form. */
static inline uint32_t loopy_i_solution_word(const loopy_game_solution *s,
                                             uint64_t pos)
{
    return s->word != NULL     ? s->word[pos]
           : s->record != NULL ? loopy_i_word_of_record(s->record[pos])
                               : loopy_i_word_of_record(
                                     loopy_i_record_of_byte(s->byte[pos]));
}

/* The i-th position of s (i < s->n) in the words form: a binary search in
 * the rank directory, then a scan of at most one block. */
loopy_position loopy_i_solution_select(const loopy_game_solution *s,
                                       uint64_t i);

#endif
