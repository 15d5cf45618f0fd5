"""Which targets ``--confirm`` runs, and with what: parent side, no MindSpore, no user code.

A confirmation target is something MindSpore can be asked to compile on its own: a Cell class
(its construct, with bprop exercised through the gradient) or a module-level jit function (or a
jit method of a class, called on a fresh instance). The scope model's roots are grouped into
them; each keeps the compiled functions it reaches so that a compiler error can be matched to
the function it is in.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from ..knowledge.catalogue import Level
from ..confirm_settings import DEFAULT_INPUT, ConfirmSettings
from ..engine.findings import Finding
from ..syntax.project import module_name_for, project_root_for
from ..model.compiled import Target


@dataclass
class ConfirmTarget:
    key: str  # "relative/path.py::Name", as [tool.msgraphlint.confirm.targets] names it
    label: str  # "Net", "train_step", "Trainer.step", "net.py" (a module)
    kind: str  # "cell" | "jit" | "module" (only imported: findings about the file itself)
    attr: str  # what the child looks up in the module: "Net", "step", "Trainer.step"
    path: Path  # the module that defines it
    level: Level
    level_fixed: bool  # the code sets its own level (set_jit_config, jit(fullgraph=True))
    inputs: tuple[str, ...] = ()
    init: tuple[tuple[str, object], ...] = ()
    reason: str | None = None  # why it cannot be run on its own (then it stays unverified)
    roots: list[Target] = field(default_factory=list)
    # (path, first line, last line) of every function compiled for it, for matching errors
    functions: list[tuple[Path, int, int]] = field(default_factory=list)
    result: dict | None = None  # filled in by the runner
    span: tuple[int, int] | None = None  # a Cell's class body: its class-level findings
    # How many inputs are the default guess: neither configured nor shown by the project (a
    # driver, a parent, an annotation). An error then may be the guess's, not the code's.
    guessed_inputs: int = 0
    # Defined inside a function: the code that reaches it when run with no arguments (plain
    # data for the child, see referee.reach_through), its inputs those of its first call there.
    via: dict | None = None
    compile_only: bool = False  # only whether it compiles: no second call, gradient or PyNative

    @property
    def spec(self) -> dict:
        """What the child needs (plain data, picklable)."""
        return {
            "kind": self.kind,
            "attr": self.attr,
            "level": self.level.value,
            "level_fixed": self.level_fixed,
            "inputs": list(self.inputs),
            "init": dict(self.init),
            "label": self.label,
            "via": self.via,
            "compile_only": self.compile_only,
        }


def root_key(target: Target) -> tuple[str, str, int]:
    return (target.label, os.path.realpath(target.module.path), target.node.lineno)


def finding_key(finding: Finding) -> tuple[str, str, int] | None:
    if finding.target is None or finding.target_path is None or finding.target_line is None:
        return None
    return (finding.target, os.path.realpath(finding.target_path), finding.target_line)


def _positional(node: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> tuple[int, int, bool]:
    """(required, total, takes *args) positional parameters, without self."""
    params = [*node.args.posonlyargs, *node.args.args]
    if is_method and params:
        params = params[1:]
    required = len(params) - len(node.args.defaults)
    return max(required, 0), len(params), node.args.vararg is not None


def config_key(path: Path, name: str, base: Path) -> str:
    absolute = os.path.abspath(path)
    root = os.path.abspath(base)
    relative = os.path.relpath(absolute, root) if absolute.startswith(root + os.sep) else absolute
    return f"{Path(relative).as_posix()}::{name}"


class Planner:
    def __init__(self, model, settings: ConfirmSettings, level: Level, base: Path):
        self.model = model  # the engine's ReachModel, already synced by the static run
        self.settings = settings
        self.level = level
        self.base = base  # the folder [tool.msgraphlint.confirm.targets] keys are relative to
        self.targets: dict[tuple, ConfirmTarget] = {}
        self.by_root: dict[tuple[str, str, int], ConfirmTarget] = {}
        self._added: set[int] = set()  # modules whose targets are planned

    def add_finding(self, finding: Finding, module) -> None:
        """Findings outside any compiled function: a file MindSpore cannot import is confirmed
        by importing it; a finding on a Cell class (forward-without-construct) by calling it."""
        if finding.target is not None:
            return
        real = os.path.realpath(finding.path)
        if finding.rule.evidence == "import":
            key = ("module", real)
            if key not in self.targets:
                self.targets[key] = ConfirmTarget(
                    config_key(finding.path, "<module>", self.base), Path(finding.path).name,
                    "module", "", Path(finding.path), self.level, False)
            return
        if module is None:
            return
        for cls in module.classes.values():
            last = cls.node.end_lineno or cls.node.lineno
            if cls.node.lineno <= finding.line <= last and self.model.is_cell(cls):
                key = ("cell", real, cls.name)
                if key not in self.targets:
                    located = self.model.find_method(cls, "construct")
                    self.targets[key] = self._make(cls.name, "cell", cls.name, module.path,
                                                   None, located[1] if located else None,
                                                   is_method=True, nested=False, cls=cls)
                self.targets[key].span = (cls.node.lineno, last)

    def add_module(self, module) -> None:
        if id(module) in self._added:
            return
        self._added.add(id(module))
        for root in self.model.targets(module):
            self._plan(root)

    def attach_held(self) -> None:
        """The Cells a planned Cell holds (``self.attn = Attention(w)``) and that have no target
        of their own: their findings are confirmed on the holder's compile, inside which they
        compile; nothing new is planned."""
        queue = [(target, root.cell) for target in list(self.targets.values())
                 for root in list(target.roots) if root.kind == "cell"]
        while queue:
            target, cls = queue.pop()
            for sub in self.model.cells_held(cls):
                root = self.model.construct_root(sub)
                if root is not None and root_key(root) not in self.by_root:
                    self._attach(root, target)
                    queue.append((target, sub))

    def _attach(self, root: Target, target: ConfirmTarget) -> None:
        target.roots.append(root)
        self.by_root[root_key(root)] = target
        for compiled in self.model.reach(root):
            span = (compiled.module.path, compiled.node.lineno,
                    compiled.node.end_lineno or compiled.node.lineno)
            if span not in target.functions:
                target.functions.append(span)

    def _plan(self, root: Target) -> ConfirmTarget | None:
        if (planned := self.by_root.get(root_key(root))) is not None:
            return planned
        # A sub-Cell whose inputs are what its parent passes (ints from a shape, say) is
        # compiled inside the parent, the way the parent calls it, never on its own.
        target = self._held_through(root) or self._target_for(root)
        if target is None:
            return None
        self._attach(root, target)
        return target

    def _held_through(self, root: Target) -> ConfirmTarget | None:
        """The target of the first Cell holding ``root``'s Cell, when its construct's inputs
        come from its parents (ReachModel.sub_cell_params)."""
        if root.kind != "cell" or self.model.sub_cell_params(root.cell) is None:
            return None
        for parent, _ in self.model.holders(root.cell) or ():
            for parent_root in self.model.targets(parent.module):
                if parent_root.cell is parent and parent_root.node.name == "construct":
                    return self._plan(parent_root)
        return None

    def _target_for(self, root: Target) -> ConfirmTarget | None:
        if root.kind == "cell":
            cls = root.cell
            key = ("cell", os.path.realpath(cls.module.path), cls.name)
            if key not in self.targets:
                construct = self.model.find_method(cls, "construct")
                self.targets[key] = self._make(
                    cls.name, "cell", cls.name, cls.module.path, root,
                    construct[1] if construct else None, is_method=True,
                    nested=cls.name not in cls.module.classes, cls=cls,
                )
            return self.targets[key]
        label = root.label
        if " = jit(" in label:
            attr = label.split(" = ")[0]
            nested = attr not in root.module.assignments
        elif root.cell is not None:  # a jit method: root.cell is the class that defines it
            attr = f"{root.cell.name}.{root.node.name}"
            nested = root.cell.name not in root.module.classes
        else:
            attr = root.node.name
            nested = root.module.functions.get(attr) is not root.node
        key = ("jit", os.path.realpath(root.module.path), attr)
        if key not in self.targets:
            self.targets[key] = self._make(attr, "jit", attr, root.module.path, root,
                                           root.node, is_method=root.cell is not None,
                                           nested=nested, cls=root.cell)
        return self.targets[key]

    def _make(self, label, kind, attr, path, root, node, is_method, nested,
              cls=None) -> ConfirmTarget:
        key = config_key(path, attr, self.base)
        chosen = self.settings.for_target(key)
        fixed = root.level if root is not None else None
        init = chosen.init
        if not init and cls is not None:
            # Built as the project builds it (a parent's ``Block(channels)``, a driver's
            # ``Net(3)``), unless [tool.msgraphlint.confirm.targets] says otherwise.
            init = tuple(sorted((self.model.construction_arguments(cls) or {}).items()))
        target = ConfirmTarget(key, label, kind, attr, Path(path), fixed or self.level,
                               fixed is not None, init=init)
        module = cls.module if cls is not None else root.module if root is not None else None
        if nested and module is not None and attr in module.assignments:
            nested = False  # `Net = make_net()` at module level: looked up by its name
        if nested:
            target.via, target.reason = self._via(root, cls, attr, chosen.entry)
            return target
        if node is None and root is not None:
            target.reason = "the Cell has no construct (a base class: its subclasses are compiled)"
            return target
        if node is None:  # a finding on a Cell without construct: calling it shows the error
            target.inputs = chosen.inputs if chosen.inputs is not None else (DEFAULT_INPUT,)
            target.guessed_inputs = 0 if chosen.inputs is not None else 1
            return target
        required, total, varargs = _positional(node, is_method)
        if chosen.inputs is None:
            # As the project shows them (a driver's tensors, the first layer's channels).
            shown = self.model.input_specs(root) if root is not None else ()
            target.inputs = tuple(spec or DEFAULT_INPUT for spec in shown) \
                if len(shown) == required else (DEFAULT_INPUT,) * required
            target.guessed_inputs = sum(1 for spec in shown if not spec) \
                if len(shown) == required else required
        else:
            target.inputs = chosen.inputs
            count = len(chosen.inputs)
            if count < required or (count > total and not varargs):
                where = "construct" if kind == "cell" else attr
                wanted = f"{required}" if required == total else f"{required} to {total}"
                target.reason = (f"{where} takes {wanted} input(s) but {count} are configured"
                                 f" (inputs for {key!r} in [tool.msgraphlint.confirm])")
        return target

    def for_finding(self, finding: Finding) -> ConfirmTarget | None:
        key = finding_key(finding)
        if key is not None:
            return self.by_root.get(key)
        real = os.path.realpath(finding.path)
        if finding.rule.evidence == "import":
            return self.targets.get(("module", real))
        return next((t for key, t in self.targets.items()
                     if key[:2] == ("cell", real) and t.span
                     and t.span[0] <= finding.line <= t.span[1]), None)


    def _via(self, root: Target | None, cls, attr: str, configured: str | None
             ) -> tuple[dict | None, str | None]:
        """How a Cell or jit function defined inside a function is reached (the ``via`` of its
        spec), or why it cannot be: (via, None) or (None, reason)."""
        definition = cls.node if cls is not None else root.node if root is not None else None
        module = cls.module if cls is not None else root.module if root is not None else None
        if definition is None or (cls is not None and root is not None and root.kind == "jit"):
            return None, "a jit method of a class defined inside a function: --confirm cannot" \
                " reach it on its own"
        scopes = cls.scope if cls is not None else module.scope_of(definition)
        functions = [s for s in scopes if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not functions or scopes[0] is not functions[0] \
                or module.functions.get(functions[0].name) is not functions[0]:
            where = f"defined inside {functions[-1].name}()" if functions else \
                "defined under a condition"
            return None, (f"{where}: --confirm reaches Cells and jit functions through a"
                          " module-level function; define it at module level to have it confirmed")
        outer, definer = functions[0], functions[-1]
        if configured:
            entry = self._configured_entry(configured)
        else:
            found = self.model.entry_for(module, outer)
            entry = (found[0].path, found[1]) if found is not None else None
        if entry is None:
            key = config_key(module.path, attr, self.base)
            return None, (f"defined inside {outer.name}(), which nothing in the project runs"
                          " without arguments: name a function that does (it calls"
                          f" {outer.name}(...)) as entry = \"path.py::main\" in"
                          f" [tool.msgraphlint.confirm.targets.\"{key}\"]")
        entry_path, run = entry
        spec = import_spec(entry_path)
        first_line = min([definer.lineno, *(d.lineno for d in definer.decorator_list)])
        return {
            "module": spec.name, "sys_path": list(spec.sys_path), "run": run,
            "file": os.path.realpath(module.path), "line": first_line,
            "name": cls.name if cls is not None else attr, "kind": "cell" if cls is not None else "jit",
            "shown": f"{Path(entry_path).name}::{run}",
        }, None

    def _configured_entry(self, configured: str) -> tuple[Path, str]:
        relative, _, run = configured.partition("::")
        return Path(self.base) / relative, run


@dataclass(frozen=True)
class ImportSpec:
    name: str  # the dotted name the child imports
    sys_path: tuple[str, ...]  # folders put first on the child's sys.path


def import_spec(path: Path) -> ImportSpec:
    """Import as the project would: the package's dotted name from the folder above the top
    package, with the project root on sys.path too (for absolute imports of sibling packages)."""
    dotted, _, folder = module_name_for(path)
    entries = [str(folder), str(project_root_for(path)), str(Path(path).resolve().parent)]
    return ImportSpec(dotted, tuple(dict.fromkeys(entries)))
