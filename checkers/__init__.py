"""Rule families, one module each; installed as ``msgraphlint.checkers``.

Every module defines one :class:`msgraphlint.engine.analyze.Family` subclass. They are found by walking
this package, so adding a family is adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil

from msgraphlint.engine.analyze import Family


def _discover() -> list[type[Family]]:
    found: list[type[Family]] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(
            value
            for value in vars(module).values()
            if isinstance(value, type)
            and issubclass(value, Family)
            and value is not Family
            and value.__module__ == module.__name__
        )
    return found


FAMILIES: list[type[Family]] = _discover()
