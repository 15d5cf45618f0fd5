"""branch-none-join, fixed: every branch gives a tensor; None tested with `is None` or under a
`self` flag is decided while compiling. Per level: msgraphlint explain branch-none-join."""

from mindspore import nn, ops


class OptionalMask(nn.Cell):
    def construct(self, x):
        mask = ops.ones_like(x) > 0
        if x.sum() > 0:
            mask = x > 0.5
        return mask


class MaybeScale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.extra = None

    def scale(self, x):
        if x.max() > 0.5:
            return x * 2
        return x

    def construct(self, x):
        scaled = self.scale(x)
        if self.extra is not None:
            return None
        return scaled


class Picked(nn.Cell):
    def construct(self, x, bias=None):
        if bias is None:
            return x * 2
        return x + bias
