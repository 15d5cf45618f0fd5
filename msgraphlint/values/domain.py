"""The values the interpreter of compile-time values gives an expression (values/interpret.py).

Every value is an instance of one class below, all of them ``Value``: a constant (``Known``), a
tensor (a Parameter is one), a host copy of one, a numpy array, a sequence whose length is
known, a dict whose keys are known, a dynamic-length sequence or a variable scalar
(``mutable``), an object with known attributes, a builtin, a failure the compiler raises while
folding, or UNKNOWN.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeGuard


class Value:
    """The base of every compile-time value."""

    __slots__ = ()


class FailureKind(StrEnum):
    """What a Failure is, which decides the rule that reports it (checkers/constants.py)."""

    OPERATION = "operation"  # an operator or call Python itself rejects on these constants
    ATTRIBUTE = "attribute"  # an attribute the value does not have
    ARITY = "arity"  # a builtin given a number of arguments it refuses
    JOIN = "join"  # `and`/`or`/`if` joining a tensor and a Python value
    TENSOR_BOOL = "tensor-bool"  # the truth value of a multi-element tensor
    WRAPS = "wraps"  # an int64 result the graph wraps around
    STRING_LENGTH = "string-length"  # len() of a str, refused at STRICT
    DYNAMIC_LENGTH = "dynamic-length"  # what a dynamic-length sequence does not support
    DYNAMIC_SEQUENCE = "dynamic-sequence"  # elements of different types in one


class _Unknown(Value):
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


class _Static(Value):
    """Known while compiling, though not known here (``x.shape`` of an input): what the model of
    constants and variables says of a value it cannot fold."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "STATIC"


STATIC = _Static()


@dataclass(frozen=True, slots=True)
class Known(Value):
    value: object


@dataclass(frozen=True, slots=True)
class TensorValue(Value):
    constant: bool  # built from constants inside the graph, not an input
    dtype: str | None = None  # "float32", "int64", ... where the construction says
    shape: tuple[int, ...] | None = None
    # Elements it has at least, where the shape is not known: Tensor([0, n]) holds two or more.
    at_least: int = 0
    # How many dimensions, where the sizes are not all known: Tensor(shape=(1, c, h, w), init=...).
    ndim: int | None = None
    # A Parameter of a Cell (``self.w = Parameter(...)``): a graph variable whose value training
    # changes, its dtype and shape those of its initial value where that is known.
    parameter: bool = False

    @property
    def rank(self) -> int | None:
        return len(self.shape) if self.shape is not None else self.ndim

    @property
    def elements(self) -> int | None:
        """How many elements it holds, or at least holds; None when nothing is known."""
        count = element_count(self.shape)
        return count if count is not None else (self.at_least or None)


@dataclass(frozen=True, slots=True)
class HostValue(Value):
    """A host copy of a graph variable, made while the graph runs (``w.asnumpy()``,
    ``w.tolist()``): a numpy array, list or Python number whose length, shape and elements are
    known only then."""

    kind: str  # "array", "list"


@dataclass(frozen=True, slots=True)
class ArrayValue(Value):
    """A numpy array built from constants (np.ones((2, 2)), np.array([1, 2]))."""

    dtype: str | None
    shape: tuple[int, ...] | None


def element_count(shape: tuple[int, ...] | None) -> int | None:
    if shape is None:
        return None
    count = 1
    for size in shape:
        count *= size
    return count


@dataclass(frozen=True, slots=True)
class SequenceValue(Value):
    """A list or tuple whose length is known but not every element (``[x]`` of a tensor a
    driver passes)."""

    kind: type  # list or tuple
    length: int
    # Each element's value, where the display that built it is at hand (for element types).
    elements: tuple[object, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class DictValue(Value):
    """A dict display whose keys are all known and whose values are not (``{"mask": m, "n":
    2}``): an item read with one of its keys is that key's value."""

    keys: tuple[object, ...]
    values: tuple[Value, ...]

    def item(self, key: object) -> Value:
        for known_key, value in zip(self.keys, self.values):
            if type(known_key) is type(key) and known_key == key:
                return value
        return UNKNOWN


@dataclass(frozen=True, slots=True)
class VariableSequence(Value):
    """A list or tuple made dynamic-length by ``mutable(seq, True)``: the graph leaves its length
    to run time, so all its elements have one abstract type (``element_type``)."""

    kind: type  # list or tuple
    element: tuple | None  # the element type; None when it has no element or it is not known
    empty: bool = False


@dataclass(frozen=True, slots=True)
class VariableScalar(Value):
    """A scalar made a graph variable by ``mutable(3)``: its value is decided at run time."""

    kind: type  # int, float or bool


@dataclass(frozen=True, slots=True)
class ObjectValue(Value):
    """An object every attribute of which is known: an instance of a project class read
    completely (a Cell, a jit_class, a plain class) or a namedtuple with its fields. Reading any
    other attribute is rejected while compiling, at every level (probed with 2.10: getattr on a
    Cell or jit_class instance, a namedtuple's missing field)."""

    name: str
    attributes: frozenset[str]
    cell: bool = False  # an instance of a Cell: no parameter of a Python primitive (str.format)
    fixed: bool = False  # a namedtuple: no attribute can be added to it (setattr fails)
    # The attributes whose value is known: set once, in the __init__ the construction calls, to
    # a constant or to what the construction passes (``Block(heads=4).heads``).
    values: tuple[tuple[str, Value], ...] = ()

    def value_of(self, attr: str) -> Value:
        return next((value for name, value in self.values if name == attr), UNKNOWN)


@dataclass(frozen=True, slots=True)
class Builtin(Value):
    name: str


@dataclass(frozen=True, slots=True)
class Failure(Value):
    """An operation the compiler rejects while folding it."""

    node: ast.AST
    kind: FailureKind
    error: str  # the exception Python (and the compiler) raises
    detail: str  # its message
    subject: str = ""  # for attributes: the type of the value and the attribute read
    attribute: str = ""


# ----- what every part of the interpreter asks of a value -------------------------------------

# The bounds of a folded constant: no value grows past these ("a" * 10**9, 2 ** 10**9).
MAX_LENGTH = 10_000
MAX_INT_BITS = 4_096


def is_known(value: object) -> TypeGuard[Known]:
    return value.__class__ is Known


# What a value is, asked of the domain (the interpreter and the families never compare a
# value's class themselves): each narrows the value's type for the type checker.

def is_tensor_value(value: object) -> TypeGuard[TensorValue]:
    return value.__class__ is TensorValue


def is_host_value(value: object) -> TypeGuard[HostValue]:
    return value.__class__ is HostValue


def is_array_value(value: object) -> TypeGuard[ArrayValue]:
    return value.__class__ is ArrayValue


def is_sequence_value(value: object) -> TypeGuard[SequenceValue]:
    """A list or tuple of known length whose elements are not all known (a display)."""
    return value.__class__ is SequenceValue


def is_dict_value(value: object) -> TypeGuard[DictValue]:
    return value.__class__ is DictValue


def is_variable_sequence(value: object) -> TypeGuard[VariableSequence]:
    return value.__class__ is VariableSequence


def is_variable_scalar(value: object) -> TypeGuard[VariableScalar]:
    return value.__class__ is VariableScalar


def is_object_value(value: object) -> TypeGuard[ObjectValue]:
    return value.__class__ is ObjectValue


NONE = Known(None)
# Values that are never None: `x is None` of one is False while compiling.
_NEVER_NONE = frozenset({TensorValue, HostValue, ArrayValue, SequenceValue, DictValue,
                         VariableSequence, VariableScalar, ObjectValue})


def never_none(value: Value) -> bool:
    return value.__class__ in _NEVER_NONE


def is_builtin(value: object) -> TypeGuard[Builtin]:
    return value.__class__ is Builtin


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


def same_value(a: Value, b: Value) -> bool:
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


def join_tensors(values: list[Value]) -> TensorValue | None:
    """What several calls pass, as one value, when each passes a tensor: its dtype and shape
    where they all agree; None when any is not a tensor."""
    if not values or any(v.__class__ is not TensorValue for v in values):
        return None
    first = values[0]
    return TensorValue(all(v.constant for v in values),
                       first.dtype if all(v.dtype == first.dtype for v in values) else None,
                       first.shape if all(v.shape == first.shape for v in values) else None,
                       ndim=first.rank if all(v.rank == first.rank for v in values) else None,
                       parameter=all(v.parameter for v in values))


def join(values: list[Value]) -> Value:
    """The one join of values: what several paths give as one value, for the two sides of an if
    the compiler cannot decide and for the calls of a helper alike. Tensors join into one tensor
    (join_tensors: dtype and shape where they agree); lists or tuples of one length join element
    by element (what one of them holds is not what the other does), and so do dicts of the same
    keys; any other value joins only with an equal one; else UNKNOWN."""
    if (joined := join_tensors(values)) is not None:
        return joined
    if (joined := _join_sequences(values)) is not None:
        return joined
    if (joined := _join_dicts(values)) is not None:
        return joined
    first = values[0] if values else UNKNOWN
    if first is UNKNOWN or not all(same_value(first, v) for v in values[1:]):
        return UNKNOWN
    return first


def _join_sequences(values: list[Value]) -> SequenceValue | None:
    """Lists (or tuples) of one length as one: their elements joined where each
    is known; None when they are not such sequences."""
    shapes = {(value.kind, value.length) if value.__class__ is SequenceValue else None
              for value in values}
    if len(shapes) != 1 or None in shapes:
        return None
    kind, length = shapes.pop()
    elements = [value.elements for value in values]
    if any(found is None for found in elements):
        return SequenceValue(kind, length)
    return SequenceValue(kind, length, tuple(join(list(parts)) for parts in zip(*elements)))


def _join_dicts(values: list[Value]) -> DictValue | None:
    """Dict displays of the same keys as one: their values joined key by key; None when they
    are not such dicts."""
    keys = {value.keys if value.__class__ is DictValue else None for value in values}
    if len(keys) != 1 or None in keys:
        return None
    joined = tuple(join(list(parts)) for parts in zip(*(value.values for value in values)))
    return DictValue(keys.pop(), joined)


def join_values(values: list[Value]) -> Value | None:
    """What several calls pass, as one value (``join``: a copy of a constant, since the callee
    may change a list it is given); None when they do not join."""
    joined = join(values)
    if joined is UNKNOWN:
        return None
    return Known(copy.deepcopy(joined.value)) if is_known(joined) else joined


class Kind(StrEnum):
    """The kinds of value the compiler joins and tests (a str enum: message tables key on it)."""

    TENSOR = "tensor"
    MULTI = "multi"  # a tensor that may hold more than one element
    INPUT = "input"  # a graph input of unknown structure (a tensor or a tuple of them), never None
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    STR = "str"
    NONE = "none"
    TUPLE = "tuple"
    LIST = "list"
    UNKNOWN = "unknown"
    PENDING = "pending"  # a name whose kind is being worked out (x = x / 2): neutral in joins


# The kind of a Python constant, written in the source or known to the interpreter.
CONSTANT_KINDS = {bool: Kind.BOOL, int: Kind.INT, float: Kind.FLOAT, str: Kind.STR,
                  type(None): Kind.NONE, tuple: Kind.TUPLE, list: Kind.LIST}


def kind_of(value: Value) -> Kind:
    """The kind of a value, as the branch joins see it: TENSOR, a constant's kind, or UNKNOWN."""
    if value.__class__ is TensorValue:
        return Kind.TENSOR
    if value.__class__ is Known:
        return CONSTANT_KINDS.get(type(value.value), Kind.UNKNOWN)
    return Kind.UNKNOWN


def join_kinds(kinds: list[Kind | None]) -> Kind | None:
    """``join`` seen through ``kind_of``: what several paths, bindings or calls give as one
    kind (the branch joins, a name's bindings, what a helper's callers pass). Tensors join into a
    tensor, which may hold several elements if any may; any other kind joins only with itself;
    else not known (None). PENDING (a name being worked out) is neutral: it adds nothing. Where
    ``join`` of values knows a kind, this gives the same one (tests/test_value_model.py)."""
    MULTI, TENSOR, PENDING = Kind.MULTI, Kind.TENSOR, Kind.PENDING
    settled = {kind for kind in kinds if kind != PENDING}
    if not settled:
        return PENDING if kinds else None
    if settled <= {MULTI, TENSOR}:
        return MULTI if MULTI in settled else TENSOR
    return settled.pop() if len(settled) == 1 else None


_ARTICLES = {"int": "an int", "NoneType": "None"}


def kind_name(value: Value) -> str | None:
    """What the graph takes a value for, as a message names it: ``an int``, ``a float``, ``a
    bool``, ``None``, ``a str``, ``a tuple``, ``a list``, ``a dict``, ``a tensor``, ``a 0-d
    tensor``; None where the kind is not known (an object, an array, an unknown)."""
    cls = value.__class__
    if cls is Known:
        name = type(value.value).__name__
        if name in ("int", "float", "bool", "str", "tuple", "list", "dict", "NoneType"):
            return _ARTICLES.get(name, f"a {name}")
        return None
    if cls is VariableScalar:
        return _ARTICLES.get(value.kind.__name__, f"a {value.kind.__name__}")
    if cls in (SequenceValue, VariableSequence):
        return f"a {value.kind.__name__}"
    if cls is DictValue:
        return "a dict"
    if cls is TensorValue:
        return "a 0-d tensor" if value.shape == () else "a tensor"
    return None


def known_length(value: Value) -> int | None:
    """The length of a list or tuple whose length is known (a constant, or a display of values
    not all known); None otherwise."""
    if value.__class__ is Known and type(value.value) in (tuple, list):
        return len(value.value)
    return value.length if value.__class__ is SequenceValue else None


def mapped_shape(value: Value) -> tuple[str, int, tuple[Value, ...] | None] | None:
    """What HyperMap and Map see of one argument (probed with 2.10): ``("tuple", 3, elements)``
    or ``("list", ...)`` with the elements where they are known, ``("dict", 2, None)`` for a known
    dict, ``("tensor", 0, None)``, ``("scalar", 0, None)``; None where it is not known."""
    cls = value.__class__
    if cls is Known:
        data = value.value
        if type(data) in (tuple, list):
            return type(data).__name__, len(data), tuple(known(item) for item in data)
        if type(data) is dict:
            return "dict", len(data), None
        return ("scalar", 0, None) if type(data) in (bool, int, float) else None
    if cls is SequenceValue:
        return value.kind.__name__, value.length, value.elements
    if cls is DictValue:
        return "dict", len(value.keys), None
    if cls is TensorValue:
        return "tensor", 0, None
    return ("scalar", 0, None) if cls is VariableScalar else None
