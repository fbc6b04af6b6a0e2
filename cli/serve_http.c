/* serve_http.c - the answers of "loopy serve": the page's files (built
 * into the program from web/ by web/embed.sh), the JSON API (a position's
 * answer is game_probe_json's, the JSON of 'loopy game probe -f json'),
 * and errors as JSON with their status.  A request never names a file:
 * the page's files are the program's, the games those opened at start.
 * Called by libmicrohttpd on its threads at once: everything here reads
 * the server, never changes it. */
#include "serve.h"
#include "serve_assets.h"
#include "serve_url.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The statuses answered (libmicrohttpd's names changed over versions). */
enum {
    HTTP_OK = 200,
    HTTP_BAD_REQUEST = 400,
    HTTP_FORBIDDEN = 403,
    HTTP_NOT_FOUND = 404,
    HTTP_METHOD_NOT_ALLOWED = 405,
    HTTP_CONTENT_TOO_LARGE = 413,
    HTTP_URI_TOO_LONG = 414,
    HTTP_SERVER_ERROR = 500
};

/* What the server knows of a request between the calls of its handler. */
typedef struct request {
    size_t url_len; /* the URL as sent: path and query */
    bool checked;   /* the method, body and URL were looked at */
    bool answered;
} request;

/* ---- Responses ---- */

/* Headers every answer carries: a page that loads nothing from anywhere
 * else, types that are not guessed, nothing kept of the API. */
static bool add_headers(struct MHD_Response *r, const char *type, bool keep)
{
    return MHD_add_response_header(r, "Content-Type", type) == MHD_YES &&
           MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") ==
               MHD_YES &&
           MHD_add_response_header(r, "Referrer-Policy", "no-referrer") ==
               MHD_YES &&
           MHD_add_response_header(
               r, "Content-Security-Policy",
               "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
               "form-action 'self'; frame-ancestors 'none'") == MHD_YES &&
           MHD_add_response_header(r, "Cache-Control",
                                   keep ? "no-cache" : "no-store") == MHD_YES;
}

/* A response's body, written through a cli_out onto memory. */
typedef struct body {
    cli_out *out;
    FILE *file;
    char *bytes;
    size_t size;
} body;

static bool body_open(body *b)
{
    b->bytes = NULL;
    b->size = 0;
    b->file = NULL;
    b->out = malloc(sizeof *b->out);
    if (b->out == NULL)
        return false;
    b->file = open_memstream(&b->bytes, &b->size);
    if (b->file == NULL) {
        free(b->out);
        b->out = NULL;
        return false;
    }
    cli_out_open_stream(b->out, b->file, "an answer");
    return true;
}

/* Ends the body: true with its bytes in b->bytes[0 .. b->size), which
 * the caller frees; false (nothing to free) when memory ran out. */
static bool body_close(body *b)
{
    bool ok = cli_out_close(b->out, "serve");

    if (fclose(b->file) != 0)
        ok = false;
    free(b->out);
    if (!ok) {
        free(b->bytes);
        b->bytes = NULL;
    }
    return ok;
}

/* Queues bytes[0 .. size) (malloc'd; taken over) with status. */
static serve_result send_bytes(struct MHD_Connection *c, unsigned status,
                               const char *type, char *bytes, size_t size)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(size, bytes, MHD_RESPMEM_MUST_FREE);
    serve_result ok;

    if (r == NULL) {
        free(bytes);
        return MHD_NO;
    }
    ok = add_headers(r, type, false) ? MHD_queue_response(c, status, r)
                                     : MHD_NO;
    MHD_destroy_response(r);
    return ok;
}

/* {"error": "MESSAGE"} with status; a 405 says what is allowed. */
static serve_result send_error(struct MHD_Connection *c, unsigned status,
                               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static serve_result send_error(struct MHD_Connection *c, unsigned status,
                               const char *fmt, ...)
{
    struct MHD_Response *r;
    va_list ap;
    char *message;
    body b;
    int len;
    serve_result ok;

    /* The message may quote what the request sent: measured first. */
    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0 || (message = malloc((size_t)len + 1)) == NULL)
        return MHD_NO;
    va_start(ap, fmt);
    vsnprintf(message, (size_t)len + 1, fmt, ap);
    va_end(ap);
    if (!body_open(&b)) {
        free(message);
        return MHD_NO;
    }
    cli_out_str(b.out, "{\"error\": ");
    game_out_json_string(b.out, message);
    cli_out_str(b.out, "}\n");
    free(message);
    if (!body_close(&b))
        return MHD_NO;
    r = MHD_create_response_from_buffer(b.size, b.bytes, MHD_RESPMEM_MUST_FREE);
    if (r == NULL) {
        free(b.bytes);
        return MHD_NO;
    }
    ok = add_headers(r, "application/json", false) &&
                 (status != HTTP_METHOD_NOT_ALLOWED ||
                  MHD_add_response_header(r, "Allow", "GET, HEAD") == MHD_YES)
             ? MHD_queue_response(c, status, r)
             : MHD_NO;
    MHD_destroy_response(r);
    return ok;
}

/* ---- The API ---- */

/* The query argument key: its value in *value (NULL when absent or given
 * without '='); false after answering 400 when it holds a NUL byte (%00),
 * which would cut it short. */
static bool query_arg(struct MHD_Connection *c, const char *key,
                      const char **value, serve_result *answer)
{
    size_t size = 0;

    *value = NULL;
    if (MHD_lookup_connection_value_n(c, MHD_GET_ARGUMENT_KIND, key,
                                      strlen(key), value, &size) != MHD_YES)
        *value = NULL;
    if (*value != NULL && strlen(*value) != size) {
        *answer = send_error(c, HTTP_BAD_REQUEST,
                             "%s: a NUL byte (%%00) in the value", key);
        return false;
    }
    return true;
}

/* GET /api/probe?game=ID&position=TEXT */
static serve_result api_probe(const server *sv, struct MHD_Connection *c)
{
    const served_game *g = NULL;
    const char *id, *text;
    loopy_position pos;
    loopy_diag diag;
    loopy_status status;
    loopy_outcome outcome;
    uint32_t remoteness;
    loopy_game_move *moves = NULL;
    size_t count = 0;
    char name[GAME_NAME_CAPACITY];
    serve_result answer = MHD_NO;
    body b;

    if (!query_arg(c, "game", &id, &answer) ||
        !query_arg(c, "position", &text, &answer))
        return answer;
    if (id == NULL)
        return send_error(c, HTTP_BAD_REQUEST, "expected the game: "
                          "/api/probe?game=ID&position=TEXT (the games' ids: "
                          "/api/games)");
    for (size_t i = 0; i < sv->count && g == NULL; i++)
        if (strcmp(sv->games[i].id, id) == 0)
            g = &sv->games[i];
    if (g == NULL)
        return send_error(c, HTTP_NOT_FOUND, "unknown game '%s' (the "
                          "games served: /api/games)", id);
    memset(&diag, 0, sizeof diag);
    if (text == NULL)
        pos = g->game->start;
    else if (loopy_game_parse(g->game, text, &pos, &diag) != LOOPY_OK)
        return send_error(c, HTTP_BAD_REQUEST, "%s", diag.message);
    game_probe_name(g->game, text, pos, name, sizeof name);
    /* As game_lookup finds it, without printing: the moves first (their
     * lookup says why pos is missing), then the value. */
    memset(&diag, 0, sizeof diag);
    if (g->db != NULL) {
        status = loopy_db_moves(g->db, g->game, pos, &moves, &count, &diag);
        if (status == LOOPY_OK)
            status = loopy_db_value(g->db, g->game, pos, &outcome, &remoteness);
    } else {
        status = loopy_game_solution_value(g->solution, g->game, pos, &outcome,
                                           &remoteness);
        if (status == LOOPY_OK)
            status = loopy_game_solution_moves(g->solution, g->game, pos,
                                               &moves, &count, &diag);
    }
    if (status == LOOPY_EINVAL) {
        free(moves);
        return send_error(c, HTTP_NOT_FOUND, "%s: not reachable from the "
                          "start position", name);
    }
    if (status != LOOPY_OK) {
        free(moves);
        /* A damaged database is the file's fault, named; the rest the
         * position's. */
        return send_error(c, HTTP_SERVER_ERROR, "%s: %s",
                          status == LOOPY_EFORMAT || status == LOOPY_EIO
                              ? g->source : name,
                          diag.message[0] ? diag.message
                                          : loopy_strerror(status));
    }
    /* The array 'loopy game probe -f json GAME TEXT' prints, to the byte. */
    if (!body_open(&b)) {
        free(moves);
        return MHD_NO;
    }
    cli_out_char(b.out, '[');
    game_probe_json(b.out, g->game, name, g->misere, outcome, remoteness,
                    moves, count);
    cli_out_str(b.out, "]\n");
    free(moves);
    if (!body_close(&b))
        return send_error(c, HTTP_SERVER_ERROR, "out of memory");
    return send_bytes(c, HTTP_OK, "application/json", b.bytes, b.size);
}

/* The builtin definition of game's kind, or NULL (a shared object's). */
static const loopy_game_def *builtin_def(const loopy_game *game)
{
    for (size_t i = 0; i < loopy_game_builtin_count(); i++)
        if (strcmp(loopy_game_builtin(i)->name, game->name) == 0)
            return loopy_game_builtin(i);
    return NULL;
}

/* The body of GET /api/games: for each game its id, name, parameters,
 * play, where it comes from, its start and size, and, for a built-in
 * game, its summary and notation as 'loopy game list -f json' gives
 * them. */
static bool games_json(const server *sv, body *b)
{
    if (!body_open(b))
        return false;
    cli_out_char(b->out, '[');
    for (size_t i = 0; i < sv->count; i++) {
        const served_game *g = &sv->games[i];
        const loopy_game_def *d = builtin_def(g->game);
        const char *file = strrchr(g->source, '/');
        char start[GAME_NAME_CAPACITY];

        game_probe_name(g->game, NULL, g->game->start, start, sizeof start);
        cli_out_str(b->out, i ? ",\n {\"id\": " : "{\"id\": ");
        game_out_json_string(b->out, g->id);
        cli_out_str(b->out, ", \"game\": ");
        game_out_json_string(b->out, g->game->name);
        cli_out_str(b->out, ", \"parameters\": ");
        game_out_json_string(b->out, g->game->params);
        cli_out_str(b->out, g->misere ? ", \"misere\": true"
                                      : ", \"misere\": false");
        /* A database by its file's name only: where it lies on this
         * machine is none of the page's business. */
        if (g->db != NULL) {
            cli_out_str(b->out, ", \"source\": \"database\", \"file\": ");
            game_out_json_string(b->out, file != NULL ? file + 1 : g->source);
        } else {
            cli_out_str(b->out, ", \"source\": \"solved\"");
        }
        cli_out_str(b->out, ", \"positions\": ");
        cli_out_u64(b->out, g->db != NULL ? loopy_db_size(g->db)
                                          : loopy_game_solution_size(g->solution));
        cli_out_str(b->out, ", \"start\": ");
        game_out_json_string(b->out, start);
        cli_out_str(b->out, g->game->move_format != NULL
                                ? ", \"names_moves\": true"
                                : ", \"names_moves\": false");
        if (d != NULL) {
            cli_out_str(b->out, ", \"summary\": ");
            game_out_json_string(b->out, d->summary);
            cli_out_str(b->out, ", \"notation\": ");
            game_out_json_string(b->out, d->notation_help);
        }
        cli_out_char(b->out, '}');
    }
    cli_out_str(b->out, "]\n");
    return body_close(b);
}

/* ---- Requests ---- */

/* Called with the URL as sent, before it is parsed: its length is kept
 * for the handler (the path it is given has lost the query).  A NULL
 * (no memory) is answered 500. */
void *serve_on_url(void *cls, const char *url, struct MHD_Connection *c)
{
    request *r = malloc(sizeof *r);

    (void)cls;
    (void)c;
    if (r != NULL) {
        r->url_len = strlen(url);
        r->checked = false;
        r->answered = false;
    }
    return r;
}

void serve_on_completed(void *cls, struct MHD_Connection *c, void **req_cls,
                        enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)c;
    (void)why;
    free(*req_cls);
    *req_cls = NULL;
}

/* URL decoding as forms write it: %XX is the byte XX, '+' a space; a
 * malformed escape stays as it is.  Never lengthens s; a %00 is kept as a
 * NUL inside the value (query_arg refuses it). */
size_t serve_on_unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    return serve_url_decode(s);
}

/* Counts the Host headers of a request (*cls, a size_t). */
static serve_result count_hosts(void *cls, enum MHD_ValueKind kind,
                                const char *key, const char *value)
{
    (void)kind;
    (void)value;
    if (strcasecmp(key, "Host") == 0)
        ++*(size_t *)cls;
    return MHD_YES;
}

serve_result serve_on_request(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload_data,
                              size_t *upload_data_size, void **req_cls)
{
    const server *sv = cls;
    request *r = *req_cls;
    const char *length, *chunked;
    size_t hosts = 0;

    (void)version;
    (void)upload_data;
    if (r == NULL)
        return *upload_data_size != 0
                   ? MHD_NO
                   : send_error(c, HTTP_SERVER_ERROR, "out of memory");
    /* The first call, with the headers: what is refused is refused at
     * once, before any body is read (the connection then closes).  The
     * answer comes at the next call, the request complete, so that the
     * connection may carry more requests. */
    if (!r->checked) {
        r->checked = true;
        if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
            return send_error(c, HTTP_METHOD_NOT_ALLOWED, "method %s: only "
                              "GET and HEAD are answered", method);
        length = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                             "Content-Length");
        chunked = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                              "Transfer-Encoding");
        if ((length != NULL && strspn(length, "0") != strlen(length)) ||
            chunked != NULL)
            return send_error(c, HTTP_CONTENT_TOO_LARGE, "a request body: "
                              "this server reads none");
        /* RFC 9112, 3.2: more than one Host is a bad request (and the
         * loopback check below reads the first alone). */
        if (MHD_get_connection_values(c, MHD_HEADER_KIND, count_hosts,
                                      &hosts) >= 0 &&
            hosts > 1)
            return send_error(c, HTTP_BAD_REQUEST, "%zu Host headers: a "
                              "request names its host once", hosts);
        if (sv->loopback) {
            const char *host =
                MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
            if (!serve_host_is_loopback(host))
                return send_error(c, HTTP_FORBIDDEN, "Host %s: this server "
                                  "answers for this machine's loopback "
                                  "address only (localhost, 127.0.0.1, "
                                  "[::1]): another name that leads here is "
                                  "refused (DNS rebinding)", host);
        }
        if (r->url_len > SERVE_URL_MAX)
            return send_error(c, HTTP_URI_TOO_LONG, "the URL has %zu bytes, "
                              "more than %d", r->url_len, SERVE_URL_MAX);
        return MHD_YES;
    }
    /* No body gets past the first call; a call after the answer is
     * libmicrohttpd's business. */
    if (*upload_data_size != 0 || r->answered) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    r->answered = true;
    for (size_t i = 0; i < serve_asset_count; i++)
        if (strcmp(url, serve_assets[i].path) == 0 ||
            (strcmp(url, "/") == 0 &&
             strcmp(serve_assets[i].path, "/index.html") == 0))
            return MHD_queue_response(c, HTTP_OK, sv->assets[i]);
    if (strcmp(url, "/api/games") == 0)
        return MHD_queue_response(c, HTTP_OK, sv->games_response);
    if (strcmp(url, "/api/probe") == 0)
        return api_probe(sv, c);
    if (strncmp(url, "/api/", 5) == 0)
        return send_error(c, HTTP_NOT_FOUND, "no such call: %s (the API "
                          "is /api/games and /api/probe)", url);
    return send_error(c, HTTP_NOT_FOUND, "no such page: %s", url);
}

/* The answers made once: /api/games and the page's files. */
int serve_prepare(server *sv)
{
    body b;

    if (!games_json(sv, &b))
        goto fail;
    sv->games_response =
        MHD_create_response_from_buffer(b.size, b.bytes, MHD_RESPMEM_MUST_FREE);
    if (sv->games_response == NULL) {
        free(b.bytes);
        goto fail;
    }
    if (!add_headers(sv->games_response, "application/json", false))
        goto fail;
    sv->assets = calloc(serve_asset_count, sizeof *sv->assets);
    if (sv->assets == NULL)
        goto fail;
    for (size_t i = 0; i < serve_asset_count; i++) {
        const serve_asset *asset = &serve_assets[i];
        /* The bytes are the program's own: never copied, never freed. */
        sv->assets[i] = MHD_create_response_from_buffer(
            asset->size, (void *)(uintptr_t)asset->bytes, MHD_RESPMEM_PERSISTENT);
        if (sv->assets[i] == NULL || !add_headers(sv->assets[i], asset->type, true))
            goto fail;
    }
    return EXIT_OK;
fail:
    cli_error("serve", "out of memory");
    return EXIT_RESOURCE;
}

void serve_release(server *sv)
{
    if (sv->games_response != NULL)
        MHD_destroy_response(sv->games_response);
    sv->games_response = NULL;
    for (size_t i = 0; sv->assets != NULL && i < serve_asset_count; i++)
        if (sv->assets[i] != NULL)
            MHD_destroy_response(sv->assets[i]);
    free(sv->assets);
    sv->assets = NULL;
}
