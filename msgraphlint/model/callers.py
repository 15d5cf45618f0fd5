"""Who builds and calls a Cell or jit function: the parents that hold sub-Cells, the Python
drivers that build and call roots, every construction of a class and what it passes."""

from __future__ import annotations

import ast
import bisect
import re

from ..knowledge.mindspore import (
    DRIVER_CONSTANT_ATTRIBUTES, ELEMENT_TYPES, JIT_CLASS_DECORATOR, NUMPY_SHAPE_ARGUMENT,
    NUMPY_SHAPE_KEYWORDS, TENSOR_CONSTRUCTORS, returns_tensor,
)
from ..syntax.project import ClassInfo, ModuleInfo, bound_names, statement_blocks
from ..syntax.source import begins_word, ends_word
from .variables import function_syntax
from .compiled import (
    Construction, FunctionNode, Target, bind_arguments, first_parameter, parameter_defaults,
)
from .scope import ProjectModel


def _sub_cell_classes(module: ModuleInfo) -> frozenset[str]:
    """Names of the module's classes that its classes instantiate into attributes: self.x = C()."""
    return module.derived("callers.sub_cells", module.tree, lambda _: frozenset(
        value.func.id
        for cls in module.classes.values()
        for values in cls.self_assignments.values()
        for value in values
        if isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in module.classes
    ))


def _lines_naming(module: ModuleInfo, name: str) -> list[int]:
    """The lines where ``name`` appears as a word (once per occurrence). The first few names
    asked of a module are found with the text's own substring search, each occurrence checked
    for word boundaries; past those, one index of every word of the module serves the rest
    (a module of a thousand Cells is asked a thousand names). A regular expression per name had
    made a module defining a function again in each of N copies cost N slow passes over N
    copies' text (issue 34); the index alone, a Python loop over every line, cost 3% of a run
    where most modules are asked one or two names."""
    asked = module.derived("names asked", module.tree, lambda _: {})
    if name not in asked:
        if len(asked) < NAMES_FOUND_BY_SEARCH:
            asked[name] = _search_word_lines(module.source.text or "", name)
        else:
            index = module.derived("words", module.tree, lambda _: _index_word_lines(
                module.source.text or ""))
            asked[name] = index.get(name, [])
    return asked[name]


NAMES_FOUND_BY_SEARCH = 8  # per module, before the index of every word is made
_NAME = re.compile(r"\b[^\W\d]\w*")  # a word that can be a name


def _search_word_lines(text: str, name: str) -> list[int]:
    found: list[int] = []
    line, counted = 1, 0
    position = text.find(name)
    while position != -1:
        if begins_word(text, position) and ends_word(text, position + len(name)):
            line += text.count("\n", counted, position)
            counted = position
            found.append(line)
        position = text.find(name, position + 1)
    return found


def _index_word_lines(text: str) -> dict[str, list[int]]:
    # findall per line: no match objects, and no counting of newlines between matches
    found: dict[str, list[int]] = {}
    findall = _NAME.findall
    for number, line in enumerate(text.split("\n"), 1):
        for word in findall(line):
            lines = found.get(word)
            if lines is None:
                found[word] = [number]
            else:
                lines.append(number)
    return found


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


MAX_CONSTANT_DEPTH = 8


def _only_function_naming(module: ModuleInfo, name: str, definition: ast.AST,
                          held: frozenset[int] = frozenset()) -> ast.AST | None:
    """The one module-level function (or ``if __name__ == "__main__":`` block, the script's
    driver) every use of ``name`` (outside its own definition and the ``held`` lines) is in, or
    None when it is used in several places or elsewhere at module level."""
    functions, blocks = _top_level_functions(module)
    wrapping = _wrapping_lines(module, name, definition)
    made_in = _factory_of(module, definition) or definition
    driver = None
    for number in _lines_naming(module, name):
        if made_in.lineno <= number <= (made_in.end_lineno or made_in.lineno):
            continue  # super(Net, self), the class line itself, its factory's `return Net`
        if number in wrapping or number in held:
            continue  # `step = jit(fn)`: where the name is made, not a use; a parent's sub-Cell
        inside = _holding(functions, number) or _holding(blocks, number)
        if inside is None or (driver is not None and inside is not driver):
            return None
        driver = inside
    return driver


def _top_level_functions(module: ModuleInfo):
    """The module-level functions, then the ``__main__`` blocks, each sorted by first line with
    those lines (once per module: a scan of them per use of every name that may have a driver
    grew with definitions x uses). A function may sit in a block: it is asked first."""
    def by_line(found: list[ast.AST]) -> tuple[list[int], list[ast.AST]]:
        found = sorted(found, key=lambda f: f.lineno)
        return [f.lineno for f in found], found
    return module.derived("top-level functions", module.tree, lambda _: (
        by_line(list(module.functions.values())), by_line(_main_blocks(module))))


def _holding(sorted_statements: tuple[list[int], list[ast.AST]], number: int) -> ast.AST | None:
    """The statement holding line ``number``: they do not overlap, so only the last one to start
    at or before it can."""
    starts, statements = sorted_statements
    at = bisect.bisect_right(starts, number) - 1
    if at >= 0 and number <= (statements[at].end_lineno or starts[at]):
        return statements[at]
    return None


def _main_blocks(module: ModuleInfo) -> list[ast.If]:
    """``if __name__ == "__main__":`` at module level: code run only as a script, as a driver."""
    return module.derived("main blocks", module.tree, lambda tree: [
        statement for statement in tree.body if isinstance(statement, ast.If)
        and isinstance(test := statement.test, ast.Compare) and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq) and isinstance(test.left, ast.Name)
        and test.left.id == "__name__" and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"])


def _call_assignments(module: ModuleInfo) -> dict[str, list[ast.Assign]]:
    """Module-level ``name = <call>(...)`` statements by each name they assign (once per module:
    a scan of the module per definition asked grew with definitions x statements)."""
    def collect(tree: ast.Module) -> dict[str, list[ast.Assign]]:
        found: dict[str, list[ast.Assign]] = {}
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
                for target in statement.targets:
                    if isinstance(target, ast.Name) and statement not in found.get(target.id, ()):
                        found.setdefault(target.id, []).append(statement)
        return found
    return module.derived("call assignments", module.tree, collect)


def _wrapping_lines(module: ModuleInfo, name: str, definition: ast.AST) -> set[int]:
    """Lines of module-level ``name = <call>(definition's name, ...)`` (a jit alias being made),
    or ``name = make_net()`` where make_net defines and returns it: where the name is made."""
    own = getattr(definition, "name", None)
    if own is None:
        return set()
    factory = _factory_of(module, definition)
    return {statement.lineno for statement in _call_assignments(module).get(name, ())
            if (
                (own != name and any(isinstance(a, ast.Name) and a.id == own
                                     for a in statement.value.args))
                or (factory is not None and isinstance(statement.value.func, ast.Name)
                    and statement.value.func.id == factory.name))}


def _factory_of(module: ModuleInfo, definition: ast.AST) -> ast.FunctionDef | None:
    """The module-level function that defines ``definition`` and returns it by name, and
    nothing else (``def make_net(): class Net...; return Net``)."""
    scope = module.scope_of(definition)
    if len(scope) != 1 or module.functions.get(getattr(scope[0], "name", "")) is not scope[0]:
        return None
    returns = [s for s in _statements(scope[0].body) if isinstance(s, ast.Return)]
    name = getattr(definition, "name", None)
    if returns and all(isinstance(r.value, ast.Name) and r.value.id == name for r in returns):
        return scope[0]
    return None


def factory_binding(module: ModuleInfo, definition: ast.AST) -> str | None:
    """The module-level name a factory's class or function is bound to (``Net = make_net()``):
    the name the program builds or calls it by."""
    factory = _factory_of(module, definition)
    if factory is None:
        return None
    for statement in module.tree.body:
        if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
                and isinstance(statement.value.func, ast.Name)
                and statement.value.func.id == factory.name and not statement.value.args):
            return statement.targets[0].id
    return None


def _driver_calls(module: ModuleInfo, driver: ast.AST, name: str, definition: ast.AST,
                  is_cell: bool) -> list[ast.Call] | None:
    """Every call of the Cell instances (or of the jit function) in ``driver``, or None when the
    name or an instance is used in any other way (passed to grad, stored, reassigned)."""
    parents = module.parents(driver)
    instances: set[str] = set()  # names of the Cell's instances, or of the jit function's aliases
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
        if (not is_cell and isinstance(call, ast.Assign) and call.value is node
                and len(call.targets) == 1 and isinstance(call.targets[0], ast.Name)):
            instances.add(call.targets[0].id)  # `step = train_step`, then step(x)
            continue
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
    called = instances if is_cell else {name, *instances}
    calls: list[ast.Call] = list(direct)
    for node in uses:
        if node.id not in called:
            continue
        parent = parents.get(id(node))
        if isinstance(node.ctx, ast.Store):
            value = parent.value if isinstance(parent, ast.Assign) and len(parent.targets) == 1 else None
            made = value.func if is_cell and isinstance(value, ast.Call) else value
            if not (isinstance(made, ast.Name) and made.id == name):
                return None  # an instance name (or alias) bound to something else too
            continue
        if not is_cell and node.id == name and parent is not None and isinstance(parent, ast.Assign):
            continue  # the alias's own assignment, seen above
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


def _as_assigned(expr: ast.expr, module: ModuleInfo, function: ast.AST | None) -> ast.expr:
    """A name the driver binds once (``z = [[1, 2], 3]; Net(z)``) as the value it is bound to.
    A name bound to a call stays a name: what the call builds may be changed through the name
    (``setattr(obj, ...)``), which the interpreter asks about."""
    for _ in range(MAX_CONSTANT_DEPTH):
        if function is None or not isinstance(expr, ast.Name):
            break
        value = single_assignment(module, function, expr.id)
        if value is None or isinstance(value, ast.Call):
            break
        expr = value
    return expr


def only_read(module: ModuleInfo, function: ast.AST, name: str) -> bool:
    """Whether ``function`` (nested functions included) uses ``name`` only to read attributes of
    it, call it, or ask ``getattr``/``hasattr`` of it: nothing there may give the object an
    attribute (``setattr(obj, ...)``, ``configure(obj)``, ``obj.x = 1``)."""
    parents = module.parents(function)
    for node in module.nodes(function):
        if not (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load)):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load):
            continue
        if isinstance(parent, ast.Call) and (parent.func is node or (
                isinstance(parent.func, ast.Name) and parent.func.id in ("getattr", "hasattr")
                and parent.args and parent.args[0] is node)):
            continue
        return False
    return True


def _through_batch_helper(module: ModuleInfo, calls: list[ast.Call]):
    """``step(*random_batch(rng))`` in every call, ``random_batch`` a function of the same module
    with one ``return`` of a tuple: (module, that function, the calls as if its returned elements
    were passed), so the tensors it builds are read where it builds them. None for any other
    starred call."""
    helpers = set()
    for call in calls:
        if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Starred):
            return None
        made = call.args[0].value
        if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name)):
            return None
        helpers.add(made.func.id)
    if len(helpers) != 1:
        return None
    name = helpers.pop()
    helper = next((node for node in module.tree.body
                   if isinstance(node, ast.FunctionDef) and node.name == name), None)
    if helper is None:
        return None
    returns = [node.value for node in ast.walk(helper) if isinstance(node, ast.Return)]
    if len(returns) != 1 or not isinstance(returns[0], ast.Tuple):
        return None
    elements = returns[0].elts
    if any(isinstance(e, ast.Starred) for e in elements):
        return None
    expanded = [ast.copy_location(ast.Call(func=call.func, args=list(elements), keywords=[]), call)
                for call in calls]
    return module, helper, expanded


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
        case ast.Attribute(attr=attr) if attr in DRIVER_CONSTANT_ATTRIBUTES:
            return True
        case ast.Dict(keys=keys, values=values) if None not in keys:
            return all(_driver_constant(e, module, driver, depth + 1) for e in [*keys, *values])
        case ast.Name(id=name):
            values = single_assignment(module, driver, name)
            return values is not None and _driver_constant(values, module, driver, depth + 1)
    return False


def _self_calls_carrying(function: FunctionNode, param: str, nested: bool = False):
    """(attr, call) for each ``self.<attr>(...)`` call, in statement order, given ``param`` or a
    value computed from it: as a plain argument (``self.fc(x)``), or with ``nested`` anywhere
    in its first argument (``self.attn(self.norm(x))``)."""
    carrying = {param}
    self_name = first_parameter(function)
    for statement in _statements(function.body):
        for call in (n for n in ast.walk(statement) if isinstance(n, ast.Call)):
            func = call.func
            if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                    and func.value.id == self_name and call.args):
                continue
            given = _names([call.args[0]], deep=True) if nested else _names(call.args)
            if given & carrying:
                yield func.attr, call
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and statement.value \
                and _names([statement.value], deep=True) & carrying:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            carrying |= _names(targets, deep=True)


def _names(expressions: list[ast.expr], deep: bool = False) -> set[str]:
    nodes = (n for e in expressions for n in (ast.walk(e) if deep else [e]))
    return {n.id for n in nodes if isinstance(n, ast.Name)}


def _unpacked_rank(function: FunctionNode, param: str) -> int | None:
    """The rank a function's code shows its parameter has: ``a, b, c = x.shape`` gives 3."""
    for node in ast.walk(function):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Tuple)
                and isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
                and isinstance(node.value.value, ast.Name) and node.value.value.id == param
                and not any(isinstance(e, ast.Starred) for e in node.targets[0].elts)):
            return len(node.targets[0].elts)
    return None


def _statements(body: list[ast.stmt]):
    """Statements in source order, those of nested blocks (if, for, with, try) in place."""
    for statement in body:
        yield statement
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for block in statement_blocks(statement):
                yield from _statements(block)


_NUMPY = "numpy."


def _tensor_spec(expr: ast.expr, module: ModuleInfo, driver: ast.AST) -> str | None:
    """``float32[2,3]`` for a tensor a driver builds with a shape it spells (``Tensor(np.ones((2,
    3), np.float32))``, ``ops.zeros((2, 3))``, ``Tensor(np.random.randn(2, 3))``,
    ``Tensor(rng.integers(0, 4, BATCH).astype(np.int32))``, a name bound once to one, sizes as
    literals or module constants); None for anything else."""
    if isinstance(expr, ast.Name):
        expr = single_assignment(module, driver, expr.id)
    if not isinstance(expr, ast.Call):
        return None
    outer = module.imports.qualify(expr.func) or ""
    if outer not in TENSOR_CONSTRUCTORS and not returns_tensor(outer):
        return None
    if expr.args and isinstance(expr.args[0], ast.Name):  # Tensor(data), data made just above
        made = single_assignment(module, driver, expr.args[0].id)
        if made is not None:
            expr = ast.Call(func=expr.func, args=[made, *expr.args[1:]], keywords=expr.keywords)
    shape, dtype, numpy = None, None, False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            qualified = module.imports.qualify(node.func) or ""
            numpy = numpy or qualified.startswith(_NUMPY)
            if shape is None:
                shape = _numpy_shape(node, module)
        elif isinstance(node, (ast.Tuple, ast.List)) and shape is None and node.elts:
            shape = _dimensions(node.elts, module)
        name = node.attr if isinstance(node, ast.Attribute) else (
            node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None)
        if dtype is None and name in ELEMENT_TYPES and name != "bfloat16":
            dtype = name.rstrip("_")
    if shape is None:
        return None
    dtype = dtype or ("float64" if numpy else "float32")
    return f"{dtype}[{','.join(map(str, shape))}]"


def _numpy_shape(call: ast.Call, module: ModuleInfo) -> list[int] | None:
    """The shape a numpy maker is given (``rng.integers(0, 4, 8)``: [8]), when its name says
    where (NUMPY_SHAPE_ARGUMENT) and the sizes are known."""
    last = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    if last not in NUMPY_SHAPE_ARGUMENT:
        return None
    position = NUMPY_SHAPE_ARGUMENT[last]
    if position is None:
        return _dimensions(call.args, module) if call.args else None
    given = next((k.value for k in call.keywords if k.arg in NUMPY_SHAPE_KEYWORDS), None)
    if given is None and position < len(call.args):
        given = call.args[position]
    if isinstance(given, (ast.Tuple, ast.List)):
        return _dimensions(given.elts, module)
    return _dimensions([given], module) if given is not None else None


def _dimensions(elements: list[ast.expr], module: ModuleInfo) -> list[int] | None:
    sizes = [_module_int(element, module) for element in elements]
    return sizes if sizes and all(isinstance(size, int) for size in sizes) else None


def _module_int(expr: ast.expr, module: ModuleInfo) -> int | None:
    """An int literal, or a module-level name bound once to one (``BATCH, LENGTH = 8, 16``)."""
    if isinstance(expr, ast.Constant):
        return expr.value if type(expr.value) is int and expr.value > 0 else None
    if not isinstance(expr, ast.Name):
        return None
    found = [*module.assignments.get(expr.id, ()), *module.unpacked_assignments.get(expr.id, ())]
    if len(found) != 1 or not isinstance(found[0], ast.Constant):
        return None
    return _module_int(found[0], module)


def _calls_on_line(module: ModuleInfo, line: int, name: str) -> list[ast.Call]:
    return [node for node in module.nodes(module.tree)
            if isinstance(node, ast.Call) and node.lineno == line
            and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name)]


def _scope_at(module: ModuleInfo, node: ast.AST) -> tuple[ast.AST, ...]:
    """The definitions a node sits in, outermost first."""
    parents = module.parents(module.tree)
    scope: list[ast.AST] = []
    current = parents.get(id(node))
    while current is not None:
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope.append(current)
        current = parents.get(id(current))
    return tuple(reversed(scope))


def _literal_arguments(module: ModuleInfo, call: ast.Call, init: FunctionNode) -> dict[str, object] | None:
    """parameter -> the literal a call passes it (directly, or as the literal default of a
    parameter of the function the call is in); None when an argument is starred."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    around = next((d for d in reversed(_scope_at(module, call))
                   if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    around_defaults = parameter_defaults(around) if around is not None else {}
    if around is not None:  # a parameter the function rebinds is not its default any more
        rebound = function_syntax(module, around).bound
        around_defaults = {k: v for k, v in around_defaults.items() if k not in rebound}
    found: dict[str, object] = {}
    for param, argument in bind_arguments(call, init, True):
        if isinstance(argument, ast.Name) and argument.id in around_defaults:
            argument = around_defaults[argument.id]
        try:
            found[param] = ast.literal_eval(argument)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
    return found


def single_assignment(module: ModuleInfo, function: ast.AST, name: str) -> ast.expr | None:
    """The value of ``name = value`` when that is the function's only binding of the name (not a
    parameter, loop variable, unpacking target, global or nonlocal)."""
    return single_assignments(module, function).get(name)


def single_assignments(module: ModuleInfo, function: ast.AST) -> dict[str, ast.expr]:
    """Every name of ``function`` that single_assignment answers for, with its value: one walk
    per function (cached), not one per question."""
    return module.derived("callers.single_assignments", function,
                          lambda node: _single_assignments(module, node))


def _single_assignments(module: ModuleInfo, function: ast.AST) -> dict[str, ast.expr]:
    args = getattr(function, "args", None)
    excluded = set(bound_names(args)) if args is not None else set()
    found: dict[str, ast.expr] = {}
    nodes = module.body_nodes(function)
    # `name = value`: the assignment whose one target a name is (no parent map needed)
    sole_target_of = {id(node.targets[0]): node for node in nodes
                      if node.__class__ is ast.Assign and len(node.targets) == 1}
    for node in nodes:
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            excluded.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            assignment = sole_target_of.get(id(node))
            if node.id in found or assignment is None:
                excluded.add(node.id)
            else:
                found[node.id] = assignment.value
    return {name: value for name, value in found.items() if name not in excluded}


def driver_context(model: ProjectModel, target: Target) -> tuple[ModuleInfo, ast.AST]:
    """(module, function) in which a root's driver arguments are written."""
    found = model.driver_calls(target)
    assert found is not None, "only asked for roots with driver arguments"
    return found[0], found[1]


def _takes_no_arguments(function: ast.AST) -> bool:
    """A function that can be called with no arguments (every parameter has a default)."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    return (len(args.defaults) >= len(positional)
            and all(default is not None for default in args.kw_defaults))


def _calls_name(module: ModuleInfo, where: ast.AST, name: str) -> bool:
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
               and node.func.id == name for node in module.nodes(where))


class Callers:
    """One concern of ReachModel (model/reach.py), whose caches and memo it uses."""

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

    def driver_argument_lists(self, target: Target) -> dict[str, list[ast.expr]]:
        """param -> what each Python call of the root passes it, when every call passes one:
        the calls may differ (a tensor of one shape here, of another there)."""
        count, passed = self._driver_bindings(target)
        return {param: given for param, given in passed.items() if len(given) == count}

    def driver_arguments(self, target: Target) -> dict[str, ast.expr]:
        """param -> the argument every Python call of the root passes it (the same expression
        in each, to be read in the driver), or the literal default when no call passes one."""
        if self.driver_calls(target) is None:
            return {}
        count, passed = self._driver_bindings(target)
        arguments = {param: given[0] for param, given in passed.items()
                     if len(given) == count and len({ast.dump(e) for e in given}) == 1}
        for param, default in parameter_defaults(target.node).items():
            if param not in passed and isinstance(default, ast.Constant):
                arguments[param] = default
        return arguments

    def _driver_bindings(self, target: Target) -> tuple[int, dict[str, list[ast.expr]]]:
        """(how many Python calls the root has, param -> the arguments those that pass it give),
        ``*args``/``**kwargs`` collectors left out: they gather several arguments into one."""
        found = self.driver_calls(target)
        if found is None:
            return 0, {}
        calls = found[2]
        collectors = {a.arg for a in (target.node.args.vararg, target.node.args.kwarg) if a}
        passed: dict[str, list[ast.expr]] = {}
        for call in calls:
            for param, argument in bind_arguments(call, target.node, target.cell is not None):
                if param not in collectors:
                    passed.setdefault(param, []).append(argument)
        return len(calls), passed

    def driver_calls(self, target: Target) -> tuple[ModuleInfo, ast.AST, list[ast.Call]] | None:
        """(module, driver function, calls) when every use of the root is a call in one
        plain-Python function of its own file (see driver_params); None otherwise."""
        return self.memo(self._driver_calls, id(target), lambda: self._find_driver_calls(target))

    def _find_driver_calls(self, target: Target):
        module = target.module
        cls = target.cell
        if target.kind == "jit" and (cls is not None or (
                target.label.endswith(")") and not target.called_as)):
            return None  # a jit method, or a jit(fn) the program calls through other names
        definition = cls.node if cls is not None else target.node
        name = target.called_as or definition.name  # `step = jit(fn)`: calls of step
        scope = cls.scope if cls is not None else module.scope_of(target.node)
        if (bound := factory_binding(module, definition)) is not None:
            name, scope = bound, ()  # `Net = make_net()`: used by that name, at module level
        driver = self._driver_of(module, definition, scope, name)
        if driver is None:
            return None
        calls = _driver_calls(module, driver, name, definition, bool(cls))
        if calls is None:
            return None
        if any(isinstance(a, ast.Starred) for call in calls for a in call.args):
            return _through_batch_helper(module, calls)
        if any(k.arg is None for call in calls for k in call.keywords):
            return None
        return module, driver, calls

    def _driver_of(self, module: ModuleInfo, definition: ast.AST, scope: tuple[ast.AST, ...],
                   name: str | None = None):
        """The one plain-Python function that uses a class or function: the function it is
        defined in, or the one module-level function naming it when no other file may (an
        export, an importer that mentions it); None otherwise."""
        if scope:
            driver = scope[-1]
            return driver if isinstance(driver, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        name = name or definition.name
        driver = _only_function_naming(module, name, definition, self._held_by_cells(module, name))
        if driver is None or _in_all(module, name) or any(
                self.project.mentions(path, name.encode())
                for path in self.project.importers_of(module.path)):
            return None  # other files may build or call it, with anything
        return driver

    def _held_by_cells(self, module: ModuleInfo, name: str) -> frozenset[int]:
        """Lines where a module-level Cell's ``__init__`` builds ``name`` and keeps it on self
        (``self.inner = Net()``): that instance is called by the parent's compiled code, in the
        parent's graph, so it does not change what the Python driver's own calls compile."""
        held = self.memo(self.table("cells held by cells"), id(module),
                         lambda: self._held_constructions(module))
        return held.get(name, frozenset())

    def _held_constructions(self, module: ModuleInfo) -> dict[str, frozenset[int]]:
        """Class name -> the lines of ``self.<attr> = Name(...)`` in the ``__init__`` of the
        module's Cells (one walk per module)."""
        found: dict[str, set[int]] = {}
        for cls in module.classes.values():
            init = cls.methods.get("__init__")
            if init is None:
                continue
            lines = [(statement.value.func.id, statement.lineno) for statement in module.nodes(init)
                     if isinstance(statement, ast.Assign)
                     and isinstance(statement.value, ast.Call)
                     and isinstance(statement.value.func, ast.Name)
                     and statement.lineno == statement.end_lineno
                     and all(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                             and t.value.id == "self" for t in statement.targets)]
            if lines and self.is_cell(cls):
                for name, line in lines:
                    found.setdefault(name, set()).add(line)
        return {name: frozenset(lines) for name, lines in found.items()}

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
        if any(cls.module.imports.qualify(d.func if isinstance(d, ast.Call) else d) != JIT_CLASS_DECORATOR
               for d in cls.node.decorator_list):
            return None  # @register: a registry may build it with anything
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
        driver = self._driver_of(module, cls.node, cls.scope)
        if driver is None:
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
        defaults = parameter_defaults(init)
        passed: list[Construction] = []
        for module, function, call in calls:
            bound = [argument for param, argument in bind_arguments(call, init, True) if param == value.id]
            if len(bound) == 1:
                passed.append(Construction(module, function, _as_assigned(bound[0], module, function)))
            elif not bound and value.id in defaults:
                passed.append(Construction(cls.module, None, defaults[value.id]))
            else:
                return None
        return passed

    def construction_arguments(self, cls: ClassInfo) -> dict[str, object] | None:
        """Literal keyword arguments that build ``cls`` the way the project builds it: from the
        first call in the project (the class's module and the modules importing it) whose
        arguments fill every required ``__init__`` parameter with a literal, or with a
        parameter of the function around the call whose default is one (``ResidualBlock(channels)``
        in ``ResNetLite.__init__(self, channels=16)``). None when no call does."""
        return self.memo(self.table("construction_arguments"), id(cls),
                         lambda: self._find_construction_arguments(cls))

    def _find_construction_arguments(self, cls: ClassInfo) -> dict[str, object] | None:
        located = self.find_method(cls, "__init__")
        if located is None:
            return None
        init = located[1]
        defaults = parameter_defaults(init)
        positional = [*init.args.posonlyargs, *init.args.args][1:]
        required = {p.arg for p in [*positional, *init.args.kwonlyargs]} - set(defaults)
        users = [cls.module, *(module for path in self.project.importers_of(cls.module.path)
                               if self.project.mentions(path, cls.name.encode())
                               and (module := self.project.module(path)) is not None)]
        for user in users:
            for number in _lines_naming(user, cls.name):
                for call in _calls_on_line(user, number, cls.name):
                    if self.class_named(call.func, user, _scope_at(user, call)) is not cls:
                        continue
                    found = _literal_arguments(user, call, init)
                    if found is not None and required <= set(found):
                        return found
        return None

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
        method_at = self._cell_method_lines(user)
        for number in _lines_naming(user, class_name):
            if (user is cls.module and number == cls.node.lineno) or number in imports:
                continue  # `class Name(...)`, `from blocks import Name`: not uses
            inside = method_at.get(number)
            if inside is None:
                return None  # named outside every Cell method: used some other way
            hits.add(inside)
        found: list[tuple[ClassInfo, str]] = []
        # Only the methods hit, in the list's order (a pass over every method per class grew
        # with classes x methods).
        places = self._cell_method_places(user)
        for index in sorted(i for hit in hits for i in places[hit]):
            cell, method = methods[index]
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

    def _cell_method_lines(self, module: ModuleInfo) -> dict[int, int]:
        """line -> id of the first of ``_cell_methods`` spanning it (once per module: a scan of
        every method per line naming a class grew with classes x methods)."""
        def collect() -> dict[int, int]:
            found: dict[int, int] = {}
            for _, method in self._cell_methods(module):
                for number in range(method.lineno, method.end_lineno + 1):
                    found.setdefault(number, id(method))
            return found
        return self.memo(self.table("cell method lines"), id(module), collect)

    def _cell_method_places(self, module: ModuleInfo) -> dict[int, list[int]]:
        """id of each of ``_cell_methods``'s methods -> its indexes in that list."""
        def collect() -> dict[int, list[int]]:
            found: dict[int, list[int]] = {}
            for index, (_, method) in enumerate(self._cell_methods(module)):
                found.setdefault(id(method), []).append(index)
            return found
        return self.memo(self.table("cell method places"), id(module), collect)

    def _cell_methods(self, module: ModuleInfo) -> list[tuple[ClassInfo, FunctionNode]]:
        return self.memo(self._module_cell_methods, id(module), lambda: [
            (cell, method) for cell in (*module.classes.values(), *module.nested_classes)
            if self.is_cell(cell) for method in cell.methods.values()])

    def entry_for(self, module: ModuleInfo, function: ast.AST) -> tuple[ModuleInfo, str] | None:
        """(module, what to run) that calls the module-level ``function`` when run with no
        arguments: ``function`` itself when it takes none (a test body, ``run()``), else a
        module-level function of its module or of a module importing it that takes none and
        calls it (``main()``), else the module's ``if __name__ == "__main__":`` block calling it
        or such a function (the name "__main__"). None when the project shows no such code."""
        return self.memo(self.table("entry_for"), id(function),
                         lambda: self._find_entry(module, function))

    def _find_entry(self, module: ModuleInfo, function: ast.AST) -> tuple[ModuleInfo, str] | None:
        name = getattr(function, "name", None)
        if name is None or module.functions.get(name) is not function:
            return None
        if _takes_no_arguments(function):
            return module, name
        users = [module, *(user for path in self.project.importers_of(module.path)
                           if self.project.mentions(path, name.encode())
                           and (user := self.project.module(path)) is not None)]
        for user in users:
            callers = [f for f in user.functions.values()
                       if f is not function and _takes_no_arguments(f) and _calls_name(user, f, name)]
            if callers:
                return user, callers[0].name
            for block in _main_blocks(user):
                if _calls_name(user, block, name):
                    return user, "__main__"
        return None
