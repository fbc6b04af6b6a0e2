"""Shared fixtures.  The tests import the package from python/ (this
folder's parent) and the library from $LOOPY_LIBRARY (else as the package
finds it); the command-line tool they compare against is $LOOPY (else
build/loopy of the repository)."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))

from loopy import _arrays  # noqa: E402


def cli_path():
    return os.path.abspath(os.environ.get("LOOPY",
                                          os.path.join(ROOT, "build", "loopy")))


@pytest.fixture
def cli():
    """run(args..., input=None, check=True) -> CompletedProcess of loopy."""
    path = cli_path()
    if not os.access(path, os.X_OK):
        pytest.skip("no command-line tool at %s (set LOOPY)" % path)

    def run(*args, input=None, check=True, cwd=None):
        p = subprocess.run([path] + [str(a) for a in args], input=input,
                           capture_output=True, text=True, cwd=cwd,
                           timeout=120)
        if check and p.returncode != 0:
            raise AssertionError("loopy %s: exit %d: %s"
                                 % (" ".join(map(str, args)), p.returncode,
                                    p.stderr))
        return p
    return run


@pytest.fixture
def make_db(cli, tmp_path):
    """make(spec, options...) -> the path of the database that `loopy game
    solve` writes for spec."""
    def make(spec, *args):
        name = spec.replace(":", "_").replace(",", "_") + "".join(args) + ".ldb"
        path = tmp_path / name
        cli("game", "solve", "-q", *args, spec, "-o", path)
        return path
    return make


@pytest.fixture(params=["numpy", "plain"])
def arrays(request, monkeypatch):
    """Runs a test twice: with numpy, and as without it (array.array and
    lists).  Yields the numpy module or None."""
    if request.param == "numpy":
        if _arrays.np is None:
            pytest.skip("numpy is not installed")
        yield _arrays.np
    else:
        monkeypatch.setattr(_arrays, "np", None)
        yield None


@pytest.fixture
def root():
    return ROOT
