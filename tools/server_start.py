"""How long an editor waits for the language server: spawn to the initialize reply.

    python tools/server_start.py [--rounds 10] [--command msgraphlint server]

Starts the server as an editor does (the ``msgraphlint`` script beside this Python, stdio), sends
``initialize`` at once and times the wall clock from spawning the process to reading the reply;
then asks it to shut down and exit. Prints min / median / max over ``--rounds`` starts. ruff's
server, for comparison, answers in 5-16 ms (issue 34).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream) -> dict:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    if not line:
        raise EOFError("the server closed its output")
    return json.loads(stream.read(length))


def start_once(command: list[str]) -> float:
    """Seconds from spawning ``command`` to reading its initialize reply."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": Path.cwd().as_uri(), "capabilities": {}}}))
    process.stdin.flush()
    while (message := read_message(process.stdout)).get("id") != 1:
        pass  # a log message before the reply
    answered = time.perf_counter() - started
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    process.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    process.stdin.close()
    process.wait(timeout=30)
    return answered


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--command", nargs="+",
                        default=[str(Path(sys.executable).with_name("msgraphlint")), "server"])
    args = parser.parse_args(argv)
    start_once(args.command)  # the first start reads the files from disk: not what a user pays twice
    times = [start_once(args.command) * 1000 for _ in range(args.rounds)]
    print(f"{' '.join(args.command)}: initialize answered in {min(times):.0f} / "
          f"{statistics.median(times):.0f} / {max(times):.0f} ms (min / median / max of "
          f"{args.rounds})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
