"""graph-refused-api, fixed: no hook on the Parameter in compiled code, one hook on the tensor, and
no move_to. Per level: msgraphlint explain graph-refused-api."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


def double_grad(grad):
    return grad * 2


class ParameterHook(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(1, np.float32)), name="w")

    def construct(self, x):
        return x * self.w


class TwoHooks(nn.Cell):
    def construct(self, x):
        y = x * 2
        y.register_hook(double_grad)
        return y


class MoveTo(nn.Cell):
    def construct(self, x):
        return ops.relu(x)
