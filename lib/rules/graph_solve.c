/*
 * graph_solve.c - solving a game by rules through a graph: the positions
 * reachable from the start are enumerated with moves(), numbered densely
 * in increasing order, and the graph of their distinct moves is solved by
 * the explicit solver (lib/solve), primitive positions becoming its
 * targets.  Needs only the required callbacks; memory grows with the moves,
 * so it suits games of up to some tens of millions of positions.
 *
 * The enumeration is breadth first, in batches of the frontier: the game's
 * callbacks (primitive, moves, canonical) run on all threads, each position
 * writing its distinct successors to its thread's arena; then one thread
 * numbers the new positions in frontier order (a hash table from position
 * to number), so the numbering, and everything after it, does not depend
 * on the thread count.
 */
#include "rules_internal.h"

#include <stdlib.h>
#include <string.h>

/* Frontier positions expanded per parallel batch. */
#define BATCH 16384u

/* ---- A hash table from position to its number ---- */

#define EMPTY UINT64_MAX /* no position is UINT64_MAX: size is at most that */

typedef struct position_map {
    loopy_position *key;
    uint32_t *id;
    uint64_t mask;  /* capacity - 1, a power of two */
    uint64_t count;
} position_map;

static uint64_t mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static loopy_status map_alloc(position_map *m, uint64_t capacity)
{
    m->key = loopy_i_malloc((size_t)capacity, sizeof *m->key);
    m->id = loopy_i_malloc((size_t)capacity, sizeof *m->id);
    if (m->key == NULL || m->id == NULL) {
        loopy_i_free(m->key);
        loopy_i_free(m->id);
        m->key = NULL;
        m->id = NULL;
        return LOOPY_ENOMEM;
    }
    for (uint64_t i = 0; i < capacity; i++)
        m->key[i] = EMPTY;
    m->mask = capacity - 1;
    m->count = 0;
    return LOOPY_OK;
}

static void map_free(position_map *m)
{
    loopy_i_free(m->key);
    loopy_i_free(m->id);
    m->key = NULL;
    m->id = NULL;
}

/* The slot of p: where it is, or the empty slot where it belongs. */
static uint64_t map_slot(const position_map *m, loopy_position p)
{
    uint64_t i = mix(p) & m->mask;

    while (m->key[i] != EMPTY && m->key[i] != p)
        i = (i + 1) & m->mask;
    return i;
}

/* Doubles the table (kept at most half full). */
static loopy_status map_grow(position_map *m)
{
    position_map bigger;
    loopy_status status;

    if (m->mask > UINT64_MAX / 4 ||
        (status = map_alloc(&bigger, (m->mask + 1) * 2)) != LOOPY_OK)
        return LOOPY_ENOMEM;
    for (uint64_t i = 0; i <= m->mask; i++) {
        if (m->key[i] != EMPTY) {
            uint64_t s = map_slot(&bigger, m->key[i]);
            bigger.key[s] = m->key[i];
            bigger.id[s] = m->id[i];
        }
    }
    bigger.count = m->count;
    map_free(m);
    *m = bigger;
    return LOOPY_OK;
}

/* ---- Growing arrays ---- */

typedef struct grow {
    void *data;
    uint64_t count, capacity;
} grow;

/* Room for `more` items of `size` bytes after data's count. */
static bool reserve(grow *g, uint64_t more, size_t size)
{
    uint64_t want = g->count + more;
    void *bigger;

    if (want <= g->capacity)
        return true;
    if (want < g->capacity * 2)
        want = g->capacity * 2;
    if (want < 1024)
        want = 1024;
    if (want > SIZE_MAX / size)
        return false;
    bigger = loopy_i_realloc(g->data, (size_t)want, size);
    if (bigger == NULL)
        return false;
    g->data = bigger;
    g->capacity = want;
    return true;
}

/* ---- Expanding a batch ---- */

/* What a thread found for one frontier position. */
typedef struct expansion {
    uint8_t kind;     /* loopy_primitive */
    uint8_t failed;   /* 1: a callback failed (list says which, for
                         moves()); 2: a move out of range; 3: out of memory;
                         4: canonical() not idempotent; 5: canonical() out
                         of range; 6: canonical_moves() gave a position
                         that is not a representative */
    uint32_t thread;  /* whose arena holds the successors */
    uint64_t first;   /* where in it */
    uint64_t count;
    loopy_position bad;  /* the position out of range (2, 5), or not its own
                            representative (4), or the representative (6) */
    loopy_position move; /* the move canonical() took out of range (5) */
    loopy_i_list_failure list; /* why moves() failed (1) */
} expansion;

typedef struct arena {
    grow items; /* loopy_position */
    loopy_position_buffer buf;
} arena;

size_t loopy_i_sort_unique(loopy_position *p, size_t count)
{
    size_t kept = 0;

    /* Insertion sort for the usual handful of moves, qsort beyond. */
    if (count <= 32) {
        for (size_t i = 1; i < count; i++) {
            loopy_position x = p[i];
            size_t j = i;
            while (j > 0 && p[j - 1] > x) {
                p[j] = p[j - 1];
                j--;
            }
            p[j] = x;
        }
    } else {
        qsort(p, count, sizeof *p, loopy_i_compare_position);
    }
    for (size_t i = 0; i < count; i++)
        if (kept == 0 || p[kept - 1] != p[i])
            p[kept++] = p[i];
    return kept;
}

/* Expands one position into its thread's arena. */
static void expand(const loopy_game *game, bool symmetric, loopy_position pos,
                   arena *a, expansion *x)
{
    loopy_primitive kind = game->primitive(game->ctx, pos);
    bool given = symmetric && game->canonical_moves != NULL;
    size_t count;
    loopy_position *out;

    x->failed = 0;
    x->first = 0;
    x->count = 0;
    x->list.fault = LOOPY_I_LIST_OK;
    if (kind != LOOPY_PLAYING) {
        x->kind = (uint8_t)kind;
        if (kind != LOOPY_OVER_WIN && kind != LOOPY_OVER_LOSE &&
            kind != LOOPY_OVER_TIE)
            x->failed = 1;
        return;
    }
    x->kind = LOOPY_PLAYING;
    /* With the game's canonical_moves, each position is checked once to
     * be a representative (the start, before; the others, all reached as
     * canonical_moves(), here), rather than every move. */
    if (given && (x->bad = game->canonical(game->ctx, pos)) != pos) {
        x->failed = 6;
        return;
    }
    count = given ? loopy_i_game_list_canonical(game, pos, false, &a->buf,
                                                &x->list)
                  : loopy_i_game_list_why(game, pos, false, &a->buf, &x->list);
    if (count == LOOPY_GAME_ERROR) {
        x->failed = x->list.fault == LOOPY_I_LIST_NO_MEMORY ? 3 : 1;
        return;
    }
    for (size_t i = 0; i < count; i++) {
        loopy_position s = a->buf.items[i];
        if (s >= game->size) {
            x->failed = 2;
            x->bad = s;
            return;
        }
        /* A move in range that canonical() takes out of it: canonical()'s
         * fault, not moves()'. */
        if (given)
            continue;
        if (symmetric && (s = game->canonical(game->ctx, s)) >= game->size) {
            x->failed = 5;
            x->bad = s;
            x->move = a->buf.items[i];
            return;
        }
        /* A representative must be its own: otherwise the classes are not
         * classes, and the two solvers would disagree. */
        if (symmetric && game->canonical(game->ctx, s) != s) {
            x->failed = 4;
            x->bad = s;
            return;
        }
        a->buf.items[i] = s;
    }
    count = loopy_i_sort_unique(a->buf.items, count);
    if (count == 0)
        return;
    if (!reserve(&a->items, count, sizeof(loopy_position))) {
        x->failed = 3;
        return;
    }
    out = (loopy_position *)a->items.data + a->items.count;
    memcpy(out, a->buf.items, count * sizeof *out);
    x->first = a->items.count;
    x->count = count;
    a->items.count += count;
}

/* ---- The enumeration ---- */

typedef struct enumeration {
    grow position; /* loopy_position, by number (breadth-first order) */
    grow kind;     /* uint8_t, loopy_primitive by number */
    grow offset;   /* uint64_t, n + 1: successors of i are */
    grow target;   /* uint32_t: target[offset[i] .. offset[i+1]) */
    position_map map;
} enumeration;

static void enumeration_free(enumeration *e)
{
    loopy_i_free(e->position.data);
    loopy_i_free(e->kind.data);
    loopy_i_free(e->offset.data);
    loopy_i_free(e->target.data);
    map_free(&e->map);
    memset(e, 0, sizeof *e);
}

/* The number of position p, numbering it (and queueing it) if new. */
static loopy_status number_of(enumeration *e, loopy_position p, uint32_t *id)
{
    uint64_t slot;

    if (e->map.count + 1 > (e->map.mask + 1) / 2 &&
        map_grow(&e->map) != LOOPY_OK)
        return LOOPY_ENOMEM;
    slot = map_slot(&e->map, p);
    if (e->map.key[slot] == EMPTY) {
        if (e->position.count >= LOOPY_MAX_VERTICES)
            return LOOPY_ETOOBIG;
        if (!reserve(&e->position, 1, sizeof(loopy_position)))
            return LOOPY_ENOMEM;
        e->map.key[slot] = p;
        e->map.id[slot] = (uint32_t)e->position.count;
        e->map.count++;
        ((loopy_position *)e->position.data)[e->position.count++] = p;
    }
    *id = e->map.id[slot];
    return LOOPY_OK;
}

static loopy_status game_failure(const loopy_game *game, loopy_position pos,
                                 const char *what, loopy_diag *diag)
{
    char text[96];

    loopy_i_diag(diag, 0, 0, "%s: position %" LOOPY_PRI_POSITION " (%s): %s",
                 game->name, pos, loopy_game_format(game, pos, text, sizeof text),
                 what);
    return LOOPY_EGAME;
}

static loopy_status enumerate(const loopy_game *game, bool symmetric,
                              int threads, enumeration *e, loopy_diag *diag)
{
    loopy_status status = LOOPY_OK;
    arena *arenas = loopy_i_calloc((size_t)threads, sizeof *arenas);
    expansion *x = loopy_i_malloc(BATCH, sizeof *x);
    loopy_position start = game->start;
    uint64_t done = 0;
    uint32_t id;
    int team;

    if (arenas == NULL || x == NULL || map_alloc(&e->map, 1024) != LOOPY_OK ||
        !reserve(&e->offset, 1, sizeof(uint64_t)))
        goto no_memory;
    ((uint64_t *)e->offset.data)[e->offset.count++] = 0;
    if (symmetric && ((start = game->canonical(game->ctx, start)) >= game->size ||
                      game->canonical(game->ctx, start) != start)) {
        char what[160];
        if (start >= game->size)
            snprintf(what, sizeof what, "canonical() gives %"
                     LOOPY_PRI_POSITION " for the start, outside the index "
                     "space (size %" LOOPY_PRI_POSITION ")", start, game->size);
        else
            snprintf(what, sizeof what, "canonical() is not idempotent: it "
                     "gives %" LOOPY_PRI_POSITION " for the start, and "
                     "something else for that", start);
        status = game_failure(game, game->start, what, diag);
        goto fail;
    }
    status = number_of(e, start, &id);
    if (status != LOOPY_OK)
        goto fail;
    while (done < e->position.count) {
        uint64_t batch = e->position.count - done;
        const loopy_position *pos = e->position.data;

        if (batch > BATCH)
            batch = BATCH;
        /* A small frontier is not worth waking the other threads. */
        team = batch >= BATCH / 16 ? threads : 1;
        (void)team; /* in a build without OpenMP */
#pragma omp parallel for num_threads(team) schedule(dynamic, 64)
        for (int64_t i = 0; i < (int64_t)batch; i++) {
            arena *a = &arenas[loopy_i_thread_num()];
            expand(game, symmetric, pos[done + (uint64_t)i], a, &x[i]);
            x[i].thread = (uint32_t)loopy_i_thread_num();
        }
        if (!reserve(&e->kind, batch, 1) || !reserve(&e->offset, batch, 8))
            goto no_memory;
        for (uint64_t i = 0; i < batch; i++) {
            loopy_position p = ((loopy_position *)e->position.data)[done + i];
            const loopy_position *succ;
            uint64_t *offset;

            if (x[i].failed == 1) {
                char what[170] = "canonical_";
                bool given = symmetric && game->canonical_moves != NULL;
                loopy_i_list_failure_text(&x[i].list, false,
                                          what + (given ? 10 : 0),
                                          sizeof what - 10);
                status = game_failure(game, p, x[i].kind != LOOPY_PLAYING
                                      ? "primitive() gives no known value"
                                      : what, diag);
                goto fail;
            }
            if (x[i].failed == 6) {
                char what[160];
                snprintf(what, sizeof what, "canonical_moves() gave this "
                         "position, but canonical() takes it to %"
                         LOOPY_PRI_POSITION ": not a representative",
                         x[i].bad);
                status = game_failure(game, p, what, diag);
                goto fail;
            }
            if (x[i].failed == 5) {
                char what[160];
                snprintf(what, sizeof what, "canonical() gives %"
                         LOOPY_PRI_POSITION " for the move to %"
                         LOOPY_PRI_POSITION ", outside the index space "
                         "(size %" LOOPY_PRI_POSITION ")", x[i].bad,
                         x[i].move, game->size);
                status = game_failure(game, p, what, diag);
                goto fail;
            }
            if (x[i].failed == 2) {
                char what[96];
                snprintf(what, sizeof what, "a move to %" LOOPY_PRI_POSITION
                         ", outside the index space (size %" LOOPY_PRI_POSITION
                         ")", x[i].bad, game->size);
                status = game_failure(game, p, what, diag);
                goto fail;
            }
            if (x[i].failed == 4) {
                char what[128];
                snprintf(what, sizeof what, "canonical() is not idempotent: "
                         "it gives %" LOOPY_PRI_POSITION " for a move, and "
                         "something else for that", x[i].bad);
                status = game_failure(game, p, what, diag);
                goto fail;
            }
            if (x[i].failed == 3 &&
                x[i].list.fault == LOOPY_I_LIST_NO_MEMORY) {
                char what[160];
                loopy_i_list_failure_text(&x[i].list, false, what, sizeof what);
                game_failure(game, p, what, diag);
                status = LOOPY_ENOMEM;
                goto fail;
            }
            if (x[i].failed == 3 || !reserve(&e->target, x[i].count, 4))
                goto no_memory;
            succ = x[i].count > 0 ? (const loopy_position *)
                                        arenas[x[i].thread].items.data +
                                        x[i].first
                                  : NULL;
            for (uint64_t k = 0; k < x[i].count; k++) {
                status = number_of(e, succ[k], &id);
                if (status != LOOPY_OK)
                    goto fail;
                ((uint32_t *)e->target.data)[e->target.count++] = id;
            }
            ((uint8_t *)e->kind.data)[e->kind.count++] = x[i].kind;
            offset = e->offset.data;
            offset[e->offset.count] = e->target.count;
            e->offset.count++;
        }
        for (int t = 0; t < threads; t++)
            arenas[t].items.count = 0;
        done += batch;
    }
    goto fail; /* done: the same cleanup */

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory after %" PRIu64 " positions",
                 e->position.count);
    status = LOOPY_ENOMEM;
fail:
    if (status == LOOPY_ETOOBIG)
        loopy_i_diag(diag, 0, 0, "%s: more than %" PRIu32 " positions "
                     "reachable: too many for the solver through a graph",
                     game->name, LOOPY_MAX_VERTICES);
    if (arenas != NULL)
        for (int t = 0; t < threads; t++) {
            loopy_i_free(arenas[t].items.data);
            loopy_i_position_buffer_release(&arenas[t].buf);
        }
    loopy_i_free(arenas);
    loopy_i_free(x);
    return status;
}

/* ---- The solve ---- */

int loopy_i_compare_position(const void *a, const void *b)
{
    loopy_position x = *(const loopy_position *)a;
    loopy_position y = *(const loopy_position *)b;
    return (x > y) - (x < y);
}

/* Numbers in increasing order of position: rank[id], and the positions
 * sorted into sorted[]. */
static loopy_status rank_positions(enumeration *e, loopy_position **sorted,
                                   uint32_t **rank)
{
    uint64_t n = e->position.count;

    *sorted = loopy_i_malloc((size_t)n, sizeof **sorted);
    *rank = loopy_i_malloc((size_t)n, sizeof **rank);
    if (*sorted == NULL || *rank == NULL)
        return LOOPY_ENOMEM;
    memcpy(*sorted, e->position.data, (size_t)n * sizeof **sorted);
    qsort(*sorted, (size_t)n, sizeof **sorted, loopy_i_compare_position);
    for (uint64_t r = 0; r < n; r++)
        (*rank)[e->map.id[map_slot(&e->map, (*sorted)[r])]] = (uint32_t)r;
    return LOOPY_OK;
}

/* The targets of the explicit solve: primitive positions by kind. */
static loopy_status collect_targets(const enumeration *e, const uint32_t *rank,
                                    uint8_t kind, loopy_vertex **out,
                                    size_t *count)
{
    const uint8_t *k = e->kind.data;
    size_t c = 0;

    for (uint64_t i = 0; i < e->kind.count; i++)
        c += k[i] == kind;
    *count = c;
    *out = loopy_i_malloc(c ? c : 1, sizeof **out);
    if (*out == NULL)
        return LOOPY_ENOMEM;
    c = 0;
    for (uint64_t i = 0; i < e->kind.count; i++)
        if (k[i] == kind)
            (*out)[c++] = rank[i];
    return LOOPY_OK;
}

loopy_status loopy_game_solve_graph(const loopy_game *game,
                                    const loopy_game_solve_options *options,
                                    loopy_game_solution **out,
                                    loopy_diag *diag)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_solve_options solve = LOOPY_SOLVE_OPTIONS_INIT;
    enumeration e;
    loopy_game_solution *s = NULL;
    loopy_vertex *tail = NULL, *head = NULL, *lose = NULL, *win = NULL,
                 *tie = NULL;
    uint32_t *rank = NULL;
    loopy_graph *graph = NULL;
    loopy_solution *sol = NULL;
    loopy_status status;
    bool symmetric;
    uint64_t n, m;
    int threads;

    if (out == NULL || game == NULL)
        return LOOPY_EINVAL;
    *out = NULL;
    if (options == NULL)
        options = &defaults;
    memset(&e, 0, sizeof e);
    symmetric = game->canonical != NULL && !options->no_symmetry;
    threads = loopy_i_threads(options->threads, UINT64_MAX, 0);
    CHECK_GOTO(enumerate(game, symmetric, threads, &e, diag));
    n = e.position.count;
    m = e.target.count;

    s = loopy_i_calloc(1, sizeof *s);
    if (s == NULL)
        goto no_memory;
    s->n = n;
    s->symmetric = symmetric;
    if (rank_positions(&e, &s->position, &rank) != LOOPY_OK)
        goto no_memory;
    /* Misere play swaps the primitive wins and losses; the solver itself
     * makes positions without moves wins. */
    if (collect_targets(&e, rank, options->misere ? LOOPY_OVER_WIN
                                                  : LOOPY_OVER_LOSE,
                        &lose, &solve.lose_at_count) != LOOPY_OK ||
        collect_targets(&e, rank, options->misere ? LOOPY_OVER_LOSE
                                                  : LOOPY_OVER_WIN,
                        &win, &solve.win_at_count) != LOOPY_OK ||
        collect_targets(&e, rank, LOOPY_OVER_TIE, &tie,
                        &solve.tie_at_count) != LOOPY_OK)
        goto no_memory;
    tail = loopy_i_malloc(m ? (size_t)m : 1, sizeof *tail);
    head = loopy_i_malloc(m ? (size_t)m : 1, sizeof *head);
    if (tail == NULL || head == NULL)
        goto no_memory;
    {
        const uint64_t *offset = e.offset.data;
        const uint32_t *target = e.target.data;
        for (uint64_t i = 0; i < n; i++)
            for (uint64_t k = offset[i]; k < offset[i + 1]; k++) {
                tail[k] = rank[i];
                head[k] = rank[target[k]];
            }
    }
    /* The enumeration is no longer needed: free it before the solve. */
    enumeration_free(&e);
    status = loopy_graph_from_edges((loopy_vertex)n, m, tail, head, &graph);
    if (status != LOOPY_OK)
        goto fail;
    loopy_i_free(tail);
    loopy_i_free(head);
    tail = head = NULL;

    solve.misere = options->misere;
    solve.lose_at = lose;
    solve.win_at = win;
    solve.tie_at = tie;
    solve.threads = options->threads;
    solve.progress = options->progress;
    solve.progress_ctx = options->progress_ctx;
    status = loopy_solve(graph, &solve, &sol);
    if (status != LOOPY_OK)
        goto fail;
    s->outcome = loopy_i_malloc(n ? (size_t)n : 1, 1);
    s->remoteness = loopy_i_malloc(n ? (size_t)n : 1, sizeof *s->remoteness);
    if (s->outcome == NULL || s->remoteness == NULL)
        goto no_memory;
    memcpy(s->outcome, loopy_solution_outcomes(sol), (size_t)n);
    memcpy(s->remoteness, loopy_solution_remoteness(sol),
           (size_t)n * sizeof *s->remoteness);
    for (int k = 0; k < 4; k++)
        s->count[k] = loopy_solution_count(sol, (loopy_outcome)k);
    status = LOOPY_OK;
    goto fail;

no_memory:
    loopy_i_diag(diag, 0, 0, "out of memory");
    status = LOOPY_ENOMEM;
fail:
    loopy_i_free(tail);
    loopy_i_free(head);
    loopy_i_free(lose);
    loopy_i_free(win);
    loopy_i_free(tie);
    loopy_i_free(rank);
    loopy_graph_free(graph);
    loopy_solution_free(sol);
    enumeration_free(&e);
    if (status != LOOPY_OK)
        loopy_game_solution_free(s);
    else
        *out = s;
    return status;
}
