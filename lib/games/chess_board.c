/*
 * chess_board.c - the board of the chess game (chess.c): its tables, the
 * materials of a game and their segments, the index, attacks, legality and
 * the board's symmetries.
 */
#include "chess.h"

#include <stdio.h>
#include <string.h>

static const char piece_letter[] = "KQRBN";

static uint64_t bit(uint32_t square)
{
    return UINT64_C(1) << square;
}

static int absolute(int x)
{
    return x < 0 ? -x : x;
}

/* ---- Tables ---- */

/* Numbers the king pairs of the index in increasing order of the black
 * king's square, then the white one's, and finds which symmetries take
 * each placement of the kings to a pair. */
static void init_pairs(chess_rules *rules)
{
    int16_t count = 0;

    for (uint32_t black = 0; black < 64; black++)
        for (uint32_t white = 0; white < 64; white++) {
            uint32_t wf = white & 7, wr = white >> 3;
            uint32_t bf = black & 7, br = black >> 3;
            bool pair = wf <= 3 && wr <= wf && white != black &&
                        (rules->king[white] & bit(black)) == 0 &&
                        (wr != wf || br <= bf);
            rules->pair_of[white][black] = pair ? count : -1;
            if (pair) {
                rules->pair_king[count][0] = (uint8_t)white;
                rules->pair_king[count][1] = (uint8_t)black;
                count++;
            }
        }
    for (uint32_t white = 0; white < 64; white++)
        for (uint32_t black = 0; black < 64; black++)
            for (uint32_t s = 0; s < 8; s++)
                if (rules->pair_of[rules->image[s][white]]
                                  [rules->image[s][black]] >= 0)
                    rules->pair_symmetries[white][black] |=
                        (uint8_t)(1u << s);
}

static void init_tables(chess_rules *rules)
{
    for (int from = 0; from < 64; from++) {
        int ff = from & 7, fr = from >> 3;
        for (int to = 0; to < 64; to++) {
            int tf = to & 7, tr = to >> 3, df = tf - ff, dr = tr - fr;
            int adf = absolute(df), adr = absolute(dr);
            uint64_t between = 0;
            if (to == from)
                continue;
            if (adf <= 1 && adr <= 1)
                rules->king[from] |= bit((uint32_t)to);
            if ((adf == 1 && adr == 2) || (adf == 2 && adr == 1))
                rules->knight[from] |= bit((uint32_t)to);
            if (df == 0 || dr == 0)
                rules->rook[from] |= bit((uint32_t)to);
            if (adf == adr)
                rules->bishop[from] |= bit((uint32_t)to);
            if (df == 0 || dr == 0 || adf == adr) {
                int step_f = (df > 0) - (df < 0), step_r = (dr > 0) - (dr < 0);
                int f = ff + step_f, r = fr + step_r;
                for (; f != tf || r != tr; f += step_f, r += step_r)
                    between |= bit((uint32_t)(r * 8 + f));
            }
            rules->between[from][to] = between;
        }
    }
    /* Symmetry s: bit 0 mirrors the files, bit 1 the ranks, bit 2 swaps
     * files and ranks (a reflection in the a1-h8 diagonal). */
    for (uint32_t s = 0; s < 8; s++)
        for (uint32_t square = 0; square < 64; square++) {
            uint32_t f = square & 7, r = square >> 3, t;
            if (s & 1)
                f = 7 - f;
            if (s & 2)
                r = 7 - r;
            if (s & 4) {
                t = f;
                f = r;
                r = t;
            }
            rules->image[s][square] = (uint8_t)(r * 8 + f);
        }
    init_pairs(rules);
}

/* ---- Materials ---- */

uint32_t chess_i_key(uint32_t count, const uint8_t *colour,
                     const uint8_t *kind)
{
    uint32_t key = 0;

    for (uint32_t i = 0; i < count; i++)
        if (kind[i] != CHESS_KING)
            key += UINT32_C(1) << (2 * (colour[i] * 4 + kind[i] - 1));
    return key;
}

uint32_t chess_i_find_material(const chess_rules *rules, uint32_t key)
{
    for (uint32_t m = 0; m < rules->material_count; m++)
        if (rules->material[m].key == key)
            return m;
    return UINT32_MAX;
}

/* Sets material *m from its key: the slots in order, its name, dead. */
static void material_from_key(chess_material *m, uint32_t key)
{
    uint32_t n = 2, minors = 0, others = 0;
    size_t len = 0;

    memset(m, 0, sizeof *m);
    m->key = key;
    m->colour[0] = CHESS_WHITE;
    m->colour[1] = CHESS_BLACK;
    m->kind[0] = m->kind[1] = CHESS_KING;
    for (uint32_t colour = 0; colour < 2; colour++) {
        m->name[len++] = 'K';
        for (uint32_t kind = CHESS_QUEEN; kind <= CHESS_KNIGHT; kind++) {
            uint32_t times = key >> (2 * (colour * 4 + kind - 1)) & 3;
            for (uint32_t t = 0; t < times; t++) {
                m->colour[n] = (uint8_t)colour;
                m->kind[n++] = (uint8_t)kind;
                m->name[len++] = piece_letter[kind];
                if (kind == CHESS_BISHOP || kind == CHESS_KNIGHT)
                    minors++;
                else
                    others++;
            }
        }
    }
    m->name[len] = '\0';
    m->count = n;
    for (uint32_t i = 3; i < n; i++)
        if (m->colour[i] == m->colour[i - 1] && m->kind[i] == m->kind[i - 1])
            m->equal |= (uint8_t)(1u << i);
    m->dead = others == 0 && minors <= 1;
}

void chess_i_rules_init(chess_rules *rules, const char *white,
                        const char *black)
{
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint32_t extra = 0;
    loopy_position offset = 0;

    init_tables(rules);
    for (uint32_t side = 0; side < 2; side++)
        for (const char *p = side == 0 ? white : black; *p != '\0'; p++) {
            colour[extra] = (uint8_t)side;
            kind[extra++] = (uint8_t)(strchr(piece_letter, *p) - piece_letter);
        }
    /* Every subset of the extra pieces, largest first, each material once
     * (two equal pieces give one material with one of them). */
    rules->material_count = 0;
    for (uint32_t size = extra + 1; size-- > 0;)
        for (uint32_t subset = 0; subset < (UINT32_C(1) << extra); subset++) {
            uint8_t c[CHESS_MAX_PIECES], k[CHESS_MAX_PIECES];
            uint32_t n = 0, key;
            for (uint32_t i = 0; i < extra; i++)
                if (subset >> i & 1) {
                    c[n] = colour[i];
                    k[n++] = kind[i];
                }
            if (n != size)
                continue;
            key = chess_i_key(n, c, k);
            if (chess_i_find_material(rules, key) != UINT32_MAX)
                continue;
            material_from_key(&rules->material[rules->material_count], key);
            rules->material[rules->material_count].offset = offset;
            offset += UINT64_C(2) * CHESS_KING_PAIRS << (6 * n);
            rules->material_count++;
        }
    rules->size = offset;
    for (uint32_t m = 0; m < rules->material_count; m++)
        for (uint32_t c = 0; c < 2; c++)
            for (uint32_t k = CHESS_QUEEN; k <= CHESS_KNIGHT; k++) {
                uint32_t more = chess_i_find_material(
                    rules, rules->material[m].key +
                               (UINT32_C(1) << (2 * (c * 4 + k - 1))));
                rules->material[m].uncapture[c][k] =
                    (uint8_t)(more == UINT32_MAX ? CHESS_NONE : more);
            }
    memcpy(rules->params, rules->material[0].name, sizeof rules->params);
}

/* ---- The index ---- */

void chess_i_lay_out(const chess_rules *rules, uint32_t m, uint32_t side,
                     const uint8_t *colour, const uint8_t *kind,
                     const uint8_t *square, chess_board *out)
{
    const chess_material *material = &rules->material[m];
    bool used[CHESS_MAX_PIECES + 1] = {false};

    out->material = m;
    out->count = material->count;
    out->side = side;
    for (uint32_t s = 0; s < material->count; s++) {
        uint32_t j = 0;
        while (used[j] || colour[j] != material->colour[s] ||
               kind[j] != material->kind[s])
            j++;
        used[j] = true;
        out->colour[s] = colour[j];
        out->kind[s] = kind[j];
        out->square[s] = square[j];
    }
}


void chess_i_decode(const chess_rules *rules, loopy_position pos,
                    chess_board *board)
{
    uint32_t m = 0, others, pair;
    const chess_material *material;
    loopy_position local;

    while (m + 1 < rules->material_count &&
           rules->material[m + 1].offset <= pos)
        m++;
    material = &rules->material[m];
    local = pos - material->offset;
    others = material->count - 2;
    pair = (uint32_t)(local >> (6 * others));
    board->material = m;
    board->count = material->count;
    board->side = pair / CHESS_KING_PAIRS;
    pair %= CHESS_KING_PAIRS;
    for (uint32_t i = 0; i < material->count; i++) {
        board->colour[i] = material->colour[i];
        board->kind[i] = material->kind[i];
    }
    board->square[0] = rules->pair_king[pair][0];
    board->square[1] = rules->pair_king[pair][1];
    for (uint32_t i = 0; i < others; i++)
        board->square[2 + i] = (uint8_t)(local >> (6 * i) & 63);
}

/* Sorts each run of equal pieces' squares (equal: the material's bits). */
static void sort_equal(uint8_t *square, uint32_t count, uint32_t equal)
{
    for (uint32_t i = 3; i < count; i++)
        for (uint32_t j = i; (equal >> j & 1) && square[j] < square[j - 1];
             j--) {
            uint8_t t = square[j];
            square[j] = square[j - 1];
            square[j - 1] = t;
        }
}

void chess_i_normalize(chess_board *board)
{
    /* Equal pieces sit side by side in the slots. */
    uint32_t equal = 0;

    for (uint32_t i = 3; i < board->count; i++)
        if (board->kind[i] == board->kind[i - 1] &&
            board->colour[i] == board->colour[i - 1])
            equal |= 1u << i;
    sort_equal(board->square, board->count, equal);
}

loopy_position chess_i_encode(const chess_rules *rules,
                              const chess_board *board)
{
    const chess_material *material = &rules->material[board->material];
    uint32_t symmetries =
        rules->pair_symmetries[board->square[0]][board->square[1]];
    uint32_t n = board->count, shift = 6 * (n - 2);
    loopy_position least = UINT64_MAX;

    /* Usually one symmetry places the kings; two or more when both stand
     * on a diagonal, and then the other pieces decide. */
    for (; symmetries != 0; symmetries &= symmetries - 1) {
        const uint8_t *image = rules->image[chess_i_lowest(symmetries)];
        uint8_t square[CHESS_MAX_PIECES];
        loopy_position local = 0;
        for (uint32_t i = 0; i < n; i++)
            square[i] = image[board->square[i]];
        sort_equal(square, n, material->equal);
        for (uint32_t i = n; i-- > 2;)
            local = local << 6 | square[i];
        local |= (loopy_position)(board->side * CHESS_KING_PAIRS +
                                  (uint32_t)rules->pair_of[square[0]]
                                                          [square[1]])
                 << shift;
        if (local < least)
            least = local;
    }
    /* Kings next to each other have no index: past the end, which the
     * solvers refuse (callers test legality first). */
    if (least == UINT64_MAX)
        return rules->size;
    return material->offset + least;
}

/* ---- Attacks ---- */

uint64_t chess_i_occupied(const chess_board *board)
{
    uint64_t occ = 0;

    for (uint32_t i = 0; i < board->count; i++)
        occ |= bit(board->square[i]);
    return occ;
}

/* Whether a piece of kind on from attacks to, with occ occupied. */
static bool attacks(const chess_rules *rules, uint32_t kind, uint32_t from,
                    uint32_t to, uint64_t occ)
{
    uint64_t lines = 0;

    switch (kind) {
    case CHESS_KING:
        return (rules->king[from] & bit(to)) != 0;
    case CHESS_KNIGHT:
        return (rules->knight[from] & bit(to)) != 0;
    case CHESS_QUEEN:
        lines = rules->rook[from] | rules->bishop[from];
        break;
    case CHESS_ROOK:
        lines = rules->rook[from];
        break;
    default:
        lines = rules->bishop[from];
        break;
    }
    return (lines & bit(to)) != 0 && (rules->between[from][to] & occ) == 0;
}

bool chess_i_attacked(const chess_rules *rules, const chess_board *board,
                      uint32_t target, uint32_t colour, uint64_t occ)
{
    for (uint32_t i = 0; i < board->count; i++)
        if (board->colour[i] == colour && board->square[i] != target &&
            attacks(rules, board->kind[i], board->square[i], target, occ))
            return true;
    return false;
}

uint64_t chess_i_reach(const chess_rules *rules, const chess_board *board,
                       uint32_t i, uint64_t occ)
{
    uint32_t from = board->square[i];
    uint64_t lines, reach = 0;

    switch (board->kind[i]) {
    case CHESS_KING:
        return rules->king[from];
    case CHESS_KNIGHT:
        return rules->knight[from];
    case CHESS_QUEEN:
        lines = rules->rook[from] | rules->bishop[from];
        break;
    case CHESS_ROOK:
        lines = rules->rook[from];
        break;
    default:
        lines = rules->bishop[from];
        break;
    }
    for (; lines != 0; lines &= lines - 1) {
        uint32_t to = chess_i_lowest(lines);
        if ((rules->between[from][to] & occ) == 0)
            reach |= bit(to);
    }
    return reach;
}

/* ---- Legality ---- */

bool chess_i_board_legal(const chess_rules *rules, const chess_board *board,
                         char *why, size_t why_capacity)
{
    uint64_t occ = 0;
    uint32_t waiting = 1 - board->side;

    for (uint32_t i = 0; i < board->count; i++) {
        if (occ & bit(board->square[i])) {
            if (why != NULL)
                snprintf(why, why_capacity, "two pieces on one square");
            return false;
        }
        occ |= bit(board->square[i]);
        /* Two equal pieces are one position: the index counts only the
         * order with the lower square first. */
        if (i > 2 && board->kind[i] == board->kind[i - 1] &&
            board->colour[i] == board->colour[i - 1] &&
            board->square[i] < board->square[i - 1])
            return false;
    }
    if (rules->king[board->square[0]] & bit(board->square[1])) {
        if (why != NULL)
            snprintf(why, why_capacity, "the kings stand next to each other");
        return false;
    }
    if (chess_i_attacked(rules, board, board->square[waiting], board->side,
                         occ)) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "%s is in check with %s to move",
                     waiting == CHESS_WHITE ? "white" : "black",
                     board->side == CHESS_WHITE ? "white" : "black");
        return false;
    }
    return true;
}

