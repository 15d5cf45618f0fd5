"""From what MindSpore did with each target to a status on each static finding.

- The target failed to compile: a finding at a line the compiler's message names ("In file
  X:line"), or in the function the error is in, or (when the message names no line) whose API or
  attribute the message names, is ``confirmed``; the target's other findings come back
  ``fails-elsewhere`` with that error (the compiler stops at its first error: it says nothing
  about them), never confirmed by another problem's failure. An error no finding accounts for becomes
  a ``graph-compile-error`` finding of its own, at the line MindSpore names.
- The target compiled: a finding whose rule says "rejected" at that level is ``not-reproduced``; one
  whose rule says "misbehaves" is ``confirmed`` when the run shows the rule's evidence (output,
  gradient, effect: the consequence its message states), else ``not-reproduced`` (a PyExecute
  node at its line is shown beside, as where the interpreter runs); an advice
  (accepted) finding is ``confirmed`` by compiling.
- No answer from MindSpore (a limit, a crash, an import error, inputs that cannot be built, no
  compiled target at all): ``unverified`` with the reason.
"""

from __future__ import annotations

import linecache
import os
import re
from dataclasses import replace
from pathlib import Path

from ..knowledge.catalogue import Level, Verdict
from ..knowledge.catalogue import rule as lookup_rule
from ..engine.findings import Finding
from .plan import ConfirmTarget, Planner

CONFIRMED, NOT_REPRODUCED, UNVERIFIED = "confirmed", "not-reproduced", "unverified"
FAILS_ELSEWHERE = "fails-elsewhere"  # the target fails, for a reason other than this finding
STATUSES = (CONFIRMED, NOT_REPRODUCED, FAILS_ELSEWHERE, UNVERIFIED)
COMPILE_ERROR = "graph-compile-error"
IMPORT_RAISED = "importing the module raised"  # how the child reports a module that raises


def _same_file(a: str | Path, b: str | Path) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _at(locations, finding: Finding) -> bool:
    return any(_same_file(path, finding.path) and line == finding.line for path, line in locations)


def _function_of(target: ConfirmTarget, path, line: int):
    """The innermost compiled function of the target that contains path:line."""
    best = None
    for function_path, first, last in target.functions:
        if _same_file(function_path, path) and first <= line <= last:
            if best is None or last - first < best[2] - best[1]:
                best = (function_path, first, last)
    return best


def _where(location) -> str:
    path, line = location[0], location[1]
    return f"{Path(path).name}:{line}"


def _setting(target: ConfirmTarget, device: str) -> str:
    return f"at {target.level.name} on {device}"


def annotate(findings: list[Finding], planner: Planner, device: str) -> list[Finding]:
    """The findings with confirmation, evidence and compiler message; plus graph-compile-error
    findings for errors no finding explains. Sorted like the static run."""
    rejected = [t for t in _run_targets(planner)
                if t.result["status"] == "rejected" and t.kind != "module"]
    explained: set = set()  # compile errors (by location) some finding accounts for
    annotated = []
    for finding in findings:
        if finding.suppressed:
            annotated.append(finding)
            continue
        target = planner.for_finding(finding)
        status, evidence, message = _judge(finding, target, device)
        if status != CONFIRMED:
            # A helper reached from several Cells belongs to the first; another Cell's compile
            # error may name its line all the same.
            other = next((t for t in rejected if t is not target
                          and _at(_locations(t.result), finding)), None)
            if other is not None:
                target = other
                status, evidence, message = _judge_rejected(finding, other, other.result, device)
        if status == CONFIRMED and target is not None and target.result["status"] == "rejected":
            explained.add(_error_key(target))
            if not target.result.get("primary"):
                # An error that names no line (a Cell with no construct) is explained wherever
                # another Cell reaches it (its parent calling it).
                explained.add(target.result.get("error"))
        annotated.append(replace(finding, confirmation=status, evidence=tuple(evidence),
                                 compiler_message=message))
    extra_at: dict = {}
    for target in rejected:
        key = _error_key(target)
        if key in explained or target.result.get("error") in explained:
            continue
        if key in extra_at:  # the same error reached from several targets: one finding
            first = extra_at[key]
            evidence = first.evidence + _compile_evidence(target, device)
            if not target.guessed_inputs and first.confirmation != CONFIRMED:
                # Reached with inputs the project shows too: the error is the code's.
                first = _compile_error_finding(target, device)
                evidence = tuple(pair for pair in evidence if pair[0] != "reason")
            extra_at[key] = replace(first, evidence=evidence)
            continue
        extra_at[key] = _compile_error_finding(target, device)
    annotated.extend(extra_at.values())
    annotated.sort(key=Finding.sort_key)
    return annotated


def _locations(result: dict) -> list[tuple]:
    return [tuple(loc) for loc in result.get("locations", [])]


def _error_key(target: ConfirmTarget):
    primary = target.result.get("primary")
    return (os.path.realpath(primary[0]), primary[1]) if primary else ("target", id(target))


def _run_targets(planner: Planner) -> list[ConfirmTarget]:
    return sorted((t for t in planner.targets.values() if t.result is not None),
                  key=lambda t: (str(t.path), t.attr))


def _judge(finding: Finding, target: ConfirmTarget | None, device: str):
    if target is None:
        reason = ("not in a Cell or jit function: nothing to compile" if finding.target is None
                  else f"{finding.target} was not confirmed")
        return UNVERIFIED, [("reason", reason)], None
    result = target.result
    if result is None:
        return UNVERIFIED, [("reason", f"{target.label} was not run")], None
    if result["status"] == "unverified":
        reason = result.get("reason") or "no answer from MindSpore"
        if reason.startswith(IMPORT_RAISED):  # the module fails before anything is compiled
            return FAILS_ELSEWHERE, [("import", reason)], None
        return UNVERIFIED, [("reason", reason)], None
    level = Level(result.get("level") or target.level.value)
    verdict = finding.rule.verdict(level, device, finding.case)
    if target.kind == "module":
        if result["status"] == "rejected":
            error = result.get("error") or "the import failed"
            if any(_same_file(path, finding.path) for path, _ in _locations(result)):
                return CONFIRMED, [("import", error)], None
            # It failed elsewhere (a missing dependency, another module): no answer about this file.
            return FAILS_ELSEWHERE, [("import", error)], None
        if verdict == Verdict.ACCEPTED:
            return CONFIRMED, [("import", "the module imports without error")], None
        return NOT_REPRODUCED, [("import", "the module imports without error")], None
    if result["status"] == "rejected":
        return _judge_rejected(finding, target, result, device)
    # It compiled.
    fallback = [loc for loc in result.get("fallback", []) if _at([loc], finding)]
    fallback_evidence = [("fallback", f"a PyExecute node at {_where(loc)}: the Python interpreter"
                          " runs this code, outside the graph") for loc in fallback]
    where = _setting(target, device)
    if verdict == Verdict.REJECTED:
        return NOT_REPRODUCED, [("compile", f"{target.label} compiled {where} without error")], None
    if verdict == Verdict.ACCEPTED:
        return CONFIRMED, [("compile", f"{target.label} compiled {where}"), *fallback_evidence], None
    shown = [(kind, detail) for kind, detail in result.get("evidence", [])]
    matching = [pair for pair in shown if pair[0] == finding.evidence_kind
                or _frozen_call(finding, pair)]
    # The claim is the consequence the message states (a lost gradient, a frozen value, an
    # effect run once): a PyExecute node at the line shows the mechanism, not the claim.
    if matching:
        return CONFIRMED, [*matching, *fallback_evidence], None
    given = (f"the inputs running {target.via['shown']} passes it" if target.via
             else f"inputs {list(target.inputs)}")
    detail = (f"{target.label} compiled {where}, and with {given} showed no"
              f" {finding.evidence_kind} difference from PyNative")
    if result.get("note"):
        detail += f" ({result['note']})"
    return NOT_REPRODUCED, [(finding.evidence_kind, detail), *shown, *fallback_evidence], None


def _judge_rejected(finding: Finding, target: ConfirmTarget, result: dict, device: str):
    locations = [tuple(loc) for loc in result.get("locations", [])]
    primary = tuple(result["primary"][:2]) if result.get("primary") else None
    message = result.get("message") or result.get("error")
    error = result.get("error") or "compile error"
    where = _setting(target, device)
    if _at(locations, finding):
        at = primary if primary and _at([primary], finding) else (finding.path, finding.line)
        return CONFIRMED, [("compile", f"MindSpore rejects {target.label} {where}: {error}"
                            f" (In file {_where(at)})")], message
    here = _function_of(target, finding.path, finding.line)
    if (finding.case and finding.rule.cases[finding.case].may_reject and primary and here
            and here == _function_of(target, *primary)):
        # The message says the code its result feeds may reject the graph: it did, there.
        return CONFIRMED, [("compile", f"MindSpore rejects {target.label} {where} where the"
                            f" result is used: {error} (In file {_where(primary)})")], message
    if finding.rule.verdict(target.level, device, finding.case) != Verdict.REJECTED:
        # Near but not at the line, only a rule that predicts this very failure is confirmed
        # (an endless `while True` beside a host call is the loop's error, not the call's).
        elsewhere = f" at {_where(primary)}" if primary else ""
        return FAILS_ELSEWHERE, [("compile", f"the compile of {target.label} stopped at an error"
                                  f"{elsewhere} ({error}); fix it and run again")], message
    named = _names_of(finding) & _words(message or error) or _its_error(finding, error)
    if primary and here and here == _function_of(target, *primary) and named:
        # MindSpore often names the statement's first line, not the call's: the same function
        # and the finding's own API in the message.
        return CONFIRMED, [("compile", f"MindSpore rejects {target.label} {where} in the same"
                            f" function: {error} (In file {_where(primary)})")], message
    if (primary and here is None and named and target.span
            and target.span[0] <= finding.line <= target.span[1]):
        # A finding on what the class's construction builds (its __init__): the compiler
        # names the compiled code that reads it, with the error this finding predicts.
        return CONFIRMED, [("compile", f"MindSpore rejects {target.label} {where} where compiled"
                            f" code reads what this line builds: {error} (In file {_where(primary)})")
                           ], message
    if primary and (called := _calls_helper(primary, finding)):
        # MindSpore often names the call site in the caller, not the line inside the helper.
        return CONFIRMED, [("compile", f"MindSpore rejects {target.label} {where} at the call of"
                            f" {called}: {error} (In file {_where(primary)})")], message
    if primary is None:
        if named:
            said = (f"it names {sorted(named)[0]!r}" if isinstance(named, set)
                    else "it is the error this finding predicts")
            return CONFIRMED, [("compile", f"MindSpore rejects {target.label} {where}: {error} (its"
                                f" message names no source line; {said})")], message
        return FAILS_ELSEWHERE, [("compile", f"{target.label} fails {where} with an error that"
                                  f" names neither this line nor this code: {error}; fix it (or"
                                  " give the target's inputs) and run again")], message
    return FAILS_ELSEWHERE, [("compile", f"the compile of {target.label} stopped at an earlier"
                              f" error at {_where(primary)} ({error}); fix it and run again")
                             ], message


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Words every Python or MindSpore message may hold: naming them says nothing about a finding.
_COMMON_WORDS = frozenset({"self", "x", "ms", "np", "ops", "nn", "mint", "Tensor", "tensor", "int",
                           "float", "list", "tuple", "object", "value", "input", "shape", "dtype"})


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text))


def _names_of(finding: Finding) -> set[str]:
    """The API, attribute or construct a finding is about: the last names of the code it quotes
    ("'logits.detach()'" -> detach; "'np.amax'" -> amax)."""
    names: set[str] = set()
    for quoted in re.findall(r"'([^']+)'", finding.message)[:1]:
        calls = re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", quoted)
        chosen = calls[-1:] or _WORD.findall(quoted)[-1:]
        names.update(chosen)
    # And the functions the message's first clause names ("defines forward() but no
    # construct()"); not the fix's, which come after the consequence.
    names.update(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\(\)", finding.message.split(":", 1)[0]))
    return names - _COMMON_WORDS


def _its_error(finding: Finding, error: str) -> bool:
    """The compiler's error is the one this finding predicts: the exception its own message
    quotes (a constant folded while compiling: "(TypeError: unsupported operand type(s) ...)"),
    or one the catalogue records the compiler giving for this rule ("Cannot join the return
    values of different branches")."""
    text = error.split(":", 1)[1].strip().lower() if ":" in error else error.strip().lower()
    if len(text) >= 12 and text in finding.message.lower():
        return True
    # Compared as words, up to eight in a row (five at least): the recorded message is one
    # instance ("... '__input_key_0__ + __input_key_1__' ..."), the error may be another ("* ").
    said = " " + " ".join(_ANY_WORD.findall(error.lower())) + " "
    recorded = " ".join(finding.rule.compiler.values())
    for quoted in re.findall(r'"([^"]+)"', recorded):
        words = _ANY_WORD.findall(quoted.lower())
        run = min(8, len(words))
        if run >= 5 and any(" " + " ".join(words[start:start + run]) + " " in said
                            for start in range(len(words) - run + 1)):
            return True
    return False


_ANY_WORD = re.compile(r"\w+")


def _frozen_call(finding: Finding, evidence: tuple[str, str]) -> bool:
    """A frozen value shown by its call count: the call the finding names ran on the second
    PyNative call and not on the second GRAPH_MODE one (read once, while compiling), whether or
    not the value reaches the output."""
    kind, detail = evidence
    return (finding.rule.family == "frozen" and kind == "effect"
            and detail.startswith("host calls on the second call")
            and bool(_names_of(finding) & _words(detail)))


def _calls_helper(location, finding: Finding) -> str | None:
    """The helper on the finding's path from the root ("via a -> b") called at that line."""
    if not finding.reached_from or " via " not in finding.reached_from:
        return None
    linecache.checkcache(str(location[0]))
    text = linecache.getline(str(location[0]), location[1])
    for name in finding.reached_from.split(" via ", 1)[1].split(" -> "):
        name = name.strip().rsplit(".", 1)[-1]
        if name and re.search(rf"\b{re.escape(name)}\s*\(", text):
            return name
    return None


def _compile_error_finding(target: ConfirmTarget, device: str) -> Finding:
    result = target.result
    rule = lookup_rule(COMPILE_ERROR)
    primary = tuple(result["primary"]) if result.get("primary") else None
    if primary is None and target.roots:
        root = target.roots[0]
        primary = (str(root.module.path), root.node.lineno, root.node.col_offset)
    elif primary is None:  # a Cell called for a finding on its class: where the class starts
        primary = (str(target.path), target.span[0] if target.span else 1, 0)
    path, line, column = (*primary, 0)[:3]
    shown = _display_path(path, target)
    error = result.get("error") or "compile error"
    compiled = f"{target.label} {_setting(target, device)}"
    status, evidence = CONFIRMED, _compile_evidence(target, device)
    if target.guessed_inputs:
        # Nothing in the project shows what it is called with: the error may be the guess's.
        compiled += f" with inputs msgraphlint guessed ({', '.join(target.inputs)})"
        status = UNVERIFIED
        evidence += (("reason", "no driver, parent Cell or annotation shows this target's inputs;"
                      f" give them as inputs for {target.key!r} in"
                      " [tool.msgraphlint.confirm.targets] to confirm the error"),)
    args = (compiled, error)
    return Finding(
        path=shown,
        rule_id=rule.id,
        message=rule.message % args,
        line=line,
        column=column + 1,
        end_line=line,
        end_column=column + 1,
        target=target.roots[0].label if target.roots else None,
        target_line=target.roots[0].node.lineno if target.roots else None,
        target_path=target.roots[0].module.path if target.roots else None,
        args=args,
        confirmation=status,
        compiler_message=result.get("message") or error,
        evidence=evidence,
    )


def _compile_evidence(target: ConfirmTarget, device: str) -> tuple[tuple[str, str], ...]:
    result = target.result
    error = result.get("error") or "compile error"
    at = f" (In file {_where(result['primary'])})" if result.get("primary") else ""
    return (("compile", f"MindSpore rejects {target.label} {_setting(target, device)}: {error}{at}"),)


def _display_path(path: str, target: ConfirmTarget) -> Path:
    """The path as the static findings spell it (relative when the user gave relative paths)."""
    if _same_file(path, target.path):
        return target.path
    for root in target.roots:
        if _same_file(path, root.module.path):
            return root.module.path
    return Path(path)
