"""random-frozen: numpy, stdlib and scipy.stats random numbers drawn inside construct and a jit
function: module functions, a distribution's .rvs and a generator's methods. Per level:
msgraphlint explain random-frozen."""

import random

import mindspore
import numpy as np
from mindspore import Tensor, jit, nn
from scipy import stats


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
    offset = np.random.rand(*x.shape)  # expect: random-frozen
    return x + Tensor(offset, mindspore.float32)


class TruncatedScale(nn.Cell):
    """grover's dynamic depth: a scipy.stats distribution built in construct, then drawn from."""

    def construct(self, x):
        dist = stats.truncnorm(-2.0, 2.0, loc=1.0, scale=0.1)  # expect: random-frozen
        return x * dist.rvs()


class NormalShift(nn.Cell):
    def construct(self, x):
        return x + stats.norm.rvs(loc=0.0, scale=1.0)  # expect: random-frozen


class HeldGenerator(nn.Cell):
    """A generator built in __init__: every call of its methods in construct is one draw, made
    while compiling, seeded or not."""

    def __init__(self):
        super().__init__()
        self.rng = np.random.default_rng()

    def construct(self, x):
        return x * self.rng.uniform(0.8, 1.2)  # expect: random-frozen
