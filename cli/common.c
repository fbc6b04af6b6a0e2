/* common.c - messages, numbers, threads and input/output checks shared by
 * the commands (the option parser is cli/options.c). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

int cli_exit_status(loopy_status status)
{
    switch (status) {
    case LOOPY_OK:
        return EXIT_OK;
    case LOOPY_EIO:
        return EXIT_IO;
    case LOOPY_ENOMEM:
    case LOOPY_ETOOBIG:
        return EXIT_RESOURCE;
    default:
        return EXIT_INPUT;
    }
}

const char *cli_program = "loopy";

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;

    if (cmd != NULL)
        fprintf(stderr, "%s %s: ", cli_program, cmd);
    else
        fprintf(stderr, "%s: ", cli_program);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int cli_report(const char *cmd, const char *name, loopy_status status,
               const loopy_diag *diag)
{
    const char *message = diag->message[0] ? diag->message
                                           : loopy_strerror(status);

    /* Hints come from the graph readers, whose commands all take --base
     * and --input, when the option named reads the file (or the line has
     * a bare carriage return); they stay on the message's line. */
    const char *hint = diag->hint == LOOPY_HINT_BASE_0
                           ? " (it reads with --base 0)"
                       : diag->hint == LOOPY_HINT_BASE_1
                           ? " (it reads without --base 0)"
                       : diag->hint == LOOPY_HINT_ADJACENCY
                           ? " (it reads with --input adj)"
                       : diag->hint == LOOPY_HINT_EDGES
                           ? " (it reads without --input adj)"
                       : diag->hint == LOOPY_HINT_BARE_CR
                           ? " (this line holds a carriage return without a "
                             "newline: lines end with \\n or \\r\\n)"
                       : diag->hint == LOOPY_HINT_PAIRS
                           ? " (it reads as a list of pairs without the 'n m' "
                             "line: --input pairs)"
                       : diag->hint == LOOPY_HINT_PAIRS_BASE_0
                           ? " (it reads as a list of pairs without the 'n m' "
                             "line, numbered from 0: --input pairs --base 0)"
                           : "";

    if (diag->line > 0)
        cli_error(cmd, "%s:%" PRIu64 ":%" PRIu64 ": %s%s", name, diag->line,
                  diag->column, message, hint);
    else
        cli_error(cmd, "%s: %s%s", name, message, hint);
    return cli_exit_status(status);
}

/* Parses text[0..len) as a decimal number in [min, max]. */
static bool parse_number(const char *text, size_t len, uint64_t min,
                         uint64_t max, uint64_t *value)
{
    uint64_t v = 0;

    if (len == 0 || len > 20)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned digit = (unsigned)(text[i] - '0');
        if (digit > 9 || v > (UINT64_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    if (v < min || v > max)
        return false;
    *value = v;
    return true;
}

bool cli_parse_uint(const char *cmd, const char *option, const char *text,
                    uint64_t min, uint64_t max, uint64_t *value)
{
    if (parse_number(text, strlen(text), min, max, value))
        return true;
    cli_error(cmd, "%s: expected a whole number from %" PRIu64 " to %" PRIu64
              ", found '%s'", option, min, max, text);
    return false;
}

bool cli_parse_bytes(const char *cmd, const char *option, const char *text,
                     uint64_t *value)
{
    static const char units[] = "KMGT";
    size_t digits = strspn(text, "0123456789");
    const char *unit = text + digits, *at;
    uint64_t number, scale = 1;

    if (digits > 0 && parse_number(text, digits, 1, UINT64_MAX, &number)) {
        if (*unit != '\0' && (at = strchr(units, *unit)) != NULL) {
            for (const char *u = units; u <= at; u++)
                scale *= 1024;
            unit++;
            if (*unit == 'i')
                unit++;
            if (*unit == 'B')
                unit++;
        } else if (*unit == 'B') {
            unit++;
        }
        if (*unit == '\0' && number <= UINT64_MAX / scale) {
            *value = number * scale;
            return true;
        }
    }
    cli_error(cmd, "%s: expected a size in bytes, such as 6G or 500M (K, M, "
              "G, T: powers of 1024), found '%s'", option, text);
    return false;
}

bool cli_parse_list(const char *cmd, const char *option, const char *text,
                    uint64_t **items, size_t *count)
{
    const char *p = text;

    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        uint64_t value;
        uint64_t *grown;

        if (!parse_number(p, len, 0, UINT64_MAX, &value)) {
            cli_error(cmd, "%s: expected comma-separated vertex numbers, "
                      "found '%.*s' in '%s'", option, (int)len, p, text);
            return false;
        }
        grown = realloc(*items, (*count + 1) * sizeof **items);
        if (grown == NULL) {
            cli_error(cmd, "out of memory");
            return false;
        }
        *items = grown;
        (*items)[(*count)++] = value;
        if (comma == NULL)
            return true;
        p = comma + 1;
    }
}

bool cli_output_distinct(const char *cmd, const char *output, const char *input)
{
    struct stat out_st, in_st;
    bool from_stdin = input == NULL || strcmp(input, "-") == 0;

    if (output == NULL || strcmp(output, "-") == 0 || stat(output, &out_st) != 0)
        return true;
    /* Standard input redirected from the output file ("-o s.txt < s.txt"):
     * a regular file only, as a terminal or /dev/null is no input to lose. */
    if (from_stdin ? fstat(STDIN_FILENO, &in_st) != 0 ||
                         !S_ISREG(in_st.st_mode)
                   : stat(input, &in_st) != 0)
        return true;
    if (out_st.st_dev != in_st.st_dev || out_st.st_ino != in_st.st_ino)
        return true;
    cli_error(cmd, "%s: the output would overwrite the input file %s", output,
              from_stdin ? "(standard input)" : input);
    return false;
}

size_t cli_game_object_len(const char *spec)
{
    const char *colon = strrchr(spec, ':');

    return colon != NULL && strchr(colon, '/') == NULL ? (size_t)(colon - spec)
                                                       : strlen(spec);
}

bool cli_unknown_game(const char *cmd, const char *what, const char *spec)
{
    const char *names[64];
    size_t len = cli_game_object_len(spec), count = 0;
    char object[256];
    const char *near;
    struct stat st;
    loopy_db *db = NULL;
    loopy_diag diag;

    if (len >= sizeof object || memchr(spec, '/', len) != NULL)
        return false;
    memcpy(object, spec, len);
    object[len] = '\0';
    for (size_t i = 0; i < loopy_game_builtin_count() && count < 64; i++) {
        if (strcmp(loopy_game_builtin(i)->name, object) == 0)
            return false;
        names[count++] = loopy_game_builtin(i)->name;
    }
    if (stat(object, &st) == 0 && S_ISREG(st.st_mode)) {
        bool database;
        memset(&diag, 0, sizeof diag);
        database = loopy_db_open(object, &db, &diag) == LOOPY_OK;
        loopy_db_close(db);
        if (database && cli_names_database(object))
            cli_error(cmd, "%sunknown game '%s': the file is a loopy "
                      "database, which probe, stats, play and serve read; "
                      "a game is a built-in name or a shared object's path",
                      what, object);
        else if (database)
            cli_error(cmd, "%sunknown game '%s': the file is a loopy "
                      "database, which probe, stats, play and serve read by "
                      "a name ending in .ldb (rename it, or link it to such "
                      "a name)", what, object);
        else
            cli_error(cmd, "%sunknown game '%s': a shared object is named by "
                      "a path with a '/' (did you mean ./%s?)", what, object,
                      spec);
        return true;
    }
    near = cli_nearest(object, len, names, count);
    if (near == NULL)
        return false;
    cli_error(cmd, "%sunknown game '%s' (did you mean %s?)", what, object,
              near);
    return true;
}

bool cli_output_not_game(const char *cmd, const char *output, const char *spec)
{
    size_t len = cli_game_object_len(spec);
    char *object;
    bool ok;

    if (!cli_output_distinct(cmd, output, spec))
        return false;
    /* A built-in game reads no file; "./ladder.so:10" reads ./ladder.so,
     * which -o ladder.so would replace. */
    if (len == strlen(spec) || memchr(spec, '/', len) == NULL)
        return true;
    object = malloc(len + 1);
    if (object == NULL) {
        cli_error(cmd, "out of memory");
        return false;
    }
    memcpy(object, spec, len);
    object[len] = '\0';
    ok = cli_output_distinct(cmd, output, object);
    free(object);
    return ok;
}

void cli_start_threads(void)
{
#ifdef _OPENMP
    (void)omp_get_max_threads();
#endif
}

void cli_use_threads(int threads)
{
#ifdef _OPENMP
    if (threads > 0)
        omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

int cli_print_text(const char *cmd, const char *text)
{
    /* The error may be an earlier write's (ferror); EIO then. */
    errno = 0;
    if (fputs(text, stdout) != EOF && fflush(stdout) == 0 && !ferror(stdout))
        return EXIT_OK;
    fprintf(stderr, "loopy%s%s: standard output: write failed: %s\n",
            cmd ? " " : "", cmd ? cmd : "", strerror(errno ? errno : EIO));
    return EXIT_IO;
}

bool cli_parse_threads(const char *cmd, const char *text, int *threads)
{
    uint64_t value;

    if (!cli_parse_uint(cmd, "--threads", text, 0, 1024, &value))
        return false;
#ifdef _SC_NPROCESSORS_ONLN
    {
        /* Threads past the processors run no faster and each holds its own
         * buffers: on 2 processors, -t 1024 took 2 GB and 9 s on a 60 MB
         * text, -t 2 64 MB and 0.4 s.  0 stays "all cores"; an unknown
         * count counts as 1. */
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        if (online < 1)
            online = 1;
        if (value > (uint64_t)online)
            value = (uint64_t)online;
    }
#endif
    *threads = (int)value;
    return true;
}

int cli_threads(int requested, uint64_t most)
{
    int threads = loopy_threads(requested);

    if (threads > CLI_MAX_THREADS)
        threads = CLI_MAX_THREADS;
    if ((uint64_t)threads > most)
        threads = (int)most;
    return threads < 1 ? 1 : threads;
}
