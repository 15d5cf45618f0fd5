"""non-parameter-attribute-assign, fixed: state that changes per step is a Parameter. Per level: msgraphlint explain non-parameter-attribute-assign."""

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class CountSteps(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = Parameter(Tensor(0, ms.int32), requires_grad=False)

    def construct(self, x):
        ops.assign(self.steps, self.steps + 1)
        return x * 2


class KeepLast(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = Parameter(Tensor(np.zeros((2, 2), np.float32)), requires_grad=False)

    def construct(self, x):
        self.last = x * 3  # assigning a Parameter attribute updates graph state
        return x * 2
