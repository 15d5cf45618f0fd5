"""sub-cell-attribute-assign, fixed: the switch is the child's input, and the child's Parameter is
updated with ops.assign. Per level: msgraphlint explain sub-cell-attribute-assign."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class Gate(nn.Cell):
    def construct(self, x, open_gate=False):
        if open_gate:
            return x + 1
        return x


class GatedBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gate = Gate()

    def construct(self, x):
        return self.gate(x, True)


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w", requires_grad=False)

    def construct(self, x):
        return x * self.w


class Doubler(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Scale()

    def construct(self, x):
        ops.assign(self.scale.w, self.scale.w * 2)
        return self.scale(x)
