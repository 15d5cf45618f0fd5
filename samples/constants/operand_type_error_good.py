"""operand-type-error, fixed: the operands are numbers. Per level: msgraphlint explain
operand-type-error."""

import numpy as np
from mindspore import Tensor, mutable, nn, ops


class ShiftByText(nn.Cell):
    def construct(self, x):
        return ops.relu(x) + 0.5


class ShiftByArray(nn.Cell):
    def __init__(self):
        super().__init__()
        self.shift = Tensor(np.array([0.5], np.float32))

    def construct(self, x):
        return ops.relu(x) + self.shift


class StepModulo(nn.Cell):
    def construct(self, x):
        step = mutable(5)
        phase = step % 4
        return x * phase
