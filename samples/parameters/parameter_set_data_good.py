"""parameter-set-data, fixed: ops.assign updates a Parameter inside the graph. Per level: msgraphlint explain parameter-set-data."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class KeepRunningMax(nn.Cell):
    def __init__(self):
        super().__init__()
        self.running_max = Parameter(Tensor(np.zeros((2, 2), np.float32)), requires_grad=False)

    def construct(self, x):
        ops.assign(self.running_max, ops.maximum(self.running_max, x))
        return x - self.running_max
