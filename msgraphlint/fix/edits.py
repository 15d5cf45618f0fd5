"""Exact text edits from the syntax tree's positions, as ruff makes them: a fix replaces the
characters of one span and leaves every other character of the file (formatting, comments) as
it was. Positions are those of findings: 1-based lines, 1-based character columns.
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass
from pathlib import Path

from ..engine.findings import Edit
from ..syntax.project import ModuleInfo

LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Expressions that can stand before `.attr` or inside a call without parentheses.
ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List, ast.Tuple,
         ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass
class SourceText:
    """A module's text with offsets for ast positions (UTF-8 byte columns) and edit positions
    (character columns)."""

    path: Path
    text: str
    module: ModuleInfo

    def __post_init__(self) -> None:
        self.starts = line_starts(self.text)
        self.lines = [self.text[a:b] for a, b in zip(self.starts, [*self.starts[1:], len(self.text)])]

    # ----- positions --------------------------------------------------------------------------

    def offset(self, line: int, byte_column: int) -> int:
        """Absolute character offset of an ast position."""
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return self.starts[line - 1] + len(text.encode("utf-8")[:byte_column].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)

    def position(self, offset: int) -> tuple[int, int]:
        """(1-based line, 1-based character column) of an absolute offset."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def edit(self, start: int, end: int, content: str) -> Edit:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Edit(self.path, line, column, end_line, end_column, content)

    def segment(self, node: ast.AST) -> str:
        return self.text[self.start(node) : self.end(node)]

    # ----- finding the flagged node --------------------------------------------------------------

    def node_at(self, line: int, column: int, end_line: int, end_column: int, kind) -> ast.AST | None:
        """The node of type ``kind`` a finding spans (its columns are 1-based characters)."""
        start = self.starts[line - 1] + column - 1
        end = self.starts[end_line - 1] + end_column - 1
        for node in self._nodes_on(line):
            if isinstance(node, kind) and self.start(node) == start and self.end(node) == end:
                return node
        return None

    def _nodes_on(self, line: int) -> list[ast.AST]:
        """The module's nodes that start on ``line`` (indexed once per text)."""
        index = self.__dict__.get("_by_line")
        if index is None:
            index = self.__dict__["_by_line"] = {}
            for node in self.module.nodes(self.module.tree):
                if (number := getattr(node, "lineno", None)) is not None:
                    index.setdefault(number, []).append(node)
        return index.get(line, [])

    # ----- the module's names and calls, indexed once per text ------------------------------------
    # A fixer asks these once per finding; walking the module for each made a file with N findings
    # of one rule cost N walks of N copies' code (ms_function imported again in each of 80 copies
    # took 10 s of the CLI's 11, issue 34).

    def stored_names(self) -> set[str]:
        """Every name the module assigns anywhere (``x = ...``, ``for x in``, ...)."""
        return self._index()[0]

    def loads(self, name: str) -> list[ast.Name]:
        """The reads of ``name`` anywhere in the module, in source order."""
        return self._index()[1].get(name, [])

    def call_of(self, func: ast.expr) -> ast.Call | None:
        """The call whose callee is ``func``, if it is one."""
        return self._index()[2].get(id(func))

    def sole_argument_of(self, node: ast.expr) -> ast.Call | None:
        """The call whose one argument (no keywords) is ``node``, if there is one."""
        return self._index()[3].get(id(node))

    def assigned_alone(self, target: ast.expr) -> bool:
        """``target = value``: the one target of a plain assignment."""
        return id(target) in self._index()[4]

    def memo(self, key, compute):
        """``compute()`` once per text and key: what every finding of a rule in the module shares."""
        memos = self.__dict__.setdefault("_memos", {})
        if key not in memos:
            memos[key] = compute()
        return memos[key]

    def _index(self):
        index = self.__dict__.get("_names_index")
        if index is None:
            stored: set[str] = set()
            loads: dict[str, list[ast.Name]] = {}
            calls: dict[int, ast.Call] = {}
            sole: dict[int, ast.Call] = {}
            assigned: set[int] = set()
            for node in self.module.nodes(self.module.tree):
                kind = node.__class__
                if kind is ast.Name:
                    if node.ctx.__class__ is ast.Store:
                        stored.add(node.id)
                    elif node.ctx.__class__ is ast.Load:
                        loads.setdefault(node.id, []).append(node)
                elif kind is ast.Call:
                    calls[id(node.func)] = node
                    if len(node.args) == 1 and not node.keywords:
                        sole[id(node.args[0])] = node
                elif kind is ast.Assign and len(node.targets) == 1:
                    assigned.add(id(node.targets[0]))
            index = self.__dict__["_names_index"] = (stored, loads, calls, sole, assigned)
        return index

    def dot_before(self, attribute: ast.Attribute) -> int:
        """Offset of the `.` of ``receiver.attr`` (there may be spaces, or a line break inside
        brackets, between them)."""
        position = self.end(attribute) - len(attribute.attr)
        while position > 0 and self.text[position - 1] in " \t\r\n\\":
            position -= 1
        assert self.text[position - 1] == "."
        return position - 1

    def receiver(self, attribute: ast.Attribute) -> str:
        """The text before `.attr` exactly as written, parentheses included."""
        return self.text[self.start(attribute) : self.dot_before(attribute)].rstrip()


def operand(text: str, node: ast.expr) -> str:
    """``text`` (the source of ``node``) ready to stand before `.attr`: parenthesised unless it is
    an atom, so that operator precedence keeps its meaning (`(a != 0).astype(...)`)."""
    if isinstance(node, ATOMS) or (text.startswith("(") and _same_expression(text[1:-1], node)):
        return text
    return f"({text})"


def argument(text: str, node: ast.expr) -> str:
    """``text`` as a call's only argument: one redundant pair of outer parentheses dropped."""
    if text.startswith("(") and text.endswith(")") and _same_expression(text[1:-1], node):
        return text[1:-1].strip()
    return text


def _same_expression(text: str, node: ast.expr) -> bool:
    try:
        parsed = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return False
    return ast.dump(parsed) == ast.dump(node)


def line_starts(text: str) -> list[int]:
    """Each line's offset in ``text``, lines broken as ast counts them (not str.splitlines',
    which also breaks at form feeds)."""
    return [0] + [match.end() for match in LINE_BREAK.finditer(text)]


def apply_edits(text: str, edits: list[Edit], source: SourceText | None = None) -> str:
    """``text`` with the (non-overlapping) edits applied, last first so offsets stay valid;
    ``source``, when given, is ``text`` already split into lines."""
    starts = source.starts if source is not None else line_starts(text)
    located = sorted(
        ((starts[e.line - 1] + e.column - 1, starts[e.end_line - 1] + e.end_column - 1,
          e.content) for e in edits),
        reverse=True,
    )
    for start, end, content in located:
        text = text[:start] + content + text[end:]
    return text
