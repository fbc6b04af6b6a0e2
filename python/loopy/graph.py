"""Graphs, their solutions, and Sprague-Grundy values (loopy.h).

Vertices are numbered 0 .. n-1 here, as inside the library, whatever the
numbering of the text a graph was read from (Graph.base says which it
was: that is how the command line prints them).
"""

import ctypes
import operator
import os

from . import _arrays
from . import _lib
from ._errors import LoopyError
from ._handle import Handle
from ._lib import lib

DRAW, WIN, LOSE, TIE = 0, 1, 2, 3
# The letter of each outcome code, as the command line prints it.
OUTCOME_LETTERS = "DWLT"
NONE = _lib.NONE
GRUNDY_INF = _lib.GRUNDY_INF

_FORMATS = {"edges": 0, "adj": 1, "pairs": 2}
_INT_MAX = 2**31 - 1
_UINT32_MAX = 2**32 - 1
_UINT64_MAX = 2**64 - 1


def _read_options(format, base, threads, memory_limit):
    if format not in _FORMATS:
        raise ValueError("format: expected edges, adj or pairs, got %r"
                         % (format,))
    base = _lib.bounded(base, "base", 0, 1)
    options = _lib.ReadOptions()
    options.format = _FORMATS[format]
    options.base = base
    options.memory_limit = _lib.bounded(memory_limit, "memory_limit", 0,
                                        _UINT64_MAX)
    options.threads = _lib.bounded(threads, "threads", 0, _INT_MAX)
    return options


class Graph(Handle):
    """An immutable directed multigraph: the moves of a game.

    Make one with Graph.from_edges, Graph.read (a file: text or loopy's
    binary format) or Graph.from_text.  Free it with close() or a with
    block (or let it be collected)."""

    _free = staticmethod(lib.loopy_graph_free)
    _what = "graph"

    def __init__(self, ptr, base=None):
        super().__init__(ptr)
        self._base = base

    @classmethod
    def from_edges(cls, n, tails, heads=None) -> "Graph":
        """The graph of n vertices and the moves tails[i] -> heads[i].

        tails and heads are numpy arrays or sequences of vertex ids
        0 .. n-1 of equal length; or heads is None and tails is a list of
        (tail, head) pairs or an m x 2 array.  The arrays are copied.
        Self-loops and parallel edges are kept.  O(n + m)."""
        try:
            if isinstance(n, bool):
                raise TypeError
            n = operator.index(n)
        except TypeError:
            raise TypeError("n: expected a whole number, got %r" % (n,)) \
                from None
        if n < 0 or n > _lib.MAX_VERTICES:
            raise LoopyError("n: %d vertices: expected 0 to %d"
                             % (n, _lib.MAX_VERTICES), status=_lib.EINVAL,
                             status_name="EINVAL")
        if heads is None:
            tails, heads = _split_pairs(tails)
        t, mt = _arrays.vertex_array(tails, "tails", n)
        h, mh = _arrays.vertex_array(heads, "heads", n)
        if mt != mh:
            raise ValueError("tails and heads differ in length (%d and %d)"
                             % (mt, mh))
        out = ctypes.c_void_p()
        _lib.check(lib.loopy_graph_from_edges(n, mt, t, h, ctypes.byref(out)),
                   what="from_edges")
        return cls(out.value)

    @classmethod
    def read(cls, path, format="edges", base=None, threads=0,
             memory_limit=0) -> "Graph":
        """Reads a graph from the file path: loopy's binary format (known by
        its first bytes; see `loopy convert`) or text, an edge list
        (format "edges": a line "n m", then m lines "u v"), adjacency
        lists ("adj") or edge lines without the header ("pairs", where
        the library has it), vertices numbered from base (1 by default; a
        binary file keeps that of its text), as `loopy solve --input
        --base` reads them.  Blank lines and '#' lines are skipped.  Bad
        input raises LoopyError with the line and column.
        threads: 0 for all cores.  memory_limit: bytes (0: the machine's)."""
        fspath = _lib.text_bytes(path, "path")
        options = _read_options(format, 1 if base is None else base, threads,
                                memory_limit)
        diag = _lib.Diag()
        out = ctypes.c_void_p()
        status = lib.loopy_read_file(fspath, ctypes.byref(options),
                                     ctypes.byref(out), ctypes.byref(diag))
        _lib.check(status, diag, path=os.fsdecode(fspath))
        graph = cls(out.value, base)
        # A binary file may hold no successor lists: the graph gets them.
        _lib.check(lib.loopy_graph_build_successors(out.value),
                   path=os.fsdecode(fspath), what="reading successors")
        return graph

    @classmethod
    def from_text(cls, text, format="edges", base=1, threads=0,
                  memory_limit=0) -> "Graph":
        """Parses a graph from text (str or bytes) as Graph.read does; errors
        carry the line and column."""
        if isinstance(text, str):
            text = text.encode("utf-8")
        options = _read_options(format, base, threads, memory_limit)
        diag = _lib.Diag()
        out = ctypes.c_void_p()
        status = lib.loopy_read_text(text, len(text), ctypes.byref(options),
                                     ctypes.byref(out), None,
                                     ctypes.byref(diag))
        _lib.check(status, diag)
        return cls(out.value, base)

    @property
    def vertex_count(self) -> int:
        return int(lib.loopy_graph_vertex_count(self._get()))

    @property
    def edge_count(self) -> int:
        return int(lib.loopy_graph_edge_count(self._get()))

    n = vertex_count
    m = edge_count

    def __len__(self):
        return self.vertex_count

    @property
    def base(self) -> int:
        """The number of the first vertex in the text the graph came from
        (0 or 1): how to number vertices when printing them."""
        if self._base is not None:
            return self._base
        return int(lib.loopy_graph_base(self._get()))

    def successors(self, v) -> list:
        """The moves of v, in input order, as a list of vertex ids."""
        v = self._vertex(v)
        count = _lib.edge()
        ptr = lib.loopy_graph_successors(self._get(), v, ctypes.byref(count))
        return [ptr[i] for i in range(count.value)]

    def _vertex(self, v):
        """v as a vertex id: an int (or a numpy integer; not a bool, not
        a float: TypeError) from 0 to n-1 (else RangeError, a LoopyError
        and a ValueError)."""
        return _lib.index(v, "vertex", self.vertex_count)

    def solve(self, misere=False, lose_at=(), win_at=(), tie_at=(),
              threads=0, parallel_min_level=0) -> "Solution":
        """Solves every position by retrograde analysis; see Solution.

        As `loopy solve`: misere (a player who cannot move wins);
        lose_at, win_at, tie_at: vertices (0-based) where the game is over
        on arrival and the player to move has lost, won, or nobody won
        (--lose-at, --win-at, --tie-at); threads (-t; 0: all cores).  The
        result does not depend on threads.  O(n + m)."""
        options, keep = _solve_options(self.vertex_count, misere, lose_at,
                                       win_at, tie_at, threads,
                                       parallel_min_level)
        out = ctypes.c_void_p()
        _lib.check(lib.loopy_solve(self._get(), ctypes.byref(options),
                                   ctypes.byref(out)), what="solve")
        del keep
        return Solution(out.value, self.base)

    def solver(self) -> "Solver":
        """A Solver for many solves of this graph (other targets)."""
        return Solver(self)

    def grundy(self) -> "Grundy":
        """Smith's generalized Sprague-Grundy values of every vertex."""
        out = ctypes.c_void_p()
        _lib.check(lib.loopy_grundy_compute(self._get(), ctypes.byref(out)),
                   what="grundy")
        return Grundy(out.value, self.base)

    def write_binary(self, path) -> None:
        """Writes the graph in loopy's binary format to path (as
        `loopy convert`; not atomic)."""
        with open(path, "wb") as f:
            _write_through(lambda cb: lib.loopy_write_binary(self._get(), cb,
                                                             None), f, path)


def _write_through(call, f, path):
    """Runs call(write_fn) with a write callback into the file f."""
    failure = []

    def write(ctx, data, length):
        try:
            f.write(ctypes.string_at(data, length))
            return 0
        except Exception as e:  # raised again below, outside the C call
            failure.append(e)
            return 1

    callback = _lib.WRITE_FN(write)
    status = call(callback)
    if failure:
        raise failure[0]
    _lib.check(status, path=path)


def _split_pairs(edges):
    np = _arrays.np
    if np is not None and isinstance(edges, np.ndarray):
        if edges.ndim != 2 or edges.shape[1] != 2:
            if edges.size == 0:
                return edges.ravel(), edges.ravel()
            raise ValueError("edges: expected an m x 2 array, got shape %r"
                             % (edges.shape,))
        return edges[:, 0], edges[:, 1]
    tails, heads = [], []
    for i, pair in enumerate(edges):
        try:
            u, v = pair
        except (TypeError, ValueError):
            raise ValueError("edges[%d]: expected a pair (tail, head), got %r"
                             % (i, pair)) from None
        tails.append(u)
        heads.append(v)
    return tails, heads


def _solve_options(n, misere, lose_at, win_at, tie_at, threads,
                   parallel_min_level):
    options = _lib.SolveOptions()
    options.misere = 1 if misere else 0
    options.threads = _lib.bounded(threads, "threads", 0, _INT_MAX)
    options.parallel_min_level = _lib.bounded(
        parallel_min_level, "parallel_min_level", 0, _UINT32_MAX)
    keep = []
    seen = {}
    for name, values in (("lose_at", lose_at), ("win_at", win_at),
                         ("tie_at", tie_at)):
        arr, count = _arrays.vertex_array(values, name, n)
        for v in arr:
            other = seen.setdefault(v, name)
            if other != name:
                raise LoopyError("vertex %d is in both %s and %s"
                                 % (v, other, name), status=_lib.EINVAL,
                                 status_name="EINVAL")
        keep.append(arr)
        setattr(options, name, ctypes.cast(arr, ctypes.POINTER(_lib.vertex)))
        setattr(options, name + "_count", count)
    return options, keep


class Solver(Handle):
    """Solves one graph many times (with other targets) without rebuilding
    its reverse graph.  The graph stays alive while the solver does."""

    _free = staticmethod(lib.loopy_solver_free)
    _what = "solver"

    def __init__(self, graph):
        out = ctypes.c_void_p()
        _lib.check(lib.loopy_solver_create(graph._get(), ctypes.byref(out)),
                   what="solver")
        super().__init__(out.value, keep=graph)

    def solve(self, misere=False, lose_at=(), win_at=(), tie_at=(),
              threads=0, parallel_min_level=0) -> "Solution":
        """As Graph.solve."""
        ptr = self._get()
        graph = self._keep
        options, keep = _solve_options(graph.vertex_count, misere,
                                       lose_at, win_at, tie_at, threads,
                                       parallel_min_level)
        out = ctypes.c_void_p()
        _lib.check(lib.loopy_solver_run(ptr, ctypes.byref(options),
                                        ctypes.byref(out)), what="solve")
        del keep
        return Solution(out.value, graph.base)


class Solution(Handle):
    """The value of every position of a graph.

    outcomes: per vertex, DRAW (0), WIN (1), LOSE (2) or TIE (3);
    remoteness: moves to the end under best play, NONE (2^32-1) for a draw;
    best_moves: a best successor, NONE where there is none (remoteness 0).
    Each is a copy (numpy uint8/uint32 arrays, or array.array 'B'/'I'
    without numpy), valid after close()."""

    _free = staticmethod(lib.loopy_solution_free)
    _what = "solution"

    def __init__(self, ptr, base=1):
        super().__init__(ptr)
        self.base = base
        self._cache = {}

    @property
    def vertex_count(self) -> int:
        return int(lib.loopy_solution_vertex_count(self._get()))

    def __len__(self):
        return self.vertex_count

    def _array(self, key, getter, ctype):
        if key not in self._cache:
            ptr = self._get()
            self._cache[key] = _arrays.from_pointer(
                getter(ptr), self.vertex_count, ctype)
        return self._cache[key]

    @property
    def outcomes(self):
        return self._array("outcomes", lib.loopy_solution_outcomes,
                           ctypes.c_uint8)

    @property
    def remoteness(self):
        return self._array("remoteness", lib.loopy_solution_remoteness,
                           ctypes.c_uint32)

    @property
    def best_moves(self):
        return self._array("best_moves", lib.loopy_solution_best_moves,
                           ctypes.c_uint32)

    def count(self, outcome) -> int:
        """How many positions have outcome (a code or a letter)."""
        if isinstance(outcome, str):
            outcome = OUTCOME_LETTERS.index(outcome)
        return int(lib.loopy_solution_count(self._get(), outcome))

    @property
    def counts(self) -> dict:
        """{'W': ..., 'L': ..., 'D': ..., 'T': ...}"""
        return {c: self.count(c) for c in "WLDT"}

    def letters(self) -> str:
        """The outcomes as a string of letters W, L, D and T."""
        return "".join(OUTCOME_LETTERS[o] for o in self.outcomes)

    def lines(self, base=None) -> list:
        """The lines `loopy solve` prints, 'VERTEX OUTCOME REMOTENESS MOVE',
        vertices numbered from base (the graph's by default)."""
        base = self.base if base is None else base
        out = []
        for v, (o, r, b) in enumerate(zip(self.outcomes, self.remoteness,
                                          self.best_moves)):
            out.append("%d %s %s %s" % (
                v + base, OUTCOME_LETTERS[o], "-" if r == NONE else int(r),
                "-" if b == NONE else int(b) + base))
        return out


class GrundySum:
    """The value of several tokens on one graph (Grundy.sum)."""

    def __init__(self, raw, grundy):
        self.outcome = int(raw.outcome)
        self.infinite_count = int(raw.infinite_count)
        self.shift = int(raw.shift)
        self.infinite_token = None if raw.infinite_token == NONE \
            else int(raw.infinite_token)
        # The value: an int, or None when infinite (see .set).
        self.value = None if raw.value == GRUNDY_INF else int(raw.value)
        if self.value is not None:
            self.set = None
        elif self.infinite_token is None:
            self.set = []
        else:
            self.set = sorted(k ^ self.shift
                              for k in grundy.inf_set(self.infinite_token))

    @property
    def letter(self) -> str:
        return OUTCOME_LETTERS[self.outcome]

    def __str__(self):
        """As `loopy sum` prints it: 'W 1', 'D inf{}'."""
        return "%s %s" % (self.letter, _value_text(self.value, self.set))

    def __repr__(self):
        return "<GrundySum %s>" % self


def _value_text(value, kset):
    if value is not None:
        return str(value)
    return "inf{%s}" % ",".join(str(k) for k in kset)


class Grundy(Handle):
    """Smith's generalized Sprague-Grundy function of every vertex: a whole
    number, or infinite (GRUNDY_INF in .values) with its set K of the
    finite values of its successors (inf_set)."""

    _free = staticmethod(lib.loopy_grundy_free)
    _what = "Grundy result"

    def __init__(self, ptr, base=1):
        super().__init__(ptr)
        self.base = base
        self._values = None

    @property
    def vertex_count(self) -> int:
        return int(lib.loopy_grundy_vertex_count(self._get()))

    def __len__(self):
        return self.vertex_count

    @property
    def values(self):
        """A copy of the values, GRUNDY_INF (2^32-1) for an infinite one."""
        if self._values is None:
            ptr = self._get()
            self._values = _arrays.from_pointer(
                lib.loopy_grundy_values(ptr), self.vertex_count,
                ctypes.c_uint32)
        return self._values

    def _vertex(self, v):
        """v as a vertex id: an int (or a numpy integer; not a bool, not
        a float: TypeError) from 0 to n-1 (else RangeError, a LoopyError
        and a ValueError)."""
        return _lib.index(v, "vertex", self.vertex_count)

    def inf_set(self, v):
        """K of an infinite vertex (increasing); [] for a finite one."""
        v = self._vertex(v)
        count = ctypes.c_size_t()
        ptr = lib.loopy_grundy_inf_set(self._get(), v, ctypes.byref(count))
        return [int(ptr[i]) for i in range(count.value)]

    def outcome(self, v) -> int:
        """The outcome code of v (0 L, positive or inf{K} with 0 in K W,
        else D)."""
        return int(lib.loopy_grundy_outcome(self._get(), self._vertex(v)))

    def outcomes(self):
        """Every vertex's outcome code, as an array."""
        ptr = self._get()
        n = self.vertex_count
        buf = (ctypes.c_uint8 * n)(*[lib.loopy_grundy_outcome(ptr, v)
                                     for v in range(n)])
        return _arrays.from_pointer(buf, n, ctypes.c_uint8)

    def text(self, v) -> str:
        """v's value as `loopy grundy` prints it: '2', 'inf{0,3}'."""
        value = self.values[self._vertex(v)]
        if value == GRUNDY_INF:
            return _value_text(None, self.inf_set(v))
        return str(int(value))

    def sum(self, tokens) -> "GrundySum":
        """The value of tokens on the graph (vertex ids, repeats allowed),
        each move moving one token: a GrundySum."""
        arr, count = _arrays.vertex_array(tokens, "tokens", self.vertex_count)
        raw = _lib.GrundySum()
        _lib.check(lib.loopy_grundy_sum_value(self._get(), arr, count,
                                              ctypes.byref(raw)), what="sum")
        return GrundySum(raw, self)


def octal(code, heaps) -> object:
    """The Sprague-Grundy values of the octal game code ("0.77": Kayles)
    for heaps of 0 .. heaps tokens, as an array of heaps + 1 values.  A
    malformed code raises LoopyError with its column."""
    heaps = _lib.bounded(heaps, "heaps", 0, 0xFFFFFFFE)
    code = _lib.text_bytes(code, "code")
    values = (ctypes.c_uint32 * (heaps + 1))()
    diag = _lib.Diag()
    status = lib.loopy_octal_values(code, heaps, values, ctypes.byref(diag))
    _lib.check(status, diag)
    return _arrays.from_pointer(values, heaps + 1, ctypes.c_uint32)


def threads(requested=0) -> int:
    """The threads the library runs on for a threads option of requested."""
    return int(lib.loopy_threads(_lib.bounded(requested, "requested",
                                              -_INT_MAX - 1, _INT_MAX)))
