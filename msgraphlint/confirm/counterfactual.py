"""Findings confirmed by their own failure when MindSpore's error does not name them.

``'int' object has no attribute '__len__'`` names no line, no API, no construct: it may be any
of the target's findings, or inputs the target cannot take; an error at another line may be
where a finding's value is first used. For each finding whose target failed that way
(``fails-elsewhere`` after matching), the target is compiled again in a scratch copy of
the project with that finding's own rewrite applied (its fix, or the graph-mode spelling of its
code: msgraphlint.fix.counterfactual). If the target then gets past that error (it compiles, or
fails with another error), the error was that finding's: ``confirmed``.

The compiler stops at its first error, so a finding behind it is judged once the findings
already shown to cause errors in code the target reaches are rewritten too: against that run's
error (its line, its function, the API it names), or again by its own rewrite on top. An error a
finding is shown to cause is explained: no ``graph-compile-error`` finding of its own.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import replace
from pathlib import Path

from ..engine.findings import Finding, Fix
from ..syntax.project import Project, project_root_for
from .match import (
    COMPILE_ERROR, CONFIRMED, FAILS_ELSEWHERE, IMPORT_RAISED, NOT_REPRODUCED, _judge,
)
from .plan import ConfirmTarget, Planner
from .scratch import scratch_copy

ROUNDS = 8  # each round can uncover the error behind the one the last round explained


class Counterfactuals:
    def __init__(self, engine, rerun):
        self.engine, self.rerun = engine, rerun
        self._runs: dict[tuple, dict | None] = {}

    def result(self, target: ConfirmTarget, fixes: list[Fix]) -> dict | None:
        """What MindSpore does with ``target`` once ``fixes`` are applied (memoised)."""
        from ..fix import rewritten_texts

        if not fixes:
            return target.result
        key = (id(target), tuple(sorted(id(f) for f in fixes)))
        if key in self._runs:
            return self._runs[key]
        self._runs[key] = None
        texts = rewritten_texts(fixes, self.engine.project)
        if texts is None:
            return None
        with tempfile.TemporaryDirectory(prefix="msgraphlint-counterfactual-") as scratch:
            copies = scratch_copy(texts, Path(scratch))
            anchor = next(iter(texts))
            copy_of_target = _copy_of(target.path, anchor, copies)
            if copy_of_target is None:
                return None
            scratch_engine = replace(self.engine, project=Project(), cache=None)
            # The whole copied project, as the first run saw it: who builds the target with what.
            scratch_engine.project.add_project_of(copy_of_target)
            # Its findings too: a finding on a Cell class plans a target of its own.
            static = scratch_engine.check_paths([copy_of_target]).findings
            outcome = self.rerun(scratch_engine, [copy_of_target], static)
            again = next((t for t in outcome.targets if t.attr == target.attr
                          and os.path.realpath(t.path) == os.path.realpath(copy_of_target)), None)
            if again is not None and again.result is not None:
                self._runs[key] = _in_the_project(again.result, anchor, copies[anchor])
        return self._runs[key]


def confirm_past_the_error(engine, findings: list[Finding], planner: Planner, config,
                           rerun) -> list[Finding]:
    """The findings, with those whose own rewrite gets their target past its error confirmed.
    ``rerun(engine, files, findings)`` confirms every target of ``files`` (and the targets those
    findings plan) in a scratch engine (confirm_findings, without this step) and gives its
    ConfirmOutcome."""
    from ..fix import counterfactual

    findings = list(findings)
    runs = Counterfactuals(engine, rerun)
    rewrites: dict[int, Fix | None] = {}
    causes: list[int] = []  # findings shown to cause an error: rewritten in later runs
    explained: set[int] = set()  # targets whose first error a finding was shown to cause
    for i, finding in enumerate(findings):  # already shown to cause an error: rewritten later
        target = planner.for_finding(finding)
        if (finding.confirmation == CONFIRMED and target is not None and target.result
                and target.result["status"] == "rejected"
                and (rewrites.setdefault(i, counterfactual(finding, engine.project))) is not None):
            causes.append(i)
    for _ in range(ROUNDS):
        progress = False
        for target in _failing(planner):
            members = [i for i, f in enumerate(findings) if f.confirmation == FAILS_ELSEWHERE
                       and planner.for_finding(f) is target]
            if not members:
                continue
            # Every cause found so far, rewritten: the reach does not follow every way a target
            # gets to code (a sub-Cell in a list, a module-level import), and a rewrite of
            # another finding confirms nothing of this one; it only lets the compiler get further.
            prior = [rewrites[i] for i in causes]
            baseline = runs.result(target, prior)
            if baseline is None or baseline["status"] == "unverified":
                continue  # the rewritten copy gave no answer: nothing learned
            if prior and _failure(baseline) != _failure(target.result):
                explained.add(id(target))
                for i in members:  # judged on what the compiler does once past that error
                    status, evidence, message = _judge(findings[i], replace(target, result=baseline),
                                                       config.device)
                    if status in (CONFIRMED, NOT_REPRODUCED, FAILS_ELSEWHERE):
                        findings[i] = replace(findings[i], confirmation=status, evidence=tuple(
                            ("compile" if kind == "reason" else kind,
                             f"with the findings shown to fail before it rewritten: {detail}")
                            for kind, detail in evidence), compiler_message=message)
                        progress = progress or status != FAILS_ELSEWHERE
                        if status == CONFIRMED and baseline["status"] == "rejected":
                            # Its own error, now shown: rewritten in later runs, so that the
                            # findings behind it are reached in turn.
                            if i not in rewrites:
                                rewrites[i] = counterfactual(findings[i], engine.project)
                            if rewrites[i] is not None:
                                causes.append(i)
                members = [i for i in members if findings[i].confirmation == FAILS_ELSEWHERE]
            if baseline["status"] != "rejected":
                continue
            for i in members:
                finding = findings[i]
                if i not in rewrites:
                    rewrites[i] = counterfactual(finding, engine.project)
                if rewrites[i] is None:
                    continue
                past = _past(baseline, runs.result(target, [*prior, rewrites[i]]), finding)
                if past is None:
                    continue
                where = f"at {target.level.name} on {config.device}"
                at = (f"In file {Path(baseline['primary'][0]).name}:{baseline['primary'][1]}"
                      if baseline.get("primary") else "its message names no source line")
                findings[i] = replace(finding, confirmation=CONFIRMED, evidence=(
                    ("compile", f"MindSpore rejects {target.label} {where}: {baseline.get('error')}"
                                f" ({at})"),
                    ("compile", f"with this finding's code rewritten ({rewrites[i].description}),"
                                f" {target.label} gets past that error: {past}"),
                ))
                causes.append(i)
                explained.add(id(target))
                progress = True
        if not progress:
            break
    every_cause = [rewrites[i] for i in dict.fromkeys(causes)]
    for target in _failing(planner):
        # A target that fails where a sub-Cell or helper it compiles does (np.tanh in a
        # FeedForward, seen from the classifier holding it), often with another message: with
        # every finding shown to cause an error rewritten, it compiles, so its error was theirs.
        if id(target) not in explained and every_cause:
            again = runs.result(target, every_cause)
            if again is not None and again["status"] == "compiled":
                explained.add(id(target))
    findings = _lost_gradients(engine, findings, planner, config, runs)
    return [f for f in findings if not _explained_error(f, planner, explained)]


def _lost_gradients(engine, findings: list[Finding], planner: Planner, config,
                    runs: Counterfactuals) -> list[Finding]:
    """A gradient the message says is lost, against the right counterfactual: PyNative loses it
    through ``np.tanh(x)`` too, so comparing with PyNative cannot show it. The same target with
    the finding's code spelled the graph-mode way (``ops.tanh``; the whole host round trip,
    ``Tensor(scipy.special.expit(x.asnumpy()))`` -> ``ops.sigmoid(x)``: fix/graph_spelling.py)
    is compiled in the same mode: a gradient that is zero (or different) here and not there was
    lost by this code; the same gradient both ways shows that this code loses none."""
    judged = []
    shared: dict[tuple, Fix] = {}  # the findings of one round trip share its rewrite: one compile
    for finding in findings:
        target = planner.for_finding(finding)
        result = target.result if target is not None else None
        if (finding.confirmation != NOT_REPRODUCED or finding.evidence_kind != "gradient"
                or not result or result["status"] != "compiled" or not result.get("gradient")):
            judged.append(finding)
            continue
        rewrite = _graph_spelling(finding, engine.project)
        if rewrite is not None:
            rewrite = shared.setdefault(rewrite.edits, rewrite)
        rewritten = runs.result(target, [rewrite]) if rewrite is not None else None
        before = result["gradient"]
        after = (rewritten or {}).get("gradient") if (rewritten or {}).get("status") == "compiled" \
            else None
        where = f"at {target.level.name} on {config.device}"
        spelled = f"with this code spelled the graph way ({rewrite.description})" if rewrite else ""
        status, shown = NOT_REPRODUCED, None
        if after is not None and not after["zero"]:
            if before["zero"]:
                status, shown = CONFIRMED, (
                    f"the GRAPH_MODE gradient of {target.label} {where} is zero; {spelled} it is"
                    " not: the gradient is lost")
            elif abs(before["abs_sum"] - after["abs_sum"]) > 1e-4 * max(1.0, after["abs_sum"]):
                status, shown = CONFIRMED, (
                    f"the GRAPH_MODE gradient of {target.label} {where} differs from the one it"
                    f" has {spelled}")
            else:
                shown = (f"the GRAPH_MODE gradient of {target.label} {where} is the one it has"
                         f" {spelled} (not zero): this code loses no gradient")
        elif after is not None and before["zero"]:
            shown = (f"the GRAPH_MODE gradient of {target.label} {where} is zero {spelled} too:"
                     " this code loses no gradient the graph-mode spelling has")
        elif not before["zero"] and not (rewrite is not None and rewritten is None):
            # No graph spelling to compare with (a Process started in construct), but a gradient
            # that is not zero and is PyNative's: nothing was lost on the way.
            shown = (f"the GRAPH_MODE gradient of {target.label} {where} is not zero and is"
                     " PyNative's: this code loses no gradient")
        if shown is None:
            judged.append(finding)
        elif status == CONFIRMED:
            judged.append(replace(finding, confirmation=CONFIRMED,
                                  evidence=(("gradient", shown), *finding.evidence[1:])))
        else:
            judged.append(replace(finding, evidence=(("gradient", shown), *finding.evidence)))
    return judged


def _graph_spelling(finding: Finding, project) -> Fix | None:
    """The host round trip spelled the graph way, else the finding's own rewrite."""
    from ..fix import _source, counterfactual
    from ..fix.graph_spelling import graph_spelling

    source = _source(finding.path, project)
    found = graph_spelling(finding, source) if source is not None else None
    return found if found is not None else counterfactual(finding, project)


def _in_the_project(result: dict, original: Path, copy: Path) -> dict:
    """A scratch run's result with the copy's paths (in locations and messages) turned back into
    the project's, so that its error is matched against the findings' own lines."""
    original = Path(os.path.abspath(original))
    root = project_root_for(original.parent)
    depth = len(original.relative_to(root).parts)
    copy_root = copy.parents[depth - 1]

    def back(path: str) -> str:
        real = Path(os.path.abspath(path))
        return str(root / real.relative_to(copy_root)) if copy_root in real.parents else path

    translated = dict(result)
    for key in ("locations", "fallback"):
        if key in translated:
            translated[key] = [[back(loc[0]), *loc[1:]] for loc in translated[key]]
    if translated.get("primary"):
        translated["primary"] = [back(translated["primary"][0]), *translated["primary"][1:]]
    for key in ("error", "message"):
        if isinstance(translated.get(key), str):
            translated[key] = translated[key].replace(str(copy_root), str(root))
    return translated


def _failing(planner: Planner) -> list[ConfirmTarget]:
    """Targets that fail: rejected, or never compiled because their module raised."""
    return [t for t in planner.targets.values() if t.result and t.kind != "module" and (
        t.result["status"] == "rejected"
        or (t.result.get("reason") or "").startswith(IMPORT_RAISED))]


def _failure(result: dict | None) -> str | None:
    return (result or {}).get("error") or (result or {}).get("reason")


def _explained_error(finding: Finding, planner: Planner, explained: set[int]) -> bool:
    """A graph-compile-error finding for a target whose error a finding was shown to cause."""
    if finding.rule.symbol != COMPILE_ERROR:
        return False
    target = planner.for_finding(finding)
    return target is not None and id(target) in explained


def _copy_of(path: Path, fixed: Path, copies: dict[Path, Path]) -> Path | None:
    """Where ``path`` lies in the scratch copy made for the fixed file ``fixed``."""
    fixed_copy = copies.get(fixed)
    if fixed_copy is None:
        return None
    if os.path.realpath(path) == os.path.realpath(fixed):
        return fixed_copy
    # The copy mirrors the project below its root: climb from the fixed file to the common root.
    absolute, anchor = Path(os.path.abspath(path)), Path(os.path.abspath(fixed)).parent
    copy_anchor = fixed_copy.parent
    while anchor not in absolute.parents and anchor != anchor.parent:
        anchor, copy_anchor = anchor.parent, copy_anchor.parent
    candidate = copy_anchor / absolute.relative_to(anchor)
    return candidate if candidate.is_file() else None


def _past(before: dict, after: dict | None, finding: Finding) -> str | None:
    """What the rewritten target did, when it got past the first run's error (an error at the
    rewritten line itself is the rewrite's own, not a way past)."""
    if after is None or after["status"] == "unverified":
        return None
    if after["status"] != "rejected":
        return "it compiles"
    if after.get("error") == before.get("error"):
        return None
    primary = after.get("primary")
    if primary and os.path.realpath(primary[0]) == os.path.realpath(finding.path) \
            and primary[1] == finding.line:
        return None
    where = f" at {Path(primary[0]).name}:{primary[1]}" if primary else ""
    return f"it now fails with another error{where} ({after.get('error')})"
