"""inplace-random-init: PyTorch-style in-place initialisers (normal_, zero_, fill_) in construct. Per level: msgraphlint explain inplace-random-init."""

from mindspore import nn, ops


class NoisyInput(nn.Cell):
    def construct(self, x):
        noise = ops.zeros_like(x)
        noise.normal_()  # expect: inplace-random-init
        return x + 0.1 * noise


class ResetBuffer(nn.Cell):
    def construct(self, x):
        buffer = x * 1
        buffer.zero_()  # expect: inplace-random-init
        return x + buffer


class FillMask(nn.Cell):
    def construct(self, x):
        mask = x * 1
        mask.fill_(0.5)  # expect: inplace-random-init
        return x * mask
