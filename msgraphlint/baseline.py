"""Content fingerprints, and baselines built on them: adopt msgraphlint on an existing codebase.

A finding's fingerprint is a hash of its rule id and the flagged line's stripped content, plus the
occurrence count of that pair within the file (``"89824db0410e99ff:2"`` is the second such line).
Adding, removing or moving other lines leaves it unchanged. SARIF's ``primaryLocationLineHash``,
the GitLab report and the baseline all read the fingerprint the pipeline gives each finding
(:func:`with_fingerprints`), so they agree.

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
from dataclasses import dataclass, replace
from pathlib import Path

from .engine.findings import Finding

FORMAT_VERSION = 1
FORMAT_KEY = "msgraphlint_baseline"
ENTRY_KEYS = ("fingerprint", "path", "rule_id", "symbol")

LineReader = Callable[[Path], Sequence[str]]


class BaselineError(Exception):
    pass


def with_fingerprints(findings: Sequence[Finding], lines_of: LineReader) -> list[Finding]:
    """The findings, each with its fingerprint, in the order given.

    Occurrences are counted among ``findings`` in reading order, whatever the order given. Pass
    every finding of the rules checked, suppressed and baselined ones too, so that leaving some
    out of a report does not renumber the others.
    """
    return [replace(finding, fingerprint=fingerprint)
            for finding, fingerprint in zip(findings, content_fingerprints(findings, lines_of))]


def content_fingerprints(findings: Sequence[Finding], lines_of: LineReader) -> list[str]:
    """One fingerprint per finding, in the order given (see :func:`with_fingerprints`)."""
    fingerprints = [""] * len(findings)
    seen: Counter = Counter()
    read: dict[Path, list[str]] = {}  # a file's lines once, however many findings it has
    for index in sorted(range(len(findings)), key=lambda i: findings[i].sort_key()):
        finding = findings[index]
        if finding.path not in read:
            read[finding.path] = lines_of(finding.path)
        lines = read[finding.path]
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


def _key(finding: Finding, folder: Path) -> Key:
    return relative_path(finding.path, folder), finding.rule_id, finding.fingerprint


def write_baseline(file: Path, findings: Sequence[Finding]) -> int:
    """Record the unsuppressed (fingerprinted) findings in ``file``; returns how many."""
    entries = sorted(
        (*_key(finding, file.parent), finding.rule.symbol)
        for finding in findings
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

    def without_recorded(self, findings: Sequence[Finding]) -> list[Finding]:
        """The (fingerprinted) findings not recorded here; suppressed ones stay."""
        return [finding for finding in findings
                if finding.suppressed or _key(finding, self.file.parent) not in self.keys]


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
