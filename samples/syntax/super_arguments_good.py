"""super-arguments, fixed: super() with no arguments, or the class being defined and self. Per
level: msgraphlint explain super-arguments."""

from mindspore import nn


class Base(nn.Cell):
    def scale(self, x):
        return x * 2


class TypeOfSelf(Base):
    def construct(self, x):
        return super().scale(x)


class NotSelf(Base):
    def construct(self, x):
        return super(NotSelf, self).scale(x)
