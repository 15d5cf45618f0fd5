"""invalid-slice, fixed: int bounds and a step other than zero. Per level: msgraphlint explain
invalid-slice."""

from mindspore import Tensor, nn, ops


class ZeroStep(nn.Cell):
    def construct(self, x):
        return ops.relu(x)[::-1]


class NamedBound(nn.Cell):
    def construct(self, x):
        heads = (x, x * 2, x * 3)
        return heads[:2]


class FloatBound(nn.Cell):
    def construct(self, x):
        layers = [x, x + 1, x + 2]
        return layers[:2]


class TensorBound(nn.Cell):
    def construct(self, x):
        stop = Tensor(2)
        return ops.relu(x)[:stop]
