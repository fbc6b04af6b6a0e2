/* game_help.c - the help of each action of "loopy game": its usage, the
 * options it takes and an example ("loopy game ACTION --help", "loopy help
 * game ACTION").  "loopy game --help" (game.c) has all of them at once. */
#include "game.h"

#include <string.h>

/* What every action's help ends with. */
#define GAME_HELP_COMMON                                                       \
    "  -t, --threads N      threads to use (default 0: all cores)\n"          \
    "  -q, --quiet          no timing line on standard error\n"               \
    "  -h, --help           show this help\n"                                 \
    "  -V, --version        show the version\n"                               \
    "\n"                                                                       \
    "GAME is a built-in game, NAME or NAME:PARAMS ('loopy game list'), or\n"  \
    "the path of a shared object (./mygame.so[:PARAMS]).  All the actions\n"  \
    "and options: 'loopy game --help'.\n"

#define GAME_HELP_SOLVE_OPTIONS                                                \
    "      --misere         a primitive win is a loss and a loss a win, and\n" \
    "                       a player who cannot move wins\n"                  \
    "      --no-symmetry    solve every position, not one per class of\n"     \
    "                       symmetric positions\n"                            \
    "      --solver NAME    graph, retro, tier or tablebase (see 'loopy\n"   \
    "                       game --help')\n"

#define GAME_HELP_TABLES                                                       \
    "      --tables DIR     read GAME's database from DIR, where 'loopy game\n" \
    "                       solve GAME -o DIR/PARAMS.ldb' put it (chess:KRK:\n" \
    "                       DIR/KRK.ldb; a game without parameters:\n"        \
    "                       DIR/NAME.ldb), instead of solving; default\n"     \
    "                       $LOOPY_TABLES.  Without the file, GAME is solved\n" \
    "                       (chess: its sub-endings read from DIR where\n"    \
    "                       they are); a position the database lacks (of a\n" \
    "                       sub-ending, in a table built alone) is read from\n" \
    "                       its own ending's table in DIR\n"

static const char help_list[] =
    "Usage: loopy game list [-f json] [-o FILE]\n"
    "\n"
    "The built-in games: each one's name, what it is, its parameters and how\n"
    "its positions are written.\n"
    "\n"
    "Options:\n"
    "  -f, --format FORMAT  text (default) or json\n"
    "  -o, --output FILE    write the list to FILE\n"
    "  -h, --help           show this help\n"
    "  -V, --version        show the version\n"
    "\n"
    "Example:\n"
    "  $ loopy game list | head -n 2\n"
    "  chess\n"
    "      chess endings of up to 5 pieces, with their sub-endings: depth to "
    "mate\n";

static const char help_solve[] =
    "Usage: loopy game solve [OPTIONS] GAME [-o FILE.ldb]\n"
    "\n"
    "Solve GAME and print a summary: the positions reached (or, for the\n"
    "solvers of every legal position, solved), how many of each value (W\n"
    "win, L lose, T tie, D draw, for the player to move), and the start's\n"
    "value and remoteness.  With -o, also write the value of every position\n"
    "to a database, which probe, stats and play read without solving.\n"
    "\n"
    "Options:\n" GAME_HELP_SOLVE_OPTIONS
    "      --all-legal      with --solver retro: every legal index, reached\n"
    "                       from the start or not\n"
    "      --tables DIR     chess: read the sub-endings that captures and\n"
    "                       promotions reach from their databases in DIR\n"
    "                       (KQKP: DIR/KQKP.ldb, as 'solve chess:KQKP -o'\n"
    "                       writes it) instead of solving them; the same\n"
    "                       database; -v names each one read\n"
    "      --build          with --tables DIR: build the tables, each ending\n"
    "                       DIR lacks (GAME's own too) solved smallest first\n"
    "                       and written to DIR/NAME.ldb alone; the database\n"
    "                       of -o then holds GAME's own ending alone\n"
    "  -v, --verbose        --solver tier or tablebase: a line per tier\n"
    "                       (chess: per ending) solved on standard error\n"
    "  -o, --output FILE    write the database FILE.ldb (binary, written\n"
    "                       under a temporary name, then renamed)\n"
    "  -f, --format FORMAT  text (default) or json\n" GAME_HELP_COMMON
    "\n"
    "Example: tic-tac-toe is a tie in 9 moves:\n"
    "  $ loopy game solve -q tictactoe -o t.ldb\n"
    "  tictactoe: 765 positions reached, up to symmetry\n"
    "    W 390  L 224  T 151  D 0\n"
    "    start .../.../...: T 9\n";

static const char help_probe[] =
    "Usage: loopy game probe [OPTIONS] GAME|FILE.ldb [POSITION...]\n"
    "\n"
    "The value of each POSITION, in the game's notation (the start when none\n"
    "is given; one per line of standard input for '-'), and of every move\n"
    "from it, best first.  A move's value is the mover's: W 3 means this\n"
    "move wins in 3 moves.  FILE.ldb, a database 'loopy game solve -o'\n"
    "wrote, answers without solving.  For chess, the game may be 'chess'\n"
    "alone: the FEN's own material is opened (chess:KRK for a king and rook\n"
    "against a king), as tablebases are probed.\n"
    "\n"
    "Options:\n" GAME_HELP_SOLVE_OPTIONS GAME_HELP_TABLES
    "      --game GAME      FILE.ldb's game, when it is not built in\n"
    "  -f, --format FORMAT  text (default), json, or dot: the Graphviz graph\n"
    "                       of the positions reachable from POSITION,\n"
    "                       coloured by value (W green, L red, T blue, D\n"
    "                       yellow), best moves bold\n"
    "      --limit N        -f dot: at most N positions (default 1000)\n"
    "  -o, --output FILE    write the answers to FILE\n" GAME_HELP_COMMON
    "\n"
    "Example: after x in a corner, o in the centre and x in the opposite\n"
    "corner, o must take an edge; a corner loses in 4 moves:\n"
    "  $ loopy game probe -q tictactoe x../.o./..x\n"
    "  x../.o./..x: T 6\n"
    "    xo./.o./..x  T 6\n"
    "    x../oo./..x  T 6\n"
    "    x../.oo/..x  T 6\n"
    "    x../.o./.ox  T 6\n"
    "    x.o/.o./..x  L 4\n"
    "    x../.o./o.x  L 4\n";

static const char help_stats[] =
    "Usage: loopy game stats [OPTIONS] GAME|FILE.ldb\n"
    "\n"
    "What a database (or GAME, solved now) holds: the positions of each\n"
    "value at each remoteness (for chess, with the moves to mate), the\n"
    "longest win, loss and tie with an example, and the positions stored\n"
    "against the index space (for a built-in game of at most 2^25 indices,\n"
    "also its legal and canonical positions).\n"
    "\n"
    "Options:\n" GAME_HELP_SOLVE_OPTIONS GAME_HELP_TABLES
    "      --game GAME      FILE.ldb's game, when it is not built in\n"
    "  -f, --format FORMAT  text (default) or json\n"
    "  -o, --output FILE    write the table to FILE\n" GAME_HELP_COMMON
    "\n"
    "Example:\n"
    "  $ loopy game stats -q subtract:10 | tail -n 2\n"
    "  longest win  W 5: 9\n"
    "  longest loss L 4: 8\n";

static const char help_play[] =
    "Usage: loopy game play [OPTIONS] GAME|FILE.ldb [POSITION]\n"
    "\n"
    "Play against loopy, which plays perfectly, from POSITION (the start\n"
    "when none), in the terminal or through a pipe.  Each of your turns\n"
    "draws the board, gives its value for you and lists your moves by\n"
    "number (a column in Connect Four, a cell in m,n,k, counted across the\n"
    "rows from the top left: the same number every turn).  Answer with a\n"
    "number, the move in the game's notation (a column; a cell such as b2;\n"
    "chess: SAN, Rh8, or UCI, h2h8), or the position after it; hint shows\n"
    "loopy's best move for you, best plays it, moves lists every move with\n"
    "its value, undo takes back your last move and loopy's answer, ? helps,\n"
    "q stops.  At the end: the moves (PGN for chess), where the value\n"
    "changed, and who blundered.  For chess, the game may be 'chess' alone\n"
    "and a FEN: its own material is opened.\n"
    "\n"
    "Options:\n"
    "      --second         loopy moves first, you second\n"
    GAME_HELP_SOLVE_OPTIONS GAME_HELP_TABLES
    "      --game GAME      FILE.ldb's game, when it is not built in\n"
    GAME_HELP_COMMON
    "\n"
    "Example: a heap of 5 tokens, take 1 to 3, whoever takes the last wins;\n"
    "take 1, then play the best move:\n"
    "  $ printf '1\\nbest\\n' | loopy game play -q subtract:5 | tail -n 2\n"
    "  The game, 3 moves: 1. take 1 2. take 3 3. take 1\n"
    "  The value never changed: no blunders.\n";

static const char help_check[] =
    "Usage: loopy game check [OPTIONS] GAME\n"
    "\n"
    "Check GAME's rules before a long solve: moves and unmoves agree,\n"
    "counts and indices are in range, canonical() is idempotent and true to\n"
    "the moves of symmetric positions, parse() reads back what format()\n"
    "writes.  The first flaw is named on standard error (exit status 1).\n"
    "\n"
    "Options:\n"
    "      --positions WHICH\n"
    "                       auto (default: every index when there are at\n"
    "                       most the limit of them, else the positions\n"
    "                       nearest the start, then as many along random\n"
    "                       games), every, reachable, sample or walks\n"
    "      --limit N        at most N positions (default 100000)\n"
    "      --seed S         the seed of sample and walks (default 0)\n"
    "      --no-symmetry    moves and unmoves must agree exactly\n"
    "  -f, --format FORMAT  text (default) or json\n"
    "  -o, --output FILE    write the report to FILE\n" GAME_HELP_COMMON
    "\n"
    "Example:\n"
    "  $ loopy game check -q subtract\n"
    "  subtract:21,1,2,3: 22 positions checked (every legal index): moves, "
    "unmoves, notation and tiers agree\n";

static const struct {
    const char *name;
    const char *help;
} helps[] = {
    {"list", help_list},   {"solve", help_solve}, {"probe", help_probe},
    {"stats", help_stats}, {"play", help_play},   {"check", help_check},
};

const char *game_action_help(const char *action)
{
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        if (strcmp(helps[i].name, action) == 0)
            return helps[i].help;
    return NULL;
}
