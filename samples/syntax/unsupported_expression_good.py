"""unsupported-expression, fixed: tuples instead of sets, assignments instead of ':=', lists
instead of generators. Per level: msgraphlint explain unsupported-expression."""

from mindspore import nn, ops


class EvenBatch(nn.Cell):
    def construct(self, x):
        if x.shape[0] in (2, 4, 8):
            return x * 2
        return x


class SumFeatures(nn.Cell):
    def construct(self, x):
        axes = [axis for axis in range(x.ndim) if axis != 0]
        return x.sum(axis=tuple(axes))


class ScaleByRows(nn.Cell):
    def construct(self, x):
        rows = x.shape[0]
        if rows > 1:
            return x / rows
        return x


class Blocks(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([nn.ReLU(), nn.Tanh()])

    def features(self, x):
        outputs = []
        for block in self.blocks:
            x = block(x)
            outputs.append(x)
        return outputs

    def construct(self, x):
        return self.features(x)[-1]


class Rotate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.complex = ops.Complex()

    def construct(self, x):
        rotated = self.complex(ops.zeros_like(x), x)
        return ops.real(rotated * rotated)


class Masked(nn.Cell):
    def construct(self, x):
        keep = lambda axis: axis not in (1,)
        return x if keep(0) else -x
