"""Parameters changed the host way inside compiled code, and in-place initialisers without kernels.

`Parameter.set_data` and setting a Parameter's Python attributes (`requires_grad`, `name`) are
host-side operations, reported in construct (`ops.assign` updates a Parameter in the graph).
PyTorch's in-place initialisers (`uniform_`, `normal_`, `zero_`, ...) are Tensor methods with no
CPU kernel. What the compiler does at each level is in msgraphlint/knowledge/rules/parameters.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext

from msgraphlint.model.attributes import held_object_class, is_parameter_attribute
from msgraphlint.knowledge.mindspore import INPLACE_INITIALISERS

SET_DATA_INSTEAD = "ops.assign"


class ParametersFamily(Family):
    name = "parameters"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if not isinstance(node.func, ast.Attribute):
            return
        if not self._may_be_tensor(node.func.value, ctx):
            return
        method = node.func.attr
        spelled = ast.unparse(node.func)
        if method == "set_data":
            ctx.report("parameter-set-data", node, spelled, SET_DATA_INSTEAD)
        elif method in INPLACE_INITIALISERS:
            ctx.report("inplace-random-init", node, spelled, INPLACE_INITIALISERS[method])

    def visit_Assign(self, node: ast.Assign, ctx: FunctionContext) -> None:
        for target in node.targets:
            self._check_parameter_attribute(target, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: FunctionContext) -> None:
        self._check_parameter_attribute(node.target, ctx)

    def _check_parameter_attribute(self, target: ast.expr, ctx: FunctionContext) -> None:
        if isinstance(target, ast.Attribute) and self._is_parameter(target.value, ctx):
            ctx.report("parameter-attribute-set", target, ast.unparse(target))

    def _may_be_tensor(self, receiver: ast.expr, ctx: FunctionContext) -> bool:
        """set_data and the in-place initialisers are Tensor/Parameter names; the receivers that
        can have a method of that name of their own are excluded."""
        if ctx.is_self(receiver):
            return False  # the Cell's own method, followed by the scope model
        if ctx.qualify(receiver) is not None:
            return False  # a module or class: `nn.init.uniform_(w)` and the like
        return held_object_class(ctx, receiver) is None  # a project object's own method

    def _is_parameter(self, node: ast.expr, ctx: FunctionContext) -> bool:
        return is_parameter_attribute(ctx, node)
