/*
 * db_internal.h - what the database modules (lib/db/) share: the file
 * format's constants, its records and position deltas, the writer's inner
 * entry point (which tests and fuzzers use to choose a layout) and the
 * open database.
 *
 * The layout of a database file (".ldb"), every number little-endian:
 *
 *      0  magic "\x89LDB\r\n\x1a\n"
 *      8  u32 format version (1)          12  u32 byte-order mark 0x01020304
 *     16  u32 header bytes H              20  u32 flags (1 misere, 2
 *                                             symmetric, 4 sparse)
 *     24  u32 record width (2 or 4)       28  u32 positions per block K
 *     32  u32 base (0 or 1)               36  u32 largest remoteness
 *     40  u64 positions n                 48  u64 index-space size
 *     56  u64 counts of D, W, L, T (loopy_outcome order), 4 x u64
 *     88  u64 first position lo           96  u64 last position + 1, hi
 *    104  u64 block count B              112  u64 offset of the block index
 *    120  u16 name length (1..64)        122  u16 parameter length (0..255)
 *    124  u32 zero
 *    128  the name, then the parameters (printable ASCII), then zeros up to
 *         a multiple of 8, then u64 checksum of bytes 0 .. H-8: H bytes
 *      H  the blocks, one zstd frame each, back to back
 *  index  B entries of 32 bytes: u64 offset, u32 compressed length, u32
 *         uncompressed length, u64 first position, u64 checksum of the
 *         compressed bytes; then u64 checksum of the entries; the file ends
 *         there.
 *
 * A block, uncompressed: its records (width bytes each), and in sparse mode
 * then the gaps between its positions.  Dense mode: block b holds the
 * records of the positions lo + bK .. lo + bK + K - 1 (fewer in the last,
 * up to hi - 1), record 0 where a position is absent.  Sparse mode: block b
 * holds the (b+1)-th K solved positions (fewer in the last), then their
 * positions as unsigned LEB128 numbers (7 bits a byte, low first, at most
 * 10 bytes, no superfluous zero byte): the first position itself (which
 * must be the index's), then for each next one its gap, the difference to
 * the previous minus 1.
 *
 * A record (width 2: S = 14; width 4: S = 30): kind = record >> S and
 * low = record & (2^S - 1).  kind 0: low 0 is "absent" (dense mode only),
 * low 1 is a Draw, anything else is invalid; kind 1, 2, 3: a Win, a Lose,
 * a Tie (the loopy_outcome) at remoteness low.
 */
#ifndef LOOPY_DB_INTERNAL_H
#define LOOPY_DB_INTERNAL_H

#include "../rules/rules_internal.h"

#include <stdatomic.h>

#define DB_VERSION 1u
#define DB_BYTE_ORDER 0x01020304u
#define DB_FIXED_BYTES 128u
#define DB_NAME_MAX 64u
#define DB_PARAMS_MAX 255u
/* The largest header: fixed part, name, parameters, padding, checksum. */
#define DB_HEADER_MAX ((DB_FIXED_BYTES + DB_NAME_MAX + DB_PARAMS_MAX + 7) / 8 * 8 + 8)
#define DB_ENTRY_BYTES 32u
#define DB_FLAG_MISERE 1u
#define DB_FLAG_SYMMETRIC 2u
#define DB_FLAG_SPARSE 4u
#define DB_FLAGS_KNOWN 7u
/* Positions per block the writer uses: a probe decompresses and checks
 * one block, 16 or 32 KiB of records, and in sparse mode 8 KiB or more of
 * positions.  Halving them makes probes about twice as fast and files a
 * few per cent (dense) to a tenth (sparse) larger. */
#define DB_DENSE_BLOCK 8192u
#define DB_SPARSE_BLOCK 8192u
/* The most positions per block a reader accepts (so a block is at most
 * 14 MiB uncompressed). */
#define DB_BLOCK_MAX (1u << 20)
/* The largest remoteness for each record width. */
#define DB_REMOTENESS_MAX_2 0x3fffu
#define DB_REMOTENESS_MAX_4 0x3fffffffu
/* A LEB128 gap takes at most this many bytes. */
#define DB_GAP_MAX_BYTES 10u
/* Spare decompression contexts an open database keeps for its probes. */
#define DB_SPARES 8

extern const unsigned char loopy_i_db_magic[8];

/* ---- Little-endian numbers ---- */
static inline void db_put(unsigned char *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t db_get(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;

    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* ---- Records ---- */
/* The record of a value (width 2 or 4; remoteness within the width's
 * maximum, unless outcome is a Draw). */
static inline uint32_t db_record(unsigned width, loopy_outcome outcome,
                                 uint32_t remoteness)
{
    unsigned shift = width == 2 ? 14 : 30;

    return outcome == LOOPY_DRAW ? 1u : (uint32_t)outcome << shift | remoteness;
}

enum { DB_ABSENT, DB_PRESENT, DB_INVALID };

/* Decodes a record: DB_ABSENT, DB_PRESENT (with *outcome and *remoteness,
 * LOOPY_NONE for a Draw) or DB_INVALID (also for a remoteness above
 * max_remoteness, the header's largest). */
static inline int db_decode(uint32_t record, unsigned width,
                            uint32_t max_remoteness, loopy_outcome *outcome,
                            uint32_t *remoteness)
{
    unsigned shift = width == 2 ? 14 : 30;
    uint32_t kind = record >> shift, low = record & ((1u << shift) - 1);

    if (kind == 0) {
        *outcome = LOOPY_DRAW;
        *remoteness = LOOPY_NONE;
        return low == 0 ? DB_ABSENT : low == 1 ? DB_PRESENT : DB_INVALID;
    }
    *outcome = (loopy_outcome)kind;
    *remoteness = low;
    return low <= max_remoteness ? DB_PRESENT : DB_INVALID;
}

/* Writes gap as unsigned LEB128 (7-bit groups, low first) at out[*len]. */
static inline void db_put_gap(unsigned char *out, size_t *len, uint64_t gap)
{
    do {
        out[(*len)++] = (unsigned char)((gap & 0x7f) | (gap > 0x7f ? 0x80 : 0));
        gap >>= 7;
    } while (gap != 0);
}

/* ---- Writing (lib/db/write.c) ---- */
/* What a database holds: n positions in increasing order (position NULL:
 * 0 .. n-1), with their outcome (a loopy_outcome) and remoteness
 * (LOOPY_NONE for a Draw). */
typedef struct loopy_i_db_source {
    uint64_t n;
    /* Non-NULL: the words of the solver that stores no moves, one per
     * index below index_size (rules_internal.h); the positions are the
     * indices whose word is present, and position, outcome and remoteness
     * are not used. */
    const uint32_t *word;
    /* Or non-NULL, the same as narrow records, or as 1-byte records
     * (rules_internal.h). */
    const uint16_t *record;
    const uint8_t *byte;
    /* record or byte is a shared file mapping: its pages leave memory
     * once read. */
    bool mapped;
    const loopy_position *position;
    const uint8_t *outcome;
    const uint32_t *remoteness;
    const char *name;
    const char *params;
    uint64_t index_size; /* positions are below it */
    /* A words source: nonzero, the indices from end on are absent and not
     * read (one ending of chess in the records of a larger one, written
     * as its own table); 0, none. */
    uint64_t end;
    uint32_t base;       /* 0 or 1 */
    bool misere;
    bool symmetric;
} loopy_i_db_source;

enum { DB_LAYOUT_AUTO, DB_LAYOUT_DENSE, DB_LAYOUT_SPARSE };

/* How to lay a database out; zeros mean the defaults. */
typedef struct loopy_i_db_layout {
    uint32_t block_positions; /* K, 1 .. DB_BLOCK_MAX; 0: by the mode */
    int mode;                 /* DB_LAYOUT_* */
    unsigned width;           /* 2 or 4; 0: 2 when every remoteness fits */
    int level;                /* zstd's level; 0: the library's choice */
    int threads;              /* 0: as many as OpenMP offers */
} loopy_i_db_layout;

/* Writes src as a database through write.  LOOPY_EINVAL for a source that
 * is not one (positions not increasing or not below index_size, a bad
 * name), LOOPY_ETOOBIG for a remoteness above DB_REMOTENESS_MAX_4 (or 2
 * when layout->width asks for 2), LOOPY_EIO when write fails. */
loopy_status loopy_i_db_write(const loopy_i_db_source *src,
                              const loopy_i_db_layout *layout,
                              loopy_write_fn write, void *ctx);
/* The same bytes through write_at, with no more than a window of
 * compressed blocks in memory (about 64 MiB of records' worth): the
 * blocks in order from the header's end, then the index, and last the
 * header at offset 0.  The one writer: loopy_i_db_write holds what
 * follows the header until the header comes. */
loopy_status loopy_i_db_write_at(const loopy_i_db_source *src,
                                 const loopy_i_db_layout *layout,
                                 loopy_write_at_fn write_at, void *ctx);
/* For tests: blocks a window, 0 for the writer's choice. */
extern uint64_t loopy_i_db_window_blocks;

/* loopy_db_iterate on threads: the blocks in chunks of 16, a chunk's
 * positions in order, the chunks on any thread; visit must allow calls
 * from several threads at once.  When visit stops in a chunk, every
 * chunk before it is visited whole and none after it is begun (those
 * under way go on to their own stop or end).  The counts are checked
 * against the header as loopy_db_iterate checks them, unless visit
 * stopped the walk. */
loopy_status loopy_i_db_iterate_threads(const loopy_db *db,
                                        loopy_db_visit_fn visit, void *ctx,
                                        int threads, loopy_diag *diag);

/* What the writers share (write.c): the shape of a database, decided
 * from its counts; a builder of a block's uncompressed bytes; the
 * compression of blocks on threads; the header and the index entries. */
typedef struct db_shape {
    uint64_t n, lo, hi;     /* positions; the first and the last + 1 */
    uint64_t count[4];      /* by loopy_outcome */
    uint64_t blocks;
    uint32_t max_remoteness;
    uint32_t k;             /* positions per block */
    unsigned width;         /* 2 or 4 */
    bool sparse;
    int level;              /* zstd's */
} db_shape;

typedef struct db_block db_block;

/* Whether s, of at most max characters, is printable ASCII (its length
 * in *len); whether name is a game's name (letters, digits, '_', '-'). */
bool loopy_i_db_printable(const char *s, size_t max, size_t *len);
bool loopy_i_db_game_name(const char *name);
/* Whether src's name, parameters and base may be written. */
bool loopy_i_db_meta_ok(const loopy_i_db_source *src);
/* Given s->n, lo, hi and count, and the largest remoteness max: the
 * record width, the mode, K and the block count, as the layout asks
 * (LOOPY_ETOOBIG, LOOPY_EINVAL as loopy_i_db_write). */
loopy_status loopy_i_db_decide(const loopy_i_db_layout *layout, uint64_t max,
                               db_shape *s);
/* Writes block b's uncompressed bytes at out (room for K records and, in
 * sparse mode, their gaps) and its first position; returns their number. */
typedef size_t (*db_build_fn)(const void *ctx, uint64_t b, unsigned char *out,
                              uint64_t *first_position);
/* Blocks a writer compresses before it writes their frames: about 64 MiB
 * of s's records, at least 4 a thread, at most s->blocks (or
 * loopy_i_db_window_blocks when a test sets it). */
uint64_t loopy_i_db_window(const db_shape *s, int threads);
/* Builds and compresses blocks first .. first+blocks-1 on threads into
 * frame[b - first] (allocated here) and entry[b - first] (but for its
 * offset). */
loopy_status loopy_i_db_compress(const db_shape *s, uint64_t first,
                                uint64_t blocks, db_build_fn build,
                                const void *ctx, int threads,
                                unsigned char **frame, db_block *entry);
/* The header's size for meta's name and parameters, and the header
 * itself (meta: name, params, index_size, base, misere, symmetric). */
uint64_t loopy_i_db_header_bytes(const loopy_i_db_source *meta);
void loopy_i_db_fill_header(const db_shape *s, const loopy_i_db_source *meta,
                            uint64_t header_bytes, uint64_t index_offset,
                            unsigned char *h);
/* The 32 bytes of an index entry. */
void loopy_i_db_put_entry(unsigned char *e, const db_block *b);

/* ---- Writing in parts (lib/db/write_parts.c) ----
 * The database of words held in P parts, part r the words of indices
 * from_r .. to_r - 1 (consecutive ranges from 0 to the index-space size),
 * by P processes, with the bytes loopy_i_db_write writes for the whole:
 *   1. each part's tally (loopy_i_db_part_tally), shared by all;
 *   2. the shape, from every tally (loopy_i_db_parts_shape);
 *   3. the tail of each part: the first items (records in dense mode, the
 *      present records in sparse mode) of the parts after it that its last
 *      block reaches into, loopy_i_db_tail_items of each later part's head
 *      (loopy_i_db_part_head);
 *   4. each part's blocks, those that start in it, compressed
 *      (loopy_i_db_part_compress) and written at the offset the sizes of
 *      the earlier parts give (a prefix sum of loopy_i_db_piece.bytes);
 *   5. the header and the index, from every part's entries
 *      (loopy_i_db_piece_entries, loopy_i_db_parts_finish). */
typedef struct loopy_i_db_tally {
    uint64_t from, to;          /* the part's indices */
    uint64_t n, count[4];       /* present words, by outcome */
    uint64_t lo, hi;            /* the first present, the last + 1 (0, 0) */
    uint64_t max_remoteness;
} loopy_i_db_tally;
/* The tally's numbers as an array (for a message between processes). */
#define LOOPY_I_DB_TALLY_WORDS 10

/* A part's values, in one of three forms (rules_internal.h): words, or
 * 2-byte or 1-byte records; mapped: a file's mapping (a tier solve's work
 * file), whose pages leave memory once read. */
typedef struct loopy_i_db_values {
    const uint32_t *word;
    const uint16_t *record;
    const uint8_t *byte;
    bool mapped;
} loopy_i_db_values;

/* The word of value i. */
static inline uint32_t loopy_i_db_value(const loopy_i_db_values *v, uint64_t i)
{
    return v->word != NULL     ? v->word[i]
           : v->record != NULL ? loopy_i_word_of_record(v->record[i])
                               : loopy_i_word_of_record(
                                     loopy_i_record_of_byte(v->byte[i]));
}

/* An item of a tail: a position and its word. */
typedef struct loopy_i_db_item {
    uint64_t pos;
    uint32_t word;
    uint32_t zero;
} loopy_i_db_item;

/* The blocks of one part, compressed. */
typedef struct loopy_i_db_piece {
    uint64_t first_block, blocks; /* its blocks' numbers in the file */
    uint64_t bytes;               /* their compressed bytes */
    unsigned char **frame;
    db_block *entry;
} loopy_i_db_piece;

/* Tallies the values v[0 .. to - from) of indices from .. to - 1;
 * LOOPY_EINVAL for one that is not solved (a word SEEN, a record
 * REACHED). */
loopy_status loopy_i_db_part_tally(const loopy_i_db_values *v, uint64_t from,
                                   uint64_t to, loopy_i_db_tally *t);
/* The shape of the whole from the parts' tallies t[0 .. parts); LOOPY_EINVAL
 * when the parts are not consecutive ranges covering meta->index_size or
 * meta cannot be written; meta->n is not read. */
loopy_status loopy_i_db_parts_shape(const loopy_i_db_source *meta,
                                    const loopy_i_db_layout *layout,
                                    const loopy_i_db_tally *t, int parts,
                                    db_shape *s);
/* The items of part t (dense: its indices from lo to hi; sparse: its
 * present ones): a tail of a part before it takes the first of them. */
uint64_t loopy_i_db_part_items(const db_shape *shape, const loopy_i_db_tally *t);
/* How many items part r's tail takes in all (fewer than K), from the
 * parts after it: the first items of part r + 1, then of r + 2, ... */
uint64_t loopy_i_db_tail_need(const db_shape *shape, const loopy_i_db_tally *t,
                              int parts, int r);
/* loopy_i_db_tail_need of every part into need[0 .. parts), in one pass. */
void loopy_i_db_tail_needs(const db_shape *shape, const loopy_i_db_tally *t,
                           int parts, uint64_t *need);
/* How many of part s's first items part r's tail takes (0 unless r < s). */
uint64_t loopy_i_db_tail_items(const db_shape *shape, const loopy_i_db_tally *t,
                               int parts, int r, int s);
/* The first count items of part t, whose values are v, into out. */
void loopy_i_db_part_head(const db_shape *shape, const loopy_i_db_tally *t,
                          const loopy_i_db_values *v, uint64_t count,
                          loopy_i_db_item *out);
/* Takes a window of a part's blocks, in order: frame[0 .. count) and
 * entry[0 .. count) (their offsets not set), the frames freed after it
 * returns; nonzero stops the compression (LOOPY_EIO). */
typedef int (*loopy_i_db_frames_fn)(void *ctx, unsigned char *const *frame,
                                    const db_block *entry, uint64_t count);
/* Compresses part r's blocks (its values, then its tail: the items the
 * later parts give it, in order) into piece, on threads (0: OpenMP's).
 * frames NULL: piece holds every frame.  Otherwise the blocks go to
 * frames a window at a time (loopy_i_db_window) and piece holds only
 * their entries (frame NULL), so that no more than a window of frames
 * is ever in memory. */
loopy_status loopy_i_db_part_compress(const db_shape *shape,
                                      const loopy_i_db_tally *t, int parts,
                                      int r, const loopy_i_db_values *v,
                                      const loopy_i_db_item *tail,
                                      uint64_t tail_count, int threads,
                                      loopy_i_db_frames_fn frames, void *ctx,
                                      loopy_i_db_piece *piece);
/* Writes the piece's frames, in order, through write. */
loopy_status loopy_i_db_piece_write(const loopy_i_db_piece *piece,
                                    loopy_write_fn write, void *ctx);
/* The piece's index entries (32 bytes a block) into out, its first frame
 * at offset in the file. */
void loopy_i_db_piece_entries(const loopy_i_db_piece *piece, uint64_t offset,
                              unsigned char *out);
void loopy_i_db_piece_free(loopy_i_db_piece *piece);
/* The header (into header, DB_HEADER_MAX bytes; its length in *header_len)
 * for frames of frame_bytes in all, and the checksum after the entries:
 * index holds shape->blocks entries and 8 bytes more. */
void loopy_i_db_parts_finish(const db_shape *shape,
                             const loopy_i_db_source *meta, uint64_t frame_bytes,
                             unsigned char *index, unsigned char *header,
                             size_t *header_len);

/* ---- An open database (lib/db/open.c, lib/db/probe.c) ---- */
typedef struct db_header {
    uint32_t header_bytes, flags, width, block_positions, base;
    uint32_t max_remoteness;
    uint64_t n, index_size, count[4], lo, hi, blocks, index_offset;
    char name[DB_NAME_MAX + 1];
    char params[DB_PARAMS_MAX + 1];
} db_header;

struct db_block {
    uint64_t offset;   /* in the file */
    uint64_t first;    /* its first position (index) */
    uint64_t checksum; /* of the compressed bytes */
    uint32_t compressed, plain; /* lengths */
};

/* Decoded blocks a scratch keeps besides the one it reads now: the moves
 * of a position, and the positions a server is asked about again and
 * again, lie in a few blocks, each then decompressed once. */
#define DB_CACHED_BLOCKS 8

/* A decoded block kept in a scratch: its buffers, as db_scratch's. */
typedef struct db_decoded {
    unsigned char *plain;
    uint32_t plain_size;
    loopy_position *position; /* sparse mode, or NULL until needed */
    uint64_t block;           /* UINT64_MAX: none */
} db_decoded;

/* What one probe needs to read a block; owned by one thread at a time.
 * The buffers have exactly the size of the block last read (so that the
 * sanitizers see any access past it), and are made anew for a block of
 * another size. */
typedef struct db_scratch {
    void *dctx;                /* ZSTD_DCtx */
    unsigned char *compressed; /* files only: compressed_size bytes */
    unsigned char *plain;      /* plain_size bytes */
    uint32_t compressed_size, plain_size;
    loopy_position *position;  /* K, sparse mode */
    uint64_t block;            /* decoded in plain, or UINT64_MAX */
    /* The blocks decoded before, swapped with the current one on a hit;
     * next: the slot a miss gives up (round robin). */
    db_decoded cached[DB_CACHED_BLOCKS];
    unsigned next;
} db_scratch;

struct loopy_db {
    db_header h;
    db_block *block;
    int fd;                       /* -1: memory */
    const unsigned char *memory;  /* the bytes, when not a file */
    uint64_t file_bytes;
    /* Scratch handed from probe to probe: a probe takes one (an atomic
     * exchange, so no two threads hold the same) and puts it back, or
     * frees it when every slot is taken. */
    _Atomic(db_scratch *) *spare;
    /* loopy_db_use_tables' folder, or NULL. */
    char *tables;
};

/* Records in block b (needs the block's first position when dense). */
uint32_t loopy_i_db_block_records(const loopy_db *db, uint64_t b);

/* Reads len bytes at offset (checked to lie inside the file) of the
 * database's file or memory into out; LOOPY_EIO, with a message, when the
 * file has shrunk or cannot be read. */
loopy_status loopy_i_db_read(const loopy_db *db, uint64_t offset, size_t len,
                             unsigned char *out, loopy_diag *diag);

/* Releases a scratch (NULL allowed). */
void loopy_i_db_scratch_free(db_scratch *s);

#endif
