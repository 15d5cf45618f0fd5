"""Names the graph compiler cannot resolve: undefined names, attributes never set, and builtins the
graph does not implement called on values that flow from the inputs.

MindSpore resolves every name of a compiled function while it compiles, so the family reports a name
Python would only miss at run time (a typo, a forgotten import, a class-body constant read without
``self.``) and a ``self.x`` that no class of the object ever sets. Code the compiler may fold away
(under a constant ``if``, a ``for`` over a constant sequence, after a ``return``) is not reported:
seen with 2.10, an undefined name in a branch whose condition is a compile-time constant compiles.

Builtins the graph does not implement (``type``, ``repr``, ``all``, ...) are evaluated on the host
at compile time, so they are reported only when called on a variable. The graph's own list is read
from MindSpore (msgraphlint/knowledge/data/graph_builtins.toml); the ones the third-party family already
reports (sorted, set, id, ...) are left to it.

What the compiler does at each level is in msgraphlint/knowledge/rules/names.toml.
"""

from __future__ import annotations

import ast
import builtins
import re

from msgraphlint.engine.analyze import Family, FunctionContext
from msgraphlint.knowledge.catalogue import snapshot
from msgraphlint.knowledge.mindspore import NON_GRAPH_BUILTINS
from msgraphlint.model.attributes import instance_attributes
from msgraphlint.values.interpret import Known, is_known
from msgraphlint.syntax.project import ClassInfo, ModuleInfo, bound_names

# ----- data --------------------------------------------------------------------------------

_BUILTINS_SNAPSHOT = snapshot("graph_builtins")
GRAPH_BUILTINS = frozenset(_BUILTINS_SNAPSHOT["graph"])
# str() is converted by the graph (str_func), but on a tensor STRICT fails: "In JIT strict mode,
# cannot get attributes __str__ or the Tensor[Float32] object" (seen with 2.10).
GRAPH_BUILTINS_FAILING_ON_TENSORS = frozenset({"str"})
# Builtins that raise, print or stop: reported by other rules or harmless.
NOT_REPORTED_BUILTINS = frozenset({"super", "breakpoint"})
# Names a module (or, for __class__, a method) has without binding them, and builtins of other
# platforms.
IMPLICIT_NAMES = frozenset(
    {
        "__file__", "__cached__", "__path__", "__builtins__", "__annotations__", "__name__",
        "__doc__", "__spec__", "__loader__", "__package__", "__debug__", "__class__",
        "WindowsError",
    }
)
KNOWN_NAMES = frozenset(dir(builtins)) | IMPLICIT_NAMES
# Text that means names or attributes are made in ways a syntax walk cannot follow: give up.
NAME_TRICKS = ("globals()", "__builtins__", "import builtins", "sys.modules", "exec(", "vars()")
# `x.attr = ...` and `x.attr += ...`: the dot, the name and the assignment.
TERMINATORS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
_STAR_IMPORT = re.compile(r"\bimport\s*\(?\s*\*")

CLASS_ATTRIBUTE_INSTEAD = "self.%s (class attributes are not names inside methods)"
IMPORT_INSTEAD = "define or import it at module level"


class NamesFamily(Family):
    name = "names"
    parse_time_visitors = frozenset({"visit_Name"})  # names resolve while parsing (probed)

    def __init__(self) -> None:
        # Answers that read other files: kept through the scope model's memo, which replays
        # their reads for the result cache whenever they are reused (and drops them on sync).
        self._class_attrs: dict[object, tuple[frozenset[str] | None, frozenset]] = {}
        self._subclass_attrs: dict[ClassInfo, tuple[frozenset[str] | None, frozenset]] = {}

    # ----- undefined names ---------------------------------------------------------------

    def visit_Name(self, node: ast.Name, ctx: FunctionContext) -> None:
        if not isinstance(node.ctx, ast.Load) or node.id in KNOWN_NAMES:
            return
        module = ctx.module
        if node.id in ctx.values.local_names or node.id in module.imports.names or (
            node.id in module.assignments
        ):
            return  # what the project model knows already; the walks below only on a miss
        module_names = self.module_names(module)
        if module_names is None or node.id in module_names:
            return
        if node.id in self.function_names(ctx):
            return
        if self.may_be_folded_away(node, ctx):
            return
        owner = ctx.owner
        if owner is not None and node.id in owner.body_names:
            hint = CLASS_ATTRIBUTE_INSTEAD % node.id
        else:
            hint = IMPORT_INSTEAD
        ctx.report("undefined-name", node, node.id, hint)

    def module_names(self, module: ModuleInfo) -> frozenset[str] | None:
        """Names bound at module level (anywhere outside function and class bodies, and by
        `global` in functions); None when the module makes names a walk cannot see."""
        # Reads the module's text too, not only the tree: both belong to the module's source,
        # which never changes for a ModuleInfo (a new buffer makes a new ModuleInfo).
        return module.derived("names.module", module.tree, lambda tree: _module_names(module, tree))

    def function_names(self, ctx: FunctionContext) -> frozenset[str]:
        """Names bound in the compiled function (nested functions, lambdas and comprehensions
        included: flow-insensitive, never too few) and in the functions enclosing it."""
        module = ctx.module
        return module.derived(
            "names.function", ctx.function.node, lambda node: _function_names(module, node)
        )

    # ----- attributes never set ----------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute, ctx: FunctionContext) -> None:
        if not isinstance(node.ctx, ast.Load) or not ctx.is_self(node.value):
            return
        attr = node.attr
        if attr.startswith("__") and attr.endswith("__"):
            return  # object's own dunders
        classes = ctx.model.self_classes(ctx.function)
        if not classes:
            return
        known = self.class_attributes(ctx, classes)
        if known is None or attr in known:
            return
        # Only now the project-wide questions (a text scan of every file, once per run).
        later = self.subclass_attributes(ctx)
        if later is None or attr in later:
            return  # an abstract base: a subclass sets it (or cannot be read)
        if attr in ctx.model.project.externally_set(ctx.module.path):
            return  # `net.attr = ...` somewhere in the project
        if self.may_be_folded_away(node, ctx):
            return
        cls = ctx.cell or ctx.owner or classes[0]
        ctx.report("missing-attribute", node, attr, cls.name)

    def class_attributes(self, ctx: FunctionContext, classes: list[ClassInfo]) -> frozenset[str] | None:
        """Every attribute the classes of ``self`` define; None when they cannot all be read."""
        return ctx.model.memo(
            self._class_attrs, ctx.function, lambda: self.union_of_attributes(ctx, classes)
        )

    def subclass_attributes(self, ctx: FunctionContext) -> frozenset[str] | None:
        """What the project subclasses of the concrete class (not of its bases) set."""
        start = ctx.cell or ctx.owner
        if start is None:
            return frozenset()
        return ctx.model.memo(
            self._subclass_attrs,
            start,
            lambda: self.union_of_attributes(ctx, ctx.model.subclasses(start, ctx.module.path)),
        )

    def union_of_attributes(self, ctx: FunctionContext, classes: list[ClassInfo]) -> frozenset[str] | None:
        return instance_attributes(ctx.model, classes)

    # ----- builtins outside the graph ----------------------------------------------------

    def visit_Call(self, node: ast.Call, ctx: FunctionContext) -> None:
        if not isinstance(node.func, ast.Name):
            return
        qualified = ctx.qualify(node.func)
        if qualified is None or not qualified.startswith("builtins."):
            return
        name = qualified.removeprefix("builtins.")
        if name in NOT_REPORTED_BUILTINS or qualified in NON_GRAPH_BUILTINS:
            return  # the third-party family reports these (host-call-on-tensor)
        if name in GRAPH_BUILTINS and name not in GRAPH_BUILTINS_FAILING_ON_TENSORS:
            return
        if name[:1].isupper():
            return  # exceptions: raise ValueError(x) is the syntax family's business
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        definitions = self.definition_names(ctx)
        if any(
            ctx.is_variable(argument) and root_name(argument) not in definitions
            for argument in arguments
        ):
            if not self.may_be_folded_away(node, ctx):  # `if not isinstance(x, T): raise ..type(x)`
                ctx.report("non-graph-builtin", node, name)

    def definition_names(self, ctx: FunctionContext) -> frozenset[str]:
        """Names the function binds only by def, class or import: functions and modules, which
        the value model counts as unknown (so variable) but which never hold a tensor."""
        return ctx.module.derived("names.definitions", ctx.function.node, _definition_names)

    # ----- shared: code the compiler may never see ---------------------------------------

    @staticmethod
    def may_be_folded_away(node: ast.AST, ctx: FunctionContext) -> bool:
        """Under a condition, loop or short-circuit that may be a compile-time constant, after a
        return, inside try, or in an annotation: the compiler may never resolve the name there."""
        values = ctx.values
        child, parent = node, values.parent(node)
        while parent is not None:
            if isinstance(parent, (ast.If, ast.While, ast.IfExp)):
                if child is not parent.test and not runtime_condition(parent.test, ctx):
                    taken = (isinstance(parent, ast.If) and any(child is s for s in parent.body)
                             and ctx.evaluation.value(parent.test) == Known(True))
                    if not taken:  # the values known while compiling take this branch: it stays
                        return True
            elif isinstance(parent, (ast.For, ast.AsyncFor)):
                if (child is not parent.iter and not ctx.is_variable(parent.iter)
                        and not _known_not_empty(parent.iter, ctx)):
                    return True  # a loop over a constant sequence is unrolled, maybe to nothing
            elif isinstance(parent, ast.comprehension):
                if child is not parent.iter and not ctx.is_variable(parent.iter):
                    return True
            elif isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                if child not in parent.generators and not all(
                    ctx.is_variable(generator.iter) for generator in parent.generators
                ):
                    return True
            elif isinstance(parent, ast.BoolOp):
                if child is not parent.values[0]:
                    return True  # `flag and name`: the rest may be folded away
            elif isinstance(parent, (ast.Try, ast.TryStar, ast.arg)):
                return True
            elif isinstance(parent, ast.AnnAssign) and child is parent.annotation:
                return True
            elif isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and child is parent.returns:
                return True
            if isinstance(child, ast.stmt) and follows_terminator(child, parent):
                return True
            child, parent = parent, values.parent(parent)
        return False


# ----- helpers that read syntax ------------------------------------------------------------


def runtime_condition(test: ast.expr, ctx: FunctionContext) -> bool:
    """A condition certainly computed at run time: it depends on a variable through more than a
    bare name (a Python scalar input is a constant) and asks no `is`/`is not` question (which the
    compiler answers from types)."""
    if not ctx.is_variable(test):
        return False
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            return False
    bare = test.operand if isinstance(test, ast.UnaryOp) else test
    return not isinstance(bare, ast.Name)


def root_name(node: ast.expr) -> str | None:
    """The name an attribute, subscript or call chain starts from (`m` in `m.a[0].b()`)."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def follows_terminator(statement: ast.stmt, parent: ast.AST) -> bool:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and statement in block:
            before = block[: block.index(statement)]
            return any(isinstance(s, TERMINATORS) for s in before)
    return False


def _module_names(module: ModuleInfo, tree: ast.Module) -> frozenset[str] | None:
    text = module.source.text or ""
    if any(trick in text for trick in NAME_TRICKS) or (
        _STAR_IMPORT.search(text) and has_star_import(tree)
    ):
        return None
    return frozenset(scope_bindings(tree, "global" in text))


def _function_names(module: ModuleInfo, node: ast.AST) -> frozenset[str]:
    names = set(all_bindings(node))
    for enclosing in enclosing_functions(module, node):
        names.update(all_bindings(enclosing))
    return frozenset(names)


def _definition_names(node: ast.AST) -> frozenset[str]:
    defined: set[str] = set()
    other: set[str] = set()
    for inner in ast.walk(node):
        if inner is node:
            continue
        if isinstance(inner, DEFINITIONS):
            defined.update(bound_names(inner))
        elif isinstance(inner, (ast.Name, ast.arguments, ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
            other.update(bound_names(inner))
    return frozenset(defined - other)


def has_star_import(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
        for node in ast.walk(tree)
    )


def all_bindings(function: ast.AST):
    """Every name bound anywhere inside a function, its nested scopes included."""
    for node in ast.walk(function):
        yield from bound_names(node)


def scope_bindings(tree: ast.Module, has_global: bool = True):
    """Names bound in the module's own scope: outside function and class bodies (whose own names
    count), plus names any function declares ``global`` (sought only if the text says global)."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        yield from bound_names(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            for inner in ast.walk(node) if has_global else ():
                if isinstance(inner, ast.Global):
                    yield from inner.names
            continue
        pending.extend(ast.iter_child_nodes(node))


def enclosing_functions(module: ModuleInfo, node: ast.AST) -> list[ast.AST]:
    """The functions that contain ``node``, outermost first: their names are closure variables.
    (The project model's definition scopes; classes in between are no closure scope.)"""
    return [d for d in module.scope_of(node) if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _known_not_empty(iterable: ast.expr, ctx: FunctionContext) -> bool:
    """A loop over a sequence known while compiling to hold something (``range(1)``): it is
    unrolled into at least one copy of its body, which is then compiled."""
    value = ctx.evaluation.value(iterable)
    if not is_known(value):
        return False
    try:
        return len(value.value) > 0
    except TypeError:
        return False
