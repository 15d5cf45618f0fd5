"""The compiler is the referee: every sample is compiled by the real MindSpore on CPU, at STRICT,
COMPATIBLE and LAX, and must do what the catalogue says (rejected / misbehaves / accepted).

Bad samples must show the rule's verdict at each level (for MISBEHAVES, through the evidence the
catalogue names: output, gradient or effect, against PyNative); good samples must be accepted at
every level. jit functions are judged at the level MindSpore gives them (LAX, or STRICT with
fullgraph=True).

The verdicts come from msgraphlint.confirm.referee, on the targets plan.py makes, exactly as
``--confirm``'s child judges them (tests/test_one_referee.py checks that they agree).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")

from msgraphlint.knowledge.catalogue import Level, Verdict  # noqa: E402
from msgraphlint.confirm.plan import ConfirmTarget, Planner  # noqa: E402
from msgraphlint.confirm.referee import Judgement, judge, load_module  # noqa: E402
from msgraphlint.confirm_settings import ConfirmSettings  # noqa: E402
from msgraphlint.syntax.project import Project  # noqa: E402
from msgraphlint.model.reach import ReachModel  # noqa: E402

from . import prejudge  # noqa: E402
from .samples_index import ROOT, all_samples  # noqa: E402

pytestmark = pytest.mark.compiler
COMPILED_SAMPLES = [s for s in all_samples() if s.rule.evidence != "import"]
IMPORT_SAMPLES = [s for s in all_samples() if s.rule.evidence == "import"]
# (path, target spec) -> judgement: tests/test_one_referee.py compares --confirm's verdicts with
# these, and reuses the ones this file has already computed in the same session.
_JUDGED: dict[tuple[str, str], Judgement] = {}


def settings_for(module) -> ConfirmSettings:
    """The sample's SAMPLE_INPUTS for all its targets, as ``inputs`` in a pyproject would say."""
    inputs = getattr(module, "SAMPLE_INPUTS", None)
    return ConfirmSettings(inputs=tuple(inputs)) if inputs else ConfirmSettings()


def planned_targets(path: Path, level: Level, module) -> list[ConfirmTarget]:
    """The Cells and jit functions ``--confirm`` would run for this file at ``level`` (jit
    functions keep their own level), with the inputs it would give them; not those it cannot
    run on its own (they have a reason and stay unverified)."""
    project = Project()
    planner = Planner(ReachModel(project), settings_for(module), level, ROOT)
    planner.add_module(project.module(path))
    return [t for t in planner.targets.values() if t.kind != "module" and t.reason is None]


def judgement_key(path: Path, target: ConfirmTarget) -> tuple[str, str]:
    return (str(path), json.dumps(target.spec, sort_keys=True))


def referee_judgement(path: Path, target: ConfirmTarget, module) -> Judgement:
    """The referee's judgement, as the child makes it (without reading the IR, which gives
    evidence for findings but never changes the verdict): made ahead by tests/prejudge.py's
    process when the session started one, else in this process."""
    key = judgement_key(path, target)
    if key not in _JUDGED:
        made_ahead = prejudge.ACTIVE.take(key) if prejudge.ACTIVE else None
        _JUDGED[key] = made_ahead if made_ahead is not None else judge(module, target.spec)
    return _JUDGED[key]


def cases_by_target(sample) -> dict[str, set[str]]:
    """Label of each target -> the cases of the rule's findings in it ("" for the rule's
    default): a case may have its own verdict (gradient.toml's host copy only returned) or say
    that the graph may be rejected rather than misbehave (move-to-tensor-device into a loss)."""
    from msgraphlint.pipeline import new_engine

    cases: dict[str, set[str]] = {}
    for finding in new_engine().check_file(sample.path):
        if finding.rule_id == sample.rule.id and finding.target:
            cases.setdefault(finding.target.split(".")[0], set()).add(finding.case)
    return cases


SEVERITY = {Verdict.ACCEPTED: 0, Verdict.MISBEHAVES: 1, Verdict.REJECTED: 2}


def expected_verdict(rule, level: Level, cases: set[str]) -> Verdict:
    """The compiler's verdict on a target holding findings of these cases: the gravest."""
    return max((rule.verdict(level, "CPU", case) for case in cases or {""}), key=SEVERITY.get)


@pytest.mark.parametrize("sample", COMPILED_SAMPLES, ids=lambda s: s.id)
def test_compiler_agrees_with_catalogue(sample):
    rule = sample.rule
    module = load_module(sample.path)
    judged = {}
    for level in Level:
        for target in planned_targets(sample.path, level, module):
            judged[(target.label, target.level)] = referee_judgement(sample.path, target, module)
    assert judged, f"{sample.path} defines no compiled target"
    cases = cases_by_target(sample) if sample.kind == "bad" else {}
    disagreements = []
    for (label, level), result in judged.items():
        shapes = cases.get(label, set())
        expected = expected_verdict(rule, level, shapes) if sample.kind == "bad" else Verdict.ACCEPTED
        ok = result.verdict == expected or (
            # The case's message says the graph may be rejected where the result is used.
            expected == Verdict.MISBEHAVES and result.verdict == Verdict.REJECTED
            and shapes and all(case and rule.cases[case].may_reject for case in shapes))
        evidence = {rule.evidence_for(case) for case in shapes or {""}}
        if ok and result.verdict == Verdict.MISBEHAVES:
            ok = bool(evidence & set(result.kinds))
        if not ok:
            disagreements.append(
                f"{label} at {level.value}: catalogue says {expected.value}"
                f" ({', '.join(sorted(evidence))}), compiler did {result.verdict.value}"
                f" {result.evidence} {result.error or ''}"
            )
    assert disagreements == []


@pytest.mark.parametrize("sample", IMPORT_SAMPLES, ids=lambda s: s.id)
def test_input_samples_import_as_catalogued(sample):
    """Code rejected before MindSpore compiles anything: importing the module fails (a file Python
    cannot read, or an API that no longer exists, such as ms_function)."""
    expected = sample.rule.verdict(Level.LAX) if sample.kind == "bad" else Verdict.ACCEPTED
    name = f"msgraphlint_import_{sample.rule.symbol.replace('-', '_')}_{sample.kind}"
    try:
        load_module(sample.path, name)
        verdict = Verdict.ACCEPTED
    except (SyntaxError, ImportError, AttributeError):
        verdict = Verdict.REJECTED
    finally:
        sys.modules.pop(name, None)
        importlib.invalidate_caches()
    assert verdict == expected


# ----- fixes (msgraphlint.fix): what --fix writes compiles and behaves -------------------------

FIXED_FILES = sorted((ROOT / "tests" / "fixed").rglob("*.py"))


def judged_clean_targets(path: Path, levels) -> dict:
    """The referee's verdict on every target of ``path`` that the static check finds nothing in
    any more (a fixed sample can keep findings that have no fix: those targets are not judged)."""
    from msgraphlint.pipeline import new_engine

    still = {f.target for f in new_engine().check_file(path) if f.target}
    module = load_module(path)
    judged = {}
    for level in levels:
        for target in planned_targets(path, level, module):
            if not any(label.startswith(target.label) for label in still):
                judged[(target.label, target.level)] = referee_judgement(path, target, module)
    return judged


@pytest.mark.parametrize("path", FIXED_FILES, ids=lambda p: p.stem)
def test_fixed_samples_compile_at_every_level_and_match_pynative(path):
    """tests/fixed/ holds the bad samples as --fix --unsafe-fixes rewrites them (tests/test_fix.py
    checks that): every target the fixes cleaned compiles and matches PyNative at every level."""
    judged = judged_clean_targets(path, list(Level))
    assert judged, f"{path.name}: the fixes left no target clean"
    wrong = {key: (j.verdict.value, j.evidence, j.error) for key, j in judged.items()
             if j.verdict != Verdict.ACCEPTED}
    assert wrong == {}


def test_fixed_pytorch_port_compiles_at_strict_and_lax(tmp_path):
    """samples/models/torch_port after `msgraphlint check --fix`: nothing left to report, and
    every Cell and jit function compiles at STRICT and LAX and matches PyNative."""
    import shutil

    from msgraphlint import pipeline
    from msgraphlint.config import Config

    port = tmp_path / "torch_port"
    shutil.copytree(ROOT / "samples" / "models" / "torch_port", port)
    outcome = pipeline.run(pipeline.Request([port], Config(), jobs=1, use_cache=False,
                                            progress=False, fix=True))
    assert outcome.fixed and outcome.findings == []
    judged = judged_clean_targets(port / "model.py", [Level.STRICT, Level.LAX])
    # Encoder is a sub-Cell: it is compiled inside Classifier, the way Classifier calls it.
    assert {label for label, _ in judged} == {"Classifier", "predict"}
    assert {key: j.verdict for key, j in judged.items()} == dict.fromkeys(judged, Verdict.ACCEPTED)
