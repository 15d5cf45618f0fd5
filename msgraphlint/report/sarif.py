"""SARIF 2.1.0, built from sarif-om objects and serialised by jschema_to_python.

Deterministic: the same findings give a byte-identical log (results sorted, no timestamps unless
``timestamps=True``). Paths are relative to the run's root under ``%SRCROOT%``; regions are 1-based
and counted in Unicode code points (``columnKind``), as the findings are.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import sarif_om as om
from jschema_to_python.to_json import to_json

from .. import __version__, catalogue
from ..catalogue import Rule, Severity
from ..findings import Finding
from . import RunResult

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/msgraphlint/msgraphlint"
SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.ADVICE: "note"}
# GitHub's security-severity-free "problem.severity" vocabulary.
PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.ADVICE: "recommendation"}
SRCROOT = "%SRCROOT%"


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


def line_fingerprint(result: RunResult, finding: Finding, seen: Counter) -> str:
    """Hash of the flagged line's content plus its occurrence count, stable under edits above."""
    try:
        lines = finding.path.read_text("utf-8", errors="replace").splitlines()
        content = lines[finding.line - 1].strip() if finding.line <= len(lines) else ""
    except OSError:
        content = ""
    digest = hashlib.sha256(f"{finding.rule_id}\0{content}".encode()).hexdigest()[:16]
    key = (finding.path, digest)
    seen[key] += 1
    return f"{digest}:{seen[key]}"


def _location(result: RunResult, finding: Finding) -> om.Location:
    return om.Location(
        physical_location=om.PhysicalLocation(
            artifact_location=om.ArtifactLocation(
                uri=result.display_path(finding.path), uri_base_id=SRCROOT
            ),
            region=om.Region(
                start_line=finding.line,
                start_column=finding.column,
                end_line=finding.end_line,
                end_column=max(finding.end_column, finding.column),
            ),
        )
    )


def sarif_result(result: RunResult, finding: Finding, index: dict[str, int], seen: Counter):
    severity = result.severity(finding)
    sarif = om.Result(
        rule_id=finding.rule_id,
        rule_index=index[finding.rule_id],
        level=SARIF_LEVEL[severity],
        message=om.Message(text=finding.message),
        locations=[_location(result, finding)],
        partial_fingerprints={"primaryLocationLineHash": line_fingerprint(result, finding, seen)},
        properties=_property_bag(
            level=finding.level(result.config.level).value,
            device=result.config.device,
            **({"reachedFrom": finding.reached_from} if finding.reached_from else {}),
        ),
    )
    if finding.suppressed:
        sarif.suppressions = [om.Suppression(kind="inSource")]
    if finding.target_path is not None and finding.reached_from:
        sarif.related_locations = [
            om.Location(
                id=1,
                physical_location=om.PhysicalLocation(
                    artifact_location=om.ArtifactLocation(
                        uri=result.display_path(finding.target_path), uri_base_id=SRCROOT
                    ),
                    region=om.Region(start_line=finding.target_line or 1),
                ),
                message=om.Message(text=f"compiled root {finding.target}"),
            )
        ]
    return sarif


def build_log(result: RunResult, category: str | None = None) -> om.SarifLog:
    rules = catalogue.rules()
    index = {rule.id: position for position, rule in enumerate(rules)}
    seen: Counter = Counter()
    results = [sarif_result(result, finding, index, seen) for finding in result.findings]
    root_uri = result.root.resolve().as_uri() + "/"
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
        invocations=[
            om.Invocation(
                execution_successful=not result.internal_errors,
                exit_code=result.exit_code,
            )
        ],
        properties=_property_bag(
            syntaxLevel=result.config.level.value, device=result.config.device
        ),
    )
    if category:
        run.automation_details = om.RunAutomationDetails(id=category)
    return om.SarifLog(version="2.1.0", schema_uri=SCHEMA_URI, runs=[run])


def render_sarif(result: RunResult, category: str | None = None) -> str:
    # to_json keeps attribute order; re-dump with sorted keys for byte-identical logs.
    return json.dumps(json.loads(to_json(build_log(result, category))), indent=2, sort_keys=True,
                      ensure_ascii=False) + "\n"
