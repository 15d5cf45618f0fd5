"""The graph-scope model: which functions MindSpore compiles, and how each one is reached.

ReachModel holds the model's caches and its one memo; its concerns live in their own modules and
are mixed in: the class hierarchy (hierarchy.py), who builds and calls a root (callers.py), the
branches that are never compiled or evaluated (branches.py), and what a compiled function knows
of its callees (summaries.py). This module finds the roots and walks the call graph.

Roots are ``construct``/``bprop`` of Cells (however the Cell base is spelled, through user base
classes in any project file) and functions compiled with ``jit``. From each root the model follows
``self.m()`` (through base classes), ``super().m()``, module functions and functions imported from
the project's own modules, transitively. Every checker asks this model instead of re-deriving it;
code outside the reach (``__init__``, training loops, plain helpers) is never checked by graph rules.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..knowledge.mindspore import JIT_DECORATORS
from ..knowledge.catalogue import Level
from ..syntax.project import ClassInfo, ModuleInfo, Project, may_define_targets
from ..syntax.source import content_digest
from .branches import Branches, passed_constants, union_of_constants
from .callees import Callees
from .callers import Callers, _sub_cell_classes
from .hierarchy import ClassHierarchy
from .inputs import InputSpecs
from .modes import built_only_in_pynative
from .summaries import Summaries
from .variables import FunctionValues
from .compiled import (
    CallEdge, CompiledFunction, FunctionNode, Target, _keyword, _nearest_scope, bind_arguments,
    first_parameter, is_static, path_order, replace_variables,
)


# The methods of a Cell that MindSpore compiles as roots of their own.
ROOT_METHODS = ("construct", "bprop")
LEVEL_NAMES = {level.name: level for level in Level}


MAX_RETURN_CHAIN = 8  # helpers returning helpers' results, followed up to a root


@dataclass(eq=False)
class ReachModel(ClassHierarchy, Callers, InputSpecs, Callees, Branches, Summaries):
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
    _input_pending: set[int] = field(default_factory=set)  # sub-Cells whose inputs are sought
    # node id -> the CompiledFunction kept for it (first path), filled as targets are reached
    _compiled: dict[int, CompiledFunction] = field(default_factory=dict)
    _compiled_in: dict[int, set[int]] = field(default_factory=dict)  # id(module) -> node ids
    # id(target) -> the host-evaluated helpers its compiled code calls (filled with its reach)
    _host_evaluated: dict[int, list[CompiledFunction]] = field(default_factory=dict)
    # id(module) -> node id -> the helper kept for it (first path), as _compiled_in
    _host_in: dict[int, dict[int, CompiledFunction]] = field(default_factory=dict)
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
            for state in (self._compiled, self._compiled_in, self._host_evaluated, self._host_in,
                          self.evaluations, self._closure_done,
                          self._returns_pending, self._call_pending, self._sub_cell_pending,
                          self._input_pending):
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
            if is_cell and not built_only_in_pynative(self, cls):
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
                target = jit_target(label, module, node, None, jit_options(call))
                found.append(replace(target, called_as=names[0]) if len(names) == 1 else target)
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
        host: dict[int, CompiledFunction] = {}
        edges: list[tuple[CompiledFunction, CallEdge]] = []
        queue = deque([root])
        while queue:
            current = queue.popleft()
            for edge in self._callees(current):
                if edge.host_evaluated:  # run in Python, so its own calls are not compiled
                    if id(edge.node) not in host:
                        host[id(edge.node)] = CompiledFunction(
                            edge.module, edge.node, edge.owner, target, (*current.via, edge.label),
                            variable_params=set(), host_evaluated=True,
                        )
                    host[id(edge.node)].callers.append((current, edge))
                    continue
                edges.append((current, edge))
                if id(edge.node) not in reached:
                    compiled = CompiledFunction(
                        edge.module, edge.node, edge.owner, target, (*current.via, edge.label),
                        variable_params=set(),
                    )
                    reached[id(edge.node)] = compiled
                    queue.append(compiled)
        self._host_evaluated[id(target)] = list(host.values())
        _bind_passed_self(reached, edges)
        self._propagate_variables(reached, edges)
        for caller, edge in edges:
            reached[id(edge.node)].callers.append((caller, edge))
        self._settle_constants(reached)
        if any(compiled.passed_constants for compiled in reached.values()):
            self._mark_parsed_only(root, reached)
        return list(reached.values())

    def _settle_constants(self, reached: dict[int, CompiledFunction]) -> None:
        """The literals every compiled call of a helper passes a parameter its ifs test, also
        through a caller that passes on its own parameter (``rots_from_tensor(r, use_numpy)``
        in a helper every call of which leaves use_numpy=False). Callers first: reached is in
        the walk's order."""
        passed_on: dict[int, dict[str, frozenset]] = {}  # id(node) -> every literal parameter
        callers_of = {id(edge): caller for compiled in reached.values()
                      for caller, edge in compiled.callers}

        def forwarded(edge, argument):
            caller = callers_of.get(id(edge))
            if caller is None or argument.__class__ is not ast.Name:
                return None
            if argument.id in self.values(caller).syntax.bound:
                return None  # rebound in the caller
            return passed_on.get(id(caller.node), {}).get(argument.id)

        for compiled in reached.values():
            if compiled.is_root:
                continue
            constants = passed_constants(compiled.node, [edge for _, edge in compiled.callers],
                                         forwarded)
            if not constants or not self._only_called(compiled):  # only then are they all
                continue
            passed_on[id(compiled.node)] = constants
            tested = _names_in_if_tests(compiled.module, compiled.node)
            constants = {param: values for param, values in constants.items() if param in tested}
            if constants:  # only called: only then can they decide a branch
                if constants != compiled.passed_constants:
                    compiled.passed_constants = constants
                    self._forget_variables(compiled)

    def _mark_parsed_only(self, root: CompiledFunction, reached: dict[int, CompiledFunction]) -> None:
        """Functions called only from branches that the literals every compiled call passes
        decide against (``if stack:`` where every call leaves stack=False): MindSpore's parser
        resolves them, so what it rejects there is still rejected, but type inference never
        evaluates them, so nothing that happens only when evaluated is (``parsed_only``)."""
        calls: dict[int, list[tuple[CompiledFunction, ast.Call]]] = {}  # id(caller) -> callees
        for compiled in reached.values():
            for caller, edge in compiled.callers:
                calls.setdefault(id(caller), []).append((compiled, edge.call))
        evaluated = {id(root.node)}
        queue = deque([root])
        while queue:
            caller = queue.popleft()
            skipped = self.unevaluated_nodes(caller)
            for compiled, call in calls.get(id(caller), ()):
                if id(compiled.node) not in evaluated and id(call) not in skipped:
                    evaluated.add(id(compiled.node))
                    queue.append(compiled)
        for key, compiled in reached.items():
            compiled.parsed_only = key not in evaluated

    def returns_to_python(self, node: ast.Return, function: CompiledFunction, depth: int = 0) -> bool:
        """Whether a return statement's value goes back to Python: one of construct or of a jit
        function itself, or of a helper every compiled call of which is returned as it is from
        such a function (``return _forward(self, x)``). A sub-Cell's construct returns into its
        parent's graph, where a dict stays a dict and a function is fine (seen in 2.10)."""
        cell = function.target.cell
        if cell is not None and (self.holders(cell) or cell.name in _sub_cell_classes(function.module)):
            return False
        if enclosing_scope(node, self.values(function)) is not function.node:
            return False
        if function.is_root:
            return function.node.name != "bprop"
        if depth > MAX_RETURN_CHAIN or not function.callers:
            return False
        return all(isinstance(parent := self.values(caller).parent(edge.call), ast.Return)
                   and parent.value is edge.call
                   and self.returns_to_python(parent, caller, depth + 1)
                   for caller, edge in function.callers)

    def _only_called(self, compiled: CompiledFunction) -> bool:
        """Whether every use of the function is a call the call graph sees: no decorator (but
        staticmethod and classmethod), never passed on or stored as a value (``apply(helper,
        x)``, ``self.fn = helper``) in its module or in a module that imports it. Only then do
        its compiled calls say every literal its parameters take."""
        node, module = compiled.node, compiled.module
        if any(not (isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod"))
               for d in node.decorator_list):
            return False
        if node.name in _names_used_as_values(module):
            return False
        for path in self.project.importers_of(module.path):
            if self.project.mentions(path, node.name.encode()):
                user = self.project.module(path)
                if user is None or node.name in _names_used_as_values(user):
                    return False
        return True

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
                        self._forget_variables(callee)
                        changed = True

    def _forget_variables(self, compiled: CompiledFunction) -> None:
        """What was worked out from a function's variables before they settled (walking the call
        graph asks for dead branches first): its value model, and the raise messages under
        tests that looked decided while compiling."""
        for cache in (self._values, self._dead, self._unevaluated, self.table("folds_and_messages")):
            cache.pop(id(compiled), None)

    # ----- sub-Cells: construct called by a parent Cell, not by the user -------------------


    def table(self, name: str) -> dict:
        """A named cache owned by this model, for answers computed outside it (attributes.py):
        handed to ``memo`` like the model's own, and dropped with them."""
        return self._tables.setdefault(name, {})


    # ----- branches the parser drops ------------------------------------------------------



    # ----- per module ---------------------------------------------------------------------

    def compiled_functions(self, module: ModuleInfo) -> list[CompiledFunction]:
        """Functions of ``module`` that some root compiles: reached from its own roots or from
        roots of the modules that import it (transitively); each once, first path kept, with the
        variable parameters of every path."""
        self.sync()
        self._reach_upstream(module)
        found = [self._compiled[key] for key in self._compiled_in.get(id(module), ())]
        return sorted(found, key=lambda c: c.node.lineno)

    def host_evaluated_functions(self, module: ModuleInfo) -> list[CompiledFunction]:
        """The @constexpr / @_primexpr helpers of ``module`` that compiled code calls, each with
        the compiled calls of it seen on its first path's root (``callers``)."""
        self.sync()
        self._reach_upstream(module)
        return sorted(self._host_in.get(id(module), {}).values(), key=lambda c: c.node.lineno)

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
            for helper in self._host_evaluated.get(id(target), ()):
                kept = self._host_in.setdefault(id(helper.module), {})
                if id(helper.node) not in kept or path_order(helper) < path_order(kept[id(helper.node)]):
                    kept[id(helper.node)] = helper
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
        constants = union_of_constants(kept.passed_constants, compiled.passed_constants)
        parsed_only = kept.parsed_only and compiled.parsed_only  # evaluated on some path
        if path_order(compiled) < path_order(kept):
            self._values.pop(id(kept), None)
            kept = self._compiled[key] = replace_variables(compiled, variables)
        elif variables != kept.variable_params:
            kept.variable_params = variables
        kept.passed_constants = constants if not kept.is_root else {}
        kept.parsed_only = parsed_only
        self._forget_variables(kept)

    def cells(self, module: ModuleInfo) -> list[ClassInfo]:
        self.sync()
        return [cls for cls in (*module.classes.values(), *module.nested_classes) if self.is_cell(cls)]


# ----- helpers that read one node --------------------------------------------------------


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
    # Asked per Cell: the text is searched once per module (a search per Cell grew with Cells x
    # text, issue 34).
    if not cls.module.derived("mentions set_jit_config", cls.module.tree,
                              lambda _: "set_jit_config" in (cls.module.source.text or "")):
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





def enclosing_scope(node: ast.AST, values: FunctionValues) -> ast.AST | None:
    """The function, lambda or class a node belongs to, through the function's parent map."""
    return _nearest_scope(node, values.parent)


def _names_used_as_values(module: ModuleInfo) -> frozenset[str]:
    """Names and attribute names the module reads other than to call them (``apply(helper)``,
    ``self.fn = self.helper``): functions that may be called where the call graph cannot see."""
    def collect(tree: ast.AST) -> frozenset[str]:
        nodes = module.nodes(tree)
        called = {id(node.func) for node in nodes if node.__class__ is ast.Call}
        found: set[str] = set()
        for node in nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                name = node.id
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                name = node.attr
            else:
                continue
            if id(node) not in called:
                found.add(name)
        return frozenset(found)
    return module.derived("reach.used_as_values", module.tree, collect)


def _names_in_if_tests(module: ModuleInfo, function: FunctionNode) -> frozenset[str]:
    """The names the function's ``if`` tests read: the only parameters a literal can decide."""
    return module.derived("reach.if_names", function, lambda node: frozenset(
        name.id for statement in module.nodes(node) if isinstance(statement, ast.If)
        for name in ast.walk(statement.test) if isinstance(name, ast.Name)))


def _bind_passed_self(reached: dict[int, CompiledFunction],
                      edges: list[tuple[CompiledFunction, CallEdge]]) -> None:
    """A plain function every compiled caller passes its own ``self`` first (``forward(self,
    x)`` from construct) runs as a method of that class: its first parameter is the Cell, its
    ``self.attr`` the Cell's attributes."""
    owners: dict[int, set] = {}
    for caller, edge in edges:
        owners.setdefault(id(edge.node), set()).add(_self_passed(caller, edge))
    for key, compiled in reached.items():
        found = owners.get(key, set())
        if compiled.is_root or compiled.owner is not None or len(found) != 1:
            continue
        (owner,) = found
        if owner is not None and first_parameter(compiled.node) is not None:
            compiled.owner = owner
            compiled.self_passed = True


def _self_passed(caller: CompiledFunction, edge: CallEdge):
    """The caller's class when the call passes the caller's ``self`` as its first argument."""
    if caller.owner is None or is_static(caller.node) or edge.binds_self or not edge.call.args:
        return None
    first = edge.call.args[0]
    own = first_parameter(caller.node)
    return caller.owner if own and isinstance(first, ast.Name) and first.id == own else None
