"""The coverage map of the graph front end's error messages (``data/frontend_errors.toml``).

Every user-facing error message MindSpore's graph front end raises, read from an installed
MindSpore by ``tools/frontend_errors.py``, with the rules that predict it or the reason none can.
``docs/frontend-errors.md`` is generated from it (``python -m msgraphlint.docgen``).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data" / "frontend_errors.toml"

CATEGORIES = {
    "parse-resolve": "Parse and resolve",
    "static-analysis": "Static analysis and type inference",
    "sequence-dict-str": "Operations on sequences, dicts and str",
    "builtins-composite": "Built-ins and composite functions",
    "attribute-access": "Attribute access",
    "fallback": "JIT Fallback",
}
# Why no rule predicts a message. Only decidable-no-rule-yet could be decided from the source.
REASONS = {
    "runtime-value": "depends on a value known only at run time (a tensor's contents, a shape the"
                     " code does not show, a recursion depth)",
    "kernel-check": "an operator's or Tensor method's own check of its arguments, dtypes and"
                    " shapes, which PyNative makes too",
    "internal": "an internal invariant or a path user code does not reach (a malformed graph, a"
                " missing registration, MindSpore's own helpers, warnings)",
    "api-misuse": "a wrong call of a MindSpore API that checks its own arguments (vmap, grad, Scan,"
                  " ForiLoop, WhileLoop, shard, mutable), outside the graph syntax",
    "decidable-no-rule-yet": "could be decided from the source before running; no rule yet",
}
LEVELS = ("strict", "compatible", "lax")
SOURCES = ("python", "c++")


@dataclass(frozen=True)
class Message:
    id: str
    message: str
    type: str
    source: str
    where: str
    category: str
    levels: tuple[str, ...]
    releases: tuple[str, ...]
    rules: tuple[str, ...] = ()
    reason: str = ""
    note: str = ""

    @property
    def decidable(self) -> bool:
        """Could be decided from the source: a rule predicts it, or one could."""
        return bool(self.rules) or self.reason == "decidable-no-rule-yet"


def release_key(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


@cache
def messages(path: Path = DATA) -> tuple[Message, ...]:
    entries = tomllib.loads(path.read_text("utf-8")).get("message", [])
    return tuple(
        Message(**{"type": "", **entry, **{key: tuple(entry.get(key, ())) for key in ("levels", "releases", "rules")}})
        for entry in entries
    )


def releases(entries: tuple[Message, ...] | None = None) -> list[str]:
    entries = messages() if entries is None else entries
    return sorted({r for m in entries for r in m.releases}, key=release_key)


def coverage(entries: tuple[Message, ...] | None = None) -> tuple[int, int]:
    """(messages with a rule, messages decidable statically)."""
    entries = messages() if entries is None else entries
    decidable = [m for m in entries if m.decidable]
    return sum(bool(m.rules) for m in decidable), len(decidable)
