"""mindspore-api: names and signatures of the target MindSpore (the snapshot of 2.10)."""

from __future__ import annotations

import pytest

from .engine_helpers import findings_on_lines

HEADER = """
import mindspore as ms
from mindspore import nn, ops, mint
from mindspore.ops import operations as P
"""
SYMBOLS = {"mindspore-name-missing", "mindspore-call-mismatch"}


def flagged(tmp_path, line: str) -> set[tuple[str, str]]:
    body = f"""
class Net(nn.Cell):
    def construct(self, x, *args, **kwargs):
        return {line}
"""
    return findings_on_lines(tmp_path, HEADER, body, SYMBOLS)


@pytest.mark.parametrize(
    "line, symbol",
    [
        ("ops.concatcat((x, x))", "mindspore-name-missing"),
        ("ops.ResizeBilinear((2, 2))(x)", "mindspore-name-missing"),
        ("ms.nn.functional.relu(x)", "mindspore-name-missing"),
        ("ops.pad(x, paddings=(1, 1))", "mindspore-call-mismatch"),
        ("mint.zeros((2, 3), ms.float32)", "mindspore-call-mismatch"),  # dtype is keyword-only
        ("mint.argmax(x, axis=0)", "mindspore-call-mismatch"),
        ("ops.where(x > 0)", "mindspore-call-mismatch"),
    ],
)
def test_api_the_target_version_lacks_is_reported(tmp_path, line, symbol):
    assert flagged(tmp_path, line) == {(symbol, f"return {line}")}


@pytest.mark.parametrize(
    "line",
    [
        "ops.pad(x, padding=(1, 1))",
        "mint.zeros((2, 3), dtype=ms.float32)",
        "ops.pad(*args)",  # spread arguments may bind
        "ops.pad(x, **kwargs)",
        "P.Pad(((0, 0), (1, 1)))(x)",  # a submodule the snapshot does not list: not judged
        "x.view(2, 3, axis=1)",  # Tensor methods dispatch on overloads: not judged
        "nn.Dense(3, 4, has_bias=True)(x)",
    ],
)
def test_calls_that_bind_or_cannot_be_judged_are_not_reported(tmp_path, line):
    assert flagged(tmp_path, line) == set()


def test_a_version_guard_and_a_local_name_are_not_missing_api(tmp_path):
    body = """
class Net(nn.Cell):
    def construct(self, x):
        if hasattr(ops, "fancy_op"):
            x = ops.fancy_op(x)
        for ops in self.blocks:
            x = ops.forward_block(x)
        return x
"""
    assert findings_on_lines(tmp_path, HEADER, body, SYMBOLS) == set()
