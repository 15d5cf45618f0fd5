"""SARIF 2.1.0, built from sarif-om objects and serialised by jschema_to_python.

Deterministic: the same findings give a byte-identical log (results sorted, no timestamps unless
asked for with ``times``). Paths are relative to the run's root under ``%SRCROOT%``; regions are
1-based and counted in Unicode code points (``columnKind``), as the findings are. A log stays
within GitHub code scanning's upload limits: past them the most severe results are kept and the
invocation says what was left out (docs/ci.md).
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

import sarif_om as om
from jschema_to_python.to_json import to_json

from ..knowledge import catalogue
from ..version import __version__
from ..knowledge.catalogue import Rule, Severity
from ..engine.findings import Finding
from .result import RunResult

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/msgraphlint/msgraphlint"
SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.ADVICE: "note"}
# GitHub's security-severity-free "problem.severity" vocabulary.
PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.ADVICE: "recommendation"}
SRCROOT = "%SRCROOT%"
# jschema_to_python leaves out values equal to the schema default; "warning" is the default level.
DEFAULT_LEVEL = "warning"


@dataclass(frozen=True)
class Limits:
    """GitHub code scanning rejects a run with more results, or an upload larger once gzipped."""

    max_results: int = 25_000
    max_gzipped_bytes: int = 10_000_000


GITHUB_LIMITS = Limits()


@dataclass(frozen=True)
class RunTimes:
    start: datetime
    end: datetime


@dataclass
class SarifReport:
    text: str
    notices: list[str] = field(default_factory=list)  # what was left out, for stderr


def _property_bag(**properties) -> om.PropertyBag:
    bag = om.PropertyBag(tags=properties.pop("tags", None))
    for key, value in properties.items():
        setattr(bag, key, value)
    return bag


def rule_descriptor(rule: Rule, result: RunResult) -> om.ReportingDescriptor:
    severity = rule.severity(result.config.level, result.config.device)
    help_markdown = (
        f"**{rule.title}**\n\n{rule.rationale.strip()}\n\n"
        f"Example:\n\n```python\n{rule.example.strip()}\n```\n\n"
        f"Fix: {rule.fix}\n\n"
        + (f"Use instead: `{rule.use_instead}`\n\n" if rule.use_instead else "")
        + f"[Rule documentation]({rule.help_uri})"
    )
    return om.ReportingDescriptor(
        id=rule.id,
        name=rule.symbol,
        short_description=om.MultiformatMessageString(text=rule.title),
        full_description=om.MultiformatMessageString(text=rule.rationale.strip()),
        help=om.MultiformatMessageString(
            text=f"{rule.fix} Use instead: {rule.use_instead}" if rule.use_instead else rule.fix,
            markdown=help_markdown,
        ),
        help_uri=rule.help_uri,
        default_configuration=om.ReportingConfiguration(level=SARIF_LEVEL[severity]),
        properties=_property_bag(
            tags=list(dict.fromkeys([rule.family, *rule.tags])),  # SARIF tags are unique
            precision="high",
            **{"problem.severity": PROBLEM_SEVERITY[severity]},
        ),
    )


def _artifact_location(result: RunResult, path: Path) -> om.ArtifactLocation:
    """Percent-encoded and relative to %SRCROOT%; a file outside the root gets an absolute URI."""
    shown = result.display_path(path)
    if Path(shown).is_absolute():
        return om.ArtifactLocation(uri=Path(shown).as_uri())
    return om.ArtifactLocation(uri=quote(shown, safe="/"), uri_base_id=SRCROOT)


def _location(result: RunResult, finding: Finding) -> om.Location:
    return om.Location(
        physical_location=om.PhysicalLocation(
            artifact_location=_artifact_location(result, finding.path),
            region=om.Region(
                start_line=finding.line,
                start_column=finding.column,
                end_line=finding.end_line,
                end_column=max(finding.end_column, finding.column),
            ),
        )
    )


def _compiled_root_location(result: RunResult, finding: Finding) -> om.Location:
    """Where the Cell's construct (or the @jit function) that reaches a helper is defined."""
    return om.Location(
        id=1,
        physical_location=om.PhysicalLocation(
            artifact_location=_artifact_location(result, finding.target_path),
            region=om.Region(start_line=finding.target_line or 1),
        ),
        message=om.Message(text=f"compiled root {finding.target}"),
    )


def _confirmation_properties(finding: Finding) -> dict:
    """--confirm's status and evidence (docs/confirm.md); nothing for a static run."""
    if finding.confirmation is None:
        return {}
    properties = {
        "confirmation": finding.confirmation,
        "evidence": [{"kind": kind, "detail": detail} for kind, detail in finding.evidence],
    }
    if finding.compiler_message:
        properties["compilerMessage"] = finding.compiler_message
    return properties


def _sarif_fix(result: RunResult, fix) -> om.Fix:
    """A fix as SARIF has it: the replacements in one artifact (an insertion deletes an empty
    region)."""
    return om.Fix(
        description=om.Message(text=f"{fix.description} ({fix.applicability} fix)"),
        artifact_changes=[
            om.ArtifactChange(
                artifact_location=_artifact_location(result, fix.edits[0].path),
                replacements=[
                    om.Replacement(
                        deleted_region=om.Region(start_line=edit.line, start_column=edit.column,
                                                 end_line=edit.end_line, end_column=edit.end_column),
                        inserted_content=om.ArtifactContent(text=edit.content),
                    )
                    for edit in fix.edits
                ],
            )
        ],
    )


def sarif_result(result: RunResult, finding: Finding, index: dict[str, int]):
    severity = result.severity(finding)
    sarif = om.Result(
        rule_id=finding.rule_id,
        rule_index=index[finding.rule_id],
        level=SARIF_LEVEL[severity],
        message=om.Message(text=finding.message),
        locations=[_location(result, finding)],
        partial_fingerprints=(
            {"primaryLocationLineHash": finding.fingerprint} if finding.fingerprint else None
        ),
        fixes=[_sarif_fix(result, finding.fix)] if finding.fix else None,
        properties=_property_bag(
            level=finding.level(result.config.level).value,
            device=result.config.device,
            **({"reachedFrom": finding.reached_from} if finding.reached_from else {}),
            **_confirmation_properties(finding),
        ),
    )
    if finding.suppressed:
        sarif.suppressions = [om.Suppression(kind="inSource")]
    if finding.target_path is not None and finding.reached_from:
        sarif.related_locations = [_compiled_root_location(result, finding)]
    return sarif


def _utc(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _invocation(result: RunResult, times: RunTimes | None, notices: Sequence[str]) -> om.Invocation:
    notifications = [om.Notification(level="error", message=om.Message(text=error))
                     for error in result.internal_errors]
    notifications += [om.Notification(level="warning", message=om.Message(text=notice))
                      for notice in notices]
    invocation = om.Invocation(
        execution_successful=not result.internal_errors,
        exit_code=result.exit_code,
        tool_execution_notifications=notifications or None,
    )
    if times is not None:
        invocation.start_time_utc = _utc(times.start)
        invocation.end_time_utc = _utc(times.end)
    return invocation


def automation_id(category: str) -> str:
    """GitHub reads what precedes the last '/' as the category: end with one, as upload-sarif does."""
    return category if category.endswith("/") else category + "/"


def build_log(
    result: RunResult,
    category: str | None = None,
    *,
    times: RunTimes | None = None,
    kept: Sequence[int] | None = None,
    notices: Sequence[str] = (),
) -> om.SarifLog:
    """The log for ``result``; ``kept`` (indices into result.findings) leaves the others out.
    Each result's ``primaryLocationLineHash`` is its finding's fingerprint (msgraphlint.baseline)."""
    rules = catalogue.rules()
    index = {rule.id: position for position, rule in enumerate(rules)}
    chosen = range(len(result.findings)) if kept is None else kept
    results = [sarif_result(result, result.findings[i], index) for i in chosen]
    root_uri = result.root.resolve().as_uri().rstrip("/") + "/"
    run = om.Run(
        tool=om.Tool(
            driver=om.ToolComponent(
                name="msgraphlint",
                version=__version__,
                semantic_version=__version__,
                information_uri=INFORMATION_URI,
                rules=[rule_descriptor(rule, result) for rule in rules],
            )
        ),
        results=results,
        column_kind="unicodeCodePoints",
        original_uri_base_ids={SRCROOT: om.ArtifactLocation(uri=root_uri)},
        invocations=[_invocation(result, times, notices)],
        properties=_property_bag(
            syntaxLevel=result.config.level.value, device=result.config.device
        ),
    )
    if category:
        run.automation_details = om.RunAutomationDetails(id=automation_id(category))
    return om.SarifLog(version="2.1.0", schema_uri=SCHEMA_URI, runs=[run])


def _state_default_levels(log: dict) -> dict:
    """Put back the "warning" levels to_json left out: code scanning reads them, not the schema."""
    for run in log["runs"]:
        for rule in run["tool"]["driver"]["rules"]:
            rule.setdefault("defaultConfiguration", {}).setdefault("level", DEFAULT_LEVEL)
        for sarif in run.get("results", []):
            sarif.setdefault("level", DEFAULT_LEVEL)
        for invocation in run.get("invocations", []):
            for notification in invocation.get("toolExecutionNotifications", []):
                notification.setdefault("level", DEFAULT_LEVEL)
    return log


def serialise(log: om.SarifLog) -> str:
    """to_json, one result at a time, with sorted keys: byte-identical logs for the same input."""
    # to_json deep-copies every object's whole subtree at every level: on a run with thousands
    # of results that copying dominates. The run is serialised without them, then each result.
    runs = [copy.copy(run) for run in log.runs]
    for run in runs:
        run.results = []
    shell = copy.copy(log)
    shell.runs = runs
    document = json.loads(to_json(shell))
    for run_document, run in zip(document["runs"], log.runs):
        run_document["results"] = [json.loads(to_json(result)) for result in run.results]
    return json.dumps(_state_default_levels(document), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"


def _most_important_first(result: RunResult) -> list[int]:
    """Unsuppressed before suppressed, then by severity, then in reading order."""
    return sorted(
        range(len(result.findings)),
        key=lambda i: (result.findings[i].suppressed, -result.severity(result.findings[i]).rank, i),
    )


def _left_out_notice(left_out: int, total: int, limits: Limits) -> str:
    return (
        f"{left_out} of {total} results left out to stay within GitHub code scanning's upload"
        f" limits ({limits.max_results} results per run, {limits.max_gzipped_bytes / 1e6:g} MB"
        " gzipped); the most severe were kept. Narrow the run with --select, --ignore or"
        " --baseline to see the rest."
    )


def sarif_report(
    result: RunResult,
    category: str | None = None,
    *,
    times: RunTimes | None = None,
    limits: Limits | None = None,
) -> SarifReport:
    """The serialised log, cut down to GitHub's limits when needed (most severe results kept)."""
    limits = limits or GITHUB_LIMITS
    ranked = _most_important_first(result)
    keep = min(len(ranked), limits.max_results)
    while True:
        left_out = len(ranked) - keep
        notices = [_left_out_notice(left_out, len(ranked), limits)] if left_out else []
        log = build_log(result, category, times=times,
                        kept=sorted(ranked[:keep]), notices=notices)
        text = serialise(log)
        size = len(gzip.compress(text.encode("utf-8"), mtime=0))
        if size <= limits.max_gzipped_bytes or keep == 0:
            return SarifReport(text, notices)
        # Shrink in proportion to the excess (with a margin): a few renders at most.
        keep = min(keep - 1, keep * limits.max_gzipped_bytes // size * 9 // 10)


def render_sarif(result: RunResult, category: str | None = None, **options) -> str:
    return sarif_report(result, category, **options).text
