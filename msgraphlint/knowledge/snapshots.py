"""Snapshots of what an installed MindSpore says about names, kept as data (``msgraphlint/knowledge/data/``).

The static path never imports MindSpore (editors, pre-commit, an isolated venv), so the facts the
`names` and `jit-api` families need are read here, once, from an installed MindSpore and written to
``msgraphlint/knowledge/data/<name>.toml``:

- ``graph_builtins``: the builtins the graph compiler implements itself
  (``mindspore.graph._parse.resources.convert_object_map`` and ``convert_class_to_function_map``,
  plus ``tuple``/``list``, which the parser resolves as types), and the builtin types it refuses
  as external types (``parser._unsupported_python_builtin_type``);
- ``jit_forbidden``: the registry filled by ``jit_forbidden_register``
  (``mindspore.graph._utils.check_jit_forbidden_api``): forbidden methods and modules;
- ``cell_attributes``: every attribute an ``nn.Cell`` has of its own: its methods and class
  attributes, what ``nn.Cell()`` holds, and every ``self.<name> =`` in ``nn/cell.py``;
- ``tensor_attributes``: every attribute name a ``Tensor`` or ``Parameter`` can have in a graph:
  ``dir()`` of both classes and of an instance of each, the keys of the compiler's
  ``deprecated_tensor_method_map``, and the few names only its C++ method map knows
  (``GRAPH_ONLY_TENSOR_ATTRIBUTES``). A superset, so "has no attribute" is never a false alarm.

Which public functions graph mode cannot compile for their own body is read per release into the
API snapshot instead (``api_snapshot.uncompilable_functions``), since it changes between releases.

``python -m msgraphlint.knowledge.snapshots`` rewrites the files; ``--check`` exits 1 when they differ from
the installed MindSpore (tests/test_family_names.py runs the same comparison).
"""

from __future__ import annotations

import argparse
import ast
import builtins
import inspect
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
NAMES = ("graph_builtins", "jit_forbidden", "cell_attributes", "tensor_attributes", "third_party_modules")
# The parser resolves these builtin types itself (RESOLVE_TYPE_TUPLE / RESOLVE_TYPE_LIST).
PARSER_TYPES = ("list", "tuple")
# The graph compiler resolves these on a tensor from its C++ method map, which Python cannot
# read, and no Tensor or Parameter has them; `x.__floor__()` compiles at every syntax level.
# Found (MindSpore 2.10) by compiling `return x.<name>` on a Tensor for ~288,000 names: every
# identifier, and every suffix of one, in the strings of _c_expression and libmindspore_{frontend,
# core,ops,pynative,pyboost}.so. Rerun such a probe after upgrading MindSpore. The map also names
# __trunc__, eig, adaptive_max_pool2d and crop_and_resize, but their standard_method functions are
# gone, so the compiler rejects them at every level: they stay out.
GRAPH_ONLY_TENSOR_ATTRIBUTES = ("__floor__", "__ms_to_array__")
# What a snapshot's file says about where its names come from, beyond its first line.
SOURCES = {
    "third_party_modules": (
        "whitelist: mindspore.graph._parse.jit_fallback_modules.third_party_modules; graph_functions:",
        "the standard-library functions of mindspore.graph._parse.resources.convert_object_map.",
    ),
    "tensor_attributes": (
        "Names: dir() of mindspore.Tensor and mindspore.Parameter and of an instance of each",
        "(Tensor([1.0]), Parameter(Tensor([1.0]), name=\"w\")); the keys of the graph compiler's",
        "mindspore.graph._parse.deprecated.deprecated_tensor_method.deprecated_tensor_method_map;",
        "and the names only the compiler's C++ method map resolves",
        "(msgraphlint.knowledge.snapshots.GRAPH_ONLY_TENSOR_ATTRIBUTES). A superset of what a graph accepts.",
    ),
}


def _mindspore():
    import mindspore  # noqa: F401 - only here, never on the static path
    import mindspore.nn  # noqa: F401 - importing registers the jit-forbidden Cell methods
    import mindspore.ops  # noqa: F401

    return mindspore


def graph_builtins() -> dict:
    ms = _mindspore()
    from mindspore.graph._parse import parser, resources

    by_identity = {id(value): name for name, value in vars(builtins).items()}
    implemented = {by_identity[id(key)] for key in resources.convert_object_map if id(key) in by_identity}
    converted = {
        spelled.removeprefix("class '").rstrip("'")
        for spelled in resources.convert_class_to_function_map
    }
    external = {value.__name__ for value in parser._unsupported_python_builtin_type}
    return {
        "mindspore_version": ms.__version__,
        "graph": sorted(implemented | converted | set(PARSER_TYPES)),
        "external_types": sorted(external),
    }


def jit_forbidden() -> dict:
    ms = _mindspore()
    from mindspore.graph._utils import check_jit_forbidden_api as registry

    modules = registry.get_jit_forbidden_module()
    reexports = {
        f"mindspore.{name}": f"{value.__module__}.{value.__qualname__}"
        for name, value in sorted(vars(ms).items())
        if inspect.isfunction(value) and value.__module__ in modules
    }
    return {
        "mindspore_version": ms.__version__,
        "methods": sorted(registry.get_jit_forbidden_method()),
        "modules": sorted(modules),
        "reexports": reexports,  # public spellings of functions from those modules
    }


def cell_attributes() -> dict:
    ms = _mindspore()
    cell = ms.nn.Cell
    names = set(dir(cell)) | set(vars(cell()))
    tree = ast.parse(inspect.getsource(inspect.getmodule(cell)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return {"mindspore_version": ms.__version__, "names": sorted(names)}


def tensor_attributes() -> dict:
    """A graph resolves ``x.<name>`` on a tensor from the compiler's method and attribute maps,
    then from the Python object (``check_jit_forbidden_api.is_invalid_or_jit_forbidden_method``
    raises "object has no attribute" when ``hasattr`` fails). So every name either side knows."""
    ms = _mindspore()
    from mindspore.graph._parse.deprecated import deprecated_tensor_method

    tensor = ms.Tensor([1.0])
    parameter = ms.Parameter(ms.Tensor([1.0]), name="w")  # an instance mixes Tensor in
    names = set(dir(ms.Tensor)) | set(dir(ms.Parameter)) | set(dir(tensor)) | set(dir(parameter))
    names |= set(deprecated_tensor_method.deprecated_tensor_method_map)
    names |= set(GRAPH_ONLY_TENSOR_ATTRIBUTES)
    return {"mindspore_version": ms.__version__, "names": sorted(names)}


def third_party_modules() -> dict:
    """What the compiler calls through JIT Fallback instead of compiling: the modules of
    ``third_party_modules_whitelist`` (besides the standard library and the modules named by
    MS_JIT_IGNORE_MODULES), and the standard-library functions it implements itself
    (``convert_object_map``: operator.add, functools.partial, ...), which stay in the graph."""
    ms = _mindspore()
    from mindspore.graph._parse import resources
    from mindspore.graph._parse.jit_fallback_modules.third_party_modules import (
        third_party_modules_whitelist as whitelist,
    )

    implemented = set()
    for value in resources.convert_object_map:
        module = getattr(value, "__module__", None) or ""
        name = getattr(value, "__name__", None)
        top = module.lstrip("_").split(".")[0]
        if name and top in sys.stdlib_module_names and top != "builtins":
            implemented.add(f"{module.lstrip('_')}.{name}")
    return {
        "mindspore_version": ms.__version__,
        "whitelist": sorted(set(whitelist)),
        "graph_functions": sorted(implemented),
    }


def current(name: str) -> dict:
    return {"graph_builtins": graph_builtins, "jit_forbidden": jit_forbidden,
            "cell_attributes": cell_attributes, "tensor_attributes": tensor_attributes,
            "third_party_modules": third_party_modules}[name]()


def to_toml(name: str, table: dict) -> str:
    """Flat tables of strings and lists of strings: enough for these files, no writer needed."""
    lines = [
        f"# Snapshot of MindSpore's {name.replace('_', ' ')}, read from the installed package by",
        "# `python -m msgraphlint.knowledge.snapshots` (do not edit by hand; rerun it after upgrading MindSpore).",
    ]
    lines.extend(f"# {line}" for line in SOURCES.get(name, ()))
    tables = {key: value for key, value in table.items() if isinstance(value, dict)}
    for key, value in table.items():
        if isinstance(value, dict):
            continue  # tables come after the plain keys
        if isinstance(value, str):
            lines.append(f'{key} = "{value}"')
        else:
            lines.append(f"{key} = [")
            lines.extend(f'    "{item}",' for item in value)
            lines.append("]")
    for key, value in tables.items():
        lines.append(f"\n[{key}]")
        lines.extend(f'"{inner}" = "{item}"' for inner, item in value.items())
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m msgraphlint.knowledge.snapshots", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    options = parser.parse_args(argv)
    stale = []
    for name in NAMES:
        path = DATA / f"{name}.toml"
        text = to_toml(name, current(name))
        if options.check:
            if not path.exists() or path.read_text("utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {path}")
    if stale:
        print("out of date with the installed MindSpore: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
