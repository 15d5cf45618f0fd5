"""operand-type-error: arithmetic between a value decided at run time and a str, None or a numpy
array.

What the compiler does at each level: msgraphlint explain operand-type-error.
"""

import numpy as np
from mindspore import mutable, nn, ops


class ShiftByText(nn.Cell):
    def construct(self, x):
        return ops.relu(x) + "0.5"  # expect: operand-type-error


class ShiftByArray(nn.Cell):
    def construct(self, x):
        shift = np.array([0.5], np.float32)  # expect: numpy-on-constants
        return ops.relu(x) + shift  # expect: operand-type-error


class StepModulo(nn.Cell):
    def construct(self, x):
        step = mutable(5)
        phase = step % "4"  # expect: operand-type-error
        return x * phase
