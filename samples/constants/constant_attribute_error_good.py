"""constant-attribute-error, fixed: len() for a tuple's or a list's length. Per level:
msgraphlint explain constant-attribute-error."""

from mindspore import nn


class TupleShape(nn.Cell):
    def construct(self, x):
        sizes = (2, 1)
        return x * len(sizes)


class ListSize(nn.Cell):
    def construct(self, x):
        items = [1, 2]
        size = len(items)
        return x * size
