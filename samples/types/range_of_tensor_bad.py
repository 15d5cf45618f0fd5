"""range-of-tensor: a loop count computed as a tensor.

range() is given a tensor where MindSpore's make_range wants a Python int.
What the compiler does at each level: msgraphlint explain range-of-tensor.
"""

import mindspore as ms
from mindspore import nn, ops


class DataDependentLoop(nn.Cell):
    def construct(self, x):
        steps = ops.argmax(x.sum(1))
        for _ in range(steps):  # expect: range-of-tensor
            x = x * 2
        return x


class ReducedCount(nn.Cell):
    def construct(self, x):
        total = x
        for _ in range(x.sum().astype(ms.int32)):  # expect: range-of-tensor
            total = total + 1
        return total
