"""Does the cost grow with the code alone? Time per Cell and per redefinition (never a timed unit test).

    python tools/scaling_benchmark.py [--repeat 3] [--svg docs/scaling.svg] [--no-cli]

Two kinds of generated file, each at several sizes:

- **Cells**: N distinct small Cells (a Dense layer, a construct with one finding that has a fix).
- **redefinitions**: samples/models/torch_port/model.py repeated N times with its classes renamed,
  so its imports and its jit function are defined again in each copy (as in exported notebooks
  and test files; issue 34).

Each point is timed two ways:

- **in-process**: ``pipeline.run`` (analysis, selection, fixes, fingerprints: what ``check`` does
  between reading the arguments and printing) with the cache off, in this process after a warm-up
  run: its CPU time (``time.process_time``, steadier than the wall clock on a shared machine),
  best of ``--repeat``; the figure is milliseconds per Cell or per copy, which stays flat when the
  cost is linear;
- **CLI**: ``msgraphlint check --no-cache --format json FILE`` as a child process, its user+system
  CPU seconds (start-up included, as issue 34 measured it), best of ``--repeat``.

``--server N`` also opens a file of N copies in ``msgraphlint server`` (started as an editor starts
it) and times didOpen to its diagnostics and an edit to the next (issue 34: at 1,500 copies, 50,000
lines, none had come in 300 s).

``--svg`` writes the in-process figures as a plot (hand-written SVG: no plotting library is a
dependency of the tool or its tests). The Markdown table goes to stdout.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REDEFINED = ROOT / "samples" / "models" / "torch_port" / "model.py"
CELLS = (10, 30, 100, 300, 1000)
REDEFINITIONS = (10, 20, 40, 80, 160, 300)


def cells_file(count: int) -> str:
    """``count`` distinct small Cells, each with one finding (detach-call, which has a fix)."""
    parts = ["import mindspore as ms\nfrom mindspore import nn, ops\n"]
    for index in range(count):
        parts.append(f"""

class Block{index}(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.scale = {index % 7 + 1}

    def construct(self, x):
        y = self.dense(x) * self.scale
        return ops.relu(y) + x.detach()
""")
    return "".join(parts)


def redefinitions_file(count: int) -> str:
    """model.py ``count`` times, its classes renamed per copy, its imports and jit function not."""
    text = REDEFINED.read_text(encoding="utf-8")
    body = text.split('"""', 2)[2]  # the copies after the first without the module docstring
    copies = []
    for index in range(count):
        copy = text if index == 0 else body
        copy = re.sub(r"\bEncoder\b", f"Encoder{index}", copy)
        copies.append(re.sub(r"\bClassifier\b", f"Classifier{index}", copy))
    return "\n".join(copies)


def in_process(path: Path, repeat: int) -> tuple[float, int]:
    """Best CPU seconds of ``pipeline.run`` on the file with the cache off, and its findings."""
    from msgraphlint import pipeline

    best, found = float("inf"), 0
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        outcome = pipeline.run(pipeline.Request([path], use_cache=False, progress=False, jobs=1))
        best = min(best, time.process_time() - start)
        found = len(outcome.findings)
    return best, found


def cli_cpu(path: Path, repeat: int) -> float:
    """Best user+system CPU seconds of ``msgraphlint check --no-cache`` on the file."""
    command = [sys.executable, "-m", "msgraphlint.cli", "check", "--no-cache", "--format", "json",
               str(path)]
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def measure(kind: str, sizes: tuple[int, ...], make, folder: Path, repeat: int,
            cli: bool) -> list[dict]:
    rows = []
    for size in sizes:
        path = folder / f"{kind}_{size}.py"
        path.write_text(make(size), encoding="utf-8")
        seconds, found = in_process(path, repeat)
        row = {"kind": kind, "size": size, "lines": path.read_text().count("\n") + 1,
               "seconds": seconds, "findings": found, "cli": cli_cpu(path, repeat) if cli else None}
        rows.append(row)
        print(f"{kind:>13} {size:>5}: {seconds * 1000 / size:6.2f} ms each", file=sys.stderr)
    return rows


def through_server(copies: int, folder: Path) -> str:
    """didOpen -> diagnostics and edit -> diagnostics for a file of ``copies`` copies."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from editor_latency import Client

    project = folder / "server"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'scaling'\n")
    path = project / "model.py"
    text = redefinitions_file(copies)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client = Client()
    client.request("initialize", {"processId": os.getpid(), "rootUri": project.as_uri(),
                                  "capabilities": {}})
    client.send("initialized", {})
    started = time.perf_counter()
    client.send("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    client.wait(lambda: (uri, 1) in client.published, timeout=900)
    opened = time.perf_counter()
    edited = text.replace("return x * 2 + 1", "return x * 2 + 2", 1)  # the first copy's function
    client.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                           "contentChanges": [{"text": edited}]})
    client.wait(lambda: (uri, 2) in client.published, timeout=900)
    done = time.perf_counter()
    client.close()
    return (f"{copies} copies, {text.count(chr(10)) + 1} lines, through `msgraphlint server`: "
            f"didOpen to diagnostics {opened - started:.1f} s, an edit to diagnostics "
            f"{done - opened:.1f} s")


def table(rows: list[dict]) -> str:
    lines = ["| file | N | lines | findings | in-process CPU (s) | ms per unit | CLI CPU (s) | CLI ms per unit |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        unit = "Cells" if row["kind"] == "cells" else "copies"
        cli = row["cli"]
        lines.append(
            f"| {unit} | {row['size']} | {row['lines']} | {row['findings']} | {row['seconds']:.3f} | "
            f"{row['seconds'] * 1000 / row['size']:.2f} | "
            + (f"{cli:.2f} | {cli * 1000 / row['size']:.1f} |" if cli is not None else "- | - |"))
    return "\n".join(lines)


def svg(rows: list[dict], title: str) -> str:
    """Milliseconds per unit against N (log scale), one panel per kind of file."""
    import math

    width, height, pad = 360, 240, 48
    panels = []
    for offset, (kind, label) in enumerate((("cells", "ms per Cell"), ("redefinitions", "ms per copy"))):
        points = [(r["size"], r["seconds"] * 1000 / r["size"]) for r in rows if r["kind"] == kind]
        if not points:
            continue
        x0 = offset * (width + 20)
        low, high = math.log10(min(p[0] for p in points)), math.log10(max(p[0] for p in points))
        top = max(p[1] for p in points) * 1.25 or 1.0

        def at(n: float, ms: float) -> tuple[float, float]:
            x = x0 + pad + (math.log10(n) - low) / ((high - low) or 1) * (width - 2 * pad)
            return x, height - pad - ms / top * (height - 2 * pad)

        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(*p) for p in points))
        parts = [f'<text x="{x0 + width / 2}" y="18" text-anchor="middle" font-weight="bold">'
                 f'{"N distinct Cells" if kind == "cells" else "N redefining copies"}</text>',
                 f'<line x1="{x0 + pad}" y1="{height - pad}" x2="{x0 + width - pad}" y2="{height - pad}" stroke="black"/>',
                 f'<line x1="{x0 + pad}" y1="{pad}" x2="{x0 + pad}" y2="{height - pad}" stroke="black"/>',
                 f'<text x="{x0 + 12}" y="{height / 2}" transform="rotate(-90 {x0 + 12} {height / 2})" '
                 f'text-anchor="middle">{label}</text>',
                 f'<text x="{x0 + width / 2}" y="{height - pad + 32}" text-anchor="middle">N (log scale)</text>',
                 f'<polyline points="{path}" fill="none" stroke="#1f77b4" stroke-width="2"/>']
        for step in range(5):
            ms = top * step / 4
            _, y = at(points[0][0], ms)
            parts.append(f'<text x="{x0 + pad - 4}" y="{y + 4:.1f}" text-anchor="end">{ms:.2f}</text>')
        for n, ms in points:
            x, y = at(n, ms)
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#1f77b4"/>')
            parts.append(f'<text x="{x:.1f}" y="{height - pad + 16}" text-anchor="middle">{n}</text>')
        panels.append("\n".join(parts))
    total = 2 * width + 20
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="{height + 24}" '
            f'font-family="sans-serif" font-size="11">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(panels)
            + f'\n<text x="{total / 2}" y="{height + 18}" text-anchor="middle" fill="#555">{title}</text>\n</svg>\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cells", type=int, nargs="+", default=list(CELLS))
    parser.add_argument("--redefinitions", type=int, nargs="+", default=list(REDEFINITIONS))
    parser.add_argument("--no-cli", action="store_true", help="time in-process only")
    parser.add_argument("--svg", type=Path, help="write the plot here")
    parser.add_argument("--server", type=int, metavar="N",
                        help="also time a file of N copies through the language server")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        # A warm-up run: the first analysis in a process loads the rule tables and knowledge.
        warm = folder / "warm.py"
        warm.write_text(cells_file(2))
        in_process(warm, 1)
        rows = measure("cells", tuple(args.cells), cells_file, folder, args.repeat, not args.no_cli)
        rows += measure("redefinitions", tuple(args.redefinitions), redefinitions_file, folder,
                        args.repeat, not args.no_cli)
        served = through_server(args.server, folder) if args.server else None
    day = datetime.date.today().isoformat()
    command = "python tools/scaling_benchmark.py " + " ".join(argv if argv is not None else sys.argv[1:])
    if args.svg:
        args.svg.write_text(svg(rows, f"in-process CPU, best of {args.repeat}; {command.strip()}; {day}"))
    print(f"`{command.strip()}` ({day}, {os.cpu_count()} cores, Python {sys.version.split()[0]})\n")
    print(table(rows))
    if served:
        print(f"\n{served}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
