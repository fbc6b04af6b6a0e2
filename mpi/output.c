/*
 * output.c - the solution written by rank 0, the other ranks' lines
 * received in rank order: the bytes of "loopy solve" (the formats are
 * cli/solve_common.c's), in memory bounded by one chunk per rank whatever
 * the graph (a send returns once rank 0 has taken the chunk); and the
 * database, which every rank writes its part of (db_parts.c).
 */
#include "mpi.h"

#include "../lib/db/db_internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 20)
#define TAG_LINES 7

/* Formats this rank's vertices from *next on into buf until it is full;
 * returns the bytes written. */
static size_t format_chunk(const mpi_part *part, const mpi_solution *sol,
                           mpi_format format, uint64_t *next, char *buf)
{
    size_t most = format == MPI_FORMAT_JSON ? CLI_SOLVE_JSON_MAX
                                            : CLI_SOLVE_LINE_MAX;
    char *p = buf;

    for (; *next < sol->nl && (size_t)(p - buf) + most <= CHUNK; (*next)++) {
        uint64_t i = *next;
        loopy_vertex v = (loopy_vertex)(part->lo + i);
        if (format == MPI_FORMAT_JSON)
            p = cli_solve_json_position(p, v, sol->outcome[i], sol->remoteness[i],
                                        sol->best[i], part->base);
        else
            p = cli_solve_line(p, v, sol->outcome[i], sol->remoteness[i],
                               sol->best[i], part->base);
    }
    return (size_t)(p - buf);
}

bool mpi_write(mpi_run *run, const mpi_part *part, const mpi_solution *sol,
               mpi_format format, const loopy_solve_options *options,
               cli_out *out)
{
    char *buf = malloc(CHUNK);
    uint64_t next = 0;

    if (buf == NULL)
        mpi_fail(run, EXIT_RESOURCE, "out of memory");
    if (!mpi_agree(run)) {
        free(buf);
        return false;
    }
    if (run->rank != 0) {
        size_t len;
        do {
            len = format_chunk(part, sol, format, &next, buf);
            MPI_Send(buf, (int)len, MPI_CHAR, 0, TAG_LINES, MPI_COMM_WORLD);
        } while (len > 0);
        free(buf);
        return true;
    }
    if (format == MPI_FORMAT_JSON)
        cli_solve_json_head(out, part->n, part->m, part->base, options,
                            sol->count);
    for (size_t len; (len = format_chunk(part, sol, format, &next, buf)) > 0;)
        cli_out_bytes(out, buf, len);
    for (int r = 1; r < run->ranks; r++) {
        for (;;) {
            MPI_Status status;
            int len = 0;
            MPI_Recv(buf, CHUNK, MPI_CHAR, r, TAG_LINES, MPI_COMM_WORLD, &status);
            MPI_Get_count(&status, MPI_CHAR, &len);
            if (len <= 0)
                break;
            cli_out_bytes(out, buf, (size_t)len);
        }
    }
    if (format == MPI_FORMAT_JSON)
        cli_solve_json_tail(out, part->n);
    free(buf);
    return true;
}

bool mpi_write_db(mpi_run *run, const mpi_part *part, const mpi_solution *sol,
                  bool misere, const char *path, cli_out *out)
{
    uint32_t *word = malloc((size_t)sol->nl * sizeof *word + 1);
    char *tmp_path = mpi_pending_path();
    loopy_i_db_source meta;
    db_shape shape;
    bool ok = false;

    /* (tmp_path NULL: no file the ranks share; they send rank 0 their
     * blocks.) */
    if (word == NULL)
        mpi_fail(run, EXIT_RESOURCE, "%s: out of memory", path);
    for (uint64_t i = 0; word != NULL && i < sol->nl; i++) {
        uint8_t outcome = sol->outcome[i];
        uint32_t r = sol->remoteness[i];
        /* The words of the solver of games (rules_internal.h): a Tie at
         * the two largest remotenesses of a 4-byte record, past 10^9,
         * has none; the single process writes it. */
        if (outcome != LOOPY_DRAW &&
            (r > DB_REMOTENESS_MAX_4 ||
             (outcome == LOOPY_TIE && r > LOOPY_I_WORD_MAX_REMOTENESS))) {
            mpi_fail(run, EXIT_RESOURCE, "%s: %s", path,
                     loopy_strerror(LOOPY_ETOOBIG));
            break;
        }
        word[i] = outcome == LOOPY_DRAW ? 0u
                  : (uint32_t)outcome << LOOPY_I_WORD_SHIFT | r;
    }
    if (mpi_agree(run)) {
        memset(&meta, 0, sizeof meta);
        meta.name = "graph";
        meta.params = "";
        meta.index_size = part->n;
        meta.base = part->base;
        meta.misere = misere;
        mpi_db_part mine = {{word, NULL, NULL, false}, part->lo,
                            part->lo + sol->nl};
        ok = mpi_write_words_db(run, &meta, &mine, 1, path,
                                run->rank == 0 ? out : NULL, tmp_path, &shape);
    }
    free(word);
    free(tmp_path);
    return ok;
}
