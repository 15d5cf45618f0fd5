"""non-parameter-state-read, fixed: a local variable (or a Parameter for real per-step state). Per level: msgraphlint explain non-parameter-state-read."""

from mindspore import nn


class Anneal(nn.Cell):
    def construct(self, x):
        temperature = 0.5
        return x * temperature


class Residual(nn.Cell):
    def construct(self, x):
        cache = x * 3
        return cache + x
