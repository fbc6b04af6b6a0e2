/*
 * tier_store.h - the work file of a tier solve kept on disk
 * (tier_store.c), which tier_solve.c fills: one record per index (2 bytes,
 * or 1 for a game whose remoteness_bound allows it),
 * mapped, a park file of the tiers not at work, compressed, and a journal
 * of what is finished, so that a solve killed at any moment continues
 * from its last finished tier.
 *
 * The work file PATH: the records of indices 0 .. size-1 (2 bytes or 1
 * each, little-endian as the host writes them; the file is this
 * machine's, never moved), mapped shared: a tier's records are written
 * through the mapping, its pages dropped from memory once no tier still
 * to solve needs them, and read back from the file when one does.  Its
 * blocks are allocated when it is made, or, with parking (flag 16), a
 * tier's at a time (loopy_i_tier_store_hold), and given back once the
 * tier is parked.
 *
 * The park file PATH-parked (with parking): tiers' records compressed,
 * appended, each tier as zstd frames of TIER_PARK_CHUNK bytes of records
 * or fewer (the last), back to back; where a tier's frames are is what
 * its journal entry says.
 *
 * The journal PATH-journal, every number little-endian:
 *      0  magic "\x89LTJ\r\n\x1a\n"     8  u32 version (2)
 *     12  u32 flags (1 misere, 2 symmetric, 4 every legal index, 8
 *         1-byte records, 16 parking)
 *     16  u64 index-space size          24  u64 tier count
 *     32  u16 name length  34  u16 parameter length  36  u32 zero
 *     40  the name, the parameters, zeros up to byte 376
 *    376  u64 checksum of bytes 0 .. 375: 384 bytes
 * then entries of 48 bytes, each appended and flushed to the disk after
 * the records it speaks of: u32 kind, u32 zero, u64 tier, u64 checksum of
 * the tier's records, u64 offset and u64 length (a park: its frames in
 * the park file; else 0, 0), u64 checksum of the entry's first 40 bytes.
 * Kinds: 1, every tier reached (the records of unreached positions 0 and
 * of reached ones REACHED; a tier parked before it is parked so); 2, tier
 * done (its records in the work file); 3, tier parked (its records in the
 * park file, at the end of those parked before: while the tiers are
 * reached, each once; after, a tier done).  A last entry cut short or
 * whose checksum fails is one the crash interrupted: dropped.
 */
#ifndef LOOPY_TIER_STORE_H
#define LOOPY_TIER_STORE_H

#include "rules_internal.h"

#define TIER_JOURNAL_HEADER 384u
#define TIER_JOURNAL_ENTRY 48u
#define TIER_JOURNAL_VERSION 2u
/* Bytes of records in a frame of the park file (the last of a tier's may
 * hold fewer). */
#define TIER_PARK_CHUNK ((uint64_t)4 << 20)
enum { TIER_ENTRY_REACHED = 1, TIER_ENTRY_DONE = 2, TIER_ENTRY_PARKED = 3 };

typedef struct tier_store {
    int fd, journal_fd;
    void *record;          /* the mapping, size records of width bytes */
    unsigned width;        /* 1 or 2 (TIER_FLAG_BYTES) */
    size_t map_bytes;
    uint64_t size, tiers;
    bool reached;          /* the journal says every tier is reached */
    unsigned char *done;   /* tiers: finished, per the journal */
    uint64_t *checksum;    /* tiers: their records' checksum, when done */
    char *path, *journal_path;
    /* Parking (TIER_FLAG_PARKS): the park file, its end, and per tier
     * whether its records are there (the work file's are then not to be
     * read), where, and their checksum. */
    bool parks;
    int park_fd;
    char *park_path;
    uint64_t park_end;
    unsigned char *parked;
    uint64_t *park_at, *park_len, *park_checksum;
    /* Per tier: parked, and brought back since (its records in the work
     * file until it is parked again); this run's, not the journal's. */
    unsigned char *back;
} tier_store;

/* What a journal's header records: a resumed solve must be the same. */
typedef struct tier_store_key {
    const char *name, *params;
    uint64_t size, tiers;
    uint32_t flags;
} tier_store_key;
#define TIER_FLAG_MISERE 1u
#define TIER_FLAG_SYMMETRIC 2u
#define TIER_FLAG_ALL_LEGAL 4u
#define TIER_FLAG_BYTES 8u
#define TIER_FLAG_PARKS 16u

/* Opens the work file at path: a new one (refused when path or its
 * journal exists), or with resume the one there, whose journal must
 * record key (refused, naming what differs, otherwise); one a crash left
 * before anything was recorded is begun again, as is the whole work when
 * the journal does not say every tier was reached.  The journal is
 * locked (flock): a second solve of the same work file is refused.  The
 * work file's blocks are allocated at once, unless key->flags asks for
 * parking (TIER_FLAG_PARKS: the park file PATH-parked is opened too, and
 * cut to what the journal records).  LOOPY_EIO (diag names the
 * file), LOOPY_EFORMAT (a damaged journal), LOOPY_EINVAL (not the same
 * solve, or in use), LOOPY_ETOOBIG (no room on the disk), LOOPY_ENOMEM. */
loopy_status loopy_i_tier_store_open(tier_store *st, const char *path,
                                     bool resume, const tier_store_key *key,
                                     loopy_diag *diag);
/* Writes records[lo .. hi) to the disk, then appends the entry (kind,
 * tier, checksum) to the journal and flushes it; a tier done is no
 * longer parked. */
loopy_status loopy_i_tier_store_commit(tier_store *st, uint64_t lo,
                                       uint64_t hi, uint32_t kind,
                                       uint64_t tier, uint64_t checksum,
                                       loopy_diag *diag);
/* Drops records[lo .. hi) from memory (the whole pages inside it); they
 * come back from the file when read. */
void loopy_i_tier_store_release(tier_store *st, uint64_t lo, uint64_t hi);
/* Appends the entry (kind, tier, checksum, at, len) to the journal and
 * flushes it (tier_store.c, for tier_park.c). */
loopy_status loopy_i_tier_store_append(tier_store *st, uint32_t kind,
                                       uint64_t tier, uint64_t checksum,
                                       uint64_t at, uint64_t len,
                                       loopy_diag *diag);
/* Records that tier's records are parked: their checksum, their frames
 * at, len bytes, the park file's end after them. */
void loopy_i_tier_store_parked(tier_store *st, uint64_t tier,
                               uint64_t checksum, uint64_t at, uint64_t len);
/* With parking (tier_park.c): gives records[lo .. hi) their blocks on the disk, before
 * they are written through the mapping (a full disk is then said here,
 * not met as a SIGBUS).  LOOPY_ETOOBIG (no room), LOOPY_EIO. */
loopy_status loopy_i_tier_store_hold(tier_store *st, uint64_t lo, uint64_t hi,
                                     loopy_diag *diag);
/* With parking: tier's records, records[lo .. hi), compressed on threads
 * to the end of the park file, flushed, journaled (with their checksum),
 * then their blocks given back to the file system and their pages
 * dropped from memory.  A tier parked already, or empty, is left as it
 * is (its pages dropped). */
loopy_status loopy_i_tier_store_park(tier_store *st, uint64_t tier,
                                     uint64_t lo, uint64_t hi, int threads,
                                     loopy_diag *diag);
/* With parking: a parked tier's records back in the work file (held
 * first), checked against the checksum its journal entry gives; nothing
 * for a tier not parked, or brought back already.  The tier stays parked in the journal: what is
 * written to its records from here on counts once it is done again.
 * LOOPY_EFORMAT (damaged frames), LOOPY_ETOOBIG, LOOPY_EIO, LOOPY_ENOMEM. */
loopy_status loopy_i_tier_store_unpark(tier_store *st, uint64_t tier,
                                       uint64_t lo, uint64_t hi, int threads,
                                       loopy_diag *diag);
/* Closes the files; the mapping too unless keep_map (it then belongs to
 * the caller, st->record and st->map_bytes). */
void loopy_i_tier_store_close(tier_store *st, bool keep_map);

#endif
