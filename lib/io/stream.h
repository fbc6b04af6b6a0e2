/*
 * stream.h - the library's loopy_source: a token reader over a file read in
 * chunks (or over bytes in memory) that knows each token's line and column.
 * Tokens are separated by any white space, newlines included; there are no
 * comments, as in contest inputs.
 */
#ifndef LOOPY_STREAM_H
#define LOOPY_STREAM_H

#include "scan.h"

/* Reads the next token as a whole number in [min, max].  what names it for
 * the message "expected WHAT, found ..." (at the token, or at the end of the
 * input).  Returns LOOPY_EPARSE, or LOOPY_EIO after a read error. */
loopy_status loopy_i_source_uint(loopy_source *s, uint64_t min, uint64_t max,
                                 uint64_t *value, const char *what,
                                 loopy_diag *diag);

/* Requires the end of the input (only white space left). */
loopy_status loopy_i_source_end(loopy_source *s, const char *what,
                                loopy_diag *diag);

/* Line and column of the token read last (for later complaints about it). */
void loopy_i_source_where(const loopy_source *s, uint64_t *line,
                          uint64_t *column);

#endif
