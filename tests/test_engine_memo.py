"""One long-lived engine (the pylint plugin's, an editor's) answers as a fresh one does after a
buffer changes: every derived answer, the families' cross-file ones included, goes through the
model's one memo and is dropped when the project changes."""

from __future__ import annotations

from pathlib import Path

from msgraphlint.pipeline import check_buffer, new_engine

BASE = b"""\
from mindspore import nn


class Base(nn.Cell):
    def construct(self, x):
        return x * self.scale
"""
CHILD_SETS = b"""\
from base import Base


class Child(Base):
    def __init__(self):
        super().__init__()
        self.scale = 2.0
"""
CHILD_DROPS = CHILD_SETS.replace(b"        self.scale = 2.0\n", b"        self.other = 2.0\n")


def symbols(findings) -> list[str]:
    return sorted(f.rule.symbol for f in findings)


def test_an_edited_subclass_changes_the_base_class_findings(tmp_path: Path):
    (tmp_path / "base.py").write_bytes(BASE)
    (tmp_path / "child.py").write_bytes(CHILD_SETS)
    engine = new_engine()
    assert "missing-attribute" not in symbols(check_buffer(engine, tmp_path / "base.py", BASE))
    check_buffer(engine, tmp_path / "child.py", CHILD_DROPS)  # the editor's buffer of child.py
    (tmp_path / "child.py").write_bytes(CHILD_DROPS)
    fresh = symbols(check_buffer(new_engine(), tmp_path / "base.py", BASE))
    assert "missing-attribute" in fresh
    assert symbols(check_buffer(engine, tmp_path / "base.py", BASE)) == fresh


def test_and_back(tmp_path: Path):
    (tmp_path / "base.py").write_bytes(BASE)
    (tmp_path / "child.py").write_bytes(CHILD_DROPS)
    engine = new_engine()
    assert "missing-attribute" in symbols(check_buffer(engine, tmp_path / "base.py", BASE))
    check_buffer(engine, tmp_path / "child.py", CHILD_SETS)
    (tmp_path / "child.py").write_bytes(CHILD_SETS)
    assert "missing-attribute" not in symbols(check_buffer(engine, tmp_path / "base.py", BASE))
