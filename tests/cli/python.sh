#!/bin/sh
# The Python package (python/loopy): its pytest tests (python/tests) run
# against the shared library and the program of the build folder of
# $LOOPY, each test counted; a copy of the clone's python/ finds the
# library through build/libloopy.so.0 without LOOPY_LIBRARY; then "make
# install DESTDIR=..." puts the
# package where PYTHONPATH finds it and it loads the installed library,
# the default folder is one Debian's python3 searches, "make uninstall"
# removes it; and "pip install ./python" installs it.
#
# Needs PYTHON (default /usr/bin/python3, Debian's, with python3-pytest;
# python3-numpy is used when present).  Skipped, with the reason printed,
# without that Python or pytest, and for a library that Python cannot load
# because a sanitizer's runtime must come first (ASan, TSan).
# Prints "python: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

py=${PYTHON:-/usr/bin/python3}
build=$(dirname "$LOOPY")
lib=$(ls "$build"/libloopy.so.*.*.* 2>/dev/null | head -n 1)
skip() {
    echo "SKIP: $1"
    finish python
    exit
}
[ -x "$py" ] || skip "no $py (set PYTHON)"
"$py" -c 'import pytest' 2>/dev/null ||
    skip "$py has no pytest (apt-get install python3-pytest)"
[ -n "$lib" ] || skip "no shared library $build/libloopy.so.* (run make first)"

export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree
unset LOOPY_LIBRARY LOOPY_NUMPY PYTHONPATH

if ! LOOPY_LIBRARY=$lib "$py" -c "import sys; sys.path.insert(0, '$root/python'); import loopy" \
    >"$work/load.log" 2>&1; then
    sanitizer=$(nm -D --undefined-only "$lib" 2>/dev/null |
        grep -o -m 1 -E '__(asan|tsan|msan|hwasan|ubsan)_' || true)
    if [ -n "$sanitizer" ]; then
        skip "$lib is built with a sanitizer (it needs $sanitizer*), whose runtime $py cannot load after its start: $(tail -n 1 "$work/load.log" | head -c 300)"
    fi
    fail "the package does not load $lib: $(head -c 600 "$work/load.log")"
    finish python
    exit
fi

# pytest, each test counted: its summary reads "3 failed, 38 passed,
# 1 skipped, 2 errors in 7.28s".
(cd "$root" && LOOPY_LIBRARY=$lib timeout "$limit" "$py" -m pytest -q \
    -p no:cacheprovider -rfE python/tests) >"$work/pytest.log" 2>&1
status=$?
summary=$(grep -E '^=* ?[0-9]+ (passed|failed|error|errors|skipped)' "$work/pytest.log" | tail -n 1)
number() { echo "$summary" | grep -o -E "[0-9]+ $1" | grep -o -E '[0-9]+' || echo 0; }
p=$(number passed)
f=$(($(number failed) + $(number error)))
passed=$((passed + p))
failed=$((failed + f))
if [ "$f" -gt 0 ] || [ "$status" -ne 0 ]; then
    tail -n 40 "$work/pytest.log"
fi
if [ -z "$summary" ] || { [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; }; then
    fail "pytest: exit status $status, no result"
fi
echo "pytest ran $((p + f)) tests: $f failed, $(number skipped) skipped"

# In a clone, without LOOPY_LIBRARY, the package finds the library through
# the soname's link that make puts in build/ (a copy of the tree here, its
# build/ the build folder of $LOOPY).
mkdir -p "$work/tree"
cp -R "$root/python" "$work/tree/python"
ln -s "$(cd "$build" && pwd)" "$work/tree/build"
got=$(cd "$work/tree/python" && env -u LOOPY_LIBRARY "$py" -c '
import loopy
print(loopy.library_path)
print(loopy.Game("subtract:7").solve().value("7"))' 2>&1)
same "the package in a clone finds build/libloopy.so.0" "$got" "$work/tree/build/libloopy.so.0
W 3"

# "make -o all install" installs what the build holds without remaking it.
for f in loopy libloopy.a loopy.pc.in; do
    [ -f "$build/$f" ] || skip "no $build/$f (run make first): make install is not tried"
done

# The sub-makes get the variables of a "make check" that runs this test
# (CC, SAN, OPENMP, ... in MAKEFLAGS), not its jobserver.
MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" |
    sed -e 's/--jobserver-[a-z]*=[^ ]*//g' -e 's/^\([a-zA-Z]*\)j[0-9]*/\1/' -e 's/ -j[0-9]*//g')
export MAKEFLAGS
rel_build=${build#"$root"/}
mk() { make -s -C "$root" BUILD="$rel_build" PYTHON="$py" "$@"; }
prefix=/opt/loopy-py
dest=$work/dest

# "make install DESTDIR=...": the package, beside the library.
if mk -o all DESTDIR="$dest" PREFIX="$prefix" install >"$work/make.log" 2>&1; then
    pass
else
    fail "make install: $(tail -n 5 "$work/make.log")"
fi
init=$(cd "$dest" && find . -path '*/loopy/__init__.py' | head -n 1)
site=$(dirname "$(dirname "$init")")
site=${site#.}
case $site in
"$prefix"/lib/python3*/*-packages) pass ;;
*) fail "the package is installed in '$site', not in $prefix/lib/python3.X/dist-packages" ;;
esac
# Imported from PYTHONPATH, in a folder of its own, it finds the installed
# library, not the build's.
got=$(cd / && env -u LOOPY_LIBRARY PYTHONPATH="$dest$site" "$py" -c '
import loopy
g = loopy.Graph.from_edges(3, [(0, 1), (1, 2), (0, 0)])
print(loopy.__file__)
print(loopy.library_path)
print(" ".join(g.solve().lines()))' 2>&1)
same "installed package" "$got" "$dest$site/loopy/__init__.py
$dest$prefix/lib/libloopy.so.0
1 D - 1 2 W 1 3 3 L 0 -"
if mk DESTDIR="$dest" PREFIX="$prefix" uninstall >"$work/make.log" 2>&1 &&
    [ ! -e "$dest$site/loopy" ]; then
    pass
else
    fail "make uninstall leaves $dest$site/loopy: $(ls "$dest$site/loopy" 2>&1 | head -c 200)"
fi

# Under /usr/local, the default folder is one that $py searches.
dir=$(mk -n -o all DESTDIR=/DESTDIR PREFIX=/usr/local install 2>/dev/null |
    sed -n 's|^install -d /DESTDIR\(.*\)/loopy$|\1|p' | head -n 1)
if [ -n "$dir" ] && "$py" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$dir"; then
    pass
else
    fail "make install PREFIX=/usr/local puts the package in '$dir', which $py does not search"
fi

# pip install ./python (from a copy: pip writes into the folder it builds),
# offline, in pip's isolated build environment: the package's own build
# backend needs nothing but the standard library.
if "$py" -m pip --version >/dev/null 2>&1; then
    cp -R "$root/python" "$work/src"
    if "$py" -m pip install -q --no-deps --no-index \
        --target "$work/pip" "$work/src" >"$work/pip.log" 2>&1; then
        got=$(cd / && LOOPY_LIBRARY=$lib PYTHONPATH="$work/pip" "$py" -c '
import loopy
print(loopy.__file__)
print(loopy.octal("0.77", 5).tolist() if hasattr(loopy.octal("0.77", 5), "tolist") else list(loopy.octal("0.77", 5)))' 2>&1)
        same "pip install ./python" "$got" "$work/pip/loopy/__init__.py
[0, 1, 2, 3, 1, 4]"
    else
        fail "pip install ./python: $(tail -n 5 "$work/pip.log")"
    fi
else
    echo "SKIP: no pip for $py: pip install ./python is not tried"
fi

finish python
