"""Snapshots of MindSpore's public API (names, kinds, call signatures, Tensor method overloads),
one per MindSpore release, kept as data.

The static path never imports MindSpore, so what a call such as ``ops.pad(x, paddings=...)``,
``ops.ResizeBilinear(...)``, ``nn.Dense(3, 4, has_bias=True)`` or ``x.repeat(3, axis=0)`` can bind
to is read here, once per release, from an installed MindSpore by :func:`take` and written to
``msgraphlint/knowledge/data/api/mindspore-<major>.<minor>.json``:

- one top-level key per module (``mindspore``, ``mindspore.ops``, ``mindspore.ops.operations``,
  ``mindspore.ops.functional``, ``mindspore.common.dtype``, ``mindspore.nn``, ``mindspore.mint``,
  ``mindspore.mint.nn``, ``mindspore.mint.nn.functional``, ``mindspore.numpy`` and
  ``mindspore.communication`` when present), plus ``mindspore.Tensor`` for the Tensor class's
  public attributes;
- under each, every public name (``dir()`` without a leading ``_``, every name of ``__all__``
  that resolves, and every public submodule, imported or not) mapped to ``{"kind": ..., "params": [...]}``:
  ``kind`` is ``function`` (a routine or any other callable object, e.g. a Primitive instance),
  ``class``, ``module`` or ``other`` (an instance: ``mstype.tensor_type`` in 2.10); ``params``
  (functions and classes only, and only when the signature is known) lists
  ``[name, kind, has_default]``, the kind one of ``positional_only``, ``positional_or_keyword``,
  ``var_positional``, ``keyword_only``, ``var_keyword``. A class's params are its ``__init__``'s
  without ``self``; a Tensor method's are without ``self``. No ``params`` means unknown: accept
  any call (C++ builtins, generated overloads taking only ``*args, **kwargs``, decorators that hide
  the signature);
- Tensor methods that MindSpore dispatches on overloads in C++ have ``overloads`` instead: one
  ``params`` list per calling form, as MindSpore's own "The valid calling should be" lists them
  (:mod:`msgraphlint.knowledge.tensor_overloads`), each parameter with a fourth item, the argument
  types that form accepts (``["int", "tuple of int"]``; empty when any);
- ``mindspore_version``;
- ``unresolved_all``: per module, the names its ``__all__`` lists that are not attributes of it
  (MindSpore 2.10's ``mindspore.mint.__all__`` lists all of ``mint.nn``'s classes, and
  ``mindspore.__all__`` the characters of the version string): ``from <module> import <name>``
  fails for them, so they are not in the module's table.

``python -m msgraphlint.knowledge.api_snapshot`` writes the installed MindSpore's snapshot;
``--check`` exits 1 when the stored one differs from it. :func:`load` reads a snapshot without
importing MindSpore: the target version's (``--target-version``), by default the installed
MindSpore's release when a snapshot of it exists, else the newest snapshot.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import json
import os
import pkgutil
import re
import sys
from importlib import resources
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
API_FOLDER = "api"
FILE_PREFIX, FILE_SUFFIX = "mindspore-", ".json"
VERSION_KEY = "mindspore_version"
UNRESOLVED_KEY = "unresolved_all"
TENSOR_KEY = "mindspore.Tensor"
# The methods Parameter defines itself (set_data, clone(init=...)): a Parameter's other methods
# are Tensor's, under TENSOR_KEY.
PARAMETER_KEY = "mindspore.Parameter"
# public spelling -> defining function, for the functions whose own body graph mode cannot compile
# (snapshots.uncompilable_functions, read from the release's source and jit-forbidden registry)
UNCOMPILABLE_KEY = "uncompilable_functions"
NOT_MODULES = (VERSION_KEY, UNRESOLVED_KEY, UNCOMPILABLE_KEY)
# Imported in this order; the last two only when the installed MindSpore has them.
MODULES = (
    "mindspore",
    "mindspore.ops",
    "mindspore.ops.operations",
    "mindspore.common.dtype",
    "mindspore.nn",
    "mindspore.mint",
    "mindspore.mint.nn",
    "mindspore.mint.nn.functional",
    "mindspore.ops.functional",
    "mindspore.numpy",
    "mindspore.communication",
)
OPTIONAL_MODULES = ("mindspore.numpy", "mindspore.communication")
PARAMETER_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}
_VARIADIC = {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}
# Where MindSpore's generated overloaded functions live (mint.add, mint.max, ops.transpose's
# overloads): (*args, **kwargs) wrappers around a C++ parser that lists the forms it takes.
OVERLOAD_MODULE = "mindspore.ops.functional_overload"
# Decorators MindSpore 2.10 applies without functools.wraps, so inspect.signature sees only the
# wrapper's (*args, **kwargs). Each passes its arguments through to the closure variable named
# here unchanged (opt_init_args_register even binds them to that function's signature first), so
# that function's signature is the one a call must bind to.
PASS_THROUGH_DECORATORS = {
    "opt_init_args_register.<locals>.deco": "fn",  # nn.Adam, nn.SGD, ... __init__
    "jit_view_unsupported.<locals>.mint_view": "fn",  # mint.flatten, mint.reshape, ...
}


# --- the static path: no MindSpore -------------------------------------------------------------


def release(version: str) -> str:
    """``2.10.0`` -> ``2.10``: a snapshot per release; patch releases do not change the API."""
    parts = version.strip().split(".")
    if len(parts) < 2 or not all(part.isdigit() for part in parts[:2]):
        raise ValueError(f"not a MindSpore version: {version!r} (expected e.g. 2.10 or 2.10.0)")
    return f"{int(parts[0])}.{int(parts[1])}"


def _release_key(version: str) -> tuple[int, int]:
    major, minor = release(version).split(".")
    return int(major), int(minor)


@functools.cache
def versions() -> tuple[str, ...]:
    """The releases with a stored snapshot, oldest first."""
    folder = resources.files(__package__).joinpath("data", API_FOLDER)
    found = [entry.name[len(FILE_PREFIX):-len(FILE_SUFFIX)] for entry in folder.iterdir()
             if entry.name.startswith(FILE_PREFIX) and entry.name.endswith(FILE_SUFFIX)]
    return tuple(sorted(found, key=_release_key))


DIST_INFO = re.compile(r"^mindspore-(\d+\.\d+)[^-]*\.dist-info$")


@functools.cache
def installed_version() -> str | None:
    """The installed MindSpore's release, from the name of its ``dist-info`` folder on the import
    path (no import of MindSpore; importlib.metadata's search costs a run 20 ms)."""
    for folder in sys.path:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        for name in names:
            if name.startswith("mindspore-") and (found := DIST_INFO.match(name)):
                return release(found[1])
    return None


def default_version() -> str:
    """The installed MindSpore's release when there is a snapshot of it, else the newest."""
    installed = installed_version()
    return installed if installed in versions() else versions()[-1]


def resolve_version(version: str | None) -> str:
    """The snapshot a target version names (``2.10.0`` -> ``2.10``); ValueError, naming the
    releases there are, when there is none."""
    if version is None:
        return default_version()
    wanted = release(version)
    if wanted not in versions():
        raise ValueError(f"no API snapshot of MindSpore {wanted}; there are: {', '.join(versions())}")
    return wanted


def file_name(version: str) -> str:
    return f"{FILE_PREFIX}{release(version)}{FILE_SUFFIX}"


@functools.cache
def load(version: str | None = None) -> dict:
    """The stored snapshot of a release (default: :func:`default_version`), read once; never
    imports MindSpore."""
    name = file_name(resolve_version(version))
    return json.loads(resources.files(__package__).joinpath("data", API_FOLDER, name).read_text("utf-8"))


def kind_of(qualified: str, version: str | None = None) -> str | None:
    """What a release's snapshot says ``mindspore.ops.Pad`` is (``class``, ``function``,
    ``module`` or ``other``, an instance); None where the snapshot does not cover the name."""
    module, _, member = qualified.rpartition(".")
    entry = load(version).get(module, {}).get(member) if module not in NOT_MODULES else None
    return entry["kind"] if entry else None


def module_keys(snapshot: dict) -> list[str]:
    """The module (and ``mindspore.Tensor``) tables of a snapshot: every key but the metadata."""
    return [key for key in snapshot if key not in NOT_MODULES]


# --- taking a snapshot from an installed MindSpore ----------------------------------------------


def _unwrap(function):
    """Follow ``__wrapped__`` and the known pass-through decorators to the function called."""
    for _ in range(16):
        function = inspect.unwrap(function)
        variable = PASS_THROUGH_DECORATORS.get(getattr(function, "__qualname__", None))
        code = getattr(function, "__code__", None)
        if variable is None or code is None or variable not in code.co_freevars:
            return function
        function = function.__closure__[code.co_freevars.index(variable)].cell_contents
    return function


def _params(function, *, drop_first: bool) -> list | None:
    """``[name, kind, has_default]`` per parameter, or None when the signature is unknown."""
    try:
        target = _unwrap(function)
        signature = inspect.signature(target)
    except Exception:  # noqa: BLE001 - builtins, C++ methods, odd callables: unknown
        return None
    parameters = list(signature.parameters.values())
    # Unless self is folded into *args (a (*args, **kwargs) wrapper): then there is nothing to drop.
    if drop_first and parameters and parameters[0].kind not in _VARIADIC:
        parameters = parameters[1:]
    if parameters and all(parameter.kind in _VARIADIC for parameter in parameters):
        return None  # only *args / **kwargs: no names to check
    return [
        [parameter.name, PARAMETER_KINDS[parameter.kind], parameter.default is not inspect.Parameter.empty]
        for parameter in parameters
    ]


def _entry(value) -> dict:
    if inspect.ismodule(value):
        return {"kind": "module"}
    if inspect.isclass(value):
        entry = {"kind": "class"}
        params = _params(value.__init__, drop_first=True)
    elif inspect.ismethod(value):  # bound: unwrapping its function would bring self back
        entry = {"kind": "function"}
        params = _params(value.__func__, drop_first=True)
    elif callable(value):
        entry = {"kind": "function"}
        # A callable object (e.g. a Primitive instance): inspect.signature leaves self out.
        params = _params(value, drop_first=False)
        if params is None and getattr(_unwrap(value), "__module__", "") == OVERLOAD_MODULE:
            from .tensor_overloads import function_forms

            # mint.add(*args, **kwargs): its C++ parser names the forms it takes
            if forms := function_forms(value, value, getattr(value, "__name__", "")):
                entry["overloads"] = forms
    else:
        return {"kind": "other"}
    if params is not None:
        entry["params"] = params
    return entry


def _module_table(module) -> tuple[dict, list[str]]:
    exported = getattr(module, "__all__", None) or ()
    names = {name for name in dir(module) if not name.startswith("_")} | {str(n) for n in exported}
    table: dict[str, dict] = {}
    unresolved: list[str] = []
    for name in sorted(names):
        try:
            value = getattr(module, name)
        except AttributeError:
            unresolved.append(name)
            continue
        except Exception:  # noqa: BLE001 - a property-like module attribute that raises
            table[name] = {"kind": "other"}
            continue
        table[name] = _entry(value)
    # A public submodule not imported yet is no attribute until something imports it (importing
    # mindspore.scipy adds `scipy` to dir(mindspore)): list every one, so the snapshot does not
    # depend on what the process imported before, and `import mindspore.scipy` is no false alarm.
    for info in pkgutil.iter_modules(getattr(module, "__path__", None) or []):
        if not info.name.startswith("_"):
            table.setdefault(info.name, {"kind": "module"})
    return table, unresolved


def _tensor_table(tensor) -> dict:
    from .tensor_overloads import calling_forms

    import numpy

    try:
        from mindspore.graph._parse import standard_method
    except ImportError:  # before 2.9 the parser lived in mindspore._extends
        from mindspore._extends.parse import standard_method

    instance = tensor(numpy.ones((2, 3), numpy.float32))  # the C++ methods are probed on one
    table: dict[str, dict] = {}
    for name in sorted(name for name in dir(tensor) if not name.startswith("_")):
        raw = inspect.getattr_static(tensor, name)
        if (inspect.ismethoddescriptor(raw) and not isinstance(raw, (staticmethod, classmethod))
                and callable(raw)):  # a C++ method: its calling forms are probed
            forms = calling_forms(instance, name)
            table[name] = {"kind": "function", "overloads": forms} if forms else {"kind": "function"}
            continue
        if isinstance(raw, staticmethod):
            function, drop_first = raw.__func__, False
        elif isinstance(raw, classmethod):
            function, drop_first = raw.__func__, True  # drop cls
        elif inspect.isfunction(raw) or (inspect.ismethoddescriptor(raw) and callable(raw)):
            function, drop_first = raw, True  # drop self
        elif inspect.isclass(raw):
            table[name] = _entry(raw)
            continue
        else:  # properties, getset descriptors, plain class attributes
            table[name] = {"kind": "other"}
            continue
        entry = {"kind": "function"}
        params = _params(function, drop_first=drop_first)
        if params is not None:
            entry["params"] = params
        # In a graph, a Python Tensor method is the graph's own function of the same name
        # (x.amax(...) binds standard_method.amax(input, axis, keep_dims), not Tensor.amax).
        graph_function = getattr(standard_method, name, None)
        if inspect.isfunction(graph_function) and (graph := _params(graph_function, drop_first=True)) is not None:
            entry["overloads"] = [[[*param, []] for param in graph]]
        table[name] = entry
    return table


def take() -> dict:
    """Read the public API from the installed MindSpore (imported here, never on the static path)."""
    import mindspore  # noqa: F401 - only here

    snapshot: dict = {VERSION_KEY: mindspore.__version__, UNRESOLVED_KEY: {}}
    modules = {}
    for name in MODULES:
        try:
            modules[name] = importlib.import_module(name)
        except ImportError:
            if name not in OPTIONAL_MODULES:
                raise
    for name, module in modules.items():
        table, unresolved = _module_table(module)
        snapshot[name] = table
        if unresolved:
            snapshot[UNRESOLVED_KEY][name] = unresolved
    snapshot[TENSOR_KEY] = _tensor_table(mindspore.Tensor)
    snapshot[PARAMETER_KEY] = parameter_table()
    snapshot[UNCOMPILABLE_KEY] = uncompilable_functions()["functions"]
    return snapshot


def uncompilable_functions() -> dict:
    """Public spelling -> defining function of the public functions of MODULES whose own body
    graph mode cannot compile, with the release. Graph mode compiles the Python body of a MindSpore function called in compiled code, and
    rejects it at every level where that body calls ``mindspore.log`` ("the method or function
    'mindspore.log.warning' is not supported"): deprecation notices such as
    ``ops.matrix_determinant``'s. Only calls that run whatever the arguments are listed: an
    expression statement directly in the body, not under ``if``/``try``/a loop."""
    import importlib

    try:
        from mindspore.graph._utils import check_jit_forbidden_api as registry
    except ImportError:  # before 2.9
        from mindspore import _check_jit_forbidden_api as registry

    import mindspore as ms  # noqa: F401 - only here
    forbidden = set(registry.get_jit_forbidden_module())
    functions = {}
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            if module_name in OPTIONAL_MODULES:
                continue
            raise
        for name, value in vars(module).items():
            if name.startswith("_") or not callable(value) or inspect.isclass(value):
                continue
            function = inspect.unwrap(value)
            if not inspect.isfunction(function) or function.__module__ in forbidden:
                continue
            if _calls_forbidden_module(function, forbidden):
                functions[f"{module_name}.{name}"] = f"{function.__module__}.{function.__qualname__}"
    return {"mindspore_version": ms.__version__, "functions": dict(sorted(functions.items()))}


def _calls_forbidden_module(function, forbidden: set[str]) -> bool:
    """Whether a statement directly in the function's body calls a function of a forbidden
    module, the callee resolved through the function's globals (``logger.warning`` where
    ``logger`` is ``mindspore.log``; ``warning`` imported from it)."""
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return False
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for statement in definition.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            callee = resolve_in(statement.value.func, function.__globals__)
            module = getattr(callee, "__module__", None)
            if inspect.ismodule(callee):
                module = callee.__name__
            if module in forbidden:
                return True
    return False


def resolve_in(node: ast.expr, namespace: dict):
    """The object a name or attribute chain names in a module's globals; None if it names none."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = resolve_in(node.value, namespace)
        return None if owner is None else getattr(owner, node.attr, None)
    return None


def parameter_table() -> dict:
    """The public methods and properties Parameter defines in its own class body (its Python
    signatures); everything else a Parameter has is Tensor's."""
    import mindspore

    table: dict[str, dict] = {}
    for name, raw in sorted(vars(mindspore.Parameter).items()):
        if name.startswith("_"):
            continue
        if inspect.isfunction(raw):
            entry = {"kind": "function"}
            if (params := _params(raw, drop_first=True)) is not None:
                entry["params"] = params
            table[name] = entry
        else:
            table[name] = {"kind": "other"}
    return table


def to_json(snapshot: dict) -> str:
    """Sorted keys, compact, one line per name: small, and a MindSpore upgrade diffs readably."""

    def dump(value) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    lines = ["{"]
    keys = sorted(snapshot)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = snapshot[key]
        if isinstance(value, dict) and value:
            lines.append(f"{dump(key)}:{{")
            inner = sorted(value)
            lines.extend(
                f"{dump(name)}:{dump(value[name])}{',' if i < len(inner) - 1 else ''}"
                for i, name in enumerate(inner)
            )
            lines.append("}" + comma)
        else:
            lines.append(f"{dump(key)}:{dump(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def differences(stored: dict, current: dict, *, limit: int = 5) -> list[str]:
    """A short summary of how two snapshots differ, one line per module; empty when equal."""
    lines = []
    if stored.get(VERSION_KEY) != current.get(VERSION_KEY):
        lines.append(f"{VERSION_KEY}: {stored.get(VERSION_KEY)} -> {current.get(VERSION_KEY)}")
    for key in (UNRESOLVED_KEY, UNCOMPILABLE_KEY):
        if stored.get(key) != current.get(key):
            lines.append(f"{key}: differs")

    def sample(names) -> str:
        names = sorted(names)
        more = f", ... ({len(names)} in all)" if len(names) > limit else ""
        return ", ".join(names[:limit]) + more

    for key in sorted(set(module_keys(stored)) | set(module_keys(current))):
        old, new = stored.get(key), current.get(key)
        if old is None or new is None:
            lines.append(f"{key}: only in the {'installed MindSpore' if old is None else 'stored file'}")
            continue
        added, removed = set(new) - set(old), set(old) - set(new)
        changed = {name for name in set(old) & set(new) if old[name] != new[name]}
        parts = [f"+{len(added)} ({sample(added)})" if added else "",
                 f"-{len(removed)} ({sample(removed)})" if removed else "",
                 f"~{len(changed)} ({sample(changed)})" if changed else ""]
        if any(parts):
            lines.append(f"{key}: " + " ".join(part for part in parts if part))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m msgraphlint.knowledge.api_snapshot", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    options = parser.parse_args(argv)
    current = take()
    path = DATA / API_FOLDER / file_name(current[VERSION_KEY])
    if options.check:
        stored = json.loads(path.read_text("utf-8")) if path.exists() else {}
        lines = differences(stored, current)
        if lines:
            print(f"{path.name} is out of date with the installed MindSpore "
                  "(rerun `python -m msgraphlint.knowledge.api_snapshot`):", file=sys.stderr)
            for line in lines:
                print(f"  {line}", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_json(current), "utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
