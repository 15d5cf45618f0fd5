"""cell-created-in-construct: Cells and a primitive built from constants inside construct. Per level: msgraphlint explain cell-created-in-construct."""

from mindspore import nn, ops


class Head(nn.Cell):
    def construct(self, x):
        return nn.ReLU()(x)  # expect: cell-created-in-construct


class RowSums(nn.Cell):
    def construct(self, x):
        return ops.ReduceSum(keep_dims=True)(x, 1)  # expect: cell-created-in-construct


class LastAxisSoftmax(nn.Cell):
    def construct(self, x):
        # x.ndim is known while compiling, so the argument is a constant.
        return nn.Softmax(axis=x.ndim - 1)(x)  # expect: cell-created-in-construct
