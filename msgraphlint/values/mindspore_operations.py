"""MindSpore and numpy operations on known values: Tensor(...), numpy arrays, the functions
the compiler folds (knowledge FOLDED_OPERATIONS).

One concern of the Interpreter (values/interpret.py), which mixes it in; ``self`` is the
Interpreter."""

from __future__ import annotations

import ast
import numbers

from ..knowledge.mindspore import ELEMENT_TYPES
from .domain import (
    ArrayValue, FailureKind, TensorValue, UNKNOWN, Value, element_count, is_array_value,
    is_known, is_sequence_value, is_tensor_value, kind_name, known,
)
from .folding import (
    ELEMENT_TYPE_MODULES, EXTEND_REFUSED, NUMPY_FILLED, NUMPY_RANGE, data_shape,
)


class MindSporeOperations:
    def dtype_of(self, node: ast.Call, position: int | None = None) -> str | None:
        """The element type a call names (``dtype=``, or its positional argument at
        ``position``: ``np.ones((2, 3), np.float32)``); None when it names one not known here,
        "" when it names none."""
        given = [k.value for k in node.keywords if k.arg == "dtype"]
        if position is not None and len(node.args) > position:
            given.append(node.args[position])
        for expr in given:
            qualified = self.module.imports.qualify(expr) or ""
            name = qualified.rsplit(".", 1)[-1]
            if qualified.rpartition(".")[0] in ELEMENT_TYPE_MODULES and name in ELEMENT_TYPES:
                return {"bool_": "bool"}.get(name, name)
            return None
        return ""  # not given

    def tensor(self, node: ast.Call, args: list[Value]) -> TensorValue:
        """Tensor(data[, dtype]): its dtype and shape where the data says (ints give int64,
        floats float32, a numpy array keeps its own)."""
        keywords = [self.value_of(k.value) for k in node.keywords if k.arg not in ("dtype", "const_arg")]
        constant = all(is_known(a) or is_array_value(a) for a in [*args, *keywords])
        if len(node.args) != 1 or any(k.arg not in ("dtype", "const_arg") for k in node.keywords):
            return TensorValue(constant)
        dtype = self.dtype_of(node)
        data = args[0]
        shape, kind = None, None
        if is_known(data) and (found := data_shape(data.value)) is not None:
            shape, kind = found
            kind = {"int": "int64", "float": "float32", "bool": "bool"}[kind]
        elif is_sequence_value(data) and data.length > 1:
            # Each item is at least one element (or the construction fails anyway).
            return TensorValue(constant, dtype or None, None, data.length)
        elif is_array_value(data):
            shape, kind = data.shape, data.dtype
        return TensorValue(constant, dtype if dtype != "" else kind, shape)

    def array(self, node: ast.Call, qualified: str, args: list[Value]) -> Value:
        # np.ones(shape, dtype), np.array(data, dtype): the second positional argument is the dtype
        dtype = self.dtype_of(node, None if qualified == NUMPY_RANGE else 1)
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

    def length_of_tensor(self, node: ast.Call, value: Value) -> None:
        """len() of a 0-D tensor."""
        if is_tensor_value(value) and value.shape == ():
            self.fail(node, FailureKind.OPERATION, TypeError("len() of a 0-D tensor"))

    def scalar_of_tensor(self, node: ast.Call, value: Value) -> None:
        """int(t), float(t) of a tensor or array with several elements."""
        if not (is_tensor_value(value) or is_array_value(value)):
            return
        count = element_count(value.shape)
        if count is not None and count > 1:
            self.fail(node, FailureKind.OPERATION, (ValueError if is_tensor_value(value) else TypeError)(
                f"only a single-element {'tensor' if is_tensor_value(value) else 'array'} "
                f"converts to a Python scalar, not shape {value.shape}"))

    def iteration_of_tensor(self, node: ast.AST, value: Value, how: str) -> None:
        """A for loop, zip(), enumerate(), list() or tuple() over a 0-d tensor, which has no
        elements (probed with 2.10 and 2.7, STRICT and LAX alike: TypeError "Not support len of a
        0-D tensor.", zip "Cannot iterate over a scalar tensor.", enumerate "cannot get item by
        index from an empty sequence")."""
        if kind_name(value) == "a 0-d tensor":
            self.fail(node, FailureKind.OPERATION, TypeError(
                f"{how} over a 0-d tensor, which has no elements to iterate"))

    def loop_over_number(self, node: ast.AST, value: Value) -> None:
        """A for loop over a number the compiler knows (``for i in 3``, ``for i in
        np.int64(1)``): rejected at every level, as Python would (probed with 2.10 at STRICT and
        LAX: TypeError "'int64' object is not iterable", "'float32' object is not iterable";
        compiler-suite 0410, 0411)."""
        if is_known(value) and isinstance(value.value, numbers.Real):
            self.fail(node, FailureKind.OPERATION, TypeError(
                f"'{type(value.value).__name__}' object is not iterable"), subject="for")

    def list_extended(self, node: ast.Call, receiver: Value, args: list[Value]) -> None:
        """``l.extend(v)`` of a list built in the graph (of tensors, say) with a value that is not
        a list, tuple or tensor of one or more dimensions (probed with 2.10 and 2.7: STRICT
        RuntimeError "ListExtend supports list, tuple and Tensor, but got ...", "ListExtend does
        not support scalar tensor."; LAX TypeError "For ListInplaceExtend, the second input should
        be tuple or list", "iteration over a 0-d tensor")."""
        if len(args) != 1 or node.keywords or is_known(receiver) or kind_name(receiver) != "a list":
            return
        kind = kind_name(args[0])
        if kind in EXTEND_REFUSED:
            self.fail(node, FailureKind.OPERATION, TypeError(
                f"list.extend takes a list, a tuple or a tensor of one or more dimensions, not {kind}"))
