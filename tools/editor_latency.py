"""Diagnostics latency in the editor: from the last keystroke to the diagnostics of that text.

    python tools/editor_latency.py [--suite models] [--files 6] [--rounds 8]

Starts ``msgraphlint server`` as an editor does (stdio), opens real files of about 1,000 lines
that define Cells (from the benchmark suites, tools/benchmark.py fetches them), and types a word
into a comment in the middle of each construct-holding file, one character every
``KEYSTROKE_SECONDS`` (a fast typist): every intermediate text parses, so every pause costs a
whole analysis, the worst case. The latency is the wall time from the last keystroke's
``didChange`` to the ``publishDiagnostics`` for that version: debounce, analysis and transport.

Baselines in the same process and on the same files: the analysis alone, in process, after the
same edit (``Session.report``), and ``ast.parse`` of the file (the floor any linter pays).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark import DEFAULT_CACHE, SUITES, fetch_suite  # noqa: E402

from msgraphlint.server.lsp import DEBOUNCE_SECONDS  # noqa: E402
from msgraphlint.server.session import Session  # noqa: E402

KEYSTROKE_SECONDS = 0.03
WORD = "typing"


class Client:
    """A minimal JSON-RPC client over the server's pipes, reading on a thread."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "msgraphlint.cli", "server"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 0
        self.published: dict[tuple[str, int | None], float] = {}
        self.responses: dict[int, dict] = {}
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            message = json.loads(stream.read(length))
            now = time.perf_counter()
            with self.arrived:
                if message.get("method") == "textDocument/publishDiagnostics":
                    params = message["params"]
                    self.published[(params["uri"], params.get("version"))] = now
                elif "id" in message and "method" not in message:
                    self.responses[message["id"]] = message
                self.arrived.notify_all()

    def send(self, method: str, params: dict, request: bool = False) -> int | None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.process.stdin.flush()
        return message.get("id")

    def wait(self, ready, timeout: float = 120.0):
        with self.arrived:
            if not self.arrived.wait_for(ready, timeout):
                raise TimeoutError("the server did not answer")
            return ready()

    def request(self, method: str, params: dict) -> dict:
        number = self.send(method, params, request=True)
        return self.wait(lambda: self.responses.get(number))

    def close(self) -> None:
        self.request("shutdown", None)
        self.send("exit", None)
        self.process.wait(timeout=30)


def typing_line(text: str) -> int:
    """A line in the middle of the file's first construct, where a comment can be typed."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "construct" and node.body:
            return node.body[0].lineno - 1
    return len(text.splitlines()) // 2


def candidates(root: Path, count: int) -> list[Path]:
    """Files of 900 to 1,200 lines whose Cells define construct, largest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = text.count("\n")
        if 900 <= lines <= 1200 and "def construct(" in text:
            found.append((lines, path))
    return [path for _, path in sorted(found, reverse=True)[:count]]


def measure_file(client: Client, path: Path, rounds: int) -> list[float]:
    uri = path.as_uri()
    text = path.read_text("utf-8")
    client.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    client.wait(lambda: (uri, 1) in client.published)
    line = typing_line(text)
    lines = text.split("\n")
    version, latencies = 1, []
    for round_number in range(rounds):
        # Whole texts, as the server asks (TextDocumentSyncKind.Full): a range change would be
        # taken for the whole buffer, and the server would analyse one line.
        lines.insert(line, f"# {round_number}")
        version += 1
        client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": "\n".join(lines)}]})
        for typed, char in enumerate(WORD):
            if typed:
                time.sleep(KEYSTROKE_SECONDS)
            version += 1
            lines[line] += char
            client.send("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": "\n".join(lines)}]})
            sent = time.perf_counter()
        published = client.wait(lambda: client.published.get((uri, version)))
        latencies.append(published - sent)
    client.send("textDocument/didClose", {"textDocument": {"uri": uri}})
    return latencies


def in_process_baselines(path: Path, rounds: int) -> tuple[float, float]:
    """The median analysis after an edit (a Session, as the server runs it) and ast.parse."""
    session = Session()
    text = path.read_text("utf-8")
    session.open(path, text)
    session.report(path)
    analysis, parse = [], []
    for round_number in range(rounds):
        edited = text.replace("\n", f"\n# {round_number}\n", 1)
        session.change(path, edited)
        start = time.perf_counter()
        session.report(path)
        analysis.append(time.perf_counter() - start)
        start = time.perf_counter()
        ast.parse(edited)
        parse.append(time.perf_counter() - start)
    return statistics.median(analysis), statistics.median(parse)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="models")
    parser.add_argument("--files", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    root = fetch_suite(args.suite, args.cache)
    files = candidates(root, args.files)
    client = Client()
    client.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                  "capabilities": {}})
    client.send("initialized", {})
    rows, everything = [], []
    for path in files:
        latencies = measure_file(client, path, args.rounds)
        everything += latencies
        analysis, parse = in_process_baselines(path, args.rounds)
        median = statistics.median(latencies)
        rows.append(f"| {path.relative_to(root)} | {path.read_text('utf-8').count(chr(10))} | "
                    f"{median * 1000:.0f} | {max(latencies) * 1000:.0f} | {analysis * 1000:.0f} | "
                    f"{parse * 1000:.1f} | {median / parse:.0f}x |")
    client.close()
    command = "python tools/editor_latency.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"Command: `{command.strip()}`; debounce {DEBOUNCE_SECONDS * 1000:.0f} ms, a keystroke "
          f"every {KEYSTROKE_SECONDS * 1000:.0f} ms, {args.rounds} words typed per file.\n")
    print("| file | lines | last keystroke to diagnostics, median ms | max ms | analysis alone, "
          "ms | ast.parse, ms | latency / parse |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print(f"\nAll files: median {statistics.median(everything) * 1000:.0f} ms, "
          f"max {max(everything) * 1000:.0f} ms over {len(everything)} pauses.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
