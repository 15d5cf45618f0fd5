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
    if len(files) < 10:  # Debian's python3 ships without the `test` package and its data
        pytest.skip(f"CPython's test data is not installed under {STDLIB}")
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


def test_an_expression_of_twenty_thousand_terms_is_a_finding_and_the_other_files_still_count(tmp_path):
    """Python cannot build the syntax tree (nor import the file): a syntax-error finding for that
    file, no internal error, and the next file's findings are all there."""
    terms = " + ".join(["x"] * 20_000)
    (tmp_path / "deep.py").write_text(
        f"from mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n        return {terms}\n")
    (tmp_path / "other.py").write_text(
        "import math\nfrom mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        return math.sqrt(x.sum())\n")
    import sys

    # At Python's default limit (a host such as pylint may raise it; then the file parses and
    # is analysed like any other).
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        run = new_engine().check_paths([tmp_path])
    finally:
        sys.setrecursionlimit(old_limit)
    assert run.internal_errors == []
    assert sorted((f.path.name, f.rule.symbol) for f in run.findings) == [
        ("deep.py", "syntax-error"), ("other.py", "host-call-on-tensor")]
    deep = next(f for f in run.findings if f.path.name == "deep.py")
    assert "too deeply nested" in deep.message and "cannot import" in deep.message


def test_code_nested_past_the_default_recursion_limit_is_analysed(tmp_path):
    """A chain of 2,000 terms parses (Python's parser stops near 3,000) but its walk needs more
    stack than the default limit: it is checked again on a deeper stack, not given up."""
    terms = " + ".join(["x"] * 2_000)
    (tmp_path / "m.py").write_text(
        "import math\nfrom mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        f"        return math.sqrt(({terms}).sum())\n")
    run = new_engine().check_paths([tmp_path])
    assert run.internal_errors == []
    assert [f.rule.symbol for f in run.findings] == ["host-call-on-tensor"]
