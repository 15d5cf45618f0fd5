"""range-of-tensor: a loop count computed as a tensor.

Every level: TypeError "For 'make_range', the 0th input should be a int scalar but got
AbstractTensor(...)".
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
