"""loopy: solve two-player games played on directed graphs (retrograde
analysis), over the C library libloopy through ctypes.

    import loopy
    g = loopy.Graph.from_edges(3, [0, 1, 0], [1, 2, 0])   # 0-based ids
    with g.solve() as s:
        s.outcomes, s.remoteness, s.best_moves   # numpy arrays (or array)
    loopy.Graph.read("game.txt").solve(misere=True, lose_at=[7])
    loopy.Database("ttt.ldb").probe("x../.o./..x")

    game = loopy.Game("connect4:5x4")        # or "chess:KRK", "./my.so"
    with game.solve() as s:                  # a GameSolution
        s.value(game.start)                  # Value(Outcome.TIE, 20)
        s.moves("...../...../...../..x..")   # [Move], best first (SAN)
        s.write("c4.ldb")                    # a database
    with loopy.Database("c4.ldb") as db:
        positions, outcomes, remoteness = db.arrays()    # numpy arrays
        db.stats().table                     # counts by remoteness

Outcomes are loopy.Outcome (an IntEnum; Value.WIN is Outcome.WIN, equal
to loopy.WIN == 1); a draw's remoteness is None.

Every failure raises loopy.LoopyError, with loopy's message, line and
column.  Arguments are checked before they reach the library: a vertex or
position that is not an int (or a numpy integer; a bool and a float are
not) raises TypeError, one out of range a LoopyError (EINVAL) that is also
a ValueError, and a NUL byte in a path, game or position ValueError, as
open() does.  The library is found through $LOOPY_LIBRARY, then beside the
package (as `make install` puts it), then on the system's library path.
"""

from ._errors import LoopyError
from ._lib import (EFORMAT, EGAME, EINVAL, EIO, ENOMEM, EPARSE, ETOOBIG, OK,
                   path as library_path)
from ._lib import strerror
from .graph import (DRAW, GRUNDY_INF, LOSE, NONE, OUTCOME_LETTERS, TIE, WIN,
                    Graph, Grundy, GrundySum, Solution, Solver, octal,
                    threads)
from .database import Database, Move, Outcome, Stats, Value, open_database
from .game import Game, GameSolution

__version__ = "0.1.0"

__all__ = [
    "LoopyError", "Graph", "Solution", "Solver", "Grundy", "GrundySum",
    "Game", "GameSolution", "Outcome", "Stats",
    "Database", "Value", "Move", "open_database", "octal", "threads",
    "strerror", "library_path", "DRAW", "WIN", "LOSE", "TIE", "NONE",
    "GRUNDY_INF", "OUTCOME_LETTERS", "OK", "ENOMEM", "EINVAL", "EPARSE",
    "ETOOBIG", "EIO", "EFORMAT", "EGAME",
]
