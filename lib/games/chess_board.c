/*
 * chess_board.c - the board of the chess game (chess.c): its tables, the
 * materials of a game and their segments, the index, attacks, legality and
 * the board's symmetries.
 */
#include "chess.h"

#include <stdio.h>
#include <string.h>

static const char piece_letter[] = "KQRBNP";

static uint64_t bit(uint32_t square)
{
    return UINT64_C(1) << square;
}

static int absolute(int x)
{
    return x < 0 ? -x : x;
}

/* ---- Tables ---- */

/* Numbers the placements of the kings that pair() accepts, in increasing
 * order of the black king's square, then the white one's, into pair_of
 * (-1 for the others) and king (the squares of each, white's first). */
static void number_pairs(const chess_rules *rules,
                         bool (*pair)(uint32_t white, uint32_t black),
                         int16_t pair_of[64][64], uint8_t (*king)[2])
{
    int16_t count = 0;

    for (uint32_t black = 0; black < 64; black++)
        for (uint32_t white = 0; white < 64; white++) {
            bool is = white != black &&
                      (rules->king[white] & bit(black)) == 0 &&
                      pair(white, black);
            pair_of[white][black] = is ? count : -1;
            if (is) {
                king[count][0] = (uint8_t)white;
                king[count][1] = (uint8_t)black;
                count++;
            }
        }
}

/* Without pawns: the white king in the triangle a1-d1-d4, the black king
 * on or below the a1-h8 diagonal when the white one is on it. */
static bool pawnless_pair(uint32_t white, uint32_t black)
{
    uint32_t wf = white & 7, wr = white >> 3;

    return wf <= 3 && wr <= wf && (wr != wf || (black >> 3) <= (black & 7));
}

/* With pawns: the white king on files a to d. */
static bool pawn_pair(uint32_t white, uint32_t black)
{
    (void)black;
    return (white & 7) <= 3;
}

/* The king pairs of both kinds of index, and which symmetries take each
 * placement of the kings to a pair without pawns. */
static void init_pairs(chess_rules *rules)
{
    number_pairs(rules, pawnless_pair, rules->pair_of, rules->pair_king);
    number_pairs(rules, pawn_pair, rules->pawn_pair_of,
                 rules->pawn_pair_king);
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
            /* A pawn takes one square forward on a file beside its own. */
            if (adf == 1 && dr == 1)
                rules->pawn_attack[CHESS_WHITE][from] |= bit((uint32_t)to);
            if (adf == 1 && dr == -1)
                rules->pawn_attack[CHESS_BLACK][from] |= bit((uint32_t)to);
            if (df == 0 || dr == 0 || adf == adr) {
                int step_f = (df > 0) - (df < 0), step_r = (dr > 0) - (dr < 0);
                int f = ff + step_f, r = fr + step_r;
                for (; f != tf || r != tr; f += step_f, r += step_r)
                    between |= bit((uint32_t)(r * 8 + f));
            }
            rules->between[from][to] = between;
        }
    }
    {
        /* File and rank steps: N, S, E, W, NE, SW, NW, SE. */
        static const int step[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0},
                                       {1, 1}, {-1, -1}, {-1, 1}, {1, -1}};
        for (int d = 0; d < 8; d++)
            for (int from = 0; from < 64; from++) {
                int f = (from & 7) + step[d][0], r = (from >> 3) + step[d][1];
                for (; f >= 0 && f < 8 && r >= 0 && r < 8;
                     f += step[d][0], r += step[d][1])
                    rules->ray[d][from] |= bit((uint32_t)(r * 8 + f));
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

uint32_t chess_i_key_bit(uint32_t colour, uint32_t kind)
{
    /* 2 bits for each colour and kind: Q, R, B, N of white, then of
     * black, then white's and black's pawns (so that a pawnless material
     * keeps the key it had before pawns). */
    return kind == CHESS_PAWN ? UINT32_C(1) << (2 * (8 + colour))
                              : UINT32_C(1) << (2 * (colour * 4 + kind - 1));
}

/* How many pieces of colour and kind the key has. */
static uint32_t key_count(uint32_t key, uint32_t colour, uint32_t kind)
{
    return key / chess_i_key_bit(colour, kind) & 3;
}

uint32_t chess_i_key(uint32_t count, const uint8_t *colour,
                     const uint8_t *kind)
{
    uint32_t key = 0;

    for (uint32_t i = 0; i < count; i++)
        if (kind[i] != CHESS_KING)
            key += chess_i_key_bit(colour[i], kind[i]);
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
    static const uint8_t slot_kind[] = {CHESS_QUEEN, CHESS_ROOK, CHESS_BISHOP,
                                        CHESS_KNIGHT};
    uint32_t n = 2, minors = 0, others = 0;
    size_t len = 0;

    memset(m, 0, sizeof *m);
    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t k = 0; k < 6; k++)
            m->uncapture[c][k] = m->capture[c][k] = m->promote[c][k] =
                CHESS_NONE;
    m->key = key;
    m->colour[0] = CHESS_WHITE;
    m->colour[1] = CHESS_BLACK;
    m->kind[0] = m->kind[1] = CHESS_KING;
    /* Slots: the kings, the pawns, then the other pieces. */
    for (uint32_t colour = 0; colour < 2; colour++) {
        m->pawns[colour] = key_count(key, colour, CHESS_PAWN);
        for (uint32_t t = 0; t < m->pawns[colour]; t++) {
            m->colour[n] = (uint8_t)colour;
            m->kind[n++] = CHESS_PAWN;
            others++;
        }
    }
    for (uint32_t colour = 0; colour < 2; colour++)
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t times = key_count(key, colour, slot_kind[k]);
            for (uint32_t t = 0; t < times; t++) {
                m->colour[n] = (uint8_t)colour;
                m->kind[n++] = slot_kind[k];
                if (slot_kind[k] == CHESS_BISHOP ||
                    slot_kind[k] == CHESS_KNIGHT)
                    minors++;
                else
                    others++;
            }
        }
    /* The name: each side's king, its pieces Q R B N, then its pawns. */
    for (uint32_t colour = 0; colour < 2; colour++) {
        m->name[len++] = 'K';
        for (uint32_t kind = CHESS_QUEEN; kind <= CHESS_PAWN; kind++)
            for (uint32_t t = key_count(key, colour, kind); t > 0; t--)
                m->name[len++] = piece_letter[kind];
    }
    m->name[len] = '\0';
    m->count = n;
    for (uint32_t i = 3; i < n; i++)
        if (m->colour[i] == m->colour[i - 1] && m->kind[i] == m->kind[i - 1])
            m->equal |= (uint8_t)(1u << i);
    m->dead = others == 0 && minors <= 1;
}

/* Adds the material of key to the rules unless it is there. */
static void add_material(chess_rules *rules, uint32_t key)
{
    if (chess_i_find_material(rules, key) == UINT32_MAX)
        material_from_key(&rules->material[rules->material_count++], key);
}

/* Every material of the game with pawns: what captures and promotions
 * reach from the game's own, ordered by count of pieces, then of pawns,
 * largest first (a move never leads to an earlier material). */
static void reach_materials(chess_rules *rules, uint32_t key)
{
    rules->material_count = 0;
    add_material(rules, key);
    for (uint32_t m = 0; m < rules->material_count; m++) {
        uint32_t from = rules->material[m].key;
        for (uint32_t c = 0; c < 2; c++)
            for (uint32_t k = CHESS_QUEEN; k <= CHESS_PAWN; k++) {
                if (key_count(from, c, k) == 0)
                    continue;
                add_material(rules, from - chess_i_key_bit(c, k));
                if (k == CHESS_PAWN)
                    for (uint32_t p = CHESS_QUEEN; p <= CHESS_KNIGHT; p++)
                        add_material(rules, from - chess_i_key_bit(c, k) +
                                                chess_i_key_bit(c, p));
            }
    }
    /* Insertion sort: at most 286 materials, once. */
    for (uint32_t i = 1; i < rules->material_count; i++)
        for (uint32_t j = i; j > 0; j--) {
            const chess_material *a = &rules->material[j - 1],
                                 *b = &rules->material[j];
            uint32_t pa = a->pawns[0] + a->pawns[1];
            uint32_t pb = b->pawns[0] + b->pawns[1];
            chess_material t;
            if (a->count > b->count || (a->count == b->count && pa >= pb))
                break;
            t = rules->material[j - 1];
            rules->material[j - 1] = rules->material[j];
            rules->material[j] = t;
        }
}

/* Every subset of the extra pieces of a pawnless game, largest first,
 * each material once (two equal pieces give one material with one of
 * them). */
static void subset_materials(chess_rules *rules, uint32_t extra,
                             const uint8_t *colour, const uint8_t *kind)
{
    rules->material_count = 0;
    for (uint32_t size = extra + 1; size-- > 0;)
        for (uint32_t subset = 0; subset < (UINT32_C(1) << extra); subset++) {
            uint8_t c[CHESS_MAX_PIECES], k[CHESS_MAX_PIECES];
            uint32_t n = 0;
            for (uint32_t i = 0; i < extra; i++)
                if (subset >> i & 1) {
                    c[n] = colour[i];
                    k[n++] = kind[i];
                }
            if (n == size)
                add_material(rules, chess_i_key(n, c, k));
        }
}

/* The index's segments of each material, in order. */
static void lay_segments(chess_rules *rules)
{
    loopy_position offset = 0;

    for (uint32_t m = 0; m < rules->material_count; m++) {
        chess_material *mat = &rules->material[m];
        uint32_t pawns = mat->pawns[0] + mat->pawns[1];
        uint32_t others = mat->count - 2 - pawns;
        loopy_position place = UINT64_C(1) << (6 * others);
        for (uint32_t p = 0; p < pawns; p++)
            place *= 48;
        mat->offset = offset;
        if (pawns == 0) {
            mat->plain = UINT64_C(2) * CHESS_KING_PAIRS * place;
        } else {
            rules->pawns = true;
            mat->plain = UINT64_C(2) * CHESS_PAWN_KING_PAIRS * place;
        }
        offset += mat->plain;
        mat->ep[0] = mat->ep[1] = 0;
        if (mat->pawns[0] > 0 && mat->pawns[1] > 0)
            /* The pawn taken en passant is on one of 8 squares, not 48. */
            for (uint32_t s = 0; s < 2; s++) {
                mat->ep[s] = offset;
                offset += CHESS_PAWN_KING_PAIRS * 8 * (place / 48);
            }
    }
    rules->size = offset;
}

void chess_i_rules_init(chess_rules *rules, const char *white,
                        const char *black)
{
    uint8_t colour[CHESS_MAX_PIECES], kind[CHESS_MAX_PIECES];
    uint32_t extra = 0;
    bool pawns = false;

    init_tables(rules);
    for (uint32_t side = 0; side < 2; side++)
        for (const char *p = side == 0 ? white : black; *p != '\0'; p++) {
            colour[extra] = (uint8_t)side;
            kind[extra] = (uint8_t)(strchr(piece_letter, *p) - piece_letter);
            pawns |= kind[extra++] == CHESS_PAWN;
        }
    if (pawns)
        reach_materials(rules, chess_i_key(extra, colour, kind));
    else
        subset_materials(rules, extra, colour, kind);
    lay_segments(rules);
    for (uint32_t m = 0; m < rules->material_count; m++) {
        chess_material *mat = &rules->material[m];
        for (uint32_t c = 0; c < 2; c++)
            for (uint32_t k = CHESS_QUEEN; k <= CHESS_PAWN; k++) {
                uint32_t more = UINT32_MAX, fewer = UINT32_MAX;
                uint32_t made = UINT32_MAX;
                /* One more piece: none on a full board, and none past
                 * three of a kind, whose 2 bits of the key would carry
                 * into the next kind's (KQQQK + Q would read as KRK, and
                 * an uncapture would lay six pieces out). */
                if (mat->count < CHESS_MAX_PIECES &&
                    key_count(mat->key, c, k) < 3)
                    more = chess_i_find_material(
                        rules, mat->key + chess_i_key_bit(c, k));
                if (key_count(mat->key, c, k) > 0)
                    fewer = chess_i_find_material(
                        rules, mat->key - chess_i_key_bit(c, k));
                if (k != CHESS_PAWN && mat->pawns[c] > 0)
                    made = chess_i_find_material(
                        rules, mat->key - chess_i_key_bit(c, CHESS_PAWN) +
                                   chess_i_key_bit(c, k));
                mat->uncapture[c][k] =
                    (uint16_t)(more == UINT32_MAX ? CHESS_NONE : more);
                mat->capture[c][k] =
                    (uint16_t)(fewer == UINT32_MAX ? CHESS_NONE : fewer);
                mat->promote[c][k] =
                    (uint16_t)(made == UINT32_MAX ? CHESS_NONE : made);
            }
    }
    memcpy(rules->params, rules->material[0].name, sizeof rules->params);
}

/* Adds material m to the list unless it is there or none. */
static void add_child(uint32_t m, uint32_t *out, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        if (out[i] == m)
            return;
    if (m != CHESS_NONE)
        out[(*n)++] = m;
}

size_t chess_i_children(const chess_rules *rules, uint32_t m, uint32_t *out)
{
    const chess_material *material = &rules->material[m];
    size_t n = 0;

    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t k = CHESS_QUEEN; k <= CHESS_PAWN; k++) {
            uint16_t made = material->promote[c][k];
            add_child(material->capture[c][k], out, &n);
            if (made == CHESS_NONE)
                continue;
            add_child(made, out, &n);
            for (uint32_t v = CHESS_QUEEN; v <= CHESS_PAWN; v++)
                add_child(rules->material[made].capture[1 - c][v], out, &n);
        }
    return n;
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


bool chess_i_build(const chess_rules *rules, uint32_t side, uint32_t count,
                   const uint8_t *colour, const uint8_t *kind,
                   const uint8_t *square, chess_board *out)
{
    uint32_t m = chess_i_find_material(rules,
                                       chess_i_key(count, colour, kind));

    if (m == UINT32_MAX || rules->material[m].count != count)
        return false;
    chess_i_lay_out(rules, m, side, colour, kind, square, out);
    out->ep = 0;
    return true;
}

/* The digit of a piece on square: a pawn stands on one of the 48 squares
 * of ranks 2 to 7. */
static uint32_t radix_of(uint8_t kind)
{
    return kind == CHESS_PAWN ? 48 : 64;
}

static uint32_t digit_of(uint8_t kind, uint8_t square)
{
    return kind == CHESS_PAWN ? square - 8u : square;
}

uint32_t chess_i_ep_pawn_square(uint32_t colour, uint32_t file)
{
    return (colour == CHESS_WHITE ? 24 : 32) + file;
}

/* The first slot of a pawn of colour in material (which has one). */
static uint32_t first_pawn(const chess_material *material, uint32_t colour)
{
    return 2 + (colour == CHESS_BLACK ? material->pawns[0] : 0);
}

/* Decodes an index of a material with pawns.  Without an en passant
 * right: ((side * 1806 + pair) * radix + digit of slot 2) ... down to the
 * last slot; with one (side s to move, the other side's pawn on file f
 * just made a double step): (pair * 8 + f) then the digits of the other
 * slots, in the segment ep[s]. */
static void decode_pawns(const chess_rules *rules,
                         const chess_material *material, loopy_position pos,
                         chess_board *board)
{
    uint32_t n = material->count, skip = n, pair;
    loopy_position local = pos - material->offset;

    board->ep = 0;
    if (local >= material->plain) {
        uint32_t s = pos >= material->ep[1] ? 1 : 0;
        local = pos - material->ep[s];
        board->side = s;
        skip = first_pawn(material, 1 - s);
    }
    /* Divisions by constants, which compile to multiplications. */
    for (uint32_t i = n; i-- > 2;) {
        if (i == skip)
            continue;
        if (material->kind[i] == CHESS_PAWN) {
            board->square[i] = (uint8_t)(local % 48 + 8);
            local /= 48;
        } else {
            board->square[i] = (uint8_t)(local & 63);
            local >>= 6;
        }
    }
    if (skip < n) {
        uint32_t file = (uint32_t)(local % 8);
        board->square[skip] =
            (uint8_t)chess_i_ep_pawn_square(1 - board->side, file);
        board->ep = (uint8_t)(1 + file);
        pair = (uint32_t)(local / 8);
        chess_i_normalize(board);
    } else {
        board->side = (uint32_t)(local / CHESS_PAWN_KING_PAIRS);
        pair = (uint32_t)(local % CHESS_PAWN_KING_PAIRS);
    }
    board->square[0] = rules->pawn_pair_king[pair][0];
    board->square[1] = rules->pawn_pair_king[pair][1];
}

void chess_i_decode(const chess_rules *rules, loopy_position pos,
                    chess_board *board)
{
    uint32_t m = 0, lo = 0, hi = rules->material_count;

    /* The last material whose segment starts at or below pos: a few by
     * a scan (a pawnless game has at most 8), many by halves. */
    if (hi <= 8) {
        while (m + 1 < hi && rules->material[m + 1].offset <= pos)
            m++;
    } else {
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (rules->material[mid].offset <= pos)
                lo = mid;
            else
                hi = mid;
        }
        m = lo;
    }
    chess_i_decode_in(rules, m, pos, board);
}

void chess_i_decode_in(const chess_rules *rules, uint32_t m,
                       loopy_position pos, chess_board *board)
{
    const chess_material *material = &rules->material[m];
    uint32_t others, pair;
    loopy_position local;

    board->material = m;
    board->count = material->count;
    board->ep = 0;
    for (uint32_t i = 0; i < material->count; i++) {
        board->colour[i] = material->colour[i];
        board->kind[i] = material->kind[i];
    }
    if (material->pawns[0] + material->pawns[1] > 0) {
        decode_pawns(rules, material, pos, board);
        return;
    }
    local = pos - material->offset;
    others = material->count - 2;
    pair = (uint32_t)(local >> (6 * others));
    board->side = pair / CHESS_KING_PAIRS;
    pair %= CHESS_KING_PAIRS;
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

/* The index of a board of a material with pawns: the white king on
 * files a to d, by the mirror of the files when it is not. */
static loopy_position encode_pawns(const chess_rules *rules,
                                   const chess_board *board)
{
    const chess_material *material = &rules->material[board->material];
    uint32_t n = board->count, mirror = (board->square[0] & 7) >= 4 ? 7 : 0;
    uint32_t skip = n, ep_colour = 1 - board->side;
    uint8_t square[CHESS_MAX_PIECES];
    loopy_position local;
    int16_t pair;

    for (uint32_t i = 0; i < n; i++)
        square[i] = (uint8_t)(board->square[i] ^ mirror);
    sort_equal(square, n, material->equal);
    pair = rules->pawn_pair_of[square[0]][square[1]];
    if (pair < 0)
        return rules->size;
    if (board->ep != 0) {
        uint32_t file = (uint32_t)(board->ep - 1) ^ mirror;
        uint32_t at = chess_i_ep_pawn_square(ep_colour, file);
        if (material->ep[board->side] == 0)
            return rules->size;
        for (uint32_t i = 2; i < n && skip == n; i++)
            if (material->kind[i] == CHESS_PAWN &&
                material->colour[i] == ep_colour && square[i] == at)
                skip = i;
        if (skip == n)
            return rules->size;
        local = (loopy_position)pair * 8 + file;
    } else {
        local = (loopy_position)board->side * CHESS_PAWN_KING_PAIRS +
                (uint32_t)pair;
    }
    for (uint32_t i = 2; i < n; i++)
        if (i != skip)
            local = local * radix_of(material->kind[i]) +
                    digit_of(material->kind[i], square[i]);
    return (skip < n ? material->ep[board->side] : material->offset) + local;
}

loopy_position chess_i_encode(const chess_rules *rules,
                              const chess_board *board)
{
    const chess_material *material = &rules->material[board->material];
    uint32_t symmetries =
        rules->pair_symmetries[board->square[0]][board->square[1]];
    uint32_t n = board->count, shift = 6 * (n - 2);
    loopy_position least = UINT64_MAX;

    if (material->pawns[0] + material->pawns[1] > 0)
        return encode_pawns(rules, board);
    /* Usually one symmetry places the kings; two or more when both stand
     * on a diagonal, and then the other pieces decide. */
    for (; symmetries != 0; symmetries &= symmetries - 1) {
        const uint8_t *image = rules->image[loopy_i_lowest_bit(symmetries)];
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

/* step for a material with pawns (chess_i_step_init's conditions hold
 * but the index's): encode_pawns's index is the kings' pair, then each
 * other piece's digit, in mixed radix (48 a pawn, 64 a piece). */
static void step_pawns(const chess_rules *rules, const chess_board *board,
                       uint32_t piece, loopy_position index, chess_step *step)
{
    const chess_material *material = &rules->material[board->material];
    loopy_position place = 1; /* the weight of the slot after piece's */

    for (uint32_t i = board->count; i-- > (piece >= 2 ? piece + 1 : 2);)
        place *= radix_of(material->kind[i]);
    step->symmetries = (board->square[0] & 7) >= 4;
    step->image = rules->image[step->symmetries];
    step->pawns = true;
    step->place = place;
    if (piece >= 2)
        step->base = index - step->image[board->square[piece]] * place;
    else
        step->base = material->offset + (index - material->offset) % place;
}

void chess_i_step_init(const chess_rules *rules, const chess_board *board,
                       uint32_t piece, loopy_position *turned,
                       chess_step *step)
{
    const chess_material *material = &rules->material[board->material];
    uint32_t symmetries =
        rules->pair_symmetries[board->square[0]][board->square[1]];
    bool pawns = material->pawns[0] + material->pawns[1] > 0;
    loopy_position index;

    step->rules = rules;
    step->image = NULL;
    step->pawns = false;
    /* With one symmetry placing the kings, encode's loop runs once, with
     * that symmetry's squares; with pawns it has the one (the mirror of
     * the files, or none) while the white king keeps to its half.  A
     * piece that keeps its slot (no equal piece to sort it among) is a
     * digit of the index; a king's move keeps the other pieces' digits
     * when the same symmetry places the kings after it.  A pawn's moves
     * change more (and may give an en passant right). */
    if ((pawns ? board->ep != 0 || board->kind[piece] == CHESS_PAWN
               : symmetries == 0 || (symmetries & (symmetries - 1)) != 0) ||
        (piece >= 2 && ((material->equal >> piece & 1) ||
                        (material->equal >> (piece + 1) & 1))))
        return;
    if (*turned == UINT64_MAX) {
        chess_board other = *board;
        other.side = 1 - board->side;
        *turned = chess_i_encode(rules, &other);
    }
    index = *turned;
    if (index >= rules->size)
        return; /* the kings touch */
    step->piece = piece;
    step->side = 1 - board->side;
    step->king[0] = board->square[0];
    step->king[1] = board->square[1];
    if (pawns) {
        step_pawns(rules, board, piece, index, step);
        return;
    }
    step->image = rules->image[loopy_i_lowest_bit(symmetries)];
    step->symmetries = symmetries;
    if (piece >= 2) {
        step->place = UINT64_C(1) << 6 * (piece - 2);
        step->base = index - step->image[board->square[piece]] * step->place;
    } else {
        step->place = UINT64_C(1) << 6 * (board->count - 2);
        step->base = material->offset +
                     ((index - material->offset) & (step->place - 1));
    }
}

/* Whether board is pawnless and only the identity places its kings
 * (decoded from an index, they are a pair): then encode's one image is
 * the board itself. */
static bool identity_only(const chess_rules *rules, const chess_board *board)
{
    const chess_material *material = &rules->material[board->material];

    return material->pawns[0] + material->pawns[1] == 0 &&
           rules->pair_symmetries[board->square[0]][board->square[1]] == 1;
}

loopy_position chess_i_turned(const chess_rules *rules,
                              const chess_board *board, loopy_position pos)
{
    loopy_position pairs = (loopy_position)CHESS_KING_PAIRS
                           << 6 * (board->count - 2);

    /* The image of the board turned is the board: its index differs from
     * pos only in the side, the top of the index. */
    if (!identity_only(rules, board))
        return UINT64_MAX;
    return board->side == CHESS_WHITE ? pos + pairs : pos - pairs;
}

bool chess_i_position(const chess_rules *rules, loopy_position pos,
                      chess_board *board)
{
    chess_i_decode(rules, pos, board);
    return chess_i_board_legal(rules, board, NULL, 0) &&
           chess_i_encode(rules, board) == pos;
}

bool chess_i_position_in(const chess_rules *rules, uint32_t m,
                         loopy_position pos, chess_board *board)
{
    chess_i_decode_in(rules, m, pos, board);
    if (!chess_i_board_legal(rules, board, NULL, 0))
        return false;
    /* encode's one image is the board, whose equal pieces legality found
     * in order: the index is pos. */
    return identity_only(rules, board) || chess_i_encode(rules, board) == pos;
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
    case CHESS_PAWN:
        return false; /* chess_i_attacked knows the pawn's colour */
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
    for (uint32_t i = 0; i < board->count; i++) {
        if (board->colour[i] != colour || board->square[i] == target)
            continue;
        if (board->kind[i] == CHESS_PAWN
                ? (rules->pawn_attack[colour][board->square[i]] &
                   bit(target)) != 0
                : attacks(rules, board->kind[i], board->square[i], target,
                          occ))
            return true;
    }
    return false;
}

uint64_t chess_i_reach(const chess_rules *rules, const chess_board *board,
                       uint32_t i, uint64_t occ)
{
    uint32_t from = board->square[i];
    uint64_t reach = 0;
    uint32_t first = 0, last = 8;

    switch (board->kind[i]) {
    case CHESS_KING:
        return rules->king[from];
    case CHESS_PAWN:
        return rules->pawn_attack[board->colour[i]][from];
    case CHESS_KNIGHT:
        return rules->knight[from];
    case CHESS_QUEEN:
        break;
    case CHESS_ROOK:
        last = 4;
        break;
    default:
        first = 4;
        break;
    }
    /* Each ray up to its first piece, which it takes in: that piece is
     * the lowest square on a ray to higher squares, the highest on one to
     * lower; the ray from it onwards is cut off. */
    for (uint32_t d = first; d < last; d += 2) {
        uint64_t up = rules->ray[d][from], down = rules->ray[d + 1][from];
        uint64_t up_hit = up & occ, down_hit = down & occ;
        reach |=
            up_hit != 0 ? up & ~rules->ray[d][loopy_i_lowest_bit(up_hit)] : up;
        reach |= down_hit != 0
                     ? down & ~rules->ray[d + 1][loopy_i_highest_bit(down_hit)]
                     : down;
    }
    return reach;
}

/* ---- Legality ---- */

/* Whether board's en passant right is one: the pawn can be taken, and the
 * position before its double step was one (the side now to move not in
 * check there). */
static bool ep_right(const chess_rules *rules, const chess_board *board)
{
    uint32_t file = board->ep - 1u, side = board->side;
    uint32_t pawn = chess_i_ep_pawn_square(1 - side, file);
    uint32_t origin = side == CHESS_WHITE ? pawn + 16 : pawn - 16;
    chess_board before = *board;

    if (!chess_i_ep_capturable(rules, board, file))
        return false;
    for (uint32_t i = 2; i < board->count; i++)
        if (before.square[i] == pawn && before.kind[i] == CHESS_PAWN)
            before.square[i] = (uint8_t)origin;
    return !chess_i_attacked(rules, &before, before.square[side], 1 - side,
                             chess_i_occupied(&before));
}

bool chess_i_board_legal(const chess_rules *rules, const chess_board *board,
                         char *why, size_t why_capacity)
{
    uint64_t occ = 0;
    uint32_t waiting = 1 - board->side;

    for (uint32_t i = 0; i < board->count; i++) {
        uint32_t rank = board->square[i] >> 3;
        if (occ & bit(board->square[i])) {
            if (why != NULL)
                snprintf(why, why_capacity, "two pieces on one square");
            return false;
        }
        if (board->kind[i] == CHESS_PAWN && (rank == 0 || rank == 7)) {
            if (why != NULL)
                snprintf(why, why_capacity, "a pawn on rank %" PRIu32,
                         rank + 1);
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
    if (board->ep != 0 && !ep_right(rules, board)) {
        if (why != NULL)
            snprintf(why, why_capacity,
                     "no pawn can be taken en passant on file %c",
                     'a' + board->ep - 1);
        return false;
    }
    return true;
}

bool chess_i_ep_capturable(const chess_rules *rules, const chess_board *board,
                           uint32_t file)
{
    uint32_t side = board->side;
    uint32_t pawn = chess_i_ep_pawn_square(1 - side, file);
    uint32_t target = side == CHESS_WHITE ? pawn + 8 : pawn - 8;
    uint32_t origin = side == CHESS_WHITE ? pawn + 16 : pawn - 16;
    uint64_t occ = chess_i_occupied(board);
    uint32_t taken = board->count;

    for (uint32_t i = 2; i < board->count; i++)
        if (board->square[i] == pawn && board->kind[i] == CHESS_PAWN &&
            board->colour[i] != side)
            taken = i;
    if (taken == board->count || (occ & (bit(target) | bit(origin))) != 0)
        return false;
    for (uint32_t i = 2; i < board->count; i++) {
        chess_board next;
        if (board->colour[i] != side || board->kind[i] != CHESS_PAWN ||
            (rules->pawn_attack[side][board->square[i]] & bit(target)) == 0)
            continue;
        /* The pawn goes behind the one it takes, which leaves the board:
         * two squares empty, so any line to the king may open. */
        next = *board;
        next.square[i] = (uint8_t)target;
        next.count--;
        next.colour[taken] = next.colour[next.count];
        next.kind[taken] = next.kind[next.count];
        next.square[taken] = next.square[next.count];
        if (!chess_i_attacked(rules, &next, next.square[side], 1 - side,
                              (occ & ~bit(board->square[i]) & ~bit(pawn)) |
                                  bit(target)))
            return true;
    }
    return false;
}

