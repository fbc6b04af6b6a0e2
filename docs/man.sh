#!/bin/sh
# docs/man.sh PAGE.md: the man page (roff) of PAGE.md on standard output,
# by pandoc (Debian's pandoc; "make man" writes docs/loopy.1 with it).
#  - markdown-smart: "--misere" stays two hyphens, not an en dash;
#  - -raw_tex: "\x89" and "\r" are text, not TeX commands to drop;
#  - every "-" becomes "\-", the hyphen-minus of an option as it is typed
#    (groff may render a plain "-" as a hyphen, U+2010, and break a line
#    after it), except in comment lines;
#  - no hyphenation (.nh): file names and options are not broken.
set -eu
[ $# -eq 1 ] || { echo "usage: docs/man.sh PAGE.md" >&2; exit 2; }
roff=$(pandoc --standalone --from markdown-smart-raw_tex --to man "$1")
printf '%s\n' "$roff" |
    sed -e 's/^\.hy$/.nh/' -e '/^\.\\"/!{' -e 's/\\-/-/g' -e 's/-/\\-/g' -e '}'
