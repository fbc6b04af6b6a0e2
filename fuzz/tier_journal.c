/*
 * tier_journal.c - fuzz the journal of a tier solve's work file
 * (lib/rules/tier_store.c), which --resume reads back.
 *
 * The input's first byte says what it is: odd, the entries that follow a
 * valid header (which the library writes, for a solve of 7 tiers over an
 * index space of 1000); even, the whole journal, header included.  The
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
    static const tier_store_key key = {"fuzz", "x", SIZE, TIERS, 0};
    const char *dir = getenv("TMPDIR");
    char folder[4096], path[4200], journal[4300];
    tier_store st;
    loopy_diag diag;
    loopy_status status;
    struct stat sb;
    int fd;

    if (size == 0)
        return 0;
    snprintf(folder, sizeof folder, "%s/loopy-fuzz-XXXXXX",
             dir != NULL && dir[0] != '\0' ? dir : "/tmp");
    FUZZ_REQUIRE(mkdtemp(folder) != NULL, "mkdtemp %s", folder);
    snprintf(path, sizeof path, "%s/w.tiers", folder);
    snprintf(journal, sizeof journal, "%s-journal", path);
    memset(&diag, 0, sizeof diag);
    if (data[0] & 1) {
        /* A valid header, from a solve begun and left. */
        FUZZ_REQUIRE(loopy_i_tier_store_open(&st, path, false, &key, &diag) ==
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
    FUZZ_REQUIRE(write(fd, data + 1, size - 1) == (ssize_t)(size - 1) &&
                     close(fd) == 0,
                 "writing the journal");

    memset(&diag, 0, sizeof diag);
    status = loopy_i_tier_store_open(&st, path, true, &key, &diag);
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
                         (uint64_t)(sb.st_size - TIER_JOURNAL_HEADER) /
                                 TIER_JOURNAL_ENTRY ==
                             done + st.reached,
                     "the journal is %lld bytes for %llu entries",
                     (long long)sb.st_size,
                     (unsigned long long)(done + st.reached));
        /* The records are there to read and write. */
        ((unsigned char *)st.record)[SIZE * st.width - 1] =
            ((unsigned char *)st.record)[0];
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
    unlink(path);
    rmdir(folder);
    return 0;
}
