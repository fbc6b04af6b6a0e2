/*
 * cli.h - shared pieces of the command-line tool: exit statuses, option
 * parsing, messages and buffered output.  The tool uses only the public
 * headers of the library, loopy.h and loopy_game.h.
 */
#ifndef LOOPY_CLI_H
#define LOOPY_CLI_H

#include "loopy.h"
#include "loopy_game.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/* Exit statuses, documented in --help and in the man page. */
enum {
    EXIT_OK = 0,
    EXIT_INPUT = 1,    /* the input was rejected: malformed or out of range */
    EXIT_USAGE = 2,    /* bad command line */
    EXIT_IO = 3,       /* a file could not be opened, read or written */
    EXIT_RESOURCE = 4  /* too large for memory or for 32-bit vertex ids */
};

/* The exit status for a library status. */
int cli_exit_status(loopy_status status);

/* The program's name in messages: "loopy", or "loopy-mpi" (mpi/). */
extern const char *cli_program;

/* Prints "loopy CMD: message" to standard error ("loopy: message" for a
 * NULL cmd: the top level). */
void cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints a reader failure as "loopy CMD: NAME:LINE:COLUMN: message" and
 * returns the exit status for it. */
int cli_report(const char *cmd, const char *name, loopy_status status,
               const loopy_diag *diag);

/* qsort's comparison of two uint32_t (vertex ids, Grundy values). */
int cli_compare_u32(const void *a, const void *b);

/* Threads for a CLI loop: `requested`, or all cores when 0, but no more
 * than `most` (at least 1) nor CLI_MAX_THREADS; 1 in a serial build. */
#define CLI_MAX_THREADS 64
int cli_threads(int requested, uint64_t most);

/* Prints text (a --help or --version text) to standard output and flushes
 * it; returns EXIT_OK, or EXIT_IO after printing "loopy CMD: standard
 * output: write failed: REASON" (cmd NULL: the top level, "loopy: ...")
 * when it could not be written: a full disk, a closed standard output. */
int cli_print_text(const char *cmd, const char *text);

/* Parses a --threads value, 0 (all cores) to 1024, into *threads, capped at
 * the processors online: more threads than those only multiply per-thread
 * buffers.  Returns false after printing a message. */
bool cli_parse_threads(const char *cmd, const char *text, int *threads);

/* Whether writing output would leave input readable: false, after printing
 * a message, when both name the same existing file, or when input is NULL
 * or "-" (standard input) and standard input is redirected from the output
 * file ("loopy solve -o s.txt < s.txt"). */
bool cli_output_distinct(const char *cmd, const char *output,
                         const char *input);

/* The length of the object in a game's spec as loopy_game_open reads it:
 * "PATH:PARAMS" and "NAME:PARAMS" have their PARAMS after the last ':' past
 * the last '/'. */
size_t cli_game_object_len(const char *spec);

/* Prints cmd's message why spec names no game, what ("--game: ") before
 * it: a built-in name near it ("tictacto": did you mean tictactoe?), or a
 * file there that is a shared object named without a '/' ("ladder.so":
 * did you mean ./ladder.so?), or a loopy database not named FILE.ldb.
 * False, printing nothing, when none is (the library's message then says
 * it). */
bool cli_unknown_game(const char *cmd, const char *what, const char *spec);

/* cli_output_distinct for what a game's spec reads: the file spec names (a
 * database), and the shared object of "PATH:PARAMS". */
bool cli_output_not_game(const char *cmd, const char *output,
                         const char *spec);

/* ---- Options (cli/options.c) ----
 * One option parser for every command, driven by the command's table:
 * "--name value", "--name=value", "-x value", "-xVALUE", and short flags
 * grouped ("-qf json", "-qt2": flags, then at most one option with a value,
 * which takes the rest of the group or the next argument).  Arguments that
 * are not options are collected in order; "--" ends the options.  Every
 * command also takes -h/--help (prints its usage) and -V/--version, after
 * its own table.  An unknown option is answered with the nearest long one
 * ("did you mean --misere?"), and an empty --output value is refused. */
typedef struct cli_option {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 when none */
    bool has_value;
    int id;           /* returned by cli_next; >= 0 */
} cli_option;

typedef struct cli_parser {
    const char *cmd;
    const char *usage;      /* --help prints it, */
    const char *usage_more; /* then this when not NULL (set after init), */
    const char *usage_end;  /* then this when not NULL (set after init) */
    int argc;
    char **argv;
    int index;
    bool only_operands;      /* after "--" */
    const char *cluster;     /* the short flags left of a group, or NULL */
    const char *cluster_arg; /* the group's argument */
    const char *value;       /* of the last option with a value */
    int status;              /* after CLI_EXIT: EXIT_OK or EXIT_IO */
} cli_parser;

#define CLI_OPERAND (-1)
#define CLI_END (-2)
#define CLI_ERROR (-3)
#define CLI_EXIT (-4)

void cli_parser_init(cli_parser *p, const char *cmd, const char *usage,
                     int argc, char **argv);
/* The next option's id, CLI_OPERAND (p->value is the operand), CLI_END,
 * CLI_ERROR after printing a message, or CLI_EXIT after --help or
 * --version was answered: the command ends with p->status. */
int cli_next(cli_parser *p, const cli_option *options);

/* The name of names[0..count) nearest to word[0..len) by edit distance, if
 * near enough to be what was meant (a third of its letters wrong at most),
 * or the only name word begins; NULL when none is. */
const char *cli_nearest(const char *word, size_t len,
                        const char *const *names, size_t count);

/* Starts the OpenMP runtime (at the start of a command, while the
 * process is small; see cli/main.c). */
void cli_start_threads(void);

/* Limits the threads of the library's calls without a threads option (the
 * readers of race, sleepy and climb, the Grundy values) to threads when
 * positive; 0 leaves all cores. */
void cli_use_threads(int threads);

/* Parses a whole decimal number in [min, max]; prints a message naming the
 * option and returns false on failure. */
bool cli_parse_uint(const char *cmd, const char *option, const char *text,
                    uint64_t min, uint64_t max, uint64_t *value);

/* Reads a size in bytes, "6G", "500M", "4096" (K, M, G, T: powers of
 * 1024, optionally followed by "iB" or "B"), at least 1; prints the reason
 * and returns false when text is not one. */
bool cli_parse_bytes(const char *cmd, const char *option, const char *text,
                     uint64_t *value);

/* Appends the comma-separated numbers of text to a growing array. */
bool cli_parse_list(const char *cmd, const char *option, const char *text,
                    uint64_t **items, size_t *count);

/* ---- Output ----
 * A buffered writer with fast integer formatting.  A file is written under a
 * temporary name in its directory (".loopy-XXXXXX") and renamed over the
 * real name on cli_out_close, so a failed or interrupted run never leaves a
 * partial file.  So the folder must be writable, and an existing file must
 * be writable by the user too (refused otherwise, as the shell's "> file"
 * does, although the rename would not need it).  A replaced file keeps its
 * permissions, and its owner and group where the process may set them; it
 * is a new file (a new inode), so other hard links to the old one keep the
 * old content.  A symbolic link is followed (the file it names is replaced,
 * the link stays); an existing device, FIFO or socket (/dev/null,
 * /dev/stdout) is written directly, since renaming over it would replace
 * it. */
typedef struct cli_out {
    FILE *file;
    char *tmp_path;   /* NULL for standard output or a direct write */
    const char *path; /* the real name, as given */
    char *resolved;   /* the file a symbolic link names, or NULL */
    bool direct;      /* writing to path itself: not a regular file */
    char buf[1 << 16];
    size_t len;
    bool failed;
    int error;        /* errno of a failed cli_out_write_at, or 0 */
} cli_out;

/* Whether path may name an output file: false, after printing "loopy CMD:
 * -o: the output file name is empty", when it is "".  For the commands'
 * -o, where it is parsed (a bad command line); cli_out_open checks too. */
bool cli_out_name_ok(const char *cmd, const char *path);
/* Whether path is there (a dangling symbolic link too). */
bool cli_exists(const char *path);
/* The standard stream (stdout, else stderr) that already writes to the
 * file st describes (as -o /dev/stdout or /proc/self/fd/2 name it), or
 * NULL: cli_out writes to such a file through that stream. */
FILE *cli_standard_stream_on(const struct stat *st);
/* Opens path, or standard output when path is NULL or "-".  What can be
 * checked before writing (the name, the folder, the file's permission) is
 * checked here, so a command that opens its output first fails before its
 * work. */
bool cli_out_open(cli_out *out, const char *cmd, const char *path);
void cli_out_bytes(cli_out *out, const char *s, size_t len);
void cli_out_str(cli_out *out, const char *s);
void cli_out_char(cli_out *out, char c);
void cli_out_u64(cli_out *out, uint64_t value);
/* Room for at least `len` (<= 4096) bytes at the returned pointer; after
 * writing `used` of them there, call cli_out_commit.  For hot loops. */
char *cli_out_reserve(cli_out *out, size_t len);
void cli_out_commit(cli_out *out, size_t used);
/* Writes value in decimal at p; returns the end.  p needs 20 bytes. */
char *cli_format_u64(char *p, uint64_t value);
/* Flushes; commits the file (rename) when all writes succeeded, removes the
 * temporary file otherwise.  Returns false after printing a message. */
bool cli_out_close(cli_out *out, const char *cmd);
/* Abandons the output: removes the temporary file, writes nothing more. */
void cli_out_abort(cli_out *out);
/* Whether out is a temporary file still empty, which may be written at
 * offsets (cli_out_write_at) instead of in order. */
bool cli_out_positional(const cli_out *out);
/* A loopy_write_at_fn onto such a cli_out (ctx); nonzero once a write
 * failed. */
int cli_out_write_at(void *ctx, const void *bytes, size_t len, uint64_t offset);
/* Opens out onto a stream the caller opened and closes (a temporary
 * file), called name in messages; cli_out_close flushes it only. */
void cli_out_open_stream(cli_out *out, FILE *file, const char *name);
/* Removes the temporary file of the output being written, if any; safe in
 * a signal handler. */
void cli_out_remove_pending(void);

/* ---- Progress ----
 * A one-line progress display on standard error for the library's progress
 * callback: silent unless standard error is a terminal and the run has
 * taken more than a second. */
typedef struct cli_progress {
    const char *cmd;
    double start;   /* seconds, monotonic */
    bool shown;     /* a line is on the screen */
    bool enabled;
    /* The rate: done at rate_since, for the total rate_total. */
    double rate_since;
    uint64_t rate_done, rate_total;
    /* Phases whose label begins "tier " said as a line each when they
     * end (log_tiers, on a terminal or not): the phase at work, since
     * when, from which done. */
    bool log_tiers;
    char phase[64];
    double phase_since;
    uint64_t phase_done;
} cli_progress;

/* Starts p (once) and points *fn / *ctx at it.  The line shows the phase,
 * the part done, the positions per second and the time left (from the
 * rate since the total last changed). */
void cli_progress_attach(cli_progress *p, const char *cmd,
                         loopy_progress_fn *fn, void **ctx);
/* Clears the line, if one was shown. */
void cli_progress_end(cli_progress *p);


/* ---- Game graphs (cli/graph_input.c) ---- */
enum { CLI_GRAPH_INPUT, CLI_GRAPH_BASE };
/* Applies --input (CLI_GRAPH_INPUT) or --base (CLI_GRAPH_BASE) to read;
 * prints a message and returns false on a bad value. */
bool cli_graph_option(const char *cmd, int which, const char *value,
                      loopy_read_options *read);
/* read->base while no --base was given: text is then numbered from 1, and
 * a binary file as the text it was made from. */
#define CLI_BASE_UNSET UINT32_MAX
/* Reads a graph from path (standard input for NULL or "-"); returns
 * EXIT_OK, or the exit status after printing the reader's message.  A
 * read->base of CLI_BASE_UNSET becomes the graph's (loopy_graph_base). */
int cli_load_graph(const char *cmd, const char *path,
                   loopy_read_options *read, loopy_graph **graph);
/* The name of an input in messages: path, or "<stdin>". */
const char *cli_input_name(const char *path);
struct timespec;
/* Seconds elapsed since start (CLOCK_MONOTONIC). */
double cli_seconds_since(const struct timespec *start);
/* Writes a Sprague-Grundy value (cli/grundy.c): the number, or
 * inf{k1,k2,...}. */
void cli_out_grundy_value(cli_out *out, uint32_t value, const uint32_t *set,
                          size_t count);

/* Writes a Sprague-Grundy value as JSON members: "value": N, or "value":
 * null, "inf": [k1, k2, ...]. */
void cli_out_json_grundy(cli_out *out, uint32_t value, const uint32_t *set,
                         size_t count);
/* Reads a --format value of a command with text and JSON output into
 * *json; false after a message for another. */
bool cli_parse_json_format(const char *cmd, const char *value, bool *json);

/* ---- Databases (cli/db.c) ---- */
/* A loopy_write_fn onto a cli_out (ctx); nonzero once a write failed. */
int cli_write_bytes(void *ctx, const void *bytes, size_t len);
/* Writes the database of a game's solution to out (opened on path), and
 * commits it (cli_out_close) or abandons it; returns the exit status,
 * after a message on failure. */
int cli_db_write_game(cli_out *out, const char *path,
                      const loopy_game_solution *s, const loopy_game *game,
                      int misere);
/* Whether path (NULL allowed) ends in ".ldb", the databases' suffix. */
bool cli_names_database(const char *path);
/* Whether a GAME argument names a database: an existing file whose name
 * ends in ".ldb". */
bool cli_is_database(const char *spec);
/* Whether a binary output may go to output (NULL or "-": standard
 * output): not to a terminal.  Prints a message when not. */
bool cli_binary_output_ok(const char *cmd, const char *output);
/* Whether out (opened for a database) is not a terminal: false, after
 * abandoning it and printing a message, when it is (-o /dev/tty). */
bool cli_out_not_terminal(cli_out *out, const char *cmd);
/* Opens the database at path and its game: game_spec (--game; NULL: the
 * built-in game the header names), given the database's parameters when
 * it has none, and checked against the database (name, parameters, index
 * space).  misere, no_symmetry: the command line asked for them (refused,
 * EXIT_USAGE, when the database was solved otherwise).  A database of a
 * game that is not built in needs game_spec (EXIT_USAGE, saying so).
 * Prints the reason and returns the exit status on failure; *db and *game
 * may then be open, for the caller to close. */
int cli_db_open_with(const char *cmd, const char *path, const char *game_spec,
                     int misere, int no_symmetry, loopy_db **db,
                     loopy_game **game);
/* Whether the database at path is game's as options solve it (the same
 * name, parameters and index space, play and symmetry), with its summary
 * in *sum (positions, counts, the start's value); false, saying nothing,
 * otherwise. */
bool cli_db_summary(const char *path, const loopy_game *game,
                    const loopy_game_solve_options *options,
                    loopy_game_solve_summary *sum);
/* Whether the database names a built-in game (or is a graph's, which
 * loopy_db_open_game explains): one opened without --game. */
bool cli_db_builtin(const loopy_db *db);
/* The value of pos (text `name`) and its moves, best first, from the
 * database at path; prints the reason and returns the exit status on
 * failure, as for a position the solve did not reach. */
int cli_db_lookup(const loopy_db *db, const char *path, const loopy_game *game,
                  loopy_position pos, const char *name, loopy_outcome *outcome,
                  uint32_t *remoteness, loopy_game_move **moves, size_t *count);

/* ---- Commands ---- */
int cmd_solve(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_grundy(int argc, char **argv);
int cmd_sum(int argc, char **argv);
int cmd_octal(int argc, char **argv);
int cmd_game(int argc, char **argv);
/* "loopy help game [ACTION]": the help of "loopy game", after checking
 * that ACTION (NULL: none) is one of its actions. */
int cmd_game_help(const char *action);
/* The seed problems, each in its contest's own input and output format. */
int cmd_race(int argc, char **argv);
int cmd_sleepy(int argc, char **argv);
int cmd_climb(int argc, char **argv);
/* cli/serve.c: the web page and its JSON API (libmicrohttpd). */
int cmd_serve(int argc, char **argv);

#endif
