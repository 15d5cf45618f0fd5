"""Qualified names from a module's own import table, without importing anything.

``import mindspore as ms`` then ``ms.nn.Cell`` and ``from mindspore.nn import Cell as Base`` then
``Base`` both resolve to ``mindspore.nn.Cell``. Module-level aliases (``Base = nn.Cell``) are
followed too. Names defined in the module itself resolve to ``<module>.<name>``.
"""

from __future__ import annotations

import ast
import builtins
from ..knowledge.mindspore import CANONICAL_SPELLINGS

BUILTIN_NAMES = frozenset(dir(builtins))


def canonical(qualname: str) -> str:
    return CANONICAL_SPELLINGS.get(qualname, qualname)


def resolve_relative(module_name: str, is_package: bool, level: int, target: str | None) -> str:
    """Absolute module name for ``from .target import x`` seen in ``module_name``."""
    parts = module_name.split(".") if module_name else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    if target:
        parts.append(target)
    return ".".join(parts)


class ImportTable:
    """Maps the local names of one module to qualified names."""

    def __init__(self, tree: ast.Module, module_name: str = "", is_package: bool = False):
        self.module_name = module_name
        self.names: dict[str, str] = {}
        self._collect(tree.body, is_package)

    def _collect(self, body: list[ast.stmt], is_package: bool) -> None:
        for stmt in body:
            match stmt:
                case ast.Import(names=aliases):
                    for alias in aliases:
                        if alias.asname:
                            self.names[alias.asname] = alias.name
                        else:
                            top = alias.name.split(".")[0]
                            self.names[top] = top
                case ast.ImportFrom(module=module, names=aliases, level=level):
                    base = (
                        resolve_relative(self.module_name, is_package, level, module)
                        if level
                        else module or ""
                    )
                    for alias in aliases:
                        if alias.name != "*":
                            self.names[alias.asname or alias.name] = f"{base}.{alias.name}"
                case ast.ClassDef(name=name) | ast.FunctionDef(name=name) | ast.AsyncFunctionDef(
                    name=name
                ):
                    self.names.setdefault(name, self._local(name))
                case ast.Assign(targets=[ast.Name(id=alias)], value=value) if isinstance(
                    value, (ast.Name, ast.Attribute)
                ):
                    if (resolved := self.qualify(value)) is not None:
                        self.names[alias] = resolved
                case ast.If(body=if_body, orelse=else_body):
                    # `if TYPE_CHECKING:` / try-import fallbacks still name the same things.
                    self._collect(if_body, is_package)
                    self._collect(else_body, is_package)
                case ast.Try(body=try_body, handlers=handlers, orelse=else_body):
                    self._collect(try_body, is_package)
                    for handler in handlers:
                        self._collect(handler.body, is_package)
                    self._collect(else_body, is_package)

    def _local(self, name: str) -> str:
        return f"{self.module_name}.{name}" if self.module_name else name

    def qualify(self, node: ast.expr) -> str | None:
        """Dotted qualified name of a Name/Attribute chain, or None if it is not one."""
        attrs: list[str] = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = self.names.get(node.id)
        if head is None:
            if node.id not in BUILTIN_NAMES:
                return None
            head = f"builtins.{node.id}"
        return canonical(".".join([head, *reversed(attrs)]))
