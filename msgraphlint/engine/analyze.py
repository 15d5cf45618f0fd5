"""The engine both front ends use: files in, findings out.

``Engine.check_file`` reads one module (or an editor's buffer), asks the reach model which of its
functions are compiled, walks each of them once, and hands every node to the rule families it was
given (checkers/, which import this module: never the other way round) that asked for its type.
The front ends reach it through msgraphlint.pipeline.
"""

from __future__ import annotations

import ast
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .cache import ResultCache, file_record
from ..knowledge.catalogue import rule as lookup_rule
from ..knowledge import api_snapshot
from ..knowledge.mindspore import RESHAPES
from ..knowledge.fallback import JitModules
from .findings import Finding
from ..values.kinds import TensorKinds, kinds_of
from ..syntax.project import (
    ClassInfo,
    ModuleInfo,
    Project,
    may_define_targets,
    module_name_for,
    walk_python_files,
)
from ..model.compiled import CompiledFunction
from ..model.reach import ReachModel
from ..values.domain import is_tensor_value
from ..values.interpret import Evaluation, evaluation, taken_error_messages
from ..syntax.source import SourceFile, SourceProblem
from .suppress import Suppressions
from ..model.variables import FunctionValues


class Family:
    """A rule family: subclasses (one per module in checkers/) define small visitors.

    ``visit_<NodeType>(self, node, ctx)`` is called for every node of that stdlib-ast type inside a
    compiled function; ``visit_cell(self, cls, ctx)`` once for every Cell class of the module;
    ``visit_module(self, module, ctx)`` once per module (for imports and decorators, which lie
    outside every compiled body); ``visit_function(self, function, ctx)`` once for every compiled
    function, before its nodes (for analyses that follow the statements in order, such as data flow).
    ``visit_host_evaluated(self, function, ctx)`` once for every @constexpr / @_primexpr helper
    that compiled code calls: MindSpore runs it in Python while compiling, so only what Python
    itself raises there is a compile error.
    """

    name: str = ""
    # The visitors (``"visit_Name"``, or "*" for all) that judge what MindSpore's parser reads, so
    # they also see the branches that type inference never evaluates (ReachModel.unevaluated_nodes).
    parse_time_visitors: frozenset[str] = frozenset()


@dataclass
class CellContext:
    """What a class-level check sees: the module and the project scope model."""

    engine: "Engine"
    module: ModuleInfo
    findings: list[Finding]

    @property
    def model(self) -> ReachModel:
        return self.engine.model

    def qualify(self, node: ast.expr) -> str | None:
        return self.module.imports.qualify(node)

    def report(self, symbol: str, node: ast.AST, *args: object, case: str = "") -> None:
        """``case``: which of the rule's cases (catalogue) this code is, when the rule has them."""
        self.findings.append(self.engine.make_finding(self.module, symbol, node, args, case=case))


@dataclass
class FunctionContext(CellContext):
    """What a node-level check sees: the compiled function it is in and how it is reached."""

    function: CompiledFunction = None  # type: ignore[assignment]

    @property
    def owner(self) -> ClassInfo | None:
        return self.function.owner

    @property
    def cell(self) -> ClassInfo | None:
        """The Cell whose graph this is (the target's), for methods; None for jit functions."""
        return self.function.target.cell

    @property
    def values(self) -> FunctionValues:
        return self.model.values(self.function)

    @cached_property
    def evaluation(self) -> Evaluation:
        """The compile-time values of this function (the interpreter's, cached by the model)."""
        return evaluation(self.model, self.function)

    @cached_property
    def unevaluated(self) -> frozenset[int]:
        """ids of the nodes type inference never evaluates, though the parser reads them: the
        branches the model decides (``ReachModel.unevaluated_nodes``) and those the
        compile-time values decide (``Evaluation.skipped``); all of a function every call of
        which is in such a branch. The one answer for every family."""
        if self.function.parsed_only:
            return frozenset(id(node) for node in self.module.body_nodes(self.function.node))
        found = self.model.unevaluated_nodes(self.function) | self.evaluation.skipped
        return found - self.taken_messages if self.taken_messages else frozenset(found)

    @cached_property
    def taken_messages(self) -> frozenset[int]:
        """The nodes of the error messages whose raise the known values take
        (``interpret.taken_error_messages``): judged as compiled code after all."""
        return taken_error_messages(self.model, self.function)

    @cached_property
    def kinds(self) -> TensorKinds:
        """Which expressions of this function are tensors, and which may hold several elements."""
        return kinds_of(self.model, self.function)

    def rank(self, node: ast.expr) -> int | None:
        """How many dimensions a tensor expression has, where the compile-time values show it,
        or where a reshape of a tensor names its new shape (``x.view(n, t, 1, -1)``: four)."""
        value = self.evaluation.value(node)
        if is_tensor_value(value) and value.rank is not None:
            return value.rank
        if not (node.__class__ is ast.Call and node.func.__class__ is ast.Attribute
                and node.func.attr in RESHAPES and node.args and not node.keywords):
            return None
        sizes = node.args[0].elts if (
            len(node.args) == 1 and node.args[0].__class__ in (ast.Tuple, ast.List)) else node.args
        if any(size.__class__ in (ast.Starred, ast.Tuple, ast.List) for size in sizes):
            return None
        if len(sizes) == 1 and not _is_int_literal(sizes[0]):
            return None  # x.view(ms.float32) reinterprets the dtype
        return len(sizes) if self.kinds.is_tensor(node.func.value) else None

    def is_variable(self, node: ast.expr | None) -> bool:
        """Whether the value is decided only when the graph runs (``Evaluation.is_variable``)."""
        return self.evaluation.is_variable(node, self.values)

    def is_host(self, node: ast.expr | None) -> bool:
        """Whether the value is a host copy of a graph variable (``Evaluation.is_host``)."""
        return self.evaluation.is_host(node, self.values)

    def is_self(self, node: ast.expr) -> bool:
        return self.values.is_self(node)

    def returns_to_python(self, node: ast.Return) -> bool:
        """Whether the value of this return goes back to Python (not into a parent graph): not
        for a sub-Cell, whose every use is as an attribute of other Cells (ReachModel.holders)."""
        return self.model.returns_to_python(node, self.function)

    def report(self, symbol: str, node: ast.AST, *args: object, case: str = "") -> None:
        self.findings.append(
            self.engine.make_finding(self.module, symbol, node, args, self.function, case)
        )


def _is_int_literal(node: ast.expr) -> bool:
    if node.__class__ is ast.UnaryOp and node.op.__class__ is ast.USub:
        node = node.operand
    return node.__class__ is ast.Constant and node.value.__class__ is int


@dataclass
class CheckRun:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    checked: list[Path] = field(default_factory=list)  # every file below the paths, once each
    internal_errors: list[str] = field(default_factory=list)
    # For the result cache: per checked file, and per module whose targets were reached.
    records: dict[str, dict] = field(default_factory=dict)
    unit_reads: dict[str, frozenset] = field(default_factory=dict)


DEEP_STACK_BYTES = 512 * 1024 * 1024
DEEP_RECURSION_LIMIT = 200_000


def check_deeply(check: Callable, path: Path, raw: bytes | None) -> list[Finding]:
    """``check(path, raw)`` in a thread with a large stack and recursion limit: what a file that
    parses (Python's parser stops near a thousand levels) needs at most."""
    result: list = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.extend(check(path, raw))
        except BaseException as error:  # noqa: BLE001 - handed back to the caller's thread
            failure.append(error)

    old_size, old_limit = threading.stack_size(), sys.getrecursionlimit()
    threading.stack_size(DEEP_STACK_BYTES)
    sys.setrecursionlimit(DEEP_RECURSION_LIMIT)
    try:
        worker = threading.Thread(target=work, name="msgraphlint-deep")
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if failure:
        raise failure[0]
    return result


def char_column(line_text: str, byte_offset: int) -> int:
    """ast columns count UTF-8 bytes; editors and SARIF count characters."""
    if line_text.isascii():
        return byte_offset
    return len(line_text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))


@dataclass
class Engine:
    families: list[Family]  # the rule families (msgraphlint.pipeline.new_engine gives every one)
    project: Project = field(default_factory=Project)
    cache: ResultCache | None = None  # whole-path runs only; editors' buffers are never cached
    # which modules MindSpore compiles and which it calls through JIT Fallback
    jit_modules: JitModules = field(default_factory=JitModules.from_settings)
    # the MindSpore release whose API calls are bound against (api_snapshot.resolve_version)
    target_version: str | None = None  # None: api_snapshot.default_version()
    # Gives each finding its fix (msgraphlint.fix.attach, handed in by the pipeline: the engine
    # does not import the fixers). Called where the file is parsed, in the process that checked
    # it, so that the report's process never parses a file again for its fixes.
    fixer: Callable[[list[Finding], Project], list[Finding]] | None = None

    def __post_init__(self) -> None:
        self.target_version = api_snapshot.resolve_version(self.target_version)
        self.model = ReachModel(self.project)
        self.model.target_version = self.target_version  # MindSpore's own classes' attributes
        self._handlers: dict[type, list[Callable]] = defaultdict(list)
        self._parse_time_handlers: dict[type, list[Callable]] = defaultdict(list)
        self._cell_checks: list[Callable] = []
        self._module_checks: list[Callable] = []
        self._function_checks: list[Callable] = []
        self._host_evaluated_checks: list[Callable] = []
        for family in self.families:
            for attr in dir(family):
                if attr == "visit_cell":
                    self._cell_checks.append(getattr(family, attr))
                elif attr == "visit_module":
                    self._module_checks.append(getattr(family, attr))
                elif attr == "visit_function":
                    self._function_checks.append(getattr(family, attr))
                elif attr == "visit_host_evaluated":
                    self._host_evaluated_checks.append(getattr(family, attr))
                elif attr.startswith("visit_"):
                    node_type = getattr(ast, attr[len("visit_") :], None)
                    if isinstance(node_type, type):
                        self._handlers[node_type].append(getattr(family, attr))
                        if attr in family.parse_time_visitors or "*" in family.parse_time_visitors:
                            self._parse_time_handlers[node_type].append(getattr(family, attr))

    # ----- front-end entry points ---------------------------------------------------------

    def check_paths(
        self,
        paths: Iterable[Path],
        excluded: Callable[[Path], bool] = lambda path: False,
        raw: dict[Path, bytes] | None = None,
        jobs: int = 1,
        progress: Callable[[int, int], None] | None = None,
    ) -> CheckRun:
        """Check every Python file below ``paths``; one file's crash never hides the others.

        With ``jobs`` > 1 and enough files, that many processes share the files
        (``check_in_processes``); the findings come back in the same order. ``progress`` is told
        (files done, files in all) as the files are taken.
        """
        listed: dict[Path, list[Path]] = {}
        unreadable: list[tuple[Path, str]] = []
        files = self.files_below(paths, excluded, raw, listed, unreadable)
        cached: dict[Path, list[Finding]] = {}
        if self.cache is not None and not raw:
            self.cache.open(self.project, f"{self.jit_modules.key()}|{self.target_version}", listed)
            for path in files:
                if (findings := self.cache.lookup(path, self.project)) is not None:
                    cached[path] = findings
        to_check = [path for path in files if path not in cached]
        record = self.cache is not None and not raw
        done = (lambda count: progress(len(cached) + count, len(files))) if progress else None
        if jobs > 1 and not raw and len(to_check) >= MIN_FILES_PER_JOB * 2:
            families = [type(family) for family in self.families]
            run = check_in_processes(to_check, jobs, families, self.project, record, done,
                                     self.jit_modules, self.target_version, self.fixer)
        else:
            run = self.check_files(to_check, raw, record, done)
        if record:
            self.cache.store(run.records, run.unit_reads)
            self.cache.save()
        for findings in cached.values():
            run.findings.extend(findings)
        run.files += len(cached)
        run.checked = files
        run.findings.extend(self.unreadable_finding(path, why) for path, why in unreadable)
        run.findings.sort(key=Finding.sort_key)
        return run

    def files_below(
        self,
        paths: Iterable[Path],
        excluded: Callable[[Path], bool],
        raw: dict[Path, bytes] | None = None,
        listed: dict[Path, list[Path]] | None = None,
        unreadable: list[tuple[Path, str]] | None = None,
    ) -> list[Path]:
        """The files to check, each once however it was named (links, overlapping folders).
        ``listed`` is given every folder walked (resolved), with all its files (before
        exclusions, as the walk names them); ``unreadable``, the folders and files the walk
        could not read, with why (not excluded ones)."""
        files: list[Path] = []
        for path in paths:
            if raw and path in raw:
                files.append(path)
                continue
            self.project.add_project_of(path)
            problems: list[tuple[Path, str]] = []
            found = walk_python_files(path, problems)
            if listed is not None and os.path.isdir(path):
                listed[path.resolve()] = found
            files.extend(f for f in found if not excluded(f))
            if unreadable is not None:
                unreadable.extend(problem for problem in problems if not excluded(problem[0]))
        unique = {self.project.real_path(path): path for path in reversed(files)}
        files = list(reversed(unique.values()))
        folders_done: set[Path] = set()
        for path in files:
            real = self.project.real_path(path)
            # Every file's package root up front: module lookups then give the same answer
            # whatever order (and whichever process) the files are checked in. The root
            # depends on the folder only (one climb per folder, not per file).
            if real.parent not in folders_done:
                folders_done.add(real.parent)
                self.project.add_root(module_name_for(real)[2])
        return files

    def check_files(
        self, files: Iterable[Path], raw: dict[Path, bytes] | None = None, record: bool = False,
        done: Callable[[int], None] | None = None,
    ) -> CheckRun:
        """Check files one by one; with ``record``, keep what each file's findings were computed
        from (``run.records``) for the result cache; ``done`` is told how many are checked."""
        run = CheckRun()
        with collector_paused():
            self._check_each(files, raw, record, run, done)
        if record:
            run.unit_reads = dict(self.model.unit_reads)
        return run

    def _check_each(
        self, files: Iterable[Path], raw: dict[Path, bytes] | None, record: bool, run: CheckRun,
        done: Callable[[int], None] | None,
    ) -> None:
        for path in files:
            if done is not None:
                done(run.files)
            run.files += 1
            try:
                try:
                    self._check_one(path, raw, record, run, self.check_file)
                except RecursionError:
                    # Deeply nested code that Python parses: analyse it again on a deeper stack.
                    self._check_one(path, raw, record, run,
                                    lambda p, r=None: check_deeply(self.check_file, p, r))
            except RecursionError:
                run.internal_errors.append(f"{path}: too deeply nested to analyse")
            except Exception as error:  # noqa: BLE001 - reported, and the run goes on
                run.internal_errors.append(f"{path}: {type(error).__name__}: {error} (please report)")

    def _check_one(self, path: Path, raw: dict[Path, bytes] | None, record: bool, run: CheckRun,
                   check: Callable) -> None:
        """One file's findings into ``run``; with ``record``, what they were computed from."""
        if not record:
            run.findings.extend(check(path, (raw or {}).get(path)))
            return
        with self.project.reads.recording() as read:
            findings = check(path)
        digest = self.project.source(path).digest
        run.records[os.path.abspath(path)] = file_record(digest, findings, read)
        run.findings.extend(findings)

    def may_hold_graph_code(self, path: Path, raw: bytes) -> bool:
        """A cheap text test: a file that can define no compiled root can only hold compiled code
        as a helper some other project file imports."""
        if may_define_targets(raw):
            return True
        self.project.add_project_of(path)
        return bool(self.project.importers_of(path))

    def check_file(self, path: Path, raw: bytes | None = None) -> list[Finding]:
        """Findings for one file; ``raw`` replaces its content (an editor's unsaved buffer)."""
        self.project.add_project_of(path)
        source = self.project.source(path, raw)
        findings = [self._problem_finding(source, problem) for problem in source.problems]
        module = self.project.module(path) if source.tree is not None else None
        if module is not None:
            findings.extend(self._check_module(module))
            if findings:
                suppressions = Suppressions(source.text or "")
                findings = [suppressions.apply(f) for f in findings]
                if self.fixer is not None:
                    findings = self.fixer(findings, self.project)
        return findings

    # ----- walking ------------------------------------------------------------------------

    def _check_module(self, module: ModuleInfo) -> list[Finding]:
        findings: list[Finding] = []
        self.model.sync()
        if self._cell_checks or self._module_checks:
            context = CellContext(self, module, findings)
            for module_check in self._module_checks:
                module_check(module, context)
            for cls in self.model.cells(module):
                for check in self._cell_checks:
                    check(cls, context)
        for compiled in self.model.compiled_functions(module):
            context = FunctionContext(self, module, findings, compiled)
            for function_check in self._function_checks:
                function_check(compiled.node, context)
            handlers, parse_time = self._handlers, self._parse_time_handlers
            dead = self.model.dead_nodes(compiled)  # branches the parser drops are not compiled
            if context.taken_messages:
                dead = dead - context.taken_messages
            unevaluated = context.unevaluated  # parsed, never evaluated
            for node in module.body_nodes(compiled.node):
                if id(node) in dead:
                    continue
                table = parse_time if id(node) in unevaluated else handlers
                for handler in table.get(type(node), ()):
                    handler(node, context)
        if self._host_evaluated_checks:
            for helper in self.model.host_evaluated_functions(module):
                context = FunctionContext(self, module, findings, helper)
                for host_check in self._host_evaluated_checks:
                    host_check(helper.node, context)
        return findings

    # ----- making findings ----------------------------------------------------------------

    def make_finding(
        self,
        module: ModuleInfo,
        symbol: str,
        node: ast.AST,
        args: tuple,
        compiled: CompiledFunction | None = None,
        case: str = "",
    ) -> Finding:
        rule = lookup_rule(symbol)
        lines = module.source.lines
        line = getattr(node, "lineno", 1)
        end_line = getattr(node, "end_lineno", None) or line
        column = char_column(lines[line - 1], getattr(node, "col_offset", 0)) if lines else 0
        end_offset = getattr(node, "end_col_offset", None)
        end_column = (
            char_column(lines[end_line - 1], end_offset)
            if lines and end_offset is not None
            else column
        )
        template = rule.template_for(case)
        message = template % args if args else template
        target = compiled.target if compiled else None
        reached = compiled.reached_from if compiled else None
        if reached:
            message = f"{message} ({reached})"
        return Finding(
            path=module.path,
            rule_id=rule.id,
            message=message,
            line=line,
            column=column + 1,
            end_line=end_line,
            end_column=end_column + 1,
            reached_from=reached,
            target=target.label if target else None,
            target_line=target.node.lineno if target else None,
            target_path=target.module.path if target else None,
            level_override=target.level if target else None,
            advice_only=bool(target and target.bytecode),
            args=args,
            case=case,
        )

    def unreadable_finding(self, path: Path, why: str) -> Finding:
        """A path the walk could not read, named so that a run never passes over it silently."""
        problem = SourceProblem("unreadable-file", 1, 0, why)
        source = SourceFile(Path(os.path.abspath(path)), None, None, [problem])  # as files are
        return self._problem_finding(source, problem)

    def _problem_finding(self, source: SourceFile, problem) -> Finding:
        rule = lookup_rule(problem.symbol)
        return Finding(
            path=source.path,
            rule_id=rule.id,
            message=rule.template % (problem.detail,),
            line=problem.line,
            column=problem.column + 1,
            end_line=problem.line,
            end_column=problem.column + 1,
            args=(problem.detail,),
        )


# Whether this process's first batch has ended (and froze what it built); pool workers start
# afresh, whatever the process that forked them did.
_first_batch_done = False


@contextmanager
def collector_paused():
    """Python's cycle collector off while a batch of files is checked: every collection of the
    oldest generation walks all the syntax trees kept for the run (millions of nodes, none of
    them garbage), which cost about a third of a whole-project run. The analysis makes next to no
    reference cycles; the collector is back on, as it was, afterwards.

    The first batch of a process (the CLI's only one) ends by freezing what it built, which lives
    as long as the run. A process that analyses again (the language server, --fix passes) must get
    its memory back: frozen objects are never collected, and each batch would freeze the garbage
    of the buffers it replaced. So a later batch hands the first's objects back and freezes
    nothing; the collector, back on, frees what the edits left behind as it goes."""
    global _first_batch_done
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not _first_batch_done:
            # Out of the collector's sight, or the first allocation after re-enabling it would
            # walk all of it (about a second on the model suites, in every process).
            gc.freeze()
            _first_batch_done = True
        else:
            gc.unfreeze()
        if was_enabled:
            gc.enable()


def _forget_batches() -> None:
    global _first_batch_done
    _first_batch_done = False


os.register_at_fork(after_in_child=_forget_batches)


# Below this many files per process, starting the processes costs more than it saves.
MIN_FILES_PER_JOB = 32


def check_in_processes(
    files: list[Path], jobs: int, family_types: list[type], project: Project, record: bool = False,
    done: Callable[[int], None] | None = None, jit_modules: JitModules | None = None,
    target_version: str | None = None, fixer: Callable | None = None,
) -> CheckRun:
    """Check ``files`` in ``jobs`` fresh processes (``check_paths`` sorts the merged findings).

    Each process starts on its own slice, whole packages where there are enough of them, else a
    contiguous run (neighbours share imports, so each parses little of the others' closures);
    one that runs out takes files from the end of the slice with the most left, so an uneven
    split (one slice's importers cost more to reach) costs no waiting. The report does not
    depend on who checked what: a file's findings come from its own importer closure.
    (Measured: parsing and reaching everything once, then forking children that share it, was
    slower: copy-on-write touched most pages.)

    Each process starts from the same project roots as this one, so that it looks up modules
    and importers exactly where a single process would.
    """
    slices = package_slices(files, jobs)
    files = [path for chunk in slices for path in chunk]
    roots = (list(project.roots), list(project.scan_roots))
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    count = len(slices)
    bounds, start = [], 0
    for chunk in slices:
        bounds += [start, start + len(chunk)]
        start += len(chunk)
    try:
        queue = context.Array("q", bounds)
        with ProcessPoolExecutor(
            max_workers=count, mp_context=context, initializer=_start_worker,
            initargs=(queue, os.getpid()),
        ) as pool, _watching(queue, len(files), done), _workers_end_with_this_process():
            parts = list(
                pool.map(_check_from_queue, [family_types] * count, [roots] * count,
                         [files] * count, range(count), [record] * count, [jit_modules] * count,
                         [target_version] * count, [fixer] * count)
            )
    except (BrokenProcessPool, OSError):  # a process died or could not start: one process, then
        parts = [_check_slice(family_types, roots, files, record, jit_modules, target_version,
                              fixer)]
    return merged_runs(parts)


@contextmanager
def _watching(queue, total: int, done: Callable[[int], None] | None):
    """Tell ``done`` how many files the processes have taken, from their shared queue, four times
    a second (the processes themselves report nothing until they finish)."""
    if done is None:
        yield
        return
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.25):
            with queue.get_lock():
                left = sum(queue[2 * k + 1] - queue[2 * k] for k in range(len(queue) // 2))
            done(total - left)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        stop.set()
        watcher.join()


def merged_runs(parts: list[CheckRun]) -> CheckRun:
    merged = CheckRun()
    for part in parts:
        merged.findings.extend(part.findings)
        merged.files += part.files
        merged.internal_errors.extend(part.internal_errors)
        merged.records.update(part.records)
        merged.unit_reads.update(part.unit_reads)
    return merged


def package_slices(files: list[Path], count: int) -> list[list[Path]]:
    """``count`` slices of ``files`` that keep each top-level package in one slice, the largest
    packages first to the slice with the fewest bytes so far. A file's importers are mostly in
    its own package, and a process that checks part of a package parses and reaches most of the
    rest of it too (measured on the model suites: split packages cost a second of duplicated
    work). With fewer packages than slices: ``balanced_slices``."""
    groups: dict[tuple[Path, str], list[Path]] = {}
    for path in files:
        name, is_package, root = module_name_for(path)
        # a module outside any package goes with its folder's other scripts
        top = name.partition(".")[0] if "." in name or is_package else ""
        groups.setdefault((root, top), []).append(path)
    if len(groups) < count:
        return balanced_slices(files, count)
    sizes = dict(zip(files, _file_sizes(files)))
    weight = {key: sum(sizes[path] for path in members) for key, members in groups.items()}
    slices: list[list[Path]] = [[] for _ in range(count)]
    loads = [0] * count
    for key in sorted(groups, key=lambda key: (-weight[key], key)):
        lightest = loads.index(min(loads))
        slices[lightest].extend(groups[key])
        loads[lightest] += weight[key]
    return [chunk for chunk in slices if chunk]


def _file_sizes(files: list[Path]) -> list[int]:
    sizes = []
    for path in files:
        try:
            sizes.append(path.stat().st_size + 1)
        except OSError:
            sizes.append(1)
    return sizes


def balanced_slices(files: list[Path], count: int) -> list[list[Path]]:
    """``count`` contiguous runs of ``files`` with about the same number of bytes each."""
    sizes = _file_sizes(files)
    total, slices, current, filled = sum(sizes), [], [], 0
    for path, size in zip(files, sizes):
        current.append(path)
        filled += size
        if filled >= total * (len(slices) + 1) / count and len(slices) < count - 1:
            slices.append(current)
            current = []
    slices.append(current)
    return [chunk for chunk in slices if chunk]


def _check_slice(
    family_types: list[type], roots: tuple[list[Path], list[Path]], files: Iterable[Path],
    record: bool = False, jit_modules: JitModules | None = None, target_version: str | None = None,
    fixer: Callable | None = None,
) -> CheckRun:
    search, scan = roots
    project = Project(roots=list(search), scan_roots=list(scan))
    engine = Engine(families=[family_type() for family_type in family_types], project=project,
                    jit_modules=jit_modules or JitModules.from_settings(),
                    target_version=target_version or api_snapshot.default_version(), fixer=fixer)
    # Kept alive: freeing its syntax trees one by one would delay the result (the process pool's
    # workers end with os._exit and never pay for it).
    _WORKER_ENGINES.append(engine)
    return engine.check_files(files, record=record)


# The shared work queue of a process pool: [start, end) of the files left in each slice.
_QUEUE = None


def _start_worker(queue, parent: int) -> None:
    """A pool worker: the shared queue, and an end when its parent ends."""
    global _QUEUE
    _QUEUE = queue
    for number in (signal.SIGTERM, signal.SIGHUP):  # the parent's handlers came with the fork
        signal.signal(number, signal.SIG_DFL)
    end_with_parent(parent)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def end_with_parent(parent: int) -> None:
    """End this worker when its parent is gone, even by SIGKILL, which no handler sees: its
    results would have nowhere to go, and writing them would block for ever (the --jobs workers,
    and --confirm's children, whose fork server ends with msgraphlint). Linux sends the
    signal itself (PR_SET_PDEATHSIG); elsewhere a thread looks twice a second."""
    if sys.platform.startswith("linux"):
        try:
            asked = ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0
        except (OSError, AttributeError):
            asked = False
        if asked:
            if os.getppid() != parent:  # gone before the request was made
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="msgraphlint-parent-watch", daemon=True).start()


@contextmanager
def _workers_end_with_this_process():
    """The pool's workers end when this process is told to end (SIGTERM, SIGHUP) or stops on an
    error or Ctrl-C: left alone they would check their slices for nobody, or block for ever
    writing results nobody reads. Then the signal ends this process as it would have."""
    before = set(multiprocessing.active_children())

    def end_workers() -> None:
        for worker in set(multiprocessing.active_children()) - before:
            worker.kill()

    def on_signal(number: int, frame) -> None:
        end_workers()
        signal.signal(number, previous.pop(number) or signal.SIG_DFL)
        os.kill(os.getpid(), number)

    previous = {}
    if threading.current_thread() is threading.main_thread():  # where Python allows handlers
        for number in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(number) is not signal.SIG_IGN:
                previous[number] = signal.signal(number, on_signal)
    try:
        yield
    except BaseException:
        end_workers()
        raise
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler or signal.SIG_DFL)


def _check_from_queue(
    family_types: list[type], roots: tuple[list[Path], list[Path]], files: list[Path],
    own: int, record: bool, jit_modules: JitModules | None = None, target_version: str | None = None,
    fixer: Callable | None = None,
) -> CheckRun:
    return _check_slice(family_types, roots, (files[i] for i in _queued(own)), record, jit_modules,
                        target_version, fixer)


def _queued(own: int) -> Iterator[int]:
    """Indices of the files to check: from the front of slice ``own``, then stolen from the back
    of whichever slice has the most left."""
    bounds = _QUEUE
    while True:
        with bounds.get_lock():
            if bounds[2 * own] < bounds[2 * own + 1]:
                index = bounds[2 * own]
                bounds[2 * own] += 1
            else:
                left = [bounds[2 * k + 1] - bounds[2 * k] for k in range(len(bounds) // 2)]
                victim = max(range(len(left)), key=left.__getitem__)
                if left[victim] <= 0:
                    return
                bounds[2 * victim + 1] -= 1
                index = bounds[2 * victim + 1]
        yield index


_WORKER_ENGINES: list[Engine] = []
