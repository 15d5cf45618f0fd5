"""Which calls MindSpore compiles and which it hands to the interpreter (JIT Fallback).

MindSpore 2.10 compiles every function it meets in a graph except those of third-party modules
(``mindspore.graph._parse.jit_fallback_modules``): the standard library, and installed packages on
its whitelist (numpy, scipy, torch, PIL, ...). Those it calls through JIT Fallback: at LAX in the
interpreter, at STRICT not at all. ``MS_JIT_IGNORE_MODULES`` adds modules to the third-party side
and ``MS_JIT_MODULES`` takes them off it (comma-separated top-level names); msgraphlint reads both
from the environment, as MindSpore does, and from ``[tool.msgraphlint]``'s ``jit-ignore-modules``
and ``jit-modules``. The whitelist and the standard-library functions the graph implements itself
(``operator.add``, ``functools.partial``) come from a snapshot of the installed MindSpore
(msgraphlint/knowledge/data/third_party_modules.toml).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .catalogue import snapshot

_SNAPSHOT = snapshot("third_party_modules")
WHITELIST = frozenset(_SNAPSHOT["whitelist"])
GRAPH_FUNCTIONS = frozenset(_SNAPSHOT["graph_functions"])
STANDARD_LIBRARY = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)
# Host libraries that are not on the whitelist but have no Python source the compiler could
# compile (C extensions): their calls fail at STRICT and run in the interpreter at LAX (seen with
# 2.10 for cv2).
C_EXTENSIONS = frozenset({"cv2"})
JIT_MODULES_VARIABLE = "MS_JIT_MODULES"
IGNORE_MODULES_VARIABLE = "MS_JIT_IGNORE_MODULES"


@dataclass(frozen=True)
class JitModules:
    """The two adjustments MindSpore reads from the environment, as top-level module names."""

    compiled: frozenset[str] = frozenset()  # MS_JIT_MODULES: compiled though third-party
    fallback: frozenset[str] = frozenset()  # MS_JIT_IGNORE_MODULES: called through fallback

    @classmethod
    def from_settings(cls, environ: Mapping[str, str] = os.environ, compiled: Iterable[str] = (),
                      fallback: Iterable[str] = ()) -> JitModules:
        """The environment's lists (as MindSpore reads them) joined with a configuration's."""
        return cls(
            frozenset(compiled) | _names(environ.get(JIT_MODULES_VARIABLE)),
            frozenset(fallback) | _names(environ.get(IGNORE_MODULES_VARIABLE)),
        )

    def is_fallback(self, qualified: str) -> bool:
        """Whether MindSpore calls this (a dotted name from the file's imports) through JIT
        Fallback instead of compiling it."""
        top = qualified.split(".", 1)[0]
        if top == "mindspore" or top == "builtins" or qualified in GRAPH_FUNCTIONS:
            return False
        if top in self.fallback:  # MindSpore checks the ignore list first
            return True
        if top in self.compiled:
            return False
        return top in STANDARD_LIBRARY or top in WHITELIST or top in C_EXTENSIONS

    def key(self) -> str:
        """For the result cache: findings depend on these lists."""
        return f"{sorted(self.compiled)}|{sorted(self.fallback)}"


def _names(value: str | None) -> frozenset[str]:
    return frozenset(name.strip() for name in (value or "").split(",") if name.strip())
