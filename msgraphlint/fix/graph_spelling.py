"""The graph-mode spelling of a host round trip, for ``--confirm``'s lost-gradient evidence.

A host call on a tensor loses its gradient in GRAPH_MODE, and in PyNative too, so comparing with
PyNative shows nothing (issue 33). What shows it is the same target compiled with the code spelled
the way a graph computes it: ``Tensor(scipy.special.expit(x.asnumpy()))`` -> ``ops.sigmoid(x)``.
The rewrite takes the whole round trip the finding is part of, up to the outermost host piece of
its statement: host copies (``x.asnumpy()`` -> ``x``), host calls the catalogue names an ops
function for (``np.negative`` -> ``ops.neg``), and the ``Tensor(...)`` that wraps their result
back (a tensor already). A host copy assigned to a name (``values = x.asnumpy()``) also unwraps
the ``Tensor(...)`` calls of the same function that read it. For confirmation only: never offered
as a fix, never written to the user's files.
"""

from __future__ import annotations

import ast
import re

from ..engine.findings import Finding, Fix
from ..knowledge.catalogue import rule as lookup_rule
from .edits import ATOMS, SourceText
from .rules import mindspore_name

# The rules whose findings are host round trips (their message claims a lost gradient).
SYMBOLS = frozenset({"host-call-on-tensor", "numpy-reduction-on-tensor", "asnumpy-in-graph"})
HOST_COPIES = frozenset({"asnumpy", "numpy"})
OPS_NAME = re.compile(r"ops\.([A-Za-z_]\w*)\b")


class _Spelling:
    def __init__(self, source: SourceText, ops: str):
        self.source, self.ops = source, ops
        self.table = lookup_rule("W8720")  # host-call-on-tensor's replacements: the host table
        self.parents: dict[int, ast.AST] = {}
        for node in ast.walk(source.module.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node

    # ----- what a call is -------------------------------------------------------------------

    @staticmethod
    def host_copy(node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in HOST_COPIES and not node.args and not node.keywords)

    def ops_name(self, node: ast.AST) -> str | None:
        if not isinstance(node, ast.Call) or not node.args:
            return None
        qualified = self.source.module.imports.qualify(node.func) or ""
        if not qualified or qualified.startswith("mindspore"):
            return None
        named = OPS_NAME.match(self.table.replacement_for(qualified))
        return named.group(1) if named else None

    def wrapper(self, node: ast.AST) -> bool:
        """``Tensor(<host value>)``: a host piece only around another host piece."""
        return (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
                and self.source.module.imports.qualify(node.func) == "mindspore.Tensor"
                and any(self.host_copy(n) or self.ops_name(n) for n in ast.walk(node.args[0])))

    def host(self, node: ast.AST) -> bool:
        return self.host_copy(node) or self.ops_name(node) is not None or self.wrapper(node)

    # ----- the rewrite ----------------------------------------------------------------------

    def root(self, node: ast.AST) -> ast.AST | None:
        """The outermost host piece of the statement holding ``node``."""
        found = node if self.host(node) else None
        current = node
        while not isinstance(current, ast.stmt) and id(current) in self.parents:
            current = self.parents[id(current)]
            if isinstance(current, ast.expr) and self.host(current):
                found = current
        return found

    def render(self, node: ast.AST) -> str:
        if self.host_copy(node):
            return self.operand(node.func.value)
        if self.wrapper(node):
            return self.operand(node.args[0])
        if (name := self.ops_name(node)) is not None:
            parts = [self.render(a) for a in node.args]
            parts += [f"{k.arg}={self.render(k.value)}" if k.arg else f"**{self.render(k.value)}"
                      for k in node.keywords]
            return f"{self.ops}.{name}({', '.join(parts)})"
        # Anything else keeps its text, with the host pieces inside it spelled the graph way.
        start, end = self.source.start(node), self.source.end(node)
        text, pieces = self.source.text, []
        for inner in self._outermost_host(node):
            pieces.append((self.source.start(inner) - start, self.source.end(inner) - start,
                           self.render(inner)))
        out, at = [], 0
        segment = text[start:end]
        for a, b, new in sorted(pieces):
            out += [segment[at:a], new]
            at = b
        out.append(segment[at:])
        rendered = "".join(out)
        # A multi-line piece lifted out of its brackets would not parse: keep it bracketed.
        return f"({rendered})" if "\n" in rendered and not isinstance(node, ATOMS) else rendered

    def operand(self, node: ast.AST) -> str:
        """``node`` rendered to stand where a call stood: bracketed unless it is an atom."""
        text = self.render(node)
        return text if isinstance(node, ATOMS) else f"({text})"

    def _outermost_host(self, node: ast.AST):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) and self.host(child):
                yield child
            else:
                yield from self._outermost_host(child)

    def readers(self, root: ast.AST) -> list[ast.AST]:
        """``values = x.asnumpy()``: the Tensor(...) calls of the same function reading values."""
        statement = self.parents.get(id(root))
        if not (isinstance(statement, ast.Assign) and statement.value is root
                and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name)):
            return []
        name = statement.targets[0].id
        function = statement
        while function is not None and not isinstance(function, (ast.FunctionDef,
                                                                  ast.AsyncFunctionDef)):
            function = self.parents.get(id(function))
        if function is None:
            return []
        found = []
        for node in ast.walk(function):
            if (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
                    and self.source.module.imports.qualify(node.func) == "mindspore.Tensor"
                    and any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                            for n in ast.walk(node.args[0]))):
                found.append(node)
        return found


def graph_spelling(finding: Finding, source: SourceText) -> Fix | None:
    """The edits that spell the finding's host round trip the graph-mode way, or None."""
    if finding.rule.symbol not in SYMBOLS:
        return None
    node = source.node_at(finding.line, finding.column, finding.end_line, finding.end_column,
                          ast.Call)
    if node is None:
        return None
    ops, imports = mindspore_name(source, "ops")
    if not ops:
        return None
    spelling = _Spelling(source, ops)
    root = spelling.root(node)
    if root is None:
        return None
    roots = [root, *(r for r in spelling.readers(root) if r is not root)]
    edits, shown = [], []
    for piece in roots:
        if any(other is not piece and _inside(piece, other) for other in roots):
            continue
        # A reader's Tensor(...) holds no host piece itself: it goes because what it reads does.
        new = spelling.render(piece) if piece is root else spelling.operand(piece.args[0])
        if new == source.segment(piece):
            continue
        edits.append(source.edit(source.start(piece), source.end(piece), new))
        shown.append(f"{source.segment(piece)} -> {new}")
    if not edits:
        return None
    description = "; ".join(shown)
    edits += imports
    return Fix("unsafe", description, tuple(sorted(edits, key=lambda e: (e.line, e.column))))


def _inside(node: ast.AST, other: ast.AST) -> bool:
    return any(n is node for n in ast.walk(other))
