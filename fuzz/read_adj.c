/* read_adj.c - fuzz the adjacency-list reader (LOOPY_TEXT_ADJ): base 0 and
 * 1, with and without trailing text, round trip; see fuzz_text_reader. */
#include "fuzz.h"

FUZZ_TARGET(read_adj)
{
    fuzz_text_reader(data, size, LOOPY_TEXT_ADJ);
    return 0;
}
