"""The graph-scope model: which functions MindSpore compiles, and how each one is reached.

Roots are ``construct``/``bprop`` of Cells (however the Cell base is spelled, through user base
classes in any project file) and functions compiled with ``jit``. From each root the model follows
``self.m()`` (through base classes), ``super().m()``, module functions and functions imported from
the project's own modules, transitively. Every checker asks this model instead of re-deriving it;
code outside the reach (``__init__``, training loops, plain helpers) is never checked by graph rules.
"""

from __future__ import annotations

import ast
import operator
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ..knowledge.mindspore import CELL_CLASS, is_mindspore_cell_name
from ..knowledge.catalogue import Level
from ..syntax.project import (
    ClassInfo, ModuleInfo, Project, bound_names, construct_without_self, may_define_targets,
    statement_blocks,
)
from ..syntax.source import content_digest
from .variables import FunctionValues, function_syntax

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

CELL_BASE = CELL_CLASS
JIT_DECORATORS = frozenset({"mindspore.jit", "mindspore.ms_function"})
REMOVED_JIT_DECORATORS = frozenset({"mindspore.ms_function"})  # removed in MindSpore 2.6
JIT_CLASS_DECORATOR = "mindspore.jit_class"
# Calls that return a function running the wrapped one inside the graph.
FUNCTION_WRAPPERS = frozenset(
    {
        "mindspore.grad", "mindspore.value_and_grad", "mindspore.vmap", "mindspore.jit",
        "mindspore.ops.grad", "mindspore.ops.value_and_grad", "mindspore.ops.vmap",
        "mindspore.ops.functional.grad", "mindspore.ops.functional.value_and_grad",
    }
)
# Functions MindSpore runs on the host while compiling (on constants) or refuses outright: the
# graph never contains their bodies, so reach stops at them.
HOST_EVALUATED_DECORATORS = frozenset({"constexpr", "_primexpr", "jit_forbidden_register"})
ROOT_METHODS = ("construct", "bprop")
LEVEL_NAMES = {level.name: level for level in Level}
MAX_BASE_DEPTH = 32


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


@dataclass(eq=False)
class ReachModel:
    """Project-wide questions about Cells and reach, each answer cached for the run."""

    project: Project
    _is_cell: dict[int, bool] = field(default_factory=dict)
    _mro: dict[int, list[ClassInfo]] = field(default_factory=dict)
    _classes: dict[tuple[str, int], ClassInfo | None] = field(default_factory=dict)
    _reach: dict[int, list[CompiledFunction]] = field(default_factory=dict)
    _targets: dict[int, list[Target]] = field(default_factory=dict)
    _values: dict[int, FunctionValues] = field(default_factory=dict)
    _sub_cell_params: dict[int, set[str] | None] = field(default_factory=dict)
    _dead: dict[int, frozenset[int]] = field(default_factory=dict)
    _unevaluated: dict[int, frozenset[int]] = field(default_factory=dict)
    _module_cell_methods: dict[int, list] = field(default_factory=dict)
    _importers: dict[int, list[Path]] = field(default_factory=dict)
    _holders: dict[int, list | None] = field(default_factory=dict)
    _driver_calls: dict[int, tuple | None] = field(default_factory=dict)
    _return_kinds: dict[int, object] = field(default_factory=dict)
    _returns_pending: set[int] = field(default_factory=set)
    _returns_by_attr: dict[tuple[int, str], object] = field(default_factory=dict)
    _call_returns: dict[tuple[int, frozenset[str]], tuple] = field(default_factory=dict)
    _call_pending: set[tuple[int, frozenset[str]]] = field(default_factory=set)
    _call_callees: dict[int, tuple] = field(default_factory=dict)
    evaluations: dict[int, object] = field(default_factory=dict)  # interpret.evaluation's cache
    _sub_cell_pending: set[int] = field(default_factory=set)
    # node id -> the CompiledFunction kept for it (first path), filled as targets are reached
    _compiled: dict[int, CompiledFunction] = field(default_factory=dict)
    _compiled_in: dict[int, set[int]] = field(default_factory=dict)  # id(module) -> node ids
    # real paths of the files whose targets have been reached (and importers walked)
    _closure_done: set[str] = field(default_factory=set)
    # module file -> what reaching its targets read (for the result cache, when recording)
    unit_reads: dict[str, frozenset[tuple]] = field(default_factory=dict)
    _generation: int = 0
    # every dict that memo() has been handed, the families' own included: id -> the dict
    _memo_caches: dict[int, dict] = field(default_factory=dict)
    _tables: dict[str, dict] = field(default_factory=dict)

    def sync(self) -> None:
        """Drop every derived answer when a module's content was replaced (an editor buffer):
        the memo's caches (whoever owns them) and the state that reaching files keeps."""
        if self._generation != self.project.generation:
            self._generation = self.project.generation
            for cache in self._memo_caches.values():
                cache.clear()
            for state in (self._compiled, self._compiled_in, self.evaluations, self._closure_done,
                          self._returns_pending, self._call_pending, self._sub_cell_pending):
                state.clear()

    def memo(self, cache: dict, key, compute):
        """``cache[key]``, computed once; each answer remembers what it read (files, lookups,
        importer queries) and reports it again whenever it is reused, so that the result cache
        knows every file a finding depends on. Checkers keep their cross-file answers here too;
        ``sync`` drops every cache handed here when the project changes."""
        if id(cache) not in self._memo_caches:
            self._memo_caches[id(cache)] = cache
        reads = self.project.reads
        if key in cache:
            value, read = cache[key]
            reads.note_all(read)
            return value
        if not reads.active:
            value = compute()
            cache[key] = (value, frozenset())
            return value
        with reads.recording() as read:
            value = compute()
        cache[key] = (value, frozenset(read))
        return value

    # ----- classes -----------------------------------------------------------------------

    def resolve_class(self, qualified: str, near: ModuleInfo, depth: int = 0) -> ClassInfo | None:
        """The project class a qualified name denotes, following re-exports (cached)."""
        return self.memo(
            self._classes, (qualified, id(near)), lambda: self._resolve_class(qualified, near, depth)
        )

    def _resolve_class(self, qualified: str, near: ModuleInfo, depth: int) -> ClassInfo | None:
        if depth > MAX_BASE_DEPTH:
            return None
        prefix = f"{near.name}."
        if near.name and qualified.startswith(prefix) and qualified[len(prefix) :] in near.classes:
            return near.classes[qualified[len(prefix) :]]
        if "." not in qualified and qualified in near.classes:
            return near.classes[qualified]
        found = self.project.resolve(qualified)
        if found is None:
            return None
        module, member = found
        if member in module.classes:
            return module.classes[member]
        reexported = module.imports.names.get(member)
        if reexported and reexported != qualified:
            return self.resolve_class(reexported, module, depth + 1)
        return None

    def bases(self, cls: ClassInfo) -> list[ClassInfo]:
        if cls.scope:
            return [
                base for expr in cls.node.bases
                if (base := self.class_named(expr, cls.module, cls.scope)) is not None and base is not cls
            ]
        return [
            base
            for name in cls.base_names
            if (base := self.resolve_class(name, cls.module)) is not None and base is not cls
        ]

    def class_named(self, expr: ast.expr, module: ModuleInfo, scope: tuple[ast.AST, ...]) -> ClassInfo | None:
        """The project class an expression names where it is written: a class defined in an
        enclosing function first (Python's closure rule), then the module's imports."""
        if scope and isinstance(expr, ast.Name):
            local = module.visible_definition(expr.id, scope)
            if local is not None:
                return module.class_info(local) if isinstance(local, ast.ClassDef) else None
        qualified = module.imports.qualify(expr)
        return self.resolve_class(qualified, module) if qualified else None

    def mro(self, cls: ClassInfo) -> list[ClassInfo]:
        """The class and its project base classes, depth first, each once (cycles end)."""
        return self.memo(self._mro, id(cls), lambda: self._linearise(cls))

    def subclasses(self, cls: ClassInfo, near: Path) -> list[ClassInfo]:
        """Project classes deriving from ``cls``, transitively, found through the project's text
        scan (an abstract base Cell's construct reads attributes only its subclasses set)."""
        found: list[ClassInfo] = []
        pending = [cls]
        seen = {id(cls)}
        scans = self.project.text_scans(near)
        while pending:
            current = pending.pop()
            for scan in scans:
                for path in sorted(scan.subclass_files.get(current.name, ())):
                    module = self.project.module(path)
                    for candidate in (module.classes.values() if module else ()):
                        if id(candidate) not in seen and current in self.mro(candidate):
                            seen.add(id(candidate))
                            found.append(candidate)
                            pending.append(candidate)
        return found

    def _linearise(self, cls: ClassInfo) -> list[ClassInfo]:
        order: list[ClassInfo] = []
        stack = [cls]
        while stack and len(order) < MAX_BASE_DEPTH:
            current = stack.pop(0)
            if current in order:
                continue
            order.append(current)
            stack[0:0] = self.bases(current)
        return order

    def is_cell(self, cls: ClassInfo) -> bool:
        return self.memo(
            self._is_cell,
            id(cls),
            lambda: any(is_mindspore_cell_name(n) for c in self.mro(cls) for n in c.base_names),
        )

    def is_jit_class(self, cls: ClassInfo) -> bool:
        return JIT_CLASS_DECORATOR in cls.decorator_names

    def find_method(self, cls: ClassInfo, name: str, skip_self: bool = False):
        for candidate in self.mro(cls)[1 if skip_self else 0 :]:
            if name in candidate.methods:
                return candidate, candidate.methods[name]
        return None

    # ----- roots --------------------------------------------------------------------------

    def targets(self, module: ModuleInfo) -> list[Target]:
        """The compiled roots defined in one module, in source order."""
        return self.memo(self._targets, id(module), lambda: self._find_targets(module))

    def _find_targets(self, module: ModuleInfo) -> list[Target]:
        found: list[Target] = []
        methods: set[int] = set()
        for cls in (*module.classes.values(), *module.nested_classes):
            methods.update(id(method) for method in cls.methods.values())
            is_cell = self.is_cell(cls)
            if is_cell:
                found.extend(self._cell_targets(cls))
            for method in cls.methods.values():
                if is_cell and method.name in ROOT_METHODS:
                    continue
                if (jit := jit_decoration(method, module)) is not None:
                    found.append(jit_target(f"{cls.name}.{method.name}", module, method, cls, jit))
        for function in module.functions.values():
            if (jit := jit_decoration(function, module)) is not None:
                found.append(jit_target(function.name, module, function, None, jit))
        found.extend(self._jit_targets_outside_definitions(module, methods))
        return sorted(found, key=lambda t: (t.node.lineno, t.label))

    def _cell_targets(self, cls: ClassInfo) -> list[Target]:
        """construct and bprop of a Cell, its own or inherited from a project base class: an
        inherited construct is compiled for this Cell, with this Cell's overrides."""
        level = cell_level_override(cls)
        targets = []
        for name in ROOT_METHODS:
            if (located := self.find_method(cls, name)) is None:
                continue
            owner, node = located
            jit = jit_decoration(node, owner.module)
            targets.append(
                Target(
                    f"{cls.name}.{name}",
                    "cell",
                    owner.module,
                    node,
                    cls,
                    level or (jit.level if jit else None),
                    bool(jit and jit.bytecode),
                )
            )
        return targets

    def _jit_targets_outside_definitions(self, module: ModuleInfo, methods: set[int]):
        """``@jit`` functions nested in other functions (a train step inside train()), and
        ``step = ms.jit(train_step)`` wherever it is written. One walk, only if jit is mentioned."""
        if "jit" not in (module.source.text or ""):
            return []
        top_level = methods | {id(f) for f in module.functions.values()}
        defined: dict[str, list[FunctionNode]] = {}
        assignments: list[ast.Assign] = []
        for node in module.nodes(module.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defined.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                assignments.append(node)
        found = [
            jit_target(node.name, module, node, None, jit)
            for nodes in defined.values()
            for node in nodes
            if id(node) not in top_level and (jit := jit_decoration(node, module)) is not None
        ]
        for assignment in assignments:
            call = assignment.value
            if module.imports.qualify(call.func) not in JIT_DECORATORS:
                continue
            # `function=` since MindSpore 2.5, `fn=` before
            wrapped = call.args[0] if call.args else _keyword(call, "function") or _keyword(call, "fn")
            if not isinstance(wrapped, ast.Name):
                continue
            candidates = defined.get(wrapped.id, [])
            node = module.functions.get(wrapped.id) or (candidates[0] if len(candidates) == 1 else None)
            if node is not None:
                names = [t.id for t in assignment.targets if isinstance(t, ast.Name)]
                label = f"{names[0] if names else '_'} = jit({wrapped.id})"
                found.append(jit_target(label, module, node, None, jit_options(call)))
        return found

    # ----- reach --------------------------------------------------------------------------

    def reach(self, target: Target) -> list[CompiledFunction]:
        """Every function compiled for ``target``, root first, breadth first (shortest paths),
        each knowing which of its parameters receive variables from compiled call sites."""
        return self.memo(self._reach, id(target), lambda: self._reach_from(target))

    def _reach_from(self, target: Target) -> list[CompiledFunction]:
        root = CompiledFunction(target.module, target.node, target.cell, target)
        if target.kind == "cell" and target.node.name == "construct":
            root.variable_params = self.sub_cell_params(target.cell)
            if root.variable_params is None:
                root.variable_params = self.driver_params(target)
        elif target.kind == "jit":
            root.variable_params = self.driver_params(target)
        reached = {id(target.node): root}
        edges: list[tuple[CompiledFunction, CallEdge]] = []
        queue = deque([root])
        while queue:
            current = queue.popleft()
            for edge in self._callees(current):
                edges.append((current, edge))
                if id(edge.node) not in reached:
                    compiled = CompiledFunction(
                        edge.module, edge.node, edge.owner, target, (*current.via, edge.label),
                        variable_params=set(),
                    )
                    reached[id(edge.node)] = compiled
                    queue.append(compiled)
        self._propagate_variables(reached, edges)
        incoming: dict[int, list[CallEdge]] = {}
        for _, edge in edges:
            incoming.setdefault(id(edge.node), []).append(edge)
        for key, compiled in reached.items():
            if not compiled.is_root:
                compiled.passed_constants = passed_constants(compiled.node, incoming.get(key, []))
        return list(reached.values())

    def _propagate_variables(self, reached: dict[int, CompiledFunction], edges) -> None:
        """A helper's parameter is a variable when some compiled caller passes one (fixpoint)."""
        changed = True
        while changed:
            changed = False
            for caller, edge in edges:
                callee = reached[id(edge.node)]
                if callee.variable_params is None:
                    continue  # a root: every parameter is an input already
                caller_values = self.values(caller)
                for param, argument in bind_arguments(edge.call, edge.node, edge.binds_self):
                    if param not in callee.variable_params and caller_values.is_variable(argument):
                        callee.variable_params.add(param)
                        self._values.pop(id(callee), None)
                        changed = True

    # ----- sub-Cells: construct called by a parent Cell, not by the user -------------------

    def sub_cell_params(self, cls: ClassInfo) -> set[str] | None:
        """The construct parameters of a sub-Cell that its parents pass variables to.

        When every use of ``cls`` in the project is ``self.<attr> = cls(...)`` in another Cell,
        and those parents call ``self.<attr>(...)`` in their compiled code, construct's inputs
        are what those calls pass: `self.pos(B, H, W)` with `B, C, H, W = x.shape` gives ints,
        compile-time constants. None (every parameter an input) when any use is something else,
        or no compiled call is seen.
        """
        key = id(cls)
        if key in self._sub_cell_pending:
            return None  # a Cell that contains itself, through its parents
        self._sub_cell_pending.add(key)
        try:
            return self.memo(self._sub_cell_params, key, lambda: self._find_sub_cell_params(cls))
        finally:
            self._sub_cell_pending.discard(key)

    def _find_sub_cell_params(self, cls: ClassInfo) -> set[str] | None:
        holders = self.holders(cls)
        if not holders:
            return None
        construct = self.find_method(cls, "construct")
        if construct is None:
            return None
        variables: set[str] = set()
        called = False
        for parent, attr in holders:
            for target in self._cell_targets(parent):
                for compiled in self.reach(target):
                    self_name = first_parameter(compiled.node) if compiled.owner else None
                    if self_name is None:
                        continue
                    values = self.values(compiled)
                    for call in compiled.module.nodes(compiled.node):
                        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                                and call.func.attr == attr
                                and isinstance(call.func.value, ast.Name)
                                and call.func.value.id == self_name):
                            called = True
                            variables.update(
                                param for param, argument in bind_arguments(call, construct[1], True)
                                if values.is_variable(argument)
                            )
        return variables if called else None

    def driver_params(self, target: Target) -> set[str] | None:
        """The parameters of a root that its Python callers may pass tensors to, when every
        use of the Cell or jit function is in one plain-Python function of its own file
        (``net = Net(); net(1, 2)`` in a test body or main()). A scalar, string or tuple of
        them is a compile-time constant in the graph; only ``mutable()`` makes it a variable.
        None (every parameter an input) when any use is something else."""
        found = self.driver_calls(target)
        if found is None:
            return None
        module, driver, calls = found
        variables: set[str] = set()
        for call in calls:
            for param, argument in bind_arguments(call, target.node, target.cell is not None):
                if not _driver_constant(argument, module, driver, 0):
                    variables.add(param)
        return variables

    def driver_arguments(self, target: Target) -> dict[str, ast.expr]:
        """param -> the argument every Python call of the root passes it (the same expression
        in each, to be read in the driver), or the literal default when no call passes one."""
        found = self.driver_calls(target)
        if found is None:
            return {}
        _, _, calls = found
        passed: dict[str, list[ast.expr]] = {}
        for call in calls:
            bound = dict(bind_arguments(call, target.node, target.cell is not None))
            for param, argument in bound.items():
                passed.setdefault(param, []).append(argument)
        arguments: dict[str, ast.expr] = {}
        collectors = {a.arg for a in (target.node.args.vararg, target.node.args.kwarg) if a}
        for param, expressions in passed.items():
            if param in collectors:
                continue  # *args / **kwargs gather several arguments into one tuple or dict
            if len(expressions) == len(calls) and len({ast.dump(e) for e in expressions}) == 1:
                arguments[param] = expressions[0]
        args = target.node.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]],
                            args.defaults))
        defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        for param, default in defaults.items():
            if param not in passed and isinstance(default, ast.Constant):
                arguments[param] = default
        return arguments

    def driver_calls(self, target: Target) -> tuple[ModuleInfo, ast.AST, list[ast.Call]] | None:
        """(module, driver function, calls) when every use of the root is a call in one
        plain-Python function of its own file (see driver_params); None otherwise."""
        return self.memo(self._driver_calls, id(target), lambda: self._find_driver_calls(target))

    def _find_driver_calls(self, target: Target):
        module = target.module
        cls = target.cell
        if target.kind == "jit" and (cls is not None or target.label.endswith(")")):
            return None  # a jit method, or `step = jit(fn)`: called through other names
        definition = cls.node if cls is not None else target.node
        name = definition.name
        scope = cls.scope if cls is not None else module.scope_of(target.node)
        if scope:
            driver = scope[-1]
            if not isinstance(driver, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return None
        else:
            driver = _only_function_naming(module, name, definition)
            if driver is None:
                return None
            if _in_all(module, name) or any(
                    self.project.mentions(path, name.encode())
                    for path in self.project.importers_of(module.path)):
                return None  # other files may call it with tensors
        calls = _driver_calls(module, driver, name, definition, bool(cls))
        if calls is None:
            return None
        for call in calls:
            if any(isinstance(a, ast.Starred) for a in call.args) or any(
                    k.arg is None for k in call.keywords):
                return None
        return module, driver, calls

    def table(self, name: str) -> dict:
        """A named cache owned by this model, for answers computed outside it (attributes.py):
        handed to ``memo`` like the model's own, and dropped with them."""
        return self._tables.setdefault(name, {})

    def constructor_calls(self, cls: ClassInfo) -> list[Construction] | None:
        """Every call that builds ``cls`` in the project, with where it is written: the
        parents' ``self.<attr> = cls(...)`` (``holders``), or the one plain-Python function that
        builds it (a test body, ``main()``); None when the class is built or used in any other
        way, or has project subclasses (their ``super().__init__`` calls are not followed)."""
        return self.memo(self.table("constructor_calls"), id(cls),
                         lambda: self._find_constructor_calls(cls))

    def _find_constructor_calls(self, cls: ClassInfo) -> list[Construction] | None:
        if self.subclasses(cls, cls.module.path):
            return None
        holders = self.holders(cls)
        if holders:
            calls: list[Construction] = []
            for parent, attr in holders:
                for value in parent.self_assignments.get(attr, ()):
                    if isinstance(value, ast.Call) and self.class_named(
                            value.func, parent.module, parent.scope) is cls:
                        calls.append(Construction(parent.module, None, value))
            return calls or None
        module = cls.module
        if cls.scope:
            driver = cls.scope[-1]
            if not isinstance(driver, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return None
        else:
            driver = _only_function_naming(module, cls.name, cls.node)
            if driver is None or _in_all(module, cls.name) or any(
                    self.project.mentions(path, cls.name.encode())
                    for path in self.project.importers_of(module.path)):
                return None
        calls = _constructions(module, driver, cls.name, cls.node)
        return None if calls is None else [Construction(module, driver, call) for call in calls]

    def constructor_arguments(self, cls: ClassInfo, init: FunctionNode,
                              value: ast.expr) -> list[Construction] | None:
        """What the constructions of ``cls`` pass the ``__init__`` parameter ``value`` names (or its
        default), when ``value`` is such a parameter, bound nowhere else in ``__init__``: each a
        Construction whose ``expr`` is the argument (or the default, in the class's module)."""
        if not isinstance(value, ast.Name):
            return None
        args = init.args
        positional = [*args.posonlyargs, *args.args]
        names = [p.arg for p in [*positional[1:], *args.kwonlyargs]]
        if value.id not in names or value.id in function_syntax(cls.module, init).bound:
            return None
        calls = self.constructor_calls(cls)
        if not calls:
            return None
        defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]], args.defaults))
        defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        passed: list[Construction] = []
        for module, function, call in calls:
            bound = [argument for param, argument in bind_arguments(call, init, True) if param == value.id]
            if len(bound) == 1:
                passed.append(Construction(module, function, bound[0]))
            elif not bound and value.id in defaults:
                passed.append(Construction(cls.module, None, defaults[value.id]))
            else:
                return None
        return passed

    def holders(self, cls: ClassInfo) -> list[tuple[ClassInfo, str]] | None:
        """(parent Cell, attribute) for every ``self.<attr> = cls(...)``; None when the project
        uses ``cls`` in any other way (a model of its own, a list of layers, an export). Asked
        for every return statement of a root, so cached."""
        return self.memo(self._holders, id(cls), lambda: self._find_holders(cls))

    def _find_holders(self, cls: ClassInfo) -> list[tuple[ClassInfo, str]] | None:
        module = cls.module
        if _in_all(module, cls.name):
            return None  # part of the module's public API: users may build it themselves
        star_exports = "__all__" not in module.assignments
        holders: list[tuple[ClassInfo, str]] = []
        users = [module]
        importers = self.memo(self._importers, id(module), lambda: self.project.importers_of(module.path))
        for path in importers:
            package = star_exports and path.name == "__init__.py"
            if package or self.project.mentions(path, cls.name.encode()):  # parse only those
                if (user := self.project.module(path)) is not None:
                    if _re_exports(user, cls.name, star_exports):
                        return None  # re-exported: users outside the project may build it
                    if any(self.project.mentions(further, cls.name.encode())
                           for further in self.project.importers_of(user.path)):
                        return None  # may be imported on from there: uses not followed
                    users.append(user)
        for user in users:
            found = self._uses_in_cell_methods(cls, user)
            if found is None:
                return None
            holders.extend(found)
        return holders

    def _uses_in_cell_methods(self, cls: ClassInfo, user: ModuleInfo) -> list[tuple[ClassInfo, str]] | None:
        """The holders ``user`` has of ``cls``, or None when it names it anywhere else. The
        text says where the name appears; only the methods holding it are looked at, through
        indexes made once per module and per method (a whole-module walk per class had cost a
        fifth of a run)."""
        class_name = cls.name
        methods = self._cell_methods(user)
        hits: set[int] = set()
        imports = _import_lines(user)
        for number in _lines_naming(user, class_name):
            if (user is cls.module and number == cls.node.lineno) or number in imports:
                continue  # `class Name(...)`, `from blocks import Name`: not uses
            inside = [method for _, method in methods if method.lineno <= number <= method.end_lineno]
            if not inside:
                return None  # named outside every Cell method: used some other way
            hits.add(id(inside[0]))
        found: list[tuple[ClassInfo, str]] = []
        for cell, method in methods:
            if id(method) not in hits:
                continue
            parents = user.parents(method)
            for node in _loads_by_name(user, method).get(class_name, ()):
                qualified = user.imports.qualify(node)
                if qualified is None or self.resolve_class(qualified, user) is not cls:
                    continue
                if isinstance(node, ast.Name) and isinstance(parents.get(id(node)), ast.Attribute):
                    return None  # Name.something: a use other than a call
                holder = _held_as(node, parents, method)
                if holder is None:
                    return None
                found.append((cell, holder))
        return found

    def _cell_methods(self, module: ModuleInfo) -> list[tuple[ClassInfo, FunctionNode]]:
        return self.memo(self._module_cell_methods, id(module), lambda: [
            (cell, method) for cell in (*module.classes.values(), *module.nested_classes)
            if self.is_cell(cell) for method in cell.methods.values()])

    # ----- branches the parser drops ------------------------------------------------------

    def dead_nodes(self, compiled: CompiledFunction) -> frozenset[int]:
        """ids of the nodes in branches MindSpore's parser folds away: the body of an ``if``
        whose test is a constant false (the ``else`` of a constant true). Constants here are
        literals and ``self`` attributes that every assignment gives a bool of one truth, which
        nothing outside the class sets (`self.save_attention = False` in ``__init__``: blip's
        ``if is_cross and self.save_attention:`` compiles at STRICT, its body never runs). Also
        the message of a branch that only raises under a test decided while compiling (`if
        x.shape != (b, n): raise ValueError(f"... {x.size()}")`): built only for inputs that
        already fail (probed on mindone's olmoe)."""
        return self.memo(self._dead, id(compiled), lambda: self._find_dead(compiled))

    def _find_dead(self, compiled: CompiledFunction) -> frozenset[int]:
        module = compiled.module
        dead: set[int] = set()
        ifs = module.derived("ifs", compiled.node,
                             lambda function: [n for n in module.nodes(function) if isinstance(n, ast.If)])
        for node in ifs:
            if id(node) in dead:
                continue
            truth = self.static_truth(node.test, compiled)
            if truth is None:
                if _only_raises(node.body) and not self.values(compiled).is_variable(node.test):
                    # An error path under a test the compiler decides while compiling (static
                    # shapes, isinstance): its message is built only for inputs that already
                    # fail. The raise itself stays: its exception class is resolved regardless.
                    *before, last = node.body
                    parts = [*before, last.cause]
                    if isinstance(last.exc, ast.Call):
                        parts += [*last.exc.args, *(k.value for k in last.exc.keywords)]
                    dead.update(id(n) for part in parts if part is not None
                                for n in module.nodes(part))
                continue
            for statement in (node.orelse if truth else node.body):
                dead.update(id(n) for n in module.nodes(statement))
        return frozenset(dead)

    def unevaluated_nodes(self, compiled: CompiledFunction) -> frozenset[int]:
        """``dead_nodes``, and the branches type inference never evaluates: those of an ``if``
        decided by the literals every compiled caller passes (``helper(x)`` with ``host=False``:
        ``np.tanh`` under ``if host:`` is never run, at every level; probed with 2.10). The
        parser still reads them: an undefined name or a ``try`` there is rejected all the same,
        so only the checks of what the graph evaluates skip them."""
        return self.memo(self._unevaluated, id(compiled), lambda: self._find_unevaluated(compiled))

    def _find_unevaluated(self, compiled: CompiledFunction) -> frozenset[int]:
        dead = self.dead_nodes(compiled)
        constants = compiled.passed_constants
        if not constants:
            return dead
        module = compiled.module
        rebound = self.values(compiled).bound
        known = {name: values for name, values in constants.items() if name not in rebound}
        found = set(dead)
        ifs = module.derived("ifs", compiled.node,
                             lambda function: [n for n in module.nodes(function) if isinstance(n, ast.If)])
        for node in ifs:
            if id(node) in found:
                continue
            truth = constant_truth(node.test, known)
            if truth is not None:
                for statement in (node.orelse if truth else node.body):
                    found.update(id(n) for n in module.nodes(statement))
        return frozenset(found)

    def static_truth(self, test: ast.expr, compiled: CompiledFunction) -> bool | None:
        """The truth of an if-test the parser knows while compiling, else None."""
        match test:
            case ast.Constant(value=value):
                return bool(value)
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                truth = self.static_truth(operand, compiled)
                return None if truth is None else not truth
            case ast.BoolOp(op=ast.And(), values=values):
                truths = [self.static_truth(value, compiled) for value in values]
                return False if False in truths else (True if all(truths) else None)
            case ast.BoolOp(op=ast.Or(), values=values):
                truths = [self.static_truth(value, compiled) for value in values]
                return True if True in truths else (False if truths.count(False) == len(truths) else None)
            case ast.Attribute(value=ast.Name(id=name), attr=attr) if (
                    compiled.owner is not None and name == first_parameter(compiled.node)):
                return self._attribute_truth(attr, compiled)
            case ast.Compare(left=ast.Attribute(value=ast.Name(id=name), attr=attr), ops=[op],
                             comparators=[ast.Constant()]) if (
                    compiled.owner is not None and name == first_parameter(compiled.node)
                    and type(op) in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
                # `if self.act == "gelu":` folds while parsing (probed: an undefined name under
                # it compiles when every Block() leaves act=None)
                literals = self.attribute_literals(attr, compiled)
                if literals is None:
                    return None
                return constant_truth(ast.Compare(left=ast.Name(id=attr), ops=[op],
                                                  comparators=test.comparators), {attr: literals})
        return None

    def _attribute_truth(self, attr: str, compiled: CompiledFunction) -> bool | None:
        literals = self.attribute_literals(attr, compiled)
        if literals is None or not all(isinstance(v, (bool, type(None))) for v in literals):
            return None  # the parser folds the truth of a bool (or None) only
        truths = {bool(value) for value in literals}
        return truths.pop() if len(truths) == 1 else None

    def attribute_literals(self, attr: str, compiled: CompiledFunction) -> frozenset | None:
        """The literals ``self.<attr>`` may hold in ``compiled``: every assignment of it in the
        classes of ``self`` is a literal, or an ``__init__`` parameter that every construction of
        the class passes a literal (or leaves at a literal default: ``Block()`` with
        ``act=None``). None when any is something else, the class body binds it too, or code
        outside the class sets it."""
        classes = self.self_classes(compiled)
        if any(attr in cls.body_names for cls in classes):
            return None
        literals: set = set()
        for cls in classes:
            for method_name, pairs in cls.method_self_assignments.items():
                for assigned, value in pairs:
                    if assigned != attr:
                        continue
                    passed = None
                    if method_name == "__init__" and isinstance(value, ast.Name):
                        passed = self.constructor_arguments(cls, cls.methods[method_name], value)
                    for expr in ([p.expr for p in passed] if passed is not None else [value]):
                        literal = _literal(expr)
                        if literal is _NOT_A_LITERAL:
                            return None
                        literals.add(literal)
        if not literals or attr in self.project.externally_set(compiled.module.path):
            return None
        return frozenset(literals)

    def values(self, compiled: CompiledFunction) -> FunctionValues:
        """Constants versus variables inside one compiled function (cached)."""
        return self.memo(self._values, id(compiled), lambda: self._function_values(compiled))

    def _function_values(self, compiled: CompiledFunction) -> FunctionValues:
        classes = self.self_classes(compiled)
        return FunctionValues(
            compiled.node,
            compiled.module,
            is_method=compiled.owner is not None and not is_static(compiled.node)
            and not construct_without_self(compiled.node),
            parameter_attrs=frozenset(a for c in classes for a in c.parameter_attrs),
            method_names=frozenset(name for c in classes for name in c.methods),
            variable_params=compiled.variable_params,
            static_attrs=frozenset(a for c in classes for a in c.static_primitive_attrs),
            returns=lambda attr: self.return_kinds(compiled, attr),
            call_returns=lambda call, caller: self.call_returns(
                compiled.module, compiled.node, call, caller),
        )

    def return_kinds(self, compiled: CompiledFunction, attr: str) -> object:
        """What ``self.<attr>(...)`` gives back in ``compiled``: False when every return is a
        compile-time value even with every parameter a variable (a helper returning a shape),
        a list of those per element when every return is a tuple of one length (a sub-Cell's
        ``return x, (h, w)``), True otherwise. Cached per called function."""
        cls = compiled.target.cell or compiled.owner
        if cls is None:
            return True
        # memo: reused answers replay what they read, for the result cache
        return self.memo(self._returns_by_attr, (id(cls), attr),
                         lambda: self._callee_return_kinds(cls, attr))

    def _callee_return_kinds(self, cls: ClassInfo, attr: str) -> object:
        callee = self.find_method(cls, attr)
        if callee is None and (sub := self.attribute_class(cls, attr)) is not None and self.is_cell(sub):
            callee = self.find_method(sub, "construct")
        if callee is None:
            return True
        owner, node = callee
        key = id(node)
        if key in self._returns_pending:
            return True  # recursion: assume the worst
        self._returns_pending.add(key)
        try:
            return self.memo(self._return_kinds, key, lambda: self._find_return_kinds(owner, node))
        finally:
            self._returns_pending.discard(key)

    def _find_return_kinds(self, owner: ClassInfo, node: FunctionNode) -> object:
        returns = known_returns(owner.module, node)
        if returns is None:
            return True
        compiled = CompiledFunction(owner.module, node, owner,
                                    Target(node.name, "cell", owner.module, node, owner))
        classes = self.mro(owner)  # a base class's Parameters and methods count too
        values = FunctionValues(  # every parameter a variable: true of any caller
            node, owner.module, is_method=not is_static(node),
            parameter_attrs=frozenset(a for c in classes for a in c.parameter_attrs),
            method_names=frozenset(name for c in classes for name in c.methods),
            static_attrs=frozenset(a for c in classes for a in c.static_primitive_attrs),
            returns=lambda attr: self.return_kinds(compiled, attr))
        # False for a compile-time value, True for a variable, per element of a returned tuple
        return _join_returns(returns, values.is_variable)

    def self_classes(self, compiled: CompiledFunction) -> list[ClassInfo]:
        """The classes whose attributes ``self`` has in a compiled function: the target's Cell
        and the function's owner, each with its project bases."""
        cell, owner = compiled.target.cell, compiled.owner
        classes = self.mro(cell) if cell is not None else []
        if owner is not None and owner not in classes:
            classes = [*classes, *self.mro(owner)]
        return classes

    def attribute_class(self, cls: ClassInfo, attr: str) -> ClassInfo | None:
        """The project class of ``self.<attr> = SomeClass(...)`` in cls or its project bases."""
        for klass in self.mro(cls):
            for value in klass.self_assignments.get(attr, ()):
                if isinstance(value, ast.Call):
                    if found := self.class_named(value.func, klass.module, klass.scope):
                        return found
        return None

    def _callees(self, caller: CompiledFunction):
        """A CallEdge for each call in ``caller`` that resolves to project code."""
        module, node, owner = caller.module, caller.node, caller.owner
        self_name = first_parameter(node) if owner is not None and not is_static(node) else None
        dead = self.dead_nodes(caller)
        for call in module.nodes(node):
            if not isinstance(call, ast.Call) or id(call) in dead:
                continue
            func = call.func
            if isinstance(func, ast.Attribute) and owner is not None:
                receiver = func.value
                if isinstance(receiver, ast.Name) and receiver.id == self_name:
                    # self.m(...): statically, the concrete Cell of the target first (subclass
                    # overrides win), then the class that defines the caller.
                    start = caller.target.cell or owner
                    found = self.find_method(start, func.attr) or self.find_method(owner, func.attr)
                    if found:
                        cls, method = found
                        yield CallEdge(cls.module, method, cls, func.attr, call, not is_static(method))
                    continue
                if (
                    isinstance(receiver, ast.Call)
                    and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super"
                ):
                    if found := self.find_method(owner, func.attr, skip_self=True):
                        cls, method = found
                        yield CallEdge(
                            cls.module, method, cls, f"super().{func.attr}", call, not is_static(method)
                        )
                    continue
                if (
                    isinstance(receiver, ast.Attribute)
                    and isinstance(receiver.value, ast.Name)
                    and receiver.value.id == self_name
                ):
                    # self.sub.m(...): a method of a project object assigned in __init__.
                    sub = self.attribute_class(caller.target.cell or owner, receiver.attr)
                    if sub is not None and (found := self.find_method(sub, func.attr)):
                        cls, method = found
                        label = f"self.{receiver.attr}.{func.attr}"
                        yield CallEdge(cls.module, method, cls, label, call, not is_static(method))
                    continue
            if (wrapped := self._wrapped_function(func, caller)) is not None:
                callee_module, callee, cls, label = wrapped
                yield CallEdge(callee_module, callee, cls, label, call, False)
                continue
            if isinstance(func, ast.Name) and func.id in self.values(caller).local_names:
                continue  # a parameter, local variable or nested def (walked with the caller)
            if (found := self._plain_callee(module, node, func)) is not None:
                callee_module, callee, cls, label = found
                if not is_host_evaluated(callee, callee_module):
                    yield CallEdge(callee_module, callee, cls, label, call, False)

    def _plain_callee(self, module: ModuleInfo, node: FunctionNode, func: ast.expr):
        """The project function that ``f(...)`` or ``pkg.f(...)`` in ``node`` runs (callers have
        made sure ``f`` is none of node's own names): (module, function, class, label), or
        None."""
        if isinstance(func, ast.Name) and (scope := module.scope_of(node)):
            # a function the enclosing function defines (a closure): compiled like any other
            local = module.visible_definition(func.id, scope)
            if isinstance(local, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return module, local, None, func.id
            if local is not None:
                return None  # a class defined in the enclosing function
        qualified = module.imports.qualify(func)
        if qualified and not qualified.startswith("builtins.") and qualified not in JIT_DECORATORS:
            return self._resolve_function(qualified, module)
        return None

    def call_returns(self, module: ModuleInfo, node: FunctionNode, call: ast.Call,
                     caller: FunctionValues) -> tuple[object, object] | None:
        """What a project function called as ``call`` in ``node`` gives back, given which of its
        parameters the call passes variables to (``caller`` says): (which of it may be a
        variable, which of it is a host value made from one), each True, False, or a list per
        element of a returned tuple (as return_kinds); None when the callee is not a project
        function. Cached per called function and variable parameters."""
        # asked again at every step of a fixpoint; the memo replays the lookups for the cache
        found = self.memo(self._call_callees, id(call),
                          lambda: self._plain_callee(module, node, call.func))
        if found is None or found[2] is not None:
            return None  # not the project's, or a method called through its class
        callee_module, callee = found[0], found[1]
        variables = frozenset(param for param, argument in bind_arguments(call, callee, False)
                              if caller.is_variable(argument))
        key = (id(callee), variables)
        if key in self._call_pending:
            return True, False  # recursion: a variable, and nothing said of host values
        self._call_pending.add(key)
        try:
            return self.memo(self._call_returns, key,
                             lambda: self._find_call_returns(callee_module, callee, variables))
        finally:
            self._call_pending.discard(key)

    def _find_call_returns(self, module: ModuleInfo, node: FunctionNode,
                           variables: frozenset[str]) -> tuple[object, object]:
        returns = known_returns(module, node)
        if returns is None or is_generator(module, node):
            return True, False
        values = FunctionValues(
            node, module, is_method=False, variable_params=set(variables),
            call_returns=lambda call, caller: self.call_returns(module, node, call, caller))
        return _join_returns(returns, values.is_variable), _join_returns(returns, values.is_host)

    def _wrapped_function(self, func: ast.expr, caller: CompiledFunction):
        """``ms.grad(fn)(x)``, or ``grad_fn(x)`` after ``grad_fn = ms.value_and_grad(fn, ...)``
        (module level or in the caller): the call runs ``fn`` in the graph."""
        module = caller.module
        if isinstance(func, ast.Call):
            wrappers = [func]
        elif isinstance(func, ast.Name):
            local = self.values(caller).assigned_values(func.id)
            wrappers = local or module.assignments.get(func.id, [])
        else:
            return None
        for wrapper in wrappers:
            if not (isinstance(wrapper, ast.Call) and wrapper.args):
                continue
            if module.imports.qualify(wrapper.func) not in FUNCTION_WRAPPERS:
                continue
            qualified = module.imports.qualify(wrapper.args[0])
            if qualified and (found := self._resolve_function(qualified, module)) is not None:
                return found
        return None

    def _resolve_function(self, qualified: str, near: ModuleInfo):
        prefix = f"{near.name}."
        local = qualified[len(prefix) :] if near.name and qualified.startswith(prefix) else None
        if local is not None and local in near.functions:
            return near, near.functions[local], None, local
        if local is None or "." in local:
            found = self.project.resolve(qualified) if local is None else (near, local)
            if found is None:
                return None
            module, member = found
            if member in module.functions:
                return module, module.functions[member], None, member
            if "." in member:  # Class.method(...)
                class_name, method_name = member.rsplit(".", 1)
                cls = module.classes.get(class_name)
                if cls is not None and method_name in cls.methods:
                    return module, cls.methods[method_name], cls, member
            reexported = module.imports.names.get(member)
            if reexported and reexported != qualified and reexported.split(".")[0] != "mindspore":
                found_module = self.project.resolve(reexported)
                if found_module and found_module[1] in found_module[0].functions:
                    target_module, name = found_module
                    return target_module, target_module.functions[name], None, name
        return None

    # ----- per module ---------------------------------------------------------------------

    def compiled_functions(self, module: ModuleInfo) -> list[CompiledFunction]:
        """Functions of ``module`` that some root compiles: reached from its own roots or from
        roots of the modules that import it (transitively); each once, first path kept, with the
        variable parameters of every path."""
        self.sync()
        self._reach_upstream(module)
        found = [self._compiled[key] for key in self._compiled_in.get(id(module), ())]
        return sorted(found, key=lambda c: c.node.lineno)

    def _reach_upstream(self, module: ModuleInfo) -> None:
        """Reach every target of ``module`` and of its importers, transitively, once per run.

        Each module's own work (its targets' reach, its importers) is done once per run, which
        keeps a whole-project run linear in the import graph. Importers that cannot define a root
        (``may_define_targets``) are followed through the import index without being parsed. When
        the result cache records reads, each module's work is a unit of its own: the cache finds a
        file's upstream units through the recorded importer queries, instead of every file's entry
        repeating the reads of a closure that may span the whole project.
        """
        project, reads = self.project, self.project.reads
        stack = [module.path]
        while stack:
            path = stack.pop()
            name = str(project.real_path(path))
            if name in self._closure_done:
                continue
            if reads.active:
                with reads.recording(merge=False) as read:
                    importers, digest = self._reach_file(path)
                read.add(("file", name, digest))
                self.unit_reads[name] = frozenset(read)
            else:
                importers, _ = self._reach_file(path)
            self._closure_done.add(name)
            stack.extend(importers)

    def _reach_file(self, path) -> tuple[list, str]:
        """Reach the targets of one file; returns its importers (the next to walk) and the digest
        of what was read."""
        module = self.project.loaded(path)
        if module is None:
            raw = self.project.raw(path)
            # Parsed from the bytes just read, not read again; unparsable: nothing compiled there.
            module = self.project.module(path, raw) if may_define_targets(raw) else None
            if module is None:
                return self.project.importers_of(path), content_digest(raw).hex()
        for target in self.targets(module):
            for compiled in self.reach(target):
                self._keep(compiled)
        return self.project.importers_of(path), module.source.digest.hex()

    def _keep(self, compiled: CompiledFunction) -> None:
        """One CompiledFunction per function: the variables of every path, and the path that
        sorts first (shortest, then by root), so that the report does not depend on the order
        in which files were checked (or on how they were split between processes)."""
        key = id(compiled.node)
        kept = self._compiled.get(key)
        if kept is None:
            self._compiled[key] = compiled
            self._compiled_in.setdefault(id(compiled.module), set()).add(key)
            return
        if kept is compiled:
            return
        if compiled.variable_params is None or kept.variable_params is None:
            variables = None
        else:
            variables = kept.variable_params | compiled.variable_params
        constants = merge_constants(kept.passed_constants, compiled.passed_constants)
        if path_order(compiled) < path_order(kept):
            self._values.pop(id(kept), None)
            kept = self._compiled[key] = replace_variables(compiled, variables)
        elif variables != kept.variable_params:
            kept.variable_params = variables
        kept.passed_constants = constants if not kept.is_root else {}
        self._values.pop(id(kept), None)
        self._unevaluated.pop(id(kept), None)

    def cells(self, module: ModuleInfo) -> list[ClassInfo]:
        self.sync()
        return [cls for cls in (*module.classes.values(), *module.nested_classes) if self.is_cell(cls)]


# ----- helpers that read one node --------------------------------------------------------


def path_order(compiled: CompiledFunction) -> tuple:
    target = compiled.target
    return (len(compiled.via), str(target.module.path), target.node.lineno, target.label, compiled.via)


def replace_variables(compiled: CompiledFunction, variables: set[str] | None) -> CompiledFunction:
    """A copy (the reach lists keep the original) with the merged variable parameters."""
    return CompiledFunction(
        compiled.module, compiled.node, compiled.owner, compiled.target, compiled.via,
        None if variables is None else set(variables), dict(compiled.passed_constants),
    )


_NOT_A_LITERAL = object()


def _literal(expr: ast.expr | None) -> object:
    """The value of a literal argument (``False``, ``"eval"``, ``-1``), else _NOT_A_LITERAL."""
    match expr:
        case ast.Constant(value=value):
            return value
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() | float() as number)) if (
                not isinstance(number, bool)):
            return -number
    return _NOT_A_LITERAL


def passed_constants(callee: FunctionNode, edges: list[CallEdge]) -> dict[str, frozenset]:
    """param -> the literals the calls pass it, for the parameters that every call gives a
    literal or leaves at a literal default (none when any call unpacks *args or **kwargs)."""
    if not edges:
        return {}
    args = callee.args
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]],
                        args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    passed: dict[str, set] = {}
    unknown: set[str] = set()
    for edge in edges:
        call = edge.call
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return {}
        bound: dict[str, list[ast.expr]] = {}
        for param, argument in bind_arguments(call, callee, edge.binds_self):
            bound.setdefault(param, []).append(argument)
        for param in [p.arg for p in [*positional, *args.kwonlyargs]]:
            given = bound.get(param)
            value = _literal(given[0] if given and len(given) == 1 else (
                None if given else defaults.get(param)))
            if value is _NOT_A_LITERAL:
                unknown.add(param)
            else:
                passed.setdefault(param, set()).add(value)
    return {param: frozenset(values) for param, values in passed.items() if param not in unknown}


def merge_constants(first: dict[str, frozenset], second: dict[str, frozenset]) -> dict[str, frozenset]:
    """The literals two sets of paths pass: a parameter known on both, with the values of both."""
    return {param: first[param] | second[param] for param in first.keys() & second.keys()}


COMPARISONS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Is: operator.is_,
               ast.IsNot: operator.is_not, ast.Lt: operator.lt, ast.LtE: operator.le,
               ast.Gt: operator.gt, ast.GtE: operator.ge}


def constant_truth(test: ast.expr, known: dict[str, frozenset]) -> bool | None:
    """The truth of an if-test on parameters whose possible literals are ``known``, when every
    combination gives the same; else None."""
    match test:
        case ast.Name(id=name) if name in known:
            truths = {bool(value) for value in known[name]}
            return truths.pop() if len(truths) == 1 else None
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            truth = constant_truth(operand, known)
            return None if truth is None else not truth
        case ast.BoolOp(op=op, values=values):
            truths = [constant_truth(value, known) for value in values]
            decisive = isinstance(op, ast.Or)  # or: one True decides; and: one False
            if decisive in truths:
                return decisive
            return (not decisive) if None not in truths else None
        case ast.Compare(left=left, ops=[op], comparators=[right]) if type(op) in COMPARISONS:
            lefts, rights = _possible(left, known), _possible(right, known)
            if lefts is None or rights is None:
                return None
            try:
                truths = {bool(COMPARISONS[type(op)](a, b)) for a in lefts for b in rights}
            except TypeError:
                return None  # `"a" < 1`: the compiler's error, not a fold
            return truths.pop() if len(truths) == 1 else None
    return None


def _possible(expr: ast.expr, known: dict[str, frozenset]) -> frozenset | None:
    if isinstance(expr, ast.Name):
        return known.get(expr.id)
    value = _literal(expr)
    return None if value is _NOT_A_LITERAL else frozenset({value})


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


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


@dataclass(frozen=True)
class JitOptions:
    level: Level | None
    bytecode: bool


def jit_target(label: str, module: ModuleInfo, node: FunctionNode, owner: ClassInfo | None,
               jit: JitOptions) -> Target:
    """MindSpore 2.6+ compiles jit functions at LAX unless fullgraph=True."""
    return Target(label, "jit", module, node, owner, jit.level or Level.LAX, jit.bytecode)


def jit_options(call: ast.Call | None) -> JitOptions:
    level = None
    bytecode = False
    if call is not None:
        fullgraph = _keyword(call, "fullgraph")
        if isinstance(fullgraph, ast.Constant) and fullgraph.value is True:
            level = Level.STRICT
        capture = _keyword(call, "capture_mode")
        bytecode = isinstance(capture, ast.Constant) and capture.value == "bytecode"
    return JitOptions(level, bytecode)


def jit_decoration(node: FunctionNode, module: ModuleInfo) -> JitOptions | None:
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        qualified = module.imports.qualify(call.func if call else decorator)
        if qualified in JIT_DECORATORS:
            return jit_options(call)
    return None


def level_from_expr(expr: ast.expr | None) -> Level | None:
    if isinstance(expr, ast.Attribute) and expr.attr in LEVEL_NAMES:
        return LEVEL_NAMES[expr.attr]
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return LEVEL_NAMES.get(expr.value.upper())
    return None


def cell_level_override(cls: ClassInfo) -> Level | None:
    """``self.set_jit_config(JitConfig(jit_syntax_level=ms.STRICT))`` in the Cell's own code."""
    if "set_jit_config" not in (cls.module.source.text or ""):
        return None
    for node in cls.module.nodes(cls.node):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "set_jit_config"
            and node.args
            and isinstance(node.args[0], ast.Call)
        ):
            if level := level_from_expr(_keyword(node.args[0], "jit_syntax_level")):
                return level
    return None


# ----- where a compiled function's values go ---------------------------------------------------

NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def returns_to_python(node: ast.Return, function: CompiledFunction, values: FunctionValues) -> bool:
    """A return statement of construct or of a jit function itself (not of a helper): its value
    goes back to Python. A sub-Cell's construct returns into its parent's graph, where a dict stays
    a dict and a function is fine (seen in 2.10)."""
    if not function.is_root or function.node.name == "bprop":
        return False
    cell = function.target.cell
    if cell is not None and cell.name in _sub_cell_classes(function.module):
        return False
    return enclosing_scope(node, values) is function.node


def enclosing_scope(node: ast.AST, values: FunctionValues) -> ast.AST | None:
    """The function, lambda or class a node belongs to, through the function's parent map."""
    return _nearest_scope(node, values.parent)


def _nearest_scope(node: ast.AST, parent: Callable[[ast.AST], ast.AST | None]) -> ast.AST | None:
    current = parent(node)
    while current is not None and not isinstance(current, NESTED_SCOPES):
        current = parent(current)
    return current


@lru_cache(maxsize=256)
def _sub_cell_classes(module: ModuleInfo) -> frozenset[str]:
    """Names of the module's classes that its classes instantiate into attributes: self.x = C()."""
    return frozenset(
        value.func.id
        for cls in module.classes.values()
        for values in cls.self_assignments.values()
        for value in values
        if isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in module.classes
    )


def _only_raises(body: list[ast.stmt]) -> bool:
    """A branch whose every path ends in ``raise`` (an error check's body)."""
    return bool(body) and isinstance(body[-1], ast.Raise) and not any(
        isinstance(statement, (ast.Return, ast.Break, ast.Continue)) for statement in body)


_CLASS_NAME = re.compile(r"\b[A-Z_]\w*")  # names of classes, as people spell them


def _lines_naming(module: ModuleInfo, name: str) -> list[int]:
    """The lines where ``name`` appears as a word, from one pass over the text per module for
    every capitalised word (class names); other names are searched for on their own."""
    if name[:1].isupper() or name[:1] == "_":
        index = module.derived("capitalised words", module.tree, lambda _: _word_lines(
            module.source.text or "", _CLASS_NAME))
        return index.get(name, [])
    word = re.compile(rf"\b{re.escape(name)}\b")
    return list(_word_lines(module.source.text or "", word).get(name, []))


def _import_lines(module: ModuleInfo) -> frozenset[int]:
    """The lines of the module's import statements (once per module). Imports are statements:
    a walk of the statement blocks finds them without visiting every expression."""
    def lines(tree: ast.AST) -> frozenset[int]:
        found: set[int] = set()
        pending: list[list[ast.stmt]] = [tree.body]
        while pending:
            for stmt in pending.pop():
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    found.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
                    continue
                pending.extend(statement_blocks(stmt))
        return frozenset(found)

    return module.derived("import lines", module.tree, lines)


def _word_lines(text: str, pattern: re.Pattern) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    line, last = 1, 0
    for match in pattern.finditer(text):
        line += text.count("\n", last, match.start())
        last = match.start()
        found.setdefault(match.group(), []).append(line)
    return found


def _loads_by_name(module: ModuleInfo, method: FunctionNode) -> dict[str, list[ast.expr]]:
    """The names and attribute chains a method reads, by their last component (once per method)."""
    def index(node: ast.AST) -> dict[str, list[ast.expr]]:
        found: dict[str, list[ast.expr]] = {}
        for child in module.nodes(node):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
                found.setdefault(child.id, []).append(child)
            elif isinstance(child, ast.Attribute) and isinstance(child.ctx, ast.Load):
                found.setdefault(child.attr, []).append(child)
        return found

    return module.derived("loads by name", method, index)


def _held_as(use: ast.expr, parents: dict, method: FunctionNode) -> str | None:
    """``attr`` when ``use`` is the class in ``self.<attr> = use(...)`` in ``method``."""
    call = parents.get(id(use))
    assign = parents.get(id(call))
    if not (isinstance(call, ast.Call) and call.func is use and isinstance(assign, ast.Assign)
            and len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Attribute)):
        return None
    target = assign.targets[0]
    if not isinstance(target.value, ast.Name) or target.value.id != first_parameter(method):
        return None
    return target.attr


def _in_all(module: ModuleInfo, name: str) -> bool:
    """Whether the module's ``__all__`` lists ``name`` (an ``__all__`` that is not a literal list
    of strings may list anything)."""
    for value in module.assignments.get("__all__", ()):
        if not isinstance(value, (ast.List, ast.Tuple)) or not all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts):
            return True
        if any(e.value == name for e in value.elts):
            return True
    return False


def _re_exports(package: ModuleInfo, name: str, star_exports: bool) -> bool:
    """A package ``__init__`` that hands ``name`` on: by name, or by ``import *`` when the
    defining module has no ``__all__``."""
    if package.path.name != "__init__.py":
        return False
    for node in package.tree.body:
        if isinstance(node, ast.ImportFrom) and any(
                alias.name == name or (alias.name == "*" and star_exports) for alias in node.names):
            return True
    return False


# Python values a driver passes that the graph receives as compile-time constants (seen with
# 2.10: scalars, strings and tuples of them are folded; a tensor, or mutable(), is an input).
CONSTANT_ATTRIBUTES = frozenset({"shape", "ndim", "dtype"})
MAX_CONSTANT_DEPTH = 8


def _only_function_naming(module: ModuleInfo, name: str, definition: ast.AST) -> ast.AST | None:
    """The one module-level function every use of ``name`` (outside its own definition) is in,
    or None when it is used in several places or at module level."""
    functions = [f for f in module.functions.values()]
    driver = None
    for number in _lines_naming(module, name):
        if definition.lineno <= number <= (definition.end_lineno or definition.lineno):
            continue  # super(Net, self) and the class line itself
        inside = next((f for f in functions if f.lineno <= number <= (f.end_lineno or f.lineno)), None)
        if inside is None or (driver is not None and inside is not driver):
            return None
        driver = inside
    return driver


def _driver_calls(module: ModuleInfo, driver: ast.AST, name: str, definition: ast.AST,
                  is_cell: bool) -> list[ast.Call] | None:
    """Every call of the Cell instances (or of the jit function) in ``driver``, or None when the
    name or an instance is used in any other way (passed to grad, stored, reassigned)."""
    parents = module.parents(driver)
    instances: set[str] = set()
    direct: list[ast.Call] = []
    uses: list[ast.Name] = []
    for node in module.nodes(driver):
        if isinstance(node, ast.Name):
            uses.append(node)
    if any(isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store)
           for node in uses):
        return None  # the name rebound
    inside = range(definition.lineno, (definition.end_lineno or definition.lineno) + 1)
    for node in uses:
        if node.id != name or not isinstance(node.ctx, ast.Load):
            continue
        if node.lineno in inside:
            continue  # super(Net, self) in its own body
        call = parents.get(id(node))
        if not (isinstance(call, ast.Call) and call.func is node):
            return None
        if not is_cell:
            continue
        assign = parents.get(id(call))
        if isinstance(assign, ast.Call) and assign.func is call:
            direct.append(assign)  # Net()(x): built and called at once
            continue
        if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1
                and isinstance(assign.targets[0], ast.Name)):
            return None
        instances.add(assign.targets[0].id)
    called = instances if is_cell else {name}
    calls: list[ast.Call] = list(direct)
    for node in uses:
        if node.id not in called:
            continue
        parent = parents.get(id(node))
        if isinstance(node.ctx, ast.Store):
            value = parent.value if isinstance(parent, ast.Assign) and len(parent.targets) == 1 else None
            if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                    and value.func.id == name):
                return None  # an instance name bound to something else too
            continue
        if not (isinstance(parent, ast.Call) and parent.func is node):
            return None
        calls.append(parent)
    return calls if calls else None


def _constructions(module: ModuleInfo, driver: ast.AST, name: str, definition: ast.AST) -> list[ast.Call] | None:
    """Every ``name(...)`` in ``driver``, or None when ``name`` is used there in any other way
    (passed on, subclassed, rebound) or any call unpacks ``*args``/``**kwargs``."""
    parents = module.parents(driver)
    inside = range(definition.lineno, (definition.end_lineno or definition.lineno) + 1)
    calls: list[ast.Call] = []
    for node in module.nodes(driver):
        if not (isinstance(node, ast.Name) and node.id == name) or node.lineno in inside:
            continue
        call = parents.get(id(node))
        if not (isinstance(node.ctx, ast.Load) and isinstance(call, ast.Call) and call.func is node):
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return None
        calls.append(call)
    return calls or None


def _driver_constant(expr: ast.expr, module: ModuleInfo, driver: ast.AST, depth: int) -> bool:
    """Whether a driver's argument is surely a Python constant (no tensor anywhere in it)."""
    if depth > MAX_CONSTANT_DEPTH:
        return False
    match expr:
        case ast.Constant():
            return True
        case ast.Tuple(elts=elements) | ast.List(elts=elements):
            return all(_driver_constant(e, module, driver, depth + 1) for e in elements)
        case ast.UnaryOp(operand=operand):
            return _driver_constant(operand, module, driver, depth + 1)
        case ast.BinOp(left=left, right=right):
            return (_driver_constant(left, module, driver, depth + 1)
                    and _driver_constant(right, module, driver, depth + 1))
        case ast.Attribute(attr=attr) if attr in CONSTANT_ATTRIBUTES:
            return True
        case ast.Dict(keys=keys, values=values) if None not in keys:
            return all(_driver_constant(e, module, driver, depth + 1) for e in [*keys, *values])
        case ast.Name(id=name):
            values = single_assignment(module, driver, name)
            return values is not None and _driver_constant(values, module, driver, depth + 1)
    return False


def single_assignment(module: ModuleInfo, function: ast.AST, name: str) -> ast.expr | None:
    """The value of ``name = value`` when that is the function's only binding of the name (not a
    parameter, loop variable, unpacking target, global or nonlocal)."""
    args = getattr(function, "args", None)
    if args is not None and name in set(bound_names(args)):
        return None
    found: ast.expr | None = None
    parents = module.parents(function)
    for node in module.body_nodes(function):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)):
            parent = parents.get(id(node))
            if found is not None or not (isinstance(parent, ast.Assign) and parent.targets == [node]):
                return None
            found = parent.value
    return found


def driver_context(model: ReachModel, target: Target) -> tuple[ModuleInfo, ast.AST]:
    """(module, function) in which a root's driver arguments are written."""
    found = model.driver_calls(target)
    assert found is not None, "only asked for roots with driver arguments"
    return found[0], found[1]


def _own_nodes(module: ModuleInfo, function: FunctionNode, kinds: tuple[type, ...]) -> list[ast.AST]:
    """The nodes of ``kinds`` in a function's body that are its own, not those of a function or
    class defined in it (the body's walk and parent map are the module's cached ones)."""
    parents = module.parents(function)

    def parent(node: ast.AST) -> ast.AST | None:
        return parents.get(id(node))  # keyed by id, as FunctionValues.parent

    return [node for node in module.body_nodes(function)
            if isinstance(node, kinds) and _nearest_scope(node, parent) is function]


def known_returns(module: ModuleInfo, function: FunctionNode) -> list[ast.Return] | None:
    """The function's own return statements when each gives a value back; None when there is
    none, or a bare ``return`` (what it gives back is then not summarised)."""
    returns = _own_nodes(module, function, (ast.Return,))
    if not returns or any(r.value is None for r in returns):
        return None
    return returns  # type: ignore[return-value]


def is_generator(module: ModuleInfo, function: FunctionNode) -> bool:
    return bool(_own_nodes(module, function, (ast.Yield, ast.YieldFrom)))


def _join_returns(returns: list[ast.Return], judge) -> object:
    """``judge`` of what the returns give back, per element of returned tuples, joined."""
    return _join_kinds([_element_kinds(r.value, judge) for r in returns])


def _element_kinds(value: ast.expr, judge) -> object:
    """``judge(value)``, or a list of those per element when ``value`` is a tuple display."""
    if isinstance(value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in value.elts):
        return [_element_kinds(element, judge) for element in value.elts]
    return judge(value)


def _join_kinds(kinds: list[object]) -> object:
    """What several returns give back together: a variable wherever one of them may."""
    if all(kind is False for kind in kinds):
        return False
    if all(isinstance(kind, list) for kind in kinds) and len({len(k) for k in kinds}) == 1:
        return [_join_kinds(list(parts)) for parts in zip(*kinds)]
    return True
