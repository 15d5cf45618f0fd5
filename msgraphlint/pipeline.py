"""The one pipeline every front end runs: analyse, select, fix, fingerprint, baseline, confirm.

The CLI, the pylint plugin and the tests call it; none of them strings the stages together
itself. Each stage takes findings and gives findings (a finding carries its own fingerprint), so
what a front end shows is exactly what the stages made. Problems a user can act on (a bad
baseline, --confirm without MindSpore) are :class:`PipelineError`: the CLI exits 2 with the
message.
"""

from __future__ import annotations

import codecs
import difflib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .engine.analyze import Engine, Family
from .baseline import Baseline, BaselineError, load_baseline, with_fingerprints, write_baseline
from .engine.cache import ResultCache
from .config import Config
from .knowledge.fallback import JitModules
from .engine.findings import Finding
from .fix import attach
from .progress import ProgressBar
from .syntax.project import Project


class PipelineError(Exception):
    """A problem with what was asked, stated so the user can fix it."""


def default_families() -> list[Family]:
    from .checkers import FAMILIES

    return [family() for family in FAMILIES]


def new_engine(cache: ResultCache | None = None, project: Project | None = None,
               config: Config | None = None) -> Engine:
    """An engine with every rule family, and the configuration's JIT module lists joined with the
    environment's (MS_JIT_MODULES, MS_JIT_IGNORE_MODULES)."""
    jit_modules = JitModules.from_settings(
        compiled=config.jit_modules if config else (),
        fallback=config.jit_ignore_modules if config else ())
    return Engine(default_families(), project or Project(), cache, jit_modules,
                  target_version=config.target_version if config else None, fixer=attach)


@dataclass(frozen=True)
class Request:
    paths: Sequence[Path]
    config: Config = Config()
    raw: dict[Path, bytes] | None = None  # an editor's buffer or stdin, in place of the file
    jobs: int | None = None  # None: every core
    use_cache: bool = True
    baseline: Path | None = None  # over config.baseline
    write_baseline: Path | None = None  # record the findings here first, then report against it
    confirm: str | None = None  # None, "findings" (targets with findings) or "all"
    progress: bool | None = None  # None: on a terminal
    fix: bool = False  # rewrite the files with the findings' fixes (msgraphlint.fix)
    unsafe_fixes: bool = False  # fixes that can change behaviour too (with --fix, and in reports)
    diff: bool = False  # with fix: compute the rewrites, write nothing (Outcome.diff)


@dataclass
class Outcome:
    findings: list[Finding]  # selected, fingerprinted, not in the baseline, confirmed if asked
    files_checked: int
    checked: list[Path] = field(default_factory=list)
    internal_errors: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)  # for stderr: what the stages left out
    confirm_summary: str | None = None
    fixed: list[Finding] = field(default_factory=list)  # findings whose fix --fix applied
    diff: str = ""  # --diff: the unified diff of what --fix would write


def run(request: Request) -> Outcome:
    if request.fix:
        return run_fixing(request)
    config = request.config
    if request.confirm and request.raw:
        raise PipelineError("--confirm compiles the files on disk; it cannot confirm stdin")
    known = _known_baseline(request)  # before the analysis: a bad baseline fails fast
    engine = new_engine(cache=ResultCache() if request.use_cache and not request.raw else None,
                        config=config)
    analysed = analyse(engine, request)
    findings = attach_fixes(select(analysed.findings, config), engine)
    # Before the baseline leaves some out, so that it does not renumber the others.
    findings = fingerprint(findings, engine)
    outcome = Outcome(findings, analysed.files, analysed.checked, analysed.internal_errors)
    outcome.findings = apply_baseline(outcome, known, request.write_baseline)
    if request.confirm:
        confirm(engine, outcome, request)
    return outcome


def analyse(engine: Engine, request: Request):
    with ProgressBar("checking", 1, request.progress) as bar:
        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done)

        return engine.check_paths(request.paths, request.config.excludes, request.raw,
                                  jobs=request.jobs or os.cpu_count() or 1, progress=progress)


def select(findings: list[Finding], config: Config) -> list[Finding]:
    """The findings the configuration asks for, each judged at the level its graph compiles at
    (MS_DEV_JIT_SYNTAX_LEVEL overrides what the code fixes, as in MindSpore)."""
    forced = config.every_graph_level
    return [
        replace(finding, level_override=forced) if forced and finding.target else finding
        for finding in findings
        if config.wants(finding)
    ]


def attach_fixes(findings: list[Finding], engine: Engine) -> list[Finding]:
    """Each finding with its fix, where its rule has one. Engines made by ``new_engine`` seek
    them as they check each file (``Engine.fixer``), and the result cache keeps them: this seeks
    only what was not sought yet."""
    if not any(finding.rule.autofix and not finding.fix_sought for finding in findings):
        return findings
    return attach(findings, engine.project)


def fingerprint(findings: list[Finding], engine: Engine) -> list[Finding]:
    """Fingerprints from the lines as the engine read them (an editor's buffer, not the disk)."""
    return with_fingerprints(findings, engine.project.lines)


def _known_baseline(request: Request) -> Baseline | None:
    file = request.baseline or request.config.baseline
    if request.write_baseline is not None or file is None:
        return None
    try:
        return load_baseline(file)
    except BaselineError as error:
        raise PipelineError(str(error)) from None


def apply_baseline(outcome: Outcome, known: Baseline | None, record: Path | None) -> list[Finding]:
    """Record the findings first when asked to, then leave out those the baseline holds."""
    findings = outcome.findings
    try:
        if record is not None:
            count = write_baseline(record, findings)
            outcome.notices.append(f"recorded {count} finding{'s' * (count != 1)} in {record}")
            known = load_baseline(record)
    except BaselineError as error:
        raise PipelineError(str(error)) from None
    if known is None:
        return findings
    kept = known.without_recorded(findings)
    matched = len(findings) - len(kept)
    if matched and record is None:
        outcome.notices.append(f"{matched} finding{'s' * (matched != 1)} left out: recorded in"
                               f" baseline {known.file}")
    return kept


def confirm(engine: Engine, outcome: Outcome, request: Request) -> None:
    """--confirm: the findings with MindSpore's evidence (msgraphlint.confirm, docs/confirm.md);
    with "all", the targets of every checked file, not only those with findings."""
    from .confirm.run import ConfirmOptions, MindSporeMissing, confirm_findings

    every = request.confirm == "all"
    options = ConfirmOptions(all_targets=every, jobs=request.jobs or 0, use_cache=request.use_cache,
                             progress=request.progress)
    try:
        confirmed = confirm_findings(engine, outcome.findings, request.config,
                                     outcome.checked if every else [], options)
    except MindSporeMissing as error:
        raise _needs_mindspore(error) from None
    # Static findings keep their fingerprints; the compiler's own findings get theirs.
    new = [f for f in confirmed.findings if f.fingerprint is None]
    fingerprinted = iter(fingerprint(new, engine))
    outcome.findings = [f if f.fingerprint is not None else next(fingerprinted)
                        for f in confirmed.findings]
    outcome.confirm_summary = confirmed.summary(request.config.device)


def _needs_mindspore(error: Exception) -> PipelineError:
    from .confirm.run import INSTALL_HINT

    return PipelineError(f"--confirm needs MindSpore ({error}); install it with: {INSTALL_HINT}")


def check_buffer(engine: Engine, path: Path, raw: bytes) -> list[Finding]:
    """One module as an editor holds it (the pylint plugin): the analysis alone, since pylint
    selects, suppresses and reports by itself. Files pylint cannot read are its own E0001."""
    if not engine.may_hold_graph_code(path, raw):
        return []  # most of a large project: not even parsed a second time
    return [f for f in engine.check_file(path, raw) if f.rule.family != "input"]


# ----- --fix ---------------------------------------------------------------------------------------

MAX_FIX_PASSES = 10  # a fix that overlaps another waits for the next pass


def run_fixing(request: Request) -> Outcome:
    """--fix (and --diff): apply the fixes pass after pass until none is left, re-checking the
    files it changed; then write them (or, with --diff, describe them) and report what is left.
    Nothing is written when the analysis fails on any file, in any pass."""
    if request.raw:
        raise PipelineError("--fix rewrites files on disk; it cannot fix stdin")
    engine = new_engine(cache=ResultCache() if request.use_cache else None, config=request.config)
    analysed = analyse(engine, request)
    passes = FixPasses(engine, request)
    if not analysed.internal_errors:
        passes.run(analysed.findings)
    if analysed.internal_errors or passes.internal_errors:
        return Outcome(attach_fixes(select(analysed.findings, request.config), engine),
                       analysed.files, analysed.checked,
                       analysed.internal_errors + passes.internal_errors,
                       ["nothing was fixed: msgraphlint failed on a file (below)"])
    new_texts = {path: engine.project.source(path).text for path in passes.originals}
    fixed, notices = passes.fixed, passes.notices
    if request.confirm and new_texts:
        fixed, notices = _verified(new_texts, fixed, notices, request)
    if request.diff:
        outcome = Outcome(passes.remaining(), analysed.files, analysed.checked, notices=notices,
                          fixed=fixed)
        outcome.diff = unified_diff(passes.originals, new_texts)
        return outcome
    for path, text in new_texts.items():
        bom = codecs.BOM_UTF8 if passes.originals[path].startswith(codecs.BOM_UTF8) else b""
        try:
            path.write_bytes(bom + text.encode("utf-8"))
        except OSError as error:
            notices.append(f"cannot write {path}: {error.strerror or error}")
    # What is left, exactly as a plain run reports it on the files as written.
    outcome = run(replace(request, fix=False, diff=False))
    outcome.fixed = fixed
    outcome.notices[:0] = notices
    return outcome


class FixPasses:
    """The fixes applied in memory, pass after pass: the project holds each rewritten file's new
    text, so the next pass checks the files as they now read."""

    def __init__(self, engine: Engine, request: Request):
        self.engine, self.config, self.unsafe = engine, request.config, request.unsafe_fixes
        self.buffers = request.raw or {}
        self.current: dict[Path, list[Finding]] = {}  # each file's findings as it now reads
        self.originals: dict[Path, bytes] = {}  # the files rewritten, as they were on disk
        self.fixed: list[Finding] = []
        self.notices: list[str] = []
        self.internal_errors: list[str] = []

    def run(self, findings: list[Finding]) -> None:
        self._take(findings, set())
        for _ in range(MAX_FIX_PASSES):
            changed = [path for path in list(self.current) if self._fix_file(path)]
            if not changed:
                return
            again = self.engine.check_files(changed)
            self.internal_errors += again.internal_errors
            self._take(again.findings, set(changed))

    def remaining(self) -> list[Finding]:
        return [finding for findings in self.current.values() for finding in findings]

    def _take(self, findings: list[Finding], rechecked: set[Path]) -> None:
        for path in rechecked:
            self.current[path] = []
        for finding in attach_fixes(select(findings, self.config), self.engine):
            self.current.setdefault(finding.path, []).append(finding)

    def _fix_file(self, path: Path) -> bool:
        from .fix import apply_to_file, wanted

        findings = self.current[path]
        chosen = [f for f in findings if wanted(f.fix, self.unsafe)]
        if not chosen:
            return False
        project = self.engine.project
        # A file already rewritten in an earlier pass was checked then; an editor's buffer is
        # what was checked, not the disk.
        raw = self.originals.get(path) or self.buffers.get(path) or project.raw(path)
        plain = path in self.originals or _plain_utf8(raw, self.engine, path)
        result = apply_to_file(path, chosen, project) if plain else None
        if result is None:
            self.notices.append(f"{path}: left as it was: its fixes would not leave a UTF-8 file"
                                " that parses")
            self.current[path] = [replace(f, fix=None) if f in chosen else f for f in findings]
            return False
        self.originals.setdefault(path, raw)
        self.fixed.extend(result.applied)
        bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
        project.source(path, bom + result.text.encode("utf-8"))
        return True


def fix_buffer(engine: Engine, path: Path, raw: bytes, config: Config,
               unsafe: bool = False) -> tuple[str, list[Finding]] | None:
    """An editor's "fix all": the buffer with its fixes applied pass after pass, as --fix applies
    them to the file on disk, and the findings fixed; None when the analysis failed. The engine is
    left holding the buffer as it was."""
    request = Request([path], config, raw={path: raw}, unsafe_fixes=unsafe)
    checked = engine.check_files([path], request.raw)
    passes = FixPasses(engine, request)
    if not checked.internal_errors:
        passes.run(checked.findings)
    text = engine.project.source(path).text
    engine.project.source(path, raw)
    if checked.internal_errors or passes.internal_errors or text is None:
        return None
    return text, passes.fixed


def _verified(new_texts: dict[Path, str], fixed: list[Finding], notices: list[str],
              request: Request) -> tuple[list[Finding], list[str]]:
    """--fix --confirm: keep the fixed texts MindSpore accepts (msgraphlint.confirm.fixes); the
    others are dropped, so their files are neither written nor shown in --diff."""
    from .confirm.run import MindSporeMissing
    from .confirm.fixes import verify

    try:
        verdicts = verify(new_texts, request.config, request.jobs, request.progress, new_engine,
                          lambda engine, files: select(engine.check_files(files).findings,
                                                       request.config))
    except MindSporeMissing as error:
        raise _needs_mindspore(error) from None
    for path, verdict in verdicts.items():
        count = sum(1 for f in fixed if f.path == path)
        if verdict.verified:
            notices.append(f"{path}: {count} fix{'es' * (count != 1)} verified: {verdict.detail}")
        else:
            notices.append(f"{path}: {count} fix{'es' * (count != 1)} not applied: {verdict.detail}")
            del new_texts[path]
    return [f for f in fixed if f.path in new_texts], notices


def _plain_utf8(raw: bytes, engine: Engine, path: Path) -> bool:
    """Fixes rewrite only files that read back exactly as UTF-8 (a BOM is kept)."""
    text = engine.project.source(path).text
    body = raw[len(codecs.BOM_UTF8):] if raw.startswith(codecs.BOM_UTF8) else raw
    return text is not None and body == text.encode("utf-8")


def unified_diff(originals: dict[Path, bytes], new_texts: dict[Path, str]) -> str:
    """git's form: a/ and b/ before paths relative to the current folder (absolute outside it)."""
    parts = []
    for path in sorted(new_texts):
        before = originals[path].decode("utf-8-sig").splitlines(keepends=True)
        after = new_texts[path].splitlines(keepends=True)
        absolute = Path(os.path.abspath(path))
        try:
            shown = absolute.relative_to(Path.cwd()).as_posix()
            names = (f"a/{shown}", f"b/{shown}")
        except ValueError:
            names = (absolute.as_posix(), absolute.as_posix())
        parts.extend(difflib.unified_diff(before, after, *names))
    return "".join(parts)
