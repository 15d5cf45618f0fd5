"""MindSpore's facts live in one place (msgraphlint/knowledge/), each written once, and hold for
the installed MindSpore where one is installed (the ``confirm`` extra)."""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

from msgraphlint.knowledge import mindspore as facts

from .samples_index import ROOT

SOURCES = [*sorted((ROOT / "msgraphlint").rglob("*.py")), *sorted((ROOT / "checkers").rglob("*.py"))]
COLLECTIONS = (ast.Set, ast.Tuple, ast.List)


def string_tables() -> dict[str, list[tuple[Path, frozenset[str]]]]:
    """name -> (file, members) for every module-level table of two or more string literals
    (a set, tuple or list, bare or inside frozenset(...))."""
    tables: dict[str, list[tuple[Path, frozenset[str]]]] = defaultdict(list)
    for path in SOURCES:
        for node in ast.parse(path.read_text("utf-8")).body:
            if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if isinstance(value, ast.Call) and len(value.args) == 1:
                value = value.args[0]
            if not isinstance(value, COLLECTIONS) or len(value.elts) < 2:
                continue
            if not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts):
                continue
            members = frozenset(e.value for e in value.elts)
            for target in targets:
                if isinstance(target, ast.Name):
                    tables[target.id].append((path.relative_to(ROOT), members))
    return tables


def module_level_names() -> dict[str, list[str]]:
    """name -> the files that bind it at module level (assignments, functions, classes)."""
    names: dict[str, list[str]] = defaultdict(list)
    for path in SOURCES:
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                bound = [t.id for t in targets if isinstance(t, ast.Name)]
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound = [node.name]
            else:
                continue
            for name in bound:
                names[name].append(str(path.relative_to(ROOT)))
    return names


def test_no_table_is_written_twice():
    tables = string_tables()
    same_name = {name: [str(p) for p, _ in places] for name, places in tables.items()
                 if len(places) > 1 and name != "__all__"}
    assert same_name == {}, "one table per fact: import it from msgraphlint/knowledge/"
    by_members: dict[frozenset[str], list[str]] = defaultdict(list)
    for name, places in tables.items():
        for path, members in places:
            if name != "__all__":
                by_members[members].append(f"{path}:{name}")
    assert [places for places in by_members.values() if len(places) > 1] == []


def test_the_knowledge_layer_is_the_only_home_of_its_facts():
    """What msgraphlint/knowledge/mindspore.py defines, no other module defines again."""
    names = module_level_names()
    home = "msgraphlint/knowledge/mindspore.py"
    again = {name: places for name, places in names.items()
             if home in places and len(places) > 1 and not name.startswith("__")}
    assert again == {}


OUTSIDE_KNOWLEDGE = [path for path in SOURCES if "knowledge" not in path.relative_to(ROOT).parts]


def _literal_strings(node: ast.AST) -> list[str] | None:
    """The string members of a set, tuple, list or dict literal (its keys and values), bare or
    inside frozenset(...)/set(...)/tuple(...); None for anything else."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        node = node.args[0]
    if isinstance(node, COLLECTIONS):
        members = node.elts
    elif isinstance(node, ast.Dict):
        members = [*node.keys, *node.values]
    else:
        return None
    return [m.value for m in members if isinstance(m, ast.Constant) and isinstance(m.value, str)]


def _api_names() -> set[str]:
    """Every name of MindSpore's API snapshot (default release): functions, classes, Tensor
    methods and attributes."""
    from msgraphlint.knowledge import api_snapshot

    return {name for key, table in api_snapshot.load().items()
            if key.startswith("mindspore") and isinstance(table, dict) for name in table}


def test_no_qualified_mindspore_name_is_listed_outside_knowledge():
    """A collection that names ``mindspore.<something>`` is a MindSpore fact: it lives in
    msgraphlint/knowledge/ (one table per fact), wherever the code that reads it is."""
    found = sorted(
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in OUTSIDE_KNOWLEDGE
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if any(s.startswith("mindspore.") for s in _literal_strings(node) or ())
    )
    assert found == [], "move the table to msgraphlint/knowledge/ and import it"


def test_no_table_of_mindspore_api_names_outside_knowledge():
    """A table of three or more names, most of which (four in five) MindSpore's API has (a
    Tensor method, a layer of mindspore.nn, a function of ops, in the API snapshot), is a
    MindSpore fact even when its names are short: `{"Dense", "Conv2d", ...}`."""
    api_names = _api_names()
    found = []
    for path in OUTSIDE_KNOWLEDGE:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
                continue
            members = _literal_strings(node.value) or []
            known = [m for m in members if m in api_names]
            if len(members) >= 3 and len(known) * 5 >= len(members) * 4:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert sorted(found) == [], "move the table to msgraphlint/knowledge/ and import it"


def test_the_table_detectors_find_a_table_in_a_family():
    """The two checks above are not vacuous: each finds a table written the way families used to."""
    api_names = _api_names()
    qualified = ast.parse('CALLS = frozenset({"builtins.int", "mindspore.Tensor"})').body[0].value
    short = ast.parse('LAYERS = frozenset({"Dense", "Conv2d", "LayerNorm"})').body[0].value
    assert any(s.startswith("mindspore.") for s in _literal_strings(qualified))
    assert all(name in api_names for name in _literal_strings(short))


def test_mint_is_a_tensor_module_everywhere():
    for spelled in ("mindspore.mint.sum", "mindspore.ops.sum", "mindspore.ops.functional.relu",
                    "mindspore.numpy.tanh", "mindspore.Tensor", "mindspore.tensor"):
        assert facts.returns_tensor(spelled), spelled
    for spelled in ("mindspore.ops.shape", "mindspore.mint.split", "mindspore.ops.ReLU",
                    "mindspore.ops.functional.tuple_len", "numpy.sum", "builtins.len"):
        assert not facts.returns_tensor(spelled), spelled


def test_element_types_are_dtypes():
    assert facts.ELEMENT_TYPES <= facts.DTYPE_NAMES


# ----- against the installed MindSpore ---------------------------------------------------------


@pytest.fixture(scope="module")
def mindspore():
    return pytest.importorskip("mindspore", reason="the confirm extra installs MindSpore")


def resolve(qualified: str):
    module, _, name = qualified.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_dtype_names_are_mindsporess_dtype_instances(mindspore):
    dtype = importlib.import_module("mindspore.common.dtype")
    installed = {n for n in dir(dtype) if not n.startswith("_")
                 and isinstance(getattr(dtype, n), mindspore.dtype.Type)}
    assert installed == facts.DTYPE_NAMES


def test_dtype_modules_import(mindspore):
    for module in facts.DTYPE_MODULES - {"mindspore.dtype"}:  # mindspore.dtype is an attribute
        importlib.import_module(module)
    assert mindspore.dtype.float32 is mindspore.float32


def test_tensor_facts_hold_for_the_installed_tensor(mindspore):
    tensor = dir(mindspore.Tensor)
    for table in (facts.HOST_COPY_METHODS, facts.TENSOR_EVIDENCE, facts.TENSOR_EVIDENCE_READ,
                  facts.SAME_SIZE_ATTRIBUTES):
        assert sorted(table - set(tensor)) == []


def test_names_resolve(mindspore):
    for qualified in (*facts.TENSOR_CONSTRUCTORS, *facts.PARAMETER_CLASSES, *facts.BATCH_LAYERS,
                      *facts.PARTIAL_FUNCTIONS):
        assert resolve(qualified) is not None
    for qualified, name in facts.SEQUENCE_MAPPERS.items():
        assert resolve(qualified).__name__ == name
    for qualified, name in facts.SPARSE_TENSOR_CLASSES.items():
        assert resolve(qualified).__name__ == name
    for prefix in (*facts.TENSOR_FUNCTION_MODULES, *facts.CELL_NAMESPACES, facts.PRIMITIVE_NAMESPACE):
        importlib.import_module(prefix.rstrip("."))


def test_layer_inputs_name_each_layers_own_parameter(mindspore):
    import inspect

    for qualified, (name, position, rank, _) in facts.LAYER_INPUTS.items():
        parameters = list(inspect.signature(resolve(qualified).__init__).parameters)[1:]
        assert parameters[position] == name, qualified
        assert rank >= 2


def test_host_random_sources_hold_for_numpy_random_and_scipy():
    """The host random sources (random-frozen): the names exist, a generator's state methods are
    its own, and a scipy.stats distribution and its frozen form both draw with .rvs."""
    numpy = pytest.importorskip("numpy")
    stats = pytest.importorskip("scipy.stats")
    for qualified in (*facts.RANDOM_STATE_FUNCTIONS, *facts.RANDOM_GENERATORS):
        assert resolve(qualified) is not None, qualified
    generators = [numpy.random.default_rng(0), numpy.random.RandomState(0), resolve("random.Random")(0)]
    for method in facts.RANDOM_STATE_METHODS:
        assert any(hasattr(g, method) for g in generators), method
    for draw in facts.RANDOM_DISTRIBUTION_DRAWS:
        assert callable(getattr(stats.truncnorm, draw)) and callable(getattr(stats.norm(0, 1), draw))
    assert facts.random_source("scipy.stats.norm.rvs") == "draw"
    assert facts.random_source("scipy.stats.truncnorm") == "distribution"
    assert facts.random_source("numpy.random.default_rng") == "generator"
    assert facts.random_source("numpy.random.seed") == "state"
    assert facts.random_source("numpy.linalg.norm") is None
    assert facts.random_method_draws("generator", "integers")
    assert not facts.random_method_draws("distribution", "pdf")


def test_the_graph_parsers_own_api_tables_name_mindsporess_api(mindspore):
    for qualified, kind in facts.STREAM_CONTEXTS.items():
        assert resolve(qualified).__name__ == kind, qualified
    for qualified in facts.GRAPH_REFUSED_FUNCTIONS:
        assert callable(resolve(qualified)), qualified
    assert facts.GRAPH_REFUSED_CELL_METHODS <= set(dir(mindspore.nn.Cell))
    assert facts.GRAPH_REFUSED_TENSOR_METHODS | {facts.TENSOR_HOOK_METHOD} <= set(dir(mindspore.Tensor))
    assert facts.GRAPH_REFUSED_PARAMETER_METHODS <= set(dir(mindspore.Parameter))
