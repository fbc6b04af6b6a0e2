"""Databases (.ldb) written by the command line, probed here and compared
with `loopy game probe` and `loopy game stats` on the same files, and a
graph's database with the package's own solve."""

import json

import pytest

import loopy
from loopy import DRAW, WIN, LoopyError

from test_solve import oracle


def probe_json(cli, db_path, positions, *options):
    return json.loads(cli("game", "probe", "-q", "-f", "json", *options,
                          db_path, *positions).stdout)


def check_against_cli(cli, db, path, positions, *options):
    """db's answers for positions are `loopy game probe -f json`'s, field
    by field, and as a whole (Database.answer)."""
    entries = probe_json(cli, path, positions, *options)
    assert len(entries) == len(positions)
    for pos, entry in zip(positions, entries):
        assert db.answer(pos) == entry
        value = db.probe(pos)
        assert (value.letter, value.remoteness, value.note) == \
            (entry["value"], entry["remoteness"], entry.get("note"))
        assert value == db.probe(db.position(pos))
        moves = db.moves(pos)
        assert [(m.text, m.letter, m.remoteness, m.note) for m in moves] == \
            [(m["to"], m["value"], m["remoteness"], m.get("note"))
             for m in entry["moves"]]
        if db.names_moves:
            assert [m.name for m in moves] == \
                [m["move"] for m in entry["moves"]]
        else:
            assert all("move" not in m for m in entry["moves"])
            assert [m.name for m in moves] == [m.text for m in moves]
        # The mover's view: the best move has the position's own value
        # (a draw without remoteness).
        if moves:
            assert moves[0].value == value
        for m in moves:
            assert (m.remoteness is None) == (m.outcome == DRAW)
        best = db.best_moves(pos)
        assert best == moves[:len(best)] and (best or not moves)
        assert all(m.value == moves[0].value for m in best)
        assert all(m.value != moves[0].value for m in moves[len(best):])


@pytest.mark.parametrize("spec,args", [
    ("subtract:10,1,2", ()),
    ("subtract:15,1,3,4", ("--misere",)),
    ("tictactoe", ()),
    ("mnk:3,4,3", ()),
])
def test_probe_matches_command_line(cli, make_db, spec, args):
    path = make_db(spec, *args)
    stats = json.loads(cli("game", "stats", "-f", "json", path).stdout)
    with loopy.Database(path) as db:
        assert db.name == stats["game"] and db.params == stats["parameters"]
        assert db.misere == stats["misere"] == ("--misere" in args)
        assert db.symmetric == stats["symmetric"]
        assert db.size == len(db) == stats["positions"]
        assert db.index_size == stats["index_space"]
        assert db.counts == {"W": stats["win"], "L": stats["lose"],
                             "T": stats["tie"], "D": stats["draw"]}
        assert db.max_remoteness == max(
            r["remoteness"] for r in stats["remoteness"])
        assert not db.is_graph and db.base == 0
        positions, outcomes, remoteness = db.values()
        assert len(positions) == db.size
        assert positions == sorted(positions)
        texts = [db.format(p) for p in positions]
        # Every position of the small games, a sample of the others.
        sample = texts if len(texts) <= 40 else texts[::len(texts) // 40]
        check_against_cli(cli, db, path, sample + [db.format(db.start)])
        for p, o, r in zip(positions[:50], outcomes, remoteness):
            v = db.probe(p)
            assert v.outcome == o
            assert v.remoteness == (None if r == loopy.NONE else r)
            assert p in db


def test_graph_database(cli, tmp_path, root):
    game = root + "/examples/game.txt"
    cli("solve", "-q", "--misere", game, "-o", tmp_path / "g.ldb")
    g = loopy.Graph.read(game)
    s = g.solve(misere=True)
    with loopy.Database(tmp_path / "g.ldb") as db:
        assert db.is_graph and db.name == "graph" and db.base == 1
        assert db.misere and db.size == 8
        positions, outcomes, remoteness = db.values()
        assert positions == list(range(8))
        assert list(outcomes) == list(s.outcomes)
        assert list(remoteness) == list(s.remoteness)
        # Vertices as the text numbered them, or 0-based indices.
        for v in range(8):
            value = db.probe(str(v + 1))
            assert value == db.probe(v)
            assert value.outcome == s.outcomes[v]
            assert db.format(v) == str(v + 1)
        assert db.start is None
        with pytest.raises(LoopyError) as info:
            db.moves(0)
        assert "graph" in info.value.message
        with pytest.raises(LoopyError) as info:
            db.probe("9")
        assert info.value.status == loopy.EPARSE
        assert "1 to 8" in info.value.message


def test_oracle_on_a_game_graph(make_db):
    """subtract:N,1,2 by the oracle of test_solve: heap h moves to h-1 and
    h-2; the database must hold the same values."""
    n = 12
    edges = [(h, h - k) for h in range(n + 1) for k in (1, 2) if h - k >= 0]
    outcomes, remoteness, _ = oracle(n + 1, edges)
    with loopy.Database(make_db("subtract:%d,1,2" % n)) as db:
        for h in range(n + 1):
            v = db.probe(h)
            assert (v.outcome, v.remoteness) == (outcomes[h], remoteness[h])


def test_database_errors(cli, make_db, tmp_path):
    with pytest.raises(LoopyError) as info:
        loopy.Database(tmp_path / "missing.ldb")
    assert info.value.status == loopy.EIO
    (tmp_path / "junk.ldb").write_bytes(b"not a database\n" * 10)
    with pytest.raises(LoopyError) as info:
        loopy.Database(tmp_path / "junk.ldb")
    assert info.value.status == loopy.EFORMAT
    assert str(info.value).startswith(str(tmp_path / "junk.ldb") + ": ")

    path = make_db("tictactoe")
    with loopy.Database(path) as db:
        for text in ("x../...", "xxx/ooo/...", "xx./.../..."):
            p = cli("game", "probe", "-q", path, text, check=False)
            assert p.returncode == 1
            with pytest.raises(LoopyError) as info:
                db.probe(text)
            e = info.value
            assert e.status == loopy.EPARSE
            assert e.message in p.stderr, (e.message, p.stderr)
        with pytest.raises(TypeError):
            db.probe(1.5)

    # A position the game has but the solve never reached.
    path = make_db("subtract:10,3")
    with loopy.Database(path) as db:
        assert db.size == 4
        assert db.probe("7").letter == "L"
        assert 7 in db and 5 not in db
        with pytest.raises(LoopyError) as info:
            db.probe("5")
        assert info.value.status == loopy.EINVAL
        with pytest.raises(LoopyError) as info:
            db.moves(5)
        assert info.value.status == loopy.EINVAL
    # A damaged block: the header checks out, the probe does not.
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x55
    (tmp_path / "damaged.ldb").write_bytes(bytes(data))
    try:
        db = loopy.Database(tmp_path / "damaged.ldb")
    except LoopyError as e:
        assert e.status == loopy.EFORMAT
    else:
        with db, pytest.raises(LoopyError) as info:
            db.values()
        assert info.value.status == loopy.EFORMAT


def test_game_given(make_db):
    """A database opened with its game named, as `loopy game probe --game`
    does for a game that is not built in."""
    path = make_db("subtract:10,1,2")
    with loopy.Database(path, game="subtract:10,1,2") as db:
        assert db.probe("7") == (WIN, 5)
        assert [m.text for m in db.moves("7")] == ["6", "5"]
    with pytest.raises(LoopyError) as info:
        loopy.Database(path, game="subtract:12,1,2")
    assert info.value.status == loopy.EINVAL and "subtract" in str(info.value)
    with pytest.raises(LoopyError) as info:
        loopy.Database(path, game="nosuchgame")
    assert info.value.message
