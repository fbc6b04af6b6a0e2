/*
 * tiered.h - random games cut into tiers, for the tier solver's tests
 * (test_tiers.c, test_tier_inner.c); tests/lib/tiered.c has them.
 *
 * A game of size positions in tiers tiers, each a range of indices, with
 * random moves into the tiers each tier names (later ones; with
 * tiered_make_inner, some tiers name themselves too), random primitives,
 * and an oracle that evaluates the definition directly.  Every result is
 * a function of the generator's state.
 */
#ifndef LOOPY_TEST_TIERED_H
#define LOOPY_TEST_TIERED_H

#include "gen.h"
#include "loopy_game.h"

#include <stdbool.h>

typedef struct tiered {
    uint64_t size, tiers;
    uint64_t *start;              /* tiers + 1 */
    uint64_t *child_at, *child;   /* tier t's children */
    uint64_t *move_at, *move;     /* position p's moves */
    uint64_t *back_at, *back;     /* their reverse: p's unmoves */
    uint8_t *kind;                /* loopy_primitive */
    /* Faults to inject (0: none). */
    int fault;
} tiered;

enum {
    FAULT_NONE,
    FAULT_CYCLE,      /* the last tier names the first */
    FAULT_SELF,       /* tier 1 names itself */
    FAULT_UNNAMED,    /* tier 0 names none of its moves' tiers */
    FAULT_ORDER,      /* tier 2 starts before tier 1 */
    FAULT_FAILS,      /* tier_children of tier 1 fails */
    FAULT_RANGE       /* tier 0 names tier `tiers` */
};

/* A game of size positions in tiers tiers; moves from tier t go to the
 * tiers its children name, which lie above t.  *game is filled with
 * callbacks that read *g (which must outlive it). */
void tiered_make(tiered *g, gen_rng *r, loopy_game *game);
/* The same with moves inside some tiers (self: tier t names itself
 * with chance self_in_8 / 8), so cycles, Draws and Ties through them;
 * with unmoves, which the tier solver needs for such tiers. */
void tiered_make_inner(tiered *g, gen_rng *r, loopy_game *game,
                       unsigned self_in_8);
void tiered_free(tiered *g);
/* The oracle of a game of tiered_make (whose moves only go up):
 * reached[] from the start (or every index, with all), and each value
 * from the definition, one pass down. */
void tiered_oracle(const tiered *g, bool misere, bool all, bool *reached,
                   loopy_outcome *outcome, uint32_t *remoteness);

#endif
