"""cell-created-in-construct, tidied: built once in __init__, or the functional form. Per level: msgraphlint explain cell-created-in-construct."""

from mindspore import nn, ops


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(x)


class RowSums(nn.Cell):
    def __init__(self):
        super().__init__()
        self.reduce_sum = ops.ReduceSum(keep_dims=True)

    def construct(self, x):
        return self.reduce_sum(x, 1)


class LastAxisSoftmax(nn.Cell):
    def construct(self, x):
        return ops.softmax(x, axis=x.ndim - 1)
