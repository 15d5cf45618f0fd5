"""The language server's memory over a long editing session: RSS after 50 and after 500 edits.

    python tools/server_memory.py [--file PATH | --suite models] [--edits 50 500]

Starts ``msgraphlint server`` as an editor does (stdio), opens a model file of about 1,000 lines
(by default one this script writes: Cells with helpers and findings; ``--suite`` takes the
largest construct-holding file of a benchmark suite, ``--file`` any file), and edits it: every
``didChange`` (the whole text: the server asks for full synchronisation) rewrites one comment line
in the middle of the file, so the buffer keeps about its size and every version is analysed in
full. Each edit waits for the diagnostics of its version, then
the next is sent. The server's resident set size (VmRSS) is read after each checkpoint; with
memory that stays flat, the last is within 10% of the first.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from editor_latency import Client, candidates, typing_line  # noqa: E402

TARGET = 0.10  # the last checkpoint's RSS at most this much above the first's

HEAD = '''"""A model file written by tools/server_memory.py."""

import numpy as np
from mindspore import nn, ops
'''
BLOCK = '''

class Block{i}(nn.Cell):
    """Block {i}: a convolution, a norm and a helper the graph reaches."""

    def __init__(self, channels={channels}):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, pad_mode="same")
        self.norm = nn.BatchNorm2d(channels)
        self.scale = {i}.5

    def _post{i}(self, x):
        y = np.where(x > 0, x, 0)
        return y * self.scale

    def construct(self, x):
        h = self.norm(self.conv(x))
        h = ops.relu(h)
        n = h.size(0)
        z = h.detach()
        for k in range(3):
            h = h + z * k
        return self._post{i}(h) + n
'''


def model_text(lines: int = 1000) -> str:
    parts, count, index = [HEAD], HEAD.count("\n"), 0
    while count < lines - BLOCK.count("\n"):
        block = BLOCK.format(i=index, channels=8 + index % 4)
        parts.append(block)
        count += block.count("\n")
        index += 1
    return "".join(parts)


def rss_mib(pid: int) -> float:
    """VmRSS of a process, in MiB (Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def measure(path: Path, checkpoints: list[int]) -> list[tuple[int, float, float]]:
    """(edits, RSS MiB, seconds) at each checkpoint."""
    client = Client()
    client.request("initialize", {"processId": os.getpid(), "rootUri": path.parent.as_uri(),
                                  "capabilities": {}})
    client.send("initialized", {})
    uri = path.as_uri()
    text = path.read_text("utf-8")
    line = typing_line(text)
    lines = text.split("\n")
    lines.insert(line, "# edit 0")
    client.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": "\n".join(lines)}})
    client.wait(lambda: (uri, 1) in client.published)
    rows, start = [], time.perf_counter()
    for edit in range(1, max(checkpoints) + 1):
        version = edit + 1
        lines[line] = f"# edit {edit}"
        # The whole text: the server asks for full synchronisation (TextDocumentSyncKind.Full).
        client.send("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": "\n".join(lines)}]})
        client.wait(lambda: (uri, version) in client.published)
        if edit in checkpoints:
            rows.append((edit, rss_mib(client.process.pid), time.perf_counter() - start))
    client.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--file", type=Path, help="the file to edit (default: a generated one)")
    source.add_argument("--suite", help="the largest 900-1,200-line construct file of a suite")
    parser.add_argument("--edits", type=int, nargs="+", default=[50, 500],
                        help="checkpoints: RSS is read after this many edits")
    args = parser.parse_args(argv)
    checkpoints = sorted(set(args.edits))
    with tempfile.TemporaryDirectory() as folder:
        if args.file is not None:
            path = args.file.resolve()
        elif args.suite is not None:
            from benchmark import DEFAULT_CACHE, fetch_suite

            path = candidates(fetch_suite(args.suite, DEFAULT_CACHE), 1)[0]
        else:
            path = Path(folder) / "model.py"
            path.write_text(model_text(), "utf-8")
            (Path(folder) / "pyproject.toml").write_text("", "utf-8")
        described = f"{path.name}, {path.read_text('utf-8').count(chr(10))} lines"
        rows = measure(path, checkpoints)
    given = argv if argv is not None else sys.argv[1:]
    command = "python tools/server_memory.py " + " ".join(given)
    print(f"Command: `{command.strip()}`; {described}, each edit waited for.")
    print("\n| edits | server RSS, MiB | seconds |\n| --- | --- | --- |")
    for edits, rss, seconds in rows:
        print(f"| {edits} | {rss:.1f} | {seconds:.0f} |")
    growth = rows[-1][1] / rows[0][1] - 1
    verdict = "within" if growth <= TARGET else "OVER"
    print(f"\nRSS after {rows[-1][0]} edits is {growth:+.1%} of RSS after {rows[0][0]}: {verdict} "
          f"the {TARGET:.0%} target.")
    return 0 if growth <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
