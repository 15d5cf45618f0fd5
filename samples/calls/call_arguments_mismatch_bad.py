"""call-arguments-mismatch: a call in construct whose arguments the called function, method or
sub-Cell cannot take.

What the compiler does at each level: msgraphlint explain call-arguments-mismatch.
"""

from mindspore import nn


def scale_shift(x, scale, shift):
    return x * scale + shift


class MissingArgument(nn.Cell):
    def construct(self, x):
        return scale_shift(x, 2.0)  # expect: call-arguments-mismatch


class Doubler(nn.Cell):
    def construct(self, x):
        return x * 2


class ExtraArgumentToSubCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.doubler = Doubler()

    def construct(self, x):
        return self.doubler(x, x)  # expect: call-arguments-mismatch


class UnknownKeyword(nn.Cell):
    def blend(self, x, weight):
        return x * weight

    def construct(self, x):
        return self.blend(x, weight=0.5, bias=1.0)  # expect: call-arguments-mismatch
