"""lambda-not-on-own-line: a lambda held on the Cell whose source line MindSpore cannot read back.

What the compiler does at each level: msgraphlint explain lambda-not-on-own-line.
"""

import numpy as np
from mindspore import Tensor, nn


class Scaled(nn.Cell):
    def __init__(self, act=lambda v: v * 2):
        super().__init__()
        self.act = act

    def construct(self, x):
        return self.act(x)  # expect: lambda-not-on-own-line


def build():
    return Scaled()


def run():
    x = Tensor(np.ones((2,), np.float32))

    class Gate(nn.Cell):
        def __init__(self, gate):
            super().__init__()
            self.gate = gate

        def construct(self, x):
            return self.gate(x)  # expect: lambda-not-on-own-line

    Gate(lambda v: v * v)(x)
