"""What goes to the library is what the caller meant, or refused: ctypes
itself would pass 2**64 + 1 as 1, 0.9 as 0 and "x.ldb\\0junk" as
"x.ldb"."""

import pytest

import loopy
from loopy import LoopyError

BIG = 2**64 + 1  # 1 once cut to 64 bits


def refused_range(call, *args):
    """call(*args) raises the range error: a LoopyError (EINVAL) that is
    a ValueError too."""
    with pytest.raises(ValueError) as info:
        call(*args)
    assert isinstance(info.value, LoopyError)
    assert info.value.status == loopy.EINVAL
    assert "out of range" in info.value.message
    return info.value


def test_positions_are_whole_numbers_in_range(make_db, arrays):
    with loopy.Database(make_db("subtract:10,1,2")) as db:
        size = db.index_size
        assert size == 11
        assert db.probe(1) == (loopy.WIN, 1)
        for call in (db.probe, db.moves, db.format, db.position,
                     db.best_moves, db.answer):
            e = refused_range(call, BIG)
            assert str(BIG) in e.message and "0 to 10" in e.message
            refused_range(call, -1)
            refused_range(call, size)
            for bad in (0.9, 1.0, True, None, [1]):
                with pytest.raises(TypeError) as info:
                    call(bad)
                assert "position" in str(info.value)
        # Out of range is not in the database; a float is an error.
        assert BIG not in db and -1 not in db and 10 in db
        with pytest.raises(TypeError):
            0.5 in db
        assert db.format(size - 1) == "10"
        if arrays is not None:
            assert db.moves(arrays.int64(7)) == db.moves(7)
            assert db.probe(arrays.uint8(3)) == db.probe(3)
            refused_range(db.moves, arrays.uint64(2**64 - 1))
            for bad in (arrays.float64(1.0), arrays.bool_(True)):
                with pytest.raises(TypeError):
                    db.moves(bad)


def test_format_past_the_index_space_raises(make_db):
    """chess:KRK's format() would wrap an index past its space round to a
    board; tictactoe's too."""
    for spec in ("tictactoe", "chess:KRK"):
        with loopy.Database(make_db(spec)) as db:
            last = db.index_size - 1
            assert isinstance(db.format(last), str)
            for index in (db.index_size, db.index_size + 5, 2 * db.index_size,
                          BIG):
                refused_range(db.format, index)


def test_vertices_are_whole_numbers_in_range(arrays):
    with loopy.Graph.from_edges(3, [(0, 1), (1, 2), (0, 0)]) as g, \
            g.grundy() as grundy:
        assert g.successors(0) == [1, 0]
        for bad in (0.9, 1.0, True, "1", None):
            with pytest.raises(TypeError) as info:
                g.successors(bad)
            assert "vertex" in str(info.value)
        e = refused_range(g.successors, 2**32)
        assert "0 to 2" in e.message
        refused_range(g.successors, -1)
        refused_range(g.successors, 3)
        for call in (grundy.inf_set, grundy.outcome, grundy.text):
            refused_range(call, 2**32 + 1)
            with pytest.raises(TypeError):
                call(0.9)
        # Lists of vertices too: out of range is the same error.
        refused_range(g.solve, False, [3])
        refused_range(loopy.Graph.from_edges, 3, [0], [3])
        if arrays is not None:
            assert g.successors(arrays.int32(1)) == [2]
            with pytest.raises(TypeError):
                g.successors(arrays.float32(0.0))
            with pytest.raises(TypeError):
                g.successors(arrays.bool_(False))


def test_numbers_of_options():
    with loopy.Graph.from_edges(3, [(0, 1), (1, 2)]) as g:
        assert g.solve(threads=1).letters() == "LWL"
        for bad in (1.5, True, "2"):
            with pytest.raises(TypeError):
                g.solve(threads=bad)
            with pytest.raises(TypeError):
                loopy.octal("0.77", bad)
        with pytest.raises(ValueError):
            g.solve(threads=-1)
        with pytest.raises(ValueError):
            g.solve(threads=2**32 + 1)  # 1 once cut to a C int
        with pytest.raises(ValueError):
            g.solve(parallel_min_level=2**32)
    with pytest.raises(ValueError):
        loopy.Graph.from_text("1 0\n", memory_limit=-1)
    with pytest.raises(TypeError):
        loopy.Graph.from_text("1 0\n", base=True)
    assert list(loopy.octal("0.77", 5)) == [0, 1, 2, 3, 1, 4]
    with pytest.raises(ValueError):
        loopy.threads(2**31)


def test_nul_bytes_are_refused(tmp_path, make_db):
    """A NUL byte in a path, a game or a position raises ValueError, as
    open() does, even where the part before it names a real file."""
    path = make_db("subtract:10,1,2")
    with pytest.raises(ValueError) as info:
        open(str(path) + "\0junk")
    for bad in (str(path) + "\0junk", bytes(path) + b"\0junk"):
        with pytest.raises(ValueError) as info:
            loopy.Database(bad)
        assert "null byte" in str(info.value)
        assert not isinstance(info.value, LoopyError)
    with pytest.raises(ValueError):
        loopy.Database(path, game="subtract:10,1,2\0junk")
    with pytest.raises(TypeError):
        loopy.Database(7)
    graph = tmp_path / "g.txt"
    graph.write_text("2 1\n1 2\n")
    with loopy.Graph.read(graph) as g:
        assert g.vertex_count == 2
    for bad in (str(graph) + "\0junk", bytes(graph) + b"\0.txt"):
        with pytest.raises(ValueError) as info:
            loopy.Graph.read(bad)
        assert "null byte" in str(info.value)
    with loopy.Database(path) as db:
        assert db.probe("7") == (loopy.WIN, 5)
        for bad in ("7\0junk", b"7\0", "7\0"):
            for call in (db.probe, db.moves, db.position, db.format):
                with pytest.raises(ValueError):
                    call(bad)
    assert list(loopy.octal("0.77", 2)) == [0, 1, 2]
    with pytest.raises(ValueError):
        loopy.octal("0.77\0junk", 2)
