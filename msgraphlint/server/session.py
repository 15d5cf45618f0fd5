"""What the language server knows, without the protocol: settings, buffers, one engine per project.

The editor's buffers stand in for their files (the other project files are read from disk), each
file is judged with the settings of its nearest ``pyproject.toml`` under the editor's own
settings, and the findings are the pipeline's: the same analysis, selection, suppressions and
fixes as the CLI and the pylint plugin. One engine per project configuration lives as long as the
server; a changed buffer moves its project's generation on, which drops the answers derived from
it (``ReachModel.sync``), and a file saved or changed on disk is read again
(``Project.reread``).
"""

from __future__ import annotations

import ast
import codecs
import io
import os
import re
import tokenize
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from ..config import (
    Config,
    ConfigError,
    environment_level,
    find_pyproject,
    from_pyproject,
    parse_device,
    parse_level,
    parse_selectors,
    parse_target_version,
)
from ..engine.analyze import Engine
from ..engine.findings import Edit, Finding
from ..engine.suppress import Suppressions
from ..knowledge.catalogue import Level
from ..fix.edits import LINE_BREAK, apply_edits
from ..pipeline import attach_fixes, fix_buffer, new_engine, select
from ..syntax.project import project_root_for
from ..syntax.source import split_lines

# The editor's settings (initializationOptions, workspace/didChangeConfiguration), as the CLI's
# options: each spelling a client may use, and the one it means.
SETTING_NAMES = {
    "syntaxLevel": "level", "syntax-level": "level", "syntax_level": "level",
    "device": "device", "select": "select", "ignore": "ignore",
    "targetVersion": "target_version", "target-version": "target_version",
    "target_version": "target_version",
}
SETTINGS_SECTION = "msgraphlint"


@dataclass(frozen=True)
class EditorSettings:
    """What the editor asks for, over each project's ``[tool.msgraphlint]``."""

    level: Level | None = None
    device: str | None = None
    select: frozenset[str] | None = None
    ignore: frozenset[str] = frozenset()
    target_version: str | None = None

    @classmethod
    def parse(cls, options: object) -> tuple["EditorSettings", list[str]]:
        """The settings a client sent, and a message for each one not understood (left out, so a
        typo never stops the server). Accepts ``{"msgraphlint": {...}}`` as VS Code nests them."""
        if options is None:
            return cls(), []
        if not isinstance(options, Mapping):
            return cls(), [f"settings: expected an object, got {type(options).__name__}"]
        if isinstance(options.get(SETTINGS_SECTION), Mapping):
            options = options[SETTINGS_SECTION]
        chosen: dict[str, object] = {}
        problems: list[str] = []
        for name, value in options.items():
            field_name = SETTING_NAMES.get(name)
            if field_name is None:
                problems.append(f"unknown setting {name!r} (known: syntaxLevel, device, select, "
                                "ignore, targetVersion)")
                continue
            if value is None:
                continue
            try:
                chosen[field_name] = _parse_setting(field_name, value, f"setting {name!r}")
            except ConfigError as error:
                problems.append(f"{error}; left out")
        return cls(**chosen), problems

    def over(self, config: Config) -> Config:
        """The project's configuration with these settings over it, and MS_DEV_JIT_SYNTAX_LEVEL
        over both, as the CLI orders them."""
        if self.level is not None:
            config = replace(config, level=self.level)
        if self.device is not None:
            config = replace(config, device=self.device)
        if self.select is not None:
            config = replace(config, select=self.select)
        if self.ignore:
            config = replace(config, ignore=config.ignore | self.ignore)
        if self.target_version is not None:
            config = replace(config, target_version=self.target_version)
        forced = environment_level()
        if forced is not None:
            config = replace(config, level=forced, every_graph_level=forced)
        return config


def _parse_setting(name: str, value: object, where: str) -> object:
    if name == "level":
        return parse_level(value, where)
    if name == "device":
        return parse_device(value, where)
    if name == "target_version":
        return parse_target_version(value, where)
    return parse_selectors(value, where)


@dataclass
class FileReport:
    """One file's findings as the editor shows them, and the text they were computed on."""

    path: Path
    text: str
    findings: list[Finding]  # selected, unsuppressed, with their fixes
    config: Config
    internal_errors: list[str] = field(default_factory=list)
    config_problem: str | None = None  # what is wrong with its pyproject.toml, if anything
    syntax_error: SyntaxError | None = None  # the parser's, when the text does not parse
    parses: bool = True  # False for a text that does not parse (or cannot be decoded)

    @cached_property
    def lines(self) -> list[str]:
        # Once per report: each diagnostic's range asks for them, and splitting the text per
        # finding grew with findings x lines (a 50,000-line file took 140 s to publish, issue 34).
        return split_lines(self.text)

    def at(self, line: int, column: int) -> list[Finding]:
        """The findings whose range holds a 1-based line and column (a zero-width range counts
        its own line)."""
        return [f for f in self.findings if _holds(f, line, column)]

    def overlapping(self, start: tuple[int, int], end: tuple[int, int]) -> list[Finding]:
        """The findings whose range meets [start, end] (1-based line and column pairs)."""
        return [f for f in self.findings
                if (f.line, f.column) <= end and start <= (f.end_line, max(f.end_column, f.column))]


def _holds(finding: Finding, line: int, column: int) -> bool:
    if finding.line == finding.end_line and finding.column == finding.end_column:
        return line == finding.line
    return (finding.line, finding.column) <= (line, column) < (finding.end_line, finding.end_column) \
        or (line, column) == (finding.end_line, finding.end_column)


class Session:
    """The buffers an editor holds open and the engines that judge them."""

    def __init__(self, settings: EditorSettings = EditorSettings()):
        self.settings = settings
        self.buffers: dict[Path, bytes] = {}
        self._engines: dict[tuple, Engine] = {}
        self._configs: dict[Path | None, tuple[float, Config | ConfigError]] = {}

    # ----- what the editor tells ------------------------------------------------------------

    def open(self, path: Path, text: str) -> None:
        self.buffers[path] = encoded(text)

    change = open  # a whole buffer either way: the protocol layer applies the increments

    def close(self, path: Path) -> None:
        """The file on disk stands for it again."""
        if self.buffers.pop(path, None) is not None:
            for engine in self._engines.values():
                engine.project.reread([path])

    def disk_changed(self, paths: Iterable[Path]) -> None:
        """Files saved, created or deleted: what the engines read from disk is read again."""
        paths = [path for path in paths if path not in self.buffers]
        for engine in self._engines.values():
            engine.project.reread(paths)
        self._configs.clear()  # a pyproject.toml may be among them

    # ----- what the editor asks -------------------------------------------------------------

    def config_for(self, path: Path) -> tuple[Config, str | None]:
        """The configuration a file is judged with, and the problem with its pyproject.toml if it
        has one (the file is then judged with the editor's settings over the defaults)."""
        pyproject = find_pyproject(path)
        stamp = _modified(pyproject)
        cached = self._configs.get(pyproject)
        if cached is None or cached[0] != stamp:
            try:
                loaded: Config | ConfigError = from_pyproject(pyproject)
            except ConfigError as error:
                loaded = error
            cached = self._configs[pyproject] = (stamp, loaded)
        loaded = cached[1]
        try:
            if isinstance(loaded, ConfigError):
                return self.settings.over(Config()), str(loaded)
            return self.settings.over(loaded), None
        except ConfigError as error:  # MS_DEV_JIT_SYNTAX_LEVEL set to something MindSpore rejects
            return Config(), str(error)

    def engine_for(self, path: Path, config: Config) -> Engine:
        """One engine per project (and its JIT module settings): another project's files never
        enter what this one's questions scan."""
        key = (project_root_for(Path(os.path.abspath(path)).parent), config.jit_modules,
               config.jit_ignore_modules, config.target_version)
        if key not in self._engines:
            self._engines[key] = new_engine(config=config)
        return self._engines[key]

    def report(self, path: Path) -> FileReport:
        """The findings for one file as the editor holds it."""
        config, problem = self.config_for(path)
        raw = self.buffers.get(path)
        if config.excludes(path):
            text = raw.decode("utf-8", "replace") if raw is not None else ""
            return FileReport(path, text, [], config, config_problem=problem)
        engine = self._engine_with_buffers(path, config)
        checked = engine.check_files([path], {path: raw} if raw is not None else None)
        findings = [f for f in attach_fixes(select(checked.findings, config), engine)
                    if not f.suppressed and f.path == path]
        source = engine.project.source(path)
        broken = syntax_error(source.text) if source.tree is None and source.text else None
        return FileReport(path, source.text or "", findings, config, checked.internal_errors,
                          problem, broken, source.tree is not None)

    def fix_all(self, path: Path) -> str | None:
        """The buffer with every safe fix applied as ``msgraphlint check --fix`` applies them;
        None when there is nothing to fix or the analysis failed."""
        config, _ = self.config_for(path)
        raw = self.buffers.get(path)
        if raw is None or config.excludes(path):
            return None
        fixed = fix_buffer(self._engine_with_buffers(path, config), path, raw, config)
        if fixed is None or not fixed[1]:
            return None
        bom = "\ufeff" if raw.startswith(codecs.BOM_UTF8) else ""  # kept, as --fix keeps it
        return bom + fixed[0]

    def _engine_with_buffers(self, path: Path, config: Config) -> Engine:
        engine = self.engine_for(path, config)
        for path, raw in self.buffers.items():  # unchanged buffers cost a digest each
            engine.project.source(path, raw)
        return engine


def encoded(text: str) -> bytes:
    """A buffer's text as the bytes its file would hold: in the encoding its coding cookie
    declares (PEP 263), so that the engine decodes exactly the text the editor shows and every
    column and edit lines up; UTF-8 when there is none or it cannot hold the text."""
    head = "\n".join(text.split("\n", 2)[:2]).encode("utf-8", "surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(head).readline)
        # A BOM the editor kept is the text's own first character: encoded once, not twice.
        return text.encode("utf-8" if encoding == "utf-8-sig" else encoding)
    except (SyntaxError, LookupError, UnicodeError):
        return text.encode("utf-8", "surrogatepass")


def syntax_error(text: str) -> SyntaxError | None:
    """The error Python's parser reports first for ``text`` (with its end, which the engine's
    finding does not keep), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as error:
        return error
    except (ValueError, RecursionError, MemoryError):  # NUL bytes, or too deep: the engine says
        return None
    return None


def _modified(path: Path | None) -> float:
    try:
        return os.stat(path).st_mtime_ns if path else 0.0
    except OSError:
        return 0.0


# ----- "disable on this line" -------------------------------------------------------------------

_DISABLE_COMMENT = re.compile(r"#\s*(?:pylint|msgraphlint)\s*:\s*disable\s*=\s*[^#]*?(?=\s*(?:#|$))")


def suppression_edit(report: FileReport, finding: Finding) -> Edit | None:
    """The inline suppression that silences ``finding``: its symbol added to a ``disable=`` the
    line already has, else ``# pylint: disable=<symbol>`` at the line's end (pylint and the CLI
    both read it), else a ``disable-next`` line above it. Only an edit that leaves a file that
    parses and silences the finding is given."""
    lines = report.lines
    if not 1 <= finding.line <= len(lines):
        return None
    line = lines[finding.line - 1]
    symbol = finding.rule.symbol
    candidates = []
    if (match := _DISABLE_COMMENT.search(line)) is not None:
        end = match.end() + 1
        candidates.append(Edit(report.path, finding.line, end, finding.line, end, f", {symbol}"))
    end = len(line) + 1
    candidates.append(Edit(report.path, finding.line, end, finding.line, end,
                           f"  # pylint: disable={symbol}"))
    indent = line[: len(line) - len(line.lstrip())]
    ending = LINE_BREAK.search(report.text)  # the file's own line ending
    candidates.append(Edit(report.path, finding.line, 1, finding.line, 1,
                           f"{indent}# pylint: disable-next={symbol}"
                           f"{ending.group(0) if ending else chr(10)}"))
    for edit in candidates:
        text = apply_edits(report.text, [edit])
        moved = finding.line + edit.content.count("\n")
        if _parses(text) and Suppressions(text).is_suppressed(replace(finding, line=moved)):
            return edit
    return None


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True
