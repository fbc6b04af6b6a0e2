"""The README's Python example runs, and prints what its comments say."""

import contextlib
import io
import os
import re
import textwrap

import pytest

from conftest import ROOT


def readme_example():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"\n\n((?:    .*\n|\n)+)", section).group(1)
    return textwrap.dedent(block)


def test_readme_example(cli, tmp_path, monkeypatch):
    pytest.importorskip("numpy")  # it prints numpy arrays
    code = readme_example()
    want = [line.split("# ", 1)[1] for line in code.splitlines()
            if "print(" in line]
    os.mkdir(tmp_path / "examples")
    with open(os.path.join(ROOT, "examples", "game.txt")) as f:
        (tmp_path / "examples" / "game.txt").write_text(f.read())
    cli("game", "solve", "-q", "tictactoe", "-o", tmp_path / "ttt.ldb")
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().splitlines() == want
