"""numpy-reduction-on-tensor: np.sum(x) calls x.sum(axis=None, out=None) and fails at every level."""

import numpy as np
from mindspore import nn


class Normalise(nn.Cell):
    def construct(self, x):
        return x / np.sum(x)  # expect: numpy-reduction-on-tensor


class Centre(nn.Cell):
    def construct(self, x):
        return x - np.mean(x)  # expect: numpy-reduction-on-tensor
