"""Reporters: a finished run in, text/JSON/SARIF/GitLab out. They never read source code or ask the
engine: everything they show (fingerprints included) comes with the findings."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue import Severity
from ..config import Config
from ..findings import Finding


@dataclass
class RunResult:
    findings: list[Finding]  # selected findings, sorted; suppressed ones included (marked)
    config: Config
    files_checked: int
    root: Path = field(default_factory=Path.cwd)  # paths are shown relative to this
    internal_errors: list[str] = field(default_factory=list)
    confirm_summary: str | None = None  # set by --confirm: the statuses counted, for text output

    def severity(self, finding: Finding) -> Severity:
        return finding.severity(self.config.level, self.config.device)

    @property
    def active(self) -> list[Finding]:
        return [f for f in self.findings if not f.suppressed]

    def counts(self) -> dict[Severity, int]:
        counts = {severity: 0 for severity in Severity}
        for finding in self.active:
            counts[self.severity(finding)] += 1
        return counts

    @property
    def exit_code(self) -> int:
        if self.internal_errors:
            return 2
        threshold = self.config.fail_on.rank
        return int(any(self.severity(f).rank >= threshold for f in self.active))

    def display_path(self, path: Path) -> str:
        """Relative to the root with forward slashes when inside it, else absolute."""
        absolute = Path(os.path.abspath(path))
        try:
            return absolute.relative_to(os.path.abspath(self.root)).as_posix()
        except ValueError:
            return absolute.as_posix()


def render(
    result: RunResult,
    *,
    colour: bool = False,
    category: str | None = None,
    times: tuple | None = None,
) -> tuple[str, list[str]]:
    """The report in the configured format, and notices for stderr (what SARIF left out)."""
    fmt = result.config.format
    if fmt == "json":
        from .json import render_json

        return render_json(result), []
    if fmt == "sarif":
        from .sarif import RunTimes, sarif_report

        report = sarif_report(result, category, times=times and RunTimes(*times))
        return report.text, report.notices
    if fmt == "gitlab":
        from .gitlab import render_gitlab

        return render_gitlab(result), []
    from .text import render_text

    return render_text(result, colour=colour and not os.environ.get("NO_COLOR")), []
