"""custom-object-with-tensor, fixed: tensors travel as values, state lives in a Parameter. Per level: msgraphlint explain custom-object-with-tensor."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class Config:
    """Constant settings are fine in a plain object: they are read while compiling."""

    def __init__(self):
        self.scale = 2.0


class Wrap(nn.Cell):
    def __init__(self):
        super().__init__()
        self.config = Config()

    def construct(self, x):
        value = x
        return value * self.config.scale


class Remember(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = Parameter(Tensor(np.zeros((2, 2), np.float32)), requires_grad=False)

    def construct(self, x):
        ops.assign(self.last, x)
        return x * 2
