#!/bin/sh
# Every example in README.md, in every --help text and in the man pages
# (docs/loopy.1.md, docs/loopy.3.md) is run, and what it prints is
# checked against what the text shows.
#
# An example is a command after a "$ " prompt: in Markdown, in a fenced
# code block or an indented one; in a --help text, on a line "  $ ".  The
# lines after it, up to the next prompt or the end of the block (of the
# indented lines, in a --help text), are what it prints: standard output
# and standard error together, as a terminal shows them, compared line by
# line after trailing blanks are dropped and timings "(0.012 s)" made
# equal; a line "..." stands for any number of lines.  An example that
# shows nothing is only required to succeed.  Every example must exit with
# status 0.
#
# The examples of one text run in order in one folder (an example may use
# a file an earlier one made), with "loopy" and "build/loopy" the program
# under test, examples/ and include/ those of the repository, and the
# files the texts name as placeholders for the reader's own (big.txt,
# web-Google.txt.gz) made here.  Examples are found, not listed, so a new
# one is run as soon as it is written; a prompt the extraction does not
# take (outside a code block) is a failure, as is a --help that says
# "Example" and yields none.  Examples that need what a test machine
# lacks (a cluster), or that never end (a server), are named in not_run
# below, and said to be skipped.
# Prints "examples: P passed, F failed" last.
. "$(dirname "$0")/harness.inc"

# Seconds one example may take (the Connect Four solve takes seconds,
# minutes under sanitizers).
example_limit=${LOOPY_EXAMPLE_TIMEOUT:-900}

mkdir "$work/bin"
ln -s "$LOOPY" "$work/bin/loopy"
PATH=$work/bin:$PATH
export PATH
# The texts show what a reader sees in the C locale (boards in ASCII).
LC_ALL=C
export LC_ALL
# loopy-mpi and the shared library beside the program under test, when
# they are built; as root, Open MPI wants to be told (the README says so).
build=$(dirname "$LOOPY")
mpi_program=$build/loopy-mpi
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
# Python examples run when this Python loads the package with the build's
# library (not a sanitizer's build, whose runtime Python cannot load).
python_ok=no
if command -v python3 >/dev/null 2>&1 && [ -e "$build/libloopy.so.0" ] &&
    PYTHONPATH=$root/python LOOPY_LIBRARY=$build/libloopy.so.0 \
        python3 -c 'import loopy; loopy.octal("0.77", 3)' >/dev/null 2>&1; then
    python_ok=yes
fi

# fixtures DIR: a fresh folder for the examples of one text.
fixtures() {
    mkdir -p "$1/build"
    ln -s "$LOOPY" "$1/build/loopy"
    ln -s "$root/examples" "$1/examples"
    ln -s "$root/include" "$1/include"
    ln -s "$root/python" "$1/python"
    [ ! -e "$build/libloopy.so.0" ] || ln -s "$build/libloopy.so.0" "$1/build/libloopy.so.0"
    [ ! -x "$mpi_program" ] || ln -s "$mpi_program" "$1/build/loopy-mpi"
    cp "$root/examples/game.txt" "$1/big.txt"
    printf '# Directed graph: web-Google.txt\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t0\n2\t3\n' |
        gzip -c >"$1/web-Google.txt.gz"
}

# extract MODE DIR < TEXT: writes each example of TEXT (MODE readme or
# help) to DIR/N.cmd and its output to DIR/N.want, N = 1, 2, ...; prints
# a line "stray: LINE" for each prompt outside a block, then the count.
extract() {
    awk -v mode="$1" -v dir="$2" '
    function start(cmd) {
        n++
        printf "%s\n", cmd > (dir "/" n ".cmd"); close(dir "/" n ".cmd")
        printf "" > (dir "/" n ".want")
        open = 1; blanks = 0
    }
    function out(line) {
        for (; blanks > 0; blanks--) print "" >> (dir "/" n ".want")
        print line >> (dir "/" n ".want")
    }
    function stop() { if (open) close(dir "/" n ".want"); open = 0; blanks = 0 }
    mode == "help" {
        if ($0 ~ /^  \$ /) { stop(); start(substr($0, 5)); next }
        if (open && $0 ~ /^  /) { out(substr($0, 3)); next }
        stop(); next
    }
    # README.md: fenced blocks, then indented ones.
    /^```/ { stop(); fenced = !fenced; next }
    fenced {
        if ($0 ~ /^\$ /) { stop(); start(substr($0, 3)) }
        else if (open) out($0)
        next
    }
    /^    \$ / { stop(); start(substr($0, 7)); next }
    open && /^    / { out(substr($0, 5)); next }
    open && /^[ \t]*$/ { blanks++; next }
    { stop() }
    /(^|[^A-Za-z0-9_])\$ (build\/)?loopy / { print "stray: " $0 }
    END { stop(); print n + 0 }
    '
}

# normalise FILE: trailing blanks dropped, timings made equal.
normalise() {
    sed -e 's/[[:blank:]]*$//' -e 's/([0-9][0-9]*\.[0-9][0-9]* s)/(TIME s)/g' "$1"
}

# matches WANT GOT: GOT's lines are WANT's, a WANT line "..." standing for
# any number of lines.
matches() {
    normalise "$1" >"$1.n"
    normalise "$2" >"$2.n"
    awk '
    FNR == NR { w[++nw] = $0; next }
    { g[++ng] = $0 }
    END {
        # ok[i, j]: want lines i.. match got lines j..
        for (i = nw + 1; i >= 1; i--)
            for (j = ng + 1; j >= 1; j--) {
                if (i > nw) r = (j > ng)
                else if (w[i] ~ /^[ \t]*\.\.\.$/) r = ok[i + 1, j] || (j <= ng && ok[i, j + 1])
                else r = (j <= ng && w[i] == g[j] && ok[i + 1, j + 1])
                ok[i, j] = r
            }
        exit !ok[1, 1]
    }' "$1.n" "$2.n"
}

# not_run COMMAND: why an example cannot run on a test machine (printed),
# or status 1 when it can.  Such an example is named in a SKIP line.
not_run() {
    case $1 in
    "cat hosts") echo "a cluster's host file" ;;
    "mpirun "*"--hostfile hosts"*) echo "a cluster" ;;
    "mpirun "*)
        if [ ! -x "$mpi_program" ] || ! command -v mpirun >/dev/null 2>&1; then
            echo "loopy-mpi (make MPI=1) and mpirun"
        else
            return 1
        fi ;;
    *"python3 "*)
        if [ $python_ok = no ]; then
            echo "python3 loading the package with this build's library"
        else
            return 1
        fi ;;
    "loopy serve "*) echo "a server, which runs until it is stopped (tests/cli/serve.sh runs it)" ;;
    *) return 1 ;;
    esac
}

# run_examples NAME DIR: runs DIR/1.cmd, ... in DIR, in order.
run_examples() {
    name=$1 dir=$2
    i=1
    while [ -f "$dir/$i.cmd" ]; do
        cmd=$(cat "$dir/$i.cmd")
        if why=$(not_run "$cmd"); then
            echo "SKIP: $name: \$ $cmd: needs $why"
            i=$((i + 1))
            continue
        fi
        case $cmd in
        # Under AddressSanitizer, Open MPI's own allocations at exit read
        # as leaks (tests/cli/mpi.sh says the same): not for mpirun.
        mpirun*) leaks=detect_leaks=0 ;;
        *) leaks= ;;
        esac
        (cd "$dir" && ASAN_OPTIONS="${ASAN_OPTIONS:-}${leaks:+${ASAN_OPTIONS:+:}$leaks}" \
            timeout -k 10 "$example_limit" sh -c "$cmd" </dev/null >"$i.got" 2>&1)
        status=$?
        if [ "$status" -ne 0 ]; then
            fail "$name: \$ $cmd: exit status $status: $(head -c 400 "$dir/$i.got")"
        elif [ -s "$dir/$i.want" ] && ! matches "$dir/$i.want" "$dir/$i.got"; then
            fail "$name: \$ $cmd: the output differs from the text's (-: the text, +: loopy's):"
            diff "$dir/$i.want.n" "$dir/$i.got.n" | head -n 20
        else
            pass
        fi
        i=$((i + 1))
    done
}

# README.md and the man pages' Markdown (whose code blocks are the same).
n=0
for doc in README.md docs/loopy.1.md docs/loopy.3.md; do
    n=$((n + 1))
    dir=$work/doc-$n
    mkdir "$dir"
    fixtures "$dir"
    extract readme "$dir" <"$root/$doc" >"$work/found"
    count=$(tail -n 1 "$work/found")
    grep '^stray: ' "$work/found" | while IFS= read -r line; do
        echo "FAIL: $doc: a prompt outside a code block, not run: ${line#stray: }"
    done
    check "$doc: every prompt is in a code block" [ -z "$(grep '^stray: ' "$work/found")" ]
    [ "$doc" != README.md ] || check "README.md has examples ($count found)" [ "$count" -gt 10 ]
    run_examples "$doc" "$dir"
done

# Every --help: the top level's, each command's (as the top level lists
# them) and each game subcommand's, each distinct text once.
commands=$("$LOOPY" --help | sed -n 's/^  \([a-z][a-z0-9]*\)  .*/\1/p')
k=0
for args in "" $commands $(for s in list solve probe stats play check; do echo "game:$s"; done); do
    args=$(echo "$args" | tr : ' ')
    k=$((k + 1))
    # shellcheck disable=SC2086 # args is words
    "$LOOPY" $args --help >"$work/help.$k" 2>&1 || continue
    seen=no
    j=1
    while [ $j -lt $k ]; do
        if [ -f "$work/help.$j" ] && cmp -s "$work/help.$j" "$work/help.$k"; then seen=yes; fi
        j=$((j + 1))
    done
    if [ $seen = yes ]; then
        rm -f "$work/help.$k"
        continue
    fi
    dir=$work/help-$k
    mkdir "$dir"
    fixtures "$dir"
    count=$(extract help "$dir" <"$work/help.$k" | tail -n 1)
    if grep -q 'Example' "$work/help.$k"; then
        check "loopy $args --help: its example is found" [ "$count" -gt 0 ]
    fi
    run_examples "loopy $args --help" "$dir"
done
check "some --help has examples" [ "$(ls "$work" | grep -c '^help-')" -gt 5 ]

finish examples
