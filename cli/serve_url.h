/*
 * serve_url.h - the parts of "loopy serve" that read what a request sends
 * before any game sees it, with no HTTP library: URL decoding and the
 * Host header's check.  Pure functions, fuzzed by fuzz/serve_url.c.
 */
#ifndef LOOPY_CLI_SERVE_URL_H
#define LOOPY_CLI_SERVE_URL_H

#include <stdbool.h>
#include <stddef.h>

/* Decodes the NUL-terminated s in place: "%XX" (two hexadecimal digits,
 * either case) becomes its byte and '+' a space; a '%' not followed by two
 * hexadecimal digits stays as it is.  Returns the decoded length, which
 * may be less than strlen(s) afterwards when a "%00" was decoded. */
size_t serve_url_decode(char *s);

/* Whether a request whose Host header is host (NULL: none sent) may be
 * answered by a server on this machine's loopback address: none sent
 * (HTTP/1.0), or localhost, an address 127.x.y.z or [::1], with or
 * without a port.  A page of another site that a browser reaches through a
 * name made to point here (DNS rebinding) sends its own name, and is
 * refused. */
bool serve_host_is_loopback(const char *host);

#endif
