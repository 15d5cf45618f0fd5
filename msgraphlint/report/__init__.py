"""Reporters: a finished run in, text/JSON/SARIF/GitLab out. They never read source code or ask the
engine: everything they show (fingerprints included) comes with the findings."""

from __future__ import annotations

import os

from .result import RunResult

__all__ = ["RunResult", "render"]


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
