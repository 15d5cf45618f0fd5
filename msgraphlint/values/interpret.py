"""What the graph compiler knows about values while it compiles: an abstract interpreter.

MindSpore infers a type for every value of a compiled function and folds what is constant:
``a = 1; b = "str"; a + b`` is evaluated while compiling, and fails there with Python's own
TypeError, at every syntax level. This module follows a compiled function's statements in order
with three kinds of value:

- ``Known(value)``: a Python constant the compiler folds (scalars, strings, None, and tuples,
  lists, dicts, slices and ranges of them);
- ``TensorValue``: a tensor (built with ``Tensor(...)`` in the graph, or passed in by a caller),
  with the dtype and shape its construction shows; ``ArrayValue`` likewise for numpy arrays;
- ``VariableSequence`` and ``VariableScalar``: what ``mutable()`` makes, values the graph
  decides at run time (a dynamic-length sequence keeps one element type);
- ``UNKNOWN``: anything else. Precision first: an operation is judged only when every operand
  is known, and a name any branch or loop may change is unknown after it.

``may_fold_something`` is a syntactic over-approximation of where the interpreter can find
anything; the other functions (two thirds of a model zoo's) are not interpreted.

Where Python itself rejects an operation on known values, the failure is recorded with Python's
exception: the compiler folds the same operation and fails the same way (probed with 2.10; see
msgraphlint/knowledge/rules/constants.toml). Work is bounded: sizes of strings, sequences and integers are
capped, and an expression deeper than the cap is not evaluated.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..knowledge.builtin_calls import BUILTIN_ARITY, BUILTIN_CHECKS, PURE_BUILTINS
from ..knowledge.mindspore import TENSOR_CLASS as TENSOR_NAME, VARIABLE_MAKERS
from ..syntax.project import ModuleInfo, bound_names
from ..model.callers import driver_context
from ..model.compiled import CompiledFunction, bind_arguments
from ..model.reach import ReachModel
from ..model.variables import FunctionValues
from .domain import (
    UNKNOWN, ArrayValue, Builtin, Failure, FailureKind, Known, ObjectValue,
    SequenceValue, TensorValue, Value, VariableScalar, VariableSequence, describe_type,
    element_count, element_type, element_types, is_host_value, is_known, is_tensor_value, join,
    join_values, kind_name, known,
)
from .folding import (
    BINARY, CONSTANT_MODULES, INT64_MAX, INT64_MIN, MINDSPORE_CONSTANT_OPERATIONS, NUMPY_BUILDERS,
    arity_refused,
)
from .calls import Calls
from .expressions import Expressions
from .mindspore_operations import MindSporeOperations
from .operations import Operations
from .statements import Statements

# What the engine and the families read from here: the evaluation of a compiled function, and
# the values it holds (values/domain.py).
__all__ = [
    "Evaluation", "evaluation", "taken_error_messages", "may_fold_something", "passed_values",
    "self_attribute_value",
    "UNKNOWN", "ArrayValue", "Builtin", "Failure", "FailureKind", "Known", "ObjectValue",
    "SequenceValue", "TensorValue", "Value", "VariableScalar", "VariableSequence",
    "element_count", "element_type", "element_types", "describe_type", "is_known", "known",
    "kind_name",
]


@dataclass
class Evaluation:
    """The values the compiler folds in one compiled function, and what fails while folding."""

    # id(expr) -> Known / TensorValue / ArrayValue / Builtin (unknown values are left out)
    values: dict[int, Value] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    # (node, attribute) for every attribute read of a value known to be a tensor
    tensor_lookups: list[tuple[ast.AST, str]] = field(default_factory=list)
    # parameter -> the value every call passes it (a root's Python driver), where known
    parameters: dict[str, Value] = field(default_factory=dict)
    # ids of the nodes of the branches whose test this evaluation decides: type inference
    # never evaluates them (the parser still reads them)
    skipped: set[int] = field(default_factory=set)

    def value(self, node: ast.AST) -> Value:
        found = self.values.get(id(node))
        if found is not None:
            return found
        # A literal is what it is, whether or not the function was interpreted.
        return known(node.value) if node.__class__ is ast.Constant else UNKNOWN

    def is_host(self, node: ast.expr | None, variables: FunctionValues) -> bool:
        """The one answer to "is it a host copy of a graph variable?" (``x.asnumpy()``, a list
        built from one): yes where this evaluation made one, no where it knows a tensor or a
        constant there (following the statements: ``h = Tensor(h)`` is a tensor again), else
        as the model of constants and variables says."""
        value = self.value(node) if node is not None else UNKNOWN
        if is_host_value(value):
            return True
        if is_tensor_value(value) or is_known(value):
            return False
        return variables.is_host(node)

    def is_variable(self, node: ast.expr | None, variables: FunctionValues) -> bool:
        """The one answer to "is it decided only when the graph runs?": not where this
        evaluation knows the value while compiling (a constant, following the statements in
        order), else as the model of constants and variables says (``variables``, which also
        knows what is static without knowing its value: ``x.shape``)."""
        if node is not None and is_known(self.value(node)):
            return False
        return variables.is_variable(node)


class Interpreter(Statements, Expressions, Calls, Operations, MindSporeOperations):
    def __init__(self, model: ReachModel, compiled: CompiledFunction) -> None:
        self.model = model
        self.compiled = compiled
        self.module: ModuleInfo = compiled.module
        self.result = Evaluation()
        self._locals: frozenset[str] | None = None
        self.scope = self.module.scope_of(compiled.node)
        self._failed: set[int] = set()
        self._free: dict[str, Value] = {}
        self._self_attributes: dict[str, Value] = {}
        self._self_name: str | None = None
        # How many branches on a type test the interpreter cannot decide (isinstance(t, Sub))
        # enclose the expression being evaluated: the compiler decides them, so the branch may
        # be dead and an attribute read in it proves nothing.
        self.type_guarded = 0

    def run(self) -> Evaluation:
        env: dict[str, Value] = dict(self.parameters())
        self.result.parameters = {name: value for name, value in env.items() if value is not UNKNOWN}
        self.block(self.compiled.node.body, env)
        return self.result

    def parameters(self) -> dict[str, Value]:
        node = self.compiled.node
        args = node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        values: dict[str, Value] = {arg.arg: UNKNOWN for arg in every}
        if self.compiled.is_root:
            target = self.compiled.target
            arguments = self.model.driver_arguments(target)
            lists = self.model.driver_argument_lists(target)
            if arguments or lists:
                context = driver_context(self.model, target)
                for name, expr in arguments.items():
                    values[name] = self.driver_value(expr, context, 0)
                # Calls that pass different tensors (of other shapes): one tensor value.
                for name, given in lists.items():
                    if name not in arguments:
                        values[name] = join([self.driver_value(expr, context, 0) for expr in given])
        else:
            values.update(passed_values(self.model, self.compiled))
        return values


def taken_error_messages(model: ReachModel, compiled: CompiledFunction) -> frozenset[int]:
    """The nodes of the error messages (``ReachModel.error_messages``) whose raise the values
    the interpreter knows take: ``foo(Tensor([1]))`` with ``if not isinstance(paddings, (tuple,
    list)): raise TypeError(f"... {type(paddings)}")`` builds the message, and what it does is
    judged like any compiled code (STRICT rejects the f-string on a variable: probed)."""
    messages = model.error_messages(compiled)
    if not messages:
        return frozenset()
    found = evaluation(model, compiled)
    taken: set[int] = set()
    for node in compiled.module.nodes(compiled.node):
        if node.__class__ is ast.If and id(node) in messages and found.value(node.test) == Known(True):
            taken |= messages[id(node)]
    return frozenset(taken)


def passed_values(model: ReachModel, compiled: CompiledFunction) -> dict[str, Value]:
    """The parameters of a helper whose value every compiled call agrees on, in the callers'
    own evaluations (a driver's input handed on: ``forward(self, x)`` from construct): one
    tensor value (dtype and shape where every call agrees), or the same constant, list or
    tuple shape, or object. MindSpore compiles the helper for each call; a value the calls
    disagree on is left unknown."""
    if not compiled.callers:
        return {}
    pending = model.table("evaluations pending")
    passed: dict[str, list[Value]] = {}
    for caller, edge in compiled.callers:
        if id(caller) in pending:
            return {}  # a cycle: what it passes is not known yet
        known = evaluation(model, caller)
        for param, argument in bind_arguments(edge.call, edge.node, edge.binds_self):
            passed.setdefault(param, []).append(known.value(argument))
    found = {}
    for param, given in passed.items():
        if len(given) == len(compiled.callers) and (joined := join_values(given)) is not None:
            found[param] = joined
    return found


def evaluation(model: ReachModel, compiled: CompiledFunction) -> Evaluation:
    """The folded values of a compiled function (computed once per run); an empty one where
    nothing can be folded (``may_fold_something``)."""
    return model.memo(model.evaluations, id(compiled), lambda: _evaluate(model, compiled))


def self_attribute_value(model: ReachModel, compiled: CompiledFunction, attr: str) -> Value:
    """What ``self.<attr>`` is in a compiled function, as the interpreter reads it: also where
    the function is not interpreted (nothing else in it folds). Unknown where ``self`` is a
    parameter a caller passes."""
    if compiled.owner is None or compiled.self_passed:
        return UNKNOWN
    return model.memo(model.table("self attribute values"), (id(compiled), attr),
                      lambda: Interpreter(model, compiled).self_attribute(attr))


def _evaluate(model: ReachModel, compiled: CompiledFunction) -> Evaluation:
    pending = model.table("evaluations pending")  # callers asked for what they pass: no cycle
    pending[id(compiled)] = True
    try:
        if not may_fold_something(model, compiled):
            return Evaluation()
        return Interpreter(model, compiled).run()
    finally:
        pending.pop(id(compiled), None)


OPERATIONS = (ast.BinOp, ast.Compare, ast.UnaryOp, ast.BoolOp, ast.Subscript, ast.Attribute)


# Calls the interpreter builds values from or checks: the pre-filter opens for any of them.
CONSTRUCTOR_QUALNAMES = (frozenset({TENSOR_NAME}) | NUMPY_BUILDERS | frozenset(MINDSPORE_CONSTANT_OPERATIONS)
                         | VARIABLE_MAKERS)


CONSTRUCTOR_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in CONSTRUCTOR_QUALNAMES)  # `Tensor as T`


def may_fold_something(model: ReachModel, compiled: CompiledFunction) -> bool:
    """A syntactic over-approximation of where the interpreter can find anything: a failure needs
    an operation whose every operand is known, or a builtin call, a tensor or array built from
    data, or constants passed in by a caller. Functions with none (most of a model zoo's) are not
    interpreted. Cached with the function's syntax."""
    if compiled.is_root and (model.driver_arguments(compiled.target)
                             or model.driver_argument_lists(compiled.target)):
        return True
    module = compiled.module
    if module.derived("may fold", compiled.node, lambda node: _may_fold(module, node)):
        return True
    return not compiled.is_root and bool(passed_values(model, compiled))


def _may_fold(module: ModuleInfo, function: ast.AST) -> bool:
    nodes = module.body_nodes(function)
    assigned: dict[str, list[ast.expr]] = {}
    calls: list[ast.Call] = []
    for node in nodes:
        cls = node.__class__
        if cls is ast.Call:
            func = node.func
            if func.__class__ is ast.Name:
                if (func.id in CONSTRUCTOR_NAMES or _wrong_count(node)
                        or "attribute_by_name" in BUILTIN_CHECKS.get(func.id, ())
                        or module.imports.names.get(func.id) in CONSTRUCTOR_QUALNAMES):
                    return True
                if func.id in PURE_BUILTINS or "string_length" in BUILTIN_CHECKS.get(func.id, ()):
                    # a builtin on known values: int("wide"), enumerate("abc")
                    calls.append(node)
            elif func.__class__ is ast.Attribute and func.attr in CONSTRUCTOR_NAMES:
                return True
            elif func.__class__ is ast.Attribute and func.attr == "extend" and node.args and (
                    node.args[0].__class__ in (ast.Constant, ast.Dict)):
                return True  # l.extend(3), l.extend("ab"): refused unless a sequence or tensor
        elif cls is ast.Assign:
            for target in node.targets:
                if target.__class__ is ast.Name:
                    assigned.setdefault(target.id, []).append(node.value)
        elif cls is ast.AnnAssign and node.value is not None and node.target.__class__ is ast.Name:
            assigned.setdefault(node.target.id, []).append(node.value)
    positional = [*function.args.posonlyargs, *function.args.args]
    holders = {*CONSTANT_MODULES, *([positional[0].arg] if positional else [])}  # self, sys, math
    # Free names the interpreter may know: the module's constants, and anything an enclosing
    # function binds. Parameters are unknown to it (a root's callers were asked above).
    local = set(bound_names(function.args)) | set(assigned) | {
        n.id for n in nodes if n.__class__ is ast.Name and n.ctx.__class__ is not ast.Load}
    nested = any(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) for d in module.scope_of(function))
    free = {name for name in module.assignments if name not in local}
    constant_names = _constant_names(assigned, holders, free)  # x = LIMIT: known as LIMIT is

    def maybe_constant(node: ast.expr) -> bool:
        cls = node.__class__
        if cls is ast.Constant:
            return True
        if cls is ast.Name:
            return node.id in constant_names or node.id in free or (nested and node.id not in local)
        if cls is ast.Attribute:  # self.scale (set once in __init__), sys.maxsize
            return node.value.__class__ is ast.Name and node.value.id in holders
        if cls in (ast.Tuple, ast.List):
            return all(maybe_constant(e) for e in node.elts)
        # an operation the loop judges on its own, or a builtin's result
        return cls in (ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Slice, ast.Dict, ast.Compare) or (
            cls is ast.Call and node.func.__class__ is ast.Name and node.func.id in BUILTIN_ARITY)

    for call in calls:  # a builtin on known values: int("wide"), range(0, 2.5)
        if call.args and all(maybe_constant(a) for a in call.args):
            return True
    for node in nodes:
        if node.__class__ is ast.For and node.iter.__class__ in (ast.Constant, ast.Name) and (
                maybe_constant(node.iter)):
            return True  # a loop over a known string (or other constant)
        if node.__class__ in NEVER_FAILING:
            continue
        if node.__class__ is ast.Return and node.value.__class__ in (ast.Tuple, ast.List) and any(
                e.__class__ is ast.Name and maybe_constant(e) for e in node.value.elts):
            return True  # `return x, NO_AUX`: a None among the outputs (none-in-output-at-strict)
        if _unpacks(node) is not None and maybe_constant(_unpacks(node)):
            return True  # `*n`, `**n`, `a, *b = n` of a constant: refused unless a sequence (or dict)
        if node.__class__ is ast.Slice and (_may_refuse_slice(node, maybe_constant) or any(
                p is not None and _displayed_sequence(p, assigned) for p in (node.lower, node.upper, node.step))):
            return True  # a str, float or sequence bound, a step that may be zero: refused by make_slice
        if (node.__class__ is ast.BinOp and node.op.__class__ not in (ast.Add, ast.MatMult)
                and _displayed_sequence(node.left, assigned) and _displayed_sequence(node.right, assigned)):
            return True  # `[x] & [y]`: an operator Python does not define on two sequences
        if node.__class__ is ast.BinOp and node.op.__class__ is ast.Add and {
                _display_class(node.left, assigned), _display_class(node.right, assigned)} == {ast.List, ast.Tuple}:
            return True  # `[x] + (y,)`: Python adds no list to a tuple
        if (node.__class__ is ast.Subscript and _display_class(node.value, assigned) is ast.Tuple
                and (node.slice.__class__ is ast.Constant or _harmless_arithmetic(node.slice))):
            return True  # `t[2]` of a tuple display: an index past its end
        if node.__class__ in (ast.If, ast.IfExp) and node.test.__class__ is ast.Compare and all(
                maybe_constant(operand) for operand in _operands(node.test)):
            return True  # a test the values may decide: type inference skips the other branch
        if node.__class__ is ast.Compare and all(
                op.__class__ in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot) for op in node.ops):
            continue  # equality and identity do not raise on Python's values
        if node.__class__ is ast.UnaryOp and node.op.__class__ is ast.Not:
            continue
        if node.__class__ is ast.Attribute:
            # a lookup fails only on a known receiver (self itself never is one; self.mode may be)
            receiver = node.value
            if receiver.__class__ is ast.Name and receiver.id in holders:
                continue
            if maybe_constant(receiver):
                return True
        elif node.__class__ is ast.AugAssign:
            if maybe_constant(node.target) and maybe_constant(node.value):
                return True
        elif isinstance(node, OPERATIONS):
            if _harmless_arithmetic(node):
                continue  # `-1`, `dim // 2`'s literal halves, `2 ** 0.5`: numbers that fold fine
            operands = _operands(node)
            if operands and all(maybe_constant(o) for o in operands):
                return True
    return False


def _unpacks(node: ast.AST) -> ast.expr | None:
    """What ``node`` unpacks: ``x`` of ``*x``, of ``**x`` (in a call or a dict display), of
    ``a, *b = x``."""
    cls = node.__class__
    if cls is ast.Starred and node.ctx.__class__ is ast.Load:
        return node.value
    if cls is ast.keyword and node.arg is None:
        return node.value
    if cls is ast.Dict and None in node.keys:
        return node.values[node.keys.index(None)]
    if cls is ast.Assign and any(t.__class__ in (ast.Tuple, ast.List) and any(
            e.__class__ is ast.Starred for e in t.elts) for t in node.targets):
        return node.value
    return None


def _may_refuse_slice(node: ast.Slice, maybe_constant) -> bool:
    """A slice the graph may refuse whatever it slices: a bound that is a str or float literal,
    or a step that may be a known zero (an int literal other than zero is fine)."""
    if any(part.__class__ is ast.Constant and part.value.__class__ in (str, float)
           for part in (node.lower, node.upper, node.step)):
        return True
    step = node.step
    if step is None or _harmless_arithmetic(step):
        return False
    if step.__class__ is ast.Constant:
        return step.value == 0 or step.value.__class__ is not int
    return maybe_constant(step)


def _displayed_sequence(node: ast.expr, assigned: dict[str, list[ast.expr]]) -> bool:
    """A list or tuple display, or a name every assignment of which is one."""
    if node.__class__ in (ast.List, ast.Tuple):
        return True
    values = assigned.get(node.id) if node.__class__ is ast.Name else None
    return bool(values) and all(v.__class__ in (ast.List, ast.Tuple) for v in values)


def _display_class(node: ast.expr, assigned: dict[str, list[ast.expr]]) -> type | None:
    """ast.List or ast.Tuple for a display of one, or a name every assignment of which is one."""
    values = assigned.get(node.id, []) if node.__class__ is ast.Name else [node]
    classes = {v.__class__ for v in values}
    return classes.pop() if len(classes) == 1 and classes <= {ast.List, ast.Tuple} else None


# BoolOp: `a and b` raises nothing by itself (a tensor operand is found through its
# construction or a caller, asked above).
NEVER_FAILING = frozenset({ast.BoolOp})


def _wrong_count(call: ast.Call) -> bool:
    """A builtin call whose positional count the graph refuses (no keywords, no *args)."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return False
    return arity_refused(call.func.id, len(call.args))


def _harmless_arithmetic(node: ast.AST) -> bool:
    """Arithmetic on number literals that cannot fail (no zero divisor, no huge power)."""
    cls = node.__class__
    if cls is ast.UnaryOp:
        return node.operand.__class__ is ast.Constant and type(node.operand.value) in (int, float)
    if cls is ast.BinOp and node.left.__class__ is ast.Constant and node.right.__class__ is ast.Constant:
        left, right = node.left.value, node.right.value
        if type(left) not in (int, float) or type(right) not in (int, float):
            return False
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and right == 0:
            return False
        if isinstance(node.op, (ast.Pow, ast.LShift)) and abs(right) >= 64:
            return False
        try:  # the graph's ints are int64: a literal sum past it fails while folding
            result = BINARY[type(node.op)](left, right)
        except Exception:  # noqa: BLE001
            return False
        return not isinstance(result, int) or INT64_MIN <= result <= INT64_MAX
    return False


def _operands(node: ast.AST) -> list[ast.expr]:
    cls = node.__class__
    if cls is ast.BinOp:
        return [node.left, node.right]
    if cls is ast.Compare:
        return [node.left, *node.comparators]
    if cls is ast.UnaryOp:
        return [node.operand]
    if cls is ast.BoolOp:
        return list(node.values)
    if cls is ast.Subscript:
        return [node.value, node.slice]
    return [node.value]  # Attribute: the receiver


def _constant_names(assigned: dict[str, list[ast.expr]], holders: set[str],
                    free: set[str] = frozenset()) -> set[str]:
    """Names some assignment binds to an expression built only from constants, such names
    (and the ``free`` names the module binds), and attributes of self or of sys/math."""
    names: set[str] = set(free)
    changed = True
    while changed:
        changed = False
        for name, values in assigned.items():
            if name not in names and any(_built_from_constants(v, names, holders) for v in values):
                names.add(name)
                changed = True
    return names


def _built_from_constants(value: ast.expr, names: set[str], holders: set[str]) -> bool:
    pending = [value]
    while pending:
        node = pending.pop()
        cls = node.__class__
        if cls is ast.Constant:
            continue
        if cls is ast.Attribute and node.value.__class__ is ast.Name and node.value.id in holders:
            continue
        if cls is ast.Name:
            if node.id not in names:
                return False
            continue
        if cls in (ast.Tuple, ast.List, ast.Set):
            pending.extend(node.elts)
        elif cls is ast.Dict:
            pending.extend(k for k in node.keys if k is not None)
            pending.extend(node.values)
        elif cls is ast.BinOp:
            pending.extend((node.left, node.right))
        elif cls is ast.UnaryOp:
            pending.append(node.operand)
        elif cls is ast.Call and node.func.__class__ is ast.Name and node.func.id in BUILTIN_ARITY:
            pending.extend(node.args)
        elif cls is ast.Subscript:
            pending.extend((node.value, node.slice))
        elif cls is ast.Slice:
            pending.extend(p for p in (node.lower, node.upper, node.step) if p is not None)
        else:
            return False
    return True
