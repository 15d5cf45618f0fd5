"""What MindSpore's own Cell classes give their instances, one table per fact, per release.

A project class deriving from ``nn.Adam``, ``nn.TrainOneStepCell`` or ``nn.Dense`` has the
attributes and Parameters that class's ``__init__`` chain creates. The static path never imports
MindSpore, so they are read here, once per release, from an installed MindSpore by :func:`take`
and written to ``msgraphlint/knowledge/data/cells/mindspore-<major>.<minor>.json``:

- ``aliases``: public spelling -> defining class, for every public class of :data:`CELL_MODULES` that
  derives from ``nn.Cell`` (``mindspore.nn.Adam`` -> ``mindspore.nn.optim.adam.Adam``); the
  defining names are keys too;
- ``cell``: every attribute ``nn.Cell`` itself gives an instance (``dir()`` of the class and of
  ``nn.Cell()``, every ``self.<name> =`` in its methods): the base of every entry below;
- ``attributes``: defining class -> the attributes it has beyond ``cell``: ``dir()`` of the class
  (methods, class attributes) and what the methods of every MindSpore class of its MRO below
  ``nn.Cell`` create on ``self``, read from their source: ``self.x = ...``, ``setattr(self,
  "x", ...)``, ``self.insert_param_to_cell("x", ...)``, ``self.add_flags(x=...)``, and stores
  through a module-level function the method hands ``self`` to. A superset: an attribute set in
  one branch only counts;
- ``parameters``: defining class -> attribute -> the Parameter's name when a literal gives it,
  else "": the attributes that every assignment makes a ``Parameter`` or ``ParameterTuple``
  (``Parameter(...)``, ``ParameterTuple(...)``, ``<params>.clone(...)``);
- ``forwards``: defining class -> how its construct hands its own arguments on: ``construct(self,
  *args)`` calls ``self.<attr>(*args[start:stop])``, and ``__init__`` stores one of its parameters
  in ``self.<attr>`` (``nn.Jvp(fn)(*inputs, v)`` calls ``fn(*inputs)``, ``nn.TrainOneStepCell(network,
  optimizer)(*inputs)`` calls ``network(*inputs)``): ``{"parameter": name, "position": index
  after self, "start": int, "stop": int or null}``;
- ``incomplete``: defining class -> why its attributes cannot be read (``setattr`` with a computed
  name, ``self.__dict__``, ``vars(self)``, a ``__getattr__`` of its own, ``self`` handed to code
  that is not read, a base without source). These are in no other table: the model stays silent
  on their subclasses.

``python -m msgraphlint.knowledge.cell_classes`` writes the installed MindSpore's table
(``--check`` compares); :func:`load` reads the target release's without importing MindSpore.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import json
import sys
import textwrap
from importlib import resources
from pathlib import Path

from . import api_snapshot
from .mindspore import ATTRIBUTE_SETTING_METHODS

DATA = Path(__file__).resolve().parent / "data"
FOLDER = "cells"
CELL_MODULES = ("mindspore.nn", "mindspore.nn.optim", "mindspore.nn.wrap", "mindspore.mint.nn", "mindspore.train")
CELL = "mindspore.nn.Cell"
PARAMETER_CALLS = ("Parameter", "ParameterTuple")
# Cell's containers: a key stored in one is an attribute (Cell.__getattr__ reads them).
CONTAINERS = ("_params", "_cells", "_buffers", "_params_list", "_tensor_list")
INSERTERS = ("insert_param_to_cell", "insert_child_to_cell", "register_buffer", "register_parameter")


# --- the static path: no MindSpore -------------------------------------------------------------


@functools.cache
def load(version: str | None = None) -> dict:
    """The stored table of a release (``--target-version``'s, by default the API snapshot's
    default); an empty one when that release has none."""
    name = api_snapshot.file_name(api_snapshot.resolve_version(version))
    entry = resources.files(__package__).joinpath("data", FOLDER, name)
    if not entry.is_file():
        return {"aliases": {}, "cell": [], "attributes": {}, "parameters": {}, "incomplete": {}, "forwards": {}}
    return json.loads(entry.read_text("utf-8"))


def definition(qualified: str, version: str | None = None) -> str | None:
    """The defining class a spelling names, when it is a MindSpore Cell class of the table: a
    public spelling, the defining name, or the class imported from a package above its module
    (``mindspore.nn.grad.Jvp`` for ``mindspore.nn.grad.cell_grad.Jvp``) when only one defining
    class there has that name."""
    table = load(version)
    found = table["aliases"].get(qualified)
    if found is None and (qualified in table["attributes"] or qualified in table["incomplete"]):
        found = qualified
    if found is None and qualified.startswith("mindspore.") and "." in qualified:
        package, name = qualified.rsplit(".", 1)
        below = {defined for defined in table["aliases"].values()
                 if defined.startswith(f"{package}.") and defined.rsplit(".", 1)[1] == name}
        found = below.pop() if len(below) == 1 else None
    return found


def forwarded_arguments(qualified: str, version: str | None = None) -> dict | None:
    """How the MindSpore Cell class's construct hands its arguments to a callable its
    constructor was given (the ``forwards`` table), or None."""
    found = definition(qualified, version)
    return load(version).get("forwards", {}).get(found) if found else None


def attributes(qualified: str, version: str | None = None) -> frozenset[str] | None:
    """Every attribute an instance of the MindSpore class has (nn.Cell's included); None when the
    table does not know the class or marks it incomplete."""
    table = load(version)
    found = definition(qualified, version)
    if found is None or found not in table["attributes"]:
        return None
    return _attributes(found, version)


@functools.cache
def _attributes(found: str, version: str | None) -> frozenset[str]:
    table = load(version)
    return frozenset(table["cell"]) | frozenset(table["attributes"][found])


def parameters(qualified: str, version: str | None = None) -> dict[str, str]:
    """Attribute -> Parameter name ("" when not fixed) of what the class makes Parameters."""
    found = definition(qualified, version)
    return load(version)["parameters"].get(found, {}) if found else {}


# --- taking the table from an installed MindSpore ----------------------------------------------


def _self_name(function: ast.FunctionDef) -> str | None:
    args = [*function.args.posonlyargs, *function.args.args]
    return args[0].arg if args else None


def _literal(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _is_parameter_value(value: ast.expr) -> tuple[bool, str]:
    """(whether the value is a Parameter or ParameterTuple, its literal name or "")."""
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in PARAMETER_CALLS:
            given = next((k.value for k in value.keywords if k.arg == "name"), None)
            if given is None and name == "Parameter" and len(value.args) > 1:
                given = value.args[1]
            return True, _literal(given) or ""
        if name == "clone" and isinstance(func, ast.Attribute):
            base = func.value
            spelled = ast.unparse(base)
            if spelled.endswith(("parameters", "_parameters", "params")):
                return True, ""
    return False, ""


class _Reader:
    """Reads what the methods of one class create on ``self``."""

    def __init__(self, module_globals: dict):
        self.names: set[str] = set()
        self.values: dict[str, list[tuple[bool, str]]] = {}
        self.reasons: list[str] = []
        self.globals = module_globals
        self.seen_helpers: set[int] = set()
        self.aliases: dict[str, list[str]] = {}
        self.in_construct = False
        self.wrapped: set[str] = set()  # inside an __init__ decorator: the decorated function

    def add(self, attr: str, value: ast.expr | None, parameter: tuple[bool, str] | None = None) -> None:
        self.names.add(attr)
        if self.in_construct:
            return  # construct's `self.p = p * 2` updates what __init__ made: judged there
        if parameter is None and isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name):
            self.aliases.setdefault(attr, []).append(value.attr)  # self._parameters = self.parameters
            return
        judged = parameter if parameter is not None else (
            _is_parameter_value(value) if value is not None else (False, ""))
        self.values.setdefault(attr, []).append(judged)

    def parameters(self) -> dict[str, str]:
        """Attribute -> literal name ("" when not fixed) of the attributes every host-side
        assignment makes a Parameter; an alias of such an attribute is one too."""
        found = {attr: judged[0][1] if len({j[1] for j in judged}) == 1 else ""
                 for attr, judged in self.values.items() if all(j[0] for j in judged)}
        for attr, sources in self.aliases.items():
            if attr not in self.values and all(source in found for source in sources):
                found[attr] = ""
            elif attr in found and not all(source in found for source in sources):
                del found[attr]
        return found

    def read_class(self, node: ast.ClassDef) -> None:
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if item.name in ("__getattr__", "__getattribute__"):
                    self.reasons.append(f"defines {item.name}")
                if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                       for d in item.decorator_list):
                    continue  # no instance to set attributes on
                self.in_construct = item.name == "construct"
                self.read_function(item, _self_name(item))
                self.in_construct = False
                if item.name == "__init__":
                    for decorator in item.decorator_list:
                        self._init_decorator(decorator)

    def read_function(self, function: ast.AST, self_name: str | None) -> None:
        if self_name is None:
            return
        parents = {id(child): parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for element in ast.walk(target):
                        self._store(element, node.value, self_name)
            elif isinstance(node, ast.Name) and node.id == self_name and not isinstance(node.ctx, ast.Store):
                self._use_of_self(node, parents, self_name)

    def _store(self, element: ast.AST, value: ast.expr | None, self_name: str) -> None:
        if not isinstance(getattr(element, "ctx", None), ast.Store):
            return
        if isinstance(element, ast.Attribute) and _is_self(element.value, self_name):
            if element.attr == "__dict__":
                self.reasons.append("assigns self.__dict__")
            self.add(element.attr, value if isinstance(element.ctx, ast.Store) else None)
        elif isinstance(element, ast.Subscript):
            owner = element.value
            if (isinstance(owner, ast.Attribute) and _is_self(owner.value, self_name)
                    and owner.attr in CONTAINERS):
                key = _literal(element.slice)
                if key is None:
                    self.reasons.append(f"stores a computed key in self.{owner.attr}")
                else:
                    self.add(key, None, (owner.attr == "_params", key if owner.attr == "_params" else ""))

    def _use_of_self(self, node: ast.Name, parents: dict, self_name: str) -> None:
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute):
            if parent.attr == "__dict__":
                self.reasons.append("uses self.__dict__")
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent:
                self._self_method_call(parent.attr, call)
            return
        if isinstance(parent, (ast.Return, ast.Compare, ast.FormattedValue)):
            return
        call = parent
        if isinstance(parent, (ast.keyword, ast.Starred)):
            call = parents.get(id(parent))
        if not isinstance(call, ast.Call) or call.func is node:
            self.reasons.append(f"hands self on: {ast.unparse(parent)[:60]}")
            return
        func = call.func
        if isinstance(func, ast.Name):
            if func.id == "setattr" and call.args and call.args[0] is node:
                name = _literal(call.args[1]) if len(call.args) > 1 else None
                if name is None:
                    self.reasons.append("setattr(self, <computed name>)")
                else:
                    self.add(name, call.args[2] if len(call.args) > 2 else None)
                return
            if func.id == "vars":
                self.reasons.append("vars(self)")
                return
            if func.id in self.wrapped:
                return  # the decorated __init__, read along the MRO
            if func.id in ("super", "isinstance", "id", "type", "hasattr", "getattr", "str", "repr",
                           "print", "len", "callable", "issubclass"):
                return
            helper = self.globals.get(func.id)
            if inspect.isfunction(helper):
                self._helper(helper, call, node)
                return
        if isinstance(func, ast.Attribute) and func.attr == "__init__":
            return  # Base.__init__(self, ...): the base is read along the MRO
        if isinstance(func, ast.Attribute) and func.attr in (
                "check_value_type", "check_bool", "check_isinstance", "bind", "bind_partial"):
            return  # validator checks and inspect.signature(fn).bind(self, ...) only read it
        self.reasons.append(f"hands self to {ast.unparse(func)[:60]}")

    def _init_decorator(self, decorator: ast.expr) -> None:
        """A decorator of ``__init__`` (nn.Adam's ``opt_init_args_register``): the functions it
        defines get the instance as their first parameter and may set attributes on it."""
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        function = api_snapshot.resolve_in(target, self.globals)
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        except (OSError, TypeError, SyntaxError):
            self.reasons.append(f"__init__ decorated by {ast.unparse(target)[:60]} (no source)")
            return
        layers = [f for f in ast.walk(tree.body[0]) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        # The decorator's layers take the decorated function (fn, func): calling it with the
        # instance runs the __init__ read here already.
        wrapped = {a.arg for f in layers for a in [*f.args.posonlyargs, *f.args.args]
                   if any(isinstance(g, (ast.FunctionDef, ast.AsyncFunctionDef)) and g is not f
                          for g in ast.walk(f))}
        outer, self.globals = self.globals, getattr(function, "__globals__", self.globals)
        outer_wrapped, self.wrapped = self.wrapped, wrapped
        try:
            for inner in layers:
                if any(isinstance(g, (ast.FunctionDef, ast.AsyncFunctionDef)) and g is not inner
                       for g in ast.walk(inner)):
                    continue  # a layer of a decorator factory, not the function the instance reaches
                instance = _self_name(inner)
                if instance is None:  # wrapper(*args, **kwargs): the instance is args[0]
                    text = ast.unparse(inner)
                    if "setattr" in text or "__dict__" in text or "[0]." in text:
                        self.reasons.append(f"__init__ decorated by {ast.unparse(target)[:60]}, "
                                            "which may set attributes on args[0]")
                    continue
                self.read_function(inner, instance)
        finally:
            self.globals, self.wrapped = outer, outer_wrapped

    def _self_method_call(self, method: str, call: ast.Call) -> None:
        if method in INSERTERS:
            name = _literal(call.args[0]) if call.args else _literal(
                next((k.value for k in call.keywords if k.arg in ("param_name", "child_name", "name")), None))
            if name is None:
                self.reasons.append(f"self.{method}(<computed name>)")
            else:
                self.add(name, None, (method in ("insert_param_to_cell", "register_parameter"), ""))
        elif method in ATTRIBUTE_SETTING_METHODS:
            for keyword in call.keywords:
                if keyword.arg is None:
                    self.reasons.append(f"self.{method}(**...)")
                else:
                    self.add(keyword.arg, None)
        elif method == "__setattr__":
            name = _literal(call.args[0]) if call.args else None
            if name is None:
                self.reasons.append("self.__setattr__(<computed name>)")
            else:
                self.add(name, call.args[1] if len(call.args) > 1 else None)

    def _helper(self, helper, call: ast.Call, node: ast.Name) -> None:
        """A module-level function handed ``self``: read what it sets on that parameter."""
        if id(helper) in self.seen_helpers:
            return
        self.seen_helpers.add(id(helper))
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(helper)))
        except (OSError, TypeError, SyntaxError):
            self.reasons.append(f"hands self to {helper.__name__} (no source)")
            return
        function = tree.body[0]
        params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
        position = next((i for i, arg in enumerate(call.args) if arg is node), None)
        keyword = next((k.arg for k in call.keywords if k.value is node), None)
        name = params[position] if position is not None and position < len(params) else keyword
        if name is None:
            self.reasons.append(f"hands self to {helper.__name__}")
            return
        outer, self.globals = self.globals, helper.__globals__
        try:
            self.read_function(function, name)
        finally:
            self.globals = outer


def _is_self(node: ast.AST, self_name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == self_name


def _read_cell_class(klass, reader: _Reader) -> None:
    try:
        source = textwrap.dedent(inspect.getsource(klass))
        node = ast.parse(source).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        reader.reasons.append(f"no source for {klass.__module__}.{klass.__qualname__}")
        return
    if not isinstance(node, ast.ClassDef):
        reader.reasons.append(f"no class statement for {klass.__qualname__}")
        return
    module = sys.modules.get(klass.__module__)
    reader.globals = vars(module) if module is not None else {}
    reader.read_class(node)


def _class_entry(klass, cell, cell_names: frozenset[str]) -> tuple[list[str], dict[str, str], str | None]:
    reader = _Reader({})
    for base in klass.__mro__:
        if base in cell.__mro__:
            continue  # nn.Cell and what it derives from: the `cell` table
        if not base.__module__.startswith("mindspore"):
            reader.reasons.append(f"base {base.__module__}.{base.__qualname__} is not MindSpore's")
            continue
        _read_cell_class(base, reader)  # a MindSpore class or mixin: its methods set self too
    if reader.reasons:
        return [], {}, sorted(set(reader.reasons))[0]
    names = (set(dir(klass)) | reader.names) - cell_names
    missed = sorted(_built_attributes(klass) - names - cell_names)
    if missed:  # the source reading missed a way attributes are made: trust none of it
        return [], {}, f"an instance built without arguments has {', '.join(missed[:5])}, not read from the source"
    parameters = reader.parameters()
    return sorted(names), dict(sorted(parameters.items())), None


def _built_attributes(klass) -> set[str]:
    """What an instance built without arguments has, when the class takes none (nn.ReLU(),
    nn.MSELoss()): a check of the source reading, never a source of names."""
    try:
        signature = inspect.signature(klass.__init__)
    except (TypeError, ValueError):
        return set()
    required = [p for p in list(signature.parameters.values())[1:]
                if p.default is inspect.Parameter.empty
                and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    if required:
        return set()
    try:
        return set(dir(klass()))
    except Exception:  # noqa: BLE001 - a class that needs a device, a context or arguments after all
        return set()


def _function_source(function) -> ast.FunctionDef | None:
    try:
        node = ast.parse(textwrap.dedent(inspect.getsource(function))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return None
    return node if isinstance(node, ast.FunctionDef) else None


def _constant_slice(node: ast.expr, rest: str) -> tuple[int, int | None] | None:
    """(start, stop) when ``node`` is ``rest`` or ``rest[a:b]`` with literal bounds."""
    if isinstance(node, ast.Name) and node.id == rest:
        return 0, None
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == rest
            and isinstance(node.slice, ast.Slice) and node.slice.step is None):
        return None
    bounds = []
    for bound in (node.slice.lower, node.slice.upper):
        try:
            bounds.append(None if bound is None else ast.literal_eval(bound))
        except ValueError:
            return None
    start, stop = bounds
    if not (start is None or isinstance(start, int)) or not (stop is None or isinstance(stop, int)):
        return None
    return start or 0, stop


def _forwards(klass, cell) -> dict | None:
    """The ``forwards`` entry of a class (module docstring), read from its construct's and
    __init__'s source; None when the construct hands no ``*args`` slice to one stored callable."""
    owner = next((base for base in klass.__mro__ if "construct" in vars(base)), None)
    if owner is None or owner in cell.__mro__:
        return None
    construct = _function_source(vars(owner)["construct"])
    if construct is None or construct.args.vararg is None:
        return None
    rest, self_name = construct.args.vararg.arg, _self_name(construct)
    slices = {}
    for node in ast.walk(construct):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if (found := _constant_slice(node.value, rest)) is not None:
                slices[node.targets[0].id] = found
    init_owner = next((base for base in klass.__mro__ if "__init__" in vars(base)), None)
    init = _function_source(vars(init_owner)["__init__"]) if init_owner is not None else None
    if init is None:
        return None
    stored = _stored_parameters(init)
    handed: set[tuple[str, int, int | None]] = set()
    for node in ast.walk(construct):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and _is_self(node.func.value, self_name) and node.func.attr in stored
                and len(node.args) == 1 and isinstance(node.args[0], ast.Starred) and not node.keywords):
            continue
        spread = node.args[0].value
        found = slices.get(spread.id) if isinstance(spread, ast.Name) and spread.id != rest else (
            _constant_slice(spread, rest))
        if found is not None:
            handed.add((node.func.attr, *found))
    if len(handed) != 1:
        return None
    attr, start, stop = handed.pop()
    parameter, position = stored[attr]
    return {"parameter": parameter, "position": position, "start": start, "stop": stop}


def _stored_parameters(init: ast.FunctionDef) -> dict[str, tuple[str, int]]:
    """attr -> (parameter, its index after self) for each ``self.<attr> = <parameter>`` that is
    the attribute's only assignment in ``__init__``."""
    parameters = [p.arg for p in init.args.args[1:]]
    init_self = _self_name(init)
    assigned: dict[str, list[ast.expr | None]] = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Attribute) and _is_self(target.value, init_self):
                    value = node.value if isinstance(node, ast.Assign) else None
                    assigned.setdefault(target.attr, []).append(value)
    return {attr: (values[0].id, parameters.index(values[0].id)) for attr, values in assigned.items()
            if len(values) == 1 and isinstance(values[0], ast.Name) and values[0].id in parameters}


def take() -> dict:
    """Read the table from the installed MindSpore (imported here, never on the static path)."""
    import mindspore  # noqa: F401 - only here

    from . import snapshots

    cell = mindspore.nn.Cell
    cell_names = frozenset(snapshots.cell_attributes()["names"])
    aliases: dict[str, str] = {}
    classes: dict[str, object] = {}
    for module_name in CELL_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name in dir(module):
            if name.startswith("_"):
                continue
            try:
                value = getattr(module, name)
            except Exception:  # noqa: BLE001 - a lazy attribute that fails
                continue
            if inspect.isclass(value) and issubclass(value, cell) and value is not cell:
                defined = f"{value.__module__}.{value.__qualname__}"
                aliases[f"{module_name}.{name}"] = defined
                classes[defined] = value
    table: dict = {"mindspore_version": mindspore.__version__, "aliases": dict(sorted(aliases.items())),
                   "cell": sorted(cell_names), "attributes": {}, "parameters": {}, "incomplete": {},
                   "forwards": {}}
    for defined in sorted(classes):
        if (forwards := _forwards(classes[defined], cell)) is not None:
            table["forwards"][defined] = forwards
        names, parameters, reason = _class_entry(classes[defined], cell, cell_names)
        if reason is not None:
            table["incomplete"][defined] = reason
            continue
        table["attributes"][defined] = names
        if parameters:
            table["parameters"][defined] = parameters
    return table


def to_json(table: dict) -> str:
    return api_snapshot.to_json(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m msgraphlint.knowledge.cell_classes", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    options = parser.parse_args(argv)
    current = take()
    path = DATA / FOLDER / api_snapshot.file_name(current["mindspore_version"])
    text = to_json(current)
    if options.check:
        if not path.exists() or path.read_text("utf-8") != text:
            print(f"{path.name} is out of date with the installed MindSpore "
                  "(rerun `python -m msgraphlint.knowledge.cell_classes`)", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    print(f"wrote {path}: {len(current['attributes'])} classes read, {len(current['incomplete'])} incomplete")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
