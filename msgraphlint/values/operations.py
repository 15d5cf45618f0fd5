"""Operations folded on known values, as the compiler folds them, and the failures they
raise.

One concern of the Interpreter (values/interpret.py), which mixes it in; ``self`` is the
Interpreter."""

from __future__ import annotations

import ast
import copy
import operator

from .domain import (
    NONE, Failure, FailureKind, Known, UNKNOWN, Value, VariableSequence, describe_type,
    element_types, is_dict_value, is_known, is_object_value, is_sequence_value, is_tensor_value,
    is_variable_scalar, is_variable_sequence, kind_name, known, known_length, never_none,
)
from .folding import (
    BINARY, COMPARE, CONSTANT_TYPES, INT64_CHECKED, INT64_MAX, INT64_MIN, INT64_WRAPPED,
    REPORTED_ERRORS, _listed, _too_big,
)


class Operations:
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
        if op is ast.Add and (is_variable_sequence(left) or is_variable_sequence(right)):
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
            if op.__class__ in (ast.Is, ast.IsNot) and (never_none(current) and right == NONE
                                                        or current == NONE and never_none(right)):
                outcome = op.__class__ is ast.IsNot  # a tensor, display or object is not None
                result = result and outcome
                current = right
                continue
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
        if not is_tensor_value(first):
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
            if (is_tensor_value(other) and first.dtype and other.dtype
                    and first.dtype != other.dtype):
                self.fail(node, FailureKind.JOIN, TypeError(
                    f"a {first.dtype} tensor and a {other.dtype} tensor"))
                return

    def subscript(self, node: ast.Subscript, value: Value, index: Value) -> Value:
        if is_variable_scalar(index) and (
                (is_variable_sequence(value) and value.empty)
                or (is_sequence_value(value) and not value.length)
                or (is_known(value) and type(value.value) in (tuple, list) and not value.value)):
            self.fail(node, FailureKind.DYNAMIC_LENGTH, ValueError(
                "an index decided at run time cannot get an item of an empty sequence"),
                subject="empty")
            return UNKNOWN
        if (kind_name(value) == "a tuple" and not is_known(value) and is_known(index)
                and type(index.value) is int and not -known_length(value) <= index.value < known_length(value)):
            # probed with 2.10 and 2.7, STRICT and LAX: IndexError "TupleGetItem evaluator index
            # should be in range[-2, 2), but got 2." (a tuple of tensors; a constant one folds)
            self.fail(node, FailureKind.OPERATION, IndexError(
                f"tuple index {index.value} is out of range for a tuple of {known_length(value)}"))
            return UNKNOWN
        if is_tensor_value(value) and is_known(index) and isinstance(index.value, slice):
            bounds = (index.value.start, index.value.stop, index.value.step)
            if any(b is not None and type(b) not in (int, bool) for b in bounds):
                self.fail(node, FailureKind.OPERATION, TypeError(
                    f"slice indices of a tensor must be integers or None, not {index.value}"))
            return UNKNOWN
        if is_known(value) and is_known(index) and isinstance(value.value, CONSTANT_TYPES):
            return self.apply(node, operator.getitem, value, index)
        if is_known(index):  # an element of a display: `(x, 2)[1]`, `{"n": 2, "x": x}["n"]`
            if is_dict_value(value):
                return value.item(index.value)
            if (is_sequence_value(value) and value.kind is tuple and value.elements is not None
                    and type(index.value) is int and -value.length <= index.value < value.length):
                return value.elements[index.value]
        return UNKNOWN

    def attribute(self, node: ast.AST, receiver: Value, attr: str) -> Value:
        if self.type_guarded:
            return UNKNOWN  # maybe in a dead branch: what it reads there proves nothing
        if is_tensor_value(receiver):
            self.result.tensor_lookups.append((node, attr))
        elif is_object_value(receiver):
            if attr not in receiver.attributes and not attr.startswith("__"):
                self.fail(node, FailureKind.ATTRIBUTE, AttributeError(
                    f"'{receiver.name}' object has no attribute '{attr}'"), receiver.name, attr)
            return receiver.value_of(attr)
        elif is_known(receiver) and isinstance(receiver.value, CONSTANT_TYPES):
            if not hasattr(receiver.value, attr):
                kind = type(receiver.value).__name__
                self.fail(node, FailureKind.ATTRIBUTE, AttributeError(
                    f"'{kind}' object has no attribute '{attr}'"), kind, attr)
        elif is_sequence_value(receiver) and not hasattr(receiver.kind, attr):
            kind = receiver.kind.__name__
            self.fail(node, FailureKind.ATTRIBUTE, AttributeError(
                f"'{kind}' object has no attribute '{attr}'"), kind, attr)
        return UNKNOWN

    def sequence_add(self, node: ast.AST, left: Value, right: Value) -> Value:
        """``a + b`` where one side is a dynamic-length sequence: the result is one too."""
        sides = [element_types(left), element_types(right)]
        kinds = {v.kind if not is_known(v) else type(v.value) for v in (left, right)
                 if is_variable_sequence(v) or is_sequence_value(v) or is_known(v)}
        if None in sides or len(kinds) != 1:
            return UNKNOWN
        types = [t for side in sides for t in side]
        if None in types:
            return VariableSequence(kinds.pop(), None)
        if len(set(types)) > 1:
            dynamic = left if is_variable_sequence(left) else right
            self.fail(node, FailureKind.DYNAMIC_SEQUENCE, TypeError(
                f"a dynamic-length {dynamic.kind.__name__} of {describe_type(dynamic.element)} cannot "
                f"be joined with elements of {_listed([t for t in types if t != dynamic.element])}"))
            return UNKNOWN
        return VariableSequence(kinds.pop(), types[0] if types else None, empty=not types)

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
