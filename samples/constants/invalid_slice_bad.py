"""invalid-slice: a slice with a str or float bound, or a step of zero, of a tensor, a tuple or a
list.

What the compiler does at each level: msgraphlint explain invalid-slice.
"""

from mindspore import Tensor, nn, ops


class ZeroStep(nn.Cell):
    def construct(self, x):
        return ops.relu(x)[::0]  # expect: invalid-slice


class NamedBound(nn.Cell):
    def construct(self, x):
        heads = (x, x * 2, x * 3)
        return heads[:"last"]  # expect: invalid-slice


class FloatBound(nn.Cell):
    def construct(self, x):
        layers = [x, x + 1, x + 2]
        return layers[:2.0]  # expect: invalid-slice


class TensorBound(nn.Cell):
    def construct(self, x):
        stop = Tensor(2.0)
        return ops.relu(x)[:stop]  # expect: invalid-slice
