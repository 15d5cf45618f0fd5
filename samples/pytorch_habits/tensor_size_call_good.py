"""tensor-size-call, fixed: dimensions come from x.shape; x.size is the element count. Per level: msgraphlint explain tensor-size-call."""

from mindspore import nn


class Flatten(nn.Cell):
    def construct(self, x):
        return x.reshape(x.shape[0], -1)


class MeanOverRows(nn.Cell):
    def construct(self, x):
        rows, _ = x.shape
        return x.sum(axis=0) / rows


class MeanOfAll(nn.Cell):
    def construct(self, x):
        return x.sum() / x.size


class CheckedShape(nn.Cell):
    """A shape check the compiler decides while compiling: the message (and its .size()) is built
    only for inputs that already fail."""

    def construct(self, x):
        rows, cols = x.shape
        if x.shape != (rows, 2):
            raise ValueError(f"expected two columns, got {x.size()} elements")
        return x.reshape(rows * cols)
