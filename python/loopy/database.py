"""Databases of solved games (".ldb" files, loopy_game.h): written by
`loopy game solve GAME -o FILE.ldb` or `loopy solve GRAPH -o FILE.ldb`,
and probed here position by position without solving again."""

import array
import collections
import ctypes
import enum
import os
import re
from typing import Dict, List, Optional, Union

from . import _arrays
from . import _lib
from ._errors import LoopyError
from ._handle import Handle
from ._lib import lib
from .graph import DRAW, LOSE, NONE, OUTCOME_LETTERS, TIE, WIN

# A position: an index (an int), or text in the game's notation.
Position = Union[int, str, bytes]


class Outcome(enum.IntEnum):
    """A position's outcome for the player to move (loopy_outcome).  An
    IntEnum: each member equals the library's code (loopy.DRAW, WIN, LOSE
    and TIE are those ints), and .letter is the command line's letter."""

    DRAW = DRAW  #: neither player can force an end: play goes on forever
    WIN = WIN    #: the player to move can force a win
    LOSE = LOSE  #: the player to move loses against best play
    TIE = TIE    #: neither can force a win, and best play ends (a tie)

    @property
    def letter(self) -> str:
        """"D", "W", "L" or "T", as the command line prints it."""
        return OUTCOME_LETTERS[self]


class Value(collections.namedtuple("Value", "outcome remoteness")):
    """A position's value: an Outcome (Value.WIN, Value.LOSE, Value.DRAW,
    Value.TIE: the members of Outcome, equal to the ints loopy.WIN ...)
    and its remoteness, the number of moves to the end under best play
    (None for a draw, which never ends).

    .note: the game's few words on the value, as `loopy game probe` shows
    them ("mate in 14" in chess), or None: none in misere play, and none
    from a graph's database.  It is not part of the tuple: two values with
    the same outcome and remoteness are equal."""

    note = None
    DRAW = Outcome.DRAW
    WIN = Outcome.WIN
    LOSE = Outcome.LOSE
    TIE = Outcome.TIE

    def __new__(cls, outcome, remoteness):
        return super().__new__(cls, Outcome(outcome), remoteness)

    @property
    def letter(self) -> str:
        """The outcome's letter: "W", "L", "D" or "T"."""
        return OUTCOME_LETTERS[self.outcome]

    def __str__(self):
        """As `loopy game probe` prints it: "W 27 (mate in 14)", "D"."""
        text = self.letter
        if self.remoteness is not None:
            text += " %d" % self.remoteness
        if self.note is not None:
            text += " (%s)" % self.note
        return text


class Move(collections.namedtuple("Move",
                                  "to outcome remoteness text name note")):
    """A move, as `loopy game probe` shows it.

    to: the index of the position after the move (two moves that lead to
    mirror images of one position, chess's Ka2 and Qb5 from
    8/6k1/8/8/8/8/4Q3/1K6 w, share it); text: that position
    written as the position the move was asked of was (chess: the board as
    given, not its class's representative: the CLI's "to"); name: the
    move's name in the game's notation (chess: SAN, "Qb7+"; a game that
    does not name its moves: text, as the CLI prints it).
    outcome, remoteness: the move's value for the player who makes it, as
    the CLI prints it: WIN when it wins, its remoteness counted from
    before the move (one more than after it), None for a DRAW.  note: the
    game's words on that value, or None (see Value)."""

    def __new__(cls, to, outcome, remoteness, text, name, note):
        return super().__new__(cls, to, Outcome(outcome), remoteness, text,
                               name, note)

    @property
    def letter(self) -> str:
        """The outcome's letter: "W", "L", "D" or "T"."""
        return OUTCOME_LETTERS[self.outcome]

    @property
    def value(self) -> "Value":
        """The move's Value for the player who makes it, with its note."""
        v = Value(self.outcome, self.remoteness)
        v.note = self.note
        return v


# A move's value for its mover, from that of the position it leads to (the
# opponent's): the opposite outcome, one move further from the end.
_MOVER = {DRAW: DRAW, WIN: LOSE, LOSE: WIN, TIE: TIE}

# Room for a game's texts: more than the command line's 256 bytes.
_TEXT_ROOM = 1024


def move_list(game, shown, moves, count, note):
    """The Moves of a C array of count loopy_game_move (the values of the
    positions they lead to), for the player who makes them, each followed
    by the other moves at the board into its class: shown is the
    position moved from as bytes (its move names are read from it), note
    a function (outcome, remoteness) -> the game's words or None."""
    out = []
    name = ctypes.create_string_buffer(_TEXT_ROOM)
    after = ctypes.create_string_buffer(_TEXT_ROOM)
    for i in range(count):
        m = moves[i]
        outcome = _MOVER[m.outcome]
        remoteness = None if outcome == DRAW else int(m.remoteness) + 1
        lib.loopy_game_move_name(game, shown, m.to, name, len(name),
                                 after, len(after))
        # Then the other moves at the board into the same class (chess:
        # Qb5 beside Ka2, mirror images), as `loopy game probe` lists them.
        k = 0
        while True:
            out.append(Move(int(m.to), outcome, remoteness,
                            after.value.decode("utf-8", "replace"),
                            name.value.decode("utf-8", "replace"),
                            note(outcome, remoteness)))
            k += 1
            if lib.loopy_game_move_twin(game, shown, m.to, k, name, len(name),
                                        None, 0, after, len(after)) == 0:
                break
    return out


def _remoteness(outcome, remoteness):
    return None if outcome == DRAW or remoteness == NONE else int(remoteness)


class Database(Handle):
    """An open database file.  Close it with close() or a with block.

    Positions are indices (an int, or a numpy integer: not a bool, not a
    float), 0 .. index_size-1, or text in the game's notation (str); for
    the database of a graph, the vertex number as the graph's text wrote
    it (from .base).  An index out of range raises a LoopyError (EINVAL)
    that is also a ValueError; one of another type, TypeError; a str or
    path with a NUL byte, ValueError.  The built-in game a database names
    is opened with it (moves, format); a graph's database has values
    only.  The answers are those of `loopy game probe` (answer() gives its
    JSON)."""

    _free = staticmethod(lib.loopy_db_close)
    _what = "database"
    _game = None

    def __init__(self, path: Union[str, bytes, os.PathLike],
                 game: Optional[Union[str, bytes]] = None) -> None:
        """Opens the database file path.  game: the specification of its
        game ("./mygame.so", "./mygame.so:PARAMS", "NAME:PARAMS"), for a
        game that is not built in, as `loopy game probe --game` takes it;
        it must be the database's.  Without parameters, a game of the
        database's name is opened with the database's parameters (given
        to the game apart, never joined to the path)."""
        fspath = _lib.text_bytes(path, "path")
        spec = None if game is None else _lib.text_bytes(game, "game")
        self.path = os.fsdecode(fspath)
        diag = _lib.Diag()
        out = ctypes.c_void_p()
        status = lib.loopy_db_open(fspath, ctypes.byref(out),
                                   ctypes.byref(diag))
        _lib.check(status, diag, path=self.path)
        super().__init__(out.value)
        self._game_error = None
        try:
            if spec is not None:
                self._open_game(spec)
            elif not self.is_graph:
                self._open_own_game()
        except BaseException:
            self.close()
            raise

    def _open_own_game(self):
        diag = _lib.Diag()
        game = ctypes.POINTER(_lib.Game)()
        status = lib.loopy_db_open_game(self._ptr, ctypes.byref(game),
                                        ctypes.byref(diag))
        if status == _lib.OK:
            self._game = game
            return
        try:
            _lib.check(status, diag, path=self.path)
        except LoopyError as e:
            self._game_error = e

    def _open_game(self, spec):
        """As the command line's --game (cli/db.c, open_given_game)."""
        text = os.fsdecode(spec)
        diag = _lib.Diag()
        game = ctypes.POINTER(_lib.Game)()
        status = lib.loopy_game_open(spec, ctypes.byref(game),
                                     ctypes.byref(diag))
        _lib.check(status, diag, what="game %s" % text)
        self._game = game
        # PARAMS follow the last ':' that has no '/' after it, as
        # loopy_game_open reads a specification.
        colon = spec.rfind(b":")
        has_params = colon >= 0 and b"/" not in spec[colon:]
        params = lib.loopy_db_game_params(self._ptr)
        head = game.contents
        if not has_params and head.name == lib.loopy_db_game_name(self._ptr) \
                and head.params != params:
            self._game = None
            lib.loopy_game_close(game)
            game = ctypes.POINTER(_lib.Game)()
            diag = _lib.Diag()
            status = lib.loopy_game_open_params(spec, params,
                                                ctypes.byref(game),
                                                ctypes.byref(diag))
            if status != _lib.OK:
                reason = diag.message.decode("utf-8", "replace") or \
                    _lib.strerror(status)
                raise LoopyError("game %s: the game refuses the database's "
                                 "parameters '%s': %s"
                                 % (text, params.decode("utf-8", "replace"),
                                    reason), status=status,
                                 status_name=_lib.STATUS_NAMES[status],
                                 path=self.path)
            self._game = game
        diag = _lib.Diag()
        status = lib.loopy_db_check_game(self._ptr, game, ctypes.byref(diag))
        _lib.check(status, diag, path=self.path)

    def close(self) -> None:
        """Closes the file (and its game); later use raises LoopyError."""
        game, self._game = self._game, None
        if game:
            lib.loopy_game_close(game)
        super().close()

    # ---- What the header says ----------------------------------------------

    @property
    def name(self) -> str:
        """The game's name ("graph" for a graph's positions)."""
        return lib.loopy_db_game_name(self._get()).decode()

    @property
    def params(self) -> str:
        """The game's parameters ("5x4"), "" when it has none."""
        return lib.loopy_db_game_params(self._get()).decode()

    @property
    def is_graph(self) -> bool:
        """Whether it holds a graph's vertices (`loopy solve -o`)."""
        return self.name == "graph" and self.params == ""

    @property
    def misere(self) -> bool:
        """Whether it was solved in misere play."""
        return bool(lib.loopy_db_misere(self._get()))

    @property
    def symmetric(self) -> bool:
        """Whether it holds one representative per class of symmetric
        positions."""
        return bool(lib.loopy_db_symmetric(self._get()))

    @property
    def base(self) -> int:
        """The first vertex number of a graph's text (0 for a game)."""
        return int(lib.loopy_db_base(self._get()))

    @property
    def size(self) -> int:
        """The number of positions stored."""
        return int(lib.loopy_db_size(self._get()))

    def __len__(self) -> int:
        return self.size

    @property
    def index_size(self) -> int:
        """Positions are below this."""
        return int(lib.loopy_db_index_size(self._get()))

    @property
    def counts(self) -> Dict[str, int]:
        """{'W': ..., 'L': ..., 'D': ..., 'T': ...}"""
        ptr = self._get()
        return {c: int(lib.loopy_db_count(ptr, OUTCOME_LETTERS.index(c)))
                for c in "WLDT"}

    @property
    def max_remoteness(self) -> int:
        """The largest remoteness of a Win, Lose or Tie."""
        return int(lib.loopy_db_max_remoteness(self._get()))

    @property
    def start(self) -> Optional[int]:
        """The game's start position (None for a graph)."""
        return None if self._game is None else int(self._game.contents.start)

    @property
    def names_moves(self) -> bool:
        """Whether the game names its moves (chess: SAN), and so keeps a
        position as it was written (Move.text, answer()["position"])."""
        return self._game is not None and \
            self._game.contents.move_format is not None

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

    def position(self, pos: Position) -> int:
        """The index of pos: an int, checked to be 0 .. index_size-1, or
        text in the game's notation (a graph's vertex number from .base).
        Bad text raises LoopyError (EPARSE) with loopy's message and
        column."""
        if not isinstance(pos, (str, bytes)):
            return _lib.index(pos, "position", self.index_size, self.path)
        data = _lib.text_bytes(pos, "position")
        text = data.decode("utf-8", "replace")
        if self._game is not None:
            out = _lib.position()
            diag = _lib.Diag()
            status = lib.loopy_game_parse(self._game, data, ctypes.byref(out),
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

    def format(self, pos: Position) -> str:
        """pos in the game's notation (a graph's vertex number); an index
        past the index space raises, as position() does."""
        pos = self.position(pos)
        if self._game is None:
            return str(pos + self.base) if self.is_graph else str(pos)
        buf = ctypes.create_string_buffer(_TEXT_ROOM)
        return lib.loopy_game_format(self._game, pos, buf,
                                     len(buf)).decode("utf-8", "replace")

    def _shown(self, pos, index):
        """pos as `loopy game probe` shows it: as given, in a game that
        names its moves (chess keeps the board, not its representative),
        else in the game's notation."""
        if isinstance(pos, (str, bytes)) and self.names_moves:
            return pos.decode("utf-8", "replace") \
                if isinstance(pos, bytes) else pos
        return self.format(index)

    def _note(self, outcome, remoteness):
        """The game's words on a value; None in misere play (which they do
        not speak of: a chess mate there is a win for the mated side)."""
        if self._game is None or self.misere:
            return None
        buf = ctypes.create_string_buffer(_TEXT_ROOM)
        length = lib.loopy_game_value_note(
            self._game, outcome, NONE if remoteness is None else remoteness,
            buf, len(buf))
        return buf.value.decode("utf-8", "replace") if length else None

    def probe(self, pos: Position) -> Value:
        """The Value of pos (an index, or text), as stored, with its .note;
        a position not in the database raises LoopyError (EINVAL).  In a
        database of symmetric positions, a game position is taken to its
        representative."""
        ptr = self._get()
        index = self.position(pos)
        outcome = ctypes.c_int()
        remoteness = ctypes.c_uint32()
        if self._game is not None:
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
        value = Value(int(outcome.value),
                      _remoteness(outcome.value, remoteness.value))
        value.note = self._note(value.outcome, value.remoteness)
        return value

    def __contains__(self, pos: Position) -> bool:
        try:
            self.probe(pos)
        except LoopyError as e:
            if e.status == _lib.EINVAL:
                return False
            raise
        return True

    def moves(self, pos: Position) -> List[Move]:
        """Every move of pos with its value for the player who makes it
        (two that reach one class of symmetric positions, each: they share
        Move.to), best first: to an opponent's Lose (quickest first), to a
        Tie, to a Draw, then to an opponent's Win (slowest first).  A list
        of Move, as `loopy game probe` lists them; a game's database
        only."""
        game = self._need_game()
        index = self.position(pos)
        shown = self._shown(pos, index).encode("utf-8")
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
            return move_list(game, shown, moves, count.value, self._note)
        finally:
            _lib.c_free(ctypes.cast(moves, ctypes.c_void_p))

    def best_moves(self, pos: Position) -> List[Move]:
        """The moves of pos that are as good as the best one (the first of
        moves()): a list of Move, empty where the game is over."""
        moves = self.moves(pos)
        return [m for m in moves if moves and m.value == moves[0].value]

    def answer(self, pos: Position) -> dict:
        """What `loopy game probe -f json` answers for pos, as a dict:
        position (as given in a game that names its moves, else in the
        game's notation), misere, value (a letter), remoteness (None for a
        draw), note (only when the game has words for the value), and
        moves, each with to (the position after it), move (its name, in a
        game that names its moves), value, remoteness and note, for the
        player who makes it."""
        index = self.position(pos)
        value = self.probe(pos)
        out = {"position": self._shown(pos, index), "misere": self.misere,
               "value": value.letter, "remoteness": value.remoteness}
        if value.note is not None:
            out["note"] = value.note
        out["moves"] = []
        for m in self.moves(pos):
            entry = {"to": m.text}
            if self.names_moves:
                entry["move"] = m.name
            entry.update(value=m.letter, remoteness=m.remoteness)
            if m.note is not None:
                entry["note"] = m.note
            out["moves"].append(entry)
        return out

    def values(self) -> tuple:
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

    def arrays(self) -> tuple:
        """Every stored position and its value, in increasing order of
        position, as three arrays of the same length, for analysis:
        positions (uint64), outcomes (uint8: the Outcome codes) and
        remoteness (uint32, loopy.NONE for a draw): numpy arrays when
        numpy is installed, else array.array.  One pass over the file,
        which checks every block.  Memory: 13 bytes per position.

            pos, outcome, rem = db.arrays()
            numpy.bincount(rem[outcome == loopy.Value.WIN])  # wins by rem
        """
        ptr = self._get()
        positions = array.array("Q")
        outcomes = array.array("B")
        remoteness = array.array("I")
        add_p, add_o, add_r = (positions.append, outcomes.append,
                               remoteness.append)

        def visit(ctx, pos, outcome, r):
            add_p(pos)
            add_o(outcome)
            add_r(r)
            return 0

        diag = _lib.Diag()
        callback = _lib.DB_VISIT_FN(visit)
        _lib.check(lib.loopy_db_iterate(ptr, callback, None,
                                        ctypes.byref(diag)), diag,
                   path=self.path)
        np = _arrays.np
        if np is None:
            return positions, outcomes, remoteness
        return (np.frombuffer(positions, dtype=np.uint64).copy(),
                np.frombuffer(outcomes, dtype=np.uint8).copy(),
                np.frombuffer(remoteness, dtype=np.uint32).copy())

    def stats(self) -> "Stats":
        """The positions counted by value and by remoteness, in one call
        (loopy_db_stats_compute, as `loopy game stats`): a Stats.  One
        pass over the file, which checks every block; memory a few hundred
        bytes per remoteness present."""
        ptr = self._get()
        raw = _DbStats()
        diag = _lib.Diag()
        _lib.check(lib.loopy_db_stats_compute(ptr, ctypes.byref(raw),
                                              ctypes.byref(diag)), diag,
                   path=self.path)
        try:
            rows = [raw.rows[i] for i in range(raw.row_count)]
            remoteness = [int(r.remoteness) for r in rows]
            table = [[int(r.count[o]) for o in range(4)] for r in rows]
            longest = {}
            for o in (Outcome.WIN, Outcome.LOSE, Outcome.TIE):
                if raw.longest_remoteness[o] != NONE:
                    longest[o] = (int(raw.longest[o]),
                                  int(raw.longest_remoteness[o]))
            counts = {o: int(raw.count[o]) for o in Outcome}
        finally:
            lib.loopy_db_stats_release(ctypes.byref(raw))
        np = _arrays.np
        if np is not None:
            remoteness = np.array(remoteness, dtype=np.uint32)
            table = np.array(table, dtype=np.uint64).reshape(len(rows), 4)
        return Stats(counts, remoteness, table, longest)


class Stats(collections.namedtuple("Stats",
                                   "counts remoteness table longest")):
    """What Database.stats() counts.

    counts: {Outcome: positions of that value}.  remoteness: the
    remotenesses at which some Win, Lose or Tie stands, increasing (a
    numpy uint32 array, else a list); table: one row per remoteness, one
    column per Outcome code (table[i][Outcome.WIN] positions are won at
    remoteness[i]; the DRAW column is 0), a numpy array of shape (R, 4)
    or a list of lists.  longest: {Outcome: (position, remoteness)} of the
    longest Win, Lose and Tie (the smallest position there), for the
    outcomes present."""

    def by_remoteness(self, outcome: int) -> Dict[int, int]:
        """{remoteness: positions of outcome at it}, remotenesses where it
        has none left out."""
        return {int(r): int(row[outcome])
                for r, row in zip(self.remoteness, self.table)
                if row[outcome]}


class _DbStatsRow(ctypes.Structure):
    _fields_ = [("remoteness", ctypes.c_uint32),
                ("count", ctypes.c_uint64 * 4)]


class _DbStats(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint64 * 4),
                ("row_count", ctypes.c_uint32),
                ("rows", ctypes.POINTER(_DbStatsRow)),
                ("longest_remoteness", ctypes.c_uint32 * 4),
                ("longest", _lib.position * 4)]


lib.loopy_db_stats_compute.restype = _lib.status_t
lib.loopy_db_stats_compute.argtypes = [ctypes.c_void_p,
                                       ctypes.POINTER(_DbStats),
                                       ctypes.POINTER(_lib.Diag)]
lib.loopy_db_stats_release.restype = None
lib.loopy_db_stats_release.argtypes = [ctypes.POINTER(_DbStats)]


def open_database(path: Union[str, bytes, os.PathLike]) -> "Database":
    """Database(path)."""
    return Database(path)
