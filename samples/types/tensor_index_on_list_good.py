"""tensor-index-on-list, fixed: stack the candidates and index the tensor, or use a Python int. Per level: msgraphlint explain tensor-index-on-list."""

from mindspore import nn, ops


class Pick(nn.Cell):
    def construct(self, x):
        i = ops.argmax(x.sum(1))
        candidates = ops.stack([x, x * 2, x * 3])
        return candidates[i]


class First(nn.Cell):
    def construct(self, x):
        candidates = [x, x * 2, x * 3]
        return candidates[0] + candidates[x.shape[0] - 1]
