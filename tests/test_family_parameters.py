"""parameters: set_data, Parameter attributes and in-place initialisers in compiled code."""

from __future__ import annotations

from .engine_helpers import findings_on_lines

FAMILY = {"parameter-set-data", "parameter-attribute-set", "inplace-random-init"}
HEADER = """
import numpy as np
from mindspore import Parameter, Tensor, nn, ops
from mindspore.common import initializer as init


class Slot:
    def __init__(self):
        self.data = None
        self.weight = None

    def set_data(self, value):
        return value

    def zero_(self):
        return 0


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gain = Parameter(Tensor(np.ones((2, 2), np.float32)), name="gain")

    def construct(self, x):
        return x * self.gain
"""


def findings(tmp_path, body: str) -> set[tuple[str, str]]:
    return findings_on_lines(tmp_path, HEADER, body, FAMILY)


def test_set_data_on_parameters_but_not_on_a_project_object(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
                self.dense = nn.Dense(2, 2)
                self.slot = Slot()
                self.w.set_data(Tensor(np.ones((2, 2), np.float32)))

            def construct(self, x):
                self.w.set_data(x)
                self.dense.weight.set_data(x)
                self.slot.set_data(x)
                return x
    """)
    assert got == {
        ("parameter-set-data", "self.w.set_data(x)"),
        ("parameter-set-data", "self.dense.weight.set_data(x)"),
    }


def test_attributes_of_parameters_of_self_and_of_sub_cells(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
                self.dense = nn.Dense(2, 2)
                self.block = Block()
                self.slot = Slot()

            def construct(self, x):
                self.w.requires_grad = False
                self.dense.weight.requires_grad = False
                self.block.gain.name = "g"
                self.slot.weight.requires_grad = False
                self.block.other.requires_grad = False
                x.requires_grad = False
                return x
    """)
    assert got == {
        ("parameter-attribute-set", "self.w.requires_grad = False"),
        ("parameter-attribute-set", "self.dense.weight.requires_grad = False"),
        ("parameter-attribute-set", 'self.block.gain.name = "g"'),
    }


def test_inplace_initialisers_but_not_inplace_arithmetic_or_modules(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.slot = Slot()

            def construct(self, x):
                y = ops.zeros_like(x)
                y.uniform_()
                y.fill_(1.0)
                y.add_(x)
                y.mul_(2.0)
                init.zero_(y)
                self.slot.zero_()
                return x + y
    """)
    assert got == {
        ("inplace-random-init", "y.uniform_()"),
        ("inplace-random-init", "y.fill_(1.0)"),
    }


def test_host_code_is_not_checked(tmp_path):
    got = findings(tmp_path, """
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
                self.w.requires_grad = False
                self.w.set_data(Tensor(np.ones((2, 2), np.float32)))

            def construct(self, x):
                return x * self.w
    """)
    assert got == set()
