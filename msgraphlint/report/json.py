"""JSON: a stable, documented list of findings (docs/usage.md, "JSON output").

One object per finding, sorted by path, line, column and rule; suppressed findings are left out.
Fields are only ever added, never renamed or removed, within a major version.
"""

from __future__ import annotations

import json

from .result import RunResult


def finding_records(result: RunResult) -> list[dict]:
    records = []
    for finding in result.active:
        rule = finding.rule
        record = {
            "path": result.display_path(finding.path),
            "line": finding.line,
            "column": finding.column,
            "end_line": finding.end_line,
            "end_column": finding.end_column,
            "rule_id": rule.id,
            "symbol": rule.symbol,
            "family": rule.family,
            "severity": result.severity(finding).value,
            "level": finding.level(result.config.level).value,
            "device": result.config.device,
            "message": finding.message,
            "reached_from": finding.reached_from,
            "target": finding.target,
            "help_uri": rule.help_uri,
        }
        if finding.case:  # the shape whose consequence the message states (the rule's page)
            record["case"] = finding.case
        if finding.fix is not None:  # what --fix would do (docs/fixes.md)
            record["fix"] = fix_record(finding.fix, result)
        if finding.confirmation is not None:  # only in --confirm runs (docs/confirm.md)
            record["confirmation"] = finding.confirmation
            record["evidence"] = [{"kind": k, "detail": d} for k, d in finding.evidence]
            record["compiler_message"] = finding.compiler_message
        records.append(record)
    return records


def fix_record(fix, result: RunResult) -> dict:
    return {
        "applicability": fix.applicability,
        "description": fix.description,
        "edits": [
            {"path": result.display_path(edit.path), "line": edit.line, "column": edit.column,
             "end_line": edit.end_line, "end_column": edit.end_column, "content": edit.content}
            for edit in fix.edits
        ],
    }


def render_json(result: RunResult) -> str:
    return json.dumps(finding_records(result), indent=2, ensure_ascii=False) + "\n"
