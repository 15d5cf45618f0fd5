"""tensor-index-on-list: picking one of several tensors in a list with a tensor index.

STRICT and COMPATIBLE: "the inputs should be constant, but found variable". LAX: runs the lookup in
the interpreter; the output is right, the gradient is zero.
"""

from mindspore import nn, ops


class Pick(nn.Cell):
    def construct(self, x):
        i = ops.argmax(x.sum(1))
        candidates = [x, x * 2, x * 3]
        return candidates[i]  # expect: tensor-index-on-list
