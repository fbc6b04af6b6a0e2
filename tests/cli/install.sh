#!/bin/sh
# "make install" into a temporary DESTDIR with a PREFIX of its own, then what
# a user does with the result: build examples/solve_graph.c with
# "pkg-config --cflags --libs loopy" against the shared library and (with
# --static) the static one and run both, check that the shared library
# exports the public loopy_ symbols only, read the man pages (loopy(1) and
# the library's loopy(3)) with man, use
# the shell completion; install the Python package into a venv (make
# install PYTHON=venv/bin/python3, and pip install
# ./python, offline) and import it; and "make uninstall" leaves no file
# behind.
#
# The build folder is that of $LOOPY (build/loopy: build); what it holds is
# installed as it is, never remade, for nothing is written outside the
# temporary folder.  Under sanitizers, whose runtime a program linked with
# the shared library would need, the programs are not built (a SKIP line
# says so); all else is checked.
# Prints "install: P passed, F failed" last.
. "$(dirname "$0")/golden.inc"

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(dirname "$LOOPY")
case $build in
"$root"/*) build=${build#"$root"/} ;; # as "make BUILD=..." named it
esac
prefix=/opt/loopy-test
dest=$work/dest
inst=$dest$prefix
# The sub-makes get the variables of a "make check" that runs this test
# (CC, SAN, OPENMP, ... in MAKEFLAGS), not its jobserver.
MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" |
    sed -e 's/--jobserver-[a-z]*=[^ ]*//g' -e 's/^\([a-zA-Z]*\)j[0-9]*/\1/' -e 's/ -j[0-9]*//g')
export MAKEFLAGS
mk() { make -s -C "$root" BUILD="$build" "$@"; }

version() { # version MAJOR|MINOR|PATCH: from include/loopy.h
    awk -v name="LOOPY_VERSION_$1" '$2 == name { print $3 }' "$root/include/loopy.h"
}
so_version=$(version MAJOR).$(version MINOR).$(version PATCH)

skip() { echo "SKIP: $1"; }

# "make -o all install" installs what the build holds without remaking it.
for f in loopy libloopy.a "libloopy.so.$so_version" loopy.pc.in; do
    if [ ! -f "$root/$build/$f" ] && [ ! -f "$build/$f" ]; then
        skip "no $build/$f (run make first): not installing"
        finish install
        exit
    fi
done

begin "make install DESTDIR=... PREFIX=$prefix"
if ! mk -o all DESTDIR="$dest" PREFIX="$prefix" install >"$work/make.log" 2>&1; then
    fail_case "make install failed:"
    tail -n 20 "$work/make.log"
fi
# The Python package (its folder depends on the Python): tests/cli/python.sh.
(cd "$dest" && find . ! -type d ! -path "*/python3*/loopy/*" | sort) >"$work/.out"
# loopy-mpi goes too when the build made it (make MPI=1).
mpi_line=
[ -x "$(dirname "$LOOPY")/loopy-mpi" ] && mpi_line="
.$prefix/bin/loopy-mpi"
expect_out <<EOF
.$prefix/bin/loopy$mpi_line
.$prefix/include/loopy.h
.$prefix/include/loopy_game.h
.$prefix/lib/libloopy.a
.$prefix/lib/libloopy.so
.$prefix/lib/libloopy.so.$(version MAJOR)
.$prefix/lib/libloopy.so.$so_version
.$prefix/lib/pkgconfig/loopy.pc
.$prefix/share/bash-completion/completions/loopy
.$prefix/share/man/man1/loopy.1
.$prefix/share/man/man3/loopy.3
.$prefix/share/zsh/site-functions/_loopy
EOF
end_case

begin "PREFIX defaults to /usr/local"
mk -n -o all DESTDIR=/DESTDIR install >"$work/.out" 2>&1
grep -q ' /DESTDIR/usr/local/bin/loopy$' "$work/.out" ||
    fail_case "make -n install does not install /DESTDIR/usr/local/bin/loopy: $(head -c 300 "$work/.out")"
end_case

begin "the installed program runs"
"$inst/bin/loopy" solve -q "$root/examples/game.txt" >"$work/.out" 2>"$work/.err"
status=$?
expect_status 0
"$LOOPY" solve -q "$root/examples/game.txt" >"$work/.want_solve" 2>/dev/null
cmp -s "$work/.want_solve" "$work/.out" || fail_case "its output differs from $LOOPY's"
end_case

begin "libloopy.so links to its soname, which links to the library"
[ "$(readlink "$inst/lib/libloopy.so")" = "libloopy.so.$(version MAJOR)" ] &&
    [ "$(readlink "$inst/lib/libloopy.so.$(version MAJOR)")" = "libloopy.so.$so_version" ] ||
    fail_case "libloopy.so -> $(readlink "$inst/lib/libloopy.so"), libloopy.so.$(version MAJOR) -> $(readlink "$inst/lib/libloopy.so.$(version MAJOR)")"
if command -v readelf >/dev/null; then
    readelf -d "$inst/lib/libloopy.so.$so_version" | grep -q "SONAME.*\[libloopy.so.$(version MAJOR)\]" ||
        fail_case "the soname is not libloopy.so.$(version MAJOR)"
fi
end_case

if command -v nm >/dev/null; then
    begin "the shared library exports the public loopy_ symbols only"
    nm -D --defined-only "$inst/lib/libloopy.so" | awk 'NF == 3 { print $3 }' | sort >"$work/syms"
    grep -q '^loopy_solve$' "$work/syms" || fail_case "loopy_solve is not exported"
    internal=$(grep '^loopy_i_' "$work/syms")
    [ -z "$internal" ] || fail_case "internal symbols exported: $(echo $internal | head -c 300)"
    other=$(grep -v '^loopy_' "$work/syms")
    [ -z "$other" ] || fail_case "symbols without the prefix exported: $(echo $other | head -c 300)"
    for s in $(cat "$work/syms"); do
        grep -q -w "$s" "$inst/include/loopy.h" "$inst/include/loopy_game.h" ||
            fail_case "$s is exported but in no installed header"
    done
    end_case
else
    skip "no nm: the exported symbols are not checked"
fi

if command -v pkg-config >/dev/null; then
    export PKG_CONFIG_PATH="$inst/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    pc() { pkg-config --define-variable=prefix="$inst" "$@" loopy; }

    begin "pkg-config knows loopy, its version and where it is"
    [ "$(pkg-config --modversion loopy)" = "$so_version" ] ||
        fail_case "version $(pkg-config --modversion loopy), expected $so_version"
    [ "$(pkg-config --variable=prefix loopy)" = "$prefix" ] ||
        fail_case "prefix $(pkg-config --variable=prefix loopy), expected $prefix"
    pc --cflags | grep -q -e "-I$inst/include" || fail_case "--cflags: $(pc --cflags)"
    libs=$(pc --libs)
    case " $libs " in
    *" -L$inst/lib -lloopy "*) ;;
    *) fail_case "--libs: $libs" ;;
    esac
    static_libs=$(pc --static --libs)
    for lib in -lzstd -lm; do
        case " $static_libs " in
        *" $lib "*) ;;
        *) fail_case "--static --libs lacks $lib: $static_libs" ;;
        esac
    done
    # OpenMP: the static link needs the flag whenever the library uses it.
    if nm -D "$inst/lib/libloopy.so" 2>/dev/null | grep -q -E ' U (GOMP_|__kmpc_|omp_)'; then
        case " $static_libs " in
        *" -fopenmp "*) ;;
        *) fail_case "the library uses OpenMP, but --static --libs lacks -fopenmp: $static_libs" ;;
        esac
    fi
    end_case

    # A sanitizer build: its runtime's symbols in the program or in the
    # shared library (which needs them from the program).
    sanitizer=$( { nm "$LOOPY"; nm -D "$inst/lib/libloopy.so"; } 2>/dev/null |
        grep -o -m 1 -E '__(asan|tsan|ubsan|msan)_' || true)
    if [ -n "$sanitizer" ]; then
        sanitizer="its symbols $sanitizer*"
    elif [ -n "${SAN:-}" ]; then
        sanitizer="SAN=$SAN"
    fi
    cc=${CC:-cc}
    if [ -n "$sanitizer" ]; then
        skip "a sanitizer build ($sanitizer): the example is not linked with the library, which needs the sanitizer's runtime"
    elif ! command -v "$cc" >/dev/null; then
        skip "no compiler $cc: the example is not built"
    else
        begin "examples/solve_graph.c with the shared library (pkg-config --cflags --libs)"
        if $cc -std=c11 -Wall -Wextra -Werror "$root/examples/solve_graph.c" \
            $(pc --cflags --libs) -o "$work/solve_shared" 2>"$work/.err"; then
            LD_LIBRARY_PATH="$inst/lib" "$work/solve_shared" >"$work/.out" 2>&1
            status=$?
            expect_status 0
            cmp -s "$work/.want_solve" "$work/.out" ||
                fail_case "its output differs from loopy solve's: $(head -c 300 "$work/.out")"
            if command -v readelf >/dev/null; then
                readelf -d "$work/solve_shared" | grep -q "NEEDED.*\[libloopy.so.$(version MAJOR)\]" ||
                    fail_case "the program does not load libloopy.so.$(version MAJOR)"
            fi
        else
            fail_case "$cc failed: $(head -c 600 "$work/.err")"
        fi
        end_case

        begin "examples/solve_graph.c with the static library (pkg-config --static)"
        # -l:libloopy.a names the archive, which -lloopy passes over for
        # the shared library.
        if $cc -std=c11 -Wall -Wextra -Werror "$root/examples/solve_graph.c" \
            $(pc --static --cflags --libs | sed 's/-lloopy/-l:libloopy.a/') \
            -o "$work/solve_static" 2>"$work/.err"; then
            "$work/solve_static" >"$work/.out" 2>&1
            status=$?
            expect_status 0
            cmp -s "$work/.want_solve" "$work/.out" ||
                fail_case "its output differs from loopy solve's: $(head -c 300 "$work/.out")"
            if command -v readelf >/dev/null && readelf -d "$work/solve_static" | grep -q 'NEEDED.*libloopy'; then
                fail_case "the program loads libloopy.so"
            fi
        else
            fail_case "$cc failed: $(head -c 600 "$work/.err")"
        fi
        end_case
    fi
else
    skip "no pkg-config: loopy.pc is not checked, the example not built"
fi

if command -v man >/dev/null; then
    begin "man loopy shows the installed page, without raw Markdown"
    LANG=C.UTF-8 MANWIDTH=80 man -M "$inst/share/man" loopy >"$work/.out" 2>"$work/.err"
    status=$?
    expect_status 0
    grep -q '^NAME' "$work/.out" || fail_case "no NAME section: $(head -c 300 "$work/.out")"
    grep -q -e '--misere' "$work/.out" || fail_case "no --misere in the page"
    raw=$(grep -n -E '\*\*|`|^ *#{1,6} [A-Z]{2}|^ *: ' "$work/.out" | head -n 3)
    [ -z "$raw" ] || fail_case "raw Markdown: $raw"
    end_case

    begin "man 3 loopy shows the library's page"
    LANG=C.UTF-8 MANWIDTH=80 man -M "$inst/share/man" 3 loopy >"$work/.out" 2>"$work/.err"
    status=$?
    expect_status 0
    grep -q '^LOOPY(3)' "$work/.out" || fail_case "not loopy(3): $(head -c 300 "$work/.out")"
    grep -q 'loopy_solve(' "$work/.out" || fail_case "no loopy_solve in the page"
    end_case
else
    skip "no man: the installed page is not read"
fi

if command -v bash >/dev/null; then
    begin "bash completes commands and options"
    bash -c '
        . "$1"
        loopy=$2
        complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _loopy; echo "${COMPREPLY[*]}"; }
        complete_words "$loopy" so
        complete_words "$loopy" solve --mis
        complete_words "$loopy" game s
        complete_words "$loopy" game solve --sol
        complete_words "$loopy" game solve --solver t
    ' sh "$inst/share/bash-completion/completions/loopy" "$inst/bin/loopy" >"$work/.out" 2>"$work/.err"
    expect_out <<'EOF'
solve
--misere
solve stats
--solver
tier tablebase
EOF
    end_case
else
    skip "no bash: its completion is not tried"
fi

if command -v zsh >/dev/null; then
    begin "the zsh completion parses"
    zsh -n "$inst/share/zsh/site-functions/_loopy" >"$work/.out" 2>&1 ||
        fail_case "zsh -n: $(head -c 300 "$work/.out")"
    end_case
fi

# The Python package in a venv (--system-site-packages: pip, setuptools
# and numpy come from Debian's packages, nothing is downloaded): "make
# install PYTHON=venv/bin/python3" puts it where that Python finds it (the
# Makefile asks it), and "pip install ./python" installs it offline, in
# pip's isolated build environment (the package's own build backend needs
# nothing that pip would download); run from the clone's root, the venv's
# package is imported, not the python/ folder.
py=${PYTHON:-/usr/bin/python3}
venv=$work/venv
# A library built with ASan or TSan needs the sanitizer's runtime loaded
# before anything else, which a Python already started cannot do (as
# tests/cli/python.sh says too).
py_san=$(cd "$root" && cd "$build" && nm -D --undefined-only libloopy.so.* \
    2>/dev/null | grep -o -m 1 -E '__(asan|tsan|msan|hwasan)_' || true)
if [ -n "$py_san" ]; then
    skip "the library is built with a sanitizer (it needs $py_san*), which Python cannot load: the venv cases are not tried"
elif [ -x "$py" ] && "$py" -m venv --without-pip --system-site-packages "$venv" \
    >"$work/venv.log" 2>&1; then
    vpy=$venv/bin/python3
    site=$("$vpy" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    begin "make install PYTHON=a venv's python3: the package is where it looks"
    # DESTDIR=/: the files go under PREFIX as they are, without ldconfig.
    if ! mk -o all DESTDIR=/ PREFIX="$venv" PYTHON="$vpy" install >"$work/make.log" 2>&1; then
        fail_case "make install failed:"
        tail -n 20 "$work/make.log"
    fi
    (cd / && env -u LOOPY_LIBRARY -u PYTHONPATH "$vpy" -c '
import loopy
print(loopy.__file__)
print(loopy.library_path)
print(loopy.Game("tictactoe").solve().value(".../.../..."))') >"$work/.out" 2>&1
    expect_out <<EOF
$site/loopy/__init__.py
$venv/lib/libloopy.so.$(version MAJOR)
T 9
EOF
    mk DESTDIR=/ PREFIX="$venv" PYTHON="$vpy" uninstall >"$work/make.log" 2>&1 ||
        fail_case "make uninstall failed: $(tail -n 5 "$work/make.log")"
    [ ! -e "$site/loopy" ] || fail_case "make uninstall leaves $site/loopy"
    end_case

    if "$vpy" -m pip --version >/dev/null 2>&1; then
        begin "pip install ./python, offline, in a venv"
        cp -R "$root/python" "$work/pysrc" # pip writes into the folder it builds
        if ! "$vpy" -m pip install -q --no-index --no-deps \
            "$work/pysrc" >"$work/pip.log" 2>&1; then
            fail_case "pip install failed: $(tail -n 5 "$work/pip.log")"
        fi
        lib=$(cd "$root" && cd "$build" && pwd)/libloopy.so.$(version MAJOR)
        (cd "$root" && env -u PYTHONPATH LOOPY_LIBRARY="$lib" "$vpy" -c '
import loopy
print(loopy.__file__)
print(loopy.Value(loopy.Value.WIN, 3), loopy.Outcome(2).name)') >"$work/.out" 2>&1
        expect_out <<EOF
$site/loopy/__init__.py
W 3 LOSE
EOF
        end_case
    else
        skip "no pip for $py: pip install in a venv is not tried"
    fi
else
    skip "no venv for $py (apt-get install python3-venv): $(tail -n 1 "$work/venv.log" 2>/dev/null)"
fi

begin "make uninstall removes every installed file"
if ! mk DESTDIR="$dest" PREFIX="$prefix" uninstall >"$work/make.log" 2>&1; then
    fail_case "make uninstall failed:"
    tail -n 20 "$work/make.log"
fi
left=$(cd "$dest" && find . ! -type d)
[ -z "$left" ] || fail_case "left behind: $(echo $left)"
end_case

finish install
