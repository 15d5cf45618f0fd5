"""constant-operation-error, fixed: operands of the types the operation takes. Per level:
msgraphlint explain constant-operation-error."""

from mindspore import Tensor, nn


class UnitSuffix(nn.Cell):
    def construct(self, x):
        count = 3
        return x * (count + 1)


class ParseWidth(nn.Cell):
    def construct(self, x):
        width = int("4")
        return x * width


class IndexInRange(nn.Cell):
    def construct(self, x):
        sizes = (1, 2)
        last = sizes[1]
        return x * last


class IntRange(nn.Cell):
    def construct(self, x):
        for _ in range(0, 2):
            x = x + 1
        return x


class ScalarSteps(nn.Cell):
    def construct(self, x):
        for step in Tensor([2.0]):
            x = x + step
        return x
