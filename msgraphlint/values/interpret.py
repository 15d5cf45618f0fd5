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
import copy
import math
import operator
import re
from dataclasses import dataclass, field

from ..knowledge.mindspore import (DTYPE_MODULES, ELEMENT_TYPES, FOLDED_OPERATIONS,
                                   TENSOR_CLASS as TENSOR_NAME, VARIABLE_MAKERS)
from ..model.attributes import instance_attributes
from ..syntax.project import ModuleInfo, bound_names
from ..model.callers import MAX_CONSTANT_DEPTH, driver_context, only_read, single_assignment
from ..model.compiled import CompiledFunction, bind_arguments
from ..model.reach import ReachModel
from ..model.variables import function_syntax
from .domain import (  # the families import these from here too
    UNKNOWN, ArrayValue, Builtin, Failure, FailureKind, Known, ObjectValue, SequenceValue, TensorValue,
    Value, VariableScalar, VariableSequence, element_count,
)



# What every namedtuple has besides its fields.
NAMEDTUPLE_ATTRIBUTES = frozenset(dir(tuple)) | {"_asdict", "_replace", "_fields", "_make",
                                                 "_field_defaults"}
NAMEDTUPLE_FACTORIES = frozenset({"collections.namedtuple", "typing.NamedTuple"})
NAMEDTUPLE_BASE = "typing.NamedTuple"


# Bounds: no value grows past these (a 20,000-term expression, "a" * 10**9, 2 ** 10**9).
MAX_DEPTH = 200
MAX_LENGTH = 10_000
MAX_INT_BITS = 4_096
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
REPORTED_ERRORS = (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError)

BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
    ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
}
# What the graph does when an int operation passes int64 (probed with 2.10): +, - and * fail
# (ValueError "Overflow of the mul of two signed number"), << fails (RuntimeError "Arithmetic left
# shift causes int64 integer overflow"), ** wraps around without a word.
INT64_CHECKED = {ast.Add: ValueError, ast.Sub: ValueError, ast.Mult: ValueError,
                 ast.LShift: RuntimeError}
INT64_WRAPPED = (ast.Pow,)
UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Invert: operator.invert, ast.Not: operator.not_}
COMPARE = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
# Builtins the graph folds on constants like Python does (probed with 2.10), called here on known
# arguments only.
PURE_BUILTINS = {
    "abs": abs, "bool": bool, "float": float, "int": int, "len": len, "max": max, "min": min,
    "pow": pow, "range": range, "round": round, "slice": slice, "str": str, "sum": sum,
    "tuple": tuple, "list": list, "divmod": divmod, "chr": chr, "ord": ord, "any": any, "all": all,
}
# How many positional arguments the graph accepts for a builtin, (fewest, most; None: no
# limit), where it checks while compiling: Python's own counts, and two of the graph's own
# (zip needs one argument, super 0 or 2). Calls with keywords, * or ** are not counted.
BUILTIN_ARITY = {
    "abs": (1, 1), "all": (1, 1), "any": (1, 1), "bool": (0, 1), "chr": (1, 1), "divmod": (2, 2),
    "enumerate": (1, 2), "filter": (2, 2), "float": (0, 1), "getattr": (2, 3), "hasattr": (2, 2),
    "int": (0, 2), "isinstance": (2, 2), "len": (1, 1), "list": (0, 1), "map": (2, None),
    "max": (1, None), "min": (1, None), "ord": (1, 1), "pow": (2, 3), "range": (1, 3),
    "reversed": (1, 1), "round": (1, 2), "slice": (1, 3), "sorted": (1, 1), "sum": (1, 2),
    "tuple": (0, 1), "zip": (1, None), "super": (0, 2),
}
ARITY_EXCEPTIONS = {"super": {1}}  # counts within the range the graph still refuses

# Methods of constant values that read them, and those that change them (the receiver is then
# rebound to the changed copy).
READING_METHODS = {
    str: {"upper", "lower", "strip", "lstrip", "rstrip", "split", "join", "startswith",
          "endswith", "find", "index", "count", "isdigit", "isalpha"},  # no replace/format: sizes
    tuple: {"index", "count"},
    list: {"index", "count", "copy"},
    dict: {"get", "keys", "values", "items", "copy", "fromkeys"},
}
CHANGING_METHODS = {
    list: {"pop", "insert", "append", "extend", "reverse", "remove", "clear"},
    dict: {"pop", "update", "setdefault", "clear"},
}
CONSTANT_TYPES = (int, float, bool, str, type(None), tuple, list, dict, slice, range)
# Module constants the compiler reads as Python values (the graph's ints are int64).
MODULE_CONSTANTS = {"sys.maxsize": 2**63 - 1, "math.pi": math.pi, "math.e": math.e,
                    "math.tau": math.tau, "numpy.pi": math.pi}
CONSTANT_MODULES = frozenset(name.split(".")[0] for name in MODULE_CONSTANTS)
ELEMENT_TYPE_MODULES = DTYPE_MODULES | {"numpy"}  # np.float32 names the same element type
NUMPY_FILLED = frozenset({"numpy.ones", "numpy.zeros", "numpy.empty"})
NUMPY_FROM_DATA = frozenset({"numpy.array", "numpy.asarray"})
NUMPY_RANGE = "numpy.arange"
NUMPY_BUILDERS = NUMPY_FILLED | NUMPY_FROM_DATA | {NUMPY_RANGE}


def is_known(value: object) -> bool:
    return value.__class__ is Known


def element_type(value: Value) -> tuple | None:
    """The abstract type the graph gives a value held in a sequence, its value aside: ``("int",)``,
    a tensor's dtype and shape, a tuple's length and element types (probed with 2.10: int, bool
    and float differ, and so do tensors of another dtype or shape). None where not known."""
    cls = value.__class__
    if cls is Known:
        data = value.value
        if type(data) in (bool, int, float, str):
            return (type(data).__name__,)
        if type(data) in (tuple, list) and len(data) <= MAX_LENGTH:
            inner = tuple(element_type(Known(item)) for item in data)
            return None if None in inner else (type(data).__name__, inner)
        return None
    if cls is VariableScalar:
        return (value.kind.__name__,)
    if cls is TensorValue:
        return ("Tensor", value.dtype, value.shape) if value.dtype and value.shape is not None else None
    if cls is SequenceValue and value.elements is not None:
        inner = tuple(element_type(item) for item in value.elements)
        return None if None in inner else (value.kind.__name__, inner)
    return None


def element_types(value: Value) -> list[tuple | None] | None:
    """The element type of every element of a sequence value (empty for an empty one); None
    when it is no sequence whose elements are known."""
    cls = value.__class__
    if cls is Known and type(value.value) in (tuple, list):
        return [element_type(Known(item)) for item in value.value]
    if cls is SequenceValue and value.elements is not None:
        return [element_type(item) for item in value.elements]
    if cls is VariableSequence:
        return [] if value.empty else [value.element]
    return None


def describe_type(element: tuple) -> str:
    """``int``, ``Tensor[float32, (2,)]``, ``tuple[int, int]``: an element type as a message
    names it."""
    if element[0] == "Tensor":
        return f"Tensor[{element[1]}, {element[2]}]"
    if len(element) == 2:
        return f"{element[0]}[{', '.join(describe_type(e) for e in element[1])}]"
    return element[0]


def small(value: object, depth: int = 0, budget: list[int] | None = None) -> bool:
    """A constant the interpreter may hold: of a folded type and within the size bounds (and
    within a budget of elements looked at, so shared sub-lists are not walked again and again)."""
    if budget is None:
        budget = [MAX_LENGTH]
    budget[0] -= 1
    if depth > 8 or budget[0] < 0:
        return False
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return True
    if isinstance(value, int):
        return value.bit_length() <= MAX_INT_BITS
    if isinstance(value, str):
        return len(value) <= MAX_LENGTH
    if isinstance(value, (tuple, list)):
        return len(value) <= MAX_LENGTH and all(small(v, depth + 1, budget) for v in value)
    if isinstance(value, dict):
        return len(value) <= MAX_LENGTH and all(
            small(k, depth + 1, budget) and small(v, depth + 1, budget) for k, v in value.items())
    if isinstance(value, range):
        return all(small(v) for v in (value.start, value.stop, value.step))
    if isinstance(value, slice):
        return all(small(v, depth + 1, budget) for v in (value.start, value.stop, value.step))
    return False


SCALARS = (bool, float, type(None))


def known(value: object) -> Value:
    cls = value.__class__
    if cls in SCALARS or (cls is int and value.bit_length() <= MAX_INT_BITS):
        return Known(value)
    return Known(value) if small(value) else UNKNOWN


def data_shape(value: object) -> tuple[tuple[int, ...], str] | None:
    """(shape, element kind) of nested lists/tuples of scalars, as Tensor() and np.array read
    them; None when ragged or not scalars."""
    if isinstance(value, bool):
        return (), "bool"
    if isinstance(value, int):
        return (), "int"
    if isinstance(value, float):
        return (), "float"
    if isinstance(value, (list, tuple)):
        if not value:
            return (0,), "float"
        inner = [data_shape(v) for v in value]
        if any(i is None for i in inner) or len({i[0] for i in inner}) != 1:
            return None
        kinds = {i[1] for i in inner}
        kind = "float" if "float" in kinds else ("int" if "int" in kinds else "bool")
        return (len(value), *inner[0][0]), kind
    return None


def _too_big(op: type, left: object, right: object) -> bool:
    """Operations whose result would pass the bounds, decided before computing them."""
    if op is ast.Pow and isinstance(left, int) and isinstance(right, int):
        return right > 0 and abs(left) > 1 and right * max(left.bit_length(), 1) > MAX_INT_BITS
    if op is ast.LShift and isinstance(right, int):
        return right > MAX_INT_BITS
    if op is ast.Mult:
        for count, seq in ((left, right), (right, left)):
            if isinstance(count, int) and isinstance(seq, (str, list, tuple)):
                return count * max(len(seq), 1) > MAX_LENGTH
    return False


# ----- one function -----------------------------------------------------------------------


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

    def value(self, node: ast.AST) -> Value:
        return self.values.get(id(node), UNKNOWN)


class Interpreter:
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

    # ----- statements ---------------------------------------------------------------------

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
                        values[name] = join_tensors(
                            [self.driver_value(expr, context, 0) for expr in given]) or UNKNOWN
        else:
            values.update(passed_values(self.model, self.compiled))
        return values

    def block(self, body: list[ast.stmt], env: dict[str, Value]) -> bool:
        """Evaluate statements in order; False once the block cannot go on (return, raise)."""
        for stmt in body:
            if not self.statement(stmt, env):
                return False
        return True

    def statement(self, stmt: ast.stmt, env: dict[str, Value]) -> bool:
        match stmt:
            case ast.Assign(targets=targets, value=value):
                result = self.expr(value, env)
                for target in targets:
                    if target.__class__ is ast.Subscript:
                        self.item_assignment(stmt, target, result, env)
                    self.bind(target, result, env)
            case ast.AnnAssign(target=target, value=value) if value is not None:
                self.bind(target, self.expr(value, env), env)
            case ast.AugAssign(target=target, op=op, value=value):
                right = self.expr(value, env)
                if isinstance(target, ast.Name):
                    left = env.get(target.id, UNKNOWN)
                    env[target.id] = self.binary(stmt, type(op), left, right)
                else:
                    if target.__class__ is ast.Attribute:
                        self._attribute(target, env, 0)  # `x.n += 1` reads x.n first
                    self.forget_base(target, env)
            case ast.Expr(value=value):
                self.expr(value, env)
            case ast.Return(value=value):
                if value is not None:
                    self.expr(value, env)
                return False
            case ast.Raise():
                return False
            case ast.If(test=test, body=body, orelse=orelse):
                truth = self.truth(test, env)
                if truth is True:
                    return self.block(body, env)
                if truth is False:
                    return self.block(orelse, env)
                self.branches([body, orelse], env)
            case ast.For(target=target, iter=iterable, body=body, orelse=orelse) | ast.AsyncFor(
                    target=target, iter=iterable, body=body, orelse=orelse):
                over = self.expr(iterable, env)
                self.string_length(iterable, over)
                if is_known(over) and _one_item(over.value):
                    # Unrolled into one copy of the body: followed as straight-line code.
                    self.bind(target, known(over.value[0]), env)
                    if not self.block(body, env):
                        return False
                    return self.block(orelse, env)
                self.forget(stmt, env)
                if not (is_known(over) and isinstance(over.value, (tuple, list, range, str, dict))
                        and not over.value):
                    self.bind(target, UNKNOWN, env)
                    self.block(body, dict(env))
                self.block(orelse, env)
                self.forget(stmt, env)
            case ast.While(test=test, body=body, orelse=orelse):
                self.forget(stmt, env)
                if self.truth(test, env) is not False:
                    self.block(body, dict(env))
                self.block(orelse, env)
                self.forget(stmt, env)
            case ast.With(items=items, body=body) | ast.AsyncWith(items=items, body=body):
                for item in items:
                    self.expr(item.context_expr, env)
                    if item.optional_vars is not None:
                        self.bind(item.optional_vars, UNKNOWN, env)
                return self.block(body, env)
            case ast.Pass() | ast.Break() | ast.Continue() | ast.Assert():
                return not isinstance(stmt, (ast.Break, ast.Continue))
            case _:
                # try, match, del, global, nested definitions: whatever they bind is unknown
                self.forget(stmt, env)
        return True

    def branches(self, bodies: list[list[ast.stmt]], env: dict[str, Value]) -> None:
        """Both sides of an if the compiler cannot decide: a name keeps its value only where
        every side that goes on agrees."""
        outcomes = []
        for body in bodies:
            local = dict(env)
            if self.block(body, local):
                outcomes.append(local)
        if not outcomes:
            return
        for name in {name for outcome in outcomes for name in outcome} | set(env):
            values = [outcome.get(name, UNKNOWN) for outcome in outcomes]
            first = values[0]
            env[name] = first if all(_same(first, v) for v in values[1:]) else UNKNOWN

    def forget(self, stmt: ast.AST, env: dict[str, Value]) -> None:
        for name in self.module.derived("changed names", stmt, self._changed_names):
            env[name] = UNKNOWN

    def _changed_names(self, stmt: ast.AST) -> frozenset[str]:
        """Names a statement may bind or change in place (once per statement: a loop is
        forgotten before and after its body)."""
        names: set[str] = set()
        for node in self.module.nodes(stmt):
            cls = node.__class__
            if cls is ast.Name:
                if node.ctx.__class__ is not ast.Load:
                    names.add(node.id)
            elif cls is ast.Call:
                if node.func.__class__ is ast.Attribute:  # l.append(v) in a loop changes l
                    names.update(_base_name(node.func.value))
            elif cls in (ast.Subscript, ast.Attribute):
                if node.ctx.__class__ is not ast.Load:
                    names.update(_base_name(node))
            elif cls in BINDING_NODES:
                names.update(bound_names(node))
        return frozenset(names)

    def forget_base(self, target: ast.expr, env: dict[str, Value]) -> None:
        """``l[0] = v`` or ``d.x = v``: the container named at the base may have changed."""
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name):
            env[target.id] = UNKNOWN

    def bind(self, target: ast.expr, value: Value, env: dict[str, Value]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            elements = target.elts
            if (is_known(value) and isinstance(value.value, (tuple, list))
                    and len(value.value) == len(elements)
                    and not any(isinstance(e, ast.Starred) for e in elements)):
                for element, item in zip(elements, value.value):
                    self.bind(element, known(item), env)
            else:
                for element in elements:
                    self.bind(element.value if isinstance(element, ast.Starred) else element,
                              UNKNOWN, env)
        else:
            self.forget_base(target, env)

    def truth(self, test: ast.expr, env: dict[str, Value]) -> bool | None:
        value = self.expr(test, env)
        if is_known(value):
            try:
                return bool(value.value)
            except Exception:  # noqa: BLE001 - an odd constant: undecided
                return None
        return self.model.static_truth(test, self.compiled)

    # ----- expressions --------------------------------------------------------------------

    def expr(self, node: ast.expr, env: dict[str, Value], depth: int = 0) -> Value:
        cls = node.__class__
        if cls is ast.Name:  # most expressions: no handler call
            value = env[node.id] if node.id in env else self.name(node.id, env)
        elif cls is ast.Constant:
            value = known(node.value)
        else:
            handler = EXPRESSION_HANDLERS.get(cls)
            # lambdas and comprehensions have scopes of their own: unknown
            if handler is None or depth > MAX_DEPTH:
                return UNKNOWN
            value = handler(self, node, env, depth)
        if value is not UNKNOWN:
            self.result.values[id(node)] = value
        return value

    def _sequence(self, node: ast.Tuple | ast.List, env, depth) -> Value:
        values = [self.expr(e, env, depth + 1) for e in node.elts]
        if all(is_known(v) for v in values):
            items = [v.value for v in values]
            return known(tuple(items) if node.__class__ is ast.Tuple else items)
        if any(e.__class__ is ast.Starred for e in node.elts):
            return UNKNOWN
        # Its kind and length are known whatever its elements are: `(self.n, 1).shape` fails.
        return SequenceValue(tuple if node.__class__ is ast.Tuple else list, len(node.elts),
                             tuple(values))

    def _dict(self, node: ast.Dict, env, depth) -> Value:
        pairs = [(self.expr(k, env, depth + 1) if k is not None else UNKNOWN,
                  self.expr(v, env, depth + 1)) for k, v in zip(node.keys, node.values)]
        if all(is_known(k) and is_known(v) for k, v in pairs):
            try:
                return known({k.value: v.value for k, v in pairs})
            except TypeError:
                return UNKNOWN  # an unhashable key: Python's own error, not folded here
        return UNKNOWN

    def _binop(self, node: ast.BinOp, env, depth) -> Value:
        return self.binary(node, type(node.op), self.expr(node.left, env, depth + 1),
                           self.expr(node.right, env, depth + 1))

    def _unaryop(self, node: ast.UnaryOp, env, depth) -> Value:
        value = self.expr(node.operand, env, depth + 1)
        return self.apply(node, UNARY[type(node.op)], value) if is_known(value) else UNKNOWN

    def _boolop(self, node: ast.BoolOp, env, depth) -> Value:
        """`a and b`: b is not evaluated once a known a decides (`k in d and d[k] > 0`)."""
        results = []
        stops_on = node.op.__class__ is ast.Or  # `or` stops at a true operand, `and` at a false one
        for item in node.values:
            value = self.expr(item, env, depth + 1)
            results.append(value)
            if is_known(value):
                try:
                    if bool(value.value) is stops_on:
                        return value if len(results) == 1 or all(is_known(r) for r in results) else UNKNOWN
                except Exception:  # noqa: BLE001 - an odd constant: undecided
                    break
        self.tensor_bool_operator(node, results)
        if all(is_known(r) for r in results):
            return results[-1]
        return UNKNOWN

    def _compare(self, node: ast.Compare, env, depth) -> Value:
        return self.compare(node, node.left, node.ops, node.comparators, env, depth)

    def _ifexp(self, node: ast.IfExp, env, depth) -> Value:
        truth = self.truth(node.test, env)
        if truth is not None:
            return self.expr(node.body if truth else node.orelse, env, depth + 1)
        self.expr(node.body, env, depth + 1)
        self.expr(node.orelse, env, depth + 1)
        return UNKNOWN

    def _subscript(self, node: ast.Subscript, env, depth) -> Value:
        return self.subscript(node, self.expr(node.value, env, depth + 1),
                              self.expr(node.slice, env, depth + 1))

    def _slice(self, node: ast.Slice, env, depth) -> Value:
        parts = [self.expr(p, env, depth + 1) if p is not None else Known(None)
                 for p in (node.lower, node.upper, node.step)]
        return Known(slice(*(p.value for p in parts))) if all(is_known(p) for p in parts) else UNKNOWN

    def _attribute(self, node: ast.Attribute, env, depth) -> Value:
        if self.is_self(node.value):
            return self.self_attribute(node.attr)
        base = node.value
        if (base.__class__ is ast.Name and base.id not in env
                and self.module.imports.names.get(base.id) in CONSTANT_MODULES):
            qualified = self.module.imports.qualify(node)
            if qualified in MODULE_CONSTANTS:
                return Known(MODULE_CONSTANTS[qualified])
        return self.attribute(node, self.expr(node.value, env, depth + 1), node.attr)

    def _call(self, node: ast.Call, env, depth) -> Value:
        return self.call(node, env, depth)

    def _namedexpr(self, node: ast.NamedExpr, env, depth) -> Value:
        result = self.expr(node.value, env, depth + 1)
        env[node.target.id] = result
        return result

    def _inner_values(self, node: ast.AST, env, depth) -> Value:
        """Starred, f-strings: their parts are evaluated (for failures), the whole is unknown."""
        for item in (node.values if node.__class__ is ast.JoinedStr else [node.value]):
            self.expr(item, env, depth + 1)
        return UNKNOWN

    @property
    def locals(self) -> frozenset[str]:
        if self._locals is None:  # the value model has them already, for the other families
            self._locals = frozenset(self.model.values(self.compiled).local_names)
        return self._locals

    def name(self, name: str, env: dict[str, Value]) -> Value:
        if name in env:
            return env[name]
        if name in self.locals:
            return UNKNOWN  # a local not bound on this path (yet): other rules say so
        if name not in self._free:
            self._free[name] = self.free_name(name)
        return self._free[name]

    def free_name(self, name: str) -> Value:
        """A closure's or the module's constant, bound once and never declared global."""
        for enclosing in reversed(self.scope):
            if isinstance(enclosing, ast.ClassDef):
                continue
            if name in function_syntax(self.module, enclosing).local_names:
                value = single_assignment(self.module, enclosing, name)
                if value.__class__ is ast.Call:  # cell_obj = Net() in the enclosing function
                    made = self.instance_of(value, self.module, enclosing)
                    return _unless_changed(made, self.module, enclosing, name)
                return _unchangeable(self.constant(value, 0)) if value is not None else UNKNOWN
        if name in self.module.imports.names:
            qualified = self.module.imports.names[name]
            return TENSOR_CLASS_VALUE if qualified == TENSOR_NAME else UNKNOWN
        values = self.module.assignments.get(name)
        if values is not None:
            if (len(values) != 1 or _declared_global(self.module, name)
                    or name in _other_module_bindings(self.module)):
                return UNKNOWN
            return _unchangeable(self.constant(values[0], 0))
        qualified = self.module.imports.qualify(ast.Name(id=name))
        if qualified and qualified.startswith("builtins."):
            return Builtin(name)
        return UNKNOWN

    def is_self(self, node: ast.expr) -> bool:
        if node.__class__ is not ast.Name or self.compiled.owner is None \
                or self.compiled.self_passed:  # a parameter: its attributes are not folded
            return False
        if self._self_name is None:
            self._self_name = self.model.values(self.compiled).self_name or ""
        return node.id == self._self_name

    def self_attribute(self, attr: str) -> Value:
        """``self.attr`` set once, in ``__init__``, to a constant and never elsewhere (nor by
        other files): the compiler reads it as that constant."""
        if attr in self._self_attributes:
            return self._self_attributes[attr]
        found: object = UNKNOWN
        assigned = [(cls, method, value)
                    for cls in self.model.self_classes(self.compiled)
                    for method, pairs in cls.method_self_assignments.items()
                    for name, value in pairs if name == attr]
        if len(assigned) == 1 and assigned[0][1] == "__init__":
            cls, _, value = assigned[0]
            passed = self.model.constructor_arguments(cls, cls.methods["__init__"], value)
            if passed:
                found = self.passed_value(passed)
            elif _is_slice_call(value, cls.module):
                found = self.slice_constant(value)
            elif _builds_tensor(value, cls.module):
                # self.w = Tensor(...): the graph holds it as a constant tensor (not a Parameter)
                found = TensorValue(constant=True, ndim=_declared_ndim(value))
            elif self.unpacks_tensor(cls, attr, value):  # one item of what an __init__ helper returns
                found = TensorValue(constant=True)
            elif value.__class__ is ast.Call:  # self.sub = SubCell(123)
                found = self.instance_of(value, cls.module, cls.methods["__init__"])
            else:
                found = self.constant(value, 0)
            if is_known(found) and (found.value is None or not _immutable(found.value)):
                # a list or dict may be changed in place (self.d["k"] = v); None is the usual
                # placeholder that code elsewhere fills in (pipeline.proj.clip_embeds = ...)
                found = UNKNOWN
            if found is not UNKNOWN and attr in self.module_externally_set():
                found = UNKNOWN  # `net.scale = 2` somewhere in the project
        self._self_attributes[attr] = found
        return found

    def unpacks_tensor(self, cls, attr: str, value: ast.expr) -> bool:
        """``self.a, self.b = self._make(n)`` in ``__init__`` where every return of ``_make``
        is a tuple whose item at ``self.a``'s place is a name bound only to ``Tensor(...)``."""
        init = cls.methods["__init__"]
        if value.__class__ is not ast.Call or value.func.__class__ is not ast.Attribute:
            return False
        assign = next((node for node in cls.module.nodes(init)
                       if node.__class__ is ast.Assign and node.value is value), None)
        if assign is None or len(assign.targets) != 1 or assign.targets[0].__class__ is not ast.Tuple:
            return False
        place = next((i for i, element in enumerate(assign.targets[0].elts)
                      if element.__class__ is ast.Attribute and element.attr == attr), None)
        self_name = init.args.args[0].arg if init.args.args else None
        receiver = value.func.value
        method = (self.model.find_method(cls, value.func.attr)
                  if receiver.__class__ is ast.Name and receiver.id == self_name else None)
        if place is None or method is None:
            return False
        owner, method_node = method
        module = owner.module
        returns = [node.value for node in module.nodes(method_node) if node.__class__ is ast.Return]
        if not returns or not all(r.__class__ is ast.Tuple and len(r.elts) > place
                                  and r.elts[place].__class__ is ast.Name for r in returns):
            return False
        nodes = list(module.nodes(method_node))
        for name in {r.elts[place].id for r in returns}:
            # Every binding of the name is `name = Tensor(...)`: no parameter, unpacking or loop.
            stores = sum(1 for node in nodes if node.__class__ is ast.Name and node.id == name
                         and node.ctx.__class__ is ast.Store)
            values = [node.value for node in nodes if node.__class__ is ast.Assign
                      and len(node.targets) == 1 and node.targets[0].__class__ is ast.Name
                      and node.targets[0].id == name]
            arguments = method_node.args
            params = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
            if (not values or stores != len(values) or name in params
                    or not all(_builds_tensor(v, module) for v in values)):
                return False
        return True

    def passed_value(self, passed: list) -> Value:
        """The one value every construction passes (``Net(data)`` in a driver), else unknown."""
        values = [self.driver_value(site.expr, (site.module, site.function), 0)
                  if site.function is not None else self.constant(site.expr, 0) for site in passed]
        first = values[0]
        return first if all(value == first for value in values[1:]) else UNKNOWN

    def instance_of(self, call: ast.expr, module: ModuleInfo, function: ast.AST | None) -> Value:
        """What ``call``, written in ``function`` (None: at module level) of ``module``, builds
        when it is an object whose attributes are all known (ObjectValue), else unknown."""
        if call.__class__ is not ast.Call:
            return UNKNOWN
        func = call.func
        if func.__class__ is ast.Name:
            made = (single_assignment(module, function, func.id) if function is not None
                    else _only_value(module.assignments.get(func.id)))
            if made is not None:  # Data = namedtuple("Data", ["a", "b"]); Data(1, 2)
                fields = namedtuple_fields(made, module)
                return UNKNOWN if fields is None else ObjectValue(
                    func.id, fields | NAMEDTUPLE_ATTRIBUTES, fixed=True)
        scope = (*module.scope_of(function), function) if function is not None else ()
        if (func.__class__ is ast.Name and function is not None
                and func.id in function_syntax(module, function).local_names
                and not isinstance(module.visible_definition(func.id, scope), ast.ClassDef)):
            return UNKNOWN  # a parameter or a name bound several times: not a class
        cls = self.model.class_named(func, module, scope)
        if cls is None:
            return UNKNOWN
        if any(module.imports.qualify(base) == NAMEDTUPLE_BASE for base in cls.node.bases):
            fields = {statement.target.id for statement in cls.node.body
                      if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)}
            return ObjectValue(cls.name, frozenset(fields) | cls.body_names | frozenset(cls.methods)
                               | NAMEDTUPLE_ATTRIBUTES, fixed=True)
        attributes = instance_attributes(self.model, self.model.mro(cls))
        if attributes is None or self.model.subclasses(cls, module.path):
            return UNKNOWN
        return ObjectValue(cls.name, attributes | self.model.project.externally_set(module.path),
                           cell=self.model.is_cell(cls))

    def module_externally_set(self) -> frozenset[str]:
        return self.model.project.externally_set(self.module.path)

    def slice_constant(self, call: ast.Call) -> Value:
        parts = [self.constant(a, 0) for a in call.args]
        if not call.keywords and 1 <= len(parts) <= 3 and all(is_known(p) for p in parts):
            return Known(slice(*(p.value for p in parts)))
        return UNKNOWN

    def constant(self, expr: ast.expr, depth: int) -> Value:
        """A constant expression written outside the function (a closure's or module's)."""
        if depth > MAX_CONSTANT_DEPTH:
            return UNKNOWN
        match expr:
            case ast.Constant(value=value):
                return known(value)
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                values = [self.constant(e, depth + 1) for e in elements]
                if all(is_known(v) for v in values):
                    items = [v.value for v in values]
                    return known(tuple(items) if isinstance(expr, ast.Tuple) else items)
            case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=value)) if isinstance(
                    value, (int, float)) and not isinstance(value, bool):
                return known(-value)
            case ast.Dict(keys=keys, values=items) if None not in keys:
                pairs = [(self.constant(k, depth + 1), self.constant(v, depth + 1))
                         for k, v in zip(keys, items)]
                if all(is_known(k) and is_known(v) for k, v in pairs):
                    try:
                        return known({k.value: v.value for k, v in pairs})
                    except TypeError:
                        return UNKNOWN
        return UNKNOWN

    def driver_value(self, expr: ast.expr, driver: tuple[ModuleInfo, ast.AST], depth: int) -> Value:
        """What a plain-Python caller passes: a constant, or a tensor it builds."""
        module, function = driver
        if depth > MAX_CONSTANT_DEPTH:
            return UNKNOWN
        if isinstance(expr, ast.Name):
            value = single_assignment(module, function, expr.id)
            made = self.driver_value(value, driver, depth + 1) if value is not None else UNKNOWN
            return _unless_changed(made, module, function, expr.id)
        if _builds_tensor(expr, module):
            data = self.driver_value(expr.args[0], driver, depth + 1) if expr.args else UNKNOWN
            if module is self.module:
                made = self.tensor(expr, [data, *[UNKNOWN for _ in expr.args[1:]]])
                return TensorValue(False, made.dtype, made.shape)
            return TensorValue(constant=False)
        if (isinstance(expr, ast.Call) and module is self.module
                and module.imports.qualify(expr.func) in NUMPY_BUILDERS):
            args = [self.driver_value(a, driver, depth + 1) for a in expr.args]
            return self.array(expr, module.imports.qualify(expr.func), args)
        if expr.__class__ is ast.Call and module.imports.qualify(expr.func) in VARIABLE_MAKERS:
            return self.driver_variable(expr, driver, depth)
        if expr.__class__ is ast.Call:
            return self.instance_of(expr, module, function)
        found = self.constant(expr, depth)
        if found is UNKNOWN and expr.__class__ in (ast.List, ast.Tuple) and not any(
                e.__class__ is ast.Starred for e in expr.elts):
            return SequenceValue(list if expr.__class__ is ast.List else tuple, len(expr.elts))
        return found

    # ----- operations ---------------------------------------------------------------------

    def fail(self, node: ast.AST, kind: FailureKind, error: BaseException, subject: str = "",
             attribute: str = "") -> None:
        if id(node) in self._failed:
            return
        self._failed.add(id(node))
        detail = str(error).splitlines()[0] if str(error) else ""
        self.result.failures.append(
            Failure(node, kind, type(error).__name__, detail, subject, attribute))

    def apply(self, node: ast.AST, function, *values: Known) -> Value:
        try:
            return known(function(*[copy.deepcopy(v.value) for v in values]))
        except REPORTED_ERRORS as error:
            self.fail(node, FailureKind.OPERATION, error)
        except Exception:  # noqa: BLE001 - anything else (overflow, recursion): not judged
            pass
        return UNKNOWN

    def binary(self, node: ast.AST, op: type, left: Value, right: Value) -> Value:
        if op is ast.Add and VariableSequence in (left.__class__, right.__class__):
            return self.sequence_add(node, left, right)
        if not (is_known(left) and is_known(right)) or _too_big(op, left.value, right.value):
            return UNKNOWN
        if op is ast.Mod and isinstance(left.value, str) and "*" in left.value:
            return UNKNOWN  # "%*d" % (width, n): a width from the data, of any size
        if op is ast.Pow and isinstance(right.value, float) and isinstance(left.value, (int, float)) and left.value < 0:
            return UNKNOWN  # Python gives a complex number; the graph does not
        result = self.apply(node, BINARY[op], left, right)
        if (is_known(result) and type(result.value) is int
                and type(left.value) in (int, bool) and type(right.value) in (int, bool)
                and not INT64_MIN <= result.value <= INT64_MAX):
            spelled = ast.unparse(node) if isinstance(node, ast.expr) else "the operation"
            if op in INT64_CHECKED:
                self.fail(node, FailureKind.OPERATION, INT64_CHECKED[op](
                    f"the int64 result of {spelled} overflows (the graph computes Python ints as"
                    " int64)"))
            elif op in INT64_WRAPPED:
                self.fail(node, FailureKind.WRAPS, OverflowError(f"{spelled} = {result.value} in Python"))
            return UNKNOWN
        return result

    def compare(self, node, left, ops, comparators, env, depth) -> Value:
        current = self.expr(left, env, depth + 1)
        values = [self.expr(c, env, depth + 1) for c in comparators]
        result = True
        for op, right in zip(ops, values):
            if not (is_known(current) and is_known(right)):
                return UNKNOWN
            if op.__class__ in (ast.Is, ast.IsNot):
                # `mask is not None`: decided for None and the bools; other identities of folded
                # constants are the compiler's own business
                if not any(v.value is None or type(v.value) is bool for v in (current, right)):
                    return UNKNOWN
            outcome = self.apply(node, COMPARE[type(op)], current, right)
            if not is_known(outcome):
                return UNKNOWN
            result = result and bool(outcome.value)
            current = right
        return Known(result)

    def tensor_bool_operator(self, node: ast.BoolOp, results: list[Value]) -> None:
        """``x and y`` with a tensor ``x`` is ``y if x else x``: x becomes a Python bool (one
        element only), and the two results are joined (same kind and dtype only)."""
        first = results[0]
        if first.__class__ is not TensorValue:
            return
        count = first.elements
        if count is not None and count > 1:
            size = f"of shape {first.shape}" if first.shape is not None else \
                f"of {count} or more elements"
            self.fail(node, FailureKind.TENSOR_BOOL, ValueError(f"a tensor {size} has no single truth value"))
            return
        if first.constant:
            return  # its truth is folded while compiling: no join
        for other in results[1:]:
            if is_known(other) and not isinstance(other.value, (tuple, list, dict)):
                kind = type(other.value).__name__
                self.fail(node, FailureKind.JOIN, TypeError(f"a tensor and a Python {kind}"))
                return
            if (other.__class__ is TensorValue and first.dtype and other.dtype
                    and first.dtype != other.dtype):
                self.fail(node, FailureKind.JOIN, TypeError(
                    f"a {first.dtype} tensor and a {other.dtype} tensor"))
                return

    def subscript(self, node: ast.Subscript, value: Value, index: Value) -> Value:
        if index.__class__ is VariableScalar and (
                (value.__class__ is VariableSequence and value.empty)
                or (value.__class__ is SequenceValue and not value.length)
                or (is_known(value) and type(value.value) in (tuple, list) and not value.value)):
            self.fail(node, FailureKind.DYNAMIC_LENGTH, ValueError(
                "an index decided at run time cannot get an item of an empty sequence"),
                subject="empty")
            return UNKNOWN
        if value.__class__ is TensorValue and is_known(index) and isinstance(index.value, slice):
            bounds = (index.value.start, index.value.stop, index.value.step)
            if any(b is not None and type(b) not in (int, bool) for b in bounds):
                self.fail(node, FailureKind.OPERATION, TypeError(
                    f"slice indices of a tensor must be integers or None, not {index.value}"))
            return UNKNOWN
        if is_known(value) and is_known(index) and isinstance(value.value, CONSTANT_TYPES):
            return self.apply(node, operator.getitem, value, index)
        return UNKNOWN

    def attribute(self, node: ast.AST, receiver: Value, attr: str) -> Value:
        if receiver.__class__ is TensorValue:
            self.result.tensor_lookups.append((node, attr))
        elif receiver.__class__ is ObjectValue:
            if attr not in receiver.attributes and not attr.startswith("__"):
                self.fail(node, FailureKind.ATTRIBUTE, AttributeError(
                    f"'{receiver.name}' object has no attribute '{attr}'"), receiver.name, attr)
        elif is_known(receiver) and isinstance(receiver.value, CONSTANT_TYPES):
            if not hasattr(receiver.value, attr):
                kind = type(receiver.value).__name__
                self.fail(node, FailureKind.ATTRIBUTE, AttributeError(
                    f"'{kind}' object has no attribute '{attr}'"), kind, attr)
        elif receiver.__class__ is SequenceValue and not hasattr(receiver.kind, attr):
            kind = receiver.kind.__name__
            self.fail(node, FailureKind.ATTRIBUTE, AttributeError(
                f"'{kind}' object has no attribute '{attr}'"), kind, attr)
        return UNKNOWN

    def call(self, node: ast.Call, env: dict[str, Value], depth: int) -> Value:
        func = node.func
        if self.makes_variable(func):
            return self.variable(node, env, depth)
        qualified = self.module.imports.qualify(func) if isinstance(func, ast.Attribute) else None
        if qualified == TENSOR_NAME or qualified in NUMPY_BUILDERS:
            args = [self.expr(a, env, depth + 1) for a in node.args]
            for keyword in node.keywords:
                self.expr(keyword.value, env, depth + 1)
            return self.tensor(node, args) if qualified == TENSOR_NAME else self.array(node, qualified, args)
        if (check := MINDSPORE_CONSTANT_OPERATIONS.get(qualified)) is not None:  # F.tuple_div(x, y)
            args = [self.expr(a, env, depth + 1) for a in node.args]
            return self.mindspore_operation(node, qualified, check, args)
        if isinstance(func, ast.Attribute):
            receiver = self.expr(func.value, env, depth + 1)
            self.attribute(func, receiver, func.attr)
            args = [self.expr(a, env, depth + 1) for a in node.args]
            for keyword in node.keywords:
                self.expr(keyword.value, env, depth + 1)
            return self.method(node, func, receiver, args, env)
        callee = self.expr(func, env, depth + 1)
        args = [self.expr(a, env, depth + 1) for a in node.args]
        for keyword in node.keywords:
            self.expr(keyword.value, env, depth + 1)
        if callee is UNKNOWN:  # sub = SubCell(3) in compiled code: an object of a project class
            return self.instance_of(node, self.module, self.compiled.node)
        if callee is TENSOR_CLASS_VALUE:
            return self.tensor(node, args)
        qualified = self.module.imports.qualify(func)
        if qualified in NUMPY_BUILDERS:
            return self.array(node, qualified, args)
        if (check := MINDSPORE_CONSTANT_OPERATIONS.get(qualified)) is not None:
            return self.mindspore_operation(node, qualified, check, args)
        if isinstance(callee, Builtin) and callee.name in ("len", "enumerate") and args:
            self.string_length(node, args[0])
        if isinstance(callee, Builtin) and callee.name in ("int", "float", "len") and len(args) == 1:
            self.scalar_of_tensor(node, callee.name, args[0])
        if (callee == Builtin("getattr") and len(args) == 2 and not node.keywords
                and is_known(args[1]) and isinstance(args[1].value, str)):
            return self.attribute(node, args[0], args[1].value)
        if (callee == Builtin("hasattr") and len(args) == 2 and not node.keywords
                and args[0].__class__ is ObjectValue and is_known(args[1])
                and isinstance(args[1].value, str)):
            return Known(args[1].value in args[0].attributes or args[1].value.startswith("__"))
        if callee == Builtin("map") and len(args) >= 2 and not node.keywords:
            self.map_arguments(node, args[1:])
        if isinstance(callee, Builtin) and callee.name in DYNAMIC_LENGTH_REFUSED:
            self.dynamic_length_input(node, callee.name, args[1:] if callee.name == "map" else args[:1]
                                      if callee.name == "enumerate" else args)
        if callee == Builtin("isinstance") and len(args) == 2 and not node.keywords:
            spec = node.args[1]
            specs = ([self.expr(e, env, depth + 1) for e in spec.elts]
                     if spec.__class__ is ast.Tuple else [args[1]])
            return instance_check(args[0], specs)
        if not isinstance(callee, Builtin) or node.keywords:
            return UNKNOWN
        if any(isinstance(a, ast.Starred) for a in node.args):
            return UNKNOWN
        if not self.arity_fits(node, callee.name, len(node.args)):
            return UNKNOWN
        function = PURE_BUILTINS.get(callee.name)
        if function is None or not all(is_known(a) for a in args):
            return UNKNOWN
        if callee.name == "range" and not self.range_fits(node, [a.value for a in args]):
            return UNKNOWN
        if callee.name == "pow" and (len(args) != 2 or _too_big(ast.Pow, args[0].value, args[1].value)):
            return UNKNOWN
        if args and any(isinstance(a.value, (tuple, list, dict, str, range)) and len(a.value) > MAX_LENGTH
                        for a in args):
            return UNKNOWN
        return self.apply(node, function, *args)

    # ----- mutable(): dynamic-length sequences and variable scalars ------------------------
    # What the graph checks while compiling, probed with MindSpore 2.10 (the same at STRICT and
    # LAX; compiler-suite 0371-0392): a dynamic-length sequence's elements share one type, and
    # so must everything that enters it (+, item and slice assignment, append, insert); a
    # constant-length list given an item at a variable index must already hold one type.

    def makes_variable(self, func: ast.expr) -> bool:
        """``mutable`` however it is imported (checked by name first: calls are many)."""
        imports = self.module.imports
        if func.__class__ is ast.Attribute:
            spelled = func.attr == "mutable"
        else:
            spelled = func.__class__ is ast.Name and imports.names.get(func.id) in VARIABLE_MAKERS
        return spelled and imports.qualify(func) in VARIABLE_MAKERS

    def variable(self, node: ast.Call, env: dict[str, Value], depth: int) -> Value:
        """``mutable(data)``, ``mutable(data, True)``."""
        args = [self.expr(a, env, depth + 1) for a in node.args]
        for keyword in node.keywords:
            self.expr(keyword.value, env, depth + 1)
        if any(k.arg == "dynamic_len" for k in node.keywords):
            self.fail(node, FailureKind.DYNAMIC_LENGTH, TypeError(
                "mutable() in compiled code takes dynamic_len positionally only: the keyword "
                "reaches it as a keyword argument, not a bool"), subject="keyword")
            return UNKNOWN
        if not args or len(args) > 2 or node.keywords or any(a.__class__ is ast.Starred for a in node.args):
            return UNKNOWN
        dynamic = len(args) == 2 and is_known(args[1]) and args[1].value is True
        return self.made_variable(node, args[0], dynamic)

    def driver_variable(self, expr: ast.Call, driver: tuple[ModuleInfo, ast.AST], depth: int) -> Value:
        """``mutable(...)`` in the Python code that calls the graph (a keyword is fine there)."""
        if not expr.args or len(expr.args) > 2 or any(a.__class__ is ast.Starred for a in expr.args):
            return UNKNOWN
        flags = [*expr.args[1:], *(k.value for k in expr.keywords if k.arg == "dynamic_len")]
        if len(flags) + 1 != len(expr.args) + len(expr.keywords):
            return UNKNOWN
        dynamic = [self.driver_value(flag, driver, depth + 1) for flag in flags]
        if not all(is_known(flag) for flag in dynamic):
            return UNKNOWN
        data = self.driver_value(expr.args[0], driver, depth + 1)
        return self.made_variable(None, data, bool(dynamic) and dynamic[0].value is True)

    def made_variable(self, node: ast.Call | None, data: Value, dynamic: bool) -> Value:
        """What ``mutable(data[, dynamic])`` makes; a display of mixed types fails in the graph
        (node given), and is not judged in the Python code that calls it."""
        if not dynamic:
            if is_known(data) and type(data.value) in (int, float, bool):
                return VariableScalar(type(data.value))
            if is_known(data) and type(data.value) in (tuple, list):  # its length stays known
                return SequenceValue(type(data.value), len(data.value))
            return UNKNOWN
        types = element_types(data)
        if types is None or data.__class__ is VariableSequence:
            return UNKNOWN
        kind = type(data.value) if is_known(data) else data.kind
        if not types:
            return VariableSequence(kind, None, empty=True)
        if None in types:
            return VariableSequence(kind, None)
        if len(set(types)) > 1:
            if node is not None:
                self.fail(node, FailureKind.DYNAMIC_SEQUENCE, ValueError(
                    f"a dynamic-length {kind.__name__} holds elements of one type, not "
                    f"{_listed(types)}"))
            return UNKNOWN
        return VariableSequence(kind, types[0])

    def sequence_add(self, node: ast.AST, left: Value, right: Value) -> Value:
        """``a + b`` where one side is a dynamic-length sequence: the result is one too."""
        sides = [element_types(left), element_types(right)]
        kinds = {v.kind if v.__class__ is not Known else type(v.value) for v in (left, right)
                 if v.__class__ in (VariableSequence, SequenceValue) or is_known(v)}
        if None in sides or len(kinds) != 1:
            return UNKNOWN
        types = [t for side in sides for t in side]
        if None in types:
            return VariableSequence(kinds.pop(), None)
        if len(set(types)) > 1:
            dynamic = left if left.__class__ is VariableSequence else right
            self.fail(node, FailureKind.DYNAMIC_SEQUENCE, TypeError(
                f"a dynamic-length {dynamic.kind.__name__} of {describe_type(dynamic.element)} cannot "
                f"be joined with elements of {_listed([t for t in types if t != dynamic.element])}"))
            return UNKNOWN
        return VariableSequence(kinds.pop(), types[0] if types else None, empty=not types)

    def item_assignment(self, stmt: ast.Assign, target: ast.Subscript, value: Value,
                        env: dict[str, Value]) -> None:
        """``a[i] = v`` and ``a[i:j] = vs`` on a dynamic-length list, or at a variable index."""
        base = self.expr(target.value, env)
        index = target.slice
        if index.__class__ is ast.Slice:
            entering = element_types(value)
            if base.__class__ is VariableSequence:
                types = [base.element, *(entering or [])]
            elif value.__class__ is VariableSequence or any(
                    self.expr(p, env).__class__ is VariableScalar
                    for p in (index.lower, index.upper, index.step) if p is not None):
                types = [*(element_types(base) or [None]), *(entering or [])]
            else:
                return
            if entering is None:
                return
            what = "the slice assigned"
        else:
            position = self.expr(index, env)
            if base.__class__ is VariableSequence:
                types = [base.element, element_type(value)]
            elif position.__class__ is VariableScalar and is_known(base) and type(base.value) is list:
                types = [*element_types(base), element_type(value)]
            else:
                return
            what = "the item assigned"
        if None in types or len(set(types)) < 2:
            return
        where = ("a dynamic-length list" if base.__class__ is VariableSequence
                 else "a list whose position is decided at run time")
        self.fail(stmt, FailureKind.DYNAMIC_SEQUENCE, TypeError(
            f"{what} must have the one element type of {where}; here {_listed(types)}"))

    def variable_sequence_method(self, node: ast.Call, receiver: VariableSequence, attr: str,
                                 args: list[Value]) -> None:
        if attr == "extend" and receiver.kind is list:
            self.fail(node, FailureKind.DYNAMIC_LENGTH, RuntimeError(
                "list.extend does not support a dynamic-length list"), subject="extend")
        elif attr in ("append", "insert") and receiver.kind is list and args and not node.keywords:
            entering = element_type(args[-1])
            if receiver.element is not None and entering is not None and entering != receiver.element:
                self.fail(node, FailureKind.DYNAMIC_SEQUENCE, TypeError(
                    f"list.{attr} must add an element of the dynamic-length list's one type, "
                    f"{describe_type(receiver.element)}, not {describe_type(entering)}"))

    def dynamic_length_input(self, node: ast.Call, name: str, inputs: list[Value]) -> None:
        """map, zip and enumerate refuse a dynamic-length input."""
        if any(v.__class__ is VariableSequence for v in inputs):
            self.fail(node, FailureKind.DYNAMIC_LENGTH, RuntimeError(
                f"{name}() does not take a dynamic-length input in graph mode"), subject="builtin")

    def value_of(self, node: ast.expr) -> Value:
        """The value already evaluated for a node (keywords are evaluated with their call)."""
        return self.result.value(node)

    def range_fits(self, node: ast.Call, bounds: list[Value]) -> bool:
        """make_range walks the range in int64 and fails when a step passes its limits."""
        if not all(type(b) is int for b in bounds):
            return True  # Python's own TypeError follows
        try:
            steps = range(*bounds)
            past = steps[-1] + steps.step if steps else None  # `if steps`: no len() overflow
        except (ValueError, OverflowError):
            return True
        if any(not INT64_MIN <= b <= INT64_MAX for b in bounds) or (
                past is not None and not INT64_MIN <= past <= INT64_MAX):
            self.fail(node, FailureKind.OPERATION, ValueError(
                "walking the range overflows int64 (the graph's make_range counts in int64)"))
            return False
        return True

    def dtype_of(self, node: ast.Call) -> str | None:
        for keyword in node.keywords:
            if keyword.arg == "dtype":
                qualified = self.module.imports.qualify(keyword.value) or ""
                name = qualified.rsplit(".", 1)[-1]
                if qualified.rpartition(".")[0] in ELEMENT_TYPE_MODULES and name in ELEMENT_TYPES:
                    return {"bool_": "bool"}.get(name, name)
                return None
        return ""  # not given

    def tensor(self, node: ast.Call, args: list[Value]) -> TensorValue:
        """Tensor(data[, dtype]): its dtype and shape where the data says (ints give int64,
        floats float32, a numpy array keeps its own)."""
        keywords = [self.value_of(k.value) for k in node.keywords if k.arg not in ("dtype", "const_arg")]
        constant = all(is_known(a) or a.__class__ is ArrayValue for a in [*args, *keywords])
        if len(node.args) != 1 or any(k.arg not in ("dtype", "const_arg") for k in node.keywords):
            return TensorValue(constant)
        dtype = self.dtype_of(node)
        data = args[0]
        shape, kind = None, None
        if is_known(data) and (found := data_shape(data.value)) is not None:
            shape, kind = found
            kind = {"int": "int64", "float": "float32", "bool": "bool"}[kind]
        elif data.__class__ is SequenceValue and data.length > 1:
            # Each item is at least one element (or the construction fails anyway).
            return TensorValue(constant, dtype or None, None, data.length)
        elif data.__class__ is ArrayValue:
            shape, kind = data.shape, data.dtype
        return TensorValue(constant, dtype if dtype != "" else kind, shape)

    def array(self, node: ast.Call, qualified: str, args: list[Value]) -> Value:
        dtype = self.dtype_of(node)
        if not args or not is_known(args[0]):
            return UNKNOWN
        if qualified == NUMPY_RANGE:  # np.arange(6), np.arange(0, 6, 2): ints only
            bounds = [a.value if is_known(a) else None for a in args]
            if len(bounds) > 3 or not all(type(b) is int for b in bounds) or 0 in bounds[2:]:
                return UNKNOWN
            return ArrayValue(dtype if dtype != "" else "int64", (len(range(*bounds)),))
        if qualified in NUMPY_FILLED:
            size = args[0].value
            shape = (size,) if isinstance(size, int) else size
            if not (isinstance(shape, (tuple, list)) and all(type(n) is int for n in shape)):
                return UNKNOWN
            return ArrayValue(dtype if dtype != "" else "float64", tuple(shape))
        found = data_shape(args[0].value)
        if found is None:
            return UNKNOWN
        shape, kind = found
        return ArrayValue(dtype if dtype != "" else {"int": "int64", "float": "float64", "bool": "bool"}[kind],
                          shape)

    def string_length(self, node: ast.AST, value: object) -> None:
        """len() of a string constant, enumerate() of one, a for loop over one: STRICT and
        COMPATIBLE give graph strings no ``__len__`` (probed with 2.10; LAX reads them)."""
        if is_known(value) and isinstance(value.value, str):
            self.fail(node, FailureKind.STRING_LENGTH, AttributeError(
                "a string has no __len__ in the graph at STRICT and COMPATIBLE"))

    def map_arguments(self, node: ast.Call, iterables: list[Value]) -> None:
        """The graph's map takes lists or tuples, all of one kind and one length (MindSpore
        2.10 rejects the rest at every level, where Python would truncate: compiler-suite
        0347-0350)."""
        shapes = []
        for value in iterables:
            if value.__class__ is SequenceValue:
                shapes.append((value.kind, value.length))
            elif value.__class__ is TensorValue:
                shapes.append((TensorValue, None))  # rejected beside a list or tuple (0348)
            elif is_known(value) and isinstance(value.value, (list, tuple)):
                shapes.append((type(value.value), len(value.value)))
            elif is_known(value) and isinstance(value.value, (int, float, type(None))):
                self.fail(node, FailureKind.OPERATION, RuntimeError(
                    f"map can only be applied to lists and tuples, but got {type(value.value).__name__}"),
                    subject="map")
                return
            else:
                return  # not known: nothing to say
        kinds = {kind for kind, _ in shapes}
        if kinds == {TensorValue}:
            return  # map over tensors alone: not judged
        if len(kinds) > 1:
            self.fail(node, FailureKind.OPERATION, RuntimeError(
                "the arguments of map must all be lists or all be tuples"), subject="map")
        elif len({length for _, length in shapes}) > 1:
            self.fail(node, FailureKind.OPERATION, RuntimeError(
                f"the arguments of map must have one length, not {sorted({n for _, n in shapes})}"),
                subject="map")

    def mindspore_operation(self, node: ast.Call, qualified: str, check, args: list[Value]) -> Value:
        """A MindSpore operation the compiler folds on constants, checked as it checks them."""
        if node.keywords or not args or not all(is_known(a) for a in args):
            return UNKNOWN
        try:
            return known(check(*[a.value for a in args]))
        except RuntimeError as error:
            self.fail(node, FailureKind.OPERATION, error, subject=qualified.rsplit(".", 1)[-1])
        except Exception:  # noqa: BLE001 - a wrong call of the operation: not judged here
            pass
        return UNKNOWN

    def scalar_of_tensor(self, node: ast.Call, name: str, value: object) -> None:
        """int(t), float(t) of a tensor or array with several elements; len() of a 0-D tensor."""
        if value.__class__ not in (TensorValue, ArrayValue):
            return
        count = element_count(value.shape)
        if name == "len":
            if value.__class__ is TensorValue and value.shape == ():
                self.fail(node, FailureKind.OPERATION, TypeError("len() of a 0-D tensor"))
        elif count is not None and count > 1:
            self.fail(node, FailureKind.OPERATION, (ValueError if value.__class__ is TensorValue else TypeError)(
                f"only a single-element {'tensor' if value.__class__ is TensorValue else 'array'} "
                f"converts to a Python scalar, not shape {value.shape}"))

    def arity_fits(self, node: ast.Call, name: str, count: int) -> bool:
        if not arity_refused(name, count):
            return True
        fewest, most = BUILTIN_ARITY[name]
        if most is None:
            takes = f"at least {fewest}"
        elif name in ARITY_EXCEPTIONS:
            takes = " or ".join(str(n) for n in range(fewest, most + 1) if n not in ARITY_EXCEPTIONS[name])
        else:
            takes = str(fewest) if fewest == most else f"{fewest} to {most}"
        plural = "" if takes.endswith(" 1") or takes == "1" else "s"
        self.fail(node, FailureKind.ARITY, TypeError(f"{name}() takes {takes} argument{plural}, got {count}"))
        return False

    def method(self, node: ast.Call, func: ast.Attribute, receiver: object, args: list,
               env: dict[str, Value]) -> Value:
        base = func.value
        if receiver.__class__ is ArrayValue and func.attr == "reshape" and not node.keywords:
            return reshaped(receiver, args)
        if (func.attr == "format" and is_known(receiver) and isinstance(receiver.value, str)
                and any(a.__class__ is ObjectValue and a.cell for a in args)):
            # "value is {0.x}".format(cell): every level rejects it while compiling ("Unsupported
            # parameter type for python primitive", compiler-suite 0184, 0185, 0603, 0604)
            self.fail(node, FailureKind.OPERATION, TypeError(
                "str.format cannot take a Cell: it is no parameter of a Python primitive"),
                subject="format")
            return UNKNOWN
        if receiver.__class__ is VariableSequence:
            self.variable_sequence_method(node, receiver, func.attr, args)
            return UNKNOWN
        if not is_known(receiver) or not isinstance(receiver.value, CONSTANT_TYPES):
            return UNKNOWN
        value, attr = receiver.value, func.attr
        kind = type(value)
        if not hasattr(value, attr):
            return UNKNOWN  # reported by attribute()
        changes = attr in CHANGING_METHODS.get(kind, ())
        reads = attr in READING_METHODS.get(kind, ())
        if not (changes or reads) or node.keywords or not all(is_known(a) for a in args):
            if changes and isinstance(base, ast.Name):
                env[base.id] = UNKNOWN
            return UNKNOWN
        own = copy.deepcopy(value)
        try:
            result = getattr(own, attr)(*[copy.deepcopy(a.value) for a in args])
        except REPORTED_ERRORS as error:
            self.fail(node, FailureKind.OPERATION, error)
            return UNKNOWN
        except Exception:  # noqa: BLE001
            return UNKNOWN
        if changes:
            if isinstance(base, ast.Name):
                env[base.id] = known(own)
        return known(list(result) if isinstance(result, type({}.keys())) else result) \
            if not isinstance(result, (type({}.values()), type({}.items()))) else UNKNOWN


# Builtins that refuse a dynamic-length input (probed with 2.10: "For 'map', the dynamic length
# input is unsupported in graph mode"; enumerate is a zip); len, sum and a for loop take one.
DYNAMIC_LENGTH_REFUSED = frozenset({"map", "zip", "enumerate"})
TENSOR_CLASS_VALUE = Builtin("mindspore.Tensor")
EXPRESSION_HANDLERS = {
    # names and constants are handled in Interpreter.expr itself
    ast.Attribute: Interpreter._attribute, ast.Call: Interpreter._call, ast.BinOp: Interpreter._binop,
    ast.Subscript: Interpreter._subscript, ast.Tuple: Interpreter._sequence,
    ast.List: Interpreter._sequence, ast.Compare: Interpreter._compare,
    ast.UnaryOp: Interpreter._unaryop, ast.BoolOp: Interpreter._boolop, ast.Dict: Interpreter._dict,
    ast.IfExp: Interpreter._ifexp, ast.Slice: Interpreter._slice,
    ast.NamedExpr: Interpreter._namedexpr, ast.Starred: Interpreter._inner_values,
    ast.JoinedStr: Interpreter._inner_values, ast.FormattedValue: Interpreter._inner_values,
}


def _listed(types: list[tuple]) -> str:
    """The distinct element types, in order of appearance, as a message names them."""
    return ", ".join(describe_type(t) for t in dict.fromkeys(types))


def _base_name(node: ast.expr) -> tuple[str, ...]:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return (node.id,) if node.__class__ is ast.Name else ()


# Builtin types isinstance is decided for, by name.
CHECKED_TYPES = {"int": int, "float": float, "bool": bool, "str": str, "tuple": tuple, "list": list,
                 "dict": dict}


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


def tuple_div(dividend: tuple, divisor: tuple) -> tuple:
    """``F.tuple_div`` as MindSpore 2.10 folds it on constant tuples (compiler-suite 0374-0376:
    rejected at every level with these messages)."""
    if not (isinstance(dividend, tuple) and isinstance(divisor, tuple)):
        raise TypeError("tuple_div takes two tuples")
    if len(dividend) != len(divisor):
        raise RuntimeError(f"the size of inputs of 'tuple_div' operator must be the same, but the "
                           f"size of divisor tuple is {len(divisor)}, the size of dividend tuple is "
                           f"{len(dividend)}")
    for number in (*dividend, *divisor):
        if type(number) is not int:
            raise RuntimeError(f"the data type of inputs of 'tuple_div' operator should be an int64 "
                               f"number, but got {number!r}")
    if 0 in divisor:
        raise RuntimeError("the divisor value should not be 0")
    return tuple(a // b for a, b in zip(dividend, divisor))


# MindSpore operations the compiler folds on constants (knowledge), checked as it checks them.
FOLDING = {"tuple_div": tuple_div}
MINDSPORE_CONSTANT_OPERATIONS = {name: FOLDING[operation] for name, operation in FOLDED_OPERATIONS.items()}


def instance_check(value: Value, specs: list[Value]) -> Value:
    """``isinstance(value, spec)`` where both are known (``specs``: the types a tuple spec
    names, or the one type): a constant against builtin types, a tensor or a numpy array against
    builtin types and Tensor. The compiler decides it while compiling; unknown for anything else
    (a namedtuple is a tuple, a project class may be anything)."""
    types: list[type] = []
    tensor = False
    for item in specs:
        if item is TENSOR_CLASS_VALUE:
            tensor = True
        elif item.__class__ is Builtin and item.name in CHECKED_TYPES:
            types.append(CHECKED_TYPES[item.name])
        else:
            return UNKNOWN
    if value.__class__ is TensorValue:
        return Known(tensor)
    if value.__class__ is ArrayValue:
        return Known(False)
    if is_known(value) and isinstance(value.value, CONSTANT_TYPES):
        return Known(isinstance(value.value, tuple(types)))
    return UNKNOWN


def reshaped(array: ArrayValue, args: list[Value]) -> Value:
    """``a.reshape(2, 3)`` / ``a.reshape((2, 3))`` of an array whose shape is known (one -1
    allowed); unknown when the element counts differ (numpy's ValueError is not judged here)."""
    shape = args[0].value if len(args) == 1 and is_known(args[0]) else [
        a.value if is_known(a) else None for a in args]
    shape = (shape,) if type(shape) is int else shape
    count = element_count(array.shape)
    if count is None or not isinstance(shape, (tuple, list)) or not all(type(n) is int for n in shape):
        return UNKNOWN
    if shape.count(-1) == 1:
        rest = element_count(tuple(n for n in shape if n != -1))
        if not rest or count % rest:
            return UNKNOWN
        shape = tuple(count // rest if n == -1 else n for n in shape)
    if element_count(tuple(shape)) != count or any(n < 0 for n in shape):
        return UNKNOWN
    return ArrayValue(array.dtype, tuple(shape))


def _unless_changed(value: Value, module: ModuleInfo, function: ast.AST, name: str) -> Value:
    """An object bound to ``name`` in ``function``, unless the function may give it attributes
    (``setattr(obj, ...)``, ``configure(obj)``); a namedtuple takes none."""
    if value.__class__ is ObjectValue and not value.fixed and not only_read(module, function, name):
        return UNKNOWN
    return value


def _only_value(values: list[ast.expr] | None) -> ast.expr | None:
    return values[0] if values is not None and len(values) == 1 else None


def namedtuple_fields(call: ast.expr, module: ModuleInfo) -> frozenset[str] | None:
    """The fields of ``namedtuple("T", ["a", "b"])`` (or ``"a b"``, ``"a, b"``), of
    ``NamedTuple("T", [("a", int)])``; None for anything else or fields not written as literals."""
    if call.__class__ is not ast.Call or len(call.args) < 2:
        return None
    if module.imports.qualify(call.func) not in NAMEDTUPLE_FACTORIES:
        return None
    spec = call.args[1]
    if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
        return frozenset(spec.value.replace(",", " ").split())
    if isinstance(spec, (ast.List, ast.Tuple)):
        names = []
        for element in spec.elts:
            if isinstance(element, ast.Tuple) and element.elts:
                element = element.elts[0]
            if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
                return None
            names.append(element.value)
        return frozenset(names)
    return None


def _unchangeable(value: Value) -> Value:
    """A module's or closure's constant, if nothing can change it in place: a list or a dict
    may be filled elsewhere (REGISTRY["relu"] = ..., ITEMS.append(3))."""
    return value if not is_known(value) or _immutable(value.value) else UNKNOWN


def _other_module_bindings(module: ModuleInfo) -> frozenset[str]:
    """Names the module binds other than by `name = value`: loops, with, augmented assignments,
    imports, definitions (a constant rebound so is no constant)."""
    def collect(tree: ast.AST) -> frozenset[str]:
        names: set[str] = set()
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(stmt.name)
            elif not isinstance(stmt, ast.Assign):
                for node in ast.walk(stmt):  # an if/try/for at module level, with its blocks
                    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                        names.add(node.id)
                    elif isinstance(node, (ast.Import, ast.ImportFrom,
                                           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        names.update(bound_names(node))
        return frozenset(names)

    return module.derived("other module bindings", module.tree, collect)


def _one_item(value: object) -> bool:
    """A sequence of exactly one item (a range too long for len() is not)."""
    if not isinstance(value, (tuple, list, str, range)):
        return False
    try:
        return len(value) == 1
    except OverflowError:
        return False


def _immutable(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_immutable(v) for v in value)
    return not isinstance(value, (list, dict))


def _declared_ndim(call: ast.Call) -> int | None:
    """``Tensor(shape=(1, c, h, w), ...)``: four dimensions, whatever the sizes."""
    shape = next((k.value for k in call.keywords if k.arg == "shape"), None)
    return len(shape.elts) if isinstance(shape, (ast.Tuple, ast.List)) else None


def _builds_tensor(value: ast.expr, module: ModuleInfo) -> bool:
    """``Tensor(...)``: a constant tensor, not a Parameter."""
    return value.__class__ is ast.Call and module.imports.qualify(value.func) == TENSOR_NAME


def _is_slice_call(value: ast.expr, module: ModuleInfo) -> bool:
    return isinstance(value, ast.Call) and module.imports.qualify(value.func) == "builtins.slice"


def _same(a: Value, b: Value) -> bool:
    if a is b:
        return True
    if is_known(a) and is_known(b):
        return type(a.value) is type(b.value) and _safe_equal(a.value, b.value)
    return a == b


def _safe_equal(a: object, b: object) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


BINDING_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom,
                 ast.ExceptHandler, ast.Global, ast.Nonlocal, ast.arguments, ast.MatchAs,
                 ast.MatchStar, ast.MatchMapping)


def _declared_global(module: ModuleInfo, name: str) -> bool:
    text = module.source.text or ""
    return "global" in text and re.search(rf"\bglobal\b[^\n]*\b{re.escape(name)}\b", text) is not None


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


def join_values(values: list[Value]) -> Value | None:
    """What several calls pass, as one value: a tensor (join_tensors), or what every call
    passes alike (a copy of a constant: the callee may change a list it is given); None when
    they differ or any is unknown."""
    if (joined := join_tensors(values)) is not None:
        return joined
    first = values[0] if values else UNKNOWN
    if first is UNKNOWN or not all(_same(first, v) for v in values[1:]):
        return None
    return Known(copy.deepcopy(first.value)) if is_known(first) else first


def join_tensors(values: list[Value]) -> TensorValue | None:
    """What several calls pass, as one value, when each passes a tensor: its dtype and shape
    where they all agree; None when any is not a tensor."""
    if not values or any(v.__class__ is not TensorValue for v in values):
        return None
    first = values[0]
    return TensorValue(all(v.constant for v in values),
                       first.dtype if all(v.dtype == first.dtype for v in values) else None,
                       first.shape if all(v.shape == first.shape for v in values) else None,
                       ndim=first.rank if all(v.rank == first.rank for v in values) else None)


def evaluation(model: ReachModel, compiled: CompiledFunction) -> Evaluation:
    """The folded values of a compiled function (computed once per run); an empty one where
    nothing can be folded (``may_fold_something``)."""
    return model.memo(model.evaluations, id(compiled), lambda: _evaluate(model, compiled))


def _evaluate(model: ReachModel, compiled: CompiledFunction) -> Evaluation:
    pending = model.table("evaluations pending")  # callers asked for what they pass: no cycle
    pending[id(compiled)] = True
    try:
        if not may_fold_something(model, compiled):
            return Evaluation()
        return Interpreter(model, compiled).run()
    finally:
        pending.pop(id(compiled), None)


# ----- which functions are worth interpreting -------------------------------------------------

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
                if (func.id in CONSTRUCTOR_NAMES or func.id == "getattr" or _wrong_count(node)
                        or module.imports.names.get(func.id) in CONSTRUCTOR_QUALNAMES):
                    return True
                if func.id in PURE_BUILTINS or func.id == "enumerate":  # enumerate("abc") too
                    calls.append(node)
            elif func.__class__ is ast.Attribute and func.attr in CONSTRUCTOR_NAMES:
                return True
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
        if node.__class__ is ast.Slice and _may_refuse_slice(node, maybe_constant):
            return True  # a str or float bound, a step that may be zero: refused by make_slice
        if (node.__class__ is ast.BinOp and node.op.__class__ not in (ast.Add, ast.MatMult)
                and _displayed_sequence(node.left, assigned) and _displayed_sequence(node.right, assigned)):
            return True  # `[x] & [y]`: an operator Python does not define on two sequences
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


# BoolOp: `a and b` raises nothing by itself (a tensor operand is found through its
# construction or a caller, asked above).
NEVER_FAILING = frozenset({ast.BoolOp})


def arity_refused(name: str, count: int) -> bool:
    """Whether the graph refuses ``count`` positional arguments to the builtin ``name``."""
    bounds = BUILTIN_ARITY.get(name)
    if bounds is None:
        return False
    fewest, most = bounds
    return count < fewest or (most is not None and count > most) or count in ARITY_EXCEPTIONS.get(name, ())


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
