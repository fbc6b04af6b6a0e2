"""C objects are freed deterministically: by close(), by leaving a with
block, or when the Python object goes (__del__); never twice, and never
while something that needs them lives."""

import gc

import pytest

import loopy
from loopy import LoopyError


@pytest.fixture
def frees(monkeypatch):
    """Counts the library's free calls, per class (from here: garbage that
    earlier tests left in cycles is collected first)."""
    gc.collect()
    counts = {}
    for cls in (loopy.Graph, loopy.Solution, loopy.Solver, loopy.Grundy,
                loopy.Database):
        original = cls._free

        def counting(ptr, original=original, name=cls.__name__):
            counts[name] = counts.get(name, 0) + 1
            original(ptr)
        monkeypatch.setattr(cls, "_free", staticmethod(counting))
    return counts


def test_close_and_with(frees):
    g = loopy.Graph.from_edges(3, [(0, 1), (1, 2)])
    with g.solve() as s:
        outcomes = s.outcomes
    assert s.closed and frees == {"Solution": 1}
    assert list(outcomes) == [loopy.LOSE, loopy.WIN, loopy.LOSE]  # a copy
    with pytest.raises(LoopyError) as info:
        s.remoteness
    assert "closed" in info.value.message
    s.close()  # again: nothing
    assert frees == {"Solution": 1}
    with g:
        pass
    assert g.closed and frees["Graph"] == 1
    with pytest.raises(LoopyError):
        g.solve()
    with pytest.raises(LoopyError):
        g.vertex_count


def test_del_frees(frees):
    g = loopy.Graph.from_edges(2, [(0, 1)])
    s = g.solve()
    gr = g.grundy()
    del s, gr
    assert frees == {"Solution": 1, "Grundy": 1}
    del g
    assert frees["Graph"] == 1
    # Cycles are freed by the collector.
    a = loopy.Graph.from_edges(1, [])
    a.me = a
    del a
    gc.collect()
    assert frees["Graph"] == 2


def test_solver_keeps_its_graph(frees):
    g = loopy.Graph.from_edges(3, [(0, 1), (1, 2)])
    solver = g.solver()
    del g
    gc.collect()
    assert "Graph" not in frees
    assert solver.solve(lose_at=[1]).letters() == "WLL"
    solver.close()
    assert frees["Solver"] == 1
    gc.collect()
    assert frees.get("Graph") == 1


def test_database_closes(cli, tmp_path, frees):
    path = tmp_path / "s.ldb"
    cli("game", "solve", "-q", "subtract:5,1,2", "-o", path)
    with loopy.Database(path) as db:
        assert db.probe(5).letter == "W"
    assert frees == {"Database": 1}
    with pytest.raises(LoopyError):
        db.probe(5)
    db = loopy.Database(path)
    del db
    assert frees == {"Database": 2}


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no /proc/self/status")


def test_no_leak_without_close():
    """A hundred graphs, solutions and Grundy values of 50000 vertices
    (about 1.5 MB together), never closed: memory must not grow with
    their number."""
    n = 50000
    edges = [(v, (v * 7 + 1) % n) for v in range(n)]

    def once():
        g = loopy.Graph.from_edges(n, edges)
        s = g.solve(threads=1)
        gr = g.grundy()
        return s.counts, gr.vertex_count

    for _ in range(20):
        once()
    before = rss_kib()
    for _ in range(100):
        once()
    grown = rss_kib() - before
    assert grown < 20 * 1024, "RSS grew by %d KiB" % grown
