"""mapped-sequence-mismatch, fixed: sequences of one kind and one length. Per level: msgraphlint
explain mapped-sequence-mismatch."""

from mindspore import nn, ops
from mindspore.ops import composite as C


def scale(a, b):
    return a * b


class UnevenTuples(nn.Cell):
    def __init__(self):
        super().__init__()
        self.hyper_map = C.HyperMap()

    def construct(self, x):
        return self.hyper_map(scale, (x, x + 1, x + 2), (x, x, x))


class TupleAndList(nn.Cell):
    def __init__(self):
        super().__init__()
        self.map = ops.Map()

    def construct(self, x):
        return self.map(scale, (x, x + 1), (x, x))
