/*
 * serve_assets.h - the web page's files built into 'loopy serve': the
 * table that web/embed.sh generates from web/ at build time (the
 * Makefile's $(BUILD)/gen/web_assets.c), read by cli/serve.c.
 */
#ifndef LOOPY_CLI_SERVE_ASSETS_H
#define LOOPY_CLI_SERVE_ASSETS_H

#include <stddef.h>

typedef struct serve_asset {
    const char *path;           /* "/app.js" */
    const char *type;           /* "text/javascript; charset=utf-8" */
    const unsigned char *bytes; /* size bytes, then a 0 */
    size_t size;
} serve_asset;

extern const serve_asset serve_assets[];
extern const size_t serve_asset_count;

#endif
