"""numpy-reduction-on-tensor: np.sum(x) on a tensor, which calls x.sum(axis=None, out=None). Per level: msgraphlint explain numpy-reduction-on-tensor."""

import numpy as np
from mindspore import nn


class Normalise(nn.Cell):
    def construct(self, x):
        return x / x.sum()  # expect: numpy-reduction-on-tensor


class Centre(nn.Cell):
    def construct(self, x):
        return x - x.mean()  # expect: numpy-reduction-on-tensor
