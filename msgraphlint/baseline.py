"""Content fingerprints, and baselines built on them: adopt msgraphlint on an existing codebase.

A finding's fingerprint is a hash of its rule id and the flagged line's stripped content, plus the
occurrence count of that pair within the file (``"89824db0410e99ff:2"`` is the second such line).
Adding, removing or moving other lines leaves it unchanged. SARIF's ``primaryLocationLineHash``,
the GitLab report and the baseline all use :func:`content_fingerprints`, so they agree.

The baseline file (docs/usage.md, "Baseline") is JSON, sorted, with paths relative to the file's
own folder, so it diffs cleanly and works from any working directory::

    {
      "findings": [
        {"fingerprint": "89824db0410e99ff:1", "path": "models/net.py", "rule_id": "W8720",
         "symbol": "host-call-on-tensor"}
      ],
      "msgraphlint_baseline": 1
    }
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .findings import Finding
from .source import decode

FORMAT_VERSION = 1
FORMAT_KEY = "msgraphlint_baseline"
ENTRY_KEYS = ("fingerprint", "path", "rule_id", "symbol")

LineReader = Callable[[Path], Sequence[str]]


class BaselineError(Exception):
    pass


def disk_line_reader() -> LineReader:
    """Reads each file once, decoded the way the engine decodes it (BOM, coding cookie)."""
    cache: dict[Path, Sequence[str]] = {}

    def lines_of(path: Path) -> Sequence[str]:
        if path not in cache:
            try:
                text = decode(path.read_bytes())[0]
            except OSError:
                text = None
            cache[path] = (text or "").splitlines()
        return cache[path]

    return lines_of


def content_fingerprints(findings: Sequence[Finding], lines_of: LineReader) -> list[str]:
    """One fingerprint per finding, in the order given.

    Occurrences are counted among ``findings`` in reading order, whatever the order given. Pass
    every finding of the rules checked, suppressed and baselined ones too, so that leaving some
    out of a report does not renumber the others.
    """
    fingerprints = [""] * len(findings)
    seen: Counter = Counter()
    for index in sorted(range(len(findings)), key=lambda i: findings[i].sort_key()):
        finding = findings[index]
        lines = lines_of(finding.path)
        content = lines[finding.line - 1].strip() if 0 < finding.line <= len(lines) else ""
        digest = hashlib.sha256(f"{finding.rule_id}\0{content}".encode()).hexdigest()[:16]
        seen[(finding.path, digest)] += 1
        fingerprints[index] = f"{digest}:{seen[(finding.path, digest)]}"
    return fingerprints


def relative_path(path: Path, folder: Path) -> str:
    """``path`` relative to ``folder`` with forward slashes (absolute when on another drive)."""
    absolute = os.path.abspath(path)
    try:
        return Path(os.path.relpath(absolute, os.path.abspath(folder))).as_posix()
    except ValueError:
        return Path(absolute).as_posix()


Key = tuple[str, str, str]  # (path relative to the baseline's folder, rule id, fingerprint)


def _key(finding: Finding, fingerprint: str, folder: Path) -> Key:
    return relative_path(finding.path, folder), finding.rule_id, fingerprint


def write_baseline(file: Path, findings: Sequence[Finding], fingerprints: Sequence[str]) -> int:
    """Record the unsuppressed findings in ``file``; returns how many were recorded."""
    entries = sorted(
        (*_key(finding, fingerprint, file.parent), finding.rule.symbol)
        for finding, fingerprint in zip(findings, fingerprints)
        if not finding.suppressed
    )
    document = {
        FORMAT_KEY: FORMAT_VERSION,
        "findings": [
            {"fingerprint": fingerprint, "path": path, "rule_id": rule_id, "symbol": symbol}
            for path, rule_id, fingerprint, symbol in entries
        ],
    }
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        file.write_text(text, "utf-8")
    except OSError as error:
        raise BaselineError(f"cannot write baseline {file}: {error.strerror or error}") from None
    return len(entries)


@dataclass(frozen=True)
class Baseline:
    file: Path
    keys: frozenset[Key]

    def without_recorded(
        self, findings: Sequence[Finding], fingerprints: Sequence[str]
    ) -> tuple[list[Finding], list[str]]:
        """The findings (and their fingerprints) not recorded here; suppressed ones stay."""
        kept = [
            (finding, fingerprint)
            for finding, fingerprint in zip(findings, fingerprints)
            if finding.suppressed or _key(finding, fingerprint, self.file.parent) not in self.keys
        ]
        return [finding for finding, _ in kept], [fingerprint for _, fingerprint in kept]


def load_baseline(file: Path) -> Baseline:
    if not file.exists():
        raise BaselineError(
            f"baseline file {file} does not exist (record one with --write-baseline {file})"
        )
    try:
        document = json.loads(file.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise BaselineError(f"cannot read baseline {file}: {error}") from None
    except json.JSONDecodeError as error:
        raise BaselineError(f"{file}: not a msgraphlint baseline: invalid JSON: {error}") from None
    if not isinstance(document, dict) or FORMAT_KEY not in document:
        raise BaselineError(
            f"{file}: not a msgraphlint baseline (no {FORMAT_KEY!r} key; record one with"
            " --write-baseline)"
        )
    if document[FORMAT_KEY] != FORMAT_VERSION:
        raise BaselineError(
            f"{file}: baseline format {document[FORMAT_KEY]!r} is not supported"
            f" (this msgraphlint reads {FORMAT_VERSION}); record it again with --write-baseline"
        )
    entries = document.get("findings")
    if not isinstance(entries, list) or not all(_is_entry(entry) for entry in entries):
        raise BaselineError(
            f"{file}: 'findings' must be a list of objects with string"
            f" {', '.join(repr(k) for k in ENTRY_KEYS)}"
        )
    keys = frozenset((entry["path"], entry["rule_id"], entry["fingerprint"]) for entry in entries)
    return Baseline(file, keys)


def _is_entry(entry: object) -> bool:
    return isinstance(entry, dict) and all(isinstance(entry.get(key), str) for key in ENTRY_KEYS)
