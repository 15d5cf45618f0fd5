"""inplace-random-init, fixed: out-of-place operators, or initialise once in __init__. Per level: msgraphlint explain inplace-random-init."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class NoisyInput(nn.Cell):
    def __init__(self):
        super().__init__()
        # Fixed noise drawn once, on the host, from a seeded generator.
        noise = np.random.default_rng(0).normal(size=(2, 2)).astype(np.float32)
        self.noise = Parameter(Tensor(noise), requires_grad=False)

    def construct(self, x):
        return x + 0.1 * self.noise


class ResetBuffer(nn.Cell):
    def construct(self, x):
        buffer = ops.zeros_like(x)
        return x + buffer


class FillMask(nn.Cell):
    def construct(self, x):
        mask = ops.full_like(x, 0.5)
        return x * mask
