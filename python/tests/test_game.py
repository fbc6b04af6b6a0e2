"""Games solved from Python (loopy.Game), their values as an enum, the
databases they write, and a database read back as arrays and counts."""

import json
import os
import shutil
import subprocess

import pytest

import loopy

KRK = "8/8/8/8/8/2k5/8/K6R w - - 0 1"


def probe_json(cli, *args):
    return json.loads(cli("game", "probe", "-f", "json", *args).stdout)[0]


def test_outcome_is_an_enum_that_equals_the_codes():
    assert loopy.Value.WIN is loopy.Outcome.WIN == loopy.WIN == 1
    assert [o.letter for o in loopy.Outcome] == ["D", "W", "L", "T"]
    v = loopy.Value(loopy.LOSE, 3)
    assert v.outcome is loopy.Outcome.LOSE and v == (2, 3)
    assert str(v) == "L 3"


def test_open_a_game_and_its_notation():
    with loopy.Game("tictactoe") as g:
        assert (g.name, g.params) == ("tictactoe", "")
        assert g.format(g.start) == ".../.../..."
        assert g.format(g.parse("x../.o./..x")) == "x../.o./..x"
        assert not g.names_moves and not g.has_tablebase
        with pytest.raises(loopy.LoopyError) as e:
            g.parse("x../.o./..")
        assert e.value.status_name == "EPARSE"
        with pytest.raises(ValueError):
            g.format(g.size)
        with pytest.raises(TypeError):
            g.format(1.0)
    assert loopy.Game("connect4", "5x4").params == "5x4"
    with pytest.raises(loopy.LoopyError) as e:
        loopy.Game("no-such-game")
    assert "no-such-game" in str(e.value)


def test_solve_as_the_command_line(cli):
    g = loopy.Game("tictactoe")
    with g.solve() as s:
        assert s.solver == "graph"
        assert len(s) == 765  # one position per class of symmetric ones
        assert s.counts[loopy.Outcome.TIE] + s.counts[loopy.Outcome.WIN] + \
            s.counts[loopy.Outcome.LOSE] == len(s)
        start = s.value(g.start)
        assert start == (loopy.Value.TIE, 9) and start.remoteness == 9
        for pos in ("x../.o./..x", ".../.../...", "xx./oo./..."):
            assert s.answer(pos) == probe_json(cli, "tictactoe", pos)
        assert s.best_moves("xx./oo./...")[0].text == "xxx/oo./..."
        missing = next(p for p in range(g.size) if p not in s)
        with pytest.raises(loopy.LoopyError) as e:
            s.value(missing)  # an index never reached
        assert e.value.status == loopy.EINVAL
    with g.solve(symmetry=False) as s:
        assert len(s) == 5478
    with g.solve(misere=True) as s:
        assert s.answer("x../.o./..x") == \
            probe_json(cli, "--misere", "tictactoe", "x../.o./..x")


def test_a_shared_object_with_draws(tmp_path, root, cli):
    """examples/ladder.c, whose play can cycle: its draws have no
    remoteness."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler (cc) to build examples/ladder.c")
    so = str(tmp_path / "ladder.so")
    subprocess.run([cc, "-shared", "-fPIC", "-I" + root + "/include",
                    root + "/examples/ladder.c", "-o", so], check=True,
                   timeout=120)
    g = loopy.Game(so + ":12")
    with g.solve() as s:
        assert s.counts[loopy.Outcome.DRAW] > 0
        values = [s.value(p) for p in range(g.size) if p in s]
        assert len(values) == len(s)
        for v in values:
            assert (v.remoteness is None) == (v.outcome is loopy.Value.DRAW)
        start = g.format(g.start)
        assert s.answer(start) == probe_json(cli, so + ":12", start)


def test_chess_by_its_tablebase_with_san(cli):
    g = loopy.Game("chess:KRK")
    assert g.has_tablebase and g.names_moves
    with g.solve() as s:
        assert s.solver == "tablebase"
        v = s.value(KRK)
        assert (v.outcome, v.remoteness, v.note) == \
            (loopy.Value.WIN, 27, "mate in 14")
        assert [m.name for m in s.best_moves(KRK)] == ["Rd1", "Rh4"]
        assert s.answer(KRK) == probe_json(cli, "chess:KRK", KRK)


def test_chess_sub_endings_from_tables(tmp_path):
    # KPK's queen promotions read from tables/KQK.ldb: the same database.
    with loopy.Game("chess:KQK").solve() as s:
        s.write(tmp_path / "KQK.ldb")
    with loopy.Game("chess:KPK").solve(tables=tmp_path) as a, \
            loopy.Game("chess:KPK").solve() as b:
        a.write(tmp_path / "a.ldb")
        b.write(tmp_path / "b.ldb")
    assert (tmp_path / "a.ldb").read_bytes() == \
        (tmp_path / "b.ldb").read_bytes()
    # Another ending's table under KQK's name is refused, naming the file.
    os.replace(tmp_path / "a.ldb", tmp_path / "KQK.ldb")
    with pytest.raises(loopy.LoopyError) as e:
        loopy.Game("chess:KPK").solve(tables=tmp_path)
    assert e.value.status == loopy.EFORMAT
    assert "KQK.ldb: it holds chess:KPK, not the ending KQK" in str(e.value)
    with pytest.raises(ValueError):
        loopy.Game("chess:KPK").solve(solver="retro", tables=tmp_path)
    with pytest.raises(loopy.LoopyError) as e:
        loopy.Game("chess:KPK").solve(tables=tmp_path / "nothing")
    assert e.value.status == loopy.EIO and "not a folder" in str(e.value)


def test_chess_build_tables(tmp_path):
    # Every ending of KPK's closure written alone; KPK's own values are the
    # whole solve's.
    kpk = "8/8/8/4k3/8/8/4P3/4K3 w"
    with loopy.Game("chess:KPK").solve(tables=tmp_path, build=True) as a, \
            loopy.Game("chess:KPK").solve() as b:
        assert a.value(kpk) == b.value(kpk)
        assert len(a) < len(b)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["KBK.ldb", "KK.ldb", "KNK.ldb", "KPK.ldb", "KQK.ldb",
                     "KRK.ldb"]
    with pytest.raises(ValueError):
        loopy.Game("chess:KPK").solve(build=True)


def test_solver_choice_is_checked():
    g = loopy.Game("tictactoe")
    with pytest.raises(ValueError):
        g.solve(solver="fast")
    with pytest.raises(ValueError):
        g.solve(all_legal=True)
    with pytest.raises(loopy.LoopyError) as e:
        g.solve(solver="tablebase")
    assert e.value.status == loopy.EINVAL
    with g.solve(solver="retro") as a, g.solve() as b:
        assert a.counts == b.counts and len(a) == len(b)


def test_write_the_database_the_command_line_writes(cli, tmp_path):
    path = tmp_path / "ttt.ldb"
    with loopy.Game("tictactoe").solve() as s:
        assert s.write(path) == str(path)
    cli("game", "solve", "-q", "tictactoe", "-o", tmp_path / "cli.ldb")
    assert path.read_bytes() == (tmp_path / "cli.ldb").read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["cli.ldb", "ttt.ldb"]
    with loopy.Database(path) as db:
        assert db.probe("x../.o./..x") == (loopy.Value.TIE, 6)
    with loopy.Game("tictactoe").solve() as s:
        with pytest.raises(loopy.LoopyError) as e:
            s.write(tmp_path / "no" / "such" / "folder.ldb")
        assert e.value.status_name == "EIO"
    assert sorted(os.listdir(tmp_path)) == ["cli.ldb", "ttt.ldb"]


def test_arrays_and_counts_by_remoteness(arrays, cli, tmp_path):
    path = tmp_path / "c4.ldb"
    with loopy.Game("connect4:4x4").solve() as s:
        s.write(path)
        size = len(s)
    with loopy.Database(path) as db:
        pos, outcome, rem = db.arrays()
        stats = db.stats()
        assert len(pos) == len(outcome) == len(rem) == size == db.size
        assert list(pos) == sorted(pos)
        assert stats.counts == {o: db.counts[o.letter]
                                for o in loopy.Outcome}
        expected = {}
        for o, r in zip(outcome, rem):
            if o != loopy.DRAW:
                expected.setdefault(int(r), [0, 0, 0, 0])[o] += 1
        assert [int(r) for r in stats.remoteness] == sorted(expected)
        assert [[int(c) for c in row] for row in stats.table] == \
            [expected[r] for r in sorted(expected)]
        wins = stats.by_remoteness(loopy.Value.WIN)
        assert sum(wins.values()) == stats.counts[loopy.Outcome.WIN]
        if arrays is not None:
            assert pos.dtype == arrays.uint64 and rem.dtype == arrays.uint32
            assert stats.table.shape == (len(stats.remoteness), 4)
            won = arrays.bincount(rem[outcome == loopy.Value.WIN])
            assert {r: int(c) for r, c in enumerate(won) if c} == wins
        # The command line's counts, as `loopy game stats` prints them.
        longest_win = stats.longest[loopy.Outcome.WIN]
        assert db.probe(longest_win[0]) == (loopy.Value.WIN, longest_win[1])


def test_help_is_a_reference():
    import pydoc
    text = pydoc.render_doc(loopy, renderer=pydoc.plaintext)
    for words in ("class Game", "solve(self, misere", "class Outcome",
                  "class GameSolution", "arrays(self)", "stats(self)",
                  "write(self, path"):
        assert words in text
    assert loopy.Game.solve.__annotations__["return"] == "GameSolution"


def test_a_solution_keeps_its_game():
    s = loopy.Game("tictactoe").solve()
    assert s.value(".../.../...").outcome is loopy.Outcome.TIE
    s.close()
    with pytest.raises(loopy.LoopyError):
        s.value(0)
