/* serve.c - "loopy serve": a web page to explore and play solved games,
 * and its JSON API, served by libmicrohttpd on 127.0.0.1 unless another
 * address is asked for: the command line, the games (databases opened,
 * GAMEs solved), the address, and the signals that stop it.  Only the
 * games named at start are served.  The answers are serve_http.c's; a
 * loopy built without libmicrohttpd has this file alone, which says so. */
#include "game.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char serve_usage[] =
    "Usage: loopy serve [OPTIONS] FILE.ldb|GAME...\n"
    "\n"
    "Serve a web page to explore and play the games named: the board, every\n"
    "move marked with its value for the player to move, the value history of\n"
    "the game played, and its JSON API (a position's answer is the JSON of\n"
    "'loopy game probe -f json').  A database (FILE.ldb) is read as probe\n"
    "reads it; a GAME (see 'loopy game list') is solved at start, as 'loopy\n"
    "game solve' solves it (give a database for a game too large for that).\n"
    "Prints the page's address on standard output; Ctrl-C (SIGINT) or\n"
    "SIGTERM stops it.  Only the games named are served: a request never\n"
    "names a file.\n"
    "\n"
    "  GET /                  the page\n"
    "  GET /api/games         the games served, as a JSON array\n"
    "  GET /api/probe?game=ID&position=TEXT\n"
    "                         a position's value and every move's (TEXT in\n"
    "                         the game's notation, URL-encoded, a '+' for a\n"
    "                         space; without it, the start)\n"
    "Errors are JSON, {\"error\": \"...\"}, with status 400 (a bad position or\n"
    "argument), 403 (a Host header that is not this machine's loopback\n"
    "address, on a server listening there: a page of another site that\n"
    "reached it through a name of its own), 404 (an unknown game, page or\n"
    "position), 405 (a method but GET and HEAD), 413 (a request with a body),\n"
    "414 (a URL past 2048 bytes), 500.\n"
    "\n";

static const char serve_usage_options[] =
    "Options:\n"
    "      --host HOST      the address to listen on (default 127.0.0.1: this\n"
    "                       machine only); another only when given, such as\n"
    "                       0.0.0.0 (every interface: anyone who reaches this\n"
    "                       machine may use the page) or ::1\n"
    "      --port PORT      the TCP port (default 8080; 0: a free one, as\n"
    "                       printed)\n"
    "      --misere         solve each GAME in misere play (a database is\n"
    "                       served in the play it was solved in)\n"
    "      --game OBJECT    the game of the databases that are not of a\n"
    "                       built-in game: its shared object (./mygame.so),\n"
    "                       as for 'loopy game probe --game'\n"
    "  -t, --threads N      threads answering requests, and solving a GAME\n"
    "                       (default 0: all cores)\n"
    "  -q, --quiet          no notes on standard error (the address is still\n"
    "                       printed)\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example:\n"
    "  $ loopy game solve -q chess:KRK -o krk.ldb\n"
    "  $ loopy serve krk.ldb tictactoe connect4:4x4\n"
    "  http://127.0.0.1:8080/\n"
    "\n"
    "Exit status: 0 stopped by SIGINT or SIGTERM, 1 a game or database\n"
    "rejected, 2 bad command line (or a loopy built without libmicrohttpd),\n"
    "3 a file not readable or the address not usable (a port in use), 4 too\n"
    "large for memory.\n";

enum { OPT_HOST, OPT_PORT, OPT_MISERE, OPT_GAME, OPT_THREADS, OPT_QUIET };

static const cli_option serve_options[] = {
    {"host", 0, true, OPT_HOST},
    {"port", 0, true, OPT_PORT},
    {"misere", 0, false, OPT_MISERE},
    {"game", 0, true, OPT_GAME},
    {"threads", 't', true, OPT_THREADS},
    {"quiet", 'q', false, OPT_QUIET},
    {NULL, 0, false, 0}};

typedef struct serve_args {
    const char *host;
    const char *port;  /* as given: getaddrinfo reads it */
    int threads;
    bool quiet;
    bool misere;       /* --misere: GAMEs solved in misere play */
    const char *game;  /* --game: the object of non-built-in databases */
    const char **specs; /* FILE.ldb|GAME..., argv's */
    size_t spec_count;
} serve_args;

/* Reads the command line into *a (the operands in a->specs, which has
 * room for argc); -1 after --help or --version. */
static int serve_parse_args(int argc, char **argv, serve_args *a)
{
    cli_parser p;
    uint64_t port;
    int id;

    cli_parser_init(&p, "serve", serve_usage, argc, argv);
    p.usage_more = serve_usage_options;
    while ((id = cli_next(&p, serve_options)) != CLI_END) {
        switch (id) {
        case CLI_EXIT:
            return p.status == EXIT_OK ? -1 : p.status;
        case CLI_OPERAND:
            a->specs[a->spec_count++] = p.value;
            break;
        case OPT_HOST:
            if (p.value[0] == '\0') {
                cli_error("serve", "--host: the address is empty");
                return EXIT_USAGE;
            }
            a->host = p.value;
            break;
        case OPT_PORT:
            if (!cli_parse_uint("serve", "--port", p.value, 0, 65535, &port))
                return EXIT_USAGE;
            a->port = p.value;
            break;
        case OPT_MISERE:
            a->misere = true;
            break;
        case OPT_GAME:
            a->game = p.value;
            break;
        case OPT_THREADS:
            if (!cli_parse_threads("serve", p.value, &a->threads))
                return EXIT_USAGE;
            break;
        case OPT_QUIET:
            a->quiet = true;
            break;
        default:
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

#if !LOOPY_HAVE_MHD

int cmd_serve(int argc, char **argv)
{
    serve_args a;
    int rc;

    memset(&a, 0, sizeof a);
    a.specs = calloc((size_t)argc, sizeof *a.specs);
    if (a.specs == NULL) {
        cli_error("serve", "out of memory");
        return EXIT_RESOURCE;
    }
    rc = serve_parse_args(argc, argv, &a);
    free(a.specs);
    if (rc < 0)
        return EXIT_OK;
    /* Whatever else the command line says, this is what to know. */
    cli_error("serve", "this loopy was built without libmicrohttpd, so it "
              "cannot serve: install libmicrohttpd-dev (Debian) and build it "
              "again");
    return EXIT_USAGE;
}

#else

#include "serve.h"

#include <netdb.h>
#include <signal.h>
#include <unistd.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

/* ---- Starting and stopping ---- */

/* The write end of the pipe that SIGINT and SIGTERM write to (a signal's
 * handler may touch nothing else), and the signal. */
static int stop_fd = -1;
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    int saved = errno;
    ssize_t ignored;

    stop_signal = sig;
    ignored = write(stop_fd, "s", 1);
    (void)ignored;
    errno = saved;
}

/* Listens on host:port; *fd, and the page's address in *url (malloc'd).
 * Prints the reason and returns the exit status on failure. */
static int serve_listen(const char *host, const char *port, int *fd,
                        char **url)
{
    struct addrinfo hints, *list = NULL;
    struct sockaddr_storage bound;
    socklen_t bound_len = sizeof bound;
    char number[INET6_ADDRSTRLEN + 1], service[16];
    int err = 0, rc;
    size_t size;

    *fd = -1;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    rc = getaddrinfo(host, port, &hints, &list);
    if (rc != 0) {
        cli_error("serve", "--host %s: %s", host,
                  rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
        return EXIT_USAGE;
    }
    for (struct addrinfo *ai = list; ai != NULL && *fd < 0; ai = ai->ai_next) {
        int one = 1;
        int s = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (s < 0) {
            err = errno;
            continue;
        }
        /* A restart may take the port of a stop a moment ago (its
         * connections in TIME_WAIT); ::1 is IPv6 only. */
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ai->ai_family == AF_INET6)
            setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        if (bind(s, ai->ai_addr, ai->ai_addrlen) != 0 ||
            listen(s, SOMAXCONN) != 0) {
            err = errno;
            close(s);
            continue;
        }
        *fd = s;
    }
    freeaddrinfo(list);
    if (*fd < 0) {
        cli_error("serve", "%s port %s: cannot listen: %s", host, port,
                  strerror(err));
        return EXIT_IO;
    }
    if (getsockname(*fd, (struct sockaddr *)&bound, &bound_len) != 0 ||
        getnameinfo((struct sockaddr *)&bound, bound_len, number,
                    sizeof number, service, sizeof service,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        cli_error("serve", "%s port %s: cannot read the address listened "
                  "on: %s", host, port, strerror(errno));
        close(*fd);
        *fd = -1;
        return EXIT_IO;
    }
    size = strlen(number) + strlen(service) + 16;
    *url = malloc(size);
    if (*url == NULL) {
        cli_error("serve", "out of memory");
        close(*fd);
        *fd = -1;
        return EXIT_RESOURCE;
    }
    snprintf(*url, size, bound.ss_family == AF_INET6 ? "http://[%s]:%s/"
                                                     : "http://%s:%s/",
             number, service);
    return EXIT_OK;
}

/* Whether url is at a loopback address (127.0.0.0/8, ::1). */
static bool is_loopback(const char *url)
{
    return strncmp(url, "http://127.", 11) == 0 ||
           strncmp(url, "http://[::1]", 12) == 0;
}

/* The --game to open the database at path with: the one given when the
 * database's game is not built in, else none (the built-in game). */
static const char *database_game(const serve_args *a, const char *path)
{
    loopy_db *db = NULL;
    loopy_diag diag;
    const char *game = NULL;

    if (a->game == NULL)
        return NULL;
    memset(&diag, 0, sizeof diag);
    /* A file that cannot be read is said so by the open that follows. */
    if (loopy_db_open(path, &db, &diag) == LOOPY_OK && !cli_db_builtin(db))
        game = a->game;
    loopy_db_close(db);
    return game;
}

/* The game_args of a GAME that serve opens and solves, as loopy game
 * would with serve's options (its messages name serve). */
static void game_args_of(const serve_args *a, const char *spec,
                         game_args *ga)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;

    memset(ga, 0, sizeof *ga);
    ga->cmd = "serve";
    ga->spec = spec;
    ga->solve = defaults;
    ga->solve.threads = a->threads;
    ga->solve.misere = a->misere;
    ga->quiet = a->quiet; /* no progress line under -q */
}

/* Opens a FILE.ldb, or a GAME (solved later: served_solve), into g, and
 * names it (g->id); prints the reason and returns the exit status on
 * failure. */
static int served_open(const serve_args *a, const char *spec, served_game *g)
{
    const char *params;
    size_t size;
    int rc;

    g->source = spec;
    /* A name ending in .ldb is a database, never a game (a game's name
     * has no '.'): one that cannot be read is said so. */
    if (cli_names_database(spec) && strchr(spec, ':') == NULL &&
        !cli_is_database(spec)) {
        struct stat st;
        cli_error("serve", "%s: cannot open the database: %s", spec,
                  strerror(stat(spec, &st) != 0 ? errno : EISDIR));
        return EXIT_IO;
    }
    if (cli_is_database(spec)) {
        rc = cli_db_open_with("serve", spec, database_game(a, spec), 0, 0,
                              &g->db, &g->game);
        if (rc != EXIT_OK)
            return rc;
        g->misere = loopy_db_misere(g->db) != 0;
        if (!a->quiet)
            fprintf(stderr, "loopy serve: %s: %" PRIu64 " positions\n", spec,
                    loopy_db_size(g->db));
    } else {
        game_args ga;

        game_args_of(a, spec, &ga);
        rc = game_open(&ga, &g->game);
        g->misere = a->misere;
        if (rc != EXIT_OK)
            return rc;
    }
    params = g->game->params;
    size = strlen(g->game->name) + strlen(params) + 16;
    g->id = malloc(size);
    if (g->id == NULL) {
        cli_error("serve", "out of memory");
        return EXIT_RESOURCE;
    }
    snprintf(g->id, size, "%s%s%s%s", g->game->name, params[0] ? ":" : "",
             params, g->misere ? "~misere" : "");
    return EXIT_OK;
}

/* Solves g's game, unless a database answers for it; prints the reason
 * and returns the exit status on failure. */
static int served_solve(const serve_args *a, served_game *g)
{
    game_args ga;
    double seconds;
    int rc;

    if (g->db != NULL)
        return EXIT_OK;
    game_args_of(a, g->source, &ga);
    rc = game_solve_open(&ga, g->game, &g->solution, &seconds);
    if (rc != EXIT_OK)
        return rc;
    if (!a->quiet)
        fprintf(stderr, "loopy serve: %s: %" PRIu64 " positions, solved "
                "in %.3f s\n", g->source,
                loopy_game_solution_size(g->solution), seconds);
    return EXIT_OK;
}

static void server_free(server *sv)
{
    for (size_t i = 0; i < sv->count; i++) {
        free(sv->games[i].id);
        loopy_game_solution_free(sv->games[i].solution);
        loopy_game_close(sv->games[i].game);
        loopy_db_close(sv->games[i].db);
    }
    free(sv->games);
    serve_release(sv);
}

/* Serves until SIGINT or SIGTERM (or SIGHUP, unless ignored). */
static int serve_run(const serve_args *a, server *sv, int listen_fd,
                     const char *url)
{
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    struct MHD_Daemon *daemon;
    struct sigaction sa;
    int pipe_fds[2];
    unsigned threads;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    char byte;

    if (pipe(pipe_fds) != 0) {
        cli_error("serve", "cannot make a pipe: %s", strerror(errno));
        close(listen_fd);
        return EXIT_RESOURCE;
    }
    stop_fd = pipe_fds[1];
    /* The handler writes to the pipe the main thread waits on, from
     * whichever thread the signal lands on (the server's, OpenMP's). */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof stops / sizeof stops[0]; k++) {
        struct sigaction old;
        if (sigaction(stops[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(stops[k], &sa, NULL);
    }
    /* A client that goes away mid-answer is no reason to end. */
    signal(SIGPIPE, SIG_IGN);
    /* poll(), not epoll: libmicrohttpd 0.9.75's edge-triggered epoll can
     * miss a client's end that arrives with its last bytes, and keep the
     * connection until its timeout. */
    threads = a->threads > 0 ? (unsigned)a->threads
              : online > 0    ? (unsigned)online
                              : 1;
    daemon = MHD_start_daemon(
        MHD_USE_POLL_INTERNAL_THREAD, 0, NULL, NULL, serve_on_request, sv,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_MEMORY,
        MHD_OPTION_URI_LOG_CALLBACK, serve_on_url, NULL,
        MHD_OPTION_NOTIFY_COMPLETED, serve_on_completed, NULL,
        MHD_OPTION_UNESCAPE_CALLBACK, serve_on_unescape, NULL,
        MHD_OPTION_END);
    if (daemon == NULL) {
        cli_error("serve", "%s: libmicrohttpd could not start the server: %s",
                  url, strerror(errno));
        close(listen_fd);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return EXIT_RESOURCE;
    }
    printf("%s\n", url);
    if (fflush(stdout) != 0 || ferror(stdout))
        cli_error("serve", "standard output: write failed: %s",
                  strerror(errno));
    if (!a->quiet) {
        fprintf(stderr, "loopy serve: serving %zu game%s at %s (Ctrl-C "
                "stops)\n", sv->count, sv->count == 1 ? "" : "s", url);
        if (!is_loopback(url))
            fprintf(stderr, "loopy serve: %s is not this machine's loopback "
                    "address: anyone who reaches it may use the page\n",
                    a->host);
    }
    while (read(pipe_fds[0], &byte, 1) < 0 && errno == EINTR)
        continue;
    /* Lets the answers under way finish, then closes every connection
     * and the listening socket. */
    MHD_stop_daemon(daemon);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    stop_fd = -1;
    if (!a->quiet)
        fprintf(stderr, "loopy serve: stopped (%s)\n",
                stop_signal == SIGINT    ? "SIGINT"
                : stop_signal == SIGTERM ? "SIGTERM"
                                         : "SIGHUP");
    return EXIT_OK;
}

int cmd_serve(int argc, char **argv)
{
    serve_args a;
    server sv;
    char *url = NULL;
    int listen_fd = -1, rc;

    memset(&a, 0, sizeof a);
    memset(&sv, 0, sizeof sv);
    a.host = "127.0.0.1";
    a.port = "8080";
    a.specs = calloc((size_t)argc, sizeof *a.specs);
    if (a.specs == NULL) {
        cli_error("serve", "out of memory");
        return EXIT_RESOURCE;
    }
    rc = serve_parse_args(argc, argv, &a);
    if (rc != EXIT_OK)
        goto done;
    if (a.spec_count == 0) {
        cli_error("serve", "expected a FILE.ldb or a GAME to serve (such as "
                  "'loopy serve tictactoe'; see 'loopy serve --help')");
        rc = EXIT_USAGE;
        goto done;
    }
    /* The address first: a port in use is said before a long solve. */
    rc = serve_listen(a.host, a.port, &listen_fd, &url);
    if (rc != EXIT_OK)
        goto done;
    sv.games = calloc(a.spec_count, sizeof *sv.games);
    if (sv.games == NULL) {
        cli_error("serve", "out of memory");
        rc = EXIT_RESOURCE;
        goto done;
    }
    /* Every game opened and named before any is solved: a game given
     * twice is said before a long solve. */
    for (size_t i = 0; i < a.spec_count && rc == EXIT_OK; i++) {
        sv.count++;
        rc = served_open(&a, a.specs[i], &sv.games[i]);
        for (size_t k = 0; k < i && rc == EXIT_OK; k++)
            if (strcmp(sv.games[k].id, sv.games[i].id) == 0) {
                cli_error("serve", "%s and %s are both %s: serve one of them",
                          sv.games[k].source, a.specs[i], sv.games[i].id);
                rc = EXIT_USAGE;
            }
    }
    for (size_t i = 0; i < sv.count && rc == EXIT_OK; i++)
        rc = served_solve(&a, &sv.games[i]);
    sv.loopback = is_loopback(url);
    if (rc == EXIT_OK)
        rc = serve_prepare(&sv);
    if (rc == EXIT_OK) {
        rc = serve_run(&a, &sv, listen_fd, url);
        listen_fd = -1; /* closed by the server */
    }
done:
    if (listen_fd >= 0)
        close(listen_fd);
    server_free(&sv);
    free(url);
    free(a.specs);
    return rc < 0 ? EXIT_OK : rc;
}

#endif
