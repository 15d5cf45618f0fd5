"""PyTorch habits that MindSpore tensors and Cells do not understand.

``x.size(0)`` (size is an int property in MindSpore), ``x.cuda()`` / ``x.cpu()`` / ``x.to(device)``
(placement is global, set with mindspore.set_device) and ``x.detach()`` (ops.stop_gradient) in
compiled code, and a Cell that defines ``forward`` but no ``construct``. Tensor methods PyTorch and
MindSpore share (``permute``, ``view``, ``numel``, ``item``, ``to(dtype)``, ...) are left alone.
What the compiler does at each level is in msgraphlint/knowledge/rules/pytorch_habits.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import CellContext, Family, FunctionContext
from msgraphlint.model.attributes import held_call_names
from msgraphlint.syntax.project import ClassInfo
from msgraphlint.model.compiled import is_static
from msgraphlint.values.interpret import is_known
from msgraphlint.knowledge.mindspore import CELL_CLASS, all_mindspore_layers, is_loss_function

DEVICE_METHODS = frozenset({"cuda", "cpu"})
# Parameter attributes of MindSpore's layers: `self.fc.weight` is a tensor even though the value
# model only knows the Parameters a project Cell creates itself.
# `x.to(self.device)`: the PyTorch idiom names the device in a variable or attribute.
DEVICE_NAME_HINT = "device"
DEVICE_CONSTRUCTORS = frozenset({"torch.device"})
DELETE_THE_CALL = "delete the call (choose the device once with mindspore.set_device)"
# move-to-tensor-device's case: the moved tensor is passed to a MindSpore layer or loss, which
# (2.10, LAX) rejects the graph or, for some dtypes, compiles it with a zero gradient.
INTO_LAYER = "into-layer"


class PytorchHabitsFamily(Family):
    name = "pytorch-habits"

    # ----- tensor methods ------------------------------------------------------------------

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        if func.attr == "transpose":
            self.transpose_pair(node, func, ctx)
        if not ctx.kinds.is_input_or_weight(func.value):
            return
        receiver = ast.unparse(func.value)
        spelled = ast.unparse(node)
        if func.attr == "size":
            ctx.report("tensor-size-call", node, spelled, size_replacement(node, receiver))
        elif func.attr == "detach" and not node.args:
            ctx.report("detach-call", node, spelled, receiver)
        elif func.attr in DEVICE_METHODS and not node.args:
            ctx.report("device-move-call", node, spelled, DELETE_THE_CALL)
        elif func.attr == "to" and (device := device_argument(node)) is not None:
            if names_tensor_device(device, ctx):
                ctx.report("move-to-tensor-device", node, spelled, to_replacement(node, func.value),
                           case=INTO_LAYER if feeds_mindspore_layer(node, ctx) else "")
            elif names_device(device, ctx):
                ctx.report("device-move-call", node, spelled, to_replacement(node, func.value))

    def transpose_pair(self, node: ast.Call, func: ast.Attribute, ctx: FunctionContext) -> None:
        """``x.transpose(0, 1)``: PyTorch's swap of two dimensions, which a graph binds as the
        whole permutation ``(*axes)``. Reported where the pair is the identity of a 2-D tensor's
        axes (the result is silently unchanged), or where the graph must reject it (no 2-D
        permutation, or a rank the model knows is not 2); a 2-D swap such as (1, 0) agrees."""
        values = [ctx.evaluation.value(argument) for argument in node.args]
        pair = [v.value for v in values if is_known(v) and type(v.value) is int]
        if len(pair) != 2 or len(node.args) != 2 or node.keywords or not ctx.kinds.is_tensor(func.value):
            return
        rank = ctx.rank(func.value)
        on_two_dims = [axis % 2 for axis in pair] if all(-2 <= axis <= 1 for axis in pair) else None
        instead = f"{ast.unparse(func.value)}.swapaxes({pair[0]}, {pair[1]})"
        if on_two_dims is None or on_two_dims[0] == on_two_dims[1] or (rank is not None and rank != 2):
            ctx.report("transpose-pair-as-permutation", node, ast.unparse(node), instead, case="rejected")
        elif on_two_dims == [0, 1]:
            ctx.report("transpose-pair-as-permutation", node, ast.unparse(node), instead)

    # ----- Cells ---------------------------------------------------------------------------

    def visit_cell(self, cls: ClassInfo, ctx: CellContext) -> None:
        forward = cls.methods.get("forward")
        if forward is None or ctx.model.find_method(cls, "construct") is not None:
            return
        if is_static(forward):
            # `@staticmethod forward(ctx, ...)`: a torch.autograd.Function port used through
            # `.apply`, never called as a Cell; renaming it to construct would not fix it.
            return
        # `__call__` overridden somewhere: the class routes calls itself, forward may be intended.
        if ctx.model.find_method(cls, "__call__") is not None:
            return
        if has_foreign_base(cls, ctx):
            return
        ctx.report("forward-without-construct", forward, cls.name)


def size_replacement(node: ast.Call, receiver: str) -> str:
    if not node.args:
        return f"{receiver}.shape"
    return f"{receiver}.shape[{ast.unparse(node.args[0])}]"


def feeds_mindspore_layer(node: ast.Call, ctx: FunctionContext) -> bool:
    """The call's result reaches, directly or through a local name, an argument of a MindSpore
    layer (``self.loss = nn.MSELoss()``, then ``self.loss(a, b)``) or loss function."""
    return any(_is_mindspore_layer(call.func, ctx) for call in _consumers(node, ctx))


def _consumers(node: ast.expr, ctx: FunctionContext) -> list[ast.Call]:
    """The calls the value is passed to: directly, through a method on it (``labels.view(-1)``)
    or through the local name it is bound to."""
    parent = ctx.values.parent(node)
    while isinstance(parent, ast.Attribute) and isinstance(
            call := ctx.values.parent(parent), ast.Call) and call.func is parent:
        node, parent = call, ctx.values.parent(call)  # a tensor method keeps the tensor
    if isinstance(parent, ast.keyword):
        parent = ctx.values.parent(parent)
    if isinstance(parent, ast.Call) and parent.func is not node:
        return [parent]
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(
            name := parent.targets[0], ast.Name):
        uses = [load for load in ast.walk(ctx.function.node)
                if isinstance(load, ast.Name) and load.id == name.id
                and isinstance(load.ctx, ast.Load) and load.lineno > parent.lineno]
        return [call for use in uses for call in _consumers(use, ctx)]
    return []


def _is_mindspore_layer(func: ast.expr, ctx: FunctionContext) -> bool:
    """``self.loss`` built from a MindSpore Cell class, a local ``loss_fct = MSELoss()`` (every
    binding one), or a MindSpore loss function."""
    if isinstance(func, ast.Attribute) and ctx.is_self(func.value):
        built = held_call_names(ctx, func.attr)
    elif isinstance(func, ast.Name) and (values := ctx.values.assigned_values(func.id)):
        built = {ctx.qualify(v.func) if isinstance(v, ast.Call) else None for v in values}
    else:
        return is_loss_function(ctx.qualify(func) or "")
    return all_mindspore_layers(built)


def names_device(expr: ast.expr, ctx: FunctionContext) -> bool:
    match expr:
        case ast.Constant(value=str()):
            return True
        case ast.Name(id=name) | ast.Attribute(attr=name) if DEVICE_NAME_HINT in name.lower():
            return True
        case ast.Call(func=func):
            return ctx.qualify(func) in DEVICE_CONSTRUCTORS
    return False


def device_argument(node: ast.Call) -> ast.expr | None:
    """What `x.to(...)` is given as a device: `device=...`, else its first argument (which may
    be a dtype: `x.to(ms.float16)` is a cast, told apart by the callers)."""
    keyword = next((k.value for k in node.keywords if k.arg == "device"), None)
    return keyword if keyword is not None else (node.args[0] if node.args else None)


def names_tensor_device(device: ast.expr, ctx: FunctionContext) -> bool:
    """`other.device` of a tensor: read through the interpreter at LAX, rejected at STRICT."""
    return isinstance(device, ast.Attribute) and device.attr == "device" and ctx.kinds.is_input_or_weight(device.value)


def to_replacement(node: ast.Call, receiver: ast.expr) -> str:
    """`x.to(device, dtype)` also casts: keep that part, on the receiver as it must be written
    (`(a != 0).astype(t)`, never `a != 0.astype(t)`)."""
    dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
    if dtype is None and len(node.args) > 1:
        dtype = node.args[1]
    if dtype is None:
        return DELETE_THE_CALL
    spelled = ast.unparse(receiver)
    if not isinstance(receiver, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)):
        spelled = f"({spelled})"
    return f"keep only the cast: {spelled}.astype({ast.unparse(dtype)})"


def has_foreign_base(cls: ClassInfo, ctx: CellContext) -> bool:
    """A base outside the project other than nn.Cell (nn.Dense, a library Cell) may define
    construct; we cannot see it, so we do not claim it is missing."""
    for klass in ctx.model.mro(cls):
        if len(klass.base_names) != len(klass.node.bases):
            return True  # a base that is not a plain name (a call, a subscript): unknown
        for base in klass.base_names:
            if base != CELL_CLASS and ctx.model.resolve_class(base, klass.module) is None:
                return True
    return False

