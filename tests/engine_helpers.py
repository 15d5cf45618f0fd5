"""Running the engine on a small module written by a test."""

from __future__ import annotations

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
