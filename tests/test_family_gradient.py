"""The gradient family: which host copies are reported, and under which rule."""

from __future__ import annotations

import textwrap

from .engine_helpers import check_source

HEADER = """
import numpy as np
from mindspore import Parameter, Tensor, jit, nn
"""


def findings(tmp_path, body: str) -> list[tuple[str, int]]:
    source = textwrap.dedent(HEADER) + textwrap.dedent(body)
    return [(f.rule.symbol, f.line) for f in check_source(tmp_path, source) if f.rule.family == "gradient"]


def line_of(body: str, marker: str) -> int:
    source = textwrap.dedent(HEADER) + textwrap.dedent(body)
    return next(n for n, line in enumerate(source.splitlines(), 1) if marker in line)


def test_copy_of_an_input_in_construct_loses_the_gradient(tmp_path):
    body = """
    class Net(nn.Cell):
        def construct(self, x):
            y = x * 2
            return Tensor(y.asnumpy())  # here
    """
    assert findings(tmp_path, body) == [("asnumpy-in-graph", line_of(body, "# here"))]


def test_copy_in_a_jit_function_and_in_a_helper_it_calls(tmp_path):
    body = """
    def helper(t):
        return t.numpy()  # helper

    @jit
    def step(x):
        return x * helper(x)
    """
    assert findings(tmp_path, body) == [("asnumpy-in-graph", line_of(body, "# helper"))]


def test_copy_of_a_constant_or_outside_the_graph_is_not_reported(tmp_path):
    body = """
    TABLE = np.ones(3)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mask = Tensor(np.ones((2, 2), np.float32))
            self.init_value = self.mask.asnumpy()

        def construct(self, x):
            return x * TABLE.tolist()[0] + x.sum().item()
    """
    assert findings(tmp_path, body) == []


def test_calls_with_arguments_are_not_tensor_copies(tmp_path):
    body = """
    class Net(nn.Cell):
        def construct(self, x):
            return x.numpy(force=True)
    """
    assert findings(tmp_path, body) == []


def test_tolist_of_an_array_already_copied_is_reported_once(tmp_path):
    body = """
    class Net(nn.Cell):
        def construct(self, x):
            values = x.asnumpy()  # copy
            first = values.tolist()
            return x * first[0][0] + x.asnumpy().tolist()[0][0]  # chained
    """
    assert findings(tmp_path, body) == [
        ("asnumpy-in-graph", line_of(body, "# copy")),
        ("asnumpy-in-graph", line_of(body, "# chained")),
    ]


def test_parameter_copies_are_rejected_directly_or_through_an_alias(tmp_path):
    body = """
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")

        def construct(self, x):
            w = self.w
            a = self.w.asnumpy()  # direct
            b = w.numpy()  # alias
            c = (self.w * 2).tolist()  # computed
            return x
    """
    assert findings(tmp_path, body) == [
        ("asnumpy-on-parameter", line_of(body, "# direct")),
        ("asnumpy-on-parameter", line_of(body, "# alias")),
        ("asnumpy-in-graph", line_of(body, "# computed")),
    ]


def test_a_name_rebound_to_a_tensor_is_not_a_parameter_alias(tmp_path):
    body = """
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")

        def construct(self, x):
            w = self.w
            if x.sum() > 0:
                w = x * 2
            return Tensor(w.asnumpy())  # here
    """
    assert findings(tmp_path, body) == [("asnumpy-in-graph", line_of(body, "# here"))]


def test_a_cell_with_bprop_keeps_its_gradient_own_or_inherited(tmp_path):
    body = """
    class Base(nn.Cell):
        def bprop(self, x, out, dout):
            return (Tensor(dout.asnumpy()),)

    class Own(nn.Cell):
        def construct(self, x):
            return Tensor(x.asnumpy())  # own

        def bprop(self, x, out, dout):
            return (dout,)

    class Inherited(Base):
        def construct(self, x):
            return Tensor(x.asnumpy())  # inherited
    """
    assert findings(tmp_path, body) == [
        ("asnumpy-under-bprop", line_of(body, "# own")),
        ("asnumpy-under-bprop", line_of(body, "# inherited")),
    ]


def test_a_jit_method_of_a_bprop_cell_is_its_own_graph(tmp_path):
    body = """
    class Net(nn.Cell):
        def construct(self, x):
            return x

        def bprop(self, x, out, dout):
            return (dout,)

        @jit
        def helper(self, x):
            return Tensor(x.asnumpy())  # here
    """
    assert findings(tmp_path, body) == [("asnumpy-in-graph", line_of(body, "# here"))]
