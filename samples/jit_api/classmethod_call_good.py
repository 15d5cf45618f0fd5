"""classmethod-call, fixed: a staticmethod reads class constants through the class name. Per level: msgraphlint explain classmethod-call."""

from mindspore import nn


class Scaled(nn.Cell):
    factor = 2.0

    @staticmethod
    def scale(v):
        return v * Scaled.factor

    def construct(self, x):
        return self.scale(x)


def to_percent(v):
    return v * 100


class Percent(nn.Cell):
    def construct(self, x):
        return to_percent(x)
