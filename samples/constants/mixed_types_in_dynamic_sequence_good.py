"""mixed-types-in-dynamic-sequence, fixed: a dynamic-length sequence holds one element type, and
a list set at a variable index holds one too. Per level: msgraphlint explain
mixed-types-in-dynamic-sequence."""

import mindspore as ms
from mindspore import Tensor, jit, mutable, nn


@jit
def grow_sizes(x):
    sizes = mutable([1, 2], True)
    sizes = sizes + [3]
    return x * len(sizes)


@jit
def float_display(x):
    scales = ms.mutable([1.0, 2.0], True)
    return x * len(scales)


class AppendFloat(nn.Cell):
    def construct(self, x):
        steps = mutable([1.0, 2.0], True)
        steps.append(3.0)
        return x * len(steps)


class VariableIndex(nn.Cell):
    def construct(self, x):
        weights = [1.0, 2.0]
        weights[mutable(0)] = 3.0
        return x * weights[1]


class TensorShapes(nn.Cell):
    def construct(self, x):
        one = Tensor([1.0])
        parts = mutable([one, one], True) + [Tensor([2.0])]
        return x * len(parts)
