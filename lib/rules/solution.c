/*
 * solution.c - what a solved game by rules answers: counts, the value of a
 * position, and the value of every move from it, best first.
 */
#include "rules_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

uint64_t loopy_game_solution_size(const loopy_game_solution *s)
{
    return s->n;
}

uint64_t loopy_game_solution_count(const loopy_game_solution *s,
                                   loopy_outcome outcome)
{
    return (unsigned)outcome < 4 ? s->count[outcome] : 0;
}

/* A solution in the words form of words (wide) or records (narrow; mapped
 * bytes of a shared file mapping when nonzero, whose pages are dropped
 * from memory as they are counted): the rank directory and the counts,
 * in one pass. */
static loopy_status of_words(uint32_t *words, void *records, unsigned width,
                             size_t mapped, uint64_t size, bool symmetric,
                             int threads, loopy_game_solution **out)
{
    uint64_t blocks = size / LOOPY_I_RANK_BLOCK + 1, count[4] = {0, 0, 0, 0};
    loopy_game_solution *s = loopy_i_calloc(1, sizeof *s);

    (void)threads; /* in a build without OpenMP */
    *out = NULL;
    if (s == NULL)
        return LOOPY_ENOMEM;
    s->rank = loopy_i_calloc((size_t)blocks + 1, sizeof *s->rank);
    if (s->rank == NULL) {
        loopy_i_free(s);
        return LOOPY_ENOMEM;
    }
    s->word = words;
    s->record = width == 2 ? records : NULL;
    s->byte = width == 1 ? records : NULL;
    s->mapped = mapped;
    s->size = size;
#pragma omp parallel num_threads(threads)
    {
        uint64_t mine[4] = {0, 0, 0, 0};
#pragma omp for schedule(static)
        for (int64_t b = 0; b < (int64_t)blocks; b++) {
            uint64_t lo = (uint64_t)b * LOOPY_I_RANK_BLOCK, present = 0;
            uint64_t hi = size - lo < LOOPY_I_RANK_BLOCK
                              ? size : lo + LOOPY_I_RANK_BLOCK;
            for (uint64_t i = lo; i < hi; i++) {
                uint32_t w = loopy_i_solution_word(s, i);
                if (w != LOOPY_I_WORD_ABSENT) {
                    present++;
                    mine[w >> LOOPY_I_WORD_SHIFT]++;
                }
            }
            s->rank[b + 1] = present;
            if (mapped != 0 && hi > lo)
                loopy_i_release_mapped((unsigned char *)records + lo * width,
                                       (size_t)(hi - lo) * width);
        }
#pragma omp critical
        for (int k = 0; k < 4; k++)
            count[k] += mine[k];
    }
    for (uint64_t b = 0; b < blocks; b++)
        s->rank[b + 1] += s->rank[b];
    s->n = s->rank[blocks];
    memcpy(s->count, count, sizeof count);
    s->symmetric = symmetric;
    *out = s;
    return LOOPY_OK;
}

loopy_status loopy_i_solution_of_words(uint32_t *words, uint64_t size,
                                       bool symmetric, int threads,
                                       loopy_game_solution **out)
{
    return of_words(words, NULL, 0, 0, size, symmetric, threads, out);
}

loopy_status loopy_i_solution_of_records(void *records, unsigned width,
                                         uint64_t size, bool symmetric,
                                         int threads,
                                         loopy_game_solution **out)
{
    return of_words(NULL, records, width, 0, size, symmetric, threads, out);
}

loopy_status loopy_i_solution_of_reserved_records(uint16_t *records,
                                                  uint64_t size,
                                                  bool symmetric, int threads,
                                                  loopy_game_solution **out)
{
    loopy_status status = of_words(NULL, records, 2, 0, size, symmetric,
                                   threads, out);

    if (status == LOOPY_OK)
        (*out)->reserved = true;
    return status;
}

loopy_status loopy_i_solution_of_mapped_records(void *records, unsigned width,
                                                uint64_t size, size_t bytes,
                                                int lock_fd, bool symmetric,
                                                int threads,
                                                loopy_game_solution **out)
{
    loopy_status status = of_words(NULL, records, width, bytes, size,
                                   symmetric, threads, out);

    if (status != LOOPY_OK) {
        close(lock_fd);
        return status;
    }
    (*out)->locked = true;
    (*out)->lock_fd = lock_fd;
    return LOOPY_OK;
}

loopy_position loopy_i_solution_select(const loopy_game_solution *s,
                                       uint64_t i)
{
    uint64_t lo = 0, hi = s->size / LOOPY_I_RANK_BLOCK, seen;

    /* The last block with fewer than i + 1 positions before it. */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (s->rank[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    seen = s->rank[lo];
    for (uint64_t pos = lo * LOOPY_I_RANK_BLOCK; pos < s->size; pos++)
        if (loopy_i_solution_word(s, pos) != LOOPY_I_WORD_ABSENT &&
            seen++ == i)
            return pos;
    return UINT64_MAX; /* not reached: i < s->n */
}

loopy_position loopy_game_solution_position(const loopy_game_solution *s,
                                            uint64_t i)
{
    if (i >= s->n)
        return UINT64_MAX;
    return loopy_i_solution_indexed(s) ? loopy_i_solution_select(s, i)
                                       : s->position[i];
}

/* The value of pos (its representative) in s; false when not there. */
static bool find(const loopy_game_solution *s, const loopy_game *game,
                 loopy_position pos, loopy_outcome *outcome,
                 uint32_t *remoteness)
{
    uint64_t lo = 0, hi = s->n;

    /* Past the index space, before the game is asked of it: a game's
     * canonical() need not check (mnk's reads such an index as a board of
     * its last tier). */
    if (pos >= game->size)
        return false;
    if (s->symmetric && game->canonical != NULL)
        pos = game->canonical(game->ctx, pos);
    if (loopy_i_solution_indexed(s))
        return pos < s->size &&
               loopy_i_word_value(loopy_i_solution_word(s, pos), outcome,
                                  remoteness);
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (s->position[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->n || s->position[lo] != pos)
        return false;
    *outcome = (loopy_outcome)s->outcome[lo];
    *remoteness = s->remoteness[lo];
    return true;
}

loopy_status loopy_game_solution_value(const loopy_game_solution *s,
                                       const loopy_game *game,
                                       loopy_position pos,
                                       loopy_outcome *outcome,
                                       uint32_t *remoteness)
{
    if (s == NULL || game == NULL)
        return LOOPY_EINVAL;
    return find(s, game, pos, outcome, remoteness) ? LOOPY_OK : LOOPY_EINVAL;
}

/* How good a move is for the player who makes it: smaller is better.
 * Moves to an opponent's Lose (quickest first), to a Tie (quickest first),
 * to a Draw, to an opponent's Win (slowest first). */
static uint64_t badness(const loopy_game_move *m)
{
    switch (m->outcome) {
    case LOOPY_LOSE:
        return m->remoteness;
    case LOOPY_TIE:
        return ((uint64_t)1 << 32) + m->remoteness;
    case LOOPY_DRAW:
        return (uint64_t)2 << 32;
    default:
        return ((uint64_t)4 << 32) - 1 - m->remoteness;
    }
}

int loopy_i_compare_moves(const void *a, const void *b)
{
    const loopy_game_move *x = a, *y = b;
    uint64_t bx = badness(x), by = badness(y);

    if (bx != by)
        return bx < by ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

loopy_status loopy_game_solution_moves(const loopy_game_solution *s,
                                       const loopy_game *game,
                                       loopy_position pos,
                                       loopy_game_move **moves, size_t *count,
                                       loopy_diag *diag)
{
    loopy_position_buffer buf = {NULL, 0, false};
    loopy_i_list_failure why;
    loopy_game_move *list = NULL;
    size_t n;

    loopy_outcome outcome;
    uint32_t remoteness;

    *moves = NULL;
    *count = 0;
    if (!find(s, game, pos, &outcome, &remoteness)) {
        loopy_i_diag(diag, 0, 0, "position %" LOOPY_PRI_POSITION " was not "
                     "reached from the start", pos);
        return LOOPY_EINVAL;
    }
    if (game->primitive(game->ctx, pos) != LOOPY_PLAYING)
        return LOOPY_OK;
    n = loopy_i_game_list_why(game, pos, false, &buf, &why);
    if (n == LOOPY_GAME_ERROR) {
        char text[160];
        loopy_i_position_buffer_release(&buf);
        loopy_i_list_failure_text(&why, false, text, sizeof text);
        loopy_i_diag(diag, 0, 0, "%s%s", text, why.fault == LOOPY_I_LIST_FAILED
                                                   ? " at this position" : "");
        return why.fault == LOOPY_I_LIST_NO_MEMORY ? LOOPY_ENOMEM : LOOPY_EGAME;
    }
    n = loopy_i_sort_unique(buf.items, n);
    /* malloc, not loopy_i_malloc: the caller frees it with free. */
    list = malloc(n ? n * sizeof *list : 1);
    if (list == NULL) {
        loopy_i_position_buffer_release(&buf);
        loopy_i_diag(diag, 0, 0, "out of memory");
        return LOOPY_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (!find(s, game, buf.items[i], &outcome, &remoteness)) {
            loopy_i_diag(diag, 0, 0, "a move to %" LOOPY_PRI_POSITION ", which "
                         "the solve did not reach: the rules changed, or "
                         "canonical() is not a symmetry", buf.items[i]);
            free(list);
            loopy_i_position_buffer_release(&buf);
            return LOOPY_EGAME;
        }
        list[i].to = buf.items[i];
        list[i].outcome = outcome;
        list[i].remoteness = remoteness;
    }
    loopy_i_position_buffer_release(&buf);
    qsort(list, n, sizeof *list, loopy_i_compare_moves);
    *moves = list;
    *count = n;
    return LOOPY_OK;
}

void loopy_game_solution_free(loopy_game_solution *s)
{
    if (s == NULL)
        return;
    loopy_i_free(s->position);
    loopy_i_free(s->outcome);
    loopy_i_free(s->remoteness);
    loopy_i_free(s->word);
    if (s->reserved) {
        loopy_i_unreserve(s->record, (size_t)s->size, sizeof *s->record);
    } else if (s->mapped != 0) {
        munmap(s->record != NULL ? (void *)s->record : (void *)s->byte,
               s->mapped);
    } else {
        loopy_i_free(s->record);
        loopy_i_free(s->byte);
    }
    if (s->locked)
        close(s->lock_fd); /* and with it the journal's lock */
    loopy_i_free(s->rank);
    loopy_i_free(s);
}
