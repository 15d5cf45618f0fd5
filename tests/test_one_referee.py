"""One referee: ``--confirm`` judges a target exactly as the compiler tests do.

``--confirm-all`` runs every compiled sample at LAX and at STRICT in its child processes; for each
Cell and jit function, the verdict (and the kinds of evidence) its child reached must be the one
tests/test_compiler.py's in-process referee gives the same target. A drift between the two (how
effects are counted, how the callable is built, which level is set) shows here.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")

from msgraphlint.knowledge.catalogue import Level, Verdict  # noqa: E402
from msgraphlint.config import Config  # noqa: E402
from msgraphlint.confirm.referee import load_module  # noqa: E402
from msgraphlint.confirm.run import ConfirmOptions, confirm_findings  # noqa: E402
from msgraphlint.confirm_settings import ConfirmSettings, TargetSettings  # noqa: E402
from msgraphlint.pipeline import new_engine  # noqa: E402

from .samples_index import ROOT  # noqa: E402
from .shared_verdicts import verdicts_cache  # noqa: E402
from .test_compiler import COMPILED_SAMPLES, planned_targets, referee_judgement  # noqa: E402

pytestmark = pytest.mark.compiler
LEVELS = (Level.LAX, Level.STRICT)


def child_verdict(result: dict) -> Verdict | None:
    """What the child's result dict says (None: it gave no verdict, unverified)."""
    if result["status"] == "rejected":
        return Verdict.REJECTED
    if result["status"] == "compiled":
        return Verdict.MISBEHAVES if result["evidence"] else Verdict.ACCEPTED
    return None


def confirm_settings(level: Level) -> ConfirmSettings:
    """The inputs the compiler tests give (SAMPLE_INPUTS), as per-target pyproject entries."""
    targets = {}
    for sample in COMPILED_SAMPLES:
        module = load_module(sample.path)
        if getattr(module, "SAMPLE_INPUTS", None):
            for target in planned_targets(sample.path, level, module):
                targets[target.key] = TargetSettings(target.inputs, target.init)
    return ConfirmSettings(targets=targets, timeout=120)


@pytest.fixture(scope="module")
def confirmed(request) -> dict[tuple[str, str], dict]:
    """--confirm-all on every compiled sample at one level (request.param):
    (real path, target key) -> the child's result."""
    level = request.param
    config = Config(level=level, confirm=confirm_settings(level), source=ROOT / "pyproject.toml")
    paths = [sample.path for sample in COMPILED_SAMPLES]
    engine = new_engine()
    run = engine.check_paths(paths, config.excludes)
    # The session's shared verdicts (tests/shared_verdicts.py): a target tests/test_confirm.py's
    # children already ran at this level, with the same spec, is that child's result. No
    # counterfactual runs: they rerun rewritten copies to annotate findings and never change a
    # target's result, which is all this test compares (tests/test_confirm.py checks them).
    options = ConfirmOptions(all_targets=True, counterfactuals=False, jobs=2, use_cache=True,
                             progress=False, cache_dir=verdicts_cache())
    outcome = confirm_findings(engine, [f for f in run.findings if config.wants(f)], config,
                               paths, options)
    return {(os.path.realpath(t.path), t.key): t.result for t in outcome.targets}


# The level goes to the module-scoped fixture: one --confirm-all run per level for all samples.
@pytest.mark.parametrize("sample", COMPILED_SAMPLES, ids=lambda sample: sample.id)
@pytest.mark.parametrize("confirmed", LEVELS, indirect=True, ids=lambda level: level.value)
def test_confirm_child_and_compiler_tests_agree(confirmed, sample, request):
    level = request.node.callspec.params["confirmed"]
    module = load_module(sample.path)
    targets = planned_targets(sample.path, level, module)
    assert targets, f"{sample.path} has no target to compare"
    seen = {}
    for target in targets:
        result = confirmed.get((os.path.realpath(target.path), target.key))
        assert result is not None, f"--confirm-all did not run {target.key}"
        referee = referee_judgement(sample.path, target, module)
        child_kinds = sorted({kind for kind, _ in result["evidence"]})
        seen[target.label] = ((child_verdict(result), child_kinds),
                              (referee.verdict, sorted(set(referee.kinds))), result.get("reason"))
    disagreements = {label: pair for label, pair in seen.items() if pair[0] != pair[1]}
    assert disagreements == {}
