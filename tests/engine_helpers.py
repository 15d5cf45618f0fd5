"""Running the engine on a small module written by a test, and a probe of what MindSpore does."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from msgraphlint.pipeline import new_engine
from msgraphlint.engine.findings import Finding


def check_source(tmp_path, source: str, name: str = "model.py") -> list[Finding]:
    """The engine's findings for ``source`` saved as ``tmp_path/name``, as the CLI would check it."""
    path = tmp_path / name
    path.write_text(source, "utf-8")
    return new_engine().check_file(path)


def findings_on_lines(tmp_path, header: str, body: str, symbols: set[str]) -> set[tuple[str, str]]:
    """(symbol, stripped source line) of the findings of ``symbols`` for header + body."""
    source = textwrap.dedent(header) + textwrap.dedent(body)
    lines = source.splitlines()
    return {
        (f.rule.symbol, lines[f.line - 1].strip())
        for f in check_source(tmp_path, source)
        if f.rule.symbol in symbols
    }


def run_probe(tmp_path, script: str, *args: str, **environment: str) -> tuple[dict[str, str], str]:
    """Run a probe script with the test's Python (MindSpore's logs quiet) and read the
    ``name|verdict`` lines it prints; also its output, to show when an assertion fails."""
    path = tmp_path / "probe.py"
    path.write_text(textwrap.dedent(script), "utf-8")
    result = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                            env=dict(os.environ, GLOG_v="3", **environment), timeout=600, check=False)
    verdicts = dict(line.split("|") for line in result.stdout.splitlines() if "|" in line)
    return verdicts, result.stdout + result.stderr[-2000:]
