"""Calls: builtins (dispatched on knowledge/builtin_calls.py: their arity, what the graph checks
of their arguments, what it folds), methods of known values, mutable() and dynamic-length
sequences, map.

One concern of the Interpreter (values/interpret.py), which mixes it in; ``self`` is the
Interpreter."""

from __future__ import annotations

import ast
import copy

from ..knowledge.builtin_calls import (
    ARITY_EXCEPTIONS, BUILTIN_ARITY, BUILTIN_CHECKS, BUILTIN_FOLD_BOUNDS, PURE_BUILTINS,
)
from ..knowledge.catalogue import tensor_attribute_names
from ..knowledge.mindspore import HOST_COPY_METHODS, TENSOR_CLASS as TENSOR_NAME, VARIABLE_MAKERS
from ..syntax.project import ModuleInfo
from .domain import (
    MAX_LENGTH, UNKNOWN, FailureKind, HostValue, Known, SequenceValue, TensorValue, Value, VariableScalar, VariableSequence, describe_type, element_type,
    element_types, is_array_value, is_builtin, is_known, is_object_value, is_sequence_value,
    is_tensor_value, is_variable_sequence, kind_name, known,
)
from .folding import (
    CHANGING_METHODS, CONSTANT_TYPES, MINDSPORE_CONSTANT_OPERATIONS, NUMPY_BUILDERS, READING_METHODS,
    REPORTED_ERRORS, SCALAR_KINDS, TENSOR_CLASS_VALUE, _listed, _too_big, arity_refused, instance_check,
    reshaped,
)


class Calls:
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
        if is_builtin(callee):
            for check in BUILTIN_CHECKS.get(callee.name, ()):
                decided = BUILTIN_CHECK_METHODS[check](self, node, callee.name, args, env, depth)
                if decided is not None:
                    return decided
        if not is_builtin(callee) or node.keywords:
            return UNKNOWN
        if any(isinstance(a, ast.Starred) for a in node.args):
            return UNKNOWN
        if not self.arity_fits(node, callee.name, len(node.args)):
            return UNKNOWN
        function = PURE_BUILTINS.get(callee.name)
        if function is None or not all(is_known(a) for a in args):
            return UNKNOWN
        bound = BUILTIN_FOLD_BOUNDS.get(callee.name)
        if bound is not None and not BOUND_METHODS[bound](self, node, args):
            return UNKNOWN
        if args and any(isinstance(a.value, (tuple, list, dict, str, range)) and len(a.value) > MAX_LENGTH
                        for a in args):
            return UNKNOWN
        return self.apply(node, function, *args)

    # What the graph checks of a builtin's arguments (knowledge/builtin_calls.py BUILTIN_CHECKS):
    # each gives the call's value where it decides it, else None.

    def _string_length(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        if args:
            self.string_length(node, args[0])

    def _tensor_length(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        if len(args) == 1:
            self.length_of_tensor(node, args[0])

    def _scalar_conversion(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        if len(args) == 1:
            self.scalar_of_tensor(node, args[0])

    def _iterates_first(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        for value in args[:1]:
            self.iteration_of_tensor(node, value, f"{name}()")

    def _iterates_every(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        for value in args:
            self.iteration_of_tensor(node, value, f"{name}()")

    def _sequence_argument(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        if args and kind_name(args[0]) in SCALAR_KINDS:
            self.fail(node, FailureKind.OPERATION, TypeError(
                f"{name}() takes a tuple, a list or a tensor, not {kind_name(args[0])}"))

    def _dynamic_length_first(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        self.dynamic_length_input(node, name, args[:1])

    def _dynamic_length_every(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        self.dynamic_length_input(node, name, args)

    def _dynamic_length_after_first(self, node: ast.Call, name: str, args: list[Value], env,
                                    depth: int) -> None:
        self.dynamic_length_input(node, name, args[1:])

    def _attribute_by_name(self, node: ast.Call, name: str, args: list[Value], env,
                           depth: int) -> Value | None:
        if len(args) == 2 and not node.keywords and is_known(args[1]) and isinstance(args[1].value, str):
            return self.attribute(node, args[0], args[1].value)
        if len(args) in (2, 3) and is_known(args[1]) and kind_name(args[1]) not in (None, "a str"):
            self.fail(node, FailureKind.OPERATION, TypeError(
                f"getattr(): attribute name must be a str, not {kind_name(args[1])}"))
            return UNKNOWN
        return None

    def _has_attribute(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> Value | None:
        if (len(args) == 2 and not node.keywords and is_object_value(args[0]) and is_known(args[1])
                and isinstance(args[1].value, str)):
            return Known(args[1].value in args[0].attributes or args[1].value.startswith("__"))
        if (len(args) == 2 and not node.keywords and is_tensor_value(args[0]) and is_known(args[1])
                and isinstance(args[1].value, str)
                and args[1].value not in tensor_attribute_names()):
            return Known(False)  # the names are a superset: a name outside it is missing
        return None

    def _map_arguments(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> None:
        if len(args) >= 2 and not node.keywords:
            self.map_arguments(node, args[1:])

    def _instance_check(self, node: ast.Call, name: str, args: list[Value], env, depth: int) -> Value | None:
        if len(args) != 2 or node.keywords:
            return None
        spec = node.args[1]
        specs = ([self.expr(e, env, depth + 1) for e in spec.elts]
                 if spec.__class__ is ast.Tuple else [args[1]])
        return instance_check(args[0], specs)

    def _power_size(self, node: ast.Call, args: list[Value]) -> bool:
        return len(args) == 2 and not _too_big(ast.Pow, args[0].value, args[1].value)

    def _range_in_int64(self, node: ast.Call, args: list[Value]) -> bool:
        return self.range_fits(node, [a.value for a in args])

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
        if types is None or is_variable_sequence(data):
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
        if any(is_variable_sequence(v) for v in inputs):
            self.fail(node, FailureKind.DYNAMIC_LENGTH, RuntimeError(
                f"{name}() does not take a dynamic-length input in graph mode"), subject="builtin")

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
            if is_sequence_value(value):
                shapes.append((value.kind, value.length))
            elif is_tensor_value(value):
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
        if (is_tensor_value(receiver) and not receiver.constant and func.attr in HOST_COPY_METHODS
                and not args and not node.keywords):
            return HostValue("list" if func.attr == "tolist" else "array")
        if is_array_value(receiver) and func.attr == "reshape" and not node.keywords:
            return reshaped(receiver, args)
        if (func.attr == "format" and is_known(receiver) and isinstance(receiver.value, str)
                and any(is_object_value(a) and a.cell for a in args)):
            # "value is {0.x}".format(cell): every level rejects it while compiling ("Unsupported
            # parameter type for python primitive", compiler-suite 0184, 0185, 0603, 0604)
            self.fail(node, FailureKind.OPERATION, TypeError(
                "str.format cannot take a Cell: it is no parameter of a Python primitive"),
                subject="format")
            return UNKNOWN
        if is_variable_sequence(receiver):
            self.variable_sequence_method(node, receiver, func.attr, args)
            return UNKNOWN
        if func.attr == "extend":
            self.list_extended(node, receiver, args)
        if not is_known(receiver) or not isinstance(receiver.value, CONSTANT_TYPES):
            return UNKNOWN
        value, attr = receiver.value, func.attr
        kind = type(value)
        if not hasattr(value, attr):
            return UNKNOWN  # reported by attribute()
        if type(value) is str and attr in ("lower", "upper") and args and not all(is_known(a) for a in args):
            # probed with 2.10 and 2.7, STRICT and LAX: RuntimeError "StringLower takes 1 argument,
            # but got 2" whatever the positional argument (known ones fail in Python's own call
            # below); a keyword argument is refused by 2.10 but compiles in 2.7: not judged
            self.fail(node, FailureKind.OPERATION, TypeError(f"str.{attr}() takes no arguments"))
            return UNKNOWN
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


# The methods judging each check of knowledge/builtin_calls.py, by its name there.
BUILTIN_CHECK_METHODS = {
    "string_length": Calls._string_length,
    "tensor_length": Calls._tensor_length,
    "scalar_conversion": Calls._scalar_conversion,
    "iterates_first": Calls._iterates_first,
    "iterates_every": Calls._iterates_every,
    "sequence_argument": Calls._sequence_argument,
    "dynamic_length_first": Calls._dynamic_length_first,
    "dynamic_length_every": Calls._dynamic_length_every,
    "dynamic_length_after_first": Calls._dynamic_length_after_first,
    "attribute_by_name": Calls._attribute_by_name,
    "has_attribute": Calls._has_attribute,
    "map_arguments": Calls._map_arguments,
    "instance_check": Calls._instance_check,
}
BOUND_METHODS = {"range_in_int64": Calls._range_in_int64, "power_size": Calls._power_size}
