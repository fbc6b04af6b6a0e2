/* game_dot.c - "loopy game probe -f dot": the Graphviz graph of the
 * positions reachable from one, for a teacher's drawing of a small game
 * (tic-tac-toe's endgame, a ladder game).
 *
 * The positions are found breadth first from the root through the moves
 * the solution (or the database) lists, each once, and refused past
 * --limit of them.  They are drawn as `loopy solve -f dot` draws a graph:
 * filled by value (W green, L red, D yellow, T blue), with the remoteness;
 * the best move of each (the one loopy plays) bold; a position where the
 * game is over ringed twice.  A position is labelled with its text, a line
 * for each part between '/' (a board's rows), and a move with its name
 * when the game names moves. */
#include "game.h"

#include <stdlib.h>
#include <string.h>

typedef struct dot_node {
    loopy_position pos;
    loopy_outcome outcome;
    uint32_t remoteness;
    size_t first, count; /* its moves: edges[first .. first + count) */
} dot_node;

typedef struct dot_graph {
    dot_node *nodes;
    size_t node_count, node_capacity;
    uint32_t *edges; /* node numbers, best move first */
    size_t edge_count, edge_capacity;
    /* Open addressing: slot holds a node's number + 1, 0 when empty. */
    uint32_t *slots;
    size_t slot_count; /* a power of two, at least twice the nodes */
} dot_graph;

static size_t slot_of(const dot_graph *g, loopy_position pos)
{
    /* Fibonacci hashing spreads consecutive indices. */
    return (size_t)((pos * UINT64_C(0x9e3779b97f4a7c15)) >> 17) &
           (g->slot_count - 1);
}

/* The number of pos's node, added when new (*added); UINT32_MAX when
 * memory ran out. */
static uint32_t node_of(dot_graph *g, loopy_position pos, bool *added)
{
    size_t at;

    *added = false;
    if (2 * (g->node_count + 1) > g->slot_count) {
        size_t count = g->slot_count ? 2 * g->slot_count : 1024;
        uint32_t *slots = calloc(count, sizeof *slots);
        if (slots == NULL)
            return UINT32_MAX;
        free(g->slots);
        g->slots = slots;
        g->slot_count = count;
        for (size_t i = 0; i < g->node_count; i++) {
            at = slot_of(g, g->nodes[i].pos);
            while (g->slots[at] != 0)
                at = (at + 1) & (g->slot_count - 1);
            g->slots[at] = (uint32_t)i + 1;
        }
    }
    for (at = slot_of(g, pos); g->slots[at] != 0;
         at = (at + 1) & (g->slot_count - 1))
        if (g->nodes[g->slots[at] - 1].pos == pos)
            return g->slots[at] - 1;
    if (g->node_count == g->node_capacity) {
        size_t want = g->node_capacity ? 2 * g->node_capacity : 256;
        dot_node *nodes = realloc(g->nodes, want * sizeof *nodes);
        if (nodes == NULL)
            return UINT32_MAX;
        g->nodes = nodes;
        g->node_capacity = want;
    }
    memset(&g->nodes[g->node_count], 0, sizeof g->nodes[0]);
    g->nodes[g->node_count].pos = pos;
    g->slots[at] = (uint32_t)g->node_count + 1;
    *added = true;
    return (uint32_t)g->node_count++;
}

static bool add_edge(dot_graph *g, uint32_t to)
{
    if (g->edge_count == g->edge_capacity) {
        size_t want = g->edge_capacity ? 2 * g->edge_capacity : 1024;
        uint32_t *edges = realloc(g->edges, want * sizeof *edges);
        if (edges == NULL)
            return false;
        g->edges = edges;
        g->edge_capacity = want;
    }
    g->edges[g->edge_count++] = to;
    return true;
}

/* A text inside a Graphviz string: '"' and '\' escaped, and '/' (between
 * a board's rows) a new line when lines. */
static void out_dot_text(cli_out *out, const char *text, bool lines)
{
    for (; *text != '\0'; text++) {
        if (*text == '"' || *text == '\\')
            cli_out_char(out, '\\');
        if (lines && *text == '/')
            cli_out_str(out, "\\n");
        else
            cli_out_char(out, *text);
    }
}

/* The text of node i: the root as given, the others in the game's
 * notation. */
static const char *node_text(const loopy_game *game, const dot_graph *g,
                             size_t i, const char *root, char *out,
                             size_t capacity)
{
    if (i == 0 && root != NULL && game->move_format != NULL) {
        snprintf(out, capacity, "%s", root);
        return out;
    }
    return loopy_game_format(game, g->nodes[i].pos, out, capacity);
}

static void write_graph(cli_out *out, const loopy_game *game,
                        const dot_graph *g, const char *root)
{
    static const char *const fill[] = {"#f2d16b", "#8fd18f", "#ef8f8f",
                                       "#8fb8ef"};
    bool names = game->move_format != NULL || game->move_label != NULL;
    char text[256], name[128];

    cli_out_str(out, "digraph loopy {\n  label=\"");
    out_dot_text(out, game->name, false);
    if (game->params[0]) {
        cli_out_char(out, ':');
        out_dot_text(out, game->params, false);
    }
    cli_out_str(out, ": W: player to move wins (green), L: loses (red), "
                     "T: tie (blue), D: draw (yellow); number: remoteness; "
                     "bold: best move; double ring: game over\";\n"
                     "  node [shape=box, style=\"rounded,filled\", "
                     "fontname=\"Courier\"];\n");
    for (size_t i = 0; i < g->node_count; i++) {
        const dot_node *n = &g->nodes[i];
        cli_out_str(out, "  p");
        cli_out_u64(out, i);
        cli_out_str(out, " [label=\"");
        out_dot_text(out, node_text(game, g, i, root, text, sizeof text),
                     true);
        cli_out_str(out, "\\n");
        cli_out_char(out, game_value_letter[n->outcome]);
        if (n->outcome != LOOPY_DRAW) {
            cli_out_char(out, ' ');
            cli_out_u64(out, n->remoteness);
        }
        cli_out_str(out, "\", fillcolor=\"");
        cli_out_str(out, fill[n->outcome]);
        cli_out_str(out, n->count == 0 ? "\", peripheries=2];\n" : "\"];\n");
    }
    for (size_t i = 0; i < g->node_count; i++) {
        const dot_node *n = &g->nodes[i];
        if (names && n->count > 0)
            node_text(game, g, i, root, text, sizeof text);
        for (size_t e = 0; e < n->count; e++) {
            uint32_t to = g->edges[n->first + e];
            cli_out_str(out, "  p");
            cli_out_u64(out, i);
            cli_out_str(out, " -> p");
            cli_out_u64(out, to);
            cli_out_str(out, e == 0 ? " [style=bold, penwidth=2.5"
                                    : " [color=\"#888888\"");
            if (names) {
                if (game->move_format != NULL)
                    loopy_game_move_name(game, text, g->nodes[to].pos, name,
                                         sizeof name, NULL, 0);
                else
                    loopy_game_move_label(game, text, g->nodes[to].pos, NULL,
                                          name, sizeof name);
                cli_out_str(out, ", label=\"");
                out_dot_text(out, name, false);
                cli_out_char(out, '"');
            }
            cli_out_str(out, "];\n");
        }
    }
    cli_out_str(out, "}\n");
}

int game_dot(cli_out *out, const game_args *a, const loopy_game *game,
             const loopy_game_solution *s, const loopy_db *db,
             loopy_position pos, const char *text)
{
    dot_graph g;
    char name[256];
    bool added;
    int rc = EXIT_OK;

    memset(&g, 0, sizeof g);
    if (node_of(&g, pos, &added) == UINT32_MAX) {
        rc = EXIT_RESOURCE;
        goto out_of_memory;
    }
    /* Breadth first: node i's moves are looked up when its turn comes. */
    for (size_t i = 0; i < g.node_count; i++) {
        loopy_game_move *moves = NULL;
        size_t count = 0;

        node_text(game, &g, i, text, name, sizeof name);
        rc = game_lookup(a, game, s, db, g.nodes[i].pos, name,
                         &g.nodes[i].outcome, &g.nodes[i].remoteness, &moves,
                         &count);
        if (rc != EXIT_OK)
            goto done;
        g.nodes[i].first = g.edge_count;
        g.nodes[i].count = count;
        for (size_t k = 0; k < count; k++) {
            uint32_t to = node_of(&g, moves[k].to, &added);
            if (to == UINT32_MAX || !add_edge(&g, to)) {
                free(moves);
                rc = EXIT_RESOURCE;
                goto out_of_memory;
            }
            if (g.node_count > a->dot_limit) {
                free(moves);
                node_text(game, &g, 0, text, name, sizeof name);
                cli_error("game", "-f dot: more than %" PRIu64 " positions "
                          "are reachable from %s: draw a later position, or "
                          "allow more with --limit", a->dot_limit, name);
                rc = EXIT_INPUT;
                goto done;
            }
        }
        free(moves);
    }
    write_graph(out, game, &g, text);
    goto done;
out_of_memory:
    cli_error("game", "-f dot: out of memory");
done:
    free(g.nodes);
    free(g.edges);
    free(g.slots);
    return rc;
}
