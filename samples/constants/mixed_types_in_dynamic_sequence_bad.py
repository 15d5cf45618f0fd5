"""mixed-types-in-dynamic-sequence: elements of another type entering a sequence that mutable()
made dynamic-length. Per level: msgraphlint explain mixed-types-in-dynamic-sequence."""

import mindspore as ms
from mindspore import Tensor, jit, mutable, nn


@jit
def grow_sizes(x):
    sizes = mutable([1, 2], True)
    sizes = sizes + [0.5]  # expect: mixed-types-in-dynamic-sequence
    return x * len(sizes)


@jit
def mixed_display(x):
    scales = ms.mutable([1, 2.0], True)  # expect: mixed-types-in-dynamic-sequence
    return x * len(scales)


class AppendFloat(nn.Cell):
    def construct(self, x):
        steps = mutable([1, 2], True)
        steps.append(3.0)  # expect: mixed-types-in-dynamic-sequence
        return x * len(steps)


class ReplaceItem(nn.Cell):
    def construct(self, x):
        steps = mutable([1, 2], True)
        steps[0] = 2.5  # expect: mixed-types-in-dynamic-sequence
        return x * len(steps)


class VariableIndex(nn.Cell):
    def construct(self, x):
        weights = [1, 2.0]
        weights[mutable(0)] = 3  # expect: mixed-types-in-dynamic-sequence
        return x * weights[1]


class TensorShapes(nn.Cell):
    def construct(self, x):
        one = Tensor([1.0])
        parts = mutable([one, one], True) + [Tensor([2.0, 3.0])]  # expect: mixed-types-in-dynamic-sequence
        return x * len(parts)
