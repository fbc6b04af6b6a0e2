"""Databases of solved games (".ldb" files, loopy_game.h): written by
`loopy game solve GAME -o FILE.ldb` or `loopy solve GRAPH -o FILE.ldb`,
and probed here position by position without solving again."""

import collections
import ctypes
import operator
import os
import re

from . import _arrays
from . import _lib
from ._errors import LoopyError
from ._handle import Handle
from ._lib import lib
from .graph import NONE, OUTCOME_LETTERS


class Value(collections.namedtuple("Value", "outcome remoteness")):
    """A position's value: an outcome code (DRAW, WIN, LOSE, TIE) and its
    remoteness (None for a draw)."""

    @property
    def letter(self):
        return OUTCOME_LETTERS[self.outcome]

    def __str__(self):
        if self.remoteness is None:
            return self.letter
        return "%s %d" % (self.letter, self.remoteness)


class Move(collections.namedtuple("Move", "to outcome remoteness text")):
    """A move: the position it leads to (its index, and text in the game's
    notation) and that position's value for the player to move there."""

    @property
    def letter(self):
        return OUTCOME_LETTERS[self.outcome]

    @property
    def value(self):
        return Value(self.outcome, self.remoteness)


def _value(outcome, remoteness):
    return Value(int(outcome), None if remoteness == NONE else int(remoteness))


class Database(Handle):
    """An open database file.  Close it with close() or a with block.

    Positions are indices (int) or text in the game's notation (str); for
    the database of a graph, the vertex number as the graph's text wrote
    it (from .base).  The built-in game a database names is opened with it
    (.game_text, moves); a graph's database has values only."""

    _free = staticmethod(lib.loopy_db_close)
    _what = "database"

    def __init__(self, path, game=None):
        """Opens the database file path.  game: the specification of its
        game ("./mygame.so", "NAME:PARAMS"), for a game that is not built in
        (as `loopy game probe --game`); it must be the database's."""
        diag = _lib.Diag()
        out = ctypes.c_void_p()
        self.path = os.fsdecode(path)
        status = lib.loopy_db_open(os.fsencode(path), ctypes.byref(out),
                                   ctypes.byref(diag))
        _lib.check(status, diag, path=self.path)
        super().__init__(out.value)
        self._game = None
        self._game_error = None
        if game is not None:
            self._open_game(game)
        elif not self.is_graph:
            game = ctypes.POINTER(_lib.GameHead)()
            status = lib.loopy_db_open_game(out.value, ctypes.byref(game),
                                            ctypes.byref(diag))
            if status == _lib.OK:
                self._game = game
            else:
                try:
                    _lib.check(status, diag, path=self.path)
                except LoopyError as e:
                    self._game_error = e

    def _open_game(self, spec):
        diag = _lib.Diag()
        game = ctypes.POINTER(_lib.GameHead)()
        status = lib.loopy_game_open(os.fsencode(spec), ctypes.byref(game),
                                     ctypes.byref(diag))
        _lib.check(status, diag, what="game %s" % spec)
        self._game = game
        status = lib.loopy_db_check_game(self._ptr, game, ctypes.byref(diag))
        _lib.check(status, diag, path=self.path)

    def close(self):
        game, self._game = getattr(self, "_game", None), None
        if game:
            lib.loopy_game_close(game)
        super().close()

    # ---- What the header says ----------------------------------------------

    @property
    def name(self):
        """The game's name ("graph" for a graph's positions)."""
        return lib.loopy_db_game_name(self._get()).decode()

    @property
    def params(self):
        return lib.loopy_db_game_params(self._get()).decode()

    @property
    def is_graph(self):
        return self.name == "graph" and self.params == ""

    @property
    def misere(self):
        return bool(lib.loopy_db_misere(self._get()))

    @property
    def symmetric(self):
        return bool(lib.loopy_db_symmetric(self._get()))

    @property
    def base(self):
        """The first vertex number of a graph's text (0 for a game)."""
        return int(lib.loopy_db_base(self._get()))

    @property
    def size(self):
        """The number of positions stored."""
        return int(lib.loopy_db_size(self._get()))

    def __len__(self):
        return self.size

    @property
    def index_size(self):
        """Positions are below this."""
        return int(lib.loopy_db_index_size(self._get()))

    @property
    def counts(self):
        """{'W': ..., 'L': ..., 'D': ..., 'T': ...}"""
        ptr = self._get()
        return {c: int(lib.loopy_db_count(ptr, OUTCOME_LETTERS.index(c)))
                for c in "WLDT"}

    @property
    def max_remoteness(self):
        return int(lib.loopy_db_max_remoteness(self._get()))

    @property
    def start(self):
        """The game's start position (None for a graph)."""
        return None if self._game is None else int(self._game.contents.start)

    # ---- Positions ---------------------------------------------------------

    def _need_game(self):
        self._get()
        if self._game is None:
            if self._game_error is not None:
                raise self._game_error
            raise LoopyError("%s: a database of a graph's positions, not of a "
                             "game by rules: it has no moves" % self.path,
                             status=_lib.EINVAL, status_name="EINVAL")
        return self._game

    def position(self, pos):
        """The index of pos: an int as it is, or text in the game's notation
        (a graph's vertex number from .base).  Bad text raises LoopyError
        (EPARSE) with loopy's message and column."""
        if not isinstance(pos, (str, bytes)):
            try:
                return operator.index(pos)
            except TypeError:
                raise TypeError("position: expected an int or a str, got %r"
                                % (pos,)) from None
        text = pos.decode() if isinstance(pos, bytes) else pos
        if self._game is not None:
            out = _lib.position()
            diag = _lib.Diag()
            status = lib.loopy_game_parse(self._game, text.encode(),
                                          ctypes.byref(out),
                                          ctypes.byref(diag))
            _lib.check(status, diag)
            return int(out.value)
        if self.is_graph:
            base = self.base
            stripped = text.strip()
            if re.fullmatch(r"[0-9]+", stripped) and \
                    base <= int(stripped) < self.index_size + base:
                return int(stripped) - base
            raise LoopyError("expected a vertex (a number from %d to %d), "
                             "found '%s'" % (base, self.index_size + base - 1,
                                             text),
                             status=_lib.EPARSE, status_name="EPARSE",
                             line=1, column=1)
        return self._need_game()  # raises why the game is not available

    def format(self, pos):
        """pos in the game's notation (a graph's vertex number)."""
        pos = self.position(pos)
        if self._game is None:
            return str(pos + self.base) if self.is_graph else str(pos)
        buf = ctypes.create_string_buffer(1024)
        return lib.loopy_game_format(self._game, pos, buf, len(buf)).decode()

    def probe(self, pos):
        """The Value of pos (an index, or text), as stored; a position not
        in the database raises LoopyError (EINVAL).  In a database of
        symmetric positions, a game position is taken to its
        representative."""
        ptr = self._get()
        index = self.position(pos)
        outcome = ctypes.c_int()
        remoteness = ctypes.c_uint32()
        if index < 0 or index >= self.index_size:
            status = _lib.EINVAL
        elif self._game is not None:
            status = lib.loopy_db_value(ptr, self._game, index,
                                        ctypes.byref(outcome),
                                        ctypes.byref(remoteness))
        else:
            status = lib.loopy_db_probe(ptr, index, ctypes.byref(outcome),
                                        ctypes.byref(remoteness))
        if status == _lib.EINVAL:
            raise LoopyError("%s: not in the database (not reachable from "
                             "the start)" % (pos,), status=status,
                             status_name="EINVAL", path=self.path)
        _lib.check(status, path=self.path)
        return _value(outcome.value, remoteness.value)

    def __contains__(self, pos):
        try:
            self.probe(pos)
        except LoopyError as e:
            if e.status == _lib.EINVAL:
                return False
            raise
        return True

    def moves(self, pos):
        """Every distinct move of pos with the value it leads to (for the
        player to move there), best first for the player at pos: to an
        opponent's Lose (quickest first), to a Tie, to a Draw, then to an
        opponent's Win (slowest first).  A list of Move; a game's database
        only."""
        game = self._need_game()
        index = self.position(pos)
        moves = ctypes.POINTER(_lib.GameMove)()
        count = ctypes.c_size_t()
        diag = _lib.Diag()
        status = lib.loopy_db_moves(self._get(), game, index,
                                    ctypes.byref(moves), ctypes.byref(count),
                                    ctypes.byref(diag))
        try:
            if status == _lib.EINVAL:
                raise LoopyError("%s: not in the database (not reachable from "
                                 "the start)" % (pos,), status=status,
                                 status_name="EINVAL", path=self.path)
            _lib.check(status, diag, path=self.path)
            out = []
            for i in range(count.value):
                m = moves[i]
                value = _value(m.outcome, m.remoteness)
                out.append(Move(int(m.to), value.outcome, value.remoteness,
                                self.format(int(m.to))))
            return out
        finally:
            _lib.c_free(ctypes.cast(moves, ctypes.c_void_p))

    def best_moves(self, pos):
        """The moves of pos that are as good as the best one (the first of
        moves()): a list of Move, empty where the game is over."""
        moves = self.moves(pos)
        return [m for m in moves if moves and m.value == moves[0].value]

    def values(self):
        """Every stored position and its value, in increasing order of
        position: three arrays (positions as a list, outcome codes,
        remoteness with NONE for a draw).  Checks every block."""
        ptr = self._get()
        positions, outcomes, remoteness = [], [], []

        def visit(ctx, pos, outcome, r):
            positions.append(pos)
            outcomes.append(outcome)
            remoteness.append(r)
            return 0

        diag = _lib.Diag()
        callback = _lib.DB_VISIT_FN(visit)
        _lib.check(lib.loopy_db_iterate(ptr, callback, None,
                                        ctypes.byref(diag)), diag,
                   path=self.path)
        o = (ctypes.c_uint8 * len(outcomes))(*outcomes)
        r = (ctypes.c_uint32 * len(remoteness))(*remoteness)
        return (positions, _arrays.from_pointer(o, len(outcomes),
                                                ctypes.c_uint8),
                _arrays.from_pointer(r, len(remoteness), ctypes.c_uint32))


def open_database(path):
    """Database(path)."""
    return Database(path)
