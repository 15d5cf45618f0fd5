"""numpy-on-constants: compiles at every level (folded at compile time); advice only."""

import numpy as np
from mindspore import Tensor, nn


class AddOnes(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.ones((2, 2), np.float32))  # expect: numpy-on-constants
