/*
 * exchange.c - one all-to-all exchange of batched messages: counts first
 * (MPI_Alltoall), then the words (MPI_Alltoallv).  Each destination's
 * buffer holds at most `cap` 32-bit words, so a rank receives at most
 * ranks * cap words and both sides stay in a fixed amount of memory (4
 * MiB each way, whatever the graph).  The test hook LOOPY_MPI_BUFFER sets
 * the words per destination (8 or more).
 */
#include "mpi.h"

#include <stdlib.h>
#include <string.h>

/* Words of all the send buffers together, and the least per destination. */
#define EXCHANGE_WORDS (1u << 20)
#define EXCHANGE_MIN_CAP 4096

bool mpi_exchange_init(mpi_exchange *x, int ranks)
{
    const char *buffer = getenv("LOOPY_MPI_BUFFER");
    size_t words;

    memset(x, 0, sizeof *x);
    x->cap = (int)(EXCHANGE_WORDS / (unsigned)ranks);
    if (x->cap < EXCHANGE_MIN_CAP)
        x->cap = EXCHANGE_MIN_CAP;
    /* Tests make the buffers tiny, so that levels need many exchanges. */
    if (buffer != NULL) {
        long want = strtol(buffer, NULL, 10);
        if (want >= 8 && want <= (1L << 26))
            x->cap = (int)want;
    }
    words = (size_t)ranks * (size_t)x->cap;
    x->send = malloc(words * sizeof *x->send);
    x->recv = malloc(words * sizeof *x->recv);
    x->send_count = calloc((size_t)ranks, sizeof *x->send_count);
    x->send_displ = calloc((size_t)ranks, sizeof *x->send_displ);
    x->recv_count = calloc((size_t)ranks, sizeof *x->recv_count);
    x->recv_displ = calloc((size_t)ranks, sizeof *x->recv_displ);
    if (x->send == NULL || x->recv == NULL || x->send_count == NULL ||
        x->send_displ == NULL || x->recv_count == NULL || x->recv_displ == NULL)
        return false;
    for (int d = 0; d < ranks; d++)
        x->send_displ[d] = d * x->cap;
    return true;
}

void mpi_exchange_free(mpi_exchange *x)
{
    free(x->send);
    free(x->recv);
    free(x->send_count);
    free(x->send_displ);
    free(x->recv_count);
    free(x->recv_displ);
    memset(x, 0, sizeof *x);
}

void mpi_exchange_run(mpi_exchange *x, mpi_stats *stats)
{
    int ranks;
    uint64_t sent = 0;

    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Alltoall(x->send_count, 1, MPI_INT, x->recv_count, 1, MPI_INT,
                 MPI_COMM_WORLD);
    for (int r = 0, at = 0; r < ranks; r++) {
        x->recv_displ[r] = at;
        at += x->recv_count[r];
        sent += (uint64_t)x->send_count[r];
    }
    MPI_Alltoallv(x->send, x->send_count, x->send_displ, MPI_UINT32_T, x->recv,
                  x->recv_count, x->recv_displ, MPI_UINT32_T, MPI_COMM_WORLD);
    memset(x->send_count, 0, (size_t)ranks * sizeof *x->send_count);
    sent *= 4;
    stats->bytes_sent += sent;
    if (sent > stats->most_sent)
        stats->most_sent = sent;
}
