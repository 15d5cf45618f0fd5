"""parameter-set-data: Parameter.set_data called inside construct. Per level: msgraphlint explain parameter-set-data."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class KeepRunningMax(nn.Cell):
    def __init__(self):
        super().__init__()
        self.running_max = Parameter(Tensor(np.zeros((2, 2), np.float32)), requires_grad=False)

    def construct(self, x):
        self.running_max.set_data(ops.maximum(self.running_max, x))  # expect: parameter-set-data
        return x - self.running_max


class ResetHead(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")

    def construct(self, x):
        self.head.bias.set_data(ops.zeros_like(self.head.bias))  # expect: parameter-set-data
        return self.head(x)
