"""Host copies of tensors in compiled code: ``x.asnumpy()``, ``x.numpy()``, ``x.tolist()``.

Reported on a tensor value, on a Parameter, and (as a rule of its own) in a Cell with a custom
``bprop``, whose gradient does not come from automatic differentiation through the copy.
What the compiler does at each level is in msgraphlint/knowledge/rules/gradient.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.mindspore import HOST_COPY_METHODS

# Methods that numpy arrays share with tensors: on an array the copy has already been reported.
ARRAY_METHODS_TOO = frozenset({"tolist"})
TENSOR_REPLACEMENT = "Tensor methods and mindspore.ops (x.item() for a Python scalar)"
PARAMETER_REPLACEMENT = "the Parameter itself as a tensor, and asnumpy() outside construct"


class GradientFamily(Family):
    name = "gradient"

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in HOST_COPY_METHODS:
            return
        if node.args or node.keywords:
            return  # Tensor.asnumpy/numpy/tolist take no arguments: this is something else
        if is_bprop_graph(ctx):
            return  # bprop is not differentiated; host copies in it compiled at every level
        receiver = func.value
        spelled = f"{ast.unparse(func)}()"
        if is_parameter(receiver, ctx):
            ctx.report("asnumpy-on-parameter", node, spelled, PARAMETER_REPLACEMENT)
            return
        if not ctx.is_variable(receiver):
            return  # a constant (or not a tensor at all): no gradient to lose
        if func.attr in ARRAY_METHODS_TOO and ctx.is_host(receiver):
            return  # numpy's own tolist() of a host copy: x.asnumpy().tolist()
        if has_custom_bprop(ctx):
            ctx.report("asnumpy-under-bprop", node, spelled, TENSOR_REPLACEMENT)
        else:
            ctx.report("asnumpy-in-graph", node, spelled, TENSOR_REPLACEMENT,
                       case=copy_case(node, ctx))


def copy_case(node: ast.Call, ctx: FunctionContext) -> str:
    """The shape of a host copy whose consequence is not the rule's default (gradient.toml):
    ``[... for v in x.tolist()]`` is rejected; ``return loss.asnumpy()`` from a root that plain
    Python only calls (never differentiates) is harmless at LAX."""
    parents = ctx.module.parents(ctx.function.node)
    parent = parents.get(id(node))
    if isinstance(parent, ast.comprehension) and parent.iter is node and node.func.attr == "tolist":
        return "comprehension"
    if isinstance(parent, ast.Tuple):
        parent = parents.get(id(parent))
    if (isinstance(parent, ast.Return) and ctx.returns_to_python(parent)
            and ctx.model.driver_calls(ctx.function.target) is not None):
        return "returned"
    return ""


def is_bprop_graph(ctx: FunctionContext) -> bool:
    target = ctx.function.target
    return target.kind == "cell" and target.node.name == "bprop"


def has_custom_bprop(ctx: FunctionContext) -> bool:
    """The construct being compiled belongs to a Cell that (or whose base) defines bprop.

    A jit-decorated method of such a Cell is its own graph, differentiated normally.
    """
    target = ctx.function.target
    if target.kind != "cell" or ctx.cell is None:
        return False
    return ctx.model.find_method(ctx.cell, "bprop") is not None


def is_parameter(receiver: ast.expr, ctx: FunctionContext) -> bool:
    """``self.weight`` set to a Parameter in __init__, or a local name only ever bound to one."""
    parameters = ctx.values.parameter_attrs
    if isinstance(receiver, ast.Attribute):
        return ctx.is_self(receiver.value) and receiver.attr in parameters
    if isinstance(receiver, ast.Name):
        values = bound_values(receiver.id, ctx)
        return bool(values) and all(
            isinstance(value, ast.Attribute)
            and ctx.is_self(value.value)
            and value.attr in parameters
            for value in values
        )
    return False


def bound_values(name: str, ctx: FunctionContext) -> list[ast.expr]:
    """Values assigned to a plain name anywhere in the function (flow-insensitive)."""
    return [value for value in ctx.values.bound.get(name, ()) if value is not None]
