"""tensor-index-on-tuple, fixed: stack the candidates and index the tensor (a differentiable gather). Per level: msgraphlint explain tensor-index-on-tuple."""

import mindspore as ms
from mindspore import nn, ops


class Pick(nn.Cell):
    def construct(self, x):
        i = ops.argmax(x.sum(1))
        candidates = ops.stack((x, x * 2, x * 3))
        return candidates[i]


class Switch(nn.Cell):
    """A tuple of Cells may be indexed by a tensor: that is switch_layer (an int32 index)."""

    def __init__(self):
        super().__init__()
        self.branches = (nn.ReLU(), nn.Tanh())

    def construct(self, x):
        i = ops.argmax(x.sum(1)).astype(ms.int32)
        return self.branches[i](x)
