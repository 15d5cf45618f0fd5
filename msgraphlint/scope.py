"""The graph-scope model: which functions MindSpore compiles, and how each one is reached.

Roots are ``construct``/``bprop`` of Cells (however the Cell base is spelled, through user base
classes in any project file) and functions compiled with ``jit``. From each root the model follows
``self.m()`` (through base classes), ``super().m()``, module functions and functions imported from
the project's own modules, transitively. Every checker asks this model instead of re-deriving it;
code outside the reach (``__init__``, training loops, plain helpers) is never checked by graph rules.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property

from .catalogue import Level
from .project import ClassInfo, ModuleInfo, Project

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

CELL_BASE = "mindspore.nn.Cell"
JIT_DECORATORS = frozenset({"mindspore.jit", "mindspore.ms_function"})
REMOVED_JIT_DECORATORS = frozenset({"mindspore.ms_function"})  # removed in MindSpore 2.6
JIT_CLASS_DECORATOR = "mindspore.jit_class"
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
    decorator: str | None = None  # qualified jit decorator, when there is one


@dataclass(frozen=True, eq=False)
class CompiledFunction:
    """A function that ends up in a graph, with the first path by which a root reaches it."""

    module: ModuleInfo
    node: FunctionNode
    owner: ClassInfo | None  # the class that defines it, for methods
    target: Target
    via: tuple[str, ...] = ()  # helpers between the root and this function, this one last

    @property
    def is_root(self) -> bool:
        return not self.via

    @property
    def reached_from(self) -> str | None:
        if not self.via:
            return None
        return f"reached from {self.target.label} via {' -> '.join(self.via)}"


@dataclass(eq=False)
class ScopeModel:
    """Project-wide questions about Cells and reach, each answer cached for the run."""

    project: Project
    _is_cell: dict[int, bool] = field(default_factory=dict)
    _reach: dict[int, list[CompiledFunction]] = field(default_factory=dict)
    _targets: dict[int, list[Target]] = field(default_factory=dict)

    # ----- classes -----------------------------------------------------------------------

    def resolve_class(self, qualified: str, near: ModuleInfo, depth: int = 0) -> ClassInfo | None:
        """The project class a qualified name denotes, following re-exports."""
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
        return [
            base
            for name in cls.base_names
            if (base := self.resolve_class(name, cls.module)) is not None and base is not cls
        ]

    def mro(self, cls: ClassInfo) -> list[ClassInfo]:
        """The class and its project base classes, depth first, each once (cycles end)."""
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
        key = id(cls)
        if key not in self._is_cell:
            self._is_cell[key] = False  # breaks inheritance cycles
            self._is_cell[key] = any(
                is_mindspore_cell_name(name) for c in self.mro(cls) for name in c.base_names
            )
        return self._is_cell[key]

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
        key = id(module)
        if key not in self._targets:
            self._targets[key] = self._find_targets(module)
        return self._targets[key]

    def _find_targets(self, module: ModuleInfo) -> list[Target]:
        found: list[Target] = []
        for cls in module.classes.values():
            if self.is_cell(cls):
                level = cell_level_override(cls)
                for name in ROOT_METHODS:
                    if name in cls.methods:
                        node = cls.methods[name]
                        jit = jit_decoration(node, module)
                        found.append(
                            Target(
                                f"{cls.name}.{name}",
                                "cell",
                                module,
                                node,
                                cls,
                                level or (jit.level if jit else None),
                                bool(jit and jit.bytecode),
                                jit.decorator if jit else None,
                            )
                        )
            for method in cls.methods.values():
                if method.name not in ROOT_METHODS or not self.is_cell(cls):
                    if (jit := jit_decoration(method, module)) is not None:
                        found.append(
                            Target(
                                f"{cls.name}.{method.name}",
                                "jit",
                                module,
                                method,
                                cls,
                                jit.level or Level.LAX,
                                jit.bytecode,
                                jit.decorator,
                            )
                        )
        for function in module.functions.values():
            if (jit := jit_decoration(function, module)) is not None:
                found.append(
                    Target(
                        function.name, "jit", module, function, None, jit.level or Level.LAX,
                        jit.bytecode, jit.decorator,
                    )
                )
        found.extend(self._wrapped_jit_targets(module))
        return sorted(found, key=lambda t: (t.node.lineno, t.label))

    def _wrapped_jit_targets(self, module: ModuleInfo) -> list[Target]:
        """``step = ms.jit(train_step, ...)`` at module level."""
        found = []
        for stmt in module.tree.body:
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call)):
                continue
            call = stmt.value
            if module.imports.qualify(call.func) not in JIT_DECORATORS:
                continue
            wrapped = call.args[0] if call.args else _keyword(call, "function")
            if isinstance(wrapped, ast.Name) and wrapped.id in module.functions:
                jit = jit_options(call, module.imports.qualify(call.func))
                names = [t.id for t in stmt.targets if isinstance(t, ast.Name)]
                label = f"{names[0]} = jit({wrapped.id})" if names else wrapped.id
                found.append(
                    Target(
                        label, "jit", module, module.functions[wrapped.id], None,
                        jit.level or Level.LAX, jit.bytecode, jit.decorator,
                    )
                )
        return found

    # ----- reach --------------------------------------------------------------------------

    def reach(self, target: Target) -> list[CompiledFunction]:
        """Every function compiled for ``target``, root first, breadth first (shortest paths)."""
        key = id(target)
        if key in self._reach:
            return self._reach[key]
        root = CompiledFunction(target.module, target.node, target.cell, target)
        reached = [root]
        seen = {id(target.node)}
        queue = deque([root])
        while queue:
            current = queue.popleft()
            for module, node, owner, name in self._callees(current):
                if id(node) in seen:
                    continue
                seen.add(id(node))
                compiled = CompiledFunction(module, node, owner, target, (*current.via, name))
                reached.append(compiled)
                queue.append(compiled)
        self._reach[key] = reached
        return reached

    def _callees(self, caller: CompiledFunction):
        """(module, function node, owning class, label) for each resolvable call in caller."""
        module, node, owner = caller.module, caller.node, caller.owner
        self_name = first_parameter(node) if owner is not None else None
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            func = call.func
            if isinstance(func, ast.Attribute):
                receiver = func.value
                if owner is not None and isinstance(receiver, ast.Name) and receiver.id == self_name:
                    # self.m(...) resolves on the instance's class, but statically on the owner's MRO
                    # extended by the concrete Cell of the target (subclass overrides win).
                    start = caller.target.cell or owner
                    found = self.find_method(start, func.attr) or self.find_method(owner, func.attr)
                    if found:
                        cls, method = found
                        yield cls.module, method, cls, func.attr
                    continue
                if (
                    owner is not None
                    and isinstance(receiver, ast.Call)
                    and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super"
                ):
                    if found := self.find_method(owner, func.attr, skip_self=True):
                        cls, method = found
                        yield cls.module, method, cls, f"super().{func.attr}"
                    continue
            qualified = module.imports.qualify(func)
            if qualified and not qualified.startswith("builtins."):
                if (found := self._resolve_function(qualified, module)) is not None:
                    yield found

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
        """Functions of ``module`` that some root compiles: its own roots first, then roots of
        the modules that import it (transitively), each function once, first path kept."""
        found: dict[int, CompiledFunction] = {}
        for origin in [module, *self._importer_closure(module)]:
            for target in self.targets(origin):
                for compiled in self.reach(target):
                    if compiled.module is module and id(compiled.node) not in found:
                        found[id(compiled.node)] = compiled
        return sorted(found.values(), key=lambda c: c.node.lineno)

    def _importer_closure(self, module: ModuleInfo) -> list[ModuleInfo]:
        order: list[ModuleInfo] = []
        seen = {id(module)}
        queue = deque([module])
        while queue:
            for importer in self.project.importers_of(queue.popleft()):
                if id(importer) not in seen:
                    seen.add(id(importer))
                    order.append(importer)
                    queue.append(importer)
        return order

    def cells(self, module: ModuleInfo) -> list[ClassInfo]:
        return [cls for cls in module.classes.values() if self.is_cell(cls)]


# ----- helpers that read one node --------------------------------------------------------


def is_mindspore_cell_name(qualified: str) -> bool:
    """``mindspore.nn.Cell`` and the Cells ``mindspore.nn`` ships (Dense, SequentialCell, ...)."""
    if qualified == CELL_BASE:
        return True
    if not qualified.startswith("mindspore.nn."):
        return False
    last = qualified.rsplit(".", 1)[-1]
    return last[:1].isupper()


def first_parameter(node: FunctionNode) -> str | None:
    params = [*node.args.posonlyargs, *node.args.args]
    return params[0].arg if params else None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


@dataclass(frozen=True)
class JitOptions:
    decorator: str
    level: Level | None
    bytecode: bool


def jit_options(call: ast.Call | None, decorator: str) -> JitOptions:
    level = None
    bytecode = False
    if call is not None:
        fullgraph = _keyword(call, "fullgraph")
        if isinstance(fullgraph, ast.Constant) and fullgraph.value is True:
            level = Level.STRICT
        capture = _keyword(call, "capture_mode")
        bytecode = isinstance(capture, ast.Constant) and capture.value == "bytecode"
    return JitOptions(decorator, level, bytecode)


def jit_decoration(node: FunctionNode, module: ModuleInfo) -> JitOptions | None:
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        qualified = module.imports.qualify(call.func if call else decorator)
        if qualified in JIT_DECORATORS:
            return jit_options(call, qualified)
    return None


def level_from_expr(expr: ast.expr | None) -> Level | None:
    if isinstance(expr, ast.Attribute) and expr.attr in LEVEL_NAMES:
        return LEVEL_NAMES[expr.attr]
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return LEVEL_NAMES.get(expr.value.upper())
    return None


def cell_level_override(cls: ClassInfo) -> Level | None:
    """``self.set_jit_config(JitConfig(jit_syntax_level=ms.STRICT))`` in the Cell's own code."""
    for node in ast.walk(cls.node):
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


@dataclass
class ModuleScope:
    """What the checkers of one module need: its compiled functions and the project model."""

    model: ScopeModel
    module: ModuleInfo

    @cached_property
    def compiled(self) -> list[CompiledFunction]:
        return self.model.compiled_functions(self.module)
