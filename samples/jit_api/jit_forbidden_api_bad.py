"""jit-forbidden-api: host-side APIs MindSpore marks as forbidden in compiled code, called there. Per level: msgraphlint explain jit-forbidden-api."""

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn


class WeightPenalty(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")

    def construct(self, x):
        penalty = 0
        for param in self.trainable_params():  # expect: jit-forbidden-api
            penalty = penalty + param.sum()
        return x * self.w + penalty


class ModeSwitch(nn.Cell):
    def construct(self, x):
        if ms.get_context("mode") == ms.GRAPH_MODE:  # expect: jit-forbidden-api
            return x * 2
        return x
