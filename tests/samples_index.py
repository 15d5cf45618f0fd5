"""The samples/ convention, read once for every test module.

samples/<family>/<symbol>_bad.py and <symbol>_good.py exist for every rule (family names with
underscores). A line that should carry a finding ends with ``# expect: <symbol>[, <symbol>...]``;
a good sample has no such line and must get no finding at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from msgraphlint.knowledge import catalogue

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
_EXPECT = re.compile(rb"#\s*expect:\s*([\w\-, ]+)")
# Rules whose bad input cannot live in a repository; their tests make it on the fly.
MADE_IN_TESTS = frozenset({"unreadable-file"})
# Rules only `--confirm` raises (the compiler finds them, the static checkers cannot): their
# samples follow the convention, the compiler tests judge them, but the static engine must stay
# silent on them; tests/test_confirm.py checks their `# expect:` lines.
FOUND_BY_CONFIRM = frozenset({"graph-compile-error"})


@dataclass(frozen=True)
class Sample:
    rule: catalogue.Rule
    kind: str  # "bad" | "good"
    path: Path

    @property
    def id(self) -> str:
        return f"{self.rule.symbol}-{self.kind}"

    def static_expected(self) -> set[tuple[str, int]]:
        """What the static engine (no --confirm) must find."""
        return set() if self.rule.symbol in FOUND_BY_CONFIRM else self.expected()

    def expected(self) -> set[tuple[str, int]]:
        """(symbol, line) pairs from `# expect:` comments (read as bytes: samples may not decode)."""
        found = set()
        for number, line in enumerate(self.path.read_bytes().splitlines(), start=1):
            if match := _EXPECT.search(line):
                for symbol in match.group(1).decode().split(","):
                    found.add((symbol.strip(), number))
        return found


def sample_path(rule: catalogue.Rule, kind: str) -> Path:
    return SAMPLES / rule.family.replace("-", "_") / f"{rule.symbol.replace('-', '_')}_{kind}.py"


def all_samples() -> list[Sample]:
    return [
        Sample(rule, kind, sample_path(rule, kind))
        for rule in catalogue.rules()
        if rule.symbol not in MADE_IN_TESTS
        for kind in ("bad", "good")
    ]
