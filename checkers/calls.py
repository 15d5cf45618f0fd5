"""Calls whose arguments the called function cannot take, and tangents that do not fit jvp/vjp.

The graph compiler binds every call's arguments to the called function's parameters while it
compiles (and a Cell's ``__call__`` binds a Python caller's arguments to ``construct`` before it
compiles): a call with one argument too many or too few, an unknown keyword, or a parameter given
twice fails there, at every level, before anything runs. This family binds the calls it can resolve
for certain: in compiled code, a call of a project function, method, or Cell held on ``self``; in
any code, a call of a project Cell instance, and a call of a MindSpore Cell that hands its own
arguments on to the Cell or function it was built with (``nn.Jvp(net)(x, v)`` calls ``net(x)``:
the ``forwards`` table of knowledge/data/cells/). The tangent a jvp is given must mirror the
function's inputs and the cotangent of nn.Vjp its output, or the compiler cannot join them
(TANGENT_CELLS, TANGENT_FUNCTIONS). What the compiler does at each level is in
msgraphlint/knowledge/rules/calls.toml.
"""

from __future__ import annotations

import ast
import functools

from msgraphlint.engine.analyze import CellContext, Family, FunctionContext
from msgraphlint.engine.findings import shown
from msgraphlint.knowledge.cell_classes import definition, forwarded_arguments, load as load_cells
from msgraphlint.knowledge.mindspore import JIT_DECORATORS, TANGENT_CELLS, TANGENT_FUNCTIONS, TENSOR_CLASSES
from msgraphlint.model.callers import _scope_at, single_assignment
from msgraphlint.model.compiled import FunctionNode, binding_problem, is_static, signature_text
from msgraphlint.model.summaries import known_returns
from msgraphlint.syntax.project import ClassInfo, ModuleInfo

INSTEAD = "the arguments %s takes"


class CallsFamily(Family):
    name = "calls"

    def visit_function(self, function: FunctionNode, ctx: FunctionContext) -> None:
        if ctx.function.is_root:
            _check_driver_calls(ctx)
        if ctx.function.parsed_only:
            return  # type inference never binds its calls
        for edge in ctx.model.call_edges(ctx.function):
            if not edge.binds_call_arguments or not _binds_like_python(edge.node, edge.module):
                continue
            problem = binding_problem(edge.call.args, edge.call.keywords, edge.node, edge.binds_self)
            if problem is not None and not _overridden_below(ctx, edge):
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
        if id(node) in ctx.unevaluated:
            return
        held = ctx.model.certain_attribute_class(holder, func.attr)
        found = _construct(ctx, held) if held is not None else None
        if found is not None:
            _check(ctx, node, found, held)

    def visit_module(self, module: ModuleInfo, ctx: CellContext) -> None:
        """In a module that names a MindSpore Cell that hands its arguments on (the forwards
        table) or jvp: calls of such Cells, of project Cells their driver does not show
        (visit_function judges those), and the tangents given to jvp and vjp (TANGENT_CELLS,
        TANGENT_FUNCTIONS)."""
        text = module.source.text or ""
        if not any(word in text for word in _wrapper_words()):
            return  # most modules: spared the walk of every node
        nodes = module.nodes(module.tree)
        # Names some statement binds to a call (`net = Net()`): the only names worth a look.
        built = {node.targets[0].id for node in nodes if isinstance(node, ast.Assign)
                 and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                 and isinstance(node.value, ast.Call)}
        for node in nodes:
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                if func.id not in built:
                    continue
            elif not isinstance(func, ast.Call) and ctx.qualify(func) not in TANGENT_FUNCTIONS:
                continue
            _check_python_call(ctx, module, _scope_at(module, node), node)


@functools.cache
def _wrapper_words() -> tuple[str, ...]:
    """The names a module must mention for visit_module to look at it: the forwarding Cells'
    class names (of the target release's table) and jvp."""
    names = {defined.rsplit(".", 1)[-1] for defined in load_cells().get("forwards", {})}
    return tuple(sorted(names | {"jvp"}))


def _check_driver_calls(ctx: FunctionContext) -> None:
    """The Python calls of a root (``net = Net()``, then ``net(x, y)``; ``Net()(x)``; a jit
    function's), as the model finds them in its driver, bound to its parameters."""
    target = ctx.function.target
    node, cell = target.node, target.cell
    if cell is not None and (node.name != "construct" or ctx.model.find_method(cell, "__call__")):
        return
    found = ctx.model.driver_calls(target)
    if found is None or found[0] is not ctx.module or not _binds_like_python(node, target.module):
        return
    binds_self = cell is not None and not is_static(node)
    for call in found[2]:
        problem = binding_problem(call.args, call.keywords, node, binds_self)
        if problem is not None:
            _report(ctx, call, problem, signature_text(node, binds_self, cell.name if cell else None))


def _check_python_call(ctx: CellContext, module: ModuleInfo, scope: tuple[ast.AST, ...], node: ast.Call) -> None:
    if ctx.qualify(node.func) in TANGENT_FUNCTIONS:
        if len(node.args) == 3 and not node.keywords:  # ops.jvp(fn, inputs, v)
            _check_functional_tangent(ctx, module, scope, node)
        return
    built = _built_by(module, scope, node.func)
    if built is None:
        return
    cls = ctx.model.class_named(built.func, module, scope)
    if cls is not None:
        found = _construct(ctx, cls)
        root = ctx.model.construct_root(cls) if found is not None else None
        if found is not None and (root is None or ctx.model.driver_calls(root) is None):
            _check(ctx, node, found, cls)
        return
    qualified = ctx.qualify(built.func) or ""
    forwards = forwarded_arguments(qualified)
    if forwards is None or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return  # construct(self, *args) takes no keyword
    wrapped = _argument(built, forwards["parameter"], forwards["position"])
    callee = _callee_of(ctx, module, scope, wrapped) if wrapped is not None else None
    if callee is None:
        return
    function, binds_self, owner, callee_module = callee
    handed = node.args[forwards["start"]:forwards["stop"]]
    problem = binding_problem(handed, [], function, binds_self)
    if problem is not None:
        wrapper = ast.unparse(built.func).rsplit(".", 1)[-1]
        _report(ctx, node, f"{wrapper} hands {ast.unparse(wrapped)} {_which(forwards)}: {problem}",
                signature_text(function, binds_self, owner))
        return
    mirrors = TANGENT_CELLS.get(definition(qualified) or "")
    if mirrors is not None and node.args:
        needed = (_count_structure(len(handed)) if mirrors == "inputs"
                  else _output_structure(function, callee_module))
        _check_tangent(ctx, module, scope, node, node.args[-1], mirrors, needed)


TENSOR, TUPLE = "tensor", "tuple"
MAX_NAME_HOPS = 3
TANGENT_INSTEAD = "a tangent that mirrors the function's %s: one tensor for one, a tuple for several"


def _count_structure(count: int | None) -> str | None:
    """What mirrors ``count`` inputs: a tensor for one, a tuple for several."""
    return None if count is None else (TENSOR if count == 1 else TUPLE)


def _structure(module: ModuleInfo, scope: tuple[ast.AST, ...], expr: ast.expr):
    """TENSOR for ``Tensor(...)``, the display itself for a tuple display (followed through
    names bound once), else None."""
    for _ in range(MAX_NAME_HOPS):
        if not isinstance(expr, ast.Name):
            break
        found = single_assignment(module, scope[-1] if scope else module.tree, expr.id)
        if found is None:
            return None
        expr = found
    if isinstance(expr, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in expr.elts):
        return expr
    if isinstance(expr, ast.Call) and module.imports.qualify(expr.func) in TENSOR_CLASSES:
        return TENSOR
    return None


def _output_structure(function: FunctionNode, module: ModuleInfo) -> str | None:
    """TUPLE when every return of ``function`` is a tuple display, TENSOR when every one is
    arithmetic on its tensor inputs (``x ** 3``), else None."""
    returns = [r.value for r in known_returns(module, function) or ()]
    if not returns:
        return None
    if all(isinstance(value, ast.Tuple) for value in returns):
        return TUPLE
    if all(isinstance(value, (ast.BinOp, ast.UnaryOp))
           and not any(isinstance(part, (ast.Tuple, ast.List)) for part in ast.walk(value))
           for value in returns):
        return TENSOR
    return None


def _check_tangent(ctx: CellContext, module: ModuleInfo, scope: tuple[ast.AST, ...], call: ast.Call,
                   tangent: ast.expr, mirrors: str, needed: str | None) -> None:
    """A Cell's tangent (nn.Jvp, nn.Vjp): a tensor or a tuple, as ``needed`` says; the tuple's
    length is not checked against the inputs'."""
    given = _structure(module, scope, tangent)
    if needed is None or given is None or (TUPLE if isinstance(given, ast.Tuple) else given) == needed:
        return
    function_has = {("inputs", TENSOR): "one input", ("inputs", TUPLE): "several inputs",
                    ("output", TENSOR): "one tensor output", ("output", TUPLE): "a tuple output"}
    _report_tangent(ctx, call, tangent, _described(given), function_has[(mirrors, needed)],
                    f"a {needed}", "inputs" if mirrors == "inputs" else "output")


def _check_functional_tangent(ctx: CellContext, module: ModuleInfo, scope: tuple[ast.AST, ...],
                              call: ast.Call) -> None:
    """ops.jvp(fn, inputs, v): one input (a tensor, or a tuple of one) takes a tensor, several
    take a tuple as long as theirs."""
    inputs, tangent = (_structure(module, scope, argument) for argument in call.args[1:])
    if inputs is None or tangent is None:
        return
    count = len(inputs.elts) if isinstance(inputs, ast.Tuple) else 1
    if count == 1 and isinstance(tangent, ast.Tuple):
        needed = "a tensor"
    elif count > 1 and not (isinstance(tangent, ast.Tuple) and len(tangent.elts) == count):
        needed = f"a tuple of {count}"
    else:
        return
    _report_tangent(ctx, call, call.args[2], _described(tangent),
                    "one input" if count == 1 else f"{count} inputs", needed, "inputs")


def _described(structure) -> str:
    return f"a tuple of {len(structure.elts)}" if isinstance(structure, ast.Tuple) else "a tensor"


def _report_tangent(ctx: CellContext, call: ast.Call, tangent: ast.expr, given: str, function_has: str,
                    needed: str, mirrors: str) -> None:
    ctx.report("tangent-structure-mismatch", call, shown(call), given, ast.unparse(tangent), function_has,
               needed, TANGENT_INSTEAD % mirrors)


def _check(ctx: CellContext, call: ast.Call, found: tuple[ClassInfo, FunctionNode], cls: ClassInfo) -> None:
    """A call of an instance of ``cls``, bound to the construct ``found`` gives (its class, it)."""
    definer, construct = found
    if not _binds_like_python(construct, definer.module):
        return
    binds_self = not is_static(construct)
    problem = binding_problem(call.args, call.keywords, construct, binds_self)
    if problem is not None:
        _report(ctx, call, problem, signature_text(construct, binds_self, cls.name))


def _which(forwards: dict) -> str:
    """Which of a call's arguments a forwarding Cell hands on, in words."""
    start, stop = forwards["start"], forwards["stop"]
    if start == 0 and stop is None:
        return "all its arguments"
    if start == 0 and stop is not None and stop < 0:
        return f"all its arguments but the last {-stop}" if stop < -1 else "all its arguments but the last"
    return f"its arguments [{start}:{'' if stop is None else stop}]"


def _report(ctx: CellContext, call: ast.Call, problem: str, signature: str) -> None:
    ctx.report("call-arguments-mismatch", call, shown(call), signature, problem, INSTEAD % signature)


def _overridden_below(ctx: FunctionContext, edge) -> bool:
    """``self.m(...)`` in a class that project subclasses override ``m`` in: most often an
    abstract base whose own ``m`` only raises, and which nothing builds itself."""
    func, cell = edge.call.func, ctx.cell or ctx.owner
    if cell is None or not (isinstance(func, ast.Attribute) and ctx.is_self(func.value)):
        return False
    return any(func.attr in sub.methods for sub in ctx.model.subclasses(cell, cell.module.path))


def _construct(ctx: CellContext, cls: ClassInfo) -> tuple[ClassInfo, FunctionNode] | None:
    """(the class that defines it, the construct) a call of a project Cell instance runs: its own
    or a project base's, when no class of its line routes calls itself (``__call__``)."""
    if not ctx.model.is_cell(cls) or ctx.model.find_method(cls, "__call__") is not None:
        return None
    return ctx.model.find_method(cls, "construct")


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
               wrapped: ast.expr) -> tuple[FunctionNode, bool, str | None, ModuleInfo] | None:
    """(function, whether it binds self, its class's name, its module) that a wrapper Cell calls:
    the construct of a project Cell instance, or a project function."""
    built = _built_by(module, scope, wrapped) if isinstance(wrapped, ast.Name) else (
        wrapped if isinstance(wrapped, ast.Call) else None)
    if built is not None:
        cls = ctx.model.class_named(built.func, module, scope)
        found = _construct(ctx, cls) if cls is not None else None
        if found is None:
            return None
        definer, construct = found
        return construct, not is_static(construct), cls.name, definer.module
    if isinstance(wrapped, ast.Name):
        local = module.visible_definition(wrapped.id, scope) if scope else None
        if local is None:
            local = module.functions.get(wrapped.id)
        if isinstance(local, ast.FunctionDef) and _binds_like_python(local, module):
            return local, False, None, module
    return None
