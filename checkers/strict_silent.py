"""Code that compiles without a word but does not do what the Python says.

The family reports a dict returned from construct, and a module-level list changed in compiled
code, which is a compile-time copy: `append`, `clear`, item assignment and `+=` under one rule,
`extend`, `insert`, `pop` and `reverse` under another (global-list-mutation-at-strict), because the
compiler treats the two groups differently. What the compiler does at each level, and so which
changes are lost where, is in msgraphlint/rules/strict_silent.toml.
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

    # EVENTS.append(x) on a module-level list
    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return
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

    def _is_module_list(self, name: str, ctx: FunctionContext) -> bool:
        """A name that refers, in this function, to a list bound at module level."""
        if name not in _module_lists(ctx.module):
            return False
        values = ctx.values
        return name not in values.local_names or name in values.global_names


@lru_cache(maxsize=256)
def _module_lists(module: ModuleInfo) -> set[str]:
    """Module-level names bound to a list display, comprehension or list() call."""
    return {
        name
        for name, values in module.assignments.items()
        if any(
            isinstance(value, (ast.List, ast.ListComp))
            or (isinstance(value, ast.Call) and module.imports.qualify(value.func) in LIST_BUILDERS)
            for value in values
        )
    }
