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
/* No header yet in a buffer (no header is all ones: see mpi_exchange_put's
 * callers, whose first header word is below 2^32 - 1). */
#define NO_HEAD UINT64_MAX

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
    x->head = malloc((size_t)ranks * sizeof *x->head);
    if (x->send == NULL || x->recv == NULL || x->send_count == NULL ||
        x->send_displ == NULL || x->recv_count == NULL || x->recv_displ == NULL ||
        x->head == NULL)
        return false;
    for (int d = 0; d < ranks; d++) {
        x->send_displ[d] = d * x->cap;
        x->head[d] = NO_HEAD;
    }
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
    free(x->head);
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
    for (int d = 0; d < ranks; d++)
        x->head[d] = NO_HEAD;
    sent *= 4;
    stats->bytes_sent += sent;
    if (sent > stats->most_sent)
        stats->most_sent = sent;
}

bool mpi_exchange_put(mpi_exchange *x, int d, const uint32_t *head,
                      int head_len, const uint32_t *msg, int len)
{
    uint32_t *buf = x->send + (size_t)d * (size_t)x->cap;
    int *n = &x->send_count[d];
    uint64_t key = head[0] | (head_len > 1 ? (uint64_t)head[1] << 32 : 0);

    if (*n + 1 + head_len + len > x->cap)
        return false;
    if (x->head[d] != key) {
        buf[(*n)++] = MPI_MARK;
        for (int k = 0; k < head_len; k++)
            buf[(*n)++] = head[k];
        x->head[d] = key;
    }
    for (int k = 0; k < len; k++)
        buf[(*n)++] = msg[k];
    return true;
}
