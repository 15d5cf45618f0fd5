"""The layers of docs/architecture.md, checked on the import graph of the source itself.

The graph is read with the standard library's ast from every ``import`` in the package (function
bodies and ``if TYPE_CHECKING:`` blocks included: an import made only for an annotation still ties
the two modules together): no import cycle, each layer imports only its own layer and those
below, a rule family imports no other family, and the reporters see findings, never the engine.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .samples_index import ROOT

# The engine's folders, lowest first: each imports only its own folder and those below it.
KNOWLEDGE, SYNTAX, DOMAIN, MODEL, VALUES, ENGINE, FAMILIES, PIPELINE, FRONT = range(9)
ENGINE_LAYERS = (KNOWLEDGE, SYNTAX, DOMAIN, MODEL, VALUES, ENGINE)
LAYER_OF = {
    "knowledge": KNOWLEDGE,  # MindSpore's facts, the catalogue, the snapshots: imports nothing above
    "version": KNOWLEDGE,
    "syntax": SYNTAX,  # sources, qualified names, the project and its modules
    "model": MODEL,  # what is compiled, reached from where; constants against variables
    "values": VALUES,  # the interpreter of compile-time values, the kinds every family asks
    "engine": ENGINE,  # the Engine, findings, suppressions, the result cache
    "checkers": FAMILIES,
    **dict.fromkeys(["config", "confirm_settings", "baseline", "progress", "pipeline", "confirm", "fix"],
                    PIPELINE),
    **dict.fromkeys(["cli", "plugin", "server", "report", "docgen", ""], FRONT),
}
# Reporters render a finished run: findings, the catalogue and the settings, nothing else.
REPORT_MAY_IMPORT = {"knowledge.catalogue", "config", "engine.findings", "version", "report"}


def module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    if parts[0] == "checkers":  # installed as msgraphlint.checkers
        parts = ["msgraphlint", *parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    files = [*sorted((ROOT / "msgraphlint").rglob("*.py")), *sorted((ROOT / "checkers").rglob("*.py"))]
    modules = {module_name(path): path for path in files}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text("utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                stem = ".".join([*base, *([node.module] if node.module else [])])
                targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in modules else stem
                           for alias in node.names]
            else:
                continue
            found.update(t for t in targets if t in modules and t != name)
        graph[name] = found
    return graph


GRAPH = import_graph()


# The value domain is data and its joins, importing nothing of the engine: the model below the
# interpreter holds values too (what its joins give), so it sits under the model.
LAYER_OF_MODULE = {"values.domain": DOMAIN}


def layer(module: str) -> int:
    relative = module.removeprefix("msgraphlint").lstrip(".")
    return LAYER_OF_MODULE.get(relative, LAYER_OF[relative.split(".")[0]])


def test_every_module_has_a_layer():
    unplaced = [m for m in GRAPH if m.removeprefix("msgraphlint").lstrip(".").split(".")[0] not in LAYER_OF]
    assert unplaced == []


def test_no_import_cycle():
    """Tarjan's strongly connected components: any with two or more modules is a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(GRAPH[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    assert cycles == []


def _engine_sources(*folders: str) -> list[Path]:
    return [path for folder in folders for path in sorted((ROOT / "msgraphlint" / folder).rglob("*.py"))]


@pytest.mark.parametrize("path", _engine_sources("values", "model"), ids=lambda p: p.name)
def test_values_and_model_say_what_they_return(path):
    """No ``-> object``: a compile-time value is a ``Value`` (values/domain.py), a variable's
    shape a ``Variability``, a literal a ``Literal`` (model/compiled.py)."""
    untyped = [node.name for node in ast.walk(ast.parse(path.read_text("utf-8")))
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
               and node.returns is not None and "object" in ast.unparse(node.returns).split(" | ")]
    assert untyped == []


MAX_CLASS_LINES = 450


@pytest.mark.parametrize("path", [*sorted((ROOT / "msgraphlint").rglob("*.py")),
                                  *sorted((ROOT / "checkers").glob("*.py"))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_class_is_over_450_lines(path):
    """A class that grows past this holds more than one concern: split it by concern."""
    big = {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(ast.parse(path.read_text("utf-8")))
           if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES}
    assert big == {}


def test_every_compile_time_value_is_a_value():
    """The value domain is closed: every class of values/domain.py derives from Value, but the
    two enums that name what a value or a failure is."""
    from msgraphlint.values import domain

    classes = [c for c in vars(domain).values() if isinstance(c, type) and c.__module__ == domain.__name__
               and c not in (domain.Value, domain.FailureKind, domain.Kind)]
    assert classes and all(issubclass(c, domain.Value) for c in classes)


VALUE_CLASSES = frozenset({"Known", "TensorValue", "ArrayValue", "SequenceValue", "VariableSequence",
                           "VariableScalar", "ObjectValue", "Builtin", "Failure", "_Unknown"})
# Issue 29: values are told apart in values/domain.py only (is_known, is_tensor_value, ...); the
# interpreter, the model and the families ask it.
MAX_VALUE_CLASS_TESTS_OUTSIDE_THE_DOMAIN = 0


def _value_class_tests(tree: ast.AST) -> int:
    """``v.__class__ is TensorValue``, ``cls in (Known, ...)``, ``isinstance(v, ArrayValue)``."""
    def names(nodes):
        return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(
                isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            count += bool(names([node.left, *node.comparators]) & VALUE_CLASSES)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "isinstance" and len(node.args) == 2):
            count += bool(names([node.args[1]]) & VALUE_CLASSES)
    return count


def test_values_are_told_apart_in_the_value_domain():
    outside = {str(path.relative_to(ROOT)): found
               for path in [*sorted((ROOT / "msgraphlint").rglob("*.py")), *sorted((ROOT / "checkers").glob("*.py"))]
               if path.name != "domain.py" and (found := _value_class_tests(ast.parse(path.read_text("utf-8"))))}
    assert sum(outside.values()) <= MAX_VALUE_CLASS_TESTS_OUTSIDE_THE_DOMAIN, outside
    assert _value_class_tests(ast.parse("ok = value.__class__ is Known or isinstance(v, (TensorValue, int))")) == 2


def test_confirm_and_fix_do_not_import_each_other():
    """--confirm proves fixes (confirm/fixes.py imports fix/); the fixers know nothing of it."""
    assert sorted(t for m, targets in GRAPH.items() if m.startswith("msgraphlint.fix")
                  for t in targets if t.startswith("msgraphlint.confirm")) == []


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_only_look_down(module):
    upward = sorted(t for t in GRAPH[module] if layer(t) > layer(module))
    assert upward == [], f"{module} (layer {layer(module)}) imports a layer above it"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("msgraphlint.checkers.")))
def test_a_family_imports_only_the_engine(module):
    assert sorted(t for t in GRAPH[module] if layer(t) not in ENGINE_LAYERS) == []


# The engine's one model answers what a value is; a family that defines one of these asks a
# tensor or constant question of its own (docs/architecture.md, "What each value is").
VALUE_QUESTIONS = re.compile(
    r"^_?(is_tensor\w*|tensor_kind\w*|\w*value_kind|literal_kind|is_input|is_variable|is_constant"
    r"|is_host|tensor_operand|\w*TensorKinds|builds_tensor|returns_tensor|\w*literals?(_\w+)?"
    r"|foldable\w*|may_hold_bool)$")


@pytest.mark.parametrize("path", sorted((ROOT / "checkers").glob("*.py")), ids=lambda p: p.name)
def test_families_ask_the_model_what_a_value_is(path):
    tree = ast.parse(path.read_text("utf-8"))
    own = sorted(node.name for node in ast.walk(tree)
                 if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and VALUE_QUESTIONS.match(node.name))
    assert own == []
    # Module prefixes of MindSpore ("mindspore.ops.") are facts of the knowledge layer.
    prefixes = sorted(node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                      and isinstance(node.value, str) and node.value.startswith("mindspore.")
                      and node.value.endswith("."))
    assert prefixes == []


def test_families_ask_one_answer_to_what_type_inference_evaluates():
    """The branches type inference never evaluates are the model's and the values' together
    (FunctionContext.unevaluated): no family asks the model's half alone."""
    asked = sorted(f"{path.name}:{node.lineno}" for path in sorted((ROOT / "checkers").glob("*.py"))
                   for node in ast.walk(ast.parse(path.read_text("utf-8")))
                   if isinstance(node, ast.Attribute) and node.attr == "unevaluated_nodes")
    assert asked == []


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if m.startswith("msgraphlint.report")))
def test_reporters_see_findings_not_the_engine(module):
    used = {t.removeprefix("msgraphlint.") for t in GRAPH[module]}
    allowed = {u for u in used if any(u == a or u.startswith(a + ".") for a in REPORT_MAY_IMPORT)}
    assert used == allowed


def test_the_engine_is_in_folders():
    """No engine module is left at the top of the package: its folder says its layer."""
    top = sorted(path.stem for path in (ROOT / "msgraphlint").glob("*.py")
                 if LAYER_OF.get(path.stem, FRONT) in ENGINE_LAYERS and path.stem != "version")
    assert top == []


def test_development_tools_are_not_installed():
    """Benchmarks live in tools/, outside the package; nothing installed imports them."""
    shipped = {path.stem for path in (ROOT / "msgraphlint").rglob("*.py")}
    assert not shipped & {"benchmark", "bench", "probe"}
    assert (ROOT / "tools" / "benchmark.py").is_file()


def _builtin_names_matched(tree: ast.AST, builtins: set[str]) -> list[int]:
    """Lines comparing a called name (``func.id``, ``callee.name``) with a builtin's name."""
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute)
                and node.left.attr in ("id", "name")):
            continue
        strings = {n.value for part in node.comparators for n in ast.walk(part)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        if strings & builtins:
            lines.append(node.lineno)
    return lines


def test_the_interpreter_dispatches_builtins_through_knowledge():
    """What the graph does with each builtin is a table of knowledge/builtin_calls.py; the
    interpreter looks a call up there and never matches a builtin by its name."""
    from msgraphlint.knowledge.builtin_calls import BUILTIN_ARITY, BUILTIN_CHECKS, PURE_BUILTINS

    builtins = {*BUILTIN_ARITY, *PURE_BUILTINS, *BUILTIN_CHECKS}
    matched = {path.name: lines for path in _engine_sources("values")
               if (lines := _builtin_names_matched(ast.parse(path.read_text("utf-8")), builtins))}
    assert matched == {}
    assert _builtin_names_matched(ast.parse('ok = callee.name in ("len", "enumerate")'), builtins) == [1]


def test_every_builtin_check_has_its_judge():
    from msgraphlint.knowledge.builtin_calls import BUILTIN_CHECKS, BUILTIN_FOLD_BOUNDS
    from msgraphlint.values.calls import BOUND_METHODS, BUILTIN_CHECK_METHODS

    assert {check for checks in BUILTIN_CHECKS.values() for check in checks} == set(BUILTIN_CHECK_METHODS)
    assert set(BUILTIN_FOLD_BOUNDS.values()) == set(BOUND_METHODS)


def test_the_interpreter_joins_values_in_one_place():
    """Branch merges, a helper's calls and a root's driver calls join through ``domain.join``:
    nothing outside values/domain.py compares values for a join or joins tensors itself."""
    joining = {"same_value", "join_tensors"}
    used = sorted(f"{path.relative_to(ROOT)}:{node.lineno}"
                  for path in [*sorted((ROOT / "msgraphlint").rglob("*.py")), *sorted((ROOT / "checkers").glob("*.py"))]
                  if path.name != "domain.py"
                  for node in ast.walk(ast.parse(path.read_text("utf-8")))
                  if isinstance(node, ast.Name) and node.id in joining)
    assert used == []


# Where several paths, bindings, returns or calls are joined into one. values/domain.py holds the
# join of values (the interpreter's branches, a helper's callers, a root's drivers) and of their
# kinds (the branch joins, a name's bindings, what a helper's callers pass), which agree
# (tests/test_value_model.py). The model of constants and variables, a layer below the
# interpreter, asks the same join for the variability of returns (join_variability, on STATIC,
# UNKNOWN and tuples of those). What it keeps of the literals the calls may pass is a union, not a
# join (union_of_constants: the parser folds a test on each literal, which no join into one value
# keeps), as mypy keeps unions beside its join.
JOINS = {
    "msgraphlint/values/domain.py": {"join", "join_kinds", "join_tensors", "_join_sequences",
                                     "_join_dicts", "join_values"},
    "msgraphlint/model/compiled.py": {"join_variability"},
    "msgraphlint/model/summaries.py": {"_join_returns"},
}


def test_every_join_is_one_of_the_models_joins():
    """No other function joins values, kinds or what they stand for (a check of whether two kinds
    join, ``join_problem``, is not one)."""
    defined: dict[str, set[str]] = {}
    for path in [*sorted((ROOT / "msgraphlint").rglob("*.py")), *sorted((ROOT / "checkers").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and re.match(r"^_?(join|merge)(_\w+)?$", node.name)
                    and not node.name.endswith("_problem")):
                defined.setdefault(str(path.relative_to(ROOT)), set()).add(node.name)
    assert defined == JOINS
