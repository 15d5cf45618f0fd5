"""Code that compiles without a word but does not do what the Python says.

The family reports a dict returned from construct, a module-level list changed in compiled
code, which is a compile-time copy: `append`, `clear`, item assignment and `+=` under one rule,
`extend`, `insert`, `pop` and `reverse` under another (global-list-mutation-at-strict), because the
compiler treats the two groups differently; and the three in-place methods the graph lacks on a
container built in the function (`sort`, `remove`, `setdefault`), which LAX compiles to
nothing. What the compiler does at each level, and so which changes are lost where, is in
msgraphlint/rules/strict_silent.toml.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from msgraphlint.analyze import Family, FunctionContext
from msgraphlint.project import ModuleInfo

DICT_RETURN_INSTEAD = "return a tuple"
GLOBAL_LIST_INSTEAD = "return the value and collect it in the caller"
LOST_AT_EVERY_LEVEL = frozenset({"append", "clear"})
LOST_AT_STRICT = frozenset({"extend", "insert", "pop", "reverse"})
LIST_BUILDERS = frozenset({"builtins.list"})
DICT_BUILDERS = frozenset({"builtins.dict"})
# In-place methods the graph does not implement: rejected at STRICT/COMPATIBLE, nothing at LAX
# (seen with 2.10), with what does the same and compiles everywhere.
IGNORED_IN_PLACE = {"sort": "list", "remove": "list", "setdefault": "dict"}


class StrictSilentFamily(Family):
    name = "strict-silent"

    # return {"a": x} from construct
    def visit_Return(self, node: ast.Return, ctx: FunctionContext) -> None:
        if node.value is None or not ctx.returns_to_python(node):
            return
        if self._holds_dict(node.value, ctx):
            ctx.report("dict-return-at-strict", node, DICT_RETURN_INSTEAD)

    def _holds_dict(self, value: ast.expr, ctx: FunctionContext) -> bool:
        match value:
            case ast.Dict() | ast.DictComp():
                return True
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                return any(self._holds_dict(element, ctx) for element in elements)
            case ast.Name(id=name):
                # None in `bound` stands for a loop, unpacking or augmented binding: not a dict
                bound = ctx.values.bound.get(name, [])
                return bool(bound) and all(
                    isinstance(v, (ast.Dict, ast.DictComp)) for v in bound
                )
        # dict(a=x) with a tensor is a host call (rejected at STRICT), not this rule.
        return False

    # EVENTS.append(x) on a module-level list; scales.sort() on a local one
    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return
        if func.attr in IGNORED_IN_PLACE:
            self._check_in_place(node, func, ctx)
        if not self._is_module_list(func.value.id, ctx):
            return
        spelled = ast.unparse(func)
        if func.attr in LOST_AT_EVERY_LEVEL:
            ctx.report("global-list-mutation", node, spelled, func.value.id, GLOBAL_LIST_INSTEAD)
        elif func.attr in LOST_AT_STRICT:
            ctx.report(
                "global-list-mutation-at-strict", node, spelled, func.value.id, GLOBAL_LIST_INSTEAD
            )

    # EVENTS[0] = x, EVENTS[0] += x, `global EVENTS; EVENTS += [x]`
    def visit_Assign(self, node: ast.Assign, ctx: FunctionContext) -> None:
        for target in node.targets:
            self._check_item_assignment(target, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: FunctionContext) -> None:
        target = node.target
        if isinstance(target, ast.Name) and self._is_module_list(target.id, ctx):
            ctx.report(
                "global-list-mutation", node, ast.unparse(node), target.id, GLOBAL_LIST_INSTEAD
            )
        else:
            self._check_item_assignment(target, ctx)

    def _check_item_assignment(self, target: ast.expr, ctx: FunctionContext) -> None:
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and self._is_module_list(target.value.id, ctx)
        ):
            ctx.report("global-list-mutation", target, ast.unparse(target), target.value.id,
                       GLOBAL_LIST_INSTEAD)

    def _check_in_place(self, node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> None:
        name = func.value.id
        values = ctx.values.assigned_values(name)  # [] for parameters, loops, unpacking
        if not values or not all(_builds(value, IGNORED_IN_PLACE[func.attr], ctx.module)
                                 for value in values):
            return
        if func.attr == "remove" and any(
                ctx.is_variable(part) for part in [*values, *node.args]):
            return  # finding a tensor compares tensors: LAX rejects that instead
        instead = _rebinding(node, name)
        if func.attr == "setdefault" and not isinstance(ctx.values.parent(node), ast.Expr):
            instead += f", then `{name}[key]`"  # the value setdefault gave back
        ctx.report("in-place-method-ignored", node, ast.unparse(node), name, instead)

    def _is_module_list(self, name: str, ctx: FunctionContext) -> bool:
        """A name that refers, in this function, to a list bound at module level."""
        if name not in _module_lists(ctx.module):
            return False
        values = ctx.values
        return name not in values.local_names or name in values.global_names


def _rebinding(call: ast.Call, name: str) -> str:
    """The statement that does what the in-place call means, and compiles at every level."""
    arguments = [ast.unparse(a) for a in call.args]
    method = call.func.attr  # type: ignore[attr-defined]
    if method == "sort":
        given = "".join(f", {ast.unparse(k)}" for k in call.keywords)
        return f"`{name} = sorted({name}{given})`"
    if method == "remove" and len(arguments) == 1:
        return f"`{name}.pop({name}.index({arguments[0]}))`"
    if method == "setdefault" and len(arguments) == 2:
        key, value = arguments
        return f"`if {key} not in {name}: {name}[{key}] = {value}`"
    return "a new container built from it"


def _builds(value: ast.expr, kind: str, module: ModuleInfo) -> bool:
    """Whether ``value`` makes a new list (kind "list") or dict ("dict")."""
    if kind == "list":
        displays, builders = (ast.List, ast.ListComp), LIST_BUILDERS
    else:
        displays, builders = (ast.Dict, ast.DictComp), DICT_BUILDERS
    return isinstance(value, displays) or (
        isinstance(value, ast.Call) and module.imports.qualify(value.func) in builders)


@lru_cache(maxsize=256)
def _module_lists(module: ModuleInfo) -> set[str]:
    """Module-level names bound to a list display, comprehension or list() call."""
    return {
        name
        for name, values in module.assignments.items()
        if any(
            _builds(value, "list", module) for value in values
        )
    }
