"""The tensor_attributes snapshot: every attribute name a MindSpore Tensor or Parameter has in a
graph, so a rule can say "this tensor has no attribute 'abs2'" without false alarms."""

from __future__ import annotations

import pytest

from msgraphlint.knowledge import catalogue, snapshots

NAME = "tensor_attributes"
# Properties, methods (old and new API), and what only a Parameter has.
WELL_KNOWN = {
    "shape", "dtype", "ndim", "size", "T", "asnumpy", "item", "astype",
    "abs", "view", "reshape", "sum",
    "set_data", "name", "requires_grad",
}


def names() -> set[str]:
    return set(catalogue.snapshot(NAME)["names"])


def test_snapshot_is_registered():
    assert NAME in snapshots.NAMES


def test_snapshot_loads_without_mindspore_and_has_the_well_known_names():
    table = catalogue.snapshot(NAME)
    assert table["mindspore_version"]
    assert table["names"] == sorted(set(table["names"]))
    assert WELL_KNOWN <= names()


def test_snapshot_keeps_the_names_only_the_compiler_knows():
    assert set(snapshots.GRAPH_ONLY_TENSOR_ATTRIBUTES) <= names()


@pytest.mark.parametrize("attribute", ["abs2", "abcd", "numpy_", "lenght", "shapes"])
def test_snapshot_has_no_made_up_names(attribute):
    assert attribute not in names()


def test_file_says_where_its_names_come_from():
    text = (snapshots.DATA / f"{NAME}.toml").read_text("utf-8")
    assert "deprecated_tensor_method_map" in text
    assert "GRAPH_ONLY_TENSOR_ATTRIBUTES" in text


def test_snapshot_agrees_with_installed_mindspore():
    """`python -m msgraphlint.knowledge.snapshots` rewrites the file when this fails."""
    pytest.importorskip("mindspore")
    assert catalogue.snapshot(NAME) == snapshots.current(NAME)
