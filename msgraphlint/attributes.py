"""What ``self.<attr>`` holds, judged from the class's own assignments outside compiled code, and
what kind of project class an object is: questions several rule families ask of the engine."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .project import ClassInfo, ModuleInfo
from .reach import CompiledFunction, ReachModel, bind_arguments
from .values import function_syntax

if TYPE_CHECKING:
    from .analyze import FunctionContext

PLAIN_BASES = frozenset({"builtins.object"})


def attribute_assignments(ctx: FunctionContext) -> dict[str, list[tuple[ModuleInfo, ast.expr]]]:
    """``self.<attr> = value`` outside the target's compiled code (``__init__`` and other host-side
    methods of the classes ``self`` has here), by attribute. ``self.data = data`` with ``data`` a
    parameter of ``__init__`` gives what every construction of the class passes instead
    (``TestNet(1)``: the literal 1, in the module of the call), when the project shows them all."""
    model = ctx.model
    return model.memo(model.table("attribute_assignments"), id(ctx.function),
                      lambda: _attribute_assignments(model, ctx.function))


def _attribute_assignments(
    model: ReachModel, function: CompiledFunction
) -> dict[str, list[tuple[ModuleInfo, ast.expr]]]:
    compiled = {id(c.node) for c in model.reach(function.target)}
    found: dict[str, list[tuple[ModuleInfo, ast.expr]]] = {}
    for cls in model.self_classes(function):
        for name, method in cls.methods.items():
            if id(method) in compiled:
                continue
            for attr, value in cls.method_self_assignments[name]:
                passed = _constructor_arguments(model, cls, method, value) if name == "__init__" else None
                found.setdefault(attr, []).extend(passed if passed is not None else [(cls.module, value)])
    return found


def _constructor_arguments(model: ReachModel, cls: ClassInfo, init: ast.FunctionDef,
                           value: ast.expr) -> list[tuple[ModuleInfo, ast.expr]] | None:
    """What the constructions of ``cls`` pass the ``__init__`` parameter ``value`` names (or its
    default), when ``value`` is such a parameter, bound nowhere else in ``__init__``."""
    if not isinstance(value, ast.Name):
        return None
    args = init.args
    positional = [*args.posonlyargs, *args.args]
    names = [p.arg for p in [*positional[1:], *args.kwonlyargs]]
    if value.id not in names or value.id in function_syntax(cls.module, init).bound:
        return None
    calls = model.constructor_calls(cls)
    if not calls:
        return None
    defaults = dict(zip([p.arg for p in positional[len(positional) - len(args.defaults):]], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    passed: list[tuple[ModuleInfo, ast.expr]] = []
    for module, call in calls:
        bound = [argument for param, argument in bind_arguments(call, init, True) if param == value.id]
        if len(bound) == 1:
            passed.append((module, bound[0]))
        elif not bound and value.id in defaults:
            passed.append((cls.module, defaults[value.id]))
        else:
            return None
    return passed


def resolve_project_class(model: ReachModel, qualified: str, near: ModuleInfo) -> ClassInfo | None:
    return None if qualified.startswith("builtins.") else model.resolve_class(qualified, near)


def held_call_names(ctx: FunctionContext, attr: str) -> set[str | None]:
    """Qualified names of what ``self.<attr>`` is built from outside compiled code.

    None stands for a value that is not a call (unknown)."""
    values = attribute_assignments(ctx).get(attr, [])
    return {
        module.imports.qualify(value.func) if isinstance(value, ast.Call) else None
        for module, value in values
    }


def held_class(ctx: FunctionContext, attr: str) -> ClassInfo | None:
    """The one project class every assignment of ``self.<attr>`` instantiates, if there is one."""
    values = attribute_assignments(ctx).get(attr, [])
    classes = set()
    for module, value in values:
        if not isinstance(value, ast.Call):
            return None
        qualified = module.imports.qualify(value.func)
        found = resolve_project_class(ctx.model, qualified, module) if qualified else None
        if found is None:
            return None
        classes.add(found)
    return classes.pop() if len(classes) == 1 else None


def held_object_class(ctx: FunctionContext, receiver: ast.expr) -> ClassInfo | None:
    """The project class of ``self.<attr>`` when ``receiver`` is such an attribute."""
    if isinstance(receiver, ast.Attribute) and ctx.is_self(receiver.value) and ctx.owner:
        return held_class(ctx, receiver.attr)
    return None


def is_plain_class(model: ReachModel, cls: ClassInfo) -> bool:
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
