/*
 * output.c - the solution written by rank 0, the other ranks' lines
 * received in rank order: the bytes of "loopy solve" (the formats are
 * cli/solve_common.c's), in memory bounded by one chunk per rank whatever
 * the graph (a send returns once rank 0 has taken the chunk).
 */
#include "mpi.h"

#include "../lib/db/db_internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 20)
#define TAG_LINES 7
#define TAG_VALUES 8
/* Positions per message of the database's values. */
#define VALUES_CHUNK (1u << 18)

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

/* Rank 0: receives rank r's outcomes and remotenesses, from position lo,
 * count of them, in chunks. */
static void receive_values(int r, uint64_t lo, uint64_t count, uint8_t *outcome,
                           uint32_t *remoteness)
{
    for (uint64_t done = 0; done < count;) {
        int len = (int)(count - done < VALUES_CHUNK ? count - done : VALUES_CHUNK);
        MPI_Recv(outcome + lo + done, len, MPI_UINT8_T, r, TAG_VALUES,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(remoteness + lo + done, len, MPI_UINT32_T, r, TAG_VALUES,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        done += (uint64_t)len;
    }
}

bool mpi_write_db(mpi_run *run, const mpi_part *part, const mpi_solution *sol,
                  bool misere, cli_out *out)
{
    uint8_t *outcome = NULL;
    uint32_t *remoteness = NULL;
    loopy_i_db_source src;
    loopy_status status;

    if (run->rank == 0) {
        outcome = malloc(part->n + 1);
        remoteness = malloc((part->n + 1) * sizeof *remoteness);
        if (outcome == NULL || remoteness == NULL)
            mpi_fail(run, EXIT_RESOURCE, "out of memory: rank 0 assembles the "
                     "database, 5 bytes a position");
    }
    if (!mpi_agree(run)) {
        free(outcome);
        free(remoteness);
        return false;
    }
    if (run->rank != 0) {
        for (uint64_t done = 0; done < sol->nl;) {
            int len = (int)(sol->nl - done < VALUES_CHUNK ? sol->nl - done
                                                          : VALUES_CHUNK);
            MPI_Send(sol->outcome + done, len, MPI_UINT8_T, 0, TAG_VALUES,
                     MPI_COMM_WORLD);
            MPI_Send(sol->remoteness + done, len, MPI_UINT32_T, 0, TAG_VALUES,
                     MPI_COMM_WORLD);
            done += (uint64_t)len;
        }
        return mpi_agree(run);
    }
    memcpy(outcome, sol->outcome, sol->nl);
    memcpy(remoteness, sol->remoteness, sol->nl * sizeof *remoteness);
    for (int r = 1; r < run->ranks; r++)
        receive_values(r, part->bound[r], part->bound[r + 1] - part->bound[r],
                       outcome, remoteness);
    memset(&src, 0, sizeof src);
    src.n = src.index_size = part->n;
    src.outcome = outcome;
    src.remoteness = remoteness;
    src.name = "graph";
    src.params = "";
    src.base = part->base;
    src.misere = misere;
    status = loopy_i_db_write(&src, NULL, cli_write_bytes, out);
    if (status != LOOPY_OK)
        mpi_fail(run, cli_exit_status(status), "%s: %s",
                 out->path != NULL ? out->path : "standard output",
                 status == LOOPY_EIO ? "write failed" : loopy_strerror(status));
    free(outcome);
    free(remoteness);
    return mpi_agree(run);
}
