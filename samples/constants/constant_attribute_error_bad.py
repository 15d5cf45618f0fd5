"""constant-attribute-error: an attribute a constant's type does not have.

What the compiler does at each level: msgraphlint explain constant-attribute-error.
"""

from mindspore import nn


class TupleShape(nn.Cell):
    def construct(self, x):
        sizes = (2, 1)
        return x.reshape(sizes.shape)  # expect: constant-attribute-error


class ListSize(nn.Cell):
    def construct(self, x):
        items = [1, 2]
        size = getattr(items, "size")  # expect: constant-attribute-error
        return x * size
