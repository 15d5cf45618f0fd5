"""tensor-index-on-tuple: picking one of several tensors with a tensor index.

STRICT: "using Tensor index to get value from tuple requires that all elements in tuple should be
function". COMPATIBLE and LAX: compiles, the output is right, the gradient is zero.
"""

from mindspore import nn, ops


class Pick(nn.Cell):
    def construct(self, x):
        i = ops.argmax(x.sum(1))
        candidates = (x, x * 2, x * 3)
        return candidates[i]  # expect: tensor-index-on-tuple
