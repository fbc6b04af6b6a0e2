/*
 * chess_build.c - the chess game's solve (loopy_game_solve_tablebase)
 * material by material, the smallest first: each sub-ending from its
 * table when a folder holds one (chess_tables.c), else solved
 * (chess_solve.c); and a build (options->build), which writes each
 * ending's table into the folder, one material at a time, holding in
 * memory only the records it will read again.
 */
#include "chess.h"
#include "../rules/rules_internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Reads material m's records from folder's table, which must hold every
 * legal position of it. */
static loopy_status load_table(chess_records *t, uint32_t m, const char *folder,
                               loopy_diag *diag)
{
    const chess_rules *rules = t->rules;
    loopy_status status = chess_i_read_table(rules, m, folder, t->rec,
                                             CHESS_MAX_LEVEL, t->threads, diag);

    if (status == LOOPY_OK && !chess_i_table_complete(t, m)) {
        loopy_i_diag(diag, 0, 0,
                     "%s/%s.ldb: not every legal position "
                     "of %s is there (a table is written by 'loopy game "
                     "solve chess:%s -o', the game's own solver)",
                     folder, rules->material[m].name, rules->material[m].name,
                     rules->material[m].name);
        status = LOOPY_EFORMAT;
    }
    return status;
}

/* Progress: a phase per material, "tier 3/25 KQKP" (as the tier
 * solver's), the indices of the materials done out of all to do; then
 * "solved" (m UINT32_MAX). */
static void report(const loopy_game_solve_options *options,
                   const chess_rules *rules, uint32_t m, const char *how,
                   uint64_t done, uint64_t total)
{
    char label[96];

    if (options->progress == NULL)
        return;
    if (m == UINT32_MAX)
        snprintf(label, sizeof label, "solved");
    else
        snprintf(label, sizeof label, "tier %" PRIu32 "/%" PRIu32 " %s%s",
                 rules->material_count - m, rules->material_count,
                 rules->material[m].name, how);
    options->progress(options->progress_ctx, label, done, total);
}

/* The indices of material m's segment. */
static uint64_t span(const chess_rules *rules, uint32_t m)
{
    return chess_i_segment_end(rules, m) - rules->material[m].offset;
}

/* Every material, the smallest first: each sub-ending from its table when
 * the folder has one, else solved. */
static loopy_status solve_all(chess_records *t,
                              const loopy_game_solve_options *options,
                              loopy_diag *diag)
{
    const chess_rules *rules = t->rules;
    loopy_status status = LOOPY_OK;
    uint64_t done = 0;

    for (uint32_t m = rules->material_count; m-- > 0 && status == LOOPY_OK;) {
        bool table = false;
        if (m > 0 && options->tables != NULL && !t->misere)
            status = chess_i_has_table(options->tables, rules->material[m].name,
                                       &table);
        if (status != LOOPY_OK)
            break;
        report(options, rules, m, table ? ", from its table" : "", done,
               rules->size);
        status = table ? load_table(t, m, options->tables, diag)
                       : chess_i_solve_material(t, m);
        done += span(rules, m);
    }
    if (status == LOOPY_OK)
        report(options, rules, UINT32_MAX, "", done, rules->size);
    return status;
}

/* Gives material m's pages back: its records read as absent. */
static void drop(chess_records *t, uint32_t m)
{
    const chess_rules *rules = t->rules;

    loopy_i_reserve_drop(t->plain, (size_t)rules->material[m].offset * 2,
                         (size_t)chess_i_segment_end(rules, m) * 2);
}

/* The bytes of records a build keeps of materials it will read again
 * (chess_i_build_hold): 0 until set, then half of physical memory. */
static uint64_t hold_limit;

void chess_i_build_hold(uint64_t bytes)
{
    hold_limit = bytes;
}

static uint64_t hold_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);

    if (hold_limit != 0)
        return hold_limit;
    if (pages <= 0 || size <= 0)
        return UINT64_MAX;
    return (uint64_t)pages / 2 * (uint64_t)size;
}

/* Whether material c is among children[0 .. n). */
static bool among(const uint32_t *children, size_t n, uint32_t c)
{
    for (size_t k = 0; k < n; k++)
        if (children[k] == c)
            return true;
    return false;
}

/* Before material m (its n children): while the materials held and those
 * m still needs pass the hold limit, the held one whose next use is the
 * latest, and that m does not read, leaves memory (its table gives it
 * back when a later material reads it).  need: the bytes m adds. */
static void make_room(chess_records *t, uint32_t m, const uint32_t *children,
                      size_t n, const bool *solve, bool *held, uint64_t need)
{
    const chess_rules *rules = t->rules;
    uint32_t count = rules->material_count, others[CHESS_MAX_MATERIALS];
    uint64_t limit = hold_bytes(), have = 0;

    for (uint32_t c = 1; c < count; c++)
        have += held[c] ? span(rules, c) * 2 : 0;
    while (have + need > limit) {
        uint32_t victim = UINT32_MAX, victim_next = UINT32_MAX;
        for (uint32_t c = 1; c < count; c++) {
            uint32_t next = 0; /* 1 + the next material to read c; 0: none */
            if (!held[c] || c == m || among(children, n, c))
                continue;
            for (uint32_t u = m; u-- > 0;)
                if (solve[u] &&
                    among(others, chess_i_children(rules, u, others), c)) {
                    next = u + 1;
                    break;
                }
            /* None first; then, as materials go from the largest index
             * down, the latest use is the least index. */
            if (victim == UINT32_MAX || next < victim_next) {
                victim = c;
                victim_next = next;
            }
        }
        if (victim == UINT32_MAX)
            return; /* m needs all that is held */
        drop(t, victim);
        held[victim] = false;
        have -= span(rules, victim) * 2;
    }
}

/* A build: each material the folder has no table of is solved, the
 * smallest first, and written there; the materials its moves reach are
 * read from their tables first, unless still in memory, and a material
 * leaves memory after the last that needs it, or before, when those
 * held pass the hold limit (make_room).  The game's own material stays,
 * alone. */
static loopy_status build(chess_records *t,
                          const loopy_game_solve_options *options,
                          loopy_diag *diag)
{
    const chess_rules *rules = t->rules;
    const char *folder = options->tables;
    uint32_t count = rules->material_count, children[CHESS_MAX_MATERIALS];
    uint32_t last_use[CHESS_MAX_MATERIALS]; /* the smallest m needing it */
    bool solve[CHESS_MAX_MATERIALS], held[CHESS_MAX_MATERIALS];
    loopy_status status = LOOPY_OK;
    uint64_t done = 0, total = 0;

    /* What a build killed while writing left behind goes first. */
    (void)chess_i_sweep_parts(rules, folder);
    for (uint32_t m = 0; m < count && status == LOOPY_OK; m++) {
        bool there = false;
        status = chess_i_has_table(folder, rules->material[m].name, &there);
        solve[m] = !there;
        held[m] = false;
        last_use[m] = UINT32_MAX;
    }
    if (status != LOOPY_OK)
        return status;
    for (uint32_t m = count; m-- > 0;) {
        size_t n = solve[m] ? chess_i_children(rules, m, children) : 0;
        for (size_t k = 0; k < n; k++)
            last_use[children[k]] = m;
    }
    /* The indices to solve or read. */
    for (uint32_t m = 0; m < count; m++)
        if (solve[m] || last_use[m] != UINT32_MAX || m == 0)
            total += span(rules, m);
    for (uint32_t m = count; m-- > 0 && status == LOOPY_OK;) {
        size_t n = solve[m] ? chess_i_children(rules, m, children) : 0;
        uint64_t need = solve[m] || m == 0 ? span(rules, m) * 2 : 0;
        for (size_t k = 0; k < n; k++)
            need += held[children[k]] ? 0 : span(rules, children[k]) * 2;
        make_room(t, m, children, n, solve, held, need);
        for (size_t k = 0; k < n && status == LOOPY_OK; k++) {
            uint32_t c = children[k];
            if (held[c])
                continue;
            report(options, rules, c, ", from its table", done, total);
            status = load_table(t, c, folder, diag);
            held[c] = true;
            done += span(rules, c);
        }
        if (status == LOOPY_OK && solve[m]) {
            report(options, rules, m, "", done, total);
            status = chess_i_solve_material(t, m);
            if (status == LOOPY_OK)
                status = chess_i_write_table(rules, m, folder, t->plain,
                                             t->threads, diag);
            held[m] = true;
            done += span(rules, m);
        } else if (status == LOOPY_OK && m == 0) {
            report(options, rules, m, ", from its table", done, total);
            status = load_table(t, m, folder, diag);
            held[m] = true;
            done += span(rules, m);
        }
        /* What no material still to solve needs leaves memory. */
        for (uint32_t c = 1; c < count; c++)
            if (held[c] && (last_use[c] == UINT32_MAX || last_use[c] >= m)) {
                drop(t, c);
                held[c] = false;
            }
    }
    if (status == LOOPY_OK)
        report(options, rules, UINT32_MAX, "", done, total);
    return status;
}

loopy_status chess_i_solve(const loopy_game *game,
                           const loopy_game_solve_options *options,
                           loopy_game_solution **out, loopy_diag *diag)
{
    const chess_rules *rules = game->ctx;
    bool build_tables = options->build != 0;
    loopy_status status;
    uint16_t *records;
    chess_records t;

    *out = NULL;
    if (game->size > SIZE_MAX / sizeof *records) {
        loopy_i_diag(diag, 0, 0,
                     "%s: an index space of %" PRIu64 " positions "
                     "is too large for memory",
                     game->name, game->size);
        return LOOPY_ETOOBIG;
    }
    if (build_tables && (options->tables == NULL || options->misere != 0 ||
                         options->no_symmetry != 0)) {
        loopy_i_diag(diag, 0, 0,
                     "%s: a build writes tables of normal play, "
                     "one position per class, into a folder",
                     options->tables == NULL ? "no folder given"
                     : options->misere != 0  ? "misere play"
                                             : "every position asked for");
        return LOOPY_EINVAL;
    }
    if (options->tables != NULL && options->misere == 0 &&
        !chess_i_is_folder(options->tables)) {
        loopy_i_diag(diag, 0, 0, "%s: not a folder of tables", options->tables);
        return LOOPY_EIO;
    }
    /* A build touches only the pages of the materials it holds. */
    records = build_tables
                  ? loopy_i_reserve((size_t)game->size, sizeof *records)
                  : loopy_i_calloc((size_t)game->size, sizeof *records);
    if (records == NULL) {
        loopy_i_diag(diag, 0, 0,
                     "%s:%s: out of memory for %" PRIu64
                     " indices (2 bytes each, %.1f GiB: the endings that its "
                     "captures and promotions reach share its index space)",
                     game->name, rules->params, game->size,
                     (double)game->size * 2 / (1024.0 * 1024 * 1024));
        return LOOPY_ENOMEM;
    }
    memset(&t, 0, sizeof t);
    t.rules = rules;
    t.rec = (_Atomic uint16_t *)records;
    t.plain = records;
    t.threads = loopy_i_threads(options->threads, game->size, CHESS_CHUNK);
    t.misere = options->misere != 0;
    status =
        build_tables ? build(&t, options, diag) : solve_all(&t, options, diag);
    if (status == LOOPY_ETOOBIG)
        loopy_i_diag(diag, 0, 0, "%s: a remoteness of %u or more", game->name,
                     (unsigned)CHESS_MAX_LEVEL);
    /* Every thread has joined: the records are plain data from here on. */
    if (status == LOOPY_OK)
        status = build_tables
                     ? loopy_i_solution_of_reserved_records(
                           records, game->size, options->no_symmetry == 0,
                           t.threads, out)
                     : loopy_i_solution_of_records(records, 2, game->size,
                                                   options->no_symmetry == 0,
                                                   t.threads, out);
    if (status == LOOPY_ENOMEM)
        loopy_i_diag(diag, 0, 0, "out of memory");
    if (status != LOOPY_OK && build_tables)
        loopy_i_unreserve(records, (size_t)game->size, sizeof *records);
    else if (status != LOOPY_OK)
        loopy_i_free(records);
    return status;
}
