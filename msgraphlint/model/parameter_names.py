"""The names MindSpore gives the Parameters a Cell's construction leaves, and those it leaves shared.

MindSpore names a Parameter when a Cell attribute takes it: its own ``name=``, or else the
attribute's name. Attaching a Cell to a parent (``self.block = Block()``, a CellList, a
SequentialCell) renames every Parameter below it after its path (``block.fc.weight``:
``Cell._set_attr_for_cell`` -> ``update_parameters_name``). A Parameter put on a sub-Cell after
that keeps its bare name, so an init hook of the outermost Cell (``self.apply(init)``, a loop
over ``self.cells_and_names()``) that gives every nn.Dense a new ``Parameter(data)`` leaves
several named 'weight'. The net's first call renames them after their paths
(``Cell._self_check``); before it, an optimizer over them raises ValueError ("its name 'weight'
already exists") in every mode, and a gradient with respect to them (value_and_grad with
weights, a jit training step) fails to compile. A Cell that another Cell holds is renamed when
it is attached, so only a class that no Cell of the project holds is asked about.

A Cell that nothing attaches keeps the names its own class gives its Parameters (``fc.weight``),
so two such Cells of one class name theirs alike. A Cell that collects both sets in two
ParameterTuples (``ParameterTuple(online.get_parameters())``, a target network for an EMA
update) and reads both in compiled code makes the graph take two Parameters of one name, which
no level compiles ("its name 'fc.weight' already exists"); PyNative runs it. Attaching the two
Cells first (``self.online = online``, a CellList) renames them after their paths.

Precision: only certain Cells are counted (an unconditional ``self.x = Layer(...)`` of
``__init__`` or of a method it calls, a literal container, a comprehension over a literal
range), only hooks that ``__init__`` runs unconditionally or under an if that every construction
the project shows decides alike (where it shows none, as the outermost Cell's users build it, the
parameters' defaults decide it, and the finding says so), only guards that are ``isinstance``
tests, only names that are literals or absent. Every doubt leaves a Cell uncounted or the class
out.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field

from ..knowledge import cell_classes
from ..knowledge.mindspore import (
    CELL_APPLY_METHOD, CELL_CHILD_ITERATOR, CELL_CLASS, CELL_CONTAINERS, CELL_PARAMETER_LISTS,
    CELL_TREE_ITERATOR, PARAMETER_CLASSES, PARAMETER_TUPLE_CLASS, WEIGHTED_LAYERS,
    is_mindspore_layer_class,
)
from ..syntax.project import ClassInfo, ModuleInfo
from .attributes import _target_version
from .branches import construction_truth
from .callers import _scope_at, single_assignment
from .compiled import Construction, first_parameter
from .modes import modules_mentioning, spellings
from .scope import ProjectModel

HOOK_WORDS = (CELL_APPLY_METHOD, CELL_TREE_ITERATOR, CELL_CHILD_ITERATOR)
MAX_DEPTH = 4  # nested Cells and the base __init__ / helper methods followed


@dataclass(frozen=True)
class HeldCell:
    """A Cell certainly attached at ``path``: a project class or a MindSpore class's defining name."""

    path: str
    kind: ClassInfo | str
    children: tuple["HeldCell", ...] = ()

    def tree(self) -> list["HeldCell"]:
        return [self, *(below for child in self.children for below in child.tree())]


@dataclass(frozen=True)
class SharedName:
    """Parameters that one assignment names alike, in Cells the outermost Cell already holds."""

    module: ModuleInfo  # where the assignment is written
    node: ast.Assign
    name: str
    paths: tuple[str, ...]  # the Cells given one ("" is the outermost Cell itself)
    # Where the class runs it: the assignment itself, or for a hook defined outside the class
    # (a module function handed to self.apply), the class's statement that runs the hook.
    at: ast.stmt | ast.ClassDef
    # A Parameter of the outermost Cell itself whose name= repeats another of its own, rather
    # than one put on an attached sub-Cell
    own: bool = False
    # The constructor defaults an if of __init__ was decided with, where the project shows no
    # construction of the class (`weight_init=True`)
    assuming: tuple[str, ...] = ()


@dataclass
class _Construction:
    cells: dict[str, HeldCell] = field(default_factory=dict)  # attribute -> Cell, in order
    # the outermost Cell's own Parameters: attribute -> (its name, where it is assigned)
    own: dict[str, tuple[str, ModuleInfo, ast.Assign]] = field(default_factory=dict)
    given: list[SharedName] = field(default_factory=list)
    unnamed: bool = False  # auto_prefix=False: nothing is renamed after its path
    home: ModuleInfo | None = None  # the outermost class's module
    span: tuple[int, int] = (0, 0)  # and its lines there
    # The statement of that class being run (the class itself while a base's __init__ it
    # inherits runs): where a hook written elsewhere is reported.
    running: ast.stmt | None = None
    # Whether the ifs of the root's __init__ fold on its constructions (or, where the project
    # shows none, its defaults): for the outermost Cell, which its users build
    folds_ifs: bool = False
    assuming: list[str] = field(default_factory=list)

    def shared(self, module: ModuleInfo, node: ast.Assign, name: str, paths: tuple[str, ...]) -> None:
        self.given.append(self.named(module, node, name, paths))

    def named(self, module: ModuleInfo, node: ast.Assign, name: str, paths: tuple[str, ...],
              own: bool = False) -> SharedName:
        inside = module is self.home and self.span[0] <= node.lineno <= self.span[1]
        return SharedName(module, node, name, paths, node if inside else self.running, own,
                          tuple(self.assuming))


def shared_parameter_names(model: ProjectModel, cls: ClassInfo) -> list[SharedName]:
    """The assignments of the class's construction that give two or more of its Parameters one
    name, when nothing in the project holds the class (a held Cell is renamed when attached)."""
    return model.memo(model.table("shared_parameter_names"), id(cls),
                      lambda: _shared_names(model, cls))


def _shared_names(model: ProjectModel, cls: ClassInfo) -> list[SharedName]:
    if not model.is_cell(cls) or not any(_hooks_anything(klass) for klass in model.mro(cls)):
        return []
    built = _Construction(home=cls.module, running=cls.node, folds_ifs=True,
                          span=(cls.node.lineno, cls.node.end_lineno or cls.node.lineno))
    _run_init(model, cls, cls, built, 0)
    own = Counter(name for name, _, _ in built.own.values())
    shared: list[SharedName] = []
    if built.given and not built.unnamed:
        counts = own.copy()
        for given in built.given:
            counts[given.name] += len(given.paths)
        shared = [given for given in built.given if counts[given.name] > 1]
    # The Cell's own Parameters named alike (name="weight" twice, or the name of another's
    # attribute): each after the first, in the order __init__ assigns them.
    seen: set[str] = set()
    for name, module, statement in built.own.values():
        if own[name] > 1 and name in seen:
            shared.append(built.named(module, statement, name, ("",), own=True))
        seen.add(name)
    if not shared or not _outermost(model, cls):
        return []
    return shared


def _hooks_anything(cls: ClassInfo) -> bool:
    """A cheap text test before the walk: the class body makes a Parameter or runs a hook (whose
    function may come from another module)."""
    body = "\n".join(cls.module.source.lines[cls.node.lineno - 1:cls.node.end_lineno])
    return "Parameter(" in body or any(f".{word}(" in body for word in HOOK_WORDS)


@dataclass(frozen=True)
class CollectedApart:
    """Two ParameterTuple attributes of a Cell collecting the Parameters of two Cells of one
    class that nothing attaches: both keep the names that class gives them."""

    first: ast.Assign  # self.a = ParameterTuple(online.get_parameters())
    second: ast.Assign
    kind: str  # the class of the two Cells, as written
    # Where they are built: two locals of __init__, or a construction's two arguments
    built: str


def parameters_collected_apart(model: ProjectModel, cls: ClassInfo) -> list[CollectedApart]:
    """The pairs of the class's ParameterTuple attributes that collect, in some construction the
    project shows, the Parameters of two distinct Cells of one class built apart (locals of
    ``__init__`` or a driver's locals passed in) that nothing attaches before, each certainly
    holding a Parameter with a name its class fixes."""
    return model.memo(model.table("parameters_collected_apart"), id(cls),
                      lambda: _collected_apart(model, cls))


def _collected_apart(model: ProjectModel, cls: ClassInfo) -> list[CollectedApart]:
    init = cls.methods.get("__init__")
    if init is None or not model.is_cell(cls) or "ParameterTuple(" not in "\n".join(
            cls.module.source.lines[init.lineno - 1:init.end_lineno]):
        return []
    self_name = first_parameter(init)
    module = cls.module
    built_here: dict[str, ast.Call] = {}  # a local of __init__ -> the Cell it is bound to
    collected: list[tuple[ast.Assign, str, str]] = []  # (statement, source, its list method)
    for statement in init.body:  # unconditional statements only
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        if isinstance(target, ast.Name) and isinstance(value, ast.Call):
            built_here[target.id] = value
        elif (isinstance(target, ast.Attribute) and _is_name(target.value, self_name)
              and (source := _collected_from(module, value)) is not None):
            collected.append((statement, *source))
    if len(collected) < 2:
        return []
    reads = Counter(node.id for node in module.nodes(init)
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load))
    stores = Counter(node.id for node in module.nodes(init)
                     if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load))
    built_here = {name: call for name, call in built_here.items() if stores[name] == 1}
    parameters = {p.arg for p in [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs]}
    found: list[CollectedApart] = []
    for index, (first, source, method) in enumerate(collected):
        for second, other, other_method in collected[index + 1:]:
            if source == other or method != other_method or reads[source] != 1 or reads[other] != 1:
                continue  # one Cell twice, or a Cell used otherwise (attached, passed on)
            if source in built_here and other in built_here:
                kinds = [_cell_kind(model, module, cls.scope, built_here[name], method)
                         for name in (source, other)]
                where = f"'{source}' and '{other}' in __init__"
            elif source in parameters and other in parameters and not stores[source] + stores[other]:
                kinds, where = _passed_apart(model, cls, init, source, other, method)
            else:
                continue
            if kinds and kinds[0] is not None and kinds[0] == kinds[1]:
                found.append(CollectedApart(first, second, kinds[0], where))
    return found


def _collected_from(module: ModuleInfo, value: ast.expr) -> tuple[str, str] | None:
    """``ParameterTuple(name.get_parameters())``: (name, the list method)."""
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords
            and module.imports.qualify(value.func) == PARAMETER_TUPLE_CLASS):
        return None
    listed = value.args[0]
    if (isinstance(listed, ast.Call) and not listed.args and not listed.keywords
            and isinstance(listed.func, ast.Attribute) and listed.func.attr in CELL_PARAMETER_LISTS
            and isinstance(listed.func.value, ast.Name)):
        return listed.func.value.id, listed.func.attr
    return None


def _passed_apart(model: ProjectModel, cls: ClassInfo, init: ast.FunctionDef | ast.AsyncFunctionDef,
                  source: str, other: str, method: str) -> tuple[list[str | None], str]:
    """The class of the two Cells that a construction of ``cls`` passes as ``source`` and
    ``other``, built apart in its driver (each a local bound once, used only there), when some
    construction passes two of one class; else []."""
    firsts = model.constructor_arguments(cls, init, ast.Name(id=source))
    seconds = model.constructor_arguments(cls, init, ast.Name(id=other))
    if not firsts or not seconds or len(firsts) != len(seconds):
        return [], ""
    for one, two in zip(firsts, seconds):
        if one.function is None or one.function is not two.function:
            continue
        calls = [_driver_cell(one), _driver_cell(two)]
        if None in calls or calls[0] is calls[1]:
            continue
        kinds = [_cell_kind(model, one.module, one.module.scope_of(one.function) or (), call, method)
                 for call in calls]
        if kinds[0] is not None and kinds[0] == kinds[1]:
            line = one.expr.lineno
            return kinds, f"{ast.unparse(one.expr)} and {ast.unparse(two.expr)} built apart by " \
                f"{getattr(one.function, 'name', 'the module')}() at {one.module.path.name}:{line}"
    return [], ""


def _driver_cell(passed: Construction) -> ast.Call | None:
    """The call that builds the Cell a driver passes: inline, or a local bound once to it whose
    only other uses are calls of it (net(x)): passed to nothing else, so attached to nothing."""
    if isinstance(passed.expr, ast.Call):
        return passed.expr
    if not isinstance(passed.expr, ast.Name) or passed.function is None:
        return None
    value = single_assignment(passed.module, passed.function, passed.expr.id)
    if not isinstance(value, ast.Call):
        return None
    parents = passed.module.parents(passed.module.tree)
    for node in passed.module.nodes(passed.function):
        if isinstance(node, ast.Name) and node.id == passed.expr.id and isinstance(node.ctx, ast.Load) \
                and node is not passed.expr:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Call) and parent.func is node):
                return None
    return value


def _cell_kind(model: ProjectModel, module: ModuleInfo, scope: tuple[ast.AST, ...], call: ast.Call,
               method: str) -> str | None:
    """The class ``call`` builds, when it is a Cell certainly holding a Parameter whose name its
    class fixes (``trainable_params``: one of a MindSpore layer, trainable); else None."""
    project = model.class_named(call.func, module, scope)
    if project is not None:
        return project.name if model.is_cell(project) and _holds_named_parameter(
            model, project, own=method == "get_parameters") else None
    qualified = module.imports.qualify(call.func)
    if qualified is None or not is_mindspore_layer_class(qualified):
        return None
    defining = _defining(model, qualified)
    return qualified.rsplit(".", 1)[-1] if defining and defining.rsplit(".", 1)[-1] in WEIGHTED_LAYERS else None


def _holds_named_parameter(model: ProjectModel, cls: ClassInfo, own: bool) -> bool:
    built = _Construction()
    _run_init(model, cls, cls, built, 1)
    if own and built.own:
        return True
    return any(isinstance(held.kind, str) and held.kind.rsplit(".", 1)[-1] in WEIGHTED_LAYERS
               for cell in built.cells.values() for held in cell.tree())


# ----- the construction, statement by statement ---------------------------------------------------

def _run_init(model: ProjectModel, root: ClassInfo, cls: ClassInfo, built: _Construction,
              depth: int) -> None:
    """``cls.__init__`` run on an instance of ``root`` (cls is root or one of its project bases)."""
    init = cls.methods.get("__init__")
    if init is None:
        located = model.find_method(cls, "__init__", skip_self=True)
        if located is not None and depth < MAX_DEPTH:
            _run_init(model, root, located[0], built, depth + 1)
        return
    _run_body(model, root, cls, init, built, depth)


def _run_body(model: ProjectModel, root: ClassInfo, cls: ClassInfo,
              function: ast.FunctionDef | ast.AsyncFunctionDef, built: _Construction, depth: int) -> None:
    self_name = first_parameter(function)
    if self_name is None:
        return
    # The root's own __init__ takes what its constructions pass: its ifs on them fold.
    folds = built.folds_ifs and cls is root and function is cls.methods.get("__init__")
    _run_statements(model, root, cls, function, function.body, self_name, built, depth, folds)


def _run_statements(model: ProjectModel, root: ClassInfo, cls: ClassInfo,
                    function: ast.FunctionDef | ast.AsyncFunctionDef, statements: list[ast.stmt],
                    self_name: str, built: _Construction, depth: int, folds: bool) -> None:
    for statement in statements:
        if cls.module is built.home and built.span[0] <= statement.lineno <= built.span[1]:
            built.running = statement
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            _run_call(model, root, cls, statement.value, self_name, built, depth)
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            _run_assignment(model, cls, statement, self_name, built, depth)
        elif isinstance(statement, ast.For):
            _run_loop(model, cls, statement, self_name, built)
        elif isinstance(statement, ast.If) and folds and (
                decided := construction_truth(model, cls, function, statement.test)) is not None:
            # `if weight_init: self.apply(init)`: only the branch every construction takes runs
            truth, assumed = decided
            built.assuming.extend(assumed)
            _run_statements(model, root, cls, function, statement.body if truth else statement.orelse,
                            self_name, built, depth, folds)
        else:
            _forget_assigned(cls.module, statement, self_name, built)


def _run_call(model: ProjectModel, root: ClassInfo, cls: ClassInfo, call: ast.Call, self_name: str,
              built: _Construction, depth: int) -> None:
    func = call.func
    if not isinstance(func, ast.Attribute):
        return
    if func.attr == "__init__" and _is_super(func.value, cls):
        located = model.find_method(cls, "__init__", skip_self=True)
        if located is None and not _prefixes(cls, call, isinstance(func.value, ast.Call)):
            built.unnamed = True  # nn.Cell(auto_prefix=False): names are not made paths
        if located is not None and depth < MAX_DEPTH:
            _run_init(model, root, located[0], built, depth + 1)
        return
    if not _is_name(func.value, self_name):
        return
    if func.attr == CELL_APPLY_METHOD and len(call.args) == 1 and not call.keywords:
        hook = _hook_function(model, cls, call.args[0], self_name)
        if hook is not None:
            body, cell_name, module = hook
            _give(model, module, body, cell_name, _every_cell(built), built)
        return
    located = model.find_method(root, func.attr)
    if located is not None and depth < MAX_DEPTH and func.attr != "__init__":
        _run_body(model, root, located[0], located[1], built, depth + 1)


def _run_assignment(model: ProjectModel, cls: ClassInfo, statement: ast.Assign, self_name: str,
                    built: _Construction, depth: int) -> None:
    target, value = statement.targets[0], statement.value
    if not isinstance(target, ast.Attribute):
        return
    if _is_name(target.value, self_name):
        built.cells.pop(target.attr, None)
        built.own.pop(target.attr, None)  # reassigned: the earlier Parameter is gone
        if isinstance(value, ast.Call) and _is_parameter(cls.module, value):
            name = _parameter_name(value, target.attr)
            if name is not None:
                built.own[target.attr] = (name, cls.module, statement)
            return
        held = _held(model, cls.module, cls.scope, value, target.attr, depth) if isinstance(
            value, ast.Call) else None
        if held is not None:
            built.cells[target.attr] = held
        return
    # self.block.weight = Parameter(...): one Parameter on a Cell already attached
    holder = target.value
    if (isinstance(holder, ast.Attribute) and _is_name(holder.value, self_name)
            and holder.attr in built.cells and isinstance(value, ast.Call)
            and _is_parameter(cls.module, value)):
        name = _parameter_name(value, target.attr)
        if name is not None:
            built.shared(cls.module, statement, name, (holder.attr,))


def _run_loop(model: ProjectModel, cls: ClassInfo, loop: ast.For, self_name: str,
              built: _Construction) -> None:
    """``for _, cell in self.cells_and_names():`` and ``for cell in self.cells():`` as hooks."""
    _forget_assigned(cls.module, loop, self_name, built)
    iterated = loop.iter
    if not (isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute)
            and _is_name(iterated.func.value, self_name) and not iterated.args):
        return
    method, target = iterated.func.attr, loop.target
    if method == CELL_TREE_ITERATOR and isinstance(target, ast.Tuple) and len(target.elts) == 2 \
            and isinstance(target.elts[1], ast.Name):
        _give(model, cls.module, loop.body, target.elts[1].id, _every_cell(built), built)
    elif method == CELL_CHILD_ITERATOR and isinstance(target, ast.Name):
        _give(model, cls.module, loop.body, target.id, list(built.cells.values()), built)


def _forget_assigned(module: ModuleInfo, statement: ast.stmt, self_name: str,
                     built: _Construction) -> None:
    """A Cell attribute set under a condition, a loop or a try may hold something else now."""
    for node in module.nodes(statement):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_name(
                node.value, self_name):
            built.cells.pop(node.attr, None)
            built.own.pop(node.attr, None)


# ----- what a hook gives each Cell ------------------------------------------------------------------

def _every_cell(built: _Construction) -> list[HeldCell | None]:
    """The Cells a hook over the whole tree visits: the outermost one (None) and every certain one
    below it."""
    return [None, *(below for held in built.cells.values() for below in held.tree())]


def _hook_function(model: ProjectModel, cls: ClassInfo, argument: ast.expr, self_name: str):
    """(body, the parameter that takes the Cell, module) of the function ``self.apply`` is given:
    a method of the class, or a function of the module."""
    if isinstance(argument, ast.Attribute) and _is_name(argument.value, self_name):
        located = model.find_method(cls, argument.attr)
        if located is None:
            return None
        params = [*located[1].args.posonlyargs, *located[1].args.args]
        return (located[1].body, params[1].arg, located[0].module) if len(params) == 2 else None
    if isinstance(argument, ast.Name):
        module = cls.module
        found = module.visible_definition(argument.id, cls.scope) or module.functions.get(argument.id)
        qualified = module.imports.qualify(argument) if found is None else None
        if qualified is not None and "." in qualified:  # a function imported from the project
            home, name = qualified.rsplit(".", 1)
            module = model.project.find_module(home)
            found = module.functions.get(name) if module is not None else None
        if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) and module is not None:
            params = [*found.args.posonlyargs, *found.args.args]
            return (found.body, params[0].arg, module) if len(params) == 1 else None
    return None


def _give(model: ProjectModel, module: ModuleInfo, body: list[ast.stmt], cell_name: str,
          visited: list[HeldCell | None], built: _Construction) -> None:
    """The Parameters a hook's body gives ``cell_name``, on each visited Cell its guards let in."""
    for statement, guards in _guarded_assignments(body, []):
        target, value = statement.targets[0], statement.value
        if not (isinstance(target, ast.Attribute) and _is_name(target.value, cell_name)
                and isinstance(value, ast.Call) and _is_parameter(module, value)):
            continue
        name = _parameter_name(value, target.attr)
        if name is None or any(not _is_isinstance_of(guard, cell_name) for guard in guards):
            continue
        paths = tuple(held.path if held else "" for held in visited
                      if all(_certainly_instance(model, module, held, guard) for guard in guards))
        if paths:
            built.shared(module, statement, name, paths)


def _guarded_assignments(body: list[ast.stmt], guards: list[ast.expr]):
    """The single-target assignments of a body, with the tests of the ifs they sit in (their
    true branch only: an else says what the Cell is not, which is rarely certain)."""
    for statement in body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            yield statement, guards
        elif isinstance(statement, ast.If):
            yield from _guarded_assignments(statement.body, [*guards, statement.test])


def _is_isinstance_of(test: ast.expr, cell_name: str) -> bool:
    return (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance"
            and len(test.args) == 2 and _is_name(test.args[0], cell_name))


def _certainly_instance(model: ProjectModel, module: ModuleInfo, held: HeldCell | None,
                        test: ast.Call) -> bool:
    """Whether the Cell is certainly an instance of a class the isinstance test names."""
    wanted = test.args[1]
    classes = wanted.elts if isinstance(wanted, ast.Tuple) else [wanted]
    if held is None:
        return False  # the outermost Cell itself: left uncounted
    for spelled in classes:
        qualified = module.imports.qualify(spelled)
        if qualified is None:
            continue
        if qualified == CELL_CLASS:
            return True
        if isinstance(held.kind, str):
            if _defining(model, qualified) == held.kind:
                return True
            continue
        project = model.class_named(spelled, module, _scope_at(module, test))
        mro = model.mro(held.kind)
        if project is not None and project in mro:
            return True
        bases = {_defining(model, q) for klass in mro for q in klass.base_names}
        if project is None and _defining(model, qualified) in bases - {None}:
            return True
    return False


# ----- the Cells an attribute certainly holds -------------------------------------------------------

def _held(model: ProjectModel, module: ModuleInfo, scope: tuple[ast.AST, ...], call: ast.Call,
          path: str, depth: int) -> HeldCell | None:
    project = model.class_named(call.func, module, scope)
    if project is not None:
        if not model.is_cell(project):
            return None
        inner = _Construction()
        if depth < MAX_DEPTH:
            _run_init(model, project, project, inner, depth + 1)
        return HeldCell(path, project, tuple(_renamed(held, path) for held in inner.cells.values()))
    qualified = module.imports.qualify(call.func)
    if qualified is None or not is_mindspore_layer_class(qualified):
        return None
    defining = _defining(model, qualified)
    if defining is None:
        return None
    if qualified.rsplit(".", 1)[-1] in CELL_CONTAINERS:
        elements = _container_elements(call)
        children = [_held(model, module, scope, element, f"{path}.{index}", depth + 1)
                    for index, element in enumerate(elements)] if depth < MAX_DEPTH else []
        return HeldCell(path, defining, tuple(child for child in children if child is not None))
    return HeldCell(path, defining)


def _renamed(held: HeldCell, prefix: str) -> HeldCell:
    return HeldCell(f"{prefix}.{held.path}", held.kind,
                    tuple(_renamed(child, prefix) for child in held.children))


def _container_elements(call: ast.Call) -> list[ast.Call]:
    """The Cells a SequentialCell or CellList is built from, where the source spells each one:
    ``([A(), B()])``, ``(A(), B())``, ``([Block() for _ in range(3)])``."""
    given = call.args[0] if len(call.args) == 1 else None
    if isinstance(given, (ast.List, ast.Tuple)):
        elements = given.elts
    elif isinstance(given, ast.ListComp) and len(given.generators) == 1 and _literal_range(
            given.generators[0]) is not None:
        elements = [given.elt] * _literal_range(given.generators[0])
    else:
        elements = list(call.args)
    return [element for element in elements if isinstance(element, ast.Call)]


def _literal_range(generator: ast.comprehension) -> int | None:
    iterated = generator.iter
    if (generator.ifs or not isinstance(iterated, ast.Call) or not isinstance(iterated.func, ast.Name)
            or iterated.func.id != "range" or len(iterated.args) != 1):
        return None
    count = iterated.args[0]
    return count.value if isinstance(count, ast.Constant) and type(count.value) is int else None


# ----- whether anything holds the class ---------------------------------------------------------

def _outermost(model: ProjectModel, cls: ClassInfo) -> bool:
    """Whether the project only ever builds the class as an outermost Cell: every spelling of
    its name outside its own body is a call, made outside every Cell class, in a function that
    hands back nothing (a driver, not a factory); a decorated class may be registered anywhere."""
    if cls.node.decorator_list:
        return False
    own = {id(node) for node in cls.module.nodes(cls.node)}
    for user in modules_mentioning(model, cls.module, cls.name):
        parents = user.parents(user.tree)
        for node in spellings(user).get(cls.name, ()):
            if id(node) in own or node is cls.node:
                continue
            call = parents.get(id(node))
            if isinstance(call, ast.ClassDef) and node in call.bases:
                continue  # subclassed: the subclass's constructions are its own question
            if not (isinstance(call, ast.Call) and call.func is node):
                return False  # passed, stored, exported by value: held who knows where
            if not _built_by_a_driver(model, user, call, parents):
                return False
    return True


def _built_by_a_driver(model: ProjectModel, module: ModuleInfo, call: ast.Call, parents: dict) -> bool:
    node = parents.get(id(call))
    while node is not None:
        if isinstance(node, ast.ClassDef):
            klass = module.class_info(node)
            return klass is None or not model.is_cell(klass)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(isinstance(inner, ast.Return) and inner.value is not None
                   and not (isinstance(inner.value, ast.Constant) and inner.value.value is None)
                   for inner in ast.walk(node)):
                return False  # a factory: its caller may attach what it builds
        node = parents.get(id(node))
    return True


# ----- small readers ---------------------------------------------------------------------------------

def _defining(model: ProjectModel, qualified: str) -> str | None:
    return cell_classes.definition(qualified, _target_version(model))


def _is_parameter(module: ModuleInfo, call: ast.Call) -> bool:
    return module.imports.qualify(call.func) in PARAMETER_CLASSES


def _parameter_name(call: ast.Call, attribute: str) -> str | None:
    """The name MindSpore gives the Parameter an attribute takes: its literal ``name``, else the
    attribute's; None when the name is computed (then it may well differ per Cell)."""
    given = next((k.value for k in call.keywords if k.arg == "name"),
                 call.args[1] if len(call.args) > 1 else None)
    if given is None or (isinstance(given, ast.Constant) and given.value is None):
        return attribute
    return given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else None


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _prefixes(cls: ClassInfo, call: ast.Call, through_super: bool) -> bool:
    """Whether the MindSpore base's __init__ keeps ``auto_prefix=True``: no keyword saying
    otherwise, and no positional argument where the base is nn.Cell itself (its first)."""
    given = next((k.value for k in call.keywords if k.arg == "auto_prefix"), None)
    if given is None and all(q == CELL_CLASS for q in cls.base_names):
        positional = call.args if through_super else call.args[1:]  # Base.__init__(self, ...)
        given = positional[0] if positional else None
    return given is None or (isinstance(given, ast.Constant) and given.value is True)


def _is_super(node: ast.expr, cls: ClassInfo) -> bool:
    """``super()`` / ``super(Cls, self)``, or a base named directly (``Base.__init__(self)``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super":
        return True
    return isinstance(node, (ast.Name, ast.Attribute)) and any(
        ast.unparse(base) == ast.unparse(node) for base in cls.node.bases)
