"""tensor-attribute-error, fixed: the Tensor method MindSpore has. Per level:
msgraphlint explain tensor-attribute-error."""

from mindspore import Tensor, nn


class Shift(nn.Cell):
    def construct(self, x):
        bias = Tensor([1.0, 2.0])
        return x + bias.abs()
