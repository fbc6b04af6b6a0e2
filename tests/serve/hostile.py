#!/usr/bin/env python3
"""hostile.py - malformed and hostile HTTP against a running 'loopy serve'
(tests/cli/serve.sh): garbage bytes, truncated requests, a client that
stalls, pipelined requests, headers and URLs past the server's limits,
and 1000 connections opened at once.  After each, the server must still
answer a good request.  Prints "PASS NAME" or "FAIL NAME: WHY" per case.

    python3 tests/serve/hostile.py http://127.0.0.1:PORT/
"""
import json
import os
import random
import resource
import socket
import sys
import urllib.parse

URL = urllib.parse.urlsplit(sys.argv[1])
HOST, PORT = URL.hostname, URL.port
# Every wait is bounded, so that a hung server fails the case rather than
# the run; none is a measure of speed.
WAIT = 30.0


def connect():
    return socket.create_connection((HOST, PORT), timeout=WAIT)


def read_all(sock):
    """Everything the server sends until it closes (or WAIT passes)."""
    chunks = []
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    except socket.timeout:
        pass
    except ConnectionResetError:
        pass
    return b"".join(chunks)


def exchange(data, close_write=False):
    """Sends data on a new connection, returns all that comes back."""
    with connect() as sock:
        try:
            sock.sendall(data)
            if close_write:
                sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return read_all(sock)


def status_of(reply):
    line = reply.split(b"\r\n", 1)[0].split(b" ")
    return int(line[1]) if len(line) > 1 and line[1].isdigit() else None


def body_of(reply):
    return reply.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in reply else b""


def good_request():
    """A well-formed request answered 200 with the games: the server serves."""
    reply = exchange(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    if status_of(reply) != 200:
        return "no 200 for GET /api/games after it: %r" % reply[:200]
    try:
        games = json.loads(body_of(reply))
    except ValueError:
        return "GET /api/games did not answer JSON: %r" % reply[:200]
    if not isinstance(games, list) or not games:
        return "GET /api/games answered no games"
    return None


failures = 0


def case(name, check):
    """Runs check (None or a reason), then asks the server for its games."""
    global failures
    try:
        why = check()
    except OSError as e:
        why = "%s: %s" % (type(e).__name__, e)
    if why is None:
        why = good_request()
    if why is None:
        print("PASS %s" % name)
    else:
        failures += 1
        print("FAIL %s: %s" % (name, why))
    sys.stdout.flush()


def expect_json_error(reply, status):
    if status_of(reply) != status:
        return "expected status %d, got %r" % (status, reply[:120])
    try:
        error = json.loads(body_of(reply))["error"]
    except (ValueError, KeyError, TypeError):
        return "no JSON error in %r" % reply[:300]
    return None if error else "an empty error"


def garbage():
    rng = random.Random(26)
    for _ in range(20):
        exchange(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5000))), close_write=True)
    return None


def garbage_line():
    reply = exchange(b"\x00\x01\x02 \xff\xfe / HTTP/9.9\r\n\r\n", close_write=True)
    return None if status_of(reply) in (None, 400, 405, 505) else "answered %r" % reply[:120]


def truncated():
    for part in (b"GET", b"GET /api/pro", b"GET /api/probe?game=tictactoe HTTP/1.1\r\n",
                 b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-A: b"):
        exchange(part, close_write=True)
    return None


def stalled_client():
    """A client that sends half a request and waits: others are served."""
    with connect() as slow:
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n")
        why = good_request()
        if why:
            return "while a client stalls: " + why
        slow.sendall(b"X-Late: 1\r\n")
        return good_request()


def pipelined():
    reply = exchange(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n"
                     b"GET /nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    count200 = reply.count(b"HTTP/1.1 200 ")
    count404 = reply.count(b"HTTP/1.1 404 ")
    if count200 != 1 or count404 != 1:
        return "two pipelined requests: %d answers 200 and %d 404 (%r)" % (count200, count404, reply[:300])
    return None


def bad_method():
    return expect_json_error(exchange(b"BREW /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 405)


def body_refused():
    return expect_json_error(exchange(b"POST /api/probe HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\n"
                                      + b"x" * 65536), 405)


def get_with_body():
    return expect_json_error(exchange(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n0123456789"), 413)


def long_url():
    reply = exchange(b"GET /api/probe?game=" + b"a" * 5000 + b" HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    return expect_json_error(reply, 414)


def huge_url():
    """Past what a connection may hold: libmicrohttpd refuses it itself."""
    reply = exchange(b"GET /" + b"a" * 200000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n")
    status = status_of(reply)
    return None if status in (None, 400, 414, 431) else "answered %r" % reply[:120]


def huge_headers():
    reply = exchange(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n" + b"X-Big: " + b"b" * 100000 + b"\r\n\r\n")
    status = status_of(reply)
    return None if status in (None, 400, 413, 431) else "answered %r" % reply[:120]


def two_hosts():
    """Two Host headers (a loopback name first, another after): refused,
    not judged by the first alone (RFC 9112, 3.2)."""
    reply = exchange(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nhost: evil.example\r\nConnection: close\r\n\r\n")
    return expect_json_error(reply, 400)


def http10():
    reply = exchange(b"GET /api/games HTTP/1.0\r\n\r\n")
    return None if status_of(reply) == 200 else "HTTP/1.0 without Host: %r" % reply[:120]


def many_connections():
    """1000 connections at once, silent, then closed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1100 and hard >= 1100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    socks = []
    try:
        for _ in range(1000):
            s = socket.socket(socket.AF_INET6 if ":" in HOST else socket.AF_INET)
            s.setblocking(False)
            try:
                s.connect((HOST, PORT))
            except BlockingIOError:
                pass
            except OSError:
                s.close()
                continue
            socks.append(s)
        # Half of them send a request's start and stall.
        for s in socks[::2]:
            try:
                s.send(b"GET /api/ga")
            except OSError:
                pass
    finally:
        for s in socks:
            s.close()
    return None


for name, check in [("garbage bytes", garbage), ("a garbage request line", garbage_line),
                    ("truncated requests", truncated), ("a client that stalls", stalled_client),
                    ("pipelined requests", pipelined), ("an unknown method", bad_method),
                    ("a POST with a large body", body_refused), ("a GET with a body", get_with_body),
                    ("a URL past 2048 bytes", long_url), ("a URL past the connection's memory", huge_url),
                    ("headers past the connection's memory", huge_headers), ("two Host headers", two_hosts),
                    ("HTTP/1.0 without Host", http10), ("1000 connections at once", many_connections)]:
    case(name, check)
sys.exit(1 if failures else 0)
