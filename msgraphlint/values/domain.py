"""The values the interpreter of compile-time values gives an expression (values/interpret.py).

Every value is an instance of one class below, all of them ``Value``: a constant (``Known``), a
tensor, a numpy array, a sequence whose length is known, a dynamic-length sequence or a variable
scalar (``mutable``), an object with known attributes, a builtin, a failure the compiler raises
while folding, or UNKNOWN.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from enum import StrEnum


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

    @property
    def rank(self) -> int | None:
        return len(self.shape) if self.shape is not None else self.ndim

    @property
    def elements(self) -> int | None:
        """How many elements it holds, or at least holds; None when nothing is known."""
        count = element_count(self.shape)
        return count if count is not None else (self.at_least or None)


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
