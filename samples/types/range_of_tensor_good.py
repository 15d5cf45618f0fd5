"""range-of-tensor, fixed: loop over a shape, or convert the scalar tensor with int() first. Per level: msgraphlint explain range-of-tensor."""

from mindspore import nn, ops


class ShapeLoop(nn.Cell):
    def construct(self, x):
        total = x
        for _ in range(x.shape[0]):
            total = total + 1
        return total


class ConvertedCount(nn.Cell):
    def construct(self, x):
        steps = ops.argmax(x.sum(1))
        total = x
        for _ in range(int(steps)):
            total = total * 2
        return total
