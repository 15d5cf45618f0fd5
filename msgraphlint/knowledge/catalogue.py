"""The rule catalogue: the one source of truth for every rule.

Entries live in ``rules/<family>.toml`` beside this module. Pylint's message table, SARIF rule metadata,
``msgraphlint rules``/``explain`` and the pages under docs/rules/ are all generated from them.

A rule records, for each syntax level, what MindSpore's compiler does with the flagged code (its
*verdict*). The catalogue is the only home of these per-level facts: the severity a user sees is
derived from the verdict at the level in force (:meth:`Rule.severity`), and the consequence a
message states ("rejected at STRICT and COMPATIBLE, at LAX ...") is written from the verdicts by
:func:`consequence`. Message templates themselves name no level.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, cached_property
from importlib import resources


class Level(StrEnum):
    """MindSpore's jit_syntax_level values. LAX is MindSpore's default."""

    STRICT = "strict"
    COMPATIBLE = "compatible"
    LAX = "lax"


class Verdict(StrEnum):
    """What the compiler does with the flagged code at one level."""

    REJECTED = "rejected"  # compilation fails
    MISBEHAVES = "misbehaves"  # compiles, but the graph does not do what the Python says
    ACCEPTED = "accepted"  # compiles and behaves; anything reported is advice


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    ADVICE = "advice"

    @property
    def rank(self) -> int:
        return {"advice": 0, "warning": 1, "error": 2}[self.value]


SEVERITY_OF_VERDICT = {
    Verdict.REJECTED: Severity.ERROR,
    Verdict.MISBEHAVES: Severity.WARNING,
    Verdict.ACCEPTED: Severity.ADVICE,
}

DEVICES = ("CPU", "GPU", "Ascend")
DOCS_BASE_URL = "https://github.com/msgraphlint/msgraphlint/blob/main/docs/rules/"
# Pylint's message ids are x<checker><nn>: 100 messages per checker id. msgraphlint uses x87nn,
# then x86nn once those are taken; neither is used by pylint, its extensions or the common
# plugins (tests/test_plugin.py). A pylint checker holds the messages of one id only.
PYLINT_CHECKER_IDS = ("87", "86")


@dataclass(frozen=True)
class RuleCase:
    """One shape of a rule's problem whose consequence at LAX differs from the rule's default:
    the checker that sees which shape the code has reports it with this case's clause."""

    when: str  # the shape, for the docs: "the attribute holds a tensor written in compiled code"
    misbehaves: str = ""  # the clause that replaces the rule's ``misbehaves``
    evidence: str = ""  # how --confirm shows it, when not the rule's evidence
    # Levels where this shape's verdict is not the rule's (a host copy that is only returned
    # from a training step compiles and is harmless at LAX), and the clause for ACCEPTED there.
    verdicts: dict[Level, Verdict] = field(default_factory=dict)
    accepted: str = ""
    # The clause says the graph may also be rejected where this code's result is used: a
    # rejection in the same function confirms it too.
    may_reject: bool = False


@dataclass(frozen=True)
class Rule:
    id: str
    symbol: str
    family: str
    title: str
    message: str  # %-style template; Finding.args fill it; {consequence} marks where the verdicts go
    verdicts: dict[Level, Verdict]
    compiler: dict[Level, str]  # what the compiler was seen to do, per level
    rationale: str
    example: str
    fix: str
    use_instead: str
    doc: str
    evidence: str  # how the compiler test proves a MISBEHAVES verdict: output, gradient, effect
    seen_with: str
    # Where a probe of the samples on another MindSpore release saw the compiler do otherwise
    # (tools/probe_release.py): what and where; empty when the releases probed agree.
    other_releases: str = ""
    device_verdicts: dict[str, dict[Level, Verdict]] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    # What the code does where the verdict is MISBEHAVES, and (optional) where it is ACCEPTED while
    # another level rejects it: clauses that :func:`consequence` puts after "at LAX".
    misbehaves: str = ""
    accepted: str = ""
    # A cap on the severity reported before --confirm, when the static analysis cannot know what
    # the verdict needs (tensor-as-bool: whether the tensor holds one element), and why.
    static_severity: Severity | None = None
    static_severity_why: str = ""
    replacements: str = ""  # the name of a table in data/replacements.toml
    # ``msgraphlint check --fix``: "safe" (applied by --fix), "unsafe" (only with --unsafe-fixes),
    # or "" (no fix), and why; msgraphlint/fix/ makes the edits.
    autofix: str = ""
    autofix_why: str = ""
    # Style-only advice is off unless a --select names the rule or its family (as ruff keeps
    # opinionated rules opt-in); why it is opt-in, for docs/usage.md.
    opt_in: bool = False
    opt_in_why: str = ""
    cases: dict[str, RuleCase] = field(default_factory=dict)

    def verdict(self, level: Level, device: str = "CPU", case: str = "") -> Verdict:
        """What the compiler does at ``level`` on ``device``, for one of the rule's cases."""
        if case and (shaped := self.cases[case].verdicts.get(level)) is not None:
            return shaped
        return self.device_verdicts.get(device, {}).get(level, self.verdicts[level])

    def compiler_severity(self, level: Level, device: str = "CPU", case: str = "") -> Severity:
        """What the compiler's verdict alone makes it."""
        return SEVERITY_OF_VERDICT[self.verdict(level, device, case)]

    def severity(self, level: Level, device: str = "CPU", case: str = "") -> Severity:
        """The severity reported: the compiler's, capped by the static severity."""
        severity = self.compiler_severity(level, device, case)
        cap = self.static_severity
        return cap if cap is not None and cap.rank < severity.rank else severity

    @cached_property
    def template(self) -> str:
        """The %-style message template with the consequence written in (once per rule)."""
        return self.message.replace("{consequence}", consequence(self))

    def template_for(self, case: str = "") -> str:
        """The template for one of the rule's cases ("" is the rule's default)."""
        if not case:
            return self.template
        return self.message.replace("{consequence}", consequence(self, case))

    def evidence_for(self, case: str = "") -> str:
        """The kind of evidence --confirm needs to show this case's consequence."""
        return (self.cases[case].evidence if case else "") or self.evidence

    def replacement_for(self, qualified: str) -> str:
        """The MindSpore spelling for a host call this rule flags (data/replacements.toml)."""
        table = replacement_table(self.replacements)
        if qualified in table["names"]:
            return table["names"][qualified]
        for prefix, to in table.get("prefixes", {}).items():
            if qualified.startswith(prefix):
                return to + qualified[len(prefix) :]
        return table["default"]

    @property
    def help_uri(self) -> str:
        return f"{DOCS_BASE_URL}{self.symbol}.md"


def _parse_level_map(raw: dict[str, str], kind: type) -> dict[Level, object]:
    return {Level(key): kind(value) for key, value in raw.items()}


def _rule_from_table(rule_id: str, table: dict) -> Rule:
    verdicts = _parse_level_map(table.pop("verdicts"), Verdict)
    missing = set(Level) - set(verdicts)
    if missing:
        raise ValueError(f"rule {rule_id} has no verdict for {sorted(missing)}")
    device_verdicts = {
        device: _parse_level_map(levels, Verdict)
        for device, levels in table.pop("device_verdicts", {}).items()
    }
    compiler = _parse_level_map(table.pop("compiler"), str)
    cases = {name: RuleCase(**dict(case, verdicts=_parse_level_map(case.get("verdicts", {}), Verdict)))
             for name, case in table.pop("cases", {}).items()}
    tags = tuple(table.pop("tags", ()))
    cap = table.pop("static_severity", None)
    return Rule(
        id=rule_id,
        verdicts=verdicts,
        device_verdicts=device_verdicts,
        compiler=compiler,
        cases=cases,
        tags=tags,
        static_severity=Severity(cap) if cap else None,
        **table,
    )


def _joined(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def consequence(rule: Rule, case: str = "") -> str:
    """What the compiler does with the flagged code, level by level, from the verdicts alone:
    ``rejected at STRICT and COMPATIBLE, at LAX it runs in the interpreter and ...``; ``case``
    names one of the rule's cases, whose clause replaces the misbehaviour.

    Written for every level (not just the configured one) so that a finding's text does not
    depend on the run's settings; a device whose verdicts differ is named.
    """
    groups: dict[Verdict, list[Level]] = {}
    for level in Level:
        groups.setdefault(rule.verdict(level, case=case) if case else rule.verdicts[level],
                          []).append(level)
    every = len(groups) == 1
    parts = []
    for verdict, levels in groups.items():
        where = "every level" if every else _joined([level.name for level in levels])
        if verdict is Verdict.REJECTED:
            parts.append(f"rejected at {where}")
        else:
            shape = rule.cases[case] if case else None
            misbehaves = (shape.misbehaves if shape else "") or rule.misbehaves
            accepted = (shape.accepted if shape else "") or rule.accepted or "it compiles"
            what = misbehaves if verdict is Verdict.MISBEHAVES else accepted
            parts.append(f"at {where}{',' * every} {what}")
    text = ", ".join(parts)
    others = [device for device in DEVICES if device not in rule.device_verdicts]
    if rule.device_verdicts and others:
        text += f" on {_joined(others)}"
    return text


@cache
def replacement_table(name: str) -> dict:
    """One table of data/replacements.toml: ``names`` (qualified host name -> MindSpore spelling),
    optional ``prefixes`` (a module prefix -> the MindSpore module that mirrors it), ``default``."""
    return _data("replacements")[name]


@cache
def rules() -> tuple[Rule, ...]:
    """Every rule, from rules/<family>.toml, ordered by id."""
    found: list[Rule] = []
    folder = resources.files(__package__).joinpath("rules")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text("utf-8"))
            found.extend(_rule_from_table(rule_id, dict(table)) for rule_id, table in data["rule"].items())
    return tuple(sorted(found, key=lambda r: r.id[1:]))


def _data(name: str) -> dict:
    folder = resources.files(__package__).joinpath("data")
    return tomllib.loads(folder.joinpath(f"{name}.toml").read_text("utf-8"))


@cache
def snapshot(name: str) -> dict:
    """A MindSpore snapshot (``data/<name>.toml``): what MindSpore's own source says (supported
    builtins, the jit-forbidden registry, nn.Cell's and Tensor's attributes), read once from an installed
    MindSpore by ``python -m msgraphlint.knowledge.snapshots`` so the static path never imports it."""
    return _data(name)


@cache
def tensor_attribute_names() -> frozenset[str]:
    """Every attribute a Tensor or a Parameter may have (a superset: a name not in it is
    certainly missing)."""
    return frozenset(snapshot("tensor_attributes")["names"])


@cache
def _index() -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for rule in rules():
        table[rule.id.lower()] = rule
        table[rule.symbol.lower()] = rule
    return table


def rule(key: str) -> Rule:
    """Look a rule up by id or symbol (case-insensitive)."""
    return _index()[key.lower()]


def find_rule(key: str) -> Rule | None:
    return _index().get(key.lower())


def families() -> tuple[str, ...]:
    return tuple(dict.fromkeys(r.family for r in rules()))


def select_rules(selectors: list[str]) -> set[str]:
    """Rule ids named by ids, symbols or family names; unknown selectors raise KeyError."""
    chosen: set[str] = set()
    family_names = set(families())
    for selector in selectors:
        if selector in family_names:
            chosen.update(r.id for r in rules() if r.family == selector)
        elif (found := find_rule(selector)) is not None:
            chosen.add(found.id)
        else:
            raise KeyError(selector)
    return chosen
