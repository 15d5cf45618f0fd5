"""What ``self.<attr>`` holds, judged from the class's own assignments outside compiled code, and
what kind of project class an object is: questions several rule families ask of the engine."""

from __future__ import annotations

import ast
import re
from ..knowledge import cell_classes
from ..knowledge.catalogue import snapshot
from ..knowledge.mindspore import (
    CELL_CLASS as CELL_BASE, JIT_CLASS_DECORATOR, NN_NAMESPACE, NN_PARAMETER_NAMES,
)
from ..syntax.project import ClassInfo, ModuleInfo, bound_names
from ..syntax.qualnames import canonical
from ..syntax.source import begins_word, matches_where
from .compiled import CompiledFunction, first_parameter
from .scope import FunctionScope, ProjectModel

PLAIN_BASES = frozenset({"builtins.object"})


def attribute_assignments(ctx: FunctionScope) -> dict[str, list[tuple[ModuleInfo, ast.expr]]]:
    """``self.<attr> = value`` outside the target's compiled code (``__init__`` and other host-side
    methods of the classes ``self`` has here), by attribute. ``self.data = data`` with ``data`` a
    parameter of ``__init__`` gives what every construction of the class passes instead
    (``TestNet(1)``: the literal 1, in the module of the call), when the project shows them all."""
    model = ctx.model
    return model.memo(model.table("attribute_assignments"), id(ctx.function),
                      lambda: _attribute_assignments(model, ctx.function))


def _attribute_assignments(
    model: ProjectModel, function: CompiledFunction
) -> dict[str, list[tuple[ModuleInfo, ast.expr]]]:
    compiled = {id(c.node) for c in model.reach(function.target)}
    found: dict[str, list[tuple[ModuleInfo, ast.expr]]] = {}
    for cls in model.self_classes(function):
        for name, method in cls.methods.items():
            if id(method) in compiled:
                continue
            for attr, value in cls.method_self_assignments[name]:
                passed = model.constructor_arguments(cls, method, value) if name == "__init__" else None
                found.setdefault(attr, []).extend(
                    [(p.module, p.expr) for p in passed] if passed is not None else [(cls.module, value)])
    return found


def class_at(ctx: FunctionScope, expr: ast.expr) -> ClassInfo | None:
    """The project class ``expr`` names inside the compiled function: a class an enclosing
    function defines first (a test body's helper class), then the module's imports."""
    function = ctx.function.node
    return _class_in_scope(ctx.model, expr, ctx.module, (*ctx.module.scope_of(function), function))


def _class_in_scope(model: ProjectModel, expr: ast.expr, module: ModuleInfo,
                    scope: tuple[ast.AST, ...]) -> ClassInfo | None:
    qualified = module.imports.qualify(expr)
    if qualified is not None and qualified.startswith("builtins."):
        return None
    return model.class_named(expr, module, scope)


def held_call_names(ctx: FunctionScope, attr: str) -> set[str | None]:
    """Qualified names of what ``self.<attr>`` is built from outside compiled code.

    None stands for a value that is not a call (unknown)."""
    values = attribute_assignments(ctx).get(attr, [])
    return {
        module.imports.qualify(value.func) if isinstance(value, ast.Call) else None
        for module, value in values
    }


def held_class(ctx: FunctionScope, attr: str) -> ClassInfo | None:
    """The one project class every assignment of ``self.<attr>`` instantiates, if there is one."""
    values = attribute_assignments(ctx).get(attr, [])
    # Where the assignments are written: the classes self has, each in its own scope.
    scopes = [(*c.scope, c.node) for c in ctx.model.self_classes(ctx.function)]
    classes = set()
    for module, value in values:
        if not isinstance(value, ast.Call):
            return None
        found = next((found for scope in scopes or [()]
                      if (found := _class_in_scope(ctx.model, value.func, module, scope)) is not None),
                      None)
        if found is None:
            return None
        classes.add(found)
    return classes.pop() if len(classes) == 1 else None


def held_object_class(ctx: FunctionScope, receiver: ast.expr) -> ClassInfo | None:
    """The project class of ``self.<attr>`` when ``receiver`` is such an attribute."""
    if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value) and ctx.owner:
        return held_class(ctx, receiver.attr)
    return None


def may_be_tensor_receiver(ctx: FunctionScope, receiver: ast.expr) -> bool:
    """Whether a method call on ``receiver`` may be a Tensor's or Parameter's method: not on
    ``self`` (the Cell's own method, followed by the scope model), a module or class
    (``nn.init.uniform_(w)``), or a project object held on self (its own method)."""
    if ctx.is_self(receiver) or ctx.qualify(receiver) is not None:
        return False
    return held_object_class(ctx, receiver) is None


def is_parameter_attribute(ctx: FunctionScope, node: ast.expr) -> bool:
    """self.w (a Parameter of this Cell) or self.dense.weight (one of a sub-Cell)."""
    if not isinstance(node, ast.Attribute) or ctx.owner is None:
        return False
    if ctx.is_self(node.value):
        return node.attr in ctx.values.parameter_attrs
    holder = node.value
    if not (isinstance(holder, ast.Attribute) and ctx.is_self(holder.value)):
        return False
    sub_cell = held_class(ctx, holder.attr)
    if sub_cell is not None:
        return ctx.model.is_cell(sub_cell) and any(
            node.attr in cls.parameter_attrs for cls in ctx.model.mro(sub_cell)
        )
    built_from = held_call_names(ctx, holder.attr)
    return (
        bool(built_from)
        and all(name and name.startswith(NN_NAMESPACE) for name in built_from)
        and node.attr in NN_PARAMETER_NAMES
    )


def is_plain_class(model: ProjectModel, cls: ClassInfo) -> bool:
    """A project class the compiler only knows through the interpreter: no Cell, no @jit_class,
    and only project classes (or object) as bases; library bases (NamedTuple, Exception, Enum)
    have their own rules in the compiler, so they are left alone."""
    if model.is_cell(cls) or any(model.is_jit_class(c) for c in model.mro(cls)):
        return False
    return all(
        name in PLAIN_BASES or model.resolve_class(name, c.module) is not None
        for c in model.mro(cls)
        for name in c.base_names
    )


def mutates_self(cls: ClassInfo, method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return bool(cls.method_self_assignments.get(method.name))


def is_classmethod(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "classmethod" for d in method.decorator_list)


# ----- what attributes an instance has ---------------------------------------------------------

# Every attribute nn.Cell gives its instances (msgraphlint/knowledge/data/cell_attributes.toml).
CELL_ATTRIBUTES = frozenset(snapshot("cell_attributes")["names"])
# Text that means attributes are made in ways a syntax walk cannot follow: give up.
ATTRIBUTE_TRICKS = (
    "setattr(", "__setattr__", "__getattr__", "__getattribute__", "__dict__", "vars(",
    "insert_param_to_cell", "insert_child_to_cell", "_params[", "_cells[", "register_buffer",
    "exec(",
)
# Bases a class may have and still be read completely: nn.Cell's attributes are data.
COMPLETE_BASES = frozenset({CELL_BASE, "builtins.object", "abc.ABC"})  # ABC sets no attribute
SELF_STAYS_HERE = (ast.Attribute, ast.Return, ast.Compare)  # self.x, return self, self is y
# Each counted where it begins a word (matches_where): `self` not followed by `.`, a method's
# `self` parameter, and `super(Class, self)`.
_LOOSE_SELF = re.compile(r"self\b(?!\s*\.)")
_SELF_PARAMETER = re.compile(r"def\s+\w+\s*\(\s*self\b")
_SUPER_SELF = re.compile(r"super\s*\(\s*[\w.]+\s*,\s*self\s*\)")


def mindspore_class_attributes(model: ProjectModel, qualified: str) -> frozenset[str] | None:
    """Every attribute an instance of a MindSpore Cell class other than nn.Cell has, for the
    target release (knowledge/data/cells/); None when the table does not know the class or marks
    it incomplete (setattr with a computed name, self.__dict__, ...)."""
    if qualified in COMPLETE_BASES:
        return None
    version = _target_version(model)
    found = cell_classes.attributes(qualified, version)
    if found is None and (spelled := canonical(qualified)) != qualified:
        found = cell_classes.attributes(spelled, version)
    return found


def mindspore_base_parameters(model: ProjectModel, cls: ClassInfo) -> frozenset[str]:
    """The attributes the MindSpore bases of the class (along its project MRO) make Parameters
    or ParameterTuples, for the target release."""
    version = _target_version(model)
    found: set[str] = set()
    for klass in model.mro(cls):
        for base in klass.node.bases:
            qualified = klass.module.imports.qualify(base)
            if qualified is not None and qualified not in COMPLETE_BASES:
                found |= set(cell_classes.parameters(qualified, version)
                             or cell_classes.parameters(canonical(qualified), version))
    return frozenset(found)


def mindspore_base_attributes(model: ProjectModel, cls: ClassInfo) -> frozenset[str]:
    """What the MindSpore bases (beyond nn.Cell) of the class itself create on an instance."""
    found: set[str] = set()
    for base in cls.node.bases:
        qualified = cls.module.imports.qualify(base)
        if qualified is not None and model.resolve_class(qualified, cls.module) is None:
            found |= mindspore_class_attributes(model, qualified) or set()
    return frozenset(found)


def _target_version(model: ProjectModel) -> str | None:
    # The engine sets the release on the model (ClassHierarchy.target_version); a model built
    # elsewhere reads the default release's table.
    return getattr(model, "target_version", None)


def instance_attributes(model: ProjectModel, classes: list[ClassInfo]) -> frozenset[str] | None:
    """Every attribute an instance of these classes (a class and its bases) has; None when one
    of them cannot be read completely (an external base, setattr, ``self`` handed away)."""
    names: set[str] = set()
    for cls in classes:
        own = model.memo(model.table("own_attributes"), id(cls), lambda cls=cls: _own_attributes(model, cls))
        if own is None:
            return None
        names |= own
    return frozenset(names)


def _own_attributes(model: ProjectModel, cls: ClassInfo) -> frozenset[str] | None:
    if is_cell_itself(cls):
        # MindSpore's own source being checked: nn.Cell's attributes are the snapshot's
        # (its __getattr__/__setattr__ serve the attributes its subclasses set).
        return CELL_ATTRIBUTES
    if not complete_class(model, cls):
        return None
    names = set(cls.methods) | set(cls.self_assignments) | cls.body_names | helper_assignments(model, cls)
    if CELL_BASE in cls.base_names:
        names |= CELL_ATTRIBUTES
    return frozenset(names | mindspore_base_attributes(model, cls))


def is_cell_itself(cls: ClassInfo) -> bool:
    return canonical(f"{cls.module.name}.{cls.name}") == CELL_BASE


def complete_class(model: ProjectModel, cls: ClassInfo) -> bool:
    """Whether every attribute of the class can be read from the project: each base is a project
    class, nn.Cell (or object), or a MindSpore Cell class whose attributes the target release's
    table knows (nn.Adam, nn.TrainOneStepCell: knowledge/data/cells/), no metaclass or class decorator but jit_class, no trick that
    makes attributes (setattr, __getattr__, __dict__, insert_param_to_cell, ...), and ``self``
    never handed to a function that could set attributes on it."""
    return model.memo(model.table("complete_class"), id(cls), lambda: _complete_class(model, cls))


def _complete_class(model: ProjectModel, cls: ClassInfo) -> bool:
    if cls.node.keywords:
        return False
    imports = cls.module.imports
    for decorator in cls.node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if imports.qualify(target) != JIT_CLASS_DECORATOR:
            return False
    for base in cls.node.bases:
        qualified = imports.qualify(base)
        if qualified is None:
            return False
        if (qualified not in COMPLETE_BASES and model.resolve_class(qualified, cls.module) is None
                and mindspore_class_attributes(model, qualified) is None):
            return False  # an external class (a library's base, a MindSpore class the table does not know)
    segment = "\n".join(cls.module.source.lines[cls.node.lineno - 1 : cls.node.end_lineno])
    if any(trick in segment for trick in ATTRIBUTE_TRICKS):
        return False
    # `self` other than `self.x` and the parameters themselves: only then walk the methods.
    loose, parameters, supers = (sum(1 for _ in matches_where(pattern, segment, begins_word))
                                 for pattern in (_LOOSE_SELF, _SELF_PARAMETER, _SUPER_SELF))
    loose -= parameters + supers
    return loose <= 0 or not self_escapes(cls, model)


def helper_assignments(model: ProjectModel, cls: ClassInfo) -> frozenset[str]:
    """Attributes the module's plain functions that the class's methods hand ``self`` to
    (``_forward(self, x)``) assign on it: attributes of the instance like its own."""
    found: set[str] = set()
    for method in cls.methods.values():
        self_name = first_parameter(method)
        for call in cls.module.nodes(method):
            if isinstance(call, ast.Call):
                helper = _self_helper(call, self_name, cls)
                if helper is not None:
                    found |= helper[1]
    return frozenset(found)


def _self_helper(call: ast.Call, self_name: str | None, cls: ClassInfo
                 ) -> tuple[ast.FunctionDef, frozenset[str]] | None:
    """(function, attributes it assigns on self) when ``call`` hands ``self`` to a plain
    function of the class's module that uses that parameter only as ``param.attr`` (read or
    assigned); None otherwise."""
    if self_name is None or not isinstance(call.func, ast.Name):
        return None
    function = cls.module.functions.get(call.func.id)
    if function is None or cls.module.visible_definition(call.func.id, cls.scope) not in (None, function):
        return None
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    handed = [params[i] for i, arg in enumerate(call.args) if i < len(params)
              and isinstance(arg, ast.Name) and arg.id == self_name]
    if len(handed) != 1 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    param = handed[0]
    parents = cls.module.parents(function)
    assigned: set[str] = set()
    for node in cls.module.nodes(function):
        if isinstance(node, ast.Name) and node.id == param:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return None  # handed on, aliased, rebound: anything may be set on it
            if isinstance(parent.ctx, ast.Store):
                assigned.add(parent.attr)
    return function, frozenset(assigned)


def self_escapes(cls: ClassInfo, model: ProjectModel) -> bool:
    """``self`` passed to a function, aliased or stored in a container: that code may set
    attributes on it. Calls that cannot (builtins, super(), Base.__init__(self) of a class already
    read, a plain function of the module that only reads or sets ``param.attr``), ``self.x``,
    ``return self`` and ``self is other`` are fine."""
    for method in cls.methods.values():
        self_name = first_parameter(method)
        if self_name is None:
            continue
        parents = cls.module.parents(method)
        shadowed = _shadowing_scopes(cls.module, method, self_name)
        for child in cls.module.nodes(method):
            if not (isinstance(child, ast.Name) and child.id == self_name) or id(child) in shadowed:
                continue
            parent = parents.get(id(child))
            if isinstance(child.ctx, ast.Store) or isinstance(parent, SELF_STAYS_HERE):
                continue
            call = parent if isinstance(parent, ast.Call) else None
            if isinstance(parent, (ast.keyword, ast.Starred)):
                call = parents.get(id(parent))  # the call the keyword or *self belongs to
                call = call if isinstance(call, ast.Call) else None
            if call is not None and child is not call.func and (
                    harmless_receiver_of_self(call, cls, model)
                    or _self_helper(call, self_name, cls) is not None):
                continue
            return True
    return False


def _shadowing_scopes(module: ModuleInfo, method: ast.AST, self_name: str) -> set[int]:
    """ids of the nodes inside functions nested in ``method`` whose own parameters rebind
    ``self_name`` (the methods of a class defined in the method): their ``self`` is another
    object."""
    found: set[int] = set()
    for node in module.nodes(method):
        if node is method or id(node) in found:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if self_name in set(bound_names(node.args)):
                found.update(id(inner) for inner in module.nodes(node))
    return found


def harmless_receiver_of_self(call: ast.Call, cls: ClassInfo, model: ProjectModel) -> bool:
    qualified = cls.module.imports.qualify(call.func) or ""
    if qualified.startswith("builtins.") and qualified not in ("builtins.setattr", "builtins.vars"):
        return True
    if isinstance(call.func, ast.Attribute):
        owner = cls.module.imports.qualify(call.func.value)
        if owner in COMPLETE_BASES:
            return True  # nn.Cell.__init__(self)
        if (owner is not None and model.resolve_class(owner, cls.module) is None
                and mindspore_class_attributes(model, owner) is not None
                and owner in {cls.module.imports.qualify(base) for base in cls.node.bases}):
            return True  # nn.Adam.__init__(self, ...) of a base the table reads
        if owner is not None and (base := model.resolve_class(owner, cls.module)) is not None:
            return base in model.mro(cls)  # Base.method(self): Base is read too
    return False
