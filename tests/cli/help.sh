#!/bin/sh
# Golden tests of --help and --version, at the top level and for every
# command: printed on standard output with status 0, and when standard
# output cannot take them (a full device, a closed descriptor) a message on
# standard error and status 3, as for any other output.
. "$(dirname "$0")/golden.inc"

# run_to TARGET ARGS...: runs $LOOPY ARGS with standard output full (TARGET
# 'full', /dev/full) or closed (TARGET 'closed'), standard error captured.
run_to() {
    target=$1
    shift
    if [ "$target" = full ]; then
        (cd "$work" && "$LOOPY" "$@" >/dev/full 2>"$work/.err")
    else
        (cd "$work" && "$LOOPY" "$@" >&- 2>"$work/.err")
    fi
    status=$?
}

# The commands, as the top-level help lists them (two spaces, the name, two
# or more spaces, what it does), so that a new one is tested too.
commands=$("$LOOPY" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')

begin "the top-level help lists every command"
for c in solve convert grundy sum octal serve race sleepy climb; do
    echo "$commands" | grep -q -x "$c" || fail_case "'$c' is not listed"
done
end_case

for args in "--help" "-h" "help" "--version" "-V"; do
    begin "loopy $args"
    run $args
    expect_status 0
    expect_err_empty
    [ -s "$work/.out" ] || fail_case "nothing on standard output"
    end_case
done

for c in $commands; do
    for opt in --help -h; do
        begin "loopy $c $opt"
        run "$c" "$opt"
        expect_status 0
        expect_err_empty
        head -n 1 "$work/.out" | grep -q "^Usage: loopy $c " ||
            fail_case "standard output does not start with 'Usage: loopy $c'"
        end_case
    done
done

# A full device: the write fails at the flush, with ENOSPC.
if [ -w /dev/full ]; then
    for args in "--help" "-h" "help" "--version" "-V"; do
        begin "loopy $args > /dev/full"
        run_to full $args
        expect_status 3
        expect_err <<'EOF'
loopy: standard output: write failed: No space left on device
EOF
        end_case
    done
    for c in $commands; do
        begin "loopy $c --help > /dev/full"
        run_to full "$c" --help
        expect_status 3
        # A here-document, not a pipe: expect_err must run in this shell
        # for its verdict to count.
        expect_err <<EOF
loopy $c: standard output: write failed: No space left on device
EOF
        end_case
    done
else
    echo "help: no writable /dev/full here; full-device cases skipped"
fi

# Standard output closed (">&-"): the write fails with EBADF, whose wording
# is the C library's.
for args in "--help" "--version"; do
    begin "loopy $args >&-"
    run_to closed $args
    expect_status 3
    expect_err_has "loopy: standard output: write failed: "
    [ "$(wc -l <"$work/.err")" -eq 1 ] || fail_case "not one line on standard error"
    end_case
done
for c in $commands; do
    begin "loopy $c --help >&-"
    run_to closed "$c" --help
    expect_status 3
    expect_err_has "loopy $c: standard output: write failed: "
    [ "$(wc -l <"$work/.err")" -eq 1 ] || fail_case "not one line on standard error"
    end_case
done

finish help
