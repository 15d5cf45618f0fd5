"""unsupported-expression: sets, the walrus operator, yield and complex literals in compiled code.

What the compiler does at each level: msgraphlint explain unsupported-expression.
"""

from mindspore import nn, ops


class EvenBatch(nn.Cell):
    def construct(self, x):
        if x.shape[0] in {2, 4, 8}:  # expect: unsupported-expression
            return x * 2
        return x


class SumFeatures(nn.Cell):
    def construct(self, x):
        axes = {axis for axis in range(x.ndim) if axis != 0}  # expect: unsupported-expression
        return x.sum(axis=tuple(axes))


class ScaleByRows(nn.Cell):
    def construct(self, x):
        if (rows := x.shape[0]) > 1:  # expect: unsupported-expression
            return x / rows
        return x


class Blocks(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([nn.ReLU(), nn.Tanh()])

    def features(self, x):
        for block in self.blocks:
            x = block(x)
            yield x  # expect: unsupported-expression

    def construct(self, x):
        return tuple(self.features(x))[-1]


class Rotate(nn.Cell):
    def construct(self, x):
        rotated = x * 1j  # expect: unsupported-expression
        return ops.real(rotated * rotated)


class Masked(nn.Cell):
    def construct(self, x):
        keep = lambda axis: axis not in {1}  # expect: unsupported-expression
        return x if keep(0) else -x
