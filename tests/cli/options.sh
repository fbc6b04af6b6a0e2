#!/bin/sh
# One set of options for every command (cli/common.c's parser): --version
# and --help at every level and "loopy help COMMAND"; grouped short flags;
# the nearest option, command or action offered for an unknown one; -o, -q,
# -t and -f json wherever they apply; and the output file's checks: an
# empty name, standard input redirected from the output, a folder that
# takes no new file.
. "$(dirname "$0")/golden.inc"

cd "$work" || exit 1
printf '3 3\n1 2\n2 3\n1 1\n' >g.txt
printf '2 2\n2 3\n1 2\n1 1\n' >q.txt
printf '5 5 3\n1 2\n2 3\n3 1\n3 4\n4 5\n2 3\n1 5\n3 3\n' >race.txt
printf '5 6\n2 2 3\n2 4 5\n1 4\n1 5\n0\n1\n' >sleepy.txt
printf '1\n2 3\n1 2 3\n6 5 4\n3\n2 1\n2 3\n1 1\n' >climb.txt
version=$("$LOOPY" --version)
commands=$("$LOOPY" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')

# ---- --version and --help at every level ----
begin "loopy --version names the version"
run --version
expect_status 0
echo "$version" | grep -q -x 'loopy [0-9][0-9.]*' || fail_case "got '$version'"
end_case

for c in $commands "game probe" "game list"; do
    for opt in --version -V; do
        begin "loopy $c $opt"
        run $c $opt
        expect_status 0
        expect_out <<EOF
$version
EOF
        expect_err_empty
        end_case
    done
    # After other options and operands too.
    begin "loopy $c -q --version"
    run $c -q --version
    expect_status 0
    expect_out <<EOF
$version
EOF
    end_case
done

begin "loopy help is loopy --help"
run help
expect_status 0
"$LOOPY" --help >.want_help
cmp -s .want_help .out || fail_case "differs from loopy --help"
end_case

for c in $commands; do
    begin "loopy help $c is loopy $c --help"
    run help "$c"
    expect_status 0
    expect_err_empty
    "$LOOPY" "$c" --help >.want_help
    [ -s .out ] && cmp -s .want_help .out || fail_case "differs from loopy $c --help"
    end_case
done

for action in probe list solve stats play check; do
    begin "loopy help game $action is loopy game $action --help"
    run help game "$action"
    expect_status 0
    "$LOOPY" game "$action" --help >.want_help
    [ -s .out ] && cmp -s .want_help .out || fail_case "differs"
    end_case
done

begin "loopy help help is loopy --help"
run help help
expect_status 0
"$LOOPY" --help >.want_help
cmp -s .want_help .out || fail_case "differs from loopy --help"
end_case

begin "loopy help bogus is an error"
run help bogus
expect_status 2
expect_out_empty
expect_err <<EOF
loopy: unknown command 'bogus' (see 'loopy --help')
EOF
end_case

begin "loopy help slove offers solve"
run help slove
expect_status 2
expect_out_empty
expect_err <<EOF
loopy: unknown command 'slove' (did you mean solve?)
EOF
end_case

begin "loopy help game bogus is an error"
run help game bogus
expect_status 2
expect_out_empty
expect_err_has "loopy game: unknown action 'bogus'"
end_case

begin "loopy help game probe extra is an error"
run help game probe extra
expect_status 2
expect_out_empty
expect_err <<'EOF'
loopy: help: expected 'game' and an action, found 'extra' after them
EOF
end_case

begin "loopy help solve extra is an error"
run help solve extra
expect_status 2
expect_out_empty
expect_err <<EOF
loopy: help: 'solve' has no actions, found 'extra' after it
EOF
end_case

# ---- grouped short flags ----
"$LOOPY" solve -q -f json g.txt >json.want
begin "solve -qf json is -q -f json"
run solve -qf json g.txt
expect_status 0
expect_err_empty
expect_out <json.want
end_case

begin "solve -qfjson is -q -f json"
run solve -qfjson g.txt
expect_status 0
expect_out <json.want
end_case

begin "solve -qt2 is -q -t 2"
run solve -qt2 g.txt
expect_status 0
expect_err_empty
expect_out <<'EOF'
1 D - 1
2 W 1 3
3 L 0 -
EOF
end_case

begin "solve -qo FILE writes FILE"
run solve -qo out.txt g.txt
expect_status 0
expect_out_empty
expect_err_empty
"$LOOPY" solve -q g.txt | cmp -s - out.txt || fail_case "out.txt differs"
end_case

begin "game probe -qf json groups too"
run game probe -qf json tictactoe x../.o./..x
expect_status 0
expect_err_empty
head -c 14 .out | grep -q -F '[{"position": ' || fail_case "not JSON: $(head -c 80 .out)"
end_case

begin "a group with an unknown letter names it"
run solve -qx g.txt
expect_status 2
expect_out_empty
expect_err <<EOF
loopy solve: unknown option '-x' in '-qx' (see --help)
EOF
end_case

begin "-quiet offers --quiet (q is a flag, u is not)"
run solve -quiet g.txt
expect_status 2
expect_err <<'EOF'
loopy solve: unknown option '-u' in '-quiet' (did you mean --quiet?)
EOF
end_case

begin "a group whose last option lacks its value"
run solve g.txt -qt
expect_status 2
expect_err <<EOF
loopy solve: option '-t' needs a value (see --help)
EOF
end_case

begin "a group's value is checked"
run solve -qtx g.txt
expect_status 2
expect_err <<EOF
loopy solve: --threads: expected a whole number from 0 to 1024, found 'x'
EOF
end_case

# ---- the nearest option, command or action ----
begin "loopy --bogus says unknown option"
run --bogus
expect_status 2
expect_out_empty
expect_err <<EOF
loopy: unknown option '--bogus' (see 'loopy --help')
EOF
end_case

begin "loopy --verison offers --version"
run --verison
expect_status 2
expect_err <<EOF
loopy: unknown option '--verison' (did you mean --version?)
EOF
end_case

begin "loopy slove offers solve"
run slove g.txt
expect_status 2
expect_out_empty
expect_err <<EOF
loopy: unknown command 'slove' (did you mean solve?)
EOF
end_case

begin "solve --misre offers --misere"
run solve --misre g.txt
expect_status 2
expect_out_empty
expect_err <<EOF
loopy solve: unknown option '--misre' (did you mean --misere?)
EOF
end_case

begin "solve -misere offers --misere"
run solve -misere g.txt
expect_status 2
expect_err <<EOF
loopy solve: unknown option '-misere' (did you mean --misere?)
EOF
end_case

begin "solve --thread=2 offers --threads"
run solve --thread=2 g.txt
expect_status 2
expect_err <<EOF
loopy solve: unknown option '--thread' (did you mean --threads?)
EOF
end_case

begin "solve --lose offers --lose-at (the only option it begins)"
run solve --lose 1 g.txt
expect_status 2
expect_err <<EOF
loopy solve: unknown option '--lose' (did you mean --lose-at?)
EOF
end_case

begin "solve -v offers -V"
run solve -v
expect_status 2
expect_err <<EOF
loopy solve: unknown option '-v' (did you mean -V?)
EOF
end_case

begin "grundy --qiuet offers --quiet (two letters swapped)"
run grundy --qiuet g.txt
expect_status 2
expect_err <<EOF
loopy grundy: unknown option '--qiuet' (did you mean --quiet?)
EOF
end_case

begin "game --no-symetry offers --no-symmetry"
run game solve --no-symetry tictactoe
expect_status 2
expect_err <<EOF
loopy game: unknown option '--no-symetry' (did you mean --no-symmetry?)
EOF
end_case

begin "race --strategi offers --strategy"
run race --strategi lanes race.txt
expect_status 2
expect_err <<EOF
loopy race: unknown option '--strategi' (did you mean --strategy?)
EOF
end_case

begin "game prob offers probe"
run game prob tictactoe
expect_status 2
expect_err <<EOF
loopy game: unknown action 'prob' (did you mean probe?)
EOF
end_case

begin "nothing near: the usual message"
run solve --zzzzzz g.txt
expect_status 2
expect_err <<EOF
loopy solve: unknown option '--zzzzzz' (see --help)
EOF
end_case

# ---- -o, -q, -t and -f json wherever they apply ----
# CMD ARGS for each command that writes results; its -o FILE holds what it
# prints, nothing is printed, and -q and -t are taken.
while IFS='|' read -r name args input takes_t; do
    begin "$name: -o FILE holds its output"
    if [ -n "$input" ]; then
        (cd "$work" && "$LOOPY" $args <"$input" >.stdout 2>/dev/null)
        run $args -q -o o.txt <"$input"
    else
        (cd "$work" && "$LOOPY" $args >.stdout 2>/dev/null)
        run $args -q -o o.txt
    fi
    expect_status 0
    expect_out_empty
    expect_err_empty
    [ -s .stdout ] && cmp -s .stdout o.txt || fail_case "o.txt differs from standard output"
    ls -A | grep -q '^\.loopy-' && fail_case "a temporary file is left"
    rm -f o.txt
    end_case

    begin "$name: -o '' is a usage error"
    run $args -o ''
    expect_status 2
    expect_out_empty
    expect_err_has ": -o: the output file name is empty"
    end_case

    if [ "$takes_t" = t ]; then
        begin "$name: -t 1 gives the same output"
        if [ -n "$input" ]; then run $args -q -t 1 <"$input"; else run $args -q -t 1; fi
        expect_status 0
        expect_out <.stdout
        end_case
    fi
done <<'EOF'
solve|solve g.txt||t
grundy|grundy g.txt||t
sum|sum g.txt q.txt||t
octal|octal 0.77 5||
race|race|race.txt|t
sleepy|sleepy sleepy.txt||t
climb|climb climb.txt||t
game list|game list||
game probe|game probe tictactoe x../.o./..x||t
game stats|game stats subtract:9,1,2||t
game check|game check subtract:9,1,2||
EOF

begin "game solve: -o '' is a usage error"
run game solve -o '' tictactoe
expect_status 2
expect_err_has "loopy game: -o: the output file name is empty"
end_case

begin "convert: -o '' is a usage error"
run convert -o '' g.txt
expect_status 2
expect_err_has "loopy convert: -o: the output file name is empty"
end_case

begin "game probe: -o FILE.ldb is refused (text is not a database)"
run game probe -q -o p.ldb tictactoe
expect_status 2
expect_out_empty
expect_err <<'EOF'
loopy game: -o: only 'solve' writes a database; probe writes text (give a name that does not end in .ldb)
EOF
[ -e p.ldb ] && fail_case "p.ldb was made"
end_case

begin "game play: -o is refused (a conversation)"
run game play -o x.txt tictactoe </dev/null
expect_status 2
expect_out_empty
expect_err_has "play is a conversation"
end_case

# The contest commands keep their formats by default; -f json gives the
# same answers as a JSON document, and -f text is the default.
begin "race -f text is the contest's format"
run race -f text race.txt
expect_status 0
expect_out <<'EOF'
1
0
-1
EOF
end_case

begin "race -f json"
run race -f json race.txt
expect_status 0
expect_out <<'EOF'
{"rounds": [
  {"start": 2, "end": 3, "result": 1},
  {"start": 1, "end": 5, "result": 0},
  {"start": 3, "end": 3, "result": -1}
]}
EOF
end_case

begin "sleepy -f json: a win and its walk"
run sleepy -f json sleepy.txt
expect_status 0
expect_out <<'EOF'
{"outcome": "Win", "path": [1, 2, 4, 5]}
EOF
end_case

begin "sleepy -f json: a draw has no walk"
printf '2 2\n1 2\n1 1\n1\n' >draw.txt
run sleepy -f json draw.txt
expect_status 0
expect_out <<'EOF'
{"outcome": "Draw", "path": null}
EOF
end_case

begin "climb -f json"
run climb -f json climb.txt
expect_status 0
expect_out <<'EOF'
{"answers": [
  "Second",
  "Second",
  "First"
]}
EOF
end_case

begin "grundy -f json"
run grundy -q -f json g.txt
expect_status 0
expect_out <<'EOF'
{
  "vertices": 3,
  "edges": 3,
  "base": 1,
  "finite": 2,
  "infinite": 1,
  "positions": [
    {"vertex": 1, "value": null, "inf": [1], "outcome": "D"},
    {"vertex": 2, "value": 1, "outcome": "W"},
    {"vertex": 3, "value": 0, "outcome": "L"}
  ]
}
EOF
end_case

begin "sum -f json"
run sum -f json g.txt q.txt
expect_status 0
expect_out <<'EOF'
{
  "base": 1,
  "queries": [
    {"tokens": [2, 2], "outcome": "L", "value": 0},
    {"tokens": [2, 3], "outcome": "W", "value": 1},
    {"tokens": [1, 2], "outcome": "W", "value": null, "inf": [0]},
    {"tokens": [1, 1], "outcome": "D", "value": null, "inf": []}
  ]
}
EOF
end_case

begin "octal -f json"
run octal -f json 0.77 5
expect_status 0
expect_out <<'EOF'
{"code": "0.77", "values": [0, 1, 2, 3, 1, 4]}
EOF
end_case

begin "octal -f xml is refused"
run octal -f xml 0.77 5
expect_status 2
expect_err <<EOF
loopy octal: --format: expected 'text' or 'json', found 'xml'
EOF
end_case

# Every JSON document parses, when python3 is here to say so.
if command -v python3 >/dev/null 2>&1; then
    for args in "grundy -q -f json g.txt" "sum -f json g.txt q.txt" \
        "octal -f json 0.77 5" "race -f json race.txt" \
        "sleepy -f json sleepy.txt" "climb -f json climb.txt" \
        "sleepy -f json draw.txt"; do
        begin "$args is JSON"
        run $args
        python3 -c 'import json, sys; json.load(open(sys.argv[1]))' .out ||
            fail_case "not JSON"
        end_case
    done
fi

# ---- the output file ----
# Standard input redirected from the output file is refused, as naming the
# input is, and the file keeps its content.
while IFS='|' read -r name args; do
    case $name in
    race) cp race.txt same.txt ;;
    sleepy) cp sleepy.txt same.txt ;;
    climb) cp climb.txt same.txt ;;
    sum) cp q.txt same.txt ;;
    *) cp g.txt same.txt ;;
    esac
    cp same.txt same.before
    begin "$name -o F < F is refused"
    run $args -q -o same.txt <same.txt
    expect_status 2
    expect_out_empty
    expect_err <<EOF
loopy $name: same.txt: the output would overwrite the input file (standard input)
EOF
    cmp -s same.txt same.before || fail_case "the input was changed"
    end_case
done <<'EOF'
solve|solve
solve|solve -
grundy|grundy
convert|convert
race|race
sleepy|sleepy
climb|climb
sum|sum g.txt
EOF

begin "solve -o F < F, F named by another link, is refused"
cp g.txt same.txt
ln -f same.txt other-name.txt
run solve -q -o other-name.txt <same.txt
expect_status 2
expect_err_has "the output would overwrite the input file (standard input)"
end_case

begin "solve -o F with standard input from another file is fine"
cp g.txt in.txt
run solve -q -o new.txt <in.txt
expect_status 0
"$LOOPY" solve -q g.txt | cmp -s - new.txt || fail_case "new.txt differs"
end_case

begin "solve -o /dev/null < /dev/null is fine (not a regular file)"
run solve -q -o /dev/null </dev/null
expect_status 1
expect_err_has "loopy solve: <stdin>"
end_case

begin "game probe -o F with positions from F is refused"
echo 'x../.o./..x' >pos.txt
cp pos.txt pos.before
run game probe -q -o pos.txt tictactoe - <pos.txt
expect_status 2
expect_err <<EOF
loopy game: pos.txt: the output would overwrite the input file (standard input)
EOF
cmp -s pos.txt pos.before || fail_case "the input was changed"
end_case

# A folder that takes no new file is named as the problem.  Root writes
# anywhere, so this runs as nobody (setpriv) when root, else as this user.
if [ "$(id -u)" -ne 0 ]; then
    as_user() { "$@"; }
    user_ok=yes
elif command -v setpriv >/dev/null 2>&1 && group=$(id -g nobody 2>/dev/null) &&
    setpriv --reuid=nobody --regid="$group" --clear-groups true 2>/dev/null; then
    as_user() { setpriv --reuid=nobody --regid="$group" --clear-groups "$@"; }
    user_ok=yes
else
    user_ok=no
fi
if [ $user_ok = yes ]; then
    udir=$(mktemp -d)
    chmod 777 "$udir"
    cp g.txt "$udir/"
    chmod 644 "$udir/g.txt"
    ULOOPY=$LOOPY
    if ! as_user "$LOOPY" --version >/dev/null 2>&1; then
        cp "$LOOPY" "$udir/loopy"
        chmod 755 "$udir/loopy"
        ULOOPY=$udir/loopy
    fi
    mkdir "$udir/locked"
    chmod 555 "$udir/locked"
    [ "$(id -u)" -ne 0 ] || chown nobody "$udir/locked"
    for c in "solve -q" "grundy -q"; do
        begin "$c -o into a folder that takes no new file names the folder"
        (cd "$udir" && as_user "$ULOOPY" $c -o locked/new.txt g.txt >"$work/.out" 2>"$work/.err")
        status=$?
        expect_status 3
        expect_out_empty
        expect_err <<EOF
loopy ${c% -q}: locked/new.txt: cannot write in the folder 'locked': Permission denied
EOF
        [ -e "$udir/locked/new.txt" ] && fail_case "a file was made"
        end_case
    done
    begin "-o ./new.txt in a locked current folder names '.'"
    (cd "$udir/locked" && as_user "$ULOOPY" solve -q -o new.txt ../g.txt >"$work/.out" 2>"$work/.err")
    status=$?
    expect_status 3
    expect_err <<EOF
loopy solve: new.txt: cannot write in the folder '.': Permission denied
EOF
    end_case

    # A file replaced by its owner keeps its mode (no umask applied).
    begin "a replaced file keeps its mode 600"
    # (Relative names: the folders above udir may be closed to nobody.)
    (cd "$udir" && as_user sh -c 'echo previous >mine.txt && chmod 600 mine.txt')
    [ "$(cat "$udir/mine.txt")" = previous ] || fail_case "mine.txt was not made"
    (cd "$udir" && as_user "$ULOOPY" solve -q -o mine.txt g.txt)
    [ "$(stat -c %a "$udir/mine.txt")" = 600 ] || fail_case "mode $(stat -c %a "$udir/mine.txt")"
    "$LOOPY" solve -q g.txt | cmp -s - "$udir/mine.txt" || fail_case "not replaced"
    end_case
    chmod 755 "$udir/locked"
    rm -rf "$udir"
else
    echo "options: not root and no setpriv: the folder cases skipped"
fi

# Replaced by root (which may set any owner), a file keeps its owner, group
# and mode, from every command that writes with -o.
if [ "$(id -u)" -eq 0 ] && group=$(id -g nobody 2>/dev/null); then
    for args in "grundy g.txt" "octal 0.77 5" "climb climb.txt" "game list"; do
        begin "loopy $args -o: the replaced file keeps owner, group and mode"
        echo previous >owned.txt
        chown nobody:"$group" owned.txt
        chmod 640 owned.txt
        run $args -q -o owned.txt
        expect_status 0
        [ "$(stat -c %u:%g:%a owned.txt)" = "$(id -u nobody):$group:640" ] ||
            fail_case "now $(stat -c %u:%g:%a owned.txt)"
        [ "$(cat owned.txt)" != previous ] || fail_case "not replaced"
        end_case
    done
fi

# The bash completion knows "help" and what it takes, and the options
# every command now has.
if command -v bash >/dev/null 2>&1; then
    begin "bash completes loopy help COMMAND and the shared options"
    bash -c '
        . "$1"
        loopy=$2
        complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _loopy; echo "${COMPREPLY[*]}"; }
        complete_words "$loopy" he
        complete_words "$loopy" help so
        complete_words "$loopy" help game pr
        complete_words "$loopy" race --f
        complete_words "$loopy" octal -
    ' sh "$root/completions/loopy.bash" "$LOOPY" >"$work/.out" 2>"$work/.err"
    expect_out <<'EOF'
help
solve
probe
--format
-f --format -o --output -q --quiet -h --help -V --version
EOF
    end_case
fi
if command -v zsh >/dev/null 2>&1; then
    begin "the zsh completion parses"
    zsh -n "$root/completions/_loopy" >"$work/.out" 2>&1 ||
        fail_case "zsh -n: $(head -c 300 "$work/.out")"
    end_case
fi

finish options
