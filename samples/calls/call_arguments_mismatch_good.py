"""call-arguments-mismatch, fixed: every call gives exactly the arguments the called function,
method or sub-Cell takes. Per level: msgraphlint explain call-arguments-mismatch."""

from mindspore import nn


def scale_shift(x, scale, shift=0.0):
    return x * scale + shift


class MissingArgument(nn.Cell):
    def construct(self, x):
        return scale_shift(x, 2.0)


class Doubler(nn.Cell):
    def construct(self, x):
        return x * 2


class ExtraArgumentToSubCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.doubler = Doubler()

    def construct(self, x):
        return self.doubler(x)


class UnknownKeyword(nn.Cell):
    def blend(self, x, weight, bias=0.0):
        return x * weight + bias

    def construct(self, x):
        return self.blend(x, weight=0.5, bias=1.0)
