"""constant-power-overflow: an integer power folded past int64 while compiling.
Per level: msgraphlint explain constant-power-overflow.
"""

from mindspore import nn

SCALE_BITS = 64


class WideShift(nn.Cell):
    def construct(self, x):
        big = 2 ** 64  # expect: constant-power-overflow
        return x * (big // 2 ** 62)


class GlobalBits(nn.Cell):
    def construct(self, x):
        return x * (2 ** SCALE_BITS // 2 ** 62)  # expect: constant-power-overflow


class OddBase(nn.Cell):
    def construct(self, x):
        return x * (3 ** 41 // 3 ** 39)  # expect: constant-power-overflow
