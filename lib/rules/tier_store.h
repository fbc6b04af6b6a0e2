/*
 * tier_store.h - the work file of a tier solve kept on disk
 * (tier_store.c), which tier_solve.c fills: one record per index (2 bytes,
 * or 1 for a game whose remoteness_bound allows it),
 * mapped, and a journal of what is finished, so that a solve killed at any
 * moment continues from its last finished tier.
 *
 * The work file PATH: the records of indices 0 .. size-1 (2 bytes or 1 each,
 * little-endian as the host writes them; the file is this machine's,
 * never moved; its blocks allocated when it is made), mapped shared: a tier's records are written through the
 * mapping, its pages dropped from memory once no tier still to solve
 * needs them, and read back from the file when one does.
 *
 * The journal PATH-journal, every number little-endian:
 *      0  magic "\x89LTJ\r\n\x1a\n"     8  u32 version (1)
 *     12  u32 flags (1 misere, 2 symmetric, 4 every legal index, 8
 *         1-byte records)
 *     16  u64 index-space size          24  u64 tier count
 *     32  u16 name length  34  u16 parameter length  36  u32 zero
 *     40  the name, the parameters, zeros up to byte 376
 *    376  u64 checksum of bytes 0 .. 375: 384 bytes
 * then entries of 32 bytes, each appended and flushed to the disk after
 * the records it speaks of: u32 kind (1: every tier reached, the records
 * of unreached positions 0 and of reached ones REACHED; 2: tier done),
 * u32 zero, u64 tier, u64 checksum of the tier's records, u64 checksum of
 * the entry's first 24 bytes.  A last entry cut short or whose checksum
 * fails is one the crash interrupted: dropped.
 */
#ifndef LOOPY_TIER_STORE_H
#define LOOPY_TIER_STORE_H

#include "rules_internal.h"

#define TIER_JOURNAL_HEADER 384u
#define TIER_JOURNAL_ENTRY 32u
enum { TIER_ENTRY_REACHED = 1, TIER_ENTRY_DONE = 2 };

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

/* Opens the work file at path: a new one (refused when path or its
 * journal exists), or with resume the one there, whose journal must
 * record key (refused, naming what differs, otherwise); one a crash left
 * before anything was recorded is begun again, as is the whole work when
 * the journal does not say every tier was reached.  The journal is
 * locked (flock): a second solve of the same work file is refused.  The
 * work file's blocks are allocated at once.  LOOPY_EIO (diag names the
 * file), LOOPY_EFORMAT (a damaged journal), LOOPY_EINVAL (not the same
 * solve, or in use), LOOPY_ETOOBIG (no room on the disk), LOOPY_ENOMEM. */
loopy_status loopy_i_tier_store_open(tier_store *st, const char *path,
                                     bool resume, const tier_store_key *key,
                                     loopy_diag *diag);
/* Writes records[lo .. hi) to the disk, then appends the entry (kind,
 * tier, checksum) to the journal and flushes it. */
loopy_status loopy_i_tier_store_commit(tier_store *st, uint64_t lo,
                                       uint64_t hi, uint32_t kind,
                                       uint64_t tier, uint64_t checksum,
                                       loopy_diag *diag);
/* Drops records[lo .. hi) from memory (the whole pages inside it); they
 * come back from the file when read. */
void loopy_i_tier_store_release(tier_store *st, uint64_t lo, uint64_t hi);
/* Closes the files; the mapping too unless keep_map (it then belongs to
 * the caller, st->record and st->map_bytes). */
void loopy_i_tier_store_close(tier_store *st, bool keep_map);

#endif
