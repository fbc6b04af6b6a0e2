/* options.c - the option parser every command uses (see cli.h): one table
 * per command, grouped short flags, --help and --version for all, and the
 * nearest option offered for an unknown one. */
#include "cli.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* The options every command takes, after its own table: --help prints
 * the command's usage, --version the version. */
enum { BUILTIN_HELP = -100, BUILTIN_VERSION = -101 };
static const cli_option builtin_options[] = {
    {"help", 'h', false, BUILTIN_HELP},
    {"version", 'V', false, BUILTIN_VERSION},
    {NULL, 0, false, 0}};

void cli_parser_init(cli_parser *p, const char *cmd, const char *usage,
                     int argc, char **argv)
{
    p->cmd = cmd;
    p->usage = usage;
    p->usage_more = NULL;
    p->usage_end = NULL;
    p->argc = argc;
    p->argv = argv;
    p->index = 1;
    p->only_operands = false;
    p->cluster = NULL;
    p->cluster_arg = NULL;
    p->value = NULL;
    p->status = EXIT_OK;
}

/* The option of options, then of the built-in ones, whose long name is
 * name[0..len) (short_name 0) or whose short name is short_name. */
static const cli_option *find_option(const cli_option *options,
                                     const char *name, size_t len,
                                     char short_name)
{
    const cli_option *tables[2] = {options, builtin_options};

    for (int t = 0; t < 2; t++)
        for (const cli_option *o = tables[t]; o->name != NULL; o++)
            if (short_name != 0 ? o->short_name == short_name
                                : strlen(o->name) == len &&
                                      strncmp(o->name, name, len) == 0)
                return o;
    return NULL;
}

/* The edit distance (insertions, deletions, substitutions and swaps of
 * two neighbours, each 1) between a[0..alen) and b, or SIZE_MAX when
 * either is longer than 64 bytes. */
static size_t edit_distance(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    size_t rows[3][65]; /* the rows i-2, i-1 and i of the usual table */

    if (alen > 64 || blen > 64)
        return SIZE_MAX;
    for (size_t j = 0; j <= blen; j++)
        rows[1][j] = j;
    for (size_t i = 1; i <= alen; i++) {
        size_t *cur = rows[(i + 1) % 3], *prev = rows[i % 3],
               *before = rows[(i + 2) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            cur[j] = best;
        }
    }
    return rows[(alen + 1) % 3][blen];
}

const char *cli_nearest(const char *word, size_t len,
                        const char *const *names, size_t count)
{
    /* A word that begins exactly one name ("--thr", "--lose") names it;
     * else the nearest, when up to a third of the word is wrong (1 for 3
     * letters, 2 for "misre", 3 at most). */
    size_t most = len < 3 ? (len > 0 ? 1 : 0) : len / 3 + (len % 3 != 0);
    size_t best = SIZE_MAX, prefixed = 0;
    const char *nearest = NULL, *prefix_of = NULL;

    if (most > 3)
        most = 3;
    for (size_t i = 0; i < count; i++) {
        size_t d = edit_distance(word, len, names[i]);
        if (d < best) {
            best = d;
            nearest = names[i];
        }
        if (len >= 2 && strncmp(names[i], word, len) == 0) {
            prefixed++;
            prefix_of = names[i];
        }
    }
    if (prefixed == 1)
        return prefix_of;
    return nearest != NULL && best <= most && best < strlen(nearest) ? nearest
                                                                      : NULL;
}

/* The long names of options and the built-in options, for cli_nearest. */
static size_t long_names(const cli_option *options, const char **names,
                         size_t capacity)
{
    const cli_option *tables[2] = {options, builtin_options};
    size_t count = 0;

    for (int t = 0; t < 2; t++)
        for (const cli_option *o = tables[t]; o->name != NULL; o++)
            if (count < capacity)
                names[count++] = o->name;
    return count;
}

/* The long option nearest word[0..len), or NULL. */
static const char *nearest_option(const cli_option *options, const char *word,
                                  size_t len)
{
    const char *names[64];
    size_t count = long_names(options, names, 64);

    return cli_nearest(word, len, names, count);
}

/* "unknown option 'DASHESWORD' (did you mean --NAME?)", or "(see --help)"
 * when no long option is near word[0..len). */
static int unknown_option(cli_parser *p, const cli_option *options,
                          const char *dashes, const char *word, size_t len)
{
    const char *near = nearest_option(options, word, len);
    int shown = len < INT_MAX ? (int)len : INT_MAX;

    if (near != NULL)
        cli_error(p->cmd, "unknown option '%s%.*s' (did you mean --%s?)",
                  dashes, shown, word, near);
    else
        cli_error(p->cmd, p->cmd != NULL ? "unknown option '%s%.*s' (see --help)"
                                         : "unknown option '%s%.*s' (see 'loopy "
                                           "--help')", dashes, shown, word);
    return CLI_ERROR;
}

/* What cli_next returns for the option o once its value, if any, is in
 * p->value: --help and --version are answered here. */
static int matched(cli_parser *p, const cli_option *o)
{
    if (o->id == BUILTIN_HELP) {
        p->status = cli_print_text(p->cmd, p->usage ? p->usage : "");
        if (p->status == EXIT_OK && p->usage_more != NULL)
            p->status = cli_print_text(p->cmd, p->usage_more);
        if (p->status == EXIT_OK && p->usage_end != NULL)
            p->status = cli_print_text(p->cmd, p->usage_end);
        return CLI_EXIT;
    }
    if (o->id == BUILTIN_VERSION) {
        p->status = cli_print_text(p->cmd, "loopy " LOOPY_VERSION_STRING "\n");
        return CLI_EXIT;
    }
    /* An empty -o is a mistake in every command: no file has that name. */
    if (o->has_value && strcmp(o->name, "output") == 0 &&
        !cli_out_name_ok(p->cmd, p->value))
        return CLI_ERROR;
    return o->id;
}

/* The next short option of a group ("-qf json": q, then f), at
 * p->cluster within the argument p->cluster_arg. */
static int next_short(cli_parser *p, const cli_option *options)
{
    const char *at = p->cluster, *arg = p->cluster_arg;
    const cli_option *o = find_option(options, NULL, 0, *at);

    p->cluster = NULL;
    if (o == NULL) {
        /* "-misere" for "--misere": the whole word is the option meant. */
        if (at == arg + 1 && at[1] != '\0')
            return unknown_option(p, options, "-", at, strlen(at));
        if (at != arg + 1) {
            /* "-quiet": q is a flag, but --quiet was meant. */
            const char *near = nearest_option(options, arg + 1, strlen(arg + 1));
            if (near != NULL)
                cli_error(p->cmd, "unknown option '-%c' in '%s' (did you mean "
                          "--%s?)", *at, arg, near);
            else
                cli_error(p->cmd, "unknown option '-%c' in '%s' (see --help)",
                          *at, arg);
            return CLI_ERROR;
        }
        /* -v for -V: the same letter in the other case. */
        if (isalpha((unsigned char)*at) &&
            find_option(options, NULL, 0, (char)(*at ^ 0x20)) != NULL) {
            cli_error(p->cmd, "unknown option '-%c' (did you mean -%c?)", *at,
                      *at ^ 0x20);
            return CLI_ERROR;
        }
        return unknown_option(p, options, "-", at, 1);
    }
    if (o->has_value) {
        if (at[1] != '\0') {
            p->value = at + 1; /* glued: -t1, -oFILE, -qt2 */
            return matched(p, o);
        }
        if (p->index >= p->argc) {
            cli_error(p->cmd, "option '-%c' needs a value (see --help)", *at);
            return CLI_ERROR;
        }
        p->value = p->argv[p->index++];
        return matched(p, o);
    }
    if (at[1] != '\0')
        p->cluster = at + 1; /* more flags follow: -qf json */
    p->value = NULL;
    return matched(p, o);
}

int cli_next(cli_parser *p, const cli_option *options)
{
    const char *arg, *name, *eq;
    size_t name_len;
    const cli_option *o;

    if (p->cluster != NULL)
        return next_short(p, options);
    if (p->index >= p->argc)
        return CLI_END;
    arg = p->argv[p->index++];
    if (p->only_operands || arg[0] != '-' || strcmp(arg, "-") == 0) {
        p->value = arg;
        return CLI_OPERAND;
    }
    if (strcmp(arg, "--") == 0) {
        p->only_operands = true;
        return cli_next(p, options);
    }
    if (arg[1] != '-') {
        p->cluster = arg + 1;
        p->cluster_arg = arg;
        return next_short(p, options);
    }
    name = arg + 2;
    eq = strchr(name, '=');
    name_len = eq ? (size_t)(eq - name) : strlen(name);
    o = find_option(options, name, name_len, 0);
    if (o == NULL)
        return unknown_option(p, options, "--", name, name_len);
    if (!o->has_value && eq != NULL) {
        cli_error(p->cmd, "option '--%s' takes no value", o->name);
        return CLI_ERROR;
    }
    if (o->has_value && eq != NULL) {
        p->value = eq + 1;
        return matched(p, o);
    }
    if (o->has_value) {
        if (p->index >= p->argc) {
            cli_error(p->cmd, "option '--%s' needs a value (see --help)",
                      o->name);
            return CLI_ERROR;
        }
        p->value = p->argv[p->index++];
    }
    return matched(p, o);
}
