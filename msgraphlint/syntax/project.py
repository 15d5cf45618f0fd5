"""The project's files as modules: names, parsed trees, import tables, and who imports whom.

Only the stdlib ``ast`` is used here: parsing with it costs a tenth of building astroid trees, and
everything the scope model asks (qualified names, classes, calls) is answered from the syntax.
"""

from __future__ import annotations

import ast
import os
import re
import stat
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from contextlib import contextmanager
from functools import lru_cache, cached_property
from pathlib import Path

from ..knowledge.mindspore import (
    ATTRIBUTE_SETTING_METHODS, PARAMETER_CLASSES, STATIC_PRIMITIVES, TENSOR_CLASSES,
)
from .qualnames import ImportTable, resolve_relative
from .source import (
    SourceFile, begins_line, content_digest, decode, line_before, matches_where, os_error_reason,
    read_source, split_lines,
)

SKIPPED_DIRS = frozenset(
    {
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        "venv",
        "env",
        "htmlcov",
    }
)
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
# `import a`, `from .x import (\n a,\n b)` and backslash continuations: the names that follow,
# where only blanks or `from <module>` come before `import` on its line (_import_statements).
_IMPORT = re.compile(rb"import[ \t]+(\([^)]*\)|(?:[^#\n\\]|\\\r?\n)+)")
_FROM_PREFIX = re.compile(rb"[ \t]*from[ \t]+([.\w]+)[ \t]+")

_IMPORT_ALIAS = re.compile(r"\bas(?:[ \t]|\\\r?\n)+\w+")
_LINE_COMMENT = re.compile(r"#[^\n]*")

# Text that any file defining a Cell or a jit function must contain.
GRAPH_MARKERS = (b"mindspore", b"jit", b"Cell", b"construct")
_CLASS_WITH_BASES = re.compile(rb"class[ \t]+\w+[ \t]*\([ \t]*[A-Za-z_]")  # where it begins a line


def is_skipped_dir(name: str) -> bool:
    return name.startswith(".") or name in SKIPPED_DIRS or name.endswith(".egg-info")


def walk_python_files(root: Path, unreadable: list[tuple[Path, str]] | None = None) -> list[Path]:
    """*.py files below root, skipping hidden folders, virtual environments and build output.

    A folder that cannot be read (permissions, a vanished mount) is left out and the walk goes
    on: ``unreadable`` is given (the path, why) for each, for a caller that reports them."""
    problems = unreadable if unreadable is not None else []

    def unlisted(folder: str, error: OSError) -> None:
        reason = f"{os_error_reason(error)}; it is a folder, and nothing in it was checked"
        problems.append((Path(folder), reason))

    try:
        mode = os.stat(root).st_mode
    except OSError as error:
        problems.append((root, os_error_reason(error)))
        return []
    if not stat.S_ISDIR(mode):
        return [root] if stat.S_ISREG(mode) else []
    found: list[Path] = []
    for folder, dirs, files in os.walk(root, onerror=lambda error: unlisted(error.filename, error)):
        kept = []
        for name in sorted(dirs):
            below = os.path.join(folder, name)
            if is_skipped_dir(name) or os.path.islink(below):  # os.walk follows no links
                continue
            try:
                os.stat(os.path.join(below, "pyvenv.cfg"))  # a virtual environment
            except FileNotFoundError:
                kept.append(name)
            except OSError as error:
                unlisted(below, error)
        dirs[:] = kept
        found.extend(Path(folder, f) for f in sorted(files) if f.endswith((".py", ".pyi")))
    return found


def resolve_path(path: Path) -> Path:
    """``path.resolve()``, except that a symbolic link loop stays unresolved instead of raising
    (Python 3.11's pathlib raises RuntimeError): reading the path then reports the loop."""
    return Path(os.path.realpath(path))


@lru_cache(maxsize=65536)
def module_name_for(path: Path) -> tuple[str, bool, Path]:
    """(dotted module name, is a package, the folder the name is relative to); cached like
    ``_package_of``: the importer and caller searches ask it of the same files again and again,
    and resolving a path is a syscall per folder."""
    path = resolve_path(path)
    is_package = path.stem == "__init__"
    package, root = _package_of(path.parent)
    parts = [*package, *([] if is_package else [path.stem])]
    return ".".join(parts), is_package, root


@lru_cache(maxsize=4096)
def _package_of(folder: Path) -> tuple[tuple[str, ...], Path]:
    """(the package names from the root down to ``folder``, the root): one climb per folder for
    the run, not one per file and question (importer lookups ask it of every importer)."""
    if not os.path.exists(folder / "__init__.py") or folder.parent == folder:
        return (), folder
    above, root = _package_of(folder.parent)
    return (*above, folder.name), root


def project_root_for(path: Path) -> Path:
    """The nearest folder with a project marker; never above a Python installation: checking
    the standard library or an installed package must not scan every Python on the machine
    (pyenv keeps them all under one git checkout)."""
    path = resolve_path(path)
    # os.path's tests, not Path's: a folder we may not read is no project, never an error
    start = path if os.path.isdir(path) else path.parent
    for folder in (start, *start.parents):
        if any(os.path.exists(folder / marker) for marker in PROJECT_MARKERS):
            return folder
        if is_installation_boundary(folder):
            return start
    return start


def is_installation_boundary(folder: Path) -> bool:
    """site-packages, a virtual environment, or a standard library folder (lib/python3.X)."""
    return (
        folder.name in ("site-packages", "dist-packages")
        or os.path.exists(folder / "pyvenv.cfg")
        or (folder.parent.name in ("lib", "lib64") and re.fullmatch(r"python\d[\d.]*", folder.name) is not None)
    )


def may_define_targets(raw: bytes) -> bool:
    """A cheap text test: a module can define a compiled root only if it names MindSpore, a Cell,
    jit or construct, or defines a class with bases (a subclass of a project Cell inherits its
    construct). Other modules are only followed through the import index, never parsed."""
    return (any(marker in raw for marker in GRAPH_MARKERS)
            or next(matches_where(_CLASS_WITH_BASES, raw, begins_line), None) is not None)


def imported_modules(raw: bytes, package: str, folder: Path | None = None) -> set[str]:
    """The dotted names of the modules a file's import lines can bind names from, relative
    imports resolved against the file's ``package``. ``import a.b`` binds ``a``, so ``a`` and
    ``a.b`` both count; ``from a.b import c`` binds only ``c``, from ``a.b`` or the submodule
    ``a.b.c``, never anything of ``a``. A relative import that climbs above the top package (a
    namespace package, a folder without ``__init__.py``) is named from the file's ``folder``:
    ``from .act import f`` in ``common/layer.py`` is ``common.act``, not every module ``act``."""
    depth = len(package.split(".")) if package else 0
    modules: set[str] = set()
    for from_module, imported in _import_statements(raw):
        # `import a.b as c` binds c from a.b: the alias names no module, nor does a comment
        names = imported.decode("utf-8", "replace")
        names = _IMPORT_ALIAS.sub("", _LINE_COMMENT.sub("", names))
        if from_module is None:
            for dotted in re.findall(r"[A-Za-z_][\w.]*", names):
                parts = dotted.strip(".").split(".")
                modules.update(".".join(parts[: cut + 1]) for cut in range(len(parts)))
            continue
        source = from_module.decode("utf-8", "replace")
        rest = source.lstrip(".")
        if dots := len(source) - len(rest):
            if dots <= depth:
                source = resolve_relative(package, True, dots, rest)
            else:
                # Above the top package: the folder the dots climb to names it, when it can be a
                # name; else the suffix match of importer_paths finds it by what remains.
                anchor = ""
                if folder is not None and dots - 1 < len(folder.parents):
                    climbed = folder.parents[dots - 2] if dots > 1 else folder
                    anchor = climbed.name if climbed.name.isidentifier() else ""
                source = ".".join(part for part in (anchor, rest) if part)
        bound = re.findall(r"[A-Za-z_]\w*", names)
        if not source:  # `from . import x` in a folder that cannot be a name: x by itself
            modules.update(bound)
            continue
        modules.add(source)
        modules.update(f"{source}.{name}" for name in bound)
    return modules


def _import_statements(raw: bytes) -> Iterator[tuple[bytes | None, bytes]]:
    """(the module after `from`, or None for `import`; the text naming what is imported) for
    each import statement that begins its line, found from the literal `import`."""
    def begins_statement(text: bytes, start: int) -> bool:
        return (begins_line(text, start)
                or _FROM_PREFIX.fullmatch(line_before(text, start)) is not None)

    for match in matches_where(_IMPORT, raw, begins_statement):
        from_prefix = _FROM_PREFIX.fullmatch(line_before(raw, match.start()))
        yield (from_prefix.group(1) if from_prefix else None), match.group(1)


def is_static_primitive(qualified: str | None) -> bool:
    """``mindspore.ops.Shape``, ``mindspore.ops.operations.Shape``, ... (seen: constant at STRICT
    and LAX with MindSpore 2.10, docs/audit.md)."""
    if qualified is None or not qualified.startswith("mindspore.ops."):
        return False
    return qualified.rsplit(".", 1)[-1] in STATIC_PRIMITIVES


@dataclass(eq=False)
class ClassInfo:
    module: "ModuleInfo"
    node: ast.ClassDef
    # The functions and classes the definition sits in, outermost first: () at module level.
    # A class defined in a function (a test body, a factory, main()) is compiled all the same.
    scope: tuple[ast.AST, ...] = ()

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def label(self) -> str:
        return self.node.name

    @cached_property
    def methods(self) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        return {
            stmt.name: stmt
            for stmt in self.node.body
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        }

    @cached_property
    def base_names(self) -> list[str]:
        return [q for base in self.node.bases if (q := self.module.imports.qualify(base))]

    @cached_property
    def method_self_assignments(self) -> dict[str, list[tuple[str, ast.expr]]]:
        """Per method: (attr, value) for ``self.attr = value``, ``self.attr += value`` and
        ``self.a, self.b = value``. One walk per class, shared by every rule that asks what an
        attribute holds or which methods change the object."""
        found: dict[str, list[tuple[str, ast.expr]]] = {}
        for name, method in self.methods.items():
            params = [*method.args.posonlyargs, *method.args.args]
            # `construct(ctx, x)`: ctx is an input in GRAPH_MODE, so `ctx.a = v` sets nothing.
            self_name = params[0].arg if params and not construct_without_self(method) else None
            pairs: list[tuple[str, ast.expr]] = []
            for node in statements_in(method.body) if self_name else ():
                if isinstance(node, ast.Assign):
                    targets, value = node.targets, node.value
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                    targets, value = [node.target], node.value
                else:
                    continue
                for target in targets:
                    for element in flatten_targets(target):
                        if (
                            isinstance(element, ast.Attribute)
                            and isinstance(element.value, ast.Name)
                            and element.value.id == self_name
                        ):
                            pairs.append((element.attr, value))
            found[name] = pairs
        return found

    @cached_property
    def body_names(self) -> frozenset[str]:
        """Names the class body binds (attributes of the class), looking into if/try/with
        blocks but not into methods."""
        names: set[str] = set()
        pending: list[ast.AST] = list(self.node.body)
        while pending:
            node = pending.pop()
            names.update(bound_names(node))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            pending.extend(ast.iter_child_nodes(node))
        return frozenset(names)

    @cached_property
    def self_assignments(self) -> dict[str, list[ast.expr]]:
        """attr -> every value assigned to ``self.attr`` in any method of this class."""
        assigned: dict[str, list[ast.expr]] = {}
        for pairs in self.method_self_assignments.values():
            for attr, value in pairs:
                assigned.setdefault(attr, []).append(value)
        return assigned

    @cached_property
    def parameter_attrs(self) -> frozenset[str]:
        """Attributes this class assigns a ``Parameter(...)`` to."""
        return frozenset(
            attr
            for attr, values in self.self_assignments.items()
            if any(
                isinstance(v, ast.Call) and self.module.imports.qualify(v.func) in PARAMETER_CLASSES
                for v in values
            )
        )

    @cached_property
    def checked_tensor_attrs(self) -> frozenset[str]:
        """Attributes that hold an ``__init__`` argument checked to be a Tensor or a Parameter
        (or None): a statement that calls a check with the argument and nothing but those
        classes and strings (``check_param_type(v, "v", data_type=Parameter)``), or ``if not
        isinstance(v, Tensor): raise``. Read shapes alone do not say it: numpy arrays have them."""
        init = self.methods.get("__init__")
        if init is None:
            return frozenset()
        checked = {name for node in self.module.nodes(init)
                   if (name := _tensor_check_subject(node, self.module))}
        return frozenset(
            attr for attr, values in self.self_assignments.items()
            if any(isinstance(v, ast.Name) and v.id in checked for v in values)
            and all((isinstance(v, ast.Name) and v.id in checked)
                    or (isinstance(v, ast.Constant) and v.value is None) for v in values)
        )

    @cached_property
    def static_primitive_attrs(self) -> frozenset[str]:
        """Attributes that only ever hold a primitive whose output is a compile-time constant
        (``self.shape = ops.Shape()``): ``self.shape(x)`` is then a constant tuple, like
        ``x.shape``, not a sub-Cell's tensor output."""
        return frozenset(
            attr
            for attr, values in self.self_assignments.items()
            if all(
                isinstance(v, ast.Call) and is_static_primitive(self.module.imports.qualify(v.func))
                for v in values
            )
        )

    @cached_property
    def decorator_names(self) -> list[str]:
        names = []
        for decorator in self.node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            if qualified := self.module.imports.qualify(target):
                names.append(qualified)
        return names


def bound_names(node: ast.AST):
    """Names one node binds (not descending)."""
    match node:
        case ast.Name(id=name, ctx=ast.Store() | ast.Del()):
            yield name
        case ast.Import(names=aliases) | ast.ImportFrom(names=aliases):
            for alias in aliases:
                yield (alias.asname or alias.name).split(".")[0]
        case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name) | ast.ClassDef(name=name):
            yield name
        case ast.ExceptHandler(name=name) if name:
            yield name
        case ast.MatchAs(name=name) | ast.MatchStar(name=name) if name:
            yield name
        case ast.MatchMapping(rest=name) if name:
            yield name
        case ast.Global(names=names) | ast.Nonlocal(names=names):
            yield from names
        case ast.arguments():
            every = [*node.posonlyargs, *node.args, *node.kwonlyargs, node.vararg, node.kwarg]
            yield from (arg.arg for arg in every if arg is not None)


def construct_without_self(method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`construct(ctx, x)` (a torch.autograd.Function port): GRAPH_MODE binds the first input to
    ctx, not the Cell (probed, 2.10)."""
    params = [*method.args.posonlyargs, *method.args.args]
    return method.name == "construct" and bool(params) and params[0].arg != "self"


# Field types of Python's grammar that never hold a node; expr_context is Load/Store/Del, shared
# singletons (a third of all nodes) asked of no one.
_LEAF_FIELD_TYPES = frozenset({"identifier", "string", "int", "constant", "expr_context"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(node_class: type) -> tuple[str, ...]:
    """The fields of a node class that can hold nodes, from the grammar line Python gives as its
    docstring (``Name(identifier id, expr_context ctx)``); every field but ``ctx`` where that
    line cannot be read."""
    fields = _CHILD_FIELDS.get(node_class)
    if fields is None:
        signature = re.fullmatch(r"\w+\((.*)\)", (node_class.__doc__ or "").strip())
        types = dict(reversed(part.strip().rsplit(" ", 1)) for part in signature.group(1).split(",")
                     if " " in part.strip()) if signature else {}
        fields = _CHILD_FIELDS[node_class] = tuple(
            name for name in node_class._fields
            if name != "ctx" and types.get(name, "").rstrip("*?") not in _LEAF_FIELD_TYPES)
    return fields


def preorder(roots: list[ast.AST]) -> list[ast.AST]:
    """Every node under ``roots``, parents before children, in source order.

    About twice as fast as ``ast.walk`` (no generator per node, and only the fields that can
    hold nodes), and the result is kept per function: the scope model, the value model and every
    rule family walk the same bodies.
    """
    found: list[ast.AST] = []
    stack = list(reversed(roots))
    pop, push, extend, add = stack.pop, stack.append, stack.extend, found.append
    node_type, child_fields, known = ast.AST, _child_fields, _CHILD_FIELDS
    while stack:
        node = pop()
        add(node)
        fields = known.get(node.__class__)
        for name in fields if fields is not None else child_fields(node.__class__):
            value = getattr(node, name, None)
            if value.__class__ is list:
                if value:
                    extend([item for item in reversed(value) if isinstance(item, node_type)])
            elif isinstance(value, node_type):
                push(value)
    return found


def parent_map(root: ast.AST) -> dict[int, ast.AST]:
    """id(child) -> parent under ``root``; the same walk as ``preorder``, without generators."""
    parents: dict[int, ast.AST] = {}
    stack = [root]
    node_type, child_fields, known = ast.AST, _child_fields, _CHILD_FIELDS
    while stack:
        node = stack.pop()
        fields = known.get(node.__class__)
        for name in fields if fields is not None else child_fields(node.__class__):
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, node_type):
                        parents[id(item)] = node
                        stack.append(item)
            elif isinstance(value, node_type):
                parents[id(value)] = node
                stack.append(value)
    return parents


@dataclass(eq=False)
class ModuleInfo:
    source: SourceFile
    name: str
    is_package: bool
    # (kind, id(node)) -> an answer derived from that node's syntax alone, kept with the tree
    _derived: dict[tuple[str, int], object] = field(default_factory=dict, repr=False)

    @property
    def path(self) -> Path:
        return self.source.path

    @property
    def tree(self) -> ast.Module:
        assert self.source.tree is not None
        return self.source.tree

    def derived(self, kind: str, node: ast.AST, compute):
        """Cache ``compute(node)`` for this module's tree (the tree lives as long as the module)."""
        key = (kind, id(node))
        if key not in self._derived:
            self._derived[key] = compute(node)
        return self._derived[key]

    def nodes(self, node: ast.AST) -> list[ast.AST]:
        """The node and everything under it, parents first (cached). A function's list reuses
        its body's walk from ``body_nodes`` (both are asked of every compiled function), in
        ``preorder``'s own order: returns, decorators, body, arguments."""
        if node.__class__ in FUNCTION_NODES:
            return self.derived("nodes", node, lambda f: [
                f, *preorder([f.returns] if f.returns else []), *preorder(f.decorator_list),
                *self.body_nodes(f), *preorder([f.args])])
        if node.__class__ is ast.ClassDef:  # its methods' walks are shared the same way
            return self.derived("nodes", node, lambda c: [
                c, *preorder(c.decorator_list), *(n for stmt in c.body for n in self.nodes(stmt)),
                *preorder(c.keywords), *preorder(c.bases)])
        return self.derived("nodes", node, lambda n: preorder([n]))

    def parents(self, node: ast.AST) -> dict[int, ast.AST]:
        """id(child) -> parent for everything under ``node`` (cached)."""
        return self.derived("parents", node, parent_map)

    def body_nodes(self, function: ast.AST) -> list[ast.AST]:
        """Everything under a function's body statements, without its decorators and defaults."""
        return self.derived("body", function, lambda f: preorder(f.body))

    @cached_property
    def imports(self) -> ImportTable:
        return ImportTable(self.tree, self.name, self.is_package)

    @cached_property
    def classes(self) -> dict[str, ClassInfo]:
        return {
            stmt.name: ClassInfo(self, stmt)
            for stmt in _module_level(self.tree.body)
            if isinstance(stmt, ast.ClassDef)
        }

    @cached_property
    def nested_classes(self) -> list[ClassInfo]:
        """Classes defined inside functions or other classes, in source order. Most modules have
        none, and the text says so without a walk."""
        if next(matches_where(_INDENTED_CLASS, self.source.text or "", _begins_indented_line),
                None) is None:
            return []
        module_level = {id(cls.node) for cls in self.classes.values()}
        found = [
            ClassInfo(self, node, scope)
            for node, scope in self.definition_scopes.values()
            if isinstance(node, ast.ClassDef) and id(node) not in module_level
        ]
        return sorted(found, key=lambda cls: (cls.node.lineno, cls.node.col_offset))

    @cached_property
    def definition_scopes(self) -> dict[int, tuple[ast.AST, tuple[ast.AST, ...]]]:
        """id(def or class) -> (the definition, the definitions it sits in, outermost first), for
        every definition in the module. Walks statements only: definitions are statements."""
        found: dict[int, tuple[ast.AST, tuple[ast.AST, ...]]] = {}
        pending: list[tuple[list[ast.stmt], tuple[ast.AST, ...]]] = [(self.tree.body, ())]
        while pending:
            body, scope = pending.pop()
            for stmt in body:
                inner = scope
                if isinstance(stmt, DEFINITION_STATEMENTS):
                    found[id(stmt)] = (stmt, scope)
                    inner = (*scope, stmt)
                pending.extend((block, inner) for block in statement_blocks(stmt))
        return found

    def scope_of(self, definition: ast.AST) -> tuple[ast.AST, ...]:
        """The definitions ``definition`` sits in, outermost first (() at module level)."""
        known = self.top_level_scopes.get(id(definition))
        if known is not None:
            return known  # module functions and methods of module classes: no statement walk
        entry = self.definition_scopes.get(id(definition))
        return entry[1] if entry else ()

    @cached_property
    def top_level_scopes(self) -> dict[int, tuple[ast.AST, ...]]:
        scopes: dict[int, tuple[ast.AST, ...]] = {id(f): () for f in self.functions.values()}
        for cls in self.classes.values():
            if cls.node in self.tree.body:
                scopes.update((id(method), (cls.node,)) for method in cls.methods.values())
        return scopes

    def local_definitions(self, scope: ast.AST) -> dict[str, ast.AST]:
        """name -> the def or class statement a function body binds it to (last one wins), not
        looking into nested definitions: what a closure sees of that function."""
        def collect(function: ast.AST) -> dict[str, ast.AST]:
            found: dict[str, ast.AST] = {}
            inside = self._definitions_by_scope().get(id(function), [])
            for node in sorted(inside, key=lambda n: (n.lineno, n.col_offset)):  # the last wins
                found[node.name] = node
            return found
        return self.derived("local definitions", scope, collect)

    def _definitions_by_scope(self) -> dict[int, list[ast.AST]]:
        """id(innermost enclosing definition) -> the definitions directly in it, once per module
        (a scan of every definition per scope asked grew with definitions x scopes)."""
        def collect(_) -> dict[int, list[ast.AST]]:
            found: dict[int, list[ast.AST]] = {}
            for node, enclosing in self.definition_scopes.values():
                if enclosing:
                    found.setdefault(id(enclosing[-1]), []).append(node)
            return found
        return self.derived("definitions by scope", self.tree, collect)

    def class_info(self, node: ast.ClassDef) -> ClassInfo | None:
        """The ClassInfo of a class statement anywhere in the module (one object per class)."""
        for cls in self.classes.values():
            if cls.node is node:
                return cls
        return next((cls for cls in self.nested_classes if cls.node is node), None)

    def visible_definition(self, name: str, scope: tuple[ast.AST, ...]) -> ast.AST | None:
        """The def or class a name means inside ``scope`` (closures first, innermost out), or
        None when no enclosing function defines it (module level is the import table's)."""
        for enclosing in reversed(scope):
            if isinstance(enclosing, ast.ClassDef):
                continue  # class bodies are no closure scope
            if (found := self.local_definitions(enclosing).get(name)) is not None:
                return found
        return None

    @cached_property
    def assignments(self) -> dict[str, list[ast.expr]]:
        """Module-level ``name = value`` statements: name -> values."""
        assigned: dict[str, list[ast.expr]] = {}
        for stmt in _module_level(self.tree.body):
            if isinstance(stmt, ast.Assign):
                targets, value = stmt.targets, stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                targets, value = [stmt.target], stmt.value
            else:
                continue
            for target in targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(value)
        return assigned

    @cached_property
    def unpacked_assignments(self) -> dict[str, list[ast.expr]]:
        """Module-level ``A, B = 1, 2`` statements, element by element: name -> values (what
        ``assignments`` leaves out)."""
        assigned: dict[str, list[ast.expr]] = {}
        for stmt in _module_level(self.tree.body):
            if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Tuple)):
                continue
            for target in stmt.targets:
                if isinstance(target, ast.Tuple) and len(target.elts) == len(stmt.value.elts):
                    for name, value in zip(target.elts, stmt.value.elts):
                        if isinstance(name, ast.Name):
                            assigned.setdefault(name.id, []).append(value)
        return assigned

    @cached_property
    def functions(self) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        return {
            stmt.name: stmt
            for stmt in _module_level(self.tree.body)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
        }


DEFINITION_STATEMENTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef)
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def statements_in(roots: list[ast.stmt]) -> list[ast.stmt]:
    """Every statement in ``roots`` and under them (nested definitions' too), in the order
    ``preorder`` meets them, from a walk of the statement lists alone: no expression holds a
    statement."""
    found: list[ast.stmt] = []
    stack = list(reversed(roots))
    statement = ast.stmt
    while stack:
        node = stack.pop()
        if isinstance(node, statement):
            found.append(node)
        for name in node._fields:
            if name in _BLOCK_FIELDS:  # handlers and cases hold excepthandler/match_case nodes
                stack.extend(reversed(getattr(node, name)))
    return found


def statement_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists directly inside a statement: bodies, else and finally blocks, except
    handlers and match cases (a walk of statements, not of every expression)."""
    blocks = [block for name in ("body", "orelse", "finalbody") if (block := getattr(stmt, name, None))]
    blocks.extend(handler.body for handler in getattr(stmt, "handlers", ()))
    blocks.extend(case.body for case in getattr(stmt, "cases", ()))
    return blocks

_INDENTED_CLASS = re.compile(r"class[ \t]+\w")  # where it begins an indented line


def _begins_indented_line(text: str, start: int) -> bool:
    return begins_line(text, start) and text[start - 1 : start] in (" ", "\t")


def flatten_targets(target: ast.expr):
    """The elements of an assignment target, through tuple and list unpacking."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from flatten_targets(element)
    else:
        yield target


def _module_level(body: list[ast.stmt]):
    """Module-level statements, looking inside `if`/`try` blocks (version guards, fallbacks)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _module_level(stmt.body)
            yield from _module_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            yield from _module_level(stmt.body)
            for handler in stmt.handlers:  # `except ImportError:` fallback definitions
                yield from _module_level(handler.body)
            yield from _module_level(stmt.orelse)


class ReadLog:
    """What an answer was computed from, for the result cache: files read, module lookups and
    importer queries. Recording is off unless a cache asks for it; open recordings nest, and an
    inner one's reads count for the outer ones too."""

    def __init__(self) -> None:
        self._open: list[set[tuple]] = []

    @property
    def active(self) -> bool:
        return bool(self._open)

    def note(self, item: tuple) -> None:
        if self._open:
            self._open[-1].add(item)

    def note_all(self, items: frozenset[tuple]) -> None:
        if self._open and items:
            self._open[-1].update(items)

    @contextmanager
    def recording(self, merge: bool = True):
        """Collect the reads of a computation; ``merge=False`` keeps them out of the enclosing
        recordings (for a unit the enclosing one refers to by name instead)."""
        reads: set[tuple] = set()
        self._open.append(reads)
        try:
            yield reads
        finally:
            self._open.pop()
            if merge and self._open:
                self._open[-1].update(reads)


@dataclass
class Project:
    """Loads modules on demand and caches them; the one place files are read."""

    roots: list[Path] = field(default_factory=list)  # where dotted module names are looked up
    scan_roots: list[Path] = field(default_factory=list)  # where importers of a module are sought
    _modules: dict[Path, ModuleInfo | None] = field(default_factory=dict)
    _sources: dict[Path, SourceFile] = field(default_factory=dict)
    _import_index: dict[Path, dict[str, set[tuple[str, Path]]]] = field(default_factory=dict)
    _found: dict[tuple[str, int], Path | None] = field(default_factory=dict)
    generation: int = 0  # bumped when a loaded module's content is replaced
    _resolved: dict[Path, Path] = field(default_factory=dict)
    _project_roots: dict[Path, Path] = field(default_factory=dict)
    _listings: dict[str, frozenset[str]] = field(default_factory=dict)
    _importers: dict[tuple[Path, int], list[Path]] = field(default_factory=dict)
    reads: ReadLog = field(default_factory=ReadLog)
    _text_scans: dict[Path, "ProjectText"] = field(default_factory=dict)
    _external_sets: dict[tuple, frozenset[str]] = field(default_factory=dict)
    _raw_read: dict[Path, tuple[bytes, tuple]] = field(default_factory=dict)  # for mentions()
    # Files' bytes as read from disk (None: unreadable), by the path as given: the text scan, the
    # import index, mentions() and the parse each read a file once. reread() forgets them all.
    _disk: dict[Path, bytes | None] = field(default_factory=dict)
    _pattern_found: dict[tuple[Path, bytes], bool] = field(default_factory=dict)

    def text_scans(self, near: Path) -> list["ProjectText"]:
        """Text scans of the projects being checked (or of ``near``'s folder when none is): what
        a question about the whole project reads, noted for the result cache."""
        roots = outermost(list(self.scan_roots) or [near.parent])
        for root in roots:
            if root not in self._text_scans:
                self._text_scans[root] = scan_project(root, self._disk_bytes, self.real_path)
        scans = [self._text_scans[root] for root in roots]
        for scan in scans:  # the answer depends on every file scanned
            self.reads.note_all(scan.reads)
        return scans

    def externally_set(self, near: Path) -> frozenset[str]:
        """Attribute names assigned on a receiver other than ``self`` anywhere in the projects
        being checked (`net.scale = 2` in a training script)."""
        scans = self.text_scans(near)  # notes the reads, also when the union is cached
        key = tuple(id(scan) for scan in scans)
        if key not in self._external_sets:
            self._external_sets[key] = frozenset().union(*(scan.external_sets for scan in scans))
        return self._external_sets[key]

    def external_setters(self, attr: str, near: Path) -> list[Path]:
        """The files of the projects being checked that set ``attr`` on a receiver other than
        ``self`` (what ``externally_set`` joins), in a stable order."""
        return sorted({path for scan in self.text_scans(near)
                       for path in scan.external_set_files.get(attr, ())})

    def may_name(self, path: Path, module: ModuleInfo) -> bool:
        """Whether the file at ``path`` can name what ``module`` defines: it sits in the
        module's top-level package, or its text names that package (an import of it). A
        subclass of one of its classes, or a caller holding one of its objects, is in such a
        file; the others need no parsing."""
        real, own = self.real_path(path), self.real_path(module.path)
        if real == own:
            return True
        package, root = _package_of(own.parent)
        if not package:  # a module outside any package
            return real in self.importer_paths(own)
        if root / package[0] in real.parents:
            return True
        if not self.mentions(path, package[0].encode()):
            return False  # most files: a substring test, before the line-anchored pattern
        top = re.escape(package[0].encode())
        # `from pkg.sub import X`, `import pkg.sub as s`, `import os, pkg`: an import statement
        return self.mentions_pattern(
            path, rb"(?m)^[ \t]*(?:from[ \t]+" + top + rb"\b|import[ \t]+(?:[^\n#]*[ ,])?" + top + rb"\b)")

    def project_files(self, near: Path) -> list[Path]:
        """Every Python file of the projects being checked."""
        return [path for scan in self.text_scans(near) for path in scan.files]

    def add_root(self, root: Path) -> None:
        root = root.resolve()
        if root not in self.roots:
            self.roots.append(root)

    def add_project_of(self, path: Path) -> None:
        """Search and scan the project (nearest pyproject.toml, setup.py or .git) holding path."""
        folder = path if os.path.isdir(path) else path.parent
        if folder not in self._project_roots:  # one climb per folder, not per file
            self._project_roots[folder] = project_root_for(folder)
        root = self._project_roots[folder]
        if any(root == scanned or scanned in root.parents for scanned in self.scan_roots):
            # Already searched and scanned: without a project marker a file's own folder would
            # count as its project, and every folder below a checked one would be scanned again.
            return
        self.add_root(root)
        self.scan_roots.append(root)

    def real_path(self, path: Path) -> Path:
        """The real location of a path. Resolving is a syscall per component: each folder is
        resolved once (through this cache), and a file is its real folder and its name unless
        it is a link itself (one lstat)."""
        found = self._resolved.get(path)
        if found is None:
            parent = path.parent
            if parent == path or path.name in ("", ".", "..") or os.path.islink(path):
                found = resolve_path(path)
            else:
                found = self.real_path(parent) / path.name
            self._resolved[path] = found
        return found

    def source(self, path: Path, raw: bytes | None = None) -> SourceFile:
        """Cached by real location; the SourceFile keeps the path as given (a link's own name).

        ``raw`` (an editor's buffer, or pylint's copy of the file) replaces the cached content
        only when it differs; then ``generation`` moves on so that derived caches are dropped.
        """
        key = self.real_path(path)
        cached = self._sources.get(key)
        if cached is not None and (raw is None or content_digest(raw) == cached.digest):
            return cached
        self._sources[key] = read_source(Path(os.path.abspath(path)),
                                         raw if raw is not None else self._disk_bytes(path))
        if raw is not None:  # what mentions() looks at is the buffer too
            self._raw_read[key] = (raw, ("file", str(key), self._sources[key].digest.hex()))
            self._pattern_found.clear()
        if key in self._modules:
            del self._modules[key]
            self.generation += 1
        return self._sources[key]

    def reread(self, paths: Iterable[Path]) -> None:
        """Files changed on disk behind a long-lived analysis (an editor's other files): read them
        again where their content changed, and forget what was read from the whole project on
        disk (who imports whom, the text scans, folder listings), which any change can move."""
        self._disk.clear()
        for path in paths:
            key = self.real_path(path)
            self._raw_read.pop(key, None)
            if key in self._sources:
                self.source(path, self.raw(path))
        for derived in (self._import_index, self._importers, self._text_scans, self._external_sets,
                        self._listings, self._found, self._project_roots, self._pattern_found):
            derived.clear()
        _package_of.cache_clear()  # an __init__.py added or removed makes or unmakes a package
        module_name_for.cache_clear()
        self.generation += 1

    def lines(self, path: Path) -> list[str]:
        """A file's lines as the analysis read them (an editor's buffer included), without
        parsing a file that was not analysed here (cached results, other processes)."""
        cached = self._sources.get(self.real_path(path))
        if cached is not None:
            return cached.lines
        text, _ = decode(self.raw(path))
        return split_lines(text or "")

    def module(self, path: Path, raw: bytes | None = None) -> ModuleInfo | None:
        """The parsed module at ``path`` (None if it cannot be parsed)."""
        key = self.real_path(path)
        source = self.source(path, raw)
        if self.reads.active:
            self.reads.note(("file", str(key), source.digest.hex()))
        if key not in self._modules:
            info = None
            if source.tree is not None:
                name, is_package, base = module_name_for(key)
                self.add_root(base)
                info = ModuleInfo(source, name, is_package)
            self._modules[key] = info
        return self._modules[key]

    def find_module(self, dotted: str) -> ModuleInfo | None:
        """A project module by dotted name, searched under every root."""
        if not dotted:
            return None
        path = self.locate(dotted)
        if self.reads.active:
            self.reads.note(("lookup", dotted, str(path) if path else ""))
        return self.module(path) if path is not None else None

    def locate(self, dotted: str) -> Path | None:
        """Where a dotted module name is found under the roots, without reading it."""
        key = (dotted, len(self.roots))  # a new root can make a missing module findable
        if key not in self._found:
            self._found[key] = None
            *folders, last = dotted.split(".")
            for root in self.roots:
                folder = os.path.join(root, *folders)
                entries = self._listing(folder)
                if last + ".py" in entries:
                    self._found[key] = Path(folder, last + ".py")
                    break
                if last in entries and "__init__.py" in self._listing(os.path.join(folder, last)):
                    self._found[key] = Path(folder, last, "__init__.py")
                    break
        return self._found[key]

    def _listing(self, folder: str) -> frozenset[str]:
        """A folder's entries, read once: module lookups probe the same folders thousands of times."""
        if folder not in self._listings:
            try:
                self._listings[folder] = frozenset(os.listdir(folder))
            except OSError:
                self._listings[folder] = frozenset()
        return self._listings[folder]

    def resolve(self, qualified: str) -> tuple[ModuleInfo, str] | None:
        """Split ``pkg.mod.Name`` into the project module that defines it and ``Name``."""
        parts = qualified.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self.find_module(".".join(parts[:cut]))
            if module is not None:
                return module, ".".join(parts[cut:])
        return None

    def _index_for(self, root: Path) -> dict[str, set[tuple[str, Path]]]:
        """Every module name the files below ``root`` import, read as text (cheap): its last
        component -> (the dotted name, the importing file)."""
        if root not in self._import_index:
            index: dict[str, set[tuple[str, Path]]] = defaultdict(set)
            packages: dict[Path, str] = {}  # folder -> its dotted package name
            for path in walk_python_files(root):
                raw = self._disk_bytes(path)
                if raw is None or b"import" not in raw:
                    continue
                resolved = self.real_path(path)
                if resolved.parent not in packages:
                    name, is_package, _ = module_name_for(resolved)
                    packages[resolved.parent] = name if is_package else name.rpartition(".")[0]
                for module in imported_modules(raw, packages[resolved.parent], resolved.parent):
                    index[module.rpartition(".")[2]].add((module, resolved))
            self._import_index[root] = index
        return self._import_index[root]

    def importers_of(self, path: Path) -> list[Path]:
        """Project files whose imports name the module at ``path`` (a superset; callers check
        names), without reading them beyond the import index."""
        own = self.real_path(path)
        paths = self.importer_paths(own)
        if self.reads.active:
            self.reads.note(("importers", str(own), tuple(str(found) for found in paths)))
        return [found for found in paths if found != own]

    def loaded(self, path: Path) -> ModuleInfo | None:
        """The module at ``path`` if it has been read already (an editor's buffer included)."""
        return self._modules.get(self.real_path(path))

    def mentions(self, path: Path, word: bytes) -> bool:
        """Whether the file's bytes contain ``word``: a look before parsing it, noted for the
        result cache like any read."""
        return word in self._noted_raw(path)[1]

    def mentions_pattern(self, path: Path, pattern: bytes) -> bool:
        """Whether the file's bytes match the regular expression ``pattern`` (``mentions``'s
        read, noted the same way; the answer kept per file and pattern)."""
        real, raw = self._noted_raw(path)
        key = (real, pattern)
        if key not in self._pattern_found:
            self._pattern_found[key] = re.search(pattern, raw) is not None
        return self._pattern_found[key]

    def _noted_raw(self, path: Path) -> tuple[Path, bytes]:
        """The file's real path and bytes, read once, and the read noted for the result cache."""
        real = self.real_path(path)
        if real not in self._raw_read:
            raw = self.raw(path)
            self._raw_read[real] = (raw, ("file", str(real), content_digest(raw).hex()))
        raw, read = self._raw_read[real]
        if self.reads.active:
            self.reads.note(read)
        return real, raw

    def raw(self, path: Path) -> bytes:
        """The file's bytes on disk (empty when it cannot be read)."""
        return self._disk_bytes(path) or b""

    def _disk_bytes(self, path: Path) -> bytes | None:
        if path not in self._disk:
            try:
                self._disk[path] = path.read_bytes()
            except OSError:
                self._disk[path] = None
        return self._disk[path]

    def importer_paths(self, path: Path) -> list[Path]:
        """Files whose imports name the module at ``path`` (resolved), in a stable order (cached
        per file). An imported name matches when it ends the module's dotted name, or the folders
        above it and then its name: code that puts a subfolder on ``sys.path`` imports
        ``models.x`` for ``pkg.models.x``, and a namespace package's module ``layer`` is imported
        as ``pkg.common.layer`` (but not as ``mindspore.nn.layer``)."""
        key = (path, len(self.scan_roots))
        if key not in self._importers:
            module, _, root = module_name_for(path)
            found: set[Path] = set()
            if module:
                dotted = module.split(".")
                full = [*root.parts, *dotted]
                for scan_root in self.scan_roots:
                    for imported, importer in self._index_for(scan_root).get(full[-1], ()):
                        given = imported.split(".")
                        if given != full[-len(given):]:
                            continue
                        if (len(given) < len(dotted) and given[0] in sys.stdlib_module_names
                                and importer.parent != Path(*full[:-len(given)])):
                            # `import random` is the standard library's, not pkg.utils.random,
                            # unless the importer sits beside it (a script's own folder comes
                            # first on sys.path)
                            continue
                        found.add(importer)
            self._importers[key] = sorted(found, key=os.fspath)
        return self._importers[key]


# ----- what a text scan of a whole project tells ------------------------------------------------

# Possessive (*+): a name not followed by `=` never matches a shorter part of itself, and
# backing off one character at a time at every attribute read tripled the time of the scan.
_DOT_ASSIGN = re.compile(rb"\.[ \t]*+([A-Za-z_]\w*+)[ \t]*+(?:[-+*/@%&|^]|//|>>|<<|\*\*)?=(?!=)")


def outermost(roots: list[Path]) -> list[Path]:
    """The roots not inside another one (a folder without project markers is a root of its
    own; its files are already below the enclosing root)."""
    return [root for root in roots if not any(other != root and other in root.parents for other in roots)]


_CLASS_LINE = re.compile(rb"class[ \t]+\w+[ \t]*\(([^)]*)\)")  # where it begins a line


@dataclass
class ProjectText:
    """What a text scan of a project's files tells (no parsing): attribute names assigned on a
    receiver other than ``self`` (`net.scale = 2`), and which files define classes deriving from
    a given name."""

    external_set_files: dict[str, set[Path]]  # attribute name -> the files that set it so
    subclass_files: dict[str, set[Path]]
    reads: frozenset[tuple] = frozenset()  # ("file", path, digest) of every file scanned
    files: tuple[Path, ...] = ()  # in the order walked

    @property
    def external_sets(self) -> frozenset[str]:
        return frozenset(self.external_set_files)


def scan_project(root: Path, read: Callable[[Path], bytes | None],
                 real: Callable[[Path], Path]) -> ProjectText:
    """One text pass over every Python file below ``root``: ``read`` gives a file's bytes (None
    when it cannot be read), ``real`` its real location (the project's, which resolves each
    folder once)."""
    set_files: dict[str, set[Path]] = {}
    subclass_files: dict[str, set[Path]] = {}
    reads: set[tuple] = set()
    files: list[Path] = []
    for path in walk_python_files(root):
        raw = read(path)
        if raw is None:
            continue
        files.append(path)
        reads.add(("file", str(real(path)), content_digest(raw).hex()))
        for name in external_sets(raw):
            set_files.setdefault(name, set()).add(path)
        for match in matches_where(_CLASS_LINE, raw, begins_line):
            for word in re.findall(rb"[A-Za-z_]\w*", match.group(1)):
                subclass_files.setdefault(word.decode(), set()).add(path)
    return ProjectText(set_files, subclass_files, frozenset(reads), tuple(files))


_SETTING_CALL = re.compile(
    rb"\.(?:" + b"|".join(m.encode() for m in ATTRIBUTE_SETTING_METHODS) + rb")\s*\(([^)]*)\)")
_KEYWORD = re.compile(rb"(?:^|[(,])\s*([A-Za-z_]\w*)\s*=(?!=)")


def external_sets(raw: bytes) -> set[str]:
    """Names in `receiver.name = ...` where the receiver is not `self` (a regex anchored on the
    dot, then a look back at the receiver: much cheaper than matching the receiver first), and
    the keywords of a Cell method that sets attributes (`net.add_flags_recursive(flag=True)`,
    which sets it on every sub-Cell too)."""
    found: set[str] = set()
    if b"add_flags" in raw:
        for call in _SETTING_CALL.finditer(raw):
            found.update(name.decode() for name in _KEYWORD.findall(call.group(1)))
    for match in _DOT_ASSIGN.finditer(raw):
        before = raw[max(0, match.start() - 6) : match.start()].rstrip()
        if before.endswith(b"self") and not before[-5:-4].isalnum() and before[-5:-4] != b"_":
            continue
        if before[-1:].isalnum() or before[-1:] in (b"_", b")", b"]"):
            found.add(match.group(1).decode())
    return found


def _tensor_check_subject(node: ast.AST, module: "ModuleInfo") -> str | None:
    """The name a type check in ``node`` requires to be a Tensor or a Parameter, if it is one."""
    if isinstance(node, ast.If) and any(isinstance(s, ast.Raise) for s in node.body):
        test = node.test
        if (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
                and isinstance(call := test.operand, ast.Call) and len(call.args) == 2
                and module.imports.qualify(call.func) == "builtins.isinstance"
                and isinstance(call.args[0], ast.Name)
                and _only_tensor_classes(call.args[1], module)):
            return call.args[0].id
        return None
    if not (isinstance(node, ast.Expr) and isinstance(call := node.value, ast.Call)):
        return None
    arguments = [*call.args, *(k.value for k in call.keywords)]
    names = [a for a in arguments if isinstance(a, ast.Name) and not _only_tensor_classes(a, module)]
    rest = [a for a in arguments if a not in names]
    if len(names) != 1 or not any(_only_tensor_classes(a, module) for a in rest):
        return None
    if all(_only_tensor_classes(a, module) or (isinstance(a, ast.Constant) and isinstance(a.value, str))
           for a in rest):
        return names[0].id
    return None


def _only_tensor_classes(node: ast.expr, module: "ModuleInfo") -> bool:
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(_only_tensor_classes(e, module) for e in node.elts)
    return module.imports.qualify(node) in TENSOR_CLASSES
