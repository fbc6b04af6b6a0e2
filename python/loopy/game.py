"""Games by their rules (loopy_game.h): the built-in games ("connect4:5x4",
"tictactoe", "chess:KRK") and games from shared objects ("./mygame.so"),
solved here, probed in their own notation, written as databases.

    game = loopy.Game("connect4:5x4")
    with game.solve() as s:
        s.value(game.start)          # Value(outcome=<Outcome.WIN: 1>, ...)
        s.moves("...")               # [Move(...)], best first
        s.write("c4.ldb")            # what `loopy game solve -o` writes
"""

import ctypes
import errno
import os
import tempfile
from typing import Callable, Dict, List, Optional, Union

from . import _lib
from ._errors import LoopyError
from ._handle import Handle
from ._lib import lib
from .database import (Move, Outcome, Value, _TEXT_ROOM, _remoteness,
                       move_list)

_INT_MAX = 2**31 - 1

Position = Union[int, str, bytes]

# The solvers, as `loopy game solve --solver` names them.
SOLVERS = ("graph", "retro", "tablebase")


class SolveOptions(ctypes.Structure):
    """struct loopy_game_solve_options."""
    _fields_ = [("misere", ctypes.c_int), ("threads", ctypes.c_int),
                ("no_symmetry", ctypes.c_int),
                ("progress", _lib.PROGRESS_FN),
                ("progress_ctx", ctypes.c_void_p),
                ("counter_limit", ctypes.c_uint32),
                ("all_legal", ctypes.c_int),
                ("tables", ctypes.c_char_p),
                ("build", ctypes.c_int)]


_P = ctypes.POINTER
_GP = _P(_lib.Game)
for _name, _restype, _args in (
        ("loopy_game_solve_graph", _lib.status_t,
         [_GP, _P(SolveOptions), _P(ctypes.c_void_p), _P(_lib.Diag)]),
        ("loopy_game_solve_retro", _lib.status_t,
         [_GP, _P(SolveOptions), _P(ctypes.c_void_p), _P(_lib.Diag)]),
        ("loopy_game_solve_tablebase", _lib.status_t,
         [_GP, _P(SolveOptions), _P(ctypes.c_void_p), _P(_lib.Diag)]),
        ("loopy_game_has_tablebase", ctypes.c_int, [_GP]),
        ("loopy_game_solution_free", None, [ctypes.c_void_p]),
        ("loopy_game_solution_size", ctypes.c_uint64, [ctypes.c_void_p]),
        ("loopy_game_solution_count", ctypes.c_uint64,
         [ctypes.c_void_p, ctypes.c_int]),
        ("loopy_game_solution_value", _lib.status_t,
         [ctypes.c_void_p, _GP, _lib.position, _P(ctypes.c_int),
          _P(ctypes.c_uint32)]),
        ("loopy_game_solution_moves", _lib.status_t,
         [ctypes.c_void_p, _GP, _lib.position, _P(_P(_lib.GameMove)),
          _P(ctypes.c_size_t), _P(_lib.Diag)]),
        ("loopy_db_check_writable", _lib.status_t, [_GP, _P(_lib.Diag)]),
        ("loopy_db_write_game_at", _lib.status_t,
         [ctypes.c_void_p, _GP, ctypes.c_int, _lib.WRITE_AT_FN,
          ctypes.c_void_p])):
    _fn = getattr(lib, _name)
    _fn.restype = _restype
    _fn.argtypes = _args


class Game(Handle):
    """A game by its rules, opened from its specification as `loopy game`
    takes it: a built-in game with optional parameters ("tictactoe",
    "connect4:5x4", "subtract:21,1-2-3", "chess:KRK") or a shared object
    ("./mygame.so", "./mygame.so:PARAMS").  Close it with close() or a
    with block (or let it be collected).

    Positions are indices 0 .. size-1 (an int) or text in the game's
    notation (a str: a board, a FEN in chess)."""

    _free = staticmethod(lib.loopy_game_close)
    _what = "game"

    def __init__(self, spec: Union[str, bytes, os.PathLike],
                 params: Optional[str] = None) -> None:
        """Opens the game spec; params, when given, replace the parameters
        of spec (as loopy_game_open_params).  An unknown game or bad
        parameters raise LoopyError (EGAME, EINVAL or EPARSE)."""
        data = _lib.text_bytes(spec, "spec")
        diag = _lib.Diag()
        out = _GP()
        if params is None:
            status = lib.loopy_game_open(data, ctypes.byref(out),
                                         ctypes.byref(diag))
        else:
            status = lib.loopy_game_open_params(
                data, _lib.text_bytes(params, "params"), ctypes.byref(out),
                ctypes.byref(diag))
        _lib.check(status, diag, what="game %s" % os.fsdecode(data))
        super().__init__(out)
        self.spec = os.fsdecode(data)

    def _head(self):
        return self._get().contents

    @property
    def name(self) -> str:
        """The game's name ("connect4")."""
        return self._head().name.decode("utf-8", "replace")

    @property
    def params(self) -> str:
        """The game's parameters in full ("5x4"), "" when it has none."""
        value = self._head().params
        return value.decode("utf-8", "replace") if value else ""

    @property
    def size(self) -> int:
        """The size of the index space: positions are below it."""
        return int(self._head().size)

    @property
    def start(self) -> int:
        """The start position's index."""
        return int(self._head().start)

    @property
    def names_moves(self) -> bool:
        """Whether the game names its moves (chess: SAN, "Qb7+")."""
        return self._head().move_format is not None

    @property
    def has_tablebase(self) -> bool:
        """Whether the game brings a solver of its own for every legal
        position (the chess endings), which solve() then uses."""
        return bool(lib.loopy_game_has_tablebase(self._get()))

    def parse(self, text: Union[str, bytes]) -> int:
        """The index of a position written in the game's notation; a text
        the game refuses raises LoopyError (EPARSE) saying why."""
        data = _lib.text_bytes(text, "position")
        out = _lib.position()
        diag = _lib.Diag()
        status = lib.loopy_game_parse(self._get(), data, ctypes.byref(out),
                                      ctypes.byref(diag))
        _lib.check(status, diag)
        return int(out.value)

    def position(self, pos: Position) -> int:
        """pos as an index: an int is checked to be below size (TypeError
        for a bool or a float, LoopyError/ValueError out of range), a str
        is parsed."""
        if isinstance(pos, (str, bytes)):
            return self.parse(pos)
        return _lib.index(pos, "position", self.size)

    def format(self, pos: Position) -> str:
        """The position in the game's notation."""
        index = self.position(pos)
        buf = ctypes.create_string_buffer(_TEXT_ROOM)
        return lib.loopy_game_format(self._get(), index, buf,
                                     len(buf)).decode("utf-8", "replace")

    def note(self, outcome: int, remoteness: Optional[int]) -> Optional[str]:
        """The game's words on a value ("mate in 14" in chess), or None."""
        buf = ctypes.create_string_buffer(_TEXT_ROOM)
        length = lib.loopy_game_value_note(
            self._get(), int(outcome),
            _lib.NONE if remoteness is None else remoteness, buf, len(buf))
        return buf.value.decode("utf-8", "replace") if length else None

    def solve(self, misere: bool = False, threads: int = 0,
              symmetry: bool = True, solver: Optional[str] = None,
              all_legal: bool = False,
              progress: Optional[Callable[[str, int, int], None]] = None,
              tables: Optional[Union[str, bytes, os.PathLike]] = None,
              build: bool = False) -> "GameSolution":
        """Solves the game, as `loopy game solve` does, and returns the
        GameSolution (free it with close() or a with block).

        misere: misere play (wins and losses at the end swap).  threads:
        0 for as many as OpenMP offers (results do not depend on it).
        symmetry: False solves every position, not one per class of
        symmetric positions.  solver: "graph" (the positions reached from
        the start, through a graph of their moves), "retro" (without
        storing moves: 4 bytes per index; needs the game's unmoves),
        "tablebase" (the game's own solver for every legal position:
        chess), or None for the command line's choice: the game's own
        when it has one, else "graph".  all_legal: with "retro", every
        legal position, reached or not.  progress(phase, done, total):
        called now and then during a long solve.  tables: with
        "tablebase", a folder of the sub-games' databases (chess:
        tables/KQK.ldb, as solve("chess:KQK").write() writes it), each
        read instead of solved, to the same values; none in misere play.
        build: with tables, build them: each ending the folder lacks (the
        game's own too) is solved, smallest first, and written there
        holding that ending alone, with only the ending being solved and
        those its moves reach in memory; the solution holds the game's
        own ending alone.

        Raises LoopyError: EINVAL for a solver the game cannot use (diag
        says why), EGAME when the game's callbacks fail, ENOMEM, ETOOBIG.
        Time and memory: see loopy_game_solve_graph and the others in
        loopy(3)."""
        if solver is None:
            solver = "tablebase" if self.has_tablebase else "graph"
        if solver not in SOLVERS:
            raise ValueError("solver: expected one of %s or None, got %r"
                             % (", ".join(SOLVERS), solver))
        if all_legal and solver == "graph":
            raise ValueError("all_legal: only solver='retro' solves "
                             "positions that are not reached from the start")
        options = SolveOptions()
        options.misere = 1 if misere else 0
        options.threads = _lib.bounded(threads, "threads", 0, _INT_MAX)
        options.no_symmetry = 0 if symmetry else 1
        options.all_legal = 1 if all_legal else 0
        folder = None
        if tables is not None:
            if solver != "tablebase":
                raise ValueError("tables: only solver='tablebase' reads "
                                 "the sub-games' databases")
            folder = os.fsencode(tables)  # kept alive for the call
            options.tables = folder
        if build and tables is None:
            raise ValueError("build: builds the tables in a folder, given "
                             "as tables")
        options.build = 1 if build else 0
        callback = None
        if progress is not None:
            def report(ctx, phase, done, total):
                try:
                    progress(phase.decode("utf-8", "replace") if phase
                             else "", int(done), int(total))
                except Exception:  # an exception cannot cross the C code
                    pass
            callback = _lib.PROGRESS_FN(report)
            options.progress = callback
        fn = getattr(lib, "loopy_game_solve_" + solver)
        out = ctypes.c_void_p()
        diag = _lib.Diag()
        status = fn(self._get(), ctypes.byref(options), ctypes.byref(out),
                    ctypes.byref(diag))
        _lib.check(status, diag, what="game %s" % self.spec)
        return GameSolution(out.value, self, bool(misere), solver)


class GameSolution(Handle):
    """The values of a game's positions, from Game.solve: probed by
    position (an index or the game's notation), written as a database.
    Keeps its Game open while it lives."""

    _free = staticmethod(lib.loopy_game_solution_free)
    _what = "game solution"

    def __init__(self, ptr, game: Game, misere: bool, solver: str) -> None:
        super().__init__(ptr, keep=game)
        self.game = game
        self.misere = misere
        self.solver = solver

    @property
    def size(self) -> int:
        """How many positions were solved."""
        return int(lib.loopy_game_solution_size(self._get()))

    def __len__(self) -> int:
        return self.size

    @property
    def counts(self) -> Dict[Outcome, int]:
        """{Outcome.WIN: ..., Outcome.LOSE: ..., Outcome.DRAW: ...,
        Outcome.TIE: ...}: how many positions of each value."""
        ptr = self._get()
        return {o: int(lib.loopy_game_solution_count(ptr, o))
                for o in (Outcome.WIN, Outcome.LOSE, Outcome.DRAW,
                          Outcome.TIE)}

    def _note(self, outcome, remoteness):
        return None if self.misere else self.game.note(outcome, remoteness)

    def _shown(self, pos, index):
        """The position moves are named from: as given in a game that
        names its moves (chess keeps the board as written), else in the
        game's notation."""
        if isinstance(pos, (str, bytes)) and self.game.names_moves:
            return pos if isinstance(pos, bytes) else pos.encode("utf-8")
        return self.game.format(index).encode("utf-8")

    def _not_reached(self, pos):
        return LoopyError("%s: not solved (not reachable from the start)"
                          % (pos,), status=_lib.EINVAL, status_name="EINVAL")

    def value(self, pos: Position) -> Value:
        """The Value of pos (an index, or text in the game's notation),
        with its .note; a position not solved (not reached from the start)
        raises LoopyError (EINVAL).  O(log n)."""
        index = self.game.position(pos)
        outcome = ctypes.c_int()
        remoteness = ctypes.c_uint32()
        status = lib.loopy_game_solution_value(
            self._get(), self.game._get(), index, ctypes.byref(outcome),
            ctypes.byref(remoteness))
        if status == _lib.EINVAL:
            raise self._not_reached(pos)
        _lib.check(status)
        value = Value(int(outcome.value),
                      _remoteness(outcome.value, remoteness.value))
        value.note = self._note(value.outcome, value.remoteness)
        return value

    probe = value

    def __contains__(self, pos: Position) -> bool:
        try:
            self.value(pos)
        except LoopyError as e:
            if e.status == _lib.EINVAL:
                return False
            raise
        return True

    def moves(self, pos: Position) -> List[Move]:
        """Every move of pos with its value for the player who makes it,
        best first (as Database.moves and `loopy game probe`):
        Move.name is the move's name (SAN in chess, "Qb7+"), Move.text the
        position after it."""
        index = self.game.position(pos)
        shown = self._shown(pos, index)
        moves = ctypes.POINTER(_lib.GameMove)()
        count = ctypes.c_size_t()
        diag = _lib.Diag()
        status = lib.loopy_game_solution_moves(
            self._get(), self.game._get(), index, ctypes.byref(moves),
            ctypes.byref(count), ctypes.byref(diag))
        try:
            if status == _lib.EINVAL:
                raise self._not_reached(pos)
            _lib.check(status, diag)
            return move_list(self.game._get(), shown, moves, count.value,
                             self._note)
        finally:
            _lib.c_free(ctypes.cast(moves, ctypes.c_void_p))

    def best_moves(self, pos: Position) -> List[Move]:
        """The moves of pos as good as the best one: empty where the game
        is over."""
        moves = self.moves(pos)
        return [m for m in moves if m.value == moves[0].value]

    def answer(self, pos: Position) -> dict:
        """What `loopy game probe -f json` answers for pos, as a dict (see
        Database.answer): position, misere, value (a letter), remoteness
        (None for a draw), note when the game has words for it, moves."""
        index = self.game.position(pos)
        value = self.value(pos)
        out = {"position": self._shown(pos, index).decode("utf-8",
                                                           "replace"),
               "misere": self.misere, "value": value.letter,
               "remoteness": value.remoteness}
        if value.note is not None:
            out["note"] = value.note
        out["moves"] = []
        for m in self.moves(pos):
            entry = {"to": m.text}
            if self.game.names_moves:
                entry["move"] = m.name
            entry.update(value=m.letter, remoteness=m.remoteness)
            if m.note is not None:
                entry["note"] = m.note
            out["moves"].append(entry)
        return out

    def write(self, path: Union[str, bytes, os.PathLike]) -> str:
        """Writes the solution as a database file (".ldb", as `loopy game
        solve -o` writes it), atomically: to a temporary name in the same
        folder, then renamed.  Returns the path.  LoopyError: EINVAL for
        a game whose name or parameters a database cannot record, ETOOBIG,
        EIO when the file cannot be written (then nothing is left)."""
        data = _lib.text_bytes(path, "path")
        target = os.fsdecode(data)
        diag = _lib.Diag()
        _lib.check(lib.loopy_db_check_writable(self.game._get(),
                                               ctypes.byref(diag)), diag,
                   path=target)
        folder = os.path.dirname(os.path.abspath(target))
        try:
            fd, temp = tempfile.mkstemp(prefix=".loopy-", suffix=".tmp",
                                        dir=folder)
        except OSError as e:
            raise LoopyError("cannot write: %s" % (e.strerror or e),
                             status=_lib.EIO, status_name="EIO",
                             path=target) from None
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # as open() would make it, not 0600
        errors = []

        def write_at(ctx, data, length, offset):
            # At its offset (the library writes a window of blocks at a
            # time and the header last), all of it.
            try:
                view = memoryview(ctypes.string_at(data, length))
                while view:
                    put = os.pwrite(fd, view, offset)
                    if put == 0:
                        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                    view = view[put:]
                    offset += put
                return 0
            except OSError as e:
                errors.append(e)
                return -1

        callback = _lib.WRITE_AT_FN(write_at)
        try:
            try:
                status = lib.loopy_db_write_game_at(
                    self._get(), self.game._get(),
                    1 if self.misere else 0, callback, None)
                if status == _lib.OK:
                    os.fsync(fd)
            finally:
                os.close(fd)
            if errors:
                raise LoopyError("write failed: %s" % errors[0],
                                 status=_lib.EIO, status_name="EIO",
                                 path=target)
            _lib.check(status, path=target)
            os.replace(temp, target)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
        return target
