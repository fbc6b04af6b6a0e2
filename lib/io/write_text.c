/* write_text.c - loopy_write_text: a graph in one of the text formats. */
#include "../core/internal.h"

/* Bytes gathered before each call of the writer. */
#define OUT_BYTES ((size_t)1 << 16)
/* The longest piece added at once: two numbers of 20 digits and 3 bytes. */
#define PIECE_BYTES 48

typedef struct text_out {
    loopy_write_fn write;
    void *ctx;
    size_t len;
    bool failed;
    char buf[OUT_BYTES];
} text_out;

static void flush(text_out *o)
{
    if (o->len > 0 && !o->failed && o->write(o->ctx, o->buf, o->len) != 0)
        o->failed = true;
    o->len = 0;
}

/* Appends value in decimal, then the byte after. */
static void put_number(text_out *o, uint64_t value, char after)
{
    char digits[20];
    size_t k = 0;

    if (OUT_BYTES - o->len < PIECE_BYTES)
        flush(o);
    do {
        digits[k++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (k > 0)
        o->buf[o->len++] = digits[--k];
    o->buf[o->len++] = after;
}

/* Whether some edge touches vertex v: then a list without a header, whose
 * n is the largest id + 1, keeps every vertex up to v. */
static bool on_an_edge(const loopy_graph *g, loopy_vertex v)
{
    loopy_edge count;

    if (loopy_graph_out_degree(g, v) > 0)
        return true;
    for (loopy_vertex u = 0; u < g->n; u++) {
        const loopy_vertex *succ = loopy_graph_successors(g, u, &count);
        for (loopy_edge i = 0; i < count; i++)
            if (succ[i] == v)
                return true;
    }
    return false;
}

loopy_status loopy_write_text(const loopy_graph *graph, loopy_text_format format,
                              uint32_t base, loopy_write_fn write, void *ctx)
{
    text_out *o;
    loopy_status status;

    if (graph == NULL || write == NULL || base > 1 ||
        !loopy_graph_has_successors(graph) ||
        (format != LOOPY_TEXT_EDGES && format != LOOPY_TEXT_ADJ &&
         format != LOOPY_TEXT_PAIRS))
        return LOOPY_EINVAL;
    if (format == LOOPY_TEXT_PAIRS && graph->n > 0 &&
        !on_an_edge(graph, graph->n - 1))
        return LOOPY_EINVAL;
    o = loopy_i_malloc(1, sizeof *o);
    if (o == NULL)
        return LOOPY_ENOMEM;
    o->write = write;
    o->ctx = ctx;
    o->len = 0;
    o->failed = false;
    if (format != LOOPY_TEXT_PAIRS) {
        put_number(o, graph->n, ' ');
        put_number(o, graph->m, '\n');
    }
    for (loopy_vertex u = 0; u < graph->n && !o->failed; u++) {
        loopy_edge count;
        const loopy_vertex *succ = loopy_graph_successors(graph, u, &count);

        if (format == LOOPY_TEXT_ADJ) {
            put_number(o, count, count > 0 ? ' ' : '\n');
            for (loopy_edge i = 0; i < count; i++)
                put_number(o, (uint64_t)succ[i] + base,
                           i + 1 < count ? ' ' : '\n');
            continue;
        }
        for (loopy_edge i = 0; i < count; i++) {
            put_number(o, (uint64_t)u + base, ' ');
            put_number(o, (uint64_t)succ[i] + base, '\n');
        }
    }
    flush(o);
    status = o->failed ? LOOPY_EIO : LOOPY_OK;
    loopy_i_free(o);
    return status;
}
