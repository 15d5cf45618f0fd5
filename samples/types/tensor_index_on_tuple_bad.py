"""tensor-index-on-tuple: picking one of several tensors with a tensor index.

The index comes from ops.argmax, so it is known only when the graph runs.
What the compiler does at each level: msgraphlint explain tensor-index-on-tuple.
"""

from mindspore import nn, ops


class Pick(nn.Cell):
    def construct(self, x):
        i = ops.argmax(x.sum(1))
        candidates = (x, x * 2, x * 3)
        return candidates[i]  # expect: tensor-index-on-tuple
