"""lambda-not-on-own-line, fixed: each lambda is the whole value of an assignment. Per level:
msgraphlint explain lambda-not-on-own-line."""

import numpy as np
from mindspore import Tensor, nn

double = lambda v: v * 2  # noqa: E731


class Scaled(nn.Cell):
    def __init__(self, act=double):
        super().__init__()
        self.act = act

    def construct(self, x):
        return self.act(x)


def build():
    return Scaled()


def run():
    x = Tensor(np.ones((2,), np.float32))

    class Gate(nn.Cell):
        def __init__(self, gate):
            super().__init__()
            self.gate = gate

        def construct(self, x):
            return self.gate(x)

    square = lambda v: v * v  # noqa: E731
    Gate(square)(x)
