"""Python syntax the graph parser does not accept: statements, expressions and forms of them.

MindSpore parses a compiled function's source with a fixed list of statement and expression types;
anything else is reported, run or not (nested defs and lambdas are parsed with the function around
them). Some accepted statements have limits of their own: loops without `else`, comprehensions with
one `for`, `with` only on @jit_class instances, `raise` only of the standard exceptions the compiler
names. What the compiler does at each level is in msgraphlint/knowledge/rules/syntax.toml.
"""

from __future__ import annotations

import ast

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.model.attributes import attribute_assignments
from msgraphlint.syntax.project import ClassInfo, ModuleInfo
from msgraphlint.knowledge.mindspore import STREAM_CONTEXTS, is_mindspore_cell_name, is_mindspore_name

SORTED = "builtins.sorted"
SUPER = "builtins.super"
OBJECT = "builtins.object"
SELF = "self"
# Methods the graph parser turns into an assignment to their receiver (2.10, every level):
# `a.append(v)` is compiled like `a = a + [v]`. `remove` and `sort` are not among them.
CHANGED_IN_PLACE_BY_PARSER = frozenset({"append", "extend", "insert", "pop", "reverse", "clear",
                                        "update"})
# The statement and expression types MindSpore 2.10's graph parser handles; all others fail.
ACCEPTED_STATEMENTS = frozenset(
    {
        "Return", "Expr", "If", "Assign", "AnnAssign", "While", "For", "FunctionDef", "AugAssign",
        "Global", "Break", "Continue", "Pass", "Raise", "Assert", "With",
    }
)
ACCEPTED_EXPRESSIONS = frozenset(
    {
        "BinOp", "Name", "Constant", "Call", "IfExp", "Attribute", "Compare", "BoolOp", "Lambda",
        "Tuple", "List", "Subscript", "Slice", "UnaryOp", "Dict", "DictComp", "ListComp",
        "GeneratorExp", "JoinedStr", "FormattedValue", "Starred",
    }
)
# Every type this Python's ast has that the parser does not accept (3.12's TypeAlias included).
UNSUPPORTED_STATEMENTS = frozenset(
    {kind.__name__ for kind in ast.stmt.__subclasses__()} - ACCEPTED_STATEMENTS
)
UNSUPPORTED_EXPRESSIONS = frozenset(
    {kind.__name__ for kind in ast.expr.__subclasses__()} - ACCEPTED_EXPRESSIONS
)

STATEMENT_KEYWORDS = {
    "Try": "try", "TryStar": "try/except*", "Delete": "del", "ClassDef": "class",
    "Nonlocal": "nonlocal", "Import": "import", "ImportFrom": "from ... import", "Match": "match",
    "AsyncFunctionDef": "async def", "AsyncFor": "async for", "AsyncWith": "async with",
    "TypeAlias": "type",
}
DEFAULT_STATEMENT_ADVICE = "move it out of the compiled code"
TRY_ADVICE = "test the condition with if and raise ValueError, or catch around the call of the Cell"
STATEMENT_ADVICE = {
    "Try": TRY_ADVICE,
    "TryStar": TRY_ADVICE,
    "Delete": "drop the del: the graph frees intermediate values itself",
    "ClassDef": "define the class at module level (with @mindspore.jit_class to use it here)",
    "Nonlocal": "return the new value from the inner function instead",
    "Import": "import at module level",
    "ImportFrom": "import at module level",
    "Match": "use if/elif on the value",
    "AsyncFunctionDef": "compiled code runs synchronously: use a plain def",
    "AsyncFor": "compiled code runs synchronously: use a plain for",
    "AsyncWith": "compiled code runs synchronously: use a plain with",
}
# Definitions whose bodies the compiled function never runs as graph code once fixed (moved out):
# findings inside them would be noise, so only the definition itself is reported.
OPAQUE_DEFINITIONS = (ast.ClassDef, ast.AsyncFunctionDef)

EXPRESSION_DESCRIPTIONS = {
    "Set": ("A set literal", "use a tuple or list (`in (2, 4)` for membership)"),
    "SetComp": ("A set comprehension", "use a list comprehension"),
    "NamedExpr": ("The walrus operator ':='", "assign on its own line before the test"),
    "Yield": ("'yield'", "return a tuple or list instead of a generator"),
    "YieldFrom": ("'yield from'", "return a tuple or list instead of a generator"),
    "Await": ("'await'", "compiled code runs synchronously: call the function directly"),
}
DEFAULT_EXPRESSION_ADVICE = "rewrite it with supported expressions or move it out of compiled code"
COMPLEX_LITERAL_ADVICE = "build complex tensors with ops.Complex()(real, imag)"

# `raise NAME` / `raise NAME(...)`: the compiler checks NAME as written against this list.
SUPPORTED_EXCEPTIONS = frozenset(
    {
        "AssertionError", "AttributeError", "BaseException", "EnvironmentError", "Exception",
        "IOError", "IndentationError", "IndexError", "KeyError", "KeyboardInterrupt", "MemoryError",
        "NameError", "NotImplementedError", "OSError", "OverflowError", "RuntimeError",
        "RuntimeWarning", "StopIteration", "TypeError", "UnboundLocalError", "ValueError",
        "ZeroDivisionError",
    }
)

# Top-level packages whose context managers are host objects, never @jit_class instances.
HOST_CONTEXT_PACKAGES = frozenset(
    {
        "builtins", "threading", "multiprocessing", "concurrent", "contextlib", "warnings",
        "tempfile", "io", "os", "pathlib", "shutil", "socket", "sqlite3", "zipfile", "tarfile",
        "gzip", "time", "logging", "numpy", "torch", "tqdm", "h5py", "pandas",
    }
)


class SyntaxFamily(Family):
    name = "syntax"
    parse_time_visitors = frozenset({"*"})  # the parser rejects these in every branch it reads

    def __init__(self) -> None:
        # The compiled function being walked and the nodes inside opaque definitions reported in it.
        # Holding the function node keeps it alive, so the ids in the set cannot be reused.
        self._function: ast.AST | None = None
        self._opaque_nodes: set[int] = set()

    # ----- statements and expressions outside the parser's lists -------------------------

    def report_unsupported_statement(self, node: ast.stmt, ctx: FunctionContext) -> None:
        if self._inside_reported_definition(node, ctx):
            return
        kind = type(node).__name__
        if isinstance(node, OPAQUE_DEFINITIONS):
            self._opaque_nodes.update(id(inner) for inner in ast.walk(node) if inner is not node)
        keyword = STATEMENT_KEYWORDS.get(kind, kind)
        advice = STATEMENT_ADVICE.get(kind, DEFAULT_STATEMENT_ADVICE)
        ctx.report("unsupported-statement", node, keyword, advice)

    def report_unsupported_expression(self, node: ast.expr, ctx: FunctionContext) -> None:
        if self._inside_reported_definition(node, ctx):
            return
        kind = type(node).__name__
        what, advice = EXPRESSION_DESCRIPTIONS.get(
            kind, (f"A '{kind}' expression", DEFAULT_EXPRESSION_ADVICE)
        )
        ctx.report("unsupported-expression", node, what, advice)

    def visit_Constant(self, node: ast.Constant, ctx: FunctionContext) -> None:
        # Constant is accepted, except complex numbers ("Unsupported Constant type : 1j").
        if isinstance(node.value, complex) and not self._inside_reported_definition(node, ctx):
            literal = ast.unparse(node)
            ctx.report(
                "unsupported-expression", node, f"The complex literal {literal}",
                COMPLEX_LITERAL_ADVICE,
            )

    def _inside_reported_definition(self, node: ast.AST, ctx: FunctionContext) -> bool:
        # Nodes of one compiled function are walked together, ancestors first (ast.walk is
        # breadth first), so an opaque definition is always seen before what it contains.
        if self._function is not ctx.function.node:
            self._function = ctx.function.node
            self._opaque_nodes = set()
        return id(node) in self._opaque_nodes

    # ----- limits of accepted statements ---------------------------------------------------

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        """``sorted(xs, key=by_size)`` or ``xs.sort(key=by_size)`` with ``def by_size`` written
        inside the compiled function: the graph cannot pass a nested def as a key (2.10: NameError
        at every level; a module-level function or a lambda compiled)."""
        func = node.func
        sorting = (isinstance(func, ast.Name) and ctx.qualify(func) == SORTED) or (
            isinstance(func, ast.Attribute) and func.attr == "sort")
        key = next((k.value for k in node.keywords if k.arg == "key"), None)
        if (sorting and isinstance(key, ast.Name) and key.id in ctx.values.nested_functions
                and not self._inside_reported_definition(node, ctx)):
            ctx.report("nested-function-as-sort-key", key, key.id)
        self._check_held_lambda(node, ctx)
        self._check_super_arguments(node, ctx)

    def _check_super_arguments(self, node: ast.Call, ctx: FunctionContext) -> None:
        """``super(type(self), self)``, ``super(Net, x)``, ``super(Other, self)``: the parser
        reads super's two arguments itself, while parsing (2.7 to 2.10, every level, in any
        branch it parses)."""
        if not (node.func.__class__ is ast.Name and node.func.id == "super" and len(node.args) == 2
                and not node.keywords and ctx.qualify(node.func) == SUPER):
            return
        if self._inside_reported_definition(node, ctx):
            return
        problem = _super_problem(node, ctx)
        if problem is not None:
            ctx.report("super-arguments", node, ast.unparse(node), problem)

    def _check_held_lambda(self, node: ast.Call, ctx: FunctionContext) -> None:
        """``self.fn(x)`` where ``self.fn`` is a lambda written outside the compiled code: the
        parser reads its source again from the lambda's first line, and needs that line to be the
        lambda, alone or as the whole value of an assignment (2.10, every level)."""
        func, indexed = node.func, False
        if func.__class__ is ast.Subscript:
            func, indexed = func.value, True
        if not (func.__class__ is ast.Attribute and ctx.is_self(func.value)):
            return
        if id(node) in ctx.unevaluated:
            return  # never resolved: the parser reads a held lambda only where it is called
        held = attribute_assignments(ctx).get(func.attr)
        if not held:
            return
        found = []
        for module, value in held:
            lambdas = ([value] if value.__class__ is ast.Lambda and not indexed else
                       list(value.elts) if indexed and value.__class__ in (ast.List, ast.Tuple) else [])
            problems = [_lambda_unreadable(lam, module) for lam in lambdas
                        if lam.__class__ is ast.Lambda]
            if not lambdas or len(problems) != len(lambdas) or None in problems:
                return  # something else may be held, or a lambda the parser reads
            found.extend(problems)
        where, problem = found[0]
        ctx.report("lambda-not-on-own-line", node, ast.unparse(func), where, problem)

    def visit_Expr(self, node: ast.Expr, ctx: FunctionContext) -> None:
        self._check_change_of_call_result(node.value, ctx)

    def visit_Assign(self, node: ast.Assign, ctx: FunctionContext) -> None:
        self._check_change_of_call_result(node.value, ctx)
        for target in node.targets:
            self._check_item_attribute(target, ctx)

    def visit_AugAssign(self, node: ast.AugAssign, ctx: FunctionContext) -> None:
        self._check_item_attribute(node.target, ctx)

    def visit_AnnAssign(self, node: ast.AnnAssign, ctx: FunctionContext) -> None:
        self._check_item_attribute(node.target, ctx)

    def _check_item_attribute(self, target: ast.expr, ctx: FunctionContext) -> None:
        """``self.layers[0].scale = x``: the parser assigns attributes of names and attributes
        only (2.10: rejected at every level, in any branch it parses)."""
        for element in target.elts if isinstance(target, (ast.Tuple, ast.List)) else (target,):
            if (isinstance(element, ast.Attribute) and isinstance(element.value, ast.Subscript)
                    and not self._inside_reported_definition(element, ctx)):
                ctx.report("item-attribute-assign", element, ast.unparse(element))

    def _check_change_of_call_result(self, value: ast.expr, ctx: FunctionContext) -> None:
        """``d.setdefault(k, []).append(v)``: the parser rewrites an in-place method into an
        assignment to its receiver, and a call result cannot be assigned to (as a statement or
        an assignment's value; inside another call's arguments it is left alone)."""
        if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and value.func.attr in CHANGED_IN_PLACE_BY_PARSER
                and isinstance(value.func.value, ast.Call)
                and not self._inside_reported_definition(value, ctx)):
            ctx.report("in-place-change-of-call-result", value, ast.unparse(value.func.value),
                       value.func.attr)

    def visit_For(self, node: ast.For, ctx: FunctionContext) -> None:
        self._check_loop_else(node, "for", ctx)

    def visit_While(self, node: ast.While, ctx: FunctionContext) -> None:
        self._check_loop_else(node, "while", ctx)

    def _check_loop_else(self, node: ast.For | ast.While, keyword: str, ctx: FunctionContext):
        if node.orelse and not self._inside_reported_definition(node, ctx):
            ctx.report("loop-else", node, keyword)

    def visit_ListComp(self, node: ast.ListComp, ctx: FunctionContext) -> None:
        self._check_generators(node, ctx)

    def visit_DictComp(self, node: ast.DictComp, ctx: FunctionContext) -> None:
        self._check_generators(node, ctx)

    def visit_GeneratorExp(self, node: ast.GeneratorExp, ctx: FunctionContext) -> None:
        self._check_generators(node, ctx)

    def _check_generators(self, node, ctx: FunctionContext) -> None:
        # Set comprehensions are unsupported-expression already: one finding is enough.
        if len(node.generators) > 1 and not self._inside_reported_definition(node, ctx):
            ctx.report("multi-generator-comprehension", node, len(node.generators))

    def visit_Raise(self, node: ast.Raise, ctx: FunctionContext) -> None:
        if self._inside_reported_definition(node, ctx):
            return
        if node.exc is None:
            # A bare `raise` re-raises the exception being handled; compiled code handles none.
            if not _inside_handler(node, ctx):
                ctx.report("bare-raise", node, BARE_RAISE_INSTEAD)
            return
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        # Only a bare name is checked by the compiler; `raise errors.ShapeError(...)` and
        # `raise self.error(...)` compile, so they are not reported.
        if not isinstance(raised, ast.Name) or raised.id in SUPPORTED_EXCEPTIONS:
            return
        # A local variable holding an exception instance (`err = ValueError(...)`) is accepted.
        if raised.id in ctx.values.local_names:
            return
        ctx.report("unsupported-exception-type", node, raised.id)

    def visit_With(self, node: ast.With, ctx: FunctionContext) -> None:
        if self._inside_reported_definition(node, ctx):
            return
        for item in node.items:
            manager = item.context_expr
            if (what := self._non_jit_class_manager(manager, ctx)) is not None:
                ctx.report("with-non-jit-class", item.context_expr, ast.unparse(manager), what)
            elif (kind := _stream_context(manager, ctx)) is not None:
                outer = _enclosing_stream_context(node, kind, ctx)
                if outer is not None:
                    ctx.report("nested-stream-context", manager, ast.unparse(manager), kind,
                               outer.lineno)

    # ----- what a context manager is -------------------------------------------------------

    def _non_jit_class_manager(self, manager: ast.expr, ctx: FunctionContext) -> str | None:
        """A description of the context manager when it is known not to be a @jit_class
        instance; None when it is one or when it cannot be told (then nothing is reported)."""
        constructors = self._constructors_of(manager, ctx)
        if not constructors:
            return None
        descriptions = [describe_non_jit_class(call, ctx) for call in constructors]
        if any(description is None for description in descriptions):
            return None  # one possible value may be a jit_class: do not guess
        return descriptions[0]

    def _constructors_of(self, manager: ast.expr, ctx: FunctionContext) -> list[ast.Call]:
        """The calls that build the context manager: the expression itself, the value of a local
        name, or what `self.<attr>` is set to in the Cell's classes."""
        if isinstance(manager, ast.Call):
            return [manager]
        if isinstance(manager, ast.Name):
            values = ctx.values.assigned_values(manager.id)
        elif isinstance(manager, ast.Attribute) and ctx.is_self(manager.value):
            values = [
                value
                for cls in classes_of(ctx)
                for value in cls.self_assignments.get(manager.attr, [])
            ]
        else:
            return []
        if not values or not all(isinstance(value, ast.Call) for value in values):
            return []
        return values


def describe_non_jit_class(call: ast.Call, ctx: FunctionContext) -> str | None:
    """What `call` builds, for the message, when it is known not to be a @jit_class instance."""
    qualified = ctx.qualify(call.func)
    if qualified is None:
        return None
    cls = ctx.model.resolve_class(qualified, ctx.module)
    if cls is not None:
        if ctx.model.is_jit_class(cls):
            return None
        if ctx.model.is_cell(cls):
            return f"{cls.name}, a Cell"
        return f"{cls.name}, a class without @jit_class"
    if is_mindspore_cell_name(qualified):
        return f"{qualified}, a Cell"
    if qualified.split(".", 1)[0] in HOST_CONTEXT_PACKAGES:
        spelled = qualified.removeprefix("builtins.")
        if spelled.rsplit(".", 1)[-1][:1].isupper():
            return f"a {spelled}"
        return f"the result of {spelled}()"
    # MindSpore's own contexts (StreamCtx) and unknown libraries may be fine: not reported.
    return None


def classes_of(ctx: FunctionContext) -> list[ClassInfo]:
    start = ctx.cell or ctx.owner
    return ctx.model.mro(start) if start is not None else []


# The parser's lists are data: one handler per ast type outside them, registered from the sets.
for _kind in UNSUPPORTED_STATEMENTS:
    setattr(SyntaxFamily, f"visit_{_kind}", SyntaxFamily.report_unsupported_statement)
for _kind in UNSUPPORTED_EXPRESSIONS:
    setattr(SyntaxFamily, f"visit_{_kind}", SyntaxFamily.report_unsupported_expression)


BARE_RAISE_INSTEAD = "raise a specific exception: raise ValueError(\"...\")"


def _inside_handler(node: ast.AST, ctx: FunctionContext) -> bool:
    parent = ctx.values.parent(node)
    while parent is not None and parent is not ctx.function.node:
        if isinstance(parent, ast.ExceptHandler):
            return True
        parent = ctx.values.parent(parent)
    return False


def _lambda_unreadable(lam: ast.Lambda, module: ModuleInfo) -> tuple[str, str] | None:
    """(where the lambda is, why MindSpore's parser cannot read it back from its first line), or
    None where it can or where it is not known: a lambda on the line of a ``def`` (a default), or
    a lambda on the first line of a statement whose value is something else (a call's argument,
    a tuple, a list, a conditional expression)."""
    parents = module.parents(module.tree)
    child, parent = lam, parents.get(id(lam))
    while parent is not None and not isinstance(parent, ast.stmt):
        child, parent = parent, parents.get(id(parent))
    where = f"{module.path.name}:{lam.lineno}"
    if parent is None or parent.lineno != lam.lineno:
        return None  # starts a line of its own inside the statement: not judged
    if parent.__class__ in (ast.FunctionDef, ast.AsyncFunctionDef) and child.__class__ is ast.arguments:
        return where, "a default on the line of its def"
    if parent.__class__ in (ast.Assign, ast.AnnAssign, ast.Expr):
        if parent.value is lam:
            return None
        return where, f"on a line whose statement's value is a {parent.value.__class__.__name__}, not the lambda"
    return None


def _stream_context(manager: ast.expr, ctx: FunctionContext) -> str | None:
    """StreamCtx or StreamLimitCtx when ``manager`` builds one of MindSpore's stream contexts."""
    if manager.__class__ is not ast.Call:
        return None
    return STREAM_CONTEXTS.get(ctx.qualify(manager.func) or "")


def _enclosing_stream_context(node: ast.With, kind: str, ctx: FunctionContext) -> ast.With | None:
    """The ``with`` of the same kind of stream context that ``node`` sits in, in the same
    function (a helper's own ``with`` is parsed apart and compiles)."""
    parent = ctx.values.parent(node)
    while parent is not None and parent is not ctx.function.node:
        if parent.__class__ in (ast.FunctionDef, ast.Lambda):
            return None
        if parent.__class__ is ast.With and any(
                _stream_context(item.context_expr, ctx) == kind for item in parent.items):
            return parent
        parent = ctx.values.parent(parent)
    return None


def _super_problem(node: ast.Call, ctx: FunctionContext) -> str | None:
    """What the parser refuses in ``super(first, second)``: a second argument that is not the
    name self, a first argument that is no name, or a name that no class of self's MRO has (the
    parser looks the name as written up among the MRO's class names). None where the method's
    first parameter is not self, or where a base class is not known."""
    arguments = ctx.function.node.args
    first_parameter = (arguments.posonlyargs or arguments.args or [None])[0]
    if first_parameter is None or first_parameter.arg != SELF:
        return None
    first, second = node.args
    if first.__class__ is ast.Starred or second.__class__ is ast.Starred:
        return None
    if not (second.__class__ is ast.Name and second.id == SELF):
        return f"its second argument is '{ast.unparse(second)}', not self"
    if first.__class__ not in (ast.Name, ast.Attribute):
        return f"its first argument is a {first.__class__.__name__} expression, not the name of a class"
    written = first.id if first.__class__ is ast.Name else first.attr
    cls = ctx.cell or ctx.owner
    if cls is None or written == "object":
        return None
    names = _mro_class_names(cls, ctx)
    if names is None or written in names or is_mindspore_name(ctx.qualify(first)):
        return None
    return f"'{written}' is not the name of {cls.name} or of a class it derives from"


def _mro_class_names(cls: ClassInfo, ctx: FunctionContext) -> set[str] | None:
    """The names of the classes in ``cls``'s MRO as far as the project shows them, with the last
    part of each MindSpore base's name; None when a base is neither a project class nor one of
    MindSpore's (its own bases are not known)."""
    names: set[str] = set()
    for current in ctx.model.mro(cls):
        names.add(current.name)
        for base in current.node.bases:
            if ctx.model.class_named(base, current.module, current.scope) is not None:
                continue
            qualified = current.module.imports.qualify(base)
            if not (is_mindspore_name(qualified) or qualified == OBJECT):
                return None
            names.add(qualified.rsplit(".", 1)[-1])
    return names
