"""The pylint adapter: ``load-plugins=msgraphlint``.

Each rule family becomes a pylint checker named ``msgraphlint`` whose message table is generated from
the catalogue. Pylint only runs a checker that has an enabled message, so every family checker
emits its own family's findings; the analysis itself runs once per module in the shared engine, the
same one the CLI uses (through msgraphlint.pipeline), on the module's source (an editor's unsaved
buffer under ``--from-stdin``).
"""

from __future__ import annotations

import atexit
import gc
from dataclasses import replace
from pathlib import Path

from pylint.checkers import BaseChecker
from pylint.constants import WarningScope
from pylint.interfaces import HIGH

from .knowledge import catalogue
from .engine.analyze import Engine, Family
from .knowledge.catalogue import Level, Severity
from .config import ConfigError, environment_level, find_pyproject, from_pyproject, parse_target_version
from .checkers import FAMILIES
from .engine.findings import Finding
from .pipeline import check_buffer, new_engine

CATEGORY_SEVERITY = {"E": Severity.ERROR, "W": Severity.WARNING, "C": Severity.ADVICE}
OPTIONS = (
    (
        "msgraph-syntax-level",
        {
            "default": "lax",
            "type": "choice",
            "choices": [level.value for level in Level],
            "metavar": "<strict|compatible|lax>",
            "help": "MindSpore jit_syntax_level the Cells are compiled at (MindSpore's default: lax).",
        },
    ),
    (
        "msgraph-device",
        {
            "default": "CPU",
            "type": "choice",
            "choices": list(catalogue.DEVICES),
            "metavar": "<CPU|GPU|Ascend>",
            "help": "Device the model is compiled for; some verdicts depend on it.",
        },
    ),
    (
        "msgraph-target-version",
        {
            "default": "",
            "type": "string",
            "metavar": "<release>",
            "help": "MindSpore release whose API the calls are bound against, e.g. 2.10 (default:"
                    " target-version in [tool.msgraphlint], else the installed MindSpore's, else"
                    " the newest snapshot).",
        },
    ),
)


class _SharedAnalysis:
    """One engine per project configuration in a process (usually one), one analysis per module,
    whichever family checker asks first."""

    def __init__(self) -> None:
        self._engines: dict[tuple[Path | None, str], Engine] = {}
        self._key: tuple | None = None
        self._findings: list[Finding] = []
        self._analysed = 0  # modules analysed in this pylint run
        self._host_froze = False  # objects were frozen before this run: left to the host
        self._frozen = False  # this run froze what was alive
        self._collect_on_release = False  # not after the process's first run (see release)

    def findings(self, module_node, target_version: str = "") -> list[Finding]:
        path = Path(module_node.file) if module_node.file else Path(f"{module_node.name}.py")
        stream = module_node.stream()
        raw = stream.read() if stream is not None else b""
        key = (str(path), hash(raw), target_version)
        if key != self._key:
            engine = self.engine_for(path, target_version)
            self._key = key
            if not self._analysed:
                self._host_froze = bool(gc.get_freeze_count())
            # From a run's second module on, what the analysis keeps (syntax trees, answers) is
            # frozen with everything alive (pylint's trees too) until the run ends: out of the
            # collector's sight, or each of pylint's collections walks all of it again. A run of
            # one module (an editor linting its buffer) freezes nothing, so the collector frees
            # the buffers it replaced as in any long-lived process.
            freeze = self._analysed > 0 and not self._host_froze
            was_enabled = gc.isenabled()
            gc.disable()
            try:
                self._findings = check_buffer(engine, path, raw)
            finally:
                if freeze:
                    gc.freeze()
                    self._frozen = True
                if was_enabled:
                    gc.enable()
            self._analysed += 1
        return self._findings

    def engine_for(self, path: Path, target_version: str = "") -> Engine:
        """The engine for the project ``path`` is in, with its ``[tool.msgraphlint]`` JIT module
        lists (which decide what is compiled) and target version as the CLI reads them, the
        plugin's ``--msgraph-target-version`` over the latter. A configuration the CLI would
        reject is left to the CLI to report: an editor's lint run has nowhere to say it."""
        pyproject = find_pyproject(path)
        key = (pyproject, target_version)
        if key not in self._engines:
            try:
                config = from_pyproject(pyproject)
                if target_version:
                    config = replace(config, target_version=parse_target_version(
                        target_version, "--msgraph-target-version"))
            except ConfigError:
                config = None
            self._engines[key] = new_engine(config=config)
        return self._engines[key]

    def release(self) -> None:
        """Hand what was frozen back to the collector when the run ends. Unfrozen objects reach
        the oldest generation without counting towards its next collection, so a process that
        lints again (an editor's pylint server) collects them here, or it would keep the garbage
        of every run. A process's first run is spared that (the pylint command exits now), and
        its exit freezes what is still alive: the interpreter's last collections would walk all
        of pylint's and the engine's trees once more (3.5 s of pylint's 11 on mindcv, 0.1 s
        frozen), to free memory the OS takes back anyway."""
        if self._frozen:
            gc.unfreeze()
            if self._collect_on_release:
                gc.collect()
            else:
                atexit.register(gc.freeze)
            self._collect_on_release = True
        self._analysed, self._frozen = 0, False


SHARED = _SharedAnalysis()


def reported_message_args(finding: Finding, level: Level, device: str) -> tuple:
    """The finding's arguments plus a note when pylint's fixed category understates it."""
    severity = finding.severity(level, device)
    category = CATEGORY_SEVERITY.get(finding.rule_id[0])
    note = f" [{severity.value} at {finding.level(level).value}]" if severity != category else ""
    reach = f" ({finding.reached_from})" if finding.reached_from else ""
    if finding.rule.cases:  # the consequence depends on the case: the message is one argument
        return (finding.rule.template_for(finding.case) % finding.args, reach + note)
    return (*finding.args, reach + note)


def plugin_template(rule: catalogue.Rule) -> str:
    """pylint's fixed template: the rule's, or for a rule with cases the whole message as an
    argument (reported_message_args fills it with the case's consequence)."""
    return "%s%s" if rule.cases else rule.template + "%s"


def make_checker_class(family: type[Family], checker_id: str,
                       with_options: bool) -> type[BaseChecker]:
    """The checker of a family's rules whose ids are x<checker_id>nn (pylint holds one checker
    id per checker)."""
    family_rules = [rule for rule in catalogue.rules()
                    if rule.family == family.name and rule.id[1:3] == checker_id]

    class FamilyChecker(BaseChecker):
        name = "msgraphlint"
        msgs = {
            # LINE scope: positions come from the engine's own (stdlib ast) tree, not astroid nodes.
            rule.id: (
                plugin_template(rule),
                rule.symbol,
                f"{rule.title}. {rule.rationale.strip()}",
                # Style-only advice is off unless enabled by name, as with --select.
                {"scope": WarningScope.LINE, "default_enabled": not rule.opt_in},
            )
            for rule in family_rules
        }
        options = OPTIONS if with_options else ()

        def close(self) -> None:
            SHARED.release()  # pylint has linted every module

        def visit_module(self, node) -> None:
            config = self.linter.config
            level = Level(getattr(config, "msgraph_syntax_level", "lax"))
            device = getattr(config, "msgraph_device", "CPU")
            forced = environment_level_or_none()
            target_version = getattr(config, "msgraph_target_version", "") or ""
            for finding in SHARED.findings(node, target_version):
                if forced is not None and finding.target:
                    # MS_DEV_JIT_SYNTAX_LEVEL: every graph at that level, as MindSpore reads it
                    finding, level = replace(finding, level_override=forced), forced
                # Suppressed ones are left out: pylint applies its own pragmas again, and only the
                # engine reads the `# msgraphlint: disable=` spelling.
                if finding.rule_id not in self.msgs or finding.suppressed:
                    continue
                self.add_message(
                    finding.rule.symbol,
                    line=finding.line,
                    col_offset=finding.column - 1,
                    end_lineno=finding.end_line,
                    end_col_offset=finding.end_column - 1,
                    args=reported_message_args(finding, level, device),
                    confidence=HIGH,
                )

    FamilyChecker.__name__ = FamilyChecker.__qualname__ = f"{family.__name__}{checker_id}Checker"
    return FamilyChecker


def environment_level_or_none() -> Level | None:
    """MS_DEV_JIT_SYNTAX_LEVEL, as the CLI reads it; a bad value is left to the CLI to report
    (an editor's lint run has nowhere to say it)."""
    try:
        return environment_level()
    except ConfigError:
        return None


def register(linter) -> None:
    checkers = [(family, checker_id) for family in FAMILIES
                for checker_id in catalogue.PYLINT_CHECKER_IDS
                if any(r.family == family.name and r.id[1:3] == checker_id
                       for r in catalogue.rules())]
    for index, (family, checker_id) in enumerate(checkers):
        linter.register_checker(make_checker_class(family, checker_id, with_options=index == 0)(linter))
