"""``--fix --confirm``: a fixed file is written only when MindSpore accepts what the fixes made.

The project is copied to a scratch folder with the fixed texts in place, and every Cell and jit
function of each fixed file, and of the files importing it, whose compiled code touches the fixed
file is compiled at the run's level on its device (in the child processes of ``--confirm``) and
compared with PyNative by the referee. The findings the fixes leave (those no safe fix rewrites)
are confirmed on the same compiles. A file's fixes are verified when each such target compiles
and matches, or fails only with the own error, or misbehaves only in the own way, of a finding
that remains; otherwise none of them is applied, and the compiler's reason is given. A file
without such a target cannot be verified, and is left as it was too.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .plan import finding_key, root_key
from .scratch import scratch_copy, scratch_roots
from ..syntax.project import walk_python_files
from ..engine.findings import Finding


@dataclass
class Verdict:
    verified: bool
    detail: str  # what MindSpore did: "2 targets compile at LAX and match PyNative", or why not


def verify(new_texts: dict[Path, str], config, jobs: int | None, progress: bool | None,
           make_engine, remaining: Callable[[object, list[Path]], list[Finding]]
           ) -> dict[Path, Verdict]:
    """Each fixed file's verdict. ``make_engine`` builds the engine for the scratch copy and
    ``remaining(engine, files)`` gives the selected findings of those files (the pipeline's, so
    that this stage needs nothing above it)."""
    from .run import ConfirmOptions, confirm_findings

    with tempfile.TemporaryDirectory(prefix="msgraphlint-fix-") as scratch:
        copies = scratch_copy(new_texts, Path(scratch))
        engine = make_engine()
        files = set(copies.values())
        for copy in copies.values():
            engine.project.add_project_of(copy)
            files.update(engine.project.importers_of(copy))
        # The findings of the whole project: a target may stop at one in the code it reaches
        # elsewhere (a helper's np.where, a sub-Cell's np.random); confirm_findings keeps those
        # the targets of these files compile.
        left = remaining(engine, sorted(Path(path) for root in scratch_roots(Path(scratch))
                                        for path in walk_python_files(root)))
        outcome = confirm_findings(engine, left, config, sorted(files),
                                   ConfirmOptions(all_targets=True, jobs=jobs or 0,
                                                  use_cache=False, progress=progress))
        verdicts = {}
        for original, copy in copies.items():
            real = os.path.realpath(copy)
            spans = {id(t): [(first, last) for path, first, last in t.functions
                             if os.path.realpath(path) == real]
                     for t in outcome.targets if t.result is not None and t.kind != "module"}
            touching = [t for t in outcome.targets if spans.get(id(t))]
            # The targets that compile a changed line; an import the fixes added is on no
            # target's line, and then every target of the file is judged.
            changed = _changed_lines(Path(original).read_text("utf-8-sig"), new_texts[original])
            compiling = [t for t in touching if any(first <= line <= last for line in changed
                                                    for first, last in spans[id(t)])]
            touching = compiling or touching
            verdicts[original] = _judge(touching, outcome.findings, config)
        return verdicts


def _changed_lines(before: str, after: str) -> list[int]:
    """The lines of ``after`` that differ from ``before`` (1-based)."""
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    return [line + 1 for tag, _, _, first, last in matcher.get_opcodes() if tag != "equal"
            for line in range(first, last)]


def _judge(targets, findings: list[Finding], config) -> Verdict:
    where = f"at {config.level.name} on {config.device}"
    if not targets:
        return Verdict(False, "no Cell or jit function compiles this file's code on its own")
    unexplained = {finding_key(f) for f in findings if f.rule.symbol == "graph-compile-error"}
    left = [f for f in findings if f.confirmation == "confirmed" and f.rule.symbol !=
            "graph-compile-error"]
    shown_by_left = {pair for f in left for pair in f.evidence}
    owned: list[str] = []  # the remaining findings whose own failure a target stops at
    for target in targets:
        result = target.result
        if result["status"] == "rejected":
            root = target.roots[0] if target.roots else None
            if root is None or root_key(root) in unexplained:
                return Verdict(False, f"MindSpore rejects {target.label} {where}:"
                                      f" {result.get('error')}")
            owned.extend(_owners(left, target) or [f"those {target.label} compiles"])
            continue
        if result["status"] != "compiled":
            return Verdict(False, f"{target.label} could not be compiled on its own:"
                                  f" {result.get('reason') or 'no answer from MindSpore'}")
        others = [detail for kind, detail in result.get("evidence", [])
                  if (kind, detail) not in shown_by_left]
        if others:
            return Verdict(False, f"{target.label} compiles {where} but {'; '.join(others)}")
        if result.get("evidence"):
            owned.extend(_owners(left, target))
    many = len(targets) != 1
    counted = f"{len(targets)} target{'s' * many}"
    detail = f"{counted} compile{'s' * (not many)} {where} and match{'es' * (not many)} PyNative"
    if owned:
        named = ", ".join(sorted(set(owned)))
        detail = (f"{counted} {where} fail{'s' * (not many)} or differ{'s' * (not many)} from"
                  f" PyNative only as the findings left after the fixes do ({named})")
    return Verdict(True, detail)


def _owners(findings: list[Finding], target) -> list[str]:
    """The remaining findings that account for the target's failure: its own, and those shown
    by the same error or misbehaviour (a sub-Cell's np.where that its parent stops at too)."""
    roots = {root_key(root) for root in target.roots}
    error = target.result.get("error")
    shown = {tuple(pair) for pair in target.result.get("evidence", [])}
    return [f"{f.rule.symbol} at {Path(f.path).name}:{f.line}" for f in findings
            if finding_key(f) in roots
            or (error and any(error in detail for _, detail in f.evidence))
            or shown & set(f.evidence)]

