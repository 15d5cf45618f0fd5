"""custom-object-mutation, fixed: the step count is a Parameter updated with ops.assign. Per level: msgraphlint explain custom-object-mutation."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class Warmup(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(0.0, ms.float32), requires_grad=False)

    def construct(self, x):
        ops.assign(self.count, self.count + 1)
        return x * self.count
