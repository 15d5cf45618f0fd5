"""MindSpore APIs that cannot be used with jit: removed decorators, jit-forbidden methods and
functions, and classmethods.

`ms_function` was removed in MindSpore 2.6 (`jit` replaces it), so importing it fails. Calls in
compiled code to host-side APIs MindSpore marks with `jit_forbidden_register` (`get_context`,
`Cell.trainable_params`, initializers, ...) are reported, and so is a classmethod called there,
however it is reached. What the compiler does at each level is in msgraphlint/knowledge/rules/jit_api.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import CellContext, Family, FunctionContext
from msgraphlint.model.attributes import (
    class_at, held_call_names, held_class, is_classmethod, is_parameter_attribute,
)
from msgraphlint.knowledge.catalogue import snapshot
from msgraphlint.knowledge.mindspore import (
    CELL_DEFINED_AT, GRAPH_REFUSED_CELL_METHODS, GRAPH_REFUSED_FUNCTIONS,
    GRAPH_REFUSED_PARAMETER_METHODS, GRAPH_REFUSED_TENSOR_METHODS, REMOVED_FROM_MODULES,
    REMOVED_QUALIFIED, TENSOR_DEFINED_AT, TENSOR_HOOK_METHOD,
    is_mindspore_cell_name,
)
from msgraphlint.syntax.project import ClassInfo, ModuleInfo

MS_FUNCTION_INSTEAD = "mindspore.jit"
REMOVED_FUNCTION_NAME = "ms_function"
IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})

# MindSpore's jit-forbidden registry (mindspore.graph._utils.check_jit_forbidden_api), as data:
# msgraphlint/knowledge/data/jit_forbidden.toml, written from the installed MindSpore by
# `python -m msgraphlint.knowledge.snapshots` (the static path never imports MindSpore).
_REGISTRY = snapshot("jit_forbidden")
JIT_FORBIDDEN_MINDSPORE_VERSION = _REGISTRY["mindspore_version"]
_CELL_PREFIX = CELL_DEFINED_AT + "."
_TENSOR_PREFIX = TENSOR_DEFINED_AT + "."
FORBIDDEN_CELL_METHODS = frozenset(
    method.removeprefix(_CELL_PREFIX)
    for method in _REGISTRY["methods"]
    if method.startswith(_CELL_PREFIX)
)
# Not registered themselves, but seen failing the same way in 2.10: parameters_dict and
# parameters_broadcast_dict call get_parameters; parameters_and_names and cells_and_names are
# generators ("Unsupported expression 'Yield'").
CELL_METHODS_FAILING_THROUGH = frozenset(
    {"parameters_dict", "parameters_broadcast_dict", "parameters_and_names", "cells_and_names"}
)
# Tensor.assign_value and Tensor.set_const_arg. Left out of the registry's other entries:
# Parameter.set_data has its own rule (parameter-set-data), HookHandle.remove is list.remove as
# well, and the saved_tensors_hooks helpers are context managers the with-statement rules see.
FORBIDDEN_TENSOR_METHODS = frozenset(
    method.removeprefix(_TENSOR_PREFIX)
    for method in _REGISTRY["methods"]
    if method.startswith(_TENSOR_PREFIX)
)
FORBIDDEN_MODULES = tuple(f"{module}." for module in _REGISTRY["modules"])
# Public re-exports of functions from those modules (mindspore.set_context, ...).
FORBIDDEN_REEXPORTS: dict[str, str] = dict(_REGISTRY["reexports"])
# Names specific enough to Cells to be reported on any receiver; the others (to, buffers,
# state_dict, ...) only on self or a sub-Cell, since other objects have methods of those names.
CELL_ONLY_NAMES = frozenset(
    {
        "trainable_params", "untrainable_params", "get_parameters", "parameters_dict",
        "parameters_broadcast_dict", "parameters_and_names", "cells_and_names",
    }
) | {name for name in FORBIDDEN_CELL_METHODS if name.startswith("register_")}
FORBIDDEN_INSTEAD = "call it in __init__ (or outside the Cell) and keep the result as an attribute"
CLASSMETHOD_INSTEAD = "a @staticmethod, or a module-level function"
SHARD_WHY = "a parallel strategy is set only outside compiled code"
SHARD_INSTEAD = "call shard once outside the compiled code (in __init__, or on the Cell before it runs)"
MOVE_TO_WHY = "copying a tensor to another device is PyNative's"
MOVE_TO_INSTEAD = "move the input before calling the Cell, or leave placement to the graph"
PARAMETER_HOOK_WHY = "a hook on a Parameter is registered only outside compiled code"
PARAMETER_HOOK_INSTEAD = "register the hook outside the compiled code (in __init__, or before the Cell runs), or on the tensor computed from the Parameter"
SECOND_HOOK_WHY = "'%s' has a hook already (line %s), and the graph takes one per tensor"
SECOND_HOOK_INSTEAD = "one hook function that does the work of both"


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    """A bare except, or one naming ImportError, ModuleNotFoundError or Exception."""
    if handler.type is None:
        return True
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        isinstance(name, ast.Name) and name.id in IMPORT_ERRORS for name in names
    )


def _imports_from_mindspore(stmt: ast.AST, name: str) -> bool:
    """Whether the statement is ``from mindspore[.common[.api]] import <name>`` (absolute)."""
    return (
        isinstance(stmt, ast.ImportFrom) and stmt.level == 0
        and stmt.module in REMOVED_FROM_MODULES and any(alias.name == name for alias in stmt.names)
    )


class JitApiFamily(Family):
    name = "jit-api"

    # `from mindspore import ms_function`, `@ms.ms_function`: the module no longer imports.
    def visit_module(self, module: ModuleInfo, ctx: CellContext) -> None:
        if REMOVED_FUNCTION_NAME not in (module.source.text or ""):
            return  # no mention, no use: spare the walk of the whole module
        fallbacks = self._version_fallbacks(module)
        for node in module.nodes(module.tree):
            if _imports_from_mindspore(node, REMOVED_FUNCTION_NAME):
                if id(node) in fallbacks:
                    continue
                ctx.report("removed-ms-function", node, f"from {node.module} import ms_function",
                           MS_FUNCTION_INSTEAD)
            elif isinstance(node, ast.Attribute) and ctx.qualify(node) in REMOVED_QUALIFIED:
                ctx.report("removed-ms-function", node, ast.unparse(node), MS_FUNCTION_INSTEAD)

    def _version_fallbacks(self, module: ModuleInfo) -> set[int]:
        """ids of ``from mindspore import ms_function`` imports that only run on an old MindSpore:
        in the ``except`` of a ``try`` that imports jit, or in the branch of an ``if`` whose other
        branch imports jit (``if is_ms_version_2(): ... else: ...``). On 2.6+ the jit import
        succeeds (or the version test picks it) and the fallback line never runs (seen in the
        mindcv and mindocr wheels: 10 false alarms in the audit, docs/audit.md)."""
        fallbacks: set[int] = set()
        for node in module.nodes(module.tree):
            if isinstance(node, ast.Try):
                if self._imports_jit(node.body):
                    for handler in node.handlers:
                        fallbacks.update(self._ms_function_imports(handler.body))
                # try the old name first, fall back to jit: the ImportError is caught
                if any(
                    self._imports_jit(handler.body) and _catches_import_error(handler)
                    for handler in node.handlers
                ):
                    fallbacks.update(self._ms_function_imports(node.body))
            elif isinstance(node, ast.If):
                if self._imports_jit(node.body):
                    fallbacks.update(self._ms_function_imports(node.orelse))
                if self._imports_jit(node.orelse):
                    fallbacks.update(self._ms_function_imports(node.body))
        return fallbacks

    @staticmethod
    def _imports_jit(body: list[ast.stmt]) -> bool:
        """Whether the statements themselves import jit from MindSpore."""
        return any(_imports_from_mindspore(stmt, "jit") for stmt in body)

    @staticmethod
    def _ms_function_imports(body: list[ast.stmt]) -> set[int]:
        return {id(stmt) for stmt in body if _imports_from_mindspore(stmt, REMOVED_FUNCTION_NAME)}

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if forbidden := self._forbidden_name(node, ctx):
            ctx.report("jit-forbidden-api", node, forbidden, FORBIDDEN_INSTEAD)
        elif (owner := self._classmethod_owner(node, ctx)) is not None:
            ctx.report("classmethod-call", node, ast.unparse(node.func), owner.name,
                       CLASSMETHOD_INSTEAD)
        elif (refused := self._graph_refused(node, ctx)) is not None:
            ctx.report("graph-refused-api", node, ast.unparse(node.func), *refused)

    # `y.register_hook(f)` twice among a compiled function's own statements
    def visit_Expr(self, node: ast.Expr, ctx: FunctionContext) -> None:
        name = _hooked_name(node)
        body = ctx.function.node.body
        if name is None or body.__class__ is not list or node not in body:
            return
        if ctx.qualify(node.value.func.value) is not None:
            return  # a module's function, not a tensor's hook
        for earlier in reversed(body[:body.index(node)]):
            if _hooked_name(earlier) == name:
                ctx.report("graph-refused-api", node.value, ast.unparse(node.value.func),
                           SECOND_HOOK_WHY % (name, earlier.lineno), SECOND_HOOK_INSTEAD)
                return
            if name in _bound_names(earlier) or hasattr(earlier, "body"):
                return  # a new value, or a new block after an if, a loop or a with

    # ----- graph-refused ---------------------------------------------------------------------

    def _graph_refused(self, node: ast.Call, ctx: FunctionContext) -> tuple[str, str] | None:
        """(why, what instead) for a call of MindSpore API the graph compiler refuses: shard (the
        function, or a Cell's method), Tensor.move_to, Parameter.register_hook."""
        qualified = ctx.qualify(node.func)
        if qualified is not None:
            return (SHARD_WHY, SHARD_INSTEAD) if qualified in GRAPH_REFUSED_FUNCTIONS else None
        if not isinstance(node.func, ast.Attribute):
            return None
        method, receiver = node.func.attr, node.func.value
        if method in GRAPH_REFUSED_CELL_METHODS and self._is_cell(receiver, ctx, method):
            return SHARD_WHY, SHARD_INSTEAD
        if method in GRAPH_REFUSED_TENSOR_METHODS and ctx.kinds.is_tensor(receiver):
            return MOVE_TO_WHY, MOVE_TO_INSTEAD
        if method in GRAPH_REFUSED_PARAMETER_METHODS and _holds_parameter(receiver, ctx):
            return PARAMETER_HOOK_WHY, PARAMETER_HOOK_INSTEAD
        return None

    # ----- jit-forbidden ---------------------------------------------------------------------

    def _forbidden_name(self, node: ast.Call, ctx: FunctionContext) -> str | None:
        """MindSpore's name of the forbidden API the call reaches, or None."""
        qualified = ctx.qualify(node.func)
        if qualified is not None:
            qualified = FORBIDDEN_REEXPORTS.get(qualified, qualified)
            return qualified if qualified.startswith(FORBIDDEN_MODULES) else None
        if not isinstance(node.func, ast.Attribute):
            return None
        method, receiver = node.func.attr, node.func.value
        if method in FORBIDDEN_TENSOR_METHODS and not ctx.is_self(receiver):
            return f"Tensor.{method}"
        if method in FORBIDDEN_CELL_METHODS | CELL_METHODS_FAILING_THROUGH:
            if self._is_cell(receiver, ctx, method) or (
                method in CELL_ONLY_NAMES and self._may_be_cell(receiver, ctx)
            ):
                return f"Cell.{method}"
        return None

    def _is_cell(self, receiver: ast.expr, ctx: FunctionContext, method: str) -> bool:
        """self (unless the project's class defines the method itself) or a sub-Cell of self."""
        if ctx.is_self(receiver):
            cls = ctx.cell or ctx.owner
            return (
                cls is not None
                and ctx.model.is_cell(cls)
                and ctx.model.find_method(cls, method) is None
            )
        if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value) and ctx.owner:
            sub = held_class(ctx, receiver.attr)
            if sub is not None:
                return ctx.model.is_cell(sub) and ctx.model.find_method(sub, method) is None
            built_from = held_call_names(ctx, receiver.attr)
            return bool(built_from) and all(
                name and is_mindspore_cell_name(name) for name in built_from)
        return False

    def _may_be_cell(self, receiver: ast.expr, ctx: FunctionContext) -> bool:
        """Anything but a module, a project class, or a held project object that is no Cell."""
        if ctx.qualify(receiver) is not None:
            return False
        if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value) and ctx.owner:
            held = held_class(ctx, receiver.attr)
            return held is None or ctx.model.is_cell(held)
        return True

    # ----- classmethods ----------------------------------------------------------------------

    def _classmethod_owner(self, node: ast.Call, ctx: FunctionContext) -> ClassInfo | None:
        """The project class whose classmethod this call invokes, through self, type(self),
        self.__class__, the class's name or an object held in self."""
        if not isinstance(node.func, ast.Attribute):
            return None
        cls = self._receiver_class(node.func.value, ctx)
        found = ctx.model.find_method(cls, node.func.attr) if cls is not None else None
        if found is not None and is_classmethod(found[1]):
            return found[0]
        return None

    def _receiver_class(self, receiver: ast.expr, ctx: FunctionContext) -> ClassInfo | None:
        if ctx.is_self(receiver) or self._is_type_of_self(receiver, ctx):
            return ctx.cell or ctx.owner
        if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value) and ctx.owner:
            return held_class(ctx, receiver.attr)
        return class_at(ctx, receiver)

    @staticmethod
    def _is_type_of_self(receiver: ast.expr, ctx: FunctionContext) -> bool:
        if isinstance(receiver, ast.Attribute) and receiver.attr == "__class__":
            return ctx.is_self(receiver.value)
        return (
            isinstance(receiver, ast.Call)
            and ctx.qualify(receiver.func) == "builtins.type"
            and len(receiver.args) == 1
            and ctx.is_self(receiver.args[0])
        )


def _hooked_name(statement: ast.stmt) -> str | None:
    """``y`` for the statement ``y.register_hook(f)``."""
    call = statement.value if statement.__class__ is ast.Expr else None
    if (call.__class__ is ast.Call and call.func.__class__ is ast.Attribute
            and call.func.attr == TENSOR_HOOK_METHOD and call.func.value.__class__ is ast.Name):
        return call.func.value.id
    return None


def _bound_names(statement: ast.stmt) -> set[str]:
    """Names a statement binds (assignments, loops, withs, nested definitions)."""
    return {node.id for node in ast.walk(statement)
            if node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load} | {
        node.name for node in ast.walk(statement)
        if node.__class__ in (ast.FunctionDef, ast.ClassDef)}


def _holds_parameter(receiver: ast.expr, ctx: FunctionContext) -> bool:
    """A Parameter of the Cell or of a sub-Cell, or a local name every assignment of which is one."""
    if receiver.__class__ is ast.Name:
        if ctx.qualify(receiver) is not None:
            return False
        values = ctx.values.assigned_values(receiver.id)
        return bool(values) and all(
            value is not None and is_parameter_attribute(ctx, value) for value in values)
    return is_parameter_attribute(ctx, receiver)
