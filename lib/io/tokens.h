/*
 * tokens.h - a feed of the numbers of a text in memory, read a chunk at a
 * time on all threads: the fast path of the contest readers, for inputs
 * that are nothing but numbers and white space.
 *
 * A reader takes numbers from the feed and checks them as the careful
 * reader would.  If the text holds anything else (the feed fails), or a
 * number is not what the reader wants there, the reader goes back to a
 * mark taken before it opened the feed and reads the careful way, which
 * says what is wrong and where.  So the feed never makes a message.
 */
#ifndef LOOPY_TOKENS_H
#define LOOPY_TOKENS_H

#include "stream.h"

/* Bytes of text read per chunk, by default, and per thread at least. */
#define LOOPY_I_FEED_CHUNK ((size_t)1 << 20)
#define LOOPY_I_FEED_PIECE ((size_t)64 << 10)

typedef struct loopy_i_feed {
    loopy_source *source;
    const char *next, *end; /* the text not read yet */
    size_t chunk;           /* bytes per chunk */
    int threads;
    bool failed;            /* the text is not numbers and white space */
    uint32_t *value;        /* the numbers of the chunk */
    size_t count, at;       /* how many; the next one to take */
    size_t capacity;
    uint64_t newlines;      /* in the chunks read */
    const char **cut;       /* threads + 1: the pieces of a chunk */
    size_t *first;          /* threads + 1: where a piece's numbers go */
    size_t *piece_count;    /* threads: numbers of each piece */
    uint64_t *piece_lines;  /* threads: newlines of each piece */
} loopy_i_feed;

/* Opens a feed over the rest of a source that is all in memory (a mapped
 * file or a memory text; else LOOPY_EINVAL), read on `threads` threads in
 * chunks of `chunk` bytes (0, 0: all cores, with a piece of 64 KiB or more
 * each, in chunks of LOOPY_I_FEED_CHUNK or more).  The
 * source is left alone until loopy_i_feed_done, except that pages of a
 * mapping already read are handed back. */
loopy_status loopy_i_feed_open(loopy_i_feed *f, loopy_source *source,
                               int threads, size_t chunk);

/* For tests: when nonzero, what loopy_i_feed_open takes for a chunk or
 * thread count of 0, so that small texts cross chunks and pieces. */
extern size_t loopy_i_feed_chunk_override;
extern int loopy_i_feed_threads_override;
void loopy_i_feed_close(loopy_i_feed *f);

/* Reads the next chunk that holds a number: false at the end of the text,
 * or (f->failed) at a chunk that is not numbers and white space. */
bool loopy_i_feed_refill(loopy_i_feed *f);

/* The next number: false at the end of the text or where it fails. */
static inline bool loopy_i_feed_next(loopy_i_feed *f, uint32_t *value)
{
    if (f->at == f->count && !loopy_i_feed_refill(f))
        return false;
    *value = f->value[f->at++];
    return true;
}

/* True if every number has been taken and the text is all read; then the
 * source is moved to its end (loopy_i_source_finish). */
bool loopy_i_feed_done(loopy_i_feed *f);

#endif
