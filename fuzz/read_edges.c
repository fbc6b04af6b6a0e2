/* read_edges.c - fuzz the edge-list reader (LOOPY_TEXT_EDGES): base 0 and 1,
 * with and without trailing text, round trip; see fuzz_text_reader. */
#include "fuzz.h"

FUZZ_TARGET(read_edges)
{
    fuzz_text_reader(data, size, LOOPY_TEXT_EDGES);
    return 0;
}
