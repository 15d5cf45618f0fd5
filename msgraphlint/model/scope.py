"""What model/ and values/ ask of their callers, as protocols they own.

The model's helper modules (attributes.py, randomness.py, callers.py) are mixed into or called
by ReachModel, and the values layer is handed the engine's FunctionContext. Naming those two
classes in annotations would make the lower layers import the higher ones (a cycle through
type annotations); the protocols below say exactly which members they use, and ReachModel and
FunctionContext (or values/kinds.FunctionView) satisfy them structurally.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..syntax.project import ClassInfo, ModuleInfo, Project
from .compiled import CompiledFunction, Construction, FunctionNode, Target
from .variables import FunctionValues

Answer = TypeVar("Answer")


class ProjectModel(Protocol):
    """The members of ReachModel that its own concerns and the model's helpers call."""

    @property
    def project(self) -> Project: ...

    def memo(self, cache: dict, key: Any, compute: Callable[[], Answer]) -> Answer: ...

    def table(self, name: str) -> dict: ...

    def values(self, compiled: CompiledFunction) -> FunctionValues: ...

    def reach(self, target: Target) -> list[CompiledFunction]: ...

    def mro(self, cls: ClassInfo) -> list[ClassInfo]: ...

    def subclasses(self, cls: ClassInfo, near: Path) -> list[ClassInfo]: ...

    def find_method(self, cls: ClassInfo, name: str,
                    skip_self: bool = False) -> tuple[ClassInfo, FunctionNode] | None: ...

    def is_cell(self, cls: ClassInfo) -> bool: ...

    def is_jit_class(self, cls: ClassInfo) -> bool: ...

    def resolve_class(self, qualified: str, near: ModuleInfo, depth: int = 0) -> ClassInfo | None: ...

    def class_named(self, expr: ast.expr, module: ModuleInfo,
                    scope: tuple[ast.AST, ...]) -> ClassInfo | None: ...

    def self_classes(self, compiled: CompiledFunction) -> list[ClassInfo]: ...

    def self_heads(self, compiled: CompiledFunction) -> list[ClassInfo]: ...

    def constructor_calls(self, cls: ClassInfo) -> list[Construction] | None: ...

    def constructor_arguments(self, cls: ClassInfo, init: FunctionNode,
                              value: ast.expr) -> list[Construction] | None: ...

    def driver_calls(self, target: Target) -> tuple[ModuleInfo, ast.AST, list[ast.Call]] | None: ...


class FunctionScope(Protocol):
    """One compiled function as the model's helpers see it: the engine's FunctionContext, or a
    view built from the model alone (values/kinds.FunctionView) for a caller's function."""

    @property
    def model(self) -> ProjectModel: ...

    @property
    def module(self) -> ModuleInfo: ...

    @property
    def function(self) -> CompiledFunction: ...

    @property
    def owner(self) -> ClassInfo | None: ...

    @property
    def values(self) -> FunctionValues: ...

    def qualify(self, node: ast.expr) -> str | None: ...

    def is_self(self, node: ast.expr) -> bool: ...

    def is_variable(self, node: ast.expr | None) -> bool: ...
