"""Operations the graph compiler folds while compiling, and that fail there.

MindSpore evaluates Python operations on compile-time constants while it compiles: ``1 + "a"``,
``int("abcd")``, ``[1, 2].pop(4)``, ``range(0.5)``, ``(2, 3).shape``. Where Python rejects such an
operation, the compiler rejects the graph with the same error, at every syntax level, before
anything runs; an int ``**`` past int64 is folded wrapped around, without a word. Type inference
checks the sequences ``mutable()`` makes dynamic-length the same way: one element type, and no
builtin that needs their length. The values come from the engine's interpreter
(msgraphlint.values.interpret): a failure is reported only where every operand is known. What
the compiler does at each level is in msgraphlint/knowledge/rules/constants.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.engine.findings import shown
from msgraphlint.knowledge.catalogue import tensor_attribute_names
from msgraphlint.values.domain import (
    is_array_value, is_sequence_value, is_tensor_value, is_variable_scalar,
)
from msgraphlint.values.interpret import evaluation, is_known, kind_name
from msgraphlint.knowledge.mindspore import HOST_COPY_METHODS, PARTIAL_FUNCTIONS
from msgraphlint.model.compiled import bind_arguments, is_static
from msgraphlint.values.kinds import FunctionView

# Every attribute a Tensor or Parameter has in graph mode (msgraphlint/knowledge/data/tensor_attributes.toml).
TENSOR_ATTRIBUTES = tensor_attribute_names()
# The graph's lists, tuples, dicts and strings have the methods of Python's and, in 2.10, one more
# (the compiler's method table maps list_append ... list_extend and dict_get, dict_haskey as
# has_key, dict_clear, dict_update, dict_fromkeys); dunder names are the compiler's business.
CONTAINER_TYPES = frozenset({"list", "tuple", "dict", "str"})
GRAPH_CONTAINER_METHODS = frozenset({"has_key"})

OPERATION_INSTEAD = {
    "TypeError": "operands of the types the operation takes (convert with int(), str(), tuple())",
    "IndexError": "an index within the constant's length",
    "KeyError": "a key the constant has",
    "ValueError": "a value the operation accepts",
    "ZeroDivisionError": "a divisor that is not zero",
    "RuntimeError": "a shift that keeps the result within int64",
}
# What a MindSpore operation folded on constants takes (its failure names the operation).
OPERATION_INSTEAD_FOR = {
    "tuple_div": "tuples of one length of int64 numbers, without a zero divisor",
    "map": "lists or tuples of one kind and one length (zip them to one length first)",
    "format": "the Cell's attribute itself (\"value is {}\".format(cell.x))",
}
ATTRIBUTE_INSTEAD = "an attribute that %s has"
ARITY_INSTEAD = "the arguments the builtin takes"
STRING_INSTEAD = "a tuple of the characters (('a', 'b', 'c')) or the length as a literal"
JOIN_INSTEAD = "ops.logical_and / ops.logical_or on tensors of one dtype, or an explicit if"
BOOL_INSTEAD = "(x != 0).any() or .all() to say which truth is meant"
TENSOR_ATTRIBUTE_INSTEAD = "a Tensor method or attribute (msgraphlint explain tensor-attribute-error)"
HOST_COPY_INSTEAD = "the numpy value itself, built outside construct, or the tensor"
DYNAMIC_SEQUENCE_INSTEAD = "elements of one type (int(v), float(v)), or a constant-length sequence (mutable(seq) without True)"
DYNAMIC_LENGTH_INSTEAD = {
    "builtin": "a for loop over the sequence (or over range(len(seq)))",
    "extend": "append in a loop, or + with a sequence of the same element type",
    "keyword": "mutable(x, True): dynamic_len positional",
    "empty": "a sequence that is not empty, or a check of len() first",
}
PARTIAL_INSTEAD = "each parameter given once: the rest positionally, or by the names the partial left open"
SLICE_INSTEAD = "int bounds (int(n), len(t) // 2) or None, and a step other than zero (-1 to reverse)"
SLICED_KINDS = (tuple, list)  # constants of these kinds the interpreter folds itself
SEQUENCE_OPERATOR_INSTEAD = "the operator on the tensors themselves (zip the sequences; ops.logical_and, ops.bitwise_and), or + to concatenate"
CONCATENATION_INSTEAD = "one kind of sequence on both sides: list(t) + l, or t + tuple(l)"
# Operators Python does not define between two lists or tuples (probed with 2.10: each refused at
# STRICT and LAX on sequences of tensors; @ fails otherwise, in MatMul).
SEQUENCE_REFUSED = {
    ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
    ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>",
}
OPERAND_INSTEAD = "a number for the operand (a default of 0, not None), or a test for None before it"
ARRAY_OPERAND_INSTEAD = "a Tensor of the array (Tensor(a), or built in __init__)"
# Arithmetic the graph has no implementation of between a run-time value and a str or None
# (probed with 2.10: refused at STRICT, TypeError at LAX, for each of these operators).
ARITHMETIC = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
              ast.Mod: "%", ast.Pow: "**"}
UNPACK_INSTEAD = {
    "call": "a tuple, list or dict to unpack (ops.unstack(t) for a tensor's rows), or the value itself as one argument",
    "dict": "a dict to merge ({**d}), or dict(zip(keys, values)) for pairs",
    "display": "a tuple or list to unpack, or the value itself as one element",
}
# What the graph's unpacking refuses, by the kind of the value unpacked (probed with 2.10 and 2.7,
# STRICT and LAX alike): `*x` and `**x` in a call take a tuple, list or dict only (UnpackCall);
# `**x` in a dict display a dict only; `*x` in a tuple or list display or an assignment target
# refuses a scalar or None ("'int64' object is not iterable") and a 0-d tensor (Unstack).
CALL_UNPACK_REFUSED = frozenset({"an int", "a float", "a bool", "None", "a str", "a tensor", "a 0-d tensor"})
DICT_UNPACK_REFUSED = frozenset({"an int", "a float", "a bool", "None", "a str", "a tuple", "a list",
                                 "a tensor", "a 0-d tensor"})
DISPLAY_UNPACK_REFUSED = frozenset({"an int", "a float", "a bool", "None", "a 0-d tensor"})
WRAPS_INSTEAD = "exponents that keep every step within int64 (2 ** (64 - 62), not 2 ** 64 // 2 ** 62) or a float power (2.0 ** n)"


class ConstantsFamily(Family):
    name = "constants"

    def visit_function(self, function: ast.FunctionDef | ast.AsyncFunctionDef, ctx: FunctionContext):
        dead = ctx.unevaluated
        found = evaluation(ctx.model, ctx.function)
        for node, attr in found.tensor_lookups:
            if id(node) in dead:
                continue
            receiver = node.value if isinstance(node, ast.Attribute) else node.args[0]
            if attr not in TENSOR_ATTRIBUTES:
                ctx.report("tensor-attribute-error", node, shown(node), attr, TENSOR_ATTRIBUTE_INSTEAD)
            elif attr in HOST_COPY_METHODS and _constant_tensor(found.value(receiver)):
                ctx.report("host-copy-of-constant-tensor", node, shown(node), HOST_COPY_INSTEAD)
        for failure in found.failures:
            if id(failure.node) in dead:
                continue
            problem = f"{failure.error}: {failure.detail}" if failure.detail else failure.error
            if failure.kind == "join":
                ctx.report("tensor-bool-operator-join", failure.node, shown(failure.node), failure.detail,
                           JOIN_INSTEAD)
            elif failure.kind == "tensor-bool":
                ctx.report("multi-element-tensor-as-bool", failure.node, shown(failure.node),
                           failure.detail, BOOL_INSTEAD)
            elif failure.kind == "wraps":
                ctx.report("constant-power-overflow", failure.node, shown(failure.node),
                           failure.detail, WRAPS_INSTEAD)
            elif failure.kind == "string-length":
                ctx.report("string-length-at-strict", failure.node, shown(failure.node), STRING_INSTEAD)
            elif failure.kind == "arity":
                ctx.report("builtin-arity-error", failure.node, shown(failure.node), failure.detail,
                           ARITY_INSTEAD)
            elif failure.kind == "dynamic-sequence":
                ctx.report("mixed-types-in-dynamic-sequence", failure.node, shown(failure.node),
                           f"fails ({problem})", DYNAMIC_SEQUENCE_INSTEAD)
            elif failure.kind == "dynamic-length":
                ctx.report("dynamic-length-unsupported", failure.node, shown(failure.node),
                           f"fails ({problem})", DYNAMIC_LENGTH_INSTEAD[failure.subject])
            elif failure.kind == "attribute":
                if failure.subject in CONTAINER_TYPES and (
                        failure.attribute in GRAPH_CONTAINER_METHODS or failure.attribute.startswith("__")):
                    continue  # a method the graph gives containers of its own
                ctx.report("constant-attribute-error", failure.node, shown(failure.node), problem,
                           ATTRIBUTE_INSTEAD % f"a {failure.subject}")
            else:
                instead = OPERATION_INSTEAD_FOR.get(failure.subject) or OPERATION_INSTEAD.get(
                    failure.error, OPERATION_INSTEAD["TypeError"])
                ctx.report("constant-operation-error", failure.node, shown(failure.node), problem,
                           instead)

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        twice = _partial_given_twice(node, ctx)
        if twice is not None:
            ctx.report("partial-argument-given-twice", node, shown(node), *twice, PARTIAL_INSTEAD)
        unpacked = [("*", a.value) for a in node.args if a.__class__ is ast.Starred]
        unpacked += [("**", k.value) for k in node.keywords if k.arg is None]
        for star, value in unpacked:
            kind = _unpacked_kind(value, ctx)
            if kind in CALL_UNPACK_REFUSED:
                ctx.report("unpack-non-sequence", node, shown(node), f"{star}{shown(value)}", kind,
                           "a call's arguments (a tuple, list or dict only)", UNPACK_INSTEAD["call"])
                return

    def visit_Dict(self, node: ast.Dict, ctx: FunctionContext) -> None:
        for key, value in zip(node.keys, node.values):
            kind = _unpacked_kind(value, ctx) if key is None else None
            if kind in DICT_UNPACK_REFUSED:
                ctx.report("unpack-non-sequence", node, shown(node), f"**{shown(value)}", kind,
                           "a dict's items (a dict only)", UNPACK_INSTEAD["dict"])
                return

    def visit_Starred(self, node: ast.Starred, ctx: FunctionContext) -> None:
        if node.ctx.__class__ is not ast.Load or ctx.values.parent(node).__class__ not in (ast.Tuple, ast.List):
            return  # a call's (visit_Call), or a target's (visit_Assign)
        kind = _unpacked_kind(node.value, ctx)
        if kind in DISPLAY_UNPACK_REFUSED:
            display = ctx.values.parent(node)
            ctx.report("unpack-non-sequence", display, shown(display), shown(node), kind,
                       "a sequence's elements", UNPACK_INSTEAD["display"])

    def visit_Assign(self, node: ast.Assign, ctx: FunctionContext) -> None:
        if not any(t.__class__ in (ast.Tuple, ast.List) and any(e.__class__ is ast.Starred for e in t.elts)
                   for t in node.targets):
            return
        kind = _unpacked_kind(node.value, ctx)
        if kind in DISPLAY_UNPACK_REFUSED:
            ctx.report("unpack-non-sequence", node, shown(node), shown(node.value), kind,
                       "a starred target (a sequence only)", UNPACK_INSTEAD["display"])

    def visit_Subscript(self, node: ast.Subscript, ctx: FunctionContext) -> None:
        problem = _slice_problem(node.slice, ctx)
        if problem is None or not _sliceable(node.value, ctx):
            return
        if any(failure.node is node for failure in ctx.evaluation.failures):
            return  # folded and reported as constant-operation-error
        ctx.report("invalid-slice", node, shown(node), problem, SLICE_INSTEAD)

    def visit_BinOp(self, node: ast.BinOp, ctx: FunctionContext) -> None:
        self._check_operand_types(node, ctx)
        if node.op.__class__ is ast.Add:
            kinds = [kind_name(ctx.evaluation.value(side)) for side in (node.left, node.right)]
            if set(kinds) == {"a list", "a tuple"} and _result_used(node, ctx) and not any(
                    f.node is node for f in ctx.evaluation.failures):
                ctx.report("sequence-operator-error", node, shown(node), f"'+' ({kinds[0]} and {kinds[1]})",
                           CONCATENATION_INSTEAD)
            return
        symbol = SEQUENCE_REFUSED.get(node.op.__class__)
        if symbol is None or not (_sequence(node.left, ctx) and _sequence(node.right, ctx)):
            return
        if not _result_used(node, ctx) or any(f.node is node for f in ctx.evaluation.failures):
            return  # dropped at LAX; or folded and reported as constant-operation-error
        ctx.report("sequence-operator-error", node, shown(node), f"'{symbol}'", SEQUENCE_OPERATOR_INSTEAD)

    def _check_operand_types(self, node: ast.BinOp, ctx: FunctionContext) -> None:
        symbol = ARITHMETIC.get(node.op.__class__)
        if symbol is None:
            return
        left, right = _run_time_kind(node.left, ctx), _run_time_kind(node.right, ctx)
        other = _str_or_none(node.right, ctx) if left else _str_or_none(node.left, ctx) if right else None
        if other is None or (symbol == "%" and other == "a str" and right):
            return  # nothing known, or a str formatted with %
        first, second = (left, other) if left else (other, right)
        ctx.report("operand-type-error", node, shown(node), symbol, first, second,
                   ARRAY_OPERAND_INSTEAD if other == "a numpy array" else OPERAND_INSTEAD)


def _unpacked_kind(expr: ast.expr, ctx: FunctionContext) -> str | None:
    """What is unpacked with * or **, as the interpreter knows it (``an int``, ``a tensor``), or
    a tensor as the engine knows it; None where not known."""
    kind = kind_name(ctx.evaluation.value(expr))
    if kind is None and ctx.kinds.is_tensor(expr):
        return "a tensor"
    return kind


def _run_time_kind(expr: ast.expr, ctx: FunctionContext) -> str | None:
    """'a tensor' or 'an int decided at run time' for an operand whose value only the run gives."""
    value = ctx.evaluation.value(expr)
    if is_variable_scalar(value):
        return f"a{'n' if value.kind is int else ''} {value.kind.__name__} decided at run time"
    if ctx.kinds.is_tensor(expr) or is_tensor_value(value):
        return "a tensor"
    return None


def _str_or_none(expr: ast.expr, ctx: FunctionContext) -> str | None:
    """'a str', 'None' or 'a numpy array' for an operand known while compiling to be one."""
    value = ctx.evaluation.value(expr)
    if is_array_value(value):
        return "a numpy array"  # no graph implementation either (probed with 2.10: Add, Mul)
    if is_known(value):
        data = value.value
    elif expr.__class__ is ast.Constant:  # a literal, where the function is not interpreted
        data = expr.value
    else:
        return None
    return "a str" if data.__class__ is str else "None" if data is None else None


def _sequence(expr: ast.expr, ctx: FunctionContext) -> bool:
    """A list or tuple of a known length, as the interpreter knows it."""
    value = ctx.evaluation.value(expr)
    return is_sequence_value(value) or (is_known(value) and value.value.__class__ in SLICED_KINDS)


def _result_used(node: ast.expr, ctx: FunctionContext) -> bool:
    """Whether anything may read the operation's result: not a statement of its own, nor bound
    to a name the function never reads."""
    parent = ctx.values.parent(node)
    if parent.__class__ is ast.Expr:
        return False
    if parent.__class__ is ast.Assign and all(t.__class__ is ast.Name for t in parent.targets):
        names = {t.id for t in parent.targets}
        return any(n.__class__ is ast.Name and n.id in names and n.ctx.__class__ is ast.Load
                   for n in ctx.module.nodes(ctx.function.node))
    return True


def _slice_problem(index: ast.expr, ctx: FunctionContext) -> str | None:
    """What makes the compiler refuse the slice: a bound that is a str or a float, a step of
    zero; only from values known while compiling."""
    if index.__class__ is ast.Slice:
        parts = [None if p is None else ctx.evaluation.value(p) for p in (index.lower, index.upper, index.step)]
        for name, part in zip(("start", "stop", "step"), parts):
            kind = kind_name(part) if part is not None else None
            if kind in ("a tuple", "a list"):
                return f"{kind} {name}: slice indices must be scalars, None or tensors"
            if kind in ("a tensor", "a 0-d tensor") and (part.dtype or "").startswith(("float", "bfloat")):
                return f"a {part.dtype} tensor {name}: a tensor slice index must be of int or bool type"
        bounds = [p.value if p is not None and is_known(p) else _UNSEEN for p in parts]
    else:
        value = ctx.evaluation.value(index)
        if not (is_known(value) and value.value.__class__ is slice):
            return None
        bounds = [value.value.start, value.value.stop, value.value.step]
    for name, bound in zip(("start", "stop", "step"), bounds):
        if bound.__class__ in (str, float):
            return f"a {bound.__class__.__name__} {name} ({bound!r}): slice indices must be integers or bool"
    if bounds[2].__class__ is int and bounds[2] == 0:
        return "a step of zero"
    return None


_UNSEEN = object()


def _sliceable(value: ast.expr, ctx: FunctionContext) -> bool:
    """A tensor, tuple or list, as the engine knows it."""
    if ctx.kinds.is_tensor(value):
        return True
    known = ctx.evaluation.value(value)
    return is_sequence_value(known) or is_tensor_value(known) or (
        is_known(known) and known.value.__class__ in SLICED_KINDS)


def _partial_given_twice(call: ast.Call, ctx: FunctionContext) -> tuple[str, str] | None:
    """(parameter, wrapped function) when ``call`` calls a partial whose arguments and the
    call's give one parameter both a positional and a keyword argument: a partial built in this
    function, or, for a parameter, the one every compiled caller passes."""
    func = call.func
    if func.__class__ is ast.Name and func.id in _own_parameters(ctx.function.node):
        if func.id in ctx.values.bound or not ctx.function.callers:
            return None  # rebound in the function, or a root's input
        found = set()
        for caller, edge in ctx.function.callers:
            passed = dict(bind_arguments(edge.call, edge.node, edge.binds_self)).get(func.id)
            view = FunctionView(ctx.model, caller)
            partial = _partial_built(passed, view) if passed is not None else None
            twice = _binding_given_twice(partial, call, view) if partial is not None else None
            if twice is None:
                return None  # a caller passes something else, or a partial this call fits
            found.add(twice)
        return found.pop() if len(found) == 1 else None
    partial = _partial_built(func, ctx)
    return _binding_given_twice(partial, call, ctx) if partial is not None else None


def _partial_built(expr: ast.expr, scope) -> ast.Call | None:
    """The ``partial(fn, ...)`` call that ``expr`` is, in the function ``scope`` views: written in
    place, or the one value of a local name."""
    if expr.__class__ is ast.Name and expr.id in scope.values.local_names:
        assigned = scope.values.assigned_values(expr.id)
        if len(assigned) != 1:
            return None
        expr = assigned[0]
    if expr.__class__ is ast.Call and expr.args and scope.qualify(expr.func) in PARTIAL_FUNCTIONS:
        return expr
    return None


def _binding_given_twice(partial: ast.Call, call: ast.Call, scope) -> tuple[str, str] | None:
    found = _wrapped_function(partial.args[0], scope)
    if found is None:
        return None
    function, binds_self, label = found
    twice = _given_twice(function, binds_self, partial, call)
    return (twice, label) if twice is not None else None


def _wrapped_function(expr: ast.expr, scope):
    """(function, whether it binds self, how the message names it) for what a partial wraps: a
    method of the Cell (``self.show``), a function the enclosing functions define, or a function
    of the project; None otherwise."""
    model, module, compiled = scope.model, scope.module, scope.function
    if expr.__class__ is ast.Attribute and scope.is_self(expr.value):
        cls = compiled.target.cell or compiled.owner
        if cls is None or any(expr.attr in c.self_assignments for c in model.mro(cls)):
            return None  # an attribute holding some function (self.show = lambda ...)
        found = model.find_method(cls, expr.attr)
        if found is None or found[1].decorator_list and not is_static(found[1]):
            return None  # a property, or a decorated method: not this signature
        return found[1], not is_static(found[1]), f"self.{expr.attr}"
    if expr.__class__ is not ast.Name:
        return None
    if expr.id in scope.values.local_names:
        if expr.id not in scope.values.nested_functions or len(scope.values.bound.get(expr.id, ())) != 1:
            return None  # bound otherwise, or more than once
        local = module.local_definitions(compiled.node).get(expr.id)
        return (local, False, expr.id) if _plain_function(local) else None
    local = module.visible_definition(expr.id, module.scope_of(compiled.node))
    if local is not None:
        return (local, False, expr.id) if _plain_function(local) else None
    qualified = scope.qualify(expr)
    resolved = model.project.resolve(qualified) if qualified else None
    if resolved is None:
        return None
    found_in, member = resolved
    function = found_in.functions.get(member)
    return (function, False, expr.id) if _plain_function(function) else None


def _own_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    args = function.args
    return frozenset(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])


def _plain_function(node: ast.AST | None) -> bool:
    return node.__class__ is ast.FunctionDef and not node.decorator_list


def _given_twice(function: ast.FunctionDef, binds_self: bool, partial: ast.Call,
                 call: ast.Call) -> str | None:
    """The parameter that the partial's and the call's arguments together give both a positional
    and a keyword argument, where every argument can be counted."""
    positional = [*partial.args[1:], *call.args]
    keywords = [*partial.keywords, *call.keywords]
    if any(a.__class__ is ast.Starred for a in positional) or any(k.arg is None for k in keywords):
        return None
    every = [*function.args.posonlyargs, *function.args.args]
    if binds_self and not every:
        return None
    named = {k.arg for k in keywords}
    only_positional = {p.arg for p in function.args.posonlyargs}
    for parameter in every[1 if binds_self else 0:][: len(positional)]:
        if parameter.arg in named and parameter.arg not in only_positional:
            return parameter.arg
    return None


def _constant_tensor(value: object) -> bool:
    return is_tensor_value(value) and value.constant
