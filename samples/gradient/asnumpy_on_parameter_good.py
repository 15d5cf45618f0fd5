"""asnumpy-on-parameter, fixed: the Parameter is used as a tensor inside the graph. Per level: msgraphlint explain asnumpy-on-parameter."""

import numpy as np
from mindspore import Parameter, Tensor, nn


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones((2, 2), np.float32)), name="weight")

    def construct(self, x):
        return x * self.weight


class Bias(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="bias")

    def construct(self, x):
        bias = self.bias
        return x + bias
