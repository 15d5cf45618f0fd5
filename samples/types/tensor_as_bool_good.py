"""tensor-as-bool, fixed: reduce to one element first, or select elementwise. Per level: msgraphlint explain tensor-as-bool."""

from mindspore import nn, ops


class Threshold(nn.Cell):
    def construct(self, x):
        if (x > 0.5).any():
            return x + 1
        return x


class Finite(nn.Cell):
    def construct(self, x):
        if ops.isfinite(x).all() and x.sum() > 0:
            return x * 2
        return x


class Select(nn.Cell):
    def __init__(self, training=False):
        super().__init__()
        self.training_flag = training

    def construct(self, x):
        if self.training_flag or x.shape[0] > 4:
            return x
        return ops.where(x > 0.5, x + 1, x)
