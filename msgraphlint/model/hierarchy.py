"""The class hierarchy: project classes by qualified name, their bases, the MRO, subclasses and
methods; what class `self` is in a compiled function."""

from __future__ import annotations

import ast
from pathlib import Path

from ..knowledge.mindspore import is_mindspore_cell_name
from ..syntax.project import ClassInfo, ModuleInfo
from ..knowledge.mindspore import JIT_CLASS_DECORATOR
from .attributes import CELL_ATTRIBUTES
from .compiled import MAX_BASE_DEPTH, CompiledFunction


class ClassHierarchy:
    """One concern of ReachModel (model/reach.py), whose caches and memo it uses."""

    # The MindSpore release whose own Cell classes' attributes a project class inherits
    # (knowledge/cell_classes; the engine sets its --target-version); None: the default release.
    target_version: str | None = None

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
        scans = self.project.text_scans(near)  # notes the reads the answer depends on
        return self.memo(self.table("subclasses"), (id(cls), *map(id, scans)),
                         lambda: self._find_subclasses(cls, scans))

    def _find_subclasses(self, cls: ClassInfo, scans: list) -> list[ClassInfo]:
        found: list[ClassInfo] = []
        pending = [cls]
        seen = {id(cls)}
        while pending:
            current = pending.pop()
            for scan in scans:
                for path in sorted(scan.subclass_files.get(current.name, ())):
                    if not self.project.may_name(path, current.module):
                        continue  # another package's class of the same name
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

    def self_classes(self, compiled: CompiledFunction) -> list[ClassInfo]:
        """The classes whose attributes ``self`` has in a compiled function: the target's Cell
        and the function's owner, each with its project bases."""
        return [cls for head in self.self_heads(compiled) for cls in self.mro(head)]

    def self_heads(self, compiled: CompiledFunction) -> list[ClassInfo]:
        """The most derived classes ``self`` is known to be an instance of in ``compiled``: its
        target's Cell, and the function's owner where that is not one of the Cell's bases.
        ``self`` may be an instance of any of their subclasses, never of a sibling class that
        shares a base with them."""
        cell, owner = compiled.target.cell, compiled.owner
        heads = [cell] if cell is not None else []
        if owner is not None and (cell is None or owner not in self.mro(cell)):
            heads.append(owner)
        return heads

    def sole_cell_defining(self, cls: ClassInfo, attr: str, method: str) -> ClassInfo | None:
        """For ``self.<attr>.<method>(...)`` where nothing says what ``self.<attr>`` holds (a
        constructor argument, an entry of a config dict): the one Cell class of the module that
        defines ``method``, when no other class of the module has a method of that name and the
        name is none of nn.Cell's own. Every ``self.<attr> = ...`` must be of unknown origin: a
        call of any class (a MindSpore layer, a third-party object) says something else."""
        if method.startswith("__") or method in CELL_ATTRIBUTES:
            return None
        for klass in self.mro(cls):
            if any(isinstance(value, ast.Call) for value in klass.self_assignments.get(attr, ())):
                return None
        module = cls.module
        definers = [klass for klass in (*module.classes.values(), *module.nested_classes)
                    if method in klass.methods]
        if len(definers) != 1 or not self.is_cell(definers[0]):
            return None
        return definers[0]

    def certain_attribute_class(self, cls: ClassInfo, attr: str) -> ClassInfo | None:
        """The project class ``self.<attr>`` certainly holds an instance of: every assignment of
        it in cls, its project bases and subclasses builds that one class, the class bodies do not
        bind it, and no code outside the classes sets it. Stricter than model/attributes'
        ``held_class``, which follows what constructions pass in and reads one compiled
        function's classes: this answers for a class alone, where an error must be certain
        (a call edge's binding, call-arguments-mismatch)."""
        found: dict[int, ClassInfo] = {}
        for klass in self.mro(cls):  # the cheap answers first: most attributes stop here
            if not self._builds_one_class(klass, attr, found):
                return None
        if len(found) != 1:
            return None
        for klass in self.subclasses(cls, cls.module.path):
            if not self._builds_one_class(klass, attr, found):
                return None
        if len(found) != 1 or attr in self.project.externally_set(cls.module.path):
            return None
        return next(iter(found.values()))

    def _builds_one_class(self, klass: ClassInfo, attr: str, found: dict[int, ClassInfo]) -> bool:
        """Adds the project classes ``klass`` assigns ``self.<attr>`` to; False when the class
        body binds it or an assignment is not a call of a project class."""
        if attr in klass.body_names:
            return False
        for value in klass.self_assignments.get(attr, ()):
            held = self.class_named(value.func, klass.module, klass.scope) if isinstance(
                value, ast.Call) else None
            if held is None:
                return False
            found[id(held)] = held
        return True

    def attribute_class(self, cls: ClassInfo, attr: str) -> ClassInfo | None:
        """The project class of ``self.<attr> = SomeClass(...)`` in cls or its project bases."""
        for klass in self.mro(cls):
            for value in klass.self_assignments.get(attr, ()):
                if isinstance(value, ast.Call):
                    if found := self.class_named(value.func, klass.module, klass.scope):
                        return found
        return None
