"""branch-on-state-assigned-later, fixed: the state is a Parameter, updated with ops.assign and
tested as a tensor, so the branch is taken at run time on every call.

What the compiler does at each level: msgraphlint explain branch-on-state-assigned-later.
"""

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class WarmUp(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = Parameter(Tensor(0, ms.int32), requires_grad=False)

    def construct(self, x):
        if self.calls == 0:
            y = x * 3
        else:
            y = x
        ops.assign_add(self.calls, Tensor(1, ms.int32))
        return y


class StepCounter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = Parameter(Tensor(0, ms.int32), requires_grad=False)

    def construct(self, x):
        if self.steps > 0:
            x = x * 2
        ops.assign_add(self.steps, Tensor(1, ms.int32))
        return x
