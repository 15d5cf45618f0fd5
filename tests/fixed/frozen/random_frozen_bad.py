"""random-frozen: numpy and stdlib random numbers drawn inside construct and a jit function. Per level: msgraphlint explain random-frozen."""

import random

import mindspore
import numpy as np
from mindspore import Tensor, jit, nn


class NoisyInput(nn.Cell):
    def construct(self, x):
        noise = np.random.normal(0.0, 0.1, size=x.shape)  # expect: random-frozen
        return x + Tensor(noise, mindspore.float32)


class RandomScale(nn.Cell):
    def construct(self, x):
        scale = random.uniform(0.8, 1.2)  # expect: random-frozen
        return x * scale


@jit
def jitter(x):
    offset = mindspore.ops.rand(*x.shape)  # expect: random-frozen
    return x + Tensor(offset, mindspore.float32)
