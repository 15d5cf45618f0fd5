"""A scratch copy of the projects holding some files, with new texts for them: what
``--fix --confirm`` compiles to verify fixes, and what confirmation compiles to see whether a
finding's own rewrite gets its target past an error (confirm/counterfactual.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..syntax.project import project_root_for, walk_python_files


def scratch_copy(new_texts: dict[Path, str], scratch: Path) -> dict[Path, Path]:
    """Every Python file of the projects holding the fixed files, under ``scratch``, with the
    fixed texts in place; returns fixed file -> its copy."""
    copies: dict[Path, Path] = {}
    roots = sorted({project_root_for(Path(os.path.abspath(path)).parent) for path in new_texts})
    for index, root in enumerate(roots):
        # The root keeps its own name: a package imported by its name (``from pkg.model import
        # Net``) must still be found under it.
        target = scratch / str(index) / root.name
        for path in walk_python_files(root):
            destination = target / path.relative_to(root)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
        for marker in ("pyproject.toml", "setup.py", "setup.cfg"):
            if (root / marker).is_file():
                shutil.copyfile(root / marker, target / marker)
        for path, text in new_texts.items():
            absolute = Path(os.path.abspath(path))
            if root in absolute.parents:
                copy = target / absolute.relative_to(root)
                copy.write_text(text, "utf-8")
                copies[path] = copy
    return copies


def scratch_roots(scratch: Path) -> list[Path]:
    """The project copies ``scratch_copy`` made under ``scratch``."""
    return sorted(root for index in scratch.iterdir() if index.is_dir() for root in index.iterdir()
                  if root.is_dir())
