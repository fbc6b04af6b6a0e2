"""The owner of one C object: freed by close(), by leaving a with block, or
when the Python object is collected, whichever comes first (and only
once)."""

from ._errors import LoopyError


class Handle:
    _free = None  # the library's *_free or *_close function, per class
    _what = "object"
    _ptr = None
    _keep = None

    def __init__(self, ptr, keep=None):
        self._ptr = ptr
        # Python objects the C object needs while it lives (a solver's graph).
        self._keep = keep

    @property
    def closed(self):
        return not self._ptr

    def _get(self):
        """The C pointer; an error once closed."""
        if not self._ptr:
            raise LoopyError("this %s is closed" % self._what)
        return self._ptr

    def close(self):
        """Frees the C object now; later use raises LoopyError.  Calling it
        again does nothing."""
        ptr, self._ptr = self._ptr, None
        if ptr and self._free is not None:
            type(self)._free(ptr)
        self._keep = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        # At interpreter exit the module's globals may be gone already.
        try:
            self.close()
        except Exception:
            pass
