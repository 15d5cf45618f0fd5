"""parameter-created-in-construct: a Parameter created inside construct. Per level: msgraphlint explain parameter-created-in-construct."""

import mindspore as ms
from mindspore import Parameter, nn, ops


class LearnedScale(nn.Cell):
    def construct(self, x):
        ones = ops.ones((2, 2), ms.float32)
        scale = Parameter(ones, name="scale")  # expect: parameter-created-in-construct
        return x * scale


class Accumulator(nn.Cell):
    def construct(self, x):
        total = ms.Parameter(x * 0, name="total")  # expect: parameter-created-in-construct
        return x + total
