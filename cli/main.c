/* main.c - the loopy command: dispatch to a subcommand. */
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The command running, for on_sigbus's message. */
static const char *running = "loopy";

/* Files are mapped for reading (text and binary graphs); one that another
 * program shortens meanwhile raises SIGBUS at the first access past its
 * new end.  End with a message and the I/O status instead of a crash,
 * removing a half-written output (only async-signal-safe calls here). */
static void on_sigbus(int sig)
{
    static const char what[] = ": an input file shrank while it was read "
                               "(another program changed it)\n";
    ssize_t ignored;

    (void)sig;
    cli_out_remove_pending();
    ignored = write(STDERR_FILENO, running, strlen(running));
    ignored = write(STDERR_FILENO, what, sizeof what - 1);
    (void)ignored;
    _exit(EXIT_IO);
}

/* Whether the command returned: any exit before that is not loopy's. */
static volatile bool command_returned;

/* An OpenMP runtime that cannot start a thread ends the process with
 * exit(1), the status for rejected input, after its own message ("libgomp:
 * Thread creation failed").  The library checks beforehand that its
 * threads can start (lib/core/parallel.c), so this only catches memory or
 * processes running out in between: say what happened, remove a
 * half-written output, and end with the status for exhausted resources. */
static void on_stray_exit(void)
{
    if (command_returned)
        return;
    cli_out_remove_pending();
    fprintf(stderr, "%s: out of memory or processes: a thread could not be "
            "started (fewer threads, -t 1, need less)\n", running);
    fflush(stderr);
    _exit(EXIT_RESOURCE);
}

/* Interrupted (Ctrl-C, kill, a closed terminal): remove a half-written
 * output's temporary file, then die of the signal as if unhandled, so the
 * caller sees the usual status.  The signal is blocked in here; raise()
 * leaves it pending, and it ends the process when this returns. */
static void on_interrupt(int sig)
{
    cli_out_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const char main_usage[] =
    "Usage: loopy COMMAND [OPTIONS] [ARGS]\n"
    "\n"
    "Solve two-player games played on directed graphs or given by their\n"
    "rules: every position is a Win, Lose or Draw for the player to move (or\n"
    "a Tie, where the rules end in one), with its remoteness and best moves.\n"
    "\n"
    "Commands:\n"
    "  solve     classify every position of a game graph\n"
    "  convert   write a graph in loopy's binary format, for fast loading\n"
    "  grundy    Sprague-Grundy values (Smith's, on graphs with cycles)\n"
    "  sum       outcome and value of several tokens on one graph\n"
    "  octal     Sprague-Grundy values of an octal heap game\n"
    "  game      games given by their rules (tic-tac-toe, Connect Four, chess\n"
    "            endings, your own as a shared object): list, solve, probe,\n"
    "            stats, play, check\n"
    "  serve     a web page to explore and play solved games, and its JSON API\n"
    "\n"
    "Seed problems, in their contests' own input and output formats:\n"
    "  race      Luogu P6560: whoever moves the token onto y wins\n"
    "  sleepy    Codeforces 936B: one player moves for both sides\n"
    "  climb     the height-grid game: moves go to higher neighbours\n"
    "\n"
    "Run 'loopy help COMMAND' (or 'loopy COMMAND --help') for a command's\n"
    "options and an example.  Every command takes -h (--help), -V (--version),\n"
    "and where they apply -o FILE, -f json, -t N and -q; short options group\n"
    "as in -qf json.\n"
    "Options: -h, --help  show this help;  -V, --version  show the version.\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"solve", cmd_solve},
    {"convert", cmd_convert},
    {"grundy", cmd_grundy},
    {"sum", cmd_sum},
    {"octal", cmd_octal},
    {"game", cmd_game},
    {"serve", cmd_serve},
    {"race", cmd_race},
    {"sleepy", cmd_sleepy},
    {"climb", cmd_climb},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* The command called name, or NULL after "unknown command" (with the
 * nearest one, and "help" as a command too). */
static const command *find_command(const char *name)
{
    const char *names[COMMAND_COUNT + 1];
    const char *near;

    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
        names[i] = commands[i].name;
    }
    names[COMMAND_COUNT] = "help";
    near = cli_nearest(name, strlen(name), names, COMMAND_COUNT + 1);
    if (near != NULL)
        fprintf(stderr, "loopy: unknown command '%s' (did you mean %s?)\n",
                name, near);
    else
        fprintf(stderr, "loopy: unknown command '%s' (see 'loopy --help')\n",
                name);
    return NULL;
}

/* "loopy help [COMMAND [ACTION]]": the help of loopy, or of COMMAND as
 * "loopy COMMAND --help" prints it (of "loopy game" for an ACTION of it). */
static int help(int argc, char **argv)
{
    static char help_option[] = "--help";
    const command *c;
    char *args[3];

    if (argc < 2 || (argc == 2 && strcmp(argv[1], "help") == 0))
        return cli_print_text(NULL, main_usage);
    if ((c = find_command(argv[1])) == NULL)
        return EXIT_USAGE;
    if (c->run == cmd_game && argc > 3) {
        fprintf(stderr, "loopy: help: expected 'game' and an action, found "
                "'%s' after them\n", argv[3]);
        return EXIT_USAGE;
    }
    if (c->run == cmd_game)
        return cmd_game_help(argc == 3 ? argv[2] : NULL);
    if (argc > 2) {
        fprintf(stderr, "loopy: help: '%s' has no actions, found '%s' after "
                "it\n", c->name, argv[2]);
        return EXIT_USAGE;
    }
    args[0] = argv[1];
    args[1] = help_option;
    args[2] = NULL;
    return c->run(2, args);
}

int main(int argc, char **argv)
{
    /* SIGABRT too: LLVM's OpenMP runtime aborts when it cannot start a
     * thread, and a half-written output must not stay behind. */
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};
    static const cli_option no_options[] = {{NULL, 0, false, 0}};
    const command *c;
    cli_parser p;
    int id;

    if (argc < 2) {
        fputs(main_usage, stderr);
        return EXIT_USAGE;
    }
    /* Options before the command: --help and --version, which the
     * parser answers, and anything else is unknown. */
    cli_parser_init(&p, NULL, main_usage, argc, argv);
    id = cli_next(&p, no_options);
    if (id == CLI_EXIT)
        return p.status;
    if (id == CLI_ERROR)
        return EXIT_USAGE;
    if (id == CLI_END) {
        fputs(main_usage, stderr);
        return EXIT_USAGE;
    }
    argc -= p.index - 1;
    argv += p.index - 1;
    if (strcmp(argv[0], "help") == 0)
        return help(argc, argv);
    if ((c = find_command(argv[0])) != NULL) {
        static char name[32];
        struct sigaction sa;
        int status;

        snprintf(name, sizeof name, "loopy %s", c->name);
        running = name;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sigbus;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, NULL);
        sa.sa_handler = on_interrupt;
        for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++) {
            struct sigaction old;
            /* A signal ignored at start (nohup, '&' without job
             * control) stays ignored. */
            if (sigaction(stops[k], NULL, &old) == 0 &&
                old.sa_handler != SIG_IGN)
                sigaction(stops[k], &sa, NULL);
        }
        atexit(on_stray_exit);
        /* The OpenMP runtime starts here, while the process is small:
         * LLVM's libomp hangs, rather than failing, when its start-up
         * finds no memory, which an input mapped first under a tight
         * ulimit -v could cause. */
        cli_start_threads();
        status = c->run(argc, argv);
        command_returned = true;
        return status;
    }
    return EXIT_USAGE;
}
