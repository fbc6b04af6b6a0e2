"""The shared library: finding it, the C types and the function prototypes.

Everything here mirrors include/loopy.h and include/loopy_game.h; the
rest of the package calls the library only through `lib`.
"""

import ctypes
import ctypes.util
import operator
import os

from ._errors import LoopyError, RangeError

# ==== Domain types and constants (loopy.h) ==================================

vertex = ctypes.c_uint32
edge = ctypes.c_uint64
position = ctypes.c_uint64
status_t = ctypes.c_int

NONE = 0xFFFFFFFF  # LOOPY_NONE: no best move, no remoteness (a draw)
MAX_VERTICES = NONE - 1
GRUNDY_INF = 0xFFFFFFFF

STATUS_NAMES = ("OK", "ENOMEM", "EINVAL", "EPARSE", "ETOOBIG", "EIO",
                "EFORMAT", "EGAME")
OK, ENOMEM, EINVAL, EPARSE, ETOOBIG, EIO, EFORMAT, EGAME = range(8)

HINT_NAMES = (None, "base 0", "base 1", "adj", "edges", "bare CR", "pairs",
              "pairs base 0")


class Diag(ctypes.Structure):
    _fields_ = [("line", ctypes.c_uint64), ("column", ctypes.c_uint64),
                ("message", ctypes.c_char * 256), ("hint", ctypes.c_int)]


PROGRESS_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p,
                               ctypes.c_uint64, ctypes.c_uint64)
WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.c_size_t)
WRITE_AT_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                               ctypes.c_void_p, ctypes.c_size_t,
                               ctypes.c_uint64)
DB_VISIT_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, position,
                               ctypes.c_int, ctypes.c_uint32)


class ReadOptions(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("base", ctypes.c_uint32),
                ("memory_limit", ctypes.c_uint64),
                ("allow_trailing", ctypes.c_int),
                ("skip_successors", ctypes.c_int), ("threads", ctypes.c_int),
                ("progress", PROGRESS_FN), ("progress_ctx", ctypes.c_void_p)]


class SolveOptions(ctypes.Structure):
    _fields_ = [("misere", ctypes.c_int),
                ("lose_at", ctypes.POINTER(vertex)),
                ("lose_at_count", ctypes.c_size_t),
                ("win_at", ctypes.POINTER(vertex)),
                ("win_at_count", ctypes.c_size_t),
                ("threads", ctypes.c_int),
                ("progress", PROGRESS_FN), ("progress_ctx", ctypes.c_void_p),
                ("parallel_min_level", ctypes.c_uint32),
                ("tie_at", ctypes.POINTER(vertex)),
                ("tie_at_count", ctypes.c_size_t)]


class GrundySum(ctypes.Structure):
    _fields_ = [("outcome", ctypes.c_int), ("value", ctypes.c_uint32),
                ("infinite_token", vertex), ("shift", ctypes.c_uint32),
                ("infinite_count", ctypes.c_size_t)]


class Game(ctypes.Structure):
    """struct loopy_game, read only (never built here): the callbacks are
    plain pointers, read only to know which ones the game has (NULL reads
    as None).  The library's copy always has every member, whatever the
    version of the game it was made from."""
    _fields_ = [("version", ctypes.c_int), ("name", ctypes.c_char_p),
                ("params", ctypes.c_char_p), ("ctx", ctypes.c_void_p),
                ("size", position), ("start", position)] + [
                    (member, ctypes.c_void_p) for member in (
                        "primitive", "moves", "unmoves", "legal",
                        "canonical", "format", "parse", "release",
                        "canonical_moves", "canonical_unmoves",
                        "move_format", "value_note")]


class GameMove(ctypes.Structure):
    _fields_ = [("to", position), ("outcome", ctypes.c_int),
                ("remoteness", ctypes.c_uint32)]


# ==== Finding the library ===================================================

SONAME = "libloopy.so.0"


def _candidates():
    """Where to look, in order: $LOOPY_LIBRARY; beside the package (a copy
    of the library in it, or the LIBDIR that `make install` recorded, first
    relative to the package so that a DESTDIR staging works, then as
    installed; in a clone, not installed, the build/libloopy.so.0 that
    `make` links); then the system's search (find_library, the soname)."""
    env = os.environ.get("LOOPY_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, SONAME)
    try:
        from . import _install
    except ImportError:
        _install = None
    if _install is not None:
        rel = os.path.relpath(_install.LIBDIR,
                              os.path.join(_install.PYTHONDIR, "loopy"))
        yield os.path.normpath(os.path.join(here, rel, SONAME))
        yield os.path.join(_install.LIBDIR, SONAME)
    else:
        # Run from a clone (python/loopy): the library `make` built, the
        # soname's link in build/.
        yield os.path.normpath(os.path.join(here, os.pardir, os.pardir,
                                            "build", SONAME))
    found = ctypes.util.find_library("loopy")
    if found:
        yield found
    yield SONAME


def _load():
    errors = []
    env = os.environ.get("LOOPY_LIBRARY")
    for path in _candidates():
        if os.sep in path and not os.path.exists(path) and not env:
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError("loopy: cannot load the shared library libloopy "
                      "(set LOOPY_LIBRARY to its path): " + "; ".join(errors))


lib, path = _load()

# ==== Prototypes ============================================================

_P = ctypes.POINTER
_vp = ctypes.c_void_p


def _proto(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_proto("loopy_strerror", ctypes.c_char_p, status_t)
_proto("loopy_threads", ctypes.c_int, ctypes.c_int)

_proto("loopy_graph_from_edges", status_t, vertex, edge, _P(vertex),
       _P(vertex), _P(_vp))
_proto("loopy_graph_free", None, _vp)
_proto("loopy_graph_vertex_count", vertex, _vp)
_proto("loopy_graph_edge_count", edge, _vp)
_proto("loopy_graph_base", ctypes.c_uint32, _vp)
_proto("loopy_graph_successors", _P(vertex), _vp, vertex, _P(edge))
_proto("loopy_graph_has_successors", ctypes.c_int, _vp)
_proto("loopy_graph_build_successors", status_t, _vp)
_proto("loopy_read_text", status_t, ctypes.c_char_p, ctypes.c_size_t,
       _P(ReadOptions), _P(_vp), _P(ctypes.c_size_t), _P(Diag))
_proto("loopy_read_file", status_t, ctypes.c_char_p, _P(ReadOptions),
       _P(_vp), _P(Diag))
_proto("loopy_write_binary", status_t, _vp, WRITE_FN, _vp)

_proto("loopy_solve", status_t, _vp, _P(SolveOptions), _P(_vp))
_proto("loopy_solver_create", status_t, _vp, _P(_vp))
_proto("loopy_solver_run", status_t, _vp, _P(SolveOptions), _P(_vp))
_proto("loopy_solver_free", None, _vp)
_proto("loopy_solution_free", None, _vp)
_proto("loopy_solution_vertex_count", vertex, _vp)
_proto("loopy_solution_outcomes", _P(ctypes.c_uint8), _vp)
_proto("loopy_solution_remoteness", _P(ctypes.c_uint32), _vp)
_proto("loopy_solution_best_moves", _P(vertex), _vp)
_proto("loopy_solution_count", vertex, _vp, ctypes.c_int)

_proto("loopy_grundy_compute", status_t, _vp, _P(_vp))
_proto("loopy_grundy_free", None, _vp)
_proto("loopy_grundy_vertex_count", vertex, _vp)
_proto("loopy_grundy_values", _P(ctypes.c_uint32), _vp)
_proto("loopy_grundy_inf_set", _P(ctypes.c_uint32), _vp, vertex,
       _P(ctypes.c_size_t))
_proto("loopy_grundy_outcome", ctypes.c_int, _vp, vertex)
_proto("loopy_grundy_sum_value", status_t, _vp, _P(vertex), ctypes.c_size_t,
       _P(GrundySum))
_proto("loopy_octal_values", status_t, ctypes.c_char_p, ctypes.c_uint32,
       _P(ctypes.c_uint32), _P(Diag))

_proto("loopy_game_open", status_t, ctypes.c_char_p, _P(_P(Game)),
       _P(Diag))
_proto("loopy_game_open_params", status_t, ctypes.c_char_p, ctypes.c_char_p,
       _P(_P(Game)), _P(Diag))
_proto("loopy_game_close", None, _P(Game))
_proto("loopy_game_format", ctypes.c_char_p, _P(Game), position,
       ctypes.c_char_p, ctypes.c_size_t)
_proto("loopy_game_move_name", ctypes.c_char_p, _P(Game), ctypes.c_char_p,
       position, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
       ctypes.c_size_t)
_proto("loopy_game_move_twin", ctypes.c_size_t, _P(Game), ctypes.c_char_p,
       position, ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t,
       ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_proto("loopy_game_value_note", ctypes.c_size_t, _P(Game), ctypes.c_int,
       ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t)
_proto("loopy_game_parse", status_t, _P(Game), ctypes.c_char_p,
       _P(position), _P(Diag))

_proto("loopy_db_open", status_t, ctypes.c_char_p, _P(_vp), _P(Diag))
_proto("loopy_db_close", None, _vp)
_proto("loopy_db_game_name", ctypes.c_char_p, _vp)
_proto("loopy_db_game_params", ctypes.c_char_p, _vp)
_proto("loopy_db_misere", ctypes.c_int, _vp)
_proto("loopy_db_symmetric", ctypes.c_int, _vp)
_proto("loopy_db_sparse", ctypes.c_int, _vp)
_proto("loopy_db_base", ctypes.c_uint32, _vp)
_proto("loopy_db_size", ctypes.c_uint64, _vp)
_proto("loopy_db_index_size", ctypes.c_uint64, _vp)
_proto("loopy_db_count", ctypes.c_uint64, _vp, ctypes.c_int)
_proto("loopy_db_max_remoteness", ctypes.c_uint32, _vp)
_proto("loopy_db_probe", status_t, _vp, position, _P(ctypes.c_int),
       _P(ctypes.c_uint32))
_proto("loopy_db_iterate", status_t, _vp, DB_VISIT_FN, _vp, _P(Diag))
_proto("loopy_db_open_game", status_t, _vp, _P(_P(Game)), _P(Diag))
_proto("loopy_db_check_game", status_t, _vp, _P(Game), _P(Diag))
_proto("loopy_db_value", status_t, _vp, _P(Game), position,
       _P(ctypes.c_int), _P(ctypes.c_uint32))
_proto("loopy_db_moves", status_t, _vp, _P(Game), position,
       _P(_P(GameMove)), _P(ctypes.c_size_t), _P(Diag))

# The C library's free, for the arrays loopy_db_moves allocates with malloc.
_libc = ctypes.CDLL(None)
c_free = _libc.free
c_free.restype = None
c_free.argtypes = [_vp]


# ==== Arguments =============================================================
# ctypes converts what it is given without a word: a float to its whole
# part, 2**64 + 1 to 1, a str with a NUL to the text before it.  Whatever
# goes to the library passes here first.

def whole(value, name):
    """value as an int: a Python int or a numpy integer, not a bool (True
    as a vertex or a count is a slip, not a 1), not a float (0.9 is not
    vertex 0) nor a str; TypeError otherwise, naming name."""
    # numpy's bool_ (named bool in numpy 2) still reads as an index, with
    # a warning, in numpy 1.x.
    if isinstance(value, bool) or type(value).__name__ in ("bool", "bool_"):
        raise TypeError("%s: expected a whole number (int), got a bool (%r)"
                        % (name, value))
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s: expected a whole number (int), got %s %r"
                        % (name, type(value).__name__, value)) from None


def bounded(value, name, low, high):
    """whole(value) checked to lie in low .. high: ValueError otherwise
    (for options; vertices and positions raise RangeError)."""
    value = whole(value, name)
    if not low <= value <= high:
        raise ValueError("%s: expected %d to %d, got %d"
                         % (name, low, high, value))
    return value


def index(value, name, count, path=None):
    """whole(value) checked to be an index 0 .. count-1: RangeError (a
    LoopyError with EINVAL, and a ValueError) otherwise, "position 12 is
    out of range (0 to 10)"."""
    value = whole(value, name)
    if not 0 <= value < count:
        raise RangeError("%s %d is out of range (%s)"
                         % (name, value, "0 to %d" % (count - 1)
                            if count else "there are none"),
                         status=EINVAL, status_name="EINVAL", path=path)
    return value


def text_bytes(value, name):
    """A str, bytes or path (os.PathLike) as the NUL-terminated bytes the
    library reads; one with a NUL inside raises ValueError, as open()
    does, rather than being read up to it."""
    try:
        data = os.fsencode(value)
    except TypeError:
        raise TypeError("%s: expected a str, bytes or a path, got %s %r"
                        % (name, type(value).__name__, value)) from None
    if b"\0" in data:
        raise ValueError("%s: embedded null byte in %r" % (name, value))
    return data


# ==== Errors ================================================================

def strerror(status):
    return lib.loopy_strerror(status).decode()


def check(status, diag=None, path=None, what=None):
    """Raises LoopyError for a failed status, with diag's message, line,
    column and hint when the library filled them."""
    if status == OK:
        return
    message = ""
    line = column = 0
    hint = None
    if diag is not None:
        message = diag.message.decode("utf-8", "replace")
        line, column = int(diag.line), int(diag.column)
        if 0 <= diag.hint < len(HINT_NAMES):
            hint = HINT_NAMES[diag.hint]
    if not message:
        message = strerror(status)
        if what:
            message = "%s: %s" % (what, message)
    name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else None
    raise LoopyError(message, status=status, status_name=name, line=line,
                     column=column, hint=hint, path=path)
