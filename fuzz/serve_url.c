/*
 * serve_url.c - fuzz what "loopy serve" reads of a request before any game
 * sees it (cli/serve_url.c): the URL decoder and the Host header's check.
 * The input, cut at its first NUL byte as a C string arrives, is both.
 *
 * A reference decoder here, written as a table of each byte's fate, must
 * give the same bytes and length, never more than the input's; the
 * reference Host check splits the name into its dotted parts and must
 * agree.  The sanitizers watch both for reads past the string.
 */
#include "fuzz.h"
#include "../cli/serve_url.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int hex_value(unsigned char c)
{
    const char *digits = "0123456789abcdef";
    const char *at = c != '\0' ? strchr(digits, tolower(c)) : NULL;
    return at != NULL ? (int)(at - digits) : -1;
}

/* The decoding of in[0 .. len) into out; returns its length. */
static size_t reference_decode(const char *in, size_t len, char *out)
{
    size_t n = 0;

    for (size_t i = 0; i < len; i++) {
        if (in[i] == '%' && i + 2 < len && hex_value((unsigned char)in[i + 1]) >= 0 &&
            hex_value((unsigned char)in[i + 2]) >= 0) {
            out[n++] = (char)(hex_value((unsigned char)in[i + 1]) * 16 +
                              hex_value((unsigned char)in[i + 2]));
            i += 2;
        } else {
            out[n++] = in[i] == '+' ? ' ' : in[i];
        }
    }
    return n;
}

/* Whether s[0 .. len) is 1 to max decimal digits. */
static bool digits(const char *s, size_t len, size_t max)
{
    if (len == 0 || len > max)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool reference_host(const char *host)
{
    const char *colon, *name_end, *part;
    char name[64];
    size_t len;
    int parts = 0;

    if (host[0] == '[') {
        if (strncmp(host, "[::1]", 5) != 0)
            return false;
        return host[5] == '\0' ||
               (host[5] == ':' && digits(host + 6, strlen(host + 6), 5));
    }
    colon = strchr(host, ':');
    name_end = colon != NULL ? colon : host + strlen(host);
    if (colon != NULL && !digits(colon + 1, strlen(colon + 1), 5))
        return false;
    len = (size_t)(name_end - host);
    if (len > 0 && host[len - 1] == '.')
        len--;
    if (len >= sizeof name)
        return false;
    for (size_t i = 0; i < len; i++)
        name[i] = (char)tolower((unsigned char)host[i]);
    name[len] = '\0';
    if (strcmp(name, "localhost") == 0)
        return true;
    part = name;
    for (;;) {
        size_t plen = strcspn(part, ".");
        if (!digits(part, plen, 3) || atoi(part) > 255 ||
            (parts == 0 && (plen != 3 || strncmp(part, "127", 3) != 0)))
            return false;
        parts++;
        if (part[plen] == '\0')
            break;
        part += plen + 1;
    }
    return parts == 4;
}

FUZZ_TARGET(serve_url)
{
    size_t len = strnlen((const char *)data, size);
    /* Exactly len + 1 bytes, so that the sanitizers see a read past it. */
    char *s = malloc(len + 1), *want = malloc(len + 1);
    size_t got, expected;
    bool loopback;

    FUZZ_REQUIRE(s != NULL && want != NULL, "out of memory");
    memcpy(s, data, len);
    s[len] = '\0';
    loopback = serve_host_is_loopback(s);
    FUZZ_REQUIRE(loopback == reference_host(s), "Host '%s': %d", s,
                 (int)loopback);
    expected = reference_decode(s, len, want);
    got = serve_url_decode(s);
    FUZZ_REQUIRE(got == expected && memcmp(s, want, got) == 0 &&
                     s[got] == '\0',
                 "decoded %zu bytes, the reference %zu", got, expected);
    FUZZ_REQUIRE(serve_host_is_loopback(NULL), "no Host refused");
    free(s);
    free(want);
    return 0;
}
