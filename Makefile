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
#   make install         the program, libloopy.a, libloopy.so, the headers,
#                        loopy.pc, the man page, shell completion and the
#                        Python package under PREFIX (/usr/local), below
#                        DESTDIR if given;
#                        make uninstall removes them
#   make man             docs/loopy.1 and docs/loopy.3 (the library) from
#                        docs/loopy.1.md and docs/loopy.3.md (needs pandoc)
#   make MPI=1           also build/loopy-mpi, the solver on Open MPI (mpicc)
#
# Builds run on every core unless -j is given; V=1 prints each command.
# Variables: CC, BUILD (output folder), OPENMP (1/0), WERROR (1/0),
# SAN (sanitizer list for -fsanitize=), OPT (optimisation flags),
# MHD (1/0: loopy serve with libmicrohttpd; 1 when pkg-config finds it),
# PREFIX, DESTDIR and the folders below.

CC      ?= cc
BUILD   ?= build
OPENMP  ?= 1
WERROR  ?= 0
OPT     ?= -O2
SAN     ?=
V       ?= 0

# Every core, unless the command line gives -j (make -j1: one job at a
# time); not for a clean, which would race with a build named with it.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter -j%,$(MAKEFLAGS))$(filter clean,$(MAKECMDGOALS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
endif

# One short line per step ("  CC      build/obj/lib/io/scan.o"), as the
# kernel's and git's makefiles print; make V=1 prints the commands.
ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wformat=2 -Wundef -Wvla -Wcast-qual \
        -Wconversion -Wno-sign-conversion
ifeq ($(WERROR),1)
WARN += -Werror
endif

# zstd compresses the databases (lib/db); Debian's libzstd-dev.
ZSTD_CFLAGS := $(shell pkg-config --cflags libzstd 2>/dev/null)
ZSTD_LIBS   := $(shell pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
# zlib reads gzip-compressed graph files (lib/io/decompress.c); Debian's
# zlib1g-dev.
ZLIB_CFLAGS := $(shell pkg-config --cflags zlib 2>/dev/null)
ZLIB_LIBS   := $(shell pkg-config --libs zlib 2>/dev/null || echo -lz)
# libmicrohttpd serves the web page of "loopy serve" (cli/serve.c);
# Debian's libmicrohttpd-dev.  Without it (or with MHD=0) everything else
# builds, and "loopy serve" says what it misses.  The page's files (web/)
# are built into the program (web/embed.sh).
MHD ?= $(shell pkg-config --exists libmicrohttpd 2>/dev/null && echo 1 || echo 0)
ifeq ($(MHD),1)
MHD_CFLAGS := $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
MHD_LIBS   := $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)
WEB_SRC    := $(sort $(wildcard web/*.html web/*.js web/*.css web/*.svg))
WEB_OBJ    := $(BUILD)/obj/gen/web_assets.o
else
$(info loopy serve: built without libmicrohttpd (apt-get install libmicrohttpd-dev), it says so when run)
endif

CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L -MMD -MP $(ZSTD_CFLAGS) $(ZLIB_CFLAGS)
CFLAGS   += -std=c11 $(OPT) -g $(WARN)
LDLIBS   += $(ZSTD_LIBS) $(ZLIB_LIBS) -lm
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
# Without libmicrohttpd, cli/serve.c alone says that serve is missing.
ifneq ($(MHD),1)
CLI_SRC  := $(filter-out cli/serve_http.c,$(CLI_SRC))
endif
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
# What the harnesses fuzz beyond the library: the server's URL decoder and
# Host check (fuzz/serve_url.c), which need no HTTP library.
FUZZ_OBJ := $(FUZZ_LIB:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/cli/serve_url.o
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=$(BUILD)/bin/%)

LIBRARY := $(BUILD)/libloopy.a
PROGRAM := $(BUILD)/loopy

MPI     ?= 0
MPICC   ?= mpicc
MPI_SRC := $(sort $(wildcard mpi/*.c))
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
MPI_PROGRAM := $(BUILD)/loopy-mpi

# The shared library: position-independent objects of its own (the static
# library and the program keep their ordinary ones), a soname carrying the
# major version of include/loopy.h, and only the public loopy_ symbols
# exported (the internal cross-file ones, loopy_i_*, are hidden).
VERSION_PART = $(shell awk '$$2 == "LOOPY_VERSION_$(1)" { print $$3 }' include/loopy.h)
VERSION_MAJOR := $(call VERSION_PART,MAJOR)
VERSION := $(VERSION_MAJOR).$(call VERSION_PART,MINOR).$(call VERSION_PART,PATCH)
SONAME  := libloopy.so.$(VERSION_MAJOR)
SHARED_NAME := libloopy.so.$(VERSION)
SHARED  := $(BUILD)/$(SHARED_NAME)
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
NM      ?= nm
# Every undefined symbol must come from the libraries named (not under
# sanitizers, whose runtime the program brings).
ifeq ($(SAN),)
SHARED_LDFLAGS := -Wl,--no-undefined
endif

# Installation folders (GNU names); DESTDIR is prepended to each.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
INSTALL     ?= install
# The Python package python/loopy goes where PYTHON looks for modules under
# PREFIX: lib/python3.X/dist-packages for Debian's python3 (which searches
# /usr/local/lib/python3.X/dist-packages), site-packages for another (a
# venv's python3, even with --system-site-packages): the folder name of
# the Python's own purelib.
PYTHON      ?= python3
PYTHON_SITE  = $(shell $(PYTHON) -c 'import os, sys, sysconfig; d = os.path.basename(sysconfig.get_paths()["purelib"]); d = d if d in ("dist-packages", "site-packages") else "site-packages"; print("lib/python%d.%d/%s" % (sys.version_info[:2] + (d,)))' 2>/dev/null)
PYTHONDIR   ?= $(PREFIX)/$(or $(PYTHON_SITE),lib/python3/dist-packages)
PY_SRC      := $(filter-out python/loopy/_install.py,$(sort $(wildcard python/loopy/*.py)))

# What a static link needs besides the library, for loopy.pc: zstd and
# zlib by their own pkg-config files where they have them, libm and OpenMP.
PC_HAS_ZSTD := $(shell pkg-config --exists libzstd 2>/dev/null && echo y)
PC_HAS_ZLIB := $(shell pkg-config --exists zlib 2>/dev/null && echo y)
PC_REQUIRES_PRIVATE := $(strip $(if $(PC_HAS_ZSTD),libzstd) $(if $(PC_HAS_ZLIB),zlib))
PC_LIBS_PRIVATE := $(if $(PC_HAS_ZSTD),,$(ZSTD_LIBS)) $(if $(PC_HAS_ZLIB),,$(ZLIB_LIBS)) -lm
ifeq ($(OPENMP),1)
PC_LIBS_PRIVATE += -fopenmp
endif

.PHONY: all check asan ubsan tsan clean example fuzz fuzzers
.PHONY: install uninstall man
all: $(LIBRARY) $(SHARED) $(BUILD)/$(SONAME) $(PROGRAM) $(BUILD)/loopy.pc.in

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIBRARY): $(LIB_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	$(call msg,AR,$@)$(AR) rcs $@ $^

$(PROGRAM): $(CLI_OBJ) $(WEB_OBJ) $(LIBRARY)
	$(call msg,LD,$@)$(CC) $(LDFLAGS) $(CLI_OBJ) $(WEB_OBJ) $(LIBRARY) $(LDLIBS) $(MHD_LIBS) -o $@

# loopy serve: built with libmicrohttpd when found (MHD=1), and its page.
$(BUILD)/obj/cli/serve.o $(BUILD)/obj/cli/serve_http.o: CPPFLAGS += -DLOOPY_HAVE_MHD=$(MHD) $(MHD_CFLAGS)
$(BUILD)/gen/web_assets.c: web/embed.sh $(WEB_SRC)
	@mkdir -p $(@D)
	$(call msg,GEN,$@)sh web/embed.sh $(WEB_SRC) > $@.tmp && mv $@.tmp $@
$(WEB_OBJ): $(BUILD)/gen/web_assets.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CPPFLAGS) -Icli $(CFLAGS) -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -c $< -o $@

# The version script names each public symbol: the objects' global
# symbols with the prefix loopy_ but not loopy_i_ (a pattern loopy_* would
# also take loopy_i_*: the linkers let a global pattern win over a local one).
$(BUILD)/libloopy.map: $(PIC_OBJ)
	$(call msg,GEN,$@)$(NM) -g --defined-only $(PIC_OBJ) | \
	    awk 'NF == 3 && $$3 ~ /^loopy_/ && $$3 !~ /^loopy_i_/ { print "    " $$3 ";" }' | \
	    sort -u | { echo '{'; echo '  global:'; cat; echo '  local: *;'; echo '};'; } > $@.tmp
	$(Q)mv $@.tmp $@

$(SHARED): $(PIC_OBJ) $(BUILD)/libloopy.map
	$(call msg,LD,$@)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,$(BUILD)/libloopy.map \
	    $(SHARED_LDFLAGS) $(LDFLAGS) $(PIC_OBJ) $(LDLIBS) -o $@

# The soname's link, as the loader (and the Python package run from the
# tree, python/loopy/_lib.py) looks for the library: build/libloopy.so.0.
$(BUILD)/$(SONAME): $(SHARED)
	$(Q)ln -sf $(SHARED_NAME) $@

# loopy.pc with its folders left to "make install" (PREFIX may change).
$(BUILD)/loopy.pc.in: Makefile include/loopy.h
	@mkdir -p $(@D)
	$(call msg,GEN,$@)printf '%s\n' 'prefix=@prefix@' 'libdir=@libdir@' 'includedir=@includedir@' '' \
	    'Name: loopy' \
	    'Description: solve two-player games played on directed graphs' \
	    'Version: $(VERSION)' \
	    $(if $(PC_REQUIRES_PRIVATE),'Requires.private: $(PC_REQUIRES_PRIVATE)') \
	    'Libs: -L$${libdir} -lloopy' \
	    'Libs.private: $(strip $(PC_LIBS_PRIVATE))' \
	    'Cflags: -I$${includedir}' > $@

# loopy-mpi (make MPI=1; Debian's openmpi-bin and libopenmpi-dev): mpi/
# compiled and linked by mpicc around $(CC), with the command line's
# objects but its main, and the library.
ifeq ($(MPI),1)
all: $(MPI_PROGRAM)
endif
$(BUILD)/obj/mpi/%.o: mpi/%.c
	@mkdir -p $(@D)
	$(call msg,MPICC,$@)OMPI_CC=$(CC) $(MPICC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(MPI_PROGRAM): $(MPI_OBJ) $(filter-out $(BUILD)/obj/cli/main.o $(BUILD)/obj/cli/serve%.o,$(CLI_OBJ)) $(LIBRARY)
	$(call msg,MPILD,$@)OMPI_CC=$(CC) $(MPICC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(TEST_LIB_OBJ) $(LIBRARY)
	@mkdir -p $(@D)
	$(call msg,LD,$@)$(CC) $(LDFLAGS) $< $(TEST_LIB_OBJ) $(LIBRARY) $(LDLIBS) -o $@

$(BUILD)/obj/tests/%.o: CPPFLAGS += -Itests -Ilib/core -Ifuzz

# Every harness in one replay program; each registers itself (fuzz/fuzz.h).
$(BUILD)/obj/replay/%.o: %.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)$(CC) $(CPPFLAGS) -Ifuzz -DFUZZ_REPLAY $(CFLAGS) -c $< -o $@

$(BUILD)/tests/test_fuzz_replay: $(BUILD)/obj/tests/test_fuzz_replay.o \
		$(FUZZ_REPLAY_OBJ) $(BUILD)/obj/cli/serve_url.o $(TEST_LIB_OBJ) $(LIBRARY)
	@mkdir -p $(@D)
	$(call msg,LD,$@)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# libFuzzer binaries: the library and harnesses instrumented for coverage.
$(BUILD)/obj/fuzz/%.o: CPPFLAGS += -Ifuzz

$(BUILD)/bin/%: $(BUILD)/obj/fuzz/%.o $(FUZZ_OBJ) $(LIBRARY)
	@mkdir -p $(@D)
	$(call msg,LD,$@)$(CC) $(LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS) -o $@

fuzzers: $(FUZZ_BIN)

# Keep the objects of chained rules (harness objects) between builds.
.PRECIOUS: $(BUILD)/obj/%.o

# Every test program, then the command-line golden tests, each under a
# time limit (LOOPY_TEST_TIMEOUT seconds, 1200 by default): a line per
# program, and last "N passed, N failed" (tests/run.sh; V=1 shows every
# program's whole output, else kept in BUILD/test-logs).
check: all $(TEST_BIN)
	@LOOPY_TEST_VERBOSE=$(V) tests/run.sh $(BUILD)

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

# Paths in loopy.pc relative to ${prefix} where they are below it, so that
# pkg-config --define-variable=prefix=... moves them all.
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	$(INSTALL) -m 755 $(PROGRAM) $(DESTDIR)$(BINDIR)/loopy
	@# loopy-mpi, when this build made it (make MPI=1).
	@if [ -x $(MPI_PROGRAM) ]; then echo "$(INSTALL) -m 755 $(MPI_PROGRAM) $(DESTDIR)$(BINDIR)/loopy-mpi"; \
	    $(INSTALL) -m 755 $(MPI_PROGRAM) $(DESTDIR)$(BINDIR)/loopy-mpi; fi
	$(INSTALL) -m 644 $(LIBRARY) $(DESTDIR)$(LIBDIR)/libloopy.a
	$(INSTALL) -m 755 $(SHARED) $(DESTDIR)$(LIBDIR)/$(SHARED_NAME)
	ln -sf $(SHARED_NAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libloopy.so
	$(INSTALL) -m 644 include/loopy.h include/loopy_game.h $(DESTDIR)$(INCLUDEDIR)
	sed -e 's|@prefix@|$(PREFIX)|' -e 's|@libdir@|$(call pc_dir,$(LIBDIR))|' \
	    -e 's|@includedir@|$(call pc_dir,$(INCLUDEDIR))|' \
	    $(BUILD)/loopy.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/loopy.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/loopy.pc
	$(INSTALL) -m 644 docs/loopy.1 $(DESTDIR)$(MANDIR)/man1/loopy.1
	$(INSTALL) -m 644 docs/loopy.3 $(DESTDIR)$(MANDIR)/man3/loopy.3
	$(INSTALL) -m 644 completions/loopy.bash $(DESTDIR)$(BASHCOMPDIR)/loopy
	$(INSTALL) -m 644 completions/_loopy $(DESTDIR)$(ZSHCOMPDIR)/_loopy
	@# The Python package, told where the library is (python/loopy/_lib.py).
	$(INSTALL) -d $(DESTDIR)$(PYTHONDIR)/loopy
	$(INSTALL) -m 644 $(PY_SRC) $(DESTDIR)$(PYTHONDIR)/loopy
	printf '%s\n' "LIBDIR = '$(LIBDIR)'" "PYTHONDIR = '$(PYTHONDIR)'" \
	    > $(DESTDIR)$(PYTHONDIR)/loopy/_install.py
	@# The dynamic linker's cache learns of a new library from ldconfig.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
	    echo ldconfig; ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/loopy $(DESTDIR)$(BINDIR)/loopy-mpi \
	    $(DESTDIR)$(LIBDIR)/libloopy.a $(DESTDIR)$(LIBDIR)/libloopy.so \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/$(SHARED_NAME) \
	    $(DESTDIR)$(INCLUDEDIR)/loopy.h $(DESTDIR)$(INCLUDEDIR)/loopy_game.h \
	    $(DESTDIR)$(PKGCONFIGDIR)/loopy.pc $(DESTDIR)$(MANDIR)/man1/loopy.1 \
	    $(DESTDIR)$(MANDIR)/man3/loopy.3 \
	    $(DESTDIR)$(BASHCOMPDIR)/loopy $(DESTDIR)$(ZSHCOMPDIR)/_loopy
	rm -rf $(DESTDIR)$(PYTHONDIR)/loopy

# The man page is generated once and committed (as zstd keeps zstd.1 beside
# zstd.1.md), so building needs no pandoc; tests/cli/man.sh checks that it
# is up to date wherever pandoc is installed.
man:
	docs/man.sh docs/loopy.1.md > docs/loopy.1.tmp
	mv docs/loopy.1.tmp docs/loopy.1
	docs/man.sh docs/loopy.3.md > docs/loopy.3.tmp
	mv docs/loopy.3.tmp docs/loopy.3

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_LIB_OBJ:.o=.d) \
	$(FUZZ_REPLAY_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d) $(FUZZ_BIN:$(BUILD)/bin/%=$(BUILD)/obj/fuzz/%.d) \
	$(TEST_BIN:$(BUILD)/tests/%=$(BUILD)/obj/tests/%.d) $(MPI_OBJ:.o=.d) $(WEB_OBJ:.o=.d)
.SECONDARY:
