"""undefined-name: the fixes (a class attribute through self, the import), and a module constant
defined after the class, resolved at compile time. Per level: msgraphlint explain undefined-name."""

from mindspore import nn, ops


class ScaledByClassConstant(nn.Cell):
    SCALE = 2.0

    def construct(self, x):
        return x * self.SCALE * OFFSET


class WithImport(nn.Cell):
    def construct(self, x):
        if x.sum() > 100:
            return ops.relu(x)
        return x


OFFSET = 1.5
