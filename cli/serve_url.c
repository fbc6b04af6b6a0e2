/* serve_url.c - URL decoding and the Host header's check of "loopy
 * serve" (serve_url.h), apart from libmicrohttpd so that a fuzzer can
 * reach them. */
#include "serve_url.h"

#include <string.h>
#include <strings.h>

/* The value of the hexadecimal digit c, or -1. */
static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t serve_url_decode(char *s)
{
    char *out = s;
    const char *in = s;

    while (*in != '\0') {
        int hi, lo;
        if (*in == '+') {
            *out++ = ' ';
            in++;
        } else if (*in == '%' && (hi = hex_digit(in[1])) >= 0 &&
                   (lo = hex_digit(in[2])) >= 0) {
            /* in[1] is a digit, so not the end: in[2] may be read. */
            *out++ = (char)(hi * 16 + lo);
            in += 3;
        } else {
            *out++ = *in++;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}

/* Whether s[0 .. len) is ":" and 1 to 5 digits, or empty. */
static bool port_part(const char *s, size_t len)
{
    if (len == 0)
        return true;
    if (s[0] != ':' || len < 2 || len > 6)
        return false;
    return strspn(s + 1, "0123456789") >= len - 1;
}

/* Whether s[0 .. len) is "127." and three numbers of 1 to 3 digits, each
 * at most 255, joined by dots. */
static bool loopback_ipv4(const char *s, size_t len)
{
    size_t i = 4;

    if (len < 4 || memcmp(s, "127.", 4) != 0)
        return false;
    for (int part = 0; part < 3; part++) {
        unsigned value = 0, digits = 0;
        if (part > 0) {
            if (i >= len || s[i] != '.')
                return false;
            i++;
        }
        while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 4) {
            value = value * 10 + (unsigned)(s[i] - '0');
            digits++;
            i++;
        }
        if (digits == 0 || digits > 3 || value > 255)
            return false;
    }
    return i == len;
}

bool serve_host_is_loopback(const char *host)
{
    size_t len, name;

    if (host == NULL)
        return true;
    len = strlen(host);
    if (len > 0 && host[0] == '[') {
        static const char v6[] = "[::1]";
        return len >= sizeof v6 - 1 && memcmp(host, v6, sizeof v6 - 1) == 0 &&
               port_part(host + sizeof v6 - 1, len - (sizeof v6 - 1));
    }
    name = strcspn(host, ":");
    if (!port_part(host + name, len - name))
        return false;
    /* Names are case-blind; a final dot names the same host. */
    if (name > 0 && host[name - 1] == '.')
        name--;
    if (name == 9 && strncasecmp(host, "localhost", 9) == 0)
        return true;
    return loopback_ipv4(host, name);
}
