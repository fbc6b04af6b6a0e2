"""Arrays in and out: numpy arrays when numpy is installed, otherwise the
standard library's array.array.  Results are always copies, so they stay
valid after the C object is freed.

`np` is None when numpy is absent (or LOOPY_NUMPY=0 is set in the
environment); tests set it to None to exercise the other path.
"""

import array
import ctypes
import operator
import os

from ._errors import RangeError
from . import _lib

np = None
if os.environ.get("LOOPY_NUMPY", "1") != "0":
    try:
        import numpy as np
    except ImportError:
        np = None

_CODES = {ctypes.c_uint8: "B", ctypes.c_uint32: "I"}
_DTYPES = {ctypes.c_uint8: "uint8", ctypes.c_uint32: "uint32"}


def from_pointer(ptr, count, ctype):
    """A copy of count items of ctype at ptr (NULL allowed when count is
    0), as a numpy array or an array.array."""
    size = ctypes.sizeof(ctype) * count
    data = ctypes.string_at(ptr, size) if count else b""
    if np is not None:
        return np.frombuffer(data, dtype=_DTYPES[ctype]).copy()
    out = array.array(_CODES[ctype])
    assert out.itemsize == ctypes.sizeof(ctype)
    out.frombytes(data)
    return out


def vertex_array(values, name, limit=None):
    """values (a numpy array, or any sequence or iterable of ints) as a
    ctypes array of loopy_vertex and its length, checked to be whole
    numbers in 0 .. limit-1 (0 .. LOOPY_MAX_VERTICES-1 without limit)."""
    bound = _lib.MAX_VERTICES if limit is None else limit
    if np is not None and isinstance(values, np.ndarray):
        a = values.ravel()
        if a.size and a.dtype.kind not in "iu":
            if a.dtype.kind == "b" or not np.all(np.equal(np.mod(a, 1), 0)):
                raise TypeError("%s: expected whole numbers, got an array "
                                "of %s" % (name, a.dtype))
        if a.size:
            low, high = a.min(), a.max()
            if low < 0 or high >= bound:
                bad = low if low < 0 else high
                raise _range_error(name, int(bad), limit)
        a = np.ascontiguousarray(a, dtype=np.uint32)
        n = int(a.size)
        return (_lib.vertex * n).from_buffer_copy(a.tobytes()), n
    if not isinstance(values, (list, tuple, range, array.array)):
        values = list(values)  # an iterator, read once
    # The quick way: array.array converts in C (and refuses floats,
    # negative numbers and numbers past 2^32 - 1: the slow way below
    # then says which).
    try:
        if isinstance(values, array.array) and values.typecode == "I":
            a = values
        else:
            a = array.array("I", values)
    except (TypeError, OverflowError):
        pass
    else:
        if a.itemsize == 4:
            if a and max(a) >= bound:
                raise _range_error(name, max(a), limit)
            n = len(a)
            return (_lib.vertex * n).from_buffer_copy(a), n
    items = []
    for i, v in enumerate(values):
        try:
            if isinstance(v, bool):
                raise TypeError
            v = operator.index(v)
        except TypeError:
            raise TypeError("%s[%d]: expected a whole number, got %r"
                            % (name, i, v)) from None
        if v < 0 or v >= bound:
            raise _range_error(name, v, limit)
        items.append(v)
    n = len(items)
    return (_lib.vertex * n)(*items), n


def _range_error(name, value, limit):
    if limit is None:
        text = "%s: vertex %d is out of range" % (name, value)
    else:
        text = "%s: vertex %d is out of range (0 to %d)" % (name, value,
                                                            limit - 1)
    return RangeError(text, status=_lib.EINVAL, status_name="EINVAL")
