"""non-graph-builtin: builtins the graph does not implement, called on a tensor value.
What the compiler does at each level: msgraphlint explain non-graph-builtin."""

import mindspore as ms
from mindspore import nn


class TypeCheck(nn.Cell):
    def construct(self, x):
        if type(x) == ms.Tensor:  # expect: non-graph-builtin
            return x * 2
        return x


class AllPositive(nn.Cell):
    def construct(self, x):
        if all((x[0, 0] > 0, x[0, 1] > 0)):  # expect: non-graph-builtin
            return x * 2
        return x
