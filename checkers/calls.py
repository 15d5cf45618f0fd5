"""Calls whose arguments the called function cannot take.

The graph compiler binds every call's arguments to the called function's parameters while it
compiles (and a Cell's ``__call__`` binds a Python caller's arguments to ``construct`` before it
compiles): a call with one argument too many or too few, an unknown keyword, or a parameter given
twice fails there, at every level, before anything runs. This family binds the calls it can resolve
for certain: in compiled code, a call of a project function, method, or Cell held on ``self``; in
any code, a call of a project Cell instance, and a call of a MindSpore Cell that hands its own
arguments on to the Cell or function it was built with (``nn.Jvp(net)(x, v)`` calls ``net(x)``:
the ``forwards`` table of knowledge/data/cells/). What the compiler does at each level is in
msgraphlint/knowledge/rules/calls.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import CellContext, Family, FunctionContext
from msgraphlint.knowledge.cell_classes import forwarded_arguments
from msgraphlint.knowledge.mindspore import JIT_DECORATORS
from msgraphlint.model.callers import _scope_at, single_assignment
from msgraphlint.model.compiled import FunctionNode, binding_problem, is_static, signature_text
from msgraphlint.syntax.project import ClassInfo, ModuleInfo

MAX_SHOWN = 60  # characters of the call quoted in a message
INSTEAD = "the arguments %s takes"


class CallsFamily(Family):
    name = "calls"

    def visit_function(self, function: FunctionNode, ctx: FunctionContext) -> None:
        if ctx.function.parsed_only:
            return  # type inference never binds its calls
        for edge in ctx.model.call_edges(ctx.function):
            if not edge.binds_call_arguments or not _binds_like_python(edge.node, edge.module):
                continue
            if _overridden_below(ctx, edge):
                continue
            problem = binding_problem(edge.call.args, edge.call.keywords, edge.node, edge.binds_self)
            if problem is not None:
                owner = edge.owner.name if edge.owner is not None else None
                _report(ctx, edge.call, problem, signature_text(edge.node, edge.binds_self, owner))

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        # self.block(x, y): the construct of the Cell the attribute certainly holds
        func = node.func
        if not (isinstance(func, ast.Attribute) and ctx.is_self(func.value)):
            return
        holder = ctx.cell or ctx.owner
        if holder is None or ctx.model.find_method(holder, func.attr) is not None:
            return  # a method of self: a call edge (visit_function)
        if id(node) in ctx.model.unevaluated_nodes(ctx.function) or ctx.function.parsed_only:
            return
        held = ctx.model.held_class(holder, func.attr)
        construct = _construct(ctx, held) if held is not None else None
        if construct is not None:
            _check(ctx, node, construct, held)

    def visit_module(self, module: ModuleInfo, ctx: CellContext) -> None:
        """Calls of Cell instances anywhere in the module: a project Cell's (its construct binds
        the arguments), or a MindSpore Cell's that hands them on (the forwards table)."""
        for node in module.nodes(module.tree):
            if not isinstance(node, ast.Call):
                continue
            scope = _scope_at(module, node)
            built = _built_by(module, scope, node.func)
            if built is None:
                continue
            cls = ctx.model.class_named(built.func, module, scope)
            if cls is not None:
                construct = _construct(ctx, cls)
                if construct is not None:
                    _check(ctx, node, construct, cls)
                continue
            forwards = forwarded_arguments(ctx.qualify(built.func) or "")
            if forwards is None or node.keywords:
                continue  # construct(self, *args) takes no keyword
            wrapped = _argument(built, forwards["parameter"], forwards["position"])
            callee = _callee_of(ctx, module, scope, wrapped) if wrapped is not None else None
            if callee is None or any(isinstance(a, ast.Starred) for a in node.args):
                continue
            function, binds_self, owner = callee
            handed = node.args[forwards["start"]:forwards["stop"]]
            problem = binding_problem(handed, [], function, binds_self)
            if problem is not None:
                wrapper = ast.unparse(built.func).rsplit(".", 1)[-1]
                _report(ctx, node, f"{wrapper} hands {ast.unparse(wrapped)} {_which(forwards, len(node.args))}: "
                        f"{problem}", signature_text(function, binds_self, owner))


def _check(ctx: CellContext, call: ast.Call, construct: FunctionNode, cls: ClassInfo) -> None:
    if not _binds_like_python(construct, cls.module):
        return
    binds_self = not is_static(construct)
    problem = binding_problem(call.args, call.keywords, construct, binds_self)
    if problem is not None:
        _report(ctx, call, problem, signature_text(construct, binds_self, cls.name))


def _which(forwards: dict, count: int) -> str:
    """Which of a call's ``count`` arguments a forwarding Cell hands on, in words."""
    start, stop = forwards["start"], forwards["stop"]
    if start == 0 and stop is None:
        return "all its arguments"
    if start == 0 and stop is not None and stop < 0:
        return f"all its arguments but the last {-stop}" if stop < -1 else "all its arguments but the last"
    return f"its arguments [{start}:{'' if stop is None else stop}]"


def _report(ctx: CellContext, call: ast.Call, problem: str, signature: str) -> None:
    shown = ast.unparse(call)
    if len(shown) > MAX_SHOWN:
        shown = shown[:MAX_SHOWN - 3] + "..."
    ctx.report("call-arguments-mismatch", call, shown, signature, problem, INSTEAD % signature)


def _overridden_below(ctx: FunctionContext, edge) -> bool:
    """``self.m(...)`` in a class that project subclasses override ``m`` in: most often an
    abstract base whose own ``m`` only raises, and which nothing builds itself."""
    func, cell = edge.call.func, ctx.cell or ctx.owner
    if cell is None or not (isinstance(func, ast.Attribute) and ctx.is_self(func.value)):
        return False
    return any(func.attr in sub.methods for sub in ctx.model.subclasses(cell, cell.module.path))


def _construct(ctx: CellContext, cls: ClassInfo) -> FunctionNode | None:
    """The construct a call of a project Cell instance runs: its own or a project base's, when
    no class of its line routes calls itself (``__call__``)."""
    if not ctx.model.is_cell(cls) or ctx.model.find_method(cls, "__call__") is not None:
        return None
    found = ctx.model.find_method(cls, "construct")
    return found[1] if found is not None else None


def _binds_like_python(function: FunctionNode, module: ModuleInfo) -> bool:
    """Whether a call binds straight to the function's own parameters: no decorator that could
    change them, but staticmethod and jit."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name) and target.id == "staticmethod":
            continue
        if module.imports.qualify(target) in JIT_DECORATORS:
            continue
        return False
    return True


def _built_by(module: ModuleInfo, scope: tuple[ast.AST, ...], func: ast.expr) -> ast.Call | None:
    """The construction ``Cls(...)`` a called expression is: written in place, or the one value
    of a name the enclosing function (or the module) binds once."""
    if isinstance(func, ast.Call):
        return func
    if isinstance(func, ast.Name):
        value = single_assignment(module, scope[-1] if scope else module.tree, func.id)
        if isinstance(value, ast.Call):
            return value
    return None


def _argument(call: ast.Call, parameter: str, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == parameter:
            return keyword.value
    if position < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:position + 1]):
        return call.args[position]
    return None


def _callee_of(ctx: CellContext, module: ModuleInfo, scope: tuple[ast.AST, ...],
               wrapped: ast.expr) -> tuple[FunctionNode, bool, str | None] | None:
    """(function, whether it binds self, its class's name) that a wrapper Cell calls: the construct of
    a project Cell instance, or a project function."""
    built = _built_by(module, scope, wrapped) if isinstance(wrapped, ast.Name) else (
        wrapped if isinstance(wrapped, ast.Call) else None)
    if built is not None:
        cls = ctx.model.class_named(built.func, module, scope)
        construct = _construct(ctx, cls) if cls is not None else None
        return (construct, not is_static(construct), cls.name) if construct is not None else None
    if isinstance(wrapped, ast.Name):
        local = module.visible_definition(wrapped.id, scope) if scope else None
        if local is None:
            local = module.functions.get(wrapped.id)
        if isinstance(local, ast.FunctionDef) and _binds_like_python(local, module):
            return local, False, None
    return None
