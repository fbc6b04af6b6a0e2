/*
 * tier.c - a game with tiers solved across ranks tier by tier
 * ("loopy-mpi game solve --solver tier"), as lib/rules/tier_solve.c
 * solves one whose moves leave their tier (Connect Four, m,n,k): no
 * unmoves, no counters, no levels.
 *
 * Every tier is dealt to the ranks in chunks, chunk c to rank c mod P
 * (about 8 chunks a rank, 65,536 indices at least: every rank has a
 * share of every part of every tier's work), as the tier solver's records (2 bytes an index, or 1 for a game whose
 * remoteness_bound allows it) in a work file of its own, mapped
 * (lib/rules/tier_store.c: OUTPUT.tiers.R-of-P and its journal): a rank
 * holds in memory its part of the tier at work and of the tiers that
 * tier's moves reach; the others' pages leave memory and come back from
 * the file when read.
 *
 * Forward, parents first: each rank scans its part of the tier, and the
 * moves of what is reached go to their owners in batches (an all-to-all
 * exchange when a buffer fills and at the tier's end), who mark them
 * reached.  Backward, children first: each rank takes its part of the tier
 * a slice at a time; the moves of the slice's positions that other ranks
 * hold are asked of them in one all-to-all exchange (8 bytes a move), their
 * records come back in a second (2 bytes), and each position gets its
 * value from its moves' as on one machine (tier_slice.c).  Each rank journals each tier it
 * finishes; --resume continues at the first tier some rank had not
 * journaled (a tier every rank journaled is checked against its checksum
 * and skipped).  The database is then written by every rank, its parts in
 * place (db_parts.c): the bytes of "loopy game solve --solver tier" and
 * of --solver retro.
 *
 * A tier whose moves may stay inside it (chess) is started from the same
 * slices, which ask only for its moves out of the tier and count those
 * inside, then solved by levels across the ranks (tier_inner.c).
 */
#include "tier.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

/* Chunks of a tier per rank, and the fewest indices in a chunk. */
#define CHUNKS_PER_RANK 8
#define MIN_CHUNK 65536


/* -v: rank 0's line for tier k, the j-th (from 1) of the phase what
 * ("reach tier", "tier"), done in took seconds; or note instead of the
 * time. */
static void tier_line(const tsolve *s, const char *what, uint64_t j,
                      uint64_t k, double took, const char *note)
{
    uint64_t n = s->t.start[k + 1] - s->t.start[k];

    if (!s->verbose || s->me != 0)
        return;
    fprintf(stderr, "loopy-mpi game solve: %s %" PRIu64 "/%" PRIu64 ": %" PRIu64
            " %s", what, j, s->t.count, n, n == 1 ? "index" : "indices");
    if (note != NULL)
        fprintf(stderr, ", %s", note);
    else if (took > 0.001 && n > 0)
        fprintf(stderr, " in %.3f s, %.2f M/s", took, (double)n / took / 1e6);
    else
        fprintf(stderr, " in %.3f s", took);
    fputc('\n', stderr);
}

/* Tier k's chunk: its indices are dealt to the ranks in chunks of this
 * many, chunk c to rank c mod P (so that every rank has a share of every
 * part of the tier: the representatives of symmetric classes, the
 * smaller indices, would fall to the first ranks of a plain cut). */
uint64_t mpi_tier_chunk(const tsolve *s, uint64_t k)
{
    uint64_t len = s->t.start[k + 1] - s->t.start[k];
    uint64_t parts = (uint64_t)s->P * CHUNKS_PER_RANK;
    uint64_t c = len / parts + (len % parts != 0);

    return c > s->min_chunk ? c : s->min_chunk;
}

/* Tier k's chunks, and the rounds of P of them (the last ones short). */
static uint64_t chunks_of(const tsolve *s, uint64_t k)
{
    uint64_t len = s->t.start[k + 1] - s->t.start[k], c = mpi_tier_chunk(s, k);

    return len / c + (len % c != 0);
}

static uint64_t rounds_of(const tsolve *s, uint64_t k)
{
    uint64_t n = chunks_of(s, k), P = (uint64_t)s->P;

    return n / P + (n % P != 0);
}

/* The indices of tier k that rank r holds. */
uint64_t mpi_tier_held(const tsolve *s, uint64_t k, int r)
{
    uint64_t len = s->t.start[k + 1] - s->t.start[k], c = mpi_tier_chunk(s, k);
    uint64_t n = chunks_of(s, k), P = (uint64_t)s->P, ru = (uint64_t)r;
    uint64_t mine = n / P + (ru < n % P), bytes = mine * c;

    /* The last chunk, short, when it is r's. */
    if (n > 0 && (n - 1) % P == ru && len % c != 0)
        bytes -= c - len % c;
    return bytes;
}

loopy_position mpi_tier_position_of(const tsolve *s, uint64_t k, uint64_t i)
{
    uint64_t c = mpi_tier_chunk(s, k);

    return s->t.start[k] + (i / c * (uint64_t)s->P + (uint64_t)s->me) * c +
           i % c;
}

int mpi_tier_owner(const tsolve *s, uint64_t k, loopy_position pos,
                 uint64_t *local)
{
    uint64_t off = pos - s->t.start[k], c = mpi_tier_chunk(s, k), n = off / c;

    *local = s->local_at[k] + n / (uint64_t)s->P * c + off % c;
    return (int)(n % (uint64_t)s->P);
}

/* The representatives of pos's moves (pos in tier k) into s->buf, each
 * checked to lie in a tier that tier k names; LOOPY_GAME_ERROR after
 * mpi_game_fail. */
size_t mpi_tier_moves(tsolve *s, uint64_t k, loopy_position pos)
{
    char why[200];
    bool no_memory;
    size_t count = loopy_i_game_neighbours(&s->t.reps, pos, false, &s->buf, why,
                                           sizeof why, &no_memory);

    if (count == LOOPY_GAME_ERROR) {
        mpi_game_fail(s->run, s->game, pos, no_memory ? EXIT_RESOURCE : EXIT_INPUT, why);
        return LOOPY_GAME_ERROR;
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t c = loopy_i_tier_of(&s->t, s->buf.items[i]);
        if (!s->allowed[c]) {
            snprintf(
                why, sizeof why,
                "a move to position %" LOOPY_PRI_POSITION ", of tier %" PRIu64
                ", which tier_children() of tier %" PRIu64 " does not name",
                s->buf.items[i], c, k);
            mpi_game_fail(s->run, s->game, pos, EXIT_INPUT, why);
            return LOOPY_GAME_ERROR;
        }
    }
    return count;
}

static void allow_children(tsolve *s, uint64_t k, bool on)
{
    for (uint64_t i = s->t.child_at[k]; i < s->t.child_at[k + 1]; i++)
        s->allowed[s->t.child[i]] = on;
}

/* Whether pos (its record r) is one to solve: reached (or, with
 * all_legal, a legal representative); a reached one must be its own
 * representative. */
static bool to_solve(tsolve *s, loopy_position pos, uint16_t r)
{
    const loopy_game *game = s->game;

    if (s->t.reps.all_legal)
        return (game->legal == NULL || game->legal(game->ctx, pos)) &&
               (!s->t.reps.symmetric || game->canonical(game->ctx, pos) == pos);
    if (r != REACHED)
        return false;
    if (s->t.reps.symmetric && game->canonical(game->ctx, pos) != pos) {
        mpi_game_fail(s->run, s->game, pos, EXIT_INPUT,
                  "reached as a representative, but "
                  "canonical() gives another position (not idempotent)");
        return false;
    }
    return true;
}

/* ---- Forward ---- */

/* The record at local (of tier k) reached: REACHED when it was ABSENT,
 * which is growth when k is the tier at work (its moves stay inside it). */
static void mark_reached(tsolve *s, uint64_t k, uint64_t local)
{
    if (get(&s->t, local) != ABSENT)
        return;
    put(&s->t, local, REACHED);
    if (k == s->tier)
        s->grew = true;
}

/* Sends buf[next_item ..) of the held position to their owners (or marks
 * them here); false when a buffer is full. */
static bool send_held(tsolve *s)
{
    static const uint32_t head[1] = {0};

    for (; s->next_item < s->items; s->next_item++) {
        loopy_position c = s->buf.items[s->next_item];
        uint64_t local, k = loopy_i_tier_of(&s->t, c);
        int d = mpi_tier_owner(s, k, c, &local);
        uint32_t msg[2] = {(uint32_t)(c >> 32), (uint32_t)c};
        if (d == s->me) {
            mark_reached(s, k, local);
            continue;
        }
        if (!mpi_exchange_put(&s->x, d, head, 1, msg, 2))
            return false;
    }
    s->holding = false;
    return true;
}

/* Position at offset i of this rank's part of tier k: reached, its moves
 * held to be sent. */
static void reach_one(tsolve *s, uint64_t k, uint64_t i)
{
    const loopy_game *game = s->game;
    uint64_t local = s->local_at[k] + i;
    loopy_position pos = mpi_tier_position_of(s, k, i);
    size_t count;

    if (!to_solve(s, pos, get(&s->t, local)))
        return;
    /* In a tier whose moves stay inside it, looked at once (EXPANDED,
     * REACHED again when the tier is reached). */
    put(&s->t, local, s->t.self[k] && !s->t.reps.all_legal ? EXPANDED : REACHED);
    /* With all_legal, what is solved is what legal() says. */
    if (s->t.reps.all_legal || game->primitive(game->ctx, pos) != LOOPY_PLAYING)
        return;
    count = mpi_tier_moves(s, k, pos);
    if (count == LOOPY_GAME_ERROR || count == 0)
        return;
    s->holding = true;
    s->items = count;
    s->next_item = 0;
}

static void apply_reach(tsolve *s)
{
    const mpi_exchange *x = &s->x;

    for (int r = 0; r < s->P; r++) {
        const uint32_t *m = x->recv + x->recv_displ[r];
        int count = x->recv_count[r];
        for (int j = 0; j + 1 < count;) {
            if (m[j] == MPI_MARK) {
                j += 2; /* the mark and the header's one word */
                continue;
            }
            loopy_position c = (uint64_t)m[j] << 32 | m[j + 1];
            uint64_t local,
                k = c < s->game->size ? loopy_i_tier_of(&s->t, c) : 0;
            if (c >= s->game->size || mpi_tier_owner(s, k, c, &local) != s->me) {
                mpi_fail(s->run, EXIT_RESOURCE,
                         "internal error: a message for "
                         "position %" PRIu64 ", not rank %d's",
                         c, s->me);
                return;
            }
            mark_reached(s, k, local);
            j += 2;
        }
    }
}

/* Collective: one scan of what tier k's reached positions reach. */
static bool reach_scan(tsolve *s, uint64_t k)
{
    uint64_t n = s->local_at[k + 1] - s->local_at[k];

    s->next = 0;
    s->holding = false;
    for (;;) {
        int mine[2], all[2];
        while (s->run->status == EXIT_OK) {
            if (s->holding && !send_held(s))
                break;
            if (s->next >= n)
                break;
            reach_one(s, k, s->next++);
        }
        mpi_exchange_run(&s->x, &s->stats);
        s->stats.supersteps++;
        apply_reach(s);
        mine[0] = s->holding || s->next < n;
        mine[1] = s->run->status != EXIT_OK;
        MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (all[1])
            return mpi_agree(s->run);
        if (!all[0])
            return true;
    }
}

/* Collective: what tier k's reached positions reach; in a tier whose
 * moves stay inside it, scans again until no rank reached a new position
 * of the tier. */
static bool reach_tier(tsolve *s, uint64_t k)
{
    int grew = 1, mine;

    s->tier = k;
    while (grew) {
        s->grew = false;
        if (!reach_scan(s, k))
            return false;
        mine = s->t.self[k] && s->grew;
        MPI_Allreduce(&mine, &grew, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    if (s->t.self[k] && !s->t.reps.all_legal)
        for (uint64_t i = s->local_at[k]; i < s->local_at[k + 1]; i++)
            if (get(&s->t, i) == EXPANDED)
                put(&s->t, i, REACHED);
    return true;
}

/* ---- The solve ---- */

bool mpi_tier_applies(const loopy_game *game, const char **why)
{
    static const loopy_game_solve_options defaults =
        LOOPY_GAME_SOLVE_OPTIONS_INIT;
    loopy_diag diag;
    tiers t;

    *why = NULL;
    memset(&diag, 0, sizeof diag);
    if (game->tier_children == NULL) {
        *why = "the game has no tiers";
        return false;
    }
    if (loopy_i_tiers_begin(&t, game, &defaults, &diag) != LOOPY_OK) {
        loopy_i_tiers_free(&t);
        return true; /* the solve says why */
    }
    loopy_i_tiers_free(&t);
    return true;
}

/* The exit status of a store's failure to open. */
static int store_exit(loopy_status status)
{
    return status == LOOPY_EINVAL    ? EXIT_USAGE
           : status == LOOPY_EFORMAT ? EXIT_INPUT
           : status == LOOPY_EIO     ? EXIT_IO
                                     : EXIT_RESOURCE;
}

/* Collective: this rank's work file, new or (resume) the one a killed
 * solve left, as every rank agrees: when not every rank's journal says
 * every tier was reached, every rank begins again with a new one. */
static bool open_store(tsolve *s, const char *output, bool resume)
{
    const loopy_game *game = s->game;
    size_t len = strlen(output) + 64;
    char *path = malloc(len);
    loopy_diag diag;
    tier_store_key key;
    loopy_status status = LOOPY_OK;
    char params[256];
    int reached = 1, all;
    size_t at;
    bool fresh;

    memset(&diag, 0, sizeof diag);
    /* The journal records how the tiers are dealt too: a resume with
     * other chunks is another solve. */
    snprintf(params, sizeof params, "%.160s (ranks %d, chunks of %" PRIu64
             " or more, %d a rank)", game->params != NULL ? game->params : "",
             s->P, s->min_chunk, CHUNKS_PER_RANK);
    key.name = game->name;
    key.params = params;
    key.size = s->local_at[s->t.count];
    key.tiers = s->t.count;
    key.flags = (s->t.misere ? TIER_FLAG_MISERE : 0) |
                (s->t.reps.symmetric ? TIER_FLAG_SYMMETRIC : 0) |
                (s->t.reps.all_legal ? TIER_FLAG_ALL_LEGAL : 0) |
                (s->t.width == 1 ? TIER_FLAG_BYTES : 0);
    if (path == NULL)
        mpi_fail(s->run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(s->run) || path == NULL) {
        free(path);
        return false;
    }
    snprintf(path, len, "%s.tiers.%d-of-%d", output, s->me, s->P);
    at = strlen(path);
    /* Rank 0's journal is the solve's.  A solve removes it first once the
     * database is written (mpi_game_words_remove_work) and makes it
     * after the others have removed theirs and before they make new
     * ones, so another rank's journal without it is a finished solve's,
     * left by a kill, which a new solve removes (rank 0 is refused while
     * a solve, killed or at work, holds its journal); and another rank
     * without a journal beside rank 0's was killed before it made its
     * own: on resume it begins with a new one, and every rank reaches
     * again. */
    if (!resume) {
        int made, none = 0;
        struct stat sb;
        /* Without rank 0's journal, the others' go first: a kill before
         * rank 0 has made its own then leaves what a finished solve's
         * leaves, and one after leaves no journal of another solve
         * beside it. */
        snprintf(path + at, len - at, "-journal");
        if (s->me == 0)
            none = lstat(path, &sb) != 0 && errno == ENOENT;
        MPI_Bcast(&none, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (none && s->me != 0)
            (void)unlink(path);
        path[at] = '\0';
        MPI_Barrier(MPI_COMM_WORLD);
        if (s->me == 0)
            status =
                loopy_i_tier_store_open(&s->store, path, false, &key, &diag);
        made = status == LOOPY_OK;
        /* A test's kill at the worst moment: rank 0's journal made, the
         * others' not yet. */
        if (made && mpi_fault(s->run, "killed"))
            raise(SIGKILL);
        MPI_Bcast(&made, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (s->me != 0 && made) {
            status =
                loopy_i_tier_store_open(&s->store, path, false, &key, &diag);
        } else if (s->me != 0) {
            /* Rank 0 says why. */
            mpi_fail(s->run, EXIT_USAGE, "%s", "rank 0's work file");
            status = LOOPY_EINVAL;
        }
        fresh = status == LOOPY_OK;
    } else {
        struct stat sb;
        snprintf(path + at, len - at, "-journal");
        fresh = s->me != 0 && lstat(path, &sb) != 0 && errno == ENOENT;
        path[at] = '\0';
        status = loopy_i_tier_store_open(&s->store, path, !fresh, &key, &diag);
        fresh = fresh && status == LOOPY_OK;
    }
    if (status == LOOPY_OK) {
        s->store_open = true;
        reached = s->store.reached;
    } else {
        mpi_fail(s->run, store_exit(status), "%s", diag.message);
    }
    if (!mpi_agree(s->run)) {
        /* Work files this rank made, which another rank could not make
         * along (or resume): removed, the journal last. */
        if (s->store_open && fresh) {
            loopy_i_tier_store_close(&s->store, false);
            s->store_open = false;
            unlink(path);
            snprintf(path + at, len - at, "-journal");
            unlink(path);
        }
        free(path);
        return false;
    }
    MPI_Allreduce(&reached, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (resume && !all && reached) {
        /* Others must reach again: so must this rank, from nothing.  Its
         * journal cut to its header says so, in place (a kill from here
         * on leaves a journal that a resume begins again), and the store
         * opened anew from it. */
        if (ftruncate(s->store.journal_fd, TIER_JOURNAL_HEADER) != 0 ||
            fdatasync(s->store.journal_fd) != 0) {
            mpi_fail(s->run, EXIT_IO, "%s: cannot cut: %s",
                     s->store.journal_path, strerror(errno));
        } else {
            loopy_i_tier_store_close(&s->store, false);
            s->store_open = false;
            status =
                loopy_i_tier_store_open(&s->store, path, true, &key, &diag);
            if (status == LOOPY_OK)
                s->store_open = true;
            else
                mpi_fail(s->run, store_exit(status), "%s", diag.message);
        }
    }
    free(path);
    if (!mpi_agree(s->run))
        return false;
    s->store.reached = all != 0;
    if (s->t.width == 1)
        s->t.byte = s->store.record;
    else
        s->t.record = s->store.record;
    return true;
}

/* The checksum of this rank's records of tier k. */
static uint64_t part_checksum(const tsolve *s, uint64_t k)
{
    return loopy_i_checksum(
        (const unsigned char *)s->store.record + s->local_at[k] * s->t.width,
        (s->local_at[k + 1] - s->local_at[k]) * s->t.width, 1);
}

/* Collective: journals this rank's part of the records [lo, hi) (all
 * tiers, kind REACHED; or tier k, DONE). */
static bool commit(tsolve *s, uint64_t lo, uint64_t hi, uint32_t kind,
                   uint64_t k, uint64_t checksum)
{
    loopy_diag diag;

    memset(&diag, 0, sizeof diag);
    if (mpi_fault(s->run, "journal"))
        mpi_fail(s->run, EXIT_IO, "%s: write failed (LOOPY_MPI_FAULT)",
                 s->store.journal_path);
    else if (loopy_i_tier_store_commit(&s->store, lo, hi, kind, k, checksum,
                                       &diag) != LOOPY_OK)
        mpi_fail(s->run, EXIT_IO, "%s", diag.message);
    return mpi_agree(s->run);
}

static void release_part(tsolve *s, uint64_t k)
{
    loopy_i_tier_store_release(&s->store, s->local_at[k], s->local_at[k + 1]);
}

/* Collective: what the start reaches, tier by tier, parents first; then
 * journaled. */
static bool reach_all(tsolve *s)
{
    const loopy_game *game = s->game;

    if (!s->t.reps.all_legal) {
        loopy_position start = game->start;
        uint64_t local;
        if (s->t.reps.symmetric)
            start = game->canonical(game->ctx, start);
        if (start >= game->size)
            mpi_fail(s->run, EXIT_INPUT,
                     "%s: canonical() gives a position "
                     "outside the index space",
                     game->name);
        else if (mpi_tier_owner(s, loopy_i_tier_of(&s->t, start), start, &local) ==
                 s->me)
            put(&s->t, local, REACHED);
        if (!mpi_agree(s->run))
            return false;
    }
    for (uint64_t j = 0; j < s->t.count; j++) {
        uint64_t k = s->t.order[j];
        double since = MPI_Wtime();
        allow_children(s, k, true);
        if (!reach_tier(s, k))
            return false;
        allow_children(s, k, false);
        release_part(s, k);
        /* A test's failure halfway through the reach. */
        if (mpi_fault(s->run, "level") && j == s->t.count / 2)
            mpi_fail(s->run, EXIT_RESOURCE, "out of memory (LOOPY_MPI_FAULT)");
        if (!mpi_agree(s->run))
            return false;
        tier_line(s, "reach tier", j + 1, k, MPI_Wtime() - since, NULL);
    }
    return commit(s, 0, s->local_at[s->t.count], TIER_ENTRY_REACHED, 0, 0);
}

/* Collective: every tier solved, children first, each journaled; those
 * every rank journaled before a resume checked and skipped. */
static bool solve_all(tsolve *s, slice *sl)
{
    uint64_t count = s->t.count;
    unsigned char *done = malloc((size_t)count + 1);

    if (done == NULL)
        mpi_fail(s->run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(s->run)) {
        free(done);
        return false;
    }
    MPI_Allreduce(s->store.done, done, (int)count, MPI_UNSIGNED_CHAR, MPI_MIN,
                  MPI_COMM_WORLD);
    for (uint64_t j = count; j-- > 0;) {
        uint64_t k = s->t.order[j];
        double since = MPI_Wtime();
        if (done[k]) {
            if (part_checksum(s, k) != s->store.checksum[k])
                mpi_fail(
                    s->run, EXIT_INPUT,
                    "%.*s: tier %" PRIu64 " of the "
                    "work file is damaged (its records are not those its "
                    "journal recorded): remove the work files and their "
                    "journals to start again",
                    (int)(strlen(s->store.journal_path) - strlen("-journal")),
                    s->store.journal_path, k);
            if (!mpi_agree(s->run))
                break;
            tier_line(s, "tier", count - j, k, 0, "solved before (--resume)");
        } else {
            allow_children(s, k, true);
            if (s->t.self[k] && !mpi_tier_inner_begin(s, k))
                break;
            if (!mpi_tier_solve_slices(s, k, sl))
                break;
            if (s->t.self[k] && !mpi_tier_inner_levels(s, k))
                break;
            mpi_tier_inner_end(s);
            allow_children(s, k, false);
            if (!commit(s, s->local_at[k], s->local_at[k + 1], TIER_ENTRY_DONE,
                        k, part_checksum(s, k)))
                break;
            /* A test's failure halfway, the tiers before it journaled. */
            if (mpi_fault(s->run, "tier") && j == count / 2)
                mpi_fail(s->run, EXIT_RESOURCE,
                         "out of memory (LOOPY_MPI_FAULT)");
            if (!mpi_agree(s->run))
                break;
            tier_line(s, "tier", count - j, k, MPI_Wtime() - since, NULL);
        }
        /* Pages no tier still to solve reads leave memory (a tier is not
         * its own parent). */
        for (uint64_t i = s->t.child_at[k]; i < s->t.child_at[k + 1]; i++)
            if (s->t.child[i] != k && --s->t.pending[s->t.child[i]] == 0)
                release_part(s, s->t.child[i]);
        if (s->t.pending[k] == 0)
            release_part(s, k);
    }
    free(done);
    return s->run->status == EXIT_OK;
}

bool mpi_tier_solve(mpi_run *run, const loopy_game *game,
                    const loopy_game_solve_options *options, const char *output,
                    bool resume, bool verbose, mpi_game_words *out,
                    mpi_stats *stats)
{
    tsolve s;
    slice sl;
    loopy_diag diag;
    loopy_status status;
    uint64_t rounds = 0;
    bool ok = false;

    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    memset(&sl, 0, sizeof sl);
    memset(&diag, 0, sizeof diag);
    s.run = run;
    s.game = game;
    s.verbose = verbose;
    s.P = run->ranks;
    s.me = run->rank;
    s.min_chunk = MIN_CHUNK;
    {
        /* Tests make the chunks tiny, so that tiers are dealt in many. */
        const char *chunk = getenv("LOOPY_MPI_CHUNK");
        long want = chunk != NULL ? strtol(chunk, NULL, 10) : 0;
        if (want >= 1 && want <= (1L << 30))
            s.min_chunk = (uint64_t)want;
    }
    status = loopy_i_tiers_begin(&s.t, game, options, &diag);
    if (status != LOOPY_OK) {
        loopy_i_tiers_explain(&s.t, status, &diag);
        mpi_fail(run,
                 status == LOOPY_ENOMEM   ? EXIT_RESOURCE
                 : status == LOOPY_EINVAL ? EXIT_USAGE
                                          : EXIT_INPUT,
                 "%s", diag.message);
    }
    if (status == LOOPY_OK && s.t.count > (uint64_t)INT_MAX)
        mpi_fail(run, EXIT_RESOURCE,
                 "%s: %" PRIu64 " tiers, more than "
                 "loopy-mpi takes",
                 game->name, s.t.count);
    if (!mpi_agree(run))
        goto done;
    s.local_at = malloc(((size_t)s.t.count + 1) * sizeof *s.local_at);
    s.allowed = calloc((size_t)s.t.count, 1);
    if (s.local_at != NULL) {
        s.local_at[0] = 0;
        for (uint64_t k = 0; k < s.t.count; k++)
            s.local_at[k + 1] = s.local_at[k] + mpi_tier_held(&s, k, s.me);
    }
    sl.count = calloc((size_t)s.P * 4, sizeof *sl.count);
    sl.back = calloc((size_t)s.P * 4, sizeof *sl.back);
    if (s.local_at == NULL || s.allowed == NULL || mpi_fault(run, "memory") ||
        sl.count == NULL || sl.back == NULL ||
        !mpi_exchange_init(&s.x, run->ranks))
        mpi_fail(run, EXIT_RESOURCE, "out of memory%s",
                 mpi_fault(run, "memory") ? " (LOOPY_MPI_FAULT)" : "");
    if (!mpi_agree(run) || !open_store(&s, output, resume))
        goto done;
    if (!s.store.reached && !reach_all(&s))
        goto done;
    if (!solve_all(&s, &sl) || !mpi_agree(run))
        goto done;
    /* The database's parts: round j of tier k's chunks is the parts
     * (k, j, 0), ..., (k, j, P - 1), rank r's chunk j P + r of the tier
     * (empty past the tier's end). */
    for (uint64_t k = 0; k < s.t.count; k++)
        rounds += rounds_of(&s, k);
    out->part = malloc((size_t)rounds * sizeof *out->part + 1);
    out->store = malloc(sizeof *out->store);
    if (out->part == NULL || out->store == NULL || rounds > (uint64_t)INT_MAX)
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(run)) {
        free(out->part);
        free(out->store);
        out->part = NULL;
        out->store = NULL;
        goto done;
    }
    out->parts = (int)rounds;
    for (uint64_t k = 0, g = 0; k < s.t.count; k++) {
        uint64_t c = mpi_tier_chunk(&s, k), len = s.t.start[k + 1] - s.t.start[k];
        for (uint64_t j = 0; j < rounds_of(&s, k); j++, g++) {
            mpi_db_part *p = &out->part[g];
            uint64_t first = (j * (uint64_t)s.P + (uint64_t)s.me) * c;
            uint64_t from = first < len ? first : len;
            uint64_t to = len - from < c ? len : from + c;
            /* (An empty part at the end of the tier's records.) */
            size_t at = (size_t)(s.local_at[k] +
                                 (from < to ? j * c : mpi_tier_held(&s, k, s.me)));
            memset(&p->v, 0, sizeof p->v);
            if (s.t.width == 1)
                p->v.byte = (const uint8_t *)s.store.record + at;
            else
                p->v.record = (const uint16_t *)s.store.record + at;
            p->v.mapped = true;
            p->from = s.t.start[k] + from;
            p->to = s.t.start[k] + to;
        }
    }
    /* The work file stays open (and locked) until the database is
     * written from it. */
    *out->store = s.store;
    s.store_open = false;
    out->symmetric = s.t.reps.symmetric;
    ok = true;

done:
    *stats = s.stats;
    mpi_tier_slice_free(&sl);
    mpi_tier_inner_end(&s);
    loopy_i_position_buffer_release(&s.buf);
    mpi_exchange_free(&s.x);
    if (s.store_open)
        loopy_i_tier_store_close(&s.store, false);
    loopy_i_tiers_free(&s.t);
    free(s.local_at);
    free(s.allowed);
    return ok;
}
