"""non-parameter-attribute-assign, fixed: state that changes per step is a Parameter. Per level: msgraphlint explain non-parameter-attribute-assign."""

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class CountSteps(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = Parameter(Tensor(0, ms.int32), requires_grad=False)

    def construct(self, x):
        ops.assign(self.steps, self.steps + 1)
        return x * 2


class KeepLast(nn.Cell):
    def __init__(self):
        super().__init__()
        self.last = Parameter(Tensor(np.zeros((2, 2), np.float32)), requires_grad=False)

    def construct(self, x):
        self.last = x * 3  # assigning a Parameter attribute updates graph state
        return x * 2


class DebugSwitchOff(nn.Cell):
    """An assignment in a branch the parser drops: the switch is a constant False set only in
    __init__, so `flag and self.save_maps` is folded and the body is never compiled."""

    def __init__(self):
        super().__init__()
        self.save_maps = False

    def keep(self, value):
        self.kept = value

    def construct(self, x):
        flag = x.shape[0] > 1
        if flag and self.save_maps:
            self.keep(x)
        return x * 2
