/* seeds.c - what the seed-problem commands (race, sleepy, climb) share. */
#include "seeds.h"

#include <string.h>

int seed_parse_args(const char *cmd, int argc, char **argv, const char *usage,
                    seed_args *args, const cli_option *extra,
                    bool (*on_extra)(const char *cmd, int id, const char *value,
                                     void *ctx),
                    void *ctx)
{
    static const cli_option help_only[] = {{"help", 'h', false, SEED_OPT_HELP},
                                           {NULL, 0, false, 0}};
    const cli_option *options = extra ? extra : help_only;
    cli_parser p;
    int id;

    args->input = NULL;
    cli_parser_init(&p, cmd, argc, argv);
    while ((id = cli_next(&p, options)) != CLI_END) {
        if (id == CLI_ERROR)
            return EXIT_USAGE;
        if (id == SEED_OPT_HELP) {
            return cli_print_text(cmd, usage) == EXIT_OK ? -1 : EXIT_IO;
        }
        if (id == CLI_OPERAND) {
            if (args->input != NULL) {
                cli_error(cmd, "one input file at most, found '%s' after '%s'",
                          p.value, args->input);
                return EXIT_USAGE;
            }
            args->input = p.value;
        } else if (on_extra == NULL || !on_extra(cmd, id, p.value, ctx)) {
            return EXIT_USAGE;
        }
    }
    args->name = args->input && strcmp(args->input, "-") != 0 ? args->input
                                                              : "<stdin>";
    return EXIT_OK;
}

int seed_open(const char *cmd, const seed_args *args, loopy_source **source)
{
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status status = loopy_source_open(args->input, source, &diag);

    if (status != LOOPY_OK)
        return cli_report(cmd, args->name, status, &diag);
    return EXIT_OK;
}
