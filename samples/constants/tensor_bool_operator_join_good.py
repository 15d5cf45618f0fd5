"""tensor-bool-operator-join, fixed: a logical operation on tensors. Per level:
msgraphlint explain tensor-bool-operator-join."""

from mindspore import nn, ops


class GateWithNumber(nn.Cell):
    def construct(self, x):
        return ops.logical_and(x, ops.ones_like(x) * 2)
