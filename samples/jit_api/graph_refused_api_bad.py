"""graph-refused-api: MindSpore API the graph compiler refuses in compiled code, and a second hook
on one tensor.

What the compiler does at each level: msgraphlint explain graph-refused-api.
"""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


def double_grad(grad):
    return grad * 2


class ParameterHook(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(1, np.float32)), name="w")

    def construct(self, x):
        self.w.register_hook(double_grad)  # expect: graph-refused-api
        return x * self.w


class TwoHooks(nn.Cell):
    def construct(self, x):
        y = x * 2
        y.register_hook(double_grad)
        y.register_hook(double_grad)  # expect: graph-refused-api
        return y


class MoveTo(nn.Cell):
    def construct(self, x):
        return ops.relu(x).move_to("CPU")  # expect: graph-refused-api
