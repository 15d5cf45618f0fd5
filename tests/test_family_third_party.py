"""third-party: host library calls on constants (advice) versus on tensor values."""

from __future__ import annotations

from .engine_helpers import findings_on_lines

FAMILY = {"host-call-on-tensor", "numpy-on-constants", "numpy-reduction-on-tensor"}
HEADER = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def test_numpy_on_the_output_of_a_shape_primitive_is_on_constants(tmp_path):
    # Audit false alarm (mindformers/models/llama/llama.py:367): bs, seq_len = self.shape(tokens)
    # with self.shape = ops.Shape(); np.zeros((bs, ...)) compiles at STRICT and LAX (MindSpore 2.10).
    got = findings(tmp_path, """
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.shape = ops.Shape()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        bs, seq_len = self.shape(x)
        mask = Tensor(np.zeros((bs, 1, seq_len)), dtype=x.dtype)
        y = self.dense(x)
        return mask, np.tanh(y)
""")
    assert got == {
        ("numpy-on-constants", "mask = Tensor(np.zeros((bs, 1, seq_len)), dtype=x.dtype)"),
        ("host-call-on-tensor", "return mask, np.tanh(y)"),
    }


def test_numpy_on_a_tensor_is_still_a_host_call(tmp_path):
    got = findings(tmp_path, """
class Net(nn.Cell):
    def construct(self, x):
        return Tensor(np.cumsum(x))
""")
    assert got == {("host-call-on-tensor", "return Tensor(np.cumsum(x))")}


def test_parameters_annotated_as_plain_python_are_not_tensors(tmp_path):
    """`adapter_names: list[str]` (peft's LoRA layers) is a list of strings, not a tensor;
    `Optional[Tensor]` still is one."""
    path = tmp_path / "net.py"
    path.write_text(
        "from typing import Optional\nfrom mindspore import nn, Tensor\n\n"
        "class Lora(nn.Cell):\n"
        "    def construct(self, x, names: list[str] = None, t: Optional[Tensor] = None):\n"
        "        unique = set(names)\n"
        "        other = set(t)\n"
        "        return x\n"
    )
    from msgraphlint.pipeline import new_engine

    found = [(f.rule.symbol, f.line) for f in new_engine().check_file(path)]
    assert found == [("host-call-on-tensor", 7)]
