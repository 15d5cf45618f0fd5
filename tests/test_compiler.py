"""The compiler is the referee: every sample is compiled by the real MindSpore on CPU, at STRICT,
COMPATIBLE and LAX, and must do what the catalogue says (rejected / misbehaves / accepted).

Bad samples must show the rule's verdict at each level (for MISBEHAVES, through the evidence the
catalogue names: output, gradient or effect, against PyNative); good samples must be accepted at
every level. jit functions are judged at the level MindSpore gives them (LAX, or STRICT with
fullgraph=True).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")

from msgraphlint import catalogue  # noqa: E402
from msgraphlint.catalogue import Level, Verdict  # noqa: E402
from msgraphlint.confirm.probe import TargetHandle, judge, load_module, make_input  # noqa: E402
from msgraphlint.project import Project  # noqa: E402
from msgraphlint.reach import ReachModel  # noqa: E402

from .samples_index import all_samples  # noqa: E402

pytestmark = pytest.mark.compiler
COMPILED_SAMPLES = [s for s in all_samples() if s.rule.evidence != "import"]
IMPORT_SAMPLES = [s for s in all_samples() if s.rule.evidence == "import"]


def sample_targets(path: Path):
    """(handle, fixed level or None) for every construct and jit function the scope model finds."""
    project = Project()
    module_info = project.module(path)
    module = load_module(path)
    for target in ReachModel(project).targets(module_info):
        if target.kind == "cell":
            if not target.label.endswith(".construct"):
                continue  # bprop is exercised through the gradient of construct
            handle = TargetHandle(target.label, "cell", getattr(module, target.cell.name))
            yield handle, None, module
        else:
            function = getattr(module, target.label.split(" = ")[0].split(".")[-1])
            yield TargetHandle(target.label, "jit", function), target.level, module


def inputs_for(module):
    return [make_input(spec) for spec in getattr(module, "SAMPLE_INPUTS", ("float32[2,2]",))]


@pytest.mark.parametrize("sample", COMPILED_SAMPLES, ids=lambda s: s.id)
def test_compiler_agrees_with_catalogue(sample):
    rule = sample.rule
    targets = list(sample_targets(sample.path))
    assert targets, f"{sample.path} defines no compiled target"
    disagreements = []
    for handle, fixed_level, module in targets:
        levels = [fixed_level] if fixed_level else list(Level)
        for level in levels:
            expected = rule.verdict(level, "CPU") if sample.kind == "bad" else Verdict.ACCEPTED
            result = judge(handle, inputs_for(module), None if fixed_level else level, module)
            ok = result.verdict == expected
            if ok and expected == Verdict.MISBEHAVES:
                ok = rule.evidence in result.evidence
            if not ok:
                disagreements.append(
                    f"{handle.label} at {level.value}: catalogue says {expected.value}"
                    f" ({rule.evidence}), compiler did {result.verdict.value}"
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
