"""getattr-numpy-default: getattr whose default is a numpy array, in compiled code.

What the compiler does at each level: msgraphlint explain getattr-numpy-default.
"""

import numpy as np
from mindspore import nn


class OptionalScale(nn.Cell):
    def construct(self, x):
        scale = getattr(self, "scale", np.ones((2,), np.float32))  # expect: getattr-numpy-default, numpy-on-constants
        return x * scale[0]
