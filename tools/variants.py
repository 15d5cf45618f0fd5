"""Variants: every rule's samples respelled as real code spells them, each judged by the compiler.

    python tools/variants.py [--levels strict,lax] [--limit N] [--seed S] [--jobs N]
                             [--out DIR] [--cold] [--sources DIR ...]

From every bad and good sample in samples/ (and any other folder of one-file cases given with
--sources) it writes variants, one small standalone file each, by transformations that keep what
the code does and change how it is written:

- ``rename``: the parameters and locals of every function renamed;
- ``import-spelling``: ``from mindspore import ops`` as ``import mindspore.ops as P`` (and nn,
  ``mindspore as ms``), every use renamed;
- ``helper``: each Cell's construct body moved into a module-level function that construct calls
  (``forward(self, x)``), and each jit function's body into a helper it calls;
- ``cell-to-jit``: a Cell that keeps no state becomes a ``@jit`` function;
- ``jit-to-cell``: a ``@jit`` function becomes a Cell whose construct is its body.

Each variant is compiled at each level by the same referee as ``--confirm`` and the compiler
tests (msgraphlint.confirm, in its child processes, results cached by content), and compared
with msgraphlint's static verdict for the file: an error-level finding at the level predicts a
rejection; where neither rejects, each warning's claim must be what the referee observes (its
finding confirmed). The report gives agreement per rule and per transformation, at each level,
and writes the disagreeing variants to ``--out``/disagreements. docs/variants.md says more.
"""

from __future__ import annotations

import argparse
import ast
import copy
import functools
import hashlib
import json
import random
import shutil
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TRANSFORMATIONS: dict[str, callable] = {}
NEEDS_PLAN: set[str] = set()  # transformations given what --confirm would run in the file
PACKAGES: set[str] = set()  # transformations that give a package: {file name: module}
ORIGINAL = "original"  # a development-set case unchanged: the baseline of its variants


def transformation(name, needs_plan=False, package=False):
    def register(function):
        TRANSFORMATIONS[name] = function
        if needs_plan:
            NEEDS_PLAN.add(name)
        if package:
            PACKAGES.add(name)
        return function
    return register


@dataclass
class Variant:
    name: str  # the file's stem: v0001_rename__detach_call_bad
    transformation: str
    origin: Path
    rule: str  # the sample's rule symbol ("" for a case of another folder)
    kind: str  # "bad" | "good" | "case"
    text: str  # the module compiled (a package's model.py)
    # A package: every file's text by name (model.py among them); {} for a single file.
    package: dict[str, str] = field(default_factory=dict)

    def main_path(self, folder: Path) -> Path:
        return folder / self.name / "model.py" if self.package else folder / f"{self.name}.py"

    def write(self, folder: Path) -> Path:
        """The variant's files under ``folder``; the path of the module to compile."""
        if not self.package:
            path = folder / f"{self.name}.py"
            path.write_text(self.text, "utf-8")
            return path
        (folder / self.name).mkdir(parents=True, exist_ok=True)
        for name, text in self.package.items():
            (folder / self.name / name).write_text(text, "utf-8")
        return folder / self.name / "model.py"


# ----- transformations ------------------------------------------------------------------------

def _is_jit_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name == "jit"


def _bodies(tree: ast.Module):
    """Every statement list of the module (its body, function bodies, branches), outer first:
    definitions are respelled wherever they are written (the development set's cases define
    their Cells inside ``run()``)."""
    pending = [tree.body]
    while pending:
        body = pending.pop(0)
        yield body
        for statement in body:
            for field_name in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field_name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    pending.append(inner)
            for handler in getattr(statement, "handlers", ()):
                pending.append(handler.body)


def _jit_functions(tree: ast.Module) -> list[tuple[ast.FunctionDef, list[ast.stmt]]]:
    """(jit function, the body it is written in), wherever it is defined outside a class."""
    return [(node, body) for body in _bodies(tree) for node in body
            if isinstance(node, ast.FunctionDef)
            and any(_is_jit_decorator(d) for d in node.decorator_list)
            and not _in_class_body(tree, body)]


def _cells(tree: ast.Module) -> list[tuple[ast.ClassDef, list[ast.stmt]]]:
    """(class with a construct method, the body it is written in): Cells, as far as the text
    says, wherever they are defined."""
    return [(node, body) for body in _bodies(tree) for node in body
            if isinstance(node, ast.ClassDef)
            and any(isinstance(m, ast.FunctionDef) and m.name == "construct" for m in node.body)]


def _in_class_body(tree: ast.Module, body: list[ast.stmt]) -> bool:
    return any(isinstance(node, ast.ClassDef) and node.body is body for node in ast.walk(tree))


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == name), None)


def _simple_signature(function: ast.FunctionDef) -> bool:
    args = function.args
    return not (args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs)


def _uses(node: ast.AST, *names: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


@transformation("rename")
def _rename(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    suffix = rng.choice(["_v", "_in", "_2", "_local"])
    keyword_names = {k.arg for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords}
    changed = False
    for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        declared = {name for n in ast.walk(function) if isinstance(n, (ast.Global, ast.Nonlocal))
                    for name in n.names}
        params = [a.arg for a in [*function.args.args, *function.args.kwonlyargs]]
        stored = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)
                  and isinstance(n.ctx, ast.Store)}
        renamed = {name: name + suffix for name in [*params, *stored]
                   if name not in ("self", "cls") and name not in declared
                   and name not in keyword_names}
        if not renamed:
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and node.id in renamed:
                node.id = renamed[node.id]
            elif isinstance(node, ast.arg) and node.arg in renamed:
                node.arg = renamed[node.arg]
        changed = True
    return tree if changed else None


_SPELLINGS = {  # module -> the name a variant imports it as
    "mindspore.ops": "P",
    "mindspore.nn": "mnn",
    "mindspore": "mindspore_",
}


@transformation("import-spelling")
def _import_spelling(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    bound: dict[str, str] = {}  # local name -> module
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "mindspore" \
                and statement.level == 0:
            for alias in statement.names:
                if f"mindspore.{alias.name}" in _SPELLINGS:
                    bound[alias.asname or alias.name] = f"mindspore.{alias.name}"
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.name in _SPELLINGS and (alias.asname or "." not in alias.name):
                    bound[alias.asname or alias.name] = alias.name
    if not bound:
        return None
    chosen = rng.choice(sorted(bound))
    module = bound[chosen]
    alias = _SPELLINGS[module]
    if _uses(tree, alias):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == chosen:
            node.id = alias
    tree.body.insert(_after_docstring(tree), ast.Import(names=[ast.alias(module, alias)]))
    return tree


def _after_docstring(tree: ast.Module) -> int:
    first = tree.body[0] if tree.body else None
    return 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str) else 0


def _moves(body: list[ast.stmt]) -> bool:
    """A body that can run in another function: no super(), no yield, no nonlocal."""
    block = ast.Module(body=body, type_ignores=[])
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Nonlocal)) for n in ast.walk(block)) \
        and not _uses(block, "super", "__class__")


def _move_body(body: list[ast.stmt], function: ast.FunctionDef, helper_name: str,
               before: ast.stmt) -> bool:
    """``function``'s body moved into a function ``helper_name`` placed before ``before`` in
    ``body`` (the module's, or the function's that defines it), which ``function`` calls with
    its own parameters; False when the body cannot move."""
    if not _simple_signature(function) or not _moves(function.body) or function.args.defaults:
        return False
    params = [a.arg for a in function.args.args]
    helper = ast.FunctionDef(name=helper_name, args=function.args, body=function.body,
                             decorator_list=[], returns=None, type_params=[])
    function.body = [ast.Return(ast.Call(func=ast.Name(helper_name, ast.Load()),
                                         args=[ast.Name(p, ast.Load()) for p in params],
                                         keywords=[]))]
    function.args = ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params],
                                  kwonlyargs=[], kw_defaults=[], defaults=[])
    body.insert(body.index(before), helper)
    return True


@transformation("helper")
def _helper(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    changed = False
    for cls, body in _cells(tree):
        changed |= _move_body(body, _method(cls, "construct"), f"_{cls.name}_forward", cls)
    for function, body in _jit_functions(tree):
        changed |= _move_body(body, function, f"_{function.name}_body", function)
    return tree if changed else None


def _jit_import(tree: ast.Module, name: str) -> None:
    tree.body.insert(_after_docstring(tree), ast.ImportFrom("mindspore", [ast.alias("jit", name)], 0))


def _uses_outside(tree: ast.Module, name: str, definition: ast.AST) -> list[ast.Name]:
    """Every read of ``name`` outside ``definition`` (a driver building or calling it)."""
    inside = {id(n) for n in ast.walk(definition)}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name
            and id(n) not in inside]


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


@transformation("cell-to-jit")
def _cell_to_jit(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    changed = False
    for cls, body in _cells(tree):
        construct = _method(cls, "construct")
        init = _method(cls, "__init__")
        stateless = init is None or all(
            isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and _uses(s, "super")
            or isinstance(s, ast.Pass) for s in init.body)
        others = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and m.name not in ("construct", "__init__")]
        if not stateless or others or len(cls.body) > 2 + bool(ast.get_docstring(cls)) \
                or not _simple_signature(construct) or _uses(ast.Module(construct.body, []), "self"):
            continue
        # A driver's `Net()` becomes the function itself; any other use keeps the Cell.
        parents = _parents(tree)
        uses = _uses_outside(tree, cls.name, cls)
        built = [parents.get(id(n)) for n in uses]
        if not all(isinstance(c, ast.Call) and c.func is n and not c.args and not c.keywords
                   for n, c in zip(uses, built)):
            continue
        name = f"{cls.name.lower()}_fn"
        for call in built:
            replacement = ast.Name(name, ast.Load())
            holder = parents[id(call)]
            for field_name, value in ast.iter_fields(holder):
                if value is call:
                    setattr(holder, field_name, replacement)
                elif isinstance(value, list):
                    value[:] = [replacement if item is call else item for item in value]
        function = ast.FunctionDef(
            name=name, args=ast.arguments(
                posonlyargs=[], args=construct.args.args[1:], kwonlyargs=[], kw_defaults=[],
                defaults=construct.args.defaults),
            body=construct.body, decorator_list=[ast.Name("_variant_jit", ast.Load())],
            returns=None, type_params=[])
        body.insert(body.index(cls) + 1, function)
        body.remove(cls)
        changed = True
    if changed:
        _jit_import(tree, "_variant_jit")
    return tree if changed else None


@transformation("jit-to-cell")
def _jit_to_cell(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    changed = False
    for function, body in _jit_functions(tree):
        if not _simple_signature(function) or not _moves(function.body) \
                or any(isinstance(d, ast.Call) for d in function.decorator_list):
            continue  # jit(fullgraph=...) sets a level a Cell would not have
        name = "".join(p.title() for p in function.name.split("_")) + "Cell"
        for use in _uses_outside(tree, function.name, function):
            if isinstance(use.ctx, ast.Load):  # a driver's step(x): an instance of the Cell
                use.id = f"{name}()"
        construct = ast.FunctionDef(
            name="construct", args=ast.arguments(
                posonlyargs=[], args=[ast.arg("self"), *function.args.args], kwonlyargs=[],
                kw_defaults=[], defaults=function.args.defaults),
            body=function.body, decorator_list=[], returns=None, type_params=[])
        cls = ast.ClassDef(name=name,
                           bases=[ast.Attribute(ast.Name("_variant_nn", ast.Load()), "Cell",
                                                ast.Load())],
                           keywords=[], body=[construct], decorator_list=[], type_params=[])
        body[body.index(function)] = cls
        changed = True
    if changed:
        tree.body.insert(_after_docstring(tree),
                         ast.ImportFrom("mindspore", [ast.alias("nn", "_variant_nn")], 0))
    return tree if changed else None


def _into_factory(tree: ast.Module, definition: ast.stmt, prelude: list[ast.stmt] = ()) -> None:
    """``definition`` (at module level) moved into ``def _make_<name>(): <prelude>; <definition>;
    return <name>``, and the name bound at module level by calling it."""
    maker = ast.FunctionDef(
        name=f"_make_{definition.name}", args=ast.arguments(
            posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[*prelude, definition, ast.Return(ast.Name(definition.name, ast.Load()))],
        decorator_list=[], returns=None, type_params=[])
    bind = ast.Assign(targets=[ast.Name(definition.name, ast.Store())],
                      value=ast.Call(ast.Name(maker.name, ast.Load()), [], []))
    index = tree.body.index(definition)
    tree.body[index:index + 1] = [maker, bind]


def _module_level_definitions(tree: ast.Module) -> list[ast.stmt]:
    return [d for d, body in [*_cells(tree), *_jit_functions(tree)] if body is tree.body]


@transformation("factory")
def _factory(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """Each module-level Cell and jit function defined inside a function that returns it, and
    bound at module level by calling it: ``def _make_Net(): class Net...; return Net`` then
    ``Net = _make_Net()``."""
    definitions = _module_level_definitions(tree)
    for definition in definitions:
        _into_factory(tree, definition)
    return tree if definitions else None


@transformation("closure-constant")
def _closure_constant(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """A factory as ``factory`` makes it, with one number of each construct (or jit function)
    read from a local of the factory: a closure variable of an enclosing function."""
    changed = False
    for definition in _module_level_definitions(tree):
        function = definition if isinstance(definition, ast.FunctionDef) else _method(definition, "construct")
        numbers = _numbers(function) if function is not None else []
        if not numbers or _uses(definition, "_closed"):
            continue
        chosen = rng.choice(numbers)
        _replace(function, chosen, ast.Name("_closed", ast.Load()))
        _into_factory(tree, definition, [ast.Assign(targets=[ast.Name("_closed", ast.Store())],
                                                    value=ast.Constant(chosen.value))])
        changed = True
    return tree if changed else None


NUMBER_HOLDERS = (ast.Call, ast.BinOp, ast.Compare, ast.Tuple, ast.List, ast.Subscript,
                  ast.UnaryOp, ast.keyword, ast.Assign, ast.Return)


def _numbers(function: ast.FunctionDef) -> list[ast.Constant]:
    """Number literals in a function's body that a name can stand for (not in f-strings,
    annotations or defaults; not booleans)."""
    inside_fstrings = {id(n) for node in ast.walk(function) if isinstance(node, ast.JoinedStr)
                       for n in ast.walk(node)}
    parents = _parents(function)
    return [node for statement in function.body for node in ast.walk(statement)
            if isinstance(node, ast.Constant) and type(node.value) in (int, float)
            and id(node) not in inside_fstrings
            and isinstance(parents.get(id(node)), NUMBER_HOLDERS)]


def _replace(root: ast.AST, old: ast.AST, new: ast.expr) -> None:
    for node in ast.walk(root):
        for field_name, value in ast.iter_fields(node):
            if value is old:
                setattr(node, field_name, new)
            elif isinstance(value, list) and any(item is old for item in value):
                value[:] = [new if item is old else item for item in value]


@transformation("constructor-argument")
def _constructor_argument(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """One number of each Cell's construct arrives as a constructor argument with that default,
    kept on self: ``x * 2`` as ``x * self._scale0`` with ``__init__(self, _scale0=2)``."""
    changed = False
    for cls, _ in _cells(tree):
        construct = _method(cls, "construct")
        numbers = _numbers(construct)
        init = _method(cls, "__init__")
        if not numbers or (init is not None and (not _simple_signature(init) or not any(
                isinstance(s, ast.Expr) and _uses(s, "super") for s in init.body))):
            continue
        chosen = rng.choice(numbers)
        name = "_scale0"
        _replace(construct, chosen, ast.Attribute(ast.Name("self", ast.Load()), name, ast.Load()))
        store = ast.Assign(targets=[ast.Attribute(ast.Name("self", ast.Load()), name, ast.Store())],
                           value=ast.Name(name, ast.Load()))
        if init is None:
            init = ast.FunctionDef(
                name="__init__", args=ast.arguments(posonlyargs=[], args=[ast.arg("self")],
                                                    kwonlyargs=[], kw_defaults=[], defaults=[]),
                body=[ast.Expr(ast.Call(ast.Attribute(ast.Call(ast.Name("super", ast.Load()), [], []),
                                                      "__init__", ast.Load()), [], []))],
                decorator_list=[], returns=None, type_params=[])
            cls.body.insert(cls.body.index(construct), init)
        init.args.args.append(ast.arg(name))
        init.args.defaults.append(ast.Constant(chosen.value))
        init.body.append(store)
        changed = True
    return tree if changed else None


@transformation("module-constant")
def _module_constant(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """One number of each jit function (and construct) read from a module-level constant: a
    closure variable the compiler reads while compiling."""
    changed = False
    functions = [f for f, _ in _jit_functions(tree)] + [_method(c, "construct") for c, _ in _cells(tree)]
    for index, function in enumerate(functions):
        numbers = _numbers(function)
        if not numbers:
            continue
        chosen = rng.choice(numbers)
        name = f"_CONSTANT{index}"
        _replace(function, chosen, ast.Name(name, ast.Load()))
        tree.body.insert(_after_docstring(tree) + _imports(tree),
                         ast.Assign(targets=[ast.Name(name, ast.Store())],
                                    value=ast.Constant(chosen.value)))
        changed = True
    return tree if changed else None


# A statement that must stay first in its function, or would escape or change a new enclosing loop.
MUST_STAY_PUT = (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)


def _wrap_bodies(tree: ast.Module, wrap, refused: tuple = MUST_STAY_PUT) -> bool:
    """Each construct's and jit function's body replaced by ``wrap(body)`` (one statement),
    except bodies holding any of ``refused``; whether any was wrapped."""
    changed = False
    functions = [f for f, _ in _jit_functions(tree)] + [_method(c, "construct") for c, _ in _cells(tree)]
    for function in functions:
        if any(isinstance(n, refused) for n in ast.walk(ast.Module(function.body, []))):
            continue
        function.body = [wrap(function.body)]
        changed = True
    return changed


@transformation("loop-wrap")
def _loop_wrap(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """Each construct's and jit function's body inside ``for _wrap in range(1):``, a loop the
    compiler unrolls (probed with 2.10: a return inside it compiles at every level). A break
    would leave the new loop instead."""
    changed = _wrap_bodies(tree, lambda body: ast.For(
        target=ast.Name("_wrap", ast.Store()),
        iter=ast.Call(ast.Name("range", ast.Load()), [ast.Constant(1)], []), body=body, orelse=[]),
        (ast.Break, ast.Continue, *MUST_STAY_PUT))
    return tree if changed else None


@transformation("other-module", package=True)
def _other_module(tree: ast.Module, rng: random.Random) -> dict[str, ast.Module] | None:
    """A package: each module-level Cell's construct body (and jit function's body) moved into
    a function of another module, ``helpers.py``, that the Cell's module imports; helpers.py
    also holds a copy of the module's definitions, for what the moved bodies use."""
    helpers = copy.deepcopy(tree)
    moved: list[ast.FunctionDef] = []
    for cls, body in _cells(tree):
        if body is tree.body and _move_body(body, _method(cls, "construct"), f"_{cls.name}_forward", cls):
            moved.append(body[body.index(cls) - 1])
    for function, body in _jit_functions(tree):
        if body is tree.body and _move_body(body, function, f"_{function.name}_body", function):
            moved.append(body[body.index(function) - 1])
    if not moved:
        return None
    for helper in moved:
        tree.body.remove(helper)
        helpers.body.append(helper)
    tree.body.insert(_after_docstring(tree) + _imports(tree), ast.ImportFrom(
        "helpers", [ast.alias(helper.name) for helper in moved], 1))
    return {"__init__.py": ast.Module([], []), "helpers.py": helpers, "model.py": tree}


@transformation("package-attribute")
def _package_attribute(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """``from mindspore import ops`` (or nn, or a name of them) dropped, every use spelled
    through the package: ``ops.abs(x)`` as ``_msv.ops.abs(x)`` with ``import mindspore as _msv``."""
    if _uses(tree, "_msv"):
        return None
    rebound: dict[str, ast.expr] = {}
    for statement in list(tree.body):
        if not (isinstance(statement, ast.ImportFrom) and statement.level == 0
                and statement.module in ("mindspore", "mindspore.nn", "mindspore.ops")):
            continue
        kept = []
        for alias in statement.names:
            if alias.name == "*":
                return None
            path = [*statement.module.split(".")[1:], alias.name]
            value: ast.expr = ast.Name("_msv", ast.Load())
            for part in path:
                value = ast.Attribute(value, part, ast.Load())
            if alias.name[:1].islower() or statement.module != "mindspore":
                rebound[alias.asname or alias.name] = value
            else:
                kept.append(alias)  # Tensor, Parameter: kept as the module imports them
        if len(kept) == len(statement.names):
            continue
        if kept:
            statement.names = kept
        else:
            tree.body.remove(statement)
    if not rebound:
        return None
    parents = _parents(tree)
    for node in list(ast.walk(tree)):
        if isinstance(node, ast.Name) and node.id in rebound and isinstance(node.ctx, ast.Load):
            _replace_child(parents[id(node)], node, copy.deepcopy(rebound[node.id]))
    tree.body.insert(_after_docstring(tree), ast.Import([ast.alias("mindspore", "_msv")]))
    return tree


def _replace_child(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for field_name, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field_name, new)
        elif isinstance(value, list):
            value[:] = [new if item is old else item for item in value]


@transformation("branch-wrap")
def _branch_wrap(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """Each construct's and jit function's body under ``if _ENABLED:``, a module constant that is
    True: a branch the compiler decides while compiling (type inference, not the parser)."""
    if _uses(tree, "_ENABLED") or not _wrap_bodies(
            tree, lambda body: ast.If(test=ast.Name("_ENABLED", ast.Load()), body=body, orelse=[])):
        return None
    tree.body.insert(_after_docstring(tree) + _imports(tree),
                     ast.Assign(targets=[ast.Name("_ENABLED", ast.Store())], value=ast.Constant(True)))
    return tree


@transformation("parent-cell")
def _parent_cell(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """Each module-level Cell built without arguments and held by a parent Cell that passes it
    its own inputs (``self.inner = Net()``, ``return self.inner(x)``): the sub-Cell's input
    arrives from its parent."""
    changed = False
    for cls, body in _cells(tree):
        if body is not tree.body:
            continue
        construct, init = _method(cls, "construct"), _method(cls, "__init__")
        if not _simple_signature(construct) or construct.args.defaults or (
                init is not None and len(init.args.args) > 1 + len(init.args.defaults)):
            continue
        params = [a.arg for a in construct.args.args[1:]]
        self_name = ast.Name("self", ast.Load())
        parent = ast.ClassDef(
            name=f"{cls.name}Parent", bases=copy.deepcopy(cls.bases), keywords=[], decorator_list=[],
            type_params=[], body=[
                ast.FunctionDef(name="__init__", args=ast.arguments(
                    posonlyargs=[], args=[ast.arg("self")], kwonlyargs=[], kw_defaults=[],
                    defaults=[]), body=[
                        ast.Expr(ast.Call(ast.Attribute(ast.Call(ast.Name("super", ast.Load()), [], []),
                                                        "__init__", ast.Load()), [], [])),
                        ast.Assign(targets=[ast.Attribute(self_name, "inner", ast.Store())],
                                   value=ast.Call(ast.Name(cls.name, ast.Load()), [], []))],
                    decorator_list=[], returns=None, type_params=[]),
                ast.FunctionDef(name="construct", args=ast.arguments(
                    posonlyargs=[], args=[ast.arg("self"), *(ast.arg(p) for p in params)],
                    kwonlyargs=[], kw_defaults=[], defaults=[]), body=[
                        ast.Return(ast.Call(ast.Attribute(self_name, "inner", ast.Load()),
                                            [ast.Name(p, ast.Load()) for p in params], []))],
                    decorator_list=[], returns=None, type_params=[])])
        body.insert(body.index(cls) + 1, parent)
        changed = True
    return tree if changed else None


@transformation("with-wrap")
def _with_wrap(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """Each construct's and jit function's body inside ``with _Scope():``, a jit_class context
    manager that does nothing (probed: compiles at STRICT and LAX, a return inside it too)."""
    if _uses(tree, "_Scope", "_msw") or not _wrap_bodies(tree, lambda body: ast.With(
            items=[ast.withitem(ast.Call(ast.Name("_Scope", ast.Load()), [], []))], body=body)):
        return None
    scope = ast.parse(
        "import mindspore as _msw\n\n\n@_msw.jit_class\nclass _Scope:\n"
        "    def __enter__(self):\n        return self\n\n"
        "    def __exit__(self, *args):\n        return False\n").body
    at = _after_docstring(tree) + _imports(tree)
    tree.body[at:at] = scope
    return tree


@functools.cache
def _api() -> dict:
    from msgraphlint.knowledge import api_snapshot

    return api_snapshot.load()


@functools.cache
def _same_in(module: str) -> frozenset[str]:
    """Functions ``mindspore.ops`` and ``module`` both have, with one signature (MindSpore's API
    snapshot in the knowledge layer)."""
    api = _api()
    ops, other = api.get("mindspore.ops", {}), api.get(module, {})
    return frozenset(name for name, entry in ops.items()
                     if name[:1].islower() and entry.get("kind") == "function" and other.get(name) == entry)


def _same_in_functional() -> frozenset[str]:
    return _same_in("mindspore.ops.functional")


def _ops_names(tree: ast.Module) -> set[str]:
    """The local names bound to ``mindspore.ops`` by the module's imports."""
    local = {alias.asname or alias.name for statement in tree.body
             if isinstance(statement, ast.ImportFrom) and statement.module == "mindspore" and statement.level == 0
             for alias in statement.names if alias.name == "ops"}
    return local | {alias.asname for statement in tree.body if isinstance(statement, ast.Import)
                    for alias in statement.names if alias.name == "mindspore.ops" and alias.asname}


def _respell_ops(tree: ast.Module, shared: frozenset[str], name: str, importing: ast.stmt) -> ast.Module | None:
    """Every ``ops.<f>`` of ``shared`` spelled ``<name>.<f>``, with ``importing`` added."""
    if _uses(tree, name):
        return None
    local = _ops_names(tree)
    changed = False
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in local and node.attr in shared):
            node.value = ast.Name(name, ast.Load())
            changed = True
    if not changed:
        return None
    tree.body.insert(_after_docstring(tree) + _imports(tree), importing)
    return tree


@transformation("functional-spelling")
def _functional_spelling(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """``ops.abs(x)`` spelled ``_F.abs(x)`` with ``from mindspore.ops import functional as _F``,
    for the functions the two modules share."""
    return _respell_ops(tree, _same_in_functional(), "_F",
                        ast.ImportFrom("mindspore.ops", [ast.alias("functional", "_F")], 0))


@transformation("mint-spelling")
def _mint_spelling(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """``ops.abs(x)`` spelled ``_mint.abs(x)`` with ``from mindspore import mint as _mint``, for
    the functions mint has with ops' signature."""
    return _respell_ops(tree, _same_in("mindspore.mint"), "_mint",
                        ast.ImportFrom("mindspore", [ast.alias("mint", "_mint")], 0))


@transformation("tensor-method")
def _tensor_method(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """``ops.abs(x)`` of one name spelled ``x.abs()``, where Tensor has a method of that name:
    the Tensor-method form of the same operation."""
    local = _ops_names(tree)
    methods = {name for name, entry in _api().get("mindspore.Tensor", {}).items()
               if entry.get("kind") == "function"}
    shared = _same_in_functional() & methods  # ops functions, not primitives' classes
    changed = False
    for node in ast.walk(tree):
        for field_name, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for index, item in enumerate(items):
                if (isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute)
                        and isinstance(item.func.value, ast.Name) and item.func.value.id in local
                        and item.func.attr in shared and len(item.args) == 1 and not item.keywords
                        and isinstance(item.args[0], ast.Name)):
                    method = ast.Call(ast.Attribute(item.args[0], item.func.attr, ast.Load()), [], [])
                    if isinstance(value, list):
                        value[index] = method
                    else:
                        setattr(node, field_name, method)
                    changed = True
    return tree if changed else None


@transformation("defined-in-branch")
def _defined_in_branch(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    """Each module-level Cell and jit function defined under ``if _DEFINE:``, a module constant
    that is True: the definition sits in a branch Python takes."""
    if _uses(tree, "_DEFINE"):
        return None
    return _wrap_definitions(tree, lambda body: ast.If(test=ast.Name("_DEFINE", ast.Load()), body=body, orelse=[]),
                             ast.Assign(targets=[ast.Name("_DEFINE", ast.Store())], value=ast.Constant(True)))


def _wrap_definitions(tree: ast.Module, wrap, constant: ast.stmt | None = None) -> ast.Module | None:
    targets = {id(node) for node in _module_level_definitions(tree)}
    if not targets:
        return None
    tree.body = [wrap([statement]) if id(statement) in targets else statement for statement in tree.body]
    if constant is not None:
        tree.body.insert(_after_docstring(tree) + _imports(tree), constant)
    return tree


def planned_calls(path: Path) -> dict[str, tuple[tuple[str, ...], dict]]:
    """What --confirm would run in a file, and how: name -> (input specs, constructor keyword
    arguments), for the module-level Cells and jit functions it can run on their own."""
    from msgraphlint.confirm.plan import Planner
    from msgraphlint.confirm_settings import ConfirmSettings
    from msgraphlint.knowledge.catalogue import Level
    from msgraphlint.model.reach import ReachModel
    from msgraphlint.syntax.project import Project

    project = Project()
    module = project.module(path)
    if module is None:
        return {}
    planner = Planner(ReachModel(project), ConfirmSettings(), Level.LAX, path.parent)
    planner.add_module(module)
    return {t.attr: (t.inputs, dict(t.init)) for t in planner.targets.values()
            if t.reason is None and t.kind in ("cell", "jit") and "." not in t.attr}


def _tensor_literal(spec: str) -> ast.expr:
    """``float32[2,None]`` as ``_VariantTensor(_variant_np.ones((2, 2), _variant_np.float32))``."""
    dtype, dims = spec.split("[", 1)
    shape = [2 if d.strip() in ("None", "") else int(d) for d in dims.rstrip("]").split(",")
             if dims.rstrip("]").strip()]
    ones = ast.Call(ast.Attribute(ast.Name("_variant_np", ast.Load()), "ones", ast.Load()),
                    [ast.Tuple([ast.Constant(n) for n in shape], ast.Load()),
                     ast.Attribute(ast.Name("_variant_np", ast.Load()), dtype.strip(), ast.Load())], [])
    return ast.Call(ast.Name("_VariantTensor", ast.Load()), [ones], [])


MOVABLE = (ast.ClassDef, ast.FunctionDef)
STAYS = (ast.Import, ast.ImportFrom)


@transformation("in-function", needs_plan=True)
def _in_function(tree: ast.Module, rng: random.Random, planned: dict) -> ast.Module | None:
    """The module's classes and functions defined inside ``def run():``, which builds each
    Cell and calls it (and each jit function) with the inputs --confirm would give them, as a
    test body does: the inputs arrive from a caller, the definitions are nested."""
    start = _after_docstring(tree)
    rest = tree.body[start:]
    if not planned or any(not isinstance(s, (*MOVABLE, *STAYS)) and not (
            isinstance(s, ast.Assign) and all(isinstance(n, ast.Constant) or isinstance(n, ast.expr_context)
                                              or isinstance(n, (ast.Tuple, ast.Name)) for n in ast.walk(s)))
            for s in rest):
        return None  # module-level code that uses the definitions would lose them
    moved = [s for s in rest if isinstance(s, MOVABLE)]
    names = {s.name for s in moved}
    if not set(planned) <= names or "run" in names:
        return None
    calls: list[ast.stmt] = []
    for name, (inputs, init) in planned.items():
        built = ast.Name(name, ast.Load())
        definition = next(s for s in moved if s.name == name)
        if isinstance(definition, ast.ClassDef):
            built = ast.Call(built, [], [ast.keyword(k, ast.Constant(v)) for k, v in init.items()])
        call = ast.Call(built, [_tensor_literal(spec) for spec in inputs], [])
        # Each call on its own: one target's compile error does not keep the next from running.
        calls.append(ast.Try(body=[ast.Expr(call)], handlers=[ast.ExceptHandler(
            ast.Name("Exception", ast.Load()), None, [ast.Pass()])], orelse=[], finalbody=[]))
    run = ast.FunctionDef(name="run", args=ast.arguments(
        posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[*moved, *calls], decorator_list=[], returns=None, type_params=[])
    kept = [s for s in rest if not isinstance(s, MOVABLE)]
    imports = [ast.Import([ast.alias("numpy", "_variant_np")]),
               ast.ImportFrom("mindspore", [ast.alias("Tensor", "_VariantTensor")], 0)]
    tree.body[start:] = [*imports, *kept, run]
    return tree


def _imports(tree: ast.Module) -> int:
    """How many import statements follow the docstring (constants go after them)."""
    start = _after_docstring(tree)
    count = 0
    for statement in tree.body[start:]:
        if not isinstance(statement, (ast.Import, ast.ImportFrom)):
            break
        count += 1
    return count


# ----- generation -----------------------------------------------------------------------------

def _sources(extra: list[Path]) -> list[tuple[Path, str, str]]:
    """(path, rule symbol, kind) of every sample, then every case of the extra folders."""
    from msgraphlint.knowledge.catalogue import rules

    found = []
    by_stem = {rule.symbol.replace("-", "_"): rule.symbol for rule in rules()}
    for path in sorted((ROOT / "samples").rglob("*_bad.py")) + sorted((ROOT / "samples").rglob("*_good.py")):
        stem, kind = path.stem.rsplit("_", 1)
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue  # the samples of unreadable input: nothing to respell
        # SAMPLE_INPUTS: inputs the compiler tests give, which --confirm does not read; a
        # graph-compile-error sample is an error no static rule can predict, by definition.
        if stem in by_stem and "SAMPLE_INPUTS" not in text and stem != "graph_compile_error":
            found.append((path, by_stem[stem], kind))
    for folder in extra:
        found.extend((path, "", "case") for path in sorted(folder.glob("*.py")))
    return found


def _variant_name(transformation: str, source: Path) -> str:
    """A name that depends on the transformation and the source only (not on how many variants
    come before it), so that the compiled results cached for a file stay found when sources are
    added; a digest of the source's path tells apart sources with one stem."""
    where = source.resolve()
    where = where.relative_to(ROOT) if where.is_relative_to(ROOT) else where
    digest = hashlib.sha1(str(where).encode()).hexdigest()[:6]
    return f"{transformation.replace('-', '_')}__{source.stem}_{digest}"


def generate(seed: int, extra: list[Path] = ()) -> list[Variant]:
    """Every transformation that applies to every source, in a fixed order: the same list for
    the same seed and sources."""
    variants: list[Variant] = []
    for path, rule, kind in _sources(list(extra)):
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        planned = None
        if kind == "case":
            # The case as it is: what the rules make of the spelling the variants start from.
            variants.append(Variant(_variant_name(ORIGINAL, path), ORIGINAL, path,
                                    rule, kind, text))
        for name, function in TRANSFORMATIONS.items():
            rng = random.Random(f"{seed}:{path.name}:{name}")
            extra_args = ()
            if name in NEEDS_PLAN:
                if kind == "case":
                    continue  # the cases are test bodies already: their Cells are nested
                planned = planned if planned is not None else planned_calls(path)
                extra_args = (planned,)
            try:
                tree = function(ast.parse(text), rng, *extra_args)
            except (SyntaxError, ValueError, RecursionError):
                continue
            if tree is None:
                continue
            stem = _variant_name(name, path)
            if isinstance(tree, dict):
                package = {file: ast.unparse(ast.fix_missing_locations(module)) + "\n"
                           for file, module in tree.items()}
                variants.append(Variant(stem, name, path, rule, kind, package["model.py"], package))
                continue
            ast.fix_missing_locations(tree)
            new = ast.unparse(tree) + "\n"
            if new == ast.unparse(ast.parse(text)) + "\n":
                continue
            variants.append(Variant(stem, name, path, rule, kind, new))
    return variants


def sample(variants: list[Variant], count: int, seed: int) -> list[Variant]:
    """``count`` of the variants, the same for the same seed: the cases as written (the baseline
    the respellings are compared with) and a random draw of the respellings, in their order."""
    originals = [v for v in variants if v.transformation == ORIGINAL]
    others = [v for v in variants if v.transformation != ORIGINAL]
    drawn = random.Random(f"{seed}:sample").sample(range(len(others)),
                                                   max(0, min(len(others), count - len(originals))))
    kept = {id(others[i]) for i in drawn} | {id(v) for v in originals}
    return [v for v in variants if id(v) in kept]


# ----- judging --------------------------------------------------------------------------------

@dataclass
class Judged:
    variant: Variant
    level: str
    predicted_reject: bool
    rejected: bool | None  # None: no target could be run (nothing to compare)
    unconfirmed: list[str] = field(default_factory=list)  # warnings the referee did not show
    # A warning whose message says the graph may be rejected where its result is used
    # (move-to-tensor-device into a loss): a rejection agrees with it too.
    may_reject: bool = False

    @property
    def agrees(self) -> bool | None:
        if self.rejected is None:
            return None
        if self.rejected and not self.predicted_reject:
            return self.may_reject
        return self.predicted_reject == self.rejected and not (
            not self.rejected and self.unconfirmed)


def judge(variants: list[Variant], folder: Path, level_name: str, jobs: int,
          cache_dir: Path) -> list[Judged]:
    """Each variant compiled at ``level_name`` by the --confirm referee. A file whose findings
    claim no misbehaviour at that level is only compiled (does it compile or not); the others
    are run in both modes, so each warning's stated consequence is compared."""
    from msgraphlint.config import Config
    from msgraphlint.confirm.run import ConfirmOptions, confirm_findings
    from msgraphlint.knowledge.catalogue import Level, Verdict
    from msgraphlint.pipeline import new_engine, select

    level = Level[level_name.upper()]
    config = Config(level=level)
    engine = new_engine()
    paths = [v.write(folder) if not v.main_path(folder).exists() else v.main_path(folder)
             for v in variants]

    def variant_of(path) -> str:
        """The variant a file belongs to: its stem, or a package's folder."""
        return Path(path).resolve().relative_to(folder.resolve()).parts[0].removesuffix(".py")

    # A package's other modules are checked too (what model.py's roots reach there is reported
    # in them), but only findings of code model.py compiles count: helpers.py's own copies of
    # the definitions are never compiled by the variant.
    every = [path for v in variants for path in
             (sorted(v.main_path(folder).parent.glob("*.py")) if v.package else [v.main_path(folder)])]
    mains = {str(p.resolve()) for p in paths}
    findings = [f for f in select(engine.check_files(every).findings, config)
                if str(Path(f.target_path or f.path).resolve()) in mains]
    static_by_file: dict[str, list] = defaultdict(list)
    for finding in findings:
        static_by_file[variant_of(finding.path)].append(finding)

    def claims_misbehaviour(path: Path) -> bool:
        return any(f.rule.verdict(f.level_override or level, "CPU", f.case) == Verdict.MISBEHAVES
                   for f in static_by_file[variant_of(path)] if not f.suppressed)

    options = ConfirmOptions(all_targets=True, counterfactuals=False, jobs=jobs, use_cache=True,
                             progress=None, cache_dir=cache_dir)
    confirmed, targets = [], []
    for compile_only in (False, True):
        chosen = [p for p in paths if claims_misbehaviour(p) != compile_only]
        if not chosen:
            continue
        names = {variant_of(p) for p in chosen}
        outcome = confirm_findings(engine, [f for f in findings if variant_of(f.path) in names],
                                   config, chosen, replace(options, compile_only=compile_only))
        confirmed.extend(outcome.findings)
        targets.extend(outcome.targets)
    by_file: dict[str, list] = defaultdict(list)
    for finding in confirmed:
        by_file[variant_of(finding.path)].append(finding)
    by_target: dict[str, list] = defaultdict(list)
    for target in targets:
        by_target[variant_of(target.path)].append(target)
    judged = []
    for variant in variants:
        own = [f for f in by_file[variant.name] if not f.suppressed]
        static = [f for f in own if f.rule.symbol != "graph-compile-error"]
        predicted = any(f.rule.verdict(f.level_override or level, "CPU", f.case) == Verdict.REJECTED
                        for f in static)
        results = [t.result for t in by_target[variant.name] if t.result is not None
                   and t.result["status"] in ("compiled", "rejected")]
        rejected = any(r["status"] == "rejected" for r in results) if results else None
        unconfirmed = [f.rule.symbol for f in static if f.confirmation not in ("confirmed", None)
                       and f.rule.verdict(level, "CPU", f.case) == Verdict.MISBEHAVES]
        may_reject = any(f.case and f.rule.cases[f.case].may_reject for f in static)
        judged.append(Judged(variant, level_name, predicted, rejected, unconfirmed, may_reject))
    return judged


# ----- report ---------------------------------------------------------------------------------

def _rate(rows: list[Judged]) -> tuple[int, int, float]:
    judged = [r for r in rows if r.agrees is not None]
    agreed = sum(1 for r in judged if r.agrees)
    return agreed, len(judged), agreed / len(judged) if judged else float("nan")


def held(rows: list[Judged]) -> list[Judged]:
    """The respellings whose starting point msgraphlint gets right: every sample (the compiler
    tests hold the samples to the catalogue), and the development-set cases whose unchanged
    file it judges as the compiler does. On these, a disagreement is a rule that does not hold
    on another spelling; a case missed as written is missed in every spelling, and is the
    compiler-suite's figure (docs/accuracy.md), not this one's."""
    original = {(r.variant.origin, r.level): r.agrees for r in rows
                if r.variant.transformation == ORIGINAL}
    return [r for r in rows if r.variant.transformation != ORIGINAL and (
        r.variant.kind != "case" or original.get((r.variant.origin, r.level)) is True)]


def _table(rows: list[Judged], key, keys, only_below_one: bool = False) -> list[str]:
    lines = ["| | agreed | judged | agreement |", "|---|---:|---:|---:|"]
    for value in keys:
        a, j, r = _rate([x for x in rows if key(x) == value])
        if j and not (only_below_one and r == 1.0):
            lines.append(f"| {value or '(cases)'} | {a} | {j} | {r:.3f} |")
    return lines


def report(results: list[Judged], seconds: float, count: int) -> str:
    lines = [f"{count} variants, {len(results)} compiled verdicts in {seconds:.0f} s", ""]
    for level in sorted({r.level for r in results}):
        rows = [r for r in results if r.level == level]
        kept = held(rows)
        agreed, judged, rate = _rate(kept)
        predicted = [r for r in kept if r.predicted_reject and r.rejected is not None]
        failed = sum(1 for r in predicted if r.rejected)
        lines.append(f"{level.upper()}: agreement {agreed}/{judged} = {rate:.3f} on the respellings"
                     f" of what the rules get right; predicted to fail and failed"
                     f" {failed}/{len(predicted)}; not compiled {len(kept) - judged}")
        originals = [r for r in rows if r.variant.transformation == ORIGINAL]
        if originals:
            a, j, r = _rate(originals)
            every = [r for r in rows if r.variant.transformation != ORIGINAL]
            a2, j2, r2 = _rate(every)
            lines.append(f"Development-set cases as written: {a}/{j} = {r:.3f}; every respelling,"
                         f" of cases missed as written too: {a2}/{j2} = {r2:.3f}")
        lines.append("")
        lines.extend(_table(kept, lambda x: x.variant.transformation, TRANSFORMATIONS))
        lines.append("")
        lines.extend(_table(kept, lambda x: x.variant.rule,
                            sorted({r.variant.rule for r in kept}), only_below_one=True))
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="strict,lax")
    parser.add_argument("--limit", type=int, default=0, help="only the first N variants")
    parser.add_argument("--sample", type=int, default=0,
                        help="N variants chosen by the seed: every case as written, and respellings "
                             "drawn evenly from the rest (a cold run's time grows with N)")
    parser.add_argument("--only", default="", help="only these transformations (comma-separated)")
    parser.add_argument("--rules", default="", help="only the variants of these rules' samples"
                        " (symbols, comma-separated)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("build/variants"))
    parser.add_argument("--cold", action="store_true", help="start from an empty result cache")
    parser.add_argument("--sources", type=Path, nargs="*", default=[])
    args = parser.parse_args(argv)

    variants = generate(args.seed, args.sources)
    if args.only:
        chosen = {name.strip() for name in args.only.split(",")}
        variants = [v for v in variants if v.transformation in chosen]
    if args.rules:
        wanted = {name.strip() for name in args.rules.split(",")}
        variants = [v for v in variants if v.rule in wanted]
    if args.sample:
        variants = sample(variants, args.sample, args.seed)
    if args.limit:
        variants = variants[:args.limit]
    folder = args.out / "files"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for variant in variants:
        variant.write(folder)
    cache_dir = args.out / "cache"
    if args.cold:
        shutil.rmtree(cache_dir, ignore_errors=True)
    started = time.perf_counter()
    results: list[Judged] = []
    for level in args.levels.split(","):
        results.extend(judge(variants, folder, level.strip(), args.jobs, cache_dir))
    seconds = time.perf_counter() - started
    text = report(results, seconds, len(variants))
    disagreements = args.out / "disagreements"
    shutil.rmtree(disagreements, ignore_errors=True)
    disagreements.mkdir(parents=True)
    for row in results:
        if row.agrees is False:
            why = (f"# {row.level}: msgraphlint predicts {'a rejection' if row.predicted_reject else 'no rejection'},"
                   f" MindSpore {'rejects' if row.rejected else 'compiles'}"
                   + (f"; warnings not shown by the referee: {', '.join(row.unconfirmed)}"
                      if row.unconfirmed else "")
                   + f"\n# from {row.variant.origin.relative_to(ROOT) if row.variant.origin.is_relative_to(ROOT) else row.variant.origin}"
                     f" by {row.variant.transformation}\n")
            (disagreements / f"{row.level}_{row.variant.name}.py").write_text(why + row.variant.text)
    (args.out / "report.md").write_text(text + "\n")
    (args.out / "results.json").write_text(json.dumps([
        {"variant": r.variant.name, "transformation": r.variant.transformation,
         "rule": r.variant.rule, "kind": r.variant.kind, "level": r.level,
         "predicted_reject": r.predicted_reject, "rejected": r.rejected,
         "unconfirmed": r.unconfirmed, "agrees": r.agrees} for r in results], indent=1))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
