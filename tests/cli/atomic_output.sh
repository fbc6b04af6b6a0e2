#!/bin/sh
# Output files are atomic: a run that fails or is killed while writing never
# leaves a truncated file under the real name (cli/output.c writes a
# temporary file, .loopy-XXXXXX, beside it and renames it when complete).
# Devices, FIFOs and symbolic links named by -o keep what they are; a file
# the user may not write is refused, as the shell's "> file" refuses it.
#   LOOPY=build/loopy sh tests/cli/atomic_output.sh
# Prints "atomic_output: P passed, F failed" last.  Everything happens in a
# private temporary folder; system devices are never written to.
LOOPY=${LOOPY:-build/loopy}
case $LOOPY in /*) ;; *) LOOPY=$(pwd)/$LOOPY ;; esac
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# An interrupted run removes its folder too (dash runs no EXIT trap on a
# signal).
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# bounded_wait PID [SECONDS]: waits for the background process PID, at most
# SECONDS (60); one still running then is killed (SIGKILL, which nothing
# ignores) and hung is set to yes.  rc is its exit status.  So no wait
# hangs, whatever signals the test's processes were started with.
bounded_wait() {
    rm -f .hung
    (
        sleep "${2:-60}"
        kill -0 "$1" 2>/dev/null && : >.hung && kill -9 "$1"
    ) >/dev/null 2>&1 &
    dog=$!
    wait "$1"
    rc=$?
    # (SIGKILL: the watchdog may have inherited SIGTERM ignored.)
    kill -9 "$dog" 2>/dev/null
    wait "$dog" 2>/dev/null
    hung=no
    [ -e .hung ] && hung=yes
    rm -f .hung
    return 0
}

# with_default_signal SIG COMMAND...: runs COMMAND with SIG's disposition
# set to the default (it dies of SIG), whatever this shell inherited:
# "nohup" leaves SIGHUP ignored, a non-interactive shell starts '&'
# commands with SIGINT ignored, and loopy, as it should, keeps a signal
# ignored that it inherited ignored.  A shell cannot undo an inherited
# "ignore" (POSIX), so GNU env --default-signal does it, else perl; the
# status is 125 when neither is there.
if env --default-signal=HUP true 2>/dev/null; then
    with_default_signal() { sig=$1; shift; exec env --default-signal="$sig" "$@"; }
elif command -v perl >/dev/null 2>&1; then
    with_default_signal() {
        sig=$1
        shift
        exec perl -e '$SIG{$ARGV[0]} = "DEFAULT"; shift @ARGV; exec @ARGV or exit 127' "$sig" "$@"
    }
else
    with_default_signal() { exit 125; }
fi
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
    what=$1
    shift
    if "$@"; then pass; else fail "$what"; fi
}
no_leftovers() { ! ls -A | grep -q '^\.loopy-'; }

printf '3 3\n1 2\n2 3\n1 1\n' >small.txt
"$LOOPY" solve -q small.txt >small.expected
# A large output: 3 million isolated positions, about 30 MB of text.
printf '3000000 0\n' >big.txt

# 1. Success: the file holds exactly what standard output would.
"$LOOPY" solve -q -o out.txt small.txt
check "exit status 0 writing out.txt" [ $? -eq 0 ]
check "out.txt holds the solution" cmp -s out.txt small.expected
check "no temporary file left after success" no_leftovers

# 2. Bad input: an existing output file is left untouched, nothing on stdout.
echo previous >keep.txt
printf '3 1\n1 9\n' >bad.txt
"$LOOPY" solve -q -o keep.txt bad.txt >stdout.txt 2>stderr.txt
check "bad input exits 1" [ $? -eq 1 ]
check "bad input leaves keep.txt untouched" [ "$(cat keep.txt)" = previous ]
check "bad input prints nothing on stdout" [ ! -s stdout.txt ]
check "no temporary file left after bad input" no_leftovers

# 3. Folder missing or not a folder: exit 3, a message, nothing created.
"$LOOPY" solve -q -o missing/out.txt small.txt >stdout.txt 2>stderr.txt
check "missing folder exits 3" [ $? -eq 3 ]
check "missing folder: message names the file" \
    grep -q 'loopy solve: missing/out.txt: cannot create: No such file or directory' stderr.txt
check "missing folder: nothing on stdout" [ ! -s stdout.txt ]
"$LOOPY" solve -q -o small.txt/out.txt small.txt 2>stderr.txt
check "a file as folder exits 3" [ $? -eq 3 ]
check "a file as folder: message" grep -q 'cannot create: Not a directory' stderr.txt

# Sections 4 and 5 set a file size limit, under which ThreadSanitizer's own
# runtime faults (SIGBUS in its shadow memory) before loopy runs: `make tsan`
# sets LOOPY_TEST_TSAN and they are left to the other builds.
if [ -z "${LOOPY_TEST_TSAN:-}" ]; then
    # 4. Killed in the middle of writing (file size limit: SIGXFSZ kills the
    #    process at the first write past 64 KB): the real name keeps its old
    #    content; no partial file appears under it.
    echo previous >killed.txt
    # (An inner shell waits, so that its "File size limit exceeded" is silenced.)
    rc=$(sh -c 'ulimit -f 128; "$0" solve -q -o killed.txt big.txt; echo $?' \
        "$LOOPY" 2>/dev/null)
    check "size limit kills the writer (status $rc)" [ "$rc" -gt 128 ]
    check "killed writer leaves killed.txt untouched" [ "$(cat killed.txt)" = previous ]
    rm -f .loopy-*

    # 5. Write error (file too large, with SIGXFSZ ignored): exit 3, message,
    #    real name untouched, temporary file removed.
    echo previous >efbig.txt
    (trap '' XFSZ; ulimit -f 128; exec "$LOOPY" solve -q -o efbig.txt big.txt) \
        >stdout.txt 2>stderr.txt
    check "write error exits 3" [ $? -eq 3 ]
    check "write error: message" grep -q 'loopy solve: efbig.txt: write failed' stderr.txt
    check "write error leaves efbig.txt untouched" [ "$(cat efbig.txt)" = previous ]
    check "no temporary file left after a write error" no_leftovers
else
    echo "atomic_output: file-size-limit cases skipped under ThreadSanitizer"
fi

# 6. SIGKILL while the temporary file is being written: the real name is
#    either absent or complete, never truncated.
"$LOOPY" solve -q big.txt | wc -c >big.size
"$LOOPY" solve -q -o sigkill.txt big.txt &
pid=$!
tries=0
while [ $tries -lt 2000 ] && ! ls .loopy-* >/dev/null 2>&1 &&
    [ ! -e sigkill.txt ]; do
    tries=$((tries + 1))
    sleep 0.005
done
partial=$(cat .loopy-* 2>/dev/null | wc -c)
kill -9 $pid 2>/dev/null
{ bounded_wait $pid; } 2>/dev/null
echo "atomic_output: SIGKILL after $tries polls, temporary file at $partial bytes"
if [ -e sigkill.txt ]; then
    check "after SIGKILL sigkill.txt is complete" \
        [ "$(wc -c <sigkill.txt)" -eq "$(cat big.size)" ]
else
    pass # killed before the rename: no file under the real name
fi
rm -f .loopy-* sigkill.txt

# 7. Symbolic links: the file named is replaced, the link stays.
echo previous >target.txt
ln -s target.txt link.txt
"$LOOPY" solve -q -o link.txt small.txt
check "writing through a link exits 0" [ $? -eq 0 ]
check "the link is still a link" [ -L link.txt ]
check "the linked file holds the solution" cmp -s target.txt small.expected
ln -s absent.txt dangling.txt
"$LOOPY" solve -q -o dangling.txt small.txt
check "a dangling link's target is created" cmp -s absent.txt small.expected
check "the dangling link is still a link" [ -L dangling.txt ]

# 8. A FIFO is written to, not replaced.
mkfifo pipe
cat pipe >from_pipe.txt &
reader=$!
"$LOOPY" solve -q -o pipe small.txt
check "writing to a FIFO exits 0" [ $? -eq 0 ]
# (A reader whose writer never came would wait in open() for ever.)
bounded_wait $reader 30
check "the FIFO reader finished" [ $hung = no ]
check "the FIFO is still a FIFO" [ -p pipe ]
check "the FIFO carried the solution" cmp -s from_pipe.txt small.expected

# 9. Devices (private copies of /dev/null and /dev/full, when this user may
#    make device nodes): written to directly, never replaced.
if mknod null c 1 3 2>/dev/null && mknod full c 1 7 2>/dev/null; then
    "$LOOPY" solve -q -o null small.txt
    check "writing to a null device exits 0" [ $? -eq 0 ]
    check "the null device is still a device" [ -c null ]
    "$LOOPY" solve -q -o full small.txt >stdout.txt 2>stderr.txt
    check "writing to a full device exits 3" [ $? -eq 3 ]
    check "full device: message" \
        grep -q 'loopy solve: full: write failed: No space left on device' stderr.txt
    check "the full device is still a device" [ -c full ]
    check "full device: nothing on stdout" [ ! -s stdout.txt ]
else
    echo "atomic_output: cannot make device nodes here; device cases skipped"
fi

# 10. -o naming the file standard output or error already writes to (as
#     /dev/stdout does): written through that stream, not replaced, so what
#     the shell writes before and after stays.
{ echo before; "$LOOPY" solve -q -o /dev/stdout small.txt; echo after; } >shared.txt
{ echo before; cat small.expected; echo after; } >shared.expected
check "-o /dev/stdout keeps the shell's lines around it" cmp -s shared.txt shared.expected
echo "old line" >log.txt
"$LOOPY" solve -q -o /dev/stderr small.txt 2>>log.txt
{ echo "old line"; cat small.expected; } >log.expected
check "-o /dev/stderr appends to the log" cmp -s log.txt log.expected
"$LOOPY" solve -q -o - small.txt >dash.txt
check "-o - is standard output" cmp -s dash.txt small.expected

# 11. An input file shortened by another program while it is read (it is
#     mapped, so the next access past its end raises SIGBUS): exit 3 with a
#     message, never a crash, and no output or temporary file left.
awk 'BEGIN { srand(7); print 1000000, 3000000
             for (i = 0; i < 3000000; i++)
                 print int(rand() * 1000000) + 1, int(rand() * 1000000) + 1 }' >grow.txt
shrunk=0 crashed=0 left=0
for delay in 0.01 0.03 0.06 0.1 0.2; do
    cp grow.txt shrink.txt
    "$LOOPY" solve -q -o shrink.out shrink.txt 2>shrink.err &
    pid=$!
    sleep $delay
    truncate -s 100000 shrink.txt
    bounded_wait $pid 300
    [ $rc -gt 128 ] && crashed=$((crashed + 1))
    if [ $rc -eq 3 ] && grep -q 'loopy solve: an input file shrank while it was read' shrink.err; then
        shrunk=$((shrunk + 1))
        [ -e shrink.out ] && left=$((left + 1))
    fi
    rm -f shrink.out
done
check "shrunk input: never a crash" [ $crashed -eq 0 ]
check "shrunk input: no output file left" [ $left -eq 0 ]
check "shrunk input: reported at least once" [ $shrunk -gt 0 ]
rm -f grow.txt shrink.txt

# 12. Standard output that cannot be written: exit 3 with a message.
if [ -c full ]; then
    "$LOOPY" solve -q small.txt >full 2>stderr.txt
    check "full standard output exits 3" [ $? -eq 3 ]
    check "full standard output: message" \
        grep -q 'loopy solve: standard output: write failed' stderr.txt
fi

# 13. Interrupted while the output is open (here: convert, which opens its
#     output first, waiting to open a FIFO that nobody writes): the process
#     dies of the signal and takes its temporary file with it.  It is
#     started with the signal's default disposition (with_default_signal),
#     never with what this test inherited (nohup ignores SIGHUP), and each
#     wait is bounded: a process that does not die is a failure, not a hang.
mkfifo stalled
for sig in TERM HUP INT; do
    (with_default_signal $sig "$LOOPY" convert -q -o stopped.lgr stalled) 2>/dev/null &
    pid=$!
    tries=0
    while [ $tries -lt 1000 ] && ! ls .loopy-* >/dev/null 2>&1; do
        tries=$((tries + 1))
        sleep 0.01
    done
    if ! ls .loopy-* >/dev/null 2>&1; then
        bounded_wait $pid 1
        if [ "$rc" -eq 125 ]; then
            echo "atomic_output: no env --default-signal and no perl: SIG$sig case skipped"
            pass
        else
            fail "SIG$sig: no temporary file was made (status $rc)"
        fi
        continue
    fi
    pass # the temporary file was made
    kill -s $sig $pid 2>/dev/null
    bounded_wait $pid 30
    check "SIG$sig ends the process (status $rc)" [ $hung = no ]
    check "SIG$sig ends the process with the signal (status $rc)" [ $rc -gt 128 ]
    check "SIG$sig: no temporary file left" no_leftovers
    check "SIG$sig: no output file" [ ! -e stopped.lgr ]
    rm -f .loopy-*
done
rm -f stalled

# 14. A file replaced by -o keeps its permissions; a new one gets the umask's.
echo previous >private.txt
chmod 640 private.txt
"$LOOPY" solve -q -o private.txt small.txt
check "a replaced file keeps mode 640" [ "$(stat -c %a private.txt)" = 640 ]
check "the replaced file holds the solution" cmp -s private.txt small.expected
(umask 027; "$LOOPY" solve -q -o fresh.txt small.txt)
check "a new file gets mode 640 under umask 027" [ "$(stat -c %a fresh.txt)" = 640 ]

# 15. Long names: any name the file system accepts works (the temporary
#     name is short, not the target's name with a suffix); one it refuses
#     fails at once, before the solve.
for len in 245 250 255; do
    long=$(printf "%${len}s" "" | tr ' ' n)
    "$LOOPY" solve -q -o "$long" small.txt 2>stderr.txt
    check "a $len-byte name exits 0" [ $? -eq 0 ]
    check "a $len-byte name holds the solution" cmp -s "$long" small.expected
    rm -f "$long"
done
mkdir deep
long=$(printf "%255s" "" | tr ' ' d)
"$LOOPY" solve -q -o "deep/$long" small.txt
check "a 255-byte name in a folder holds the solution" cmp -s "deep/$long" small.expected
check "no temporary file left in the folder" [ -z "$(ls -A deep | grep '^\.loopy-')" ]
rm -rf deep
long=$(printf "%256s" "" | tr ' ' n)
"$LOOPY" solve -q -o "$long" small.txt >stdout.txt 2>stderr.txt
check "a 256-byte name exits 3" [ $? -eq 3 ]
check "a 256-byte name: message" grep -q ': cannot create: File name too long' stderr.txt
check "a 256-byte name: nothing on stdout" [ ! -s stdout.txt ]
check "no temporary file left after a name too long" no_leftovers

# 16. -o '' is a bad command line, refused before the input is read (the
#     input named here does not exist), by every command that takes -o.
for cmd in solve convert grundy sum; do
    "$LOOPY" $cmd -o '' absent.txt >stdout.txt 2>stderr.txt
    check "$cmd -o '' exits 2" [ $? -eq 2 ]
    check "$cmd -o '': message" \
        grep -qx "loopy $cmd: -o: the output file name is empty" stderr.txt
    check "$cmd -o '': nothing on stdout" [ ! -s stdout.txt ]
done
"$LOOPY" octal --output= 0.07 5 >stdout.txt 2>stderr.txt
check "octal --output= exits 2" [ $? -eq 2 ]
check "octal --output=: message" \
    grep -qx "loopy octal: -o: the output file name is empty" stderr.txt
check "no temporary file left after -o ''" no_leftovers

# 17. Hard links: a replaced file is a new file, so another link to the old
#     one keeps the old content (as the man page says).
echo previous >linked.txt
ln linked.txt other_link.txt
"$LOOPY" solve -q -o linked.txt small.txt
check "the linked name holds the solution" cmp -s linked.txt small.expected
check "another hard link keeps the old content" [ "$(cat other_link.txt)" = previous ]
check "the replaced file has a new inode" \
    [ "$(stat -c %i linked.txt)" != "$(stat -c %i other_link.txt)" ]

# 18-20 need a user without root's rights: this one when it is not root,
# else nobody (through setpriv), in a folder that user can write.
if [ "$(id -u)" -ne 0 ]; then
    as_user() { "$@"; }
    user_ok=yes
elif command -v setpriv >/dev/null 2>&1 &&
    group=$(id -g nobody 2>/dev/null) &&
    setpriv --reuid=nobody --regid="$group" --clear-groups true 2>/dev/null; then
    as_user() { setpriv --reuid=nobody --regid="$group" --clear-groups "$@"; }
    user_ok=yes
else
    user_ok=no
fi
if [ $user_ok = yes ]; then
    udir=$(mktemp -d)
    chmod 777 "$udir"
    cp small.txt small.expected "$udir/"
    chmod 644 "$udir/small.txt" "$udir/small.expected"
    ULOOPY=$LOOPY
    if ! as_user "$LOOPY" --version >/dev/null 2>&1; then
        cp "$LOOPY" "$udir/loopy" # the build folder is out of its reach
        ULOOPY=$udir/loopy
    fi
    cd "$udir" || exit 1

    # 18. A file the user may not write is refused, as "> file" refuses it
    #     (the rename would need only the folder's permission): exit 3, a
    #     message, nothing on stdout, the file untouched; before the work
    #     (the input named does not exist).
    as_user sh -c 'echo previous >readonly.txt && chmod 444 readonly.txt'
    as_user "$ULOOPY" solve -q -o readonly.txt absent.txt >stdout.txt 2>stderr.txt
    check "a read-only file exits 3" [ $? -eq 3 ]
    check "a read-only file: message" \
        grep -qx 'loopy solve: readonly.txt: cannot write: Permission denied' stderr.txt
    check "a read-only file: nothing on stdout" [ ! -s stdout.txt ]
    check "a read-only file is untouched" [ "$(cat readonly.txt)" = previous ]
    check "a read-only file keeps mode 444" [ "$(stat -c %a readonly.txt)" = 444 ]
    as_user "$ULOOPY" convert -q -o readonly.txt small.txt 2>stderr.txt
    check "convert: a read-only file exits 3" [ $? -eq 3 ]
    check "convert: a read-only file is untouched" [ "$(cat readonly.txt)" = previous ]
    check "no temporary file left after a read-only file" no_leftovers
    if [ "$(id -u)" -eq 0 ]; then
        # Another user's file, 644: as root may, nobody may not replace it.
        echo previous >roots.txt
        as_user "$ULOOPY" solve -q -o roots.txt small.txt 2>stderr.txt
        check "another user's file exits 3" [ $? -eq 3 ]
        check "another user's file: message" \
            grep -q 'roots.txt: cannot write: Permission denied' stderr.txt
        check "another user's file is untouched" [ "$(cat roots.txt)" = previous ]
        "$LOOPY" solve -q -o readonly.txt small.txt
        check "root replaces a read-only file" cmp -s readonly.txt small.expected
        # Another user's file that anyone may write: replaced, and the new
        # file is this user's (it may not give it to another).
        echo previous >open.txt
        chmod 666 open.txt
        as_user "$ULOOPY" solve -q -o open.txt small.txt
        check "another user's writable file is replaced" cmp -s open.txt small.expected
        check "the replacement is the writer's" \
            [ "$(stat -c %U open.txt)" = nobody ]
    fi

    # 19. A writable file in a folder the user may not write: the folder is
    #     named as the problem (a rename needs it), the file is untouched.
    as_user sh -c 'mkdir locked && echo previous >locked/out.txt &&
                   chmod 666 locked/out.txt && chmod 555 locked'
    as_user "$ULOOPY" solve -q -o locked/out.txt small.txt >stdout.txt 2>stderr.txt
    check "a locked folder exits 3" [ $? -eq 3 ]
    check "a locked folder: message names the folder" \
        grep -qx "loopy solve: locked/out.txt: cannot write in the folder 'locked' (needed to replace the file safely): Permission denied" stderr.txt
    check "a locked folder: nothing on stdout" [ ! -s stdout.txt ]
    check "a locked folder: the file is untouched" [ "$(cat locked/out.txt)" = previous ]
    check "a locked folder: no temporary file" [ -z "$(ls -A locked | grep '^\.loopy-')" ]
    as_user chmod 755 locked

    cd "$tmp" || exit 1
    rm -rf "$udir"
else
    pass
    echo "atomic_output: not root and no setpriv: permission cases skipped"
fi

# 20. A file replaced by root keeps its owner and group (and its mode).
if [ "$(id -u)" -eq 0 ] && group=$(id -g nobody 2>/dev/null); then
    echo previous >owned.txt
    chown nobody:"$group" owned.txt
    chmod 640 owned.txt
    "$LOOPY" solve -q -o owned.txt small.txt
    check "root's replacement holds the solution" cmp -s owned.txt small.expected
    check "a replaced file keeps its owner and group" \
        [ "$(stat -c %u:%g owned.txt)" = "$(id -u nobody):$group" ]
    check "a replaced file keeps mode 640 with its owner" \
        [ "$(stat -c %a owned.txt)" = 640 ]
else
    echo "atomic_output: not root: the owner case skipped"
fi

check "no temporary file left at the end" no_leftovers
echo "atomic_output: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
