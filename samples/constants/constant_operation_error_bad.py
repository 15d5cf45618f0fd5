"""constant-operation-error: Python operations on constants, folded while the graph compiles.

What the compiler does at each level: msgraphlint explain constant-operation-error.
"""

from mindspore import Tensor, nn


class UnitSuffix(nn.Cell):
    def construct(self, x):
        count = 3
        unit = "px"
        return x * (count + unit)  # expect: constant-operation-error


class ParseWidth(nn.Cell):
    def construct(self, x):
        width = int("wide")  # expect: constant-operation-error
        return x * width


class IndexTooFar(nn.Cell):
    def construct(self, x):
        sizes = (1, 2)
        last = sizes[4]  # expect: constant-operation-error
        return x * last


class FloatRange(nn.Cell):
    def construct(self, x):
        for _ in range(0, 2.5):  # expect: constant-operation-error
            x = x + 1
        return x


class ScalarSteps(nn.Cell):
    def construct(self, x):
        for step in Tensor(2.0):  # expect: constant-operation-error
            x = x + step
        return x
