/*
 * serve.h - what the two files of "loopy serve" share, in a loopy built
 * with libmicrohttpd: cli/serve.c (the command: its options, the games
 * opened or solved, the address, the signals that stop it) and
 * cli/serve_http.c (the answers: the page's files, the JSON API, errors).
 */
#ifndef LOOPY_CLI_SERVE_H
#define LOOPY_CLI_SERVE_H

#include "game.h"

#include <microhttpd.h>

/* libmicrohttpd before 0.9.71 answered int. */
#if MHD_VERSION >= 0x00097002
typedef enum MHD_Result serve_result;
#else
typedef int serve_result;
#endif

/* The longest URL (path and query) answered; a longer one is refused with
 * 414 (libmicrohttpd refuses a request line past SERVE_MEMORY itself). */
#define SERVE_URL_MAX 2048
/* Bytes a connection may hold for a request's line and headers. */
#define SERVE_MEMORY (32 * 1024)
/* Connections at once (more are closed as they come), and the seconds a
 * connection may stay silent before it is closed (a slow client). */
#define SERVE_CONNECTIONS 512
#define SERVE_TIMEOUT 10

/* A game served: a database read, or a GAME solved at start.  Read only
 * once serving: every thread answers from it at once (the library's
 * databases, solutions and games may be read from many threads). */
typedef struct served_game {
    char *id;           /* "chess:KRK": name[:params][~misere] */
    const char *source; /* the command line's FILE.ldb or GAME */
    loopy_game *game;
    loopy_game_solution *solution; /* a GAME's solve, or NULL */
    loopy_db *db;                  /* or the database */
    bool misere;
} served_game;

typedef struct server {
    served_game *games;
    size_t count;
    /* Listening on a loopback address: requests must say a loopback Host
     * (serve_host_is_loopback), which a page of another site cannot. */
    bool loopback;
    /* Answers that never change, made once (serve_prepare): /api/games
     * and the page's files (asset i at assets[i]). */
    struct MHD_Response *games_response;
    struct MHD_Response **assets;
} server;

/* Makes the answers that never change; prints the reason and returns the
 * exit status on failure.  serve_release frees them (and what a failed
 * serve_prepare made). */
int serve_prepare(server *sv);
void serve_release(server *sv);

/* libmicrohttpd's callbacks, cls the server for serve_on_request, NULL
 * for the others: the URL as sent (before it is parsed), a request's end,
 * URL decoding (%XX, and '+' a space), and a request. */
void *serve_on_url(void *cls, const char *url, struct MHD_Connection *c);
void serve_on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
                        enum MHD_RequestTerminationCode why);
size_t serve_on_unescape(void *cls, struct MHD_Connection *c, char *s);
serve_result serve_on_request(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls);

#endif
