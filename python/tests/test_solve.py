"""Graphs and their solutions, against an oracle written here from the
definitions (round by round, not by the library's queue) and against the
command-line tool's output."""

import array
import json
import random

import pytest

import loopy
from loopy import DRAW, LOSE, NONE, TIE, WIN


def oracle(n, edges, misere=False, lose_at=(), win_at=(), tie_at=()):
    """(outcomes, remoteness, best moves) by the definitions of loopy.h,
    computed in rounds: round r decides the Wins and Loses of remoteness
    r from those of r - 1, then the Ties likewise; the rest are Draws."""
    succ = [[] for _ in range(n)]
    for u, v in edges:
        succ[u].append(v)
    outcome = [None] * n
    rem = [None] * n
    for v in range(n):
        if v in lose_at:
            outcome[v], rem[v] = LOSE, 0
        elif v in win_at:
            outcome[v], rem[v] = WIN, 0
        elif v in tie_at:
            outcome[v], rem[v] = TIE, 0
        elif not succ[v]:
            outcome[v], rem[v] = (WIN if misere else LOSE), 0
    r = 1
    while True:
        new = []
        for v in range(n):
            if outcome[v] is not None:
                continue
            if any(outcome[w] == LOSE and rem[w] == r - 1 for w in succ[v]):
                new.append((v, WIN))
            elif all(outcome[w] == WIN and rem[w] < r for w in succ[v]) and \
                    max(rem[w] for w in succ[v]) == r - 1:
                new.append((v, LOSE))
        if not new:
            break
        for v, o in new:
            outcome[v], rem[v] = o, r
        r += 1
    r = 1
    while True:
        new = [v for v in range(n) if outcome[v] is None and
               any(outcome[w] == TIE and rem[w] == r - 1 for w in succ[v])]
        if not new:
            break
        for v in new:
            outcome[v], rem[v] = TIE, r
        r += 1
    best = [NONE] * n
    for v in range(n):
        if outcome[v] is None:
            outcome[v] = DRAW
    for v in range(n):
        o = outcome[v]
        if o == DRAW:
            cands = [w for w in succ[v] if outcome[w] == DRAW]
        elif rem[v] == 0:
            cands = []
        else:
            want = {WIN: LOSE, LOSE: WIN, TIE: TIE}[o]
            cands = [w for w in succ[v]
                     if outcome[w] == want and rem[w] == rem[v] - 1]
        if cands:
            best[v] = min(cands)
    return outcome, [NONE if x is None else x for x in rem], best


def random_game(rng, n_max=9):
    n = rng.randint(1, n_max)
    m = rng.randint(0, 3 * n)
    edges = [(rng.randrange(n), rng.randrange(n)) for _ in range(m)]
    verts = list(range(n))
    rng.shuffle(verts)
    k = rng.randint(0, min(3, n))
    picked = verts[:k]
    lose_at, win_at, tie_at = [], [], []
    for v in picked:
        rng.choice((lose_at, win_at, tie_at)).append(v)
    return n, edges, rng.random() < 0.3, lose_at, win_at, tie_at


def test_against_oracle(arrays):
    rng = random.Random(16)
    for trial in range(300):
        n, edges, misere, lose_at, win_at, tie_at = random_game(rng)
        if arrays is not None and trial % 2:
            tails = arrays.array([u for u, _ in edges], dtype=arrays.int64)
            heads = arrays.array([v for _, v in edges], dtype=arrays.int32)
            graph = loopy.Graph.from_edges(n, tails, heads)
        else:
            graph = loopy.Graph.from_edges(n, edges)
        want = oracle(n, edges, misere, lose_at, win_at, tie_at)
        # Now and then on two threads, through the parallel code (threads
        # on tiny graphs are slow to start: not every time).
        threads = 2 if trial % 10 == 0 else 1
        with graph, graph.solve(misere=misere, lose_at=lose_at,
                                win_at=win_at, tie_at=tie_at,
                                threads=threads,
                                parallel_min_level=threads - 1) as s:
            got = [list(s.outcomes), list(s.remoteness), list(s.best_moves)]
            assert got == [list(x) for x in want], (n, edges, misere,
                                                    lose_at, win_at, tie_at)
            for letter, code in (("W", WIN), ("L", LOSE), ("D", DRAW),
                                 ("T", TIE)):
                assert s.counts[letter] == want[0].count(code)


def test_array_types(arrays):
    g = loopy.Graph.from_edges(3, [0, 1, 0], [1, 2, 0])
    s = g.solve()
    if arrays is None:
        assert isinstance(s.outcomes, array.array)
        assert s.outcomes.typecode == "B"
        assert s.remoteness.typecode == "I"
        assert s.best_moves.typecode == "I"
    else:
        assert isinstance(s.outcomes, arrays.ndarray)
        assert s.outcomes.dtype == arrays.uint8
        assert s.remoteness.dtype == arrays.uint32
        assert s.best_moves.dtype == arrays.uint32
    assert list(s.outcomes) == [DRAW, WIN, LOSE]
    assert list(s.remoteness) == [NONE, 1, 0]
    assert list(s.best_moves) == [0, 2, NONE]
    assert s.letters() == "DWL"
    assert s.lines() == ["1 D - 1", "2 W 1 3", "3 L 0 -"]


def test_numpy_edge_layouts():
    np = pytest.importorskip("numpy")
    edges = np.array([[0, 1], [1, 2], [0, 0]], dtype=np.uint16)
    a = loopy.Graph.from_edges(3, edges)
    b = loopy.Graph.from_edges(np.int64(3), edges[:, 0], edges[:, 1])
    assert a.solve().lines() == b.solve().lines() == \
        ["1 D - 1", "2 W 1 3", "3 L 0 -"]
    assert a.successors(0) == [1, 0]
    # Targets as numpy arrays too.
    s = a.solve(lose_at=np.array([1]))
    assert s.lines()[:2] == ["1 W 1 2", "2 L 0 -"]
    empty = loopy.Graph.from_edges(2, np.zeros((0, 2), dtype=np.int64))
    assert (empty.n, empty.m) == (2, 0)


def test_without_numpy_installed(root, tmp_path):
    """The package imports and answers with array.array when numpy cannot
    be imported at all."""
    import os
    import subprocess
    import sys
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "sys.path.insert(0, %r)\n"
        "import array, loopy\n"
        "s = loopy.Graph.from_edges(3, [(0, 1), (1, 2), (0, 0)]).solve()\n"
        "assert isinstance(s.outcomes, array.array), type(s.outcomes)\n"
        "print(s.lines(), list(s.remoteness))\n"
        % os.path.join(root, "python"))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == \
        "['1 D - 1', '2 W 1 3', '3 L 0 -'] [4294967295, 1, 0]"


def _text(n, edges, base=1):
    return "%d %d\n" % (n, len(edges)) + "".join(
        "%d %d\n" % (u + base, v + base) for u, v in edges)


def test_against_command_line(cli, tmp_path):
    rng = random.Random(936)
    for trial in range(40):
        n, edges, misere, lose_at, win_at, tie_at = random_game(rng, 30)
        base = trial % 2
        path = tmp_path / "g.txt"
        path.write_text(_text(n, edges, base))
        args = ["solve", "-q", "--base", base, path]
        if misere:
            args.append("--misere")
        for flag, vs in (("--lose-at", lose_at), ("--win-at", win_at),
                         ("--tie-at", tie_at)):
            if vs:
                args += [flag, ",".join(str(v + base) for v in vs)]
        want = cli(*args).stdout.splitlines()
        with loopy.Graph.read(path, base=base) as g:
            assert g.base == base
            s = g.solve(misere=misere, lose_at=lose_at, win_at=win_at,
                        tie_at=tie_at, threads=1 + trial % 2)
            assert s.lines() == want
        # The same text from memory, and as adjacency lists.
        g = loopy.Graph.from_text(path.read_bytes(), base=base)
        assert g.solve(misere=misere, lose_at=lose_at, win_at=win_at,
                       tie_at=tie_at).lines() == want
        succ = [[] for _ in range(n)]
        for u, v in edges:
            succ[u].append(v)
        adj = "%d %d\n" % (n, len(edges)) + "".join(
            "%d %s\n" % (len(s), " ".join(str(v + base) for v in s))
            for s in succ)
        g = loopy.Graph.from_text(adj, format="adj", base=base)
        assert [g.successors(v) for v in range(n)] == succ
        assert g.solve(misere=misere, lose_at=lose_at, win_at=win_at,
                       tie_at=tie_at).lines() == want


def test_json_counts_and_binary(cli, tmp_path, root):
    game = root + "/examples/game.txt"
    doc = json.loads(cli("solve", "-q", "-f", "json", "--tie-at", "8",
                         game).stdout)
    g = loopy.Graph.read(game)
    s = g.solve(tie_at=[7])
    assert s.counts == doc["count"]
    assert (g.n, g.m, g.base) == (doc["vertices"], doc["edges"], doc["base"])
    for v, entry in enumerate(doc["positions"]):
        assert entry["vertex"] == v + 1
        assert entry["outcome"] == "DWLT"[s.outcomes[v]]
        assert entry["remoteness"] == (None if s.remoteness[v] == NONE
                                       else s.remoteness[v])
        assert entry["move"] == (None if s.best_moves[v] == NONE
                                 else s.best_moves[v] + 1)
    # A binary graph written by the command line and by the package.
    cli("convert", "-q", game, "-o", tmp_path / "a.lgr")
    g.write_binary(tmp_path / "b.lgr")
    for name in ("a.lgr", "b.lgr"):
        with loopy.Graph.read(tmp_path / name) as b:
            assert (b.n, b.m, b.base) == (8, 12, 1)
            assert b.solve(tie_at=[7]).lines() == s.lines()
    assert (tmp_path / "a.lgr").read_bytes() == (tmp_path / "b.lgr").read_bytes()


def test_solver_reuse():
    rng = random.Random(7)
    n, edges = 12, [(rng.randrange(12), rng.randrange(12)) for _ in range(30)]
    g = loopy.Graph.from_edges(n, edges)
    with g.solver() as solver:
        for v in range(n):
            want = oracle(n, edges, lose_at=[v])
            with solver.solve(lose_at=[v]) as s:
                assert [list(s.outcomes), list(s.remoteness),
                        list(s.best_moves)] == [list(x) for x in want]


def test_threads():
    assert loopy.threads(3) == 3 or loopy.threads(3) == 1
    assert loopy.threads(0) >= 1


def test_pairs_format():
    """Edge lines without the "n m" header (SNAP's layout), where the
    library reads them."""
    try:
        g = loopy.Graph.from_text("# c\n1 2\n2 3\n1 1\n", format="pairs")
    except loopy.LoopyError as e:
        if e.status == loopy.EINVAL:
            pytest.skip("this library does not read the pairs format")
        raise
    assert (g.n, g.m) == (3, 3)
    assert g.solve().lines() == ["1 D - 1", "2 W 1 3", "3 L 0 -"]
