"""Errors: loopy.LoopyError carries the library's message, line and column,
the same as the command line prints."""

import re

import pytest

import loopy
from loopy import LoopyError

BAD_TEXTS = [
    # (text, line, column) of the first problem
    ("3 3\n1 2\n2 x\n1 1\n", 3, 3),
    ("3 2\n1 2\n", 3, 1),
    ("3 1\n1 4\n", 2, 3),
    ("# a comment\n\nx 1\n", 3, 1),
    ("2 1\n1 2 3\n", 2, 5),
    ("2 1\n0 1\n", 2, 1),
]


def cli_message(cli, tmp_path, text, *args):
    path = tmp_path / "g.txt"
    path.write_text(text)
    p = cli("solve", *args, "g.txt", check=False, cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == ""
    first = p.stderr.splitlines()[0]
    m = re.match(r"loopy solve: g\.txt:(\d+):(\d+): (.*)$", first)
    assert m, first
    return int(m.group(1)), int(m.group(2)), m.group(3)


@pytest.mark.parametrize("text,line,column", BAD_TEXTS)
def test_parse_errors_match_command_line(cli, tmp_path, text, line, column):
    cli_line, cli_column, cli_text = cli_message(cli, tmp_path, text)
    assert (cli_line, cli_column) == (line, column)
    with pytest.raises(LoopyError) as info:
        loopy.Graph.read(tmp_path / "g.txt")
    e = info.value
    assert (e.line, e.column) == (line, column)
    assert e.status == loopy.EPARSE and e.status_name == "EPARSE"
    # The command line may add advice after loopy's own message.
    assert cli_text.startswith(e.message)
    assert e.path == str(tmp_path / "g.txt")
    assert str(e) == "%s:%d:%d: %s" % (tmp_path / "g.txt", line, column,
                                       e.message)
    with pytest.raises(LoopyError) as info:
        loopy.Graph.from_text(text)
    assert (info.value.line, info.value.column, info.value.message) == \
        (line, column, e.message)
    assert str(info.value) == "%d:%d: %s" % (line, column, e.message)


def test_exact_message():
    with pytest.raises(LoopyError) as info:
        loopy.Graph.from_text("3 3\n1 2\n2 x\n1 1\n")
    assert info.value.message == ("expected the edge's second vertex (a "
                                  "vertex from 1 to 3), found 'x'")


def test_hint():
    with pytest.raises(LoopyError) as info:
        loopy.Graph.from_text("2 1\n0 1\n")
    assert info.value.hint == "base 0"
    g = loopy.Graph.from_text("2 1\n0 1\n", base=0)
    assert g.base == 0 and g.successors(0) == [1]
    with pytest.raises(LoopyError) as info:
        loopy.Graph.from_text("3 2\n1 2\n2 3\n", format="adj")
    assert info.value.hint == "edges"


def test_file_errors(tmp_path):
    with pytest.raises(LoopyError) as info:
        loopy.Graph.read(tmp_path / "missing.txt")
    e = info.value
    assert e.status == loopy.EIO and e.line == 0 and e.column == 0
    assert str(e).startswith(str(tmp_path / "missing.txt") + ": ")
    assert "No such file" in e.message
    # A damaged binary graph.
    g = loopy.Graph.from_edges(3, [(0, 1), (1, 2)])
    g.write_binary(tmp_path / "g.lgr")
    data = bytearray((tmp_path / "g.lgr").read_bytes())
    data[-1] ^= 0xFF
    (tmp_path / "bad.lgr").write_bytes(bytes(data))
    with pytest.raises(LoopyError) as info:
        loopy.Graph.read(tmp_path / "bad.lgr")
    assert info.value.status == loopy.EFORMAT
    assert info.value.message


def test_argument_errors(arrays):
    with pytest.raises(LoopyError) as info:
        loopy.Graph.from_edges(3, [0, 1], [1, 3])
    assert info.value.status == loopy.EINVAL
    assert "3" in info.value.message and "heads" in info.value.message
    with pytest.raises(LoopyError):
        loopy.Graph.from_edges(3, [-1], [0])
    if arrays is not None:
        with pytest.raises(LoopyError):
            loopy.Graph.from_edges(3, arrays.array([0, -2]),
                                   arrays.array([1, 1]))
        with pytest.raises(TypeError):
            loopy.Graph.from_edges(3, arrays.array([0.5]), arrays.array([1]))
    with pytest.raises(TypeError):
        loopy.Graph.from_edges(3, [0.5], [1])
    with pytest.raises(TypeError):
        loopy.Graph.from_edges("3", [0], [1])
    with pytest.raises(ValueError):
        loopy.Graph.from_edges(3, [0, 1], [1])
    with pytest.raises(ValueError):
        loopy.Graph.from_edges(3, [(0, 1, 2)])
    g = loopy.Graph.from_edges(3, [(0, 1), (1, 2)])
    with pytest.raises(LoopyError) as info:
        g.solve(lose_at=[3])
    assert info.value.status == loopy.EINVAL
    with pytest.raises(LoopyError) as info:
        g.solve(lose_at=[1], tie_at=[1])
    assert "lose_at" in info.value.message and "tie_at" in info.value.message
    with pytest.raises(ValueError):
        loopy.Graph.from_text("1 0\n", format="csv")
    with pytest.raises(ValueError):
        loopy.Graph.from_text("1 0\n", base=2)
    with pytest.raises(LoopyError):
        g.successors(3)
    with pytest.raises(LoopyError):
        g.grundy().sum([0, 5])


def test_octal_errors(cli):
    p = cli("octal", "0.7x", "3", check=False)
    assert p.returncode != 0
    with pytest.raises(LoopyError) as info:
        loopy.octal("0.7x", 3)
    e = info.value
    assert (e.line, e.column, e.status) == (1, 4, loopy.EPARSE)
    assert e.message in p.stderr


def test_error_class():
    e = LoopyError("bad", status=loopy.EIO, status_name="EIO", line=2,
                   column=5, path="f")
    assert isinstance(e, Exception)
    assert str(e) == "f:2:5: bad"
    assert str(LoopyError("plain")) == "plain"
    assert loopy.strerror(loopy.EPARSE) == "malformed input"
