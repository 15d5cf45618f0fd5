"""Cells, primitives and Parameters created inside compiled code.

The compiler builds a Cell or primitive met in ``construct`` once, while compiling, by running its
``__init__`` in Python. The family tells apart one built from constants (advice: create it in
``__init__``), one built from an argument computed from the inputs, a layer with weights (never
trained, one random initialisation frozen into the graph) and a ``Parameter`` created there.
What the compiler does at each level is in msgraphlint/knowledge/rules/cell_construction.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.mindspore import (
    FIXED_INIT_LAYERS, NOT_PRIMITIVES, PARAMETER_CLASSES, PRIMITIVE_NAMESPACE, WEIGHTED_LAYERS,
    is_mindspore_layer_class,
)
from msgraphlint.syntax.project import ClassInfo, ModuleInfo
from msgraphlint.model.reach import ReachModel


class CellConstructionFamily(Family):
    name = "cell-construction"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified is None:
            return
        spelled = ast.unparse(node.func) + ("(...)" if node.args or node.keywords else "()")
        if qualified in PARAMETER_CLASSES:
            ctx.report("parameter-created-in-construct", node, spelled)
            return
        is_cell = self._is_cell(qualified, ctx)
        if not is_cell and not is_primitive(qualified):
            return
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        if any(ctx.is_variable(argument) for argument in arguments):
            # Primitives differ (ops.HShrink(lambd=tensor) compiles, ops.Softmax(axis=tensor)
            # does not): unsure, no report. In helpers, a parameter is a variable only when a
            # compiled caller passes one (the scope model propagates constants into helpers).
            if is_cell:
                ctx.report("cell-created-with-tensor-args", node, spelled)
            return
        if is_cell and has_weights(qualified, ctx.module, ctx.model):
            # Weights that start from fixed values are no random draw to freeze.
            fixed = last_name(qualified) in FIXED_INIT_LAYERS and not any(
                (keyword.arg or "").endswith("_init") for keyword in node.keywords)
            symbol = "untrained-layer-in-construct" if fixed else "weighted-cell-created-in-construct"
            ctx.report(symbol, node, spelled)
        else:
            ctx.report("cell-created-in-construct", node, spelled)

    @staticmethod
    def _is_cell(qualified: str, ctx: FunctionContext) -> bool:
        if is_mindspore_layer_class(qualified):
            return True
        cls = ctx.model.resolve_class(qualified, ctx.module)
        return cls is not None and ctx.model.is_cell(cls)


def last_name(qualified: str) -> str:
    return qualified.rsplit(".", 1)[-1]


def is_capitalised(name: str) -> bool:
    return name[:1].isupper()


def is_primitive(qualified: str) -> bool:
    name = last_name(qualified)
    return (
        qualified.startswith(PRIMITIVE_NAMESPACE)
        and is_capitalised(name)
        and name not in NOT_PRIMITIVES
    )


def has_weights(qualified: str, near: ModuleInfo, model: ReachModel) -> bool:
    """A MindSpore layer with Parameters, or a project Cell that creates Parameters or such
    layers (itself, in a project base, or through project Cells it creates)."""
    return _has_weights(qualified, near, model, seen=set())


def _has_weights(qualified: str, near: ModuleInfo, model: ReachModel, seen: set[int]) -> bool:
    if is_mindspore_layer_class(qualified):
        return last_name(qualified) in WEIGHTED_LAYERS
    cls = model.resolve_class(qualified, near)
    if cls is None or id(cls) in seen:
        return False
    seen.add(id(cls))  # each project class is looked at once: cycles end
    return any(_creates_weights(klass, model, seen) for klass in model.mro(cls))


def _creates_weights(cls: ClassInfo, model: ReachModel, seen: set[int]) -> bool:
    if any(is_mindspore_layer_class(base) and last_name(base) in WEIGHTED_LAYERS
           for base in cls.base_names):
        return True
    for node in cls.module.nodes(cls.node):
        if isinstance(node, ast.Call) and (created := cls.module.imports.qualify(node.func)):
            if created in PARAMETER_CLASSES or _has_weights(created, cls.module, model, seen):
                return True
    return False
