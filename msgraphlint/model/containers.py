"""Lists and dicts that compiled code builds, and the lists the compiler folds into one constant.

A name bound only to new lists (displays, comprehensions, ``list()``) or dicts is a container the
function (or the module) builds; several rules judge what the graph does to one.

COMPATIBLE and LAX fold a list built from literals (a display of literals, a comprehension over
literals and literal ranges) into one constant object, which every call of the graph shares: a
``pop`` on it takes from that one object, call after call (seen with 2.10). A list that takes any
other value (a tensor, ``list(x.shape)``) is built again at each call, or is not known here.
"""

from __future__ import annotations

import ast

from ..syntax.project import ModuleInfo
from .variables import FunctionValues

# How a list of literals takes new elements and stays the one folded object (seen with 2.10:
# `extend` and `insert` make a new list, which is right on every call); arguments must be literals.
LIST_ADDING = frozenset({"append"})
# Methods that read a list or take elements out: they add nothing.
LIST_READING = frozenset({"pop", "index", "count", "copy"})
RANGE = "builtins.range"
LIST_BUILDERS = frozenset({"builtins.list"})
DICT_BUILDERS = frozenset({"builtins.dict"})


def builds(value: ast.expr, kind: str, module: ModuleInfo) -> bool:
    """Whether ``value`` makes a new list (kind "list") or dict ("dict")."""
    if kind == "list":
        displays, builders = (ast.List, ast.ListComp), LIST_BUILDERS
    else:
        displays, builders = (ast.Dict, ast.DictComp), DICT_BUILDERS
    return isinstance(value, displays) or (
        isinstance(value, ast.Call) and module.imports.qualify(value.func) in builders)


def built_here(values: FunctionValues, module: ModuleInfo, name: str, kind: str) -> list[ast.expr] | None:
    """The values of every ``name = value`` in the function when each builds a new ``kind``;
    None when one does not, or the name is bound otherwise too (a parameter, a loop, an
    unpacking)."""
    bound = values.assigned_values(name)
    return bound if bound and all(builds(value, kind, module) for value in bound) else None


def module_lists(module: ModuleInfo) -> frozenset[str]:
    """Module-level names bound to a list display, comprehension or list() call (once per module)."""
    return module.derived("containers.module_lists", module.tree, lambda _: frozenset(
        name for name, bound in module.assignments.items()
        if any(builds(value, "list", module) for value in bound)))


def holds_literal_list(values: FunctionValues, module: ModuleInfo, function: ast.AST, name: str) -> bool:
    """Whether the local ``name`` is a list of literals the compiler folds: every binding of it
    builds one, and the function adds only literals to it (or nothing)."""
    bound = values.assigned_values(name)
    return bool(bound) and all(literal_list(value, module) for value in bound) and _only_literals_added(
        name, module, function)


def literal_list(value: ast.expr, module: ModuleInfo) -> bool:
    """A list display of literals, or a comprehension over literals and literal ranges."""
    if isinstance(value, ast.List):
        return all(_from_literals(element, frozenset()) for element in value.elts)
    if isinstance(value, ast.ListComp):
        names = frozenset(n.id for g in value.generators for n in ast.walk(g.target)
                          if isinstance(n, ast.Name))
        return all(_literal_iterable(g.iter, module) and all(_from_literals(c, names) for c in g.ifs)
                   for g in value.generators) and _from_literals(value.elt, names)
    return False


def _literal_iterable(node: ast.expr, module: ModuleInfo) -> bool:
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_from_literals(element, frozenset()) for element in node.elts)
    return (isinstance(node, ast.Call) and module.imports.qualify(node.func) == RANGE
            and not node.keywords and all(_from_literals(a, frozenset()) for a in node.args))


def _from_literals(node: ast.expr, names: frozenset[str]) -> bool:
    """Literals, the given names, and operators on them."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            if part.id not in names:
                return False
        elif not isinstance(part, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
                                   ast.Tuple, ast.List, ast.operator, ast.unaryop, ast.boolop,
                                   ast.cmpop, ast.expr_context)):
            return False
    return True


def _only_literals_added(name: str, module: ModuleInfo, function: ast.AST) -> bool:
    """Whether every use of list ``name`` in the function adds literals or nothing at all."""
    for node in module.body_nodes(function):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and (
                node.value.id == name and not isinstance(node.ctx, ast.Load)):
            return False  # s[i] = v
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name):
            continue
        method = node.func.attr
        if method in LIST_ADDING:
            if not all(_from_literals(argument, frozenset()) for argument in node.args):
                return False
        elif method not in LIST_READING:
            return False
    return True
