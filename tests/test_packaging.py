"""The wheel users install: rule files included, checkers/ mapped into the package namespace."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from .samples_index import ROOT


def test_wheel_contents(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("msgraphlint-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names}
    (metadata,) = top_level - {"msgraphlint"}  # nothing else, no top-level `checkers`
    assert metadata.endswith(".dist-info")
    family_files = {p.name for p in (ROOT / "msgraphlint" / "knowledge" / "rules").glob("*.toml")}
    assert {n.split("/")[-1] for n in names if n.startswith("msgraphlint/knowledge/rules/")} == family_files
    # Every module and data file of the package ships (a subpackage left out of pyproject's
    # list would install without it: an internal error on the first run).
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "msgraphlint").rglob("*")
               if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts}
    assert sources <= set(names), sorted(sources - set(names))
    checker_modules = {p.name for p in (ROOT / "checkers").glob("*.py")}
    assert {n.split("/")[-1] for n in names if n.startswith("msgraphlint/checkers/")} == checker_modules
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("entry_points.txt"))
    ).decode()
    assert "msgraphlint = msgraphlint.cli:main" in entry_points
