"""Inline suppression comments, read the way pylint reads them, so the CLI and the plugin agree.

``# pylint: disable=<symbol|id>[, ...]`` at the end of a line suppresses that line; on a line of its
own it suppresses the rest of the enclosing block (until a matching ``enable`` or a dedent);
``disable-next=`` suppresses the next line; ``skip-file`` the whole file. ``# msgraphlint:`` is
accepted as a synonym for editors that only run the CLI.
"""

from __future__ import annotations

import dataclasses
import re

from ..knowledge.catalogue import find_rule
from .findings import Finding
from ..syntax.source import comment_lines, split_lines

_PRAGMA = re.compile(
    r"#\s*(?:pylint|msgraphlint)\s*:\s*(disable-next|disable|enable|skip-file)\s*(?:=\s*([^#]*))?"
)


def _rule_keys(names: str | None) -> set[str]:
    keys: set[str] = set()
    # As pylint: names split at commas and spaces; words that name no rule are passed over.
    for name in re.split(r"[,\s]+", (names or "").strip()):
        name = name.lower()
        if name == "all":
            keys.add("all")
        elif (rule := find_rule(name)) is not None:
            keys.add(rule.id)
    return keys


class Suppressions:
    def __init__(self, text: str):
        self.skip_file = False
        self._by_line: dict[int, set[str]] = {}
        self._except: dict[int, set[str]] = {}  # re-enabled inside a `disable=all` block
        if not _PRAGMA.search(text):
            return  # tokenizing costs more than parsing: only when a pragma may be there
        lines = split_lines(text)
        for line_no, comment in comment_lines(text).items():
            for match in _PRAGMA.finditer(comment):
                self._record(lines, line_no, match.group(1), _rule_keys(match.group(2)))

    def _record(self, lines: list[str], line_no: int, action: str, keys: set[str]) -> None:
        if action == "skip-file":
            self.skip_file = True
            return
        if action == "enable":
            return  # enables end a block disable; handled while extending blocks below
        if action == "disable-next":
            self._add(line_no + 1, keys)
            return
        code = lines[line_no - 1]
        if code.split("#", 1)[0].strip():  # trailing comment: this line only
            self._add(line_no, keys)
            return
        indent = len(code) - len(code.lstrip())
        active, enabled_again = set(keys), set()
        for number in range(line_no, len(lines) + 1):
            text = lines[number - 1]
            stripped = text.strip()
            if stripped and not stripped.startswith("#"):
                if len(text) - len(text.lstrip()) < indent:
                    break
            if number != line_no and (match := _PRAGMA.search(text)) and match.group(1) == "enable":
                enabled = _rule_keys(match.group(2))
                if "all" in enabled:
                    break
                active -= enabled  # an enable ends only the rules it names
                enabled_again |= enabled
                if not active:
                    break
            self._add(number, active)
            if "all" in active and enabled_again:
                self._except.setdefault(number, set()).update(enabled_again)

    def _add(self, line: int, keys: set[str]) -> None:
        self._by_line.setdefault(line, set()).update(keys)

    def is_suppressed(self, finding: Finding) -> bool:
        if self.skip_file:
            return True
        keys = self._by_line.get(finding.line, ())
        if finding.rule_id in keys:
            return True
        return "all" in keys and finding.rule_id not in self._except.get(finding.line, ())

    def apply(self, finding: Finding) -> Finding:
        if self.is_suppressed(finding):
            return dataclasses.replace(finding, suppressed=True)
        return finding
