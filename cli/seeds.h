/* seeds.h - helpers of the seed-problem commands (cli/race.c, sleepy.c,
 * climb.c): each reads one input (FILE or standard input) in the problem's
 * own format and writes the problem's output to standard output, only once
 * the whole input has been read and accepted. */
#ifndef LOOPY_CLI_SEEDS_H
#define LOOPY_CLI_SEEDS_H

#include "cli.h"

typedef struct seed_args {
    const char *input; /* NULL: standard input */
    const char *name;  /* for messages: the path or "<stdin>" */
} seed_args;

/* The option id of --help; a command's own options use other ids. */
#define SEED_OPT_HELP 1000

/* Parses "[OPTIONS] [FILE]".  extra lists the command's options (ending
 * with {NULL}, including --help as SEED_OPT_HELP), or NULL for --help only;
 * on_extra handles one of them (false after printing a message).  Returns
 * EXIT_OK, -1 after printing usage for --help, EXIT_IO when that could not
 * be written, or EXIT_USAGE. */
int seed_parse_args(const char *cmd, int argc, char **argv, const char *usage,
                    seed_args *args, const cli_option *extra,
                    bool (*on_extra)(const char *cmd, int id, const char *value,
                                     void *ctx),
                    void *ctx);

/* Opens the input; on failure prints the message and returns its status. */
int seed_open(const char *cmd, const seed_args *args, loopy_source **source);

#endif
