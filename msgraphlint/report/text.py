"""Linter-style text: ``path:line:col: ID symbol message``, grouped by file, and a summary line."""

from __future__ import annotations

from itertools import groupby

from ..knowledge.catalogue import Severity
from .result import RunResult

COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.ADVICE: "\033[36m"}
BOLD, DIM, RESET = "\033[1m", "\033[2m", "\033[0m"


def _paint(text: str, code: str, colour: bool) -> str:
    return f"{code}{text}{RESET}" if colour else text


STATUS_COLOURS = {"confirmed": "\033[31m", "not-reproduced": "\033[32m", "fails-elsewhere": "\033[33m",
                 "unverified": DIM}


def confirmation_line(finding, colour: bool) -> str:
    """``    confirmed: MindSpore rejects Net at STRICT on CPU: ... (In file net.py:6)``"""
    status = _paint(finding.confirmation, STATUS_COLOURS.get(finding.confirmation, DIM), colour)
    details = "; ".join(detail for _, detail in finding.evidence)
    return f"    {status}: {details}" if details else f"    {status}"


def render_text(result: RunResult, colour: bool = False) -> str:
    lines: list[str] = []
    active = result.active
    for path, group in groupby(active, key=lambda f: f.path):
        shown = result.display_path(path)
        for finding in group:
            severity = result.severity(finding)
            location = _paint(f"{shown}:{finding.line}:{finding.column}:", BOLD, colour)
            code = _paint(f"{finding.rule_id} {finding.rule.symbol}", COLOURS[severity], colour)
            mark = "[*] " if result.fixable(finding) else ""  # as ruff marks what --fix fixes
            lines.append(f"{location} {code} {mark}{finding.message}")
            if finding.confirmation:
                lines.append(confirmation_line(finding, colour))
        lines.append("")
    counts = result.counts()
    total = sum(counts.values())
    files = result.files_checked
    checked = f"{files} file{'s' if files != 1 else ''} checked"
    level = f"at {result.config.level.value.upper()} on {result.config.device}"
    if total:
        parts = ", ".join(
            f"{counts[s]} {s.value}{'s' if counts[s] != 1 and s != Severity.ADVICE else ''}"
            for s in (Severity.ERROR, Severity.WARNING, Severity.ADVICE)
            if counts[s]
        )
        summary = f"Found {total} problem{'s' if total != 1 else ''} ({parts}); {checked} {level}."
    else:
        summary = f"No problems found; {checked} {level}."
    suppressed = len(result.findings) - len(active)
    if suppressed:
        summary += f" {suppressed} suppressed inline."
    if result.fixed:
        summary = f"Fixed {result.fixed} problem{'s' * (result.fixed != 1)}. " + summary
    lines.append(_paint(summary, BOLD if total else DIM, colour))
    if fixes := fix_summary(result):
        lines.append(fixes)
    if result.confirm_summary:
        lines.append(result.confirm_summary)
    return "\n".join(lines) + "\n"


def fix_summary(result: RunResult) -> str:
    """``[*] 3 fixable with --fix (1 more with --unsafe-fixes).``, as ruff says it."""
    fixable = sum(1 for f in result.active if result.fixable(f))
    hidden = sum(1 for f in result.active if f.fix is not None and not result.fixable(f))
    more = f" ({hidden} more with --unsafe-fixes)" if hidden else ""
    if fixable:
        option = "--fix --unsafe-fixes" if result.unsafe_fixes else "--fix"
        return f"[*] {fixable} fixable with {option}{more}."
    return f"No fixes available{more}." if hidden else ""
