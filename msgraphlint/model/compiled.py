"""What the program model is made of: compile targets (roots), compiled functions with how they
are reached, call edges and constructions; and how a call binds its arguments."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from ..knowledge.catalogue import Level
from ..knowledge.mindspore import HOST_EVALUATED_DECORATORS
from ..syntax.project import ClassInfo, ModuleInfo
from ..values.domain import STATIC, UNKNOWN, SequenceValue, Value, is_sequence_value, join

MAX_BASE_DEPTH = 32


FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
# Which of a value may be a graph variable (or a host value made from one): one answer for the
# whole value, or one per element of a returned tuple (``return x, (h, w)``: [True, [False, False]]).
Variability = bool | list["Variability"]


def join_variability(found: list[Variability]) -> Variability:
    """What several returns give back together: a variable wherever one of them may. The one
    join of values (``domain.join``) on what each says: known while compiling (STATIC), maybe a
    variable (UNKNOWN), or a tuple of those."""
    if not found:
        return False
    return _variability(join([_as_value(variability) for variability in found]))


def _as_value(variability: Variability) -> Value:
    if isinstance(variability, list):
        return SequenceValue(tuple, len(variability), tuple(_as_value(v) for v in variability))
    return UNKNOWN if variability else STATIC


def _variability(value: Value) -> Variability:
    if value is STATIC:
        return False
    if is_sequence_value(value) and value.elements is not None:
        return [_variability(element) for element in value.elements]
    return True


# A Python value as ast.literal_eval gives it (a constructor's literal argument, a flag's default).
Literal = bool | int | float | complex | str | bytes | None | tuple | list | dict | set


@dataclass(frozen=True, eq=False)
class Target:
    """A compiled root: a Cell's construct/bprop or a jit function."""

    label: str  # "Net.construct", "train_step"
    kind: str  # "cell" | "jit"
    module: ModuleInfo
    node: FunctionNode
    cell: ClassInfo | None = None
    # Fixed by the code itself: a Cell's set_jit_config; for jit functions, MindSpore 2.6+ compiles
    # at LAX unless fullgraph=True (STRICT), whatever set_context says.
    level: Level | None = None
    bytecode: bool = False  # capture_mode="bytecode": the graph is split instead of failing
    called_as: str | None = None  # `step = jit(fn)`: the name the program calls it by


@dataclass(eq=False)
class CompiledFunction:
    """A function that ends up in a graph, with the first path by which a root reaches it."""

    module: ModuleInfo
    node: FunctionNode
    owner: ClassInfo | None  # the class that defines it, for methods
    target: Target
    via: tuple[str, ...] = ()  # helpers between the root and this function, this one last
    # Parameters some compiled call site passes a variable to; None for roots (all are inputs).
    variable_params: set[str] | None = None
    # Parameters that every compiled call site passes a literal (or leaves at a literal default):
    # param -> the values passed. Type inference decides an `if` on them per call.
    passed_constants: dict[str, frozenset] = field(default_factory=dict)
    # A plain function its callers pass their own self (owner is then their class): MindSpore
    # gives it the Cell's attributes but, self being a parameter, folds no test on them.
    self_passed: bool = False
    # The compiled calls of it, with the function each is in (ReachModel.reach): what values
    # its parameters take, per call.
    callers: list[tuple["CompiledFunction", "CallEdge"]] = field(default_factory=list)
    # A @constexpr / @_primexpr helper a compiled call runs in Python while compiling: not in the
    # graph (no graph rule judges it), but whatever Python raises there fails the compile.
    host_evaluated: bool = False
    # Reached only through calls in branches type inference never evaluates (unevaluated_nodes):
    # parsed, so parse-time checks apply, but never evaluated.
    parsed_only: bool = False

    @property
    def is_root(self) -> bool:
        return not self.via

    @property
    def reached_from(self) -> str | None:
        if not self.via:
            return None
        return f"reached from {self.target.label} via {' -> '.join(self.via)}"


class Construction(NamedTuple):
    """Where a class is built (or what it is given): an expression in a module, inside a
    plain-Python function (a driver) or, for a parent Cell's attribute, None."""

    module: ModuleInfo
    function: ast.AST | None
    expr: ast.expr


@dataclass(frozen=True, eq=False)
class CallEdge:
    """One resolved call inside compiled code."""

    module: ModuleInfo
    node: FunctionNode  # the callee
    owner: ClassInfo | None
    label: str
    call: ast.Call
    binds_self: bool  # self.m(...), super().m(...): the first parameter is not in call.args
    host_evaluated: bool = False  # the callee runs in Python while compiling (is_host_evaluated)
    # The call's own arguments bind to the callee's parameters, and the callee is certain: not
    # ms.grad(fn)(x) (a wrapper may add or reorder arguments), nor a guess at what self.sub holds.
    binds_call_arguments: bool = True


def path_order(compiled: CompiledFunction) -> tuple:
    target = compiled.target
    return (len(compiled.via), str(target.module.path), target.node.lineno, target.label, compiled.via)


def replace_variables(compiled: CompiledFunction, variables: set[str] | None) -> CompiledFunction:
    """A copy (the reach lists keep the original) with the merged variable parameters."""
    return CompiledFunction(
        compiled.module, compiled.node, compiled.owner, compiled.target, compiled.via,
        None if variables is None else set(variables), dict(compiled.passed_constants),
        parsed_only=compiled.parsed_only,
    )


def first_parameter(node: FunctionNode) -> str | None:
    params = [*node.args.posonlyargs, *node.args.args]
    return params[0].arg if params else None


def is_host_evaluated(node: FunctionNode, module: ModuleInfo) -> bool:
    """@constexpr / @_primexpr helpers: MindSpore calls them in Python while compiling."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        qualified = module.imports.qualify(target) or ""
        if qualified.startswith("mindspore.") and qualified.rsplit(".", 1)[-1] in (
            HOST_EVALUATED_DECORATORS
        ):
            return True
    return False


def is_static(node: FunctionNode) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def parameter_defaults(function: FunctionNode) -> dict[str, ast.expr]:
    """param -> its default expression, for the parameters that have one."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]],
                        args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return defaults


def bind_arguments(call: ast.Call, callee: FunctionNode, binds_self: bool):
    """(parameter name, argument expression) pairs for a call, as Python would bind them."""
    args = callee.args
    positional = [*args.posonlyargs, *args.args][1 if binds_self else 0 :]
    names = {p.arg for p in [*positional, *args.kwonlyargs]}
    bound: list[tuple[str, ast.expr]] = []
    for index, argument in enumerate(call.args):
        if isinstance(argument, ast.Starred):
            rest = [p.arg for p in positional[index:]] + ([args.vararg.arg] if args.vararg else [])
            bound.extend((name, argument.value) for name in rest)
            break
        if index < len(positional):
            bound.append((positional[index].arg, argument))
        elif args.vararg is not None:
            bound.append((args.vararg.arg, argument))
    for keyword in call.keywords:
        if keyword.arg is None:  # **kwargs: may fill any parameter
            bound.extend((name, keyword.value) for name in names)
            if args.kwarg is not None:
                bound.append((args.kwarg.arg, keyword.value))
        elif keyword.arg in names:
            bound.append((keyword.arg, keyword.value))
        elif args.kwarg is not None:
            bound.append((args.kwarg.arg, keyword.value))
    return bound


def binding_problem(arguments: list[ast.expr], keywords: list[ast.keyword], callee: FunctionNode,
                    binds_self: bool) -> str | None:
    """Why ``callee`` cannot take these arguments, as Python binds them (and the graph compiler,
    which refuses the same calls while compiling); None when they bind, or when the call unpacks
    ``*seq`` or ``**mapping``, whose lengths and keys this does not know."""
    if any(isinstance(a, ast.Starred) for a in arguments) or any(k.arg is None for k in keywords):
        return None
    args = callee.args
    positional = [*args.posonlyargs, *args.args][1 if binds_self else 0:]
    if binds_self and not [*args.posonlyargs, *args.args] and args.vararg is None:
        return None  # no parameter for self: not a method of the kind the caller assumed
    if len(arguments) > len(positional) and args.vararg is None:
        return (f"{len(arguments)} positional argument{'s' * (len(arguments) != 1)} for "
                f"{len(positional)} positional parameter{'s' * (len(positional) != 1)}")
    keyword_names = {p.arg for p in [*args.args[len(args.posonlyargs):], *args.kwonlyargs]}
    keyword_names.discard(first_parameter(callee) if binds_self else None)
    given = {p.arg for p in positional[:len(arguments)]}
    for keyword in keywords:
        if keyword.arg in given:
            return f"parameter '{keyword.arg}' given both positionally and by keyword"
        if keyword.arg not in keyword_names and args.kwarg is None:
            return f"keyword '{keyword.arg}' names no parameter"
        given.add(keyword.arg)
    first_default = len(positional) - len(args.defaults)
    missing = [p.arg for index, p in enumerate(positional) if index < first_default and p.arg not in given]
    missing += [p.arg for p, default in zip(args.kwonlyargs, args.kw_defaults)
                if default is None and p.arg not in given]
    if missing:
        return f"no argument for parameter '{missing[0]}'"
    return None


def signature_text(callee: FunctionNode, binds_self: bool, owner: str | None = None) -> str:
    """``Owner.name(a, b=1, *rest)`` as a message shows the function it calls (self left out)."""
    args = callee.args
    every = [*args.posonlyargs, *args.args]
    first_default = len(every) - len(args.defaults)
    parts = [p.arg if index < first_default else f"{p.arg}={ast.unparse(args.defaults[index - first_default])}"
             for index, p in enumerate(every) if not (binds_self and index == 0)]
    if args.vararg is not None:
        parts.append(f"*{args.vararg.arg}")
    elif args.kwonlyargs:
        parts.append("*")
    parts += [p.arg if default is None else f"{p.arg}={ast.unparse(default)}"
              for p, default in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg is not None:
        parts.append(f"**{args.kwarg.arg}")
    return f"{owner + '.' if owner else ''}{callee.name}({', '.join(parts)})"


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _nearest_scope(node: ast.AST, parent: Callable[[ast.AST], ast.AST | None]) -> ast.AST | None:
    current = parent(node)
    while current is not None and not isinstance(current, NESTED_SCOPES):
        current = parent(current)
    return current
