/* game_check.c - "loopy game check": a game's rules checked on its
 * positions (loopy_game_check) before hours go into solving them. */
#include "game.h"

#include <string.h>
#include <time.h>

static const char *const scope_words[] = {"auto", "every", "reachable",
                                          "sample", "walks"};

bool game_check_scope(const char *text, loopy_game_check_scope *scope)
{
    for (size_t i = 0; i < sizeof scope_words / sizeof scope_words[0]; i++)
        if (strcmp(text, scope_words[i]) == 0) {
            *scope = (loopy_game_check_scope)i;
            return true;
        }
    cli_error("game",
              "--positions: expected auto, every, reachable, sample "
              "or walks, found '%s'",
              text);
    return false;
}

/* The positions examined, in words: "every legal index", "the 100000
 * nearest the start and 100000 along random games". */
static void out_scope(cli_out *out, const loopy_game_check_report *r)
{
    switch (r->scope) {
    case LOOPY_CHECK_EVERY:
        cli_out_str(out, r->complete ? "every legal index"
                                     : "the legal indices from 0 on");
        break;
    case LOOPY_CHECK_REACHABLE:
        if (r->complete) {
            cli_out_str(out, "all reachable from the start");
            break;
        }
        cli_out_u64(out, r->reachable);
        cli_out_str(out, " nearest the start");
        if (r->walked > 0) {
            cli_out_str(out, ", ");
            cli_out_u64(out, r->walked);
            cli_out_str(out, " along random games");
        }
        break;
    case LOOPY_CHECK_SAMPLE:
        cli_out_str(out, "the start and random ones of ");
        cli_out_u64(out, r->drawn);
        cli_out_str(out, " indices drawn");
        break;
    default:
        cli_out_str(out, "along random games");
        break;
    }
}

int game_check(const game_args *a)
{
    loopy_game_check_options options = a->check;
    loopy_game_check_report report;
    loopy_game *game = NULL;
    loopy_diag diag;
    loopy_status status;
    struct timespec start;
    const char *parts[5];
    size_t part_count = 0;
    double seconds;
    cli_out out;
    int rc = EXIT_OK;

    rc = game_open(a, &game);
    if (rc != EXIT_OK)
        return rc;
    options.no_symmetry = a->solve.no_symmetry;
    /* --positions every means every index, unless --limit says fewer. */
    if (options.scope == LOOPY_CHECK_EVERY && options.limit == 0)
        options.limit = UINT64_MAX;
    clock_gettime(CLOCK_MONOTONIC, &start);
    memset(&diag, 0, sizeof diag);
    status = loopy_game_check(game, &options, &report, &diag);
    seconds = cli_seconds_since(&start);
    if (status != LOOPY_OK) {
        /* A flaw in the rules: the input (the game) is rejected. */
        cli_error("game", "%s",
                  diag.message[0] ? diag.message : loopy_strerror(status));
        rc = status == LOOPY_EGAME ? EXIT_INPUT : cli_exit_status(status);
        goto done;
    }
    parts[part_count++] = "moves";
    if (game->unmoves != NULL)
        parts[part_count++] = "unmoves";
    if (game->canonical != NULL && !options.no_symmetry)
        parts[part_count++] = "symmetry";
    if (game->format != NULL && game->parse != NULL)
        parts[part_count++] = "notation";
    if (game->tier_children != NULL)
        parts[part_count++] = "tiers";
    if (!cli_out_open(&out, "game", a->output)) {
        rc = EXIT_IO;
        goto done;
    }
    if (a->json) {
        cli_out_str(&out, "{\"game\": ");
        game_out_json_string(&out, game->name);
        cli_out_str(&out, ", \"parameters\": ");
        game_out_json_string(&out, game->params);
        cli_out_str(&out, ", \"positions\": \"");
        cli_out_str(&out, scope_words[report.scope]);
        cli_out_str(&out, "\", \"complete\": ");
        cli_out_str(&out, report.complete ? "true" : "false");
        cli_out_str(&out, ", \"checked\": ");
        cli_out_u64(&out, report.checked);
        cli_out_str(&out, ", \"reachable\": ");
        cli_out_u64(&out, report.reachable);
        cli_out_str(&out, ", \"walked\": ");
        cli_out_u64(&out, report.walked);
        cli_out_str(&out, ", \"drawn\": ");
        cli_out_u64(&out, report.drawn);
        cli_out_str(&out, ", \"checks\": [");
        for (size_t i = 0; i < part_count; i++) {
            cli_out_str(&out, i ? ", \"" : "\"");
            cli_out_str(&out, parts[i]);
            cli_out_char(&out, '"');
        }
        cli_out_str(&out, "]}\n");
    } else {
        cli_out_str(&out, game->name);
        if (game->params[0]) {
            cli_out_char(&out, ':');
            cli_out_str(&out, game->params);
        }
        cli_out_str(&out, ": ");
        cli_out_u64(&out, report.checked);
        cli_out_str(&out, report.checked == 1 ? " position checked ("
                                              : " positions checked (");
        out_scope(&out, &report);
        cli_out_str(&out, "): ");
        for (size_t i = 0; i < part_count; i++) {
            cli_out_str(&out, i == 0               ? ""
                              : i + 1 < part_count ? ", "
                                                   : " and ");
            cli_out_str(&out, parts[i]);
        }
        cli_out_str(&out, part_count > 1 ? " agree\n" : " in order\n");
    }
    if (!cli_out_close(&out, "game"))
        rc = EXIT_IO;
    if (rc == EXIT_OK && !a->quiet)
        fprintf(stderr, "loopy game: checked in %.3f s\n", seconds);
done:
    loopy_game_close(game);
    return rc;
}
