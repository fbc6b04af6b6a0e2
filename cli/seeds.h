/* seeds.h - helpers of the seed-problem commands (cli/race.c, sleepy.c,
 * climb.c): each reads one input (FILE or standard input) in the problem's
 * own format and writes the problem's output (standard output, or -o FILE),
 * only once the whole input has been read and accepted; -f json gives the
 * same answers as a JSON document. */
#ifndef LOOPY_CLI_SEEDS_H
#define LOOPY_CLI_SEEDS_H

#include "cli.h"

/* The options every contest command takes, as its --help lists them
 * after its own. */
#define SEEDS_COMMON_OPTIONS \
    "  -o, --output FILE  write to FILE (atomically) instead of standard\n" \
    "                     output\n" \
    "  -t, --threads N    threads to read the input with (default 0: all\n" \
    "                     cores)\n" \
    "  -q, --quiet        nothing on standard error but errors (the default:\n" \
    "                     the contest commands print no summary)\n" \
    "  -h, --help         show this help\n" \
    "  -V, --version      show the version\n"

typedef struct seed_args {
    const char *input;  /* NULL: standard input */
    const char *name;   /* for messages: the path or "<stdin>" */
    const char *output; /* -o: NULL for standard output */
    bool json;          /* -f json */
    int threads;        /* -t: 0 for all cores */
} seed_args;

/* The option ids the seed commands share; a command's own options use
 * ids below SEED_OPT_OUTPUT. */
enum { SEED_OPT_OUTPUT = 1000, SEED_OPT_FORMAT, SEED_OPT_THREADS,
       SEED_OPT_QUIET };

/* The options every seed command takes, for the end of its table. */
#define SEED_OPTIONS                                                          \
    {"output", 'o', true, SEED_OPT_OUTPUT},                                   \
        {"format", 'f', true, SEED_OPT_FORMAT},                               \
        {"threads", 't', true, SEED_OPT_THREADS},                             \
        {"quiet", 'q', false, SEED_OPT_QUIET}

/* Parses "[OPTIONS] [FILE]".  extra lists the command's options (ending
 * with SEED_OPTIONS and {NULL}), or NULL for the shared ones only;
 * on_extra handles one of the command's own (false after printing a
 * message).  Returns EXIT_OK, -1 after --help or --version, EXIT_IO when
 * that could not be written, or EXIT_USAGE. */
int seed_parse_args(const char *cmd, int argc, char **argv, const char *usage,
                    seed_args *args, const cli_option *extra,
                    bool (*on_extra)(const char *cmd, int id, const char *value,
                                     void *ctx),
                    void *ctx);

/* Opens the output (refused when it is the input) and then the input; on
 * failure prints the message and returns its status, with nothing left
 * open. */
int seed_open(const char *cmd, const seed_args *args, loopy_source **source,
              cli_out *out);

#endif
