"""numpy-on-constants: numpy called on constants only, inside construct. Per level: msgraphlint explain numpy-on-constants."""

import mindspore
import numpy as np
from mindspore import Tensor, nn, ops


class AddOnes(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.ones((2, 2), np.float32))  # expect: numpy-on-constants


class SliceByCount(nn.Cell):
    """An int used as an index of a store stays a constant: numpy on it is folded too."""

    def construct(self, x):
        n = 2
        out = ops.zeros((4, 2))
        out[:n] = x
        scale = np.sum([n, 1])  # expect: numpy-on-constants
        return out * scale


class RowMask(nn.Cell):
    """A sub-Cell: its inputs are the ints its parent passes from a shape, not tensors."""

    def construct(self, rows, cols):
        return Tensor(np.ones((rows, cols)), mindspore.float32)  # expect: numpy-on-constants


class Masked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mask = RowMask()

    def construct(self, x):
        rows, cols = x.shape
        return x * self.mask(rows, cols)
