/* seeds.c - what the seed-problem commands (race, sleepy, climb) share. */
#include "seeds.h"

#include <string.h>

int seed_parse_args(const char *cmd, int argc, char **argv, const char *usage,
                    seed_args *args, const cli_option *extra,
                    bool (*on_extra)(const char *cmd, int id, const char *value,
                                     void *ctx),
                    void *ctx)
{
    static const cli_option shared[] = {SEED_OPTIONS, {NULL, 0, false, 0}};
    const cli_option *options = extra ? extra : shared;
    cli_parser p;
    int id;

    memset(args, 0, sizeof *args);
    cli_parser_init(&p, cmd, usage, argc, argv);
    while ((id = cli_next(&p, options)) != CLI_END) {
        switch (id) {
        case CLI_ERROR:
            return EXIT_USAGE;
        case CLI_EXIT:
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            if (args->input != NULL) {
                cli_error(cmd, "one input file at most, found '%s' after '%s'",
                          p.value, args->input);
                return EXIT_USAGE;
            }
            args->input = p.value;
            break;
        case SEED_OPT_OUTPUT:
            args->output = p.value;
            break;
        case SEED_OPT_FORMAT:
            if (!cli_parse_json_format(cmd, p.value, &args->json))
                return EXIT_USAGE;
            break;
        case SEED_OPT_THREADS:
            if (!cli_parse_threads(cmd, p.value, &args->threads))
                return EXIT_USAGE;
            break;
        case SEED_OPT_QUIET:
            break; /* the contest formats print no summary */
        default:
            if (on_extra == NULL || !on_extra(cmd, id, p.value, ctx))
                return EXIT_USAGE;
        }
    }
    args->name = cli_input_name(args->input);
    return EXIT_OK;
}

int seed_open(const char *cmd, const seed_args *args, loopy_source **source,
              cli_out *out)
{
    loopy_diag diag = {0, 0, "", LOOPY_HINT_NONE};
    loopy_status status;

    if (!cli_output_distinct(cmd, args->output, args->input))
        return EXIT_USAGE;
    /* The output is opened first, so that a bad -o fails before the work. */
    if (!cli_out_open(out, cmd, args->output))
        return EXIT_IO;
    /* The readers take all cores unless told otherwise. */
    cli_use_threads(args->threads);
    status = loopy_source_open(args->input, source, &diag);
    if (status != LOOPY_OK) {
        cli_out_abort(out);
        return cli_report(cmd, args->name, status, &diag);
    }
    return EXIT_OK;
}
