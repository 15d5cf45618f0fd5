"""``--fix``: exact rewrites for the findings that have one (docs/fixes.md).

Fixes are text edits at the syntax tree's positions, as ruff makes them, not a concrete-syntax-tree
rewrite (libcst, as TorchFix and Fixit use): the rewrites here replace one expression or one name,
so an edit of that span keeps every other character of the file, and the check without ``--fix``
loads nothing more than the standard library's ast it already uses.

- :func:`attach` gives each finding its Fix (rules/*.py fixers, per the catalogue's ``autofix``).
- :func:`apply_to_file` applies a file's chosen fixes: a fix whose edits overlap one already taken
  waits for the next pass (the pipeline re-checks and fixes again), identical edits (two fixes
  adding the same import) are made once, and a result that does not parse is not used.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..engine.findings import Edit, Finding, Fix
from ..syntax.project import Project
from .edits import SourceText, apply_edits
from .rules import FIXERS, counterfactual_for, fix_for

SAFE = "safe"


def attach(findings: Iterable[Finding], project: Project) -> list[Finding]:
    """The findings, each with its fix where its rule has one and the code has its exact form
    (a finding whose fix was sought already is left as it is)."""
    sources: dict[Path, SourceText | None] = {}
    fixed = []
    for finding in findings:
        if finding.rule.symbol in FIXERS and not finding.suppressed and not finding.fix_sought:
            if finding.path not in sources:
                sources[finding.path] = _source(finding.path, project)
            if (source := sources[finding.path]) is not None:
                finding = replace(finding, fix=fix_for(finding, source), fix_sought=True)
        fixed.append(finding)
    return fixed


def _source(path: Path, project: Project) -> SourceText | None:
    module = project.module(path)
    if module is None or module.source.text is None:
        return None
    return SourceText(path, module.source.text, module)


def counterfactual(finding: Finding, project: Project) -> Fix | None:
    """The finding's fix, or where it has none, the graph-mode spelling of its code
    (rules.counterfactual_for): what --confirm compiles to see whether the finding's code is what
    the compiler fails on. Never written to the user's files."""
    source = _source(finding.path, project)
    return counterfactual_for(finding, source) if source is not None else None


def rewritten_texts(fixes: list[Fix], project: Project) -> dict[Path, str] | None:
    """Each file the fixes touch, with all their edits applied; None when two overlap or a
    result does not parse."""
    by_path: dict[Path, list[Edit]] = {}
    for found in fixes:
        for edit in found.edits:
            edits = by_path.setdefault(edit.path, [])
            if edit in edits:
                continue  # two rewrites adding the same import
            if any(_overlap(edit, other) for other in edits):
                return None
            edits.append(edit)
    texts: dict[Path, str] = {}
    for path, edits in by_path.items():
        source = _source(path, project)
        if source is None:
            return None
        texts[path] = apply_edits(source.text, edits, source)
        try:
            ast.parse(texts[path])
        except SyntaxError:
            return None
    return texts


def wanted(fix: Fix | None, unsafe: bool) -> bool:
    return fix is not None and (fix.applicability == SAFE or unsafe)


@dataclass
class FileFix:
    path: Path
    text: str  # the file's new text
    applied: list[Finding] = field(default_factory=list)
    deferred: list[Finding] = field(default_factory=list)  # overlapped: for the next pass


def apply_to_file(path: Path, findings: list[Finding], project: Project) -> FileFix | None:
    """The file with the fixes of ``findings`` applied, or None when the result would not parse
    (the file is then left as it was)."""
    source = _source(path, project)
    if source is None:
        return None
    taken: list[Edit] = []
    result = FileFix(path, source.text)
    for finding in sorted(findings, key=lambda f: _first(f.fix)):
        new = [edit for edit in finding.fix.edits if edit not in taken]
        if any(_overlap(edit, other) for edit in new for other in taken):
            result.deferred.append(finding)
            continue
        taken.extend(new)
        result.applied.append(finding)
    result.text = apply_edits(source.text, taken, source)
    try:
        ast.parse(result.text)
    except SyntaxError:
        return None
    return result


def _first(fix: Fix) -> tuple[int, int]:
    return min((edit.line, edit.column) for edit in fix.edits)


def _span(edit: Edit) -> tuple[tuple[int, int], tuple[int, int]]:
    return (edit.line, edit.column), (edit.end_line, edit.end_column)


def _overlap(a: Edit, b: Edit) -> bool:
    """Spans that share a character; an insertion overlaps a span it falls strictly inside, and
    another insertion at the same point (their order would be a guess)."""
    (a_start, a_end), (b_start, b_end) = _span(a), _span(b)
    if a_start == a_end and b_start == b_end:
        return a_start == b_start
    return a_start < b_end and b_start < a_end
