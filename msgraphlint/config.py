"""Settings: command-line options over ``[tool.msgraphlint]`` in the nearest pyproject.toml.

Every problem is a :class:`ConfigError` with a message a user can act on; the CLI turns it into
exit code 2.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .knowledge import api_snapshot, catalogue
from .knowledge.catalogue import Level, Severity
from .confirm_settings import ConfirmSettings, SettingsError, parse_confirm
from .engine.findings import Finding

FORMATS = ("text", "json", "sarif", "gitlab")
class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    level: Level = Level.LAX
    device: str = "CPU"
    format: str = "text"
    select: frozenset[str] | None = None  # rule ids; None means every rule
    ignore: frozenset[str] = frozenset()
    fail_on: Severity = Severity.WARNING
    exclude: tuple[str, ...] = ()
    baseline: Path | None = None  # findings recorded there are not reported
    source: Path | None = None  # the pyproject.toml the defaults came from
    confirm: ConfirmSettings = ConfirmSettings()  # [tool.msgraphlint.confirm], for --confirm
    # MS_DEV_JIT_SYNTAX_LEVEL from the environment: MindSpore compiles every graph at that level,
    # jit functions included (which the context setting does not reach).
    every_graph_level: Level | None = None
    # [tool.msgraphlint] jit-modules / jit-ignore-modules, joined with MS_JIT_MODULES and
    # MS_JIT_IGNORE_MODULES from the environment (msgraphlint.knowledge.fallback)
    jit_modules: tuple[str, ...] = ()
    jit_ignore_modules: tuple[str, ...] = ()
    # The MindSpore release whose API calls are bound against; None: the installed one if there is
    # a snapshot of it, else the newest snapshot (msgraphlint.knowledge.api_snapshot)
    target_version: str | None = None

    def wants(self, finding: Finding) -> bool:
        if finding.rule_id in self.ignore:
            return False
        # A file that could not be read was not checked for the selected rules either: say so.
        unchecked = finding.rule.family == "input"
        if self.select is None:
            return not finding.rule.opt_in
        return finding.rule_id in self.select or unchecked

    def excludes(self, path: Path) -> bool:
        """Glob patterns match the path relative to the pyproject.toml's folder (else the current
        folder), however the path was given, or the file name alone."""
        if not self.exclude:
            return False
        base = os.path.abspath(self.source.parent if self.source else Path.cwd())
        absolute = os.path.abspath(path)
        relative = os.path.relpath(absolute, base) if absolute.startswith(base + os.sep) else absolute
        text = Path(relative).as_posix()
        return any(fnmatch.fnmatch(text, pattern) or fnmatch.fnmatch(path.name, pattern)
                   for pattern in self.exclude)


def find_pyproject(start: Path) -> Path | None:
    start = Path(os.path.realpath(start))  # not resolve(): it raises on a symbolic link loop
    folder = start if os.path.isdir(start) else start.parent
    for candidate in (folder, *folder.parents):
        if os.path.isfile(candidate / "pyproject.toml"):  # False, not an error, where unreadable
            return candidate / "pyproject.toml"
    return None


JIT_LEVEL_VARIABLE = "MS_DEV_JIT_SYNTAX_LEVEL"
ENVIRONMENT_LEVELS = {"0": Level.STRICT, "1": Level.COMPATIBLE, "2": Level.LAX}


def environment_level(environ: Mapping[str, str] = os.environ) -> Level | None:
    """The level MS_DEV_JIT_SYNTAX_LEVEL gives every graph, as MindSpore reads it (0, 1, 2)."""
    value = environ.get(JIT_LEVEL_VARIABLE, "").strip()
    if not value:
        return None
    if value not in ENVIRONMENT_LEVELS:
        raise ConfigError(f"{JIT_LEVEL_VARIABLE}={value!r} in the environment is not 0 (STRICT), "
                          "1 (COMPATIBLE) or 2 (LAX)")
    return ENVIRONMENT_LEVELS[value]


def parse_level(value: object, where: str) -> Level:
    try:
        return Level(str(value).lower())
    except ValueError:
        choices = ", ".join(level.value for level in Level)
        raise ConfigError(f"{where}: syntax level {value!r} is not one of {choices}") from None


def parse_device(value: object, where: str) -> str:
    for device in catalogue.DEVICES:
        if str(value).lower() == device.lower():
            return device
    raise ConfigError(f"{where}: device {value!r} is not one of {', '.join(catalogue.DEVICES)}")


def parse_format(value: object, where: str) -> str:
    if str(value).lower() not in FORMATS:
        raise ConfigError(f"{where}: format {value!r} is not one of {', '.join(FORMATS)}")
    return str(value).lower()


def parse_severity(value: object, where: str) -> Severity:
    try:
        return Severity(str(value).lower())
    except ValueError:
        choices = ", ".join(s.value for s in Severity)
        raise ConfigError(f"{where}: severity {value!r} is not one of {choices}") from None


def parse_selectors(values: object, where: str) -> frozenset[str]:
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{where}: expected a list of rule ids, symbols or families")
    selectors = [part.strip() for value in values for part in value.split(",") if part.strip()]
    try:
        return frozenset(catalogue.select_rules(selectors))
    except KeyError as error:
        raise ConfigError(
            f"{where}: {error.args[0]!r} is not a rule id, symbol or family"
            " (see `msgraphlint rules`)"
        ) from None


def parse_selection(values: object, where: str) -> frozenset[str]:
    """``select``: an empty one would check nothing and pass every file, so it is an error."""
    selected = parse_selectors(values, where)
    if not selected:
        raise ConfigError(f"{where}: an empty select checks no rule; name rule ids, symbols or"
                          " families, or leave select out to check every rule")
    return selected


def load_pyproject(path: Path) -> dict:
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    section = data.get("tool", {}).get("msgraphlint", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.msgraphlint] must be a table")
    unknown = sorted(set(section) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(
            f"{path}: unknown key(s) in [tool.msgraphlint]: {', '.join(unknown)}"
            f" (known: {', '.join(sorted(KNOWN_KEYS))})"
        )
    return section


def parse_exclude(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(e, str) for e in value):
        raise ConfigError(f"{where}: exclude must be a list of glob patterns")
    return tuple(value)


def parse_baseline_path(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: baseline must be the path of a baseline file")
    return value


def parse_module_names(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(
            isinstance(e, str) and e.strip() and "." not in e for e in value):
        raise ConfigError(f"{where}: jit-modules and jit-ignore-modules must be lists of top-level"
                          ' module names (["einops"])')
    return tuple(e.strip() for e in value)


def parse_target_version(value: object, where: str) -> str:
    try:
        return api_snapshot.resolve_version(str(value))
    except ValueError as error:
        raise ConfigError(f"{where}: target version: {error}") from None


def parse_confirm_table(value: object, where: str) -> ConfirmSettings:
    try:
        return parse_confirm(value, where)
    except SettingsError as error:
        raise ConfigError(str(error)) from None


# [tool.msgraphlint] key -> (Config field, parser(value, where))
SETTINGS = {
    "syntax-level": ("level", parse_level),
    "device": ("device", parse_device),
    "format": ("format", parse_format),
    "select": ("select", parse_selection),
    "ignore": ("ignore", parse_selectors),
    "fail-on": ("fail_on", parse_severity),
    "exclude": ("exclude", parse_exclude),
    "baseline": ("baseline", parse_baseline_path),
    "confirm": ("confirm", parse_confirm_table),
    "jit-modules": ("jit_modules", parse_module_names),
    "jit-ignore-modules": ("jit_ignore_modules", parse_module_names),
    "target-version": ("target_version", parse_target_version),
}
KNOWN_KEYS = frozenset(SETTINGS)


def from_pyproject(path: Path | None) -> Config:
    if path is None:
        return Config()
    section = load_pyproject(path)
    where = f"{path} [tool.msgraphlint]"
    values = {
        field_name: parse(section[key], where)
        for key, (field_name, parse) in SETTINGS.items()
        if key in section
    }
    if "baseline" in values:
        # Relative to the pyproject.toml's folder, so any working directory finds it.
        values["baseline"] = path.parent / values["baseline"]
    return Config(source=path, **values)
