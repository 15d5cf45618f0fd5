"""Constants versus variables, the idea the graph compiler is built on.

A value the compiler knows while compiling (literals, shapes, dtypes, attributes set in
``__init__``) is a *constant*: host Python on constants is evaluated once, at compile time, at every
level. A value that flows from the inputs (tensors, Parameters, anything computed from them) is a
*variable*: host Python on it fails at STRICT/COMPATIBLE and falls back to the interpreter at LAX.
This is a flow-insensitive approximation over one function: a name is a variable if any assignment
to it is.
"""

from __future__ import annotations

import ast

from .project import ClassInfo, ModuleInfo

# Attributes of a tensor that the compiler knows statically.
STATIC_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "rank", "itemsize", "nbytes", "size"})
# Calls whose result is a compile-time value even on a tensor argument.
STATIC_CALLS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.type",
        "builtins.hasattr",
        "builtins.getattr",
        "builtins.id",
        "builtins.range",
        "mindspore.ops.shape",
        "mindspore.ops.rank",
        "mindspore.ops.dtype",
        "mindspore.ops.function.shape",
        "mindspore.ops.functional.shape",
        "mindspore.ops.size",
    }
)
PARAMETER_CLASSES = frozenset({"mindspore.Parameter"})


class FunctionValues:
    """Which expressions of one compiled function carry variables."""

    def __init__(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        module: ModuleInfo,
        is_method: bool,
        parameter_attrs: frozenset[str] = frozenset(),
        method_names: frozenset[str] = frozenset(),
    ):
        self.node = node
        self.module = module
        self.self_name = None
        params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if is_method and params:
            self.self_name = params[0].arg
            params = params[1:]
        extra = [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
        self.parameter_attrs = parameter_attrs
        self.method_names = method_names
        self.names: set[str] = {p.arg for p in [*params, *extra]}
        self._propagate()

    def _propagate(self) -> None:
        bindings = list(_bindings(self.node))
        changed = True
        while changed:
            changed = False
            for target, value in bindings:
                if value is None or self.is_variable(value):
                    for name in _target_names(target):
                        if name not in self.names:
                            self.names.add(name)
                            changed = True

    def is_self(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.self_name

    def is_variable(self, node: ast.expr | None) -> bool:
        match node:
            case None | ast.Constant() | ast.Lambda():
                return False
            case ast.Name(id=name):
                return name in self.names
            case ast.Attribute(value=value, attr=attr):
                if self.is_self(value):
                    return attr in self.parameter_attrs
                if attr in STATIC_ATTRIBUTES:
                    return False
                return self.is_variable(value)
            case ast.Subscript(value=value, slice=index):
                return self.is_variable(value) or self.is_variable(index)
            case ast.Call(func=func, args=args, keywords=keywords):
                qualified = self.module.imports.qualify(func)
                if qualified in STATIC_CALLS:
                    return False
                if isinstance(func, ast.Attribute) and self.is_self(func.value):
                    # self.layer(x): a sub-Cell's output; self.helper(c): depends on the arguments
                    if func.attr not in self.method_names:
                        return True
                elif isinstance(func, ast.Attribute) and self.is_variable(func.value):
                    return True  # x.sum(), x.asnumpy()
                return any(self.is_variable(a) for a in args) or any(
                    self.is_variable(k.value) for k in keywords
                )
            case ast.Starred(value=value) | ast.UnaryOp(operand=value) | ast.Await(value=value):
                return self.is_variable(value)
            case ast.FormattedValue(value=value):
                return self.is_variable(value)
            case _:
                return any(self.is_variable(child) for child in ast.iter_child_nodes(node)
                           if isinstance(child, ast.expr))


def _bindings(function: ast.AST):
    """(target, value) pairs for every binding in a function; value None means 'unknown'."""
    for node in ast.walk(function):
        match node:
            case ast.Assign(targets=targets, value=value):
                for target in targets:
                    yield target, value
            case ast.AugAssign(target=target, value=value):
                yield target, ast.BinOp(left=target, op=node.op, right=value)
            case ast.AnnAssign(target=target, value=value) if value is not None:
                yield target, value
            case ast.For(target=target, iter=iterable) | ast.comprehension(
                target=target, iter=iterable
            ):
                yield target, iterable
            case ast.NamedExpr(target=target, value=value):
                yield target, value
            case ast.withitem(optional_vars=target, context_expr=value) if target is not None:
                yield target, value


def _target_names(target: ast.expr):
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node.id


def parameter_attributes(classes: list[ClassInfo]) -> frozenset[str]:
    """``self.w = Parameter(...)`` anywhere in the classes (a Cell and its project bases)."""
    names: set[str] = set()
    for cls in classes:
        for node in ast.walk(cls.node):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and cls.module.imports.qualify(node.value.func) in PARAMETER_CLASSES
            ):
                for target in node.targets:
                    if isinstance(target, ast.Attribute):
                        names.add(target.attr)
    return frozenset(names)
