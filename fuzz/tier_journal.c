/*
 * tier_journal.c - fuzz the journal of a tier solve's work file
 * (lib/rules/tier_store.c), which --resume reads back.
 *
 * The input's first byte says what it is: odd, the entries that follow a
 * valid header (which the library writes, for a solve of 7 tiers over an
 * index space of 1000); even, the whole journal, header included.  With
 * its bit 2, the solve parks its tiers: the next two bytes give the
 * journal's length (little-endian), and what follows the journal is the
 * park file, from which every tier the journal says is parked is then
 * read back (tier k: indices 1000k/7 .. 1000(k+1)/7 - 1), each accepted
 * or refused as damaged with a message naming the park file.  The
 * journal is written next to a work file of the right size in a temporary
 * folder and opened for a resume.  It must be refused with LOOPY_EFORMAT
 * or LOOPY_EINVAL (a damaged journal, another solve's) and a one-line
 * message naming the journal, or accepted with the tiers it says are done
 * below the tier count, none done unless every tier was reached, and the
 * journal then cut to its header and whole entries (a last entry cut
 * short is the crash's, and dropped).
 */
/* mkdtemp */
#define _DEFAULT_SOURCE

#include "fuzz.h"
#include "../lib/rules/tier_store.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TIERS 7
#define SIZE 1000

FUZZ_TARGET(tier_journal)
{
    static const tier_store_key plain = {"fuzz", "x", SIZE, TIERS, 0};
    static const tier_store_key parks = {"fuzz", "x", SIZE, TIERS,
                                         TIER_FLAG_PARKS};
    const tier_store_key *key = &plain;
    const char *dir = getenv("TMPDIR");
    const uint8_t *park = NULL;
    size_t park_len = 0;
    char folder[4096], path[4200], journal[4300], parked[4300];
    tier_store st;
    loopy_diag diag;
    loopy_status status;
    struct stat sb;
    int fd;

    if (size == 0)
        return 0;
    if (data[0] & 2) {
        size_t len;
        if (size < 3)
            return 0;
        len = (size_t)data[1] | (size_t)data[2] << 8;
        if (len > size - 3)
            len = size - 3;
        key = &parks;
        park = data + 3 + len;
        park_len = size - 3 - len;
        size = 3 + len; /* the journal: data[3 .. size) */
    }
    snprintf(folder, sizeof folder, "%s/loopy-fuzz-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    FUZZ_REQUIRE(mkdtemp(folder) != NULL, "mkdtemp %s", folder);
    snprintf(path, sizeof path, "%s/w.tiers", folder);
    snprintf(journal, sizeof journal, "%s-journal", path);
    snprintf(parked, sizeof parked, "%s-parked", path);
    memset(&diag, 0, sizeof diag);
    if (data[0] & 1) {
        /* A valid header, from a solve begun and left. */
        FUZZ_REQUIRE(loopy_i_tier_store_open(&st, path, false, key, &diag) ==
                         LOOPY_OK, "a new work file: %s", diag.message);
        loopy_i_tier_store_close(&st, false);
        fd = open(journal, O_WRONLY | O_APPEND);
    } else {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        FUZZ_REQUIRE(fd >= 0 && ftruncate(fd, SIZE * 2) == 0 && close(fd) == 0,
                     "the work file");
        fd = open(journal, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    FUZZ_REQUIRE(fd >= 0, "the journal");
    {
        size_t from = park != NULL ? 3 : 1;
        FUZZ_REQUIRE(write(fd, data + from, size - from) ==
                             (ssize_t)(size - from) &&
                         close(fd) == 0,
                     "writing the journal");
    }
    if (park != NULL) {
        fd = open(parked, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        FUZZ_REQUIRE(fd >= 0 &&
                         write(fd, park, park_len) == (ssize_t)park_len &&
                         close(fd) == 0,
                     "writing the park file");
    }

    memset(&diag, 0, sizeof diag);
    status = loopy_i_tier_store_open(&st, path, true, key, &diag);
    if (status == LOOPY_OK) {
        uint64_t done = 0;
        for (uint64_t t = 0; t < TIERS; t++)
            done += st.done[t] != 0;
        FUZZ_REQUIRE(done == 0 || st.reached, "%llu tiers done, none reached",
                     (unsigned long long)done);
        FUZZ_REQUIRE(st.record != NULL && st.map_bytes == SIZE * 2,
                     "the mapping");
        FUZZ_REQUIRE(fstat(st.journal_fd, &sb) == 0 &&
                         sb.st_size >= (off_t)TIER_JOURNAL_HEADER &&
                         (sb.st_size - TIER_JOURNAL_HEADER) %
                                 TIER_JOURNAL_ENTRY == 0 &&
                         (park != NULL && st.reached
                              ? (uint64_t)(sb.st_size - TIER_JOURNAL_HEADER) /
                                        TIER_JOURNAL_ENTRY >=
                                    done + st.reached
                              : (uint64_t)(sb.st_size - TIER_JOURNAL_HEADER) /
                                        TIER_JOURNAL_ENTRY ==
                                    done + st.reached),
                     "the journal is %lld bytes for %llu entries",
                     (long long)sb.st_size,
                     (unsigned long long)(done + st.reached));
        /* The records are there to read and write. */
        ((unsigned char *)st.record)[SIZE * st.width - 1] =
            ((unsigned char *)st.record)[0];
        /* Every parked tier read back, or refused as damaged. */
        for (uint64_t t = 0; park != NULL && t < TIERS; t++) {
            uint64_t lo = SIZE * t / TIERS, hi = SIZE * (t + 1) / TIERS;
            bool was = st.parked[t] != 0;
            memset(&diag, 0, sizeof diag);
            status = loopy_i_tier_store_unpark(&st, t, lo, hi, 1, &diag);
            FUZZ_REQUIRE(status == LOOPY_OK ||
                             (was && status == LOOPY_EFORMAT &&
                              strstr(diag.message, "w.tiers-parked: tier") !=
                                  NULL &&
                              strchr(diag.message, '\n') == NULL),
                         "tier %llu back: status %d: %s",
                         (unsigned long long)t, (int)status, diag.message);
        }
        loopy_i_tier_store_close(&st, false);
    } else {
        size_t len = strnlen(diag.message, sizeof diag.message);
        FUZZ_REQUIRE(status == LOOPY_EFORMAT || status == LOOPY_EINVAL,
                     "status %d: %s", (int)status, diag.message);
        FUZZ_REQUIRE(len > 0 && len < sizeof diag.message &&
                         strstr(diag.message, "w.tiers") != NULL &&
                         strchr(diag.message, '\n') == NULL,
                     "message '%s'", diag.message);
    }
    unlink(journal);
    unlink(parked);
    unlink(path);
    rmdir(folder);
    return 0;
}
