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
from collections import Counter
from collections.abc import Callable
from functools import cached_property

from ..knowledge.mindspore import (
    HOST_COPY_METHODS, HOST_DATA_SIZED_ATTRIBUTES, HOST_PACKAGES, NON_GRAPH_BUILTINS,
    STATIC_CALLS, STATIC_TENSOR_ATTRIBUTES, STATIC_TENSOR_METHODS, VARIABLE_MAKERS,
)
from ..syntax.project import DEFINITION_STATEMENTS, FUNCTION_NODES, ModuleInfo, bound_names, preorder
from .compiled import Variability

# Builtins whose result is a host value when their argument is one (`list(ends)`, `zip(a, b)`).
HOST_PRESERVING_BUILTINS = frozenset(
    {"builtins.list", "builtins.tuple", "builtins.dict", "builtins.zip", "builtins.enumerate",
     "builtins.map", "builtins.filter"}
)
# Comparisons that test identity or membership: their result is a Python bool, not tensor data.
NOT_DATA_COMPARISONS = (ast.Is, ast.IsNot, ast.In, ast.NotIn)


# Names an annotation may use and still say "no tensor in here": `adapter_names: list[str]`,
# `flag: bool`, `sizes: Optional[tuple[int, ...]]`. Anything else (Tensor, a project class, a
# string forward reference) leaves the parameter an input.
PLAIN_ANNOTATION_NAMES = frozenset(
    {
        "int", "float", "bool", "str", "bytes", "complex", "list", "tuple", "dict", "set",
        "frozenset", "List", "Tuple", "Dict", "Set", "FrozenSet", "Optional", "Union", "Sequence",
        "Mapping", "Literal", "typing",
    }
)


def is_plain_annotation(annotation: ast.expr | None) -> bool:
    """An annotation naming only Python scalars, strings and containers of them."""
    if annotation is None:
        return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id not in PLAIN_ANNOTATION_NAMES:
            return False
        if isinstance(node, ast.Attribute) and node.attr not in PLAIN_ANNOTATION_NAMES:
            return False
        if isinstance(node, ast.Constant) and node.value not in (None, Ellipsis):
            return False  # a forward reference ("Tensor") or a Literal's value: not judged
    return True


class FunctionSyntax:
    """What one function's syntax alone says: its bindings, parameters, globals and parents.

    Kept with the module's tree (``ModuleInfo.derived``): a helper reached from many roots has one
    FunctionValues per root but is read only once.
    """

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo):
        self.node = node
        self.module = module
        self.bindings = list(_bindings(node, module.nodes(node)))
        # name -> the values bound to it; None where it is bound other than by `name = value`
        self.bound: dict[str, list[ast.expr | None]] = {}
        for target, value, plain in self.bindings:
            for name in _bound_names(target):
                self.bound.setdefault(name, []).append(value if plain else None)
        # The `def`s and `class`es inside the function, by name (one walk of its cached nodes).
        definitions = [inner for inner in module.nodes(node) if inner is not node
                       and inner.__class__ in DEFINITION_STATEMENTS]
        self.nested_functions = frozenset(
            inner.name for inner in definitions if inner.__class__ in FUNCTION_NODES)
        # Names bound only by those: a function or a class, never a tensor.
        counts = Counter(inner.name for inner in definitions)
        self.definitions_only = frozenset(
            name for name, count in counts.items() if len(self.bound.get(name, ())) == count)

    @cached_property
    def value_bindings(self) -> list[tuple[ast.expr, ast.expr | None, frozenset[str]]]:
        """(target, value, the names the value reads) for the bindings whose value may carry a
        variable: not those of the names only a ``def`` or ``class`` binds."""
        found = []
        for target, value, _ in self.bindings:
            if value is None and isinstance(target, ast.Name) and target.id in self.definitions_only:
                continue
            reads = frozenset() if value is None else frozenset(
                node.id for node in preorder([value]) if node.__class__ is ast.Name)
            found.append((target, value, reads))
        return found

    def assigned_values(self, name: str) -> list[ast.expr]:
        """The values of ``name = value`` statements when that is the only way ``name`` is
        bound in the function (not a parameter, loop variable or unpacking target); else []."""
        values = self.bound.get(name, [])
        if not values or name in self.parameter_names or any(v is None for v in values):
            return []
        return values  # type: ignore[return-value]

    @cached_property
    def parameter_names(self) -> frozenset[str]:
        """Parameters of the function and of the functions and lambdas nested in it."""
        names: set[str] = set()
        for node in self.module.nodes(self.node):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = node.args
                every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                names.update(arg.arg for arg in every if arg is not None)
        return frozenset(names)

    @cached_property
    def global_names(self) -> frozenset[str]:
        """Names the function declares ``global``."""
        return frozenset(
            name
            for node in self.module.nodes(self.node)
            if isinstance(node, ast.Global)
            for name in node.names
        )

    @cached_property
    def local_names(self) -> frozenset[str]:
        """Every name bound inside the function, nested functions included: besides the
        parameters and the bindings, `del x`, match captures and `global`/`nonlocal` names
        (more locals only means more unknowns)."""
        others = {
            name
            for node in self.module.body_nodes(self.node)
            if node.__class__ in RARE_BINDINGS
            or (node.__class__ is ast.Name and node.ctx.__class__ is ast.Del)
            for name in bound_names(node)
        }
        return self.parameter_names | frozenset(self.bound) | frozenset(others)

    @cached_property
    def parents(self) -> dict[int, ast.AST]:
        """id(node) -> its parent, for the nodes of this function."""
        return self.module.parents(self.node)


def function_syntax(module: ModuleInfo, node: ast.AST) -> FunctionSyntax:
    """The function's FunctionSyntax, kept with the module's tree."""
    return module.derived("syntax", node, lambda n: FunctionSyntax(n, module))


# Bindings that FunctionSyntax.bound leaves out (they bind no value it could follow).
RARE_BINDINGS = frozenset({ast.Global, ast.Nonlocal, ast.MatchAs, ast.MatchStar, ast.MatchMapping})


class FunctionValues:
    """Which expressions of one compiled function carry variables."""

    def __init__(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        module: ModuleInfo,
        is_method: bool,
        parameter_attrs: frozenset[str] = frozenset(),
        method_names: frozenset[str] = frozenset(),
        variable_params: set[str] | None = None,
        static_attrs: frozenset[str] = frozenset(),
        tensor_attrs: frozenset[str] = frozenset(),
        returns: Callable[[str], object] | None = None,
        call_returns: Callable[[ast.Call, "FunctionValues"], tuple[Variability, Variability] | None]
        | None = None,
    ):
        """``variable_params``: the parameters that receive variables (None: all of them, as for
        construct and jit functions, whose parameters are the graph's inputs). ``call_returns``:
        for a call of a project function (and this function, which judges its arguments), which
        of what it gives back may be a variable and which is a host value made from one (each
        kinds as ``returns``; None when the callee is not the project's)."""
        self.node = node
        self.module = module
        self.syntax: FunctionSyntax = function_syntax(module, node)
        self.self_name = None
        params = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if is_method and params:
            self.self_name = params[0].arg
            params = params[1:]
        extra = [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
        self.parameter_attrs = parameter_attrs
        self.method_names = method_names
        self.static_attrs = static_attrs
        self.tensor_attrs = tensor_attrs  # ClassInfo.checked_tensor_attrs of self's classes
        # attr -> what self.<attr>(...) gives back: False (a compile-time value whatever it is
        # passed), a list of those per tuple element, or True (may be a variable); see
        # ReachModel.return_kinds
        self.returns = returns
        self.call_returns = call_returns
        # names bound to host values made from variables (a subset of self.names)
        self.host: set[str] = set()
        self.names: set[str] = {
            p.arg
            for p in [*params, *extra]
            if (variable_params is None or p.arg in variable_params)
            and not is_plain_annotation(p.annotation)
        }
        self._propagate()

    def _propagate(self) -> None:
        """Names bound to variables, to a fixed point. What a binding's value gives depends only
        on the names it reads, so after the first pass only the bindings that read a name the
        previous pass added are asked again."""
        bindings = self.syntax.value_bindings
        pending = range(len(bindings))
        while pending:
            added: set[str] = set()
            for index in pending:
                target, value, _ = bindings[index]
                if value is None or self.is_variable(value):
                    for name in self._variable_targets(target, value):
                        if name not in self.names:
                            self.names.add(name)
                            added.add(name)
                    for name in self._host_targets(target, value):
                        if name not in self.host:
                            self.host.add(name)
                            added.add(name)  # len() of it is a variable now
            pending = [index for index, (_, _, reads) in enumerate(bindings)
                       if not reads.isdisjoint(added)] if added else []

    def _variable_targets(self, target: ast.expr, value: ast.expr | None):
        """The names of ``target`` that take a variable: for ``x, (h, w) = self.embed(x)``, only
        those whose element of what self.embed gives back may be one."""
        kinds = self._returned(value) if isinstance(target, (ast.Tuple, ast.List)) else True
        yield from _names_by_kind(target, kinds)

    def _host_targets(self, target: ast.expr, value: ast.expr | None):
        """The names a binding of a variable rebinds to a host value. A store into `a[i]` does
        not change a's length, so only rebound names count."""
        if value is None:
            return
        kinds = None
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Call):
            kinds = self._host_returned(value)  # per element, for a project function
        if kinds is None:
            kinds = self.is_host(value)
        yield from _names_by_kind(target, kinds, _bound_names)

    def _call_returned(self, call: ast.Call) -> tuple[Variability, Variability] | None:
        """call_returns' answer for ``call``; None when it is no project function's call."""
        if self.call_returns is None or not isinstance(call.func, (ast.Name, ast.Attribute)):
            return None
        if isinstance(call.func, ast.Attribute) and self.is_self(call.func.value):
            return None
        if isinstance(call.func, ast.Name) and call.func.id in self.local_names:
            return None  # a parameter or a function defined here: not followed
        return self.call_returns(call, self)

    def _host_returned(self, call: ast.Call) -> Variability | None:
        found = self._call_returned(call)
        return None if found is None else found[1]

    def is_host(self, node: ast.expr | None) -> bool:
        """Whether the expression may be a host value made from a variable at run time: numpy
        on a tensor, ``x.asnumpy()``, a list built from one. Its ``len()`` and shape are then
        known only at run time."""
        return _any_part(node, self._inspect_host)

    def _inspect_host(self, node: ast.expr | None) -> tuple[bool, list[ast.expr]]:
        match node:
            case ast.Name(id=name):
                return name in self.host, []
            case ast.Subscript(value=value) | ast.Starred(value=value):
                return False, [value]
            case ast.BinOp(left=left, right=right):
                return False, [left, right]
            case ast.IfExp(body=body, orelse=orelse):
                return False, [body, orelse]
            case ast.ListComp(generators=generators) | ast.GeneratorExp(generators=generators):
                return False, [g.iter for g in generators]
            case ast.Call(func=func, args=args):
                qualified = self.module.imports.qualify(func) or ""
                if qualified.startswith(HOST_PACKAGES) or qualified in NON_GRAPH_BUILTINS:
                    return self.is_variable(node), []
                if qualified in HOST_PRESERVING_BUILTINS:
                    return False, list(args)
                if isinstance(func, ast.Attribute) and not self.is_self(func.value):
                    if func.attr in HOST_COPY_METHODS:
                        return self.is_variable(func.value), []
                    return False, [func.value]  # h.astype(...), h.reshape(...) on a host array
                return self._host_returned(node) is True, []
        return False, []

    def element_variables(self, value: ast.expr) -> Variability:
        """Which of a returned value may be a variable: per element of what a method or project
        function called here gives back (``return _forward(self, x)`` returning ``x, (h, w)``),
        else ``is_variable``."""
        if isinstance(value, ast.Call):
            if isinstance(value.func, ast.Attribute) and self.is_self(value.func.value):
                if self.returns is not None:
                    return self.returns(value.func.attr)
            elif (found := self._call_returned(value)) is not None:
                return found[0]
        return self.is_variable(value)

    def _returned(self, value: ast.expr | None) -> Variability:
        if not isinstance(value, ast.Call):
            return True
        if isinstance(value.func, ast.Attribute) and self.is_self(value.func.value):
            return True if self.returns is None else self.returns(value.func.attr)
        found = self._call_returned(value)  # h, w = get_hw(x): a project function's pair
        return True if found is None else found[0]

    @property
    def bound(self) -> dict[str, list[ast.expr | None]]:
        return self.syntax.bound

    @property
    def parameter_names(self) -> frozenset[str]:
        return self.syntax.parameter_names

    @property
    def nested_functions(self) -> frozenset[str]:
        """Names of the functions defined inside this one."""
        return self.syntax.nested_functions

    @property
    def global_names(self) -> frozenset[str]:
        return self.syntax.global_names

    @property
    def local_names(self) -> frozenset[str]:
        return self.syntax.local_names

    @property
    def parents(self) -> dict[int, ast.AST]:
        return self.syntax.parents

    def assigned_values(self, name: str) -> list[ast.expr]:
        return self.syntax.assigned_values(name)

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def is_self(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == self.self_name

    def is_variable(self, node: ast.expr | None) -> bool:
        """Whether any value the expression depends on is a variable."""
        return _any_part(node, self._inspect)

    def _inspect(self, node: ast.expr | None) -> tuple[bool, list[ast.expr]]:
        """(known to be a variable, the sub-expressions that decide it otherwise)."""
        match node:
            case None | ast.Constant() | ast.Lambda():
                return False, []
            case ast.Name(id=name):
                return name in self.names, []
            case ast.Attribute(value=value, attr=attr):
                if self.is_self(value):
                    return attr in self.parameter_attrs, []
                if attr in STATIC_TENSOR_ATTRIBUTES:
                    return attr in HOST_DATA_SIZED_ATTRIBUTES and self.is_host(value), []
                return False, [value]
            case ast.Subscript(value=value, slice=index):
                return False, [value, index]
            case ast.Call(func=func, args=args, keywords=keywords):
                qualified = self.module.imports.qualify(func)
                if qualified in VARIABLE_MAKERS:
                    return True, []  # mutable(0): a variable, whatever it is given
                if qualified in STATIC_CALLS:
                    # len() of a tensor is its static shape; of a host list it is data
                    return qualified == "builtins.len" and bool(args) and self.is_host(args[0]), []
                arguments = [*args, *(k.value for k in keywords)]
                if isinstance(func, ast.Attribute) and self.is_self(func.value):
                    if func.attr in self.static_attrs:
                        return False, []  # self.shape(x) with self.shape = ops.Shape()
                    if self.returns is not None and self.returns(func.attr) is False:
                        return False, []  # a helper or sub-Cell that gives back a shape
                    # self.layer(x): a sub-Cell's output; self.helper(c): depends on the arguments
                    return func.attr not in self.method_names, arguments
                if self.call_returns is not None and any(self.is_variable(a) for a in arguments):
                    found = self._call_returned(node)
                    if found is not None:  # a project function: what it gives back for these
                        return _may_vary(found[0]), []
                if isinstance(func, ast.Attribute):
                    if func.attr in STATIC_TENSOR_METHODS and not arguments and not self.is_host(func.value):
                        return False, []  # x.numel(): the static shape, whatever x holds
                    return False, [func.value, *arguments]  # x.sum(): variable with x
                return False, arguments
            case ast.Starred(value=value) | ast.UnaryOp(operand=value) | ast.Await(value=value):
                return False, [value]
            case ast.FormattedValue(value=value):
                return False, [value]
            # the commonest compound expressions, without iter_child_nodes' generators
            case ast.BinOp(left=left, right=right):
                return False, [left, right]
            case ast.Compare(left=left, comparators=comparators):
                return False, [left, *comparators]
            case ast.BoolOp(values=elements) | ast.Tuple(elts=elements) | ast.List(elts=elements):
                return False, list(elements)
            case _:
                return False, [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]


def _may_vary(kinds: object) -> bool:
    """Whether any element of ``kinds`` (as FunctionValues.returns gives them) may vary."""
    if isinstance(kinds, list):
        return any(_may_vary(kind) for kind in kinds)
    return kinds is not False


def _any_part(node: ast.expr | None, inspect) -> bool:
    """Whether ``inspect`` says yes of the expression or of a part it hands back: ``inspect(node)``
    is (yes, the parts that decide it otherwise). A worklist, not recursion: a 400-term sum is
    valid Python and must not exhaust the stack."""
    pending = [node]
    while pending:
        found, parts = inspect(pending.pop())
        if found:
            return True
        pending.extend(parts)
    return False


# The classes _bindings' cases match.
_BINDING_NODES = frozenset({
    ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension, ast.NamedExpr,
    ast.withitem, ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
    ast.ExceptHandler,
})


def _bindings(function: ast.AST, nodes: list[ast.AST]):
    """(target, value, plain) for every binding in a function (``nodes``: all its nodes); value
    None means 'unknown'; plain means a `name = value` assignment (not a loop, augmented
    assignment, import...)."""
    for node in nodes:
        if node.__class__ not in _BINDING_NODES:
            continue  # most nodes: one set lookup, not nine class patterns
        match node:
            case ast.Assign(targets=targets, value=value):
                for target in targets:
                    yield target, value, isinstance(target, ast.Name)
            case ast.AugAssign(target=target, value=value):
                yield target, ast.BinOp(left=target, op=node.op, right=value), False
            case ast.AnnAssign(target=target, value=value) if value is not None:
                yield target, value, isinstance(target, ast.Name)
            case ast.For(target=target, iter=iterable) | ast.comprehension(
                target=target, iter=iterable
            ):
                yield target, iterable, False
            case ast.NamedExpr(target=target, value=value):
                yield target, value, True
            case ast.withitem(optional_vars=target, context_expr=value) if target is not None:
                yield target, value, False
            case ast.Import(names=aliases) | ast.ImportFrom(names=aliases):
                for alias in aliases:
                    yield ast.Name(id=(alias.asname or alias.name).split(".")[0]), None, False
            case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) | ast.ClassDef(
                name=name
            ) if node is not function:
                yield ast.Name(id=name), None, False
            case ast.ExceptHandler(name=name) if name:
                yield ast.Name(id=name), None, False


def _bound_names(target: ast.expr):
    """Names a target rebinds: `a`, `a, *b`; not `a[0]` or `a.x`, which change a's value."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, ast.Starred):
        yield from _bound_names(target.value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _bound_names(element)


def _names_by_kind(target: ast.expr, kinds: object, names=None):
    """Names of an unpacking target whose returned element may be a variable (``kinds`` as in
    FunctionValues.returns; True for a whole target); ``names`` gives a whole target's names
    (the stores that change a value, by default)."""
    if kinds is False:
        return
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(kinds, list) and len(kinds) == len(
            target.elts) and not any(isinstance(e, ast.Starred) for e in target.elts):
        for element, kind in zip(target.elts, kinds):
            yield from _names_by_kind(element, kind, names)
        return
    yield from (names or _target_names)(target)


def _target_names(target: ast.expr):
    """The names a store changes: a tensor stored into `a[0]` or `a.x` makes `a` a variable too,
    but not the index (`out[:n] = x` leaves the int n a constant)."""
    match target:
        case ast.Name(id=name):
            yield name
        case ast.Starred(value=value) | ast.Subscript(value=value) | ast.Attribute(value=value):
            yield from _target_names(value)
        case ast.Tuple(elts=elements) | ast.List(elts=elements):
            for element in elements:
                yield from _target_names(element)
