# bash completion for loopy.  Installed by "make install" as
# PREFIX/share/bash-completion/completions/loopy; to try it from the source
# tree: source completions/loopy.bash
#
# The commands, the actions of "loopy game" and each command's options are
# read from "loopy --help" and "loopy COMMAND --help" of the program being
# completed, so they always match it; only the values of a few options and
# "loopy help COMMAND" are written here.

# The words of a help text that are commands or actions: lines
# "  NAME   description" (two spaces, a name, two or more spaces).
_loopy_names() {
    sed -n -E 's/^  ([a-z][a-z0-9]*)  .*/\1/p'
}

# The options of a help text: "  -i, --input FORMAT  ..." and
# "      --base B  ..." give -i, --input and --base; a line
# "Options: -h, --help ...;  -V, --version ..." gives -h, --help, -V, --version.
_loopy_options() {
    sed -n -E -e 's/^ {2,6}(-[A-Za-z0-9]), (--[a-z][a-z0-9-]*).*/\1 \2/p' \
        -e 's/^ {2,6}(--[a-z][a-z0-9-]*).*/\1/p' \
        -e '/^Options: -/{s/[^-]*(--?[A-Za-z][A-Za-z-]*)[^-]*/\1 /g;p;}'
}

_loopy() {
    local cur prev prog cmd action i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    prog=${COMP_WORDS[0]}
    COMPREPLY=()

    # The command, and for "game" its action: the first words that are not
    # options.
    cmd= action=
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) if [[ -z $cmd ]]; then cmd=${COMP_WORDS[i]}
           elif [[ $cmd == game && -z $action ]]; then action=${COMP_WORDS[i]}
           fi ;;
        esac
    done

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null | _loopy_options)" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null | _loopy_names) help" -- "$cur"))
        fi
        return 0
    fi

    # "loopy help COMMAND", "loopy help game ACTION".
    if [[ $cmd == help ]]; then
        local -a named=()
        for ((i = 1; i < COMP_CWORD; i++)); do
            [[ ${COMP_WORDS[i]} == -* ]] || named+=("${COMP_WORDS[i]}")
        done
        if [[ ${#named[@]} -eq 1 ]]; then
            COMPREPLY=($(compgen -W "$("$prog" --help 2>/dev/null | _loopy_names)" -- "$cur"))
        elif [[ ${#named[@]} -eq 2 && ${named[1]} == game ]]; then
            COMPREPLY=($(compgen -W "$("$prog" game --help 2>/dev/null | _loopy_names)" -- "$cur"))
        fi
        return 0
    fi

    # The value of an option.
    case $prev in
    -i | --input)
        COMPREPLY=($(compgen -W 'edges adj pairs' -- "$cur")); return 0 ;;
    -f | --format)
        if [[ $cmd == solve ]]; then
            COMPREPLY=($(compgen -W 'text json dot ldb' -- "$cur"))
        elif [[ $cmd == convert ]]; then
            COMPREPLY=($(compgen -W 'binary edges adj pairs' -- "$cur"))
        elif [[ $cmd == game && $action == probe ]]; then
            COMPREPLY=($(compgen -W 'text json dot' -- "$cur"))
        else
            COMPREPLY=($(compgen -W 'text json' -- "$cur"))
        fi
        return 0 ;;
    --base)
        COMPREPLY=($(compgen -W '0 1' -- "$cur")); return 0 ;;
    --solver)
        COMPREPLY=($(compgen -W 'graph retro tier tablebase' -- "$cur")); return 0 ;;
    --positions)
        COMPREPLY=($(compgen -W 'auto every reachable sample walks' -- "$cur")); return 0 ;;
    --strategy)
        COMPREPLY=($(compgen -W 'auto lanes local full' -- "$cur")); return 0 ;;
    -o | --output | --game)
        COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return 0 ;;
    --tables)
        COMPREPLY=($(compgen -d -- "$cur")); compopt -o filenames 2>/dev/null; return 0 ;;
    -t | --threads | --limit | --seed | --lose-at | --win-at | --tie-at)
        return 0 ;;
    esac

    if [[ $cmd == game && -z $action && $cur != -* ]]; then
        COMPREPLY=($(compgen -W "$("$prog" game --help 2>/dev/null | _loopy_names)" -- "$cur"))
        return 0
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$("$prog" "$cmd" --help 2>/dev/null | _loopy_options)" -- "$cur"))
        return 0
    fi
    if [[ $cmd == game && $action != list ]]; then
        # A built-in game (the names "loopy game list" prints alone on a
        # line), a database or a shared object.
        COMPREPLY=($(compgen -W "$("$prog" game list 2>/dev/null |
            sed -n -E 's/^([a-z0-9_-]+)$/\1/p')" -- "$cur"))
    fi
    COMPREPLY+=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
    return 0
}
complete -F _loopy loopy
