"""classmethod-call: a classmethod called inside construct. Per level: msgraphlint explain classmethod-call."""

from mindspore import nn


class Scaled(nn.Cell):
    factor = 2.0

    @classmethod
    def scale(cls, v):
        return v * cls.factor

    def construct(self, x):
        return self.scale(x)  # expect: classmethod-call


class Units:
    @classmethod
    def to_percent(cls, v):
        return v * 100


class Percent(nn.Cell):
    def construct(self, x):
        return Units.to_percent(x)  # expect: classmethod-call
