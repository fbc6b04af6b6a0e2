"""Sprague-Grundy values (Smith's, on graphs with cycles), sums of tokens
and octal games: against mex computed here, the outcomes of the oracle of
test_solve, sums played out on the product graph, and the command line."""

import itertools
import random

import loopy
from loopy import GRUNDY_INF, LOSE, WIN

from test_solve import oracle


def random_graph(rng, n_max, acyclic=False):
    n = rng.randint(1, n_max)
    edges = []
    for _ in range(rng.randint(0, 3 * n)):
        u, v = rng.randrange(n), rng.randrange(n)
        if acyclic:
            if u == v:
                continue
            u, v = min(u, v), max(u, v)
        edges.append((u, v))
    return n, edges


def mex_values(n, edges):
    succ = [[] for _ in range(n)]
    for u, v in edges:
        succ[u].append(v)
    value = [None] * n
    for v in reversed(range(n)):  # edges go from lower to higher ids
        seen = {value[w] for w in succ[v]}
        value[v] = next(k for k in itertools.count() if k not in seen)
    return value


def test_acyclic_is_mex(arrays):
    rng = random.Random(1)
    for _ in range(100):
        n, edges = random_graph(rng, 10, acyclic=True)
        with loopy.Graph.from_edges(n, edges) as g, g.grundy() as gr:
            assert list(gr.values) == mex_values(n, edges)
            assert all(gr.inf_set(v) == [] for v in range(n))
            if arrays is not None:
                assert gr.values.dtype == arrays.uint32
            # A sum of finite tokens is their XOR.
            tokens = [rng.randrange(n) for _ in range(rng.randint(0, 4))]
            total = 0
            for t in tokens:
                total ^= gr.values[t]
            s = gr.sum(tokens)
            assert s.value == total and s.infinite_count == 0
            assert s.outcome == (LOSE if total == 0 else WIN)


def test_outcomes_agree_with_oracle():
    rng = random.Random(2)
    for _ in range(200):
        n, edges = random_graph(rng, 9)
        want = oracle(n, edges)[0]
        with loopy.Graph.from_edges(n, edges) as g, g.grundy() as gr:
            assert list(gr.outcomes()) == want
            assert [gr.outcome(v) for v in range(n)] == want
            for v in range(n):
                if gr.values[v] == GRUNDY_INF:
                    succ_values = {gr.values[w] for u, w in edges if u == v}
                    assert set(gr.inf_set(v)) == succ_values - {GRUNDY_INF}


def test_sums_against_product_graph():
    """Two tokens on one graph are one token on the product graph: the
    sum's outcome must be the oracle's for that graph."""
    rng = random.Random(3)
    for _ in range(60):
        n, edges = random_graph(rng, 6)
        pair = lambda a, b: a * n + b  # noqa: E731
        product = []
        for a in range(n):
            for b in range(n):
                product += [(pair(a, b), pair(w, b)) for u, w in edges if u == a]
                product += [(pair(a, b), pair(a, w)) for u, w in edges if u == b]
        want = oracle(n * n, product)[0]
        with loopy.Graph.from_edges(n, edges).grundy() as gr:
            for a in range(n):
                for b in range(n):
                    assert gr.sum([a, b]).outcome == want[pair(a, b)], \
                        (n, edges, a, b)


def test_against_command_line(cli, tmp_path):
    rng = random.Random(4)
    for _ in range(20):
        n, edges = random_graph(rng, 25)
        path = tmp_path / "g.txt"
        path.write_text("%d %d\n" % (n, len(edges)) +
                        "".join("%d %d\n" % (u + 1, v + 1) for u, v in edges))
        lines = cli("grundy", "-q", path).stdout.splitlines()
        with loopy.Graph.read(path) as g, g.grundy() as gr:
            assert ["%d %s %s" % (v + 1, gr.text(v),
                                  "DWLT"[gr.outcome(v)])
                    for v in range(n)] == lines
            queries = [[rng.randrange(n) for _ in range(rng.randint(1, 4))]
                       for _ in range(10)]
            text = "".join(" ".join(str(t + 1) for t in q) + "\n"
                           for q in queries)
            want = cli("sum", path, input=text).stdout.splitlines()
            assert [str(gr.sum(q)) for q in queries] == want


def test_octal(cli):
    # Kayles (0.77) by its definition: take 1 or 2 adjacent pins, leaving
    # zero, one or two rows.
    values = []
    for h in range(40):
        seen = set()
        for take in (1, 2):
            for left in range(h - take + 1):
                right = h - take - left
                seen.add(values[left] ^ values[right])
        values.append(next(k for k in itertools.count() if k not in seen))
    assert list(loopy.octal("0.77", 39)) == values
    assert list(loopy.octal(".77", 39)) == values
    want = [int(line.split()[1]) for line in
            cli("octal", "0.137", "60").stdout.splitlines()]
    assert list(loopy.octal("0.137", 60)) == want
