"""Finding: the one type every stage after the checkers speaks."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from ..knowledge.catalogue import Level, Rule, Severity, rule as lookup_rule

MAX_SHOWN = 60  # characters of the code a message quotes


def shown(node: ast.AST) -> str:
    """The code of ``node`` as a message quotes it: shortened past MAX_SHOWN characters."""
    text = ast.unparse(node)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


@dataclass(frozen=True)
class Edit:
    """Replace a span of a file (1-based lines, 1-based character columns, end exclusive, as
    findings count them) with ``content``; an empty span inserts."""

    path: Path
    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True)
class Fix:
    """One exact rewrite for a finding: every edit applies, or none does."""

    applicability: str  # "safe" (cannot change what the code means) or "unsafe"
    description: str  # what the fix does, for the report
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Finding:
    path: Path
    rule_id: str
    message: str  # the catalogue template filled in, plus how a helper is reached
    line: int  # 1-based
    column: int  # 1-based, in characters (not UTF-8 bytes)
    end_line: int
    end_column: int  # 1-based, exclusive, in characters
    reached_from: str | None = None
    target: str | None = None  # the compiled root ("Net.construct") the finding belongs to
    target_line: int | None = None  # where that root is defined
    target_path: Path | None = None
    level_override: Level | None = None  # the code fixes the level (e.g. jit(fullgraph=True))
    advice_only: bool = False  # e.g. capture_mode="bytecode": the graph is split, not rejected
    suppressed: bool = False  # an inline `# pylint: disable=...` names this rule
    args: tuple = field(default=(), compare=False)
    case: str = ""  # which of the rule's cases the message states ("" for the rule's default)
    # Set by --confirm (msgraphlint.confirm): "confirmed" | "not-reproduced" | "fails-elsewhere" |
    # "unverified", the
    # compiler's own message, and evidence as (kind, detail) pairs, kind one of compile, output,
    # gradient, effect, fallback, import, reason.
    confirmation: str | None = field(default=None, compare=False)
    compiler_message: str | None = field(default=None, compare=False)
    evidence: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    # Set by the pipeline (msgraphlint.baseline.with_fingerprints): stable across edits elsewhere
    # in the file; SARIF, GitLab and the baseline all use it.
    fingerprint: str | None = field(default=None, compare=False)
    fix: Fix | None = field(default=None, compare=False)  # set by msgraphlint.fix.attach
    # Whether attach looked for its fix already (the engine's processes do, where the file is
    # parsed): the report's process then does not parse the file again.
    fix_sought: bool = field(default=False, compare=False)

    @property
    def rule(self) -> Rule:
        return lookup_rule(self.rule_id)

    @property
    def evidence_kind(self) -> str:
        """The kind of evidence that shows the consequence this finding's message states."""
        return self.rule.evidence_for(self.case)

    def level(self, configured: Level) -> Level:
        return self.level_override or configured

    def severity(self, configured: Level, device: str = "CPU") -> Severity:
        if self.advice_only:
            return Severity.ADVICE
        return self.rule.severity(self.level(configured), device, self.case)

    def sort_key(self) -> tuple:
        return (str(self.path), self.line, self.column, self.rule_id, self.message)
