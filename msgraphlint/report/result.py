"""What a finished run hands the reporters."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..knowledge.catalogue import Severity
from ..config import Config
from ..engine.findings import Finding


@dataclass
class RunResult:
    findings: list[Finding]  # selected findings, sorted; suppressed ones included (marked)
    config: Config
    files_checked: int
    root: Path = field(default_factory=Path.cwd)  # paths are shown relative to this
    internal_errors: list[str] = field(default_factory=list)
    confirm_summary: str | None = None  # set by --confirm: the statuses counted, for text output
    fixed: int = 0  # findings --fix fixed (no longer among ``findings``)
    unsafe_fixes: bool = False  # --unsafe-fixes: unsafe fixes count as available

    def fixable(self, finding: Finding) -> bool:
        """A fix --fix would apply with the run's settings."""
        fix = finding.fix
        return fix is not None and (fix.applicability == "safe" or self.unsafe_fixes)

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
