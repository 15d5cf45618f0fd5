"""tensor-attribute-error: an attribute a Tensor does not have.

What the compiler does at each level: msgraphlint explain tensor-attribute-error.
"""

from mindspore import Tensor, nn


class Shift(nn.Cell):
    def construct(self, x):
        bias = Tensor([1.0, 2.0])
        return x + bias.abs2()  # expect: tensor-attribute-error
