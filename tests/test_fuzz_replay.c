/*
 * test_fuzz_replay.c - runs every fuzz harness on every file of its seed
 * corpus, without libFuzzer or clang, as part of "make check".
 *
 *   test_fuzz_replay [CORPUS_ROOT]     (default fuzz/corpus)
 *
 * The harnesses (fuzz/NAME.c, built with -DFUZZ_REPLAY) register themselves
 * before main; the corpus of NAME is CORPUS_ROOT/NAME/.  A harness's
 * inputs run one after the other in a child process (its start and, under
 * AddressSanitizer, its leak check at exit cost more than most inputs);
 * when that child fails, each input runs again in a child of its own, so
 * that a harness that aborts (a broken invariant or a sanitizer report,
 * including a leak under "make asan") fails the inputs at fault only.  Every registered harness needs a non-empty corpus, and every corpus
 * folder a harness, so neither can be forgotten.
 */
#define FUZZ_REPLAY 1 /* the registering form of fuzz.h */
#include "check.h"
#include "fuzz.h"

#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Seconds one input may take before it counts as a hang. */
#define INPUT_TIMEOUT 120

typedef struct harness {
    const char *name;
    fuzz_entry entry;
} harness;

static harness *harnesses;
static size_t harness_count;

void fuzz_register(const char *name, fuzz_entry entry)
{
    harness *grown = realloc(harnesses, (harness_count + 1) * sizeof *grown);

    if (grown == NULL) {
        fputs("fuzz_replay: out of memory\n", stderr);
        exit(EXIT_FAILURE);
    }
    harnesses = grown;
    harnesses[harness_count].name = name;
    harnesses[harness_count].entry = entry;
    harness_count++;
}

static const harness *find_harness(const char *name)
{
    for (size_t i = 0; i < harness_count; i++)
        if (strcmp(harnesses[i].name, name) == 0)
            return &harnesses[i];
    return NULL;
}

/* Reads a whole file into an exactly sized buffer; NULL on failure. */
static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data = NULL;
    long len;

    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        data = malloc(len > 0 ? (size_t)len : 1);
        if (data != NULL && fread(data, 1, (size_t)len, f) != (size_t)len) {
            free(data);
            data = NULL;
        }
        *size = (size_t)len;
    }
    fclose(f);
    return data;
}

/* Runs the harness on one input in a child; returns whether it passed. */
static int replay_one(const harness *h, const char *path)
{
    size_t size = 0;
    uint8_t *data = read_file(path, &size);
    int wstatus = 0;
    pid_t pid;

    if (data == NULL) {
        fprintf(stderr, "fuzz_replay: %s: cannot read\n", path);
        return 0;
    }
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        alarm(INPUT_TIMEOUT);
        h->entry(data, size);
        free(data);
        exit(EXIT_SUCCESS); /* exit, not _exit: LeakSanitizer runs at exit */
    }
    free(data);
    if (pid < 0 || waitpid(pid, &wstatus, 0) != pid) {
        fprintf(stderr, "fuzz_replay: %s: cannot run a child\n", path);
        return 0;
    }
    if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
        return 1;
    if (WIFSIGNALED(wstatus))
        fprintf(stderr, "fuzz_replay: %s: %s: killed by signal %d%s\n",
                h->name, path, WTERMSIG(wstatus),
                WTERMSIG(wstatus) == SIGALRM ? " (timeout)" : "");
    else
        fprintf(stderr, "fuzz_replay: %s: %s: exit status %d\n", h->name,
                path, WEXITSTATUS(wstatus));
    return 0;
}

/* Runs the harness on every input of paths[0 .. count) in one child;
 * returns whether all passed (silently: replay_one says which did not). */
static int replay_all(const harness *h, char **paths, size_t count)
{
    int wstatus = 0;
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) {
        /* What the inputs print goes nowhere here: replay_one shows it
         * when they are run again alone. */
        if (freopen("/dev/null", "w", stderr) == NULL)
            exit(EXIT_FAILURE);
        for (size_t i = 0; i < count; i++) {
            size_t size = 0;
            uint8_t *data = read_file(paths[i], &size);
            if (data == NULL)
                exit(EXIT_FAILURE);
            alarm(INPUT_TIMEOUT);
            h->entry(data, size);
            free(data);
        }
        exit(EXIT_SUCCESS); /* exit, not _exit: LeakSanitizer runs at exit */
    }
    if (pid < 0 || waitpid(pid, &wstatus, 0) != pid)
        return 0;
    return WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
}

static int not_hidden(const struct dirent *entry)
{
    return entry->d_name[0] != '.';
}

/* Replays every file of root/h->name, one case per file: all in one
 * child, and each alone when that fails. */
static void replay_corpus(const char *root, const harness *h)
{
    char path[4096], **paths;
    struct dirent **files = NULL;
    int count;
    size_t inputs = 0;
    int all;

    snprintf(path, sizeof path, "%s/%s", root, h->name);
    count = scandir(path, &files, not_hidden, alphasort);
    CHECK_MSG(count > 0, "harness %s has no corpus in %s", h->name, path);
    check_case_end();
    paths = calloc(count > 0 ? (size_t)count : 1, sizeof *paths);
    CHECK(paths != NULL);
    for (int i = 0; i < count; i++) {
        struct stat st;

        snprintf(path, sizeof path, "%s/%s/%s", root, h->name,
                 files[i]->d_name);
        if (paths != NULL && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            (paths[inputs] = strdup(path)) != NULL)
            inputs++;
        free(files[i]);
    }
    free(files);
    all = paths != NULL && replay_all(h, paths, inputs);
    for (size_t i = 0; i < inputs; i++) {
        if (!all)
            CHECK(replay_one(h, paths[i]));
        check_case_end();
        free(paths[i]);
    }
    free(paths);
    fprintf(stderr, "fuzz_replay: %s: %zu inputs%s\n", h->name, inputs,
            all ? "" : " (each alone: the run of all failed)");
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : "fuzz/corpus";
    struct dirent **folders = NULL;
    int count;

    CHECK_MSG(harness_count > 0, "no harness registered");
    check_case_end();
    for (size_t i = 0; i < harness_count; i++)
        replay_corpus(root, &harnesses[i]);

    /* A corpus folder without a harness is a typo or a forgotten file. */
    count = scandir(root, &folders, not_hidden, alphasort);
    CHECK_MSG(count > 0, "no corpus folders in %s", root);
    check_case_end();
    for (int i = 0; i < count; i++) {
        CHECK_MSG(find_harness(folders[i]->d_name) != NULL,
                  "%s/%s has no harness fuzz/%s.c", root, folders[i]->d_name,
                  folders[i]->d_name);
        check_case_end();
        free(folders[i]);
    }
    free(folders);
    free(harnesses);
    return check_finish("fuzz_replay");
}
