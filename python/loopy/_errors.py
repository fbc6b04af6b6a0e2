"""The exception every failure of the library raises."""


class LoopyError(Exception):
    """A failure of the loopy library.

    Attributes:
      message  loopy's own description ("expected the edge's second vertex
               (a vertex from 1 to 3), found 'x'")
      status   the loopy_status code (an int; see loopy.EPARSE and the
               others) and status_name its name ("EPARSE")
      line, column  where in a text the problem is, 1-based (column in
               bytes); 0 when it is not about a place in a text
      hint     for a rejected text, the one change of read options under
               which it reads ("base 0", "base 1", "adj", "edges") or
               "bare CR"; None when there is none
      path     the file read, when there is one

    str() gives "path:line:column: message", as the command line prints it.
    """

    def __init__(self, message, status=None, status_name=None, line=0,
                 column=0, hint=None, path=None):
        self.message = message
        self.status = status
        self.status_name = status_name
        self.line = line
        self.column = column
        self.hint = hint
        self.path = path
        super().__init__(self._text())

    def _text(self):
        place = []
        if self.path:
            place.append(str(self.path))
        if self.line:
            place.append(str(self.line))
            if self.column:
                place.append(str(self.column))
        if place:
            return "%s: %s" % (":".join(place), self.message)
        return self.message


class RangeError(LoopyError, ValueError):
    """A whole number out of range (a vertex, a position): a LoopyError
    with status EINVAL that is also a ValueError, so that either catches
    it."""
