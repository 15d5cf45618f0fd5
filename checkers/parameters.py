"""Parameters changed the host way inside compiled code, in-place initialisers without kernels,
and Parameters a construction leaves sharing one name.

`Parameter.set_data` and setting a Parameter's Python attributes (`requires_grad`, `name`) are
host-side operations, reported in construct (`ops.assign` updates a Parameter in the graph).
PyTorch's in-place initialisers (`uniform_`, `normal_`, `zero_`, ...) are Tensor methods with no
CPU kernel. An init hook that gives the sub-Cells of the outermost Cell new Parameters leaves
them one bare name (model/parameter_names.py), which a gradient over them cannot compile with;
two Cells that nothing attaches name their Parameters alike, and a Cell reading both sets in
compiled code cannot compile.
What the compiler does at each level is in msgraphlint/knowledge/rules/parameters.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import CellContext, Family, FunctionContext

from msgraphlint.model.attributes import is_parameter_attribute, may_be_tensor_receiver
from msgraphlint.model.compiled import first_parameter
from msgraphlint.model.parameter_names import parameters_collected_apart, shared_parameter_names
from msgraphlint.knowledge.mindspore import INPLACE_INITIALISERS
from msgraphlint.syntax.project import ClassInfo

SET_DATA_INSTEAD = "ops.assign"
# How the Parameters came to share their name, and the fix, for each way (duplicate-parameter-name).
HOOK_NAME = ("a Parameter put on a sub-Cell after it is attached keeps that bare name",
             "keep the Parameter and change its data (cell.weight.set_data(...)), or name it after"
             " the one it replaces (name=cell.weight.name)")
OWN_NAME = ("a name= given to a Parameter of the Cell itself is kept",
            "give each Parameter its own name, or leave name= out (its attribute names it)")


class ParametersFamily(Family):
    name = "parameters"

    def visit_cell(self, cls: ClassInfo, ctx: CellContext) -> None:
        for shared in shared_parameter_names(ctx.model, cls):
            paths = [path or cls.name for path in shared.paths]
            shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
            line = shared.node.lineno
            where = ("" if shared.at is shared.node else f" by line {line}"
                     if shared.module is ctx.module else f" by {shared.module.path.name}:{line}")
            if shared.assuming:
                assumed = list(dict.fromkeys(shared.assuming))
                where += f", built with its default{'s' * (len(assumed) > 1)} {', '.join(assumed)}"
            how, fix = OWN_NAME if shared.own else HOOK_NAME
            ctx.report("duplicate-parameter-name", shared.at, cls.name, shared.name, shown + where,
                       how, shared.name, fix)
        apart = parameters_collected_apart(ctx.model, cls)
        if apart:
            read = _read_by_compiled_code(cls, ctx)
            for pair in apart:
                attrs = [pair.first.targets[0].attr, pair.second.targets[0].attr]
                if all(attr in read for attr in attrs):
                    ctx.report("parameters-of-unattached-cells", pair.second, *attrs, pair.kind,
                               pair.built, pair.kind)

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


def _read_by_compiled_code(cls: ClassInfo, ctx: CellContext) -> set[str]:
    """The attributes of ``self`` that the class's compiled methods read."""
    read: set[str] = set()
    for compiled in ctx.model.compiled_functions(ctx.module):
        if compiled.owner is not cls or (self_name := first_parameter(compiled.node)) is None:
            continue
        read.update(node.attr for node in ctx.module.nodes(compiled.node)
                    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)
                    and isinstance(node.value, ast.Name) and node.value.id == self_name)
    return read
