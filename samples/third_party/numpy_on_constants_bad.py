"""numpy-on-constants: numpy called on constants only, inside construct. Per level: msgraphlint explain numpy-on-constants."""

import numpy as np
from mindspore import Tensor, nn


class AddOnes(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.ones((2, 2), np.float32))  # expect: numpy-on-constants
