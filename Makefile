# loopy - build the library, the command-line tool and the tests.
#
#   make                 build build/libloopy.a and build/loopy
#   make check           build and run every test
#   make asan | ubsan    the same tests under sanitizers, in build/asan ...
#   make tsan            the tests under ThreadSanitizer, built with clang and
#                        LLVM's libomp (GCC's libgomp is not instrumented, so
#                        its barriers look like races to TSan)
#   make CC=clang WERROR=1 check
#   make fuzz            libFuzzer harnesses (clang, ASan+UBSan) in build/fuzz/bin;
#                        fuzz/run.sh runs them (see fuzz/fuzz.h)
#
# Variables: CC, BUILD (output folder), OPENMP (1/0), WERROR (1/0),
# SAN (sanitizer list for -fsanitize=), OPT (optimisation flags).

CC      ?= cc
BUILD   ?= build
OPENMP  ?= 1
WERROR  ?= 0
OPT     ?= -O2
SAN     ?=

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wundef -Wvla -Wcast-qual \
        -Wconversion -Wno-sign-conversion
ifeq ($(WERROR),1)
WARN += -Werror
endif

# zstd compresses the databases (lib/db); Debian's libzstd-dev.
ZSTD_CFLAGS := $(shell pkg-config --cflags libzstd 2>/dev/null)
ZSTD_LIBS   := $(shell pkg-config --libs libzstd 2>/dev/null || echo -lzstd)

CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L -MMD -MP $(ZSTD_CFLAGS)
CFLAGS   += -std=c11 $(OPT) -g $(WARN)
LDLIBS   += $(ZSTD_LIBS) -lm
ifeq ($(OPENMP),1)
CFLAGS  += -fopenmp
LDFLAGS += -fopenmp
else
# A serial build: the library's "#pragma omp" lines are simply ignored.
CFLAGS  += -Wno-unknown-pragmas
endif
ifeq ($(FUZZ),1)
CFLAGS  += -fsanitize=fuzzer-no-link
endif
ifneq ($(SAN),)
CFLAGS  += -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SAN)
endif

LIB_SRC  := $(sort $(wildcard lib/*/*.c))
CLI_SRC  := $(sort $(wildcard cli/*.c))
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_LIB := $(sort $(wildcard tests/lib/*.c))
FUZZ_SRC := $(sort $(wildcard fuzz/*.c))
FUZZ_LIB := $(sort $(wildcard fuzz/lib/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_LIB_OBJ := $(TEST_LIB:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

# The harnesses, compiled for the corpus replay of "make check".
FUZZ_REPLAY_OBJ := $(FUZZ_SRC:%.c=$(BUILD)/obj/replay/%.o) \
                   $(FUZZ_LIB:%.c=$(BUILD)/obj/replay/%.o)
FUZZ_OBJ := $(FUZZ_LIB:%.c=$(BUILD)/obj/%.o)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/bin/%)

LIBRARY := $(BUILD)/libloopy.a
PROGRAM := $(BUILD)/loopy

.PHONY: all check asan ubsan tsan clean example
.PHONY: all check asan ubsan clean example fuzz fuzzers
all: $(LIBRARY) $(PROGRAM)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBRARY): $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(PROGRAM): $(CLI_OBJ) $(LIBRARY)
	$(CC) $(LDFLAGS) $(CLI_OBJ) $(LIBRARY) $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_LIB_OBJ) $(LIBRARY)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $< $(TEST_LIB_OBJ) $(LIBRARY) $(LDLIBS) -o $@

$(BUILD)/obj/tests/%.o: CPPFLAGS += -Itests -Ilib/core -Ifuzz

# Every harness in one replay program; each registers itself (fuzz/fuzz.h).
$(BUILD)/obj/replay/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ifuzz -DFUZZ_REPLAY $(CFLAGS) -c $< -o $@

$(BUILD)/tests/test_fuzz_replay: $(BUILD)/obj/tests/test_fuzz_replay.o \
		$(FUZZ_REPLAY_OBJ) $(TEST_LIB_OBJ) $(LIBRARY)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer binaries: the library and harnesses instrumented for coverage.
$(BUILD)/obj/fuzz/%.o: CPPFLAGS += -Ifuzz

$(BUILD)/bin/%: $(BUILD)/obj/fuzz/%.o $(FUZZ_OBJ) $(LIBRARY)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@

fuzzers: $(FUZZ_BIN)

# Keep the objects of chained rules (harness objects) between builds.
.PRECIOUS: $(BUILD)/obj/%.o

# Every test program, then the command-line golden tests; the last line of
# the output is "N passed, N failed".
check: all $(TEST_BIN)
	@tests/run.sh $(BUILD)

example: all
	$(PROGRAM) solve examples/game.txt

asan:
	$(MAKE) check BUILD=build/asan SAN=address,undefined OPT=-O1

ubsan:
	$(MAKE) check BUILD=build/ubsan SAN=undefined OPT=-O2

# TSAN_OPTIONS makes a report fail the run; libomp's own threads are known
# to TSan through its annotations.
tsan:
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 ignore_noninstrumented_modules=1" \
	    LOOPY_TEST_TSAN=1 $(MAKE) check CC=clang BUILD=build/tsan SAN=thread OPT=-O1
fuzz:
	$(MAKE) fuzzers BUILD=build/fuzz CC=clang OPENMP=0 FUZZ=1 \
		SAN=address,undefined OPT=-O1

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_LIB_OBJ:.o=.d) \
	$(FUZZ_REPLAY_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(FUZZ_BIN:$(BUILD)/bin/%=$(BUILD)/obj/fuzz/%.d) \
	$(TEST_BIN:$(BUILD)/tests/%=$(BUILD)/obj/tests/%.d)
.SECONDARY:
