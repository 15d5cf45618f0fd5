"""super-arguments: super() given a first argument the graph parser cannot look up in self's MRO,
or a second argument that is not self.

What the compiler does at each level: msgraphlint explain super-arguments.
"""

from mindspore import nn


class Base(nn.Cell):
    def scale(self, x):
        return x * 2


class TypeOfSelf(Base):
    def construct(self, x):
        return super(type(self), self).scale(x)  # expect: super-arguments


class NotSelf(Base):
    def construct(self, x):
        return super(NotSelf, x).scale(x)  # expect: super-arguments
