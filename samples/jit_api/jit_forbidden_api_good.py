"""jit-forbidden-api, fixed: ask once in __init__ and keep the answer. Per level: msgraphlint explain jit-forbidden-api."""

import mindspore as ms
import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


class WeightPenalty(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
        self.params = ParameterTuple(self.trainable_params())

    def construct(self, x):
        penalty = 0
        for param in self.params:
            penalty = penalty + param.sum()
        return x * self.w + penalty


class ModeSwitch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.double = True  # decided on the host, e.g. from ms.get_context("mode")

    def construct(self, x):
        if self.double:
            return x * 2
        return x
