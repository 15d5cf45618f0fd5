"""constant-power-overflow, fixed: subtract the exponents first, so no step passes int64.
Per level: msgraphlint explain constant-power-overflow.
"""

from mindspore import nn

SCALE_BITS = 64


class WideShift(nn.Cell):
    def construct(self, x):
        return x * 2 ** (64 - 62)


class GlobalBits(nn.Cell):
    def construct(self, x):
        return x * 2 ** (SCALE_BITS - 62)


class OddBase(nn.Cell):
    def construct(self, x):
        return x * 3 ** (41 - 39)
