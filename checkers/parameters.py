"""Parameters changed the host way inside compiled code, and in-place initialisers without kernels.

`Parameter.set_data` and setting a Parameter's Python attributes (`requires_grad`, `name`) are
host-side operations, reported in construct (`ops.assign` updates a Parameter in the graph).
PyTorch's in-place initialisers (`uniform_`, `normal_`, `zero_`, ...) are Tensor methods with no
CPU kernel. What the compiler does at each level is in msgraphlint/knowledge/rules/parameters.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext

from msgraphlint.model.attributes import is_parameter_attribute, may_be_tensor_receiver
from msgraphlint.knowledge.mindspore import INPLACE_INITIALISERS

SET_DATA_INSTEAD = "ops.assign"


class ParametersFamily(Family):
    name = "parameters"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if not isinstance(node.func, ast.Attribute):
            return
        if not may_be_tensor_receiver(ctx, node.func.value):
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

    def _is_parameter(self, node: ast.expr, ctx: FunctionContext) -> bool:
        return is_parameter_attribute(ctx, node)
