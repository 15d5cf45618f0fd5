"""Whole ported models (samples/models): packages of several modules, as people port them.

The engine must flag exactly the lines marked ``# expect: <symbol>``, including in helpers reached
across files (and say how they are reached), and nothing in the host code around the models
(``__init__``, training loops, evaluation). The clean model gets no finding at all, and every Cell
in it compiles at every level and matches PyNative.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint.pipeline import new_engine
from msgraphlint.knowledge.catalogue import Level, Verdict
from msgraphlint.syntax.project import Project
from msgraphlint.model.reach import ReachModel

from .samples_index import _EXPECT, SAMPLES

MODELS = SAMPLES / "models"
MODEL_FILES = sorted(MODELS.rglob("*.py"))
CLEAN = MODELS / "clean_model"


def relative(path: Path) -> str:
    return path.relative_to(MODELS).as_posix()


def expected(path: Path) -> set[tuple[str, int]]:
    """(symbol, line) pairs from the file's `# expect:` comments (samples_index's format)."""
    found = set()
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if match := _EXPECT.search(line):
            for symbol in match.group(1).decode().split(","):
                found.add((symbol.strip(), number))
    return found


def line_of(path: Path, marker: str) -> int:
    """The one line of ``path`` containing ``marker`` (markers keep tests free of line numbers)."""
    lines = [n for n, text in enumerate(path.read_text("utf-8").splitlines(), 1) if marker in text]
    assert len(lines) == 1, f"{marker!r} should occur once in {relative(path)}, found {lines}"
    return lines[0]


def findings_of(path: Path):
    return new_engine().check_file(path)


# (file, marker on the flagged line, how the finding says it is reached; None for a root)
REACH = [
    ("resnet_port/blocks.py", "pooled.size(0)", "reached from ResNetLite.construct via _post"),
    ("resnet_port/utils.py", "np.where(", "reached from ResidualBlock.construct via leaky_relu"),
    ("resnet_port/model.py", "logits.detach()", None),
    (
        "transformer_port/attention.py",
        "np.triu(",
        "reached from MultiHeadAttention.construct via _attend -> _scores",
    ),
    ("transformer_port/attention.py", "np.random.rand(", None),
    (
        "transformer_port/model.py",
        "tokens.size(1)",
        "reached from TransformerClassifier.construct via self.encoder.pool",
    ),
    (
        "transformer_port/functional.py",
        "np.tanh(",
        "reached from FeedForward.construct via gelu_tanh",
    ),
    ("transformer_port/train.py", "return np.mean(", None),
]


def test_the_models_folder_holds_three_packages_and_marks_findings():
    packages = {path.parent.name for path in MODEL_FILES}
    assert {"resnet_port", "transformer_port", "clean_model"} <= packages
    assert sum(len(expected(path)) for path in MODEL_FILES) >= 10


@pytest.mark.parametrize("path", MODEL_FILES, ids=relative)
def test_expectations_name_catalogued_rules(path):
    unknown = {symbol for symbol, _ in expected(path) if catalogue.find_rule(symbol) is None}
    assert unknown == set()


@pytest.mark.parametrize("path", MODEL_FILES, ids=relative)
def test_engine_flags_exactly_the_expected_lines(path):
    got = {(f.rule.symbol, f.line) for f in findings_of(path)}
    assert got == expected(path)


def keyed(findings) -> set[tuple[str, str, int]]:
    return {(relative(f.path.resolve()), f.rule.symbol, f.line) for f in findings}


def test_findings_do_not_depend_on_what_was_checked_before():
    """One engine per file, one over the folder (the CLI's way) and one in reverse order agree."""
    apart = keyed(f for path in MODEL_FILES for f in findings_of(path))
    together = keyed(new_engine().check_paths([MODELS]).findings)
    engine = new_engine()
    backwards = keyed(f for path in reversed(MODEL_FILES) for f in engine.check_file(path))
    assert together == apart
    assert backwards == apart


@pytest.mark.parametrize("file, marker, reached", REACH, ids=[f"{f}:{m}" for f, m, _ in REACH])
def test_findings_say_how_they_are_reached(file, marker, reached):
    path = MODELS / file
    line = line_of(path, marker)
    on_line = [f for f in findings_of(path) if f.line == line]
    assert on_line, f"no finding on {file}:{line}"
    for finding in on_line:
        assert finding.reached_from == reached
        if reached:
            assert finding.message.endswith(f"({reached})")


def test_host_code_around_the_models_is_not_compiled():
    """numpy, time.time() and asnumpy() in __init__, train loops and evaluation stay unchecked."""
    project = Project()
    model = ReachModel(project)
    compiled = set()
    for path in MODEL_FILES:
        project.add_project_of(path)
        module = project.module(path)
        compiled |= {(relative(path), c.node.name) for c in model.compiled_functions(module)}
    host = {
        ("resnet_port/utils.py", "seed_everything"),
        ("resnet_port/utils.py", "accuracy"),
        ("resnet_port/blocks.py", "__init__"),
        ("resnet_port/model.py", "train"),
        ("resnet_port/model.py", "evaluate"),
        ("transformer_port/model.py", "__init__"),
        ("transformer_port/train.py", "main"),
        ("transformer_port/train.py", "random_batch"),
        ("clean_model/layers.py", "seeded_weight"),
        ("clean_model/training.py", "make_batches"),
        ("clean_model/training.py", "train"),
        ("clean_model/training.py", "evaluate"),
        ("clean_model/model.py", "margin"),
    }
    assert compiled & host == set()


def test_clean_model_has_no_findings_although_its_helpers_are_compiled():
    assert [path for path in CLEAN.rglob("*.py") if expected(path)] == []
    run = new_engine().check_paths([CLEAN])
    assert (run.internal_errors, run.files) == ([], 4)
    assert run.findings == []
    project = Project()
    model = ReachModel(project)
    compiled = set()
    for path in CLEAN.rglob("*.py"):
        project.add_project_of(path)
        compiled |= {c.node.name for c in model.compiled_functions(project.module(path))}
    # the absence of findings means something only if the helpers were walked
    assert {"rms", "soft_clip", "residual_scale", "_classify", "standardise"} <= compiled



# ----- the clean model meets the compiler ----------------------------------------------------


@pytest.fixture(scope="module")
def clean_package():
    """clean_model imported by package name (its modules use relative imports)."""
    pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")
    sys.path.insert(0, str(MODELS))
    try:
        yield importlib.import_module("clean_model")
    finally:
        sys.path.remove(str(MODELS))
        for name in [n for n in sys.modules if n == "clean_model" or n.startswith("clean_model.")]:
            del sys.modules[name]


def clean_targets():
    """(module name, target label, class or function name, fixed level) for clean_model."""
    project = Project()
    model = ReachModel(project)
    found = []
    for path in sorted(CLEAN.glob("*.py")):
        project.add_project_of(path)
        module = project.module(path)
        for target in model.targets(module):
            if target.kind == "cell" and target.label.endswith(".construct"):
                found.append((module.name, target.label, target.cell.name, None))
            elif target.kind == "jit" and module.functions.get(target.node.name) is target.node:
                # nested jit functions (train()'s step) run in the host smoke test below
                found.append((module.name, target.label, target.node.name, target.level))
    return found


CLEAN_TARGETS = clean_targets()


def test_clean_model_has_cells_and_a_jit_function_to_compile():
    labels = {label for _, label, _, _ in CLEAN_TARGETS}
    assert {"TinyClassifier.construct", "RMSNorm.construct", "standardise"} <= labels


@pytest.mark.compiler
@pytest.mark.parametrize("target", CLEAN_TARGETS, ids=lambda t: f"{t[0]}:{t[1]}")
def test_clean_model_compiles_and_matches_pynative(target, clean_package):
    from msgraphlint.confirm.plan import ConfirmTarget
    from msgraphlint.confirm.referee import judge

    module_name, label, name, fixed_level = target
    module = importlib.import_module(module_name)
    levels = [fixed_level] if fixed_level else list(Level)
    outcomes = {}
    for level in levels:
        # The spec --confirm's child gets: SAMPLE_INPUTS as the pyproject's inputs would give them.
        spec = ConfirmTarget(label, label, "jit" if fixed_level else "cell", name,
                             Path(module.__file__), level, fixed_level is not None,
                             inputs=tuple(module.SAMPLE_INPUTS)).spec
        result = judge(module, spec)
        outcomes[level] = (result.verdict, result.evidence, result.error)
    assert outcomes == {level: (Verdict.ACCEPTED, [], None) for level in outcomes}


@pytest.mark.compiler
def test_clean_model_trains_and_evaluates_on_the_host(clean_package):
    """The host code the engine leaves alone really runs: a jit step inside train(), asnumpy()."""
    import mindspore as ms

    ms.set_context(mode=ms.PYNATIVE_MODE)
    training = importlib.import_module("clean_model.training")
    net = clean_package.TinyClassifier()
    batches = training.make_batches(count=2, batch_size=4, num_classes=4)
    history = clean_package.train(net, batches, epochs=2)
    assert len(history) == 2 and all(loss > 0 for loss in history)
    assert 0.0 <= clean_package.evaluate(net, batches) <= 1.0
