"""Code that runs only in PyNative mode, where a Cell's construct is Python and never compiled.

The project says so itself: a statement that raises unless ``get_context("mode")`` is
PYNATIVE_MODE (``if get_context("mode") != PYNATIVE_MODE: raise ValueError(...)``), written in a
function or in a helper the function calls first, makes everything after it run in PyNative; so
does a branch under ``if get_context("mode") == PYNATIVE_MODE:``; and so does a function that
only such code calls. A Cell class the project builds only there is never compiled as a graph
(issue 31: a calibration catcher whose construct raises GeneratorExit, built by a quantizer
that demands PyNative).

Precision: this only ever removes compiled roots, so every doubt keeps the class compiled: a
use of the class that is not a call, a call site not shown to be PyNative-only, a class another
module may build (its package exports it, or a subclass exists).

The same question about the code that sets a Cell's flag from outside (``layer.quant_forward =
True`` in a calibration search) lets the flag keep the value ``__init__`` gave it in the compiled
graph: a write made only in PyNative mode is never seen by it (probed, 2.10). Every doubt keeps
the flag unknown.
"""

from __future__ import annotations

import ast

from ..knowledge.mindspore import ATTRIBUTE_SETTING_METHODS, GET_CONTEXT, MODE_CONSTANTS, MODE_NUMBERS
from ..syntax.project import ClassInfo, ModuleInfo, flatten_targets
from .callers import _in_all, _re_exports, _scope_at
from .compiled import FunctionNode, binding_problem, first_parameter, is_static
from .scope import ProjectModel

PYNATIVE, GRAPH = "pynative", "graph"
MODE_WORD = b"get_context"  # a file without it reads no mode (helpers are followed in-file)
MAX_CALLER_DEPTH = 4
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def built_only_in_pynative(model: ProjectModel, cls: ClassInfo) -> bool:
    """Whether every use of ``cls`` in the project is a call that builds it in code running only
    in PyNative mode (and there is at least one)."""
    return model.memo(model.table("built_only_in_pynative"), id(cls),
                      lambda: _built_only_in_pynative(model, cls))


def _built_only_in_pynative(model: ProjectModel, cls: ClassInfo) -> bool:
    module = cls.module
    if _in_all(module, cls.name):
        return False
    # a class defined in a function is built in its module only
    users = [module] if cls.scope else modules_mentioning(model, module, cls.name)
    if not any(model.project.mentions(user.path, MODE_WORD) for user in users):
        return False
    if any(_re_exports(user, cls.name, False) for user in users) or model.subclasses(cls, module.path):
        return False
    own = {id(node) for node in module.nodes(cls.node)}
    return _every_use_is_a_pynative_call(
        model, users, cls.name, own, 0,
        lambda node, user, call: model.class_named(node, user, _scope_at(user, call)) is cls)


def pynative_only(model: ProjectModel, module: ModuleInfo, node: ast.AST, depth: int = 0) -> bool:
    """Whether ``node`` runs only while the program is in PyNative mode: under a branch that
    tests for it, after a statement of its function that raises otherwise, or in a function
    whose every call is such code."""
    parents = module.parents(module.tree)
    child, parent = node, parents.get(id(node))
    while parent is not None and not isinstance(parent, FUNCTIONS):
        if isinstance(parent, ast.If):
            mode = mode_tested(parent.test, module)
            if (mode == PYNATIVE and child in parent.body) or (mode == GRAPH and child in parent.orelse):
                return True
        child, parent = parent, parents.get(id(parent))
    if parent is None:
        return False  # module level: whatever the script set before is not followed
    function = parent
    for statement in function.body:
        if statement is child:
            break
        if _ensures_pynative(model, module, function, statement, depth):
            return True
    # asked once per function and depth: several writes or calls in one function share it
    return depth < MAX_CALLER_DEPTH and model.memo(
        model.table("only_called_in_pynative"), (id(function), depth + 1),
        lambda: _only_called_in_pynative(model, module, function, depth + 1))


def mode_tested(test: ast.expr, module: ModuleInfo) -> str | None:
    """PYNATIVE when ``test`` holds exactly in PyNative mode, GRAPH when exactly in graph mode
    (``get_context("mode") != PYNATIVE_MODE``), else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = mode_tested(test.operand, module)
        return None if inner is None else (GRAPH if inner == PYNATIVE else PYNATIVE)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right = test.left, test.comparators[0]
    if not _reads_mode(left, module):
        left, right = right, left
    if not _reads_mode(left, module):
        return None
    if isinstance(right, ast.Constant) and type(right.value) is int:
        mode = MODE_NUMBERS.get(right.value)
    else:
        mode = MODE_CONSTANTS.get(module.imports.qualify(right) or "")
    if mode is None:
        return None
    if isinstance(test.ops[0], (ast.Eq, ast.Is)):
        return mode
    if isinstance(test.ops[0], (ast.NotEq, ast.IsNot)):
        return GRAPH if mode == PYNATIVE else PYNATIVE
    return None


def _reads_mode(node: ast.expr, module: ModuleInfo) -> bool:
    """``get_context("mode")`` (or ``get_context(attr_key="mode")``)."""
    if not (isinstance(node, ast.Call) and module.imports.qualify(node.func) in GET_CONTEXT):
        return False
    keys = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "attr_key")]
    return len(keys) == 1 and isinstance(keys[0], ast.Constant) and keys[0].value == "mode"


def _raises_unless_pynative(statement: ast.stmt, module: ModuleInfo) -> bool:
    """``if <graph mode>: ... raise`` (the body always ends in a raise)."""
    return (isinstance(statement, ast.If) and not statement.orelse
            and mode_tested(statement.test, module) == GRAPH
            and bool(statement.body) and isinstance(statement.body[-1], ast.Raise))


def _ensures_pynative(model: ProjectModel, module: ModuleInfo, function: FunctionNode,
                      statement: ast.stmt, depth: int) -> bool:
    """A statement after which ``function`` runs only in PyNative: the check itself, or a call
    of a helper that makes it before it can return."""
    if _raises_unless_pynative(statement, module):
        return True
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return False
    callee = _callee(model, module, function, statement.value.func)
    return callee is not None and depth < MAX_CALLER_DEPTH and _checks_first(model, *callee)


def _checks_first(model: ProjectModel, module: ModuleInfo, function: FunctionNode) -> bool:
    """Whether ``function`` raises unless in PyNative before any statement that may return."""
    for statement in function.body:
        if _raises_unless_pynative(statement, module):
            return True
        if any(isinstance(node, ast.Return) for node in module.nodes(statement)):
            return False
    return False


def _callee(model: ProjectModel, module: ModuleInfo, function: FunctionNode,
            func: ast.expr) -> tuple[ModuleInfo, FunctionNode] | None:
    """The project function a call in ``function`` runs: ``self.<method>`` of its class, or a
    function of its module."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        owner = _owner(module, function)
        located = model.find_method(owner, func.attr) if owner is not None else None
        return None if located is None else (located[0].module, located[1])
    if isinstance(func, ast.Name) and func.id in module.functions:
        return module, module.functions[func.id]
    return None


def _owner(module: ModuleInfo, function: FunctionNode) -> ClassInfo | None:
    scope = module.scope_of(function)
    if scope and isinstance(scope[-1], ast.ClassDef):
        return module.class_info(scope[-1])
    return None


def _only_called_in_pynative(model: ProjectModel, module: ModuleInfo, function: FunctionNode,
                             depth: int) -> bool:
    """Every use of the function's name in its module and the modules importing it is a call in
    PyNative-only code (and there is one). A method is looked for in every module of its
    top-level package and of the modules importing that package, since an object reaches its
    callers without an import of its own module (a registry of algorithm classes that a driver
    calls ``processor.process(name, layer)`` on); a use that cannot call it is left out: the
    definition of another method of that name, a bare name outside its class's body, a call
    whose arguments it cannot take, a call on ``self``, ``super()`` or a new instance of a class
    that does not run it. Every other use must be such a call."""
    name = function.name
    if name.startswith("__"):
        return False  # dunders run from Python's own machinery
    owner = _owner(module, function)
    if owner is None:
        users = modules_mentioning(model, module, name)
        return _every_use_is_a_pynative_call(model, users, name, {id(function)}, depth)
    users = _project_modules_mentioning(model, module, name)

    def cannot_run_it(node: ast.AST, user: ModuleInfo, call: ast.AST | None) -> bool:
        return _cannot_run_method(model, owner, function, node, user, call)
    return _every_use_is_a_pynative_call(model, users, name, {id(function)}, depth,
                                         cannot_run_it=cannot_run_it)


def _project_modules_mentioning(model: ProjectModel, module: ModuleInfo, name: str):
    """The module, then every other module of the project whose text mentions ``name`` and that
    can hold an object of the module's classes: one of its own top-level package, or one that
    names that package (imports it). Parsed one by one as the caller asks (it stops at its
    first doubt)."""
    yield module
    word = name.encode()
    for path in model.project.project_files(module.path):
        if (path == module.path or not model.project.mentions(path, word)
                or not model.project.may_name(path, module)):
            continue
        user = model.project.module(path)
        if user is not None and user is not module:
            yield user


def _cannot_run_method(model: ProjectModel, owner: ClassInfo, method: FunctionNode,
                       node: ast.AST, user: ModuleInfo, call: ast.AST | None) -> bool:
    """Whether this spelling of the method's name certainly does not run ``owner.method``."""
    if isinstance(node, (*FUNCTIONS, ast.ClassDef)):
        return True  # another definition of the name is not a use of this one
    if isinstance(node, ast.Name):
        # a method is a bare name only in its own class's body (`alias = process`)
        scope = _scope_at(user, node)
        return not (scope and scope[-1] is owner.node)
    if not (isinstance(node, ast.Attribute) and isinstance(call, ast.Call) and call.func is node):
        return False
    receiver = node.value
    scope = _scope_at(user, call)

    def refused(on_class: bool) -> bool:  # Python would raise TypeError
        bound = _is_bound(method, on_class)
        return binding_problem(call.args, call.keywords, method, bound) is not None

    if isinstance(receiver, ast.Name):
        named = model.class_named(receiver, user, scope)
        if named is not None:  # `Class.method(instance, ...)`: the instance is an argument
            return refused(on_class=True) or not _runs(model, named, method)
    if refused(on_class=False):
        return True
    if isinstance(receiver, ast.Call):
        if isinstance(receiver.func, ast.Name) and receiver.func.id == "super" and not receiver.args:
            enclosing = _method_class(user, scope)
            return enclosing is not None and owner not in model.mro(enclosing)[1:]
        built = model.class_named(receiver.func, user, scope)
        return built is not None and not _runs(model, built, method)
    if isinstance(receiver, ast.Name) and scope and isinstance(scope[-1], FUNCTIONS):
        if receiver.id == "self" == first_parameter(scope[-1]):
            enclosing = _method_class(user, scope)
            # an instance of the enclosing class or of any of its subclasses (a mixin's)
            return enclosing is not None and not any(
                owner in model.mro(cls) or cls in model.mro(owner)
                for cls in (enclosing, *model.subclasses(enclosing, user.path)))
    return False


def _runs(model: ProjectModel, cls: ClassInfo, method: FunctionNode) -> bool:
    """Whether an instance of exactly ``cls`` runs ``method`` for its name."""
    located = model.find_method(cls, method.name)
    return located is not None and located[1] is method


def _method_class(module: ModuleInfo, scope: tuple[ast.AST, ...]) -> ClassInfo | None:
    """The class of the method that ``scope`` ends in."""
    if len(scope) >= 2 and isinstance(scope[-1], FUNCTIONS) and isinstance(scope[-2], ast.ClassDef):
        return module.class_info(scope[-2])
    return None


def _is_bound(method: FunctionNode, on_class: bool) -> bool:
    """Whether a call passes the instance (or the class) first: a classmethod always, a
    staticmethod never, any other method when called on an instance."""
    if is_static(method):
        return False
    by_class = any(isinstance(d, ast.Name) and d.id == "classmethod" for d in method.decorator_list)
    return by_class or not on_class


def set_from_outside(model: ProjectModel, attr: str, near: ModuleInfo) -> bool:
    """Whether code outside a class may set ``<object>.<attr>`` before its graph is compiled:
    the text scan finds ``net.<attr> = ...`` (or an ``add_flags`` keyword) somewhere in the
    project, and not every such write runs only in PyNative mode."""
    if attr not in model.project.externally_set(near.path):
        return False
    scans = model.project.text_scans(near.path)
    return not model.memo(model.table("writes_only_in_pynative"), (attr, *map(id, scans)),
                          lambda: writes_only_in_pynative(model, attr, near))


def writes_only_in_pynative(model: ProjectModel, attr: str, near: ModuleInfo) -> bool:
    """Whether every ``<object>.<attr> = ...`` of the project on an object other than ``self``
    sits in code that runs only in PyNative mode (and there is one): a calibration pass that
    sets a Cell's flag to run its construct another way in PyNative, then sets it back. The
    graph compiled from that Cell never sees the flag change."""
    writes = 0
    for path in model.project.external_setters(attr, near.path):
        module = model.project.module(path)
        if module is None:
            return False  # the text sets it, and the syntax cannot say where
        # none at all: the text the scan matched is in a string or a comment
        for write in _external_writes(module).get(attr, ()):
            if not pynative_only(model, module, write):
                return False
            writes += 1
    return writes > 0


def _external_writes(module: ModuleInfo) -> dict[str, list[ast.AST]]:
    """attribute name -> the statements of ``module`` that assign ``<object>.<name>`` on an
    object other than ``self``, and its calls of a Cell method that sets it by keyword
    (``add_flags``); once per module."""
    def collect(tree: ast.Module) -> dict[str, list[ast.AST]]:
        found: dict[str, list[ast.AST]] = {}
        for node in module.nodes(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ATTRIBUTE_SETTING_METHODS):
                for name in {keyword.arg for keyword in node.keywords if keyword.arg}:
                    found.setdefault(name, []).append(node)
                continue
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            else:
                continue
            names = {leaf.attr for target in targets for leaf in flatten_targets(target)
                     if isinstance(leaf, ast.Attribute)
                     and not (isinstance(leaf.value, ast.Name) and leaf.value.id == "self")}
            for name in names:
                found.setdefault(name, []).append(node)
        return found
    return module.derived("modes.external_writes", module.tree, collect)


def modules_mentioning(model: ProjectModel, module: ModuleInfo, name: str) -> list[ModuleInfo]:
    """The module and the modules importing it whose text mentions ``name``."""
    return [module, *(user for path in model.project.importers_of(module.path)
                      if model.project.mentions(path, name.encode())
                      and (user := model.project.module(path)) is not None)]


def _every_use_is_a_pynative_call(model: ProjectModel, users, name: str, skip: set[int],
                                  depth: int, names_it=None, cannot_run_it=None) -> bool:
    """Whether every node of ``users`` spelling ``name`` (but those in ``skip``, and those that
    ``cannot_run_it(node, module, parent)`` where given) is called, in code that runs only in
    PyNative mode, and there is one such call. ``names_it(node, module, call)`` must also hold,
    where given: the spelling names the one definition asked about."""
    calls = 0
    for user in users:
        parents = user.parents(user.tree)
        for node in spellings(user).get(name, ()):
            if id(node) in skip:
                continue
            call = parents.get(id(node))
            if cannot_run_it is not None and cannot_run_it(node, user, call):
                continue
            if not (isinstance(call, ast.Call) and call.func is node):
                return False  # passed, stored or subclassed: used who knows where
            if names_it is not None and not names_it(node, user, call):
                return False
            if not pynative_only(model, user, call, depth):
                return False
            calls += 1
    return calls > 0


def spellings(module: ModuleInfo) -> dict[str, list[ast.AST]]:
    """name -> the nodes that spell it (a Name, an attribute ``x.name``, a definition), once per
    module."""
    def collect(tree: ast.Module) -> dict[str, list[ast.AST]]:
        found: dict[str, list[ast.AST]] = {}
        for node in module.nodes(tree):
            if isinstance(node, ast.Name):
                found.setdefault(node.id, []).append(node)
            elif isinstance(node, ast.Attribute):
                found.setdefault(node.attr, []).append(node)
            elif isinstance(node, (*FUNCTIONS, ast.ClassDef)):
                found.setdefault(node.name, []).append(node)
        return found
    return module.derived("modes.spellings", module.tree, collect)
