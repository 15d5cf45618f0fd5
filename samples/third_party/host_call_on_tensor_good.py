"""host-call-on-tensor, fixed: MindSpore operators stay in the graph and are differentiated. Per level: msgraphlint explain host-call-on-tensor."""

import math

import numpy as np

from mindspore import nn, ops


class ScipyGate(nn.Cell):
    def construct(self, x):
        return x + ops.sigmoid(x)


class MathScale(nn.Cell):
    def construct(self, x):
        # math on a shape is fine: shapes are compile-time constants.
        return x * ops.sqrt(x.sum()) * math.sqrt(x.shape[0])


class TopValues(nn.Cell):
    def construct(self, x):
        row_sums = x.sum(1)
        return x * ops.sort(row_sums)[0][0]


class PickScale(nn.Cell):
    def construct(self, x):
        candidates = ops.stack((x.sum(), x.mean()))
        index = ops.randint(0, 1, (1,))
        return x * candidates[index]


class PatchEmbed(nn.Cell):
    def construct(self, x):
        rows, cols = x.shape
        return x * 2, (rows, cols)


class ScaleFromSubCellShape(nn.Cell):
    # The sub-Cell gives back its input's shape: ints while compiling, so math folds them.
    def __init__(self):
        super().__init__()
        self.embed = PatchEmbed()

    def construct(self, x):
        y, (rows, cols) = self.embed(x)
        return y * math.sqrt(rows * cols)


def rows_of(points, use_numpy=False):
    if use_numpy:
        return np.reshape(points, (-1,))
    return ops.reshape(points, (-1,))


def invert(points, stack=False, use_numpy=False):
    """Reduced from mindsponge's geometry helpers: every compiled call leaves stack=False, so the
    numpy path is parsed but never evaluated, here and in the helper it passes use_numpy to."""
    if stack:
        points = rows_of(points, use_numpy)
    return points * 2


class InvertPoints(nn.Cell):
    def construct(self, x):
        return invert(x)


def scale_for(count):
    return 1.0 / math.sqrt(count)


class NormaliseByCount(nn.Cell):
    # x.numel() and x.dim() are ints while compiling, like x.shape: math folds them, here and
    # in a helper they are passed to.
    def construct(self, x):
        return x * scale_for(x.numel()) * math.log2(x.nelement() + x.dim())
