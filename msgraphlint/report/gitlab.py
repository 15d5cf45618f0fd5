"""GitLab code quality report: the subset of the Code Climate format GitLab reads.

One object per unsuppressed finding: ``description``, ``check_name``, ``fingerprint``,
``severity`` and ``location.path``/``location.lines.begin``. GitLab compares fingerprints between
the merge request and its target branch, so they are content based (see msgraphlint.baseline) and
do not change when unrelated lines move.
"""

from __future__ import annotations

import hashlib
import json

from ..knowledge.catalogue import Severity
from .result import RunResult

# GitLab's scale is info, minor, major, critical, blocker.
GITLAB_SEVERITY = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.ADVICE: "info"}


def code_quality_issues(result: RunResult) -> list[dict]:
    issues = []
    for finding in result.findings:
        if finding.suppressed:
            continue
        path = result.display_path(finding.path)
        # Findings made outside the pipeline have no content fingerprint: their position stands in.
        fingerprint = finding.fingerprint or f"{finding.rule_id}:{finding.line}:{finding.column}"
        issues.append(
            {
                "description": f"{finding.rule_id} {finding.rule.symbol}: {finding.message}"
                + (f" [{finding.confirmation}]" if finding.confirmation else ""),
                "check_name": finding.rule.symbol,
                # Unique across the report: the content fingerprint is only unique within a file.
                "fingerprint": hashlib.sha256(f"{path}\0{fingerprint}".encode()).hexdigest()[:32],
                "severity": GITLAB_SEVERITY[result.severity(finding)],
                "location": {"path": path, "lines": {"begin": finding.line}},
            }
        )
    return issues


def render_gitlab(result: RunResult) -> str:
    return json.dumps(code_quality_issues(result), indent=2, ensure_ascii=False) + "\n"
