"""No crash on code nobody here wrote: the standard library's deliberately broken files (Python 2,
BOMs, bad encodings, syntax errors) and MindSpore's own installed package. Each bad file is one
finding for that file; nothing is an internal error. (The model zoos and the whole standard
library: `python tools/benchmark.py --robustness`.)"""

from __future__ import annotations

import importlib.util
import sysconfig
from pathlib import Path

import pytest

from msgraphlint.pipeline import new_engine

STDLIB = Path(sysconfig.get_paths()["stdlib"])
NASTY_NAME_PARTS = ("bad", "coding", "py2", "bom", "grammar")


def nasty_stdlib_files() -> list[Path]:
    return sorted(
        path
        for path in STDLIB.rglob("*.py")
        if "site-packages" not in path.parts and any(part in path.name for part in NASTY_NAME_PARTS)
    )


def test_the_standard_librarys_broken_files_are_findings_not_crashes():
    files = nasty_stdlib_files()
    assert len(files) >= 10, f"expected CPython's test data under {STDLIB}"
    run = new_engine().check_files(files)
    assert run.internal_errors == []
    input_rules = {f.rule.symbol for f in run.findings if f.rule.family == "input"}
    assert "syntax-error" in input_rules  # Python 2 grammar, invalid source
    assert {"utf8-bom", "undecodable-file"} & input_rules


@pytest.mark.slow
def test_mindspores_own_package_checks_without_an_internal_error():
    spec = importlib.util.find_spec("mindspore")  # locates it; the static path never imports it
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("MindSpore is not installed (the confirm extra)")
    package = Path(next(iter(spec.submodule_search_locations)))
    run = new_engine().check_paths([package], jobs=2)
    assert run.files > 1000
    assert run.internal_errors == []
