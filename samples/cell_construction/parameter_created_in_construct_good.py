"""parameter-created-in-construct, fixed: Parameters are created in __init__; untrained values are
plain tensors. Per level: msgraphlint explain parameter-created-in-construct."""

import mindspore as ms
from mindspore import Parameter, nn, ops


class LearnedScale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(ops.ones((2, 2), ms.float32), name="scale")

    def construct(self, x):
        return x * self.scale


class Accumulator(nn.Cell):
    def construct(self, x):
        total = ops.zeros_like(x)
        return x + total
