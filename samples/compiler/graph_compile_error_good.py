"""graph-compile-error: the same projection with a weight whose shape fits a [2,2] input. Per level: msgraphlint explain graph-compile-error."""

from mindspore import nn, ops


class Projection(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ops.ones((2, 4))

    def construct(self, x):
        return ops.matmul(x, self.weight)
