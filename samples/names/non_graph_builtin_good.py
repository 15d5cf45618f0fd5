"""non-graph-builtin: the compile-time questions and ops that replace them, and a host builtin on
constants (evaluated once while compiling). Per level: msgraphlint explain non-graph-builtin."""

import mindspore as ms
from mindspore import nn, ops


class TypeCheck(nn.Cell):
    def construct(self, x):
        if isinstance(x, ms.Tensor):
            return x * 2
        return x


class AllPositive(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sizes = (2, 2)

    def construct(self, x):
        if type(self.sizes) == tuple:
            x = x + 1
        if ops.all(x > 0):
            return x * 2
        return x
