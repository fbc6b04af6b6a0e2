"""The package's answers are `loopy game probe -f json`'s, side by side on
many positions: chess (the board as the user gave it, SAN, the mover's
value, the note), a game from a shared object opened with --game (the
database's parameters; draws without remoteness), misere play."""

import os
import random
import shutil
import subprocess

import pytest

import loopy
from loopy import DRAW, LOSE, TIE, WIN, LoopyError

from test_database import check_against_cli, probe_json


def square(index):
    return "abcdefgh"[index % 8] + str(index // 8 + 1)


def fen(pieces, side):
    """The FEN board of pieces {square index: letter} and the side."""
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = pieces.get(rank * 8 + file)
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + side


def random_boards(db, material, count, seed):
    """count boards of material ("KRk": white's upper case) that db reads,
    drawn at random: most are not their class's representative."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        squares = rng.sample(range(64), len(material))
        board = fen(dict(zip(squares, material)), rng.choice("wb"))
        try:
            db.position(board)
        except LoopyError as e:
            assert e.status == loopy.EPARSE  # in check, kings touching
            continue
        boards.append(board)
    return boards


@pytest.fixture(scope="module")
def krk(tmp_path_factory):
    """chess:KRK solved by the command line, in normal and misere play."""
    from conftest import cli_path
    if not os.access(cli_path(), os.X_OK):
        pytest.skip("no command-line tool at %s (set LOOPY)" % cli_path())
    folder = tmp_path_factory.mktemp("krk")
    paths = {}
    for name, args in (("normal", ()), ("misere", ("--misere",))):
        paths[name] = folder / ("krk-%s.ldb" % name)
        subprocess.run([cli_path(), "game", "solve", "-q", *args, "chess:KRK",
                        "-o", str(paths[name])], check=True,
                       capture_output=True, timeout=120)
    return paths


def test_chess_as_the_command_line(cli, krk):
    with loopy.Database(krk["normal"]) as db:
        assert db.names_moves
        boards = random_boards(db, "KRk", 60, seed=23)
        boards += ["8/8/8/4k3/8/8/8/R3K3 w - - 0 1",  # a full FEN
                   "4k3/8/4K3/8/8/8/8/R7 w",           # mate in 1
                   "4k3/R7/4K3/8/8/8/8/8 b",           # black to move
                   "k7/1R6/1K6/8/8/8/8/8 b"]           # stalemate: a Tie
        check_against_cli(cli, db, krk["normal"], boards)
        # The answers keep the board as given, not its class's stand-in.
        moved = [b for b in boards if db.format(b) != b]
        assert len(moved) > 40
        for board in moved:
            assert db.answer(board)["position"] == board
        assert any(m.text != db.format(m.to)
                   for board in moved for m in db.moves(board))
        # Values: W with the depth to mate, the mover's outcome.
        value = db.probe("4k3/8/4K3/8/8/8/8/R7 w")
        assert value == (WIN, 1) and value.note == "mate in 1"
        assert str(value) == "W 1 (mate in 1)"
        best = db.moves("4k3/8/4K3/8/8/8/8/R7 w")[0]
        assert (best.name, best.text) == ("Ra8#", "R3k3/8/4K3/8/8/8/8/8 b")
        assert (best.outcome, best.remoteness, best.note) == \
            (WIN, 1, "mate in 1")
        assert db.probe("k7/1R6/1K6/8/8/8/8/8 b") == (TIE, 0)
        assert db.moves("k7/1R6/1K6/8/8/8/8/8 b") == []
        lost = db.probe("4k3/R7/4K3/8/8/8/8/8 b")
        assert lost.outcome == LOSE
        assert all(m.outcome in (LOSE, TIE) for m in
                   db.moves("4k3/R7/4K3/8/8/8/8/8 b"))
        # Every legal move of the board as given: Rb1 and Ra2 reach mirror
        # images of one position (the kings on a diagonal), two moves.
        diagonal = "8/8/8/8/8/2k5/1R6/K7 w"
        moves = db.moves(diagonal)
        names = [m.name for m in moves]
        assert len(names) == 16 and len(set(names)) == 16
        rb1, ra2 = (next(m for m in moves if m.name == n)
                    for n in ("Rb1", "Ra2"))
        assert rb1.to == ra2.to and rb1.text != ra2.text
        assert (rb1.text, ra2.text) == ("8/8/8/8/8/2k5/8/KR6 b",
                                        "8/8/8/8/8/2k5/R7/K7 b")
        check_against_cli(cli, db, krk["normal"], [diagonal])
        # An index is shown in the game's notation (the representative).
        index = db.position(boards[0])
        assert db.answer(index)["position"] == db.format(index)
        entry = probe_json(cli, krk["normal"], [db.format(index)])[0]
        assert db.answer(index) == entry


def test_chess_misere_has_no_notes(cli, krk):
    with loopy.Database(krk["misere"]) as db:
        assert db.misere
        boards = random_boards(db, "KRk", 20, seed=5)
        check_against_cli(cli, db, krk["misere"], boards)
        for board in boards:
            assert db.probe(board).note is None
            assert all(m.note is None for m in db.moves(board))


@pytest.fixture
def ladder(tmp_path, root, cli):
    """examples/ladder.c built as a shared object, and its database of
    ladder:30 (not the default, 10)."""
    cc = shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler (cc) to build examples/ladder.c")
    subprocess.run([cc, "-shared", "-fPIC", "-I" + root + "/include",
                    root + "/examples/ladder.c", "-o",
                    str(tmp_path / "ladder.so")], check=True, timeout=120)
    cli("game", "solve", "-q", "./ladder.so:30", "-o", "ladder.ldb",
        cwd=tmp_path)
    return tmp_path


def test_game_given_takes_the_database_parameters(cli, ladder, monkeypatch):
    """Database(path, game="./ladder.so") opens the object with the
    database's parameters, as `loopy game probe --game` does."""
    monkeypatch.chdir(ladder)
    positions = [str(p) for p in range(31)]
    for spec in ("./ladder.so", str(ladder / "ladder.so"),
                 "./ladder.so:30"):
        with loopy.Database("ladder.ldb", game=spec) as db:
            assert (db.name, db.params) == ("ladder", "30")
            assert not db.names_moves
            check_against_cli(cli, db, "ladder.ldb", positions,
                              "--game", "./ladder.so")
            # Cycles: draws, without remoteness, here and in the moves.
            assert db.probe(0) == (DRAW, None)
            assert str(db.probe(0)) == "D"
            assert db.moves(7) == [(5, DRAW, None, "5", "5", None),
                                   (8, DRAW, None, "8", "8", None)]
            assert db.probe(29) == (WIN, 1)
            assert db.moves(28)[-1][:3] == (29, LOSE, 2)
    # Other parameters are another game: refused, as on the command line.
    p = cli("game", "probe", "--game", "./ladder.so:12", "ladder.ldb", "7",
            check=False)
    assert p.returncode == 2
    with pytest.raises(LoopyError) as info:
        loopy.Database("ladder.ldb", game="./ladder.so:12")
    assert info.value.status == loopy.EINVAL
    assert info.value.message in p.stderr
    # Without the game, the database names one that is not built in.
    with loopy.Database("ladder.ldb") as db, pytest.raises(LoopyError) as info:
        db.moves(7)
    assert "ladder" in str(info.value)
