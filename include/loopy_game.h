/*
 * loopy_game.h - games given by their rules (a table of C callbacks: built
 * in, or a user's own shared object), their two solvers and a checker of
 * their rules, and the databases of solved games, which hold explicit
 * graphs' solutions too.  Built on loopy.h (status codes, diagnostics,
 * progress, explicit solutions), which it includes.
 */
#ifndef LOOPY_GAME_H
#define LOOPY_GAME_H

#include "loopy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== Games by rules: the interface ====================================== */
/*
 * A game given by its rules rather than by a list of moves.  Positions are
 * numbers 0 .. size-1 of an index space the game chooses; a number need not
 * be a legal or a reachable position, and the solvers never assume that the
 * space is small or dense in legal positions.  The game is a const table of
 * callbacks (loopy_game) filled with designated initialisers; a version
 * field lets the table grow without breaking games written for an older
 * loopy, as SQLite's sqlite3_vfs.iVersion does.
 *
 * Thread safety: the solvers call every callback from several threads at
 * once, for different positions, with the same ctx.  Callbacks must not
 * change shared state (or must lock it themselves).
 *
 * What a wrong answer leads to: the solvers check what they can (indices in
 * range, counts within the buffer given) and fail with LOOPY_EGAME naming
 * the position; rules that are consistent but not what the author meant
 * (a symmetry that is not one, unmoves that miss a predecessor) give wrong
 * values.  The solvers catch a canonical() that is not idempotent;
 * loopy_game_check (`loopy game check`) checks a game's rules (moves
 * against unmoves, symmetries, notation) before a long solve.
 */
typedef uint64_t loopy_position;
#define LOOPY_PRI_POSITION PRIu64

/* Declared below; a game's own solver (loopy_game.solve) takes them. */
struct loopy_game_solve_options;
struct loopy_game_solution;

/* The version of loopy_game this loopy knows: 2 added move_format and
 * value_note (a game of version 1 has neither); 3 added move_parse,
 * move_label and draw, and params_of to loopy_game_def; 4 added tiers
 * (tier_count, tier_start, tier_children); 5 added class_size and
 * remoteness_bound; 6 added solve, sub_table and table_value (a solver of
 * the game's own, and the tables of its sub-games); 7 added move_twin
 * (the moves at a board that reach one class). */
#define LOOPY_GAME_VERSION 7

/* draw()'s flags: pieces as Unicode characters (else ASCII only). */
#define LOOPY_DRAW_UNICODE 1u

/* What primitive() says of a position. */
typedef enum loopy_primitive {
    LOOPY_PLAYING = 0,        /* not over: the moves decide */
    LOOPY_OVER_WIN = 1,       /* over, and the player to move has won */
    LOOPY_OVER_LOSE = 2,      /* over, and the player to move has lost */
    LOOPY_OVER_TIE = 3        /* over, and nobody won */
} loopy_primitive;

/* The buffer callbacks' "failed" answer (an error inside the game). */
#define LOOPY_GAME_ERROR SIZE_MAX

typedef struct loopy_game {
    /* LOOPY_GAME_VERSION when written; required. */
    int version;
    /* The game's name and canonical parameter text ("" when none), as
     * `loopy game` shows them: "connect4" and "5x4".  Required. */
    const char *name;
    const char *params;
    /* The game's own data, passed to every callback.  Optional. */
    void *ctx;
    /* Positions are 0 .. size-1; size >= 1.  Required. */
    loopy_position size;
    /* The position play starts from.  Required. */
    loopy_position start;

    /* Required.  Whether the game is over at pos, and how. */
    loopy_primitive (*primitive)(void *ctx, loopy_position pos);
    /* Required.  The positions reachable from pos in one move, written to
     * out[0 .. min(count, capacity)), where count, returned, is how many
     * there are: when count > capacity the caller calls again with room for
     * count, once, and that second call must give the same count (the same
     * position always has the same moves); a different count, or a count
     * above 2^32 - 1, is a broken callback: the solve fails with
     * LOOPY_EGAME naming the position and the counts, without asking for
     * the memory.  Called only for positions that are not over; a position
     * that is not over and has no moves is lost by the player to move (won
     * under misere play), as in graphs.  A move may be repeated; the
     * solvers count distinct successors.  LOOPY_GAME_ERROR on failure. */
    size_t (*moves)(void *ctx, loopy_position pos, loopy_position *out,
                    size_t capacity);
    /* Optional (NULL: the solver that stores no moves is not available).
     * The positions from which pos is reached in one move, the same way:
     * every position q that is not over and has pos among moves(q).  It
     * may also give positions that cannot occur in play (the solver skips
     * them), so it need not test legality, but no position q without pos
     * among moves(q).  Both moves and unmoves
     * give the positions as they are; with canonical, the solvers take
     * them to their representatives, and each pair of distinct
     * representatives counts as one move. */
    size_t (*unmoves)(void *ctx, loopy_position pos, loopy_position *out,
                      size_t capacity);
    /* Optional (NULL: every index may occur).  Whether pos can occur in
     * play: which indices loopy_game_solve_retro solves with all_legal,
     * which positions loopy_game_parse accepts, and what
     * loopy_game_check asks of moves.  The solves from the start do not
     * call it: a move to a position it refuses is a flaw of the rules
     * (loopy_game_check names it), and that position is solved as any. */
    int (*legal)(void *ctx, loopy_position pos);
    /* Optional (NULL: no symmetry).  The representative of pos's class of
     * symmetric positions (equal value and remoteness); idempotent.  The
     * solvers then work on representatives only. */
    loopy_position (*canonical)(void *ctx, loopy_position pos);
    /* Optional (NULL: positions are shown as numbers).  Writes pos in the
     * game's notation to out (a NUL-terminated string of at most
     * capacity - 1 bytes) and returns its length, which may exceed
     * capacity - 1, as snprintf does; LOOPY_GAME_ERROR on failure. */
    size_t (*format)(void *ctx, loopy_position pos, char *out,
                     size_t capacity);
    /* Optional (NULL: positions are read as numbers).  Reads text in the
     * game's notation into *pos; 0 on success, otherwise nonzero after
     * writing a short reason to why[0 .. why_capacity). */
    int (*parse)(void *ctx, const char *text, loopy_position *pos, char *why,
                 size_t why_capacity);
    /* Optional.  Releases ctx when the game is closed. */
    void (*release)(void *ctx);
    /* Optional (NULL: moves() then canonical() of each; used only with
     * canonical, when the solve uses symmetry).  The representatives of
     * the positions reachable from pos in one move, as moves() gives them
     * (repeats allowed): for a game that finds the representative of a
     * move more cheaply while it makes the move than canonical() does
     * afterwards.  The solver that stores no moves still checks that every
     * position it reaches is its own canonical(), and `loopy game check`
     * checks these lists against moves() and canonical(); lists that
     * differ from them otherwise give wrong values. */
    size_t (*canonical_moves)(void *ctx, loopy_position pos,
                              loopy_position *out, size_t capacity);
    /* Optional, the same for unmoves(): the representatives of the
     * positions from which pos is reached in one move. */
    size_t (*canonical_unmoves)(void *ctx, loopy_position pos,
                                loopy_position *out, size_t capacity);

    /* Version 2. */
    /* Optional (NULL: a move is shown as the position it leads to).  For
     * the position written as from (in the game's notation, as parse()
     * reads it) and to, one of moves() of that position: the move's name
     * in the game's notation ("Qb7+" in chess) to name, and, when after is
     * not NULL, the position after the move to after, written the way
     * from is (for a game whose index holds one position of each class of
     * symmetric ones, the board kept as from has it, not taken to the
     * class's representative); each NUL-terminated, cut to its capacity,
     * as format() writes.  Returns the name's length; LOOPY_GAME_ERROR
     * when from is not a position or to is not one of its moves. */
    size_t (*move_format)(void *ctx, const char *from, loopy_position to,
                          char *name, size_t name_capacity, char *after,
                          size_t after_capacity);
    /* Optional (NULL: none).  A few words the game says of a value, which
     * `loopy game probe` shows after it ("mate in 16" in chess for a Win
     * of remoteness 31), written to out as format() does; its length, 0
     * for none. */
    size_t (*value_note)(void *ctx, loopy_outcome outcome,
                         uint32_t remoteness, char *out, size_t capacity);

    /* Version 3: how a person at the board names, types and sees moves
     * (`loopy game play`). */
    /* Optional (NULL: a move is read by the name move_format() gives it).
     * Reads text, a move from the position written as from in one of the
     * game's own ways of writing moves (chess: SAN "Rh8+" or UCI "h2h8";
     * Connect Four: the column "4"; m,n,k: the cell "b2"), into *to as
     * moves() of that position gives it: 0, or nonzero after writing a
     * short reason to why[0 .. why_capacity) ("no move b2: the cell is
     * taken"). */
    int (*move_parse)(void *ctx, const char *from, const char *text,
                      loopy_position *to, char *why, size_t why_capacity);
    /* Optional (NULL: moves have no labels or numbers).  For the position
     * written as from and to, one of its moves(): the move's short label,
     * as move_parse() reads it ("4": Connect Four's column; "b2": a cell;
     * chess: UCI, "h2h8") to label, written as format() writes, and in
     * *number a number that names the same move in every position (the
     * column; the cell, 1 to M*N across the rows from the top left), or 0
     * when the game has none (chess).  Returns the label's length;
     * LOOPY_GAME_ERROR when from is not a position or to not one of its
     * moves. */
    size_t (*move_label)(void *ctx, const char *from, loopy_position to,
                         uint32_t *number, char *label, size_t label_capacity);
    /* Optional (NULL: a position is shown as its text).  The board of the
     * position written as from, drawn for a terminal: lines each ended by
     * '\n', labelled with what move_parse() reads (files and ranks,
     * columns); with flags & LOOPY_DRAW_UNICODE pieces may be Unicode
     * characters (chess: U+2654..U+265F), else ASCII only.  Written as
     * format() writes; LOOPY_GAME_ERROR when from is not a position. */
    size_t (*draw)(void *ctx, const char *from, unsigned flags, char *out,
                   size_t capacity);

    /* Version 4: tiers, for loopy_game_solve_tiers. */
    /* Optional (0 or 1: one tier, the whole index space, and tier_start is
     * not called; without tier_children, no tiers at all).  The index space
     * cut into tier_count tiers, each a range of indices: tier t holds
     * tier_start(t) .. tier_start(t + 1) - 1, where tier_start(0) is 0,
     * the starts do not decrease, and tier t = tier_count - 1 runs to
     * size - 1 (tier_start is called for 0 < t < tier_count).  Connect
     * Four's tier t: the boards of t stones. */
    uint64_t tier_count;
    loopy_position (*tier_start)(void *ctx, uint64_t tier);
    /* Required with tier_count > 1.  The tiers that moves from positions
     * of tier t reach, each once, into out[0 .. capacity), where capacity
     * is tier_count (1 when it is 0); returns their number,
     * LOOPY_GAME_ERROR on failure.  The tier itself among them when moves
     * stay inside it.  The solver checks that they form no cycle and that
     * every move goes to a tier named.  Subtract's tier t: the heaps of
     * t*m .. t*m + m - 1 tokens, m the least take. */
    size_t (*tier_children)(void *ctx, uint64_t tier, uint64_t *out,
                            size_t capacity);

    /* Version 5.  Optional, with canonical (NULL: not known).  The number
     * of positions in the class of symmetric positions of pos (1 for a
     * Connect Four board that is its own mirror image, else 2): the legal
     * positions p whose canonical(p) is canonical(pos).  `loopy game
     * stats` counts the game's positions with it, each stored class by its
     * size, as published counts count them. */
    uint64_t (*class_size)(void *ctx, loopy_position pos);
    /* Version 5.  Optional (0: none known).  No position's remoteness is
     * above it (a board game: its cells, when every move fills one).  The
     * tier solver then keeps 1 byte per index instead of 2 when it is at
     * most 83, and refuses (LOOPY_EGAME) a position whose remoteness would
     * pass it. */
    uint32_t remoteness_bound;

    /* Version 6: a solver of the game's own and the tables of its
     * sub-games, as a tablebase generator has them (chess,
     * lib/games/chess_solve.c).  The generic layer knows a game's solver
     * by these alone, never by the game's name. */
    /* Optional (NULL: none).  Solves every legal position, as
     * loopy_game_solve_tablebase describes; called by it with game, options
     * and out not NULL, *out set to NULL. */
    loopy_status (*solve)(const struct loopy_game *game,
                          const struct loopy_game_solve_options *options,
                          struct loopy_game_solution **out, loopy_diag *diag);
    /* Optional (NULL: no sub-games).  Whether pos (below size) lies in a
     * sub-game that is solved and stored on its own (chess: the ending KQK
     * a capture reaches, its table KQK.ldb): nonzero after writing the
     * table's name, letters and digits, to name[0 .. capacity) and pos's
     * index in the sub-game alone to *local; 0 for the game's own part or
     * when the name does not fit. */
    int (*sub_table)(void *ctx, loopy_position pos, char *name,
                     size_t capacity, loopy_position *local);
    /* Optional, with sub_table.  The value of pos (below size, in a
     * sub-game: the stored index of a class when symmetric, else of the
     * position) from its sub-game's table in folder, checked: LOOPY_EINVAL
     * when pos lies in no sub-game; a table missing, unreadable, of
     * another game or lacking pos fails, diag naming the table and why. */
    loopy_status (*table_value)(void *ctx, loopy_position pos,
                                const char *folder, int symmetric,
                                loopy_outcome *outcome, uint32_t *remoteness,
                                loopy_diag *diag);

    /* Version 7: every move at a board, for a game whose index keeps one
     * position of each class of symmetric ones. */
    /* Optional, with move_format (NULL: each of moves() is one move at a
     * board).  Two moves at a board may lead into one class, which moves()
     * gives once (chess: from 8/6k1/8/8/8/8/4Q3/1K6 w, Ka2 and Qb5 reach
     * mirror images of one position, and move_format() names Ka2).  The
     * k-th (k >= 1) move at the position written as from into the class of
     * to, one of its moves(), besides the one move_format() names: its
     * name, its label as move_label() writes one (when label is not NULL)
     * and the board after it as move_format() writes it (when after is not
     * NULL), each as format() writes.  Returns the name's length;
     * LOOPY_GAME_ERROR when there is no k-th such move, from is not a
     * position or to is not one of its moves. */
    size_t (*move_twin)(void *ctx, const char *from, loopy_position to,
                        uint32_t k, char *name, size_t name_capacity,
                        char *label, size_t label_capacity, char *after,
                        size_t after_capacity);
} loopy_game;

/* ==== Games by rules: kinds, built in and shared objects ================= */

/* A kind of game: how to make a loopy_game from parameter text. */
typedef struct loopy_game_def {
    int version;               /* LOOPY_GAME_VERSION */
    const char *name;          /* "connect4": letters, digits, '_' and '-' */
    const char *summary;       /* one line for `loopy game list` */
    const char *params_help;   /* the parameters and their defaults */
    const char *notation_help; /* how positions are written */
    /* Fills *game for params (NULL or "": the defaults); on failure writes
     * the reason to diag (column: the place in params) and returns
     * LOOPY_EINVAL, or LOOPY_ENOMEM. */
    loopy_status (*create)(const char *params, loopy_game *game,
                           loopy_diag *diag);
    /* Version 3.  Optional (NULL: none).  The parameters of the game that
     * a position belongs to, read from the position alone (chess: the
     * material of a FEN, "KRK"), to params[0 .. capacity): 0, or nonzero
     * after writing a short reason to why[0 .. why_capacity). */
    int (*params_of)(const char *position, char *params, size_t capacity,
                     char *why, size_t why_capacity);
} loopy_game_def;

/* The name a shared object exports its definition under: a function
 * `const loopy_game_def *loopy_game_definition(void)`. */
#define LOOPY_GAME_ENTRY "loopy_game_definition"
typedef const loopy_game_def *(*loopy_game_entry_fn)(void);

/* The built-in games, i < loopy_game_builtin_count(). */
size_t loopy_game_builtin_count(void);
const loopy_game_def *loopy_game_builtin(size_t i);

/*
 * Makes a game from a specification: "NAME" or "NAME:PARAMS" for a built-in
 * game ("connect4:5x4", "mnk:4,4,3"), or the path of a shared object (any
 * specification containing '/', such as ./mygame.so, optionally followed by
 * ":PARAMS"), which is loaded with dlopen and asked for LOOPY_GAME_ENTRY.
 * The game's table is checked (version, size, start below size, required
 * callbacks).  On failure *out is NULL and diag says why.  Close with
 * loopy_game_close (which releases ctx and unloads the object).
 */
loopy_status loopy_game_open(const char *spec, loopy_game **out,
                             loopy_diag *diag);
/*
 * loopy_game_open with the game and its parameters as two values, never
 * joined and parsed again: object is a built-in name, or a path (one with
 * a '/') to a shared object; params (NULL or "": none) go to the game's
 * create() as they are, whatever they hold (a ':' or a '/' in them names
 * no file).  This is the call for parameters that come from a file, such
 * as a database's header.
 */
loopy_status loopy_game_open_params(const char *object, const char *params,
                                    loopy_game **out, loopy_diag *diag);
void loopy_game_close(loopy_game *game);

/* ==== Games by rules: words ============================================== */

/* Every text a game's callbacks write reaches the caller through these
 * calls, which guard it: NUL-terminated within its buffer whatever the
 * callback wrote or said of its length, and valid UTF-8 without control
 * characters (any other byte, and each control character, becomes '?'),
 * so it is safe to print on a terminal or to put in JSON.  O(capacity). */

/* Writes pos in the game's notation, or as a number, to out (capacity
 * bytes, NUL-terminated, cut if need be); returns out. */
const char *loopy_game_format(const loopy_game *game, loopy_position pos,
                              char *out, size_t capacity);
/* The name of the move from the position written as from (the text the
 * caller read it from; NULL: none) to to, one of its moves, into name, and
 * the position after it, written as from is, into after (NULL: not
 * wanted): the game's move_format() where it has one and it gives a name,
 * else to in the game's notation for both.  Returns name. */
const char *loopy_game_move_name(const loopy_game *game, const char *from,
                                 loopy_position to, char *name,
                                 size_t name_capacity, char *after,
                                 size_t after_capacity);
/* The k-th (k >= 1) move from the position written as from into the class
 * of to, one of its moves, besides the one loopy_game_move_name names (the
 * game's move_twin(): chess, Qb5 beside Ka2 from 8/6k1/8/8/8/8/4Q3/1K6 w):
 * its name, its label (label NULL: not wanted) and the position after it,
 * written as from is (after NULL: not wanted).  Returns the name's length;
 * 0, with the texts empty, when there is none: when the game has no
 * move_twin(), names no k-th, or k is past LOOPY_GAME_TWINS_MAX (a guard
 * against a game that never says it has no more). */
#define LOOPY_GAME_TWINS_MAX 255u
size_t loopy_game_move_twin(const loopy_game *game, const char *from,
                            loopy_position to, uint32_t k, char *name,
                            size_t name_capacity, char *label,
                            size_t label_capacity, char *after,
                            size_t after_capacity);
/* The game's few words on a value ("mate in 16") into out; their length,
 * 0 (and out empty) when the game has none. */
size_t loopy_game_value_note(const loopy_game *game, loopy_outcome outcome,
                             uint32_t remoteness, char *out, size_t capacity);
/* The label of the move from the position written as from (NULL: none)
 * to to, one of its moves, into label (move_label(); without one, or when
 * it fails, the move's name as loopy_game_move_name gives it), and its
 * number into *number (NULL: not wanted; 0 when the game numbers no
 * moves).  Returns label. */
const char *loopy_game_move_label(const loopy_game *game, const char *from,
                                  loopy_position to, uint32_t *number,
                                  char *label, size_t capacity);
/* Reads text, a move from the position written as from, into *to (as
 * moves() gives it): the game's move_parse() when it has one; else, and
 * when that fails, a move whose name (loopy_game_move_name, a final '+'
 * or '#' optional) or label is text, or those of its twins
 * (loopy_game_move_twin).  LOOPY_EPARSE with diag saying why
 * (the game's reason when it gave one), LOOPY_EINVAL when from is not a
 * position, LOOPY_EGAME when moves() fails, LOOPY_ENOMEM.  Time: O(d)
 * names for d moves. */
loopy_status loopy_game_move_parse(const loopy_game *game, const char *from,
                                   const char *text, loopy_position *to,
                                   loopy_diag *diag);
/* The board of the position written as from, drawn by the game's draw()
 * with flags (LOOPY_DRAW_UNICODE), into out: lines ended by '\n', valid
 * UTF-8 without other control characters.  Returns its length; 0 (out
 * empty) when the game draws nothing. */
size_t loopy_game_draw(const loopy_game *game, const char *from,
                       unsigned flags, char *out, size_t capacity);
/* The parameters of the built-in game name that position belongs to,
 * from the position alone (the game's params_of(): chess, "KRK" from a
 * FEN), into params.  LOOPY_OK; LOOPY_EPARSE with diag saying why;
 * LOOPY_EINVAL for a name that is not a built-in game or a game without
 * params_of().  O(length of position). */
loopy_status loopy_game_params_of(const char *name, const char *position,
                                  char *params, size_t capacity,
                                  loopy_diag *diag);
/* The length of the character text starts with when it is valid UTF-8
 * and no control character (1 to 4 bytes), else 0 (also at the NUL): how
 * a writer of JSON or a terminal tells what it may pass on as it is. */
size_t loopy_text_char(const char *text);
/* Reads a position in the game's notation (a number when the game has no
 * parse); LOOPY_EPARSE with diag on failure, also for a position outside
 * 0 .. size-1 or one that legal() refuses. */
loopy_status loopy_game_parse(const loopy_game *game, const char *text,
                              loopy_position *pos, loopy_diag *diag);

/* ==== Games by rules: solving ============================================ */

typedef struct loopy_game_solve_options {
    /* Nonzero: every primitive win and loss swaps, and a position without
     * moves is won (misere play). */
    int misere;
    /* Threads; 0: as many as OpenMP offers.  Results do not depend on it. */
    int threads;
    /* Nonzero: ignore the game's canonical (solve every position). */
    int no_symmetry;
    /* Optional progress reports; NULL: none. */
    loopy_progress_fn progress;
    void *progress_ctx;
    /* Tuning, for loopy_game_solve_retro: positions with at least this many
     * moves keep no count and are recounted each time one of their moves
     * becomes a Win; 0: the default, 2^30 - 1.  Tests set 1 or 2 to run
     * that path on small games. */
    uint32_t counter_limit;
    /* 0: solve the positions reachable from the start (both solvers).
     * Nonzero, loopy_game_solve_retro only: solve every index that legal()
     * accepts (every index without legal), reached or not, as a database
     * of all positions of a kind (a chess ending) needs. */
    int all_legal;
    /* loopy_game_solve_tablebase only: a folder of databases of the
     * game's sub-games (chess: folder/KQKP.ldb, as 'loopy game solve
     * chess:KQKP -o' writes it, for the ending KQKP that a capture or a
     * promotion reaches), each read instead of solved; a file there that
     * cannot be read or holds another game fails the solve.  NULL: none
     * (so too in misere play, which the files do not hold). */
    const char *tables;
    /* With tables, nonzero: the tables are built as a tablebase generator
     * builds them.  Each sub-ending that has no database in the folder is
     * solved, smallest first, and written there (folder/KQKP.ldb holding
     * the ending KQKP alone: its own sub-endings are in the folder), and
     * so is the game's own ending when it has none.  Only the ending
     * being solved and those its moves reach are in memory, and the
     * solution holds the game's own ending alone.  A build stopped at any
     * point goes on from the tables written (each one is whole or not
     * there). */
    int build;
} loopy_game_solve_options;

#define LOOPY_GAME_SOLVE_OPTIONS_INIT {0, 0, 0, NULL, NULL, 0, 0, NULL, 0}

/* The value of every position reached from the start. */
typedef struct loopy_game_solution loopy_game_solution;

/*
 * Solves the positions reachable from game->start through a graph: they
 * are enumerated with moves() (representatives only, with canonical),
 * numbered densely in increasing order, and the graph of their distinct
 * moves is solved by loopy_solve, primitive positions becoming targets
 * (lose_at, win_at, tie_at).  Needs only the required callbacks.
 * Values as loopy_solve defines them, Ties included.  Fails with
 * LOOPY_EGAME (diag names the position) when a callback fails or gives a
 * position outside 0 .. size-1, LOOPY_ETOOBIG past 2^32 - 2 positions.
 * Time O(n + m) callbacks and O(m log n) to number them; memory about
 * 8 bytes per position for the enumeration and 30 per position plus 16 per
 * move for the graph and its solve, for n positions and m moves.
 */
loopy_status loopy_game_solve_graph(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag);

/*
 * Solves the positions reachable from the start (with options->all_legal,
 * every legal index) without storing moves: retrograde analysis over the
 * index space itself, one 32-bit word per index and nothing else, on all
 * threads (lib/rules/retro_solve.c).  The reachable positions are found by
 * rounds of moves() over the words; predecessors come from unmoves(),
 * level by level.  Needs unmoves (else LOOPY_EINVAL).  The same positions
 * and values as loopy_game_solve_graph.  Memory: 4 bytes per index (size
 * of them), which become the solution (with 8 bytes per 4096 indices for
 * loopy_game_solution_position); nothing else grows with the game.
 * Time: each round and level scans the words once; O(size * (depth +
 * levels)) plus callbacks for every move twice.  canonical() is checked to
 * be idempotent on every position solved.  LOOPY_EGAME as for
 * loopy_game_solve_graph; LOOPY_ETOOBIG past a remoteness of 2^30 - 3.
 */
loopy_status loopy_game_solve_retro(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag);

/*
 * Solves a game that gives tiers (tier_children; else LOOPY_EINVAL) tier
 * by tier (lib/rules/tier_solve.c): what the start reaches (with
 * all_legal, every legal representative) is found tier by tier, parents
 * first, with moves(); then each tier is solved in one pass over its
 * positions, children first, every position's value following from its
 * moves'.  No unmoves needed, unless a tier names itself among its
 * children (its moves may stay inside it: a chess material): such a tier
 * is reached in rounds, and solved by retrograde analysis within it, with
 * unmoves() (LOOPY_EINVAL without), 10 bytes per index of the tier more
 * while it is solved.  Tiers that form a cycle (other than a tier to
 * itself), or a move to a tier not named, are LOOPY_EGAME naming the tier
 * or position.  The same positions and values as
 * loopy_game_solve_retro.  Progress (options->progress) is told per tier,
 * phase "reach tier K/N" then "tier K/N" (K from 1 in the order the
 * tiers are done), done and total counting indices of the whole index
 * space, several times within a large tier whose moves leave it (once
 * per forward round for one whose moves may stay inside it, and once
 * for its whole backward solve); "reached" and "solved" end
 * the two passes with done == total.  Memory: 2 bytes per index, or 1
 * when the game's remoteness_bound is at most 83 and no tier's moves stay
 * inside it, which become the
 * solution; LOOPY_ETOOBIG past a remoteness of 2^14 - 2; LOOPY_EGAME past
 * the game's remoteness_bound.
 */
loopy_status loopy_game_solve_tiers(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag);

/* Where a tier solve keeps its work on disk (loopy_game_solve_tiers_stored). */
typedef struct loopy_game_tier_store {
    /* The work file: 2 bytes (or 1, as loopy_game_solve_tiers keeps them
     * in memory) per index of the game's index space (a sparse file, its
     * blocks allocated a tier at a time), its journal, path + "-journal",
     * and its park file, path + "-parked". */
    const char *path;
    /* Nonzero: continue the solve whose work file is at path (refused when
     * it is another game's or was solved with other options); zero: start
     * one (refused when a work file is there). */
    int resume;
    /* Bytes of records that may be in memory at once; 0: no limit.  A
     * solve whose tiers need more is refused before it starts. */
    uint64_t memory_limit;
} loopy_game_tier_store;

/*
 * loopy_game_solve_tiers with its records in a work file on disk, mapped:
 * a tier's records are in memory while it or a tier whose moves reach it
 * is solved, then dropped (the file keeps them, and gives them back when
 * they are read again).  Each tier, once solved, is written to the disk
 * and recorded in the journal, so that a solve killed at any moment
 * (kill -9, a power cut) continues, with resume, from its last finished
 * tier, and ends with the same solution; a finished tier whose records do
 * not match the journal is refused (LOOPY_EFORMAT).  The solution holds
 * the mapping, and the journal open with its lock, so that no other solve
 * takes the work file before the solution is freed; the work file and its
 * journal stay on disk (the caller removes them once the solution is
 * saved, before it frees the solution).  While it solves, the tiers not
 * at work are parked, compressed, in path + "-parked"; the solution's
 * mapping needs them all back in the work file at the end, which
 * loopy_game_solve_tiers_saved avoids.  LOOPY_EIO, LOOPY_EINVAL (a
 * work file there, none to resume, or another solve's), LOOPY_ETOOBIG
 * (more than memory_limit), and the statuses of loopy_game_solve_tiers.
 */
loopy_status loopy_game_solve_tiers_stored(
    const loopy_game *game, const loopy_game_solve_options *options,
    const loopy_game_tier_store *store, loopy_game_solution **out,
    loopy_diag *diag);

/* The bytes of records a tier solve holds in memory at once: 2 (or 1,
 * with a remoteness_bound of at most 83) for each index of the largest
 * tier with the tiers its moves reach, and 10 for each index of that tier
 * when its moves stay inside it (all there is
 * when each tier's children are solved just before it, as in a chain of
 * tiers; a tier whose parents are solved far apart stays longer, read
 * back from the work file).  It checks the tiers as the solvers do.
 * LOOPY_EINVAL for a game without
 * tiers, LOOPY_EGAME for broken tiers. */
loopy_status loopy_game_tier_working_set(const loopy_game *game,
                                         uint64_t *bytes, loopy_diag *diag);

/*
 * Whether the game brings a solver of its own for every legal position
 * (its solve callback): the built-in chess endings do (a tablebase
 * generator); a game from a shared object may.
 */
int loopy_game_has_tablebase(const loopy_game *game);

/*
 * Solves every legal position with the game's own solver: the same
 * positions and values as loopy_game_solve_retro with all_legal, in less
 * memory and time: the game's solve callback.  For chess
 * (lib/games/chess_solve.c): 2 bytes per index, the materials solved one
 * at a time, the smallest first, a Win's undecided predecessors marked and
 * looked at once after each level instead of counted.  options->misere,
 * threads, no_symmetry and progress (a phase per material, named "KQK")
 * apply; all_legal and counter_limit are not used.  LOOPY_EINVAL (diag
 * says why) for a game without one, LOOPY_ENOMEM, LOOPY_ETOOBIG at a
 * remoteness of 2^14 - 4 or more.
 */
loopy_status loopy_game_solve_tablebase(const loopy_game *game,
                                        const loopy_game_solve_options *options,
                                        loopy_game_solution **out,
                                        loopy_diag *diag);

/* ==== Games by rules: solutions ========================================== */

void loopy_game_solution_free(loopy_game_solution *solution);

/* How many positions were solved, and how many of each outcome. */
uint64_t loopy_game_solution_size(const loopy_game_solution *solution);
uint64_t loopy_game_solution_count(const loopy_game_solution *solution,
                                   loopy_outcome outcome);
/* The i-th solved position in increasing order, i < size (UINT64_MAX
 * otherwise): O(1) for a solve through a graph, O(log(size) + 4096) for
 * one without stored moves. */
loopy_position loopy_game_solution_position(const loopy_game_solution *s,
                                            uint64_t i);
/*
 * The value of pos (taken to its representative when the solve used
 * symmetry): LOOPY_OK with *outcome and *remoteness (LOOPY_NONE for a
 * draw), or LOOPY_EINVAL when pos was not reached from the start.
 * O(log n); thread safe.
 */
loopy_status loopy_game_solution_value(const loopy_game_solution *solution,
                                       const loopy_game *game,
                                       loopy_position pos,
                                       loopy_outcome *outcome,
                                       uint32_t *remoteness);

/*
 * The distinct moves of pos with the value each leads to (for the player
 * to move after it, the opponent), best first for the player at pos: moves
 * to an opponent's Lose (quickest first), to a Tie (quickest first), to a
 * Draw, then to an opponent's Win (slowest first); equal values in
 * increasing order of position.  *moves (count entries) is allocated with malloc and
 * freed by the caller with free.  LOOPY_EINVAL when pos was not reached.
 */
typedef struct loopy_game_move {
    loopy_position to;        /* the position after the move */
    loopy_outcome outcome;    /* its value, for the player to move there */
    uint32_t remoteness;
} loopy_game_move;

loopy_status loopy_game_solution_moves(const loopy_game_solution *solution,
                                       const loopy_game *game,
                                       loopy_position pos,
                                       loopy_game_move **moves, size_t *count,
                                       loopy_diag *diag);

/* ==== Games by rules: checking a game ==================================== */

/* Which positions loopy_game_check examines. */
typedef enum loopy_game_check_scope {
    /* EVERY when size <= limit; otherwise REACHABLE, followed, when more
     * than limit positions are reachable, by WALKS for another limit. */
    LOOPY_CHECK_AUTO = 0,
    LOOPY_CHECK_EVERY = 1,     /* every legal index, in increasing order */
    LOOPY_CHECK_REACHABLE = 2, /* reached from the start, breadth first */
    LOOPY_CHECK_SAMPLE = 3,    /* the start, then indices drawn at random */
    LOOPY_CHECK_WALKS = 4      /* along random games from the start */
} loopy_game_check_scope;

typedef struct loopy_game_check_options {
    loopy_game_check_scope scope;
    /* Positions to examine at most (each phase, for AUTO); 0: 100000.
     * SAMPLE draws at most 64 times as many indices (illegal ones are
     * skipped), WALKS takes at most 64 times as many steps. */
    uint64_t limit;
    /* The seed of SAMPLE and WALKS: the same seed, the same positions. */
    uint64_t seed;
    /* Nonzero: ignore canonical: moves and unmoves must agree exactly, as
     * the solvers need with no_symmetry. */
    int no_symmetry;
} loopy_game_check_options;

#define LOOPY_GAME_CHECK_OPTIONS_INIT {LOOPY_CHECK_AUTO, 0, 0, 0}

/*
 * What is wrong with a game's rules:
 *   CALLBACK   a callback failed, or primitive() gave no loopy_primitive
 *   RANGE      a callback gave a position outside 0 .. size-1
 *   PROTOCOL   moves(), unmoves() or format() broke the count protocol: a
 *              different count or list when called again, or a write past
 *              the room given
 *   ILLEGAL    the start, a move or an unmove is refused by legal(), or an
 *              unmove is a position where the game is over
 *   UNMOVES    moves(p) reaches q, but unmoves(q) does not give p
 *   MOVES      unmoves(q) gives p, but moves(p) does not reach q
 *   CANONICAL  canonical() is not idempotent or leaves the index space, or
 *              legal() or primitive() differ on the representative
 *   SYMMETRY   a position and its representative have moves (or unmoves)
 *              of different classes: the symmetry is not one
 *   NOTATION   parse() does not read back what format() wrote
 */
#define LOOPY_GAME_FLAW_MAP(X)                                                 \
    X(NONE, "none")                                                            \
    X(CALLBACK, "callback")                                                    \
    X(RANGE, "range")                                                          \
    X(PROTOCOL, "protocol")                                                    \
    X(ILLEGAL, "illegal")                                                      \
    X(UNMOVES, "unmoves")                                                      \
    X(MOVES, "moves")                                                          \
    X(CANONICAL, "canonical")                                                  \
    X(SYMMETRY, "symmetry")                                                    \
    X(NOTATION, "notation")                                                    \
    X(TIERS, "tiers")

typedef enum loopy_game_flaw {
#define LOOPY_GAME_FLAW_ENUM_(name, word) LOOPY_FLAW_##name,
    LOOPY_GAME_FLAW_MAP(LOOPY_GAME_FLAW_ENUM_)
#undef LOOPY_GAME_FLAW_ENUM_
} loopy_game_flaw;

/* The flaw's word, as above ("unmoves"); "unknown" out of range. */
const char *loopy_game_flaw_name(loopy_game_flaw flaw);

typedef struct loopy_game_check_report {
    loopy_game_check_scope scope; /* the scope used (AUTO resolved) */
    uint64_t checked;   /* distinct legal positions examined */
    uint64_t reachable; /* of them, reached breadth first (REACHABLE) */
    uint64_t walked;    /* of them, first met along random games (WALKS) */
    uint64_t drawn;     /* indices looked at (EVERY, SAMPLE), legal or not */
    /* Nonzero: every position of the scope was examined: every index, or
     * every position reachable from the start. */
    int complete;
    /* The first flaw found (in the order positions are examined), and the
     * position where it shows; other is the second position involved, if
     * any (has_other). */
    loopy_game_flaw flaw;
    loopy_position position, other;
    int has_other;
    /* What is wrong, positions named by number and in the game's notation:
     * "position 17 (17): moves() reaches 18 (18) but unmoves(18) does not
     * give 17" ("" when no flaw). */
    char message[512];
} loopy_game_check_report;

/*
 * Checks a game's rules on the positions options->scope names (NULL: the
 * defaults), stopping at the first flaw; serial (one thread).  For each
 * legal position pos examined:
 *  - primitive() gives a loopy_primitive;
 *  - with canonical (unless no_symmetry), r = canonical(pos) is below size,
 *    its own representative, legal, and as over as pos;
 *  - with both format and parse, format()'s count protocol holds and
 *    parse(format(pos)) gives pos back;
 *  - unless pos is over: moves() (called with room for 0, then for its
 *    count, then for one more) gives the same count and list each time and
 *    writes nothing past the room given; every move q is below size and
 *    legal, and unmoves(q) (when the game has them) gives pos back, up to
 *    symmetry; with canonical, moves(r) reaches the same classes as
 *    moves(pos);
 *  - with unmoves, the same protocol; every unmove p is below size, legal,
 *    not over, and moves(p) reaches pos, up to symmetry; with canonical,
 *    unmoves(r) gives the same classes as unmoves(pos);
 *  - with format and move_label or move_parse (on the first 4096
 *    positions, then one in 64): each move's label and name read back
 *    by loopy_game_move_parse as that move, and no number given to two
 *    moves of a position.
 * The start must be legal.  Returns LOOPY_OK when no flaw was found;
 * LOOPY_EGAME with report->flaw and a message in diag (game name first)
 * when one was; LOOPY_EINVAL for bad arguments, LOOPY_ENOMEM.  report may
 * not be NULL.
 * Time: for each position examined, O(d) calls for its d moves and u
 * unmoves and O(d * u') for the lists of its neighbours; the sets are
 * sorted (O(d log d)).  Memory: about 40 bytes per position remembered
 * (REACHABLE, SAMPLE, WALKS: at most limit of them) plus the lists.
 */
loopy_status loopy_game_check(const loopy_game *game,
                              const loopy_game_check_options *options,
                              loopy_game_check_report *report,
                              loopy_diag *diag);

/* ==== Databases ========================================================== */
/*
 * A database (an ".ldb" file) holds the value and remoteness of every
 * position of a solved game, a game by rules or an explicit graph, so that
 * positions can be probed later without solving again.  One probe reads
 * and decompresses one block of the file.
 *
 * The file, every number little-endian: a checked header (magic bytes
 * "\x89LDB\r\n\x1a\n", format version, byte-order mark, flags (misere,
 * symmetric, sparse), the game's name and parameters, the position count,
 * the index-space size, the count of each outcome, the largest
 * remoteness, the record width, positions per block, the block count, the
 * offset of the block index, and the header's checksum); the blocks, each
 * one zstd frame; the block index (per block: offset, compressed and
 * uncompressed length, first position, checksum of the compressed bytes)
 * and its checksum.  A record takes 2 bytes when every remoteness is below
 * 2^14, else 4: the outcome (1 W, 2 L, 3 T) in its top two bits and the
 * remoteness below them; a Draw is 1, an absent position 0.  Dense mode
 * (the solved positions are at least a quarter of the range they span,
 * as for graphs): a block holds a record for every index of its range.
 * Sparse mode (a game whose index space is mostly unreached): a block
 * holds its positions, as gaps, after their records, and the index's first
 * positions find the block by binary search.  lib/db/db_internal.h has the
 * byte layout.
 *
 * Loading checks everything before use: the header's checksum and fields,
 * every size and offset exactly against the file's length, the index (its
 * checksum, blocks back to back, first positions increasing); a block's
 * checksum, its zstd frame (one, of the length the index gives) and its
 * records and positions when it is read.  A damaged or foreign file gives
 * LOOPY_EFORMAT and a message naming the problem ("damaged loopy
 * database: bad checksum of block 3").  Checksums guard against accidents,
 * not forgery: no memory access depends on them.
 */
typedef struct loopy_db loopy_db;

/*
 * Writes the database of a game's solution through write (the caller
 * makes the file atomic: temporary name, then rename).  misere is
 * recorded (the solution's play), and whether s holds representatives of
 * symmetric positions.  LOOPY_EINVAL for a game loopy_db_check_writable
 * refuses; LOOPY_ETOOBIG for a remoteness of 2^30 or more; LOOPY_EIO when
 * write fails.  Blocks are compressed on all threads; the bytes do not
 * depend on their number.  Time O(n) plus zstd's (level 9); memory: the
 * compressed file, plus about 1 MiB per thread.
 */
loopy_status loopy_db_write_game(const loopy_game_solution *s,
                                 const loopy_game *game, int misere,
                                 loopy_write_fn write, void *ctx);

/* Receives bytes to be written at offset in the file (as pwrite does);
 * returns 0 on success, nonzero to stop the writer with LOOPY_EIO. */
typedef int (*loopy_write_at_fn)(void *ctx, const void *bytes, size_t len,
                                 uint64_t offset);

/*
 * The same database, the same bytes, written at offsets, for a file that
 * can be written so (a regular file): the blocks in order from the
 * header's end, then the block index, and last the header at offset 0.
 * Memory: a window of compressed blocks (about 64 MiB of records) rather
 * than the compressed file, plus about 1 MiB per thread.  Errors as
 * loopy_db_write_game; on an error the file holds no header.
 */
loopy_status loopy_db_write_game_at(const loopy_game_solution *s,
                                    const loopy_game *game, int misere,
                                    loopy_write_at_fn write_at, void *ctx);

/* What loopy_game_solve_tiers_saved says of the solve: the positions
 * solved (reached from the start, or every legal index), by outcome
 * (indexed by loopy_outcome), and the start's value (remoteness
 * LOOPY_NONE for a Draw). */
typedef struct loopy_game_solve_summary {
    uint64_t positions;
    uint64_t count[4];
    loopy_outcome start_outcome;
    uint32_t start_remoteness;
} loopy_game_solve_summary;

/*
 * loopy_game_solve_tiers_stored, and the database of its solution (the
 * bytes loopy_db_write_game_at writes) written through write_at, without
 * the work file ever holding more than the tiers at work: a tier no tier
 * still to solve reads is parked, compressed, in the park file
 * (store->path + "-parked"), and its blocks in the work file given back to
 * the file system; the reach marks of the tiers not yet solved wait there
 * too.  The database is then written from the park file a tier at a time.
 * So the disk holds the tiers at work, uncompressed, and the others
 * compressed, not every index's record, and memory the largest tier with
 * its children, as for loopy_game_solve_tiers_stored.  A solve killed at
 * any moment continues with resume, as there; a park file that is not
 * what its journal recorded is refused (LOOPY_EFORMAT).  The work file,
 * its journal and the park file stay on disk for the caller to remove
 * once the database is saved.  summary may be NULL.  Errors as
 * loopy_game_solve_tiers_stored and loopy_db_write_game_at.
 */
loopy_status loopy_game_solve_tiers_saved(
    const loopy_game *game, const loopy_game_solve_options *options,
    const loopy_game_tier_store *store, loopy_write_at_fn write_at, void *ctx,
    loopy_game_solve_summary *summary, loopy_diag *diag);

/* Whether a database can record game's name and parameters: a name of 1
 * to 64 letters, digits, '_' and '-' (a shared object may give any name),
 * parameters of at most 255 printable ASCII characters.  LOOPY_OK, or
 * LOOPY_EINVAL with diag saying what is wrong.  O(1): call it before a
 * long solve whose database is wanted. */
loopy_status loopy_db_check_writable(const loopy_game *game, loopy_diag *diag);

/* The same for a graph's solution: the game is named "graph", positions
 * are the vertex ids 0..n-1, and base (0 or 1) is recorded so that tools
 * print ids as the graph's text numbered them. */
loopy_status loopy_db_write_graph(const loopy_solution *s, uint32_t base,
                                  int misere, loopy_write_fn write, void *ctx);

/*
 * Opens the database in the file path (a regular file: it is read at
 * random, with pread, never mapped or read whole), reading and checking
 * its header and block index.  On failure *out is NULL and diag says why:
 * LOOPY_EIO (cannot open or read it), LOOPY_EFORMAT (not a database, or a
 * damaged one), LOOPY_ENOMEM.  The file must not change while it is open.
 * Time O(B) for B blocks; memory 32 bytes per block, plus per thread that
 * probes a scratch that keeps the last 9 blocks it decoded (about 100 KiB
 * to 1 MiB with zstd's context), so that probes near each other in the
 * file decompress a block once.
 */
loopy_status loopy_db_open(const char *path, loopy_db **out, loopy_diag *diag);

/* The same for a database in memory, bytes[0 .. len), which must stay
 * valid and unchanged until loopy_db_close. */
loopy_status loopy_db_open_memory(const void *bytes, size_t len,
                                  loopy_db **out, loopy_diag *diag);

/* Closes a database; NULL is allowed. */
void loopy_db_close(loopy_db *db);

/* What the header says, O(1): the game's name ("graph" for a graph) and
 * parameter text, whether it was solved in misere play, whether positions
 * are the representatives of classes of symmetric positions, whether the
 * blocks are sparse, the base of a graph's vertex numbers (0 for a game),
 * the number of positions, the index-space size (positions are below it),
 * the count of an outcome, the largest remoteness of a W, L or T, the
 * record width in bytes (2 or 4), positions per block and blocks. */
const char *loopy_db_game_name(const loopy_db *db);
const char *loopy_db_game_params(const loopy_db *db);
int loopy_db_misere(const loopy_db *db);
int loopy_db_symmetric(const loopy_db *db);
int loopy_db_sparse(const loopy_db *db);
uint32_t loopy_db_base(const loopy_db *db);
uint64_t loopy_db_size(const loopy_db *db);
uint64_t loopy_db_index_size(const loopy_db *db);
uint64_t loopy_db_count(const loopy_db *db, loopy_outcome outcome);
uint32_t loopy_db_max_remoteness(const loopy_db *db);
unsigned loopy_db_record_width(const loopy_db *db);
uint32_t loopy_db_block_positions(const loopy_db *db);
uint64_t loopy_db_block_count(const loopy_db *db);

/*
 * The value of the stored position pos: LOOPY_OK with *outcome and
 * *remoteness (LOOPY_NONE for a Draw); LOOPY_EINVAL when pos is not in the
 * database (not reached, not legal, or, with symmetry, not a
 * representative: see loopy_db_value); LOOPY_EFORMAT when its block is
 * damaged (loopy_db_iterate names the problem); LOOPY_EIO when the file
 * cannot be read; LOOPY_ENOMEM.  Reads and decompresses at most one block
 * (none when the thread's scratch holds it from the previous probe).
 * Thread safe: any number of threads may probe one database at once.
 * Time O(K) for K positions per block (8192 in the files loopy writes:
 * some 50-80 microseconds) plus O(log B) to find a sparse block; memory:
 * the scratch.
 */
loopy_status loopy_db_probe(const loopy_db *db, loopy_position pos,
                            loopy_outcome *outcome, uint32_t *remoteness);

/* Receives one position of a database; nonzero stops the iteration. */
typedef int (*loopy_db_visit_fn)(void *ctx, loopy_position pos,
                                 loopy_outcome outcome, uint32_t remoteness);

/*
 * Calls visit (which may be NULL: then this only checks) for every
 * position in increasing order, reading the blocks one by one, and checks
 * at the end that the blocks hold the header's counts and largest
 * remoteness.  LOOPY_OK, also when visit stopped it; LOOPY_EFORMAT with
 * diag naming the problem for a damaged block or header; LOOPY_EIO,
 * LOOPY_ENOMEM.  Thread safe.  Time O(n + file size); memory: a scratch.
 */
loopy_status loopy_db_iterate(const loopy_db *db, loopy_db_visit_fn visit,
                              void *ctx, loopy_diag *diag);

/* The positions of each value at one remoteness (loopy_db_stats). */
typedef struct loopy_db_stats_row {
    uint32_t remoteness;
    /* count[outcome]: positions of that value (W, L or T) at this
     * remoteness; count[LOOPY_DRAW] is 0 (a Draw has no remoteness). */
    uint64_t count[4];
} loopy_db_stats_row;

/* What a database holds, counted (`loopy game stats`). */
typedef struct loopy_db_stats {
    uint64_t count[4];        /* positions of each value (loopy_outcome) */
    /* One row per remoteness at which some W, L or T stands, in
     * increasing remoteness: as many rows as remotenesses present, however
     * large they are (one position at remoteness 2^30 - 1 is one row).
     * row_count is 0 and rows NULL when every position is a Draw.  Owned
     * by the struct: loopy_db_stats_release frees it. */
    uint32_t row_count;
    loopy_db_stats_row *rows;
    /* For W, L and T: the largest remoteness of that value (LOOPY_NONE
     * when no position has it), and the smallest position there. */
    uint32_t longest_remoteness[4];
    loopy_position longest[4];
} loopy_db_stats;

/*
 * Counts the positions of db by value and remoteness, and finds the
 * longest win, loss and tie, in one loopy_db_iterate (which checks every
 * block: errors as it gives them).  On failure *stats holds nothing to
 * free.  Time O(n + file size + R log R) for R remotenesses present;
 * memory O(R), a few hundred bytes per remoteness present at most plus
 * 128 KiB, whatever the largest remoteness; plus a scratch.
 */
loopy_status loopy_db_stats_compute(const loopy_db *db, loopy_db_stats *stats,
                                    loopy_diag *diag);
/* Frees stats->rows and empties *stats; NULL is allowed. */
void loopy_db_stats_release(loopy_db_stats *stats);

/*
 * Whether game is the database's: the same name and parameters
 * (LOOPY_EINVAL otherwise), the same index-space size and, when the
 * database holds representatives, a canonical() (LOOPY_EGAME otherwise:
 * the rules changed).  diag says what differs.  O(1).
 */
loopy_status loopy_db_check_game(const loopy_db *db, const loopy_game *game,
                                 loopy_diag *diag);

/* Opens the game named in the header (loopy_game_open of "NAME:PARAMS",
 * so a built-in game; open a shared object yourself and call
 * loopy_db_check_game) and checks it as loopy_db_check_game does.  Close
 * it with loopy_game_close. */
loopy_status loopy_db_open_game(const loopy_db *db, loopy_game **out,
                                loopy_diag *diag);

/* loopy_db_probe of pos of game, taken to its representative when the
 * database holds representatives. */
loopy_status loopy_db_value(const loopy_db *db, const loopy_game *game,
                            loopy_position pos, loopy_outcome *outcome,
                            uint32_t *remoteness);

/*
 * Where loopy_db_value and loopy_db_moves look for a position that db
 * lacks: folder, the tables of the game's sub-games.  For chess, a
 * position of the ending KQKP is looked up in folder/KQKP.ldb, as
 * 'loopy game solve --tables DIR --build' writes them (each ending
 * alone); the table must be chess:KQKP's, in normal play, one position
 * per class.  NULL: none, the default.  Not while other threads use db.
 * LOOPY_ENOMEM.
 */
loopy_status loopy_db_use_tables(loopy_db *db, const char *folder);

/*
 * The distinct moves of pos with the values they lead to, best first, as
 * loopy_game_solution_moves gives them, from the database: *moves (count
 * entries) is allocated with malloc and freed by the caller with free.
 * LOOPY_EINVAL when pos is not in the database (nor in its tables,
 * loopy_db_use_tables), LOOPY_EGAME when a move leads outside them (the
 * rules changed) or moves() fails, LOOPY_EFORMAT for a damaged block or
 * table, LOOPY_EIO for a table that cannot be read; diag says which.  Thread safe.  Time: one probe
 * per move, reading each block once.
 */
loopy_status loopy_db_moves(const loopy_db *db, const loopy_game *game,
                            loopy_position pos, loopy_game_move **moves,
                            size_t *count, loopy_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* LOOPY_GAME_H */
