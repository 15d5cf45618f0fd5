"""Plain Python objects and Cell attributes used as state inside compiled code.

The graph compiler understands Cells, Parameters, @jit_class objects and constants. The family
reports a plain project class (neither a Cell nor a @jit_class) made to hold a tensor or to change
its own state, a Cell attribute that is not a Parameter assigned in construct or read back from
there into tensor maths, an attribute of a sub-Cell assigned there, and a @jit_class instance
created from a tensor.

What the compiler does at each level is in msgraphlint/knowledge/rules/custom_types.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.model.attributes import (
    attribute_assignments,
    class_at,
    held_call_names,
    held_class,
    held_object_class,
    is_plain_class,
    mindspore_base_parameters,
    mutates_self,
)
from msgraphlint.knowledge.mindspore import (
    CELL_CLASS, NON_PARAMETER_CALLS, PRIMITIVE_NAMESPACE, all_mindspore_layers,
    is_mindspore_cell_name, is_tensor_function,
)
from msgraphlint.syntax.qualnames import canonical
from msgraphlint.syntax.project import ModuleInfo, flatten_targets
from msgraphlint.model.branches import nodes_in_loops
from msgraphlint.model.compiled import FunctionNode, Target
from msgraphlint.model.reach import ReachModel

ASSIGN_INSTEAD = "ops.assign on a Parameter(requires_grad=False)"
HOLDER_INSTEAD = "a tuple of tensors, a nn.Cell, or a Parameter updated with ops.assign"
JIT_CLASS_INSTEAD = "a method of an instance built from constants"
STATE_INSTEAD = "a local variable, or a Parameter updated with ops.assign"
SUB_CELL_INSTEAD = "pass the value to the sub-Cell's construct as an argument, or set it in __init__"


# ----- the family ----------------------------------------------------------------------------


class CustomTypesFamily(Family):
    name = "custom-types"

    # Box(x): a plain or @jit_class object created from a tensor
    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if self._check_instantiation(node, ctx):
            return
        self._check_held_object_call(node, ctx)
        self._check_item_change(node, ctx)

    def _check_instantiation(self, node: ast.Call, ctx: FunctionContext) -> bool:
        cls = class_at(ctx, node.func)
        if cls is None:
            return False
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if not any(ctx.is_variable(argument) for argument in arguments):
            return True  # built from constants: evaluated once while compiling
        spelled = ast.unparse(node)
        if any(ctx.model.is_jit_class(c) for c in ctx.model.mro(cls)):
            ctx.report("jit-class-variable-init", node, spelled, JIT_CLASS_INSTEAD)
        elif is_plain_class(ctx.model, cls):
            ctx.report("custom-object-with-tensor", node, spelled, cls.name, HOLDER_INSTEAD)
        return True

    def _check_held_object_call(self, node: ast.Call, ctx: FunctionContext) -> None:
        """self.meter.add(x) where meter is a plain object and add() assigns its attributes."""
        if not isinstance(node.func, ast.Attribute):
            return
        cls = held_object_class(ctx, node.func.value)
        if cls is None or not is_plain_class(ctx.model, cls):
            return
        found = ctx.model.find_method(cls, node.func.attr)
        if found is None or found[1].decorator_list or not mutates_self(*found):
            # Reading a held object's constant state compiles at every level; decorated methods
            # (properties, classmethods, staticmethods) have no plain `self` to judge by.
            return
        spelled = ast.unparse(node.func)
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if any(ctx.is_variable(argument) for argument in arguments):
            ctx.report("custom-object-with-tensor", node, spelled, cls.name, HOLDER_INSTEAD)
        else:
            ctx.report("custom-object-mutation", node, spelled, cls.name, ASSIGN_INSTEAD)

    # self.steps += 1: Cell state that is not a Parameter
    def visit_Assign(self, node: ast.Assign, ctx: FunctionContext) -> None:
        for target in node.targets:
            self._check_attribute_target(target, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: FunctionContext) -> None:
        self._check_attribute_target(node.target, ctx)

    def visit_AnnAssign(self, node: ast.AnnAssign, ctx: FunctionContext) -> None:
        if node.value is not None:
            self._check_attribute_target(node.target, ctx)

    def _check_attribute_target(self, target: ast.expr, ctx: FunctionContext) -> None:
        for element in flatten_targets(target):
            if self._sub_cell_attribute(element, ctx):
                ctx.report("sub-cell-attribute-assign", element, ast.unparse(element),
                           element.value.attr, SUB_CELL_INSTEAD)
                continue
            if isinstance(element, ast.Subscript):
                element = _self_attribute_under(element)  # self.cache[k] = v changes self.cache
                if element is None:
                    continue
            if (
                isinstance(element, ast.Attribute)
                and ctx.is_self(element.value)
                and self._is_cell_state(element.attr, ctx)
            ):
                ctx.report("non-parameter-attribute-assign", element, element.attr, ASSIGN_INSTEAD)

    # self.items[0].append(v): changes the attribute in place, as an item assignment does
    def _check_item_change(self, node: ast.Call, ctx: FunctionContext) -> None:
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr in LIST_CHANGING_METHODS
                and isinstance(func.value, ast.Subscript)):
            return
        element = _self_attribute_under(func.value)
        if element is not None and ctx.is_self(element.value) and self._is_cell_state(element.attr, ctx):
            ctx.report("non-parameter-attribute-assign", element, element.attr, ASSIGN_INSTEAD)

    def _sub_cell_attribute(self, element: ast.expr, ctx: FunctionContext) -> bool:
        """``self.<child>.<attr>`` where every value ``self.<child>`` is given is a Cell: the
        project's own, or one MindSpore ships."""
        if not (isinstance(element, ast.Attribute) and isinstance(element.value, ast.Attribute)
                and ctx.is_self(element.value.value) and ctx.owner is not None):
            return False
        child = element.value.attr
        if (cls := held_class(ctx, child)) is not None:
            return ctx.model.is_cell(cls)
        return all_mindspore_layers(held_call_names(ctx, child))

    def _is_cell_state(self, attr: str, ctx: FunctionContext) -> bool:
        """A Cell attribute that is certainly not a Parameter."""
        if ctx.owner is None or not ctx.model.is_cell(ctx.owner):
            return False
        if attr in ctx.values.parameter_attrs:
            return False  # `self.w = self.w + x` on a Parameter updates graph state: fine
        if attr in mindspore_base_parameters(ctx.model, ctx.owner):
            return False  # a Parameter a MindSpore base makes (nn.Adam's beta1_power)
        values = attribute_assignments(ctx).get(attr, [])
        if not values and _mindspore_base_beyond_cell(ctx):
            return False  # made by a MindSpore base class (nn.Adam's beta1_power): unknown
        # A value we cannot see through (a constructor argument, a helper's result) may be a
        # Parameter: stay silent rather than guess.
        return all(_is_certainly_not_parameter(value, module) for module, value in values)

    # if not self.ready: ... self.ready = True: a branch LAX decides once, while compiling
    def visit_If(self, node: ast.If, ctx: FunctionContext) -> None:
        if _is_cache_hit(node, ctx) or not self._tests_only_state(node.test, ctx):
            return
        reported: set[str] = set()
        for read in ast.walk(node.test):
            if (isinstance(read, ast.Attribute) and isinstance(read.ctx, ast.Load)
                    and read.attr not in reported and self._is_graph_state(read, ctx)
                    and _assigned_only_after(read.attr, node, ctx)):
                reported.add(read.attr)
                ctx.report("branch-on-state-assigned-later", read, read.attr, STATE_INSTEAD)

    def _tests_only_state(self, test: ast.expr, ctx: FunctionContext) -> bool:
        """A test of graph state against constants alone (``not self.ready``,
        ``self.steps > 0``, ``self.cache is None``): one with anything else in it (``self.training``,
        a local, a call) was decided at run time in the probes (``self.rescaled == (not
        self.training)`` followed the assigned value)."""
        for node in ast.walk(test):
            if isinstance(node, ast.Attribute):
                if not self._is_graph_state(node, ctx):
                    return False
            elif isinstance(node, ast.Name):
                if not ctx.is_self(node):
                    return False
            elif not isinstance(node, (ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp,
                                       ast.boolop, ast.cmpop, ast.unaryop, ast.expr_context)):
                return False
        return True

    # x * self.steps: that state read back into a tensor value
    def visit_BinOp(self, node: ast.BinOp, ctx: FunctionContext) -> None:
        for operand, other in ((node.left, node.right), (node.right, node.left)):
            if (self._is_graph_state(operand, ctx) and ctx.is_variable(other)
                    and (case := _read_case(operand, ctx)) != MEMO):
                ctx.report("non-parameter-state-read", operand, operand.attr, STATE_INSTEAD,
                           case=case)

    def visit_Return(self, node: ast.Return, ctx: FunctionContext) -> None:
        values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
        for value in values:
            if (value is not None and self._is_graph_state(value, ctx)
                    and (case := _read_case(value, ctx)) != MEMO):
                ctx.report("non-parameter-state-read", value, value.attr, STATE_INSTEAD,
                           case=case)

    def _is_graph_state(self, node: ast.expr, ctx: FunctionContext) -> bool:
        """self.<attr> where the target's compiled code assigns attr and it is Cell state."""
        if not (isinstance(node, ast.Attribute) and ctx.is_self(node.value)):
            return False
        if node.attr not in graph_assignments(ctx):
            return False
        return self._is_cell_state(node.attr, ctx)


MEMO = "memo"


def _assigned_only_after(attr: str, branch: ast.If, ctx: FunctionContext) -> bool:
    """Whether the branch tests the value ``self.<attr>`` had when the graph was compiled, and
    the assignments compiled code makes would change what it decides. Probed with 2.10 at LAX: a
    test before the assignment in the same function took the first call's branch on every call
    (a flag, a counter, a toggle, a tensor assigned after the branch), and so did a test in one
    function with the assignment in another, whichever ran first (a helper called before or after
    the assignment, construct testing what a method it calls sets); a test after the assignment
    in the same function, or a conditional expression, followed the assigned value. An
    assignment inside the branch itself counts when it sets a constant beside other work: a
    tensor memo read back later (``if self.cache is None: self.cache = x``) ran as PyNative does,
    and a branch that only sets a constant changes nothing when it runs again."""
    function = ctx.function.node
    if id(branch) in nodes_in_loops(ctx.module, function):
        return False
    assigned = graph_assignments(ctx).get(attr, [])
    here = [value for where, value in assigned if where is function]
    return bool(assigned) and _after(here, branch, attr) and not _keeps_its_first_value(
        attr, [value for _, value in assigned], ctx)


def _after(assigned: list[ast.expr], branch: ast.If, attr: str) -> bool:
    inside = {id(n) for n in ast.walk(branch)}
    branch_end = branch.end_lineno or branch.lineno
    for value in assigned:
        if id(value) in inside:
            if not isinstance(value, ast.Constant) or _only_sets(branch, attr):
                return False
        elif value.lineno <= branch_end:
            return False
    return True


def _is_cache_hit(branch: ast.If, ctx: FunctionContext) -> bool:
    """``if self.cached is not None: return self.cached``: a cache the branch hands back. LAX
    decides the test once and recomputes on every call, which gives the same value (mindone's
    rotary embeddings), so nothing is lost."""
    tested = {node.attr for node in ast.walk(branch.test)
              if isinstance(node, ast.Attribute) and ctx.is_self(node.value)}
    body = branch.body
    return (len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None
            and any(isinstance(node, ast.Attribute) and ctx.is_self(node.value) and node.attr in tested
                    for node in ast.walk(body[0].value)))


def _only_sets(branch: ast.If, attr: str) -> bool:
    """A branch whose body only assigns the attribute: running it again changes nothing."""
    return all(isinstance(statement, ast.Assign) and all(
        isinstance(target, ast.Attribute) and target.attr == attr for target in statement.targets)
        for statement in branch.body) and not branch.orelse


def _keeps_its_first_value(attr: str, assigned: list[ast.expr], ctx: FunctionContext) -> bool:
    """Every value compiled code assigns is the constant __init__ gave: the test never changes."""
    if ctx.owner is None:
        return False
    initial = [value for klass in ctx.model.mro(ctx.owner)
               for name, value in klass.method_self_assignments.get("__init__", ()) if name == attr]
    constants = [*initial, *assigned]
    return bool(initial) and all(isinstance(value, ast.Constant) for value in constants) and len(
        {repr(value.value) for value in constants}) == 1


def _read_case(read: ast.Attribute, ctx: FunctionContext) -> str:
    """"stale" when this function, on every call and before the read, assigns the attribute a
    tensor (`self.cache = x * 2` then `self.cache + x`): LAX keeps the first call's value.
    MEMO when it assigns it under a test of the attribute itself (`if self.cache is None:`): a
    deliberate memo, which LAX ran as PyNative does (2.10), so there is nothing to say at LAX
    (non-parameter-attribute-assign reports what STRICT does)."""
    for statement in ctx.function.node.body:
        if statement.lineno >= read.lineno:
            break
        if isinstance(statement, ast.Assign) and ctx.is_variable(statement.value) and any(
            _names_attribute(target, read.attr, ctx) for target in statement.targets
        ):
            return "stale"
        if isinstance(statement, ast.If) and _tests_attribute(statement.test, read.attr, ctx):
            if any(isinstance(inner, ast.Assign)
                   and any(_names_attribute(t, read.attr, ctx) for t in inner.targets)
                   for inner in ast.walk(statement)):
                return MEMO
    return ""


def _names_attribute(target: ast.expr, attr: str, ctx: FunctionContext) -> bool:
    return any(isinstance(element, ast.Attribute) and ctx.is_self(element.value)
               and element.attr == attr for element in flatten_targets(target))


def _tests_attribute(test: ast.expr, attr: str, ctx: FunctionContext) -> bool:
    return any(isinstance(node, ast.Attribute) and ctx.is_self(node.value) and node.attr == attr
               for node in ast.walk(test))


def graph_assignments(ctx: FunctionContext) -> dict[str, list[tuple[FunctionNode, ast.expr]]]:
    """attr -> (function, value) of every ``self.<attr> = value`` in a Cell method the target's
    compiled code runs, once per target."""
    model, target = ctx.model, ctx.function.target
    return model.memo(model.table("custom_types.graph_assigned"), id(target),
                      lambda: _graph_assignments(model, target))


def _graph_assignments(model: ReachModel, target: Target) -> dict[str, list[tuple[FunctionNode, ast.expr]]]:
    found: dict[str, list[tuple[FunctionNode, ast.expr]]] = {}
    for compiled in model.reach(target):
        if compiled.owner is not None and model.is_cell(compiled.owner):
            for attr, value in compiled.owner.method_self_assignments.get(compiled.node.name, ()):
                found.setdefault(attr, []).append((compiled.node, value))
    return found


def _is_certainly_not_parameter(value: ast.expr, module: ModuleInfo) -> bool:
    match value:
        case ast.Constant() | ast.List() | ast.Tuple() | ast.Dict() | ast.Set():
            return True
        case ast.ListComp() | ast.DictComp() | ast.SetComp() | ast.GeneratorExp():
            return True
        case ast.UnaryOp(operand=operand):
            return _is_certainly_not_parameter(operand, module)
        case ast.BinOp(left=left, right=right):
            return _is_certainly_not_parameter(left, module) and _is_certainly_not_parameter(
                right, module
            )
        case ast.Call(func=func):
            qualified = module.imports.qualify(func) or ""
            # numpy, a tensor function of ops, mint or mindspore.numpy, a primitive: never a
            # Parameter (mint.nn's Cells are not judged here)
            return (qualified in NON_PARAMETER_CALLS or qualified.startswith("numpy.")
                    or is_tensor_function(qualified) or qualified.startswith(PRIMITIVE_NAMESPACE))
    return False


# In-place changes of a list held in an item of a Cell attribute (seen failing at STRICT, 2.10).
LIST_CHANGING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "reverse", "clear"})


def _self_attribute_under(node: ast.expr) -> ast.Attribute | None:
    """``self.attr`` at the base of ``self.attr[i][j]``; None for any other base."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) else None


def _mindspore_base_beyond_cell(ctx: FunctionContext) -> bool:
    """Whether self's classes derive from a MindSpore Cell other than nn.Cell itself (an
    optimizer, TrainOneStepCell): attributes the project never assigns may be its Parameters."""
    return any(is_mindspore_cell_name(base) and canonical(base) != CELL_CLASS
               for cls in ctx.model.self_classes(ctx.function) for base in cls.base_names)
