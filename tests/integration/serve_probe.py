#!/usr/bin/env python3
"""Probes of a running `railyard serve` that curl cannot make (tests/integration/serve_test.sh).

  serve_probe.py flood URL TOKEN PID
      2 x nproc + 20 clients that send their request head one line a second and never end it, and
      one request with 32 MB of header lines; meanwhile an authenticated GET /api/v1/summary must
      answer within 1 s, and the server's resident memory (of PID) must stay within 64 MiB of idle.
"""
import json
import os
import socket
import sys
import threading
import time
import urllib.parse


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def get(url, path, token=None, timeout=5.0):
    u = urllib.parse.urlsplit(url)
    s = socket.create_connection((u.hostname, u.port), timeout=timeout)
    head = f"GET {path} HTTP/1.1\r\nHost: {u.netloc}\r\nConnection: close\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    s.sendall((head + "\r\n").encode())
    got = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
    s.close()
    return got


def flood(url, token, pid):
    u = urllib.parse.urlsplit(url)
    idle = rss_kib(pid)
    stop = threading.Event()
    slow = []
    for _ in range(2 * os.cpu_count() + 20):
        s = socket.create_connection((u.hostname, u.port))
        s.sendall(f"GET /api/v1/summary HTTP/1.1\r\nHost: {u.netloc}\r\n".encode())
        slow.append(s)

    def trickle():
        n = 0
        while not stop.wait(1.0):
            for s in slow:
                try:
                    s.sendall(f"X-Slow-{n}: 1\r\n".encode())
                except OSError:
                    pass
            n += 1

    big_status = {}

    def big():
        s = socket.create_connection((u.hostname, u.port))
        line = b"X-Filler: " + b"a" * 1000 + b"\r\n"
        sent = 0
        try:
            s.sendall(f"GET /api/v1/summary HTTP/1.1\r\nHost: {u.netloc}\r\nAuthorization: Bearer {token}\r\n".encode())
            while sent < 32 * 1024 * 1024:
                s.sendall(line * 64)
                sent += len(line) * 64
            s.sendall(b"\r\n")
        except OSError:
            pass  # the server stopped reading: what it answered is below
        big_status["sent"] = sent
        try:
            s.settimeout(3)
            big_status["answer"] = s.recv(200).decode(errors="replace").split("\r\n")[0]
        except OSError as e:
            big_status["answer"] = f"closed ({e.__class__.__name__})"
        s.close()

    t1 = threading.Thread(target=trickle)
    t2 = threading.Thread(target=big)
    t1.start()
    t2.start()
    time.sleep(2.5)  # the slow clients have sent two more lines each; the big request is under way
    worst = 0.0
    answers = []
    for _ in range(5):
        start = time.monotonic()
        answer = get(url, "/api/v1/summary", token)
        worst = max(worst, time.monotonic() - start)
        answers.append(answer.split(b"\r\n")[0].decode())
        time.sleep(0.2)
    t2.join(timeout=30)
    peak = rss_kib(pid)
    stop.set()
    t1.join()
    for s in slow:
        s.close()
    result = {
        "slow_clients": len(slow),
        "summary_answers": answers,
        "worst_seconds": round(worst, 3),
        "idle_rss_kib": idle,
        "peak_rss_kib": peak,
        "big_request": big_status,
    }
    print(json.dumps(result))
    ok = all(a.startswith("HTTP/1.1 200") for a in answers) and worst < 1.0 and peak - idle < 64 * 1024
    return 0 if ok else 1


def main(argv):
    if len(argv) == 5 and argv[1] == "flood":
        return flood(argv[2], argv[3], int(argv[4]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
